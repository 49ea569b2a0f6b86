"""A question's answers: plausible distractors (:func:`pick_others`, :func:`window`,
:func:`untied`), the answers in order (:func:`shuffled`, :func:`ordered`) and their texts
(:func:`feature_name`, :func:`leaf_label`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .numbers import is_close

#: Two candidates whose scores differ by less than this (relative) are tied: only the code's
#: tie-break could tell them apart, so a question never offers both (:func:`untied`).
TIE_REL = 1e-9


# ============================================================================== the answers
def pick_others(
    pool: Sequence, rng: np.random.Generator, *, best_first: int = 2, total: int = 3
) -> list:
    """Up to ``total`` distractors: the ``best_first`` most plausible ones and the rest drawn
    at random from what is left.

    Parameters
    ----------
    pool : sequence
        The candidate distractors, in order of plausibility.
    rng : numpy.random.Generator
        The draws.
    best_first : int, default 2
        How many of the most plausible are always taken.
    total : int, default 3
        How many distractors at most.

    Returns
    -------
    list
    """
    pool = list(pool)
    picks = pool[:best_first]
    rest = pool[best_first:]
    while rest and len(picks) < total:
        picks.append(rest.pop(int(rng.integers(len(rest)))))
    return picks


def window(values: Sequence[int], right: int, rng: np.random.Generator, n: int = 4) -> list[int]:
    """``n`` consecutive values of ``values`` (sorted) around ``right``, ``right`` at a drawn
    place among them: the distractors of a count or an arity.

    Taking the values nearest the right one would put it at the end of the list whenever it is the
    largest or smallest legal value (a 2-way split, a program that merges nothing), so
    its letter would give it away; here every place that fits is equally likely.

    Parameters
    ----------
    values : sequence of int
        The legal values (``right`` among them or not).
    right : int
        The right answer.
    rng : numpy.random.Generator
        The draws.
    n : int, default 4
        How many values at most (fewer when fewer are legal).

    Returns
    -------
    list of int
        The values other than ``right`` (pass them to :func:`ordered`).

    Examples
    --------
    >>> sorted(window(range(1, 9), 8, np.random.default_rng(0)))
    [5, 6, 7]
    """
    legal = sorted({int(v) for v in values} | {int(right)})
    n = min(n, len(legal))
    at = legal.index(int(right))
    starts = [s for s in range(len(legal) - n + 1) if s <= at < s + n]
    s = starts[int(rng.integers(len(starts)))]
    return [v for v in legal[s : s + n] if v != right]


def untied(pool: Sequence, score: Callable[[object], float], right: float) -> list:
    """The candidates of ``pool`` whose score is not tied with the right answer's ``right``
    (within :data:`TIE_REL`, relative): a tied one would be right too, and only the code's
    tie-break would make it wrong, so a question never offers it.

    Parameters
    ----------
    pool : sequence
        The candidate distractors.
    score : callable
        A candidate's score (what the algorithm maximises or minimises).
    right : float
        The right answer's score.

    Returns
    -------
    list
        ``pool`` without the tied candidates, in its order.

    Examples
    --------
    >>> untied(["b", "c"], {"b": 0.5 + 1e-15, "c": 0.4}.get, 0.5)
    ['c']
    """
    return [p for p in pool if not is_close(float(score(p)), float(right), rel=TIE_REL)]


def shuffled(
    right: str, others: Sequence[str], rng: np.random.Generator
) -> tuple[tuple[str, ...], int] | None:
    """``right`` and up to three distinct ``others`` (never equal to it) in a drawn order.

    Parameters
    ----------
    right : str
        The right answer.
    others : sequence of str
        Distractors, in order of preference (repeats and ``right`` itself are skipped).
    rng : numpy.random.Generator
        The draws (the order).

    Returns
    -------
    (tuple of str, int) or None
        The answers and the index of ``right``; ``None`` with fewer than 2 distractors.
    """
    seen = {right}
    keep = []
    for o in others:
        if o not in seen:
            seen.add(o)
            keep.append(o)
    keep = keep[:3]
    if len(keep) < 2:
        return None
    answers = [right, *keep]
    order = rng.permutation(len(answers))
    answers = [answers[i] for i in order]
    return tuple(answers), answers.index(right)


def ordered(
    right: int, others: Sequence[int], fmt: Callable[[int], str]
) -> tuple[tuple[str, ...], int] | None:
    """``right`` and up to three ``others`` (ids or counts) in increasing order, as text.

    Parameters
    ----------
    right : int
        The right answer.
    others : sequence of int
        Distractors, in order of preference (the first three not equal to ``right``).
    fmt : callable
        An id or count as text (:func:`leaf_label`).

    Returns
    -------
    (tuple of str, int) or None
        The answers and the index of ``right``; ``None`` with fewer than 3 distinct values.

    Examples
    --------
    >>> ordered(4, [7, 2, 4, 9, 1], leaf_label)
    (('leaf #2', 'leaf #4', 'leaf #7', 'leaf #9'), 1)
    """
    others = [o for o in others if o != right][:3]
    ids = sorted({right, *others})
    if len(ids) < 3:
        return None
    return tuple(fmt(i) for i in ids), ids.index(right)


def feature_name(names: Sequence[str] | None, j: int) -> str:
    """Feature ``j``'s name: from ``names`` when it has one, else ``x1``, ``x2``, ….

    Parameters
    ----------
    names : sequence of str, optional
        The dataset's feature names.
    j : int
        The feature's index.

    Returns
    -------
    str

    Examples
    --------
    >>> feature_name(("petal length",), 0), feature_name(None, 1)
    ('petal length', 'x2')
    """
    if names is not None and 0 <= j < len(names):
        return str(names[j])
    return f"x{j + 1}"


def leaf_label(i: int) -> str:
    """Leaf ``i`` as an answer: ``"leaf #3"``.

    Parameters
    ----------
    i : int
        The leaf's id.

    Returns
    -------
    str
    """
    return f"leaf #{i}"
