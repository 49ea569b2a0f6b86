"""Figures of the oblique page (docs/theory.md §4): G1 on a path, on a tree, and BoostODT.

Pure functions of snapshots (no Streamlit), built from plain dicts like ``ui.figures``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from boostcore.datasets import Dataset
from boostcore.oblique import THETA_GRID, Additive, G1Step, ObliqueTree, TreeStep

from . import theme
from .figures import GRID, _figure, data_extent

#: One colour per G1 specialisation (Okabe–Ito); bounds are dashed in the same colour.
METHOD_COLOURS = {
    "AdaBoost (G1 on a path)": "#000000",
    "KM tree (G1 on a tree)": "#009E73",
    "BoostODT": "#CC79A7",
}
OLD_LINE = "#555555"


def _grid(ds: Dataset, n: int = GRID):
    lo, hi = data_extent(ds)
    xs = np.linspace(lo[0], hi[0], n)
    ys = np.linspace(lo[1], hi[1], n)
    gx, gy = np.meshgrid(xs, ys)
    return lo, hi, xs, ys, np.column_stack([gx.ravel(), gy.ravel()])


def _heat(xs, ys, H) -> dict:
    p = 1.0 / (1.0 + np.exp(-2.0 * np.clip(H, -50, 50)))
    return dict(
        type="heatmap", x=xs, y=ys, z=p.reshape(len(ys), len(xs)), zmin=0, zmax=1,
        colorscale=theme.REGION_SCALE, showscale=False, name="regions",
        hovertemplate="x1 %{x:.2f}, x2 %{y:.2f}<br>1/(1+e^(−2H)) = %{z:.2f}<extra></extra>",
    )


def _weighted_points(ds: Dataset, w: np.ndarray | None, show_test: bool) -> list[dict]:
    """Training points with area ∝ weight (when given), test points as open markers."""
    data = []
    if w is not None and w.size == ds.n_train and w.max() > 0:
        size = 4 + 14 * np.sqrt(w / w.max())
    else:
        size = np.full(ds.n_train, 6.0)
    neg_name, pos_name = ds.class_names
    for label, colour, name in ((-1, theme.CLASS_NEG, neg_name), (1, theme.CLASS_POS, pos_name)):
        m = ds.y_train == label
        data.append(dict(
            type="scattergl", x=ds.X_train[m, 0], y=ds.X_train[m, 1], mode="markers",
            name=f"class {name} (train)",
            marker=dict(color=colour, size=size[m], symbol="circle" if label > 0 else "diamond",
                        line=dict(width=0.5, color="white")),
            hovertemplate=f"class {name}<extra>train</extra>",
        ))
        if show_test and ds.n_test:
            mt = ds.y_test == label
            data.append(dict(
                type="scattergl", x=ds.X_test[mt, 0], y=ds.X_test[mt, 1], mode="markers",
                name=f"class {name} (test)", hoverinfo="skip",
                marker=dict(color=colour, size=5, line=dict(width=1.2),
                            symbol="circle-open" if label > 0 else "diamond-open"),
            ))
    return data


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
    edges = [crossings(c00, c01, x00, y00, x01, y01), crossings(c01, c11, x01, y01, x11, y11),
             crossings(c10, c11, x10, y10, x11, y11), crossings(c00, c10, x00, y00, x10, y10)]
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


def _zero_contour(xs, ys, field, colour, width, name) -> dict:
    """The line ``field = 0`` (NaN outside the region where it applies) as one polyline."""
    sx, sy = zero_segments(xs, ys, field)
    return dict(type="scatter", x=sx, y=sy, mode="lines", name=name, hoverinfo="skip",
                line=dict(color=colour, width=width), connectgaps=False)


def _layout(ds, lo, hi, height, shapes=()):
    return dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), showlegend=False,
        plot_bgcolor="white", shapes=list(shapes),
        xaxis=dict(range=[lo[0], hi[0]], title=dict(text=ds.feature_names[0])),
        yaxis=dict(range=[lo[1], hi[1]], title=dict(text=ds.feature_names[1])),
    )


def path_regions_figure(step: G1Step, ds: Dataset, *, show_test: bool = True,
                        height: int = 340) -> go.Figure:
    """``sign(H_t)`` of G1 on a path (shaded by ``1/(1+e^{−2H})``), the newest stump as a
    vermillion line, and the points sized by ``w_t``, the weights ``h_t`` was trained on."""
    lo, hi, xs, ys, G = _grid(ds)
    data = [_heat(xs, ys, step.model.decision_function(G))]
    shapes = []
    r = step.round
    if r is not None and r.hyp.kind == "stump":
        th = r.hyp.threshold
        line = (dict(x0=th, x1=th, y0=lo[1], y1=hi[1]) if r.hyp.feature == 0
                else dict(x0=lo[0], x1=hi[0], y0=th, y1=th))
        shapes.append(dict(type="line", line=dict(color=theme.HIGHLIGHT, width=4), **line))
    data += _weighted_points(ds, np.asarray(step.w), show_test)
    return _figure(data, _layout(ds, lo, hi, height, shapes))


def _node_membership(tree: ObliqueTree, G: np.ndarray) -> np.ndarray:
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


def tree_regions_figure(step: TreeStep, ds: Dataset, *, partial: Additive | None = None,
                        partial_node: int | None = None, show_test: bool = True,
                        height: int = 340) -> go.Figure:
    """Regions of an ``ObliqueTree`` with every node's boundary ``LS = 0`` inside its cell.

    Earlier boundaries are thin grey lines, this step's is thick vermillion. When ``partial``
    is given (stepping through the stumps of the node being built), its boundary so far is
    drawn in the node ``partial_node``'s cell and the points are sized by the node's
    class-balanced weights.
    """
    tree = step.tree
    lo, hi, xs, ys, G = _grid(ds)
    data = [_heat(xs, ys, tree.decision_function(G))]
    reach = _node_membership(tree, G)
    for n in tree.internal:
        now = n == step.node and partial is None
        field = np.where(reach[n], tree.separator[n].decision_function(G), np.nan)
        data.append(_zero_contour(xs, ys, field, theme.HIGHLIGHT if now else OLD_LINE,
                                  4 if now else 1.5, f"node {n}"))
    w = None
    if partial is not None and partial_node is not None and len(partial):
        field = np.where(reach[partial_node], partial.decision_function(G), np.nan)
        data.append(_zero_contour(xs, ys, field, theme.HIGHLIGHT, 4, "node being built"))
    if step.node is not None and step.node_index.size:
        w = np.zeros(ds.n_train)
        w[step.node_index] = step.node_weights
    data += _weighted_points(ds, w, show_test)
    return _figure(data, _layout(ds, lo, hi, height))


# --------------------------------------------------------------------------- the tree
def _tree_positions(tree: ObliqueTree) -> dict[int, tuple[float, float]]:
    """Leaves evenly spaced left to right (in-order), parents centred above their children."""
    pos: dict[int, tuple[float, float]] = {}
    counter = [0]

    def place(n: int) -> float:
        if tree.left[n] < 0:
            x = float(counter[0])
            counter[0] += 1
        else:
            x = (place(tree.left[n]) + place(tree.right[n])) / 2.0
        pos[n] = (x, -float(tree.depth[n]))
        return x

    place(0)
    return pos


def odt_tree_figure(step: TreeStep, ds: Dataset, *, partial: Additive | None = None,
                    partial_node: int | None = None, height: int = 420) -> go.Figure:
    """The tree with a mini view inside every internal node: the node's examples (scaled to
    the box) and its separator's boundary ``LS = 0``, so a student sees what each node does.
    Leaves show their output ``H = ½ ln(w⁺/w⁻)`` and their size; fill from orange to blue."""
    tree = step.tree
    pos = _tree_positions(tree)
    n_cols = max(x for x, _ in pos.values()) + 1
    bw, bh = 0.42, 0.36  # half-width and half-height of a node box (x unit = one leaf)
    X, y = ds.X_train, ds.y_train
    leaf_of = tree.apply(X)
    reach_rows = _rows_per_node(tree, X)
    data: list[dict] = []
    shapes: list[dict] = []
    annotations: list[dict] = []
    for n in range(tree.n_nodes):
        for child in (tree.left[n], tree.right[n]):
            if child >= 0:
                (x0, y0), (x1, y1) = pos[n], pos[child]
                shapes.append(dict(type="line", x0=x0, y0=y0 - bh, x1=x1, y1=y1 + bh,
                                   line=dict(color="#888888", width=1.2), layer="below"))
                annotations.append(dict(
                    x=(x0 + x1) / 2, y=(y0 - bh + y1 + bh) / 2, showarrow=False,
                    text="LS ≥ 0" if child == tree.right[n] else "LS < 0",
                    font=dict(size=9, color="#666666")))
    for n in range(tree.n_nodes):
        cx, cy = pos[n]
        rows = reach_rows[n]
        hot = n == step.node or n == partial_node or (
            step.children is not None and n in step.children and partial is None)
        internal = tree.left[n] >= 0 or n == partial_node
        if internal:
            fill = "#FFFFFF"
        else:
            wp, wn = tree.w_pos[n], tree.w_neg[n]
            fill = theme.mix(wp / (wp + wn) if wp + wn > 0 else 0.5)
        shapes.append(dict(
            type="rect", x0=cx - bw, x1=cx + bw, y0=cy - bh, y1=cy + bh, fillcolor=fill,
            line=dict(color=theme.HIGHLIGHT if hot else "#555555", width=3 if hot else 1),
            layer="below"))
        if internal and rows.size:
            sep = partial if n == partial_node and partial is not None else tree.separator[n]
            data += _mini_view(X[rows], y[rows], sep, cx, cy, bw * 0.9, bh * 0.9,
                               theme.HIGHLIGHT if hot else OLD_LINE)
            annotations.append(dict(x=cx, y=cy + bh, yanchor="bottom", showarrow=False,
                                    text=f"#{n} · {rows.size} pts", font=dict(size=9)))
        elif not internal:
            count = int((leaf_of == n).sum())
            annotations.append(dict(
                x=cx, y=cy, showarrow=False, font=dict(size=10),
                text=f"#{n}<br>H={tree.value[n]:+.2f}<br>n={count}"))
    layout = dict(
        height=height, margin=dict(l=5, r=5, t=20, b=5), showlegend=False,
        plot_bgcolor="white", shapes=shapes, annotations=annotations,
        xaxis=dict(visible=False, range=[-0.6, n_cols - 0.4]),
        yaxis=dict(visible=False, range=[-max(tree.depth) - 0.6, 0.75]),
    )
    return _figure(data, layout)


def _rows_per_node(tree: ObliqueTree, X: np.ndarray) -> list[np.ndarray]:
    node = np.zeros(X.shape[0], dtype=np.intp)
    rows = [np.zeros(0, dtype=np.intp)] * tree.n_nodes
    rows[0] = np.arange(X.shape[0])
    for n in tree.internal:
        here = np.flatnonzero(node == n)
        right = tree.separator[n].decision_function(X[here]) >= 0 if here.size else here
        node[here] = np.where(right, tree.right[n], tree.left[n])
        rows[tree.left[n]] = here[~right]
        rows[tree.right[n]] = here[right]
    return rows


def _mini_view(Xn, yn, sep, cx, cy, hw, hh, colour, n_grid: int = 30) -> list[dict]:
    """The node's points scaled into a box centred at ``(cx, cy)`` and its ``LS = 0`` line."""
    lo, hi = Xn.min(axis=0), Xn.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    lo, hi = lo - 0.05 * span, hi + 0.05 * span
    span = hi - lo

    def to_box(P):
        return (cx - hw + 2 * hw * (P[:, 0] - lo[0]) / span[0],
                cy - hh + 2 * hh * (P[:, 1] - lo[1]) / span[1])

    keep = np.arange(Xn.shape[0])
    if keep.size > 150:  # a mini view needs a sample, not every point
        keep = np.linspace(0, Xn.shape[0] - 1, 150).astype(int)
    px, py = to_box(Xn[keep])
    colours = np.where(yn[keep] > 0, theme.CLASS_POS, theme.CLASS_NEG)
    out = [dict(type="scatter", x=px, y=py, mode="markers", hoverinfo="skip",
                marker=dict(size=3, color=colours))]
    gx = np.linspace(lo[0], hi[0], n_grid)
    gy = np.linspace(lo[1], hi[1], n_grid)
    GX, GY = np.meshgrid(gx, gy)
    field = sep.decision_function(np.column_stack([GX.ravel(), GY.ravel()]))
    if field.min() < 0 <= field.max():
        bx = cx - hw + 2 * hw * (gx - lo[0]) / span[0]
        by = cy - hh + 2 * hh * (gy - lo[1]) / span[1]
        out.append(_zero_contour(bx, by, field, colour, 2, "separator"))
    return out


# --------------------------------------------------------------------------- curves
def g1_curves_figure(steps: Sequence, t: int, *, xlabel: str, height: int = 300) -> go.Figure:
    """Training/test error, exponential loss and Theorem 1's bound at θ = 0 (log y).

    ``error ≤ ν(H, 0) ≤ max_paths Π sqrt(1 − μ²)`` and ``E e^{−yH} ≤`` the same bound.
    """
    done = [s for s in steps if s.metrics is not None]
    shown = [s for s in steps[: t + 1] if s.metrics is not None]
    x = [s.t for s in shown]
    m = [s.metrics for s in shown]
    data: list[dict] = []

    def line(vals, name, colour, dash="solid", width=2.2):
        v = np.asarray([a if a is not None and a > 0 else np.nan for a in vals], dtype=float)
        data.append(dict(type="scatter", x=x, y=v, name=name, mode="lines+markers",
                         line=dict(color=colour, dash=dash, width=width), marker=dict(size=4),
                         hovertemplate=f"{name}<br>%{{x}}: %{{y:.4g}}<extra></extra>"))

    line([a.bound for a in m], "Theorem 1 bound (θ = 0)", theme.BOUND["e"], "dash")
    line([a.exp_loss for a in m], "exponential loss E e^(−yH)", theme.MEASURED["index"], "dot")
    line([a.train_error for a in m], "training error", theme.MEASURED["train"])
    if m and m[-1].test_error is not None:
        line([a.test_error for a in m], "test error", theme.MEASURED["test"], "solid", 1.5)
    values = [v for s in done for v in (s.metrics.bound, s.metrics.exp_loss,
                                        s.metrics.train_error, s.metrics.test_error)
              if v is not None and v > 0]
    low = max(np.floor(np.log10(min(values))) if values else -2.0, -6.0)
    n_max = max((s.t for s in done), default=1)
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.25, font=dict(size=10)),
        xaxis=dict(range=[-0.5, n_max + 0.5], gridcolor="#eeeeee", title=dict(text=xlabel)),
        yaxis=dict(type="log", gridcolor="#eeeeee", title=dict(text="value (log scale)"),
                   range=[low, 0.05], dtick=1),
    )
    return _figure(data, layout)


def margin_figure(current: dict[str, object], *, height: int = 340) -> go.Figure:
    """Margin-error curves ``ν(H, θ) = P[tanh(yH/2) ≤ θ]`` of each method at the shown step
    (solid) with Theorem 1's bound ``((1+θ)/(1−θ))·max_paths Π sqrt(1 − μ²)`` (dashed)."""
    data = []
    for name, step in current.items():
        m = getattr(step, "metrics", None)
        if m is None:
            continue
        colour = METHOD_COLOURS.get(name, "#333333")
        data.append(dict(type="scatter", x=THETA_GRID, y=m.margin_error, mode="lines",
                         name=f"{name}: ν(H, θ)", line=dict(color=colour, width=2.5),
                         hovertemplate=f"{name}<br>θ = %{{x:.2f}}: ν = %{{y:.3f}}<extra></extra>"))
        data.append(dict(type="scatter", x=THETA_GRID, y=np.minimum(m.margin_bound, 1.05),
                         mode="lines", name=f"{name}: bound", line=dict(color=colour, width=1.5,
                                                                          dash="dash"),
                         hovertemplate=f"{name} bound<br>θ = %{{x:.2f}}: %{{y:.3f}}"
                                       "<extra></extra>"))
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.2, font=dict(size=10)),
        xaxis=dict(range=[-1, 1], gridcolor="#eeeeee", title=dict(text="margin θ")),
        yaxis=dict(range=[0, 1.05], gridcolor="#eeeeee",
                   title=dict(text="fraction with margin ≤ θ")),
        shapes=[dict(type="line", x0=0, x1=0, y0=0, y1=1.05,
                     line=dict(color=theme.NEUTRAL, width=1, dash="dot"))],
    )
    return _figure(data, layout)
