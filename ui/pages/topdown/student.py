"""You are the weak learner on /topdown (issue 17, item 1): the student picks the next split.

Before each round the student chooses the leaf (the max-weight rule may be overridden), the
feature, the arity k and the k − 1 thresholds — with sliders, or by dragging a box on the
regions plot (its edges along the chosen feature become the thresholds). The split is scored
live by :meth:`boostcore.topdown.GrowState.score`, exactly as ``grow`` scores its own
candidates: gain, price (⌈log₂ k⌉ for Hatano, g_γ(k) for Mansour–McAllester), score,
whether the criterion's rule accepts it and its advantage, next to the algorithm's best split
of the same leaf and the algorithm's own choice. "Use my split" continues the run from the
student's tree (``grow(choose=replay(choices))``, rounds after the student's take the
algorithm's split): the bound curves and the proof card then use the student's advantages,
so a weak split visibly weakens the guarantee.

The choices live in ``st.session_state["weak_topdown_choices"]`` as ``(leaf, feature,
thresholds, force)`` tuples, with the signature of the run they belong to (data and
parameters): a change of either starts the student's run over, with a notice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from boostcore.bounds import ceil_log2
from boostcore.datasets import Dataset
from ui import theme
from ui.charts import chart
from ui.classroom import pool, teach
from ui.figures import data_extent
from ui.text import md_plain
from ui.weak_common import Turn

from .frames import tree_cells_figure

KEY = "weak_topdown"


def toggle(page: str = "topdown") -> bool:
    """The "You are the weak learner" toggle (off by default: the page's normal mode)."""
    # off by default; no value= given: a class follower's page sets it from the teacher's
    # (ui/classroom/teach.py) before it is drawn
    return st.toggle(
        "You are the weak learner",
        key=f"weak_{page}_on",
        on_change=TURN.shown,
        help="Choose each round's split yourself — leaf, feature, number of branches and "
        "thresholds — and see its gain, price, score and advantage next to the algorithm's. "
        "The run continues from your tree and its bounds use your advantages.",
    )


TURN = Turn(
    KEY,
    "The data or the parameters changed: your splits belonged to the previous run, so your "
    "turn starts again from the single leaf.",
)


def choices(signature: tuple) -> tuple:
    """The student's splits for the run with this ``signature`` (data and parameters); a
    different signature starts over (and says so once)."""
    return TURN.choices(signature)


def whose() -> str:
    """Whose the played splits are, for the views' notes: the class's on a class follower's
    page (the teacher played them), else the student's own."""
    return TURN.whose()


def _fmt(x: float) -> str:
    return f"{x:.4g}" if math.isfinite(x) else "—"


def _thresholds_text(thresholds: Sequence[float]) -> str:
    return ", ".join(f"{t:.3g}" for t in thresholds)


def _row(who: str, leaf: int, score, names: Sequence[str]) -> dict:
    return {
        "split": who,
        "leaf": f"#{leaf}",
        "feature": names[score.feature],
        "k": score.k,
        "thresholds": _thresholds_text(score.thresholds),
        "gain Δ": score.gain,
        "price": score.price,
        "score": score.score,
        "advantage": score.advantage_per_level,
        "accepted by the rule": "yes" if score.acceptable else "no",
    }


def _default_thresholds(values: np.ndarray, k: int) -> list[float]:
    """k − 1 cuts at the k-quantiles of the leaf's values, each between two distinct values."""
    distinct = np.unique(values)
    mids = (distinct[:-1] + distinct[1:]) / 2
    picks = np.unique(np.quantile(mids, np.arange(1, k) / k, method="nearest"))
    return [float(p) for p in picks]


def _from_box(
    plot_key: str, lo_key: str, feature: int, span: tuple[float, float], k_max: int
) -> None:
    """A box dragged on the plot: its edges along ``feature`` inside the leaf become the
    thresholds (one edge: a 2-way split; both: 3-way)."""
    ss = st.session_state
    event = ss.get(plot_key)
    boxes = (event or {}).get("selection", {}).get("box", []) if event else []
    if not boxes:
        return
    edges = boxes[-1].get("x" if feature == 0 else "y") or []
    cuts = sorted(float(e) for e in edges if span[0] < float(e) < span[1])[: k_max - 1]
    if not cuts:
        return
    ss[f"{lo_key}_k"] = len(cuts) + 1
    for i, c in enumerate(cuts):
        ss[f"{lo_key}_thr{len(cuts) + 1}_{i}"] = c


def topdown_turn(
    ds: Dataset,
    state,
    *,
    max_arity: int,
    criterion_label: str,
    n_played: int,
) -> None:
    """The student's turn: controls, the regions with the split being drawn, the live scores
    against the algorithm's, and the buttons that play, undo or restart.

    Parameters
    ----------
    ds : Dataset
        The page's data (its training points are scored).
    state : GrowState or None
        :func:`.runs.topdown_state` — the run before the student's next round; ``None``
        when the run is over.
    max_arity : int
        The page's largest arity K.
    criterion_label : str
        The criterion's name on the page (the student's run is its run).
    n_played : int
        How many rounds the student has played.
    """
    names = list(ds.feature_names)
    following = TURN.following()  # a class: the teacher plays the splits
    # while the class chooses, the algorithm's split would give the answer away
    hidden = following and pool.answer_hidden()
    with st.container(border=True, key=f"{KEY}_box"):
        head, buttons = st.columns([3, 2], vertical_alignment="center")
        if following:
            head.markdown(
                f"**You are the weak learner** — {md_plain(criterion_label)}'s run, round "
                f"{n_played + 1}: choose a split and send it to the class. The views show "
                "the class's tree: the splits the teacher played (the rounds after them are "
                "the algorithm's)."
            )
        else:
            head.markdown(
                f"**You are the weak learner** — {md_plain(criterion_label)}'s run, round "
                f"{n_played + 1}: choose the split. The views show the run continued from "
                "your tree (the rounds after yours are the algorithm's)."
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
        if following and state is not None and n_played:
            _played_note(state, names, n_played)
        if state is None:
            if following:
                st.success(
                    f"The class's run is complete after {n_played} round(s) (the tree has "
                    "its s leaves or no leaf can be split). Step through it below."
                )
                return
            st.success(
                f"Your run is complete after {n_played} round(s) (the tree has its s leaves "
                "or no leaf can be split). Step through it below, undo, or start over."
            )
            return
        splittable = [leaf for leaf in state.leaves if state.splittable[leaf]]
        if not splittable:
            st.success("No leaf can be split any more: every leaf is pure or constant.")
            return
        if pool.collecting():
            # first in the panel, so that the projector shows it without scrolling
            _class_panel(state, ds)
        heaviest = state.max_weight_leaf
        left, right = st.columns([1, 1.25], gap="medium")
        with right:
            c1, c2, c3 = st.columns([1.4, 1, 1])
            leaf = c1.selectbox(
                "Leaf",
                splittable,
                index=splittable.index(heaviest) if heaviest in splittable else 0,
                format_func=lambda v: (
                    f"#{v} · weight {state.weights[v]:.3f}"
                    + (" (heaviest)" if v == heaviest else "")
                ),
                key=f"{KEY}_leaf_{n_played}",
                help="The theorems expand the heaviest leaf (weight p̂·I(q̂)); you may choose "
                "another one, and the page says what that does to the theorem.",
            )
            feature = c2.radio(
                "Feature",
                list(range(len(names))),
                format_func=lambda f: md_plain(names[f]),
                key=f"{KEY}_feature_{n_played}_{leaf}",
                horizontal=len(names) <= 3,
            )
            members = state.members(leaf)
            values = ds.X_train[members, feature]
            distinct = np.unique(values)
            lo_key = f"{KEY}_{n_played}_{leaf}_{feature}"
            if len(distinct) < 2:
                st.warning(
                    f"{md_plain(names[feature])} is constant in leaf #{leaf}: choose the other "
                    "feature or another leaf."
                )
                return
            k_max = int(min(max_arity, len(distinct)))
            if k_max > 2:
                k = c3.slider(
                    "Branches k",
                    2,
                    k_max,
                    key=f"{lo_key}_k",
                    help="k − 1 thresholds cut the leaf's range of the feature into k "
                    "intervals; a point with x ≤ t goes left.",
                )
            else:
                k = 2
                c3.markdown("**Branches k = 2**")
            span = (float(distinct[0]), float(distinct[-1]))
            defaults = _default_thresholds(values, k)
            thresholds = []
            cols = st.columns(max(k - 1, 1))
            for i in range(k - 1):
                skey = f"{lo_key}_thr{k}_{i}"
                if skey not in st.session_state:
                    st.session_state[skey] = defaults[min(i, len(defaults) - 1)]
                thresholds.append(
                    cols[i].slider(
                        f"Threshold {i + 1}",
                        span[0],
                        span[1],
                        step=(span[1] - span[0]) / 200 or 1.0,
                        key=skey,
                        format="%.3f",
                    )
                )
            thresholds = sorted(thresholds)
            mine = error = None
            try:
                mine = state.score(leaf, feature, thresholds)
            except ValueError as exc:  # an empty branch, two equal thresholds…
                error = str(exc)
            if following:
                split = None
                if mine is not None:
                    split = {
                        "leaf": int(leaf),
                        "feature": int(feature),
                        "thresholds": ",".join(repr(float(t)) for t in thresholds),
                    }
                # right under the controls it sends, its confirmation under it
                pool.send_row(KEY, split, what="split", turn=n_played)
            best_here = None if hidden else state.best(leaf)
            algo = None if hidden else state.algorithm_split
            rows = []
            if mine is not None:
                rows.append(_row("yours", leaf, mine, names))
            if best_here is not None:
                rows.append(_row("best at this leaf", leaf, best_here, names))
            if algo is not None and state.algorithm_leaf != leaf:
                rows.append(_row("the algorithm's choice", state.algorithm_leaf, algo, names))
            if rows:
                st.dataframe(
                    pd.DataFrame(rows),
                    hide_index=True,
                    column_config={
                        c: st.column_config.NumberColumn(format="%.4f")
                        for c in ("gain Δ", "price", "score", "advantage")
                    },
                    key=f"{KEY}_table",
                )
            force = False
            if error is not None:
                st.warning(md_plain(error, 300))
            else:
                notes = []
                if leaf != heaviest:
                    notes.append(
                        f"Leaf #{leaf} is not the heaviest (#{heaviest}): ε̂(T) ≤ I(T) still "
                        "holds, but the bounds' proofs expand the heaviest leaf, so from this "
                        "round on the curves are a reference, not a theorem."
                    )
                if mine.advantage_per_level <= 0:
                    notes.append(
                        "This split has no advantage (γ = 0): γ̂ becomes 0 and every bound "
                        "rises to 1."
                    )
                elif algo is not None and mine.advantage_per_level < algo.advantage_per_level:
                    notes.append(
                        f"Its advantage {mine.advantage_per_level:.3f} is below the "
                        f"algorithm's {algo.advantage_per_level:.3f}: γ̂ (the smallest "
                        "advantage so far) and so the guarantee can only get weaker."
                    )
                if not mine.acceptable:
                    notes.append(
                        f"The criterion's rule refuses it: {mine.reason}. Forcing it ends "
                        "the theorem for the final tree."
                    )
                    if not following:  # the teacher decides whether to force it
                        force = st.checkbox(
                            "Use it anyway (the run records that the rule was broken)",
                            key=f"{KEY}_force_{n_played}",
                        )
                for note in notes:
                    st.caption("⚠ " + md_plain(note, 400))
            if following:
                return
            with actions:
                st.button(
                    "Use my split",
                    key=f"{KEY}_play",
                    type="primary",
                    disabled=mine is None or (not mine.acceptable and not force),
                    on_click=TURN.play,
                    args=((leaf, feature, tuple(thresholds), bool(force)),),
                )
                if algo is not None:
                    st.button(
                        "Use the algorithm's split",
                        key=f"{KEY}_take",
                        on_click=TURN.play,
                        args=((state.algorithm_leaf, algo.feature, algo.thresholds, False),),
                    )
        with left:
            # the lecture's regions (a plotly dict) as a figure the student draws on
            fig = go.Figure(tree_cells_figure(state.step, ds, font=12))
            lo, hi = data_extent(ds)
            box = state.tree.node_boxes(lo, hi)[leaf]
            _cut_lines(
                fig, box, feature, thresholds, dict(color=theme.HIGHLIGHT, width=3, dash="dash")
            )
            fig.add_shape(
                type="rect",
                x0=float(box[0, 0]),
                x1=float(box[0, 1]),
                y0=float(box[1, 0]),
                y1=float(box[1, 1]),
                line=dict(color=theme.HIGHLIGHT, width=2, dash="dot"),
            )
            fig.update_layout(
                title=dict(text=f"Your split of leaf #{leaf} (drag a box to place thresholds)"),
                dragmode="select",
                height=380,
                margin=dict(t=56),
                title_y=0.98,
            )
            plot_key = f"{KEY}_plot_{n_played}_{leaf}_{feature}"
            chart(
                fig,
                key=plot_key,
                on_select=lambda: _from_box(plot_key, lo_key, feature, span, k_max),
                selection_mode="box",
            )


def _split_text(
    names: Sequence[str], leaf: int | None, feature: int, thresholds: Sequence[float], k: int
) -> str:
    return f"leaf #{leaf}, {md_plain(names[feature])} at {_thresholds_text(thresholds)} (k = {k})"


def _played_note(state, names: Sequence[str], n_played: int) -> None:
    """A follower's page: the round the teacher played last, the class's split against the
    algorithm's choice for that round (kept from the page while the class chose)."""
    rec = state.step.split
    if rec is None:
        return
    text = (
        f"**Round {n_played}, the class's split** (played by the teacher): "
        f"{_split_text(names, rec.leaf, rec.feature, rec.thresholds, rec.arity)}, advantage "
        f"{rec.advantage_per_level:.3f}."
    )
    algo = rec.algorithm_split  # what the algorithm would have done that round
    if algo is not None:
        same = (rec.algorithm_leaf, algo.feature, tuple(algo.thresholds)) == (
            rec.leaf,
            rec.feature,
            tuple(rec.thresholds),
        )
        if same:
            text += " The algorithm chose the same split."
        else:
            # the record's advantage per level, Δ / (⌈log₂ k⌉ I(q̂)), for the algorithm's
            per_level = algo.advantage / float(ceil_log2(algo.arity))
            where = _split_text(
                names, rec.algorithm_leaf, algo.feature, algo.thresholds, algo.arity
            )
            text += f" The algorithm's choice: {where}, advantage {per_level:.3f}."
    pool.played_note(KEY, text)


# ------------------------------------------------------------------------ the class's splits
def _parse_split(split: dict) -> tuple[int, int, tuple[float, ...]]:
    """A submitted split as (leaf, feature, thresholds); ValueError/KeyError/TypeError when it
    is not one (a hostile submission is refused here, then by ``state.score``)."""
    leaf, feature = int(split["leaf"]), int(split["feature"])
    thresholds = tuple(float(x) for x in str(split["thresholds"]).split(","))
    if not 1 <= len(thresholds) <= 8 or not all(math.isfinite(t) for t in thresholds):
        raise ValueError("thresholds must be 1-8 finite numbers")
    return leaf, feature, thresholds


def class_splits(state, ds: Dataset, submitted: list[dict]) -> tuple[list, int]:
    """The class's submitted splits scored as the student's own are (``state.score``): a
    list of ``(leaf, SplitScore)`` and the number refused."""
    scored, refused = [], 0
    for split in submitted:
        try:
            leaf, feature, thresholds = _parse_split(split)
            scored.append((leaf, state.score(leaf, feature, sorted(thresholds))))
        except (KeyError, ValueError, TypeError):
            refused += 1
    return scored, refused


def _cut_lines(fig: go.Figure, box, feature: int, thresholds, line: dict) -> None:
    """A split's thresholds drawn as lines across its leaf's box (vertical for x1)."""
    for t in thresholds:
        if feature == 0:
            xs, ys = (t, t), (float(box[1, 0]), float(box[1, 1]))
        else:
            xs, ys = (float(box[0, 0]), float(box[0, 1])), (t, t)
        fig.add_shape(type="line", x0=xs[0], x1=xs[1], y0=ys[0], y1=ys[1], line=line)


def _class_figure(state, ds: Dataset, scored: list, best) -> go.Figure:
    fig = go.Figure(tree_cells_figure(state.step, ds, font=12))
    lo, hi = data_extent(ds)
    boxes = state.tree.node_boxes(lo, hi)
    for leaf, sc in scored:
        line = pool.BEST if best is not None and sc is best[1] else pool.OTHERS
        _cut_lines(fig, boxes[leaf], sc.feature, sc.thresholds, line)
    fig.update_layout(
        title=dict(text=f"The class's {len(scored)} split(s) (the best: solid)"),
        height=360,
        margin=dict(t=56),
        title_y=0.98,
    )
    return fig


@st.fragment(run_every=2.0)
def _class_panel(state, ds: Dataset) -> None:
    """The teacher's view of the class's splits, refreshed every 2 s while collecting: the
    splits on the regions, the histogram of their advantages against the algorithm's best,
    the class's best split, and the button that plays it."""
    names = list(ds.feature_names)
    scored, refused = class_splits(state, ds, teach.class_splits())
    if not scored:
        pool.panel(KEY, n=0, refused=refused, best="", figures=list, play=_nothing, play_help="")
        return
    ok = [(leaf, sc) for leaf, sc in scored if sc.acceptable] or scored
    best = max(ok, key=lambda ls: ls[1].advantage_per_level)
    algo = state.algorithm_split
    leaf, sc = best
    reference = algo.advantage_per_level if algo is not None else None
    pool.panel(
        KEY,
        n=len(scored),
        refused=refused,
        best=f"The class's best: leaf #{leaf}, {md_plain(names[sc.feature])} at "
        f"{_thresholds_text(sc.thresholds)} (k = {sc.k}), advantage "
        f"{sc.advantage_per_level:.3f}"
        + (f" — the algorithm's: {algo.advantage_per_level:.3f}." if algo else "."),
        figures=lambda: (
            _class_figure(state, ds, scored, best),
            pool.histogram(
                [s.advantage_per_level for _, s in scored],
                reference,
                title="Advantage per level of the class's splits",
                x_title="advantage γ of a split",
                reference_label="the algorithm's best",
            ),
        ),
        play=lambda: TURN.play((leaf, sc.feature, tuple(sc.thresholds), not sc.acceptable)),
        play_help="Continue the run from the class's best split: the proof card then uses "
        "its advantage.",
    )


def _nothing() -> None:
    """No class's best to play yet."""
