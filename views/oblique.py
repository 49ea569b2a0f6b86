"""Page: real boosting à la carte and boosted oblique trees (Henry–Nock–Nielsen).

See docs/theory.md §4.
"""

from __future__ import annotations

import streamlit as st

from ui import (
    costs,
    figures,
    lecture,
    pages,
    quiz_widget,
    theory_doc,
)
from ui.charts import presenting
from ui.lesson import begin
from ui.pages.oblique import diagrams, export, questions, student
from ui.pages.oblique import runs as oblique_runs
from ui.pages.oblique.frames import (
    ADA,
    KM,
    ODT,
    SHORT,
    inner_stepping_refusal,
    oblique_lecture,
    shown_at,
)
from ui.params import page_run

FROM_SHORT = {v: k for k, v in SHORT.items()}

HELP = {
    ADA: "G1 when every example follows one path: each new node sees all of S. With ±1 stumps "
    "this is exactly discrete AdaBoost (the tests check it against scikit-learn).",
    KM: "G1 when the decision graph is a tree of constant nodes: each node sees only its "
    "examples. Theorem 2: this is Kearns–Mansour's top-down induction with the index "
    "2√(q(1−q)).",
    ODT: "G1 on the tree shape, and AdaBoost_R inside every node to build its separator LS: "
    "boosting all the way down.",
}

PAGE = pages.page("oblique")
#: A rule's label in the sidebar, by its name in code (the registry declares the map).
RULE_LABELS = {v: k for k, v in PAGE.param("rule").values}


def _sidebar() -> dict:
    """The page's sidebar widgets; their values by URL parameter name."""
    sb = st.sidebar
    sb.header("Oblique trees")
    n_internal = sb.slider(
        "Internal nodes T2",
        **PAGE.param("T2").number(),
        help="Number of splits of BoostODT and of the KM tree (7 = a "
        "complete tree of depth 3 when grown breadth-first).",
    )
    n_stumps = sb.slider(
        "Stumps per node T1",
        **PAGE.param("T1").number(),
        help="AdaBoost_R rounds inside each BoostODT node. AdaBoost gets "
        "T1 × T2 stumps, as many as BoostODT can use in total.",
    )
    learner = sb.radio(
        "BoostODT node learner",
        **PAGE.param("learner").select(),
        help="Stumps: ±1 axis stumps, so a node's boundary is a staircase "
        "(the paper). Hyperplane: real-valued π(x_f − θ), so LS is affine and "
        "the boundary is a straight oblique line.",
    )
    rule = sb.radio(
        "Leaf to split next",
        **PAGE.param("rule").select(),
        help="Breadth-first grows towards a complete tree (Theorem 1 favours equal "
        "path lengths); the other picks the leaf whose split lowers the "
        "Kearns–Mansour impurity most. The KM tree always uses the latter.",
    )
    inner = sb.checkbox(
        "Step through the stumps inside each node",
        **PAGE.param("inner").flag(),
        help="Each step of the stepper adds one AdaBoost_R round to the node "
        "being built, instead of one whole node (the regions show its "
        "boundary so far, the points its AdaBoost_R weights).",
    )
    return {"T2": n_internal, "T1": n_stumps, "learner": learner, "rule": rule, "inner": inner}


def _theory() -> None:
    with st.expander("The theory: G1, its two specialisations, Theorems 1 and 2"):
        theory_doc.link("4")
        st.markdown(
            "**Generic greedy induction G1** (Henry, Nock & Nielsen 2007, Fig. 2). The "
            "classifier sums weak hypotheses along the path of $x$ in a decision graph: "
            "$H(x)=\\sum_{h_t\\text{ on the path of }x}\\alpha_t h_t(x)$. Step $t$ adds one "
            "node; $S_t$ are the examples whose path goes through it:"
        )
        st.latex(
            r"R_t=\max_{S_t}|h_t|,\quad \mu_t=\frac{\sum_{S_t}w_{t,i}\,y_i h_t(x_i)}"
            r"{R_t\sum_{S_t}w_{t,i}},\quad \alpha_t=\frac{1}{2R_t}\ln\frac{1+\mu_t}"
            r"{1-\mu_t},\quad w_{t+1,i}=w_{t,i}\,\frac{1-\mu_t y_i h_t(x_i)/R_t}"
            r"{1-\mu_t^2}"
        )
        st.markdown(
            "**On a path** ($S_t=S$) G1 is Nock & Nielsen's AdaBoost$_R$; with ±1 stumps "
            "$\\mu=1-2\\varepsilon$ and $\\alpha=\\tfrac12\\ln\\frac{1-\\varepsilon}"
            "{\\varepsilon}$: discrete AdaBoost. **On a tree of constant nodes** "
            "(Theorem 2), whatever constants were used,"
        )
        st.latex(
            r"H(x)=\tfrac12\ln\frac{w^+_\ell}{w^-_\ell}\ (x\text{ in leaf }\ell),\qquad "
            r"\mathbb{E}_{w_1}\!\left[e^{-yH(x)}\right]=\sum_\ell 2\sqrt{w^+_\ell w^-_\ell}"
        )
        st.markdown(
            "— the exponential loss of the tree *is* the Kearns–Mansour impurity with "
            "$f(z)=2\\sqrt{z(1-z)}$: AdaBoost and top-down tree induction are one algorithm on "
            "two graphs. **Theorem 1** bounds the margin error $\\nu(H,\\theta)=\\Pr_{w_1}"
            "[\\tanh(yH/2)\\le\\theta]$ (training error $\\le\\nu(H,0)$):"
        )
        st.latex(
            r"\nu(H,\theta)\;\le\;\frac{1+\theta}{1-\theta}\;\max_{\text{paths }p}"
            r"\prod_{t\in p}\sqrt{1-\mu_t^2}"
        )
        st.markdown(
            "**BoostODT** grows the tree by G1 with constant nodes and splits each leaf by "
            "$\\mathrm{sign}(LS_\\ell)$, where $LS_\\ell=\\sum_{j\\le T_1}\\alpha_j s_j$ is built "
            "by AdaBoost$_R$ on the leaf's examples with class-balanced weights "
            "$w\\propto w_1/(2w_1^{y}(\\ell))$ — the weights G1 itself has there.\n\n"
            "*Reading the paper.* Our copy of the paper lost most digits to OCR; the formulas "
            "above are the reconstruction in the theory notes (§4), checked numerically by "
            "the test suite "
            "(scikit-learn's AdaBoost, Theorem 2 to 10⁻⁹, Theorem 1 on random data). A node "
            "with one class only would get $\\mu=\\pm1$; G1 clips $|\\mu|\\le 1-10^{-12}$, so "
            "such a leaf outputs its parent's value ± 14.2 instead of ±∞, and its term in "
            "the exponential loss is tiny rather than 0."
        )


def _focus_bar() -> str:
    """The run whose regions, structure and curves fill the screen (the others sit below)."""
    options = [SHORT[ODT], SHORT[ADA], SHORT[KM]]
    if st.session_state.get("focus") not in options:
        st.session_state["focus"] = options[0]
    choice = lecture.focus_select(
        options,
        help="The run whose regions, structure and bound curves are shown large; the other "
        "two are the small pictures below (click one to focus it).",
    )
    return FROM_SHORT[choice or options[0]]


STRUCTURE_TITLE = {
    ODT: "BoostODT: each node's examples and LS = 0",
    KM: "KM tree: each node's examples and stump",
    ADA: "AdaBoost: a path (every point meets every stump)",
}
CURVES_NOTE = (
    "Theorem 1: training error ≤ ν(H, 0) ≤ bound, and E e<sup>−yH</sup> ≤ bound. "
    "Faint: the whole run; solid: up to this step; dot: this step."
)

REGIONS_KEY = (
    "Regions: filled markers are training points, hollow ones test points (orange ◆ class −1, "
    "blue ● class +1); a training marker's area is the weight the newest weak hypothesis was "
    "trained on (AdaBoost: wₜ over all of S; the trees: the split node's class-balanced "
    "weights, or AdaBoost_R's weights inside the node being built — other points smallest). "
    "The shading is $1/(1+e^{-2H})$ (white = undecided); thin grey lines are the boundaries "
    "LS = 0 of earlier nodes, the thick vermillion line this step's (for AdaBoost: this "
    "step's stumps, the newest thickest); #n is the leaf's id in the tree. In the trees, "
    "◀ marks the side of LS < 0 (left child) and ▶ the side of LS ≥ 0 (right child)."
)

INTRO = (
    "**About this page.** Henry, Nock and Nielsen's **G1** adds one weak hypothesis per step "
    "to a decision graph. Run it on **a path** and you get AdaBoost; on **a tree of constant "
    "nodes** you get Kearns–Mansour's top-down tree induction; use it on the tree *and* "
    "inside every node and you get **BoostODT**, a boosting algorithm for oblique decision "
    "trees. One stepper moves all three: each step adds one BoostODT node (or one stump "
    "inside it, see the sidebar), the KM tree adds one split and AdaBoost gets as many "
    "stumps as BoostODT has used. The bound curves are Theorem 1's."
)


def _questions(runs: dict, schedule, focus: str, n: int, ds) -> list:
    """The question asked at every step of the stepper (about the step after it): the
    focused run's snapshot now and at the next step (steps follow BoostODT's schedule)."""
    out = []
    for k in range(n):
        if k + 1 >= n:
            out.append(None)
            continue
        now = shown_at(runs, schedule, k)[focus].idx
        after = shown_at(runs, schedule, k + 1)[focus].idx
        out.append(
            questions.question(
                runs[focus],
                now,
                to=after,
                feature_names=ds.feature_names,
                X=ds.X_train,
                y=ds.y_train,
            )
        )
    return out


def render() -> None:
    lesson = begin(
        PAGE,
        "AdaBoost, trees, oblique trees: one algorithm (G1)",
        _sidebar,
        student_toggle=student.toggle,
    )
    p, ds, choice = lesson.settings, lesson.ds, lesson.choice
    weak, predict = lesson.weak, lesson.predict
    refusal = costs.oblique_refusal(ds.n_train, p.n_internal, p.n_stumps)
    if refusal:
        st.error(refusal)
        return
    if weak and p.inner:
        st.info(student.INNER_OFF)
        p = p.replace(inner=False)
    if p.inner:
        refusal = inner_stepping_refusal(ds.n_train, p.n_internal, p.n_stumps)
        if refusal:
            st.info(refusal)
            p = p.replace(inner=False)

    # the student's separators make BoostODT's run (AdaBoost and the KM tree stay the same)
    played = (
        student.choices(
            (
                choice.key,
                p.n_internal,
                p.n_stumps,
                p.learner,
                p.rule,
            )
        )
        if weak
        else ()
    )
    with lesson.computing("Boosting…"):

        def runs_now() -> dict:
            """The runs, from the shared cache (a deferred download keeps this, not them)."""
            return {
                ADA: oblique_runs.g1_path_run(ds, choice.key, p.n_internal * p.n_stumps, "stump"),
                KM: oblique_runs.g1_tree_run(ds, choice.key, p.n_internal, "max_decrease"),
                ODT: oblique_runs.odt_run(
                    ds,
                    choice.key,
                    p.n_internal,
                    p.n_stumps,
                    p.learner,
                    p.rule,
                    played,
                ),
            }

        runs = runs_now()
        lec = oblique_lecture(
            ds,
            choice.key,
            p.n_internal,
            p.n_stumps,
            p.learner,
            p.rule,
            p.inner,
            12 * lecture.scale(),
            played,
            student.whose(),  # a class follower's played lines are the class's
        )
    schedule = [tuple(step) for step in lec["schedule"]]

    with lesson.row.focus:
        focus = _focus_bar()
    t = lesson.stepper(
        lec["n"],
        default=1,
        label="Step",
        unit="step",
        note="each step adds one BoostODT "
        + ("stump inside the node being built" if p.inner else "node")
        + "; AdaBoost gets as many stumps as BoostODT has used",
    )
    area = lesson.area()
    with area.side:
        if weak:
            student.oblique_turn(
                ds,
                runs[ODT],
                n_played=len(played),
                n_stumps=p.n_stumps,
                learner=p.learner,
                rule_label=RULE_LABELS[p.rule],
            )
        if predict:
            quiz_widget.lecture_quiz(
                _questions(runs, schedule, focus, lec["n"], ds),
                page="oblique",
                presenting=presenting(),
            )
    run = lec["runs"][focus]
    with area.main:
        lecture.three_views(
            SHORT[focus].replace(" ", "_"),
            regions=lecture.Panel(
                run["regions"],
                f"{SHORT[focus]}: decision regions",
                notes=run["notes"],
                aspect=figures.aspect(ds),
                descriptions=run["descriptions"]["regions"],
            ),
            structure=lecture.Panel(
                run["structure"],
                STRUCTURE_TITLE[focus],
                descriptions=run["descriptions"]["structure"],
            ),
            curves=lecture.Panel(
                run["curves"],
                "Errors and Theorem 1's bound",
                notes=[CURVES_NOTE],
                descriptions=run["descriptions"]["curves"],
            ),
            widths=(1.2, 1.3, 0.9),
            proof=lecture.Panel(run["proof"], "The proof at this round"),
        )
    st.caption(REGIONS_KEY + ("" if presenting() else f"  \n**{SHORT[focus]}**: {HELP[focus]}"))
    theory_doc.words(("G1", "AdaBoost_R", "KM tree", "BoostODT", "LS", "R", "μ_j", "α_j"))

    lecture.small_multiples(
        [
            lecture.SmallRun(
                SHORT[r].replace(" ", "_"),
                SHORT[r],
                lec["runs"][r]["small"],
                lec["runs"][r]["spark"],
            )
            for r in (ODT, ADA, KM)
            if r != focus
        ],
        heading="The other runs — same data, same stepper (click one to focus it)",
        spark_title="train error, Thm 1 bound (log)",
        on_focus=lecture.set_focus,
        columns=2,
    )

    left, right = st.columns([1.25, 1])
    with left:
        st.markdown("#### AdaBoost_R inside BoostODT's node", help=HELP[ODT])
        lecture.table(lec["inner"], key="lv_inner")
    with right:
        st.markdown("#### Same size, axis-parallel")
        lecture.table(lec["peers"], key="lv_peers")
        st.caption(
            "The same number of leaves as BoostODT's tree at this step: can "
            "axis-parallel splits do as well?"
        )
    st.markdown("#### This step in numbers")
    lecture.table(lec["metrics"], key="lv_metrics")
    st.caption(
        "Theorem 1: training error ≤ ν(H, 0) ≤ bound, and E e⁻ʸᴴ ≤ bound. For the "
        "two trees, Theorem 2 makes E e⁻ʸᴴ equal Σ 2√(w⁺w⁻) (up to the tiny share "
        "of one-class leaves)."
    )

    k = min(max(t or 0, 0), lec["n"] - 1)
    shown = shown_at(runs, schedule, k)
    st.markdown("#### Margin-error curves (the paper's margin plots)")
    lecture.view(
        "plotly",
        lec["margins"],
        key="lv_margins",
        title="ν(H, θ) and Theorem 1's bound, the three runs at this step",
        height=340,
        chart_key="odt_margins",
        presenter=presenting(),
        descriptions=lec["margin_descriptions"],
    )
    st.caption(
        "ν(H, θ) = the w₁-weight of examples with margin tanh(yH/2) ≤ θ (solid) and "
        "Theorem 1's bound on it (dashed), for the three runs at the stepper's step."
    )

    lesson.export(
        p,
        runs_now,
        lambda code: export.snippet(code, p.n_internal, p.n_stumps, p.learner, p.rule),
        extra=lambda: _exports(lesson.header, runs_now, lec, shown, ds, k),
        extra_first=False,
    )
    lesson.close(INTRO, _theory)


def _odt_dot(step, ds) -> str:
    return diagrams.odt_digraph(step.tree, feature_names=ds.feature_names, current=step.node).source


def _exports(header, runs_now, lec: dict, shown: dict, ds, k: int) -> None:
    """The BoostODT tree at this step (DOT, SVG), after the run's downloads."""
    idx = shown[ODT].idx
    pictures = lec["runs"][ODT]["structure"]
    picture = pictures[k]
    if isinstance(picture, dict):  # a repeat of an earlier step's picture
        picture = pictures[picture["$r"]]
    with header.export:
        st.markdown("**The BoostODT tree at this step**")
        st.download_button(
            "BoostODT tree (DOT)",
            lambda: _odt_dot(runs_now()[ODT][idx], ds),
            file_name=f"boostodt_step{k}.dot",
            mime="text/vnd.graphviz",
            key="odt_dot",
            on_click="ignore",
        )
        st.download_button(
            "BoostODT tree (SVG)",
            picture[0],
            file_name=f"boostodt_step{k}.svg",
            mime="image/svg+xml",
            key="odt_svg",
            on_click="ignore",
            help="The tree as drawn on the page, with every node's mini view.",
        )


page_run(PAGE, render)
