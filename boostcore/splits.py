"""Weighted split search on numeric features (docs/theory.md §0.2).

Two searches, both working on a node's *presorted* index matrix ``order`` (one column per
feature, holding the node's sample indices sorted by that feature), so a tree sorts the data
once at the root and every node only filters (this is what makes growth faster than
scikit-learn, which re-sorts at every node):

* :func:`best_stump` — the exact best binary split ``x_j ≤ θ`` over all features at once
  (weighted cumulative sums, vectorised over features);
* :func:`best_interval_splits` — for each arity ``k ≥ 3`` the best ``k``-way interval split
  ``θ_1 < … < θ_{k−1}`` (branch = number of thresholds ``< x_j``), by dynamic programming over
  every cut between distinct values (exact, O(k·m²) per feature), or over at most ``max_cuts``
  weighted-quantile cut points when asked to (O(k·B²)).

:func:`presort` builds the root's index matrix (as a ``(d, m)`` array; pass its transpose).

Thresholds are midpoints between consecutive distinct values. Ties are broken
deterministically: binary splits by lowest feature index, then lowest threshold; k-way interval
splits by lowest feature index, then, within a feature, the partition whose last cut comes
first (the dynamic programme's first argmin, working back from the last group).
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

    Examples
    --------
    >>> from boostcore.splits import Split
    >>> s = Split(feature=0, thresholds=(1.5, 3.5), impurity=0.25)
    >>> s.arity
    3
    """

    feature: int
    thresholds: tuple[float, ...]
    impurity: float

    @property
    def arity(self) -> int:
        """Number of branches ``k = len(thresholds) + 1``.

        Examples
        --------
        >>> from boostcore.splits import Split
        >>> Split(feature=2, thresholds=(0.5,), impurity=0.0).arity
        2
        """
        return len(self.thresholds) + 1


def presort(X: np.ndarray) -> np.ndarray:
    """Indices sorting every feature of ``X``: row ``j`` lists the rows by increasing ``X[:, j]``.

    Equal values keep increasing row order, so for finite ``X`` the result equals
    ``np.argsort(X, axis=0, kind="stable").T`` (a C-contiguous ``(d, m)`` intp array), but it
    is about three times faster on continuous data: numpy's default (SIMD) sort does the work,
    and only runs of equal values are re-sorted by row index afterwards.

    Parameters
    ----------
    X : array_like of float, shape (m, d)
        The sample.

    Returns
    -------
    ndarray of intp, shape (d, m)
        Row ``j`` holds the row indices of ``X`` by increasing ``X[:, j]`` (ties by row index).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.splits import presort
    >>> X = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 4.0], [4.0, 4.0]])
    >>> presort(X).tolist()
    [[0, 1, 2, 3], [2, 3, 0, 1]]
    """
    XT = np.ascontiguousarray(np.asarray(X, dtype=float).T)
    d, m = XT.shape
    order = np.argsort(XT, axis=1).astype(np.intp, copy=False)
    for j in range(d):
        oj = order[j]
        xs = XT[j, oj]
        same = xs[1:] == xs[:-1]
        if same.any():
            # key = (rank of the value among distinct values, row index): all keys distinct,
            # so any sort gives the one stable order
            run = np.empty(m, dtype=np.intp)
            run[0] = 0
            np.cumsum(~same, out=run[1:])
            order[j] = oj[np.argsort(run * m + oj)]
    return order


#: Number of (feature, sorted position) cells :func:`best_stump` handles at a time, so that the
#: temporaries of the impurity computation stay in the CPU cache (about 256 KiB per float array).
_BLOCK = 1 << 15
#: Row length from which :func:`sorted_stats` gathers ``X`` one feature at a time.
_PER_ROW = 4096


def sorted_stats(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, order_t: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sorted values, left cumulative positive/negative weights and their per-column totals.

    ``order_t`` has one *row* per feature of ``cols`` (row ``r`` holds the node's indices sorted
    by ``X[:, cols[r]]``); every output is laid out the same way (feature-major), so cumulative
    sums run along contiguous memory.

    Totals are taken per column (each column sums the same numbers in another order), so that
    ``total − left`` is exactly 0 on a pure right side whatever the float summation order.
    """
    k, m = order_t.shape
    if m >= _PER_ROW:  # long rows: one contiguous take per feature beats a 2-D fancy index
        xs = np.empty((k, m), dtype=X.dtype)
        for r, j in enumerate(cols):
            X[:, j].take(order_t[r], out=xs[r])
    else:
        xs = X[order_t, cols[:, None]]
    ws = w[order_t]
    # Two separate cumulative sums (not total − positives): a pure side must come out exactly
    # 0, since sqrt-shaped indices such as km turn a 1e-17 residue into a 1e-9 impurity.
    # With finite w ≥ 0, ws·[y > 0] and ws − that are exactly where(pos, ws, 0) and
    # where(pos, 0, ws) (x − x = 0 and x − 0 = x in floating point). Both sums run at once as
    # the real and imaginary parts of one complex cumsum: complex addition adds the parts
    # separately, in the same order, so each part is bit-for-bit the float cumsum, only faster.
    c = np.empty((k, m), dtype=np.complex128)
    cp, cn = c.real, c.imag
    np.multiply(ws, y[order_t] > 0, out=cp)
    np.subtract(ws, cp, out=cn)
    np.cumsum(c, axis=1, out=c)
    return xs, cp, cn, cp[:, -1], cn[:, -1]


def children_impurity(
    index: IndexFunction, lp: np.ndarray, ln: np.ndarray, total: float | np.ndarray
) -> np.ndarray:
    """``W_b I(q_b) / W`` for groups with positive weights ``lp`` and negative ``ln``.

    Each term of ``I_W(T_h) = Σ_b (W_b / W) I(q_b)`` (docs/theory.md §0.2; Kearns & Mansour's
    splitting index), elementwise: summed over a split's branches it is the impurity after the
    split. The one formula of the split searches here (:func:`best_stump`,
    :func:`best_interval_splits`) and of :func:`boostcore.topdown.score_split`, so that every
    way of scoring a split gives the same number. A group of zero weight counts as
    ``q = 1/2``.

    Parameters
    ----------
    index : callable
        The index function ``I`` (see :mod:`boostcore.impurity`).
    lp, ln : ndarray of float
        Positive and negative weight of each group (``W_b = lp + ln``).
    total : float or ndarray of float
        ``W``, the weight of the node (broadcast against ``lp``).

    Returns
    -------
    ndarray of float
        ``W_b I(q_b) / W`` with ``q_b = lp / W_b``, the shape of ``lp``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.impurity import gini
    >>> from boostcore.splits import children_impurity
    >>> children_impurity(gini, np.array([0.5, 0.25]), np.array([0.0, 0.25]), 1.0).tolist()
    [0.0, 0.5]
    """
    mass = lp + ln
    if mass.size and mass.min() > 0:  # the usual case: a plain division, no mask
        q = lp / mass
    else:  # an empty group (mass 0) counts as q = 1/2
        q = np.divide(lp, mass, out=np.full_like(mass, 0.5), where=mass > 0)
    out = np.multiply(mass, index(q))
    out /= total
    return out


def best_stump(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, order: np.ndarray, index: IndexFunction
) -> Split | None:
    """Exact best binary split ``x_j ≤ θ`` at a node (Kearns–Mansour's ``H_2``).

    Parameters
    ----------
    X : ndarray of float, shape (m, d)
        The whole sample (finite values; not validated here).
    y : ndarray, shape (m,)
        Labels in ±1 (``y > 0`` counts as positive).
    w : ndarray of float, shape (m,)
        Non-negative sample weights.
    order : ndarray of int, shape (n_node, d)
        The node's sample indices, column ``j`` sorted by ``X[:, j]``. Fastest when it is the
        transpose of a C-contiguous ``(d, n_node)`` array (one sorted row per feature), e.g.
        ``presort(X).T``.
    index : callable
        The index function ``I`` (see :mod:`boostcore.impurity`).

    Returns
    -------
    Split or None
        The binary split of smallest impurity (ties: lowest feature, then lowest threshold);
        ``None`` when no feature has two distinct values at this node, the node has fewer than
        two points, or its weight is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.impurity import gini
    >>> from boostcore.splits import best_stump, presort
    >>> X = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 4.0], [4.0, 4.0]])
    >>> y = np.array([-1, -1, 1, 1])
    >>> best_stump(X, y, np.full(4, 0.25), presort(X).T, gini)
    Split(feature=0, thresholds=(2.5,), impurity=0.0)
    """
    n, d = order.shape
    if n < 2:
        return None
    order_t = order.T  # (d, n): one row per feature
    # imp[j, i]: impurity after cutting feature j between sorted positions i and i + 1
    imp = np.empty((d, n - 1))
    row_min = np.empty(d)
    n_cols = max(1, _BLOCK // n)  # features per block
    n_pos = max(1, _BLOCK // n_cols)  # sorted positions per impurity chunk
    any_valid = False
    for j0 in range(0, d, n_cols):
        j1 = min(d, j0 + n_cols)
        xs, cp, cn, tp, tn = sorted_stats(X, y, w, order_t[j0:j1], np.arange(j0, j1))
        if j0 == 0 and tp[0] + tn[0] <= 0:
            return None
        tp, tn = tp[:, None], tn[:, None]
        total = tp + tn
        for a in range(0, n - 1, n_pos):
            b = min(n - 1, a + n_pos)
            lp, ln = cp[:, a:b], cn[:, a:b]
            blk = imp[j0:j1, a:b]
            np.add(
                children_impurity(index, lp, ln, total),
                children_impurity(index, tp - lp, tn - ln, total),
                out=blk,
            )
            invalid = xs[:, a + 1 : b + 1] <= xs[:, a:b]  # equal values: no threshold between
            if not invalid.all():
                any_valid = True
            np.copyto(blk, np.inf, where=invalid)
        np.min(imp[j0:j1], axis=1, out=row_min[j0:j1])
    if not any_valid:
        return None
    # Feature-major: the first near-minimum is the lowest feature, then the lowest threshold.
    best = row_min.min()
    tie = best + TIE_TOL * max(1.0, abs(best))
    j = int(np.argmax(row_min <= tie))
    i = int(np.argmax(imp[j] <= tie))
    theta = cut_midpoint(X[order_t[j, i], j], X[order_t[j, i + 1], j])
    return Split(
        feature=j, thresholds=(theta,), impurity=_exact_impurity(X, y, w, order_t[j], i, index)
    )


def _exact_impurity(X, y, w, rows_sorted, i, index) -> float:
    """The impurity of the cut after sorted position ``i``, from direct sums over each side.

    The search compares cuts through cumulative sums: a side whose class weight should be 0
    keeps a rounding residue (~1e-17) there, which ``√(q(1 − q))`` (the km index) turns into
    an error near 1e-8. The winner's value is recomputed here so that the reported impurity
    is what the split really does (tests/boostcore/test_splits.py checks it to 1e-9).
    """
    pos = y[rows_sorted] > 0
    wt = w[rows_sorted]
    left, right = slice(0, i + 1), slice(i + 1, None)
    lp = np.array([wt[left][pos[left]].sum(), wt[right][pos[right]].sum()])
    ln = np.array([wt[left][~pos[left]].sum(), wt[right][~pos[right]].sum()])
    return float(children_impurity(index, lp, ln, float(lp.sum() + ln.sum())).sum())


def cut_midpoint(a: float, b: float) -> float:
    """Midpoint of two consecutive distinct values that stays strictly below ``b``."""
    m = (a + b) / 2.0
    return float(a if m >= b else m)  # float rounding can put the midpoint on b itself


def quantile_cuts(cum_mass: np.ndarray, valid_pos: np.ndarray, max_cuts: int) -> np.ndarray:
    """At most ``max_cuts`` cut positions among ``valid_pos`` at weighted quantiles.

    ``cum_mass[i]`` is the weight of the node's points up to sorted position ``i``; a cut at
    position ``i`` separates sorted rows ``≤ i`` from rows ``> i``.

    Parameters
    ----------
    cum_mass : ndarray of float, shape (n,)
        Cumulative weight along the node's sorted points (non-decreasing).
    valid_pos : ndarray of int
        Increasing candidate cut positions (``x[i] < x[i + 1]``).
    max_cuts : int ``≥ 1``
        The largest number of cuts kept.

    Returns
    -------
    ndarray of int
        ``valid_pos`` itself when it has at most ``max_cuts`` entries; otherwise the increasing,
        distinct positions nearest (from above) to the weighted quantiles
        ``k/(max_cuts + 1)``, ``k = 1 … max_cuts`` (possibly fewer than ``max_cuts``).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.splits import quantile_cuts
    >>> cum_mass = np.arange(1, 11) / 10  # ten points of weight 0.1
    >>> quantile_cuts(cum_mass, np.arange(9), 3).tolist()
    [2, 4, 6]
    """
    if valid_pos.size <= max_cuts:
        return valid_pos
    cw = cum_mass[valid_pos]
    targets = cw[-1] * np.arange(1, max_cuts + 1) / (max_cuts + 1)
    pick = np.searchsorted(cw, targets, side="left")
    pick = np.clip(pick, 0, valid_pos.size - 1)
    return valid_pos[np.unique(pick)]


def boundary_cuts(
    cp: np.ndarray, cn: np.ndarray, valid_pos: np.ndarray, max_arity: int
) -> np.ndarray:
    """The cut positions an exact ``k ≤ max_arity``-way search needs (docs/theory.md §0.2).

    Group the sorted distinct values into *runs* of values that are all positive or all
    negative (a value holding both classes is a run of its own). For a concave index
    (``km``, ``gini``, ``entropy``, ``error``), moving one cut inside a run changes only the
    positive (or negative) weight of one group, and ``W·I(q)`` is concave in it (a perspective
    of a concave function); a group between two cuts of one run is pure and costs 0. So
    some best partition of every arity has the cuts inside a run packed against its ends.
    A packed block of a ``k``-way split holds at most ``k − 2`` cuts inside the run (the
    cut on the run's edge is one of its ``k − 1``), so the cuts between runs and the first
    and last ``max_arity − 2`` cuts inside each run are enough (tested against brute force;
    one fewer is not). The result is the same optimum as over ``valid_pos``, from fewer candidates
    (far fewer where labels come in long runs), which is what makes the exact search cheap.

    Parameters
    ----------
    cp, cn : ndarray of float, shape (n,)
        Cumulative positive / negative weight along the sorted points.
    valid_pos : ndarray of int
        Increasing sorted positions ``i`` with ``x[i] < x[i + 1]`` (a cut after row ``i``).
    max_arity : int ``≥ 2``
        The largest arity ``K`` searched.

    Returns
    -------
    ndarray of int
        The subset of ``valid_pos`` kept as candidate cuts, in increasing order.

    Examples
    --------
    Six negative points then one positive: of the five cuts inside the negative run, a
    3-way search only needs the first and the last, plus the cut between the runs.

    >>> import numpy as np
    >>> from boostcore.splits import boundary_cuts
    >>> cp = np.cumsum([0, 0, 0, 0, 0, 0, 1.0])
    >>> cn = np.cumsum([1, 1, 1, 1, 1, 1, 0.0])
    >>> boundary_cuts(cp, cn, np.arange(6), max_arity=3).tolist()
    [0, 4, 5]
    >>> boundary_cuts(cp, cn, np.arange(6), max_arity=2).tolist()
    [5]
    """
    if valid_pos.size == 0:
        return valid_pos
    ends = np.append(valid_pos, cp.size - 1)  # last sorted row of each distinct value
    pos_w = np.diff(np.concatenate(([0.0], cp[ends])))
    neg_w = np.diff(np.concatenate(([0.0], cn[ends])))
    # class of each distinct value: +1 / −1 when pure, 0 when it holds both
    cls = np.where(neg_w <= 0, 1, np.where(pos_w <= 0, -1, 0))
    inner = (cls[:-1] == cls[1:]) & (cls[:-1] != 0)  # cut between two values of one run
    if not inner.any():
        return valid_pos
    run = np.cumsum(~inner)  # run id of the value after each cut (new run after a boundary)
    idx = np.arange(inner.size)
    # for every inner cut: how many inner cuts of its run precede / follow it
    first = np.full(run.max() + 2, inner.size)
    np.minimum.at(first, run[inner], idx[inner])
    last = np.full(run.max() + 2, -1)
    np.maximum.at(last, run[inner], idx[inner])
    near = (idx - first[run] < max_arity - 2) | (last[run] - idx < max_arity - 2)
    return valid_pos[~inner | near]


#: Cells of μ per index for the functional pruning of :func:`_interval_dp`.
_MU_CELLS = 64
#: Pruning slack: a candidate is dropped only when it is worse than another by more than this
#: (costs are relative to the node, at most 1), far above the ~1e-14 rounding of the sums, so
#: every candidate within rounding of the optimum — hence every tie — is still evaluated.
_PRUNE_MARGIN = 1e-9
#: Cut positions the DP handles per block of right ends ``b`` (see :func:`_interval_dp`).
DP_BLOCK = 64
#: Score-table size (candidates × right ends) a block of :func:`_pruned_layer` aims at, and the
#: fewest right ends per block.
TILE, MIN_BLOCK = 1 << 14, 16
#: Layers with at most this many candidate cuts try every pair: pruning would not pay there.
DENSE_UP_TO = 384


def _loss_cells(index: IndexFunction) -> tuple[np.ndarray, ...] | None:
    """``(ℓ₁(hi), ℓ₀(lo), ℓ₁(lo), ℓ₀(hi))`` on cells ``[lo, hi]`` of μ, or ``None``.

    Every index of :mod:`boostcore.impurity` is the Bayes risk of a proper loss:
    ``I(q) = min_μ q ℓ₁(μ) + (1 − q) ℓ₀(μ)`` with ``ℓ₁(μ) = I(μ) + (1 − μ) I'(μ)`` non-increasing
    and ``ℓ₀(μ) = I(μ) − μ I'(μ)`` non-decreasing (the tangent of the concave ``I`` at μ lies
    above it and touches it at ``q = μ``). So a group's cost ``W I(q)`` is
    ``min_μ (P ℓ₁(μ) + N ℓ₀(μ))``: one loss per point, summed — what makes the functional
    pruning of :func:`_interval_dp` possible. The cells cover every μ where the minimum can be
    attained (for ``error`` only μ = 0 and μ = 1). An index not listed gets ``None`` (no pruning).
    """
    from .impurity import entropy, error, gini, km

    if index is error:  # I = 2 min(q, 1 − q): predict − (μ = 0) or + (μ = 1)
        lo = hi = np.array([0.0, 1.0])
        l1 = lambda mu: np.where(mu < 0.5, 2.0, 0.0)  # noqa: E731
        l0 = lambda mu: np.where(mu > 0.5, 2.0, 0.0)  # noqa: E731
    else:
        grid = np.linspace(0.0, 1.0, _MU_CELLS + 1)
        lo, hi = grid[:-1], grid[1:]
        if index is gini:
            l1 = lambda mu: 4.0 * (1.0 - mu) ** 2  # noqa: E731
            l0 = lambda mu: 4.0 * mu**2  # noqa: E731
        elif index is entropy:
            l1 = lambda mu: -np.log2(mu)  # noqa: E731
            l0 = lambda mu: -np.log2(1.0 - mu)  # noqa: E731
        elif index is km:
            l1 = lambda mu: np.sqrt((1.0 - mu) / mu)  # noqa: E731
            l0 = lambda mu: np.sqrt(mu / (1.0 - mu))  # noqa: E731
        else:
            return None
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (l1(hi), l0(lo), l1(lo), l0(hi))
    return tuple(np.where(np.isfinite(v), v, np.nan) for v in out)


def _interval_dp(
    P: np.ndarray,
    N: np.ndarray,
    total: float,
    index: IndexFunction,
    max_arity: int,
    optima: dict[int, float] | None = None,
) -> dict[int, tuple[float, list[int]]]:
    """Best partition of the segments between boundaries into ``k`` groups, ``k = 3 … K``.

    Boundaries ``0 … M + 1`` hold the cumulative positive / negative weight ``P``, ``N`` (``P[0]
    = 0``, ``P[-1]`` the node's); group ``(a, b]`` costs ``c(a, b) = W I(q) / total``
    (:func:`children_impurity`). The dynamic programme ``f_k(b) = min_{a<b} f_{k−1}(a) +
    c(a, b)`` (first ``a`` on ties) is the one of Elomaa & Rousu's multisplitting, but it does
    not try every pair ``(a, b)``: with ``c(a, b) = min_μ Σ_{(a,b]} ℓ_y(μ)`` (see
    :func:`_loss_cells`), ``f_{k−1}(a) + c(a, b) = min_μ [L_b(μ) + R_a(μ)]`` where
    ``R_a(μ) = f_{k−1}(a) − P_a ℓ₁(μ) − N_a ℓ₀(μ)`` does not depend on ``b``, so ``a`` can be the
    argmin only where ``R_a`` is on the lower envelope of the other candidates' — Rigaill's
    functional pruning of segmentation (pDPA). On each cell of μ the ``R``'s are bounded by
    the losses at the cell's ends; a candidate beaten on every cell by more than
    ``_PRUNE_MARGIN`` (by an earlier candidate, or by a later one ``r < b``) is dropped for good.
    The cost is not Monge (so SMAWK or divide and conquer would be inexact); this pruning
    keeps the result exact: every survivor is scored with the same formula as the full
    search, and every candidate within rounding of the optimum survives.

    ``optima``, when given, receives the best cost of every arity ``k = 1 … K`` (``f_k`` at the
    last boundary; ``inf`` where ``k`` groups do not fit).

    Returns
    -------
    dict of int to (float, list of int)
        ``{k: (cost, boundaries)}`` for every ``k`` with a finite cost; ``boundaries`` are the
        ``k − 1`` inner boundary indices in increasing order.
    """
    m1 = P.size
    top = min(max_arity, m1 - 1)
    cells = _loss_cells(index)
    p, n = P / total, N / total
    all_b = np.arange(m1)

    def cost(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        # the formula of the full search, elementwise (a < b wherever it matters)
        gp = np.clip(P[b] - P[a], 0, None)
        gn = np.clip(N[b] - N[a], 0, None)
        return children_impurity(index, gp, gn, total)

    f = cost(np.zeros(m1, dtype=np.intp), all_b)
    f[0] = np.inf
    if optima is not None:
        optima[1] = float(f[-1])
    backs: list[np.ndarray] = []
    out: dict[int, tuple[float, list[int]]] = {}
    for k in range(2, top + 1):
        valid = np.flatnonzero(np.isfinite(f))
        arg = np.zeros(m1, dtype=np.intp)
        fk = np.full(m1, np.inf)
        if k == top or cells is None or valid.size <= DENSE_UP_TO:
            # last layer: only b = end is needed; small layers: no pruning needed
            ends = all_b[-1:] if k == top else all_b
            for b0 in range(0, ends.size, DP_BLOCK):
                bs = ends[b0 : b0 + DP_BLOCK]
                a = valid[valid < bs[-1]]
                if a.size == 0:
                    continue
                tot = f[a][:, None] + cost(a[:, None], bs[None, :])
                tot[a[:, None] >= bs[None, :]] = np.inf
                i = np.argmin(tot, axis=0)
                fk[bs] = tot[i, np.arange(bs.size)]
                arg[bs] = np.where(np.isfinite(fk[bs]), a[i], 0)
        else:
            fk, arg = _pruned_layer(f, p, n, valid, cells, cost)
        backs.append(arg)
        f = fk
        if optima is not None:
            optima[k] = float(f[-1])
        if k >= 3 and np.isfinite(f[-1]):
            bounds, b = [], m1 - 1
            for arg_k in reversed(backs):
                b = int(arg_k[b])
                bounds.append(b)
            out[k] = (float(f[-1]), sorted(bounds))
    return out


def _pruned_layer(f, p, n, valid, cells, cost):
    """One layer ``f_k`` of :func:`_interval_dp` with functional pruning (see there)."""
    m1 = f.size
    l1_hi, l0_lo, l1_lo, l0_hi = cells
    fv = f[valid][:, None]
    pv, nv = p[valid][:, None], n[valid][:, None]
    with np.errstate(invalid="ignore"):
        # a later candidate r beats a on a cell when s_r < s_a (ΔP, ΔN ≥ 0: worst ends);
        # an earlier one when t_r < t_a
        s = fv - pv * l1_hi - nv * l0_lo
        t = fv - pv * l1_lo - nv * l0_hi
    early_min = np.fmin.accumulate(np.vstack([np.full((1, t.shape[1]), np.nan), t[:-1]]), axis=0)
    with np.errstate(invalid="ignore"):
        early = early_min < t - _PRUNE_MARGIN  # nan (an infinite loss) never prunes
    born_dead = early.all(axis=1)
    fk = np.full(m1, np.inf)
    arg = np.zeros(m1, dtype=np.intp)
    alive = np.empty(0, dtype=np.intp)  # positions in `valid`
    nxt = 0
    b0 = 0
    every, wait = 1, 0  # prune after every `every`-th block; `wait` blocks since the last
    while b0 < m1:
        # the score table of a block (alive × width) kept near TILE cells: in cache when
        # pruning keeps few candidates (the width stays DP_BLOCK), narrower when it cannot
        width = min(DP_BLOCK, max(MIN_BLOCK, TILE // max(alive.size, 1)))
        b1 = min(m1, b0 + width)
        hi = int(np.searchsorted(valid, b1 - 1))  # candidates a < b1 − 1 + 1
        new = np.arange(nxt, hi)
        alive = np.concatenate([alive, new[~born_dead[new]]])
        nxt = hi
        if alive.size == 0:
            b0 = b1
            continue
        a = valid[alive]
        bs = np.arange(max(b0, int(a[0]) + 1), b1)
        if bs.size:
            tot = f[a][:, None] + cost(a[:, None], bs[None, :])
            tot[a[:, None] >= bs[None, :]] = np.inf
            i = np.argmin(tot, axis=0)
            fk[bs] = tot[i, np.arange(bs.size)]
            arg[bs] = np.where(np.isfinite(fk[bs]), a[i], 0)
        b0 = b1
        wait += 1
        if wait < every:
            # skipping a pruning pass only keeps more candidates: still exact
            continue
        # drop the candidates every cell has a better one for (refs r < b1 ≤ every later b)
        sa = s[alive]
        later = np.fmin.accumulate(sa[::-1], axis=0)[::-1]
        later = np.vstack([later[1:], np.full((1, sa.shape[1]), np.nan)])
        with np.errstate(invalid="ignore"):
            beaten = early[alive] | (later < sa - _PRUNE_MARGIN)
        kept = ~beaten.all(axis=1)
        # a pass that drops almost nothing (labels that leave every candidate near the
        # envelope) is not worth its cost (alive × cells) every block
        every = 1 if 64 * (alive.size - kept.sum()) > alive.size else min(2 * every, 16)
        wait = 0
        alive = alive[kept]
    return fk, arg


def _segment_sums(
    cp: np.ndarray, cn: np.ndarray, cuts: np.ndarray, tp: float, tn: float
) -> tuple[np.ndarray, np.ndarray]:
    """Positive / negative prefix sums at the segment boundaries of ``cuts``: ``P[0] = 0``,
    ``P[1..M]`` at the cuts, ``P[M + 1] = tp`` (the input of :func:`_interval_dp`)."""
    return np.concatenate(([0.0], cp[cuts], [tp])), np.concatenate(([0.0], cn[cuts], [tn]))


def _strictly_concave(index: IndexFunction) -> bool:
    """Whether ``index`` is one of :mod:`boostcore.impurity`'s strictly concave indices."""
    from .impurity import entropy, gini, km

    return index is km or index is gini or index is entropy


#: How much better (relative to the node, costs at most 1) each arity's best between-runs cost
#: must be than the arity below for :func:`between_runs` to trust it: far above rounding.
_STRICT_GAIN = 1e-9


def between_runs(
    cp: np.ndarray,
    cn: np.ndarray,
    runs: np.ndarray,
    tp: float,
    tn: float,
    index: IndexFunction,
    max_arity: int,
    n_cuts: int,
) -> dict[int, tuple[float, list[int]]] | None:
    """The exact search over the cuts between runs only, when that is provably exact.

    :func:`boundary_cuts` keeps, besides the cuts between runs, up to ``K − 2`` cuts inside
    each run (often most of the positions: every short run). They are needed only where cuts
    would collide: take a best ``k``-way partition and move each cut that lies inside a run
    towards the end of the run its cost is concave in; it ends on a cut between runs unless it
    meets another cut first, which leaves a ``(k − 1)``-way partition of cost at most the
    ``k``-way optimum ``f_k``. Since ``f_{k−1} ≥ f_k`` (splitting a group never raises a
    concave index's cost), a collision forces ``f_{k−1} = f_k``. So whenever
    ``f_1 > f_2 > … > f_K`` strictly, some best partition of every arity cuts between runs
    only (our derivation; docs/theory.md §0.2). This runs the dynamic programme there and
    returns its result when its own optima fall strictly (by :data:`_STRICT_GAIN`) at every
    arity the full candidate set allows; ``None`` otherwise (the caller then searches every
    candidate of :func:`boundary_cuts`).

    Parameters
    ----------
    cp, cn : ndarray of float
        Cumulative positive / negative weight along the sorted points.
    runs : ndarray of int
        The cuts between runs (``boundary_cuts(..., max_arity=2)``).
    tp, tn : float
        The node's positive / negative weight.
    index : callable
        The (concave) index function.
    max_arity : int
        The largest arity ``K``.
    n_cuts : int
        How many candidates the full search has (arities it allows: up to ``n_cuts + 1``).

    Returns
    -------
    dict or None
        As :func:`_interval_dp`'s, with boundaries indexing ``runs``; ``None`` when the
        shortcut is not provably exact.
    """
    P, N = _segment_sums(cp, cn, runs, tp, tn)
    optima: dict[int, float] = {}
    out = _interval_dp(P, N, tp + tn, index, max_arity, optima)
    prev = optima[1]
    for k in range(2, min(max_arity, n_cuts + 1) + 1):
        value = optima.get(k, np.inf)
        if not value < prev - _STRICT_GAIN * max(1.0, abs(prev)):
            return None
        prev = value
    return out


def best_interval_splits(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    order: np.ndarray,
    index: IndexFunction,
    max_arity: int,
    max_cuts: int | None = None,
) -> dict[int, Split]:
    """Best ``k``-way interval split for each ``k = 3 … max_arity`` (docs/theory.md §0.2).

    The cost ``Σ_g W_g I(q_g)`` of a partition of the node's sorted points into ``k``
    contiguous groups is additive over the groups, so dynamic programming over the cut
    positions finds the best partition of every arity in one pass (O(K·M²) per feature for
    ``M`` candidate cuts).

    Parameters
    ----------
    X : ndarray of float, shape (m, d)
        The whole sample.
    y : ndarray, shape (m,)
        Labels in ±1 (``y > 0`` counts as positive).
    w : ndarray of float, shape (m,)
        Non-negative sample weights.
    order : ndarray of int, shape (n_node, d)
        The node's sample indices, column ``j`` sorted by ``X[:, j]`` (e.g. ``presort(X).T``).
    index : callable
        The index function ``I``; the exact search (``max_cuts=None``) relies on it being
        concave (as every index of :mod:`boostcore.impurity` is, see :func:`boundary_cuts`).
    max_arity : int
        The largest arity ``K`` searched; below 3 the result is empty.
    max_cuts : int ``≥ 1``, optional
        ``None`` (default): every position between two distinct values is a candidate, so the
        result is the exact best split of each arity over *every* interval partition.
        An integer ``B``: at most ``B`` cuts at weighted quantiles per feature, a restricted
        search (exact only when a feature has at most ``B`` such positions).

    Returns
    -------
    dict of int to Split
        ``{k: Split}`` for every ``k`` some feature can realise (``k − 1`` cut points needed);
        empty when the node has fewer than three points or zero weight. Ties: lowest feature.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.impurity import gini
    >>> from boostcore.splits import best_interval_splits, presort
    >>> X = np.arange(6.0).reshape(-1, 1)
    >>> y = np.array([-1, -1, 1, 1, -1, -1])
    >>> best = best_interval_splits(X, y, np.full(6, 1 / 6), presort(X).T, gini, max_arity=4)
    >>> sorted(best)
    [3, 4]
    >>> best[3]
    Split(feature=0, thresholds=(1.5, 3.5), impurity=0.0)
    """
    n, d = order.shape
    best: dict[int, Split] = {}
    if n < 3 or max_arity < 3:
        return best
    order_t = order.T  # (d, n): one row per feature
    # the between-runs shortcut keeps the full search's tie-break only where no two partitions
    # tie exactly: a strictly concave index and no zero weight (a cut moved over a point of
    # weight 0, or inside a run under the piecewise-linear `error`, keeps the same cost)
    shortcut = _strictly_concave(index) and bool(np.all(w[order_t[0]] > 0))
    for j in range(d):
        xs, cp, cn, tp_col, tn_col = sorted_stats(X, y, w, order_t[j : j + 1], np.array([j]))
        xs, cp, cn = xs[0], cp[0], cn[0]
        if tp_col[0] + tn_col[0] <= 0:
            return best
        valid_pos = np.flatnonzero(xs[1:] > xs[:-1])
        if valid_pos.size < 2:
            continue
        tp, tn = float(tp_col[0]), float(tn_col[0])
        total = tp + tn
        found = None
        if max_cuts is None:
            cuts = boundary_cuts(cp, cn, valid_pos, max_arity)
            runs = boundary_cuts(cp, cn, valid_pos, 2)  # the cuts between runs only
            if shortcut and runs.size < cuts.size:
                found = between_runs(cp, cn, runs, tp, tn, index, max_arity, cuts.size)
                if found is not None:
                    cuts = runs
        else:
            cuts = quantile_cuts(cp + cn, valid_pos, max_cuts)
        if found is None:
            P, N = _segment_sums(cp, cn, cuts, tp, tn)
            found = _interval_dp(P, N, total, index, max_arity)
        for k, (value, bounds) in found.items():
            prev = best.get(k)
            if prev is not None and value >= prev.impurity - TIE_TOL * max(1.0, abs(value)):
                continue
            # boundary b ∈ 1..M ↔ cut position cuts[b − 1]
            thr = tuple(cut_midpoint(xs[cuts[b - 1]], xs[cuts[b - 1] + 1]) for b in bounds)
            best[k] = Split(feature=j, thresholds=thr, impurity=value)
    return best


def branch_of(x: np.ndarray, thresholds: tuple[float, ...]) -> np.ndarray:
    """Branch index ``#{θ : θ < x}`` of each value (binary: 0 when ``x ≤ θ``).

    Parameters
    ----------
    x : array_like of float
        Feature values.
    thresholds : tuple of float
        Increasing thresholds of a split.

    Returns
    -------
    ndarray of int
        The branch ``0 … len(thresholds)`` of each value, same shape as ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.splits import branch_of
    >>> branch_of(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), (1.5, 3.5)).tolist()
    [0, 0, 1, 1, 2]
    >>> branch_of(np.array([1.0, 2.0]), (1.0,)).tolist()  # x = θ goes left
    [0, 1]
    """
    return np.searchsorted(np.asarray(thresholds), x, side="left")


def _g(p: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``2·sqrt(P(+)·P(−))``: one cell's share of ``H_D(Y|·)`` (Takimoto et al., eq. (1))."""
    return 2.0 * np.sqrt(np.clip(p, 0.0, None) * np.clip(n, 0.0, None))


def partition_entropy(
    y: np.ndarray, w: np.ndarray, cell: np.ndarray, n_cells: int | None = None
) -> float:
    """``H_D(Y|g) = Σ_z 2 sqrt(P_D(g=z, y=+1) P_D(g=z, y=−1))`` for cell ids ``cell`` (eq. (1)).

    Parameters
    ----------
    y : ndarray, shape (m,)
        Labels in ±1 (``y > 0`` counts as positive).
    w : ndarray of float, shape (m,)
        Non-negative weights (the distribution ``D``, summing to 1).
    cell : ndarray of int, shape (m,)
        Cell id ``g(x_i) ≥ 0`` of every example.
    n_cells : int, optional
        Number of cells; default ``cell.max() + 1``.

    Returns
    -------
    float
        ``H_D(Y|g)`` in [0, 1] when ``w`` sums to 1 (0 when every cell is pure).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.splits import partition_entropy
    >>> w = np.full(4, 0.25)
    >>> partition_entropy(np.array([1, -1, 1, -1]), w, np.array([0, 0, 1, 1]))
    1.0
    >>> partition_entropy(np.array([1, 1, -1, -1]), w, np.array([0, 0, 1, 1]))
    0.0
    """
    n_cells = int(cell.max()) + 1 if n_cells is None else n_cells
    pos = y > 0
    p = np.bincount(cell, weights=np.where(pos, w, 0.0), minlength=n_cells)
    n = np.bincount(cell, weights=np.where(pos, 0.0, w), minlength=n_cells)
    return float(_g(p, n).sum())


def best_stump_on_partition(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, order: np.ndarray, leaf_of: np.ndarray
) -> tuple[int, float, float] | None:
    """The stump ``x_j ≤ θ`` minimising ``H_D(Y | leaf, stump)``.

    That is the entropy of the leaves divided by the stump (Takimoto–Koya–Maruoka, §7
    remark (1): the weak learner that drives BP.InfoBoost's bound is the one minimising
    ``H_{D_t}(Y|ℓ̃_t)``, not ``H_{D_t}(Y|h_t)``).

    Moving the threshold past one point changes only that point's leaf, so the objective at
    every cut is a running sum of per-point changes: O(m log m) per feature, vectorised.

    Parameters
    ----------
    X : ndarray of float, shape (m, d)
        The sample.
    y : ndarray, shape (m,)
        Labels in ±1 (``y > 0`` counts as positive).
    w : ndarray of float, shape (m,)
        Non-negative weights (the distribution ``D_t``).
    order : ndarray of int, shape (d, m)
        :func:`presort` of ``X``.
    leaf_of : ndarray of int, shape (m,)
        Current leaf of every example (ids ``0 … n_leaves − 1``).

    Returns
    -------
    tuple of (int, float, float) or None
        ``(feature, threshold, entropy)``, the entropy recomputed exactly with
        :func:`partition_entropy`; ``None`` when no feature has two distinct values.

    Examples
    --------
    Two leaves, each holding one positive and one negative point: the stump at 0.5 makes the
    first leaf pure and leaves the second as it is.

    >>> import numpy as np
    >>> from boostcore.splits import best_stump_on_partition, presort
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([1, -1, -1, 1])
    >>> leaf_of = np.array([0, 0, 1, 1])
    >>> best_stump_on_partition(X, y, np.full(4, 0.25), presort(X), leaf_of)
    (0, 0.5, 0.5)
    """
    d, m = order.shape
    if m < 2:
        return None
    pos = y > 0
    wp_all = np.where(pos, w, 0.0)
    wn_all = w - wp_all
    n_leaves = int(leaf_of.max()) + 1
    tp = np.bincount(leaf_of, weights=wp_all, minlength=n_leaves)
    tn = np.bincount(leaf_of, weights=wn_all, minlength=n_leaves)
    h0 = float(_g(tp, tn).sum())  # every point right of the threshold
    best: tuple[float, int, int] | None = None
    for j in range(d):
        o = order[j]
        xs = X[o, j]
        valid = xs[1:] > xs[:-1]
        if not valid.any():
            continue
        lf = leaf_of[o]
        wp, wn = wp_all[o], wn_all[o]
        # running positive/negative weight of each point's own leaf *before* the point
        grp = np.argsort(lf, kind="stable")
        lg = lf[grp]
        first = np.r_[0, np.flatnonzero(lg[1:] != lg[:-1]) + 1]
        start = np.repeat(first, np.diff(np.r_[first, m]))
        cp = np.cumsum(wp[grp])
        cn = np.cumsum(wn[grp])
        lp_g = cp - wp[grp] - (cp[start] - wp[grp][start])
        ln_g = cn - wn[grp] - (cn[start] - wn[grp][start])
        lp = np.empty(m)
        ln = np.empty(m)
        lp[grp], ln[grp] = lp_g, ln_g
        Tp, Tn = tp[lf], tn[lf]
        delta = (
            _g(lp + wp, ln + wn)
            + _g(Tp - lp - wp, Tn - ln - wn)
            - _g(lp, ln)
            - _g(Tp - lp, Tn - ln)
        )
        h = h0 + np.cumsum(delta)[:-1]  # h[i]: cut between sorted positions i and i + 1
        h = np.where(valid, h, np.inf)
        i = int(np.argmin(h))
        if best is None or h[i] < best[0] - TIE_TOL:
            best = (float(h[i]), j, i)
    if best is None:
        return None
    _, j, i = best
    xs = np.sort(X[:, j])
    theta = cut_midpoint(xs[i], xs[i + 1])
    # the reported entropy is recomputed exactly from the chosen partition
    side = (X[:, j] > theta).astype(np.intp)
    return j, theta, partition_entropy(y, w, 2 * leaf_of + side, 2 * n_leaves)


def best_margin_stump(
    X: np.ndarray, u: np.ndarray, order_t: np.ndarray
) -> tuple[int, float, int, float] | None:
    """The ±1 stump ``h(x) = p·(+1 if x_j > θ else −1)`` of largest ``|Σ_i u_i h(x_i)|``.

    With ``u_i = w_i y_i`` this is the stump of largest ``|μ|`` (normalised margin, Nock &
    Nielsen 2006), i.e. of smallest weighted error once its polarity ``p`` is chosen — the weak
    learner of discrete AdaBoost. Unlike :func:`best_stump` with the ``error`` index, both
    sides always get opposite labels, so the result is a stump and never a constant.

    Parameters
    ----------
    X : ndarray of float, shape (m, d)
        The whole sample.
    u : ndarray of float, shape (m,)
        Signed weights ``w_i y_i``.
    order_t : ndarray of int, shape (d, n)
        The node's sample indices, row ``j`` sorted by ``X[:, j]`` (e.g. :func:`presort`).

    Returns
    -------
    tuple of (int, float, int, float) or None
        ``(feature, threshold, polarity, margin)`` with ``polarity`` in ±1 and
        ``margin = Σ_node u_i h(x_i) ≥ 0``; ``None`` when no feature has two distinct values.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.splits import best_margin_stump, presort
    >>> X = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 4.0], [4.0, 4.0]])
    >>> u = np.full(4, 0.25) * np.array([-1, -1, 1, 1])
    >>> best_margin_stump(X, u, presort(X))
    (0, 2.5, 1, 1.0)
    >>> best_margin_stump(X, -u, presort(X))  # same cut, flipped polarity
    (0, 2.5, -1, 1.0)
    """
    d, n = order_t.shape
    if n < 2:
        return None
    xs = X[order_t, np.arange(d)[:, None]]
    cs = np.cumsum(u[order_t], axis=1)
    total = cs[:, -1:]
    # cut after sorted position i: right side gets +1, left −1 → Σ u h = total − 2·left
    score = total - 2.0 * cs[:, :-1]
    valid = xs[:, 1:] > xs[:, :-1]
    if not valid.any():
        return None
    mag = np.where(valid, np.abs(score), -np.inf)
    best = mag.max()
    tie = best - TIE_TOL * max(1.0, abs(best))
    row_best = mag.max(axis=1)
    j = int(np.argmax(row_best >= tie))
    i = int(np.argmax(mag[j] >= tie))
    polarity = 1 if score[j, i] >= 0 else -1
    theta = cut_midpoint(xs[j, i], xs[j, i + 1])
    return j, theta, polarity, float(abs(score[j, i]))
