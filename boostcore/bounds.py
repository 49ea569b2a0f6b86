"""Closed-form training-error bounds of information-based boosting (SPEC §1 and §5).

Each function is vectorised over its first argument and cites the paper it comes from.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

from ._validation import check_float


def ceil_log2(k: np.ndarray | int) -> np.ndarray | int:
    """``⌈log₂ k⌉``: Hatano's price of a ``k``-way split (Hatano 2004, Fig. 2)."""
    k = np.asarray(k)
    if np.any(k < 1):
        raise ValueError(f"k must be ≥ 1; got {k}")
    out = np.ceil(np.log2(k) - 1e-12).astype(int)  # the tolerance keeps log2(4)=2.0000000001 at 2
    return int(out) if out.ndim == 0 else out


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


def g_gamma(k: np.ndarray | int, gamma: float) -> np.ndarray | float:
    """``g_γ(k) = (1 − e_γ(k)) / γ``: Mansour–McAllester's price of a ``k``-way split.

    ``g_γ(2) = 1`` and ``g_γ(k) ≈ ln k`` for small ``γ ln k``; at ``γ = 0`` it is the limit
    ``Σ_{i=1}^{k−1} 1/i`` (Mansour & McAllester, §4).
    """
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    k_arr = np.asarray(k, dtype=float)
    if gamma == 0.0:
        from scipy.special import digamma

        out = digamma(k_arr) + np.euler_gamma  # harmonic number H_{k-1}
    else:
        out = (1.0 - np.asarray(e_gamma(k_arr, gamma))) / gamma
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
