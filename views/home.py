"""Page: what boostlab is and how to use it in class."""

import streamlit as st

from ui.widgets import page_link

st.title("boostlab: decision trees are boosting algorithms")
st.markdown(
    """
Top-down decision-tree growth, InfoBoost, branching programs and real AdaBoost are all
**boosting algorithms**: each round, a weak split or hypothesis that is only slightly better
than chance provably drives the training error down. boostlab lets you *step through the
rounds* of these algorithms on 2D data while the decision regions, the growing structure and
the theory's **bound curves** move together.
"""
)

st.subheader("Pages")
c1, c2 = st.columns(2)
with c1:
    page_link("views/topdown.py", "Top-down growth", "topdown", icon=":material/account_tree:")
    st.markdown(
        "Kearns–Mansour, Hatano's TOPDOWN-M and Mansour–McAllester side by side: how many "
        "branches should a split have? Live curves of $I(T)$, the training and test error "
        "and the bounds $e_{\\hat\\gamma}(|T|)$, $|T|^{-\\hat\\gamma}$, $s^{-\\hat\\gamma}$."
    )
    page_link("views/game.py", "Weight Distribution Game", "game", icon=":material/casino:")
    st.markdown(
        "Hatano's game behind TOPDOWN-M's bound, played by you: be the adversary against the "
        "max-weight player (or the player), and try to beat φ_γ(s) — Theorem 3 says you "
        "cannot."
    )
    page_link("views/branching.py", "Divide and merge (InfoBoost)", "branching",
              icon=":material/hub:")
    st.markdown(
        "Takimoto–Koya–Maruoka: InfoBoost grows a branching program that divides every leaf by "
        "the new stump and merges the children. Merge all (InfoBoost), merge none "
        "(DT.InfoBoost) or merge by entropy bands (BP.InfoBoost), with $\\prod Z_t$ and "
        "$\\prod H(Y|h_t)$ live."
    )
    page_link("views/matryoshka.py", "Probabilistic trees & matryoshka", "matryoshka",
              icon=":material/deployed_code:")
    st.markdown(
        "Grossmann's probabilistic boosting: soft stumps boosted as a chain, a tree, and a "
        "matryoshka of two-node trees; soft regions P(H > 0), the nested dolls, and the exact "
        "expected error against C(T), F(T, ρ̂) and the paper's M2."
    )
    page_link("views/oblique.py", "Boosted oblique trees (G1)", "oblique",
              icon=":material/call_split:")
    st.markdown(
        "Henry–Nock–Nielsen's generic greedy induction G1: AdaBoost (a path), the "
        "Kearns–Mansour tree (a tree of constant nodes) and BoostODT (AdaBoost_R inside every "
        "node) on one stepper; node boundaries, margin-error curves and Theorem 1's bound."
    )
    page_link("views/benchmark.py", "Benchmark on real data", "benchmark",
              icon=":material/leaderboard:")
    st.markdown(
        "Every algorithm against scikit-learn on twelve real datasets shipped with the app: "
        "10-fold cross-validation, paired t-tests and sign tests, and an honest verdict on "
        "each paper's claim; run a small comparison yourself."
    )
    page_link("views/bounds.py", "Bounds explorer", "bounds", icon=":material/functions:")
    st.markdown(
        "Every closed-form bound with its formula and sliders: Grossmann's Figures 2 and 3 "
        "(and where his nesting argument breaks), Hatano's ⌈log k⌉ vs Mansour–McAllester's "
        "g_γ(k), e_γ(n), φ_γ(s), InfoBoost's rounds and Takimoto's band count."
    )
with c2:
    st.markdown("**Coming next**")
    st.markdown(
        "- Presenter mode for the projector, drawing your own points, export of every figure\n"
        "- A Docker image for a class server"
    )

st.subheader("Using it in class")
st.markdown(
    """
1. Pick a dataset in the sidebar (or a **preset** at the top of a page; each comes with a
   one-line comment on what to look at).
2. Step with **◀ ▶** (or the ← → keys), or press **Play** (Space) and let the rounds run.
3. Point at the three panels: the regions and the split just made (vermillion), the tree
   (the same leaf ids as in the regions), and the curves, where measured values are solid
   and bounds are dashed.
4. The address bar always holds the whole demo: copy it to share exactly what you show.
"""
)
st.caption(
    "Sources: Kearns & Mansour (STOC 1996); Mansour & McAllester (NIPS 2000); Hatano (Theory "
    "of Computing Systems, 2004). "
    "See the README for full citations."
)
