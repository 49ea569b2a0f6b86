"""Page: InfoBoost as a divide-and-merge branching program (SPEC §2; Takimoto et al.)."""

from __future__ import annotations

import time

import streamlit as st

from ui import compute, diagrams, exports, figures, guides, tables
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
from ui.widgets import dataset_sidebar, stepper

SCHEMES = {"InfoBoost": "all", "BP.InfoBoost": "bands", "DT.InfoBoost": "none"}
HELP = {
    "InfoBoost": "merge all: every −1 child into one leaf, every +1 child into the other",
    "BP.InfoBoost": "merge by entropy bands (Theorem 3): few leaves, nearly the progress of none",
    "DT.InfoBoost": "merge none: a decision tree whose depth-t nodes all ask h_t",
}
LEARNERS = {"H(Y|h)": "h", "divided leaves": "divided"}

GUIDES, CHALLENGES = guides.BRANCHING, guides.BRANCHING_CHALLENGES


def _sidebar_params() -> dict:
    sb = st.sidebar
    sb.header("Branching program")
    schemes = sb.multiselect(
        "Merging schemes side by side", list(SCHEMES), default=list(SCHEMES), key="schemes",
        bind="query-params",
        help="; ".join(f"{k}: {v}" for k, v in HELP.items()) + ".",
    )
    n_rounds = sb.slider("Rounds T", 1, 60, 20, key="T", bind="query-params",
                         help="Number of boosting rounds (one stump each).")
    c = sb.slider("c (BP.InfoBoost)", 0.05, 0.95, 0.5, step=0.05, key="c",
                  bind="query-params",
                  help="Theorem 3's trade-off: H(Y|ℓ_t) ≤ 1 − c·γ_t with more bands as c → 1 "
                  "(towards DT.InfoBoost), fewer as c → 0 (towards InfoBoost).")
    wl = sb.radio("Weak learner minimises", list(LEARNERS), key="wl", bind="query-params",
                  help="H(Y|h): InfoBoost's stump. Divided leaves: the stump that minimises the "
                  "entropy of the divided leaves ℓ̃_t, which is what drives the bound "
                  "(the paper's remark (1)).")
    return dict(schemes=schemes, n_rounds=n_rounds, c=c, wl=LEARNERS[wl])


def _theory() -> None:
    with st.expander("The theory: Theorem 1, Lemma 3, the merging theorem, and why InfoBoost "
                     "is 'merge all'"):
        st.markdown(
            "Each round the stump $h_t$ **divides** every leaf $l$ into $(l,-1)$ and $(l,+1)$; "
            "the children of each side are then **merged** into groups, the leaves $L_t$. "
            "A leaf's weight and the update are"
        )
        st.latex(r"w[l]=\tfrac12\ln\frac{\Pr_{D_t}(\ell_t=l,\,y=+1)}{\Pr_{D_t}(\ell_t=l,\,y=-1)},"
                 r"\qquad D_{t+1}(i)=\frac{D_t(i)\,e^{-w[\ell_t(x_i)]\,y_i}}{Z_t},\qquad "
                 r"F_T(x)=\sum_{t=1}^T w[\ell_t(x)]")
        st.markdown("**Theorem 1** (any merging scheme), with $G(p)=2\\sqrt{p(1-p)}$:")
        st.latex(r"\Pr_U\bigl(\mathrm{sign}\,F_T(x_i)\ne y_i\bigr)\;\le\;\prod_{t=1}^T Z_t,"
                 r"\qquad Z_t = H_{D_t}(Y\mid\ell_t) + s_t\;\le\;H_{D_t}(Y\mid h_t) + s_t")
        st.markdown(r"where $s_t = 0$ unless a leaf of $L_t$ is pure and its weight had to be "
                    r"smoothed (below). Without pure leaves this is the paper's "
                    r"$\prod Z_t = \prod H_{D_t}(Y\mid\ell_t) \le \prod H_{D_t}(Y\mid h_t)$.")
        st.markdown("**Lemma 3** — after the update every leaf is balanced, so $h_{t+1}$ must "
                    "bring information the program does not already have:")
        st.latex(r"H_{D_{t+1}}(Y\mid\ell_t)=1")
        st.markdown("**Theorem 3 (merging by entropy bands)** — with $1-\\gamma_t = "
                    "H_{D_t}(Y\\mid\\tilde\\ell_t)$ the entropy of the divided leaves, "
                    "$a=2c/(1-c)$ and $\\varepsilon_j=((1+a)/a)^{j-1}c\\gamma_t/a$, grouping "
                    "children by side, by the side of $q_z$ w.r.t. ½ and by the band "
                    "$\\varepsilon_{j-1}\\le 1-G(q_z)<\\varepsilon_j$ gives")
        st.latex(r"H_{D_t}(Y\mid\ell_t)\le 1-c\,\gamma_t,\qquad |L_t|\le 4K=O\!\left("
                 r"\frac{\log(1/((1-c)\gamma_t))}{\log(1+1/c)}\right)")
        st.markdown(
            "**Why InfoBoost is 'merge all'.** With one leaf per side, $\\ell_t$ is just $h_t$, "
            "so $w$ is Aslam's $\\alpha_t[a]\\,a$ and $Z_t=H_{D_t}(Y\\mid h_t)$: the two bounds "
            "coincide. Merging nothing (DT.InfoBoost) makes $\\ell_t$ the whole path, "
            "$\\prod Z_t = H_U(Y\\mid h_1,\\dots,h_T)$ (Theorem 2) — fast progress, but the "
            "tree doubles every round. Bands sit in between.\n\n"
            "*Smoothing.* A pure leaf would get an infinite weight; such leaves use "
            "$\\tfrac12\\ln\\frac{W^++\\varepsilon}{W^-+\\varepsilon}$ with $\\varepsilon=1/(2m)$. "
            "The bound always uses the actual $Z_t$, so Theorem 1's first inequality stays "
            "exact; on those rounds $Z_t$ exceeds $H_{D_t}(Y\\mid\\ell_t)$ by a small amount "
            "(shown in the table), and Lemma 3 holds for the other leaves. Points are drawn "
            "with area proportional to $D_t$."
        )


def render() -> None:
    preset_from_url("bp_preset", GUIDES, first_round=1)
    header = page_header(
        "InfoBoost grows a branching program: divide, then merge",
        "Each round one stump divides every leaf in two; then the children are merged. "
        "**Merge everything** and you get InfoBoost; **merge nothing** and you get a decision "
        "tree (DT.InfoBoost); Takimoto, Koya and Maruoka's **entropy bands** sit in between "
        "with few leaves and nearly the progress of the tree. The training error bound "
        "Π Z_t holds for every merging scheme.",
        page="branching",
    )
    choice = dataset_sidebar()
    params = _sidebar_params()
    ds = choice.dataset
    presets_and_challenges("bp_preset", GUIDES, CHALLENGES, first_round=1)
    if not params["schemes"]:
        st.warning("Choose at least one merging scheme in the sidebar.")
        return
    started = time.perf_counter()
    with st.spinner("Boosting…"):
        runs = {name: compute.bp_run(ds, choice.key, params["n_rounds"], SCHEMES[name],
                                     params["c"], params["wl"])
                for name in params["schemes"]}
    elapsed = time.perf_counter() - started
    n_steps = max(len(r) for r in runs.values())
    st.caption(f"{ds.n_train} training and {ds.n_test} test points · computed in "
               f"{elapsed:.2f} s (cached: stepping only redraws).")

    def show(t: int) -> None:
        # t is the snapshot index; BP.InfoBoost's first snapshot is round 1
        current = {name: steps[min(t, len(steps) - 1)] for name, steps in runs.items()}
        cols = st.columns(len(runs))
        for col, (name, steps) in zip(cols, runs.items()):
            step = current[name]
            with col:
                st.subheader(name, help=HELP[name])
                if step.metrics is None:
                    st.warning(step.stop_reason)
                    continue
                chart(figures.bp_regions_figure(step, ds), key=f"bp_regions_{name}",
                                config={"displaylogo": False})
                if t >= len(steps):
                    st.caption(f"Finished at round {steps[-1].t}.")
                st.caption(step.message)
        cols = st.columns(len(runs))
        for col, (name, steps) in zip(cols, runs.items()):
            with col:
                idx = min(t, len(steps) - 1)
                if steps[idx].metrics is not None or idx > 0:
                    structure(diagrams.bp_digraph(steps, idx, feature_names=ds.feature_names),
                              width="stretch", label=f"{name} program, round {steps[idx].t}")
        cols = st.columns(len(runs))
        for col, (name, steps) in zip(cols, runs.items()):
            with col:
                chart(figures.bp_curves_figure(steps, t), key=f"bp_curves_{name}",
                                config={"displaylogo": False})
                chart(figures.bp_leaves_figure(steps, t), key=f"bp_leaves_{name}",
                                config={"displaylogo": False})
                smoothed = [s for s in steps[: t + 1]
                            if s.metrics is not None and s.metrics.smoothing_excess > 0]
                if smoothed:
                    total = sum(s.metrics.smoothing_excess for s in smoothed)
                    st.caption(
                        f"{len(smoothed)} round(s) so far had a pure leaf whose weight was "
                        f"smoothed, adding s_t to Z_t (total {total:.4f}): there Π Z_t may "
                        "exceed Π H(Y|h_t). Π Z_t still bounds the training error exactly."
                    )
        if "BP.InfoBoost" in current and current["BP.InfoBoost"].groups:
            step = current["BP.InfoBoost"]
            st.markdown(f"#### BP.InfoBoost's groups in round {step.t}: "
                        f"γ_t = {step.metrics.gamma:.4f}, bound 1 − cγ_t = "
                        f"{step.metrics.band_bound:.4f}, H(Y|ℓ_t) = {step.metrics.H_leaves:.4f}")
            st.dataframe(tables.groups_frame(step), hide_index=True,
                         column_config={k: st.column_config.NumberColumn(format="%.4f")
                                        for k in ("mass under D_t", "entropy G(q)")})
        st.markdown("#### This round in numbers")
        st.dataframe(tables.bp_metrics_frame(current), hide_index=True,
                     column_config={k: st.column_config.NumberColumn(format="%.4f") for k in
                                    ("train error", "test error", "Z_t", "H(Y|h_t)",
                                     "H(Y|ℓ̃_t)", "H(Y|ℓ_t)", "γ_t", "Π Z", "Π H(Y|h)")})

    code, dparams = data_code(choice)
    export_run(header, "branching", {"data": dparams, **params}, runs,
               exports.branching_snippet(
                   code, params["schemes"], params["n_rounds"], params["c"], params["wl"]),
               ds.feature_names)
    stepper(n_steps, show, key="round", first=1)
    export_structures(header, "branching")

    st.markdown("#### What c buys: leaves against progress (BP.InfoBoost, this data)")
    rows = compute.bp_c_sweep(ds, choice.key, params["n_rounds"], params["wl"])
    if rows:
        chart(figures.c_sweep_figure(rows, params["c"]), key="c_sweep",
                        config={"displaylogo": False})
        st.caption("Larger c: more bands, so more leaves and a smaller Π Z_t (faster training "
                   "progress, more risk of overfitting); smaller c: InfoBoost-like. The "
                   "vermillion bar is the c chosen in the sidebar.")
    if not presenting():
        _theory()


render()
