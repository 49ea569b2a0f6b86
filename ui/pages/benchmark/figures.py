"""Figures of the benchmark page (pure functions of result rows)."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from ui import theme
from ui.figures import chart_text, plotly_figure

#: The win/loss bars' colours, darker where significant. Stacked bars touch: each segment is
#: parted from the next by a white line and is a graphic on white (3 : 1; the pale #9AD8C3,
#: #DDDDDD and #F4B98C were 1.5–2.0 : 1).
OUTCOME_COLOURS = {
    "wins (significant)": "#005F45",  # dark bluish green
    "wins": theme.MEASURED["index"],
    "ties": theme.NEUTRAL,
    "losses": theme.BOUND["e"],
    "losses (significant)": theme.BOUND["final"],
}
#: The white line between stacked segments.
BAR_GAP = dict(color=theme.PLOT_BG, width=1)


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
            marker=dict(color=OUTCOME_COLOURS["wins (significant)"], line=BAR_GAP),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[count(r, "win", False) for r in results],
            name="wins",
            marker=dict(color=OUTCOME_COLOURS["wins"], line=BAR_GAP),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[r["ties"] for r in results],
            name="ties",
            marker=dict(color=OUTCOME_COLOURS["ties"], line=BAR_GAP),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[count(r, "loss", False) for r in results],
            name="losses",
            marker=dict(color=OUTCOME_COLOURS["losses"], line=BAR_GAP),
        ),
        dict(
            type="bar",
            orientation="h",
            y=names,
            x=[count(r, "loss", True) for r in results],
            name="losses (significant)",
            marker=dict(color=OUTCOME_COLOURS["losses (significant)"], line=BAR_GAP),
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
    return plotly_figure(data, chart_text(layout))


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
    return plotly_figure(data, chart_text(layout))


def budget_figure(rows: Sequence[dict], axis: str, *, height: int = 340) -> go.Figure:
    """Cross-validated test error (mean over folds) against the budget on one axis
    (leaves, rounds or internal nodes), one line per learner; dashed lines are peers."""
    by: dict[str, dict[int, list[float]]] = {}
    for r in rows:
        if r["axis"] == axis:
            by.setdefault(r["learner"], {}).setdefault(r["budget"], []).append(r["error_mean"])
    palette = theme.LINES[1:] + theme.LINES[:1]  # blue first, black last; each a line on white
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
    return plotly_figure(data, chart_text(layout))
