"""You are the weak learner on /branching (issue 17, item 1): the student picks this round's
stump ``h_t``.

Before each round the student chooses a feature and a threshold — with a slider, or on the
regions plot: a click on a point puts the threshold at that point, a dragged box at its left
(or, for the second feature, lower) edge. The stump is scored live by
:func:`boostcore.branching.score_stump`, through the run's own round functions: ``H(Y|h_t)``,
the divided leaves ``ℓ̃_t`` (child, leaf, side, mass, q), the merge the focused scheme makes of
them, ``Z_t``, ``Π Z_t`` and the training error after the round — next to InfoBoost's own
stump for the same round (the weak learner of the sidebar). "Use my stump" continues the
focused scheme's run from the student's stumps (``bp_infoboost(choose=…)`` replays them for
rounds 1 … m; the later rounds are the weak learner's), so the regions, the program, the
curves and the proof card show the student's run.

The choices live in ``st.session_state["weak_branching_choices"]`` as ``(feature,
threshold)`` tuples, with the signature of the run they belong to (data, parameters and the
focused scheme): a change of either starts the student's run over, with a notice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from boostcore.branching import STOP, BPStep, StumpScore, score_stump
from boostcore.datasets import Dataset
from ui.charts import chart
from ui.classroom import pool, teach
from ui.figures import data_extent
from ui.lecture import scale
from ui.text import md_plain, sub_digits
from ui.weak_common import Turn

from .frames import turn_regions

KEY = "weak_branching"
#: ``Z_t`` this close to 1 is "no information": the round does not lower ``Π Z_t``.
NO_PROGRESS = 1e-9


def toggle(page: str = "branching") -> bool:
    """The "You are the weak learner" toggle (off by default: the page's normal mode)."""
    return st.toggle(
        "You are the weak learner",
        value=False,
        key=f"weak_{page}_on",
        on_change=TURN.shown,
        help="Choose each round's stump hₜ yourself — a feature and a threshold — and see "
        "H(Y|hₜ), the divided leaves, the merge and Zₜ next to InfoBoost's stump. The "
        "focused scheme's run continues from your stumps.",
    )


def _play(choice: tuple[int, float]) -> None:
    TURN.play((int(choice[0]), float(choice[1])))


TURN = Turn(
    KEY,
    "The data, the parameters or the focused scheme changed: your stumps belonged to the "
    "previous run, so your turn starts again at round 1.",
)


def choices(signature: tuple) -> tuple:
    """The student's stumps for the run with this ``signature`` (data, parameters, focused
    scheme); a different signature starts over (and says so once)."""
    return TURN.choices(signature)


def whose() -> str:
    """Whose the played stumps are, for the views' notes: the class's on a class follower's
    page (the teacher played them), else the student's own."""
    return TURN.whose()


def _fmt(x: float) -> str:
    return f"{x:.4f}" if math.isfinite(x) else "—"


def _stump_text(names: Sequence[str], feature: int, threshold: float) -> str:
    return f"{names[feature]} > {threshold:.3g}".replace("-", "−")


def default_threshold(values: np.ndarray, weights: np.ndarray) -> float:
    """The cut that halves the weight ``D_t`` (a neutral start, not an answer): between the
    distinct value where the cumulative weight reaches one half and the next one."""
    distinct, inverse = np.unique(values, return_inverse=True)
    mass = np.bincount(inverse, weights=weights, minlength=distinct.size)
    i = int(np.searchsorted(np.cumsum(mass), 0.5 * mass.sum()))
    i = min(i, distinct.size - 2)
    return float((distinct[i] + distinct[i + 1]) / 2)


def from_plot(plot_key: str, slider_key: str, feature: int, values: np.ndarray) -> None:
    """A click or a box on the plot sets the threshold: a clicked point's value of
    ``feature`` (snapped to the nearest training value: the point is on the ``−1`` side,
    ``x ≤ θ``), or a box's lower edge along it inside the data (the other edge if only that
    one is inside)."""
    ss = st.session_state
    event = ss.get(plot_key) or {}
    selection = event.get("selection", {}) if hasattr(event, "get") else {}
    axis = "x" if feature == 0 else "y"
    lo, hi = float(values.min()), float(values.max())
    value = None
    boxes = selection.get("box") or []
    if boxes:
        edges = sorted(float(e) for e in (boxes[-1].get(axis) or []))
        inside = [e for e in edges if lo < e < hi]
        if inside:
            value = inside[0]
    else:
        points = selection.get("points") or []
        if points and points[-1].get(axis) is not None:
            # the plot's positions are float32: the nearest training value is the point's
            clicked = float(points[-1][axis])
            value = float(values[np.argmin(np.abs(values - clicked))])
    if value is not None:
        ss[slider_key] = min(max(value, lo), hi)


#: How the plot sets the threshold: a click selects a point (the plot does not pan), a drag
#: selects a box (Streamlit's plotly chart reports clicks only outside plotly's box mode).
GESTURES = {"click a point": "pan", "drag a box": "select"}


def _merged_into(score: StumpScore, merge: str) -> dict[int, str]:
    """Where each merged leaf of ``L_t`` comes from, in words (per leaf id)."""
    if merge == "bands":
        return {
            g.leaf: f"#{g.leaf}: q {'≥' if g.sign > 0 else '<'} ½, band {g.band}"
            for g in score.groups
        }
    if merge == "all":
        return {0: "#0 (all of side −1)", 1: "#1 (all of side +1)"}
    return {}  # none: every reached child is its own leaf


def _leaves_frame(score: StumpScore, merge: str) -> pd.DataFrame:
    where = _merged_into(score, merge)
    rows = [
        {
            "child": r["child"],
            "leaf": f"#{r['leaf']}",
            "side": "+1" if r["side"] > 0 else "−1",
            "mass": r["mass"],
            "q": r["q"],
            "merged into": where.get(r["new_leaf"], f"#{r['new_leaf']}"),
        }
        for r in score.divided_leaves()
    ]
    return pd.DataFrame(rows)


#: Rows of a divided-leaves table shown before it scrolls (DT.InfoBoost has hundreds).
LEAF_ROWS = 6


def _leaves_height(n_rows: int) -> int | str:
    """All rows up to :data:`LEAF_ROWS`, else that many and a scrollbar (rows grow with the
    presenter mode's fonts)."""
    if n_rows <= LEAF_ROWS:
        return "auto"
    return round(scale() * (38 + 35 * LEAF_ROWS))


def _row(who: str, score: StumpScore, names: Sequence[str]) -> dict:
    m = score.metrics
    return {
        "stump": who,
        "hₜ": _stump_text(names, score.feature, score.threshold),
        "H(Y|hₜ)": score.H_h,
        "H(Y|ℓ̃ₜ)": score.H_divided,
        "children → leaves": f"{m.n_divided} → {m.n_leaves}",
        "Zₜ": score.Z,
        "Π Zₜ": score.prod_Z,
        "train error": score.train_error,
    }


def _merge_words(score: StumpScore, merge: str, c: float) -> str:
    m = score.metrics
    if merge == "all":
        text = (
            f"merge all: {m.n_divided} children → one leaf per side, so Zₜ = H(Y|hₜ) = "
            f"{_fmt(m.H_h)}"
        )
    elif merge == "none":
        text = (
            f"merge none: each of the {m.n_divided} children is a leaf, so Zₜ = "
            f"H(Y|ℓ̃ₜ) = {_fmt(m.H_divided)}"
        )
    else:
        text = (
            f"bands (c = {c:g}): {m.n_divided} children → {m.n_leaves} leaves (at most 4K = "
            f"{m.max_groups}); γₜ = {_fmt(m.gamma)}, Theorem 3: H(Y|ℓₜ) = "
            f"{_fmt(m.H_leaves)} ≤ 1 − cγₜ = {_fmt(m.bound_theorem3)}"
        )
    if m.smoothing_excess > 0:
        text += f" (+{m.smoothing_excess:.2g} smoothing for a pure leaf)"
    return text


def _state(run: Sequence[BPStep], n_played: int) -> BPStep | None:
    """The snapshot the student's next stump follows (round ``n_played``), or ``None`` when
    the run did not reach that round."""
    return next((s for s in run if s.t == n_played and s.kind != STOP), None)


def _notes(
    mine: StumpScore, algo: StumpScore | None, state: BPStep, t: int, weak: str
) -> list[str]:
    notes = []
    Dt, Zt = f"D{sub_digits(t)}", f"Z{sub_digits(t)}"  # markdown has no <sub>
    if mine.Z >= 1.0 - NO_PROGRESS:
        notes.append(
            f"Your stump brings no information under {Dt}: {Zt} = 1, "
            "so Π Zₜ stays at "
            f"{_fmt(state.metrics.bound_prod_Z)}. The round is legal (Theorem 1 still holds) "
            "but wasted."
        )
        if t > 1 and mine.metrics.n_divided == state.metrics.n_leaves:
            notes.append(
                f"Lemma 3: after round {t - 1} every leaf is balanced under {Dt}, so a stump "
                f"that cuts no leaf — h{t - 1} again, or a threshold outside the data — "
                "tells nothing about the label."
            )
    elif algo is not None and mine.Z > algo.Z + 1e-12:
        notes.append(
            f"Your {Zt} = {_fmt(mine.Z)} is above InfoBoost's {_fmt(algo.Z)}: Π Zₜ falls "
            "less this round — the bound gets weaker, not false."
        )
    elif algo is not None and mine.Z < algo.Z - 1e-12:
        what = "H(Y|hₜ)" if weak == "h" else "the divided leaves' H(Y|ℓ̃ₜ)"
        notes.append(
            f"Your {Zt} = {_fmt(mine.Z)} is below InfoBoost's {_fmt(algo.Z)}: its weak "
            f"learner minimises {what}, not Zₜ = H(Y|ℓₜ) after the merge."
        )
    return notes


def branching_turn(
    ds: Dataset,
    run: Sequence[BPStep],
    *,
    merge: str,
    c: float,
    weak: str,
    scheme: str,
    n_rounds: int,
    n_played: int,
) -> None:
    """The student's turn: controls, the regions with the stump being drawn, the live scores
    against InfoBoost's stump, and the buttons that play, undo or restart.

    Parameters
    ----------
    ds : Dataset
        The page's data (its training points are scored).
    run : sequence of BPStep
        The focused scheme's run continued from the student's stumps
        (:func:`.runs.bp_run` with ``choices``).
    merge, c, weak : str, float, str
        The run's merging scheme, ``c`` and weak learner (as :func:`.runs.bp_run`).
    scheme : str
        The scheme's name on the page (the student's run is its run).
    n_rounds : int
        The page's number of rounds ``T``.
    n_played : int
        How many rounds the student has played.
    """
    names = list(ds.feature_names)
    t = n_played + 1
    Dt = f"D{sub_digits(t)}"  # markdown has no <sub>
    following = TURN.following()  # a class: the teacher plays the stumps
    # while the class chooses, InfoBoost's stump would give the answer away
    hidden = following and pool.answer_hidden()
    with st.container(border=True, key=f"{KEY}_box"):
        head, buttons = st.columns([3, 2], vertical_alignment="center")
        if n_played >= n_rounds:
            head.markdown(f"**You are the weak learner** — {md_plain(scheme)}'s run.")
        elif following:
            head.markdown(
                f"**You are the weak learner** — {md_plain(scheme)}'s run, round {t} of "
                f"{n_rounds}: choose a stump h{t} and send it to the class. The views show "
                "the run continued from the class's stumps, the ones the teacher played "
                "(the rounds after them are InfoBoost's)."
            )
        else:
            head.markdown(
                f"**You are the weak learner** — {md_plain(scheme)}'s run, round {t} of "
                f"{n_rounds}: choose the stump h{t}. The views show the run continued "
                "from your stumps (the rounds after yours are InfoBoost's)."
            )
        with buttons.container(horizontal=True, horizontal_alignment="right"):
            if not following:
                st.button("Undo", key=f"{KEY}_undo", on_click=TURN.undo, disabled=n_played == 0)
                st.button("Start over", key=f"{KEY}_restart", on_click=TURN.restart)
            pool.collect_toggle()
        # the play buttons sit under the heading (filled once the choice is scored), so
        # they are on screen in the narrow side panel without scrolling it; a follower's
        # Send button is under the controls it sends instead (on a phone: on their screen)
        actions = None if following else st.container(horizontal=True, key=f"{KEY}_actions")
        if following and n_played:
            _played_note(ds, run, n_played, merge=merge, c=c, weak=weak)
        if n_played >= n_rounds:
            if following:
                st.success(
                    f"The class's run is complete: the teacher played all T = {n_rounds} "
                    "stumps. Step through it below."
                )
                return
            st.success(
                f"Your run is complete: you chose all T = {n_rounds} stumps. Step through it "
                "below, undo, or start over."
            )
            return
        state = _state(run, n_played)
        if state is None:
            last = run[-1]
            st.warning(
                f"Round {last.t + 1} could not be played: {md_plain(last.message, 300)} "
                + (
                    "The teacher chooses another stump."
                    if following
                    else "Undo to choose another stump."
                )
            )
            return
        if pool.collecting():
            # first in the panel, so that the projector shows it without scrolling
            _class_panel(state, ds, merge=merge, c=c, weak=weak)
        left, right = st.columns([1, 1.25], gap="medium")
        with right:
            c1, c2 = st.columns([1, 2.4])
            feature = c1.radio(
                "Feature",
                list(range(len(names))),
                format_func=lambda f: md_plain(names[f]),
                key=f"{KEY}_feature_{n_played}",
                horizontal=len(names) <= 3,
            )
            values = ds.X_train[:, feature]
            span = (float(values.min()), float(values.max()))
            slider_key = f"{KEY}_{n_played}_{feature}_thr"
            if span[0] == span[1]:
                threshold = span[0]
                c2.markdown(
                    f"{md_plain(names[feature])} is constant: every threshold gives a "
                    "constant stump."
                )
            else:
                if slider_key not in st.session_state:
                    st.session_state[slider_key] = default_threshold(values, state.D_next)
                threshold = c2.slider(
                    f"Threshold θ: h{t} = +1 where {md_plain(names[feature])} > θ",
                    span[0],
                    span[1],
                    step=(span[1] - span[0]) / 200,
                    key=slider_key,
                    format="%.3f",
                    help="Or set it on the plot: click a point (θ goes through it) or drag a "
                    "box (its left edge; its lower edge for the second feature).",
                )
            if following:
                split = {"round": t, "feature": int(feature), "threshold": float(threshold)}
                # right under the controls it sends, its confirmation under it
                pool.send_row(KEY, split, what="stump", turn=n_played)
            try:
                score = score_stump(
                    ds.X_train, ds.y_train, state, feature, threshold, merge=merge, c=c, weak=weak
                )
            except ValueError as exc:  # not expected: the page's own run and settings
                st.warning(md_plain(str(exc), 300))
                return
            mine, algo = score.yours, None if hidden else score.algorithm
            rows = [_row("yours", mine, names)]
            if algo is not None:
                rows.append(_row("InfoBoost's", algo, names))
            st.dataframe(
                pd.DataFrame(rows),
                hide_index=True,
                column_config={
                    k: st.column_config.NumberColumn(format="%.4f")
                    for k in ("H(Y|hₜ)", "H(Y|ℓ̃ₜ)", "Zₜ", "Π Zₜ", "train error")
                },
                key=f"{KEY}_table",
            )
            learner = (
                "InfoBoost's weak learner minimises H(Y|hₜ)"
                if weak == "h"
                else "the weak learner minimises the divided leaves' H(Y|ℓ̃ₜ) (sidebar)"
            )
            st.caption(
                f"Before the round: Π Zₜ = {_fmt(state.metrics.bound_prod_Z)}, training "
                f"error {_fmt(state.metrics.train_error)}. {learner}; training error ≤ Π Zₜ "
                "(Theorem 1) for any stump."
            )
            same = score.same_partition and not hidden
            tables = [("Your divided leaves", mine, f"{KEY}_leaves")]
            if algo is not None and not same:
                tables.append(("InfoBoost's divided leaves", algo, f"{KEY}_leaves_algo"))
            columns = st.columns(len(tables))
            for col, (title, s, key) in zip(columns, tables):
                with col:
                    st.markdown(f"**{title}** — {md_plain(_merge_words(s, merge, c), 300)}")
                    st.dataframe(
                        _leaves_frame(s, merge),
                        hide_index=True,
                        height=_leaves_height(len(s.divided_leaves())),
                        column_config={
                            k: st.column_config.NumberColumn(format="%.3f") for k in ("mass", "q")
                        },
                        key=key,
                    )
            for note in _notes(mine, algo, state, t, weak):
                st.caption("⚠ " + md_plain(note, 400))
            if same:
                st.caption(
                    "Your stump splits the training points as InfoBoost's does: every number "
                    "agrees."
                )
            if not following:
                _play_buttons(actions, feature, threshold, algo)
        with left:
            edge = "left" if feature == 0 else "lower"
            gesture = (
                st.segmented_control(
                    "Set θ on the plot",
                    list(GESTURES),
                    default="click a point",
                    key=f"{KEY}_gesture",
                    help="Click a point: θ goes through it (it falls on the −1 side, "
                    f"x ≤ θ). Drag a box: its {edge} edge along {names[feature]} becomes θ.",
                )
                or "click a point"
            )
            fig = go.Figure(turn_regions(state, ds, feature, threshold, font=12))
            # presenter mode enlarges the layout's fonts (ui.charts.chart), not the mark's
            fig.update_traces(textfont_size=round(12 * scale()), selector=dict(name="h_t = +1"))
            # a selection must not fade the other points: the stump line is the feedback
            keep = dict(marker=dict(opacity=1))
            fig.update_traces(selected=keep, unselected=keep, selector=dict(mode="markers"))
            fig.update_xaxes(fixedrange=True)
            fig.update_yaxes(fixedrange=True)
            fig.update_layout(
                title=dict(text=f"Your stump h{t} · points sized by {Dt}"),
                dragmode=GESTURES[gesture],
                height=400,
                margin=dict(t=40),
                title_y=0.98,
            )
            plot_key = f"{KEY}_plot_{n_played}_{feature}_{GESTURES[gesture]}"
            chart(
                fig,
                key=plot_key,
                on_select=lambda: from_plot(plot_key, slider_key, feature, values),
                selection_mode=("points", "box"),
            )


def _play_buttons(actions, feature: int, threshold: float, algo: StumpScore | None) -> None:
    """The student's own play buttons (not on a class follower's page: the teacher plays)."""
    with actions:
        st.button(
            "Use my stump",
            key=f"{KEY}_play",
            type="primary",
            on_click=_play,
            args=((feature, float(threshold)),),
        )
        if algo is not None:
            st.button(
                "Use InfoBoost's stump",
                key=f"{KEY}_take",
                on_click=_play,
                args=((algo.feature, algo.threshold),),
            )


def _played_note(
    ds: Dataset, run: Sequence[BPStep], n_played: int, *, merge: str, c: float, weak: str
) -> None:
    """A follower's page: the round the teacher played last, the class's stump against
    InfoBoost's for that round (kept from the page while the class chose)."""
    before, played = _state(run, n_played - 1), _state(run, n_played)
    if before is None or played is None or played.feature is None:
        return
    names = list(ds.feature_names)
    t = n_played
    Zt = f"Z{sub_digits(t)}"  # markdown has no <sub>
    try:
        got = score_stump(
            ds.X_train,
            ds.y_train,
            before,
            played.feature,
            played.threshold,
            merge=merge,
            c=c,
            weak=weak,
        )
    except ValueError:  # not expected: the run's own stump
        return
    mine, algo = got.yours, got.algorithm
    text = (
        f"**Round {t}, the class's stump** (played by the teacher): h{t} = "
        f"{md_plain(_stump_text(names, mine.feature, mine.threshold))}, {Zt} = {_fmt(mine.Z)}."
    )
    if algo is not None and got.same_partition:
        text += " It splits the training points as InfoBoost's does."
    elif algo is not None:
        text += (
            f" InfoBoost's: h{t} = {md_plain(_stump_text(names, algo.feature, algo.threshold))}, "
            f"{Zt} = {_fmt(algo.Z)} (lower: Π Zₜ falls more)."
        )
    pool.played_note(KEY, text)


# ------------------------------------------------------------------------ the class's stumps
def class_stumps(
    state: BPStep,
    ds: Dataset,
    submitted: Sequence[dict],
    *,
    merge: str,
    c: float,
    weak: str,
) -> tuple[list[StumpScore], int]:
    """The class's submitted stumps for the round after ``state``, scored as the student's
    own is (:func:`boostcore.branching.score_stump`); and how many were refused (another
    round's, or not a stump: ``score_stump`` validates the feature and the threshold)."""
    scored, refused = [], 0
    for split in submitted:
        try:
            if int(split["round"]) != state.t + 1:
                raise ValueError("another round's stump")
            feature = int(split["feature"])
            threshold = float(split["threshold"])
            scored.append(
                score_stump(
                    ds.X_train,
                    ds.y_train,
                    state,
                    feature,
                    threshold,
                    merge=merge,
                    c=c,
                    weak=weak,
                    compare=False,
                ).yours
            )
        except (KeyError, ValueError, TypeError):
            refused += 1
    return scored, refused


def _class_figure(state: BPStep, ds: Dataset, scored: list[StumpScore], best: StumpScore):
    """The regions with the class's best stump (as the student's is drawn) and every other
    stump's threshold as a dotted line across the data."""
    fig = go.Figure(turn_regions(state, ds, best.feature, best.threshold, font=12))
    lo, hi = data_extent(ds)
    for s in scored:
        if s is best or s.feature > 1:
            continue
        if s.feature == 0:
            x, y = (s.threshold, s.threshold), (float(lo[1]), float(hi[1]))
        else:
            x, y = (float(lo[0]), float(hi[0])), (s.threshold, s.threshold)
        fig.add_shape(type="line", x0=x[0], x1=x[1], y0=y[0], y1=y[1], line=pool.OTHERS)
    fig.update_layout(
        title=dict(text=f"The class's {len(scored)} stump(s) (the best: vermillion)"),
        height=360,
        margin=dict(t=56),
        title_y=0.98,
    )
    return fig


@st.fragment(run_every=2.0)
def _class_panel(state: BPStep, ds: Dataset, *, merge: str, c: float, weak: str) -> None:
    """The teacher's view of the class's stumps, refreshed every 2 s while collecting: the
    stumps on the regions, the histogram of their Z_t against InfoBoost's, the class's best
    (the lowest Z_t: Π Z_t falls most), and the button that plays it."""
    names = list(ds.feature_names)
    scored, refused = class_stumps(state, ds, teach.class_splits(), merge=merge, c=c, weak=weak)
    if not scored:
        pool.panel(KEY, n=0, refused=refused, best="", figures=list, play=_nothing, play_help="")
        return
    best = min(scored, key=lambda s: s.Z)
    algo = score_stump(
        ds.X_train, ds.y_train, state, best.feature, best.threshold, merge=merge, c=c, weak=weak
    ).algorithm
    t = state.t + 1
    Zt = f"Z{sub_digits(t)}"  # markdown has no <sub>
    pool.panel(
        KEY,
        n=len(scored),
        refused=refused,
        best=f"The class's best: h{t} = "
        f"{md_plain(_stump_text(names, best.feature, best.threshold))}, {Zt} = {best.Z:.4f}"
        + (f" — InfoBoost's: {algo.Z:.4f}." if algo is not None else "."),
        figures=lambda: (
            _class_figure(state, ds, scored, best),
            pool.histogram(
                [s.Z for s in scored],
                algo.Z if algo is not None else None,
                title=f"{Zt} of the class's stumps (lower: Π Zₜ falls more)",
                x_title=f"{Zt} = H(Y|ℓ{sub_digits(t)}) after the merge",
                reference_label="InfoBoost's",
            ),
        ),
        play=lambda: _play((best.feature, best.threshold)),
        play_help="Continue the run from the class's best stump: the program, the curves "
        "and the proof card use it.",
    )


def _nothing() -> None:
    """No class's best to play yet."""
