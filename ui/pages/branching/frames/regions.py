"""The regions view of /branching: the decision regions of ``sign F_t`` as a heatmap on the
grid of the stumps' thresholds, the training and test points, this round's stump, and the
student's turn (:func:`turn_regions`). Pure functions (no Streamlit)."""

from __future__ import annotations

from html import escape

import numpy as np

from boostcore.branching import BPStep
from boostcore.datasets import Dataset
from ui import theme
from ui.figures import data_extent, regions_layout

#: Shades of the regions heatmap: ``z = round(LEVELS · P(+1))`` as small integers.
LEVELS = 50


# ---------------------------------------------------------------------------- regions
def points(ds: Dataset, *, size=6, show_test: bool = True) -> list[dict]:
    """Training (filled) and test (hollow) points of both classes as SVG markers; ``size``
    (one per training point) draws the weights. Positions are float32 (half the bytes of a
    frame; far below a pixel) and class names are escaped (they may come from a CSV)."""
    traces = []
    for label, colour, cname in (
        (-1, theme.CLASS_NEG, ds.class_names[0]),
        (1, theme.CLASS_POS, ds.class_names[1]),
    ):
        name = escape(cname)
        symbol = "circle" if label > 0 else "diamond"
        m = ds.y_train == label
        traces.append(
            dict(
                type="scatter",
                x=ds.X_train[m, 0].astype(np.float32),
                y=ds.X_train[m, 1].astype(np.float32),
                mode="markers",
                name=f"class {name} (train)",
                showlegend=False,
                marker=dict(
                    color=colour,
                    size=size if np.isscalar(size) else size[m],
                    symbol=symbol,
                    # class −1's orange is pale on its own region: its dark outline is what
                    # stands out (WCAG 1.4.11), as in ui.figures.points_traces
                    line=dict(theme.MARKER_LINE[label]),
                ),
                hovertemplate=f"class {name}<br>%{{x:.3f}}, %{{y:.3f}}<extra>train</extra>",
            )
        )
        if show_test and ds.n_test:
            mt = ds.y_test == label
            traces.append(
                dict(
                    type="scatter",
                    x=ds.X_test[mt, 0].astype(np.float32),
                    y=ds.X_test[mt, 1].astype(np.float32),
                    mode="markers",
                    name=f"class {name} (test)",
                    showlegend=False,
                    marker=dict(
                        color=theme.HOLLOW[label],
                        size=6,
                        symbol=f"{symbol}-open",
                        line=dict(width=1.5),
                    ),
                    hovertemplate=f"class {name}<br>%{{x:.3f}}, %{{y:.3f}}<extra>test</extra>",
                )
            )
    return traces


def _edges(rounds, feature: int, lo: float, hi: float) -> np.ndarray:
    inner = sorted({r.threshold for r in rounds if r.feature == feature and lo < r.threshold < hi})
    return np.array([lo, *inner, hi], dtype=float)


def spec(data: list[dict], layout: dict) -> dict:
    """A figure as a plain ``{"data", "layout"}`` dict: :func:`ui.lecture.plotly_frames`
    encodes its numpy arrays as typed arrays. (Building ``go.Figure`` objects would cost most
    of a lecture's build time; the unit tests rebuild every frame with validation.)"""
    return {"data": data, "layout": layout}


def regions_figure(step: BPStep, ds: Dataset, *, font: float = 12, small: bool = False) -> dict:
    """Regions of ``sign F_t`` after round ``step.t``, shaded by ``1/(1+e^{−2F_t})``.

    ``F_t`` only changes at the thresholds of the stumps so far, so the heatmap's cells are
    the cells of that grid (at most 61 × 61 small integers), exact at any zoom. Training
    points have area ∝ ``D_t`` (the weights ``h_t`` was chosen on); this round's stump is
    the vermillion line, with its ``+1`` side marked. The layout is the same every round
    (only traces change), so it is sent once.
    """
    lo, hi = data_extent(ds)
    rounds = step.program.rounds
    ex = _edges(rounds, 0, float(lo[0]), float(hi[0]))
    ey = _edges(rounds, 1, float(lo[1]), float(hi[1]))
    cx, cy = (ex[:-1] + ex[1:]) / 2, (ey[:-1] + ey[1:]) / 2
    gx, gy = np.meshgrid(cx, cy)
    grid = np.zeros((gx.size, ds.X_train.shape[1]))
    grid[:, 0], grid[:, 1] = gx.ravel(), gy.ravel()
    F = step.program.decision_function(grid) if rounds else np.zeros(gx.size)
    p = 1.0 / (1.0 + np.exp(-2.0 * np.clip(F, -50, 50)))
    z = np.rint(p * LEVELS).astype(np.uint8).reshape(gx.shape)
    data = [
        dict(
            type="heatmap",
            x=ex,
            y=ey,
            z=z,
            zmin=0,
            zmax=LEVELS,
            colorscale=theme.REGION_SCALE,
            showscale=False,
            hoverinfo="skip",
            name="regions",
        )
    ]
    if small:  # weights are not visible at this size: the points stay the same every round
        data += points(ds, show_test=False, size=4)
    else:
        D = np.asarray(step.D, dtype=float)
        rel = np.sqrt(D / D.max()) if D.size and D.max() > 0 else np.ones(ds.n_train)
        data += points(ds, size=np.rint(3 + 12 * rel).astype(np.uint8))
    line = dict(
        type="scatter",
        mode="lines",
        x=[],
        y=[],
        hoverinfo="skip",
        name="h_t",
        showlegend=False,
        line=dict(color=theme.HIGHLIGHT, width=2 if small else 4),
    )
    mark = dict(
        type="scatter",
        mode="text",
        x=[],
        y=[],
        text=[],
        hoverinfo="skip",
        name="h_t = +1",
        showlegend=False,
        textfont=dict(color=theme.HIGHLIGHT, size=font, shadow="auto", weight=600),
    )
    if step.feature is not None and step.feature < 2:
        _draw_stump(line, mark, step.feature, float(step.threshold), step.t, lo, hi)
    data.append(line)
    if not small:
        data.append(mark)
    layout = regions_layout(ds, lo, hi, font=font, small=small)
    if not small:  # axis titles are plotly's pseudo-HTML: a CSV's column name is escaped
        layout["xaxis"]["title"] = dict(text=escape(ds.feature_names[0]))
        layout["yaxis"]["title"] = dict(text=escape(ds.feature_names[1]))
    return spec(data, layout)


def _draw_stump(line: dict, mark: dict, f: int, th: float, t: int, lo, hi) -> None:
    """Put the stump ``h_t = [x_f > th]`` into the line trace ``line`` (across the plot) and
    its ``+1`` side's mark into ``mark``."""
    near_end = th > lo[f] + 0.65 * (hi[f] - lo[f])  # no room for the mark on the +1 side
    if f == 0:
        line.update(x=[th, th], y=[float(lo[1]), float(hi[1])])
        mark.update(
            x=[th],
            y=[float(hi[1])],
            text=[f"h{t} = +1 ▸"],
            textposition="bottom left" if near_end else "bottom right",
        )
    else:
        line.update(x=[float(lo[0]), float(hi[0])], y=[th, th])
        mark.update(
            x=[float(hi[0])],
            y=[th],
            text=[f"▴ h{t} = +1"],
            textposition="bottom left" if near_end else "top left",
        )


def turn_regions(
    step: BPStep, ds: Dataset, feature: int, threshold: float, *, font: float = 12
) -> dict:
    """The student's turn (be the weak learner): the regions of ``sign F_t`` after round
    ``step.t``, the training points sized by ``D_{t+1}`` (the weights the next stump is
    chosen on) and the candidate stump ``h_{t+1} = [x_feature > threshold]`` in vermillion.

    Parameters
    ----------
    step : BPStep
        The snapshot the student's stump follows (round ``t``; ``"start"`` for round 1).
    ds : Dataset
        The run's data.
    feature : int
        The candidate's feature (0 or 1 is drawn; another one draws no line).
    threshold : float
        The candidate's threshold (``x ≤ threshold`` is its ``−1`` side).
    font : float, default 12
        Text size in px.

    Returns
    -------
    dict
        A ``{"data", "layout"}`` plotly figure, as :func:`regions_figure`'s.
    """
    fig = regions_figure(step, ds, font=font)
    data = fig["data"]
    heat, line, mark = data[0], data[-2], data[-1]
    D = np.asarray(step.D_next, dtype=float)
    rel = np.sqrt(D / D.max()) if D.size and D.max() > 0 else np.ones(ds.n_train)
    dots = points(ds, size=np.rint(3 + 12 * rel).astype(np.uint8))
    line.update(x=[], y=[])
    mark.update(x=[], y=[], text=[])
    if feature < 2:
        lo, hi = data_extent(ds)
        _draw_stump(line, mark, feature, float(threshold), step.t + 1, lo, hi)
    line["line"] = dict(line["line"], dash="dash")
    fig["data"] = [heat, *dots, line, mark]
    return fig
