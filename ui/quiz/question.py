"""A question asked before a step: :class:`Question` (3 or 4 answers, one right, the why) and
the letters of its answers, :data:`LETTERS`.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

#: Answers are lettered for a show of hands.
LETTERS = "ABCD"


@dataclass(frozen=True)
class Question:
    """One question asked before a step, with its answers and why the right one is right.

    Attributes
    ----------
    page : str
        The page that asks it (its slug: also mixed into the seed of its draws).
    t : int
        The round it is asked before: the page's round now (its answer is in the run's next
        snapshot). On the matryoshka page, rounds count weak classifiers, as its stepper does.
    text : str
        The question, one line of plain text.
    answers : tuple of str
        3 or 4 answers, all different, plain text (shown after the letters A–D).
    correct : int
        Index of the right answer in ``answers``.
    why : str
        One line with the numbers of the next snapshot that make the right answer right.
    kind : str
        Which kind of question it is (e.g. ``"leaf"``, ``"arity"``, ``"index_drop"``).

    Raises
    ------
    ValueError
        If there are not 3–4 distinct answers or ``correct`` is not one of them.

    Examples
    --------
    >>> q = Question("game", 0, "Which leaf?", ("leaf #1", "leaf #2", "leaf #3"), 1,
    ...              "Leaf #2 is the heaviest.", "leaf")
    >>> q.letters, q.answer, q.labelled(1)
    (('A', 'B', 'C'), 'leaf #2', 'B. leaf #2')
    """

    page: str
    t: int
    text: str
    answers: tuple[str, ...]
    correct: int
    why: str
    kind: str

    def __post_init__(self) -> None:
        n = len(self.answers)
        if not 3 <= n <= len(LETTERS):
            raise ValueError(f"a question has 3 or 4 answers; got {n}: {self.answers}")
        if len(set(self.answers)) != n:
            raise ValueError(f"the answers must all differ; got {self.answers}")
        if not 0 <= self.correct < n:
            raise ValueError(f"correct must index an answer (0 … {n - 1}); got {self.correct}")

    @property
    def letters(self) -> tuple[str, ...]:
        """``("A", "B", "C"[, "D"])``, one per answer."""
        return tuple(LETTERS[: len(self.answers)])

    @property
    def answer(self) -> str:
        """The right answer's text."""
        return self.answers[self.correct]

    def labelled(self, i: int) -> str:
        """Answer ``i`` after its letter: ``"B. leaf #2"``."""
        return f"{LETTERS[i]}. {self.answers[i]}"

    @property
    def ident(self) -> str:
        """A short stable id of the question (the widget notices a new question by it)."""
        # the why holds the next snapshot's numbers: the same words on another run differ here
        parts = (self.page, str(self.t), self.kind, self.text, *self.answers, self.why)
        text = "\x1f".join((*parts, str(self.correct)))
        return f"{zlib.crc32(text.encode('utf-8')):08x}"
