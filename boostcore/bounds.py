"""Closed-form training-error bounds of information-based boosting (SPEC §1 and §5).

Each function is vectorised over its first argument and cites the paper it comes from.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

from ._validation import check_float


def ceil_log2(k: np.ndarray | int) -> np.ndarray | int:
    """``⌈log₂ k⌉``: Hatano's price of a ``k``-way split (Hatano 2004, Fig. 2).

    Exact for any integer ``k ≥ 1`` (``(k − 1).bit_length()``; no floating-point log).
    """
    arr = np.asarray(k)
    if np.any(arr < 1):
        raise ValueError(f"k must be ≥ 1; got {k}")
    if arr.ndim == 0:
        return (int(arr) - 1).bit_length()
    return np.vectorize(lambda v: (int(v) - 1).bit_length(), otypes=[int])(arr)


def e_gamma(n: np.ndarray | int, gamma: float) -> np.ndarray | float:
    """``e_γ(n) = Π_{i=1}^{n−1} (1 − γ/i)`` (Mansour & McAllester, §3; SPEC §1.1 erratum).

    Computed as ``Γ(n − γ) / (Γ(1 − γ) Γ(n))`` with ``gammaln`` so it is exact for large ``n``.
    ``e_γ(1) = 1`` and ``e_γ(n) ≤ n^(−γ)``.
    """
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    n_arr = np.asarray(n, dtype=float)
    if np.any(n_arr < 1):
        raise ValueError(f"n must be ≥ 1 (a number of leaves); got {n}")
    if gamma == 1.0:
        out = np.where(n_arr <= 1, 1.0, 0.0)
    else:
        out = np.exp(gammaln(n_arr - gamma) - gammaln(1.0 - gamma) - gammaln(n_arr))
        out = np.where(n_arr <= 1, 1.0, np.minimum(out, 1.0))
    return float(out) if out.ndim == 0 else out


def _log_e_gamma(k: np.ndarray, gamma: float) -> np.ndarray:
    """``ln e_γ(k) = Σ_{i=1}^{k−1} ln(1 − γ/i)``, accurate also for tiny ``γ``.

    A direct sum of ``log1p`` terms up to ``k = 10⁵`` (no cancellation); beyond that the
    ``gammaln`` form, whose relative error is then negligible next to the value itself.
    """
    k = np.asarray(k, dtype=float)
    out = np.empty_like(k)
    small = k <= 100_000
    if np.any(small):
        top = int(k[small].max())
        terms = np.log1p(-gamma / np.arange(1, max(top, 1)))
        cum = np.concatenate(([0.0], np.cumsum(terms)))
        out[small] = cum[(k[small] - 1).astype(int)]
    if np.any(~small):
        kk = k[~small]
        out[~small] = gammaln(kk - gamma) - gammaln(1.0 - gamma) - gammaln(kk)
    return out


def g_gamma(k: np.ndarray | int, gamma: float) -> np.ndarray | float:
    """``g_γ(k) = (1 − e_γ(k)) / γ``: Mansour–McAllester's price of a ``k``-way split.

    ``g_γ(2) = 1`` and ``g_γ(k) ≈ ln k`` for small ``γ ln k``; at ``γ = 0`` it is the limit
    ``Σ_{i=1}^{k−1} 1/i`` (Mansour & McAllester, §4). Computed as ``−expm1(ln e_γ(k))/γ`` so
    it stays exact for tiny ``γ``.
    """
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    k_arr = np.asarray(k, dtype=float)
    if np.any(k_arr < 1) or not np.all(np.isfinite(k_arr)):
        raise ValueError(f"k must be ≥ 1 (a number of branches); got {k}")
    if gamma == 0.0:
        from scipy.special import digamma

        out = digamma(k_arr) + np.euler_gamma  # harmonic number H_{k-1}
    elif gamma == 1.0:
        out = np.where(k_arr <= 1, 0.0, 1.0)  # e_1(k) = 0 for k ≥ 2
    else:
        out = -np.expm1(_log_e_gamma(np.atleast_1d(k_arr), gamma)).reshape(k_arr.shape) / gamma
    out = np.asarray(out, dtype=float)
    return float(out) if out.ndim == 0 else out


def size_bound(s: np.ndarray | int, gamma: float) -> np.ndarray | float:
    """``s^(−γ)``: Kearns–Mansour / Hatano's bound for a tree with ``s`` leaves (Theorem 4)."""
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    s_arr = np.asarray(s, dtype=float)
    if np.any(s_arr < 1):
        raise ValueError(f"s must be ≥ 1 (a number of leaves); got {s}")
    out = s_arr ** (-gamma)
    return float(out) if out.ndim == 0 else out


def phi_gamma(s: np.ndarray | int, gamma: float) -> np.ndarray | float:
    """``φ_γ(s) = (1−γ)^i (1 − s'γ/2^i)`` with ``s = 2^i + s'``, ``0 ≤ s' < 2^i``.

    The final weight of the Weight Distribution Game when the adversary always splits in two,
    equally, against the max-weight player (Hatano 2004, Theorem 3 and proof of Theorem 4);
    ``φ_γ(s) ≤ s^(−γ)``.
    """
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    s_arr = np.asarray(s)
    if np.any(s_arr < 1):
        raise ValueError(f"s must be ≥ 1 (a number of leaves); got {s}")
    s_int = s_arr.astype(np.int64)
    i = np.floor(np.log2(s_int)).astype(np.int64)
    # guard against float rounding of log2 at exact powers of two
    i = np.where(2**i > s_int, i - 1, i)
    i = np.where(2 ** (i + 1) <= s_int, i + 1, i)
    s_rest = s_int - 2**i
    out = (1.0 - gamma) ** i * (1.0 - s_rest * gamma / 2.0**i)
    out = np.asarray(out, dtype=float)
    return float(out) if out.ndim == 0 else out
