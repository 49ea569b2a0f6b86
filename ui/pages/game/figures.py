"""Figures of the Weight Distribution Game page (pure functions of game states)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from boostcore.bounds import phi_gamma
from ui import theme
from ui.figures import chart_text, plotly_figure


def trajectory_figure(state, *, height: int = 300) -> go.Figure:
    """The tree's weight after each move against the equal-binary reference ``φ_γ(n)``, with
    the bound of this game — ``φ_γ(s)`` at its target ``s`` — marked, and ``n^{−γ}``.

    ``φ_γ(n)`` is what the equal-binary adversary reaches at ``n`` leaves against the
    max-weight player. It bounds the *end* of a game of target ``n`` only: in a game of target
    ``s`` an adversary may lie above ``φ_γ(n)`` at an intermediate ``n`` (e.g. s = 8, γ = 0.1:
    0.81 at n = 5 > φ_γ(5) = 0.790) and still end below ``φ_γ(s)``.
    """
    sizes = [1] + [
        1 + sum(m.k - 1 for m in state.history[: i + 1]) for i in range(len(state.history))
    ]
    totals = [state.w0] + [m.total_after for m in state.history]
    n = np.arange(1, state.s + 1)
    data = [
        dict(
            type="scatter",
            x=n,
            y=state.w0 * phi_gamma(n, state.gamma),
            mode="lines",
            # two lines: one is wider than a phone's chart (issue 26, item 8)
            name="φ_γ(n) · w: the equal-binary game<br>(a reference, not a bound at each n)",
            line=dict(color=theme.BOUND["e"], dash="dash", width=2),
        ),
        dict(
            type="scatter",
            x=[state.s],
            y=[state.w0 * phi_gamma(state.s, state.gamma)],
            mode="markers",
            name="φ_γ(s) · w: the bound at the end (Theorem 3)",
            marker=dict(symbol="star", size=13, color=theme.BOUND["final"]),
            hovertemplate="φ_γ(s)·w = %{y:.4f}<extra>no adversary ends above it</extra>",
        ),
        dict(
            type="scatter",
            x=n,
            y=state.w0 * n ** (-state.gamma),
            mode="lines",
            name="n<sup>−γ</sup> · w",
            line=dict(color=theme.BOUND["power"], dash="dot", width=2),
        ),
        dict(
            type="scatter",
            x=sizes,
            y=totals,
            mode="lines+markers",
            name="this game",
            line=dict(color=theme.MEASURED["train"], width=2.5),
            marker=dict(size=7),
            hovertemplate="%{x} leaves: weight %{y:.4f}<extra></extra>",
        ),
    ]
    layout = dict(
        height=height,
        margin=dict(l=10, r=10, t=10, b=10),
        plot_bgcolor="white",
        # above the plot: below it, the x axis's title sat on the legend (issue 26, item 8)
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, font=dict(size=11)),
        # automargin: drawn by the lecture view (plotly.js without plotly.py's template), the
        # 10-px margins cut the tick labels ("0.8" read "8")
        xaxis=dict(
            range=[0.5, state.s + 0.5],
            gridcolor="#eeeeee",
            title=dict(text="leaves |T|"),
            automargin=True,
        ),
        yaxis=dict(
            range=[0, state.w0 * 1.05],
            gridcolor="#eeeeee",
            title=dict(text="tree weight"),
            automargin=True,
        ),
    )
    return plotly_figure(data, chart_text(layout))


def lemma9_figure(step, *, height: int = 280) -> go.Figure:
    """Hatano's Lemma 9 for one node (a :class:`boostcore.game.Lemma9Step`): the two sides of
    the lemma against the subtree's size ``m = k + t`` — the node's ``k``-way split (its own
    shares) then equal halves, and equal halves only (``w·φ_γ(m)``) — with this game's ``m``
    marked. The second line is never below the first (Hatano 2004, §4.1)."""
    sizes = [m for m, _, _ in step.curve]
    data = [
        dict(
            type="scatter",
            x=sizes,
            y=[a for _, _, a in step.curve],
            mode="lines+markers",
            name="binary subtree: equal halves only = w·φ_γ(m)",
            line=dict(color=theme.BOUND["e"], width=2.5),
            marker=dict(size=6),
            hovertemplate="m = %{x}: %{y:.4f}<extra>equal halves only</extra>",
        ),
        dict(
            type="scatter",
            x=sizes,
            y=[b for _, b, _ in step.curve],
            mode="lines+markers",
            name=f"{step.k}-way split (these shares), then equal halves",
            line=dict(color=theme.MEASURED["train"], width=2.5, dash="dash"),
            marker=dict(size=6),
            hovertemplate="m = %{x}: %{y:.4f}<extra>k-way, then equal halves</extra>",
        ),
        dict(
            type="scatter",
            x=[step.leaves, step.leaves],
            y=[step.before, step.after],
            mode="markers",
            name=f"this subtree (m = {step.leaves}): before → after",
            marker=dict(symbol="circle-open", size=14, line=dict(width=2.5), color=theme.HIGHLIGHT),
            hovertemplate="m = %{x}: %{y:.4f}<extra>this subtree</extra>",
        ),
    ]
    lo = min(b for _, b, _ in step.curve)
    hi = max(a for _, _, a in step.curve)
    pad = 0.05 * (hi - lo) if hi > lo else 0.05 * (hi or 1.0)
    layout = dict(
        height=height,
        margin=dict(l=10, r=10, t=10, b=10),
        plot_bgcolor="white",
        # above the plot: below it, the x axis's title sat on the legend (issue 26, item 8)
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, font=dict(size=11)),
        xaxis=dict(
            range=[sizes[0] - 0.5, sizes[-1] + 0.5],
            gridcolor="#eeeeee",
            dtick=1 if len(sizes) <= 12 else None,
            title=dict(text="leaves m of the subtree (k + t)"),
        ),
        yaxis=dict(
            range=[max(0.0, lo - pad), hi + pad],
            gridcolor="#eeeeee",
            title=dict(text="subtree weight"),
        ),
    )
    return plotly_figure(data, chart_text(layout))
