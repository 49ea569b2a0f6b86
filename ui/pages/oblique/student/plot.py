"""The plot of the node BoostODT splits next: the node's examples sized by their
class-balanced weights, the rest faint, the node's cell, AdaBoost_R's ``LS = 0`` and the
student's line with its two sides (:func:`figure`), in a box around the node's examples
(:func:`view_box`)."""

from __future__ import annotations

from html import escape

import numpy as np
import plotly.graph_objects as go

from boostcore.datasets import Dataset
from boostcore.oblique import ODTStep
from ui import theme
from ui.figures import data_extent

from ..figures import zero_segments
from .line import clip

#: Grid of the node's cell and of AdaBoost_R's ``LS = 0`` on the student's plot.
CELL_GRID = 110
LINE_GRID = 140


def view_box(ds: Dataset, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A box around the node's examples (padded), never thinner than a tenth of the data's."""
    dlo, dhi = data_extent(ds, pad=0.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 0.1 * np.where(dhi > dlo, dhi - dlo, 1.0))
    mid = (lo + hi) / 2
    return mid - 0.62 * span, mid + 0.62 * span


def figure(
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
    x, y = clip(direction, b, lo, hi)
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
