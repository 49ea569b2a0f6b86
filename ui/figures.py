"""Snapshot → plotly figure builders (pure functions: no Streamlit, unit-testable)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from boostcore.datasets import Dataset

from . import theme


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

