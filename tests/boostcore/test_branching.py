"""BP.InfoBoost (docs/theory.md §2): the paper's lemmas and theorems as property tests on
random data."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore.branching import (
    MAX_LEAVES,
    START,
    STEP,
    STOP,
    BranchingProgram,
    band_of,
    bands_for_c,
    bp_infoboost,
    child_q,
    eps_bands,
    lemma4_merging,
    round_bands,
    round_lemma4,
)
from boostcore.impurity import km
from boostcore.splits import best_stump, partition_entropy, presort
from tests.strategies import labelled_samples

H = settings(max_examples=40, deadline=None)
TOL = 1e-9


def _steps(X, y, **kw):
    """The whole run: start (t = 0), one step per round, stop."""
    return [s for s in bp_infoboost(X, y, **kw)]


def _rounds(X, y, **kw):
    """The ``"step"`` snapshots only (rounds 1 … T)."""
    return [s for s in bp_infoboost(X, y, **kw) if s.kind == STEP]


@H
@given(
    data=labelled_samples(),
    merge=st.sampled_from(["all", "bands", "none"]),
    wl=st.sampled_from(["h", "divided"]),
    c=st.floats(0.05, 0.95),
    rounds=st.integers(1, 12),
)
def test_theorem1_and_the_normaliser_identities(data, merge, wl, c, rounds):
    X, y = data
    for s in _steps(X, y, n_rounds=rounds, merge=merge, c=c, weak=wl):
        if s.kind == STOP:
            assert s.stop_reason
        if s.kind != STEP:
            continue
        m = s.metrics
        # Theorem 1: training error ≤ Π Z_t (exact, smoothing on or off)
        assert m.train_error <= m.bound_prod_Z + TOL
        # Z is the actual normaliser: H(Y|ℓ_t) plus what smoothing adds on pure leaves
        assert m.Z == pytest.approx(m.H_leaves + m.smoothing_excess, abs=1e-12)
        # Lemma 2 (ℓ_t refines h_t): H(Y|ℓ̃_t) ≤ H(Y|ℓ_t) ≤ H(Y|h_t)
        assert m.H_divided <= m.H_leaves + TOL
        assert m.H_leaves <= m.H_h + TOL
        assert m.Z <= m.H_h + m.smoothing_excess + TOL
        if m.smoothing_excess == 0.0:
            # no pure leaf: Lemma 2 and Lemma 3 hold exactly
            assert m.Z == pytest.approx(m.H_leaves, abs=TOL)
            assert m.H_next == pytest.approx(1.0, abs=TOL)
        # D_t and D_{t+1} are distributions
        assert s.D.sum() == pytest.approx(1.0) and s.D_next.sum() == pytest.approx(1.0)
        assert np.all(s.D_next > 0)
        # the program predicts what the metrics say
        F = s.program.decision_function(X)
        yp = np.where(y == np.unique(y)[-1], 1, -1)
        assert m.train_error == pytest.approx(np.mean(np.where(F > 0, 1, -1) != yp))
        # Lemma 1: D_{t+1} = U·exp(−F y)/Π Z
        assert np.allclose(s.D_next, np.exp(-F * yp) / len(y) / m.bound_prod_Z, rtol=1e-8, atol=0)


@H
@given(data=labelled_samples(), rounds=st.integers(1, 10), wl=st.sampled_from(["h", "divided"]))
def test_theorem2_for_dt_infoboost(data, rounds, wl):
    X, y = data
    run = _steps(X, y, n_rounds=rounds, merge="none", weak=wl)
    steps = [s for s in run if s.kind == STEP]
    for s in run:  # also t = 0: 1 · H_{D_1}(Y) = H_U(Y)
        m = s.metrics
        # Π Z · H_{D_{t+1}}(Y|ℓ_t) = H_U(Y|ℓ_t) always (the proof's identity) ...
        assert m.bound_prod_Z * m.H_next == pytest.approx(m.H_uniform, abs=1e-10)
    if steps and all(s.metrics.smoothing_excess == 0.0 for s in steps):
        # ... and with no pure leaf H_U(Y|h_1..h_T) = Π Z_t
        assert steps[-1].metrics.H_uniform == pytest.approx(steps[-1].metrics.bound_prod_Z, abs=TOL)


@H
@given(
    data=labelled_samples(),
    c=st.floats(0.05, 0.95),
    rounds=st.integers(1, 10),
    wl=st.sampled_from(["h", "divided"]),
)
def test_theorem3_bands(data, c, rounds, wl):
    X, y = data
    for s in _rounds(X, y, n_rounds=rounds, merge="bands", c=c, weak=wl):
        m = s.metrics
        # H(Y|ℓ_t) ≤ 1 − cγ_t with at most 2·2K groups
        assert m.H_leaves <= m.bound_theorem3 + TOL
        assert m.n_leaves <= m.max_groups
        # every group sits on one side, one sign of q, one band
        for g in s.groups:
            assert {z % 2 for z in g.children} == {(g.side + 1) // 2}
            q = s.child_q[list(g.children)]
            assert np.all((q >= 0.5) == (g.sign > 0))
            assert set(band_of(1.0 - km(q), s.eps).tolist()) == {g.band}


def test_eps_bands() -> None:
    eps = eps_bands(0.5, 0.1)
    a = 2 * 0.5 / 0.5
    assert eps[0] == 0 and eps[1] == pytest.approx(0.5 * 0.1 / a)
    assert eps[-1] >= 1 > eps[-2]
    for j in range(2, len(eps)):  # ε_{j−1} = a (ε_j − ε_{j−1}), the proof's recursion
        assert eps[j - 1] == pytest.approx(a * (eps[j] - eps[j - 1]))
    assert eps_bands(0.5, 0.0) == (0.0, 1.0)
    assert band_of(np.array([0.0, 1.0]), eps).tolist() == [1, len(eps) - 1]


def _infoboost_direct(X, y, T):
    """Aslam's InfoBoost written from Fig. 1 of the paper, independently of branching.py."""
    m = len(y)
    D = np.full(m, 1.0 / m)
    F = np.zeros(m)
    out = []
    order = presort(X)
    for _ in range(T):
        s = best_stump(X, y, D, order.T, km)
        h = np.where(X[:, s.feature] > s.thresholds[0], 1, -1)
        alpha = {}
        for a in (-1, 1):
            p = D[(h == a) & (y == 1)].sum()
            n = D[(h == a) & (y == -1)].sum()
            alpha[a] = a / 2 * np.log(p / n)
        step = np.array([alpha[v] for v in h]) * h
        unnorm = D * np.exp(-step * y)
        Z = unnorm.sum()
        D = unnorm / Z
        F = F + step
        out.append((Z, F.copy(), D.copy()))
    return out


def test_merge_all_is_infoboost() -> None:
    rng = np.random.default_rng(1)
    base = rng.normal(size=(80, 2))
    yb = np.where(base[:, 0] + base[:, 1] ** 2 - 0.5 > 0, 1, -1)
    # every point appears with both labels (3 : 1), so no stump cell is ever pure and no
    # smoothing is needed: the comparison is exact
    X = np.vstack([base] * 4)
    y = np.concatenate([yb, yb, yb, -yb])
    T = 8
    direct = _infoboost_direct(X, y, T)
    steps = _rounds(X, y, n_rounds=T, merge="all")
    assert len(steps) == T
    assert all(s.metrics.smoothing_excess == 0 for s in steps)  # no pure side here
    for s, (Z, F, D) in zip(steps, direct):
        assert s.metrics.Z == pytest.approx(Z, rel=1e-12)
        assert s.metrics.Z == pytest.approx(s.metrics.H_h, rel=1e-12)  # Z_t = H(Y|h_t)
        assert np.allclose(s.program.decision_function(X), F, rtol=1e-10, atol=1e-12)
        assert np.allclose(s.D_next, D, rtol=1e-10, atol=0)
        assert s.metrics.n_leaves == 2


def test_none_is_a_tree_and_stops_before_the_cap(monkeypatch) -> None:
    import boostcore.branching as br

    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 2))
    y = np.where(rng.random(400) < 0.5, 1, -1)
    monkeypatch.setattr(br, "MAX_LEAVES", 20)
    steps = _steps(X, y, n_rounds=30, merge="none")
    assert steps[-1].kind == STOP and "20 leaves" in steps[-1].stop_reason
    assert all(s.metrics.n_leaves <= 20 for s in steps)
    assert MAX_LEAVES == 4096


def test_unseen_children_add_nothing() -> None:
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 5)
    y = np.array([1, -1, -1, 1] * 5)
    steps = _steps(X, y, n_rounds=3, merge="none")
    prog = steps[-1].program
    far = np.array([[5.0, -5.0], [-5.0, 5.0]])
    assert np.all(np.isfinite(prog.decision_function(far)))
    assert prog.leaves(X).min() >= 0


def test_stop_without_information() -> None:
    X = np.zeros((10, 2))
    y = np.array([1, -1] * 5)
    steps = _steps(X, y, n_rounds=5)
    assert [(s.t, s.kind) for s in steps] == [(0, START), (0, STOP)]
    assert "two different values" in steps[-1].stop_reason
    assert steps[-1].metrics is steps[0].metrics  # the stop repeats the initial model
    assert steps[-1].metrics.train_error == 0.5 and steps[-1].metrics.bound_prod_Z == 1.0


def test_determinism_frozen_and_pickle() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 2))
    y = np.where(X[:, 0] > 0.2, 1, -1)
    y[:10] *= -1
    a = _steps(X, y, n_rounds=6, merge="bands", X_test=X[:20], y_test=y[:20])
    b = _steps(X, y, n_rounds=6, merge="bands", X_test=X[:20], y_test=y[:20])
    for s, u in zip(a, b):  # records: the start's nan metrics are None there (nan != nan)
        assert s.message == u.message and s.to_record() == u.to_record()
        assert np.array_equal(s.D_next, u.D_next)
    s = a[-1]
    with pytest.raises(ValueError):
        s.D[0] = 1.0
    with pytest.raises(AttributeError):
        s.t = 3
    back = pickle.loads(pickle.dumps(s))
    assert np.array_equal(back.program.decision_function(X), s.program.decision_function(X))
    assert isinstance(back.program, BranchingProgram)


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"n_rounds": 0}, "n_rounds"),
        ({"merge": "some"}, "merge"),
        ({"c": 1.0}, "c"),
        ({"c": 0.0}, "c"),
        ({"weak": "x"}, "weak must be"),
        ({"smoothing": -1.0}, "smoothing"),
        ({"X_test": np.zeros((2, 2))}, "X_test"),
    ],
)
def test_invalid_parameters_raise_before_iterating(kw, name) -> None:
    X = np.random.default_rng(0).normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    args = {"n_rounds": 3, **kw}
    with pytest.raises(ValueError, match=name):
        bp_infoboost(X, y, **args)


def test_divided_weak_learner_minimises_the_divided_entropy() -> None:
    rng = np.random.default_rng(4)
    X = np.round(rng.normal(size=(60, 2)), 1)
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    steps = _steps(X, y, n_rounds=4, merge="none", weak="divided")[:-1]
    for prev, s in zip(steps, steps[1:]):  # from the root (t = 0) on
        leaf = prev.program.leaves(X)
        best = min(
            partition_entropy(np.where(y > 0, 1, -1), s.D, 2 * leaf + (X[:, j] > th))
            for j in range(2)
            for th in np.unique(X[:, j])[:-1] + 0.05
        )
        assert s.metrics.H_divided == pytest.approx(best, abs=1e-9)


# ------------------------------------------------------------------ leaf counting (issue 14, B.4)
def _moons(seed: int):
    from boostcore import datasets

    return datasets.make_dataset(
        "moons",
        n=400,
        noise=0.3,
        imbalance=0.5,
        label_noise=0.05,
        random_state=seed,
        test_fraction=0.25,
    )


def test_a_child_with_q_exactly_half_is_on_the_plus_side() -> None:
    """Lemma 3 balances every leaf of L_{t−1} under D_t, so a leaf that h_t does not split
    has a child with q = ½ exactly; its W⁺ and W⁻ are sums of different floats. On the
    default moons (seed 1, c = 0.5) round 7 has two such children on side −1: float
    rounding put one at q = ½ − 3e−16 (group "< ½") and one at ½ + 1e−16 (group "≥ ½"), six
    groups instead of the rule's five. The rule is q ≥ ½ → "+", so both are "+"."""
    ds = _moons(1)
    steps = _steps(ds.X_train, ds.y_train, n_rounds=7, merge="bands", c=0.5)
    s = steps[7]
    assert s.t == 7 and len(s.groups) == 5
    for s in steps:
        wp = s.child_q * s.child_mass
        half = np.abs(2 * wp - s.child_mass) <= 1e-12 * s.child_mass
        assert np.all(s.child_q[half] == 0.5)  # exactly ½: the rule's "≥ ½" side
        for g in s.groups:
            if g.sign < 0:
                assert not half[list(g.children)].any()


def test_both_schemes_count_only_leaves_reached_by_training_points() -> None:
    """|L_t| of bands and of none count the same thing: the leaves at least one training
    point reaches. DT.InfoBoost drops a child no training point reaches; BP.InfoBoost merges
    it into a band (its q counts as ½) and the program keeps that leaf for unseen points,
    but it is not counted in |L_t| (``n_unreached`` says how many there are)."""
    ds = _moons(1)
    X = ds.X_train
    for merge in ("bands", "none", "all"):
        steps = _rounds(X, ds.y_train, n_rounds=10, merge=merge, c=0.5)
        for s in steps:
            reached = np.unique(s.program.leaves(X))
            assert s.metrics.n_leaves == reached.size == int((s.leaf_mass > 0).sum()), s.t
        for s in steps:
            m = s.metrics
            assert m.n_leaves + m.n_unreached == s.program.rounds[-1].n_leaves
        if merge == "bands":  # the dataset has rounds with an empty band
            assert any(s.metrics.n_unreached > 0 for s in steps)
        else:
            assert all(s.metrics.n_unreached == 0 for s in steps)


# ------------------------------------------------------- Theorem 3 per round (issue 14, B.3)
CS = (0.05, 0.1, 0.2, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


@st.composite
def divided_children(draw):
    """Random divided children of one round: masses under D_t (some empty), q, sides."""
    n = 2 * draw(st.integers(1, 12))
    rng = np.random.default_rng(draw(st.integers(0, 100_000)))
    mass = rng.dirichlet(np.full(n, draw(st.sampled_from([0.2, 1.0, 5.0]))))
    mass[rng.random(n) < draw(st.sampled_from([0.0, 0.2]))] = 0.0
    if mass.sum() == 0:
        mass[0] = 1.0
    mass /= mass.sum()
    q = rng.beta(*draw(st.sampled_from([(0.3, 0.3), (2.0, 2.0), (20.0, 20.0)])), size=n)
    q[rng.random(n) < 0.2] = 0.5  # balanced children (Lemma 3 makes them common)
    wp, wn = q * mass, (1 - q) * mass
    return mass, child_q(wp, wn), wp, wn


@H
@given(children=divided_children())
def test_theorem3_per_round_for_every_c(children):
    """For the same D_t and children, every c: 1 − γ ≤ H(Y|ℓ_t) ≤ min(1 − cγ, H(Y|h_t)) and
    |L_t| ≤ 4K, with K growing with c. (Not claimed: that H(Y|ℓ_t) falls or |L_t| grows
    with c.)"""
    mass, q, wp, wn = children
    gamma = 1.0 - float((2 * np.sqrt(wp * wn)).sum())
    side = np.arange(mass.size) % 2
    H_h = float(sum(2 * np.sqrt(wp[side == a].sum() * wn[side == a].sum()) for a in (0, 1)))
    out = bands_for_c(mass, q, gamma, CS)
    assert [b.c for b in out] == list(CS)
    for b in out:
        assert 1.0 - gamma - TOL <= b.H_leaves <= b.bound + TOL
        assert b.bound == pytest.approx(1.0 - b.c * gamma)
        assert b.H_leaves <= H_h + TOL
        assert 1 <= b.n_leaves <= b.max_leaves
    assert all(u.max_leaves <= v.max_leaves for u, v in zip(out, out[1:]))


@H
@given(
    data=labelled_samples(),
    c=st.sampled_from(CS),
    rounds=st.integers(1, 8),
    merge=st.sampled_from(["bands", "all", "none"]),
)
def test_round_bands_re_merges_the_runs_own_round(data, c, rounds, merge):
    """round_bands takes a step's D_t and children: with the run's own c it gives the run's
    H(Y|ℓ_t) and |L_t|; for any scheme's round the per-round statement holds."""
    X, y = data
    for s in _steps(X, y, n_rounds=rounds, merge=merge, c=c):
        out = round_bands(s, CS)
        if s.kind != STEP:  # the start and stop snapshots have no round of their own
            assert out == ()
            continue
        m = s.metrics
        for b in out:
            assert 1.0 - m.gamma - TOL <= b.H_leaves <= min(b.bound, m.H_h) + TOL
        if merge == "bands":
            own = out[CS.index(c)]
            assert own.H_leaves == pytest.approx(m.H_leaves, abs=1e-12)
            assert (own.n_leaves, own.max_leaves) == (m.n_leaves, m.max_groups)


def test_a_larger_c_can_reach_a_larger_entropy_with_fewer_leaves() -> None:
    """What the old caption ('larger c: more leaves, smaller Π Z_t') implied fails even
    within one round: default moons, BP.InfoBoost with c = 0.5, round 2's children merged
    with c = 0.35 and 0.40 (docs/theory.md §2)."""
    ds = _moons(0)
    s = _steps(ds.X_train, ds.y_train, n_rounds=2, merge="bands", c=0.5)[2]
    assert (s.t, s.kind) == (2, STEP)
    a, b = round_bands(s, (0.35, 0.40))
    assert b.bound < a.bound and b.max_leaves >= a.max_leaves
    assert b.H_leaves > a.H_leaves and b.n_leaves < a.n_leaves
    assert (round(a.H_leaves, 4), round(b.H_leaves, 4)) == (0.8784, 0.8788)
    assert (a.n_leaves, b.n_leaves) == (4, 3)


# ------------------------------------------------------- Theorem 2's floor, every scheme
def _cells_by_hand(X, y_pm, program, w):
    """``H_w(Y|h_1…h_t)`` and the number of cells, from the definition: the rows grouped by
    their tuple of stump outputs ``(h_1(x), …, h_t(x))`` with plain Python (nothing of the
    run's bookkeeping), then ``Σ_cells 2·sqrt(W⁺ W⁻)`` (eq. (1))."""
    cells: dict[tuple, list[float]] = {}
    for x, yi, wi in zip(X.tolist(), y_pm.tolist(), np.asarray(w).tolist()):
        key = tuple(x[r.feature] > r.threshold for r in program.rounds)
        pn = cells.setdefault(key, [0.0, 0.0])
        pn[0 if yi > 0 else 1] += wi
    return sum(2.0 * (p * n) ** 0.5 for p, n in cells.values()), len(cells)


@H
@given(
    data=labelled_samples(max_n=40),
    merge=st.sampled_from(["all", "bands", "none"]),
    rounds=st.integers(1, 7),
    c=st.floats(0.1, 0.9),
    smoothing=st.sampled_from([None, 1e-3, 0.3]),
    mixed=st.booleans(),
)
def test_theorem2_floor_for_every_scheme(data, merge, rounds, c, smoothing, mixed):
    """Theorem 2 (Takimoto, Koya & Maruoka): ``H_U(Y|h_1…h_t) = Π Z_s · H_{D_{t+1}}(Y|h_1…h_t)``
    for every merging scheme, smoothing on or off (its proof is Lemma 1, true for any weights
    with the actual normalisers), hence the floor ``Π Z_s ≥ H_U(Y|h_1…h_t)``; equality when
    the leaves are the paths and no leaf of the round is smoothed (Lemma 3). ``mixed``
    copies every row with both labels, so that no leaf is ever pure (no smoothing): then the
    paper's own form ``Π H(Y|ℓ_s) ≥ H_U(Y|h_1…h_t)`` holds too."""
    X, y = data
    if mixed:
        X = np.repeat(X, 3, axis=0)
        y = np.repeat(np.where(y == np.max(y), 1, -1), 3) * np.tile([1, 1, -1], len(y))
    y_pm = np.where(y == np.max(y), 1, -1)
    U = np.full(len(y), 1.0 / len(y))
    prod_leaves = 1.0
    clean = True
    for s in _steps(X, y, n_rounds=rounds, merge=merge, c=c, smoothing=smoothing):
        m = s.metrics
        floor, n_cells = _cells_by_hand(X, y_pm, s.program, U)
        nxt, _ = _cells_by_hand(X, y_pm, s.program, s.D_next)
        assert m.H_paths == pytest.approx(floor, abs=1e-12)
        assert m.H_paths_next == pytest.approx(nxt, abs=1e-12)
        assert m.n_paths == n_cells
        # the identity of Theorem 2, and the floor it gives (H_{D_{t+1}} ≤ 1)
        assert m.bound_prod_Z * nxt == pytest.approx(floor, abs=1e-12)
        assert floor <= m.bound_prod_Z + 1e-12
        if s.kind == START:
            continue
        if merge == "none":
            assert m.n_leaves == n_cells  # DT.InfoBoost's leaves are the paths
        if m.n_leaves == n_cells and m.smoothing_excess == 0.0:
            # Lemma 3 balances every path under D_{t+1}: the floor is reached
            assert m.bound_prod_Z == pytest.approx(floor, abs=1e-12)
        if s.kind == STEP:
            prod_leaves *= m.H_leaves
            clean = clean and m.smoothing_excess == 0.0
        if mixed:
            assert clean
        if clean:
            assert floor <= prod_leaves + 1e-12  # the paper's Π H_{D_s}(Y|ℓ_s) form


def test_theorem2_floor_is_strict_when_merging_and_its_product_form_needs_no_smoothing():
    """On moons (100 points, seed 0), round 2: InfoBoost's Π Z_t is strictly above the
    floor H_U(Y|h_1…h_t) (it merged paths); DT.InfoBoost's is above it only because a pure
    leaf was smoothed; and the paper's form with Π H(Y|ℓ_t) falls *below* the floor once a
    round has smoothed a leaf (docs/theory.md §2, "Theorem 2")."""
    from boostcore import datasets

    ds = datasets.make_dataset("moons", n=100, random_state=0)
    X, y = ds.X_train, ds.y_train
    y_pm = np.where(y == np.max(y), 1, -1)
    U = np.full(len(y), 1.0 / len(y))
    runs = {merge: _rounds(X, y, n_rounds=2, merge=merge) for merge in ("all", "none")}
    floor, n_cells = _cells_by_hand(X, y_pm, runs["all"][1].program, U)
    assert (round(floor, 4), n_cells) == (0.3266, 3)
    ib, dt = runs["all"][1].metrics, runs["none"][1].metrics
    assert ib.n_leaves == 2 < n_cells and ib.bound_prod_Z > floor + 0.05
    assert dt.n_leaves == n_cells and dt.smoothing_excess > 0 and dt.bound_prod_Z > floor + 0.03
    prod_leaves = runs["none"][0].metrics.H_leaves * dt.H_leaves
    assert prod_leaves < floor - 0.02


@given(c=st.floats(0.01, 0.99), gamma=st.floats(1e-6, 0.999999))
@H
def test_lemma4_merging_gives_theorem3s_bound(c, gamma):
    """§6: Lemma 4 (Mansour–McAllester) with λ = (1−c)γ/(2(1−γ)), δ = (1−c)γ/2 guarantees
    (1+λ)(1−γ) + δ = 1 − cγ, Theorem 3's bound, with O((1/λ) ln(1/δ)) groups; Theorem 3 has
    at most 4K with K the first j where its ε_j reaches 1 (computed here from the formula)."""
    r = lemma4_merging(c, gamma)
    lam, delta = (1 - c) * gamma / (2 * (1 - gamma)), (1 - c) * gamma / 2
    assert r.lam == pytest.approx(lam, rel=1e-12) and r.delta == pytest.approx(delta, rel=1e-12)
    assert r.bound == pytest.approx(1 - c * gamma, abs=1e-12)
    assert r.applies == (lam < 1)
    assert r.groups_order == pytest.approx(math.log(1 / delta) / lam, rel=1e-12)
    ratio = (1 + c) / (2 * c)
    assert r.theorem3_order == pytest.approx(math.log(1 / ((1 - c) * gamma)) / math.log(ratio))
    k = 1
    while ratio ** (k - 1) * (1 - c) * gamma / 2 < 1:
        k += 1
    assert r.max_groups == 4 * k


@given(
    c=st.floats(0.01, 0.99),
    gamma=st.floats(1e-6, 1.0),
    lam=st.floats(1e-9, 1 - 1e-9),
    share=st.floats(1e-9, 1.0),
)
@H
def test_lemma4_still_gives_the_bound_where_sections_lambda_is_out_of_range(c, gamma, lam, share):
    """Issue 41, item 10: where §6's λ is ≥ 1 only that choice falls outside (0, 1); any
    0 < λ < 1 with 0 < δ ≤ (2 − c)γ − 1 gives (1 + λ)(1 − γ) + δ < 1 − cγ, and such δ exist
    whenever γ > 1/(2 − c) — which holds wherever §6's λ is ≥ 1."""
    r = lemma4_merging(c, gamma)
    assert r.delta_any == pytest.approx((2 - c) * gamma - 1, abs=1e-12)
    if not r.applies:
        assert gamma > 1 / (2 - c) and r.delta_any > 0
    if r.delta_any > 0:
        delta = share * r.delta_any
        assert (1 + lam) * (1 - gamma) + delta < 1 - c * gamma + 1e-12


def test_merging_can_leave_the_product_of_z_on_the_information_floor():
    """Issue 41, item 7: merging leaves Π Z_t strictly above H_U(Y|h_1…h_T) only when some
    path cell is unbalanced under D_{T+1} (Theorem 2: H_U = Π Z_t · H_{D_{T+1}}); here, with
    fewer leaves than paths, every path is balanced and the bound sits on the floor
    (docs/theory.md §2)."""
    rng = np.random.default_rng(3332)
    X, y = np.round(rng.normal(size=(27, 2)), 1), rng.choice([-1, 1], 27)
    m = list(bp_infoboost(X, y, n_rounds=3, merge="bands"))[3].metrics
    assert (m.n_leaves, m.n_paths) == (3, 4)  # a merge happened
    assert m.bound_prod_Z == pytest.approx(m.H_paths, abs=1e-12)
    assert round(m.H_paths, 6) == 0.612546 and m.H_paths_next == pytest.approx(1.0, abs=1e-12)


def test_lemma4_merging_edges():
    assert lemma4_merging(0.5, 0.0) is None  # no information: λ = δ = 0, outside the lemma
    r = lemma4_merging(0.5, 1.0)  # the divided leaves are pure: λ would be infinite
    assert r.lam == math.inf and not r.applies and math.isnan(r.bound)
    assert not lemma4_merging(0.5, 0.9).applies  # λ < 1 needs γ < 2/(3 − c) = 0.8
    assert lemma4_merging(0.5, 0.79).applies
    for bad in (dict(c=1.0, gamma=0.2), dict(c=0.5, gamma=1.5), dict(c=0.5, gamma=float("nan"))):
        with pytest.raises(ValueError, match="c must|gamma must"):
            lemma4_merging(**bad)


@H
@given(
    data=labelled_samples(max_n=40),
    c=st.floats(0.05, 0.95),
    rounds=st.integers(1, 5),
    merge=st.sampled_from(["all", "bands", "none"]),
)
def test_round_lemma4_reads_the_runs_c_and_gamma(data, c, rounds, merge):
    """round_lemma4 finds a bands run's own c and γ_t in a snapshot's metrics (None for the
    other schemes and for round 0)."""
    X, y = data
    for s in _steps(X, y, n_rounds=rounds, merge=merge, c=c):
        r = round_lemma4(s.metrics)
        if merge != "bands" or s.t == 0 or s.metrics.gamma <= 1e-12:
            assert r is None
            continue
        assert r.c == pytest.approx(c, abs=1e-9) and r.gamma == s.metrics.gamma
        assert r.max_groups == s.metrics.max_groups
        if r.applies:
            assert r.bound == pytest.approx(s.metrics.bound_theorem3, abs=1e-12)
