"""Presets and challenges of the Weight Distribution Game page (Hatano, section 4);
data only: the page loads them through its registry row.

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo (:class:`ui.guides.Guide`). Every number quoted in a comment is
checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a number fails
a test.
"""

from __future__ import annotations

from ui.guides import Guide

#: The watch mode's worst-case adversary, by its label on the page (the radio's option).
_EQUAL = "equal binary splits (Theorem 3's worst case)"
PRESETS: dict[str, Guide] = {
    "worst_case": Guide(
        title="Theorem 3's worst case (watch, s = 16, γ = 0.1)",
        comment="Equal binary splits against the max-weight player: every move keeps 0.9 of "
        "the heaviest leaf, and the tree ends at exactly φ_0.1(16) = 0.6561 — the curve "
        "touches the bound.",
        state=dict(mode="Watch", s=16, gamma=0.1, watch_adv=_EQUAL, watch_seed=0),
    ),
    "lemma9": Guide(
        title="Lemma 9: trade a 4-way split for binary splits (s = 8, γ = 0.1)",
        comment="You played a 4-way split with equal shares, then equal halves: the tree ends "
        "at 0.72. Under 'Hatano's Lemma 9', replace node #0 by binary splits: seven equal "
        "halves end at φ_0.1(8) = 0.729 — the weight rises. Lemma 9 says it never falls.",
        state=dict(
            mode="You are the adversary",
            s=8,
            gamma=0.1,
            mv="0-4-0.25_0.25_0.25_0.25;1-2-0.5_0.5;2-2-0.5_0.5;3-2-0.5_0.5;4-2-0.5_0.5",
        ),
    ),
    "random": Guide(
        title="A random adversary does worse (watch, s = 16, γ = 0.1)",
        comment="Random k and random shares: with seed 0 the tree ends at 0.569, below "
        "φ_0.1(16) = 0.6561. Try other seeds: none ends above φ.",
        state=dict(mode="Watch", s=16, gamma=0.1, watch_adv="random k and shares", watch_seed=0),
    ),
}
CHALLENGES: dict[str, Guide] = {
    "beat_phi": Guide(
        title="As the adversary, can you end heavier than φ_γ(s)?",
        comment="No: Theorem 3 says the max-weight player keeps the tree at most "
        "φ_γ(s) = 0.729 for s = 8, γ = 0.1, whatever you do, and equal binary splits reach "
        "it exactly (shown here). Wider or unequal splits end at or below it.",
        state=dict(mode="Watch", s=8, gamma=0.1, watch_adv=_EQUAL, watch_seed=0, round=99),
    ),
}
