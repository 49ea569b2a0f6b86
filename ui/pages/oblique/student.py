"""You are the weak learner on /oblique (issue 17, item 1): the student draws BoostODT's next
separator.

At the node BoostODT splits next (the leaf rule's choice, as in the algorithm's run), the
student sets the line ``cos θ·x₁ + sin θ·x₂ + b = 0`` — an angle θ and an offset from the
node's centre with sliders, or by dragging a box on the plot of the node's examples (the
diagonal from where the drag starts to where it ends becomes the line; ``LS ≥ 0``, the right
child, is on the right-hand side of that drag). The line is scored live by
:func:`boostcore.oblique.score_separator`, exactly as :func:`boostcore.oblique.boost_odt`
would split by it: μ, α, √(1 − μ²) of its ±1 output under the node's class-balanced weights,
the node's share of Σ 2√(w⁺w⁻) before and after, and Theorem 1's bound after the split —
next to AdaBoost_R's separator at the same node (its line drawn too). "Use my line" continues
the run from the student's separators (``boost_odt(choose=…)`` replays the student's lines for
steps 1 … m; later steps are AdaBoost_R's), so the lecture views (regions, tree, curves,
proof card) show the student's run.

The choices live in ``st.session_state["weak_oblique_choices"]``: one entry per step, either
``((cos θ, sin θ), b)`` (the student's line) or ``None`` (AdaBoost_R's separator), with the
signature of the run they belong to (data and parameters); a change of either starts the
student's run over, with a notice.

This module has its own cached runs (:func:`odt_run`): the page's BoostODT run, replayed from
the student's choices, in :mod:`ui.cache`'s shared store.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from boostcore.datasets import Dataset
from boostcore.oblique import ODTStep, score_separator
from boostcore.steps import STEP
from ui import theme
from ui.charts import chart, presenting
from ui.classroom import pool, teach
from ui.figures import data_extent
from ui.text import md_plain
from ui.weak_common import Turn

from .figures import zero_segments

KEY = "weak_oblique"
FOCUS = "BoostODT"  # the short name of BoostODT's run in the focus selector

#: Grid of the node's cell and of AdaBoost_R's ``LS = 0`` on the student's plot.
CELL_GRID = 110
LINE_GRID = 140

INNER_OFF = (
    "Stepping through the stumps inside each node is off while you are the weak learner: "
    "your nodes are single lines (no stumps to step through), so the stepper counts one "
    "BoostODT node per step."
)


# ------------------------------------------------------------------------------ the runs
def next_split(run: Sequence[ODTStep], n_played: int) -> tuple[ODTStep, ODTStep] | None:
    """``(before, algorithm's)``: the snapshot after the student's ``n_played`` steps and the
    run's next step — the node the leaf rule picks there, split by AdaBoost_R (the run plays
    the algorithm after the student's steps) — or ``None`` when the run is over by then."""
    if n_played + 1 >= len(run):
        return None
    before, nxt = run[n_played], run[n_played + 1]
    if before.t != n_played or nxt.kind != STEP:
        return None
    return before, nxt


# ------------------------------------------------------------------------------ geometry
def line_from_points(a, b, centre) -> tuple[float, float] | None:
    """The line through ``a`` and ``b`` as ``(θ in degrees, offset from centre)``: its normal
    ``(cos θ, sin θ)`` points to the right-hand side of the way from ``a`` to ``b`` (the side
    ``LS ≥ 0``, the right child), the offset is the signed distance of the line from
    ``centre`` along the normal. ``None`` if ``a`` and ``b`` coincide.

    >>> line_from_points((0.0, 0.0), (0.0, 1.0), (0.0, 0.0))  # upwards: right is +x
    (0.0, 0.0)
    >>> theta, d = line_from_points((0.0, 1.0), (1.0, 1.0), (0.0, 0.0))  # rightwards
    >>> round(theta, 6), round(d, 6)
    (270.0, -1.0)
    """
    a, b, c = (np.asarray(p, dtype=float) for p in (a, b, centre))
    t = b - a
    length = float(np.hypot(*t))
    if not length > 0 or not math.isfinite(length):
        return None
    n = np.array([t[1], -t[0]]) / length
    theta = math.degrees(math.atan2(n[1], n[0])) % 360.0
    return theta, float(n @ (a - c))


def line_of(theta: float, offset: float, centre) -> tuple[tuple[float, float], float]:
    """``((cos θ, sin θ), b)``: the line at angle θ (degrees) and signed distance ``offset``
    from ``centre``, as :func:`boostcore.oblique.line_separator` takes it
    (``cos θ·x₁ + sin θ·x₂ + b ≥ 0`` goes right)."""
    r = math.radians(theta)
    n = (math.cos(r), math.sin(r))
    b = -(n[0] * float(centre[0]) + n[1] * float(centre[1])) - float(offset)
    return n, b


def _clip(direction, b: float, lo, hi) -> tuple[list[float], list[float]]:
    """The segment of ``direction·x + b = 0`` inside the box ``lo … hi``."""
    (p, q), pts = direction, []
    for x in (lo[0], hi[0]):
        if abs(q) > 1e-12:
            y = -(p * x + b) / q
            if lo[1] - 1e-9 <= y <= hi[1] + 1e-9:
                pts.append((x, y))
    for y in (lo[1], hi[1]):
        if abs(p) > 1e-12:
            x = -(q * y + b) / p
            if lo[0] - 1e-9 <= x <= hi[0] + 1e-9:
                pts.append((x, y))
    if len(pts) < 2:
        return [], []
    pts.sort()
    return [pts[0][0], pts[-1][0]], [pts[0][1], pts[-1][1]]


# ------------------------------------------------------------------------------ session
def toggle(page: str = "oblique") -> bool:
    """The "You are the weak learner" toggle (off by default: the page's normal mode)."""
    return st.toggle(
        "You are the weak learner",
        value=False,
        key=f"weak_{page}_on",
        on_change=TURN.shown,
        help="Draw BoostODT's next separator yourself — an angle and an offset, or drag a box "
        "on the plot — and see its μ, α and the node's loss next to AdaBoost_R's separator. "
        "The run continues from your lines: the regions, the tree, the curves and the proof "
        "use them.",
    )


def _focus_boostodt() -> None:
    st.session_state["focus"] = FOCUS


TURN = Turn(
    KEY,
    "The data or the parameters changed: your lines belonged to the previous run, so your "
    "turn starts again from the root.",
    on_show=_focus_boostodt,
)


def choices(signature: tuple) -> tuple:
    """The student's separators for the run with this ``signature`` (data and parameters);
    a different signature starts over (and says so once)."""
    return TURN.choices(signature)


def whose() -> str:
    """Whose the played lines are, for the views' notes: the class's on a class follower's
    page (the teacher played them), else the student's own."""
    return TURN.whose()


def with_edge(
    theta: float, offset: float, mu_of: Callable[[float, float], float]
) -> tuple[float, float]:
    """The same line turned so that its side ``LS ≥ 0`` holds more of the +1 weight
    (``μ ≥ 0``): ``(θ + 180°, −offset)`` when ``mu_of(θ, offset) < 0``, else unchanged.

    A drag sets the line, not which side is which: without this, dragging the same line
    top-to-bottom instead of bottom-to-top gave a negative μ and put "LS ≥ 0" on the side
    the student did not mean (issue 25, item 10). The tree is the same either way (each
    child gets its own constant); only the weak hypothesis's sign, and so μ, flips.

    Parameters
    ----------
    theta, offset : float
        The line (:func:`line_of`).
    mu_of : callable
        μ of the line ``(θ, offset)`` on the node's weights.

    Returns
    -------
    tuple of float
        ``(θ, offset)`` with ``μ ≥ 0``, θ in [0°, 360°).

    Examples
    --------
    >>> with_edge(30.0, 0.5, lambda t, o: -0.2)
    (210.0, -0.5)
    >>> with_edge(30.0, 0.5, lambda t, o: 0.2)
    (30.0, 0.5)
    """
    if mu_of(theta, offset) < 0:
        return (theta + 180.0) % 360.0, -offset
    return theta, offset


def _from_drag(
    plot_key: str,
    theta_key: str,
    offset_key: str,
    centre,
    reach: float,
    mu_of: Callable[[float, float], float],
) -> None:
    """A box dragged on the plot: its diagonal, from the press to the release, becomes the
    line (a lasso: its first and last points), turned so that ``μ ≥ 0`` (:func:`with_edge`)."""
    ss = st.session_state
    event = ss.get(plot_key) or {}
    sel = event.get("selection", {}) if isinstance(event, dict) else {}
    shapes = [s for s in (sel.get("box") or []) + (sel.get("lasso") or []) if s]
    if not shapes:
        return
    xs, ys = shapes[-1].get("x") or [], shapes[-1].get("y") or []
    if len(xs) < 2 or len(ys) < 2:
        return
    got = line_from_points((xs[0], ys[0]), (xs[-1], ys[-1]), centre)
    if got is None:
        return
    theta, offset = with_edge(*got, mu_of)
    ss[theta_key] = round(theta, 2)
    ss[offset_key] = float(np.clip(offset, -reach, reach))


# ------------------------------------------------------------------------------ the panel
def _fmt(x: float | None) -> str:
    return f"{x:.4g}" if x is not None and math.isfinite(x) else "—"


def _equation(direction, b: float, names: Sequence[str]) -> str:
    """``0.866·x₁ + 0.5·x₂ − 0.31 = 0`` with the data's feature names (plain text)."""
    terms = []
    for w, name in zip(direction, names):
        if abs(w) < 5e-4:
            continue
        sign = "−" if w < 0 else "+"
        terms.append(f"{sign} {abs(w):.3f}·{name[:14]}")
    if abs(b) >= 5e-4 or not terms:
        terms.append(f"{'−' if b < 0 else '+'} {abs(b):.3g}")
    text = " ".join(terms)
    text = text[2:] if text.startswith("+ ") else "−" + text[2:]
    return text + " = 0"


def _row(who: str, s) -> dict:
    return {
        "separator": who,
        "left | right": f"{s.n_left} | {s.n_right}",
        "μ": s.mu,
        "α": s.alpha,
        "√(1 − μ²)": s.factor,
        "node loss before": s.loss_before,
        "after": s.loss_after,
        "after/before": s.loss_ratio,
        "Thm 1 bound after": s.metrics.bound_theorem1 if s.metrics is not None else None,
    }


def _view_box(ds: Dataset, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A box around the node's examples (padded), never thinner than a tenth of the data's."""
    dlo, dhi = data_extent(ds, pad=0.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 0.1 * np.where(dhi > dlo, dhi - dlo, 1.0))
    mid = (lo + hi) / 2
    return mid - 0.62 * span, mid + 0.62 * span


def _figure(
    ds: Dataset,
    before: ODTStep,
    node: int,
    members: np.ndarray,
    weights: np.ndarray,
    mine: tuple,
    algorithm,
    lo: np.ndarray,
    hi: np.ndarray,
) -> go.Figure:
    """The node's examples (sized by their class-balanced weights), the rest faint, the
    node's cell, AdaBoost_R's ``LS = 0`` and the student's line with its two sides."""
    tree = before.tree
    data: list = []
    # outside the node's cell: light grey
    gx = np.linspace(lo[0], hi[0], CELL_GRID)
    gy = np.linspace(lo[1], hi[1], CELL_GRID)
    GX, GY = np.meshgrid(gx, gy)
    G = np.column_stack([GX.ravel(), GY.ravel()])
    inside = tree.apply(G) == node
    data.append(
        go.Heatmap(
            x=gx,
            y=gy,
            z=(~inside).astype(np.uint8).reshape(GX.shape),
            zmin=0,
            zmax=1,
            colorscale=[[0.0, "rgba(255,255,255,0)"], [1.0, "rgba(120,120,120,0.16)"]],
            showscale=False,
            hoverinfo="skip",
            name="outside the node",
        )
    )
    others = np.ones(ds.n_train, dtype=bool)
    others[members] = False
    data.append(
        go.Scatter(
            x=ds.X_train[others, 0],
            y=ds.X_train[others, 1],
            mode="markers",
            marker=dict(color="#C8C8C8", size=4),
            hoverinfo="skip",
            name="other examples",
            showlegend=False,
        )
    )
    Xn, yn = ds.X_train[members], ds.y_train[members]
    mean = float(np.mean(weights)) if weights.size else 1.0
    size = np.clip(8.0 * np.sqrt(np.asarray(weights) / mean), 4.0, 20.0)
    for label, colour, symbol in ((-1, theme.CLASS_NEG, "diamond"), (1, theme.CLASS_POS, "circle")):
        m = yn == label
        data.append(
            go.Scatter(
                x=Xn[m, 0],
                y=Xn[m, 1],
                mode="markers",
                marker=dict(
                    color=colour,
                    size=size[m],
                    symbol=symbol,
                    # class −1's orange is 2.25 : 1 on the white cell: its dark outline is
                    # what stands out (WCAG 1.4.11), as in ui.figures.points_traces
                    line=dict(theme.MARKER_LINE[label]),
                ),
                name=f"class {label:+d}",
                hovertemplate=f"class {label:+d}<br>%{{x:.3f}}, %{{y:.3f}}<extra>node</extra>",
                showlegend=False,
            )
        )
    if algorithm is not None:
        lx = np.linspace(lo[0], hi[0], LINE_GRID)
        ly = np.linspace(lo[1], hi[1], LINE_GRID)
        LX, LY = np.meshgrid(lx, ly)
        L = np.column_stack([LX.ravel(), LY.ravel()])
        field = np.where(tree.apply(L) == node, algorithm.separator.decision_function(L), np.nan)
        sx, sy = zero_segments(lx, ly, field)
        data.append(
            go.Scatter(
                x=sx,
                y=sy,
                mode="lines",
                line=dict(color="#333333", width=2.2, dash="dash"),
                hoverinfo="skip",
                name="AdaBoost_R's LS = 0",
                connectgaps=False,
            )
        )
    direction, b = mine
    x, y = _clip(direction, b, lo, hi)
    data.append(
        go.Scatter(
            x=x,
            y=y,
            mode="lines",
            line=dict(color=theme.HIGHLIGHT, width=3.5),
            hoverinfo="skip",
            name="your line",
        )
    )
    annotations = []
    if x:
        mid = np.array([(x[0] + x[1]) / 2, (y[0] + y[1]) / 2])
        step = 0.025 * float(np.hypot(*(hi - lo)))
        n = np.asarray(direction)
        # the sides by their sign only: "right child" is the tree's right branch, and on the
        # plot that side may well be on the left of the line
        for sign, text in ((1, "LS ≥ 0"), (-1, "LS < 0")):
            p = np.clip(mid + sign * step * n, lo, hi)
            # anchored away from the line, so the label sits wholly on its side
            nx, ny = sign * n
            annotations.append(
                dict(
                    x=float(p[0]),
                    y=float(p[1]),
                    text=text,
                    showarrow=False,
                    xanchor="left" if nx > 0.38 else "right" if nx < -0.38 else "center",
                    yanchor="bottom" if ny > 0.38 else "top" if ny < -0.38 else "middle",
                    font=dict(color=theme.HIGHLIGHT, size=12),
                    bgcolor="rgba(255,255,255,0.85)",
                )
            )
    fig = go.Figure(data)
    span = hi - lo
    equal = 0.25 <= float(span[1] / span[0]) <= 4.0 if span[0] > 0 else False
    fig.update_layout(
        height=400,
        margin=dict(l=10, r=10, t=64, b=10),
        title=dict(
            text=f"Node #{node}: drag a box — its diagonal is your line", y=0.98, font_size=14
        ),
        plot_bgcolor="white",
        dragmode="select",
        annotations=annotations,
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom", font_size=12),
        xaxis=dict(
            range=[float(lo[0]), float(hi[0])],
            title=dict(text=escape(ds.feature_names[0][:30]), standoff=10),
            gridcolor="#EEEEEE",
            zeroline=False,
            automargin=True,
            constrain="domain",
        ),
        yaxis=dict(
            range=[float(lo[1]), float(hi[1])],
            title=dict(text=escape(ds.feature_names[1][:30]), standoff=10),
            gridcolor="#EEEEEE",
            zeroline=False,
            automargin=True,
            constrain="domain",
            **({"scaleanchor": "x", "scaleratio": 1} if equal else {}),
        ),
    )
    return fig


def oblique_turn(
    ds: Dataset,
    run: Sequence[ODTStep],
    *,
    n_played: int,
    n_stumps: int,
    learner: str,
    rule_label: str,
) -> None:
    """The student's turn: the plot of the node BoostODT splits next with the line being
    drawn, the sliders, the live scores against AdaBoost_R's separator, and the buttons that
    play, undo or restart.

    Parameters
    ----------
    ds : Dataset
        The page's data (its training points are scored).
    run : sequence of ODTStep
        :func:`odt_run` with the student's choices (the algorithm after them).
    n_played : int
        How many steps the student has played.
    n_stumps, learner : int, str
        The run's ``T1`` and node learner (AdaBoost_R's separator is built with them).
    rule_label : str
        The leaf rule's name on the page (it picks the node).
    """
    names = list(ds.feature_names)
    following = TURN.following()  # a class: the teacher plays the lines
    # while the class chooses, AdaBoost_R's separator would give the answer away
    hidden = following and pool.answer_hidden()
    with st.container(border=True, key=f"{KEY}_box"):
        head, buttons = st.columns([3, 1], vertical_alignment="center")
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
            _played_note(ds, run, n_played, n_stumps=n_stumps, learner=learner)
        nxt = next_split(run, n_played)
        if nxt is None:
            head.markdown(f"**You are the weak learner** — BoostODT, after step {n_played}.")
            if following:
                st.success(
                    f"The class's run is complete after {n_played} step(s): every internal "
                    "node is split, or no leaf can be split any more. Step through it below."
                )
                return
            st.success(
                f"Your run is complete after {n_played} step(s): every internal node is "
                "split, or no leaf can be split any more. Step through it below, undo, or "
                "start over."
            )
            return
        before, algo_step = nxt
        node = int(algo_step.node)
        members = np.asarray(algo_step.node_index)
        if following:
            head.markdown(
                f"**You are the weak learner** — BoostODT, step {n_played + 1}: split node "
                f"**#{node}** ({members.size} examples). The leaf rule "
                f"({md_plain(rule_label)}) picked it; set its separator and send it to the "
                "class. The views show the run continued from the class's lines, the ones "
                "the teacher played (the steps after them are AdaBoost_R's)."
            )
        else:
            head.markdown(
                f"**You are the weak learner** — BoostODT, step {n_played + 1}: split node "
                f"**#{node}** ({members.size} examples). The leaf rule "
                f"({md_plain(rule_label)}) picked it; you set its separator. The views show "
                "the run continued from your lines (the steps after yours are AdaBoost_R's)."
            )
        X = ds.X_train[members]
        centre = X.mean(axis=0)
        lo, hi = _view_box(ds, X)
        # corners of the view: any line drawn in it is at most this far from the centre
        reach = float(
            max(
                np.hypot(cx - centre[0], cy - centre[1])
                for cx in (lo[0], hi[0])
                for cy in (lo[1], hi[1])
            )
        )
        theta_key = f"{KEY}_theta_{n_played}"
        offset_key = f"{KEY}_offset_{n_played}"
        ss = st.session_state
        if not isinstance(ss.get(theta_key), int | float):
            ss[theta_key] = 0.0
        if not isinstance(ss.get(offset_key), int | float):
            ss[offset_key] = 0.0
        ss[theta_key] = float(np.clip(ss[theta_key], 0.0, 360.0))
        ss[offset_key] = float(np.clip(ss[offset_key], -reach, reach))

        if pool.collecting():
            # first in the panel, so that the projector shows it without scrolling
            _class_panel(ds, before, algo_step, n_stumps=n_stumps, learner=learner, lo=lo, hi=hi)
        left, right = st.columns([1, 1.3], gap="medium")
        with right:
            c1, c2 = st.columns(2)
            theta = c1.slider(
                "Angle θ of the normal",
                0.0,
                360.0,
                step=0.5,
                format="%.1f°",
                key=theta_key,
                help="The line's normal is (cos θ, sin θ): it points to the side LS ≥ 0 (the "
                "tree's right branch). θ = 0°: a vertical line with LS ≥ 0 to its right.",
            )
            offset = c2.slider(
                "Offset from the node's centre",
                -reach,
                reach,
                step=reach / 200,
                format="%.3f",
                key=offset_key,
                help="How far the line is from the centre of the node's examples, along the "
                "normal (0: through the centre).",
            )

            def _mu(theta: float, offset: float) -> float:
                d, c = line_of(theta, offset, centre)
                got = score_separator(
                    ds.X_train, ds.y_train, before, node, d, c, n_stumps=n_stumps, weak=learner
                )
                return got.yours.mu

            direction, b = line_of(theta, offset, centre)
            r = score_separator(
                ds.X_train,
                ds.y_train,
                before,
                node,
                direction,
                b,
                n_stumps=n_stumps,
                weak=learner,
            )
            mine, algo = r.yours, None if hidden else r.algorithm
            st.markdown(f"Your line: {md_plain(_equation(direction, b, names), 200)}")
            if following:
                line = {
                    "step": n_played + 1,
                    "cos": float(direction[0]),
                    "sin": float(direction[1]),
                    "b": float(b),
                }
                # right under the controls it sends, its confirmation under it
                pool.send_row(KEY, line if mine.splits else None, what="line", turn=n_played)
            rows = [_row("your line", mine)]
            if algo is not None:
                who = "AdaBoost_R" + (f" ({n_stumps} stumps)" if learner == "stump" else "")
                rows.append(_row(who, algo))
            st.dataframe(
                pd.DataFrame(rows),
                hide_index=True,
                column_config={
                    c: st.column_config.NumberColumn(format="%.4f")
                    for c in rows[0]
                    if c not in ("separator", "left | right")
                },
                key=f"{KEY}_table",
            )
            if not mine.splits:
                side = "right (LS ≥ 0)" if mine.n_right else "left (LS < 0)"
                st.warning(
                    f"This line sends all {members.size} examples of node #{node} to the "
                    f"{side}: it does not split the node, so BoostODT cannot use it. Move the "
                    "offset towards 0 or turn the line until both sides get examples."
                )
            else:
                notes = _notes(mine, algo)
                # presenter mode: the remarks only, not the explanation of the bound
                for note in notes[1:] if presenting() else notes:
                    st.caption(note)
            if not following:
                _play_buttons(actions, mine, direction, b)
        with left:
            plot_key = f"{KEY}_plot_{n_played}"
            chart(
                _figure(
                    ds,
                    before,
                    node,
                    members,
                    np.asarray(algo_step.node_weights),
                    (direction, b),
                    algo,  # None while the class chooses: AdaBoost_R's line is not drawn
                    lo,
                    hi,
                ),
                key=plot_key,
                on_select=lambda: _from_drag(
                    plot_key, theta_key, offset_key, centre, reach, mu_of=_mu
                ),
                selection_mode=("box", "lasso"),
            )
            if not presenting():
                st.caption(
                    "Marker size: the node's class-balanced weights (each class holds half). "
                    "Grey: outside the node's cell. Drag from one end of your line to the "
                    "other; the side with more +1 weight becomes LS ≥ 0 (μ ≥ 0), whichever "
                    "way you drag."
                )


def _play_buttons(actions, mine, direction, b: float) -> None:
    """The student's own play buttons (not on a class follower's page: the teacher plays)."""
    with actions:
        st.button(
            "Use my line",
            key=f"{KEY}_play",
            type="primary",
            disabled=not mine.splits,
            on_click=TURN.play,
            args=(((float(direction[0]), float(direction[1])), float(b)),),
        )
        st.button(
            "Use AdaBoost_R's separator",
            key=f"{KEY}_take",
            on_click=TURN.play,
            args=(None,),
            help="Split this node as BoostODT does (its node learner's separator).",
        )


def _notes(mine, algo) -> list[str]:
    """One-line remarks on the student's line against AdaBoost_R's (plain text)."""
    out = [
        f"Your split keeps {mine.loss_ratio:.3f} of the node's loss Σ 2√(w⁺w⁻); the "
        f"edge guarantees at most √(1 − μ²) = {mine.factor:.3f} (Kearns–Mansour's argument "
        "with balanced weights): the larger |μ|, the larger the guaranteed drop."
    ]
    if mine.mu < 0:
        out.append(
            "⚠ μ < 0: the right side (LS ≥ 0) holds more −1 weight. The tree does not mind — "
            "each new leaf gets its own constant ½ ln(w⁺/w⁻), so the split is as good as the "
            "flipped line (θ + 180°) — but as a weak hypothesis only the edge |μ| counts."
        )
    if abs(mine.mu) < 0.05:
        out.append(
            "⚠ Almost no edge (|μ| < 0.05): √(1 − μ²) is close to 1, so the guarantee barely moves."
        )
    if algo is not None:
        if mine.loss_after < algo.loss_after - 1e-12:
            out.append(
                f"Your line lowers the node's loss more than AdaBoost_R's separator "
                f"({mine.loss_after:.4f} against {algo.loss_after:.4f})."
            )
        else:
            out.append(
                f"AdaBoost_R's separator lowers the node's loss more ({algo.loss_after:.4f} "
                f"against your {mine.loss_after:.4f})."
            )
    return out


def _played_note(
    ds: Dataset, run: Sequence[ODTStep], n_played: int, *, n_stumps: int, learner: str
) -> None:
    """A follower's page: the step the teacher played last, the class's line against
    AdaBoost_R's separator at that node (kept from the page while the class chose)."""
    prev = next_split(run, n_played - 1)
    played = TURN.played()
    if prev is None or len(played) < n_played:
        return
    before, step = prev
    node = int(step.node)
    choice = played[n_played - 1]
    if choice is None:  # the teacher played AdaBoost_R's own separator
        pool.played_note(
            KEY,
            f"**Step {n_played}**: the teacher split node #{node} by AdaBoost_R's separator.",
        )
        return
    (cos, sin), b = choice
    try:
        got = score_separator(
            ds.X_train, ds.y_train, before, node, (cos, sin), b, n_stumps=n_stumps, weak=learner
        )
    except ValueError:  # not expected: the run's own line
        return
    mine, algo = got.yours, got.algorithm
    text = (
        f"**Step {n_played}, the class's line** (played by the teacher) at node #{node}: "
        f"{md_plain(_equation((cos, sin), b, ds.feature_names), 200)}, node loss after/before "
        f"{_fmt(mine.loss_ratio)}."
    )
    if algo is not None:
        text += f" AdaBoost_R's separator: {_fmt(algo.loss_ratio)} (lower is better)."
    pool.played_note(KEY, text)


# ------------------------------------------------------------------------- the class's lines
def class_lines(
    ds: Dataset,
    before: ODTStep,
    node: int,
    submitted: Sequence[dict],
    *,
    n_stumps: int,
    learner: str,
) -> tuple[list[tuple[tuple[float, float], float, object]], int]:
    """The class's submitted lines for the node split next, scored as the student's own is
    (:func:`boostcore.oblique.score_separator`): ``(direction, b, score)`` per line that
    splits the node; and how many were refused (another step's, not a line, or a line that
    leaves one side of the node empty)."""
    scored, refused = [], 0
    for split in submitted:
        try:
            if int(split["step"]) != before.t + 1:
                raise ValueError("another step's line")
            direction = (float(split["cos"]), float(split["sin"]))
            b = float(split["b"])
            got = score_separator(
                ds.X_train,
                ds.y_train,
                before,
                node,
                direction,
                b,
                n_stumps=n_stumps,
                weak=learner,
                compare=False,
            ).yours
            if not got.splits:
                raise ValueError("the line does not split the node")
            scored.append((direction, b, got))
        except (KeyError, ValueError, TypeError):
            refused += 1
    return scored, refused


@st.fragment(run_every=2.0)
def _class_panel(
    ds: Dataset, before: ODTStep, algo_step: ODTStep, *, n_stumps: int, learner: str, lo, hi
) -> None:
    """The teacher's view of the class's lines, refreshed every 2 s while collecting: the
    lines on the node's plot, the histogram of the node's loss after each (relative to before)
    against AdaBoost_R's, the class's best (the lowest loss after the split: Theorem 2's
    exponential loss falls most), and the button that plays it."""
    node = int(algo_step.node)
    members = np.asarray(algo_step.node_index)
    scored, refused = class_lines(
        ds, before, node, teach.class_splits(), n_stumps=n_stumps, learner=learner
    )
    if not scored:
        pool.panel(KEY, n=0, refused=refused, best="", figures=list, play=_nothing, play_help="")
        return
    direction, b, best = min(scored, key=lambda x: x[2].loss_after)
    algo = score_separator(
        ds.X_train, ds.y_train, before, node, direction, b, n_stumps=n_stumps, weak=learner
    ).algorithm

    def figures() -> tuple[go.Figure, go.Figure]:
        fig = _figure(
            ds,
            before,
            node,
            members,
            np.asarray(algo_step.node_weights),
            (direction, b),
            algo,
            lo,
            hi,
        )
        for d, c, s in scored:
            if s is best:
                continue
            x, y = _clip(d, c, lo, hi)
            if x:
                fig.add_shape(type="line", x0=x[0], x1=x[1], y0=y[0], y1=y[1], line=pool.OTHERS)
        # the key in the title, not in a legend over it (the projector's fonts wrap it)
        text = f"Node #{node}: the class's {len(scored)} line(s) (the best: solid"
        text += "; AdaBoost_R's: dashed)" if algo is not None else ")"
        fig.update_layout(title=dict(text=text), showlegend=False)
        return fig, pool.histogram(
            [s.loss_ratio for _, _, s in scored],
            algo.loss_ratio if algo is not None else None,
            title=f"Node #{node}'s loss after / before, the class's lines (lower is better)",
            x_title="node loss after the split / before",
            reference_label="AdaBoost_R's",
        )

    pool.panel(
        KEY,
        n=len(scored),
        refused=refused,
        best=f"The class's best: {md_plain(_equation(direction, b, ds.feature_names), 200)}, "
        f"node loss after/before {_fmt(best.loss_ratio)}, μ = {_fmt(best.mu)}"
        + (f" — AdaBoost_R's: {_fmt(algo.loss_ratio)}." if algo is not None else "."),
        figures=figures,
        play=lambda: TURN.play(((direction[0], direction[1]), b)),
        play_help="Continue the run from the class's best line: the regions, the tree, the "
        "curves and the proof card use it.",
    )


def _nothing() -> None:
    """No class's best to play yet."""
