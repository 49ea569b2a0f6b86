"""Figures of the benchmark page (pure functions of result rows)."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from ui import theme
from ui.figures import plotly_figure


def win_loss_figure(results: Sequence[dict], reference: str, *, height: int = 420) -> go.Figure:
    """For every learner: on how many datasets its mean error is below (win), equal to (tie)
    or above (loss) the reference learner's; darker bars are significant (paired t, 5 %)."""
    names = [r["a"] for r in results]

    def count(r, kind, sig):
        return sum(
            1
            for d in r["details"]
            if ((d["diff"] < 0) if kind == "win" else (d["diff"] > 0)) and (d["significant"] == sig)
        )

    data = [
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[count(r, "win", True) for r in results],
            name="wins (significant)",
            marker=dict(color="#009E73"),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[count(r, "win", False) for r in results],
            name="wins",
            marker=dict(color="#9AD8C3"),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[r["ties"] for r in results],
            name="ties",
            marker=dict(color="#DDDDDD"),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[count(r, "loss", False) for r in results],
            name="losses",
            marker=dict(color="#F4B98C"),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[count(r, "loss", True) for r in results],
            name="losses (significant)",
            marker=dict(color=theme.HIGHLIGHT),
        ),
    ]
    layout = dict(
        barmode="stack",
        height=height,
        margin=dict(l=10, r=10, t=30, b=10),
        plot_bgcolor="white",
        title=dict(text=f"against {reference}", x=0, font=dict(size=13)),
        legend=dict(orientation="h", yanchor="top", y=-0.12, font=dict(size=11)),
        xaxis=dict(title=dict(text="datasets"), gridcolor="#eeeeee"),
        yaxis=dict(autorange="reversed"),
    )
    return plotly_figure(data, layout)


def dataset_errors_figure(summary: Sequence[dict], *, height: int = 420) -> go.Figure:
    """Mean test error ± one standard deviation over folds, per learner (ours in blue)."""
    rows = sorted(summary, key=lambda r: r["error_mean"])
    data = [
        dict(
            type="bar",
            orientation="h",
            y=[r["learner"] for r in rows],
            x=[r["error_mean"] for r in rows],
            error_x=dict(type="data", array=[r["error_sd"] for r in rows], color="#555555"),
            marker=dict(
                color=[theme.CLASS_POS if r.get("ours", True) else theme.NEUTRAL for r in rows]
            ),
            hovertemplate="%{y}<br>error %{x:.3f}<extra></extra>",
        )
    ]
    layout = dict(
        height=height,
        margin=dict(l=10, r=10, t=10, b=10),
        plot_bgcolor="white",
        xaxis=dict(
            title=dict(text="test error (mean ± sd over folds)"),
            gridcolor="#eeeeee",
            rangemode="tozero",
        ),
        yaxis=dict(autorange="reversed"),
        showlegend=False,
    )
    return plotly_figure(data, layout)


def budget_figure(rows: Sequence[dict], axis: str, *, height: int = 340) -> go.Figure:
    """Cross-validated test error (mean over folds) against the budget on one axis
    (leaves, rounds or internal nodes), one line per learner; dashed lines are peers."""
    by: dict[str, dict[int, list[float]]] = {}
    for r in rows:
        if r["axis"] == axis:
            by.setdefault(r["learner"], {}).setdefault(r["budget"], []).append(r["error_mean"])
    palette = ["#0072B2", "#009E73", "#D55E00", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]
    data = []
    for i, (name, pts) in enumerate(sorted(by.items())):
        xs = sorted(pts)
        data.append(
            dict(
                type="scatter",
                x=xs,
                y=[sum(pts[x]) / len(pts[x]) for x in xs],
                mode="lines+markers",
                name=name,
                marker=dict(size=4),
                line=dict(
                    color=palette[i % len(palette)],
                    width=2,
                    dash="dash" if name.startswith("sklearn") else "solid",
                ),
                hovertemplate=f"{name}<br>{axis} %{{x}}: error %{{y:.3f}}<extra></extra>",
            )
        )
    layout = dict(
        height=height,
        margin=dict(l=10, r=10, t=10, b=10),
        plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.2, font=dict(size=10)),
        xaxis=dict(title=dict(text=axis), gridcolor="#eeeeee"),
        yaxis=dict(
            title=dict(text="test error (mean over folds)"), gridcolor="#eeeeee", rangemode="tozero"
        ),
    )
    return plotly_figure(data, layout)
