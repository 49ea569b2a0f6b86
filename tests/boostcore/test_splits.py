"""Split search (docs/theory.md §0.2): exact stump, k-way DP, cut candidates, threshold
semantics."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore.impurity import INDEX, get_index
from boostcore.splits import (
    Split,
    best_interval_splits,
    best_stump,
    branch_of,
    quantile_cuts,
)

H = settings(deadline=None, database=None, max_examples=120)
NAMES = sorted(INDEX)


def presort(X: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The node's ``order`` matrix: its rows sorted by each feature, shape (n_node, d)."""
    cols = [rows[np.argsort(X[rows, j], kind="stable")] for j in range(X.shape[1])]
    return np.stack(cols, axis=1).astype(np.intp)


def midpoint(a: float, b: float) -> float:
    m = (a + b) / 2.0
    return a if m >= b else m


def node_impurity_of_groups(f, groups: np.ndarray, y, w, k: int) -> float:
    """Σ_b W_b I(q_b) / W over branches b = 0..k−1 (written out with a loop)."""
    total = w.sum()
    out = 0.0
    for b in range(k):
        sel = groups == b
        wb = w[sel].sum()
        if wb > 0:
            out += wb * float(f(w[sel & (y > 0)].sum() / wb))
    return out / total


def brute_force_stumps(f, X, y, w, rows):
    """Every (impurity, feature, threshold) of a binary split x_j ≤ θ at the node ``rows``."""
    out = []
    Xn, yn, wn = X[rows], y[rows], w[rows]
    for j in range(X.shape[1]):
        vals = np.unique(Xn[:, j])
        for a, b in zip(vals[:-1], vals[1:]):
            theta = midpoint(float(a), float(b))
            groups = (Xn[:, j] > theta).astype(int)
            out.append((node_impurity_of_groups(f, groups, yn, wn, 2), j, theta))
    return out


def brute_force_kway(f, X, y, w, rows, k):
    """Every k-way interval split (all (k−1)-subsets of distinct-value cut positions)."""
    out = []
    Xn, yn, wn = X[rows], y[rows], w[rows]
    for j in range(X.shape[1]):
        vals = np.unique(Xn[:, j])
        mids = [midpoint(float(a), float(b)) for a, b in zip(vals[:-1], vals[1:])]
        for combo in itertools.combinations(mids, k - 1):
            groups = np.searchsorted(np.asarray(combo), Xn[:, j], side="left")
            out.append((node_impurity_of_groups(f, groups, yn, wn, k), j, combo))
    return out


@st.composite
def node_data(draw, max_n=30, max_d=4, max_levels=None):
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    rng = np.random.default_rng(seed)
    if max_levels is not None:
        X = rng.integers(0, draw(st.integers(1, max_levels)), size=(n, d)).astype(float)
        X = X * rng.uniform(0.5, 2.0) + rng.normal()
    elif draw(st.booleans()):
        X = np.round(rng.normal(size=(n, d)), 1)  # ties
    else:
        X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < rng.uniform(0.1, 0.9), 1, -1).astype(np.int8)
    weight_kind = draw(st.sampled_from(["uniform", "random", "with_zeros"]))
    if weight_kind == "uniform":
        w = np.full(n, 1.0 / n)
    else:
        w = rng.uniform(0.05, 1.0, n)
        if weight_kind == "with_zeros":
            w[rng.random(n) < 0.2] = 0.0
            if w.sum() == 0:
                w[0] = 1.0
        w = w / w.sum()
    # the node is a random subset of the sample (at least 2 rows) or the whole sample
    if draw(st.booleans()) and n > 3:
        rows = np.sort(rng.choice(n, size=int(rng.integers(2, n + 1)), replace=False))
    else:
        rows = np.arange(n)
    name = draw(st.sampled_from(NAMES))
    return X, y, w, rows, name


# --------------------------------------------------------------------------------------------
# best_stump


@H
@given(data=node_data())
def test_best_stump_equals_brute_force(data):
    X, y, w, rows, name = data
    f = get_index(name)
    split = best_stump(X, y, w, presort(X, rows), f)
    if w[rows].sum() == 0:
        assert split is None  # a weightless node has no impurity to reduce
        return
    candidates = brute_force_stumps(f, X, y, w, rows)
    if not candidates:
        assert split is None
        return
    assert split is not None and split.arity == 2
    values = sorted(c[0] for c in candidates)
    assert split.impurity == pytest.approx(values[0], abs=1e-9)
    # the reported impurity is what the reported split really does at the node
    groups = branch_of(X[rows, split.feature], split.thresholds)
    assert node_impurity_of_groups(f, groups, y[rows], w[rows], 2) == pytest.approx(
        split.impurity, abs=1e-9
    )
    winners = [c for c in candidates if c[0] <= values[0] + 1e-7]
    if len(winners) == 1:
        _, j, theta = winners[0]
        assert split.feature == j
        assert split.thresholds == pytest.approx((theta,), abs=0)


@H
@given(data=node_data())
def test_best_stump_threshold_is_a_midpoint_between_distinct_node_values(data):
    X, y, w, rows, name = data
    split = best_stump(X, y, w, presort(X, rows), get_index(name))
    if split is None:
        return
    vals = np.unique(X[rows, split.feature])
    (theta,) = split.thresholds
    i = np.searchsorted(vals, theta, side="right") - 1
    assert 0 <= i < vals.size - 1
    assert vals[i] <= theta < vals[i + 1]
    assert theta == midpoint(vals[i], vals[i + 1])
    # both sides non-empty
    assert np.any(X[rows, split.feature] <= theta) and np.any(X[rows, split.feature] > theta)


def test_best_stump_known_example():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([-1, -1, 1, 1], dtype=np.int8)
    w = np.full(4, 0.25)
    for name in NAMES:
        s = best_stump(X, y, w, presort(X, np.arange(4)), get_index(name))
        assert s == Split(feature=0, thresholds=(1.5,), impurity=0.0)


def test_best_stump_tie_breaks_lowest_feature_then_lowest_threshold():
    rng = np.random.default_rng(0)
    x = rng.normal(size=20)
    y = np.where(x + rng.normal(scale=0.5, size=20) > 0, 1, -1).astype(np.int8)
    X = np.column_stack([x, x, x])  # identical columns: feature 0 must win
    w = np.full(20, 1 / 20)
    s = best_stump(X, y, w, presort(X, np.arange(20)), get_index("km"))
    assert s.feature == 0
    # mirrored labels at the ends: θ = 0.5 and θ = 2.5 tie; the lower threshold wins
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([1, -1, -1, 1], dtype=np.int8)
    s = best_stump(X, y, np.full(4, 0.25), presort(X, np.arange(4)), get_index("gini"))
    assert s.thresholds == (0.5,)
    # a column whose split ties with a later column keeps the earlier one
    X = np.array([[3.0, 0.0], [2.0, 1.0], [1.0, 2.0], [0.0, 3.0]])
    y = np.array([1, 1, -1, -1], dtype=np.int8)
    s = best_stump(X, y, np.full(4, 0.25), presort(X, np.arange(4)), get_index("km"))
    assert (s.feature, s.thresholds, s.impurity) == (0, (1.5,), 0.0)


@pytest.mark.parametrize("name", NAMES)
def test_best_stump_none_when_all_values_equal(name):
    X = np.full((6, 3), 2.5)
    y = np.array([1, -1, 1, -1, 1, 1], dtype=np.int8)
    w = np.full(6, 1 / 6)
    assert best_stump(X, y, w, presort(X, np.arange(6)), get_index(name)) is None
    assert best_interval_splits(X, y, w, presort(X, np.arange(6)), get_index(name), 5) == {}
    # one row only
    assert best_stump(X, y, w, presort(X, np.array([2])), get_index(name)) is None


def test_best_stump_uses_only_the_node_rows():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([1, -1, 1, -1, -1, 1], dtype=np.int8)
    w = np.full(6, 1 / 6)
    rows = np.array([1, 2, 4])  # node values 1, 2, 4 with labels -, +, -
    s = best_stump(X, y, w, presort(X, rows), get_index("km"))
    assert s.thresholds in ((1.5,), (3.0,))
    assert s.impurity == pytest.approx(2 / 3 * float(get_index("km")(0.5)))


def test_best_stump_pure_sides_come_out_exactly_zero():
    """A sqrt-shaped index turns rounding residue into visible impurity; must be exact 0."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=50)
    y = np.where(x > 0.1, 1, -1).astype(np.int8)
    w = rng.uniform(0.1, 1, 50)
    w /= w.sum()
    X = x[:, None]
    s = best_stump(X, y, w, presort(X, np.arange(50)), get_index("km"))
    assert s.impurity == 0.0


# --------------------------------------------------------------------------------------------
# best_interval_splits (k-way dynamic programming)


@H
@given(data=node_data(max_n=16, max_d=3, max_levels=12), max_arity=st.integers(3, 4))
def test_kway_dp_equals_brute_force(data, max_arity):
    X, y, w, rows, name = data
    f = get_index(name)
    order = presort(X, rows)
    best = best_interval_splits(X, y, w, order, f, max_arity, max_cuts=64)
    n_distinct = max(np.unique(X[rows, j]).size for j in range(X.shape[1]))
    if rows.size < 3:
        assert best == {}
        return
    assert set(best) == {k for k in range(3, max_arity + 1) if k <= n_distinct}
    for k, split in best.items():
        assert split.arity == k and len(split.thresholds) == k - 1
        cands = brute_force_kway(f, X, y, w, rows, k)
        values = sorted(c[0] for c in cands)
        assert split.impurity == pytest.approx(values[0], abs=1e-9)
        # the reported thresholds realise the reported impurity, and are increasing
        assert all(a < b for a, b in zip(split.thresholds[:-1], split.thresholds[1:]))
        groups = branch_of(X[rows, split.feature], split.thresholds)
        assert set(np.unique(groups)) == set(range(k))  # every branch non-empty
        assert node_impurity_of_groups(f, groups, y[rows], w[rows], k) == pytest.approx(
            split.impurity, abs=1e-9
        )
        winners = [c for c in cands if c[0] <= values[0] + 1e-7]
        if len(winners) == 1:
            _, j, thr = winners[0]
            assert split.feature == j
            assert split.thresholds == pytest.approx(thr, abs=0)


@H
@given(data=node_data(max_n=16, max_d=3, max_levels=12))
def test_kway_impurity_non_increasing_in_k(data):
    """On one feature with every cut position available, k+1 groups can refine k groups.

    (Across features this is false: the best stump may use a feature with too few values.)
    """
    X, y, w, rows, name = data
    X = X[:, :1]
    f = get_index(name)
    order = presort(X, rows)
    stump = best_stump(X, y, w, order, f)
    best = best_interval_splits(X, y, w, order, f, 6, max_cuts=64)
    prev = stump.impurity if stump is not None else None
    for k in sorted(best):
        if prev is not None:
            assert best[k].impurity <= prev + 1e-12
        prev = best[k].impurity


def test_kway_known_example():
    X = np.arange(9, dtype=float)[:, None]
    y = np.array([1, 1, 1, -1, -1, -1, 1, 1, 1], dtype=np.int8)
    w = np.full(9, 1 / 9)
    best = best_interval_splits(X, y, w, presort(X, np.arange(9)), get_index("km"), 4)
    assert best[3].thresholds == (2.5, 5.5) and best[3].impurity == 0.0
    assert best[3].feature == 0
    assert best[4].impurity == 0.0


def test_kway_with_many_values_respects_max_cuts_and_is_consistent():
    rng = np.random.default_rng(11)
    n = 400
    X = rng.normal(size=(n, 2))
    y = np.where(np.sin(3 * X[:, 0]) + 0.3 * rng.normal(size=n) > 0, 1, -1).astype(np.int8)
    w = np.full(n, 1 / n)
    f = get_index("entropy")
    rows = np.arange(n)
    for max_cuts in (4, 16, 64):
        best = best_interval_splits(X, y, w, presort(X, rows), f, 5, max_cuts=max_cuts)
        assert set(best) == {3, 4, 5}
        for k, split in best.items():
            groups = branch_of(X[rows, split.feature], split.thresholds)
            got = node_impurity_of_groups(f, groups, y, w, k)
            assert got == pytest.approx(split.impurity, abs=1e-9)
    # more candidate cuts can only help when the candidate sets are nested (all positions)
    full = best_interval_splits(X, y, w, presort(X, rows), f, 3, max_cuts=4096)
    coarse = best_interval_splits(X, y, w, presort(X, rows), f, 3, max_cuts=8)
    assert full[3].impurity <= coarse[3].impurity + 1e-12


def brute_force_prefix(f, x, y, w, k):
    """Least ``Σ_g W_g I(q_g) / W`` over every ``k``-interval partition of one feature's
    distinct values, enumerating all ``(k − 1)``-subsets of cut positions at once with prefix
    sums (no dynamic programming)."""
    vals, inv = np.unique(x, return_inverse=True)
    pos = np.bincount(inv, weights=np.where(y > 0, w, 0.0), minlength=vals.size)
    neg = np.bincount(inv, weights=np.where(y > 0, 0.0, w), minlength=vals.size)
    P = np.concatenate(([0.0], np.cumsum(pos)))
    N = np.concatenate(([0.0], np.cumsum(neg)))
    combos = np.array(list(itertools.combinations(range(1, vals.size), k - 1)), dtype=np.intp)
    edges = np.column_stack(
        [np.zeros(len(combos), np.intp), combos, np.full(len(combos), vals.size, np.intp)]
    )
    gp = P[edges[:, 1:]] - P[edges[:, :-1]]
    gn = N[edges[:, 1:]] - N[edges[:, :-1]]
    mass = gp + gn
    q = np.divide(gp, mass, out=np.full_like(mass, 0.5), where=mass > 0)
    return float(np.min(np.sum(mass * f(q), axis=1)) / w.sum())


@settings(deadline=None, database=None, max_examples=12)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(70, 110), name=st.sampled_from(NAMES))
def test_default_kway_search_is_exact_beyond_64_distinct_values(seed, n, name):
    """Issue 14 A.1: the default search tries every interval partition, so with more distinct
    values than the old 64 quantile cuts it still returns the brute-force optimum."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = np.where(np.sin(4 * x) + 0.8 * rng.normal(size=n) > 0, 1, -1).astype(np.int8)
    w = rng.uniform(0.2, 1.0, n)
    w /= w.sum()
    X = x[:, None]
    f = get_index(name)
    best = best_interval_splits(X, y, w, presort(X, np.arange(n)), f, 4)
    for k in (3, 4):
        assert best[k].impurity == pytest.approx(brute_force_prefix(f, x, y, w, k), abs=1e-12)
        groups = branch_of(x, best[k].thresholds)
        assert node_impurity_of_groups(f, groups, y, w, k) == pytest.approx(
            best[k].impurity, abs=1e-12
        )


@settings(deadline=None, database=None, max_examples=150)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 22),
    k_max=st.integers(3, 6),
    runs=st.integers(1, 5),
    ties=st.booleans(),
    name=st.sampled_from(NAMES),
)
def test_default_kway_search_equals_brute_force_with_long_label_runs(
    seed, n, k_max, runs, ties, name
):
    """The default search drops cuts deep inside runs of one class (``boundary_cuts``): on
    data made of a few long runs — where a wide split *must* cut inside a run — every arity's
    optimum still equals the brute force over every interval partition."""
    from boostcore.splits import boundary_cuts  # noqa: F401  (the function under test)

    rng = np.random.default_rng(seed)
    x = np.sort(rng.normal(size=n))
    if ties:
        x = np.round(x, 1)
    edges = np.sort(rng.choice(np.arange(1, n), size=min(runs - 1, n - 1), replace=False))
    y = np.ones(n, dtype=np.int8)
    for e in edges:
        y[e:] *= -1
    if ties and n > 4:
        y[rng.integers(0, n)] *= -1  # a value that may hold both classes
    w = rng.uniform(0.1, 1.0, n)
    w /= w.sum()
    perm = rng.permutation(n)
    x, y, w = x[perm], y[perm], w[perm]
    X = x[:, None]
    f = get_index(name)
    best = best_interval_splits(X, y, w, presort(X, np.arange(n)), f, k_max)
    n_values = np.unique(x).size
    assert set(best) == {k for k in range(3, k_max + 1) if k <= n_values}
    for k, split in best.items():
        assert split.impurity == pytest.approx(brute_force_prefix(f, x, y, w, k), abs=1e-12)
        groups = branch_of(x, split.thresholds)
        assert set(np.unique(groups)) == set(range(k))
        assert node_impurity_of_groups(f, groups, y, w, k) == pytest.approx(
            split.impurity, abs=1e-12
        )


def test_boundary_cuts_keep_run_ends_and_drop_the_middle_of_long_runs():
    from boostcore.splits import boundary_cuts

    # 10 positive values, then 10 negative: one boundary, long runs on both sides
    y = np.array([1] * 10 + [-1] * 10)
    w = np.full(20, 0.05)
    cp = np.cumsum(np.where(y > 0, w, 0.0))
    cn = np.cumsum(np.where(y > 0, 0.0, w))
    valid = np.arange(19)  # all values distinct: a cut after every row but the last
    # the boundary (after row 9) and the K − 2 cuts nearest each end of both runs
    assert boundary_cuts(cp, cn, valid, max_arity=4).tolist() == [0, 1, 7, 8, 9, 10, 11, 17, 18]
    assert boundary_cuts(cp, cn, valid, max_arity=3).tolist() == [0, 8, 9, 10, 18]
    assert boundary_cuts(cp, cn, valid, max_arity=2).tolist() == [9]


def test_restricted_search_can_miss_the_optimum_that_the_default_finds():
    """``max_cuts`` is a real restriction (so pages must say when it ran)."""
    rng = np.random.default_rng(3)
    n = 300
    x = rng.normal(size=n)
    y = np.where(np.sin(5 * x) + 0.5 * rng.normal(size=n) > 0, 1, -1).astype(np.int8)
    w = np.full(n, 1 / n)
    X = x[:, None]
    f = get_index("km")
    exact = best_interval_splits(X, y, w, presort(X, np.arange(n)), f, 4)
    coarse = best_interval_splits(X, y, w, presort(X, np.arange(n)), f, 4, max_cuts=16)
    assert exact[4].impurity == pytest.approx(brute_force_prefix(f, x, y, w, 4), abs=1e-12)
    assert exact[4].impurity < coarse[4].impurity - 1e-6


def test_kway_empty_for_tiny_nodes_and_low_arity():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([1, -1, 1], dtype=np.int8)
    w = np.full(3, 1 / 3)
    f = get_index("gini")
    assert best_interval_splits(X, y, w, presort(X, np.arange(3)), f, 2) == {}
    assert best_interval_splits(X, y, w, presort(X, np.array([0, 1])), f, 4) == {}
    out = best_interval_splits(X, y, w, presort(X, np.arange(3)), f, 4)
    assert set(out) == {3}  # only 2 cut positions: 4 groups are impossible
    assert out[3].impurity == 0.0


# --------------------------------------------------------------------------------------------
# quantile_cuts


@H
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 300),
    max_cuts=st.integers(2, 70),
    frac=st.floats(0.05, 1.0),
)
def test_quantile_cuts_are_a_small_sorted_subset(seed, n, max_cuts, frac):
    rng = np.random.default_rng(seed)
    w = rng.uniform(0.0, 1.0, n)
    cum = np.cumsum(w)
    valid = np.flatnonzero(rng.random(n - 1) < frac)
    out = quantile_cuts(cum, valid, max_cuts)
    assert out.size <= max_cuts
    assert np.all(np.isin(out, valid))
    assert np.all(np.diff(out) > 0)
    if valid.size <= max_cuts:
        np.testing.assert_array_equal(out, valid)
    elif valid.size:
        assert out.size >= 1


def test_quantile_cuts_follow_the_weight():
    """Heavy mass on the last rows pulls the cuts there."""
    n = 1000
    w = np.ones(n)
    w[900:] = 100.0
    cum = np.cumsum(w)
    out = quantile_cuts(cum, np.arange(n - 1), 10)
    assert out.size == 10
    assert np.all(out >= 900)
    uniform = quantile_cuts(np.cumsum(np.ones(n)), np.arange(n - 1), 9)
    np.testing.assert_array_equal(uniform, np.arange(99, 1000, 100)[:9])


# --------------------------------------------------------------------------------------------
# branch_of


def test_branch_of_binary_semantics():
    x = np.array([-1.0, 0.0, 0.5, 0.50000001, 2.0])
    np.testing.assert_array_equal(branch_of(x, (0.5,)), [0, 0, 0, 1, 1])


def test_branch_of_kway_semantics():
    x = np.array([0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 9.0])
    np.testing.assert_array_equal(branch_of(x, (1.0, 2.0, 3.0)), [0, 0, 1, 1, 2, 2, 3])


@H
@given(
    x=st.lists(st.floats(-100, 100, allow_nan=False), min_size=1, max_size=30),
    thr=st.lists(st.floats(-100, 100, allow_nan=False), min_size=1, max_size=6, unique=True),
)
def test_branch_of_counts_thresholds_strictly_below(x, thr):
    thr = tuple(sorted(thr))
    got = branch_of(np.asarray(x), thr)
    expected = [sum(t < v for t in thr) for v in x]
    np.testing.assert_array_equal(got, expected)
