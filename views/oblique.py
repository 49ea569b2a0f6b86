"""Page: real boosting à la carte and boosted oblique trees (SPEC §4; Henry–Nock–Nielsen)."""

from __future__ import annotations

import time

import streamlit as st

from ui import compute, diagrams, exports, guides, oblique_figures, tables
from ui.classroom import (
    chart,
    data_code,
    export_run,
    page_header,
    presenting,
    preset_from_url,
    presets_and_challenges,
)
from ui.widgets import dataset_sidebar, stepper

ADA, KM, ODT = "AdaBoost (G1 on a path)", "KM tree (G1 on a tree)", "BoostODT"
LEARNERS = {"stumps (the paper)": "stumps", "hyperplane (oblique line)": "hyperplane"}
RULES = {"breadth-first (complete tree)": "breadth_first",
         "largest decrease of Σ 2√(w⁺w⁻)": "max_decrease"}
HELP = {
    ADA: "G1 when every example follows one path: each new node sees all of S. With ±1 stumps "
         "this is exactly discrete AdaBoost (the tests check it against scikit-learn).",
    KM: "G1 when the decision graph is a tree of constant nodes: each node sees only its "
        "examples. Theorem 2: this is Kearns–Mansour's top-down induction with the index "
        "2√(q(1−q)).",
    ODT: "G1 on the tree shape, and AdaBoost_R inside every node to build its separator LS: "
         "boosting all the way down.",
}

GUIDES, CHALLENGES = guides.OBLIQUE, guides.OBLIQUE_CHALLENGES


def _sidebar_params() -> dict:
    sb = st.sidebar
    sb.header("Oblique trees")
    n_internal = sb.slider("Internal nodes T2", 1, 31, 7, key="T2", bind="query-params",
                           help="Number of splits of BoostODT and of the KM tree (7 = a "
                           "complete tree of depth 3 when grown breadth-first).")
    n_stumps = sb.slider("Stumps per node T1", 1, 40, 10, key="T1", bind="query-params",
                         help="AdaBoost_R rounds inside each BoostODT node. AdaBoost gets "
                         "T1 × T2 stumps, as many as BoostODT can use in total.")
    learner = sb.radio("BoostODT node learner", list(LEARNERS), key="learner",
                       bind="query-params",
                       help="Stumps: ±1 axis stumps, so a node's boundary is a staircase "
                       "(the paper). Hyperplane: real-valued π(x_f − θ), so LS is affine and "
                       "the boundary is a straight oblique line.")
    rule = sb.radio("Leaf to split next", list(RULES), key="rule", bind="query-params",
                    help="Breadth-first grows towards a complete tree (Theorem 1 favours equal "
                    "path lengths); the other picks the leaf whose split lowers the "
                    "Kearns–Mansour impurity most. The KM tree always uses the latter.")
    inner = sb.checkbox("Step through the stumps inside each node", key="inner",
                        bind="query-params",
                        help="Each step of the stepper adds one AdaBoost_R round to the node "
                        "being built, instead of one whole node.")
    return dict(n_internal=n_internal, n_stumps=n_stumps, learner=LEARNERS[learner],
                rule=RULES[rule], inner=inner)


def _theory() -> None:
    with st.expander("The theory: G1, its two specialisations, Theorems 1 and 2"):
        st.markdown(
            "**Generic greedy induction G1** (Henry, Nock & Nielsen 2007, Fig. 2). The "
            "classifier sums weak hypotheses along the path of $x$ in a decision graph: "
            "$H(x)=\\sum_{h_t\\text{ on the path of }x}\\alpha_t h_t(x)$. Step $t$ adds one "
            "node; $S_t$ are the examples whose path goes through it:")
        st.latex(r"R_t=\max_{S_t}|h_t|,\quad \mu_t=\frac{\sum_{S_t}w_{t,i}\,y_i h_t(x_i)}"
                 r"{R_t\sum_{S_t}w_{t,i}},\quad \alpha_t=\frac{1}{2R_t}\ln\frac{1+\mu_t}"
                 r"{1-\mu_t},\quad w_{t+1,i}=w_{t,i}\,\frac{1-\mu_t y_i h_t(x_i)/R_t}"
                 r"{1-\mu_t^2}")
        st.markdown(
            "**On a path** ($S_t=S$) G1 is Nock & Nielsen's AdaBoost$_R$; with ±1 stumps "
            "$\\mu=1-2\\varepsilon$ and $\\alpha=\\tfrac12\\ln\\frac{1-\\varepsilon}"
            "{\\varepsilon}$: discrete AdaBoost. **On a tree of constant nodes** "
            "(Theorem 2), whatever constants were used,")
        st.latex(r"H(x)=\tfrac12\ln\frac{w^+_\ell}{w^-_\ell}\ (x\text{ in leaf }\ell),\qquad "
                 r"\mathbb{E}_{w_1}\!\left[e^{-yH(x)}\right]=\sum_\ell 2\sqrt{w^+_\ell w^-_\ell}")
        st.markdown(
            "— the exponential loss of the tree *is* the Kearns–Mansour impurity with "
            "$f(z)=2\\sqrt{z(1-z)}$: AdaBoost and top-down tree induction are one algorithm on "
            "two graphs. **Theorem 1** bounds the margin error $\\nu(H,\\theta)=\\Pr_{w_1}"
            "[\\tanh(yH/2)\\le\\theta]$ (training error $\\le\\nu(H,0)$):")
        st.latex(r"\nu(H,\theta)\;\le\;\frac{1+\theta}{1-\theta}\;\max_{\text{paths }p}"
                 r"\prod_{t\in p}\sqrt{1-\mu_t^2}")
        st.markdown(
            "**BoostODT** grows the tree by G1 with constant nodes and splits each leaf by "
            "$\\mathrm{sign}(LS_\\ell)$, where $LS_\\ell=\\sum_{j\\le T_1}\\alpha_j s_j$ is built "
            "by AdaBoost$_R$ on the leaf's examples with class-balanced weights "
            "$w\\propto w_1/(2w_1^{y}(\\ell))$ — the weights G1 itself has there.\n\n"
            "*Reading the paper.* Our copy of the paper lost most digits to OCR; the formulas "
            "above are the reconstruction of SPEC §4, checked numerically by the test suite "
            "(scikit-learn's AdaBoost, Theorem 2 to 10⁻⁹, Theorem 1 on random data). A node "
            "with one class only would get $\\mu=\\pm1$; G1 clips $|\\mu|\\le 1-10^{-12}$, so "
            "such a leaf outputs its parent's value ± 14.2 instead of ±∞, and its term in "
            "the exponential loss is tiny rather than 0.")


def _current(runs: dict, pos: tuple[int, int | None, int]) -> dict:
    """What each method shows at a stepper position: the snapshot and a short label."""
    i, j, used = pos
    odt = runs[ODT]
    odt_step = odt[i]
    complete = j is None or j == len(odt_step.inner)
    ada = runs[ADA]
    km = runs[KM]
    k_km = i if complete else i - 1
    return {
        ADA: (ada[min(used, len(ada)) - 1] if used > 0 else None,
              f"{min(used, sum(1 for s in ada if s.metrics is not None))} stumps"),
        KM: (km[min(k_km, len(km) - 1)], f"{min(k_km, len(km) - 1)} splits"),
        ODT: (odt_step if complete else odt[i - 1],
              f"{i} nodes" if complete else f"node {i}, stump {j}/{len(odt_step.inner)}"),
    }


def render() -> None:
    preset_from_url("odt_preset", GUIDES, first_round=0)
    header = page_header(
        "Real boosting à la carte: AdaBoost, trees and boosted oblique trees are one "
             "algorithm",
        "Henry, Nock and Nielsen's **G1** adds one weak hypothesis per step to a decision "
        "graph. Run it on **a path** and you get AdaBoost; on **a tree of constant nodes** "
        "you get Kearns–Mansour's top-down tree induction; use it on the tree *and* inside "
        "every node and you get **BoostODT**, a boosting algorithm for oblique decision "
        "trees. One stepper moves all three; the bound curves are Theorem 1's.",
        page="oblique",
    )
    choice = dataset_sidebar()
    params = _sidebar_params()
    ds = choice.dataset
    presets_and_challenges("odt_preset", GUIDES, CHALLENGES, first_round=0)
    started = time.perf_counter()
    with st.spinner("Boosting…"):
        runs = {
            ADA: compute.g1_path_run(ds, choice.key, params["n_internal"] * params["n_stumps"],
                                     "stump"),
            KM: compute.g1_tree_run(ds, choice.key, params["n_internal"], "max_decrease"),
            ODT: compute.odt_run(ds, choice.key, params["n_internal"], params["n_stumps"],
                                 params["learner"], params["rule"]),
        }
    elapsed = time.perf_counter() - started
    schedule = compute.odt_schedule(runs[ODT], params["inner"])
    st.caption(f"{ds.n_train} training and {ds.n_test} test points · computed in "
               f"{elapsed:.2f} s (cached: stepping only redraws). AdaBoost is shown after as "
               "many stumps as BoostODT has used so far.")

    def show(k: int) -> None:
        pos = schedule[k]
        i, j, _ = pos
        current = _current(runs, pos)
        odt_full = runs[ODT][i]
        building = j is not None and j < len(odt_full.inner)
        partial = odt_full.separator.prefix(j) if building else None
        cols = st.columns(3)
        for col, name in zip(cols, (ADA, KM, ODT)):
            step, label = current[name]
            with col:
                st.subheader(name, help=HELP[name])
                if step is None:
                    st.info("H = 0: no weak hypothesis yet. Step forward.")
                    continue
                if step.metrics is None:
                    st.warning(step.stop_reason)
                    continue
                if name == ADA:
                    fig = oblique_figures.path_regions_figure(step, ds)
                elif building and name == ODT:
                    fig = oblique_figures.tree_regions_figure(
                        step, ds, partial=partial, partial_node=odt_full.node)
                else:
                    fig = oblique_figures.tree_regions_figure(step, ds)
                chart(fig, key=f"odt_regions_{name}", config={"displaylogo": False})
                st.caption(f"{label} · " + (step.message if not building or name != ODT else
                           f"building node {odt_full.node}: LS so far has {j} of "
                           f"{len(odt_full.inner)} weak hypotheses."))
        last = runs[ODT][-1]
        if last.kind == "stop" and i == len(runs[ODT]) - 1:
            st.warning(f"BoostODT stopped early: {last.stop_reason}")
        left, right = st.columns([3, 2])
        with left:
            st.markdown("#### The BoostODT tree, with each node's separator inside it")
            shown = current[ODT][0]
            chart(
                oblique_figures.odt_tree_figure(shown, ds, partial=partial,
                                                partial_node=odt_full.node if building else None),
                key="odt_tree", config={"displaylogo": False})
            st.caption("Inside every internal node: its examples (blue = class +1, orange = "
                       "−1) and its boundary LS = 0; points with LS ≥ 0 go right. Leaves "
                       "show their output H = ½ ln(w⁺/w⁻). Vermillion: this step's node.")
        with right:
            node_step = odt_full if odt_full.inner else None
            if node_step is not None:
                st.markdown(f"#### AdaBoost_R inside node {node_step.node}")
                st.dataframe(tables.inner_frame(node_step, j if building else None),
                             hide_index=True,
                             column_config={c: st.column_config.NumberColumn(format="%.4f")
                                            for c in ("R", "μ_j", "α_j", "weighted error")})
                st.caption(f"{node_step.node_index.size} examples, weights balanced so "
                           "each class has mass ½. μ_j is the normalised margin of s_j on "
                           "the node's current weights; α_j its vote.")
            else:
                st.markdown("#### The root")
                st.caption("One constant node: H = ½ ln(w⁺/w⁻) everywhere. Step forward to "
                           "split it.")
            st.markdown("#### Same size, axis-parallel")
            n_leaves = len(current[ODT][0].tree.leaves)
            peers = compute.axis_parallel_peers(ds, choice.key, n_leaves)
            odt_m = current[ODT][0].metrics
            rows = [{"model": f"BoostODT ({params['learner']})", "leaves": n_leaves,
                     "train error": odt_m.train_error, "test error": odt_m.test_error}]
            km_step = current[KM][0]
            if km_step.metrics is not None:
                rows.append({"model": "KM tree (G1 on a tree)",
                             "leaves": len(km_step.tree.leaves),
                             "train error": km_step.metrics.train_error,
                             "test error": km_step.metrics.test_error})
            st.dataframe(rows + peers, hide_index=True,
                         column_config={c: st.column_config.NumberColumn(format="%.3f")
                                        for c in ("train error", "test error")})
        cols = st.columns(3)
        xlabels = {ADA: "stumps t", KM: "splits", ODT: "internal nodes"}
        for col, name in zip(cols, (ADA, KM, ODT)):
            steps = runs[name]
            step, _ = current[name]
            idx = -1 if step is None else steps.index(step)
            with col:
                chart(oblique_figures.g1_curves_figure(steps, idx,
                                                                 xlabel=xlabels[name]),
                                key=f"odt_curves_{name}", config={"displaylogo": False})
        mc1, mc2 = st.columns([3, 2])
        with mc1:
            st.markdown("#### Margin-error curves at this step (the paper's margin plots)")
            chart(oblique_figures.margin_figure(
                {n: s for n, (s, _) in current.items() if s is not None}),
                key="odt_margins", config={"displaylogo": False})
        with mc2:
            st.markdown("#### This step in numbers")
            st.dataframe(tables.g1_metrics_frame(current), hide_index=True,
                         column_config={c: st.column_config.NumberColumn(format="%.4f") for c
                                        in ("train error", "test error", "ν(H, 0)",
                                            "E e^(−yH)", "Σ 2√(w⁺w⁻)", "Theorem 1 bound")})
            st.caption("Theorem 1: training error ≤ ν(H, 0) ≤ bound, and E e^(−yH) ≤ bound. "
                       "For the two trees, Theorem 2 makes E e^(−yH) equal Σ 2√(w⁺w⁻) "
                       "(up to the tiny share of one-class leaves).")
        shown = current[ODT][0]
        with header.export:
            st.markdown("**The runs and the tree**")
            st.download_button("BoostODT tree (DOT)", diagrams.odt_digraph(
                shown.tree, feature_names=ds.feature_names, current=shown.node).source,
                file_name="boostodt.dot", mime="text/vnd.graphviz", key="odt_dot",
                on_click="ignore")
            st.caption("The tree itself is a plotly chart: save it with its camera icon "
                       "(PNG or SVG, see above).")

    code, dparams = data_code(choice)
    export_run(header, "oblique", {"data": dparams, **params}, runs,
               exports.oblique_snippet(
                   code, params["n_internal"], params["n_stumps"], params["learner"],
                   params["rule"]),
               ds.feature_names)
    stepper(len(schedule), show, key="round", label="Step",
            help="Each step adds one BoostODT node (or one stump inside it, see the sidebar); "
            "the KM tree adds one split and AdaBoost as many stumps as BoostODT used.")
    if not presenting():
        _theory()


render()
