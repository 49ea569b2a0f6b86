"""Presets and challenges of the bounds explorer; data only: the page loads them
through its registry row.

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo (:class:`ui.guides.Guide`). Every number quoted in a comment is
checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a number fails
a test.
"""

from __future__ import annotations

from ui.guides import Guide

PRESETS: dict[str, Guide] = {
    "chain_vs_tree": Guide(
        title="The chain against the tree (ρ = 7/8, T up to 65,536)",
        comment="With ρ = 7/8 the chain's bound ρ^T is 0.118 after 16 weak classifiers; the "
        "plain tree's F(T, 7/8) is still 0.229 after 65,536: each point meets only log₂ T "
        "of the tree's classifiers.",
        state=dict(b_rhos=["7/8"], b_T=65536),
    ),
    "prices": Guide(
        title="Split prices: ⌈log₂ k⌉ against g_γ(k) (γ = 0.3)",
        comment="Hatano's price needs no γ and is a step function; Mansour–McAllester's "
        "g_γ(k) ≈ ln k depends on γ: move γ and watch only their curve move.",
        state=dict(b_gamma=0.3),
    ),
}
CHALLENGES: dict[str, Guide] = {
    "tree_needs": Guide(
        title="How many weak classifiers does the plain tree need to match what the chain "
        "reaches with 16 (ρ = 7/8)?",
        comment="About 13 million: ρ¹⁶ = 0.118, and F(T, 7/8) ≈ T^(−1/8)/Γ(7/8) only falls "
        "to 0.118 near T = 1.3·10⁷ (F(65,536) = 0.229 is as far as the slider goes).",
        state=dict(b_rhos=["7/8"], b_T=65536),
    ),
}
