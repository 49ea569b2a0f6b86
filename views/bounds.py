"""Page: the bounds explorer — closed forms of docs/theory.md §5, no data."""

from __future__ import annotations

import streamlit as st

from ui import lecture, pages, params, theory_doc
from ui.charts import chart_with_numbers
from ui.header import page_header, preset_from_url, presets_and_challenges
from ui.pages.bounds import export, numbers
from ui.pages.bounds import figures as bf

RHOS = {"31/32": 31 / 32, "7/8": 7 / 8, "3/4": 3 / 4, "1/2": 1 / 2, "1/4": 1 / 4}
CONFIG = {"displaylogo": False}


PAGE = pages.page("bounds")
GUIDES, CHALLENGES = PAGE.presets, PAGE.challenges


def _grossmann() -> None:
    st.markdown(
        "A weak learner with edge ε (error ½ − ε) gives every node $Z_+ + Z_- \\le "
        "\\rho = \\sqrt{1-4\\varepsilon^2}$. Grossmann compares three ways of spending $T$ weak "
        "classifiers: a chain (probabilistic AdaBoost), a greedily grown tree, and the "
        "2-matryoshka — a tree of two nodes, each a tree of two nodes, and so on."
    )
    picked = st.multiselect(
        "ρ",
        **PAGE.param("b_rhos").multi(),
        help="The per-node bound; ρ = 31/32 is ε ≈ 0.12, ρ = 1/4 is ε ≈ 0.48.",
    )
    rhos = [RHOS[r] for r in picked] or [7 / 8]
    st.markdown("##### Figure 2, left: chain, tree and matryoshka")
    st.latex(
        # ≤: M2 = F at T = 2 (one level), and all three are ρ at T = 1
        r"\rho^T\;\le\;M_2(T,\rho)=\underbrace{F(2,F(2,\dots F(2,\rho)))}_{L=\log_2 T}"
        r"\;\le\;F(T,\rho)=\prod_{t=0}^{T-1}\frac{t+\rho}{t+1}"
        r"=\frac{\Gamma(T+\rho)}{\Gamma(T+1)\Gamma(\rho)}\approx\frac{T^{\rho-1}}{\Gamma(\rho)}"
    )
    chart_with_numbers(bf.grossmann_fig2_left(rhos), key="fig2l", config=CONFIG)
    st.caption(
        "Dotted: ρ^T (probabilistic AdaBoost, Eq. (3)); dashed: M2 (2-matryoshka, "
        "§5.3); solid: F (the plain tree, Eq. (9)). At T = 2 the matryoshka is the plain "
        "tree (M2 = F); from T = 4 on the three are strictly ordered. The tree needs "
        "exponentially more "
        "weak classifiers than the chain: in a balanced tree each point only meets log₂ T "
        "of them (Grossmann's argument; a greedy tree need not be balanced: see the "
        "matryoshka page's preset 'The chain spends stumps best')."
    )

    st.markdown("##### Figure 2, right: a tree of trees")
    T = st.select_slider(
        "T",
        **PAGE.param("b_T").select_slider(),
        help="Total number of weak classifiers.",
    )
    st.latex(
        r"F\!\left(\tfrac{T}{T_1},\,F(T_1,\rho)\right)\quad\text{(paper, Eq. (10))}"
        r"\qquad\text{vs}\qquad F\!\left(\tfrac{T}{T_1},\,2\sqrt{C_1(1-C_1)}\right),\;"
        r"C_1=\min(F(T_1,\rho),\tfrac12)"
    )
    chart_with_numbers(bf.grossmann_fig2_right(T, rhos), key="fig2r", config=CONFIG)
    example = numbers.nesting_example()
    st.warning(
        "**Where the paper's argument breaks.** Eq. (10) uses a sub-tree's *error bound* "
        "F(T₁, ρ) as the ρ of the outer tree. But the outer bound needs Z₊ + Z₋ of the node's "
        "classifier, and a classifier of weighted error C₁ only guarantees "
        "Z₊ + Z₋ ≤ 2√(C₁(1−C₁)), which is larger than C₁. The dashed curves are what follows: "
        "far weaker. For ρ = 7/8 and T = 1024: "
        f"paper's M2 = {example.m2:.3f}, plain tree F = "
        f"{example.f_tree:.3f}, valid composition with T₁ = 32: "
        f"{example.valid_nested:.3f}. The solid curves reproduce the paper's "
        "figure as the paper's claim.",
        icon=":material/report:",
    )

    st.markdown("##### Figure 3: deeper nesting (the paper's claim)")
    rho3 = st.select_slider("ρ for Figure 3", **PAGE.param("b_rho3").select_slider())
    st.latex(
        r"F\bigl(T^{1/L},F(T^{1/L},\dots F(T^{1/L},\rho))\bigr)"
        r"\quad(L\text{ levels, Eq. (11)})"
    )
    chart_with_numbers(bf.grossmann_fig3([1024, 65536], RHOS[rho3]), key="fig3", config=CONFIG)
    st.caption(
        "The paper's bound keeps falling with the nesting level, even past L = log₂ T "
        "where sub-trees have fewer than two nodes (F is defined for real T) — a hint "
        "that the composition is not a real bound (see the warning above)."
    )

    st.markdown("##### How fast collapsing pays (§5.4)")
    st.latex(
        r"\frac{\partial}{\partial t}F\!\left(\tfrac{t}{T},C(T)\right)\Big|_{t=T}"
        r"=\frac{C(T)}{T}\left(\gamma_E+\psi(C(T))+\frac{1}{C(T)}-1\right)"
    )
    c1, c2 = st.columns(2)
    C = c1.slider("C(T)", **PAGE.param("b_C").number())
    Tn = c2.slider("T", **PAGE.param("b_Tn").number())
    st.metric(
        "rate of the collapsed (matryoshka) tree",
        f"{numbers.matryoshka_rate(C, Tn):.3g}",
        help="Negative: adding weak classifiers to the collapsed tree lowers its bound "
        "at this rate per classifier.",
    )


def _top_down() -> None:
    st.markdown("##### The price of a k-way split")
    c1, c2 = st.columns(2)
    gamma = c1.slider(
        "γ",
        **PAGE.param("b_gamma").number(),
        help="The weak-learning advantage: every chosen split removes at least "
        "this fraction of its leaf's impurity.",
    )
    size = c2.select_slider(
        "target size s",
        **PAGE.param("b_s").select_slider(),
        help="The number of leaves the tree is grown to (the leaf budget).",
    )
    st.latex(
        r"\lceil\log_2 k\rceil\quad\text{vs}\quad g_\gamma(k)=\frac{1-e_\gamma(k)}{\gamma}"
        r"\approx\ln k,\qquad e_\gamma(n)=\prod_{i=1}^{n-1}\Bigl(1-\frac{\gamma}{i}\Bigr)"
    )
    chart_with_numbers(bf.split_prices(gamma), key="prices", config=CONFIG)
    st.caption(
        "Hatano's ⌈log₂ k⌉ is a step function that needs no γ; Mansour–McAllester's "
        "g_γ(k) is smooth but needs γ in advance. Both grow like log k: a wide split "
        "must gain about log k times a binary one."
    )

    st.markdown("##### Where each criterion admits a k-way split")
    st.latex(
        r"\text{Hatano: }k\le\frac{s}{|T|}\qquad\text{Mansour–McAllester: }"
        r"|T|<\frac{e_\gamma(k)\,s\,\gamma}{2k}\iff k<\frac{s}{|T|}\cdot"
        r"\frac{\gamma\,e_\gamma(k)}{2}"
    )
    left, right = st.columns(2)
    with left:
        chart_with_numbers(bf.admissible_arity_figure(size, gamma), key="arity", config=CONFIG)
    with right:
        chart_with_numbers(
            bf.multiway_budget_figure(size, gamma), key="arity_budget", config=CONFIG
        )
    s3 = numbers.mansour_mcallester_budget(3, gamma)
    st.caption(
        f"Left: the widest split each rule allows as the tree grows (s = {size}, γ = {gamma:g}); "
        f"right: the budget a rule needs before it ever allows a 3- or 4-way split. "
        f"At γ = {gamma:g} Mansour–McAllester needs s ≥ {s3:.0f} for k = 3 (Hatano: s ≥ 3). "
        "At the top-down page's largest budget, s = 64, it allows a 3-way split only for "
        "γ ≥ 0.12 and a 4-way one only for γ ≥ 0.18."
    )

    st.markdown("##### Size bounds: Hatano's φ_γ is the tightest")
    st.latex(
        r"I(T)\le\varphi_\gamma(s)=(1-\gamma)^i\Bigl(1-\frac{s'\gamma}{2^i}\Bigr),"
        r"\; s=2^i+s'\;\;\le\; e_\gamma(s)\;\le\; s^{-\gamma}"
    )
    chart_with_numbers(bf.size_bounds_at(gamma, size), key="sizes", config=CONFIG)
    phi, e_s, pw = numbers.size_bounds(size, gamma)
    st.caption(
        f"At s = {size}, γ = {gamma:g}: φ_γ(s) = {phi:.3f}, e_γ(s) = {e_s:.3f}, "
        f"s^−γ = {pw:.3f}. Hatano proves Theorem 4 through φ_γ(s), then loosens it to s^−γ; "
        "for a binary run φ_γ(|T|) holds at every round. Example: the top-down 'multiway' "
        "preset (s = 8, γ̂ = 0.258) shows s^−γ̂ = 0.585, but φ_γ̂(8) = 0.409."
    )

    st.markdown("##### From weak learning to advantage")
    c1, c2 = st.columns(2)
    delta = c1.select_slider(
        "edge δ of a weak learner",
        **PAGE.param("b_delta").select_slider(),
        help="A classical weak learner: for every weighting of the data "
        "some binary split has error at most ½ − δ.",
    )
    eps_w = c2.select_slider(
        "target error ε ",
        **PAGE.param("b_eps_w").select_slider(),
        help="The training error the tree must reach.",
    )
    g = numbers.weak_learning_advantage(delta)
    g_tight = numbers.weak_learning_advantage_tight(delta)
    st.latex(
        r"\Pr_{\text{balanced}}[h\ne y]\le\tfrac12-\delta\;\Rightarrow\;"
        r"\Delta\ge\underbrace{\bigl(1-\sqrt{1-4\delta^2}\bigr)}_{\text{exact worst case}}I(q)"
        r"\;\ge\;\underbrace{\frac{\delta^2}{16}}_{\text{the papers' constant}}I(q)"
        r"\quad(I=2\sqrt{q(1-q)});\qquad"
        r"s^{-\gamma}\le\varepsilon\text{ once }s\ge(1/\varepsilon)^{1/\gamma}"
    )
    rows = (
        (
            "the papers' constant γ = δ²/16",
            g,
            "Kearns–Mansour's lemma as the papers state it (Hatano, Lemma 1; "
            "Mansour–McAllester, Lemma 3.1): valid, but loose.",
            "γ",
        ),
        (
            "exact worst case γ* = 1 − √(1 − 4δ²)",
            g_tight,
            "Our derivation, not the papers': the smallest advantage of any split whose "
            "class-balanced error is ≤ ½ − δ, on any leaf; the symmetric split attains it "
            "(docs/theory.md §0.1).",
            "γ*",
        ),
    )
    for label, adv, why, sym in rows:
        m1, m2, m3, m4 = st.columns(4)
        m1.metric(label, f"{adv:.4g}", help=why)
        for col, bound, name in (
            (m2, "power", "s^−γ"),
            (m3, "e", "e_γ(s)"),
            (m4, "phi", "φ_γ(s)"),
        ):
            col.metric(
                f"leaves for {name.replace('γ', sym)} ≤ ε",
                numbers.leaves_for_error(eps_w, adv, bound),
            )
    chart_with_numbers(bf.weak_learning_sizes_figure(eps_w, delta), key="weak", config=CONFIG)
    st.caption(
        "γ = δ²/16 is the papers' constant (Mansour–McAllester, Lemma 3.1; Hatano, Lemma 1), "
        "a valid but loose lower bound on the advantage. The exact worst case, for the index "
        "2√(q(1−q)) and a split whose error under the leaf's class-balanced distribution is "
        "at most ½ − δ, is γ* = 1 − √(1 − 4δ²) ≥ 2δ² — our derivation, not the papers' "
        f"(docs/theory.md §0.1). At δ = {delta:g}, ε = {eps_w:g}: γ* = {g_tight:.4g} "
        f"against {g:.4g}, so s^−γ ≤ ε needs {numbers.leaves_for_error(eps_w, g_tight, 'power')} "
        f"leaves instead of {numbers.leaves_for_error(eps_w, g, 'power')}. Either way the "
        "guarantee is (1/ε)^O(1/γ) leaves; the other pages measure γ̂ on the data, which is "
        "usually far larger."
    )


def _infoboost() -> None:
    st.markdown("##### Rounds InfoBoost needs")
    eps = st.select_slider(
        "target error ε",
        **PAGE.param("b_eps").select_slider(),
    )
    st.latex(
        r"\Pr_U(\mathrm{sign}F_T\ne y)\le\prod_t H_{D_t}(Y\mid h_t)\le(1-\gamma)^T"
        r"\le e^{-\gamma T}\le\varepsilon"
        r"\quad\text{once}\quad T=\frac1\gamma\ln\frac1\varepsilon"
    )
    chart_with_numbers(bf.infoboost_rounds_figure(eps), key="ib", config=CONFIG)
    st.markdown("##### Takimoto's band count: leaves after merging")
    st.latex(
        r"a=\frac{2c}{1-c},\quad "
        r"\varepsilon_j=\Bigl(\frac{1+a}{a}\Bigr)^{j-1}\frac{c\gamma}{a},"
        r"\quad K=\min\{j:\varepsilon_j\ge1\},\qquad |L_t|\le 4K"
    )
    chart_with_numbers(bf.band_count_figure([0.25, 0.5, 0.75, 0.9]), key="bands", config=CONFIG)
    st.caption(
        "Fewer bits of information per round (small γ_t) need more bands, but only "
        "logarithmically many; c close to 1 keeps more of the divided leaves' progress "
        "at the price of more leaves."
    )


def render() -> None:
    preset_from_url("bounds_preset", GUIDES, first_round=0)
    header = page_header(
        "Bounds explorer",
        "Every bound of the app as a closed form, with its formula: move the sliders "
        "and compare. Nothing here is computed from data.",
        page="bounds",
    )
    presets_and_challenges("bounds_preset", GUIDES, CHALLENGES)
    lecture.scroll_regions()  # a long formula on a phone scrolls sideways: by keyboard too
    tabs = st.tabs(
        [
            "Probabilistic trees & matryoshka (Grossmann)",
            "Top-down growth (Hatano, Mansour–McAllester)",
            "InfoBoost & merging (Takimoto et al.)",
        ]
    )
    with tabs[0]:
        theory_doc.link(
            "3", "The statements and where the nesting argument breaks: docs/theory.md §3"
        )
        _grossmann()
    with tabs[1]:
        theory_doc.link("1", "The theorems behind these bounds: docs/theory.md §1")
        _top_down()
    with tabs[2]:
        theory_doc.link("2", "Theorem 3 and the band count: docs/theory.md §2")
        _infoboost()
    if header.export_open:  # made only while the menu is open
        ss = st.session_state
        snippet = export.snippet(
            ss.get("b_rhos", list(PAGE.param("b_rhos").default)),
            ss.get("b_T", PAGE.param("b_T").default),
            ss.get("b_rho3", PAGE.param("b_rho3").default),
            ss.get("b_C", PAGE.param("b_C").default),
            ss.get("b_Tn", PAGE.param("b_Tn").default),
            ss.get("b_gamma", PAGE.param("b_gamma").default),
            ss.get("b_eps", PAGE.param("b_eps").default),
        )
        with header.export:
            st.markdown("**Python that prints these bounds with `boostcore.bounds`**")
            st.download_button(
                "Python script (.py)",
                snippet,
                file_name="boostlab_bounds.py",
                mime="text/x-python",
                key="bounds_snippet",
                on_click="ignore",
            )
            with st.expander("Show the script"):
                st.code(snippet, language="python")


params.page_run(PAGE, render)
