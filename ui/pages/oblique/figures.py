"""Figures of the oblique page (docs/theory.md §4): G1 on a path, on a tree, and BoostODT.

Pure functions of snapshots (no Streamlit), built from plain dicts like ``ui.figures``.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from boostcore.oblique import ObliqueTree
from boostcore.realboost import THETA_GRID
from ui import theme
from ui.figures import chart_text, figure_dict, plotly_figure

#: One colour per G1 specialisation (Okabe–Ito); bounds are dashed in the same colour.
METHOD_COLOURS = {
    "AdaBoost (G1 on a path)": "#000000",
    "KM tree (G1 on a tree)": theme.MEASURED["index"],
    "BoostODT": theme.MEASURED["test"],
}
OLD_LINE = "#555555"


def zero_segments(xs: np.ndarray, ys: np.ndarray, field: np.ndarray) -> tuple[list, list]:
    """Segments of the line ``field = 0`` by marching squares (NaN = outside the region).

    Computed here rather than with a plotly contour trace: a contour per node made a step
    take seconds to draw in the browser, a polyline with gaps is cheap. Returns x and y
    lists with ``None`` between segments (one scatter trace draws them all).
    """
    F = np.asarray(field, dtype=float).reshape(len(ys), len(xs))
    X, Y = np.meshgrid(xs, ys)

    def crossings(a, b, pa_x, pa_y, pb_x, pb_y):
        ok = np.isfinite(a) & np.isfinite(b) & ((a < 0) != (b < 0))
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(ok, a / (a - b), 0.0)
        return ok, pa_x + t * (pb_x - pa_x), pa_y + t * (pb_y - pa_y)

    # the four edges of every cell (i, j): bottom, right, top, left
    c00, c01, c10, c11 = F[:-1, :-1], F[:-1, 1:], F[1:, :-1], F[1:, 1:]
    x00, x01, x10, x11 = X[:-1, :-1], X[:-1, 1:], X[1:, :-1], X[1:, 1:]
    y00, y01, y10, y11 = Y[:-1, :-1], Y[:-1, 1:], Y[1:, :-1], Y[1:, 1:]
    edges = [
        crossings(c00, c01, x00, y00, x01, y01),
        crossings(c01, c11, x01, y01, x11, y11),
        crossings(c10, c11, x10, y10, x11, y11),
        crossings(c00, c10, x00, y00, x10, y10),
    ]
    ok = np.stack([e[0] for e in edges], axis=-1).reshape(-1, 4)
    px = np.stack([e[1] for e in edges], axis=-1).reshape(-1, 4)
    py = np.stack([e[2] for e in edges], axis=-1).reshape(-1, 4)
    count = ok.sum(axis=1)
    out_x: list = []
    out_y: list = []
    for want in (2, 4):  # 4 crossings (a saddle): join them in two pairs
        cells = np.flatnonzero(count == want)
        if not cells.size:
            continue
        order = np.argsort(~ok[cells], axis=1, kind="stable")[:, :want]
        sx = np.take_along_axis(px[cells], order, axis=1).reshape(-1, 2)
        sy = np.take_along_axis(py[cells], order, axis=1).reshape(-1, 2)
        gap = np.full((sx.shape[0], 1), np.nan)
        out_x += np.hstack([sx, gap]).ravel().tolist()
        out_y += np.hstack([sy, gap]).ravel().tolist()
    return [None if v != v else v for v in out_x], [None if v != v else v for v in out_y]


def node_membership(tree: ObliqueTree, G: np.ndarray) -> np.ndarray:
    """``reach[n, i]``: grid point ``i`` passes through node ``n``."""
    reach = np.zeros((tree.n_nodes, G.shape[0]), dtype=bool)
    node = np.zeros(G.shape[0], dtype=np.intp)
    reach[0] = True
    for n in tree.internal:
        here = np.flatnonzero(node == n)
        if here.size:
            right = tree.separator[n].decision_function(G[here]) >= 0
            node[here] = np.where(right, tree.right[n], tree.left[n])
            reach[tree.left[n], here[~right]] = True
            reach[tree.right[n], here[right]] = True
    return reach


# --------------------------------------------------------------------------- the tree
# --------------------------------------------------------------------------- curves
def margin_figure(current: dict[str, object], *, height: int = 340) -> go.Figure:
    """Margin-error curves ``ν(H, θ) = P[tanh(yH/2) ≤ θ]`` of each method at the shown step
    (solid) with Theorem 1's bound ``((1+θ)/(1−θ))·max_paths Π sqrt(1 − μ²)`` (dashed)."""
    return plotly_figure(*margin_parts(current, height=height))


def margin_frame(current: dict[str, object], *, height: int = 340) -> dict:
    """:func:`margin_figure` as a plain dict, a frame of the lecture's margin view."""
    return figure_dict(*margin_parts(current, height=height))


def margin_parts(current: dict[str, object], *, height: int = 340) -> tuple[list, dict]:
    """The traces and layout of :func:`margin_figure`."""
    data = []
    for name, step in current.items():
        m = getattr(step, "metrics", None)
        if m is None:
            continue
        colour = METHOD_COLOURS.get(name, "#333333")
        data.append(
            dict(
                type="scatter",
                x=THETA_GRID,
                y=m.margin_error,
                mode="lines",
                name=f"{name}: ν(H, θ)",
                line=dict(color=colour, width=2.5),
                hovertemplate=f"{name}<br>θ = %{{x:.2f}}: ν = %{{y:.3f}}<extra></extra>",
            )
        )
        data.append(
            dict(
                type="scatter",
                x=THETA_GRID,
                y=np.minimum(m.bound_margin, 1.05),
                mode="lines",
                name=f"{name}: bound",
                line=dict(color=colour, width=1.5, dash="dash"),
                hovertemplate=f"{name} bound<br>θ = %{{x:.2f}}: %{{y:.3f}}<extra></extra>",
            )
        )
    layout = dict(
        height=height,
        margin=dict(l=10, r=10, t=10, b=10),
        plot_bgcolor="white",
        # drawn by the lecture view, without Streamlit's template: the axes take the margin
        # their tick labels and titles need, and the legend sits below the x title (on a
        # phone the y title covered the tick labels and the x title the legend's first line)
        legend=dict(orientation="h", yanchor="top", y=-0.32, font=dict(size=10)),
        xaxis=dict(
            range=[-1, 1], gridcolor="#eeeeee", title=dict(text="margin θ"), automargin=True
        ),
        yaxis=dict(
            range=[0, 1.05],
            gridcolor="#eeeeee",
            title=dict(text="fraction with margin ≤ θ"),
            automargin=True,
        ),
        shapes=[
            dict(
                type="line",
                x0=0,
                x1=0,
                y0=0,
                y1=1.05,
                line=dict(color=theme.NEUTRAL, width=1, dash="dot"),
            )
        ],
    )
    return data, chart_text(layout)
