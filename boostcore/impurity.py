"""Index (impurity) functions I: [0, 1] → [0, 1] by name (docs/theory.md §0.1).

Kearns & Mansour (1996) call a function an *index* when ``I(0) = I(1) = 0``, ``I(1/2) = 1`` and
``I(q) ≥ min(q, 1 − q)``; then the training error of any tree is at most
``I(T) = Σ_ℓ p̂_ℓ I(q̂_ℓ)`` (Hatano 2004, §2.3; Mansour & McAllester, §3).
All functions are vectorised and accept scalars or arrays.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._validation import check_choice

IndexFunction = Callable[[np.ndarray], np.ndarray]


def km(q: np.ndarray) -> np.ndarray:
    """Kearns–Mansour index ``2·sqrt(q(1−q))`` (their optimal choice; InfoBoost's ``G``).

    Parameters
    ----------
    q : float or array_like of float in [0, 1]
        Fraction of positive weight in a node (values outside [0, 1] give 0, not an error).

    Returns
    -------
    ndarray of float
        ``I(q)`` elementwise, in [0, 1] (a 0-d array for a scalar ``q``).

    Examples
    --------
    >>> from boostcore.impurity import km
    >>> km([0.0, 0.5, 1.0]).tolist()
    [0.0, 1.0, 0.0]
    >>> round(float(km(0.1)), 4)
    0.6
    """
    q = np.asarray(q, dtype=float)
    return 2.0 * np.sqrt(np.clip(q * (1.0 - q), 0.0, None))


def gini(q: np.ndarray) -> np.ndarray:
    """Gini index ``4q(1−q)`` (CART's criterion, scaled so that ``I(1/2) = 1``).

    Parameters
    ----------
    q : float or array_like of float in [0, 1]
        Fraction of positive weight in a node.

    Returns
    -------
    ndarray of float
        ``I(q)`` elementwise, in [0, 1] for ``q`` in [0, 1] (a 0-d array for a scalar ``q``).

    Examples
    --------
    >>> from boostcore.impurity import gini
    >>> gini([0.0, 0.5, 1.0]).tolist()
    [0.0, 1.0, 0.0]
    >>> round(float(gini(0.1)), 4)
    0.36
    """
    q = np.asarray(q, dtype=float)
    return 4.0 * q * (1.0 - q)


def entropy(q: np.ndarray) -> np.ndarray:
    """Binary entropy ``−q log₂ q − (1−q) log₂(1−q)`` (C4.5's criterion), with 0·log 0 = 0.

    Parameters
    ----------
    q : float or array_like of float in [0, 1]
        Fraction of positive weight in a node (clipped to [0, 1]).

    Returns
    -------
    ndarray of float
        ``I(q)`` in bits, elementwise, in [0, 1] (a 0-d array for a scalar ``q``).

    Examples
    --------
    >>> from boostcore.impurity import entropy
    >>> entropy([0.0, 0.5, 1.0]).tolist()
    [0.0, 1.0, 0.0]
    >>> round(float(entropy(0.1)), 4)
    0.469
    """
    q = np.clip(np.asarray(q, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(q > 0, -q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
        b = np.where(q < 1, -(1 - q) * np.log2(np.where(q < 1, 1 - q, 1.0)), 0.0)
    return a + b


def error(q: np.ndarray) -> np.ndarray:
    """Error index ``2·min(q, 1−q)``: a teaching counter-example.

    It is not strictly concave, so a split can leave ``I(T)`` unchanged even when it separates
    the classes better (XOR is the classic case): greedy growth can stall with zero gain.

    Parameters
    ----------
    q : float or array_like of float in [0, 1]
        Fraction of positive weight in a node.

    Returns
    -------
    ndarray of float
        ``I(q)`` elementwise, in [0, 1] for ``q`` in [0, 1] (a 0-d array for a scalar ``q``).

    Examples
    --------
    >>> from boostcore.impurity import error
    >>> error([0.0, 0.25, 0.5, 1.0]).tolist()
    [0.0, 0.5, 1.0, 0.0]
    """
    q = np.asarray(q, dtype=float)
    return 2.0 * np.minimum(q, 1.0 - q)


INDEX: dict[str, IndexFunction] = {"km": km, "gini": gini, "entropy": entropy, "error": error}

INDEX_LABELS: dict[str, str] = {
    "km": "Kearns–Mansour 2√(q(1−q))",
    "gini": "Gini 4q(1−q)",
    "entropy": "Entropy (bits)",
    "error": "Error 2·min(q, 1−q)",
}


def get_index(name: str) -> IndexFunction:
    """Return the index function called ``name`` (one of ``INDEX``).

    Parameters
    ----------
    name : {"km", "gini", "entropy", "error"}
        A key of :data:`INDEX`.

    Returns
    -------
    callable
        The index function ``I``, vectorised over ``q``.

    Raises
    ------
    ValueError
        If ``name`` is not a key of :data:`INDEX`.

    Examples
    --------
    >>> from boostcore.impurity import get_index
    >>> get_index("gini").__name__
    'gini'
    >>> float(get_index("km")(0.5))
    1.0
    """
    return INDEX[check_choice("index", name, INDEX)]


def tree_index(index: IndexFunction, w_pos: np.ndarray, w_neg: np.ndarray) -> float:
    """``I(T) = Σ_ℓ p̂_ℓ I(q̂_ℓ)`` from per-leaf positive and negative weights (total mass 1).

    Parameters
    ----------
    index : callable
        The index function ``I`` (e.g. :func:`km` or ``get_index(name)``).
    w_pos : array_like of float, shape (n_leaves,)
        Positive weight in each leaf, ``≥ 0``.
    w_neg : array_like of float, shape (n_leaves,)
        Negative weight in each leaf, ``≥ 0``; with ``w_pos`` it should sum to 1 (not
        normalised here). An empty leaf counts as ``q = 1/2``, with weight 0.

    Returns
    -------
    float
        ``Σ_ℓ (w⁺_ℓ + w⁻_ℓ) I(w⁺_ℓ / (w⁺_ℓ + w⁻_ℓ))``, an upper bound on the training error.

    Examples
    --------
    >>> from boostcore.impurity import gini, tree_index
    >>> tree_index(gini, [0.4, 0.1], [0.1, 0.4])
    0.64
    >>> tree_index(gini, [0.5, 0.0], [0.0, 0.5])
    0.0
    """
    w_pos = np.asarray(w_pos, dtype=float)
    w_neg = np.asarray(w_neg, dtype=float)
    mass = w_pos + w_neg
    q = np.divide(w_pos, mass, out=np.full_like(mass, 0.5), where=mass > 0)
    return float(np.sum(mass * index(q)))
