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
from boostcore.splits import partition_entropy
from ui.quiz import (
    Question,
    change,
    collect,
    draw,
    drop_question,
    error_question,
    feature_name,
    make_question,
    same_fraction,
    shuffled,
    untied,
    window,
)
from ui.text import notation, plural, sub

from .frames import divide_words

#: The page's slug in its questions: it seeds their draws, so it stays what it was when one
#: module asked every page's questions (the same run, round and seed ask the same question).
PAGE = "branching"


def all_questions(
    run: Sequence[BPStep],
    t: int,
    *,
    seed: int = 0,
    feature_names: Sequence[str] | None = None,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
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
    X, y : ndarray, optional
        The run's training sample. The ``"stump"`` kind needs it (to leave out stumps tied
        with the right one under ``D_t``) and is not asked without it.

    Returns
    -------
    tuple of Question

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=200, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=6))
    >>> [q.kind for q in all_questions(run, 2, X=ds.X_train, y=ds.y_train)]
    ['stump', 'prod_z', 'leaves', 'error']
    """
    r = protocol.rounds(run)
    if not 0 <= t < len(r) - 1 or r[t + 1].feature is None:
        return ()
    now, nxt = r[t], r[t + 1]
    n = t + 1
    m0, m1 = now.metrics, nxt.metrics

    def text_of(feature: int, threshold: float) -> str:
        return f"{feature_name(feature_names, feature)} > {threshold:.3g}"

    def stump(rng: np.random.Generator, kind: str) -> Question | None:
        if X is None or y is None:
            return None  # without the sample a tie with the right stump could not be seen
        right = (int(nxt.feature), float(nxt.threshold))
        seen = {(int(s.feature), float(s.threshold)) for s in r[1:] if s.feature is not None}
        pool = sorted(seen - {right})
        # both weak learners' objectives under D_t (H(Y|h) and H(Y|ℓ̃_t), Remark (1)): a
        # stump that ties the right one in either would be right too (round 1's uniform
        # weights make such ties common): never offered
        Xa, ya = np.asarray(X, dtype=float), np.asarray(y)
        D, cell = np.asarray(nxt.D, dtype=float), now.program.leaves(Xa)
        score = {}
        for f, th in [right, *pool]:
            h = (Xa[:, f] > th).astype(np.intp)
            score[f, th] = (
                partition_entropy(ya, D, h, 2),
                partition_entropy(ya, D, 2 * cell + h, 2 * int(cell.max() + 1)),
            )
        pool = untied(pool, lambda p: score[p][0], score[right][0])
        pool = untied(pool, lambda p: score[p][1], score[right][1])
        texts = [text_of(*p) for p in pool]
        made = shuffled(text_of(*right), [texts[i] for i in rng.permutation(len(texts))], rng)
        if not nxt.by_policy:
            who = f"Under D{sub(n)} the weak learner returns h{sub(n)} = [{text_of(*right)}]"
        elif nxt.algorithm_feature is None:
            who = f"h{sub(n)} = [{text_of(*right)}] was picked by hand, as the weak learner"
        else:
            alg = (int(nxt.algorithm_feature), float(nxt.algorithm_threshold))
            who = f"h{sub(n)} = [{text_of(*right)}] was picked by hand, as the weak learner " + (
                "(the stump InfoBoost's weak learner returns too)"
                if alg == right
                else f"(InfoBoost's weak learner would return [{text_of(*alg)}])"
            )
        why = f"{who}: H(Y|h) = {m1.H_h:.3f}, Z{sub(n)} = {m1.Z:.3f}."
        text = f"Which stump h{sub(n)} does round {n} use?"
        return make_question(PAGE, t, text, made, why, kind)

    def prod_z(rng: np.random.Generator, kind: str) -> Question | None:
        a, b = float(m0.bound_prod_Z), float(m1.bound_prod_Z)
        why = change(notation("Π Z_t"), a, b) + f": it is multiplied by Z{sub(n)} = {m1.Z:.3f}."
        text = notation("By how much does the bound Π Z_t drop") + f" in round {n}? (now {a:.3f})"
        return drop_question(PAGE, t, kind, a, b, rng, text=text, why=why)

    def leaves(rng: np.random.Generator, kind: str) -> Question | None:
        right, top = int(m1.n_leaves), 2 * int(m0.n_leaves)
        values = range(1, top + 1)
        # in drawn order: small counts would put the key on A or B (counts start at 1)
        label = lambda k: plural(k, "leaf", "leaves")  # noqa: E731
        made = shuffled(label(right), [label(k) for k in window(values, right, rng)], rng)
        # the words of the note under the program and of the regions' note (issue 25, 8):
        # the count is |L_t|, the leaves training points reach; the program also draws, dashed,
        # those no training point reaches, which the why names in a sentence of their own
        why = divide_words(f"h{sub(n)}", nxt, m0)
        text = (
            f"How many leaves that training points reach does the program have after "
            f"round {n}'s merge?"
        )
        return make_question(PAGE, t, text, made, why, kind)

    def error(rng: np.random.Generator, kind: str) -> Question | None:
        return error_question(
            PAGE,
            t,
            kind,
            now,
            nxt,
            rng,
            when=f"in round {n}",
            can_rise=True,
            same_share=same_fraction([s.metrics.train_error for s in r]),
        )

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
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
) -> Question | None:
    """The one question the page asks before round ``t + 1``: drawn (by ``seed`` and ``t``)
    from :func:`all_questions`, so a class that shares a seed sees the same.

    Parameters
    ----------
    run, t, seed, feature_names, X, y
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
    qs = all_questions(run, t, seed=seed, feature_names=feature_names, X=X, y=y)
    return draw(qs, seed=seed)
