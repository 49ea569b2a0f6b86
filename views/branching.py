"""Page: InfoBoost as a divide-and-merge branching program (docs/theory.md §2; Takimoto et al.)."""

from __future__ import annotations

import streamlit as st

from ui import (
    figures,
    lecture,
    pages,
    quiz_widget,
    theory_doc,
)
from ui.charts import presenting
from ui.lesson import begin
from ui.pages.branching import diagrams, export, frames, questions, student
from ui.pages.branching import runs as branching_runs
from ui.pages.branching.frames import SCHEMES
from ui.params import page_run

#: The page's main algorithm: focused when it is among the schemes compared.
MAIN = "BP.InfoBoost"
HELP = {
    "InfoBoost": "merge all: every −1 child into one leaf, every +1 child into the other",
    "BP.InfoBoost": "merge by entropy bands (Theorem 3): each round keeps a share c of the "
    "divided leaves' information γₜ with at most 4K leaves",
    "DT.InfoBoost": "merge none: a decision tree whose depth-t nodes all ask hₜ",
}

PAGE = pages.page("branching")


def _sidebar() -> dict:
    """The page's sidebar widgets; their values by URL parameter name."""
    sb = st.sidebar
    sb.header("Branching program")
    schemes = sb.multiselect(
        "Merging schemes side by side",
        **PAGE.param("schemes").multi(),
        help="; ".join(f"{k}: {v}" for k, v in HELP.items()) + ".",
    )
    n_rounds = sb.slider(
        "Rounds T",
        **PAGE.param("T").number(),
        help="Number of boosting rounds (one stump each).",
    )
    c = sb.slider(
        "c (BP.InfoBoost)",
        **PAGE.param("c").number(),
        help="Theorem 3's trade-off, round by round: H(Y|ℓₜ) ≤ 1 − c·γₜ with at "
        "most 4K leaves, and K (the number of bands) grows with c. Near 1 the "
        "bound approaches the divided leaves' entropy (DT.InfoBoost); near 0 it "
        "tends to 1 and few bands remain (towards InfoBoost).",
    )
    wl = sb.radio(
        "Weak learner minimises",
        **PAGE.param("wl").select(),
        help="H(Y|h): InfoBoost's stump. Divided leaves: the stump that minimises the "
        "entropy of the divided leaves ℓ̃ₜ, which is what drives the bound "
        "(the paper's remark (1)).",
    )
    return {"schemes": schemes, "T": n_rounds, "c": c, "wl": wl}


def _theory() -> None:
    with st.expander(
        "The theory: Theorem 1, Lemma 3, the merging theorem, and why InfoBoost is 'merge all'"
    ):
        theory_doc.link("2")
        st.markdown(
            "Each round the stump $h_t$ **divides** every leaf $l$ into $(l,-1)$ and $(l,+1)$; "
            "the children of each side are then **merged** into groups, the leaves $L_t$. "
            "A leaf's weight and the update are"
        )
        st.latex(
            r"w[l]=\tfrac12\ln\frac{\Pr_{D_t}(\ell_t=l,\,y=+1)}{\Pr_{D_t}(\ell_t=l,\,y=-1)},"
            r"\qquad D_{t+1}(i)=\frac{D_t(i)\,e^{-w[\ell_t(x_i)]\,y_i}}{Z_t},\qquad "
            r"F_T(x)=\sum_{t=1}^T w[\ell_t(x)]"
        )
        st.markdown("**Theorem 1** (any merging scheme), with $G(p)=2\\sqrt{p(1-p)}$:")
        st.latex(
            r"\Pr_U\bigl(\mathrm{sign}\,F_T(x_i)\ne y_i\bigr)\;\le\;\prod_{t=1}^T Z_t,"
            r"\qquad Z_t = H_{D_t}(Y\mid\ell_t) + s_t\;\le\;H_{D_t}(Y\mid h_t) + s_t"
        )
        st.markdown(
            r"where $s_t = 0$ unless a leaf of $L_t$ is pure and its weight had to be "
            r"smoothed (below). Without pure leaves this is the paper's "
            r"$\prod Z_t = \prod H_{D_t}(Y\mid\ell_t) \le \prod H_{D_t}(Y\mid h_t)$."
        )
        st.markdown(
            "**Lemma 3** — after the update every leaf of $L_t$ is balanced: the "
            "current leaves say nothing about the label under $D_{t+1}$,"
        )
        st.latex(r"H_{D_{t+1}}(Y\mid\ell_t)=1.")
        st.markdown(
            "For **DT.InfoBoost**, whose leaves are the whole paths, no earlier stump "
            "is informative any more, so $h_{t+1}$ must be new (the paper's remark is "
            "about this scheme). With merging, an earlier stump can be informative "
            "again and be picked again."
        )
        st.markdown(
            "**Theorem 3 (merging by entropy bands)** — with $1-\\gamma_t = "
            "H_{D_t}(Y\\mid\\tilde\\ell_t)$ the entropy of the divided leaves, "
            "$a=2c/(1-c)$ and $\\varepsilon_j=((1+a)/a)^{j-1}c\\gamma_t/a$, grouping "
            "children by side, by the side of $q_z$ w.r.t. ½ and by the band "
            "$\\varepsilon_{j-1}\\le 1-G(q_z)<\\varepsilon_j$ gives"
        )
        st.latex(
            r"H_{D_t}(Y\mid\ell_t)\le 1-c\,\gamma_t,\qquad |L_t|\le 4K=O\!\left("
            r"\frac{\log(1/((1-c)\gamma_t))}{\log((1+c)/(2c))}\right)"
        )
        st.markdown(
            "**Why InfoBoost is 'merge all'.** With one leaf per side, $\\ell_t$ is just $h_t$, "
            "so $w$ is Aslam's $\\alpha_t[a]\\,a$ and $Z_t=H_{D_t}(Y\\mid h_t)$ on every round "
            "whose two sides both hold both classes: the two bounds coincide until a round "
            "smooths a one-class side (below). Merging nothing (DT.InfoBoost) makes $\\ell_t$ "
            "the whole path, $\\prod Z_t = H_U(Y\\mid h_1,\\dots,h_T)$ (Theorem 2, no leaf "
            "smoothed) — fast progress, but the tree doubles every round. Bands sit in between. "
            "For every scheme Theorem 2 gives the floor $\\prod Z_t \\ge H_U(Y\\mid h_1,"
            "\\dots,h_T)$ (the proof card shows it).\n\n"
            "*Smoothing.* A pure leaf would get an infinite weight; such leaves use "
            "$\\tfrac12\\ln\\frac{W^++\\varepsilon}{W^-+\\varepsilon}$ with $\\varepsilon=1/(2m)$. "
            "The bound always uses the actual $Z_t$, so Theorem 1's first inequality stays "
            "exact; on those rounds $Z_t$ exceeds $H_{D_t}(Y\\mid\\ell_t)$ by a small amount "
            "(shown in the table), and Lemma 3 holds for the other leaves. Points are drawn "
            "with area proportional to $D_t$."
        )


def _focus_bar(schemes: list[str]) -> str:
    """The scheme whose regions, program and curves fill the screen (the others sit below);
    by default the page's main algorithm."""
    default = MAIN if MAIN in schemes else schemes[0]
    if st.session_state.get("focus") not in (None, *schemes):  # its scheme was deselected
        del st.session_state["focus"]
    choice = lecture.focus_select(
        schemes,
        index=schemes.index(default),
        help="The merging scheme whose regions, program and curves are shown large; the "
        "other schemes are the small pictures below (click one to focus it).",
    )
    return choice if choice in schemes else default


def render() -> None:
    lesson = begin(
        PAGE,
        "InfoBoost grows a branching program: divide, then merge",
        _sidebar,
        student_toggle=student.toggle,
    )
    p, ds, choice = lesson.settings, lesson.ds, lesson.choice
    weak, predict = lesson.weak, lesson.predict
    if not p.schemes:
        st.warning("Choose at least one merging scheme in the sidebar.")
        return
    schemes = [s for s in SCHEMES if s in p.schemes]
    with lesson.row.focus:
        focus = _focus_bar(schemes)
    # the student's stumps make the focused run (the other schemes stay the algorithm's)
    played = student.choices((choice.key, p.n_rounds, p.c, p.wl, focus)) if weak else ()
    whose = student.whose()  # a class follower's played stumps are the class's
    font = 12 * lecture.scale()
    with lesson.computing("Boosting…"):

        def runs_now() -> dict:
            """The runs, from the shared cache (a deferred download keeps this, not them)."""
            return {
                name: branching_runs.bp_run(
                    ds,
                    choice.key,
                    p.n_rounds,
                    SCHEMES[name],
                    p.c,
                    p.wl,
                    played if name == focus else (),
                )
                for name in schemes
            }

        runs = runs_now()
        lec = frames.branching_lecture(
            ds,
            choice.key,
            tuple(schemes),
            p.n_rounds,
            p.c,
            p.wl,
            font,
            played,
            focus if played else None,
            whose,
        )
        program = frames.program_frames(
            ds,
            choice.key,
            focus,
            p.n_rounds,
            p.c,
            p.wl,
            font,
            played,
            whose,
        )

    t = lesson.stepper(lec["n"], default=frames.first_merge(runs[focus]))
    area = lesson.area()
    with area.side:
        if weak:
            student.branching_turn(
                ds,
                runs[focus],
                merge=SCHEMES[focus],
                c=p.c,
                weak=p.wl,
                scheme=focus,
                n_rounds=p.n_rounds,
                n_played=len(played),
            )
        if predict:
            quiz_widget.lecture_quiz(
                [
                    questions.question(
                        runs[focus], r, feature_names=ds.feature_names, X=ds.X_train, y=ds.y_train
                    )
                    for r in range(lec["n"])
                ],
                page="branching",
                presenting=presenting(),
            )
    run = lec["runs"][focus]
    with area.main:
        lecture.three_views(
            focus.replace(".", "_"),
            regions=lecture.Panel(
                run["regions"],
                f"{focus}: regions of sign F<sub>t</sub>",
                notes=run["notes"],
                aspect=figures.aspect(ds),
                descriptions=run["descriptions"]["regions"],
            ),
            structure=lecture.Panel(
                program["structure"],
                f"{focus}: the program by round",
                notes=program["notes"],
                descriptions=program["descriptions"],
            ),
            curves=lecture.Panel(
                run["curves"],
                "Π Z<sub>t</sub>, errors and leaves |L<sub>t</sub>|",
                notes=run["curve_notes"],
                descriptions=run["descriptions"]["curves"],
            ),
            structure_name="program",
            proof=lecture.Panel(run["proof"], "The proof at this round"),
        )
    st.caption(REGIONS_KEY)
    theory_doc.words(("|L_t|", "Z_t", "Π Z", "γ_t", "c", "bands", "collapsed"))

    lecture.small_multiples(
        [
            lecture.SmallRun(
                name.replace(".", "_"), name, lec["runs"][name]["small"], lec["runs"][name]["spark"]
            )
            for name in schemes
            if name != focus
        ],
        heading="The other schemes — same data, same rounds (click one to focus it)",
        spark_title="Π Z<sub>t</sub>, train error",
        on_focus=lecture.set_focus,
    )

    st.markdown("#### This round in numbers")
    lecture.table(lec["metrics"], key="lv_metrics")
    st.caption(LEAVES_KEY)
    if lec["groups"] is not None:
        st.markdown("#### BP.InfoBoost's groups: which children were merged (Theorem 3)")
        lecture.table(lec["groups"], key="lv_groups")

    lesson.export(
        p,
        runs_now,
        lambda code: export.snippet(code, p.schemes, p.n_rounds, p.c, p.wl),
        extra=lambda: _exports(lesson.header, runs, runs_now, ds, t),
    )

    st.markdown("#### What c buys at this round: Theorem 3 for one Dₜ (BP.InfoBoost)")
    yours = played if focus == "BP.InfoBoost" else ()
    c_view = frames.c_round_frames(ds, choice.key, p.n_rounds, p.c, p.wl, font, yours)
    lecture.view(
        "plotly",
        c_view["frames"],
        key="lv_c_round",
        notes=c_view["notes"],
        chart_key="c_round",
        title="This round's children merged with every c",
    )
    mine = C_ROUND_YOURS.format(whose=whose, m=len(yours)) if yours else ""
    st.caption(C_ROUND_KEY + mine)
    lesson.close(INTRO, _theory)


INTRO = (
    "**About this page.** Each round one stump divides every leaf in two; then the children "
    "are merged. **Merge everything** and you get InfoBoost; **merge nothing** and you get a "
    "decision tree (DT.InfoBoost); Takimoto, Koya and Maruoka's **entropy bands** "
    "(BP.InfoBoost) sit in between: each round they keep at least a share c of the progress "
    "the divided leaves would make, with few leaves (Theorem 3). The "
    "training error bound Π Zₜ holds for every merging scheme. Step through the rounds and "
    "watch the regions, the program and the bound move together."
)

C_ROUND_KEY = (
    "Theorem 3 is a statement about one round: for the round's Dₜ and divided leaves ℓ̃ₜ "
    "(H(Y|ℓ̃ₜ) = 1 − γₜ), the bands of any c give H(Y|ℓₜ) ≤ 1 − cγₜ with at most 4K "
    "leaves. The chart takes this round of the BP.InfoBoost run with the sidebar's c and "
    "merges its children with every c (ringed: the run's own). The bound falls as c grows and "
    "4K grows; the entropy reached and the leaves need not follow — the bands of different c "
    "are not nested, so a larger c can give a larger H(Y|ℓₜ) or fewer leaves. Whole runs "
    "with different c are not ordered either: from round 2 on each sees its own Dₜ."
)

C_ROUND_YOURS = (
    " Here, as in the views above, the run is made of {whose} stumps for rounds 1 … {m} and "
    "InfoBoost's after them."
)

LEAVES_KEY = (
    "|Lₜ| counts the same thing for every scheme: the leaves at least one training point "
    "reaches. DT.InfoBoost drops a child no training point reaches; BP.InfoBoost merges it "
    "into a band (its q counts as ½), and a group made only of such children stays in the "
    "program as a leaf of weight 0 for unseen points — drawn in the program, named in the "
    "groups table, not counted in |Lₜ|."
)

REGIONS_KEY = (
    "Regions: filled markers are training points, their area ∝ the weight Dₜ(i) hₜ "
    "was chosen on; hollow ones test points (orange ◆ class −1, blue ● +1); shading: the "
    "vote $1/(1+e^{-2F_t})$ (white = undecided); vermillion line: this round's stump hₜ, "
    "▸ marks its +1 side (no dashed box: every leaf is divided). Program: w = a leaf's "
    "weight, D = its mass under Dₜ; the left edge is hₜ = −1, the right one +1; several "
    "edges into one node are a merge."
)


def _program_svg(run, t: int, ds) -> str:
    done = frames.program_rounds(run, t)
    return frames.program_svg(
        done, rows=len(done) + 1, boxes=8, feature_names=ds.feature_names, wide=True
    )


def _exports(header, runs: dict, runs_now, ds, t: int | None) -> None:
    with header.export:
        st.markdown("**The programs**")
        for name, run in runs.items():
            done = frames.program_rounds(run, t or 0)
            if not done:  # round 0: the program is its root alone
                continue
            r, slug = done[-1].t, name.replace(".", "_")
            st.download_button(
                f"{name}: program at round {r} as DOT",
                lambda name=name, r=r: (
                    diagrams.bp_digraph(runs_now()[name], r, feature_names=ds.feature_names).source
                ),
                file_name=f"branching_{slug}_round{r}.dot",
                mime="text/vnd.graphviz",
                key=f"dot_{slug}",
                on_click="ignore",
            )
            st.download_button(
                f"{name}: program at round {r} as SVG",
                lambda name=name: _program_svg(runs_now()[name], t or 0, ds),
                file_name=f"branching_{slug}_round{r}.svg",
                mime="image/svg+xml",
                key=f"svg_{slug}",
                on_click="ignore",
            )


page_run(PAGE, render)
