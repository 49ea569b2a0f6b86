"""Guided presets and challenges of every page (data only: the pages load them).

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo. Every number quoted in a comment is checked by
``tests/test_guides.py``, so a change to an algorithm that moves a number fails a test.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Guide:
    """A prepared demo: widget state to load, and one or two lines on what to look at.

    For a challenge, ``title`` is the question a student tries to answer on their own and
    ``comment`` the answer that loading ``state`` shows.
    """

    title: str
    comment: str
    state: dict


# ------------------------------------------------------------------------------ topdown
_TOPDOWN_PRESETS = {
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

TOPDOWN = {name: Guide(**p) for name, p in _TOPDOWN_PRESETS.items()}

TOPDOWN_CHALLENGES = {
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


# ------------------------------------------------------------------------------ branching
_BRANCHING_PRESETS = {
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
        comment="With everything merged, each round's program has two leaves and H(Y|ℓ_t) = "
        "H(Y|h_t): Π Z_t and Π H(Y|h_t) coincide. Without merging, Π Z_t falls much faster "
        "than Π H(Y|h_t): the leaves carry information h_t alone does not.",
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

BRANCHING = {name: Guide(**p) for name, p in _BRANCHING_PRESETS.items()}

BRANCHING_CHALLENGES = {
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


# ------------------------------------------------------------------------------ oblique
_OBLIQUE_PRESETS = {
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
        "stays near 0.24. AdaBoost_R maximises the margin, not the split's purity.",
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

OBLIQUE = {name: Guide(**p) for name, p in _OBLIQUE_PRESETS.items()}

OBLIQUE_CHALLENGES = {
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


# ------------------------------------------------------------------------------ matryoshka
_MATRYOSHKA_DATA = dict(
    src="Generated", n=400, noise=0.3, pos=0.5, flip=0.05, test=0.25, seed=0, tau=0.3, est="exact q"
)
MATRYOSHKA = {
    "chain_wins": Guide(
        title="The chain spends stumps best (circles, T = 64)",
        comment="Every point meets all 64 soft stumps in the chain, only log₂ 64 = 6 of them "
        "in the tree: the chain's expected training error is 0.153, the tree's 0.265 and the "
        "matryoshka's 0.263 — the order of the bounds ρ^T < M2 < F.",
        state=dict(
            _MATRYOSHKA_DATA,
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
        state=dict(_MATRYOSHKA_DATA, data="moons", Tw=16, struct=["Tree", "Matryoshka"]),
    ),
}
MATRYOSHKA_CHALLENGES = {
    "tree_beats_chain": Guide(
        title="The bounds favour the chain. Can you find data where a tree beats it?",
        comment="XOR with T = 16: the chain's expected training error is 0.530 (a weighted "
        "vote of stumps cannot express XOR), the tree's 0.247 and the matryoshka's 0.241. "
        "The bounds compare structures for the same edge per node; on XOR the chain's later "
        "stumps have almost no edge left.",
        state=dict(
            _MATRYOSHKA_DATA,
            data="xor",
            Tw=16,
            struct=["Chain (prob. AdaBoost)", "Tree", "Matryoshka"],
            round=99,
        ),
    ),
}


# ------------------------------------------------------------------------------ game
_GAME_EQUAL = "equal binary splits (Theorem 3's worst case)"
GAME = {
    "worst_case": Guide(
        title="Theorem 3's worst case (watch, s = 16, γ = 0.1)",
        comment="Equal binary splits against the max-weight player: every move keeps 0.9 of "
        "the heaviest leaf, and the tree ends at exactly φ_0.1(16) = 0.6561 — the curve "
        "touches the bound.",
        state=dict(mode="Watch", s=16, gamma=0.1, watch_adv=_GAME_EQUAL, watch_seed=0),
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
GAME_CHALLENGES = {
    "beat_phi": Guide(
        title="As the adversary, can you end heavier than φ_γ(s)?",
        comment="No: Theorem 3 says the max-weight player keeps the tree at most "
        "φ_γ(s) = 0.729 for s = 8, γ = 0.1, whatever you do, and equal binary splits reach "
        "it exactly (shown here). Wider or unequal splits end at or below it.",
        state=dict(mode="Watch", s=8, gamma=0.1, watch_adv=_GAME_EQUAL, watch_seed=0, round=99),
    ),
}


# ------------------------------------------------------------------------------ bounds
BOUNDS = {
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
BOUNDS_CHALLENGES = {
    "tree_needs": Guide(
        title="How many weak classifiers does the plain tree need to match what the chain "
        "reaches with 16 (ρ = 7/8)?",
        comment="About 13 million: ρ¹⁶ = 0.118, and F(T, 7/8) ≈ T^(−1/8)/Γ(7/8) only falls "
        "to 0.118 near T = 1.3·10⁷ (F(65,536) = 0.229 is as far as the slider goes).",
        state=dict(b_rhos=["7/8"], b_T=65536),
    ),
}


# ------------------------------------------------------------------------------ benchmark
BENCHMARK = {
    "odt_vs_oc1": Guide(
        title="BoostODT against OC1, the classic oblique tree",
        comment="Wins and losses of every learner against OC1: BoostODT (stumps) wins on 8 "
        "of 12 datasets (5 significantly). It also fits 30 to 274 times faster on the five "
        "datasets with many numeric features (19 times on labor), and about as fast on the "
        "small categorical ones (see the fit-time table).",
        state=dict(bench_ref="OC1 (oblique-classifier-1, depth 3)", bench_show="mean test error"),
    ),
}
BENCHMARK_CHALLENGES = {
    "merging_claim": Guide(
        title="Is BP.InfoBoost's merging at least as accurate as InfoBoost on real data?",
        comment="Not here: 2 wins, 2 ties and 8 losses against InfoBoost (merge all); the "
        "significant losses (paired t, 5 %) are breast_cancer and vote — vote is shown "
        "below — against one significant win (monk2). Merging does avoid DT.InfoBoost's "
        "overfitting (the next claim).",
        state=dict(bench_ref="InfoBoost (merge all)", bench_ds="vote"),
    ),
}
