"""Page: probabilistic boosting — chain, tree and matryoshka (docs/theory.md §3; Grossmann)."""

from __future__ import annotations

import streamlit as st

from ui import (
    costs,
    figures,
    lecture,
    pages,
    params,
    quiz_widget,
    rounds,
    theory_doc,
)
from ui.charts import presenting
from ui.lesson import begin
from ui.pages.matryoshka import diagrams, export, frames, questions
from ui.pages.matryoshka import runs as matryoshka_runs

HELP = {
    "chain": "Probabilistic AdaBoost: every point meets every weak classifier; bound Π Zₜ.",
    "tree": "Greedy probabilistic tree: expand the leaf with the largest Π Z; bound C(T).",
    "matryoshka": "2-matryoshka: a two-node tree whose nodes are two-node trees of … of soft "
    "stumps (T = 2^L); each doll is used through its exact P(H > 0).",
    "collapse": "A tree that collapses itself into one doll of a new tree whenever Eq. (14) "
    "promises a faster fall of the bound than plain growth (our reading of §5.4).",
}
PAGE = pages.page("matryoshka")


def _sidebar() -> dict:
    """The page's sidebar widgets; their values by URL parameter name."""
    sb = st.sidebar
    sb.header("Probabilistic boosting")
    picked = sb.multiselect(
        "Structures side by side",
        **PAGE.param("struct").multi(),
        help="; ".join(HELP.values()),
    )
    n_weak = sb.select_slider(
        "Weak classifiers T",
        **PAGE.param("Tw").select_slider(),
        help="Soft stumps to spend (a power of two so the matryoshka can use them all).",
    )
    softness = sb.slider(
        "Softness τ",
        **PAGE.param("tau").number(),
        help="q(+, x) = σ((x_j − θ)/τ): small τ is an almost deterministic "
        "stump, large τ a coin that only leans one way.",
    )
    est = sb.select_slider(
        "q known from",
        **PAGE.param("est").select_slider(),
        help="Grossmann's learner only sees R answers of each soft stump and "
        "estimates q by MAP (1 + #{+1})/(R + 2). Chain and tree train on the "
        "estimate; errors are measured with the true q.",
    )
    return {"struct": picked, "Tw": n_weak, "tau": softness, "est": est}


def _theory() -> None:
    with st.expander("The bounds, and where the paper's nesting argument breaks"):
        theory_doc.link("3")
        st.markdown(
            "A soft stump answers +1 with probability $q(+,x)=\\sigma((x_j-\\theta)/"
            "\\tau)$. With $W^{ab}=\\sum_{n:y_n=b} D(n)\\,q(a,x_n)$:"
        )
        st.latex(
            r"\alpha_{+}=\tfrac12\ln\frac{W^{++}}{W^{+-}},\quad "
            r"\alpha_{-}=\tfrac12\ln\frac{W^{--}}{W^{-+}},\quad "
            r"Z_{+}+Z_{-}=2\sqrt{W^{++}W^{+-}}+2\sqrt{W^{-+}W^{--}}\le\rho=\sqrt{1-4\varepsilon^2}"
        )
        st.markdown(
            "Each weak learner picks the soft stump of least $Z_++Z_-$ over every "
            "feature and threshold $\\theta$ (within $4\\tau$ of the data): a branch "
            "and bound certifies that no stump is better by more than 0.01 %, then "
            "Brent's method polishes $\\theta$ (docs/theory.md §3)."
        )
        st.markdown(
            "**Chain** (probabilistic AdaBoost): $E(\\text{Loss})\\le\\prod_t Z_t\\le"
            "\\rho^T$. **Tree** (Eq. (8)–(9)), grown at the leaf of largest "
            "$\\prod Z$:"
        )
        st.latex(
            r"E(\text{Loss})\;\le\;C(T)=\sum_{\text{leaves }l}\prod_{s\le l}Z_s\;\le\;"
            r"F(T,\hat\rho)=\frac{\Gamma(T+\hat\rho)}{\Gamma(T+1)\Gamma(\hat\rho)}"
        )
        st.markdown(
            "**Greedy collapse** (§5.4, our reading): after each stump compare plain growth's "
            "rate $\\dot C_{simple}=C(T)-C(T-1)$ with Eq. (14)'s promise for collapsing the "
            "tree into one node, $\\dot C_{matr}=\\tfrac{C}{T}(\\gamma_E+\\psi(C)+1/C-1)$; "
            "collapse when the promise is steeper. Watch $C(T)$ jump *up* at a collapse: the "
            "doll's $Z_++Z_-$ is larger than its $C$ — the promise rests on the same step as "
            "$M_2$."
        )
        st.markdown(
            "**Matryoshka** (§5.3): the paper claims $M_2(T,\\rho)=F(2,F(2,\\dots F(2,"
            "\\rho)))$. That uses a doll's *error bound* as the $\\rho$ of the next "
            "level, but a node needs $Z_++Z_-$, and a doll of error $C$ only "
            "guarantees $Z_++Z_-\\le 2\\sqrt{C(1-C)}$. So the page draws $M_2$ as the "
            "paper's claim, and the valid bound $C(T)$ computed with every doll's exact "
            "$P(H>0)$ — which always holds, as the curves show."
        )


def _focus_bar(structures: list[str]) -> str:
    """The run whose regions, structure and curves fill the screen (the others sit below);
    the matryoshka unless the link or the user chose another."""
    options = [SHORT[s] for s in structures]
    default = "Matryoshka" if "Matryoshka" in options else options[0]
    if st.session_state.get("focus", default) not in options:
        st.session_state["focus"] = default
    choice = lecture.focus_select(
        options,
        index=options.index(default),
        help="The structure whose regions, drawing and bound curves are shown large; the "
        "other runs are the small pictures below (click one to focus it).",
    )
    return FROM_SHORT[choice or default]


def _first_step() -> int:
    """The step a preset opens at: the one showing :data:`DEFAULT_COUNT` weak classifiers in
    the unit of the run focused now (level 2 for the matryoshka, the default focus; round 4
    of a chain or tree)."""
    focus = st.session_state.get("focus")
    return DEFAULT_COUNT if focus not in (None, SHORT["matryoshka"]) else 2


def _old_link(counts: tuple[int, ...]) -> None:
    """Open a link made when ``?round=`` counted weak classifiers (before issue 25, 7) at the
    step holding that count: a value above the last step can only be such a count (a link's
    ``Tw`` fixes its steps, and the stepper writes steps), e.g. ``?round=12`` at T = 16 is
    level 3 (8 stumps), not the last level. Values up to the last step are steps. Only on
    the session's first page run (no round yet; a preset link's round is clamped by
    :mod:`ui.rounds`)."""
    raw = st.query_params.get(rounds.KEY)
    if rounds.current() is not None or raw is None:  # a preset link has set the round
        return
    try:
        value = int(raw)
    except ValueError:
        return  # the stepper reports text on the page's notice
    if value >= len(counts):
        params.handled(rounds.KEY)
        rounds.show(frames.step_of(counts, value))


def _keep_count(focus: str, counts: tuple[int, ...]) -> None:
    """When another run is focused, the stepper's unit changes (levels ↔ weak classifiers):
    show the step holding the weak classifiers shown before, not the same step number."""
    before = st.session_state.get("mat_steps")
    st.session_state["mat_steps"] = (focus, counts)
    t = rounds.current()
    if before is None or before[0] == focus or t is None:
        return
    old = before[1]
    rounds.show(frames.step_of(counts, old[min(max(t, 0), len(old) - 1)]))


def render() -> None:
    lesson = begin(
        PAGE,
        "Probabilistic boosting: chain, tree, matryoshka",
        _sidebar,
        first_round=_first_step,
    )
    p, ds, choice, predict = lesson.settings, lesson.ds, lesson.choice, lesson.predict
    structures = p.structures
    if not structures:
        st.warning("Choose at least one structure in the sidebar.")
        return
    n_weak = p.n_weak
    refusal = costs.prob_refusal(ds.n_train, n_weak)
    if refusal:
        st.error(refusal)
        return
    with lesson.row.focus:
        focus = _focus_bar(structures)
    with lesson.computing("Boosting soft stumps…"):

        def runs_now() -> dict:
            """The runs, from the shared cache (a deferred download keeps this, not them)."""
            return {
                s: matryoshka_runs.prob_run(
                    ds,
                    choice.key,
                    s,
                    n_weak,
                    p.softness,
                    p.samples if s in ("chain", "tree") else None,
                )
                for s in structures
            }

        runs = runs_now()
        # one step per change of the focused run (issue 25, 7): the matryoshka's levels, the
        # chain's and the tree's weak classifiers; the other runs are shown at those counts
        counts = frames.step_counts(runs, focus)
        lec = frames.matryoshka_lecture(
            ds,
            choice.key,
            tuple(structures),
            n_weak,
            p.softness,
            p.samples,
            12 * lecture.scale(),
            focus,
        )

    _old_link(counts)
    _keep_count(focus, counts)
    levels = focus == "matryoshka"
    t = lesson.stepper(
        len(counts),  # step k shows counts[k] weak classifiers (step 0: the initial model)
        default=frames.step_of(counts, DEFAULT_COUNT),
        label="Level" if levels else "Weak classifiers used",
        unit="level" if levels else "round",
        note=f"levels 0 … {len(counts) - 1} hold T = {', '.join(map(str, counts))} weak classifiers"
        if levels
        else "",
    )
    area = lesson.area()
    with area.side:
        if predict:
            quiz_widget.lecture_quiz(
                questions.step_questions(
                    runs[focus],
                    counts,
                    feature_names=ds.feature_names,
                    X=ds.X_train,
                    y=ds.y_train,
                ),
                page="matryoshka",
                presenting=presenting(),
            )
    run = lec["runs"][focus]
    with area.main:
        lecture.three_views(
            focus,
            regions=lecture.Panel(
                run["regions"],
                f"{SHORT[focus]}: P(H(x) > 0)",
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
                "Expected errors and bounds vs T",
                notes=[run["curve_note"]],
                descriptions=run["descriptions"]["curves"],
            ),
            proof=lecture.Panel(run["proof"], "The proof at this round"),
        )
    st.caption(REGIONS_KEY)
    theory_doc.words(("C(T)", "F(T, ρ)", "ρ", "M2", "doll"))
    if p.samples:
        st.warning(
            f"q is estimated from {p.samples} answers per point: the chain's "
            "and the tree's Z, C(T) and Π Z come from the estimates, so they are "
            "estimates of the bound, not guaranteed bounds (the matryoshka keeps the "
            "exact q).",
            icon=":material/casino:",
        )

    lecture.small_multiples(
        [
            lecture.SmallRun(s, SHORT[s], lec["runs"][s]["small"], lec["runs"][s]["spark"])
            for s in structures
            if s != focus
        ],
        heading="The other runs — same data, same stumps to spend (click one to focus it)",
        spark_title="error, bound",
        on_focus=lecture.set_focus,
    )

    st.markdown("#### This round in numbers")
    lecture.table(lec["metrics"], key="lv_metrics")
    if lec.get("dolls") is not None:
        st.markdown(
            "#### Each doll used as a node: the bound the paper plugs in vs what the "
            "node really does"
        )
        lecture.table(lec["dolls"], key="lv_dolls")
        st.caption(frames.DOLLS_CAPTION)

    lesson.export(
        p,
        runs_now,
        lambda code: export.snippet(code, p.structures, p.n_weak, p.softness, p.samples),
        extra=lambda: _exports(
            lesson.header, runs, runs_now, ds, counts[min(t or 0, len(counts) - 1)]
        ),
    )
    lesson.close(INTRO, _theory)


#: Weak classifiers shown when the link names no step: four stumps, the matryoshka's first
#: dolls inside a doll (level 2; the stepper clamps it for T = 2).
DEFAULT_COUNT = 4

SHORT = frames.NAMES
FROM_SHORT = {v: k for k, v in SHORT.items()}

STRUCTURE_TITLE = {
    "chain": "Chain: every stump votes (vermillion: newest)",
    "tree": "Tree: one path per point (vermillion: newest)",
    "matryoshka": "Matryoshka: dolls in dolls (vermillion: new)",
    "collapse": "Collapse: a tree folded into dolls",
}

INTRO = (
    "**About this page.** Grossmann boosts *probabilistic* weak classifiers — soft stumps "
    "that answer at random. A chain lets every point meet every stump; a tree lets each point "
    "meet only the stumps on its path; the **matryoshka** nests two-node trees inside "
    "two-node trees (a level-ℓ doll holds 2^ℓ stumps, so it appears at rounds 2, 4, 8, …). "
    "The heat shows P(H(x) > 0), the probability that the boosted vote is positive."
)

REGIONS_KEY = (
    "Regions: filled markers are training points, hollow ones test points (orange ◆ class −1, "
    "blue ● class +1), all of one size (no weights shown); the shading is P(H(x) > 0), the "
    "chance that the boosted vote is positive (orange 0, white ½, blue 1; the chain's is a "
    "Monte Carlo estimate, the trees' exact); the vermillion line is the newest soft stump's "
    "threshold θ and the pale band θ ± 2τ where it answers almost at random."
)


def _dot(step, ds) -> str:
    return diagrams.prob_digraph(
        step.model, feature_names=ds.feature_names, new_stump=frames.newest_stump(step)
    ).source


def _exports(header, runs: dict, runs_now, ds, n_weak: int) -> None:
    """Each structure's picture as shown with ``n_weak`` weak classifiers (this step's)."""
    with header.export:
        st.markdown("**The structures at this round**")
        for s, steps in runs.items():
            i = frames.shown_index(steps, n_weak)
            if i is None:
                continue
            step = steps[i]
            T = step.metrics.n_weak  # the page's rounds count weak classifiers
            st.download_button(
                f"{SHORT[s]}: structure at T = {T} as SVG",
                lambda s=s, i=i: frames.structure_pictures(
                    runs_now()[s][i], s, names=ds.feature_names, font=13
                )[0],
                file_name=f"matryoshka_{s}_T{T}.svg",
                mime="image/svg+xml",
                key=f"svg_{s}",
                on_click="ignore",
            )
            st.download_button(
                f"{SHORT[s]}: structure at T = {T} as DOT",
                lambda s=s, i=i: _dot(runs_now()[s][i], ds),
                file_name=f"matryoshka_{s}_T{T}.dot",
                mime="text/vnd.graphviz",
                key=f"dot_{s}",
                on_click="ignore",
            )


params.page_run(PAGE, render)
