"""Predict, then reveal: the shared machinery of the questions asked before a step.

Issue 17, item 2. Before a lesson page steps from round ``t`` to the next, it asks one
question whose answer is in the next snapshot — which leaf is expanded, how many branches, how
far ``I(T)``, ``Π Z_t`` or ``C(T)`` fall, which stump comes next, where the next doll grows —
with 3 or 4 answers, exactly one of them right. Nothing is a hand-written list of questions:
every question, answer and distractor is read off the snapshots, so the questions work on any
dataset, drawn points or an uploaded CSV.

Each page that asks questions (the registry's pages with the ``"quiz"`` feature) has its own
``ui/pages/<slug>/questions.py`` (issue 23): ``all_questions(run, t, *, seed, …)`` returns
every kind of question the page can ask before its next step (in the page's fixed order of
kinds, so the result is the same for the same run, round and seed) and ``question(run, t, *,
seed, …)`` the one the page asks, drawn by :func:`draw`. This module holds only what they
share (pure Python over the snapshots of :mod:`boostcore`, no Streamlit; :mod:`ui.quiz_widget`
draws a :class:`Question`):

* :class:`Question` and :data:`LETTERS`;
* the draws — :func:`collect` (every kind's question, each kind from a stream of its own) and
  :func:`draw` (one of them, the same for a class that shares a seed);
* the answers — :func:`ordered` (ids or counts in increasing order), :func:`shuffled` (texts in
  a drawn order), :func:`pick_others` and :func:`window` (plausible distractors),
  :func:`trend` (does it go down?) and the ranges of :func:`drop_question`;
* the texts — :func:`change`, :func:`sig`, :func:`feature_name`, :func:`leaf_label`;
* two questions several pages ask — :func:`error_question` and :func:`drop_question` — and
  :func:`make_question`.

Rules every question keeps (``tests/test_quiz.py`` checks them on random runs, and
``tests/test_quiz_audit.py`` on at least 1,000 questions of every kind, odd data included):

* 3 or 4 answers, all different as text, exactly one right;
* distractors are plausible — other leaves that exist, other legal arities, stumps the same
  run uses at other rounds, the neighbouring ranges of a bucketed number — and none is tied
  with the key under the rule the run used (the leaf rule's own score, the weak learner's
  objective on this round's weights, within the search's tolerance where the search is not
  exact): no key rests on the code's tie-break;
* ranges never overlap and the true value is never within 6 % of a range's edge (the edges
  come from two ladders of round numbers, chosen so that it is not), so the numbers in the
  one-line *why* cannot be read as the neighbouring answer; the value sits in one of at
  least two places the ranges allow, drawn (at most the top range may lie above the largest
  possible value);
* "does it go down?" answers are disjoint bands with a stated tolerance (:data:`SAME_TOL`:
  a smaller change "stays the same"), and a value is never asked about when it is within 6 %
  of a band's edge or, for a Monte Carlo estimate, within four standard errors of one;
* keys come from exact values (the probabilistic chain's expected error too, while its
  2^T answer patterns can be summed; beyond, the question names the estimate);
* no letter and no option is the key of more than half of a kind's questions with four
  answers (leaf ids in drawn order where the rule favours low or high ids; "stays the same"
  asked only now and then where a run rarely changes its error);
* a why says what happened: a split picked by hand (be the weak learner) is called so;
* the value "now" in a question is printed the same way whatever the next value is
  (:func:`now_value`), so its decimals do not give the answer away;
* a kind that cannot offer 3 distinct answers at this step is left out (the page then asks
  another kind).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from boostcore import steps as protocol

#: Answers are lettered for a show of hands.
LETTERS = "ABCD"
#: A value this close (relative) to a range's edge would read as the neighbouring answer.
NEAR_EDGE = 0.06
#: "Stays the same" in a :func:`trend` question: a change smaller than this (the question says
#: so). The values asked about lie in [0, 1] and are shown with four decimals.
SAME_TOL = 1e-4
#: A "does the error go down?" question whose key is "stays the same" is skipped this often
#: (drawn): late rounds of small runs change little, and the answer would be given away.
SAME_SKIP = 1 / 3
#: Two candidates whose scores differ by less than this (relative) are tied: only the code's
#: tie-break could tell them apart, so a question never offers both (:func:`untied`).
TIE_REL = 1e-9

# Two ladders of round numbers for range edges. No edge of one lies within 6 % of an edge of
# the other (the closest pair, 2 and 1.5, differ by a third), so any value is well inside a
# range of at least one of them.
_LADDER_A = tuple(round(m * 10.0**e, 10) for e in range(-5, 3) for m in (1, 2, 5))
_LADDER_B = tuple(round(m * 10.0**e, 10) for e in range(-5, 2) for m in (1.5, 3, 7))


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


def _buckets(
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
    made = _buckets(before - after, before, rng)
    return make_question(page, t, text, made, why, kind)
