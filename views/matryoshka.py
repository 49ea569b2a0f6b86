"""Page: probabilistic boosting — chain, tree and matryoshka (SPEC §3; Grossmann)."""

from __future__ import annotations

import time

import streamlit as st

from ui import compute, diagrams, exports, figures, guides
from ui.classroom import (
    chart,
    data_code,
    export_run,
    export_structures,
    page_header,
    presenting,
    preset_from_url,
    presets_and_challenges,
    structure,
)
from ui.figures import data_extent
from ui.widgets import dataset_sidebar, stepper

STRUCTURES = {"Chain (prob. AdaBoost)": "chain", "Tree": "tree", "Matryoshka": "matryoshka",
              "Greedy collapse (§5.4)": "collapse"}
HELP = {
    "chain": "Probabilistic AdaBoost: every point meets every weak classifier; bound Π Z_t.",
    "tree": "Greedy probabilistic tree: expand the leaf with the largest Π Z; bound C(T).",
    "matryoshka": "2-matryoshka: a two-node tree whose nodes are two-node trees of … of soft "
    "stumps (T = 2^L); each doll is used through its exact P(H > 0).",
    "collapse": "A tree that collapses itself into one doll of a new tree whenever Eq. (14) "
    "promises a faster fall of the bound than plain growth (our reading of §5.4).",
}
# grid resolution per structure: the chain is a (slower) Monte Carlo estimate
GRID = {"chain": 60, "tree": 110, "matryoshka": 110, "collapse": 110}


GUIDES, CHALLENGES = guides.MATRYOSHKA, guides.MATRYOSHKA_CHALLENGES


def _sidebar() -> dict:
    sb = st.sidebar
    sb.header("Probabilistic boosting")
    picked = sb.multiselect("Structures side by side", list(STRUCTURES),
                            default=list(STRUCTURES)[:3], key="struct", bind="query-params",
                            help="; ".join(HELP.values()))
    n_weak = sb.select_slider("Weak classifiers T", [2, 4, 8, 16, 32, 64], value=16, key="Tw",
                              bind="query-params",
                              help="Soft stumps to spend (a power of two so the matryoshka "
                              "can use them all).")
    softness = sb.slider("Softness τ", 0.02, 1.0, 0.3, step=0.02, key="tau",
                         bind="query-params",
                         help="q(+, x) = σ((x_j − θ)/τ): small τ is an almost deterministic "
                         "stump, large τ a coin that only leans one way.")
    est = sb.select_slider("q known from", ["exact q", "100 answers", "20 answers",
                                            "5 answers"], value="exact q", key="est",
                           bind="query-params",
                           help="Grossmann's learner only sees R answers of each soft stump and "
                           "estimates q by MAP (1 + #{+1})/(R + 2). Chain and tree train on the "
                           "estimate; errors are measured with the true q.")
    samples = None if est == "exact q" else int(est.split()[0])
    return dict(structures=[STRUCTURES[p] for p in picked], n_weak=n_weak, softness=softness,
                samples=samples)


def _theory() -> None:
    with st.expander("The bounds, and where the paper's nesting argument breaks"):
        st.markdown("A soft stump answers +1 with probability $q(+,x)=\\sigma((x_j-\\theta)/"
                    "\\tau)$. With $W^{ab}=\\sum_{n:y_n=b} D(n)\\,q(a,x_n)$:")
        st.latex(r"\alpha_{+}=\tfrac12\ln\frac{W^{++}}{W^{+-}},\quad "
                 r"\alpha_{-}=\tfrac12\ln\frac{W^{--}}{W^{-+}},\quad "
                 r"Z_{+}+Z_{-}=2\sqrt{W^{++}W^{+-}}+2\sqrt{W^{-+}W^{--}}\le\rho=\sqrt{1-4\varepsilon^2}")
        st.markdown("**Chain** (probabilistic AdaBoost): $E(\\text{Loss})\\le\\prod_t Z_t\\le"
                    "\\rho^T$. **Tree** (Eq. (8)–(9)), grown at the leaf of largest "
                    "$\\prod Z$:")
        st.latex(r"E(\text{Loss})\;\le\;C(T)=\sum_{\text{leaves }l}\prod_{s\le l}Z_s\;\le\;"
                 r"F(T,\hat\rho)=\frac{\Gamma(T+\hat\rho)}{\Gamma(T+1)\Gamma(\hat\rho)}")
        st.markdown(
            "**Greedy collapse** (§5.4, our reading): after each stump compare plain growth's "
            "rate $\\dot C_{simple}=C(T)-C(T-1)$ with Eq. (14)'s promise for collapsing the "
            "tree into one node, $\\dot C_{matr}=\\tfrac{C}{T}(\\gamma_E+\\psi(C)+1/C-1)$; "
            "collapse when the promise is steeper. Watch $C(T)$ jump *up* at a collapse: the "
            "doll's $Z_++Z_-$ is larger than its $C$ — the promise rests on the same step as "
            "$M_2$.")
        st.markdown("**Matryoshka** (§5.3): the paper claims $M_2(T,\\rho)=F(2,F(2,\\dots F(2,"
                    "\\rho)))$. That uses a doll's *error bound* as the $\\rho$ of the next "
                    "level, but a node needs $Z_++Z_-$, and a doll of error $C$ only "
                    "guarantees $Z_++Z_-\\le 2\\sqrt{C(1-C)}$. So the page draws $M_2$ as the "
                    "paper's claim, and the valid bound $C(T)$ computed with every doll's exact "
                    "$P(H>0)$ — which always holds, as the curves show.")


def render() -> None:
    preset_from_url("mat_preset", GUIDES, first_round=1)
    header = page_header(
        "Probabilistic boosting: chain, tree, and trees of trees",
        "Grossmann boosts *probabilistic* weak classifiers — soft stumps that answer at random. "
        "A chain lets every point meet every stump; a tree lets each point meet only the "
        "stumps on its path; the **matryoshka** nests two-node trees inside two-node trees. "
        "The heat shows P(H(x) > 0), the probability that the boosted vote is positive.",
        page="matryoshka",
    )
    choice = dataset_sidebar()
    params = _sidebar()
    ds = choice.dataset
    presets_and_challenges("mat_preset", GUIDES, CHALLENGES, first_round=1)
    if not params["structures"]:
        st.warning("Choose at least one structure in the sidebar.")
        return
    started = time.perf_counter()
    with st.spinner("Boosting soft stumps…"):
        runs = {s: compute.prob_run(ds, choice.key, s, params["n_weak"], params["softness"],
                                    params["samples"] if s in ("chain", "tree") else None)
                for s in params["structures"]}
    st.caption(f"{ds.n_train} training and {ds.n_test} test points · computed in "
               f"{time.perf_counter() - started:.2f} s (cached). The chain's error is a "
               "seeded Monte Carlo estimate (1,000 draws); the trees' are exact.")
    if params["samples"]:
        st.warning(f"q is estimated from {params['samples']} answers per point: the chain's "
                   "and the tree's Z, C(T) and Π Z come from the estimates, so they are "
                   "estimates of the bound, not guaranteed bounds (the matryoshka keeps the "
                   "exact q).", icon=":material/casino:")
    lo, hi = data_extent(ds)
    names = {v: k for k, v in STRUCTURES.items()}

    def show(i: int) -> None:
        t = i + 1  # weak classifiers used so far
        cols = st.columns(len(runs))
        current = {}
        for col, (s, steps) in zip(cols, runs.items()):
            ready = [st_ for st_ in steps if st_.t <= t]
            with col:
                st.subheader(names[s], help=HELP[s])
                if not ready:
                    st.info("The first doll needs 2 soft stumps: step to round 2.")
                    continue
                step = ready[-1]
                current[s] = step
                key = (f"{choice.key}|{s}|{params['n_weak']}|{params['softness']}|"
                       f"{params['samples']}|{step.t}")
                q = compute.prob_grid(step, key, tuple(lo), tuple(hi), GRID[s])
                chart(figures.prob_regions_figure(q, ds, lo, hi, stump=step.stump),
                                key=f"prob_regions_{s}", config={"displaylogo": False})
                st.caption(step.message if step.t == t or s != "matryoshka" else
                           f"Showing the level-{step.t.bit_length() - 1} doll ({step.t} "
                           "stumps); the next level needs twice as many.")
        cols = st.columns(len(runs))
        for col, s in zip(cols, runs):
            with col:
                if s == "chain" and s in current:
                    chain = current[s].model
                    st.dataframe([{"t": t_ + 1, "soft stump": f"x{h.feature + 1} at "
                                   f"{h.theta:.3f}", "α₊": ap, "α₋": an}
                                  for t_, (h, ap, an) in enumerate(
                                      zip(chain.stumps, chain.alpha_pos, chain.alpha_neg))],
                                 hide_index=True, height=260)
                elif s in current:
                    structure(
                        diagrams.prob_digraph(current[s].model, feature_names=ds.feature_names,
                                              new_stump=current[s].stump),
                        width="stretch", label=f"{names[s]} at T = {current[s].t}")
        cols = st.columns(len(runs))
        for col, (s, steps) in zip(cols, runs.items()):
            with col:
                chart(figures.prob_curves_figure(steps, t, n_weak=params["n_weak"],
                                                           paper_m2=s == "matryoshka"),
                                key=f"prob_curves_{s}", config={"displaylogo": False})
        st.markdown("#### This round in numbers")
        rows = []
        for s, step in current.items():
            m = step.metrics
            rows.append({"structure": names[s], "T": m.T,
                         "expected train error": m.expected_train_error,
                         "± (2 s.e.)": None if m.mc_stderr is None else 2 * m.mc_stderr,
                         "expected test error": m.expected_test_error,
                         "C(T) / Π Z (valid)": m.C, "ρ̂": m.rho_hat, "F(T, ρ̂)": m.F,
                         "ρ̂^T": m.rho_T, "M2 (paper)": m.M2})
        if rows:
            st.dataframe(rows, hide_index=True)
        doll_step = current.get("matryoshka")
        if doll_step is not None and doll_step.dolls:
            st.markdown("#### Each doll used as a node: the bound the paper plugs in vs what the "
                        "node really does")
            st.dataframe(
                [{"doll level": d.level, "its own bound C (paper's ρ for the next level)": d.C,
                  "measured Z₊ + Z₋ as a node (what the next level needs)": d.node_Z,
                  "gap": d.node_Z - d.C} for d in doll_step.dolls],
                hide_index=True)
            st.caption("Grossmann's §5.1 sets the next level's ρ to a doll's error bound C. The "
                       "tree bound needs Z₊ + Z₋ of the node instead; the table measures both "
                       "on this data. A positive gap means the paper's M2 curve is not backed "
                       "by this run (SPEC §3.3).")

    code, dparams = data_code(choice)
    export_run(header, "matryoshka", {"data": dparams, **params}, runs,
               exports.matryoshka_snippet(
                   code, params["structures"], params["n_weak"], params["softness"],
                   params["samples"]),
               ds.feature_names)
    stepper(params["n_weak"], show, key="round", first=1,
            label="Weak classifiers used")
    export_structures(header, "matryoshka")
    if not presenting():
        _theory()


render()
