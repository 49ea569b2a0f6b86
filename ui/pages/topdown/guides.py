"""Presets and challenges of the top-down growth page (Kearns–Mansour, Hatano's
TOPDOWN-M, Mansour–McAllester); data only: the page loads them through its registry row.

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo (:class:`ui.guides.Guide`). Every number quoted in a comment is
checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a number fails
a test.
"""

from __future__ import annotations

from ui.guides import Guide

_PRESETS: dict[str, dict] = {  # Guide keyword arguments, one dict per preset
    "multiway": dict(
        title="Multi-way splits pay off (stripes)",
        comment="Four stripes along x1: one 4-way split nearly solves it. Hatano's "
        "gain/⌈log₂ k⌉ takes it in round 1. Mansour-McAllester's rule |T| < e_γ(k)·s·γ/(2k) "
        "admits a 3-way split at γ = 0.1 only from s = 71 leaves (see the Bounds explorer's "
        "'where each criterion admits a k-way split'), so at s = 8 it has to grow a binary "
        "tree.",
        state=dict(
            src="Generated",
            data="stripes",
            n=400,
            noise=0.05,
            pos=0.5,
            flip=0.0,
            test=0.25,
            seed=0,
            s=8,
            index="km",
            k=4,
            gamma=0.1,
            leaf="largest weight",
            crit=["Hatano", "Mansour-McAllester", "Naive"],
        ),
    ),
    "mm_wide": dict(
        title="Mansour-McAllester's rule at a larger γ (stripes, s = 64)",
        comment="With γ = 0.2 and s = 64, Mansour-McAllester's rule admits a 4-way split only "
        "while |T| = 1: their run takes one at the root and grows binary after it. Hatano's "
        "k ≤ s/|T| admits 4-way splits up to |T| = 16, and his run keeps taking them. The "
        "Bounds explorer plots both rules against |T|.",
        state=dict(
            src="Generated",
            data="stripes",
            n=400,
            noise=0.2,
            pos=0.5,
            flip=0.05,
            test=0.25,
            seed=0,
            s=64,
            index="km",
            k=4,
            gamma=0.2,
            leaf="largest weight",
            crit=["Hatano", "Mansour-McAllester"],
        ),
    ),
    "naive": dict(
        title="The naive criterion wastes the budget (spirals)",
        comment="Raw gain always prefers the widest split, so the naive run spends its 16 leaves "
        "in five 4-way splits near the root and ends with I(T) = 0.414, training error 0.177 "
        "and test error 0.17, against 0.280, 0.057 and 0.08 for Hatano's thirteen mostly "
        "binary splits. Step to the end and compare the table below the curves.",
        state=dict(
            src="Generated",
            data="spirals",
            n=400,
            noise=0.2,
            pos=0.5,
            flip=0.0,
            test=0.25,
            seed=1,
            s=16,
            index="km",
            k=4,
            gamma=0.1,
            leaf="largest weight",
            crit=["Hatano", "Naive"],
        ),
    ),
    "loose": dict(
        title="When the bound is loose (XOR, binary)",
        comment="On XOR the first split of any axis-parallel tree has almost no advantage, so γ̂ "
        "is tiny and e_γ̂(|T|) stays near 1 even when the tree ends up nearly perfect: the "
        "bound only uses the worst round.",
        state=dict(
            src="Generated",
            data="xor",
            n=400,
            noise=0.2,
            pos=0.5,
            flip=0.0,
            test=0.25,
            seed=0,
            s=16,
            index="km",
            k=2,
            gamma=0.1,
            leaf="largest weight",
            crit=["Hatano"],
        ),
    ),
}

PRESETS: dict[str, Guide] = {name: Guide(**p) for name, p in _PRESETS.items()}

CHALLENGES: dict[str, Guide] = {
    "naive_wins": Guide(
        title="Can you make the naive criterion beat Hatano's?",
        comment="Yes: on the default moons with a budget of s = 8 leaves, the naive run ends "
        "with training error 0.053 and test error 0.03, Hatano's with 0.117 and 0.16. "
        "Hatano's criterion guarantees the bound I(T) ≤ s^−γ in the worst case; it does "
        "not promise to win on every dataset.",
        state=dict(
            src="Generated",
            data="moons",
            n=400,
            noise=0.3,
            pos=0.5,
            flip=0.05,
            test=0.25,
            seed=0,
            s=8,
            index="km",
            k=4,
            gamma=0.1,
            leaf="largest weight",
            crit=["Hatano", "Naive"],
            round=99,
        ),
    ),
}
