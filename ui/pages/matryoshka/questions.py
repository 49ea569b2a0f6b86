"""Predict, then reveal on the matryoshka page: the questions asked before a step.

:func:`all_questions` reads every question the page can ask before its next snapshot off a
probabilistic-boosting run — the chain, the tree, the greedy collapse or the matryoshka — and
:func:`question` draws one. The page steps by what changes (a weak classifier of the chain or
the tree, a level of the matryoshka: ``ui.pages.matryoshka.frames.steps.step_counts``):
:func:`step_question` is the one question asked at a step, about the next step, and
:func:`step_questions` every step's (index = step; for a quiz that runs in the browser).
The answers, draws and texts are the shared machinery of :mod:`ui.quiz`;
:mod:`ui.quiz_widget` asks the question.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.probabilistic import SEARCH_RTOL, ProbStep, ProbTree, SoftStump, z_sum
from ui.quiz import (
    Question,
    change,
    collect,
    draw,
    drop_question,
    error_question,
    feature_name,
    is_close,
    leaf_label,
    make_question,
    now_value,
    ordered,
    pick_others,
    same_fraction,
    same_note,
    shuffled,
    trend,
    window,
)
from ui.text import sub

#: The page's slug in its questions: it seeds their draws, so it stays what it was when one
#: module asked every page's questions (the same run, round and seed ask the same question).
PAGE = "matryoshka"


def _shown_index(run: Sequence[ProbStep], t: int) -> int:
    """The snapshot the matryoshka page shows at round ``t`` (weak classifiers used): the last
    of the run's rounds with at most ``t`` weak classifiers (as
    :func:`ui.pages.matryoshka.frames.steps.shown_index`, without its plotting imports, and 0 rather
    than ``None`` before the first snapshot, so the questions need no plotting stack)."""
    idx = 0
    for i, s in enumerate(protocol.rounds(run)):
        if s.metrics.n_weak > t:
            break
        idx = i
    return idx


def _soft(s: SoftStump, names: Sequence[str] | None) -> str:
    return f"{feature_name(names, s.feature)} {'>' if s.polarity > 0 else '<'} {s.theta:.3g}"


def _children_sum(model: ProbTree, node: int) -> float:
    minus, plus = model.children[node]
    return float(model.Z[minus] + model.Z[plus])


def all_questions(
    run: Sequence[ProbStep],
    t: int,
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
    step: int | None = None,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
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
      grows), ``"bound"``, ``"error"``, ``"nesting"`` (for how many dolls of the next level
      the paper's nesting step fails, counts in a drawn order; from level 2 on).

    The chain's expected error is exact where :func:`boostcore.exact_chain.exact_possible`
    holds and a Monte Carlo estimate beyond: its ``"error"`` question says which, and is asked
    of an estimate only when the standard errors cannot decide the key. The ``"stump"``
    distractors never include the right stump with the other polarity (the same
    ``Z₊ + Z₋``: a tie).

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
    step : int, optional
        The page's step the questions are asked at (their ``t``, which seeds their draws);
        ``t`` if omitted.
    X, y : ndarray, optional
        The run's training set: the ``"stump"`` question scores the other stumps it offers
        on this round's weights (none may beat the weak learner's, nor come within its
        search's tolerance), so without them it is not asked.

    Returns
    -------
    tuple of Question

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(matryoshka(ds.X_train, ds.y_train, levels=3))
    >>> [q.kind for q in all_questions(run, 2)]
    ['doll', 'bound', 'nesting']
    """
    r = protocol.rounds(run)
    if t < 0 or not r:
        return ()
    count, t = t, (t if step is None else int(step))  # t: the round the page asks at
    i = _shown_index(run, count)
    if i + 1 >= len(r):
        return ()
    now, nxt = r[i], r[i + 1]
    structure = nxt.structure
    m0, m1 = now.metrics, nxt.metrics
    T = int(m1.n_weak)
    bound = f"Π Z{sub('t')}" if structure == "chain" else "C(T)"
    when = (
        f"at level {i + 1} ({T} stumps)"
        if structure == "matryoshka"
        else f"with weak classifier {T}"
    )

    def stump(rng: np.random.Generator, kind: str) -> Question | None:
        if X is None or y is None or nxt.stump is None or nxt.D is None:
            return None
        right = _soft(nxt.stump, feature_names)
        # other rounds' stumps on this round's weights: the weak learner's search stops
        # within SEARCH_RTOL of the best Z₊ + Z₋, so a stump no more than that above the
        # weak learner's (or below it) could be the best as well: never offered. The same
        # stump with the other polarity has the same Z₊ + Z₋ (its q is 1 − q, the α's swap).
        z_right = z_sum(nxt.stump, X, y, nxt.D)
        clear = z_right * (1 + 2 * SEARCH_RTOL) + 1e-12
        pool = [
            _soft(s.stump, feature_names)
            for s in r[1:]
            if s.stump is not None and z_sum(s.stump, X, y, nxt.D) > clear
        ]
        pool = [p for j, p in enumerate(pool) if p != right and p not in pool[:j]]
        made = shuffled(right, [pool[j] for j in rng.permutation(len(pool))], rng)
        where = "" if nxt.node is None else f" of leaf #{nxt.node}"
        why = (
            f"On the weights{where}, the soft stump [{right}] has the least Z₊ + Z₋ the weak "
            f"learner finds ({z_right:.3f}); every other stump offered scores more there."
        )
        text = f"Which soft stump is weak classifier {T}?"
        return make_question(PAGE, t, text, made, why, kind)

    def leaf(rng: np.random.Generator, kind: str) -> Question | None:
        model, node = now.model, nxt.node
        leaves = list(model.leaves)
        prods = {l: model.path_product(l) for l in leaves}
        pool = sorted(
            (l for l in leaves if l != node and not is_close(prods[l], prods[node])),
            key=lambda l: -prods[l],
        )
        made = ordered(node, pick_others(pool, rng), leaf_label)
        why = (
            f"Leaf #{node} carries the largest Π Z on its path ({prods[node]:.3f}) of the "
            f"{len(leaves)} leaves: the greedy tree expands it."
        )
        text = f"Which leaf gets weak classifier {T}?"
        return make_question(PAGE, t, text, made, why, kind)

    def bound_drop(rng: np.random.Generator, kind: str) -> Question | None:
        a, b = float(m0.bound_C), float(m1.bound_C)
        if structure == "chain":
            factor = f"Z{sub(T)} = {b / a:.3f}" if a > 0 else ""
        else:
            factor = (
                f"leaf #{nxt.node}'s Π Z times Z₊ + Z₋ = {_children_sum(nxt.model, nxt.node):.3f}"
            )
        why = change(bound, a, b) + (f": {factor}." if factor else ".")
        text = f"By how much does the bound {bound} drop {when}? (now {a:.3f})"
        return drop_question(PAGE, t, kind, a, b, rng, text=text, why=why)

    def bound_trend(rng: np.random.Generator, kind: str) -> Question | None:
        a, b = float(m0.bound_C), float(m1.bound_C)
        made = trend(a, b, rng, can_rise=True)
        extra = ""
        if structure == "collapse" and nxt.collapsed:
            extra = ": the tree collapsed into one doll, whose Z₊ + Z₋ as a node is ≥ its C"
        why = change(f"The valid bound {bound}", a, b) + extra + "."
        text = f"Does the valid bound {bound} go down {when}? (now {now_value(a)}; {same_note()})"
        return make_question(PAGE, t, text, made, why, kind)

    def doll(rng: np.random.Generator, kind: str) -> Question | None:
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
        return Question(PAGE, int(t), text, answers, right, why, kind)

    def nesting(rng: np.random.Generator, kind: str) -> Question | None:
        dolls = nxt.dolls
        if len(dolls) < 2:
            return None
        excess = [d.node_excess for d in dolls]
        fails = sum(e > 1e-12 for e in excess)
        # near ties between a doll's Z₊ + Z₋ and its M2 would key on rounding: not asked
        if any(abs(e) <= 1e-9 for e in excess):
            return None
        # a count, not "holds / fails for some / for all": the student has to weigh each doll
        # (that the step fails somewhere is the page's lesson, so "some" would be a giveaway)
        # in a drawn order: "none" (0) is the smallest count, so increasing order would put
        # it on A whenever the step holds everywhere
        others = window(range(len(dolls) + 1), fails, rng)
        made = shuffled(f"{fails} of {len(dolls)}", [f"{k} of {len(dolls)}" for k in others], rng)
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
            f"Level {i + 1} uses {len(dolls)} dolls as nodes: for how many does the paper's "
            "nesting step (the doll's Z₊ + Z₋ ≤ its M2) fail?"
        )
        return make_question(PAGE, t, text, made, why, kind)

    def error(rng: np.random.Generator, kind: str) -> Question | None:
        # the chain's expected error is exact while the sum over its 2^T answer patterns is
        # cheap (boostcore.exact_chain) and a Monte Carlo estimate beyond: then the standard
        # errors bound the noise of the change (the worlds are shared between rounds, so the
        # change's error is at most their sum), and no question is made whose key that noise
        # could decide; the question says which value it asks about
        if structure == "collapse" and nxt.collapsed:
            # collapsing keeps the classifier, so "stays the same" would be the key of most
            # collapse runs' questions: the bound question asks about these steps instead
            return None
        errs = [m.mc_stderr for m in (m0, m1)]
        noise = sum(float(e) for e in errs if e is not None)
        name = None
        if structure == "chain":
            name = "exact expected training error"
            if any(e is not None for e in errs):
                n_draws = getattr(nxt.model, "n_draws", 0)
                name = f"expected training error (Monte Carlo estimate over {n_draws:,} worlds)"
        return error_question(
            PAGE,
            t,
            kind,
            now,
            nxt,
            rng,
            when=when,
            can_rise=True,
            expected=True,
            noise=noise,
            name=name,
            same_share=same_fraction([s.metrics.train_error for s in r]),
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
    return collect(PAGE, t, seed, kinds.get(structure, ()))


def question(
    run: Sequence[ProbStep],
    t: int,
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
) -> Question | None:
    """The one question the page asks before its next snapshot: drawn (by ``seed`` and ``t``)
    from :func:`all_questions`, so a class that shares a seed sees the same.

    Parameters
    ----------
    run, t, seed, feature_names, X, y
        As :func:`all_questions`'s (``t`` counts weak classifiers).

    Returns
    -------
    Question or None
        ``None`` when there is no next snapshot to ask about.

    Raises
    ------
    ValueError
        For a seed that is not an integer ≥ 0.
    """
    return draw(all_questions(run, t, seed=seed, feature_names=feature_names, X=X, y=y), seed=seed)


def step_question(
    run: Sequence[ProbStep],
    counts: Sequence[int],
    k: int,
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
) -> Question | None:
    """The one question asked at step ``k`` of the page's stepper, about step ``k + 1``.

    The page steps through the weak-classifier counts ``counts`` at which the focused run
    changes (``ui.pages.matryoshka.frames.steps.step_counts``: the matryoshka's levels, the chain's
    and the tree's weak classifiers). At step ``k`` the run shows its snapshot with at most
    ``counts[k]`` weak classifiers; the question is about its next snapshot, asked only when
    that is the one step ``k + 1`` shows — never about a level several clicks ahead.

    Parameters
    ----------
    run : sequence of ProbStep
        The focused run.
    counts : sequence of int
        The weak classifiers of each step, increasing.
    k : int
        The step (the stepper's round).
    seed, feature_names, X, y
        As :func:`all_questions`'s.

    Returns
    -------
    Question or None
        ``None`` at the last step, or when the run does not change at the next step.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(matryoshka(ds.X_train, ds.y_train, levels=3))
    >>> q = step_question(run, (0, 2, 4, 8), 2)
    >>> q.t, "level 3" in q.text.lower()
    (2, True)
    """
    if not 0 <= k < len(counts) - 1:
        return None
    r = protocol.rounds(run)
    now = _shown_index(run, counts[k])
    if now + 1 >= len(r) or _shown_index(run, counts[k + 1]) != now + 1:
        return None
    return draw(
        all_questions(run, counts[k], seed=seed, feature_names=feature_names, step=k, X=X, y=y),
        seed=seed,
    )


def step_questions(
    run: Sequence[ProbStep],
    counts: Sequence[int],
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
) -> list[Question | None]:
    """The question of every step of the page's stepper (index = step), each about the next
    step (:func:`step_question`): one question per step, never one asked at two steps.

    Parameters
    ----------
    run, counts, seed, feature_names, X, y
        As :func:`step_question`'s.

    Returns
    -------
    list of Question or None
        ``len(counts)`` entries; ``None`` where nothing is asked (the last step).
    """
    return [
        step_question(run, counts, k, seed=seed, feature_names=feature_names, X=X, y=y)
        for k in range(len(counts))
    ]
