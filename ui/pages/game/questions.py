"""Predict, then reveal on the Weight Distribution Game's page: the questions asked before a
move.

:func:`all_questions` reads every question the page can ask before move ``t + 1`` off the
game's positions (:mod:`boostcore.game`) — which leaf the max-weight player splits, into how
many children, how much weight the tree loses, how it compares with the equal-binary game —
and :func:`question` draws the one the page asks. The answers, draws and texts are the shared
machinery of :mod:`ui.quiz`; :mod:`ui.quiz_widget` asks the question.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.game import GameState, legal_arities, max_weight_player, shrink
from ui.quiz import (
    Question,
    change,
    collect,
    draw,
    drop_question,
    is_close,
    leaf_label,
    make_question,
    ordered,
    pick_others,
    shuffled,
    sig,
    window,
)

#: The page's slug in its questions: it seeds their draws, so it stays what it was when one
#: module asked every page's questions (the same run, round and seed ask the same question).
PAGE = "game"


def all_questions(states: Sequence[GameState], t: int, *, seed: int = 0) -> tuple[Question, ...]:
    """Questions about move ``t + 1`` of a Weight Distribution Game (:mod:`boostcore.game`).

    Kinds, in order: ``"leaf"`` (which leaf the max-weight player splits; the heaviest
    other leaves, none tied with the right one, in a drawn order), ``"arity"`` (how many
    children the adversary makes; the legal arities, needs 3; only of an adversary that
    varies its arity in this game), ``"weight_drop"`` (how much weight the tree loses, in
    ranges) and ``"gap"`` (how much lighter than the equal-binary game's ``w·φ_γ(|T|)`` at
    the same size the tree is then, in ranges; only when it is lighter).

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
    >>> [q.kind for q in all_questions(run, 0)]  # one leaf: nothing to choose
    ['arity', 'weight_drop', 'gap']
    >>> [q.kind for q in all_questions(run, 1)]
    ['leaf', 'weight_drop', 'gap']
    """
    r = protocol.rounds(states)
    if not 0 <= t < len(r) or r[t].done:
        return ()
    now = r[t]
    nxt = r[t + 1] if t + 1 < len(r) else None
    n = t + 1
    move = nxt.history[-1] if nxt is not None else None

    def leaf(rng: np.random.Generator, kind: str) -> Question | None:
        right = move.leaf if move is not None else max_weight_player(now)
        w = {l: now.weight(l) for l in now.leaves}
        pool = sorted(
            (l for l in now.leaves if l != right and not is_close(w[l], w[right])),
            key=lambda l: (-w[l], l),
        )
        others = [leaf_label(l) for l in pick_others(pool, rng)]
        # in a drawn order, not by id: the heaviest leaf is most often the oldest, so ids in
        # increasing order would put the key on A most of the time
        made = shuffled(leaf_label(right), others, rng)
        heaviest = max(w.values())
        ties = [l for l in now.leaves if l != right and is_close(w[l], w[right])]
        if is_close(w[right], heaviest):
            tie = f" (tied with {len(ties)} more: the oldest goes first)" if ties else ""
            why = f"Leaf #{right} weighs {w[right]:.4g}, the most of the {len(w)} leaves{tie}."
        else:
            top = max(w, key=lambda l: (w[l], -l))
            why = f"Leaf #{right} (weight {w[right]:.4g}) is split; the heaviest is #{top}."
        text = f"Which leaf is split at move {n}?"
        return make_question(PAGE, t, text, made, why, kind)

    def arity(rng: np.random.Generator, kind: str) -> Question | None:
        if move is None:
            return None
        # an adversary that always splits k-way (the equal-binary one of Theorem 5 always
        # makes 2 children) gives the answer away after its first move: asked only of an
        # adversary whose moves in this game use more than one arity
        if len({m.k for m in r[-1].history}) < 2:
            return None
        ks = list(legal_arities(now))
        made = ordered(move.k, window(ks, move.k, rng), lambda k: f"{k} children")
        why = (
            f"The adversary splits leaf #{move.leaf} {move.k}-way: its children keep "
            f"1 − γ⌈log₂ {move.k}⌉ = {shrink(move.k, now.gamma):.3g} of its weight."
        )
        text = f"Into how many children is leaf #{move.leaf} split at move {n}?"
        return make_question(PAGE, t, text, made, why, kind)

    def weight_drop(rng: np.random.Generator, kind: str) -> Question | None:
        if move is None:
            return None
        a, b = float(now.total), float(nxt.total)
        why = (
            change("The tree's weight", a, b)
            + f": leaf #{move.leaf} ({move.leaf_weight:.4g}) keeps "
            f"{shrink(move.k, now.gamma):.3g} of its weight."
        )
        text = f"How much weight does the tree lose at move {n}? (now {a:.4f})"
        return drop_question(PAGE, t, kind, a, b, rng, text=text, why=why)

    def gap(rng: np.random.Generator, kind: str) -> Question | None:
        if move is None:
            return None
        m = nxt.metrics
        a, b = float(m.total_weight), float(m.equal_binary_weight)
        # "heavier or lighter than the equal-binary game?" is Theorem 5 itself (lighter, or
        # equal against the equal-binary adversary) and was a giveaway: the student estimates
        # by how much lighter instead. Not asked when the tree is not lighter (the
        # equal-binary adversary, or a rare intermediate size where another one is ahead).
        if not b - a > 1e-9:
            return None
        why = (
            f"After move {n} the tree weighs {a:.4f} with {m.n_leaves} leaves; the equal-binary "
            f"game weighs w·φ_γ({m.n_leaves}) = {b:.4f} there: {sig(b - a)} more."
        )
        text = (
            f"After move {n}, how much lighter is the tree than the equal-binary game at the "
            f"same number of leaves? (the tree weighs {float(now.total):.4f} now)"
        )
        return drop_question(PAGE, t, kind, b, a, rng, text=text, why=why)

    return collect(
        PAGE,
        t,
        seed,
        (("leaf", leaf), ("arity", arity), ("weight_drop", weight_drop), ("gap", gap)),
    )


def question(states: Sequence[GameState], t: int, *, seed: int = 0) -> Question | None:
    """The one question the page asks before move ``t + 1``: drawn (by ``seed`` and ``t``)
    from :func:`all_questions`, so a class that shares a seed sees the same.

    Parameters
    ----------
    states, t, seed
        As :func:`all_questions`'s.

    Returns
    -------
    Question or None
        ``None`` when there is no next move to ask about (or nothing to ask).

    Raises
    ------
    ValueError
        For a seed that is not an integer ≥ 0.
    """
    return draw(all_questions(states, t, seed=seed), seed=seed)
