"""The numbers in a question: the ranges of a drop (:func:`buckets`, on two ladders of round
edges), the bands of "does it go down?" (:func:`trend`, :data:`SAME_TOL`) and the texts
of a value or a change (:func:`is_close`, :func:`sig`, :func:`same_note`,
:func:`now_value`, :func:`change`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: A value this close (relative) to a range's edge would read as the neighbouring answer.
NEAR_EDGE = 0.06
#: "Stays the same" in a :func:`trend` question: a change smaller than this (the question says
#: so). The values asked about lie in [0, 1] and are shown with four decimals.
SAME_TOL = 1e-4

# Two ladders of round numbers for range edges. No edge of one lies within 6 % of an edge of
# the other (the closest pair, 2 and 1.5, differ by a third), so any value is well inside a
# range of at least one of them.
_LADDER_A = tuple(round(m * 10.0**e, 10) for e in range(-5, 3) for m in (1, 2, 5))
_LADDER_B = tuple(round(m * 10.0**e, 10) for e in range(-5, 2) for m in (1.5, 3, 7))


# ============================================================================== the numbers
def is_close(a: float, b: float, rel: float = 1e-9) -> bool:
    """Whether ``a`` and ``b`` are equal up to rounding (relative to the larger, at least 1).

    Parameters
    ----------
    a, b : float
        The two numbers.
    rel : float, default 1e-9
        The tolerance, relative to ``max(1, |a|, |b|)``.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_close(0.3, 0.1 + 0.2), is_close(0.3, 0.31)
    (True, False)
    """
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))


def _edge(x: float) -> str:
    # plain decimals (0.00002, not 2e-05): the students read them
    return f"{x:.10f}".rstrip("0").rstrip(".") if x < 1e-3 else f"{x:g}"


def sig(x: float) -> str:
    """A change with three significant digits (``0.00212``, ``0.0931``).

    Parameters
    ----------
    x : float
        The change.

    Returns
    -------
    str

    Examples
    --------
    >>> sig(0.0021234), sig(0.09312)
    ('0.00212', '0.0931')
    """
    return f"{x:.3g}"


def _pair(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with enough decimals to show that they differ (3 at least, 9 at most)."""
    d = 0.0 if is_close(a, b) else abs(a - b)
    digits = 3 if d == 0 or d >= 0.005 else min(9, 1 - math.floor(math.log10(d)))
    return f"{a:.{digits}f}", f"{b:.{digits}f}"


def _ladder_for(v: float) -> tuple[float, ...]:
    if any(abs(v - e) <= NEAR_EDGE * e for e in _LADDER_A):
        return _LADDER_B
    return _LADDER_A


def _below(ladder: Sequence[float], v: float) -> int:
    """Index of the largest edge ``≤ v`` (−1 when every edge is above ``v``)."""
    return int(np.searchsorted(np.asarray(ladder), v, side="right")) - 1


def buckets(
    v: float, upper: float | None, rng: np.random.Generator
) -> tuple[tuple[str, ...], int] | None:
    """Four ranges ``[0, e1), [e1, e2), [e2, e3), [e3, ∞)`` of consecutive round edges with
    ``v`` in one of them (which one is drawn), every range reachable below ``upper``.

    Returns the answers' texts and the index of the range holding ``v``; ``None`` when ``v``
    is not a finite number ``≥ 0`` or four ranges fit below ``upper`` with ``v`` in only one
    place (then that place would give the answer away).
    """
    if not math.isfinite(v) or v < 0:
        return None
    options = []
    # both ladders where v is clear of their edges: with one, a large drop (most of
    # ``upper``) often fits only as "e3 or more", which then gives the letter away
    ladders = [_ladder_for(v)]
    if ladders[0] is _LADDER_A and not any(abs(v - e) <= NEAR_EDGE * e for e in _LADDER_B):
        ladders.append(_LADDER_B)
    # every range reachable below ``upper`` if that leaves v two places or more; else the top
    # range "e3 or more" may be one that cannot happen (never two such ranges: a student
    # could strike them out)
    for strict in (True, False):
        for ladder in ladders:
            j = _below(ladder, v)
            for p in range(4):  # p: the index of the range holding v
                lo = j - p + 1  # e1 = ladder[lo]
                if lo < 0 or lo + 2 >= len(ladder):
                    continue
                e = ladder[lo : lo + 3]
                if upper is not None and e[2 if strict else 1] >= upper * (1 - 1e-9):
                    continue  # a range above the largest possible value
                options.append((e, p))
        if len({p for _, p in options}) >= 2:
            break
    # every place v fits is equally likely, whichever ladder puts it there; where only one
    # fits (a drop below the smallest edge is always "less than", most of ``upper`` always
    # "or more") the letter would be given away: no question
    places = sorted({p for _, p in options})
    if len(places) < 2:
        return None
    p = places[int(rng.integers(len(places)))]
    fits = [e for e, q in options if q == p]
    e = fits[int(rng.integers(len(fits)))]
    a, b, c = (_edge(x) for x in e)
    return (f"less than {a}", f"{a} to {b}", f"{b} to {c}", f"{c} or more"), p


def trend(
    before: float,
    after: float,
    rng: np.random.Generator,
    *,
    can_rise: bool,
    tol: float = SAME_TOL,
    noise: float = 0.0,
) -> tuple[tuple[str, ...], int] | None:
    """Answers to "does it go down?": up (where it can), the same, down by less than ``e``,
    down by ``e`` or more — ``e`` a round number the change is not near.

    The answers are disjoint bands of the drop ``before − after``: "goes up" is a drop of
    ``−tol`` or less, "stays the same" lies strictly between ``−tol`` and ``tol`` (the question
    states ``tol``: a change of 1e-17 is "the same", not a drop), "goes down by less than
    ``e``" is ``tol ≤ drop < e`` and "goes down by ``e`` or more" is ``drop ≥ e``. No
    question is made when the drop is within 6 % of a band's edge (it would read as the
    neighbouring answer) or, for an estimate, within ``4·noise`` of one (the noise could decide
    the key).

    Parameters
    ----------
    before, after : float
        The quantity now and after the step.
    rng : numpy.random.Generator
        The draws (which of two round numbers ``e`` is, when both fit).
    can_rise : bool
        Whether the quantity may go up (then "goes up" is always an answer).
    tol : float, default SAME_TOL
        Changes smaller than this count as none (the question must say so: :func:`same_note`).
    noise : float, default 0
        The standard error of the change when ``before`` and ``after`` are estimates (a
        Monte Carlo run's); 0 for exact values.

    Returns
    -------
    (tuple of str, int) or None
        The answers and the index of the right one; ``None`` when there is nothing to predict
        (a number is not finite, ``before`` is 0 and cannot rise) or the drop is too close to
        a band's edge to decide.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> trend(0.3, 0.3 + 1e-17, rng, can_rise=True)
    (('goes up', 'stays the same', 'goes down by less than 0.02', 'goes down by 0.02 or more'), 1)
    >>> trend(0.3, 0.2999, rng, can_rise=True) is None  # a drop of 0.0001: on the edge
    True
    """
    if not (math.isfinite(before) and math.isfinite(after)) or tol <= 0:
        return None
    drop = before - after
    guard = 4.0 * max(float(noise), 0.0)

    def clear(edge: float) -> bool:
        return abs(drop - edge) > max(NEAR_EDGE * abs(edge), guard)

    if not (clear(tol) and clear(-tol)):
        return None
    same = -tol < drop < tol
    if before < tol and not can_rise:
        return None
    labels = []
    if can_rise or drop <= -tol:
        labels.append("goes up")
    labels.append("stays the same")
    if drop >= tol:
        ladder = _ladder_for(drop)
        j = _below(ladder, drop)
        edges = [ladder[i] for i in (j + 1, j) if 0 <= i < len(ladder)]
        edges = [e for e in edges if e >= 2 * tol and clear(e)]
        fit = [e for e in edges if e <= max(before, 0.0)] or edges
        if not fit:
            return None
        e = fit[int(rng.integers(len(fit)))]
    else:
        # no drop to measure: a round step near a tenth of the value, for the two "down" answers
        target = max(abs(before) / 10, 2 * tol)
        e = min((x for x in _LADDER_A if x >= 2 * tol), key=lambda x: abs(math.log(x / target)))
    labels += [f"goes down by less than {_edge(e)}", f"goes down by {_edge(e)} or more"]
    if drop <= -tol:
        right = 0
    elif same:
        right = labels.index("stays the same")
    else:
        right = len(labels) - (1 if drop >= e else 2)
    return tuple(labels), right


def same_note(tol: float = SAME_TOL) -> str:
    """The tolerance of a :func:`trend` question, said in its text.

    Examples
    --------
    >>> same_note()
    'a change under 0.0001 counts as none'
    """
    return f"a change under {_edge(tol)} counts as none"


def now_value(x: float) -> str:
    """A quantity's value now, in a question: four decimals whatever the next value is (more
    decimals exactly when the change is tiny would give the answer away).

    Examples
    --------
    >>> now_value(0.09), now_value(0.33124)
    ('0.0900', '0.3312')
    """
    return f"{x:.4f}"


def change(name: str, before: float, after: float) -> str:
    """How a quantity changes, with enough decimals to show that it does.

    Parameters
    ----------
    name : str
        The quantity's name (``"I(T)"``).
    before, after : float
        Its value now and after the step.

    Returns
    -------
    str

    Examples
    --------
    >>> change("I(T)", 0.412, 0.318)
    'I(T) goes from 0.412 to 0.318 (down by 0.094)'
    >>> change("I(T)", 0.412, 0.412)
    'I(T) stays at 0.412'
    """
    a, b = _pair(before, after)
    d = after - before
    if is_close(before, after):
        return f"{name} stays at {a}"
    way = "down" if d < 0 else "up"
    return f"{name} goes from {a} to {b} ({way} by {sig(abs(d))})"
