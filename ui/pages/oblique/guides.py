"""Presets and challenges of the boosted oblique trees page (G1: AdaBoost, the
Kearns–Mansour tree, BoostODT); data only: the page loads them through its registry row.

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo (:class:`ui.guides.Guide`). Every number quoted in a comment is
checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a number fails
a test.
"""

from __future__ import annotations

from ui.guides import Guide

_PRESETS: dict[str, dict] = {  # Guide keyword arguments, one dict per preset
    "diag_xor": dict(
        title="Oblique nodes beat axis-parallel ones (diagonal XOR)",
        comment="The classes meet along the two diagonals. With 3 internal nodes, BoostODT's "
        "boosted-stump separators follow the diagonals (test error about 0.11) while the "
        "Kearns–Mansour tree and scikit-learn's tree with the same 4 leaves are stuck near "
        "0.28: their single stumps can only cut the square into boxes. Compare them in the "
        "'Same size, axis-parallel' table.",
        state=dict(
            src="Generated",
            data="diagonal_xor",
            n=500,
            noise=0.0,
            pos=0.5,
            flip=0.0,
            test=0.3,
            seed=1,
            T2=3,
            T1=10,
            learner="stumps (the paper)",
            rule="breadth-first (complete tree)",
            inner=False,
        ),
    ),
    "band": dict(
        title="A tilted band: staircases of boosted stumps (band)",
        comment="A band at 30 degrees needs two parallel oblique lines. Each BoostODT node "
        "draws a staircase of 10 stumps along it; with 5 nodes its test error is about 0.19 "
        "against about 0.28 for the Kearns–Mansour tree with the same 6 leaves. Step through "
        "the stumps inside the nodes (sidebar) to watch a staircase being built.",
        state=dict(
            src="Generated",
            data="band",
            n=500,
            noise=0.0,
            pos=0.5,
            flip=0.0,
            test=0.3,
            seed=0,
            T2=5,
            T1=10,
            learner="stumps (the paper)",
            rule="breadth-first (complete tree)",
            inner=False,
        ),
    ),
    "hyperplane": dict(
        title="True oblique lines, and where they fail (hyperplane learner)",
        comment="With real-valued weak hypotheses π(x_f − θ), LS is affine: each node is one "
        "straight line, and on this seed two lines nearly solve the diagonal XOR (test error "
        "about 0.07). Now change the seed to 0: the root's line points in the direction of "
        "the class means, which carry no information for a symmetric XOR, and the error "
        "stays near 0.24. AdaBoost_R takes the weak hypothesis of largest edge |μ| each "
        "round (a greedy descent of the exponential loss), not the purest split.",
        state=dict(
            src="Generated",
            data="diagonal_xor",
            n=500,
            noise=0.0,
            pos=0.5,
            flip=0.0,
            test=0.3,
            seed=1,
            T2=3,
            T1=10,
            learner="hyperplane (oblique line)",
            rule="breadth-first (complete tree)",
            inner=False,
        ),
    ),
}

PRESETS: dict[str, Guide] = {name: Guide(**p) for name, p in _PRESETS.items()}

CHALLENGES: dict[str, Guide] = {
    "hyperplane_fails": Guide(
        title="Can you find data where the hyperplane learner's root line is useless?",
        comment="The diagonal XOR with seed 0: the root's line follows the difference of the "
        "class means, which carries no information for a symmetric XOR, so BoostODT's test "
        "error stays near 0.24 (about 0.07 with seed 1).",
        state=dict(
            src="Generated",
            data="diagonal_xor",
            n=500,
            noise=0.0,
            pos=0.5,
            flip=0.0,
            test=0.3,
            seed=0,
            T2=3,
            T1=10,
            learner="hyperplane (oblique line)",
            rule="breadth-first (complete tree)",
            inner=False,
            round=99,
        ),
    ),
}
