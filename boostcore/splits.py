"""Weighted split search on numeric features (SPEC §0.2).

Two searches, both working on a node's *presorted* index matrix ``order`` (one column per
feature, holding the node's sample indices sorted by that feature), so a tree sorts the data
once at the root and every node only filters (this is what makes growth faster than
scikit-learn, which re-sorts at every node):

* :func:`best_stump` — the exact best binary split ``x_j ≤ θ`` over all features at once
  (weighted cumulative sums, vectorised over features);
* :func:`best_interval_splits` — for each arity ``k ≥ 3`` the best ``k``-way interval split
  ``θ_1 < … < θ_{k−1}`` (branch = number of thresholds ``< x_j``), by dynamic programming over at
  most ``max_cuts`` weighted-quantile cut points per feature (O(k·B²) per feature).

Thresholds are midpoints between consecutive distinct values. Ties are broken
deterministically: lowest feature index, then lowest threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .impurity import IndexFunction

#: Relative tolerance under which two candidate impurities count as a tie.
TIE_TOL = 1e-12


@dataclass(frozen=True)
class Split:
    """A ``k``-way interval split of one feature, with what it does to a node's sample.

    Attributes
    ----------
    feature : int
        Column index ``j``.
    thresholds : tuple of float
        Increasing thresholds; a point goes to branch ``#{θ : θ < x_j}``.
    impurity : float
        ``I_W(T_h) = Σ_b (W_b / W) I(q_b)``, the index after the split, relative to the node.
    """

    feature: int
    thresholds: tuple[float, ...]
    impurity: float

    @property
    def arity(self) -> int:
        """Number of branches ``k = len(thresholds) + 1``."""
        return len(self.thresholds) + 1


def _sorted_stats(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sorted values, left cumulative positive/negative weights and their per-column totals.

    Totals are taken per column (each column sums the same numbers in another order), so that
    ``total − left`` is exactly 0 on a pure right side whatever the float summation order.
    """
    d = X.shape[1]
    xs = X[order, np.arange(d)]
    ws = w[order]
    pos = y[order] > 0
    # Two separate cumulative sums (not total − positives): a pure side must come out exactly
    # 0, since sqrt-shaped indices such as km turn a 1e-17 residue into a 1e-9 impurity.
    cp = np.cumsum(np.where(pos, ws, 0.0), axis=0)
    cn = np.cumsum(np.where(pos, 0.0, ws), axis=0)
    return xs, cp, cn, cp[-1], cn[-1]


def _children_impurity(
    index: IndexFunction, lp: np.ndarray, ln: np.ndarray, total: float
) -> np.ndarray:
    """``Σ_b W_b I(q_b) / W`` for groups with positive weights ``lp`` and negative ``ln``."""
    mass = lp + ln
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(mass > 0, lp / np.where(mass > 0, mass, 1.0), 0.5)
    return mass * index(q) / total


def best_stump(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, order: np.ndarray, index: IndexFunction
) -> Split | None:
    """Exact best binary split ``x_j ≤ θ`` at a node (Kearns–Mansour's ``H_2``).

    Parameters
    ----------
    X, y, w : arrays of the whole sample (``y`` in ±1, ``w`` non-negative weights).
    order : int array of shape (n_node, d)
        The node's sample indices, column ``j`` sorted by ``X[:, j]``.
    index : the index function ``I``.

    Returns
    -------
    Split or None
        ``None`` when no feature has two distinct values at this node.
    """
    n, d = order.shape
    if n < 2:
        return None
    xs, cp, cn, tp, tn = _sorted_stats(X, y, w, order)
    total = tp + tn
    if total[0] <= 0:
        return None
    lp, ln = cp[:-1], cn[:-1]
    imp = _children_impurity(index, lp, ln, total) + _children_impurity(
        index, tp - lp, tn - ln, total
    )
    valid = xs[1:] > xs[:-1]
    if not valid.any():
        return None
    imp = np.where(valid, imp, np.inf)
    flat = imp.T.ravel()  # feature-major: the first minimum is the lowest feature, then threshold
    best = flat.min()
    pick = int(np.argmax(flat <= best + TIE_TOL * max(1.0, abs(best))))
    j, i = divmod(pick, n - 1)
    theta = _midpoint(xs[i, j], xs[i + 1, j])
    return Split(feature=j, thresholds=(theta,), impurity=float(flat[pick]))


def _midpoint(a: float, b: float) -> float:
    """Midpoint of two consecutive distinct values that stays strictly below ``b``."""
    m = (a + b) / 2.0
    return float(a if m >= b else m)  # float rounding can put the midpoint on b itself


def quantile_cuts(cum_mass: np.ndarray, valid_pos: np.ndarray, max_cuts: int) -> np.ndarray:
    """At most ``max_cuts`` cut positions among ``valid_pos`` at weighted quantiles.

    ``cum_mass[i]`` is the weight of the node's points up to sorted position ``i``; a cut at
    position ``i`` separates sorted rows ``≤ i`` from rows ``> i``.
    """
    if valid_pos.size <= max_cuts:
        return valid_pos
    cw = cum_mass[valid_pos]
    targets = cw[-1] * np.arange(1, max_cuts + 1) / (max_cuts + 1)
    pick = np.searchsorted(cw, targets, side="left")
    pick = np.clip(pick, 0, valid_pos.size - 1)
    return valid_pos[np.unique(pick)]


def best_interval_splits(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    order: np.ndarray,
    index: IndexFunction,
    max_arity: int,
    max_cuts: int = 64,
) -> dict[int, Split]:
    """Best ``k``-way interval split for each ``k = 3 … max_arity`` (SPEC §0.2).

    For each feature the node's sorted points are cut at most at ``max_cuts`` weighted-quantile
    positions between distinct values; the best partition of the resulting segments into ``k``
    contiguous groups minimises ``Σ_g W_g I(q_g)``, an additive cost, so dynamic programming
    finds it exactly over those candidates.

    Returns
    -------
    dict
        ``{k: Split}`` for every ``k`` some feature can realise (``k − 1`` cut points needed).
    """
    n, d = order.shape
    best: dict[int, Split] = {}
    if n < 3 or max_arity < 3:
        return best
    xs, cp, cn, tp_col, tn_col = _sorted_stats(X, y, w, order)
    if tp_col[0] + tn_col[0] <= 0:
        return best
    for j in range(d):
        valid_pos = np.flatnonzero(xs[1:, j] > xs[:-1, j])
        if valid_pos.size < 2:
            continue
        cuts = quantile_cuts(cp[:, j] + cn[:, j], valid_pos, max_cuts)
        # prefix sums at segment boundaries: P[0] = 0, P[1..M] at cuts, P[M+1] = total
        tp, tn = float(tp_col[j]), float(tn_col[j])
        total = tp + tn
        P = np.concatenate(([0.0], cp[cuts, j], [tp]))
        N = np.concatenate(([0.0], cn[cuts, j], [tn]))
        gp = P[None, :] - P[:, None]  # group (a, b]: positive weight
        gn = N[None, :] - N[:, None]
        cost = _children_impurity(index, np.clip(gp, 0, None), np.clip(gn, 0, None), total)
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
            thr = tuple(_midpoint(xs[cuts[b - 1], j], xs[cuts[b - 1] + 1, j]) for b in bounds)
            best[k] = Split(feature=j, thresholds=thr, impurity=value)
    return best


def branch_of(x: np.ndarray, thresholds: tuple[float, ...]) -> np.ndarray:
    """Branch index ``#{θ : θ < x}`` of each value (binary: 0 when ``x ≤ θ``)."""
    return np.searchsorted(np.asarray(thresholds), x, side="left")
