"""Figures of the Weight Distribution Game page (pure functions of game states)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from boostcore.bounds import phi_gamma

from . import theme
from .figures import _figure


def trajectory_figure(state, *, height: int = 300) -> go.Figure:
    """The tree's weight after each move against ``φ_γ(n)`` and ``n^{−γ}`` (``w = 1`` scale).

    ``φ_γ(n)`` is what the equal-binary adversary reaches at ``n`` leaves against the
    max-weight player; for a game of target ``n`` no adversary can end above it.
    """
    sizes = [1] + [1 + sum(m.k - 1 for m in state.history[: i + 1])
                   for i in range(len(state.history))]
    totals = [state.w0] + [m.total_after for m in state.history]
    n = np.arange(1, state.s + 1)
    data = [
        dict(type="scatter", x=n, y=state.w0 * phi_gamma(n, state.gamma), mode="lines",
             name="φ_γ(n) · w (equal binary splits)",
             line=dict(color=theme.BOUND["e"], dash="dash", width=2)),
        dict(type="scatter", x=n, y=state.w0 * n ** (-state.gamma), mode="lines",
             name="n^(−γ) · w", line=dict(color=theme.BOUND["power"], dash="dot", width=2)),
        dict(type="scatter", x=sizes, y=totals, mode="lines+markers", name="this game",
             line=dict(color=theme.MEASURED["train"], width=2.5), marker=dict(size=7),
             hovertemplate="%{x} leaves: weight %{y:.4f}<extra></extra>"),
    ]
    layout = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.22, font=dict(size=11)),
        xaxis=dict(range=[0.5, state.s + 0.5], gridcolor="#eeeeee",
                   title=dict(text="leaves |T|")),
        yaxis=dict(range=[0, state.w0 * 1.05], gridcolor="#eeeeee",
                   title=dict(text="tree weight")),
    )
    return _figure(data, layout)
