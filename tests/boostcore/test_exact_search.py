"""The exact k-way interval search is fast and still exact (issue 24, part D; docs/theory.md §0.2).

``reference_interval_splits`` is the dynamic programme over every pair of candidate cuts that
``best_interval_splits`` used before the functional pruning (copied verbatim, docstring cut):
the pruned search must return the very same splits — arity, feature, thresholds and impurity —
on random weighted data with ties in x, duplicate values, zero weights and every index.
"""

from __future__ import annotations

import numpy as np
import pytest

from boostcore.impurity import INDEX, IndexFunction
from boostcore.splits import (
    TIE_TOL,
    Split,
    best_interval_splits,
    boundary_cuts,
    children_impurity,
    cut_midpoint,
    presort,
    quantile_cuts,
    sorted_stats,
)


def reference_interval_splits(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    order: np.ndarray,
    index: IndexFunction,
    max_arity: int,
    max_cuts: int | None = None,
) -> dict[int, Split]:
    """The exact search before issue 24 part D: every pair of candidate cuts, O(K·M²)."""
    n, d = order.shape
    best: dict[int, Split] = {}
    if n < 3 or max_arity < 3:
        return best
    order_t = order.T  # (d, n): one row per feature
    for j in range(d):
        xs, cp, cn, tp_col, tn_col = sorted_stats(X, y, w, order_t[j : j + 1], np.array([j]))
        xs, cp, cn = xs[0], cp[0], cn[0]
        if tp_col[0] + tn_col[0] <= 0:
            return best
        valid_pos = np.flatnonzero(xs[1:] > xs[:-1])
        if valid_pos.size < 2:
            continue
        cuts = (
            boundary_cuts(cp, cn, valid_pos, max_arity)
            if max_cuts is None
            else quantile_cuts(cp + cn, valid_pos, max_cuts)
        )
        # prefix sums at segment boundaries: P[0] = 0, P[1..M] at cuts, P[M+1] = total
        tp, tn = float(tp_col[0]), float(tn_col[0])
        total = tp + tn
        P = np.concatenate(([0.0], cp[cuts], [tp]))
        N = np.concatenate(([0.0], cn[cuts], [tn]))
        gp = P[None, :] - P[:, None]  # group (a, b]: positive weight
        gn = N[None, :] - N[:, None]
        cost = children_impurity(index, np.clip(gp, 0, None), np.clip(gn, 0, None), total)
        upper = np.triu(np.ones_like(cost, dtype=bool), k=1)
        cost = np.where(upper, cost, np.inf)
        m1 = cost.shape[0]
        f = cost[0].copy()  # f[b]: best cost of covering segments (0, b] with the current k groups
        back = []
        for k in range(2, min(max_arity, m1 - 1) + 1):
            tot = f[:, None] + cost  # tot[a, b] = f_{k-1}[a] + cost(a, b)
            arg = np.argmin(tot, axis=0)
            f = tot[arg, np.arange(m1)]
            back.append(arg)
            if k < 3 or not np.isfinite(f[-1]):
                continue
            value = float(f[-1])
            prev = best.get(k)
            if prev is not None and value >= prev.impurity - TIE_TOL * max(1.0, abs(value)):
                continue
            # walk the back-pointers to recover the k − 1 boundaries
            bounds, b = [], m1 - 1
            for arg_k in reversed(back):
                b = int(arg_k[b])
                bounds.append(b)
            bounds = sorted(bounds)  # boundary b ∈ 1..M ↔ cut position cuts[b − 1]
            thr = tuple(cut_midpoint(xs[cuts[b - 1]], xs[cuts[b - 1] + 1]) for b in bounds)
            best[k] = Split(feature=j, thresholds=thr, impurity=value)
    return best


def _random_leaf(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random weighted data: ties in x, few distinct values, zero and integer weights."""
    n = int(rng.integers(3, 300))
    d = int(rng.integers(1, 3))
    kind = int(rng.integers(0, 3))
    if kind == 0:
        X = rng.normal(size=(n, d))
    elif kind == 1:  # many duplicate values
        X = rng.integers(0, max(2, n // 3), size=(n, d)).astype(float)
    else:  # a handful of distinct values, each holding both classes
        X = rng.integers(0, 6, size=(n, d)).astype(float)
    y_kind = int(rng.integers(0, 3))
    if y_kind == 0:
        y = np.where(rng.random(n) < rng.uniform(0.1, 0.9), 1, -1)
    elif y_kind == 1:  # signal plus label noise, like the app's datasets
        y = np.where(np.sin(3 * X[:, 0]) + rng.uniform(0, 1.5) * rng.normal(size=n) > 0, 1, -1)
    else:  # alternating: every gap a class boundary
        y = np.where(np.arange(n) % 2 == 0, 1, -1)
    w_kind = int(rng.integers(0, 4))
    if w_kind == 0:
        w = np.full(n, 1.0 / n)
    elif w_kind == 1:
        w = rng.exponential(size=n)
    elif w_kind == 2:
        w = rng.exponential(size=n) * (rng.random(n) < 0.7)  # zeros
    else:
        w = rng.integers(0, 4, size=n).astype(float)  # zeros and exact ties of costs
    return X, y, w


@pytest.mark.parametrize(("block", "tile"), [(4, 1 << 15), (16, 1 << 15), (64, 1 << 15), (64, 40)])
def test_pruned_search_returns_the_full_searchs_splits(monkeypatch, block, tile):
    """Same dict of splits (arity, feature, thresholds, impurity bit for bit) as the search
    over every pair, for every index; small blocks send small data through the pruning, a
    small tile narrows the blocks to 2 right ends as soon as 20 candidates are alive."""
    import boostcore.splits as splits

    monkeypatch.setattr(splits, "DP_BLOCK", block)
    monkeypatch.setattr(splits, "TILE", tile)
    monkeypatch.setattr(splits, "MIN_BLOCK", 2)
    monkeypatch.setattr(splits, "DENSE_UP_TO", 2)
    for seed in range(60):
        rng = np.random.default_rng(1000 * block + seed)
        X, y, w = _random_leaf(rng)
        order = presort(X).T
        for f in INDEX.values():
            K = int(rng.integers(3, 7))
            cuts = None if rng.random() < 0.8 else int(rng.integers(2, 50))
            got = best_interval_splits(X, y, w, order, f, K, cuts)
            assert got == reference_interval_splits(X, y, w, order, f, K, cuts), (seed, f, K)


def test_exact_search_scores_a_small_fraction_of_the_pairs(monkeypatch):
    """At a 1,500-point noisy leaf (K = 5, entropy) the exact search scores fewer than 30 % of
    the (M + 2)² groups the full dynamic programme scored (that one scored all of them)."""
    import boostcore.splits as splits
    from boostcore.datasets import make_dataset

    ds = make_dataset("moons", n=1500, label_noise=0.1, test_fraction=0.0, random_state=0)
    X, y = ds.X_train[:, :1], ds.y_train
    w = np.full(len(y), 1.0 / len(y))
    scored = []
    real = splits.children_impurity

    def counting(index, lp, ln, total):
        scored.append(np.size(lp))
        return real(index, lp, ln, total)

    monkeypatch.setattr(splits, "children_impurity", counting)
    order = presort(X).T
    got = best_interval_splits(X, y, w, order, INDEX["entropy"], 5)
    monkeypatch.undo()
    xs, cp, cn, _, _ = sorted_stats(X, y, w, order.T, np.array([0]))
    M = boundary_cuts(cp[0], cn[0], np.flatnonzero(xs[0][1:] > xs[0][:-1]), 5).size
    assert M > 1000  # noisy labels: almost every gap is a boundary
    assert sum(scored) < 0.3 * (M + 2) ** 2
    assert got == reference_interval_splits(X, y, w, order, INDEX["entropy"], 5)


def _shortcut_calls(monkeypatch) -> list:
    """Record every between-runs attempt of best_interval_splits: True when it was taken."""
    import boostcore.splits as splits

    taken: list[bool] = []
    real = splits.between_runs

    def recording(*args, **kwargs):
        out = real(*args, **kwargs)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(splits, "between_runs", recording)
    return taken


def test_between_runs_shortcut_is_taken_on_noisy_data_and_stays_exact(monkeypatch):
    """At a 1,500-point noisy leaf the search keeps only the cuts between runs of one class
    (fewer than half the positions, where the full candidate set keeps almost all of them) —
    exact because every arity's optimum falls strictly (docs/theory.md §0.2) — and returns the
    full search's very splits, for every strictly concave index."""
    from boostcore.datasets import make_dataset

    ds = make_dataset("moons", n=1500, label_noise=0.1, test_fraction=0.0, random_state=1)
    X, y = ds.X_train, ds.y_train
    w = np.full(len(y), 1.0 / len(y))
    order = presort(X).T
    taken = _shortcut_calls(monkeypatch)
    for name in ("km", "gini", "entropy"):
        got = best_interval_splits(X, y, w, order, INDEX[name], 6)
        assert got == reference_interval_splits(X, y, w, order, INDEX[name], 6), name
    assert taken == [True] * 6  # both features, three indices
    xs, cp, cn, _, _ = sorted_stats(X, y, w, order.T[:1], np.array([0]))
    valid = np.flatnonzero(xs[0][1:] > xs[0][:-1])
    runs, full = boundary_cuts(cp[0], cn[0], valid, 2), boundary_cuts(cp[0], cn[0], valid, 6)
    assert runs.size < 0.5 * full.size


def test_between_runs_shortcut_is_not_taken_where_it_could_change_a_split(monkeypatch):
    """Where two partitions can tie exactly (a zero weight, the piecewise-linear ``error``
    index) the shortcut is not tried; where an arity gains nothing over the one below (the
    cuts between runs are too few, or two runs would be cut apart for nothing) it is tried and
    refused. The results are the full search's in every case."""
    taken = _shortcut_calls(monkeypatch)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 1))
    order = presort(X).T
    y = np.where(np.sin(3 * X[:, 0]) + 0.8 * rng.normal(size=200) > 0, 1, -1)
    w = np.full(200, 1.0 / 200)
    w0 = w.copy()
    w0[7] = 0.0
    for weights, f in ((w0, INDEX["km"]), (w, INDEX["error"])):
        got = best_interval_splits(X, y, weights, order, f, 5)
        assert got == reference_interval_splits(X, y, weights, order, f, 5)
    assert taken == []  # not even tried
    # three runs (− − − + + + − − −): at most two cuts between runs, so k = 4 gains nothing
    X3 = np.arange(9.0).reshape(-1, 1)
    y3 = np.array([-1, -1, -1, 1, 1, 1, -1, -1, -1])
    w3 = np.full(9, 1 / 9)
    order3 = presort(X3).T
    got = best_interval_splits(X3, y3, w3, order3, INDEX["entropy"], 4)
    assert got == reference_interval_splits(X3, y3, w3, order3, INDEX["entropy"], 4)
    assert sorted(got) == [3, 4] and taken == [False]
