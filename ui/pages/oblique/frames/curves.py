"""The oblique page's curves (:func:`g1_curves`): training and test error, the exponential
loss and Theorem 1's bound against each run's own step, as plotly figures (plain dicts)."""

from __future__ import annotations

import numpy as np

from boostcore.steps import rounds
from ui import theme
from ui.figures import curves_layout

from .positions import ADA, KM, ODT
from .regions import fig

FAINT = 0.28


# ------------------------------------------------------------------------------ curves
SERIES = (
    ("Thm 1 bound", theme.BOUND["e"], "dash", 2.2, lambda m: m.bound_theorem1),
    ("E e<sup>−yH</sup>", theme.MEASURED["index"], "dot", 2.2, lambda m: m.exp_loss),
    ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error),
    ("test error", theme.MEASURED["test"], "solid", 1.5, lambda m: m.test_error),
)


def g1_curves(
    steps, idx: int, *, xlabel: str, font: float = 12, small: bool = False, empty: str = ""
):
    """Training/test error, the exponential loss and Theorem 1's bound at θ = 0 (log y)
    against the run's own step ``t = 0 … T`` (its rounds, :func:`boostcore.steps.rounds`):
    the whole run faint, up to round ``idx`` solid, a marker at ``idx``; names written at the
    ends of the lines; ``empty`` is a note written over the plot."""
    done = rounds(steps)
    x_all = np.array([s.t for s in done])
    allm = [s.metrics for s in done]
    k = min(idx, len(done) - 1)
    series = [
        s
        for s in SERIES
        if not (s[0] == "test error" and (small or not allm or allm[-1].test_error is None))
    ]
    if small:
        series = [s for s in series if s[0] in ("Thm 1 bound", "train error")]
    values = [v for m in allm for *_, get in series for v in [get(m)] if v is not None and v > 0]
    low = max(float(np.floor(np.log10(min(values)))) if values else -2.0, -6.0)
    data: list[dict] = []
    labels = []
    for name, colour, dash, width, get in series:
        y = np.array(
            [np.nan if get(m) is None or get(m) <= 0 else get(m) for m in allm], dtype=np.float32
        )  # half the bytes; plenty for a log plot
        line = dict(color=colour, dash=dash, width=width if not small else width * 0.8)
        data.append(
            dict(
                type="scatter",
                x=x_all,
                y=y,
                mode="lines",
                name=name,
                opacity=FAINT,
                hoverinfo="skip",
                line=line,
                showlegend=False,
            )
        )
        data.append(
            dict(
                type="scatter",
                x=x_all[: k + 1],
                y=y[: k + 1],
                mode="lines",
                name=name,
                line=line,
                showlegend=False,
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.4g}}<extra></extra>",
            )
        )
        data.append(
            dict(
                type="scatter",
                x=x_all[k : k + 1] if k >= 0 else [],
                y=y[k : k + 1] if k >= 0 else [],
                mode="markers",
                showlegend=False,
                hoverinfo="skip",
                marker=dict(
                    color=colour, size=6 if small else 9, line=dict(color="white", width=1)
                ),
            )
        )
        finite = y[np.isfinite(y)]
        if finite.size and not small:
            labels.append((name, colour, float(finite[-1])))
    notes = []
    if empty:
        notes.append(
            dict(
                xref="paper",
                yref="paper",
                x=0.5,
                y=0.3,
                showarrow=False,
                text=empty,
                font=dict(size=font),
                align="center",
                bgcolor="rgba(255,255,255,0.85)",
            )
        )
    n_max = int(x_all.max()) if x_all.size else 1
    shapes = []
    if k >= 0:
        shapes.append(
            dict(
                type="line",
                xref="x",
                yref="paper",
                x0=int(x_all[k]),
                x1=int(x_all[k]),
                y0=0,
                y1=1,
                line=dict(color="#888888", width=1, dash="dot"),
            )
        )
    layout = curves_layout(
        labels,
        font=font,
        small=small,
        x_range=(-0.5, n_max + 0.5),
        x_title=xlabel,
        y_range=(low, 0.05),
        y_title="value (log scale)",
        log=True,
        annotations=notes,
        shapes=shapes,
        yaxis=dict(exponentformat="power"),
    )
    return fig(data, layout)


XLABEL = {ADA: "stumps t", KM: "splits", ODT: "internal nodes"}
