"""Which question is asked: :func:`collect` (every kind's question, each kind from a stream
of its own) and :func:`draw` (one of them, the same for a class that shares a seed).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence

import numpy as np

from .question import Question


# ================================================================================ the draws
def _rng(seed: int, page: str, t: int, kind: str) -> np.random.Generator:
    """The draws of one kind of question at one round: a stream of its own, so a kind's
    question does not change when another kind becomes available or not."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be an integer ≥ 0; got {seed!r}")
    return np.random.default_rng(
        [int(seed), zlib.crc32(page.encode()), max(int(t), 0), zlib.crc32(kind.encode())]
    )


_Builder = Callable[[np.random.Generator, str], "Question | None"]


def collect(
    page: str, t: int, seed: int, builders: Sequence[tuple[str, _Builder]]
) -> tuple[Question, ...]:
    """Every kind's question (in the fixed order of ``builders``) that can be asked.

    Each kind draws from a stream of its own (seeded by ``seed``, ``page``, ``t`` and the
    kind), so a kind's question does not change when another kind becomes available or not.

    Parameters
    ----------
    page : str
        The page that asks (its slug; mixed into the seed).
    t : int
        The round the questions are asked before.
    seed : int
        The draws; an integer ≥ 0.
    builders : sequence of (str, callable)
        ``(kind, build)`` in the page's order of kinds; ``build(rng, kind)`` returns the
        kind's question or ``None`` when it cannot be asked at this step.

    Returns
    -------
    tuple of Question
        The questions that could be asked, in the order of ``builders``.

    Raises
    ------
    ValueError
        For a seed that is not an integer ≥ 0.
    """
    out = []
    for kind, build in builders:
        q = build(_rng(seed, page, t, kind), kind)
        if q is not None:
            out.append(q)
    return tuple(out)


def draw(questions: Sequence[Question], *, seed: int = 0) -> Question | None:
    """The one question a page asks before its next step, drawn from ``questions`` (every kind
    it can ask now, :func:`collect`'s result) by ``seed`` and the step, so a class that shares
    a seed sees the same question.

    Parameters
    ----------
    questions : sequence of Question
        The questions of one page at one step (they share ``page`` and ``t``, which seed the
        draw).
    seed : int, default 0
        The draws; an integer ≥ 0.

    Returns
    -------
    Question or None
        ``None`` when ``questions`` is empty (there is no next step to ask about).

    Raises
    ------
    ValueError
        For a seed that is not an integer ≥ 0.

    Examples
    --------
    >>> qs = [Question("game", 0, "Which leaf?", ("#1", "#2", "#3"), i, "…", k)
    ...       for i, k in enumerate(("leaf", "arity"))]
    >>> draw(qs, seed=3) in qs, draw(qs, seed=3) == draw(qs, seed=3), draw([]) is None
    (True, True, True)
    """
    if not questions:
        return None
    first = questions[0]
    return questions[int(_rng(seed, first.page, first.t, "which kind").integers(len(questions)))]
