"""Presets and challenges of the divide-and-merge page (InfoBoost, BP.InfoBoost,
DT.InfoBoost); data only: the page loads them through its registry row.

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo (:class:`ui.guides.Guide`). Every number quoted in a comment is
checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a number fails
a test.
"""

from __future__ import annotations

from ui.guides import Guide

_PRESETS: dict[str, dict] = {  # Guide keyword arguments, one dict per preset
    "overfit": dict(
        title="DT.InfoBoost overfits, BP.InfoBoost does not (blobs, noisy labels)",
        comment="Without merging the tree keeps adding leaves (97 by round 25) and fits the "
        "flipped labels: its test error climbs to 0.307, while BP.InfoBoost's bands keep at "
        "most 8 leaves in any round (5 at round 25) and a test error of 0.233. (A single "
        "seed: try others — the gap varies.)",
        state=dict(
            src="Generated",
            data="blobs",
            n=600,
            noise=0.6,
            pos=0.5,
            flip=0.1,
            test=0.25,
            seed=1,
            T=25,
            c=0.5,
            wl="H(Y|h)",
            schemes=["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"],
        ),
    ),
    "merge_all": dict(
        title="InfoBoost is 'merge all' (moons)",
        comment="With everything merged, each round's program has two leaves, the two sides "
        "of h_t, so H(Y|ℓ_t) = H(Y|h_t). Z_t equals them only while neither side is one class "
        "(Lemma 2): Π Z_t and Π H(Y|h_t) coincide in rounds 1 and 2; in rounds 3, 4, 8, 12 "
        "and 17 a side of h_t is one class, its weight is smoothed and Z_t exceeds H(Y|h_t), "
        "so at round 20 Π Z_t = 0.408 against Π H(Y|h_t) = 0.391. Without merging, Π Z_t "
        "falls much faster (0.188 against Π H(Y|h_t) = 0.375): the leaves carry information "
        "h_t alone does not.",
        state=dict(
            src="Generated",
            data="moons",
            n=400,
            noise=0.3,
            pos=0.5,
            flip=0.05,
            test=0.25,
            seed=0,
            T=20,
            c=0.5,
            wl="H(Y|h)",
            schemes=["InfoBoost", "DT.InfoBoost"],
        ),
    ),
}

PRESETS: dict[str, Guide] = {name: Guide(**p) for name, p in _PRESETS.items()}

CHALLENGES: dict[str, Guide] = {
    "few_leaves": Guide(
        title="Can merging keep the tree's accuracy with a handful of leaves?",
        comment="Nearly, on the default moons: after 20 rounds BP.InfoBoost has 6 leaves and "
        "training error 0.053, DT.InfoBoost 53 leaves and 0.047, InfoBoost's 2 leaves 0.077. "
        "On the test points BP.InfoBoost does best here (0.050, against 0.060 and 0.080).",
        state=dict(
            src="Generated",
            data="moons",
            n=400,
            noise=0.3,
            pos=0.5,
            flip=0.05,
            test=0.25,
            seed=0,
            T=20,
            c=0.5,
            wl="H(Y|h)",
            schemes=["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"],
            round=99,
        ),
    ),
    "merging_hurts": Guide(
        title="Where does merging cost accuracy?",
        comment="On XOR no single stump has an edge on its own, and merging throws away the "
        "interaction: after 20 rounds BP.InfoBoost's training error is 0.247 with 5 leaves, "
        "DT.InfoBoost's 0.113 with 63 leaves.",
        state=dict(
            src="Generated",
            data="xor",
            n=400,
            noise=0.3,
            pos=0.5,
            flip=0.05,
            test=0.25,
            seed=0,
            T=20,
            c=0.5,
            wl="H(Y|h)",
            schemes=["BP.InfoBoost", "DT.InfoBoost"],
            round=99,
        ),
    ),
}
