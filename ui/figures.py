"""Snapshot → plotly figure builders every page shares (pure functions: no Streamlit,
unit-testable): the data's box, figures as dicts, the points of both classes, the regions'
axes and the labels at the right end of the curves."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

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


def plotly_figure(data: list[dict], layout: dict) -> go.Figure:
    """A figure from plain dicts, skipping plotly's per-property validation.

    Validation costs ~60 % of a step's drawing time; the dicts here are fixed by this module,
    and the unit tests rebuild every figure *with* validation to keep them honest.
    """
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def figure_dict(data: list[dict], layout: dict) -> dict:
    """A figure as a plain dict: frames are encoded straight to JSON (``ui.lecture.plotly_frames``)
    without building plotly objects, which costs more than the drawing itself. The tests
    rebuild every figure with ``go.Figure`` to keep them valid."""
    return {"data": data, "layout": layout}


#: Above this many points, markers are drawn with WebGL (SVG markers get slow).
SVG_POINTS_MAX = 1500

FAINT = 0.28  # opacity of the whole-run curves behind the part up to this round


def points_traces(
    ds: Dataset, *, show_test: bool = True, size=None, customdata=None, hover: str | None = None
) -> list[dict]:
    """Training (filled) and test (hollow) points of both classes; ``size`` (one per training
    point) draws weights as marker size."""
    kind = "scatter" if ds.n_train + ds.n_test <= SVG_POINTS_MAX else "scattergl"
    traces = []
    # class names come from a CSV's labels: plotly reads its text as markup, so escape it
    neg_name, pos_name = (escape(str(c)) for c in ds.class_names)
    for label, colour, name in ((-1, theme.CLASS_NEG, neg_name), (1, theme.CLASS_POS, pos_name)):
        symbol = "circle" if label > 0 else "diamond"
        m = ds.y_train == label
        tr = dict(
            type=kind,
            x=ds.X_train[m, 0],
            y=ds.X_train[m, 1],
            mode="markers",
            name=f"class {name} (train)",
            marker=dict(
                color=colour,
                size=6 if size is None else size[m],
                line=dict(width=0.5, color="white"),
                symbol=symbol,
            ),
            hovertemplate=hover or f"class {name}<br>%{{x:.3f}}, %{{y:.3f}}<extra>train</extra>",
        )
        if customdata is not None:
            tr["customdata"] = customdata[m]
        traces.append(tr)
        if show_test and ds.n_test:
            mt = ds.y_test == label
            traces.append(
                dict(
                    type=kind,
                    x=ds.X_test[mt, 0],
                    y=ds.X_test[mt, 1],
                    mode="markers",
                    name=f"class {name} (test)",
                    marker=dict(
                        color=colour, size=6, symbol=f"{symbol}-open", line=dict(width=1.5)
                    ),
                    hovertemplate=f"class {name}<br>%{{x:.3f}}, %{{y:.3f}}<extra>test</extra>",
                )
            )
    return traces


def aspect(ds: Dataset) -> float:
    """Height/width of the regions plot's data box (both axes at the same scale)."""
    lo, hi = data_extent(ds)
    return float((hi[1] - lo[1]) / (hi[0] - lo[0]))


def regions_layout(
    ds: Dataset, lo, hi, *, shapes=(), font: float = 12, small: bool = False
) -> dict:
    """Axes over the data's box with the data's aspect ratio (one unit is as long on both)."""
    return dict(
        margin=dict(l=8, r=8, t=6, b=8) if small else dict(l=10, r=10, t=10, b=10),
        showlegend=False,
        plot_bgcolor="white",
        shapes=list(shapes),
        font=dict(size=font),
        uirevision="regions",
        dragmode="pan" if not small else False,
        xaxis=dict(
            range=[float(lo[0]), float(hi[0])],
            showgrid=False,
            zeroline=False,
            automargin=True,
            title=None if small else dict(text=escape(str(ds.feature_names[0]))),
            showticklabels=not small,
        ),
        yaxis=dict(
            range=[float(lo[1]), float(hi[1])],
            showgrid=False,
            zeroline=False,
            automargin=True,
            title=None if small else dict(text=escape(str(ds.feature_names[1]))),
            showticklabels=not small,
            scaleanchor="x",
            scaleratio=1.0,
        ),
    )


# ------------------------------------------------------------------------------ top-down


def end_labels(
    labels: Sequence[tuple[str, str, float]],
    *,
    font: float,
    y_range: tuple[float, float],
    plot_px: float = 300.0,
    log: bool = False,
) -> list[dict]:
    """Names written at the right end of their lines (instead of a legend that would cover
    the plot or an axis title), pushed apart vertically so that no two overlap.

    ``labels`` holds (text, colour, y of the line's last point); ``plot_px`` is the plot's
    approximate height, which sets how far apart labels must be in data units.
    """
    if not labels:
        return []
    lo, hi = y_range

    def pos(y: float) -> float:
        return np.log10(max(y, 10**lo)) if log else y

    gap = (hi - lo) * font * 1.15 / plot_px
    items = sorted(
        ((min(max(pos(y), lo + gap / 2), hi - gap / 2), text, colour) for text, colour, y in labels)
    )
    placed: list[list] = []
    for y, text, colour in items:
        if placed and y - placed[-1][0] < gap:
            y = placed[-1][0] + gap
        placed.append([y, text, colour])
    overflow = placed[-1][0] - (hi - gap / 2)
    if overflow > 0:  # too high: shift the whole stack down, keeping the gaps
        for p in placed:
            p[0] -= overflow
    return [
        dict(
            xref="paper",
            x=1.0,
            xanchor="left",
            xshift=4,
            yref="y",
            y=y,
            text=text,
            showarrow=False,
            font=dict(color=colour, size=font),
            align="left",
        )
        for y, text, colour in placed
    ]


def curves_right_margin(
    labels: Sequence[tuple[str, str, float]], *, font: float, most: float | None = None
) -> int:
    """Pixels the curves keep on their right for the end labels: room for the longest one
    (about 0.6 em a character), at most ``most`` pixels when given. One formula for every
    page's curves, so that the plots line up alike."""
    if not labels:
        return 14
    room = int(max(len(name) for name, *_ in labels) * font * 0.6) + 16
    return room if most is None else min(room, int(most))


def curves_layout(
    labels: Sequence[tuple[str, str, float]],
    *,
    font: float,
    small: bool,
    x_range: Sequence[float],
    x_title: str,
    y_range: Sequence[float] = (0.0, 1.05),
    y_title: str = "value",
    log: bool = False,
    plot_px: float = 300.0,
    annotations: Sequence[dict] = (),
    shapes: Sequence[dict] | None = None,
    most_right: float | None = None,
    xaxis: dict | None = None,
    yaxis: dict | None = None,
) -> dict:
    """The layout of a lecture page's bound curves (every page's: one layout).

    Parameters
    ----------
    labels : sequence of (str, str, float)
        The curves' names, colours and last values, written at the right end of their lines
        (:func:`end_labels`; nothing for a small view, which passes none).
    font : float
        The figure's font size (labels are one point smaller).
    small : bool
        A small multiple: no tick labels, titles or right margin.
    x_range, y_range : sequence of float
        The axes' ranges (``y_range`` in powers of ten when ``log``).
    x_title, y_title : str
        The axes' titles.
    log : bool, default False
        A logarithmic y axis, one tick per power of ten.
    plot_px : float, default 300
        The plot's approximate height, which spaces the end labels.
    annotations : sequence of dict
        More annotations (a note on an empty run, …), drawn after the end labels.
    shapes : sequence of dict, optional
        Shapes (the dotted line at this round); omitted from the layout when None.
    most_right : float, optional
        The widest right margin allowed (:func:`curves_right_margin`).
    xaxis, yaxis : dict, optional
        Extra properties of the axes (a second y axis's anchor and domains, …).

    Returns
    -------
    dict
        A plotly layout.
    """
    right = curves_right_margin(labels, font=font, most=most_right)
    layout = dict(
        margin=dict(l=8, r=8, t=4, b=8) if small else dict(l=10, r=right, t=8, b=10),
        plot_bgcolor="white",
        font=dict(size=font),
        showlegend=False,
        uirevision="curves",
        annotations=end_labels(
            labels, font=font - 1, y_range=tuple(y_range), plot_px=plot_px, log=log
        )
        + list(annotations),
        xaxis=dict(
            range=list(x_range),
            gridcolor="#eeeeee",
            showticklabels=not small,
            automargin=True,
            title=None if small else dict(text=x_title, standoff=4),
            **(xaxis or {}),
        ),
        yaxis=dict(
            range=list(y_range),
            gridcolor="#eeeeee",
            showticklabels=not small,
            automargin=True,
            title=None if small else dict(text=y_title, standoff=4),
            **({"type": "log", "dtick": 1} if log else {}),
            **(yaxis or {}),
        ),
    )
    if shapes is not None:
        layout["shapes"] = list(shapes)
    return layout
