"""The student's panel on /oblique (:func:`oblique_turn`): the plot being drawn on, the
sliders, the live scores against AdaBoost_R's separator, the play buttons (a follower sends
instead), and on a follower's page the note on the step the teacher played last."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from boostcore.datasets import Dataset
from boostcore.oblique import ODTStep, score_separator
from ui.charts import chart, presenting
from ui.classroom import pool
from ui.text import md_plain

from .line import equation, fmt, line_from_points, line_of, with_edge
from .plot import figure, view_box
from .pooled import class_panel
from .session import KEY, TURN, next_split


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
        lo, hi = view_box(ds, X)
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
            class_panel(ds, before, algo_step, n_stumps=n_stumps, learner=learner, lo=lo, hi=hi)
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
            st.markdown(f"Your line: {md_plain(equation(direction, b, names), 200)}")
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
                figure(
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
        f"{md_plain(equation((cos, sin), b, ds.feature_names), 200)}, node loss after/before "
        f"{fmt(mine.loss_ratio)}."
    )
    if algo is not None:
        text += f" AdaBoost_R's separator: {fmt(algo.loss_ratio)} (lower is better)."
    pool.played_note(KEY, text)
