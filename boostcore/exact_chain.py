"""The exact expected error of probabilistic AdaBoost's chain, by meet-in-the-middle.

Grossmann's chain answers with ``H(x) = Σ_t s_t``, where weak classifier ``t`` says ``+α₊_t``
with probability ``q_t(x)`` and ``−α₋_t`` otherwise, independently of the others
(docs/theory.md §3). Its expected 0/1 loss at ``x`` sums over the ``2^T`` answer patterns.
Splitting the stumps into two halves ``A`` and ``B`` (``2^{T/2}`` patterns each, their sums
shared by every point) turns that sum into ``Σ_a P(a) · P(S_B < −S_A(a))``: sort ``B``'s sums
once, take every point's cumulative probabilities along them, and look each ``−S_A(a)`` up with
a binary search. The cost is ``~2^{⌈T/2⌉}`` per point instead of ``2^T``, so the app computes
the chain's expected error exactly while :func:`exact_possible` says so and falls back to its
Monte Carlo estimate beyond.
"""

from __future__ import annotations

import numpy as np

__all__ = ["EXACT_BUDGET", "TIE_RTOL", "exact_possible", "expected_error"]

#: the largest ``2^{⌈T/2⌉} × points`` an exact error is computed for (a third of a second of numpy)
EXACT_BUDGET = 2**22

#: ``H`` counts as 0 (half a mistake) within this fraction of ``Σ α₊ + Σ α₋``: sums of the same
#: α's taken in another order differ in their last bits, and a tie must not hang on that
TIE_RTOL = 1e-12

# points × patterns held at once (8 MB of float64 per array)
_CHUNK = 2**20


def exact_possible(n_weak: int, n_points: int) -> bool:
    """Whether :func:`expected_error` of ``n_weak`` weak classifiers on ``n_points`` points fits
    the budget ``2^{⌈T/2⌉} · n ≤`` :data:`EXACT_BUDGET`.

    >>> exact_possible(16, 400), exact_possible(64, 400)
    (True, False)
    """
    return 2 ** (-(-int(n_weak) // 2)) * max(int(n_points), 1) <= EXACT_BUDGET


def _half(Q: np.ndarray, a_plus: np.ndarray, a_minus: np.ndarray):
    """Every answer pattern of the stumps in ``Q``'s columns: their sums (shared by the points)
    and each point's probability of each pattern (rows)."""
    sums = np.zeros(1)
    prob = np.ones((Q.shape[0], 1))
    for j in range(Q.shape[1]):
        q = Q[:, j : j + 1]
        sums = np.concatenate([sums - a_minus[j], sums + a_plus[j]])
        prob = np.concatenate([prob * (1 - q), prob * q], axis=1)
    return sums, prob


def expected_error(Q, y, a_plus, a_minus) -> float:
    """The chain's exact expected training error ``mean_i E([y_i H(x_i) < 0] + ½[H(x_i) = 0])``.

    Parameters
    ----------
    Q : array of shape (n, T)
        ``q_t(x_i)``: the probability that weak classifier ``t`` answers ``+1`` at point ``i``.
    y : array of shape (n,)
        Labels in ``{−1, +1}``.
    a_plus, a_minus : arrays of shape (T,)
        ``α₊_t`` (added when ``t`` answers ``+1``) and ``α₋_t`` (subtracted when it answers
        ``−1``).

    Returns
    -------
    float
        The expected loss averaged over the points; ``½`` with no weak classifier.

    Raises
    ------
    ValueError
        When the shapes disagree or the size is beyond :func:`exact_possible`.

    Examples
    --------
    One stump that says ``+1`` with probability 0.9 on a positive point and 0.2 on a negative
    one: the expected error is ``(0.1 + 0.2) / 2``.

    >>> round(expected_error([[0.9], [0.2]], [1, -1], [1.0], [1.0]), 12)
    0.15
    """
    Q = np.asarray(Q, dtype=float)
    y = np.asarray(y, dtype=float)
    a_plus = np.asarray(a_plus, dtype=float).ravel()
    a_minus = np.asarray(a_minus, dtype=float).ravel()
    if Q.ndim != 2 or Q.shape[0] != y.size or not (Q.shape[1] == a_plus.size == a_minus.size):
        raise ValueError(
            "Q must have one row per label and one column per α₊ and α₋; got Q of shape "
            f"{Q.shape}, {y.size} labels, {a_plus.size} α₊ and {a_minus.size} α₋."
        )
    n, T = Q.shape
    if n == 0:
        return float("nan")
    if T == 0:
        return 0.5
    if not exact_possible(T, n):
        raise ValueError(
            f"n_weak = {T} on {n} points is beyond the exact budget (2^⌈T/2⌉ · n ≤ "
            f"{EXACT_BUDGET:,}); use the Monte Carlo estimate."
        )
    k = T // 2
    tol = TIE_RTOL * float(np.abs(a_plus).sum() + np.abs(a_minus).sum())
    rows = max(1, _CHUNK >> (T - k))
    loss = np.empty(n)
    for lo in range(0, n, rows):
        sl = slice(lo, lo + rows)
        sa, pa = _half(Q[sl, :k], a_plus[:k], a_minus[:k])
        sb, pb = _half(Q[sl, k:], a_plus[k:], a_minus[k:])
        order = np.argsort(sb, kind="stable")
        sorted_b = sb[order]
        cum = np.zeros((pb.shape[0], sb.size + 1))
        np.cumsum(pb[:, order], axis=1, out=cum[:, 1:])
        # patterns b with S_A + S_B < −tol, and with S_A + S_B ≤ tol, for each pattern a
        below = np.searchsorted(sorted_b, -sa - tol, side="left")
        upto = np.searchsorted(sorted_b, -sa + tol, side="right")
        neg = np.sum(pa * cum[:, below], axis=1)
        nonpos = np.sum(pa * cum[:, upto], axis=1)
        pos = np.sum(pa * (cum[:, -1:] - cum[:, upto]), axis=1)
        wrong = np.where(y[sl] > 0, neg, pos)
        loss[sl] = wrong + 0.5 * (nonpos - neg)
    return float(loss.mean())
