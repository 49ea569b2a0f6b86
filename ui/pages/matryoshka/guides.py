"""Presets and challenges of the probabilistic trees & matryoshka page (Grossmann);
data only: the page loads them through its registry row.

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo (:class:`ui.guides.Guide`). Every number quoted in a comment is
checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a number fails
a test.
"""

from __future__ import annotations

from ui.guides import Guide

#: The data and model settings every guide of the page shares (each adds its dataset and T).
_DATA = dict(
    src="Generated", n=400, noise=0.3, pos=0.5, flip=0.05, test=0.25, seed=0, tau=0.3, est="exact q"
)
PRESETS: dict[str, Guide] = {
    "chain_wins": Guide(
        title="The chain spends stumps best (circles, T = 64)",
        comment="Every point meets all 64 soft stumps in the chain, but in the tree only the "
        "stumps on its path: the greedy tree is not balanced (its leaves lie at depths 4 to "
        "21), and a training point meets 8.5 of its 64 stumps on average (the stumps split "
        "x1 34 times and x2 30 times). The chain's expected training error is 0.153, the "
        "tree's 0.265 and the matryoshka's 0.263 — the order of the paper's curves "
        "ρ^T < M2 < F at T = 64.",
        state=dict(
            _DATA,
            data="circles",
            Tw=64,
            struct=["Chain (prob. AdaBoost)", "Tree", "Matryoshka"],
        ),
    ),
    "nesting": Guide(
        title="Dolls inside dolls (moons, T = 16)",
        comment="The matryoshka is a two-node tree whose nodes are two-node trees, four levels "
        "deep; each doll is used through its exact P(H > 0). On this run its valid bound C(T) "
        "= 0.765 lies below the paper's M2 = 0.922, so the run does not contradict M2 — but it "
        "does not prove it either: the Bounds explorer shows where the nesting argument breaks. "
        "A bound says nothing about which structure errs less: compare the expected training "
        "errors, 0.215 for the matryoshka and 0.206 for the plain tree.",
        state=dict(_DATA, data="moons", Tw=16, struct=["Tree", "Matryoshka"]),
    ),
}
CHALLENGES: dict[str, Guide] = {
    "tree_beats_chain": Guide(
        title="The bounds favour the chain. Can you find data where a tree beats it?",
        comment="XOR with T = 16: the chain's expected training error is 0.531 (a weighted "
        "vote of stumps cannot express XOR), the tree's 0.247 and the matryoshka's 0.241. "
        "The bounds compare structures for the same edge per node; on XOR the chain's later "
        "stumps have almost no edge left.",
        state=dict(
            _DATA,
            data="xor",
            Tw=16,
            struct=["Chain (prob. AdaBoost)", "Tree", "Matryoshka"],
            round=99,
        ),
    ),
}
