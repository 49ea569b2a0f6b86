"""Closed-form training-error bounds of information-based boosting (docs/theory.md §1 and §5).

Each function is vectorised over its first argument and cites the paper it comes from.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import gammaln

from ._validation import check_float, check_int


def ceil_log2(k: np.ndarray | int) -> np.ndarray | int:
    """``⌈log₂ k⌉``: Hatano's price of a ``k``-way split (Hatano 2004, Fig. 2).

    Exact for any integer ``k ≥ 1`` (``(k − 1).bit_length()``; no floating-point log).

    Parameters
    ----------
    k : int or array_like of int, each ``≥ 1``
        Arity (number of branches) of a split.

    Returns
    -------
    int or ndarray of int
        ``⌈log₂ k⌉``: an int for a scalar ``k``, an int array of the same shape otherwise.

    Raises
    ------
    ValueError
        If some ``k < 1``.

    Examples
    --------
    >>> from boostcore.bounds import ceil_log2
    >>> ceil_log2(5)
    3
    >>> ceil_log2([1, 2, 3, 4, 5, 8, 9]).tolist()
    [0, 1, 2, 2, 3, 3, 4]
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

    Parameters
    ----------
    n : int or array_like, each ``≥ 1``
        Number of leaves (real values are accepted through the ``Γ`` form).
    gamma : float in [0, 1]
        The advantage ``γ``.

    Returns
    -------
    float or ndarray of float
        ``e_γ(n)`` in [0, 1]: a float for a scalar ``n``, an array otherwise.

    Raises
    ------
    ValueError
        If ``gamma`` is outside [0, 1] or some ``n < 1``.

    Examples
    --------
    >>> from boostcore.bounds import e_gamma
    >>> e_gamma(1, 0.5)
    1.0
    >>> round(e_gamma(3, 0.5), 4)  # (1 − 0.5)(1 − 0.25)
    0.375
    >>> round(e_gamma(100, 0.1), 4)
    0.5908
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

    Parameters
    ----------
    k : int or array_like, each ``≥ 1``
        Arity (number of branches) of a split.
    gamma : float in [0, 1]
        The advantage ``γ``.

    Returns
    -------
    float or ndarray of float
        ``g_γ(k) ≥ 0``: a float for a scalar ``k``, an array otherwise.

    Raises
    ------
    ValueError
        If ``gamma`` is outside [0, 1], or some ``k < 1`` or not finite.

    Examples
    --------
    >>> from boostcore.bounds import g_gamma
    >>> g_gamma(2, 0.3)
    1.0
    >>> round(g_gamma(4, 0.0), 4)  # 1 + 1/2 + 1/3
    1.8333
    >>> round(g_gamma(4, 0.1), 4)
    1.735
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
    # + 0.0 turns the −0.0 of k = 1 (−expm1(0)) into 0.0
    out = np.asarray(out, dtype=float) + 0.0
    return float(out) if out.ndim == 0 else out


def size_bound(s: np.ndarray | int, gamma: float) -> np.ndarray | float:
    """``s^(−γ)``: Kearns–Mansour / Hatano's bound for a tree with ``s`` leaves (Theorem 4).

    Parameters
    ----------
    s : int or array_like, each ``≥ 1``
        Number of leaves.
    gamma : float in [0, 1]
        The advantage ``γ``.

    Returns
    -------
    float or ndarray of float
        ``s^(−γ)``: a float for a scalar ``s``, an array otherwise.

    Raises
    ------
    ValueError
        If ``gamma`` is outside [0, 1] or some ``s < 1``.

    Examples
    --------
    >>> from boostcore.bounds import size_bound
    >>> size_bound(4, 0.5)
    0.5
    >>> size_bound([1, 4, 16], 0.5).tolist()
    [1.0, 0.5, 0.25]
    """
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    s_arr = np.asarray(s, dtype=float)
    if np.any(s_arr < 1):
        raise ValueError(f"s must be ≥ 1 (a number of leaves); got {s}")
    out = s_arr ** (-gamma)
    return float(out) if out.ndim == 0 else out


def phi_gamma(s: np.ndarray | float, gamma: float) -> np.ndarray | float:
    """``φ_γ(s) = (1−γ)^i (1 − s'γ/2^i)`` with ``s = 2^i + s'``, ``0 ≤ s' < 2^i``.

    Hatano's bound function (Hatano 2004, proof of Theorem 4 and Proposition 8): the final
    weight of the Weight Distribution Game when the adversary always splits in two, equally,
    against the max-weight player (Theorem 3). It bounds TOPDOWN-M's final tree,
    ``I(T) ≤ φ_γ(s) ≤ s^(−γ)``, and, because a binary run is TOPDOWN-M for every target size,
    ``I(T) ≤ φ_γ̂(|T|) ≤ e_γ̂(|T|)`` at *every* round of a binary max-weight run.

    ``s`` may be real, ``s ≥ 1``: Proposition 8 evaluates ``φ_γ(s/k)`` with the same formula
    (``s = k·2^i' + s''`` gives ``φ_γ(s/k) = (1−γ)^i' (1 − (s''/k)γ/2^i')``), i.e. ``φ_γ`` is
    linear between consecutive powers of two, continuous, and ``φ_γ(2s) = (1−γ) φ_γ(s)``.
    Integer arrays are handled in exact integer arithmetic; floats through ``frexp`` (exact
    split ``s = m·2^i``, no floating ``log2``).

    Parameters
    ----------
    s : int, float or array_like, each finite and ``≥ 1``
        Number of leaves (real values allowed, see above).
    gamma : float in [0, 1]
        The advantage ``γ``.

    Returns
    -------
    float or ndarray of float
        ``φ_γ(s)``: a float for a scalar ``s``, an array otherwise.

    Raises
    ------
    ValueError
        If ``gamma`` is outside [0, 1], or some ``s`` is not a finite number ``≥ 1``.

    Examples
    --------
    >>> from boostcore.bounds import phi_gamma
    >>> phi_gamma([1, 2, 3, 4], 0.5).tolist()
    [1.0, 0.5, 0.375, 0.25]
    >>> phi_gamma(6, 0.5)  # (1 − γ)² (1 − 2γ/4)
    0.1875
    >>> phi_gamma(3.0, 0.5)
    0.375
    """
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    s_arr = np.asarray(s)
    if s_arr.dtype.kind not in "iuf" or not np.all(np.isfinite(s_arr)):
        raise ValueError(f"s must be a finite number of leaves ≥ 1; got {s!r}")
    if np.any(s_arr < 1):
        raise ValueError(f"s must be ≥ 1 (a number of leaves); got {s}")
    if s_arr.dtype.kind in "iu":
        s_int = s_arr.astype(np.int64)
        i = np.floor(np.log2(s_int)).astype(np.int64)
        # guard against float rounding of log2 at exact powers of two
        i = np.where(2**i > s_int, i - 1, i)
        i = np.where(2 ** (i + 1) <= s_int, i + 1, i)
        s_rest = s_int - 2**i
        out = (1.0 - gamma) ** i * (1.0 - s_rest * gamma / 2.0**i)
    else:
        mant, expo = np.frexp(s_arr.astype(float))  # s = mant·2^expo, 0.5 ≤ mant < 1
        i = expo - 1  # 2^i ≤ s < 2^(i+1)
        out = (1.0 - gamma) ** i * (1.0 - (2.0 * mant - 1.0) * gamma)
    out = np.asarray(out, dtype=float)
    return float(out) if out.ndim == 0 else out


# ------------------------------------------------------------------------------------------
# Where each criterion admits a k-way split (Hatano 2004, §4; Mansour & McAllester, §4)

#: The criteria of :mod:`boostcore.topdown` (same names), for :func:`max_admissible_arity`.
ARITY_CRITERIA = ("hatano", "mansour_mcallester", "naive")


def _check_criterion_gamma(criterion: str, gamma: float | None) -> float | None:
    if criterion not in ARITY_CRITERIA:
        listed = ", ".join(repr(c) for c in ARITY_CRITERIA)
        raise ValueError(f"criterion must be one of {listed}; got {criterion!r}")
    if criterion != "mansour_mcallester":
        return None
    if gamma is None:
        raise ValueError(
            "gamma is required for criterion='mansour_mcallester' (its rule "
            "|T| < e_γ(k)·s·γ/(2k) depends on γ); got None"
        )
    return check_float("gamma", gamma, low=0.0, high=1.0, low_open=True)


def _mm_limits(ks: np.ndarray, size: int, gamma: float) -> np.ndarray:
    """``e_γ(k)·s·γ/(2k)``, evaluated in the same order of operations as
    :func:`boostcore.topdown.acceptable`, so the two agree to the last bit."""
    return np.asarray(e_gamma(ks, gamma)) * size * gamma / (2 * ks)


def max_admissible_arity(
    n_leaves: np.ndarray | int,
    size: int,
    criterion: str,
    gamma: float | None = None,
    max_arity: int | None = None,
) -> np.ndarray | int:
    """The largest arity ``k`` whose split ``criterion`` accepts at ``|T|`` leaves, budget ``s``.

    The largest ``k`` such that a ``k``-way split is *acceptable* when the tree has
    ``|T| = n_leaves`` leaves and the target size is ``s = size``; ``0`` when none is
    (``|T| ≥ s``: the run is over). Vectorised over ``n_leaves``.

    The rules, exactly as :func:`boostcore.topdown.acceptable` applies them:

    * every criterion: the ``k − 1`` new leaves must fit, ``|T| + k − 1 ≤ s``;
    * ``"hatano"`` (Hatano 2004, §4, Fig. 2): ``k = 2`` or ``2 < k ≤ s/|T|``, so the
      largest is ``max(2, ⌊s/|T|⌋)``;
    * ``"mansour_mcallester"`` (Mansour & McAllester, §4): ``k = 2`` or
      ``|T| < e_γ(k)·s·γ/(2k)`` — strict, i.e. ``k < (s/|T|)·γ·e_γ(k)/2``. The right-hand
      side falls with ``k`` (``e_γ(k+1)/(k+1) < e_γ(k)/k``), so the admissible arities are
      always ``2…k_max``;
    * ``"naive"``: every ``k`` that fits, ``s − |T| + 1``.

    Parameters
    ----------
    n_leaves : int or array of int, each ``≥ 1``
        The current number of leaves ``|T|``.
    size : int ``≥ 2``
        The target number of leaves ``s``.
    criterion : {"hatano", "mansour_mcallester", "naive"}
        The names of :data:`boostcore.topdown.CRITERIA`.
    gamma : float in (0, 1], optional
        Mansour–McAllester's ``γ`` (required for that criterion, ignored by the others).
    max_arity : int ``≥ 2``, optional
        The cap ``K`` on the arities tried (the top-down page's "largest arity"); ``None``
        gives the rule alone.

    Returns
    -------
    int or ndarray of int
        The largest admissible ``k`` (``≥ 2``), or ``0`` where ``|T| ≥ s``: an int for a scalar
        ``n_leaves``, an int array otherwise.

    Raises
    ------
    ValueError
        If ``criterion`` is unknown, ``gamma`` is missing or outside (0, 1] for
        ``"mansour_mcallester"``, ``size < 2``, ``max_arity < 2``, or some ``n_leaves`` is not
        a whole number ``≥ 1``.

    Examples
    --------
    >>> from boostcore.bounds import max_admissible_arity
    >>> max_admissible_arity([1, 2, 3, 8], 8, "hatano").tolist()
    [8, 4, 2, 0]
    >>> max_admissible_arity(1, 8, "naive", max_arity=4)
    4
    >>> max_admissible_arity(1, 100, "mansour_mcallester", gamma=0.1)
    4
    """
    gamma = _check_criterion_gamma(criterion, gamma)
    size = check_int("size", size, low=2)
    if max_arity is not None:
        max_arity = check_int("max_arity", max_arity, low=2)
    n_arr = np.asarray(n_leaves)
    if n_arr.dtype.kind not in "iu":
        whole = n_arr.dtype.kind == "f" and np.all(np.isfinite(n_arr))
        if whole and np.all(n_arr == np.round(n_arr)):
            n_arr = n_arr.astype(np.int64)
        else:
            raise ValueError(f"n_leaves must be whole numbers of leaves ≥ 1; got {n_leaves!r}")
    if np.any(n_arr < 1):
        raise ValueError(f"n_leaves must be ≥ 1 (a number of leaves); got {n_leaves}")
    n = n_arr.astype(np.int64)
    fits = size - n + 1  # |T| + k − 1 ≤ s
    if criterion == "naive":
        rule = fits
    elif criterion == "hatano":
        rule = np.maximum(2, size // n)
    else:
        top = size if max_arity is None else min(size, max_arity)
        ks = np.arange(3, top + 1, dtype=np.int64)
        if ks.size == 0:
            rule = np.full(n.shape, 2, dtype=np.int64)
        else:
            limits = _mm_limits(ks, size, gamma)  # decreasing in k
            # number of k ≥ 3 with |T| < limit(k): the limits are decreasing, so count them
            count = np.sum(n[..., None] < limits, axis=-1)
            rule = 2 + count
    out = np.minimum(rule, fits)
    if max_arity is not None:
        out = np.minimum(out, max_arity)
    out = np.where(n >= size, 0, out).astype(np.int64)
    return int(out) if out.ndim == 0 else out


def smallest_budget_for_arity(
    k: int, criterion: str, gamma: np.ndarray | float | None = None
) -> np.ndarray | float:
    """The smallest target size ``s`` at which ``criterion`` admits a ``k``-way split at all.

    The rules of :func:`max_admissible_arity` are most permissive at the root (``|T| = 1``),
    so this is the smallest ``s`` with a ``k``-way split acceptable at ``|T| = 1``:

    * ``"hatano"`` and ``"naive"``: ``s = k``;
    * ``"mansour_mcallester"``: the smallest ``s ≥ k`` with ``1 < e_γ(k)·s·γ/(2k)``, i.e.
      ``⌊2k/(γ e_γ(k))⌋ + 1``. For ``k = 3``: ``s = 71`` at ``γ = 0.1``, ``s = 65`` at
      ``γ = 0.11``, and never below ``32`` for any ``γ`` (``γ e_γ(3) ≤ 0.193``).

    Returns a float holding an integer, ``inf`` where the rule never admits ``k`` (at
    ``γ = 1``, ``e_1(k) = 0``). Vectorised over ``gamma`` (Mansour–McAllester); the boundary
    is settled with the rule as :func:`boostcore.topdown.acceptable` evaluates it.

    Parameters
    ----------
    k : int ``≥ 2``
        The arity.
    criterion : {"hatano", "mansour_mcallester", "naive"}
        One of :data:`ARITY_CRITERIA`.
    gamma : float or array_like of float in (0, 1], optional
        Mansour–McAllester's ``γ`` (required for that criterion when ``k ≥ 3``, ignored by the
        others).

    Returns
    -------
    float or ndarray of float
        The smallest budget ``s`` (an integer value, or ``inf``): a float for a scalar ``gamma``,
        an array of the shape of ``gamma`` otherwise.

    Raises
    ------
    ValueError
        If ``k < 2``, ``criterion`` is unknown, or ``gamma`` is missing or outside (0, 1] for
        ``"mansour_mcallester"``.

    Examples
    --------
    >>> from boostcore.bounds import smallest_budget_for_arity
    >>> smallest_budget_for_arity(3, "hatano")
    3.0
    >>> smallest_budget_for_arity(3, "mansour_mcallester", gamma=[0.1, 0.11]).tolist()
    [71.0, 65.0]
    >>> smallest_budget_for_arity(3, "mansour_mcallester", gamma=1.0)
    inf
    """
    k = check_int("k", k, low=2)
    if criterion in ("hatano", "naive") or k == 2:
        _check_criterion_gamma(criterion, gamma)
        return float(k)
    if gamma is None:
        _check_criterion_gamma(criterion, None)
    g_arr = np.asarray(gamma, dtype=float)
    if np.any(~np.isfinite(g_arr)) or np.any(g_arr <= 0) or np.any(g_arr > 1):
        raise ValueError(f"gamma must be in (0, 1]; got {gamma}")
    _check_criterion_gamma(criterion, float(g_arr.flat[0]))
    out = []
    for g in g_arr.reshape(-1):
        e = float(e_gamma(k, float(g)))
        if e <= 0.0:  # γ = 1: e_1(k) = 0, never acceptable
            out.append(np.inf)
            continue
        s = max(k, int(np.floor(2 * k / (g * e))) + 1)
        # settle the floating-point boundary with the rule itself (as topdown evaluates it)
        while s > k and 1 < e * (s - 1) * g / (2 * k):
            s -= 1
        while not 1 < e * s * g / (2 * k):
            s += 1
        out.append(s)
    res = np.array(out, dtype=float).reshape(g_arr.shape)
    return float(res) if res.ndim == 0 else res


# ------------------------------------------------------------------------------------------
# From weak learning to boosting: advantage and tree size (Hatano 2004, Lemma 1; Mansour &
# McAllester, Lemma 3.1 — both after Kearns & Mansour)


def weak_learning_advantage(delta: np.ndarray | float) -> np.ndarray | float:
    """``γ = δ²/16``: the advantage guaranteed by a classical weak learner with edge ``δ``.

    Kearns & Mansour's lemma (Hatano 2004, Lemma 1; Mansour & McAllester, Lemma 3.1): if for
    every distribution some binary split has error ``≤ 1/2 − δ``, then for every sample ``W``
    some binary split has gain ``Δ(W, h) ≥ (δ²/16)·I(q_W)`` for the index
    ``I(q) = 2·sqrt(q(1 − q))`` (Hatano prints ``sqrt(q(1 − q))``, docs/theory.md §6; the
    advantage ``Δ/I`` is the same for both, but only the ``2·sqrt`` form is an index with
    ``I ≥ min(q, 1 − q)``). The lemma is stated for that index only; for Gini or entropy the
    weak-learning edge gives no such constant. ``δ ∈ [0, 1/2]``.

    Parameters
    ----------
    delta : float or array_like of float in [0, 1/2]
        The weak learner's edge ``δ`` (its error is at most ``1/2 − δ``).

    Returns
    -------
    float or ndarray of float
        ``γ = δ²/16``: a float for a scalar ``delta``, an array otherwise.

    Raises
    ------
    ValueError
        If some ``delta`` is not finite or outside [0, 1/2].

    Examples
    --------
    >>> from boostcore.bounds import weak_learning_advantage
    >>> round(weak_learning_advantage(0.2), 6)
    0.0025
    >>> weak_learning_advantage([0.0, 0.5]).tolist()
    [0.0, 0.015625]
    """
    d = _check_delta(delta)
    out = d**2 / 16.0
    return float(out) if out.ndim == 0 else out


def _check_delta(delta: np.ndarray | float) -> np.ndarray:
    """``delta`` as a float array, every entry a weak learner's edge in [0, 1/2]."""
    d = np.asarray(delta, dtype=float)
    if np.any(~np.isfinite(d)) or np.any(d < 0) or np.any(d > 0.5):
        raise ValueError(
            f"delta must be in [0, 1/2] (a weak learner's edge: error ≤ 1/2 − δ); got {delta}"
        )
    return d


def weak_learning_advantage_tight(delta: np.ndarray | float) -> np.ndarray | float:
    """``1 − sqrt(1 − 4δ²)``: the exact worst-case advantage of a weak learner with edge ``δ``.

    **Our derivation, not the papers'.** The papers (Kearns & Mansour's lemma, restated as
    Mansour & McAllester, Lemma 3.1, and Hatano 2004, Lemma 1) give the constant ``δ²/16``
    (:func:`weak_learning_advantage`), a valid but loose lower bound. In the same setting the
    exact minimum is larger (docs/theory.md §0.1):

    *Setting.* A leaf with sample ``W`` and positive fraction ``q``; the index
    ``I(q) = 2·sqrt(q(1 − q))``; a binary split ``h`` whose error under the leaf's
    **class-balanced** distribution (each class weighs 1/2 — the distribution the lemma's proof
    applies the weak-learning hypothesis to) is at most ``1/2 − δ``. Under ``W``'s own
    distribution no constant follows: on a leaf with ``q ≤ 1/2 − δ`` the constant hypothesis
    qualifies and has gain 0.

    *Derivation.* Let ``τ = Pr(h = 1 | y = +1)`` and ``σ = Pr(h = 1 | y = −1)``. The balanced
    error is ``(1 − τ)/2 + σ/2``, so the condition is ``τ − σ ≥ 2δ`` (or ``σ − τ ≥ 2δ`` for
    the complement, the same split). Branch ``h = 1`` holds mass ``qτ + (1 − q)σ`` with
    positive fraction ``qτ/(qτ + (1 − q)σ)``, so its ``p·I`` is ``2·sqrt(qτ(1 − q)σ)``;
    likewise for ``h = 0``. Hence ``I_W(T_h) = I(q)·(sqrt(τσ) + sqrt((1 − τ)(1 − σ)))`` and the
    advantage ``Δ/I(q) = 1 − sqrt(τσ) − sqrt((1 − τ)(1 − σ))`` does not depend on ``q``. For
    ``σ < τ`` the bracket decreases in ``τ`` (its ``τ``-derivative has the sign of
    ``σ(1 − τ) − τ(1 − σ) = σ − τ``), so the worst split has ``τ − σ = 2δ``. On that line the
    bracket is concave in ``σ`` (each square root is a geometric mean of affine functions) and
    symmetric under ``σ ↦ 1 − 2δ − σ``, so it peaks at ``σ = 1/2 − δ``, ``τ = 1/2 + δ`` with
    value ``sqrt(1 − 4δ²)``. The minimum advantage is therefore

        ``γ*(δ) = 1 − sqrt(1 − 4δ²) = 4δ²/(1 + sqrt(1 − 4δ²))``,

    attained by the symmetric split (each class sent the wrong way with probability
    ``1/2 − δ``) at every ``q``, e.g. the symmetric leaf ``q = 1/2``. As
    ``sqrt(1 − x) ≤ 1 − x/2``, ``γ* ≥ 2δ²`` — at least 32 times ``δ²/16``; and ``γ* ≤ 4δ²``.
    At ``δ = 0.2``: ``γ* = 0.0835`` against ``0.0025``. ``tests/boostcore/test_bounds.py``
    checks the formula against a numeric search over ``q`` and ``(τ, σ)``.

    Parameters
    ----------
    delta : float or array_like of float in [0, 1/2]
        The weak learner's edge ``δ`` (its balanced error is at most ``1/2 − δ``).

    Returns
    -------
    float or ndarray of float
        ``γ*(δ)`` in [0, 1]: a float for a scalar ``delta``, an array otherwise.

    Raises
    ------
    ValueError
        If some ``delta`` is not finite or outside [0, 1/2].

    Examples
    --------
    >>> from boostcore.bounds import weak_learning_advantage_tight
    >>> round(weak_learning_advantage_tight(0.2), 4)
    0.0835
    >>> weak_learning_advantage_tight([0.0, 0.5]).tolist()
    [0.0, 1.0]
    """
    d = _check_delta(delta)
    # the second form avoids the cancellation in 1 − sqrt(1 − 4δ²) for small δ
    out = 4.0 * d**2 / (1.0 + np.sqrt(np.maximum(1.0 - 4.0 * d**2, 0.0)))
    return float(out) if out.ndim == 0 else out


#: The bounds :func:`size_for_error` can invert.
SIZE_BOUNDS = ("power", "phi", "e")
_LN10 = np.log(10.0)
_EXACT = 2.0**52  # below this the integer answer is settled exactly


def _bound_at(bound: str, s: int, gamma: float) -> float:
    if bound == "power":
        return float(size_bound(s, gamma))
    if bound == "phi":
        return float(phi_gamma(int(s), gamma))
    if s <= 100_000:  # agree with the public e_γ to the last bit where it is accurate
        return float(e_gamma(int(s), gamma))
    return float(np.exp(_log_e_real(float(s), gamma)))


def _log_e_real(n: float, gamma: float) -> float:
    """``ln e_γ(n)`` accurate for every ``n ≥ 1`` and small ``γ`` (log1p sum up to 10⁵, then
    Stirling's series for ``lnΓ(n − γ) − lnΓ(n)``, which has no cancellation)."""
    if n <= 100_000:
        return float(np.sum(np.log1p(-gamma / np.arange(1, int(n)))))
    diff = (
        -gamma * np.log(n)
        + (n - gamma - 0.5) * np.log1p(-gamma / n)
        + gamma
        + gamma / (12.0 * n * (n - gamma))
    )
    return float(diff - gammaln(1.0 - gamma))


def _ln_threshold(eps: float, gamma: float, bound: str) -> float:
    """``ln`` of the smallest real ``s ≥ 1`` with ``bound_γ(s) ≤ ε`` (``inf`` if none)."""
    le = np.log(eps)
    if bound == "power":
        return -le / gamma
    if bound == "phi":
        l1 = np.log1p(-gamma)
        i = max(int(np.ceil(le / l1)) - 1, 0)  # (1−γ)^(i+1) ≤ ε < (1−γ)^i
        while i > 0 and i * l1 <= le:
            i -= 1
        while (i + 1) * l1 > le:
            i += 1
        t = (1.0 - np.exp(le - i * l1)) / gamma  # (1−γ)^i (1 − tγ) = ε, 0 ≤ t ≤ 1
        return i * np.log(2.0) + np.log1p(min(max(t, 0.0), 1.0))
    # e_γ: ln e_γ(n) → −lnΓ(1−γ) − γ ln n; solve exactly for moderate n
    x = (-le - gammaln(1.0 - gamma)) / gamma
    if x > np.log(1e15):
        return x
    lo, hi = 0.0, max(x, 0.0) + 50.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _log_e_real(np.exp(mid), gamma) <= le:
            hi = mid
        else:
            lo = mid
    return hi


def log10_size_for_error(
    eps: float, gamma: np.ndarray | float, bound: str = "power"
) -> np.ndarray | float:
    """``log₁₀`` of :func:`size_for_error`, finite even when the size overflows a float.

    Useful since ``γ = δ²/16`` is tiny, and ``(1/ε)^(1/γ)`` is astronomically large. ``inf`` at
    ``γ = 0``.

    Parameters
    ----------
    eps : float in (0, 1)
        The target error ``ε``.
    gamma : float or array_like of float in [0, 1]
        The advantage ``γ``.
    bound : {"power", "phi", "e"}, default="power"
        The bound to invert (one of :data:`SIZE_BOUNDS`, see :func:`size_for_error`).

    Returns
    -------
    float or ndarray of float
        ``log₁₀ s`` (``inf`` at ``γ = 0``): a float for a scalar ``gamma``, an array otherwise.

    Raises
    ------
    ValueError
        If ``eps`` is outside (0, 1), ``bound`` is unknown, or some ``gamma`` is outside [0, 1].

    Examples
    --------
    >>> from boostcore.bounds import log10_size_for_error
    >>> log10_size_for_error(0.1, [0.5, 0.25]).tolist()  # s = 100 and s = 10 000
    [2.0, 4.0]
    >>> round(log10_size_for_error(0.1, 0.01), 4)  # 10^100 leaves: beyond any float integer
    100.0
    >>> log10_size_for_error(0.1, 0.0)
    inf
    """
    eps = check_float("eps", eps, low=0.0, high=1.0, low_open=True, high_open=True)
    if bound not in SIZE_BOUNDS:
        listed = ", ".join(repr(b) for b in SIZE_BOUNDS)
        raise ValueError(f"bound must be one of {listed}; got {bound!r}")
    g_arr = np.asarray(gamma, dtype=float)
    if np.any(~np.isfinite(g_arr)) or np.any(g_arr < 0) or np.any(g_arr > 1):
        raise ValueError(f"gamma must be in [0, 1]; got {gamma}")
    out = []
    for g in g_arr.reshape(-1):
        g = float(g)
        if g == 0.0:
            out.append(np.inf)
            continue
        if g == 1.0:  # every bound is 0 at s = 2 (e_1(2) = φ_1(2) = 0) and 2^−1 ≤ ε needs s ≥ 1/ε
            s = 2 if bound != "power" else int(np.ceil(1.0 / eps - 1e-9))
            while bound == "power" and s > 1 and (s - 1) ** -1.0 <= eps:
                s -= 1
            out.append(np.log10(max(s, 1)))
            continue
        ln_s = _ln_threshold(eps, g, bound)
        if ln_s < np.log(_EXACT):
            s = max(1, int(np.ceil(np.exp(ln_s))))
            # settle the integer with the bound itself
            while s > 1 and _bound_at(bound, s - 1, g) <= eps:
                s -= 1
            while _bound_at(bound, s, g) > eps:
                s += 1
            out.append(np.log10(s))
        else:
            out.append(ln_s / _LN10)
    res = np.array(out, dtype=float).reshape(g_arr.shape)
    return float(res) if res.ndim == 0 else res


def size_for_error(
    eps: float, gamma: np.ndarray | float, bound: str = "power"
) -> np.ndarray | float:
    """The smallest number of leaves ``s`` whose bound guarantees ``I(T) ≤ ε``.

    Hence training error ``≤ ε``, for advantage ``γ``: the explicit form of ``(1/ε)^O(1/γ)``.

    * ``bound="power"``: ``s^(−γ) ≤ ε`` ⇔ ``s ≥ (1/ε)^(1/γ)`` (Kearns–Mansour; Hatano,
      Theorem 4);
    * ``bound="phi"``: ``φ_γ(s) ≤ ε`` (Hatano's proof of Theorem 4 — the tightest, fewest
      leaves: ``φ_γ ≤ e_γ ≤ s^(−γ)``);
    * ``bound="e"``: ``e_γ(s) ≤ ε`` (Mansour & McAllester, Theorems 3.2 and 4.1).

    With ``γ = δ²/16`` (:func:`weak_learning_advantage`) this is the size a classical weak
    learner of edge ``δ`` needs: ``(1/ε)^(16/δ²)`` leaves under ``s^(−γ)``.

    Returns a float holding the exact integer while ``s < 2⁵²``; beyond that the real
    threshold (the integer is within one part in 2⁵²), and ``inf`` past the float range or at
    ``γ = 0``. Use :func:`log10_size_for_error` to display large sizes. Vectorised over
    ``gamma``; ``ε ∈ (0, 1)``.

    Parameters
    ----------
    eps : float in (0, 1)
        The target error ``ε``.
    gamma : float or array_like of float in [0, 1]
        The advantage ``γ``.
    bound : {"power", "phi", "e"}, default="power"
        The bound to invert (one of :data:`SIZE_BOUNDS`).

    Returns
    -------
    float or ndarray of float
        The number of leaves ``s``: a float for a scalar ``gamma``, an array otherwise.

    Raises
    ------
    ValueError
        If ``eps`` is outside (0, 1), ``bound`` is unknown, or some ``gamma`` is outside [0, 1].

    Examples
    --------
    >>> from boostcore.bounds import size_for_error
    >>> size_for_error(0.1, 0.5)  # (1/0.1)^(1/0.5)
    100.0
    >>> size_for_error(0.1, 0.5, bound="e"), size_for_error(0.1, 0.5, bound="phi")
    (33.0, 12.0)
    >>> size_for_error(0.1, 0.0)
    inf
    """
    lg = np.asarray(log10_size_for_error(eps, gamma, bound))
    with np.errstate(over="ignore"):
        out = np.where(
            lg < np.log10(_EXACT),
            np.round(10.0 ** np.minimum(lg, 300.0)),
            10.0 ** np.minimum(lg, 400.0),
        )
    out = np.where(np.isinf(lg), np.inf, out)
    return float(out) if out.ndim == 0 else out


# ------------------------------------------------------------------------------------------
# Grossmann, "A theory of probabilistic boosting, decision trees and matryoshki"
# (docs/theory.md §3, §5)


def rho_of_edge(edge: np.ndarray | float) -> np.ndarray | float:
    """``ρ = sqrt(1 − 4ε²)``: the per-round bound of a weak learner with edge ``ε`` (Eq. (3)).

    Parameters
    ----------
    edge : float or array_like of float in [0, 1/2]
        The weak learner's edge ``ε``.

    Returns
    -------
    float or ndarray of float
        ``ρ`` in [0, 1]: a float for a scalar ``edge``, an array otherwise.

    Raises
    ------
    ValueError
        If some ``edge`` is outside [0, 1/2].

    Examples
    --------
    >>> from boostcore.bounds import rho_of_edge
    >>> round(rho_of_edge(0.3), 4)
    0.8
    >>> rho_of_edge([0.0, 0.5]).tolist()
    [1.0, 0.0]
    """
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

    Parameters
    ----------
    T : float or array_like of float, each ``≥ 0``
        Number of internal nodes (weak classifiers); real values allowed.
    rho : float in [0, 1]
        The per-node bound ``ρ``.

    Returns
    -------
    float or ndarray of float
        ``F(T, ρ)``: a float for a scalar ``T``, an array otherwise.

    Raises
    ------
    ValueError
        If ``rho`` is outside [0, 1] or some ``T < 0``.

    Examples
    --------
    >>> from boostcore.bounds import f_tree
    >>> round(f_tree(1, 0.8), 4), round(f_tree(2, 0.8), 4)
    (0.8, 0.72)
    >>> f_tree(5, 1.0)
    1.0
    >>> round(f_tree(100, 0.8), 4)
    0.3417
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

    Parameters
    ----------
    sizes : sequence of float, each ``≥ 0``
        Sub-tree sizes ``T_1 … T_L``, innermost first.
    rho : float in [0, 1]
        The per-node bound ``ρ`` of the innermost trees.

    Returns
    -------
    float
        The nested bound (``rho`` itself for empty ``sizes``).

    Raises
    ------
    ValueError
        If ``rho`` is outside [0, 1] or some size is negative.

    Examples
    --------
    >>> from boostcore.bounds import nested_f
    >>> round(nested_f([2, 2], 0.8), 4)  # F(2, F(2, 0.8)) = F(2, 0.72)
    0.6192
    >>> nested_f([], 0.8)
    0.8
    """
    value = check_float("rho", rho, low=0.0, high=1.0)
    for T in sizes:
        value = float(f_tree(T, min(value, 1.0)))
    return value


def _check_levels(levels, *, low: int) -> np.ndarray:
    """``levels`` as a 1-D int array, each an integer ``≥ low`` (a fractional level used to be
    cut down silently)."""
    L_arr = np.atleast_1d(np.asarray(levels, dtype=float))
    if not np.all(np.isfinite(L_arr)) or np.any(L_arr < low) or np.any(L_arr != np.round(L_arr)):
        raise ValueError(f"levels must be whole numbers ≥ {low}; got {levels}")
    return L_arr.astype(int)


def nested_equal(T: float, levels: np.ndarray | int, rho: float) -> np.ndarray | float:
    """Eq. (11): the nested bound with ``L`` equal levels of size ``T^(1/L)`` (Fig. 3).

    Parameters
    ----------
    T : float ``≥ 1``
        Total number of weak classifiers.
    levels : int or array_like of int, each ``≥ 1``
        Number of nesting levels ``L``.
    rho : float in [0, 1]
        The per-node bound ``ρ``.

    Returns
    -------
    float or ndarray of float
        The nested bound: a float for a scalar ``levels``, an array otherwise.

    Raises
    ------
    ValueError
        If some level is not a whole number ``≥ 1``, ``T < 1``, or ``rho`` is outside [0, 1].

    Examples
    --------
    >>> from boostcore.bounds import nested_equal
    >>> [round(v, 4) for v in nested_equal(16, [1, 2], 0.8).tolist()]
    [0.4909, 0.4184]
    """
    L_arr = _check_levels(levels, low=1)
    T = check_float("T", T, low=1.0)
    out = np.array([nested_f([T ** (1.0 / L)] * int(L), rho) for L in L_arr])
    return float(out[0]) if np.ndim(levels) == 0 else out


def m2(levels: np.ndarray | int, rho: float) -> np.ndarray | float:
    """``M2(T, ρ) = F(2, F(2, … F(2, ρ)))`` with ``L = log₂ T`` nested F's (§5.3).

    Parameters
    ----------
    levels : int or array_like of int, each ``≥ 0``
        Number of nested ``F(2, ·)`` (``L = log₂ T``); ``0`` gives ``ρ``.
    rho : float in [0, 1]
        The per-node bound ``ρ``.

    Returns
    -------
    float or ndarray of float
        ``M2``: a float for a scalar ``levels``, an array otherwise.

    Raises
    ------
    ValueError
        If some level is not a whole number ``≥ 0``, or ``rho`` is outside [0, 1].

    Examples
    --------
    >>> from boostcore.bounds import m2
    >>> [round(v, 4) for v in m2([0, 1, 2], 0.8).tolist()]
    [0.8, 0.72, 0.6192]
    """
    L_arr = _check_levels(levels, low=0)
    out = np.array([nested_f([2.0] * int(L), rho) for L in L_arr])
    return float(out[0]) if np.ndim(levels) == 0 else out


def valid_nested_f(T1: float, T2: float, rho: float) -> float:
    """The composition that does follow (docs/theory.md §3.3): ``F(T₂, 2 sqrt(C₁(1 − C₁)))``.

    Here ``C₁ = min(F(T₁, ρ), 1/2)`` — a sub-tree of weighted error ``C₁`` used as a node only
    guarantees ``Z₊ + Z₋ ≤ 2 sqrt(C₁(1 − C₁))`` (Cauchy–Schwarz).

    Parameters
    ----------
    T1 : float ``≥ 0``
        Size of the inner (sub-)trees.
    T2 : float ``≥ 0``
        Size of the outer tree whose nodes are those sub-trees.
    rho : float in [0, 1]
        The per-node bound ``ρ`` of the inner trees.

    Returns
    -------
    float
        The bound on the outer tree's ``C``.

    Raises
    ------
    ValueError
        If ``rho`` is outside [0, 1] or a size is negative.

    Examples
    --------
    >>> from boostcore.bounds import valid_nested_f
    >>> round(valid_nested_f(2, 2, 0.3), 4)
    0.7102
    >>> valid_nested_f(2, 2, 0.8)  # C₁ = 0.72 is capped at 1/2: the node guarantees nothing
    1.0
    """
    c1 = min(float(f_tree(T1, rho)), 0.5)
    return float(f_tree(T2, min(2.0 * np.sqrt(c1 * (1.0 - c1)), 1.0)))


def f_tree_dT(T: np.ndarray | float, rho: float) -> np.ndarray | float:
    """``∂F/∂T = −F(T, ρ)(1/T + ψ(T) − ψ(T + ρ))`` (§5.4).

    Parameters
    ----------
    T : float or array_like of float, each ``> 0``
        Number of internal nodes.
    rho : float in [0, 1]
        The per-node bound ``ρ``.

    Returns
    -------
    float or ndarray of float
        ``∂F/∂T`` (``≤ 0``): a float for a scalar ``T``, an array otherwise.

    Raises
    ------
    ValueError
        If ``rho`` is outside [0, 1] or some ``T ≤ 0``.

    Examples
    --------
    >>> from boostcore.bounds import f_tree_dT
    >>> round(f_tree_dT(1, 0.8), 4)
    -0.1102
    """
    from scipy.special import digamma

    T_arr = np.asarray(T, dtype=float)
    if not np.all(np.isfinite(T_arr)) or np.any(T_arr <= 0):
        raise ValueError(f"T must be > 0 (a number of internal nodes); got {T}")
    out = -np.asarray(f_tree(T_arr, rho)) * (1.0 / T_arr + digamma(T_arr) - digamma(T_arr + rho))
    return float(out) if np.ndim(out) == 0 else out


def matryoshka_rate(C: float, T: float) -> float:
    """Eq. (14): ``∂/∂t F(t/T, C)`` at ``t = T`` ``= (C/T)(γ_E + ψ(C) + 1/C − 1)``.

    The rate at which collapsing a tree of bound ``C`` into one node of a new tree lowers the
    bound (Grossmann, §5.4).

    Parameters
    ----------
    C : float in (0, 1]
        The bound of the tree being collapsed.
    T : float ``> 0``
        Size of the new tree.

    Returns
    -------
    float
        The rate (``≤ 0``; ``0`` at ``C = 1``).

    Raises
    ------
    ValueError
        If ``C`` is outside (0, 1] or ``T ≤ 0``.

    Examples
    --------
    >>> from boostcore.bounds import matryoshka_rate
    >>> round(matryoshka_rate(0.5, 10), 4)
    -0.0193
    >>> matryoshka_rate(1.0, 10)
    0.0
    """
    from scipy.special import digamma

    C = check_float("C", C, low=0.0, high=1.0, low_open=True)
    T = check_float("T", T, low=0.0, low_open=True)
    return float(C / T * (np.euler_gamma + digamma(C) + 1.0 / C - 1.0))


def infoboost_rounds(gamma: np.ndarray | float, eps: float) -> np.ndarray | float:
    """``T = (1/γ) ln(1/ε)``: rounds after which ``Π (1 − γ) ≤ ε`` guarantees error ≤ ε.

    This holds when every ``H_{D_t}(Y|h_t) ≤ 1 − γ`` (Takimoto et al., §3).

    Parameters
    ----------
    gamma : float or array_like of float in (0, 1]
        The per-round drop ``γ`` of the conditional entropy.
    eps : float in (0, 1)
        The target error ``ε``.

    Returns
    -------
    float or ndarray of float
        The (real) number of rounds ``T``: a float for a scalar ``gamma``, an array otherwise.

    Raises
    ------
    ValueError
        If ``eps`` is outside (0, 1) or some ``gamma`` is outside (0, 1].

    Examples
    --------
    >>> from boostcore.bounds import infoboost_rounds
    >>> round(infoboost_rounds(0.1, 0.01), 4)  # 10·ln 100
    46.0517
    """
    eps = check_float("eps", eps, low=0.0, high=1.0, low_open=True, high_open=True)
    g = np.asarray(gamma, dtype=float)
    if np.any(g <= 0) or np.any(g > 1):
        raise ValueError(f"gamma must be in (0, 1]; got {gamma}")
    out = np.log(1.0 / eps) / g
    return float(out) if out.ndim == 0 else out


def band_count(c: float, gamma: np.ndarray | float) -> np.ndarray | int:
    """``K``: the number of entropy bands of Takimoto et al.'s Theorem 3.

    The merged program has at most ``2·2K`` leaves. ``K`` is the smallest ``j`` with
    ``ε_j = ((1+a)/a)^(j−1)cγ/a ≥ 1``, ``a = 2c/(1−c)``;
    ``K = O(log(1/((1−c)γ)) / log((1+c)/(2c)))`` — the paper prints the denominator
    ``log(1+1/c)``, a typo (docs/theory.md §6): ``(1+a)/a = (1+c)/(2c)``, which tends to 1 as
    ``c → 1``, so the number of bands grows without bound there.

    Parameters
    ----------
    c : float in (0, 1)
        The constant ``c`` of Theorem 3.
    gamma : float or array_like of float in (0, 1]
        The advantage ``γ``.

    Returns
    -------
    int or ndarray of int
        ``K ≥ 1``: an int for a scalar ``gamma``, an int array otherwise.

    Raises
    ------
    ValueError
        If ``c`` is outside (0, 1) or some ``gamma`` is outside (0, 1].

    Examples
    --------
    >>> from boostcore.bounds import band_count
    >>> band_count(0.5, 0.1)  # smallest j with 1.5^(j−1)·0.025 ≥ 1
    11
    >>> band_count(0.5, [0.1, 1.0]).tolist()
    [11, 5]
    """
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


# ------------------------------------------------------------------------------------------
# The chains of the proof panel (issue 17, "the proof at this round"): the few numbers the
# panel needs that no snapshot's metrics hold


def divide_merge_products(
    Z: Sequence[float], H_leaves: Sequence[float], H_h: Sequence[float]
) -> tuple[float, float, float]:
    """``(Π Z_t, Π H_{D_t}(Y|ℓ_t), Π H_{D_t}(Y|h_t))`` over the rounds ``t = 1 … T``.

    The three members of Theorem 1 of Takimoto, Koya & Maruoka (docs/theory.md §2):
    training error of ``sign(F_T)`` ``≤ Π Z_t = Π H_{D_t}(Y|ℓ_t) ≤ Π H_{D_t}(Y|h_t)``. The
    first inequality holds for every merging scheme with the actual normalisers; the equality
    is Lemma 2 (``Z_t = H_{D_t}(Y|ℓ_t)`` when no leaf of round ``t`` needed smoothing,
    otherwise ``Z_t`` is larger by the smoothing excess); the last inequality holds because
    ``ℓ_t`` refines ``h_t`` (equality for InfoBoost, ``merge="all"``). The products are
    accumulated left to right in round order, as :func:`boostcore.branching.bp_infoboost`
    accumulates ``bound_prod_Z`` and ``prod_H_h``, so those two agree with its metrics
    exactly.

    Parameters
    ----------
    Z, H_leaves, H_h : sequence of float, each ``≥ 0``, of equal length ``T``
        ``Z_t``, ``H_{D_t}(Y|ℓ_t)`` and ``H_{D_t}(Y|h_t)`` of every round, in order.

    Returns
    -------
    (float, float, float)
        The three products (``1.0`` each for ``T = 0``, the empty products).

    Raises
    ------
    ValueError
        If the sequences differ in length, or a value is negative or not finite.

    Examples
    --------
    >>> from boostcore.bounds import divide_merge_products
    >>> [round(v, 4) for v in divide_merge_products([0.8, 0.9], [0.8, 0.85], [0.9, 0.95])]
    [0.72, 0.68, 0.855]
    >>> divide_merge_products([], [], [])
    (1.0, 1.0, 1.0)
    """
    cols = [np.asarray(v, dtype=float).reshape(-1) for v in (Z, H_leaves, H_h)]
    if not cols[0].size == cols[1].size == cols[2].size:
        raise ValueError(
            "Z, H_leaves and H_h need one value per round each; got lengths "
            f"{cols[0].size}, {cols[1].size}, {cols[2].size}"
        )
    for name, col in zip(("Z", "H_leaves", "H_h"), cols):
        if not np.all(np.isfinite(col)) or np.any(col < 0):
            raise ValueError(f"{name} must hold finite values ≥ 0; got {col.tolist()}")
    out = []
    for col in cols:
        prod = 1.0
        for v in col.tolist():
            prod *= v
        out.append(prod)
    return out[0], out[1], out[2]


def g1_weak_learning_bound(mu: Sequence[float]) -> tuple[float, float]:
    """``(γ̂, exp(−γ̂²·T/2))`` with ``γ̂ = min_t |μ_t|``: Theorem 1 [R] under weak learning.

    Henry, Nock & Nielsen (2007), Theorem 1 as reconstructed in docs/theory.md §4.1: on a path
    of ``T`` weak hypotheses ``E_{w_1}[e^{−yH}] ≤ Π_t sqrt(1 − μ_t²)``, and under the paper's
    weak learning assumption ``|μ_t| ≥ γ`` every factor is at most
    ``sqrt(1 − γ²) ≤ exp(−γ²/2)``, so the product is at most ``exp(−γ²·T/2)``. As for the
    top-down trees' ``γ̂`` (docs/theory.md §1.1), the argument only uses the rounds the run
    made, so ``γ = γ̂``, the smallest ``|μ_t|`` measured, is allowed; a round whose weak
    hypothesis has ``μ = 0`` (no edge) makes ``γ̂ = 0`` and the bound the trivial 1.

    Parameters
    ----------
    mu : sequence of float in [−1, 1]
        ``μ_t`` of every round on the path (``|μ|`` above 1 is taken as 1).

    Returns
    -------
    (float, float)
        ``γ̂`` (``nan`` for an empty path) and ``exp(−γ̂²·T/2)`` (``1.0`` for an empty path).

    Raises
    ------
    ValueError
        If some ``μ_t`` is not finite.

    Examples
    --------
    >>> from boostcore.bounds import g1_weak_learning_bound
    >>> g, b = g1_weak_learning_bound([0.5, -0.3])
    >>> round(g, 4), round(b, 4)  # exp(−0.3²·2/2)
    (0.3, 0.9139)
    >>> g1_weak_learning_bound([0.5, 0.0])  # a round without edge: the bound says nothing
    (0.0, 1.0)
    >>> g1_weak_learning_bound([])
    (nan, 1.0)
    """
    m = np.asarray(mu, dtype=float).reshape(-1)
    if not np.all(np.isfinite(m)):
        raise ValueError(f"mu must hold finite values; got {m.tolist()}")
    if m.size == 0:
        return float("nan"), 1.0
    g = float(min(np.min(np.abs(m)), 1.0))
    return g, float(np.exp(-(g**2) * m.size / 2.0))
