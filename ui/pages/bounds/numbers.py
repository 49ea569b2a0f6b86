"""The numbers the bounds explorer (``views/bounds.py``) prints next to its figures.

The page only lays out widgets, formulas and words; every value it quotes is evaluated here
from the closed forms of :mod:`boostcore.bounds` (the figures: ui/pages/bounds/figures.py).
Each evaluation takes microseconds, so nothing is cached: ``st.cache_data`` would cost more
than it saves.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from boostcore import bounds


class NestingExample(NamedTuple):
    """Grossmann's Figure 2 at ρ = 7/8 and T = 1024: the paper's 2-matryoshka bound ``m2``,
    the plain tree's ``f_tree`` and the valid composition of two trees of 32 nodes
    ``valid_nested``."""

    m2: float
    f_tree: float
    valid_nested: float


class SizeBounds(NamedTuple):
    """The three size bounds at one (s, γ): Hatano's ``phi`` = φ_γ(s), ``e`` = e_γ(s) and
    ``power`` = s^−γ."""

    phi: float
    e: float
    power: float


def nesting_example() -> NestingExample:
    """The numbers of the warning under Figure 2, right (ρ = 7/8, T = 1024, T₁ = 32)."""
    return NestingExample(
        float(bounds.m2(10, 7 / 8)),
        float(bounds.f_tree(1024, 7 / 8)),
        float(bounds.valid_nested_f(32, 32, 7 / 8)),
    )


def matryoshka_rate(C: float, T: int) -> float:
    """Rate at which the collapsed (matryoshka) tree's bound changes per weak classifier."""
    return float(bounds.matryoshka_rate(C, T))


def mansour_mcallester_budget(k: int, gamma: float) -> float:
    """The smallest budget s at which Mansour–McAllester's rule allows a k-way split."""
    return float(bounds.smallest_budget_for_arity(k, "mansour_mcallester", gamma))


def size_bounds(size: int, gamma: float) -> SizeBounds:
    """φ_γ(s), e_γ(s) and s^−γ at one target size and advantage."""
    return SizeBounds(
        float(bounds.phi_gamma(size, gamma)),
        float(bounds.e_gamma(size, gamma)),
        float(bounds.size_bound(size, gamma)),
    )


def weak_learning_advantage(delta: float) -> float:
    """The advantage γ = δ²/16 that a weak learner of edge δ guarantees."""
    return float(bounds.weak_learning_advantage(delta))


def weak_learning_advantage_tight(delta: float) -> float:
    """The exact worst-case advantage 1 − √(1 − 4δ²) of a weak learner of edge δ (our
    derivation: :func:`boostcore.bounds.weak_learning_advantage_tight`)."""
    return float(bounds.weak_learning_advantage_tight(delta))


def leaves_for_error(eps: float, gamma: float, bound: str) -> str:
    """How many leaves ``bound`` ("power", "e" or "phi") needs to reach error ε, for people."""
    return fmt_size(float(bounds.log10_size_for_error(eps, gamma, bound)))


def fmt_size(log10_s: float) -> str:
    """A number of leaves for people: exact below ten million, else a power of ten.

    Examples
    --------
    >>> from ui.pages.bounds.numbers import fmt_size
    >>> fmt_size(2.0), fmt_size(12.4), fmt_size(float("inf"))
    ('100', '≈ 10^12', '∞')
    """
    if not math.isfinite(log10_s):
        return "∞"
    if log10_s < 7:
        return f"{round(10**log10_s):,}"
    return f"≈ 10^{log10_s:,.0f}"
