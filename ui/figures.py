"""Snapshot → plotly figure builders (pure functions: no Streamlit, unit-testable)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from boostcore.bounds import e_gamma, size_bound
from boostcore.branching import BPStep
from boostcore.datasets import Dataset
from boostcore.topdown import TreeStep

from . import theme

GRID = 150  # decision-region grid resolution (GRID × GRID ≤ 200 × 200, DESIGN budget)


def data_extent(ds: Dataset, pad: float = 0.08) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper corner of a box around all points, padded by ``pad`` of the range."""
    X = np.vstack([ds.X_train, ds.X_test]) if ds.n_test else ds.X_train
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return lo - pad * span, hi + pad * span


def _figure(data: list[dict], layout: dict) -> go.Figure:
    """A figure from plain dicts, skipping plotly's per-property validation.

    Validation costs ~60 % of a step's drawing time; the dicts here are fixed by this module,
    and the unit tests rebuild every figure *with* validation to keep them honest.
    """
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def _points(ds: Dataset, show_test: bool) -> list[dict]:
    traces = []
    neg_name, pos_name = ds.class_names
    for label, colour, name in ((-1, theme.CLASS_NEG, neg_name), (1, theme.CLASS_POS, pos_name)):
        symbol = "circle" if label > 0 else "diamond"
        m = ds.y_train == label
        traces.append(dict(
            type="scattergl", x=ds.X_train[m, 0], y=ds.X_train[m, 1], mode="markers",
            name=f"class {name} (train)",
            marker=dict(color=colour, size=6, line=dict(width=0.5, color="white"), symbol=symbol),
            hovertemplate=f"class {name}<br>%{{x:.3f}}, %{{y:.3f}}<extra>train</extra>",
        ))
        if show_test and ds.n_test:
            mt = ds.y_test == label
            traces.append(dict(
                type="scattergl", x=ds.X_test[mt, 0], y=ds.X_test[mt, 1], mode="markers",
                name=f"class {name} (test)",
                marker=dict(color=colour, size=6, symbol=f"{symbol}-open", line=dict(width=1.5)),
                hovertemplate=f"class {name}<br>%{{x:.3f}}, %{{y:.3f}}<extra>test</extra>",
            ))
    return traces


def tree_regions_figure(
    step: TreeStep, ds: Dataset, *, title: str = "", show_test: bool = True,
    leaf_labels: bool = True, height: int = 360,
) -> go.Figure:
    """Decision regions of the tree at ``step`` with the data and the cells of the leaves.

    The background is ``q̂`` of the leaf (white = undecided, blue = class +1, orange = −1);
    thin grey lines are earlier splits, the thick vermillion lines are this round's split,
    and the dashed box is the cell of the leaf that was just expanded.
    """
    tree = step.tree
    lo, hi = data_extent(ds)
    xs = np.linspace(lo[0], hi[0], GRID)
    ys = np.linspace(lo[1], hi[1], GRID)
    gx, gy = np.meshgrid(xs, ys)
    q = tree.predict_proba_pos(np.column_stack([gx.ravel(), gy.ravel()])).reshape(GRID, GRID)
    data = [dict(
        type="heatmap", x=xs, y=ys, z=q, zmin=0, zmax=1, colorscale=theme.REGION_SCALE,
        showscale=False, name="regions",
        hovertemplate="x1 %{x:.2f}, x2 %{y:.2f}<br>P(+1) in this leaf: %{z:.2f}<extra></extra>",
    )]
    boxes = tree.node_boxes(lo, hi)
    shapes = []
    current = step.split.leaf if step.split is not None else None
    for nid in np.flatnonzero(tree.feature >= 0):
        f = int(tree.feature[nid])
        box = boxes[nid]
        now = nid == current
        for theta in tree.thresholds[nid]:
            if f == 0:
                x0 = x1 = theta
                y0, y1 = box[1]
            else:
                y0 = y1 = theta
                x0, x1 = box[0]
            shapes.append(dict(
                type="line", x0=x0, x1=x1, y0=y0, y1=y1,
                line=dict(color=theme.HIGHLIGHT if now else "#555555", width=4 if now else 1),
            ))
    if current is not None:
        bx = boxes[current]
        shapes.append(dict(type="rect", x0=bx[0, 0], x1=bx[0, 1], y0=bx[1, 0], y1=bx[1, 1],
                           line=dict(color=theme.HIGHLIGHT, width=2, dash="dash")))
    data += _points(ds, show_test)
    if leaf_labels and tree.n_leaves <= 32:
        leaves = tree.leaves
        data.append(dict(
            type="scatter", x=boxes[leaves, 0].mean(axis=1), y=boxes[leaves, 1].mean(axis=1),
            mode="text", text=[f"#{i}" for i in leaves], name="leaf ids",
            textfont=dict(color="#333333", size=11), hoverinfo="skip", showlegend=False,
        ))
    layout = dict(
        title=dict(text=title, x=0.0, font=dict(size=14)), height=height,
        margin=dict(l=10, r=10, t=36 if title else 10, b=10), showlegend=False,
        plot_bgcolor="white", shapes=shapes,
        xaxis=dict(range=[lo[0], hi[0]], title=dict(text=ds.feature_names[0])),
        yaxis=dict(range=[lo[1], hi[1]], title=dict(text=ds.feature_names[1])),
    )
    return _figure(data, layout)


def topdown_curves_figure(
    steps: Sequence[TreeStep], t: int, *, size: int, title: str = "", height: int = 330,
    show_mm: bool = False, final_is_theorem: bool = True,
) -> go.Figure:
    """Measured ``I(T)``, training and test error against ``|T|``, with the bounds.

    Measured values are solid; bounds are dashed. Rounds up to ``t`` are drawn; the bound
    ``e_γ̂(n)`` for the current ``γ̂`` is drawn faintly over the whole budget ``1 … s`` so the
    class sees where the theory says the run must end up. ``final_is_theorem`` says whether
    Hatano's Theorem 4 covers this run (max-weight leaf rule and Hatano-acceptable splits);
    otherwise the ★ is labelled a reference.
    """
    t = min(t, len(steps) - 1)
    shown = steps[: t + 1]
    n = np.array([s.metrics.n_leaves for s in shown])
    m = [s.metrics for s in shown]
    data: list[dict] = []

    def line(y, name, colour, dash="solid", width=2.5):
        data.append(dict(
            type="scatter", x=n, y=y, name=name, mode="lines+markers",
            line=dict(color=colour, dash=dash, width=width), marker=dict(size=6),
            hovertemplate=f"{name}<br>|T| = %{{x}}: %{{y:.4f}}<extra></extra>",
        ))

    line([x.bound_power for x in m], "bound |T|^−γ̂", theme.BOUND["power"], "dot", 2)
    line([x.bound_e for x in m], "bound e_γ̂(|T|)", theme.BOUND["e"], "dash", 2)
    if show_mm and m[-1].mm_bound is not None:
        line([x.mm_bound for x in m], "MM bound e_γ(|T|), given γ", theme.BOUND["mm"], "dashdot", 2)
    line([x.index_value for x in m], "I(T) (index)", theme.MEASURED["index"])
    line([x.train_error for x in m], "training error ε̂(T)", theme.MEASURED["train"])
    if m[-1].test_error is not None:
        line([x.test_error for x in m], "test error", theme.MEASURED["test"], "solid", 1.5)
    g = m[-1].gamma_hat
    if np.isfinite(g):
        g = min(max(g, 0.0), 1.0)
        grid = np.arange(1, size + 1)
        data.append(dict(
            type="scatter", x=grid, y=e_gamma(grid, g), mode="lines",
            name=f"e_γ̂(n) for today's γ̂ = {g:.3f}", hoverinfo="skip", opacity=0.35,
            line=dict(color=theme.BOUND["e"], dash="dash", width=1),
        ))
        data.append(dict(
            type="scatter", x=[size], y=[size_bound(size, g)], mode="markers",
            name="Theorem 4: s^−γ̂ at s" if final_is_theorem else "s^−γ̂ at s (reference only)",
            marker=dict(symbol="star", size=12, color=theme.BOUND["final"]),
            hovertemplate="s^−γ̂ = %{y:.4f}<extra>final-tree bound</extra>",
        ))
    layout = dict(
        title=dict(text=title, x=0.0, font=dict(size=14)), height=height,
        margin=dict(l=10, r=10, t=36 if title else 10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.2, font=dict(size=11)),
        xaxis=dict(range=[0.5, size + 0.5], gridcolor="#eeeeee"),
        yaxis=dict(range=[0, 1.05], gridcolor="#eeeeee", title=dict(text="value")),
        shapes=[dict(type="line", xref="x", yref="paper", x0=int(n[-1]), x1=int(n[-1]),
                     y0=0, y1=1, line=dict(color="#888888", width=1, dash="dot"))],
    )
    return _figure(data, layout)


def bp_regions_figure(
    step: BPStep, ds: Dataset, *, show_test: bool = True, height: int = 360,
) -> go.Figure:
    """Regions of ``sign(F_t)`` (shaded by ``P(+1) = 1/(1+e^{−2F})``), the stump ``h_t`` as a
    vermillion line, and the training points sized by ``D_t``: the examples the weak learner
    had to focus on this round are the big ones."""
    lo, hi = data_extent(ds)
    xs = np.linspace(lo[0], hi[0], GRID)
    ys = np.linspace(lo[1], hi[1], GRID)
    gx, gy = np.meshgrid(xs, ys)
    F = step.program.decision_function(np.column_stack([gx.ravel(), gy.ravel()]))
    p = (1.0 / (1.0 + np.exp(-2.0 * np.clip(F, -50, 50)))).reshape(GRID, GRID)
    data = [dict(
        type="heatmap", x=xs, y=ys, z=p, zmin=0, zmax=1, colorscale=theme.REGION_SCALE,
        showscale=False, name="regions",
        hovertemplate="x1 %{x:.2f}, x2 %{y:.2f}<br>1/(1+e^(−2F)) = %{z:.2f}<extra></extra>",
    )]
    shapes = []
    if step.feature is not None:
        th = step.threshold
        if step.feature == 0:
            line = dict(x0=th, x1=th, y0=lo[1], y1=hi[1])
        else:
            line = dict(x0=lo[0], x1=hi[0], y0=th, y1=th)
        shapes.append(dict(type="line", line=dict(color=theme.HIGHLIGHT, width=4), **line))
    size = 4 + 14 * np.sqrt(step.D / step.D.max())  # area ∝ D_t(i)
    neg_name, pos_name = ds.class_names
    for label, colour, name in ((-1, theme.CLASS_NEG, neg_name), (1, theme.CLASS_POS, pos_name)):
        m = ds.y_train == label
        data.append(dict(
            type="scattergl", x=ds.X_train[m, 0], y=ds.X_train[m, 1], mode="markers",
            name=f"class {name} (train)", customdata=step.D[m],
            marker=dict(color=colour, size=size[m], symbol="circle" if label > 0 else "diamond",
                        line=dict(width=0.5, color="white")),
            hovertemplate=f"class {name}<br>D_t = %{{customdata:.4f}}<extra>train</extra>",
        ))
        if show_test and ds.n_test:
            mt = ds.y_test == label
            data.append(dict(
                type="scattergl", x=ds.X_test[mt, 0], y=ds.X_test[mt, 1], mode="markers",
                name=f"class {name} (test)",
                marker=dict(color=colour, size=5, line=dict(width=1.2),
                            symbol="circle-open" if label > 0 else "diamond-open"),
                hoverinfo="skip",
            ))
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), showlegend=False,
        plot_bgcolor="white", shapes=shapes,
        xaxis=dict(range=[lo[0], hi[0]], title=dict(text=ds.feature_names[0])),
        yaxis=dict(range=[lo[1], hi[1]], title=dict(text=ds.feature_names[1])),
    )
    return _figure(data, layout)


def bp_curves_figure(steps: Sequence[BPStep], t: int, *, height: int = 330) -> go.Figure:
    """Training/test error of ``sign(F_t)`` against ``Π Z_t`` and ``Π H_{D_t}(Y|h_t)`` (log y).

    Theorem 1: training error ≤ Π Z_t ≤ Π H(Y|h_t) (the second inequality up to smoothing of
    pure leaves). A zero error cannot be drawn on a log axis and is left out.
    """
    rounds = [s for s in steps[: t + 1] if s.metrics is not None]
    x = [s.t for s in rounds]
    m = [s.metrics for s in rounds]
    data: list[dict] = []

    def line(y, name, colour, dash="solid", width=2.5):
        y = np.asarray([v if v is not None and v > 0 else np.nan for v in y], dtype=float)
        data.append(dict(
            type="scatter", x=x, y=y, name=name, mode="lines+markers",
            line=dict(color=colour, dash=dash, width=width), marker=dict(size=5),
            hovertemplate=f"{name}<br>round %{{x}}: %{{y:.4g}}<extra></extra>",
        ))

    line([v.prod_H_h for v in m], "Π H(Y|h_t)", theme.BOUND["power"], "dot", 2)
    line([v.prod_Z for v in m], "Π Z_t (Theorem 1)", theme.BOUND["e"], "dash", 2)
    line([v.train_error for v in m], "training error", theme.MEASURED["train"])
    if m and m[-1].test_error is not None:
        line([v.test_error for v in m], "test error", theme.MEASURED["test"], "solid", 1.5)
    n_max = max((s.t for s in steps if s.metrics is not None), default=1)
    # a fixed range over the whole run, so the axis does not jump while stepping
    values = [v for s in steps if s.metrics is not None
              for v in (s.metrics.prod_Z, s.metrics.prod_H_h, s.metrics.train_error,
                        s.metrics.test_error) if v is not None and v > 0]
    low = np.floor(np.log10(min(values))) if values else -2.0
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.2, font=dict(size=11)),
        xaxis=dict(range=[0.5, n_max + 0.5], gridcolor="#eeeeee", title=dict(text="round t")),
        yaxis=dict(type="log", gridcolor="#eeeeee", title=dict(text="value (log scale)"),
                   range=[low, 0.05], dtick=1),
    )
    return _figure(data, layout)


def bp_leaves_figure(steps: Sequence[BPStep], t: int, *, height: int = 220) -> go.Figure:
    """``|L_t|``, the number of leaves of the program, round by round (log y)."""
    rounds = [s for s in steps[: t + 1] if s.metrics is not None]
    n_max = max((s.t for s in steps if s.metrics is not None), default=1)
    top = max((s.metrics.n_leaves for s in steps if s.metrics is not None), default=2)
    data = [dict(
        type="scatter", x=[s.t for s in rounds], y=[s.metrics.n_leaves for s in rounds],
        mode="lines+markers", name="|L_t|", line=dict(color=theme.NEUTRAL, width=2),
        hovertemplate="round %{x}: %{y} leaves<extra></extra>",
    )]
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        showlegend=False,
        xaxis=dict(range=[0.5, n_max + 0.5], gridcolor="#eeeeee", title=dict(text="round t")),
        yaxis=dict(type="log", gridcolor="#eeeeee", title=dict(text="leaves |L_t|"), dtick=1,
                   range=[0, np.log10(max(top, 2)) + 0.15]),
    )
    return _figure(data, layout)


def c_sweep_figure(rows: Sequence[dict], c: float, *, height: int = 300) -> go.Figure:
    """Theorem 3's trade-off measured: for each ``c``, the program's average ``|L_t|`` (bars,
    left axis) and the final ``Π Z_t`` bound (line, right axis, log); the chosen ``c`` marked."""
    cs = [r["c"] for r in rows]
    data = [
        dict(type="bar", x=cs, y=[r["leaves"] for r in rows], name="mean |L_t|",
             marker=dict(color=[theme.HIGHLIGHT if abs(v - c) < 1e-9 else "#BBBBBB"
                                for v in cs]), width=0.06,
             hovertemplate="c = %{x}: %{y:.1f} leaves on average<extra></extra>"),
        dict(type="scatter", x=cs, y=[r["prod_Z"] for r in rows], name="final Π Z_t",
             yaxis="y2", mode="lines+markers",
             line=dict(color=theme.BOUND["e"], dash="dash", width=2),
             hovertemplate="c = %{x}: Π Z = %{y:.3g}<extra></extra>"),
    ]
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.25),
        xaxis=dict(title=dict(text="c (Theorem 3's trade-off)"), range=[0, 1]),
        yaxis=dict(title=dict(text="mean leaves |L_t|"), gridcolor="#eeeeee"),
        yaxis2=dict(title=dict(text="final Π Z_t (log)"), overlaying="y", side="right",
                    type="log"),
    )
    return _figure(data, layout)


def prob_regions_figure(
    q: np.ndarray, ds: Dataset, lo: np.ndarray, hi: np.ndarray, *, stump=None,
    height: int = 360,
) -> go.Figure:
    """Soft regions: the heat is ``P(H(x) > 0)`` on a grid (computed by the caller, cached);
    the newest soft stump's threshold is the vermillion line, and its softness ``τ`` the
    shaded band ``θ ± 2τ`` where the stump is far from certain."""
    n = q.shape[0]
    xs = np.linspace(lo[0], hi[0], n)
    ys = np.linspace(lo[1], hi[1], n)
    data = [dict(
        type="heatmap", x=xs, y=ys, z=q, zmin=0, zmax=1, colorscale=theme.REGION_SCALE,
        showscale=True, colorbar=dict(title=dict(text="P(H>0)"), thickness=10, len=0.8),
        name="P(H>0)", hovertemplate="x1 %{x:.2f}, x2 %{y:.2f}<br>P(H(x) > 0) = %{z:.3f}"
        "<extra></extra>",
    )]
    shapes = []
    if stump is not None:
        th, band = stump.theta, 2 * stump.tau
        if stump.feature == 0:
            shapes += [dict(type="rect", x0=th - band, x1=th + band, y0=lo[1], y1=hi[1],
                            fillcolor=theme.HIGHLIGHT, opacity=0.12, line=dict(width=0)),
                       dict(type="line", x0=th, x1=th, y0=lo[1], y1=hi[1],
                            line=dict(color=theme.HIGHLIGHT, width=3))]
        else:
            shapes += [dict(type="rect", y0=th - band, y1=th + band, x0=lo[0], x1=hi[0],
                            fillcolor=theme.HIGHLIGHT, opacity=0.12, line=dict(width=0)),
                       dict(type="line", y0=th, y1=th, x0=lo[0], x1=hi[0],
                            line=dict(color=theme.HIGHLIGHT, width=3))]
    data += _points(ds, True)
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), showlegend=False,
        plot_bgcolor="white", shapes=shapes,
        xaxis=dict(range=[lo[0], hi[0]], title=dict(text=ds.feature_names[0])),
        yaxis=dict(range=[lo[1], hi[1]], title=dict(text=ds.feature_names[1])),
    )
    return _figure(data, layout)


def prob_curves_figure(steps, t: int, *, n_weak: int, paper_m2: bool, height: int = 340):
    """Expected training/test error against the bounds, by number of weak classifiers ``T``.

    Solid: measured (the chain's Monte Carlo estimate with ±2 standard errors). Dashed: the
    valid bound ``C(T)`` (``Π Z_t`` for the chain). Dotted: ``F(T, ρ̂)`` and ``ρ̂^T``;
    dash-dot: the paper's ``M2(T, ρ̂)`` (matryoshka), a claim docs/theory.md §3.3 shows is not
    proven.
    """
    shown = [s for s in steps if s.t <= t]
    x = [s.t for s in shown]
    m = [s.metrics for s in shown]
    data: list[dict] = []

    def line(y, name, colour, dash="solid", width=2.5, err=None):
        tr = dict(type="scatter", x=x, y=y, name=name, mode="lines+markers",
                  line=dict(color=colour, dash=dash, width=width), marker=dict(size=5),
                  hovertemplate=f"{name}<br>T = %{{x}}: %{{y:.4g}}<extra></extra>")
        if err is not None:
            tr["error_y"] = dict(type="data", array=err, visible=True, thickness=1)
        data.append(tr)

    line([v.F for v in m], "F(T, ρ̂) (tree bound)", theme.BOUND["power"], "dot", 2)
    line([v.rho_T for v in m], "ρ̂^T", "#999999", "dot", 1.5)
    if paper_m2:
        line([v.M2 for v in m], "M2(T, ρ̂) — paper's claim", theme.BOUND["final"], "dashdot", 2)
    line([v.C for v in m], "C(T) / Π Z (valid bound)", theme.BOUND["e"], "dash", 2)
    err = [2 * v.mc_stderr for v in m] if m and m[0].mc_stderr is not None else None
    line([v.expected_train_error for v in m], "expected training error", theme.MEASURED["train"],
         err=err)
    if m and m[-1].expected_test_error is not None:
        line([v.expected_test_error for v in m], "expected test error", theme.MEASURED["test"],
             "solid", 1.5)
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.2, font=dict(size=11)),
        xaxis=dict(range=[0.5, n_weak + 0.5], gridcolor="#eeeeee",
                   title=dict(text="weak classifiers T")),
        yaxis=dict(range=[0, 1.02], gridcolor="#eeeeee", title=dict(text="value")),
    )
    return _figure(data, layout)
