"""Predict, then reveal on the branching-programs page: the questions asked before a round.

:func:`all_questions` reads every question the page can ask before round ``t + 1`` off a
BP.InfoBoost run (:func:`boostcore.branching.bp_infoboost`, any merging scheme) — which stump
comes next, how far ``Π Z_t`` falls, how many leaves the merge leaves, whether the training
error goes down — and :func:`question` draws the one the page asks. The answers, draws and
texts are the shared machinery of :mod:`ui.quiz`; :mod:`ui.quiz_widget` asks the question.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.branching import BPStep
from ui.quiz import (
    Question,
    change,
    collect,
    draw,
    drop_question,
    error_question,
    feature_name,
    make_question,
    nearest,
    ordered,
    shuffled,
)
from ui.text import plural

#: The page's slug in its questions: it seeds their draws, so it stays what it was when one
#: module asked every page's questions (the same run, round and seed ask the same question).
PAGE = "branching"


def all_questions(
    run: Sequence[BPStep],
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
    >>> [q.kind for q in all_questions(run, 2)]
    ['stump', 'prod_z', 'leaves', 'error']
    """
    r = protocol.rounds(run)
    if not 0 <= t < len(r) - 1 or r[t + 1].feature is None:
        return ()
    now, nxt = r[t], r[t + 1]
    n = t + 1
    m0, m1 = now.metrics, nxt.metrics

    def text_of(s: BPStep) -> str:
        return f"{feature_name(feature_names, s.feature)} > {s.threshold:.3g}"

    def stump(rng: np.random.Generator, kind: str) -> Question | None:
        right = text_of(nxt)
        pool = [text_of(s) for s in r[1:] if s.feature is not None]
        pool = [p for i, p in enumerate(pool) if p != right and p not in pool[:i]]
        made = shuffled(right, [pool[i] for i in rng.permutation(len(pool))], rng)
        why = (
            f"Under D_{n} the weak learner returns h_{n} = [{right}]: "
            f"H(Y|h) = {m1.H_h:.3f}, Z_{n} = {m1.Z:.3f}."
        )
        return make_question(PAGE, t, f"Which stump h_{n} does round {n} use?", made, why, kind)

    def prod_z(rng: np.random.Generator, kind: str) -> Question | None:
        a, b = float(m0.bound_prod_Z), float(m1.bound_prod_Z)
        why = change("Π Z_t", a, b) + f": it is multiplied by Z_{n} = {m1.Z:.3f}."
        text = f"By how much does the bound Π Z_t drop in round {n}? (now {a:.3f})"
        return drop_question(PAGE, t, kind, a, b, rng, text=text, why=why)

    def leaves(rng: np.random.Generator, kind: str) -> Question | None:
        right, top = int(m1.n_leaves), 2 * int(m0.n_leaves)
        values = range(1, top + 1)
        made = ordered(right, nearest(values, right), lambda k: plural(k, "leaf", "leaves"))
        why = (
            f"h_{n} divides {m0.n_leaves} {'leaf' if m0.n_leaves == 1 else 'leaves'} into "
            f"{m1.n_divided} children that training points reach, merged into {right}."
        )
        text = f"How many leaves does the program have after round {n}'s merge?"
        return make_question(PAGE, t, text, made, why, kind)

    def error(rng: np.random.Generator, kind: str) -> Question | None:
        return error_question(PAGE, t, kind, now, nxt, rng, when=f"in round {n}", can_rise=True)

    return collect(
        PAGE,
        t,
        seed,
        (("stump", stump), ("prod_z", prod_z), ("leaves", leaves), ("error", error)),
    )


def question(
    run: Sequence[BPStep],
    t: int,
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
) -> Question | None:
    """The one question the page asks before round ``t + 1``: drawn (by ``seed`` and ``t``)
    from :func:`all_questions`, so a class that shares a seed sees the same.

    Parameters
    ----------
    run, t, seed, feature_names
        As :func:`all_questions`'s.

    Returns
    -------
    Question or None
        ``None`` when there is no next step to ask about.

    Raises
    ------
    ValueError
        For a seed that is not an integer ≥ 0.
    """
    return draw(all_questions(run, t, seed=seed, feature_names=feature_names), seed=seed)
