"""Closed-form training-error bounds of information-based boosting (docs/theory.md §1 and §5).

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
    """``e_γ(n) = Π_{i=1}^{n−1} (1 − γ/i)`` (Mansour & McAllester, §3; docs/theory.md §1.1).

    The paper prints ``γ/n`` inside the product, a typo (docs/theory.md §6).

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


# ------------------------------------------------------------------------------------------
# Grossmann, "A theory of probabilistic boosting, decision trees and matryoshki"
# (docs/theory.md §3, §5)


def rho_of_edge(edge: np.ndarray | float) -> np.ndarray | float:
    """``ρ = sqrt(1 − 4ε²)``: the per-round bound of a weak learner with edge ``ε`` (Eq. (3))."""
    e = np.asarray(edge, dtype=float)
    if np.any(e < 0) or np.any(e > 0.5):
        raise ValueError(f"edge must be in [0, 1/2]; got {edge}")
    out = np.sqrt(1.0 - 4.0 * e**2)
    return float(out) if out.ndim == 0 else out


def f_tree(T: np.ndarray | float, rho: float) -> np.ndarray | float:
    """``F(T, ρ) = Π_{t=0}^{T−1} (t+ρ)/(t+1) = Γ(T+ρ)/(Γ(T+1)Γ(ρ))`` (Grossmann, Eq. (9)).

    The bound on ``C(T)`` of a greedily grown probabilistic tree with ``T`` internal nodes when
    every node has ``Z₊ + Z₋ ≤ ρ``; defined for any real ``T > 0`` through ``gammaln``, so it
    stays exact for large ``T``. ``F(1, ρ) = ρ``, ``F(2, ρ) = ρ(1+ρ)/2``, ``F(T, 1) = 1``.
    """
    rho = check_float("rho", rho, low=0.0, high=1.0)
    T_arr = np.asarray(T, dtype=float)
    if np.any(T_arr < 0):
        raise ValueError(f"T must be ≥ 0 (a number of weak classifiers); got {T}")
    if rho == 0.0:
        out = np.where(T_arr > 0, 0.0, 1.0)
    else:
        out = np.exp(gammaln(T_arr + rho) - gammaln(T_arr + 1.0) - gammaln(rho))
    out = np.asarray(out, dtype=float)
    return float(out) if out.ndim == 0 else out


def nested_f(sizes: list[float] | tuple[float, ...], rho: float) -> float:
    """``F(T_L, F(T_{L−1}, … F(T_1, ρ)))`` for sub-tree sizes ``T_1 … T_L`` (§5.2).

    This is the paper's claim for a tree of trees; docs/theory.md §3.3 explains why the nesting
    step is not justified as printed (see :func:`valid_nested_f`).
    """
    value = check_float("rho", rho, low=0.0, high=1.0)
    for T in sizes:
        value = float(f_tree(T, min(value, 1.0)))
    return value


def nested_equal(T: float, levels: np.ndarray | int, rho: float) -> np.ndarray | float:
    """Eq. (11): the nested bound with ``L`` equal levels of size ``T^(1/L)`` (Fig. 3)."""
    L_arr = np.atleast_1d(np.asarray(levels))
    if np.any(L_arr < 1):
        raise ValueError(f"levels must be ≥ 1; got {levels}")
    out = np.array([nested_f([T ** (1.0 / L)] * int(L), rho) for L in L_arr])
    return float(out[0]) if np.ndim(levels) == 0 else out


def m2(levels: np.ndarray | int, rho: float) -> np.ndarray | float:
    """``M2(T, ρ) = F(2, F(2, … F(2, ρ)))`` with ``L = log₂ T`` nested F's (§5.3)."""
    L_arr = np.atleast_1d(np.asarray(levels))
    if np.any(L_arr < 0):
        raise ValueError(f"levels must be ≥ 0; got {levels}")
    out = np.array([nested_f([2.0] * int(L), rho) for L in L_arr])
    return float(out[0]) if np.ndim(levels) == 0 else out


def valid_nested_f(T1: float, T2: float, rho: float) -> float:
    """The composition that does follow (docs/theory.md §3.3): ``F(T₂, 2 sqrt(C₁(1 − C₁)))`` with
    ``C₁ = min(F(T₁, ρ), 1/2)`` — a sub-tree of weighted error ``C₁`` used as a node only
    guarantees ``Z₊ + Z₋ ≤ 2 sqrt(C₁(1 − C₁))`` (Cauchy–Schwarz)."""
    c1 = min(float(f_tree(T1, rho)), 0.5)
    return float(f_tree(T2, min(2.0 * np.sqrt(c1 * (1.0 - c1)), 1.0)))


def f_tree_dT(T: np.ndarray | float, rho: float) -> np.ndarray | float:
    """``∂F/∂T = −F(T, ρ)(1/T + ψ(T) − ψ(T + ρ))`` (§5.4)."""
    from scipy.special import digamma

    T_arr = np.asarray(T, dtype=float)
    out = -np.asarray(f_tree(T_arr, rho)) * (1.0 / T_arr + digamma(T_arr) - digamma(T_arr + rho))
    return float(out) if np.ndim(out) == 0 else out


def matryoshka_rate(C: float, T: float) -> float:
    """Eq. (14): ``∂/∂t F(t/T, C)`` at ``t = T`` ``= (C/T)(γ_E + ψ(C) + 1/C − 1)``, the rate at
    which collapsing a tree of bound ``C`` into one node of a new tree lowers the bound."""
    from scipy.special import digamma

    C = check_float("C", C, low=0.0, high=1.0, low_open=True)
    return float(C / T * (np.euler_gamma + digamma(C) + 1.0 / C - 1.0))


def infoboost_rounds(gamma: np.ndarray | float, eps: float) -> np.ndarray | float:
    """``T = (1/γ) ln(1/ε)``: rounds after which ``Π (1 − γ) ≤ ε`` guarantees error ≤ ε
    when every ``H_{D_t}(Y|h_t) ≤ 1 − γ`` (Takimoto et al., §3)."""
    eps = check_float("eps", eps, low=0.0, high=1.0, low_open=True, high_open=True)
    g = np.asarray(gamma, dtype=float)
    if np.any(g <= 0) or np.any(g > 1):
        raise ValueError(f"gamma must be in (0, 1]; got {gamma}")
    out = np.log(1.0 / eps) / g
    return float(out) if out.ndim == 0 else out


def band_count(c: float, gamma: np.ndarray | float) -> np.ndarray | int:
    """``K``: the number of entropy bands of Takimoto et al.'s Theorem 3 (the merged program
    has at most ``2·2K`` leaves): the smallest ``j`` with ``ε_j = ((1+a)/a)^(j−1)cγ/a ≥ 1``,
    ``a = 2c/(1−c)``; ``K = O(log(1/((1−c)γ)) / log((1+c)/(2c)))`` — the paper prints the
    denominator ``log(1+1/c)``, a typo (docs/theory.md §6): ``(1+a)/a = (1+c)/(2c)``, which
    tends to 1 as ``c → 1``, so the number of bands grows without bound there."""
    c = check_float("c", c, low=0.0, high=1.0, low_open=True, high_open=True)
    g = np.asarray(gamma, dtype=float)
    if np.any(g <= 0) or np.any(g > 1):
        raise ValueError(f"gamma must be in (0, 1]; got {gamma}")
    a = 2.0 * c / (1.0 - c)
    first = c * g / a
    need = np.log(np.maximum(1.0 / first, 1.0)) / np.log((1.0 + a) / a)
    # ε_j ≥ 1 ⇔ j − 1 ≥ need; a tiny tolerance keeps exact powers on the right side
    out = np.where(first >= 1.0, 1, np.ceil(need - 1e-12).astype(int) + 1)
    return int(out) if out.ndim == 0 else out
