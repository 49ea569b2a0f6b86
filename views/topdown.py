"""Page: multi-way top-down growth — Hatano vs Mansour–McAllester vs naive (SPEC §1.1–1.4)."""

from __future__ import annotations

import time

import streamlit as st

from boostcore.impurity import INDEX, INDEX_LABELS
from boostcore.topdown import CRITERION_LABELS
from ui import compute, diagrams, exports, figures, guides, tables
from ui.classroom import (
    chart,
    data_code,
    export_run,
    page_header,
    presenting,
    preset_from_url,
    presets_and_challenges,
    structure,
    svg_download_button,
)
from ui.widgets import dataset_sidebar, stepper

SHORT = {"hatano": "Hatano", "mansour_mcallester": "Mansour-McAllester", "naive": "Naive"}
FROM_SHORT = {v: k for k, v in SHORT.items()}
RULES = {"largest weight": "max_weight", "largest gain": "max_gain"}

GUIDES, CHALLENGES = guides.TOPDOWN, guides.TOPDOWN_CHALLENGES


def _sidebar_params() -> dict:
    sb = st.sidebar
    sb.header("Tree growth")
    # URL-bound widgets store their shown label in the URL, so their options are short words.
    crit = sb.multiselect(
        "Criteria side by side", list(SHORT.values()), default=list(SHORT.values()),
        key="crit", bind="query-params",
        help="Each criterion grows its own tree on the same data with the same leaf budget. "
        "Hatano: gain/⌈log₂ k⌉; Mansour-McAllester: gain/g_γ(k); Naive: raw gain.",
    )
    size = sb.slider("Leaf budget s", 2, 64, 16, key="s", bind="query-params",
                     help="The target number of leaves |T| = s of every tree.")
    max_arity = sb.slider("Largest arity K", 2, 6, 4, key="k", bind="query-params",
                          help="Splits may have 2 … K branches (2 = binary trees only).")
    index = sb.selectbox("Index function I", list(INDEX), key="index", bind="query-params",
                         help="The impurity whose weighted sum I(T) bounds the training error: "
                         + "; ".join(f"{k} = {v}" for k, v in INDEX_LABELS.items()) + ".")
    sb.caption(f"I = {INDEX_LABELS[index]}")
    gamma = sb.slider("γ for Mansour–McAllester", 0.01, 0.5, 0.1, step=0.01, key="gamma",
                      bind="query-params",
                      help="Their split price g_γ(k) and acceptability rule need the weak-learning "
                      "advantage γ in advance (Hatano's criterion does not).")
    rule = sb.radio("Leaf to expand", list(RULES), key="leaf", bind="query-params",
                    help="Largest weight p̂·I(q̂) is the theorems' rule; largest gain is "
                    "scikit-learn's best-first growth.")
    return dict(crit=[FROM_SHORT[c] for c in crit], size=size, max_arity=max_arity,
                index=index, gamma=gamma, leaf_rule=RULES[rule])


def _theory() -> None:
    with st.expander("The theory on this page: Kearns–Mansour, Hatano's Theorem 4, "
                     "Mansour–McAllester"):
        st.markdown(
            "Every index function satisfies $I(q) \\ge \\min(q, 1-q)$, so the training error "
            "is at most the tree's index $I(T)=\\sum_\\ell \\hat p_\\ell I(\\hat q_\\ell)$. "
            "The weight of a leaf is $w_\\ell=\\hat p_\\ell I(\\hat q_\\ell)$; a split of "
            "advantage $\\gamma$ removes at least $\\gamma w_\\ell$ from $I(T)$."
        )
        st.markdown("**Binary growth (Kearns–Mansour)** — expanding the heaviest leaf:")
        st.latex(r"\hat\varepsilon(T)\;\le\; I(T)\;\le\; e_\gamma(|T|)=\prod_{i=1}^{|T|-1}"
                 r"\Bigl(1-\frac{\gamma}{i}\Bigr)\;\le\;|T|^{-\gamma}")
        st.markdown("**TOPDOWN-M (Hatano 2004, Fig. 2)** chooses, among *acceptable* splits,")
        st.latex(r"h=\arg\max_h \frac{I(\hat q_\ell)-I_{S_\ell}(T_h)}{\lceil\log_2 |R_h|\rceil},"
                 r"\qquad h \text{ acceptable} \iff |R_h|=2 \;\text{ or }\; 2<|R_h|\le s/|T|")
        st.markdown("**Theorem 4** — if every binary split has advantage ≥ γ, the final tree "
                    "of size $s$ satisfies")
        st.latex(r"\hat\varepsilon(T)\;\le\; I(T)\;\le\; s^{-\gamma}")
        st.markdown(
            "Here γ̂ is measured: the smallest $\\Delta_t/(\\lceil\\log_2 k_t\\rceil "
            "I(\\hat q_{\\ell_t}))$ over the rounds so far. The bound is guaranteed for the "
            "**final** tree (the ★ on the curves); at intermediate sizes only the binary form "
            "above is a theorem, so for multi-way runs the dashed curves are a reference."
        )
        st.markdown("**Mansour–McAllester** price a $k$-way split at $g_\\gamma(k)$ and need γ "
                    "in advance:")
        st.latex(r"g_\gamma(k)=\frac{1-e_\gamma(k)}{\gamma}\approx \ln k,\qquad "
                 r"\text{acceptable} \iff k=2 \;\text{ or }\; "
                 r"|T|<\frac{e_\gamma(k)\,s\,\gamma}{2k}")
        st.markdown(
            "Their Theorem 4.1 gives $I(T)\\le e_\\gamma(|T|)$ for the final tree when every "
            "chosen split is γ-boosting ($\\Delta/g_\\gamma(k)\\ge\\gamma I(\\hat q_\\ell)$). "
            "Hatano's ⌈log k⌉ makes the same guarantee without knowing γ. "
            "The **naive** criterion (raw gain) has no such guarantee: wide splits always gain "
            "at least as much, so it spends the budget early."
        )


def render() -> None:
    preset_from_url("preset_pick", GUIDES, first_round=0)
    header = page_header(
        "Top-down growth: how many branches should a split have?",
        "The same data and the same leaf budget *s*, grown by different criteria. A wide split "
        "spends more of the budget, so it must gain more: Hatano divides the gain by "
        "⌈log₂ k⌉, Mansour–McAllester by g_γ(k), the naive criterion not at all. "
        "Step through the rounds and watch the regions, the tree and the bound curves move "
        "together.",
        page="topdown",
    )
    choice = dataset_sidebar()
    params = _sidebar_params()
    ds = choice.dataset

    presets_and_challenges("preset_pick", GUIDES, CHALLENGES, first_round=0)

    if not params["crit"]:
        st.warning("Choose at least one criterion in the sidebar.")
        return
    runs = {}
    started = time.perf_counter()
    with st.spinner("Growing the trees…"):
        for c in params["crit"]:
            runs[c] = compute.topdown_run(
                ds, choice.key, params["size"], params["index"], c, params["max_arity"],
                params["gamma"] if c == "mansour_mcallester" else None, params["leaf_rule"],
            )
    elapsed = time.perf_counter() - started
    n_steps = max(len(r) for r in runs.values())
    st.caption(
        f"{ds.n_train} training and {ds.n_test} test points · computed in {elapsed:.2f} s "
        "(cached: stepping only redraws)."
    )

    def show(t: int) -> None:
        current = {SHORT[c]: steps[min(t, len(steps) - 1)] for c, steps in runs.items()}
        cols = st.columns(len(runs))
        for col, (c, steps) in zip(cols, runs.items()):
            step = current[SHORT[c]]
            with col:
                st.subheader(SHORT[c], help=CRITERION_LABELS[c])
                chart(
                    figures.tree_regions_figure(step, ds), key=f"regions_{c}",
                    config={"displaylogo": False},
                )
                if t >= len(steps):
                    st.caption(f"Finished at round {len(steps) - 1}.")
                if step.stop_reason:
                    st.warning(step.stop_reason)
                else:
                    st.caption(step.message)
                if step.note:
                    st.warning(step.note)
        cols = st.columns(len(runs))
        for col, c in zip(cols, runs):
            step = current[SHORT[c]]
            with col:
                structure(
                    diagrams.tree_digraph(step, index=params["index"],
                                          feature_names=ds.feature_names,
                                          compact=step.tree.n_leaves > 16),
                    width="stretch",
                )
        cols = st.columns(len(runs))
        for col, (c, steps) in zip(cols, runs.items()):
            with col:
                chart(
                    figures.topdown_curves_figure(
                        steps, t, size=params["size"],
                        title="I(T), errors and bounds vs leaves |T|",
                        show_mm=c == "mansour_mcallester",
                        final_is_theorem=(c != "naive" or params["max_arity"] == 2)
                        and params["leaf_rule"] == "max_weight",
                    ),
                    key=f"curves_{c}", config={"displaylogo": False},
                )
                last = current[SHORT[c]].metrics
                if c == "mansour_mcallester" and last.mm_gamma_boosting is False:
                    st.warning(
                        f"Not γ-boosting for γ = {params['gamma']}: some chosen split had "
                        "gain/g_γ(k) < γ·I, so Theorem 4.1's bound is not guaranteed."
                    )
                if c == "naive" and params["max_arity"] > 2:
                    st.caption("Naive criterion: no theorem covers wide splits chosen by raw "
                               "gain once they break Hatano's rule k ≤ s/|T|, so the ★ and the "
                               "dashed curves are a reference here.")
                elif params["leaf_rule"] != "max_weight":
                    st.caption("Largest-gain leaf rule: the bounds assume the largest-weight "
                               "leaf, so they are a reference here.")
                elif not last.binary_guarantee:
                    st.caption("Multi-way splits: only the final-tree bound ★ is a theorem; "
                               "the dashed curves are a reference.")
        st.markdown("#### Why this split? The best candidate of each arity at the expanded leaf")
        frame = tables.candidates_frame(current, ds.feature_names)
        if len(frame):
            st.dataframe(
                frame, hide_index=True,
                column_config={k: st.column_config.NumberColumn(format="%.4f") for k in
                               ("gain Δ", "advantage Δ/I", "price", "score Δ/price")},
            )
        else:
            st.caption("No split in this round (round 0 is the single-leaf tree).")
        st.markdown("#### This round in numbers")
        st.dataframe(tables.metrics_frame(current), hide_index=True,
                     column_config={k: st.column_config.NumberColumn(format="%.4f") for k in
                                    ("train error", "test error", "I(T)", "γ̂", "e_γ̂(|T|)",
                                     "|T|^−γ̂", "s^−γ̂")})

        with header.export:
            st.markdown("**The runs and the trees**")
            for i, (c, steps) in enumerate(runs.items()):
                step = current[SHORT[c]]
                st.download_button(
                    f"{SHORT[c]}: rounds as CSV",
                    tables.history_frame(steps).to_csv(index=False),
                    file_name=f"topdown_{c}.csv", mime="text/csv", key=f"csv_{c}",
                    on_click="ignore",
                )
                st.download_button(
                    f"{SHORT[c]}: tree at round {step.t} as DOT",
                    diagrams.tree_digraph(step, index=params["index"],
                                          feature_names=ds.feature_names).source,
                    file_name=f"topdown_{c}_round{step.t}.dot", mime="text/vnd.graphviz",
                    key=f"dot_{c}", on_click="ignore",
                )
                svg_download_button(i, f"topdown_{c}_round{step.t}.svg",
                                    f"{SHORT[c]}: tree as SVG")

    code, dparams = data_code(choice)
    export_run(header, "topdown", {"data": dparams, **params}, runs,
               exports.topdown_snippet(
                   code, params["size"], params["index"], params["crit"], params["max_arity"],
                   params["gamma"], params["leaf_rule"]),
               ds.feature_names)
    stepper(n_steps, show, key="round")
    if not presenting():
        _theory()


render()
