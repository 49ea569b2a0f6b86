"""The questions several pages ask, built whole: :func:`make_question`, :func:`error_question`
(does the training error go down?, with :func:`same_fraction`) and :func:`drop_question`
(how far a quantity drops, in four ranges).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol

from .numbers import SAME_TOL, buckets, change, now_value, same_note, trend
from .question import Question

#: A "does the error go down?" question whose key is "stays the same" is skipped this often
#: (drawn): late rounds of small runs change little, and the answer would be given away.
SAME_SKIP = 1 / 3


# ============================================================================ the questions
def make_question(
    page: str,
    t: int,
    text: str,
    made: tuple[tuple[str, ...], int] | None,
    why: str,
    kind: str,
) -> Question | None:
    """The question, or ``None`` when its answers could not be made.

    Parameters
    ----------
    page, t, text, why, kind
        As :class:`Question`'s.
    made : (tuple of str, int) or None
        The answers and the index of the right one (:func:`ordered`, :func:`shuffled`,
        :func:`trend`), ``None`` when they could not be made.

    Returns
    -------
    Question or None
    """
    if made is None:
        return None
    answers, right = made
    return Question(page, int(t), text, tuple(answers), int(right), why, kind)


def same_fraction(values: Sequence[float], tol: float = SAME_TOL) -> float:
    """The share of consecutive values that differ by less than ``tol`` (steps after which a
    quantity stays the same, as :func:`trend` reads it).

    >>> same_fraction([0.5, 0.3, 0.3, 0.3, 0.2])
    0.5
    """
    v = [float(x) for x in values]
    pairs = list(zip(v, v[1:]))
    if not pairs:
        return 0.0
    return sum(abs(a - b) < tol for a, b in pairs) / len(pairs)


def error_question(
    page: str,
    t: int,
    kind: str,
    now: protocol.Step,
    nxt: protocol.Step,
    rng: np.random.Generator,
    *,
    when: str,
    can_rise: bool,
    expected: bool = False,
    noise: float = 0.0,
    name: str | None = None,
    same_share: float = 0.0,
) -> Question | None:
    """The question whether the (expected) training error goes down between two snapshots.

    Parameters
    ----------
    page, t, kind
        As :class:`Question`'s.
    now, nxt : Step
        The snapshots now and after the step (their ``metrics.train_error``).
    rng : numpy.random.Generator
        The kind's draws.
    when : str
        When, in the question (``"in round 3"``).
    can_rise : bool
        Whether the error may go up at this step (:func:`trend`).
    expected : bool, default False
        Whether it is the expected training error (a probabilistic model's).
    noise : float, default 0
        The standard error of the change when the errors are Monte Carlo estimates: no
        question is made when the noise could decide its key (:func:`trend`).
    name : str, optional
        What the error is called in the question and the why, when not ``"expected training
        error"`` / ``"training error"`` (say ``"exact …"`` or which estimate it is).
    same_share : float, default 0
        The share of the run's steps after which the error stays the same
        (:func:`same_fraction`): where most do, a "stays the same" question is asked only
        now and then, so that it is the key of at most 40 % of the run's questions.

    Returns
    -------
    Question or None
        ``None`` when there is nothing to predict (or the key would be noise).
    """
    if name is None:
        name = "expected training error" if expected else "training error"
    before, after = float(now.metrics.train_error), float(nxt.metrics.train_error)
    made = trend(before, after, rng, can_rise=can_rise, noise=noise)
    if made is not None and made[0][made[1]] == "stays the same":
        keep = 1 - SAME_SKIP
        if same_share > 0:
            keep = min(keep, (2 / 3) * (1 - same_share) / same_share)
        if rng.random() >= keep:
            return None  # not asked every time: "stays the same" would be the key too often
    text = f"Does the {name} go down {when}? (now {now_value(before)}; {same_note()})"
    why = change(name.capitalize(), before, after) + "."
    return make_question(page, t, text, made, why, kind)


def drop_question(
    page: str,
    t: int,
    kind: str,
    before: float,
    after: float,
    rng: np.random.Generator,
    *,
    text: str,
    why: str,
) -> Question | None:
    """How far a quantity drops, in four ranges (the drop cannot exceed ``before``).

    Parameters
    ----------
    page, t, kind, text, why
        As :class:`Question`'s.
    before, after : float
        The quantity now and after the step.
    rng : numpy.random.Generator
        The kind's draws (which of the four ranges holds the drop).

    Returns
    -------
    Question or None
        ``None`` when the drop is not a finite number ≥ 0 or no four ranges fit below
        ``before``.
    """
    made = buckets(before - after, before, rng)
    return make_question(page, t, text, made, why, kind)
