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
    """Kearns–Mansour index ``2·sqrt(q(1−q))`` (their optimal choice; InfoBoost's ``G``)."""
    q = np.asarray(q, dtype=float)
    return 2.0 * np.sqrt(np.clip(q * (1.0 - q), 0.0, None))


def gini(q: np.ndarray) -> np.ndarray:
    """Gini index ``4q(1−q)`` (CART's criterion, scaled so that ``I(1/2) = 1``)."""
    q = np.asarray(q, dtype=float)
    return 4.0 * q * (1.0 - q)


def entropy(q: np.ndarray) -> np.ndarray:
    """Binary entropy ``−q log₂ q − (1−q) log₂(1−q)`` (C4.5's criterion), with 0·log 0 = 0."""
    q = np.clip(np.asarray(q, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(q > 0, -q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
        b = np.where(q < 1, -(1 - q) * np.log2(np.where(q < 1, 1 - q, 1.0)), 0.0)
    return a + b


def error(q: np.ndarray) -> np.ndarray:
    """Error index ``2·min(q, 1−q)``: a teaching counter-example.

    It is not strictly concave, so a split can leave ``I(T)`` unchanged even when it separates
    the classes better (XOR is the classic case): greedy growth can stall with zero gain.
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
    """Return the index function called ``name`` (one of ``INDEX``)."""
    return INDEX[check_choice("index", name, INDEX)]


def tree_index(index: IndexFunction, w_pos: np.ndarray, w_neg: np.ndarray) -> float:
    """``I(T) = Σ_ℓ p̂_ℓ I(q̂_ℓ)`` from per-leaf positive and negative weights (total mass 1)."""
    w_pos = np.asarray(w_pos, dtype=float)
    w_neg = np.asarray(w_neg, dtype=float)
    mass = w_pos + w_neg
    q = np.divide(w_pos, mass, out=np.full_like(mass, 0.5), where=mass > 0)
    return float(np.sum(mass * index(q)))
