"""Predict, then reveal on the top-down growth page: the questions asked before a round.

:func:`all_questions` reads every question the page can ask before round ``t + 1`` off a run
of :func:`boostcore.topdown.grow` (a criterion's run, the one the page shows large) — which
leaf is expanded, how many branches, how far ``I(T)`` falls, whether the training error goes
down — and :func:`question` draws the one the page asks. The answers, draws and texts are the
shared machinery of :mod:`ui.quiz`; :mod:`ui.quiz_widget` asks the question.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.impurity import INDEX
from boostcore.topdown import TreeStep
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
    ordered,
    pick_others,
    same_fraction,
    shuffled,
    sig,
    untied,
    window,
)

#: The page's slug in its questions: it seeds their draws, so it stays what it was when one
#: module asked every page's questions (the same run, round and seed ask the same question).
PAGE = "topdown"


def all_questions(
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
    >>> [q.kind for q in all_questions(run, 2)]
    ['leaf', 'index_drop']
    """
    r = protocol.rounds(run)
    if not 0 <= t < len(r) - 1 or r[t + 1].split is None:
        return ()
    now, nxt = r[t], r[t + 1]
    sp = nxt.split
    n = t + 1
    fn = INDEX.get(index, INDEX["km"])

    def leaf(rng: np.random.Generator, kind: str) -> Question | None:
        tree = now.tree
        leaves = [int(l) for l in tree.leaves]
        w = tree.node_weight(fn)
        mass, q = tree.mass, tree.q
        imp = np.minimum(q, 1 - q)
        # what the run's leaf rule compared: weights (max_weight) or p̂·Δ/price (max_gain)
        scores = dict(nxt.rule_scores)
        gain_rule = nxt.leaf_rule == "max_gain" and not sp.by_policy

        def tied(l: int) -> bool:
            if sp.by_policy:
                return False  # a person chose: the key is what they chose, not a rule's pick
            if gain_rule:
                # the rule's own score: with the error index most gains are 0 and every
                # splittable leaf ties
                return l in scores and is_close(scores[l], scores[sp.leaf])
            # equal weight under any index: the rule could not tell them apart
            return is_close(w[l], w[sp.leaf]) or (
                is_close(mass[l], mass[sp.leaf]) and is_close(imp[l], imp[sp.leaf])
            )

        pool = sorted((l for l in leaves if l != sp.leaf and not tied(l)), key=lambda l: -w[l])
        # in drawn order: the leaf expanded is often one of the newest (highest ids), so
        # listed by id it would be on D in half the questions
        made = shuffled(leaf_label(sp.leaf), [leaf_label(l) for l in pick_others(pool, rng)], rng)
        heaviest = max(float(w[l]) for l in leaves)
        ties = [l for l in leaves if l != sp.leaf and tied(l) and (gain_rule or w[l] > 0)]
        tie = f" (tied with #{ties[0]}: the lower id goes first)" if ties else ""
        if sp.by_policy:
            alg = sp.algorithm_leaf
            rule = (
                "the leaf the algorithm expands too"
                if alg == sp.leaf
                else "no leaf the algorithm could split"
                if alg is None
                else f"the algorithm would expand leaf #{alg}"
            )
            why = (
                f"Leaf #{sp.leaf} (p̂·I(q̂) = {sp.leaf_weight:.3f}) is the one picked by hand, "
                f"as the weak learner; {rule}."
            )
        elif nxt.note:
            why = (
                f"The heaviest leaf cannot be split, so leaf #{sp.leaf} "
                f"(p̂·I(q̂) = {sp.leaf_weight:.3f}) is expanded."
            )
        elif gain_rule:
            # max_gain ranks leaves by p̂·Δ/price (the criterion's price of the split's
            # arity), which is the largest drop of I(T) only for binary splits or price 1
            light = (
                ""
                if sp.leaf_weight >= heaviest - 1e-9 * max(heaviest, 1.0)
                else f", though its weight p̂·I(q̂) = {sp.leaf_weight:.3f} is not the largest"
            )
            why = (
                f"Leaf #{sp.leaf}'s best split has the largest p̂·Δ/price "
                f"({sig(sp.index_drop / sp.cost)}: I(T) drops by {sig(sp.index_drop)} at a "
                f"price of {sp.cost:g}){tie}{light}."
            )
        else:
            why = (
                f"Leaf #{sp.leaf} is the heaviest of the {len(leaves)} leaves: "
                f"p̂·I(q̂) = {sp.leaf_weight:.3f}{tie}."
            )
        return make_question(PAGE, t, f"Which leaf does round {n} expand?", made, why, kind)

    def arity(rng: np.random.Generator, kind: str) -> Question | None:
        ok = [c for c in nxt.candidates if c.acceptable]
        best = {k: max(c.score for c in ok if c.arity == k) for k in {c.arity for c in ok}}
        # an arity whose best split scores the same as the chosen one is right too (only the
        # tie-break, the smaller arity first, chose): never offered
        ks = sorted({sp.arity, *untied(list(best), best.get, sp.score)})
        made = ordered(sp.arity, window(ks, sp.arity, rng), lambda k: f"{k} branches")
        others = sorted((c for c in ok if c.arity != sp.arity), key=lambda c: (-c.score, c.arity))
        runner = f"; the best {others[0].arity}-way scores {others[0].score:.3f}" if others else ""
        on = feature_name(feature_names, sp.feature)
        if sp.by_policy:
            # a split picked by hand: say so, and what the algorithm would have split
            alg = sp.algorithm_split
            algo = (
                f"; the algorithm's best there is {alg.arity}-way ({alg.score:.3f})"
                if alg is not None
                else ""
            )
            why = (
                f"The {sp.arity}-way split on {on} was picked by hand, as the weak learner: it "
                f"scores {sp.score:.3f} (gain {sp.gain:.3f} ÷ price {sp.cost:.3g}){algo}."
            )
        else:
            why = (
                f"The {sp.arity}-way split on {on} scores {sp.score:.3f} (gain {sp.gain:.3f} ÷ "
                f"price {sp.cost:.3g}), the best allowed{runner}."
            )
        text = f"How many branches does the split of round {n} have?"
        return make_question(PAGE, t, text, made, why, kind)

    def index_drop(rng: np.random.Generator, kind: str) -> Question | None:
        a, b = float(now.metrics.index_value), float(nxt.metrics.index_value)
        why = change("I(T)", a, b) + f": the p̂·gain of leaf #{sp.leaf}'s split."
        text = f"By how much does I(T) drop in round {n}? (now {a:.3f})"
        return drop_question(PAGE, t, kind, a, b, rng, text=text, why=why)

    def error(rng: np.random.Generator, kind: str) -> Question | None:
        return error_question(
            PAGE,
            t,
            kind,
            now,
            nxt,
            rng,
            when=f"in round {n}",
            can_rise=False,
            same_share=same_fraction([s.metrics.train_error for s in r]),
        )

    return collect(
        PAGE,
        t,
        seed,
        (("leaf", leaf), ("arity", arity), ("index_drop", index_drop), ("error", error)),
    )


def question(
    run: Sequence[TreeStep],
    t: int,
    *,
    seed: int = 0,
    index: str = "km",
    feature_names: Sequence[str] | None = None,
) -> Question | None:
    """The one question the page asks before round ``t + 1``: drawn (by ``seed`` and ``t``)
    from :func:`all_questions`, so a class that shares a seed sees the same.

    Parameters
    ----------
    run, t, seed, index, feature_names
        As :func:`all_questions`'s.

    Returns
    -------
    Question or None
        ``None`` when there is no next step to ask about.

    Raises
    ------
    ValueError
        For a seed that is not an integer ≥ 0.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.topdown import grow
    >>> ds = make_dataset("stripes", n=200, random_state=1)
    >>> run = list(grow(ds.X_train, ds.y_train, size=8))
    >>> q = question(run, 2, seed=7)
    >>> q == question(run, 2, seed=7), len(q.answers) in (3, 4)
    (True, True)
    >>> question(run, 7) is None  # the last round: no next step
    True
    """
    qs = all_questions(run, t, seed=seed, index=index, feature_names=feature_names)
    return draw(qs, seed=seed)
