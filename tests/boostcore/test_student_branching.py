"""Be the weak learner on /branching (issue 17): ``score_stump`` and ``bp_infoboost(choose=…)``.

BP.InfoBoost (Takimoto, Koya & Maruoka; docs/theory.md §2). A student's stump for round ``t`` is
scored by the run's own round functions; these tests check that (1) the weak learner's stump
scores exactly as the snapshot of that round records, (2) the scores agree with a brute force
written here from the paper's definitions, (3) the weak learner is an argmin of its criterion
against random student stumps, (4) a run continued from random students' stumps keeps the step
protocol and Theorem 1 (training error ≤ Π Z_t) with Lemma 2's sandwich, and (5) bad inputs are
refused with messages that name the parameter, the rule and the value.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from boostcore import steps
from boostcore.branching import (
    HALF_TOL,
    NO_INFO,
    STEP,
    STOP,
    BPStep,
    RoundScore,
    StumpScore,
    bp_infoboost,
    score_stump,
)
from boostcore.datasets import make_dataset
from tests.strategies import labelled_samples

H = settings(max_examples=30, deadline=None)
MERGES = st.sampled_from(["all", "bands", "none"])
WEAK = st.sampled_from(["h", "divided"])
TOL = 1e-9


def _same_score(score: StumpScore, step: BPStep) -> None:
    """Everything the snapshot of a round records equals the score of its stump, bit for bit
    (both come from the same functions)."""
    assert (score.feature, score.threshold) == (step.feature, step.threshold)
    assert score.metrics == step.metrics
    for name in ("child_mass", "child_q", "merge", "weights", "leaf_mass", "D_next"):
        np.testing.assert_array_equal(getattr(score, name), getattr(step, name), err_msg=name)
    assert score.eps == step.eps and score.groups == step.groups


def _student_stump(rng: np.random.Generator, X: np.ndarray) -> tuple[int, float]:
    """A random stump: a random feature, a threshold at a data value, between two values, or
    beyond the data (a constant stump)."""
    f = int(rng.integers(X.shape[1]))
    col = X[:, f]
    kind = rng.integers(3)
    if kind == 0:
        theta = float(rng.choice(col))
    elif kind == 1:
        theta = float(rng.uniform(col.min(), col.max())) if col.max() > col.min() else col[0]
    else:
        theta = float(col.max() + 1.0 if rng.random() < 0.5 else col.min() - 1.0)
    return f, theta


# --------------------------------------------------------------------------- (1) the snapshots
@H
@given(
    data=labelled_samples(),
    merge=MERGES,
    weak=WEAK,
    c=st.floats(0.05, 0.95),
    rounds=st.integers(1, 10),
)
def test_the_weak_learners_stump_scores_as_every_snapshot_records(data, merge, weak, c, rounds):
    X, y = data
    kw = dict(merge=merge, c=c, weak=weak)
    run = list(bp_infoboost(X, y, n_rounds=rounds, **kw))
    for prev, s in zip(run, run[1:]):
        if s.kind != STEP:
            continue
        r = score_stump(X, y, prev, s.feature, s.threshold, **kw)
        assert isinstance(r, RoundScore) and r.t == s.t and r.weak == weak
        _same_score(r.yours, s)
        _same_score(r.algorithm, s)  # without a policy the run plays the weak learner's stump
        assert r.same_partition
        assert (s.algorithm_feature, s.algorithm_threshold, s.by_policy) == (
            s.feature,
            s.threshold,
            False,
        )


@H
@given(data=labelled_samples(), merge=MERGES, weak=WEAK, rounds=st.integers(1, 6))
def test_a_stop_snapshot_scores_the_round_after_the_run(data, merge, weak, rounds):
    """The stop snapshot is a state too: scoring from it is the next round of a longer run."""
    X, y = data
    short = list(bp_infoboost(X, y, n_rounds=rounds, merge=merge, weak=weak))
    longer = list(bp_infoboost(X, y, n_rounds=rounds + 1, merge=merge, weak=weak))
    assume(short[-1].stop_reason.startswith("All T") and len(longer) == len(short) + 1)
    nxt = longer[rounds + 1]
    assume(nxt.kind == STEP)
    r = score_stump(X, y, short[-1], nxt.feature, nxt.threshold, merge=merge, weak=weak)
    _same_score(r.yours, nxt)
    _same_score(r.algorithm, nxt)


# --------------------------------------------------------------------------- (2) brute force
def _G(p: float, n: float) -> float:
    """One cell's share of ``H_D(Y|g)``: ``2 sqrt(P(+) P(−))`` (eq. (1))."""
    return 2.0 * math.sqrt(p * n)


def _brute_force(X, y, step: BPStep, f: int, theta: float, merge: str, c: float, eps_s: float):
    """The round after ``step`` with the stump ``[x_f > θ]``, from the paper's definitions with
    plain loops (Fig. 4; Theorem 3 for the bands, ε_j in its second form)."""
    m = len(y)
    D = np.array(step.D_next)
    leaf = step.program.leaves(X)  # ℓ_{t−1}: the program routes, the test does the rest
    n_leaves = len(step.weights)
    side = [1 if X[i, f] > theta else 0 for i in range(m)]
    # H_{D_t}(Y|h_t)
    cell = {(a, s): 0.0 for a in (0, 1) for s in (1, -1)}
    for i in range(m):
        cell[side[i], 1 if y[i] > 0 else -1] += D[i]
    H_h = sum(_G(cell[a, 1], cell[a, -1]) for a in (0, 1))
    # divided children z = 2l + a
    wp = [0.0] * (2 * n_leaves)
    wn = [0.0] * (2 * n_leaves)
    reached = [False] * (2 * n_leaves)
    for i in range(m):
        z = 2 * int(leaf[i]) + side[i]
        reached[z] = True
        if y[i] > 0:
            wp[z] += D[i]
        else:
            wn[z] += D[i]
    q = [
        0.5 if abs(p - n) <= HALF_TOL * (p + n) else p / (p + n) for p, n in zip(wp, wn)
    ]  # an empty child (0 = 0) is 1/2 too
    H_div = sum(_G(p, n) for p, n in zip(wp, wn))
    gamma = 1.0 - H_div
    # merge: a key per child, a leaf per key
    near_edge = False
    if merge == "all":
        key = [z % 2 for z in range(2 * n_leaves)]
    elif merge == "none":
        key = [z if reached[z] else None for z in range(2 * n_leaves)]
    else:
        if gamma <= NO_INFO:
            eps = [0.0, 1.0]
        else:
            eps = [0.0]
            j = 1
            while eps[-1] < 1.0:
                eps.append(((1 + c) / (2 * c)) ** (j - 1) * (1 - c) * gamma / 2)
                j += 1
        key = []
        for z in range(2 * n_leaves):
            u = 1.0 - 2.0 * math.sqrt(q[z] * (1.0 - q[z]))
            band = next((j for j in range(1, len(eps)) if eps[j - 1] <= u < eps[j]), len(eps) - 1)
            near_edge |= any(abs(u - e) < 1e-9 for e in eps[1:])
            key.append((z % 2, 1 if q[z] >= 0.5 else -1, band))
    groups: dict[object, list[int]] = {}
    for z, k in enumerate(key):
        if k is not None:
            groups.setdefault(k, []).append(z)
    # leaf weights (eq. (8), smoothed where pure), Z_t and D_{t+1} (eq. (9))
    w_of_child = {}
    H_leaves = 0.0
    for members in groups.values():
        gp, gn = sum(wp[z] for z in members), sum(wn[z] for z in members)
        H_leaves += _G(gp, gn)
        if gp + gn == 0:
            w = 0.0
        elif gp > 0 and gn > 0:
            w = 0.5 * math.log(gp / gn)
        else:
            w = 0.5 * math.log((gp + eps_s) / (gn + eps_s))
        for z in members:
            w_of_child[z] = w
    w_i = np.array([w_of_child[2 * int(leaf[i]) + side[i]] for i in range(m)])
    Z = float(sum(D[i] * math.exp(-w_i[i] * y[i]) for i in range(m)))
    F = step.program.decision_function(X) + w_i
    return {
        "H_h": H_h,
        "H_divided": H_div,
        "H_leaves": H_leaves,
        "Z": Z,
        "prod_Z": step.metrics.bound_prod_Z * Z,
        "train_error": float(np.mean(np.where(F > 0, 1, -1) != y)),
        "child_mass": np.add(wp, wn),
        "q": np.array(q),
        "partition": sorted(sorted(g) for g in groups.values()),
        "near_edge": near_edge,
        "D_next": D * np.exp(-w_i * y) / Z,
    }


@H
@given(
    data=labelled_samples(),
    merge=MERGES,
    c=st.floats(0.05, 0.95),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 2**31 - 1),
)
def test_scores_agree_with_a_brute_force_from_the_definitions(data, merge, c, rounds, seed):
    X, y = data
    y_pm = np.where(y == np.max(y), 1, -1)
    rng = np.random.default_rng(seed)
    run = steps.rounds(list(bp_infoboost(X, y, n_rounds=rounds, merge=merge, c=c)))
    step = run[int(rng.integers(len(run)))]
    for _ in range(3):
        f, theta = _student_stump(rng, X)
        got = score_stump(X, y, step, f, theta, merge=merge, c=c).yours
        bf = _brute_force(X, y_pm, step, f, theta, merge, c, 1.0 / (2 * len(y)))
        for name in ("H_h", "H_divided", "H_leaves", "Z", "prod_Z", "train_error"):
            assert getattr(got, name) == pytest.approx(bf[name], abs=TOL), name
        np.testing.assert_allclose(got.child_mass, bf["child_mass"], atol=TOL)
        np.testing.assert_allclose(got.child_q, bf["q"], atol=TOL)
        np.testing.assert_allclose(got.D_next, bf["D_next"], atol=TOL)
        if not bf["near_edge"]:
            ours = {}
            for z, g in enumerate(got.merge.tolist()):
                if g >= 0:
                    ours.setdefault(g, []).append(z)
            assert sorted(sorted(v) for v in ours.values()) == bf["partition"]
        # the table of the divided leaves lists the reached children with their numbers
        rows = got.divided_leaves()
        assert [r["child"] for r in rows] == np.flatnonzero(got.child_reached).tolist()
        for r in rows:
            assert r["side"] == (1 if r["child"] % 2 else -1) and r["leaf"] == r["child"] // 2
            assert r["mass"] == got.child_mass[r["child"]]


# --------------------------------------------------------------------------- (3) argmin
@H
@given(
    data=labelled_samples(),
    merge=MERGES,
    weak=WEAK,
    rounds=st.integers(1, 8),
    seed=st.integers(0, 2**31 - 1),
)
def test_the_weak_learner_beats_random_students_by_its_own_criterion(
    data, merge, weak, rounds, seed
):
    X, y = data
    rng = np.random.default_rng(seed)
    run = steps.rounds(list(bp_infoboost(X, y, n_rounds=rounds, merge=merge, weak=weak)))
    step = run[int(rng.integers(len(run)))]
    for _ in range(6):
        f, theta = _student_stump(rng, X)
        r = score_stump(X, y, step, f, theta, merge=merge, weak=weak)
        if r.algorithm is None:  # no feature has two values: every stump is a constant
            assert np.ptp(X, axis=0).max() == 0
            continue
        assert r.algorithm.objective(weak) <= r.yours.objective(weak) + TOL
        # Lemma 2's sandwich holds for any stump, the student's included
        s = r.yours
        assert s.H_divided <= s.H_leaves + TOL
        assert s.H_leaves <= s.H_h + TOL
        assert s.Z == pytest.approx(s.H_leaves + s.metrics.smoothing_excess, abs=TOL)


# --------------------------------------------------------------------------- (4) choose=
def _random_policy(X, seed: int, p_none: float):
    """A random student: each round, the weak learner (None) with probability ``p_none``,
    else a random stump; records what it returned."""
    rng = np.random.default_rng(seed)
    said: dict[int, tuple[int, float] | None] = {}

    def choose(step: BPStep):
        assert isinstance(step, BPStep) and step.kind != STOP
        out = None if rng.random() < p_none else _student_stump(rng, X)
        said[step.t + 1] = out
        return out

    return choose, said


@H
@given(
    data=labelled_samples(),
    merge=MERGES,
    weak=WEAK,
    c=st.floats(0.05, 0.95),
    rounds=st.integers(1, 10),
    seed=st.integers(0, 2**31 - 1),
    p_none=st.sampled_from([0.0, 0.3, 0.7]),
)
def test_random_students_keep_the_protocol_and_theorem1(data, merge, weak, c, rounds, seed, p_none):
    X, y = data
    choose, said = _random_policy(X, seed, p_none)
    kw = dict(merge=merge, c=c, weak=weak)
    run = list(bp_infoboost(X, y, n_rounds=rounds, choose=choose, **kw))
    steps.check_run(run)
    prod_Z = 1.0
    for prev, s in zip(run, run[1:]):
        if s.kind != STEP:
            continue
        m = s.metrics
        picked = said[s.t]
        assert s.by_policy == (picked is not None)
        if picked is not None:
            assert (s.feature, s.threshold) == picked
            assert "chosen by the policy" in s.message
        # the round is what the student's scoring said, and the weak learner's stump is recorded
        r = score_stump(X, y, prev, s.feature, s.threshold, **kw)
        _same_score(r.yours, s)
        if r.algorithm is None:
            assert s.algorithm_feature is None and s.algorithm_threshold is None
        else:
            assert (s.algorithm_feature, s.algorithm_threshold) == (
                r.algorithm.feature,
                r.algorithm.threshold,
            )
        # Theorem 1 (any stumps, any scheme, smoothing on or off): error ≤ Π Z_t
        prod_Z *= m.Z
        assert m.bound_prod_Z == pytest.approx(prod_Z, rel=1e-12)
        assert m.train_error <= m.bound_prod_Z + 1e-12
        # Lemma 2: Z_t = H(Y|ℓ_t) + smoothing, and H(Y|ℓ̃_t) ≤ H(Y|ℓ_t) ≤ H(Y|h_t)
        assert m.Z == pytest.approx(m.H_leaves + m.smoothing_excess, abs=TOL)
        assert m.H_divided <= m.H_leaves + TOL
        assert m.H_leaves <= m.H_h + TOL
        assert m.Z <= m.H_h + m.smoothing_excess + TOL
        if merge == "bands":
            assert m.H_leaves <= m.bound_theorem3 + TOL  # Theorem 3, any h_t
            assert m.n_leaves + m.n_unreached <= m.max_groups


@H
@given(data=labelled_samples(), merge=MERGES, weak=WEAK, rounds=st.integers(1, 8))
def test_a_policy_that_always_defers_gives_the_default_run(data, merge, weak, rounds):
    X, y = data
    kw = dict(n_rounds=rounds, merge=merge, weak=weak)
    asked = []
    run = list(bp_infoboost(X, y, choose=lambda s: asked.append(s.t), **kw))
    default = list(bp_infoboost(X, y, **kw))
    assert [s.to_record() for s in run] == [s.to_record() for s in default]
    # asked once per round tried, with the snapshot before it (a run that stops early tried
    # one round more than it played)
    last = default[-1]
    tried = last.t if last.stop_reason.startswith("All T") else last.t + 1
    assert asked == list(range(tried))
    assert not any(s.by_policy for s in run)


def test_a_students_uninformative_stump_is_played_and_costs_nothing() -> None:
    """InfoBoost's own stump has no information left after its round (Lemma 3): a student who
    plays it again gets Z_t = 1 (the bound stays), and the run goes on."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 0] + rng.normal(size=80) > 0, 1, -1)  # noisy: no side of h_1 is pure
    first = list(bp_infoboost(X, y, n_rounds=1, merge="all"))[1]
    assert first.metrics.smoothing_excess == 0  # Lemma 3 needs unsmoothed weights
    again = {2: (first.feature, first.threshold)}
    run = list(bp_infoboost(X, y, n_rounds=3, merge="all", choose=lambda s: again.get(s.t + 1)))
    steps.check_run(run)
    assert [s.t for s in steps.rounds(run)] == [0, 1, 2, 3]
    m1, m2 = run[1].metrics, run[2].metrics
    assert run[2].by_policy and m2.H_h == pytest.approx(1.0, abs=1e-12)
    assert m2.Z == pytest.approx(1.0, abs=1e-12)
    assert m2.bound_prod_Z == pytest.approx(m1.bound_prod_Z, abs=1e-12)
    r = score_stump(X, y, run[1], first.feature, first.threshold, merge="all")
    assert r.yours.no_information and not r.algorithm.no_information


def test_a_constant_stump_beyond_the_data_is_a_legal_round() -> None:
    ds = make_dataset("moons", n=60, random_state=2)
    X, y = ds.X_train, ds.y_train
    beyond = float(X[:, 0].max() + 5.0)
    for merge in ("all", "bands", "none"):
        run = list(bp_infoboost(X, y, n_rounds=2, merge=merge, choose=lambda s: (0, beyond)))
        steps.check_run(run)
        for s in steps.rounds(run)[1:]:
            assert s.metrics.train_error <= s.metrics.bound_prod_Z + 1e-12
            # every point is on the side x ≤ θ: only even children are reached
            assert np.all(s.child_mass[1::2] == 0)


def test_a_policy_may_play_where_the_weak_learner_has_no_stump() -> None:
    """Every feature constant: the weak learner has nothing (a run without a policy stops at
    once), a student's stump is a constant and still a legal, recorded round."""
    X = np.zeros((12, 2))
    y = np.array([1] * 8 + [-1] * 4)
    assert [s.kind for s in bp_infoboost(X, y, n_rounds=3)] == ["start", "stop"]
    run = list(bp_infoboost(X, y, n_rounds=2, choose=lambda s: (1, 0.5)))
    steps.check_run(run)
    s1, s2 = run[1], run[2]
    assert s1.by_policy and s1.algorithm_feature is None and s1.algorithm_threshold is None
    assert "the weak learner has no stump" in s1.message
    assert s1.metrics.H_h == pytest.approx(2 * math.sqrt(8 / 12 * 4 / 12))  # H(Y) under D_1
    assert s2.metrics.Z == pytest.approx(1.0)  # nothing left to learn from a constant
    for s in (s1, s2):
        assert s.metrics.train_error <= s.metrics.bound_prod_Z + 1e-12
    r = score_stump(X, y, run[0], 0, -1.0)
    assert r.algorithm is None and not r.same_partition
    assert r.yours.metrics == s1.metrics  # a constant stump: the side does not matter


# --------------------------------------------------------------------------- (5) validation
@pytest.fixture(scope="module")
def moons_run():
    ds = make_dataset("moons", n=80, random_state=0)
    run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3, merge="bands"))
    return ds.X_train, ds.y_train, run


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"feature": 2}, "feature must be between 0 and 1; got 2"),
        ({"feature": -1}, "feature must be between 0 and 1; got -1"),
        ({"feature": 1.0}, "feature must be an integer; got 1.0"),
        ({"feature": True}, "feature must be an integer; got True"),
        ({"threshold": float("nan")}, "threshold must be a finite number; got nan"),
        ({"threshold": "0.5"}, "threshold must be a finite number; got '0.5'"),
        ({"merge": "some"}, "merge must be one of 'bands', 'all', 'none'; got 'some'"),
        ({"merge": "all"}, "merge must be the run's scheme: step comes from a 'bands' run"),
        ({"c": 1.0}, "c must be > 0.0 and < 1.0; got 1.0"),
        ({"weak": "tree"}, "weak must be one of 'h', 'divided'; got 'tree'"),
        ({"smoothing": 0.0}, "smoothing must be > 0.0; got 0.0"),
        ({"step": "round 2"}, "step must be a BPStep snapshot of bp_infoboost; got str"),
    ],
)
def test_score_stump_names_the_bad_parameter(moons_run, kwargs, message) -> None:
    X, y, run = moons_run
    args = {"step": run[2], "feature": 0, "threshold": 0.0, **kwargs}
    step, f, theta = args.pop("step"), args.pop("feature"), args.pop("threshold")
    with pytest.raises(ValueError, match="^" + _escape(message)):
        score_stump(X, y, step, f, theta, **args)


def test_score_stump_refuses_a_snapshot_of_other_data(moons_run) -> None:
    X, y, run = moons_run
    m = len(y)
    with pytest.raises(ValueError, match=f"its D_t has {m} weights, X has {m - 1} rows"):
        score_stump(X[:-1], y[:-1], run[1], 0, 0.0)
    assert 1 in [r.feature for r in run[-1].program.rounds]
    with pytest.raises(ValueError, match="its program uses feature 1, X has 1 columns"):
        score_stump(X[:, :1], y, run[-1], 0, 0.0)
    with pytest.raises(ValueError, match="^y has 3 classes"):
        score_stump(X, np.arange(len(y)) % 3, run[1], 0, 0.0)


def test_bp_infoboost_checks_choose_up_front_and_what_it_returns(moons_run) -> None:
    X, y, _ = moons_run
    with pytest.raises(ValueError, match=r"^choose must be None or a callable .*; got 3$"):
        bp_infoboost(X, y, n_rounds=2, choose=3)  # at call time, before any step
    bad = [
        ("x1", "choose must return None or (feature, threshold); for round 1 it returned 'x1'"),
        ((0, 1.0, 2.0), "choose must return None or (feature, threshold); for round 1"),
        ((5, 0.0), "the feature choose returned must be between 0 and 1; got 5"),
        ((0.0, 0.0), "the feature choose returned must be an integer; got 0.0"),
        ((0, float("inf")), "the threshold choose returned must be a finite number; got inf"),
    ]
    for out, message in bad:
        run = bp_infoboost(X, y, n_rounds=2, choose=lambda s, out=out: out)
        assert next(run).kind == "start"
        with pytest.raises(ValueError, match="^" + _escape(message)):
            next(run)


def _escape(text: str) -> str:
    import re

    return re.escape(text)


def test_the_divided_learner_stops_on_what_it_minimises() -> None:
    """Remark (1)'s learner minimises H(Y|ℓ̃_t): on an XOR grid no stump informs alone
    (H(Y|h_t) = 1 at round 3) yet it divides the leaves into pure children, so the run goes on
    and reaches training error 0 (found by the student's-stump scoring: the divided learner
    used to stop on H(Y|h_t) = 1 after round 2)."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 3 + [[0.0, 0.0]])
    y = np.array([1, -1, -1, 1] * 3 + [1])
    for merge in ("none", "bands"):
        divided = list(bp_infoboost(X, y, n_rounds=5, merge=merge, weak="divided"))
        steps.check_run(divided)
        assert divided[-1].t == 5 and divided[-1].stop_reason.startswith("All T = 5")
        assert divided[-1].metrics.train_error == 0.0
        assert divided[-1].metrics.train_error <= divided[-1].metrics.bound_prod_Z
        # round 3's stump tells nothing alone, and the run went past it
        assert divided[3].metrics.H_h > 1.0 - 1e-9 and divided[3].metrics.H_divided < 1.0
