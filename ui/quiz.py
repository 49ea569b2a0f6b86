"""Predict, then reveal: one question before a step, generated from the run's own snapshots.

Issue 17, item 2. Before the page steps from round ``t`` to the next, it asks one question
whose answer is in the next snapshot — which leaf is expanded, how many branches, how far
``I(T)``, ``Π Z_t`` or ``C(T)`` fall, which stump comes next, where the next doll grows — with
3 or 4 answers, exactly one of them right. Nothing here is a hand-written list of questions:
every question, answer and distractor is read off the snapshots, so the questions work on any
dataset, drawn points or an uploaded CSV.

Pure Python over the snapshots of :mod:`boostcore` (no Streamlit): :mod:`ui.quiz_widget` draws
a :class:`Question`. One generator per page returns every kind of question it can ask for a
step (each kind has its own fixed order of kinds, so the result is the same for the same run,
round and seed); :func:`question_for` draws one of them:

==============  ======================================================  =========================
page            generator                                               the run it reads
==============  ======================================================  =========================
``topdown``     :func:`topdown_questions` (leaf, arity, index, error)   ``grow`` (a criterion's)
``branching``   :func:`branching_questions` (stump, Π Z, leaves, error) ``bp_infoboost``
``matryoshka``  :func:`matryoshka_questions` (leaf, stump, bound,       ``prob_adaboost``,
                error, doll, nesting)                                   ``prob_tree``,
                                                                        ``matryoshka``,
                                                                        ``collapse_tree``
``oblique``     :func:`oblique_questions` (node, stump, loss, error)    ``g1_linear``,
                                                                        ``g1_tree``,
                                                                        ``boost_odt``
``game``        :func:`game_questions` (leaf, arity, weight, reference) the game's positions
==============  ======================================================  =========================

Rules every question keeps (``tests/test_quiz.py`` checks them on random runs):

* 3 or 4 answers, all different as text, exactly one right;
* distractors are plausible — other leaves that exist (the heaviest first, never one tied
  with the right one, which the rule could not tell apart), other legal arities, stumps the
  same run uses at other rounds, the neighbouring ranges of a bucketed number;
* ranges never overlap and the true value is never within 6 % of a range's edge (the edges
  come from one of two ladders of round numbers, chosen so that it is not), so the numbers in
  the one-line *why* cannot be read as the neighbouring answer;
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
from boostcore.game import GameState, legal_arities, max_weight_player, shrink
from boostcore.impurity import INDEX
from boostcore.oblique import ODTStep
from boostcore.probabilistic import ProbStep, ProbTree, SoftStump
from boostcore.realboost import G1Step, WeakHypothesis
from boostcore.topdown import TreeStep

from .text import plural

#: The pages that ask questions (the keys of :data:`GENERATORS`).
PAGES = ("topdown", "branching", "matryoshka", "oblique", "game")
#: Answers are lettered for a show of hands.
LETTERS = "ABCD"
#: A value this close (relative) to a range's edge would read as the neighbouring answer.
NEAR_EDGE = 0.06

# Two ladders of round numbers for range edges. No edge of one lies within 6 % of an edge of
# the other (the closest pair, 2 and 1.5, differ by a third), so any value is well inside a
# range of at least one of them.
_LADDER_A = tuple(round(m * 10.0**e, 10) for e in range(-3, 3) for m in (1, 2, 5))
_LADDER_B = tuple(round(m * 10.0**e, 10) for e in range(-3, 2) for m in (1.5, 3, 7))


@dataclass(frozen=True)
class Question:
    """One question asked before a step, with its answers and why the right one is right.

    Attributes
    ----------
    page : str
        The page that asks it (one of :data:`PAGES`).
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


# ================================================================================ helpers
def _rng(seed: int, page: str, t: int, kind: str) -> np.random.Generator:
    """The draws of one kind of question at one round: a stream of its own, so a kind's
    question does not change when another kind becomes available or not."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be an integer ≥ 0; got {seed!r}")
    return np.random.default_rng(
        [int(seed), zlib.crc32(page.encode()), max(int(t), 0), zlib.crc32(kind.encode())]
    )


def _close(a: float, b: float, rel: float = 1e-9) -> bool:
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))


def _edge(x: float) -> str:
    return f"{x:g}"


def _sig(x: float) -> str:
    """A change with three significant digits (``0.00212``, ``0.0931``)."""
    return f"{x:.3g}"


def _pair(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with enough decimals to show that they differ (3 at least, 9 at most)."""
    d = 0.0 if _close(a, b) else abs(a - b)
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
    is not a finite number ``≥ 0`` or no four ranges fit below ``upper``.
    """
    if not math.isfinite(v) or v < 0:
        return None
    ladder = _ladder_for(v)
    j = _below(ladder, v)
    options = []
    for p in range(4):  # p: the index of the range holding v
        lo = j - p + 1  # e1 = ladder[lo]
        if lo < 0 or lo + 2 >= len(ladder):
            continue
        e = ladder[lo : lo + 3]
        if upper is not None and e[2] >= upper * (1 - 1e-9):
            continue  # "e3 or more" could not happen
        options.append((e, p))
    if not options:
        return None
    e, p = options[int(rng.integers(len(options)))]
    a, b, c = (_edge(x) for x in e)
    return (f"less than {a}", f"{a} to {b}", f"{b} to {c}", f"{c} or more"), p


def _trend(
    before: float, after: float, rng: np.random.Generator, *, can_rise: bool
) -> tuple[tuple[str, ...], int] | None:
    """Answers to "does it go down?": up (where it can), the same, down by less than ``e``,
    down by ``e`` or more — ``e`` a round number the change is not near; the index of the
    right one. ``None`` when there is nothing to predict (``before`` is 0 and cannot rise)."""
    if not (math.isfinite(before) and math.isfinite(after)):
        return None
    same = _close(before, after)
    drop = 0.0 if same else before - after
    if _close(before, 0.0) and not can_rise:
        return None
    labels = []
    if can_rise or drop < 0:
        labels.append("goes up")
    labels.append("stays the same")
    if drop > 0:
        ladder = _ladder_for(drop)
        j = _below(ladder, drop)
        edges = [ladder[i] for i in (j + 1, j) if 0 <= i < len(ladder)]
        fit = [e for e in edges if e <= max(before, 0.0)] or edges
        e = fit[int(rng.integers(len(fit)))]
    else:
        # no drop to measure: a round step near a tenth of the value, for the two "down" answers
        target = max(abs(before) / 10, _LADDER_A[0])
        e = min(_LADDER_A, key=lambda x: abs(math.log(x / target)))
    labels += [f"goes down by less than {_edge(e)}", f"goes down by {_edge(e)} or more"]
    if drop < 0:
        right = 0
    elif same:
        right = labels.index("stays the same")
    else:
        right = len(labels) - (1 if drop >= e else 2)
    return tuple(labels), right


def _change(name: str, before: float, after: float) -> str:
    """``"I(T) goes from 0.412 to 0.318 (down by 0.094)"``."""
    a, b = _pair(before, after)
    d = after - before
    if _close(before, after):
        return f"{name} stays at {a}"
    way = "down" if d < 0 else "up"
    return f"{name} goes from {a} to {b} ({way} by {_sig(abs(d))})"


def _pick_others(
    pool: Sequence, rng: np.random.Generator, *, best_first: int = 2, total: int = 3
) -> list:
    """Up to ``total`` distractors: the ``best_first`` most plausible ones (``pool`` is in
    order of plausibility) and the rest drawn at random from what is left."""
    pool = list(pool)
    picks = pool[:best_first]
    rest = pool[best_first:]
    while rest and len(picks) < total:
        picks.append(rest.pop(int(rng.integers(len(rest)))))
    return picks


def _nearest(values: Sequence[int], right: int, n: int = 3) -> list[int]:
    """The ``n`` values closest to ``right`` (ties: the smaller first), ``right`` left out."""
    return sorted((v for v in values if v != right), key=lambda v: (abs(v - right), v))[:n]


def _shuffled(
    right: str, others: Sequence[str], rng: np.random.Generator
) -> tuple[tuple[str, ...], int] | None:
    """``right`` and up to three distinct ``others`` (never equal to it) in a drawn order."""
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


def _ids(
    right: int, others: Sequence[int], fmt: Callable[[int], str]
) -> tuple[tuple[str, ...], int] | None:
    """``right`` and up to three ``others`` (ids or counts) in increasing order, as text, and
    the index of ``right``; ``None`` with fewer than 3 distinct values."""
    others = [o for o in others if o != right][:3]
    ids = sorted({right, *others})
    if len(ids) < 3:
        return None
    return tuple(fmt(i) for i in ids), ids.index(right)


def _name(names: Sequence[str] | None, j: int) -> str:
    if names is not None and 0 <= j < len(names):
        return str(names[j])
    return f"x{j + 1}"


def _leaf(i: int) -> str:
    return f"leaf #{i}"


def _q(
    page: str,
    t: int,
    text: str,
    made: tuple[tuple[str, ...], int] | None,
    why: str,
    kind: str,
) -> Question | None:
    """The question, or ``None`` when its answers could not be made (``made`` is None)."""
    if made is None:
        return None
    answers, right = made
    return Question(page, int(t), text, tuple(answers), int(right), why, kind)


_Builder = Callable[[np.random.Generator, str], "Question | None"]


def _collect(
    page: str, t: int, seed: int, builders: Sequence[tuple[str, _Builder]]
) -> tuple[Question, ...]:
    """Every kind's question (in the fixed order of ``builders``) that can be asked."""
    out = []
    for kind, build in builders:
        q = build(_rng(seed, page, t, kind), kind)
        if q is not None:
            out.append(q)
    return tuple(out)


def _error_question(
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
) -> Question | None:
    """The question whether the (expected) training error goes down between two snapshots."""
    name = "expected training error" if expected else "training error"
    before, after = float(now.metrics.train_error), float(nxt.metrics.train_error)
    made = _trend(before, after, rng, can_rise=can_rise)
    text = f"Does the {name} go down {when}? (now {_pair(before, after)[0]})"
    why = _change(name.capitalize(), before, after) + "."
    return _q(page, t, text, made, why, kind)


def _drop_question(
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
    """How far a quantity drops, in four ranges (the drop cannot exceed ``before``)."""
    made = _buckets(before - after, before, rng)
    return _q(page, t, text, made, why, kind)


# ================================================================================ top-down
def topdown_questions(
    run: Sequence[TreeStep],
    t: int,
    *,
    seed: int = 0,
    index: str = "km",
    feature_names: Sequence[str] | None = None,
) -> tuple[Question, ...]:
    """Questions about round ``t + 1`` of a top-down run (:func:`boostcore.topdown.grow`).

    Kinds, in order: ``"leaf"`` (which leaf is expanded; the current leaves, heaviest first,
    none tied in weight with the right one), ``"arity"`` (how many branches; the arities the
    criterion allows at that leaf, needs 3), ``"index_drop"`` (how far ``I(T)`` falls, in
    ranges) and ``"error"`` (does the training error go down; a split never raises it).

    Parameters
    ----------
    run : sequence of TreeStep
        The whole run (start … stop), e.g. ``ui.pages.topdown.runs.topdown_run(...)``.
    t : int
        The round shown now.
    seed : int, default 0
        The draws (distractors, ranges, order); the same seed gives the same questions.
    index : str, default "km"
        The run's index function: orders the leaves by weight ``p̂·I(q̂)``.
    feature_names : sequence of str, optional
        Names of the features (``x1``, ``x2``, … without).

    Returns
    -------
    tuple of Question
        One per kind that can be asked; empty when round ``t`` is the last.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.topdown import grow
    >>> ds = make_dataset("stripes", n=200, random_state=1)
    >>> run = list(grow(ds.X_train, ds.y_train, size=8))
    >>> [q.kind for q in topdown_questions(run, 2)]
    ['leaf', 'index_drop', 'error']
    """
    r = protocol.rounds(run)
    if not 0 <= t < len(r) - 1 or r[t + 1].split is None:
        return ()
    now, nxt = r[t], r[t + 1]
    sp = nxt.split
    page, n = "topdown", t + 1
    fn = INDEX.get(index, INDEX["km"])

    def leaf(rng, kind):
        tree = now.tree
        leaves = [int(l) for l in tree.leaves]
        w = tree.node_weight(fn)
        mass, q = tree.mass, tree.q
        imp = np.minimum(q, 1 - q)

        def tied(l):
            # equal weight under any index: the rule could not tell them apart
            return _close(w[l], w[sp.leaf]) or (
                _close(mass[l], mass[sp.leaf]) and _close(imp[l], imp[sp.leaf])
            )

        pool = sorted((l for l in leaves if l != sp.leaf and not tied(l)), key=lambda l: -w[l])
        made = _ids(sp.leaf, _pick_others(pool, rng), _leaf)
        heaviest = max(float(w[l]) for l in leaves)
        ties = [l for l in leaves if l != sp.leaf and tied(l) and w[l] > 0]
        if nxt.note:
            why = (
                f"The heaviest leaf cannot be split, so leaf #{sp.leaf} "
                f"(p̂·I(q̂) = {sp.leaf_weight:.3f}) is expanded."
            )
        elif sp.leaf_weight >= heaviest - 1e-9 * max(heaviest, 1.0):
            tie = f" (tied with #{ties[0]}: the lower id goes first)" if ties else ""
            why = (
                f"Leaf #{sp.leaf} is the heaviest of the {len(leaves)} leaves: "
                f"p̂·I(q̂) = {sp.leaf_weight:.3f}{tie}."
            )
        else:
            why = (
                f"Leaf #{sp.leaf}'s best split lowers I(T) the most (by {_sig(sp.index_drop)}), "
                f"though its weight p̂·I(q̂) = {sp.leaf_weight:.3f} is not the largest."
            )
        return _q(page, t, f"Which leaf does round {n} expand?", made, why, kind)

    def arity(rng, kind):
        ok = [c for c in nxt.candidates if c.acceptable]
        ks = sorted({c.arity for c in ok} | {sp.arity})
        made = _ids(sp.arity, _nearest(ks, sp.arity), lambda k: f"{k} branches")
        others = sorted((c for c in ok if c.arity != sp.arity), key=lambda c: (-c.score, c.arity))
        runner = f"; the best {others[0].arity}-way scores {others[0].score:.3f}" if others else ""
        why = (
            f"The {sp.arity}-way split on {_name(feature_names, sp.feature)} scores "
            f"{sp.score:.3f} (gain {sp.gain:.3f} ÷ price {sp.cost:.3g}), the best allowed{runner}."
        )
        text = f"How many branches does the split of round {n} have?"
        return _q(page, t, text, made, why, kind)

    def index_drop(rng, kind):
        a, b = float(now.metrics.index_value), float(nxt.metrics.index_value)
        why = _change("I(T)", a, b) + f": the p̂·gain of leaf #{sp.leaf}'s split."
        text = f"By how much does I(T) drop in round {n}? (now {a:.3f})"
        return _drop_question(page, t, kind, a, b, rng, text=text, why=why)

    def error(rng, kind):
        return _error_question(page, t, kind, now, nxt, rng, when=f"in round {n}", can_rise=False)

    return _collect(
        page,
        t,
        seed,
        (("leaf", leaf), ("arity", arity), ("index_drop", index_drop), ("error", error)),
    )


# =============================================================================== branching
def branching_questions(
    run: Sequence,
    t: int,
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
) -> tuple[Question, ...]:
    """Questions about round ``t + 1`` of a BP.InfoBoost run
    (:func:`boostcore.branching.bp_infoboost`, any merging scheme).

    Kinds, in order: ``"stump"`` (which stump ``h_{t+1}`` the weak learner returns; the
    distractors are stumps the same run uses at other rounds), ``"prod_z"`` (how far ``Π Z_t``
    falls, in ranges), ``"leaves"`` (how many leaves after the merge; counts between 1 and
    twice the leaves now) and ``"error"`` (does the training error go down; it may go up).

    Parameters
    ----------
    run : sequence of BPStep
        The whole run, e.g. ``ui.pages.branching.runs.bp_run(...)``.
    t : int
        The round shown now.
    seed : int, default 0
        The draws; the same seed gives the same questions.
    feature_names : sequence of str, optional
        Names of the features.

    Returns
    -------
    tuple of Question

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=200, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=6))
    >>> [q.kind for q in branching_questions(run, 2)]
    ['stump', 'prod_z', 'leaves', 'error']
    """
    r = protocol.rounds(run)
    if not 0 <= t < len(r) - 1 or r[t + 1].feature is None:
        return ()
    now, nxt = r[t], r[t + 1]
    page, n = "branching", t + 1
    m0, m1 = now.metrics, nxt.metrics

    def text_of(s) -> str:
        return f"{_name(feature_names, s.feature)} > {s.threshold:.3g}"

    def stump(rng, kind):
        right = text_of(nxt)
        pool = [text_of(s) for s in r[1:] if s.feature is not None]
        pool = [p for i, p in enumerate(pool) if p != right and p not in pool[:i]]
        made = _shuffled(right, [pool[i] for i in rng.permutation(len(pool))], rng)
        why = (
            f"Under D_{n} the weak learner returns h_{n} = [{right}]: "
            f"H(Y|h) = {m1.H_h:.3f}, Z_{n} = {m1.Z:.3f}."
        )
        return _q(page, t, f"Which stump h_{n} does round {n} use?", made, why, kind)

    def prod_z(rng, kind):
        a, b = float(m0.bound_prod_Z), float(m1.bound_prod_Z)
        why = _change("Π Z_t", a, b) + f": it is multiplied by Z_{n} = {m1.Z:.3f}."
        text = f"By how much does the bound Π Z_t drop in round {n}? (now {a:.3f})"
        return _drop_question(page, t, kind, a, b, rng, text=text, why=why)

    def leaves(rng, kind):
        right, top = int(m1.n_leaves), 2 * int(m0.n_leaves)
        values = range(1, top + 1)
        made = _ids(right, _nearest(values, right), lambda k: plural(k, "leaf", "leaves"))
        why = (
            f"h_{n} divides {m0.n_leaves} {'leaf' if m0.n_leaves == 1 else 'leaves'} into "
            f"{m1.n_divided} children that training points reach, merged into {right}."
        )
        text = f"How many leaves does the program have after round {n}'s merge?"
        return _q(page, t, text, made, why, kind)

    def error(rng, kind):
        return _error_question(page, t, kind, now, nxt, rng, when=f"in round {n}", can_rise=True)

    return _collect(
        page,
        t,
        seed,
        (("stump", stump), ("prod_z", prod_z), ("leaves", leaves), ("error", error)),
    )


# ============================================================================== matryoshka
def shown_index(run: Sequence[ProbStep], t: int) -> int:
    """The snapshot the matryoshka page shows at round ``t`` (weak classifiers used): the last
    of the run's rounds with at most ``t`` weak classifiers (as
    :func:`ui.pages.matryoshka.frames.shown_index`, without its plotting imports)."""
    idx = 0
    for i, s in enumerate(protocol.rounds(run)):
        if s.metrics.n_weak > t:
            break
        idx = i
    return idx


def _soft(s: SoftStump, names: Sequence[str] | None) -> str:
    return f"{_name(names, s.feature)} {'>' if s.polarity > 0 else '<'} {s.theta:.3g}"


def _children_sum(model: ProbTree, node: int) -> float:
    minus, plus = model.children[node]
    return float(model.Z[minus] + model.Z[plus])


def matryoshka_questions(
    run: Sequence[ProbStep],
    t: int,
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
) -> tuple[Question, ...]:
    """Questions about the next snapshot of a probabilistic-boosting run: the chain
    (:func:`~boostcore.probabilistic.prob_adaboost`), the tree
    (:func:`~boostcore.probabilistic.prob_tree`), the greedy collapse
    (:func:`~boostcore.probabilistic.collapse_tree`) or the matryoshka
    (:func:`~boostcore.probabilistic.matryoshka`).

    ``t`` is the page's round — weak classifiers used, as its stepper counts — so the next
    snapshot of the matryoshka is its next level (``2t`` stumps or more), and the question
    is about that level however many rounds away it is.

    Kinds by structure, in order:

    * chain: ``"stump"`` (which soft stump comes next; stumps of other rounds as distractors),
      ``"bound_drop"`` (how far ``Π Z_t`` falls), ``"error"`` (expected error, may go up);
    * tree: ``"leaf"`` (which leaf gets the next stump: the largest ``Π Z`` on its path),
      ``"stump"``, ``"bound_drop"`` (``C(T)``), ``"error"``;
    * collapse: ``"leaf"``, ``"bound"`` (``C(T)`` may go up: a collapse raises it),
      ``"error"``;
    * matryoshka: ``"doll"`` (in which branch of the root the next level's second doll
      grows), ``"bound"``, ``"error"``, ``"nesting"`` (does the paper's nesting step hold for
      every doll of the next level, for some, for none; from level 2 on).

    Parameters
    ----------
    run : sequence of ProbStep
        The whole run, e.g. ``ui.pages.matryoshka.runs.prob_run(...)``.
    t : int
        The page's round (weak classifiers used).
    seed : int, default 0
        The draws; the same seed gives the same questions.
    feature_names : sequence of str, optional
        Names of the features.

    Returns
    -------
    tuple of Question

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(matryoshka(ds.X_train, ds.y_train, levels=3))
    >>> [q.kind for q in matryoshka_questions(run, 2)]
    ['doll', 'bound', 'error', 'nesting']
    """
    r = protocol.rounds(run)
    if t < 0 or not r:
        return ()
    i = shown_index(run, t)
    if i + 1 >= len(r):
        return ()
    now, nxt = r[i], r[i + 1]
    page, structure = "matryoshka", nxt.structure
    m0, m1 = now.metrics, nxt.metrics
    T = int(m1.n_weak)
    bound = "Π Z_t" if structure == "chain" else "C(T)"
    when = (
        f"at level {i + 1} ({T} stumps)"
        if structure == "matryoshka"
        else f"with weak classifier {T}"
    )

    def stump(rng, kind):
        right = _soft(nxt.stump, feature_names)
        pool = [_soft(s.stump, feature_names) for s in r[1:] if s.stump is not None]
        pool = [p for j, p in enumerate(pool) if p != right and p not in pool[:j]]
        made = _shuffled(right, [pool[j] for j in rng.permutation(len(pool))], rng)
        if nxt.node is None:
            where, z = "", m1.bound_C / m0.bound_C if m0.bound_C > 0 else float("nan")
        else:
            where, z = f" of leaf #{nxt.node}", _children_sum(nxt.model, nxt.node)
        why = (
            f"On the weights{where}, the soft stump [{right}] has the least Z₊ + Z₋ "
            f"of any: {z:.3f}."
        )
        text = f"Which soft stump is weak classifier {T}?"
        return _q(page, t, text, made, why, kind)

    def leaf(rng, kind):
        model, node = now.model, nxt.node
        leaves = list(model.leaves)
        prods = {l: model.path_product(l) for l in leaves}
        pool = sorted(
            (l for l in leaves if l != node and not _close(prods[l], prods[node])),
            key=lambda l: -prods[l],
        )
        made = _ids(node, _pick_others(pool, rng), _leaf)
        why = (
            f"Leaf #{node} carries the largest Π Z on its path ({prods[node]:.3f}) of the "
            f"{len(leaves)} leaves: the greedy tree expands it."
        )
        text = f"Which leaf gets weak classifier {T}?"
        return _q(page, t, text, made, why, kind)

    def bound_drop(rng, kind):
        a, b = float(m0.bound_C), float(m1.bound_C)
        if structure == "chain":
            factor = f"Z_{T} = {b / a:.3f}" if a > 0 else ""
        else:
            factor = (
                f"leaf #{nxt.node}'s Π Z times Z₊ + Z₋ = {_children_sum(nxt.model, nxt.node):.3f}"
            )
        why = _change(bound, a, b) + (f": {factor}." if factor else ".")
        text = f"By how much does the bound {bound} drop {when}? (now {a:.3f})"
        return _drop_question(page, t, kind, a, b, rng, text=text, why=why)

    def bound_trend(rng, kind):
        a, b = float(m0.bound_C), float(m1.bound_C)
        made = _trend(a, b, rng, can_rise=True)
        extra = ""
        if structure == "collapse" and nxt.collapsed:
            extra = ": the tree collapsed into one doll, whose Z₊ + Z₋ as a node is ≥ its C"
        why = _change(f"The valid bound {bound}", a, b) + extra + "."
        text = f"Does the valid bound {bound} go down {when}? (now {a:.3f})"
        return _q(page, t, text, made, why, kind)

    def doll(rng, kind):
        minus, plus = nxt.model.children[0]
        grown = plus if nxt.model.children[plus] is not None else minus
        right = 1 if grown == plus else 0
        z = {0: nxt.model.Z[minus], 1: nxt.model.Z[plus]}
        answers = ("in the root's − branch", "in the root's + branch", "in both branches")
        inner = "soft stump" if i == 0 else f"level-{i} doll"
        why = (
            f"A 2-matryoshka has two nodes: the second {inner} grows in the branch with the "
            f"larger Π Z ({'+' if right else '−'}: {z[right]:.3f} against {z[1 - right]:.3f})."
        )
        text = f"Level {i + 1}: where does its second {inner} grow?"
        return Question(page, int(t), text, answers, right, why, kind)

    def nesting(rng, kind):
        dolls = nxt.dolls
        if len(dolls) < 2:
            return None
        excess = [d.node_excess for d in dolls]
        fails = sum(e > 1e-12 for e in excess)
        right = 0 if fails == 0 else (2 if fails == len(dolls) else 1)
        answers = ("it holds for every doll", "it fails for some dolls", "it fails for every doll")
        worst = max(excess)
        if fails:
            why = (
                f"{fails} of {len(dolls)} dolls do worse as a node than the M2 the paper plugs "
                f"in for them (largest excess of Z₊ + Z₋ over M2: {worst:+.3f})."
            )
        else:
            why = (
                f"Every doll's Z₊ + Z₋ as a node stays within the M2 the paper plugs in "
                f"(closest: {-worst:.3f} below)."
            )
        text = (
            f"Level {i + 1} uses {len(dolls)} dolls as nodes: does the paper's nesting step "
            "(the doll's Z₊ + Z₋ ≤ its M2) hold?"
        )
        return Question(page, int(t), text, answers, right, why, kind)

    def error(rng, kind):
        return _error_question(
            page, t, kind, now, nxt, rng, when=when, can_rise=True, expected=True
        )

    kinds = {
        "chain": (("stump", stump), ("bound_drop", bound_drop), ("error", error)),
        "tree": (("leaf", leaf), ("stump", stump), ("bound_drop", bound_drop), ("error", error)),
        "collapse": (("leaf", leaf), ("bound", bound_trend), ("error", error)),
        "matryoshka": (
            ("doll", doll),
            ("bound", bound_trend),
            ("error", error),
            ("nesting", nesting),
        ),
    }
    return _collect(page, t, seed, kinds.get(structure, ()))


# ================================================================================= oblique
def _hyp(h: WeakHypothesis, names: Sequence[str] | None) -> str:
    f = _name(names, h.feature)
    sign = "" if h.polarity > 0 else "−"
    if h.kind == "stump":
        return f"{sign}sgn({f} > {h.threshold:.3g})"
    if h.kind == "linear":
        return f"{sign}({f} − {h.threshold:.3g})"
    if h.kind == "constant":
        return f"{h.polarity:+g}"
    return h.describe()


def oblique_questions(
    run: Sequence[ODTStep] | Sequence[G1Step],
    t: int,
    *,
    seed: int = 0,
    to: int | None = None,
    feature_names: Sequence[str] | None = None,
) -> tuple[Question, ...]:
    """Questions about a G1 run's next step: BoostODT or the Kearns–Mansour tree
    (:func:`~boostcore.oblique.boost_odt`, :func:`~boostcore.oblique.g1_tree`) or AdaBoost on
    a path (:func:`~boostcore.realboost.g1_linear`).

    ``t`` and ``to`` are snapshot indices of the run (its rounds): the one shown now and the
    one shown after the step (default ``t + 1``). On the oblique page one step moves AdaBoost
    by as many stumps as BoostODT's node used: pass the AdaBoost indices the page shows
    (``ui.pages.oblique.frames.shown_at(...)[run].idx`` at the position now and the next).

    Kinds, in order: trees — ``"node"`` (which leaf is split; leaves with both classes
    first), ``"loss_drop"`` (how far ``E e^(−yH) = Σ 2√(w⁺w⁻)`` falls), ``"error"`` (never
    rises); AdaBoost — ``"stump"`` (which stump; one step only; stumps of other rounds as
    distractors), ``"loss_drop"``, ``"error"`` (may go up).

    Parameters
    ----------
    run : sequence of ODTStep or of G1Step
        The whole run, e.g. ``ui.pages.oblique.runs.odt_run(...)``.
    t : int
        The snapshot shown now.
    seed : int, default 0
        The draws; the same seed gives the same questions.
    to : int, optional
        The snapshot shown after the step (``> t``); ``t + 1`` by default.
    feature_names : sequence of str, optional
        Names of the features.

    Returns
    -------
    tuple of Question

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.oblique import boost_odt
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(boost_odt(ds.X_train, ds.y_train, n_internal=5, n_stumps=3))
    >>> [q.kind for q in oblique_questions(run, 2)]
    ['node', 'loss_drop', 'error']
    """
    r = protocol.rounds(run)
    to = t + 1 if to is None else int(to)
    if not 0 <= t < to < len(r):
        return ()
    now, nxt = r[t], r[to]
    page = "oblique"
    m0, m1 = now.metrics, nxt.metrics
    path = isinstance(nxt, G1Step)
    when = f"after step {nxt.t}" if not path else f"by round {nxt.t}"
    if path and to == t + 1:
        when = f"in round {nxt.t}"

    def node(rng, kind):
        if to != t + 1 or nxt.node is None:
            return None
        tree = now.tree
        both = [l for l in tree.leaves if tree.w_pos[l] > 0 and tree.w_neg[l] > 0]
        one = [l for l in tree.leaves if l not in both]
        # leaves with both classes first (one-class leaves are never split), in drawn order
        pool = [
            g[j]
            for g in ([l for l in both if l != nxt.node], [l for l in one if l != nxt.node])
            for j in rng.permutation(len(g))
        ]
        made = _ids(nxt.node, pool[:3], _leaf)
        dec = float(m0.km_impurity - m1.km_impurity)
        why = (
            f"Step {nxt.t} splits leaf #{nxt.node} ({nxt.node_index.size} examples): "
            f"Σ 2√(w⁺w⁻) drops by {_sig(dec)}."
        )
        return _q(page, t, f"Which leaf does step {nxt.t} split?", made, why, kind)

    def stump(rng, kind):
        if to != t + 1 or nxt.round is None:
            return None
        right = _hyp(nxt.round.hyp, feature_names)
        pool = [_hyp(s.round.hyp, feature_names) for s in r[1:] if s.round is not None]
        pool = [p for j, p in enumerate(pool) if p != right and p not in pool[:j]]
        made = _shuffled(right, [pool[j] for j in rng.permutation(len(pool))], rng)
        why = (
            f"The weak learner's choice on w_{nxt.t} is h_{nxt.t} = {right}: edge "
            f"μ = {nxt.round.mu:.3f}, α = {nxt.round.alpha:.3f}."
        )
        return _q(page, t, f"Which weak hypothesis does round {nxt.t} add?", made, why, kind)

    def loss_drop(rng, kind):
        a, b = float(m0.exp_loss), float(m1.exp_loss)
        why = _change("E e^(−yH)", a, b) + "."
        text = f"By how much does the exponential loss E e^(−yH) drop {when}? (now {a:.3f})"
        return _drop_question(page, t, kind, a, b, rng, text=text, why=why)

    def error(rng, kind):
        return _error_question(page, t, kind, now, nxt, rng, when=when, can_rise=path)

    if path:
        kinds = (("stump", stump), ("loss_drop", loss_drop), ("error", error))
    else:
        kinds = (("node", node), ("loss_drop", loss_drop), ("error", error))
    return _collect(page, t, seed, kinds)


# ==================================================================================== game
def game_questions(states: Sequence[GameState], t: int, *, seed: int = 0) -> tuple[Question, ...]:
    """Questions about move ``t + 1`` of a Weight Distribution Game (:mod:`boostcore.game`).

    Kinds, in order: ``"leaf"`` (which leaf the max-weight player splits; the current
    leaves, heaviest first, none tied with the right one), ``"arity"`` (how many children
    the adversary makes; the legal arities, needs 3), ``"weight_drop"`` (how much weight
    the tree loses, in ranges) and ``"reference"`` (is the tree then heavier than, as heavy
    as or lighter than the equal-binary game's ``w·φ_γ(|T|)`` at the same size).

    When position ``t`` is the last one known and the game is not over — the page waits for
    the student's move as the adversary — only ``"leaf"`` is asked: the max-weight player's
    rule (:func:`boostcore.game.max_weight_player`) already fixes the leaf of the next move.

    Parameters
    ----------
    states : sequence of GameState
        The positions so far (a run of :func:`boostcore.game.play` or the page's moves).
    t : int
        The position shown now (moves so far).
    seed : int, default 0
        The draws; the same seed gives the same questions.

    Returns
    -------
    tuple of Question

    Examples
    --------
    >>> from boostcore.game import play, random_adversary
    >>> run = list(play(12, 0.2, adversary=random_adversary(3)))
    >>> [q.kind for q in game_questions(run, 0)]  # one leaf: nothing to choose
    ['arity', 'weight_drop', 'reference']
    >>> [q.kind for q in game_questions(run, 1)]
    ['leaf', 'weight_drop', 'reference']
    """
    r = protocol.rounds(states)
    if not 0 <= t < len(r) or r[t].done:
        return ()
    now = r[t]
    nxt = r[t + 1] if t + 1 < len(r) else None
    page, n = "game", t + 1
    move = nxt.history[-1] if nxt is not None else None

    def leaf(rng, kind):
        right = move.leaf if move is not None else max_weight_player(now)
        w = {l: now.weight(l) for l in now.leaves}
        pool = sorted(
            (l for l in now.leaves if l != right and not _close(w[l], w[right])),
            key=lambda l: (-w[l], l),
        )
        made = _ids(right, _pick_others(pool, rng), _leaf)
        heaviest = max(w.values())
        ties = [l for l in now.leaves if l != right and _close(w[l], w[right])]
        if _close(w[right], heaviest):
            tie = f" (tied with {len(ties)} more: the oldest goes first)" if ties else ""
            why = f"Leaf #{right} weighs {w[right]:.4g}, the most of the {len(w)} leaves{tie}."
        else:
            top = max(w, key=lambda l: (w[l], -l))
            why = f"Leaf #{right} (weight {w[right]:.4g}) is split; the heaviest is #{top}."
        text = f"Which leaf is split at move {n}?"
        return _q(page, t, text, made, why, kind)

    def arity(rng, kind):
        if move is None:
            return None
        ks = list(legal_arities(now))
        made = _ids(move.k, _nearest(ks, move.k), lambda k: f"{k} children")
        why = (
            f"The adversary splits leaf #{move.leaf} {move.k}-way: its children keep "
            f"1 − γ⌈log₂ {move.k}⌉ = {shrink(move.k, now.gamma):.3g} of its weight."
        )
        text = f"Into how many children is leaf #{move.leaf} split at move {n}?"
        return _q(page, t, text, made, why, kind)

    def weight_drop(rng, kind):
        if move is None:
            return None
        a, b = float(now.total), float(nxt.total)
        why = (
            _change("The tree's weight", a, b)
            + f": leaf #{move.leaf} ({move.leaf_weight:.4g}) keeps "
            f"{shrink(move.k, now.gamma):.3g} of its weight."
        )
        text = f"How much weight does the tree lose at move {n}? (now {a:.4f})"
        return _drop_question(page, t, kind, a, b, rng, text=text, why=why)

    def reference(rng, kind):
        if move is None:
            return None
        m = nxt.metrics
        a, b = float(m.total_weight), float(m.equal_binary_weight)
        right = 1 if _close(a, b) else (0 if a > b else 2)
        answers = ("heavier", "just as heavy", "lighter")
        way = ("above", "equal to", "below")[right]
        why = (
            f"After move {n} the tree weighs {a:.4f} with {m.n_leaves} leaves, {way} "
            f"w·φ_γ({m.n_leaves}) = {b:.4f}."
        )
        text = (
            f"After move {n}, is the tree heavier or lighter than the equal-binary game at the "
            "same number of leaves?"
        )
        return Question(page, int(t), text, answers, right, why, kind)

    return _collect(
        page,
        t,
        seed,
        (("leaf", leaf), ("arity", arity), ("weight_drop", weight_drop), ("reference", reference)),
    )


# ============================================================================== one of them
#: The generator of each page.
GENERATORS: dict[str, Callable[..., tuple[Question, ...]]] = {
    "topdown": topdown_questions,
    "branching": branching_questions,
    "matryoshka": matryoshka_questions,
    "oblique": oblique_questions,
    "game": game_questions,
}


def question_for(page: str, run: Sequence, t: int, *, seed: int = 0, **options) -> Question | None:
    """The one question ``page`` asks before its next step: drawn (by ``seed`` and ``t``)
    from every kind its generator can ask now, so a class that shares a seed sees the same.

    Parameters
    ----------
    page : {"topdown", "branching", "matryoshka", "oblique", "game"}
        The page.
    run : sequence of snapshots
        The run the page shows (its focused run; the game's positions).
    t : int
        The page's round now (see each generator for its unit).
    seed : int, default 0
        The draws.
    **options
        Passed to the page's generator (``index``, ``feature_names``, ``to``).

    Returns
    -------
    Question or None
        ``None`` when there is no next step to ask about.

    Raises
    ------
    ValueError
        For an unknown page or a bad seed.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.topdown import grow
    >>> ds = make_dataset("stripes", n=200, random_state=1)
    >>> run = list(grow(ds.X_train, ds.y_train, size=8))
    >>> q = question_for("topdown", run, 2, seed=7)
    >>> q == question_for("topdown", run, 2, seed=7), len(q.answers) in (3, 4)
    (True, True)
    >>> question_for("topdown", run, 7) is None  # the last round: no next step
    True
    """
    if page not in GENERATORS:
        raise ValueError(f"page must be one of {', '.join(PAGES)}; got {page!r}")
    qs = GENERATORS[page](run, t, seed=seed, **options)
    if not qs:
        return None
    return qs[int(_rng(seed, page, t, "which kind").integers(len(qs)))]
