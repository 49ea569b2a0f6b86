"""Page: multi-way top-down growth — Hatano vs Mansour–McAllester vs naive.

See docs/theory.md §1.1–1.4.
"""

from __future__ import annotations

import streamlit as st

from ui import (
    figures,
    lecture,
    pages,
    quiz_widget,
    tables,
    theory_doc,
)
from ui.charts import presenting
from ui.labels import CRITERION_FROM_SHORT, CRITERION_LABELS, CRITERION_SHORT, INDEX_LABELS
from ui.lesson import begin
from ui.pages.topdown import diagrams, export, frames, questions, student
from ui.pages.topdown import runs as topdown_runs
from ui.params import Settings, page_run
from ui.text import YOURS, capitalized

SHORT, FROM_SHORT = CRITERION_SHORT, CRITERION_FROM_SHORT

PAGE = pages.page("topdown")


def _sidebar() -> dict:
    """The page's sidebar widgets; their values by URL parameter name."""
    sb = st.sidebar
    sb.header("Tree growth")
    # URL-bound widgets store their shown label in the URL, so their options are short words.
    crit = sb.multiselect(
        "Criteria side by side",
        **PAGE.param("crit").multi(),
        help="Each criterion grows its own tree on the same data with the same leaf budget. "
        "Hatano: gain/⌈log₂ k⌉; Mansour-McAllester: gain/g_γ(k); Naive: raw gain.",
    )
    size = sb.slider(
        "Leaf budget s",
        **PAGE.param("s").number(),
        help="The target number of leaves |T| = s of every tree.",
    )
    max_arity = sb.slider(
        "Largest arity K",
        **PAGE.param("k").number(),
        help="Splits may have 2 … K branches (2 = binary trees only).",
    )
    index = sb.selectbox(
        "Index function I",
        **PAGE.param("index").select(),
        help="The impurity whose weighted sum I(T) bounds the training error: "
        + "; ".join(f"{k} = {v}" for k, v in INDEX_LABELS.items())
        + ".",
    )
    sb.caption(f"I = {INDEX_LABELS[index]}")
    gamma = sb.slider(
        "γ for Mansour–McAllester",
        **PAGE.param("gamma").number(),
        help="Their split price g_γ(k) and acceptability rule need the weak-learning "
        "advantage γ in advance (Hatano's criterion does not).",
    )
    rule = sb.radio(
        "Leaf to expand",
        **PAGE.param("leaf").select(),
        help="Largest weight p̂·I(q̂) is the theorems' rule; largest gain is "
        "scikit-learn's best-first growth.",
    )
    return {"crit": crit, "s": size, "k": max_arity, "index": index, "gamma": gamma, "leaf": rule}


def _theory() -> None:
    with st.expander(
        "The theory on this page: Kearns–Mansour, Hatano's Theorem 4, Mansour–McAllester"
    ):
        theory_doc.link("1")
        st.markdown(
            "Every index function satisfies $I(q) \\ge \\min(q, 1-q)$, so the training error "
            "is at most the tree's index $I(T)=\\sum_\\ell \\hat p_\\ell I(\\hat q_\\ell)$. "
            "The weight of a leaf is $w_\\ell=\\hat p_\\ell I(\\hat q_\\ell)$; a split of "
            "advantage $\\gamma$ removes at least $\\gamma w_\\ell$ from $I(T)$."
        )
        st.markdown("**Binary growth (Kearns–Mansour)** — expanding the heaviest leaf:")
        st.latex(
            r"\hat\varepsilon(T)\;\le\; I(T)\;\le\; e_\gamma(|T|)=\prod_{i=1}^{|T|-1}"
            r"\Bigl(1-\frac{\gamma}{i}\Bigr)\;\le\;|T|^{-\gamma}"
        )
        st.markdown("**TOPDOWN-M (Hatano 2004, Fig. 2)** chooses, among *acceptable* splits,")
        st.latex(
            r"h=\arg\max_h \frac{I(\hat q_\ell)-I_{S_\ell}(T_h)}{\lceil\log_2 |R_h|\rceil},"
            r"\qquad h \text{ acceptable} \iff |R_h|=2 \;\text{ or }\; 2<|R_h|\le s/|T|"
        )
        st.markdown(
            "**Theorem 4** — under the γ-weak hypothesis assumption (Hatano's "
            "Definition 2: *for every* sample $W$ *there exists* a binary $h$ with "
            "$\\Delta(W,h)\\ge\\gamma I(q_W)$), the tree TOPDOWN-M outputs with "
            "$s$ leaves satisfies"
        )
        st.latex(r"\hat\varepsilon(T)\;\le\; I(T)\;\le\; s^{-\gamma}")
        st.markdown(
            "Here γ̂ is measured: the smallest $\\Delta_t/(\\lceil\\log_2 k_t\\rceil "
            "I(\\hat q_{\\ell_t}))$ over the rounds so far. The bound is guaranteed for the "
            "**final** tree (the dark ★ on the curves); at intermediate sizes only the binary "
            "form above is a theorem, so for multi-way runs the dashed curves are a reference."
        )
        st.markdown(
            "**A tighter bound from the same proof.** Hatano's proof of Theorem 4 bounds the "
            "final tree by the value of his Weight Distribution Game, "
            "$I(T)\\le\\varphi_\\gamma(s)\\le s^{-\\gamma}$ with "
            "$\\varphi_\\gamma(s)=(1-\\gamma)^i(1-s'\\gamma/2^i)$ for $s=2^i+s'$, "
            "$0\\le s'<2^i$ (the purple ★). A binary max-weight run is TOPDOWN-M for every "
            "target size, so there $I(T)\\le\\varphi_{\\hat\\gamma}(|T|)\\le "
            "e_{\\hat\\gamma}(|T|)$ at every round (the dash-dotted purple curve)."
        )
        st.markdown(
            "**From weak learning to advantage** (Hatano's Lemma 1, Mansour–McAllester's Lemma "
            "3.1): with the index $2\\sqrt{q(1-q)}$, a weak learner whose hypotheses have "
            "edge δ over every distribution gives splits of advantage $\\gamma=\\delta^2/16$, "
            "so a tree of $(1/\\varepsilon)^{O(1/\\gamma)}$ leaves reaches training error ε. "
            "The Bounds explorer turns δ and ε into these numbers."
        )
        st.markdown(
            "**Mansour–McAllester** price a $k$-way split at $g_\\gamma(k)$ and need γ in advance:"
        )
        st.latex(
            r"g_\gamma(k)=\frac{1-e_\gamma(k)}{\gamma}\approx \ln k,\qquad "
            r"\text{acceptable} \iff k=2 \;\text{ or }\; "
            r"|T|<\frac{e_\gamma(k)\,s\,\gamma}{2k}"
        )
        st.markdown(
            "Their Theorem 4.1 gives $I(T)\\le e_\\gamma(|T|)$ for the final tree when every "
            "chosen split is γ-boosting ($\\Delta/g_\\gamma(k)\\ge\\gamma I(\\hat q_\\ell)$). "
            "Hatano's ⌈log k⌉ gives a guarantee of the same kind without knowing γ, but not "
            "the same one: $I(T)\\le s^{-\\gamma}$ (with γ the advantage his assumption "
            "provides) instead of $e_\\gamma(s)$, and his acceptability rule $k\\le s/|T|$ "
            "instead of theirs. "
            "The **naive** criterion (raw gain) has no such guarantee: wide splits always gain "
            "at least as much, so it spends the budget early."
        )


def _focus_bar(runs: list[str]) -> str:
    """The run whose regions, tree and curves fill the screen (the others sit below)."""
    options = [SHORT[c] for c in runs]
    if st.session_state.get("focus") not in options:
        st.session_state["focus"] = options[0]
    choice = lecture.focus_select(
        options,
        help="The criterion whose regions, tree and bound curves are shown large; the other "
        "runs are the small pictures below (click one to focus it). "
        + " ".join(f"{SHORT[c]}: {CRITERION_LABELS[c]}." for c in runs),
    )
    return FROM_SHORT[choice or options[0]]


def render() -> None:
    lesson = begin(
        PAGE,
        "Top-down growth: how many branches should a split have?",
        _sidebar,
        student_toggle=student.toggle,
    )
    s, ds = lesson.settings, lesson.ds
    if not s.crit:
        st.warning("Choose at least one criterion in the sidebar.")
        return
    with lesson.row.focus:
        focus = _focus_bar(s.crit)
    # the student's splits make the focused run (the other criteria stay the algorithm's)
    played = (
        student.choices((lesson.key, *sorted(s.as_dict().items(), key=str), focus))
        if lesson.weak
        else ()
    )
    whose = student.whose()

    def run_of(c: str, choices: tuple = ()) -> list:
        """Criterion ``c``'s run from the shared cache (γ is Mansour–McAllester's alone)."""
        gamma = s.gamma if c == "mansour_mcallester" else None
        return topdown_runs.topdown_run(
            ds, lesson.key, s.size, s.index, c, s.max_arity, gamma, s.leaf_rule, choices
        )

    def runs_now() -> dict:
        """The runs, from the shared cache (a deferred download keeps this, not them)."""
        return {c: run_of(c, played if c == focus else ()) for c in s.crit}

    with lesson.computing("Growing the trees…"):
        lec = frames.topdown_lecture(
            ds,
            lesson.key,
            s,
            12 * lecture.scale(),
            played,
            focus if played else None,
            whose,
        )
        runs = runs_now()

    t = lesson.stepper(lec["n"], default=1)
    area = lesson.area()
    with area.side:
        if lesson.weak:
            gamma = s.gamma if focus == "mansour_mcallester" else None
            student.topdown_turn(
                ds,
                topdown_runs.topdown_state(
                    ds,
                    lesson.key,
                    s.size,
                    s.index,
                    focus,
                    s.max_arity,
                    gamma,
                    s.leaf_rule,
                    played,
                ),
                max_arity=s.max_arity,
                criterion_label=SHORT[focus],
                n_played=len(played),
            )
        if lesson.predict:
            quiz_widget.lecture_quiz(
                [
                    questions.question(
                        runs[focus], r, index=s.index, feature_names=ds.feature_names
                    )
                    for r in range(lec["n"])
                ],
                page="topdown",
                presenting=presenting(),
            )
    run = lec["runs"][focus]
    with area.main:
        lecture.three_views(
            focus,
            regions=lecture.Panel(
                run["regions"],
                f"{SHORT[focus]}: decision regions",
                notes=run["notes"],
                aspect=figures.aspect(ds),
                descriptions=run["descriptions"]["regions"],
            ),
            structure=lecture.Panel(
                run["structure"],
                f"{SHORT[focus]}: the tree (vermillion: this round's split)",
                descriptions=run["descriptions"]["structure"],
            ),
            curves=lecture.Panel(
                run["curves"],
                "I(T), errors and bounds vs leaves |T|",
                notes=[_curve_caption(focus, s, runs[focus][-1].metrics, whose)],
                descriptions=run["descriptions"]["curves"],
            ),
            structure_name="tree",
            proof=lecture.Panel(run["proof"], "The proof at this round"),
        )
    st.caption(REGIONS_KEY)
    theory_doc.words(("I(T)", "γ̂", "e_γ(n)", "s^−γ", "φ_γ(s)", "g_γ(k)", "MM"))

    lecture.small_multiples(
        [
            lecture.SmallRun(c, SHORT[c], lec["runs"][c]["small"], lec["runs"][c]["spark"])
            for c in s.crit
            if c != focus
        ],
        heading="The other runs — same data, same budget (click one to focus it)",
        spark_title="I(T), train error, e<sub>γ̂</sub>",
        on_focus=lecture.set_focus,
    )

    st.markdown("#### Why this split? The best candidate of each arity at the expanded leaf")
    st.caption(SEARCH_NOTE if s.max_arity > 2 else SEARCH_NOTE_BINARY)
    lecture.table(lec["candidates"], key="lv_candidates")
    st.markdown("#### This round in numbers")
    lecture.table(lec["metrics"], key="lv_metrics")

    lesson.export(
        s,
        runs_now,
        lambda code: export.snippet(
            code, s.size, s.index, s.crit, s.max_arity, s.gamma, s.leaf_rule
        ),
        extra=lambda: _exports(lesson.header, runs, runs_now, s.index, ds, t),
    )
    lesson.close(INTRO, _theory)


INTRO = (
    "**About this page.** The same data and the same leaf budget *s*, grown by different "
    "criteria. A wide split spends more of the budget, so it must gain more: Hatano divides "
    "the gain by ⌈log₂ k⌉, Mansour–McAllester by g_γ(k), the naive criterion not at all. "
    "Step through the rounds and watch the regions, the tree and the bound curves move "
    "together."
)

SEARCH_NOTE = (
    "Exact search: for each arity k = 2 … K, the best of every partition of the leaf's "
    "sorted values of each feature into k intervals (dynamic programming over every cut "
    "between distinct values), so each row is the argmax of Hatano's Fig. 2 for its k. "
    "A leaf with more than 2,000 training points would be searched over 256 weighted-quantile "
    "cuts instead; the table says so in any round where that happens."
)
SEARCH_NOTE_BINARY = "Exact search: every threshold between two distinct values of each feature."

REGIONS_KEY = (
    "Regions: filled markers are training points, hollow ones test points (orange ◆ class −1, "
    "blue ● class +1); the shading is the leaf's P(+1) (white = undecided); grey lines are "
    "earlier splits, the thick vermillion lines this round's split and the dashed box the "
    "leaf it divided; #n is the leaf's id in the tree."
)


def _curve_caption(c: str, s: Settings, last, whose: str = YOURS) -> str:
    if last.policy_rounds and not last.final_guarantee:
        return (
            f"{capitalized(whose)} splits left the theorems' rules (a lighter leaf than the "
            "heaviest, or a split the rule refuses): from that round on the bound curves are a "
            "reference."
        )
    if c == "mansour_mcallester" and last.mm_gamma_boosting is False:
        return (
            f"⚠ Not γ-boosting for γ = {s.gamma}: some chosen split had "
            "gain/g<sub>γ</sub>(k) < γ·I, so Theorem 4.1's bound is not guaranteed."
        )
    if c == "naive" and s.max_arity > 2:
        return (
            "Naive criterion: no theorem covers wide splits chosen by raw gain once "
            "they break Hatano's rule k ≤ s/|T|; the ★ and dashed curves are a "
            "reference."
        )
    if s.leaf_rule != "max_weight":
        return (
            "Largest-gain leaf rule: the bounds assume the largest-weight leaf, so "
            "they are a reference here."
        )
    if not last.binary_guarantee:
        return (
            "Multi-way splits: only the final-tree bounds ★ are theorems (s<sup>−γ̂</sup> is "
            "Theorem 4, φ<sub>γ̂</sub>(s) what its proof gives); the dashed curves are a "
            "reference."
        )
    return "Faint: the whole run; solid: up to this round; dot: this round."


def _exports(header, runs: dict, runs_now, index: str, ds, t: int | None) -> None:
    with header.export:
        st.markdown("**The runs and the trees**")
        for c, steps in runs.items():
            i = min(t or 0, len(steps) - 1)
            step = steps[i]
            st.download_button(
                f"{SHORT[c]}: rounds as CSV",
                lambda c=c: tables.history_frame(runs_now()[c]).to_csv(index=False),
                file_name=f"topdown_{c}.csv",
                mime="text/csv",
                key=f"csv_{c}",
                on_click="ignore",
            )
            st.download_button(
                f"{SHORT[c]}: tree at round {step.t} as DOT",
                lambda c=c, i=i: (
                    diagrams.tree_digraph(
                        runs_now()[c][i], index=index, feature_names=ds.feature_names
                    ).source
                ),
                file_name=f"topdown_{c}_round{step.t}.dot",
                mime="text/vnd.graphviz",
                key=f"dot_{c}",
                on_click="ignore",
            )
            st.download_button(
                f"{SHORT[c]}: tree at round {step.t} as SVG",
                lambda c=c, i=i: frames.tree_pictures(
                    runs_now()[c][i], index=index, feature_names=ds.feature_names
                )[0],
                file_name=f"topdown_{c}_round{step.t}.svg",
                mime="image/svg+xml",
                key=f"svg_{c}",
                on_click="ignore",
            )


page_run(PAGE, render)
