"""The class's lines on /oblique (ui/classroom/pool.py): the lines a class sent for the node
split next, scored as the student's own is (:func:`class_lines`), and the teacher's panel of
them (:func:`class_panel`: the lines on the node's plot, the histogram of their scores, the
class's best and the button that plays it)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from boostcore.datasets import Dataset
from boostcore.oblique import ODTStep, score_separator
from ui.classroom import pool, teach
from ui.text import md_plain

from .line import clip, equation, fmt
from .plot import figure
from .session import KEY, TURN


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
def class_panel(
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
        fig = figure(
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
            x, y = clip(d, c, lo, hi)
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
        best=f"The class's best: {md_plain(equation(direction, b, ds.feature_names), 200)}, "
        f"node loss after/before {fmt(best.loss_ratio)}, μ = {fmt(best.mu)}"
        + (f" — AdaBoost_R's: {fmt(algo.loss_ratio)}." if algo is not None else "."),
        figures=figures,
        play=lambda: TURN.play(((direction[0], direction[1]), b)),
        play_help="Continue the run from the class's best line: the regions, the tree, the "
        "curves and the proof card use it.",
    )


def _nothing() -> None:
    """No class's best to play yet."""
