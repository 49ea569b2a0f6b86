"""The regions view of /topdown: the decision regions of an axis-parallel tree at a snapshot, one
rectangle per leaf cell shaded by its ``q̂`` (not a heatmap), with this round's split, the
points as SVG markers and the leaves' ids (:func:`tree_cells_figure`; the small view too).
Pure functions (no Streamlit)."""

from __future__ import annotations

import numpy as np

from boostcore.datasets import Dataset
from boostcore.topdown import TreeStep
from ui import theme
from ui.figures import cell_labels, data_extent, figure_dict, points_traces, regions_layout


def tree_cells_figure(step: TreeStep, ds: Dataset, *, small: bool = False, font: float = 12):
    """Regions of the tree at ``step``: one rectangle per leaf cell, shaded by the leaf's
    ``q̂`` (orange = class −1, white = undecided, blue = +1); grey lines are earlier splits,
    the thick vermillion lines this round's split and the dashed box its leaf."""
    tree = step.tree
    lo, hi = data_extent(ds)
    boxes = tree.node_boxes(lo, hi)
    q = tree.q
    leaves = tree.leaves
    shapes = [
        dict(
            type="rect",
            layer="below",
            x0=float(boxes[n, 0, 0]),
            x1=float(boxes[n, 0, 1]),
            y0=float(boxes[n, 1, 0]),
            y1=float(boxes[n, 1, 1]),
            line=dict(width=0),
            fillcolor=theme.mix(float(q[n])),
        )
        for n in leaves
    ]
    current = step.split.leaf if step.split is not None else None
    for nid in np.flatnonzero(tree.feature >= 0):
        f = int(tree.feature[nid])
        box = boxes[nid]
        now = nid == current
        for theta in tree.thresholds[nid]:
            if f == 0:
                x0 = x1 = float(theta)
                y0, y1 = float(box[1, 0]), float(box[1, 1])
            else:
                y0 = y1 = float(theta)
                x0, x1 = float(box[0, 0]), float(box[0, 1])
            shapes.append(
                dict(
                    type="line",
                    x0=x0,
                    x1=x1,
                    y0=y0,
                    y1=y1,
                    line=dict(color=theme.HIGHLIGHT if now else "#555555", width=4 if now else 1),
                )
            )
    if current is not None:
        bx = boxes[current]
        shapes.append(
            dict(
                type="rect",
                x0=float(bx[0, 0]),
                x1=float(bx[0, 1]),
                y0=float(bx[1, 0]),
                y1=float(bx[1, 1]),
                line=dict(color=theme.HIGHLIGHT, width=2, dash="dash"),
            )
        )
    data = points_traces(ds, show_test=not small)
    if not small and tree.n_leaves <= 32:
        # leaf ids apart at the smallest size the view draws (ui.figures.cell_labels): the
        # lighter of two leaves whose ids would overlap moves within its cell or goes unnamed
        where = cell_labels(
            [
                (
                    f"#{i}",
                    *(float(v) for v in boxes[i, 0]),
                    *(float(v) for v in boxes[i, 1]),
                    float(tree.n_samples[i]),
                )
                for i in leaves
            ],
            font=font - 1,
            lo=lo,
            hi=hi,
        )
        data.append(
            dict(
                type="scatter",
                x=[x for _, x, _, _ in where],
                y=[y for _, _, y, _ in where],
                mode="text",
                text=[text for text, *_ in where],
                name="leaf ids",
                textfont=dict(color="#333333", size=font - 1),
                hovertext=[
                    f"leaf #{i}"
                    + ("" if by is None else f" (its id is not drawn: no room beside {by})")
                    + f"<br>P(+1) = {q[i]:.2f}"
                    for i, (_, _, _, by) in zip(leaves, where, strict=True)
                ],
                hoverinfo="text",
                showlegend=False,
            )
        )
    return figure_dict(data, regions_layout(ds, lo, hi, shapes=shapes, font=font, small=small))
