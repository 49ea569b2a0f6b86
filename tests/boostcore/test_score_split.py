"""Being the weak learner (issue 17): ``score_split``, ``best_splits`` and ``grow(choose=…)``.

* ``score_split`` against a re-scoring written here from the definitions (docs/theory.md
  §0.1 gain and advantage; Hatano 2004, Fig. 2; Mansour–McAllester §4; docs/theory.md §1.2–1.4);
* every snapshot of ``grow``: its split scores, by ``score_split``, exactly what the snapshot
  records, and at least as well as every other split of that leaf (all arities up to the run's
  ``max_arity``, every choice of cut positions between distinct values);
* ``grow(choose=…)`` with random legal policies (lighter leaves, forced splits, ``None``):
  the step protocol, ``ε̂ ≤ I(T)``, the size budget, ``γ̂`` from the chosen splits, and the
  theorems wherever the run's flags say their assumptions held;
* the messages of every refused input.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from boostcore import bounds, steps
from boostcore.steps import STEP, STOP
from boostcore.topdown import (
    CRITERIA,
    LEAF_RULES,
    GrowState,
    SplitChoice,
    SplitScore,
    best_splits,
    grow,
    replay,
    score_split,
)
from tests.strategies import labelled_samples

H = dict(deadline=None, database=None)
INDICES = ("km", "gini", "entropy", "error")


# --------------------------------------------------------------------------------------------
# the definitions, written out independently of boostcore


def index_value(name: str, q: float) -> float:
    """The index functions of docs/theory.md §0.1, each with I(0) = I(1) = 0 and I(1/2) = 1."""
    if name == "km":
        return 2.0 * math.sqrt(max(q * (1.0 - q), 0.0))
    if name == "gini":
        return 4.0 * q * (1.0 - q)
    if name == "entropy":
        if q <= 0.0 or q >= 1.0:
            return 0.0
        return -(q * math.log2(q) + (1.0 - q) * math.log2(1.0 - q))
    return 2.0 * min(q, 1.0 - q)


def e_gamma(n: int, gamma: float) -> float:
    """Mansour–McAllester's e_γ(n) = Π_{i=1}^{n−1} (1 − γ/i) (their typo corrected,
    docs/theory.md §6)."""
    out = 1.0
    for i in range(1, n):
        out *= 1.0 - gamma / i
    return out


def levels(k: int) -> int:
    """⌈log₂ k⌉ by counting doublings."""
    n, power = 0, 1
    while power < k:
        power *= 2
        n += 1
    return n


def price_of(criterion: str, k: int, gamma) -> float:
    if criterion == "hatano":
        return float(levels(k))
    if criterion == "mansour_mcallester":
        return (1.0 - e_gamma(k, gamma)) / gamma
    return 1.0


def acceptable_by_spec(criterion: str, k: int, n_leaves: int, size: int, gamma) -> bool:
    """docs/theory.md §1.2–1.4: the budget, then the criterion's own rule."""
    if n_leaves + k - 1 > size:
        return False
    if criterion == "naive" or k == 2:
        return True
    if criterion == "hatano":
        return k <= size / n_leaves
    return n_leaves < e_gamma(k, gamma) * size * gamma / (2 * k)


def plus_one(y) -> np.ndarray:
    """The larger label is the positive class (as grow maps labels)."""
    y = np.asarray(y)
    return y == np.unique(y)[-1]


def brute_score(X, y, w, members, feature, thresholds, *, index, criterion, size, n_leaves, gamma):
    """Every quantity of a SplitScore from the definitions, by plain loops."""
    pos = plus_one(y)
    w = np.full(len(y), 1.0 / len(y)) if w is None else np.asarray(w, float) / np.sum(w)
    k = len(thresholds) + 1
    wpos, wall = [0.0] * k, [0.0] * k
    count = [0] * k
    for i in members:
        if w[i] == 0:
            continue
        b = 0
        while b < len(thresholds) and X[i, feature] > thresholds[b]:
            b += 1
        wall[b] += w[i]
        wpos[b] += w[i] if pos[i] else 0.0
        count[b] += 1
    mass = sum(wall)
    q = sum(wpos) / mass
    i_leaf = index_value(index, q)
    after = sum(m * index_value(index, p / m) for p, m in zip(wpos, wall)) / mass
    gain = i_leaf - after
    price = price_of(criterion, k, gamma)
    margin = (
        0.0 if gamma is None else gain / price_of("mansour_mcallester", k, gamma) - gamma * i_leaf
    )
    return dict(
        margin=margin,
        k=k,
        gain=gain,
        price=price,
        score=gain / price,
        advantage=gain / i_leaf,
        advantage_per_level=gain / (levels(k) * i_leaf),
        acceptable=acceptable_by_spec(criterion, k, n_leaves, size, gamma),
        gamma_boosting=None if gamma is None else margin >= -1e-12,
        leaf_mass=mass,
        leaf_q=q,
        leaf_index=i_leaf,
        child_mass=tuple(wall),
        child_q=tuple(p / m for p, m in zip(wpos, wall)),
        child_n=tuple(count),
    )


def assert_matches_brute(sc: SplitScore, want: dict) -> None:
    assert sc.k == want["k"] and sc.child_n == want["child_n"]
    for name in ("gain", "price", "score", "advantage", "advantage_per_level"):
        assert getattr(sc, name) == pytest.approx(want[name], rel=1e-9, abs=1e-12), name
    for name in ("leaf_mass", "leaf_q", "leaf_index"):
        assert getattr(sc, name) == pytest.approx(want[name], rel=1e-12, abs=1e-15), name
    assert sc.child_mass == pytest.approx(want["child_mass"], rel=1e-12, abs=1e-15)
    assert sc.child_q == pytest.approx(want["child_q"], rel=1e-12, abs=1e-15)
    assert sc.acceptable == want["acceptable"]
    assert (sc.reason == "") == sc.acceptable
    assert (sc.gamma_boosting is None) == (want["gamma_boosting"] is None)
    if sc.gamma_boosting is not None and abs(want["margin"]) > 1e-9:  # away from the edge
        assert sc.gamma_boosting == want["gamma_boosting"]


def midpoints(values: np.ndarray) -> np.ndarray:
    v = np.unique(values)
    return (v[:-1] + v[1:]) / 2


def all_splits(X: np.ndarray, rows: np.ndarray, max_arity: int):
    """Every interval split of the leaf: each feature, each arity, each choice of cuts."""
    for f in range(X.shape[1]):
        cuts = midpoints(X[rows, f])
        for k in range(2, max_arity + 1):
            for combo in itertools.combinations(cuts, k - 1):
                yield f, tuple(float(c) for c in combo)


def n_splits(X: np.ndarray, rows: np.ndarray, max_arity: int) -> int:
    total = 0
    for f in range(X.shape[1]):
        c = len(np.unique(X[rows, f])) - 1
        total += sum(math.comb(c, k - 1) for k in range(2, max_arity + 1))
    return total


# --------------------------------------------------------------------------------------------
# score_split against the definitions


@st.composite
def scored_splits(draw):
    X, y, w = draw(labelled_samples(weights=True, max_n=40, ties=("none", "fine", "coarse")))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n, d = X.shape
    members = rng.permutation(n)[: int(rng.integers(2, n + 1))]
    feature = int(rng.integers(0, d))
    cuts = midpoints(X[members, feature])
    if cuts.size == 0:  # the leaf is constant on that feature: take every row
        members = np.arange(n)
        cuts = midpoints(X[:, feature])
    if cuts.size == 0:  # the whole column is constant: make it take two values
        X = X.copy()
        X[0, feature] += 1.0
        cuts = midpoints(X[:, feature])
    k = int(rng.integers(2, min(6, cuts.size + 1) + 1))
    thresholds = tuple(sorted(rng.choice(cuts, size=k - 1, replace=False).tolist()))
    criterion = draw(st.sampled_from(CRITERIA))
    gamma = draw(st.floats(0.01, 1.0)) if criterion == "mansour_mcallester" else None
    if gamma is None and draw(st.booleans()):
        gamma = draw(st.floats(0.01, 1.0))
    size = draw(st.integers(2, 200))
    params = dict(
        index=draw(st.sampled_from(INDICES)),
        criterion=criterion,
        size=size,
        n_leaves=draw(st.integers(1, size)),
        gamma=gamma,
    )
    return X, y, w, members, feature, thresholds, params


@settings(max_examples=200, **H)
@given(case=scored_splits())
def test_score_split_equals_the_definitions(case):
    X, y, w, members, feature, thresholds, params = case
    pos = plus_one(y)[members]
    if pos.all() or not pos.any():
        with pytest.raises(ValueError, match="must be impure"):
            score_split(X, y, members, feature, thresholds, sample_weight=w, **params)
        event("pure leaf refused")
        return
    sc = score_split(X, y, members, feature, thresholds, sample_weight=w, **params)
    want = brute_score(X, y, w, members, feature, thresholds, **params)
    assert_matches_brute(sc, want)
    assert (sc.feature, sc.thresholds) == (feature, thresholds)
    assert (sc.criterion, sc.n_leaves, sc.size) == (
        params["criterion"],
        params["n_leaves"],
        params["size"],
    )
    assert sc.arity == sc.k and sc.cost == sc.price
    assert sc.leaf_weight == pytest.approx(sc.leaf_mass * sc.leaf_index, rel=1e-15)
    assert sc.index_drop == pytest.approx(sc.leaf_mass * sc.gain, rel=1e-15, abs=1e-300)
    assert sc.gain >= -1e-12  # concave index: splitting never raises I (up to rounding)
    event(f"k = {sc.k}, acceptable = {sc.acceptable}")


@settings(max_examples=60, **H)
@given(case=scored_splits(), seed=st.integers(0, 2**32 - 1))
def test_score_split_ignores_the_order_of_members_and_zero_weights(case, seed):
    X, y, w, members, feature, thresholds, params = case
    pos = plus_one(y)[members]
    if pos.all() or not pos.any():
        return
    rng = np.random.default_rng(seed)
    a = score_split(X, y, members, feature, thresholds, sample_weight=w, **params)
    b = score_split(X, y, rng.permutation(members), feature, thresholds, sample_weight=w, **params)
    assert a == b  # bit for bit: every score sums the leaf's rows in increasing order
    # a zero-weight point is ignored, as grow drops it: add one outside the leaf's rows
    X2 = np.vstack([X, X[members[:1]]])
    y2 = np.append(y, y[0])
    w2 = np.append(np.ones(len(y)) if w is None else w, 0.0)
    c = score_split(
        X2, y2, np.append(members, len(y)), feature, thresholds, sample_weight=w2, **params
    )
    assert c.gain == pytest.approx(a.gain, abs=1e-12) and c.child_n == a.child_n


def test_score_split_known_values():
    """Three stripes −/+/−: the 3-way split removes all impurity for two binary levels' price."""
    X = np.arange(6.0).reshape(-1, 1)
    y = np.array([-1, -1, 1, 1, -1, -1])
    args = dict(index="gini", criterion="hatano", size=8, n_leaves=1)
    three = score_split(X, y, range(6), 0, (1.5, 3.5), **args)
    assert three.gain == pytest.approx(8 / 9) and three.price == 2.0
    assert three.score == pytest.approx(4 / 9) and three.advantage == pytest.approx(1.0)
    assert three.advantage_per_level == pytest.approx(0.5) and three.acceptable
    assert three.child_mass == pytest.approx((1 / 3, 1 / 3, 1 / 3)) and three.child_q == (0, 1, 0)
    mm = score_split(
        X, y, range(6), 0, (1.5, 3.5), **{**args, "criterion": "mansour_mcallester"}, gamma=0.3
    )
    assert mm.price == pytest.approx(bounds.g_gamma(3, 0.3))
    assert not mm.acceptable and "e_γ(k)·s·γ/(2k)" in mm.reason
    naive = score_split(X, y, range(6), 0, (1.5, 3.5), **{**args, "criterion": "naive"})
    assert naive.price == 1.0 and naive.score == pytest.approx(8 / 9) and naive.acceptable
    over = score_split(X, y, range(6), 0, (1.5, 3.5), **{**args, "n_leaves": 7})
    assert not over.acceptable and over.reason == "3 leaves would overshoot the budget s = 8"


# --------------------------------------------------------------------------------------------
# grow's snapshots against score_split and against every other split


@st.composite
def small_runs(draw, leaf_rule=None):
    """Small data with few distinct values (every split of a leaf can be listed) and noisy
    labels (leaves stay impure, so runs last several rounds)."""
    X, y, w = draw(
        labelled_samples(
            min_n=20,
            max_n=50,
            max_d=2,
            levels=(4, 6, 9),
            weights=True,
            labels=("random", "linear", "xor"),
            noise=(0.3, 1.5),
        )
    )
    if w is not None and draw(st.booleans()):
        w = w.copy()
        w[::3] = 0.0  # zero weights: grow ignores those points, and so must score_split
    criterion = draw(st.sampled_from(CRITERIA))
    gamma = draw(st.floats(0.01, 0.4)) if criterion == "mansour_mcallester" else None
    params = dict(
        size=draw(st.sampled_from([2, 3, 5, 8, 12, 16])),
        index=draw(st.sampled_from(INDICES)),
        criterion=criterion,
        max_arity=draw(st.integers(2, 4)),
        gamma=gamma,
        leaf_rule=leaf_rule or draw(st.sampled_from(LEAF_RULES)),
        sample_weight=w,
    )
    return X, y, params


def same_metrics(a, b) -> bool:
    """Equal metrics, nan (γ̂ before the first split) equal to nan."""
    da, db = a.as_dict(), b.as_dict()
    return da.keys() == db.keys() and all(
        da[k] == db[k] or (da[k] != da[k] and db[k] != db[k]) for k in da
    )


def leaf_members(tree, X, leaf, w) -> np.ndarray:
    rows = np.flatnonzero(tree.apply(X) == leaf)
    return rows if w is None else rows[np.asarray(w)[rows] > 0]


def judge_args(params: dict, n_leaves: int) -> dict:
    return dict(
        index=params["index"],
        criterion=params["criterion"],
        size=params["size"],
        n_leaves=n_leaves,
        gamma=params["gamma"],
        sample_weight=params["sample_weight"],
    )


@settings(max_examples=80, **H)
@given(case=small_runs())
def test_every_snapshot_scores_as_score_split_and_beats_every_other_split(case):
    X, y, params = case
    run = list(grow(X, y, **params))
    steps.check_run(run)
    for prev, step in zip(run, run[1:]):
        if step.kind != STEP:
            continue
        rec, n = step.split, prev.tree.n_leaves
        rows = leaf_members(prev.tree, X, rec.leaf, params["sample_weight"])
        args = judge_args(params, n)
        mine = score_split(X, y, rows, rec.feature, rec.thresholds, **args)
        # exactly the recorded numbers: one implementation scores both
        assert (mine.gain, mine.score, mine.advantage, mine.price, mine.acceptable) == (
            rec.gain,
            rec.score,
            rec.advantage,
            rec.cost,
            rec.acceptable,
        )
        assert mine.advantage_per_level == rec.advantage_per_level
        assert mine.gamma_boosting == rec.gamma_boosting
        for c in step.candidates:
            theirs = score_split(X, y, rows, c.feature, c.thresholds, **args)
            assert (theirs.gain, theirs.score, theirs.acceptable, theirs.reason) == (
                c.gain,
                c.score,
                c.acceptable,
                c.note,
            )
        if n_splits(X, rows, params["max_arity"]) > 3000:
            event("leaf too large to list every split")
            continue
        best_of_k = {c.arity: c.score for c in step.candidates}
        for f, thr in all_splits(X, rows, params["max_arity"]):
            other = score_split(X, y, rows, f, thr, **args)
            # the chosen split is the criterion's argmax over every acceptable split …
            if other.acceptable:
                assert rec.score >= other.score - 1e-12, (f, thr)
            # … and each candidate the argmax of its arity (the "why this split" table)
            assert best_of_k[other.k] >= other.score - 1e-12, (f, thr)
        event(f"{params['criterion']}, max_arity {params['max_arity']}")
        if rec.arity > 2:
            event("a multi-way split checked against every split of its leaf")


@settings(max_examples=40, **H)
@given(case=small_runs(leaf_rule="max_weight"))
def test_best_splits_and_the_state_give_the_runs_own_candidates(case):
    X, y, params = case
    states: list[GrowState] = []

    def watch(state: GrowState):
        states.append(state)
        return None

    run = list(grow(X, y, choose=watch, **params))
    plain = list(grow(X, y, **params))
    assert len(run) == len(plain)
    for state, step in zip(states, run[1:]):
        if step.kind != STEP:
            continue
        leaf = step.split.leaf
        assert state.algorithm_leaf == leaf == state.max_weight_leaf
        cands = state.candidates(leaf)
        assert [(c.k, c.feature, c.thresholds, c.gain, c.score) for c in cands] == [
            (c.arity, c.feature, c.thresholds, c.gain, c.score) for c in step.candidates
        ]
        assert state.best(leaf) == state.algorithm_split
        found = best_splits(
            X,
            y,
            state.members(leaf),
            max_arity=params["max_arity"],
            **judge_args(params, state.n_leaves),
        )
        assert found == cands
        np.testing.assert_array_equal(
            state.members(leaf), leaf_members(state.tree, X, leaf, params["sample_weight"])
        )
    # watching without choosing changes nothing
    for a, b in zip(run, plain):
        assert a.split == b.split and a.message == b.message
        assert same_metrics(a.metrics, b.metrics)


# --------------------------------------------------------------------------------------------
# grow(choose=…) with random legal policies


def random_policy(rng: np.random.Generator, X: np.ndarray, log: list):
    """Any splittable leaf (often not the heaviest), any feature, arity and cuts; sometimes
    None, sometimes a split the criterion refuses, forced."""

    def policy(state: GrowState):
        if rng.random() < 0.2:
            log.append(None)
            return None
        leaves = [leaf for leaf in state.leaves if state.splittable[leaf]]
        leaf = int(rng.choice(leaves)) if rng.random() < 0.5 else state.max_weight_leaf
        rows = state.members(leaf)
        feats = [f for f in range(X.shape[1]) if len(np.unique(X[rows, f])) >= 2]
        f = int(rng.choice(feats))
        cuts = midpoints(X[rows, f])
        room = state.size - state.n_leaves + 1
        k = int(rng.integers(2, min(state.max_arity, cuts.size + 1, room) + 1))
        thr = tuple(sorted(float(c) for c in rng.choice(cuts, size=k - 1, replace=False)))
        force = False
        if not state.score(leaf, f, thr).acceptable:
            if rng.random() < 0.5:
                force = True
            else:
                thr = thr[:1]  # a binary split is always acceptable
        choice = SplitChoice(leaf, f, thr, force)
        log.append(choice)
        return choice

    return policy


@settings(max_examples=250, **H)
@given(case=small_runs(), seed=st.integers(0, 2**32 - 1))
def test_random_policies_keep_the_protocol_the_budget_and_the_theorems(case, seed):
    X, y, params = case
    rng = np.random.default_rng(seed)
    log: list = []
    run = list(grow(X, y, choose=random_policy(rng, X, log), **params))
    steps.check_run(run)
    size, gamma = params["size"], params["gamma"]
    g_hat = math.inf
    n_policy = 0
    calls = iter(log)
    for prev, step in zip(run, run[1:]):
        m = step.metrics
        assert 0.0 <= m.train_error <= m.index_value + 1e-12
        assert m.n_leaves == step.tree.n_leaves <= size
        if step.kind == STOP:
            if "γ̂ = 0" in step.stop_reason:
                g_hat = 0.0
            continue
        rec = step.split
        choice = next(calls)
        assert rec.by_policy == (choice is not None)
        n_policy += rec.by_policy
        if choice is not None:
            assert (rec.leaf, rec.feature, rec.thresholds) == (
                choice.leaf,
                choice.feature,
                choice.thresholds,
            )
            assert rec.acceptable == (not choice.force)
            assert "the policy's choice" in step.message
        assert step.tree.n_leaves == prev.tree.n_leaves + rec.arity - 1
        # the snapshot records what score_split says of the chosen split, exactly
        rows = leaf_members(prev.tree, X, rec.leaf, params["sample_weight"])
        sc = score_split(
            X, y, rows, rec.feature, rec.thresholds, **judge_args(params, prev.tree.n_leaves)
        )
        assert (sc.gain, sc.score, sc.advantage_per_level) == (
            rec.gain,
            rec.score,
            rec.advantage_per_level,
        )
        # γ̂ follows the chosen splits (0 once the heaviest leaf could not be split)
        g_hat = min(g_hat, rec.advantage_per_level)
        if "cannot be split" in step.note:
            g_hat = 0.0
        assert m.gamma_hat == g_hat and m.policy_rounds == n_policy
        g = min(max(g_hat, 0.0), 1.0)
        assert m.bound_final == pytest.approx(size ** (-g), rel=1e-12)
        assert m.bound_phi_final == pytest.approx(bounds.phi_gamma(size, g), rel=1e-12)
        # overriding the max-weight rule or forcing a split ends the guarantees it breaks
        if not rec.max_weight_leaf and "cannot be split" not in step.note:
            assert not m.binary_guarantee and not m.final_guarantee
            assert m.mm_guarantee in (None, False)
        if not rec.acceptable and params["criterion"] == "hatano":
            assert not m.final_guarantee
        if not rec.acceptable and params["criterion"] == "mansour_mcallester":
            assert m.mm_guarantee is False
        # the theorems, wherever the run says their assumptions held
        if m.binary_guarantee:
            assert m.index_value <= m.bound_phi + 1e-9
            assert m.bound_phi <= m.bound_e + 1e-12 and m.bound_e <= m.bound_power + 1e-12
    final = run[-1].metrics
    assert final.gamma_hat == g_hat or (math.isnan(final.gamma_hat) and g_hat == math.inf)
    if run[-1].tree.n_leaves == size:
        if final.final_guarantee:
            assert final.index_value <= final.bound_phi_final + 1e-9
            assert final.bound_phi_final <= final.bound_final + 1e-12
            event("Theorem 4 checked on a policy's run")
        if final.mm_guarantee:
            assert final.index_value <= final.bound_mm + 1e-9
            event("Theorem 4.1 checked on a policy's run")
    if gamma is not None and final.mm_guarantee is not None:
        assert final.mm_guarantee <= bool(final.mm_gamma_boosting)
    event(f"{min(n_policy, 4)}{'+' if n_policy >= 4 else ''} policy rounds")
    if any(s.kind == STEP and not s.split.max_weight_leaf for s in run):
        event("the policy overrode the max-weight rule")
    if any(s.kind == STEP and not s.split.acceptable for s in run):
        event("the policy forced a split")


def theorem_policy(rng: np.random.Generator, X: np.ndarray, mm: bool):
    """Random splits that keep a theorem's assumptions: the max-weight leaf, any acceptable
    split (multi-way ones included), γ-boosting ones for Mansour–McAllester."""

    def policy(state: GrowState):
        leaf = state.max_weight_leaf
        rows = state.members(leaf)
        options = []
        for f in range(X.shape[1]):
            cuts = midpoints(X[rows, f])
            for _ in range(6):
                k = int(rng.integers(2, min(state.max_arity, cuts.size + 1) + 1))
                thr = tuple(sorted(float(c) for c in rng.choice(cuts, k - 1, replace=False)))
                sc = state.score(leaf, f, thr)
                if sc.acceptable and (not mm or sc.gamma_boosting):
                    options.append(SplitChoice(leaf, f, thr))
        return options[int(rng.integers(len(options)))] if options else None

    return policy


@settings(max_examples=25, **H)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([8, 16, 24]))
def test_hatanos_theorem_4_holds_for_random_acceptable_max_weight_policies(seed, size):
    """I(T) ≤ φ_γ̂(s) ≤ s^−γ̂ for the final tree, γ̂ from the policy's (multi-way) splits."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 4, size=(300, 2))
    y = np.where(np.floor(X[:, 0]).astype(int) % 2 == 0, 1, -1)
    y = np.where(rng.random(300) < 0.1, -y, y)
    run = list(grow(X, y, size=size, max_arity=4, choose=theorem_policy(rng, X, mm=False)))
    steps.check_run(run)
    final = run[-1].metrics
    assert final.final_guarantee and final.policy_rounds >= 1
    if final.n_leaves == size:
        assert final.index_value <= final.bound_phi_final + 1e-12
        assert final.bound_phi_final <= final.bound_final + 1e-12
        if any(s.split.arity > 2 for s in run if s.kind == STEP):
            event("Theorem 4 with a policy's multi-way splits")


@settings(max_examples=15, **H)
@given(seed=st.integers(0, 2**32 - 1), gamma=st.sampled_from([0.02, 0.05, 0.3]))
def test_mansour_mcallesters_theorem_holds_for_random_gamma_boosting_policies(seed, gamma):
    """I(T) ≤ e_γ(s) for max-weight runs of acceptable, γ-boosting splits (s = 40). At
    γ = 0.3 their rule admits a 3-way split at the root, but late leaves have no γ-boosting
    split: the algorithm's own then ends the guarantee, and the flags say so."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 6, size=(400, 2))
    y = np.where(np.floor(X[:, 0]).astype(int) % 2 == 0, 1, -1)
    y = np.where(rng.random(400) < 0.05, -y, y)
    args = dict(size=40, criterion="mansour_mcallester", gamma=gamma, max_arity=3)
    run = list(grow(X, y, choose=theorem_policy(rng, X, mm=True), **args))
    steps.check_run(run)
    for s in run:
        # the policy keeps their acceptability and the max-weight rule: only γ-boosting can fail
        assert s.metrics.mm_guarantee == s.metrics.mm_gamma_boosting
    final = run[-1].metrics
    if final.mm_guarantee and final.n_leaves == 40:
        assert final.index_value <= final.bound_mm + 1e-12
        event("Theorem 4.1 checked")
    if any(s.kind == STEP and s.split.arity > 2 for s in run):
        assert all(s.split.acceptable for s in run if s.kind == STEP)
        event("Mansour–McAllester: a policy's 3-way split")


@settings(max_examples=40, **H)
@given(case=small_runs())
def test_replaying_the_algorithms_choices_gives_the_same_run(case):
    X, y, params = case
    own = list(grow(X, y, **params))
    choices = [(s.split.leaf, s.split.feature, s.split.thresholds) for s in own if s.kind == STEP]
    again = list(grow(X, y, choose=replay(choices), **params))
    assert len(again) == len(own)
    for a, b in zip(own, again):
        np.testing.assert_array_equal(a.tree.feature, b.tree.feature)
        np.testing.assert_array_equal(a.tree.w_pos, b.tree.w_pos)
        assert b.metrics.policy_rounds == a.t and a.metrics.policy_rounds == 0
        assert same_metrics(a.metrics, replace(b.metrics, policy_rounds=0))
        if a.split is not None:
            assert b.split.by_policy and not a.split.by_policy
            for name in ("leaf", "arity", "feature", "thresholds", "gain", "score", "advantage"):
                assert getattr(a.split, name) == getattr(b.split, name)
            assert b.split.algorithm_split == a.split.algorithm_split
            assert a.candidates == b.candidates


# --------------------------------------------------------------------------------------------
# what a chosen split does to the run


def stripes():
    """Four stripes along x1, 15 % of the labels flipped: every cell stays impure."""
    rng = np.random.default_rng(3)
    X = rng.uniform(0, 4, size=(200, 2))
    y = np.where(np.floor(X[:, 0]).astype(int) % 2 == 0, 1, -1)
    return X, np.where(rng.random(200) < 0.15, -y, y)


def test_a_weak_split_weakens_the_bound():
    X, y = stripes()
    own = list(grow(X, y, size=8, max_arity=2))

    def weakest(state: GrowState):
        if state.t:
            return None
        rows = state.members(0)
        pairs = [(f, (float(c),)) for f in range(2) for c in midpoints(X[rows, f])]
        f, thr = min(pairs, key=lambda p: state.score(0, *p).score)
        return SplitChoice(0, f, thr)

    mine = list(grow(X, y, size=8, max_arity=2, choose=weakest))
    assert mine[1].split.by_policy and mine[1].split.algorithm_split.score > mine[1].split.score
    assert mine[-1].metrics.gamma_hat < own[-1].metrics.gamma_hat
    assert mine[1].metrics.gamma_hat == mine[1].split.advantage  # binary: γ̂ = its advantage
    for name in ("bound_e", "bound_power", "bound_final", "bound_phi_final"):
        assert getattr(mine[-1].metrics, name) > getattr(own[-1].metrics, name)
    # the split is legal: the theorem still holds, only weaker
    assert mine[-1].metrics.binary_guarantee and mine[-1].metrics.final_guarantee
    assert mine[-1].metrics.index_value <= mine[-1].metrics.bound_phi + 1e-12


def test_expanding_a_lighter_leaf_ends_the_guarantees_and_says_so():
    X, y = stripes()

    def lighter(state: GrowState):
        if state.t != 1:
            return None
        leaf = next(
            lf for lf in state.leaves if state.splittable[lf] and not state.is_max_weight(lf)
        )
        rows = state.members(leaf)
        return (leaf, 0, (float(np.median(X[rows, 0])),))

    run = list(grow(X, y, size=6, max_arity=2, choose=lighter))
    rec, m = run[2].split, run[2].metrics
    assert rec.by_policy and not rec.max_weight_leaf and rec.algorithm_leaf != rec.leaf
    assert "not a leaf of largest weight" in run[2].note
    assert not m.binary_guarantee and not m.final_guarantee
    assert all(not s.metrics.final_guarantee for s in run[2:])
    assert run[1].metrics.binary_guarantee  # the round before was still covered


def test_a_forced_split_is_recorded_and_ends_the_theorem_whose_rule_it_breaks():
    X, y = stripes()
    # Mansour–McAllester admit no multi-way split below s = 32: a forced 3-way root split
    # breaks their rule but not Hatano's (3 ≤ s/|T| = 8)
    args = dict(size=8, criterion="mansour_mcallester", gamma=0.2, max_arity=3)
    with pytest.raises(ValueError, match="must be acceptable for criterion='mansour_mcallester'"):
        list(grow(X, y, choose=replay([(0, 0, (1.0, 2.0))]), **args))
    run = list(grow(X, y, choose=replay([(0, 0, (1.0, 2.0), True)]), **args))
    rec, m = run[1].split, run[1].metrics
    assert rec.arity == 3 and not rec.acceptable and rec.by_policy
    assert "Mansour–McAllester's Theorem 4.1" in run[1].note and "Hatano" not in run[1].note
    assert m.mm_guarantee is False and m.final_guarantee

    # Hatano's rule at |T| = 3 of s = 8: k ≤ 2.67, so a forced 3-way split ends Theorem 4
    def heaviest(state: GrowState):
        leaf = state.max_weight_leaf
        x = np.sort(X[state.members(leaf), 0])
        if state.t < 2:
            return SplitChoice(leaf, 0, (float(np.median(x)),))
        if state.t == 2:
            cut = (float(x[len(x) // 3]), float(x[2 * len(x) // 3]))
            assert not state.score(leaf, 0, cut).acceptable
            return SplitChoice(leaf, 0, cut, force=True)
        return None

    run = list(grow(X, y, size=8, max_arity=3, choose=heaviest))
    assert run[3].split.arity == 3 and run[3].split.max_weight_leaf
    assert run[3].split.acceptable is False and not run[3].metrics.final_guarantee
    assert "Hatano's Theorem 4" in run[3].note
    assert run[2].metrics.final_guarantee


def test_a_state_stays_valid_after_the_run_moves_on():
    """A page may stop at the round it shows and query that round's state later."""
    X, y = stripes()
    kept: dict[int, GrowState] = {}

    def keep(state: GrowState):
        kept[state.t] = state
        return None

    run = list(grow(X, y, size=6, max_arity=2, choose=keep))
    s = kept[1]
    assert s.step is run[1] and s.tree is run[1].tree and s.n_leaves == run[1].tree.n_leaves
    for leaf in s.leaves:
        np.testing.assert_array_equal(s.members(leaf), np.flatnonzero(s.tree.apply(X) == leaf))
    assert s.best(s.algorithm_leaf) == s.algorithm_split
    assert s.score(s.algorithm_leaf, s.algorithm_split.feature, s.algorithm_split.thresholds) == (
        s.algorithm_split
    )
    with pytest.raises(ValueError, match="writeable|read-only"):
        s.members(s.leaves[0])[0] = 5
    with pytest.raises(TypeError):
        s.weights[s.leaves[0]] = 0.0  # a read-only mapping


# --------------------------------------------------------------------------------------------
# refused inputs: the message names the parameter, the rule and the value


X6 = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 4.0], [3.0, 4.0], [4.0, 4.0], [5.0, 4.0]])
Y6 = np.array([-1, -1, 1, 1, -1, -1])
OK = dict(
    X=X6,
    y=Y6,
    members=np.arange(6),
    feature=0,
    thresholds=(1.5,),
    index="km",
    criterion="hatano",
    size=8,
    n_leaves=1,
)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(members=[0, 6]), r"members must be row indices of X, in \[0, 5\]; got 6"),
        (dict(members=[-1, 2]), r"members must be row indices of X, in \[0, 5\]; got -1"),
        (dict(members=[1, 2, 1]), "members must be unique; row 1 appears more than once"),
        (dict(members=[]), r"members must be a non-empty 1-D sequence .*got shape \(0,\)"),
        (dict(members=np.ones(6, bool)), "not a boolean mask"),
        (dict(members=[0.0, 1.0]), "members must be integers .*got dtype float64"),
        (dict(members=[[0, 1]]), r"members must be a non-empty 1-D sequence"),
        (dict(feature=2), "feature must be between 0 and 1; got 2"),
        (dict(feature=0.5), "feature must be an integer; got 0.5"),
        (dict(thresholds=(3.5, 1.5)), "strictly increasing; got 3.5 then 1.5 at positions 0"),
        (dict(thresholds=(1.5, 1.5)), "strictly increasing; got 1.5 then 1.5"),
        (dict(thresholds=(float("nan"),)), "thresholds must be finite numbers"),
        (dict(thresholds=()), "thresholds must be a non-empty 1-D sequence"),
        (dict(thresholds="1.5"), "thresholds must be a sequence of numbers; got '1.5'"),
        (dict(thresholds=tuple(range(16))), r"at most 15 thresholds \(k ≤ 16\); got 16"),
        (dict(index="gin"), "index must be one of 'km', 'gini', 'entropy', 'error'; got 'gin'"),
        (dict(criterion="c45"), "criterion must be one of .*; got 'c45'"),
        (dict(criterion="mansour_mcallester"), "gamma is required when criterion="),
        (dict(gamma=1.5), "gamma must be > 0.0 and ≤ 1.0; got 1.5"),
        (dict(size=1), "size must be between 2 and 100000; got 1"),
        (dict(n_leaves=0), "n_leaves must be between 1 and 8; got 0"),
        (dict(n_leaves=9), "n_leaves must be between 1 and 8; got 9"),
        (dict(members=[0, 1, 4]), "members must be impure .*class −1"),
        (dict(thresholds=(6.0,)), r"branch 1 \(x1 > 6\) is empty"),
        (dict(thresholds=(1.5, 1.7, 3.0)), r"branch 1 \(1.5 < x1 ≤ 1.7\) is empty"),
        (dict(sample_weight=[0, 0, 1, 1, 1, 1], members=[0, 1]), "positive weight"),
        (dict(y=Y6[:5]), "y must be 1-D with one label per row of X"),
    ],
)
def test_score_split_refuses_bad_input_naming_it(change, message):
    args = {**OK, **change}
    with pytest.raises(ValueError, match=message):
        score_split(**args)


def _first_round(choice):
    """A policy that answers ``choice`` (a callable of the state, or a value) at round 1."""

    def policy(state):
        return choice(state) if callable(choice) else choice

    return policy


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ((99, 0, (1.5,)), r"choice.leaf must be one of the current leaves \[0\]; got 99 \(not a "),
        (("0", 0, (1.5,)), "choice.leaf must be an integer"),
        ((0, 5, (1.5,)), "choice.feature must be between 0 and 1; got 5"),
        ((0, 0, (1.5, 2.5, 3.5)), r"k ≤ 3, the run's max_arity = 3\); got 3 \(k = 4\)"),
        ((0, 0, (2.5, 1.5)), "choice.thresholds must be strictly increasing"),
        ((0, 0, (9.0,)), r"choice.thresholds must leave .* branch 1 \(x1 > 9\) is empty"),
        ((0, 0, (1.5,), "yes"), "force must be True or False; got 'yes'"),
        ("split", "must be None, a SplitChoice, a .*got 'split'"),
        ((0, 0), "must be None, a SplitChoice"),
        ({"leaf": 0, "feature": 0}, r"missing \['thresholds'\]"),
        ({"leaf": 0, "feature": 0, "thresholds": (1.5,), "k": 2}, r"unknown \['k'\]"),
    ],
)
def test_grow_refuses_an_illegal_choice_naming_what_is_wrong(choice, message):
    with pytest.raises(ValueError, match=message):
        list(grow(X6, Y6, size=4, max_arity=3, choose=_first_round(choice)))


def test_grow_refuses_internal_nodes_pure_leaves_and_the_budget():
    def at_round(r, choice):
        return lambda state: choice if state.t + 1 == r else None

    # round 1 (default, binary) splits the root at x1 ≤ 1.5; round 2 may not split node 0
    with pytest.raises(ValueError, match=r"got 0 \(an internal node\)"):
        list(grow(X6, Y6, size=4, max_arity=2, choose=at_round(2, (0, 0, (1.5,)))))
    # … and leaf 1 (rows 0 and 1, both −1) is pure
    with pytest.raises(ValueError, match="choice.leaf = 1 must be impure .*class −1"):
        list(grow(X6, Y6, size=4, max_arity=2, choose=at_round(2, (1, 0, (0.5,)))))
    # a budget can never be forced
    with pytest.raises(ValueError, match="within its budget s = 2: a 3-way split at"):
        list(grow(X6, Y6, size=2, max_arity=3, choose=at_round(1, (0, 0, (1.5, 3.5), True))))
    # an unacceptable split without force: at |T| = 2 of s = 5 Hatano's rule wants k ≤ 2.5
    play = replay({1: (0, 0, (1.5,)), 2: (2, 0, (2.5, 3.5))})
    with pytest.raises(ValueError, match=r"acceptable for criterion='hatano' at \|T\| = 2, s = 5"):
        list(grow(X6, Y6, size=5, max_arity=3, choose=play))
    with pytest.raises(ValueError, match="choose must be None or a callable"):
        next(grow(X6, Y6, size=4, choose=42))
    with pytest.raises(ValueError, match="choices must be keyed by rounds r ≥ 1"):
        replay({0: (0, 0, (1.5,))})
    with pytest.raises(ValueError, match=r"choices\[1\] must be None, a SplitChoice"):
        replay([None, "x"])


def test_a_policy_may_return_none_or_a_mapping():
    """A page can replay choices stored as JSON (mappings), and ``None`` means 'the algorithm'."""
    play = [None, {"leaf": 2, "feature": 0, "thresholds": [3.5]}]
    run = list(grow(X6, Y6, size=3, max_arity=2, choose=replay(play)))
    assert [s.split.by_policy for s in run[1:-1]] == [False, True]
    assert run[2].split.thresholds == (3.5,) and run[-1].metrics.policy_rounds == 1
    rec = run[2].to_record()
    assert rec["by_policy"] is True and rec["acceptable"] is True
