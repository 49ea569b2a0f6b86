"""Snapshot → plotly figure builders every page shares (pure functions: no Streamlit,
unit-testable): the data's box, figures as dicts, the points of both classes, the regions'
axes and the labels at the right end of the curves."""

from __future__ import annotations

import re
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


def chart_text(layout: dict, colour: str = theme.CHART_TEXT) -> dict:
    """``layout`` with every text colour of a chart Streamlit draws set to ``colour``: the
    figure's font, the legend, and each axis's tick labels and title.

    ``st.plotly_chart`` applies Streamlit's template, whose tick labels and titles are a faded
    grey (3.72 : 1 on white, issue 26); a template only fills what the figure leaves unset,
    so setting them here keeps the text at 4.5 : 1 or more.

    Parameters
    ----------
    layout : dict
        A plotly layout as a dict (changed in place, and returned).
    colour : str, default :data:`ui.theme.CHART_TEXT`

    Returns
    -------
    dict
        ``layout``.
    """
    layout.setdefault("font", {})["color"] = colour
    layout.setdefault("legend", {}).setdefault("font", {})["color"] = colour
    if isinstance(layout.get("title"), dict):
        layout["title"].setdefault("font", {})["color"] = colour
    for name in ("xaxis", "yaxis"):
        axes = [k for k in layout if k.startswith(name)] or [name]
        for key in axes:
            axis = layout.setdefault(key, {})
            axis.setdefault("tickfont", {})["color"] = colour
            title = axis.get("title")
            if isinstance(title, dict):
                title.setdefault("font", {})["color"] = colour
            elif title is not None:
                axis["title"] = dict(text=title, font=dict(color=colour))
    return layout


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
                # class −1's orange fill is pale on its own region: its dark outline is the
                # part of the marker that stands out (WCAG 1.4.11)
                line=dict(theme.MARKER_LINE[label]),
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
                        color=theme.HOLLOW[label],
                        size=6,
                        symbol=f"{symbol}-open",
                        line=dict(width=1.5),
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


#: The longer side of the smallest regions plot a lecture view draws, in sizes of its labels'
#: font (presenting, the plot and the fonts scale together with the window: 313 px at 14.7 px
#: at 1280×720, about 3/4 of that beside the student's panel): labels placed apart at this
#: size are apart at any larger one.
REGIONS_MIN_EM = 15.0
#: Width of one character of a label, in font sizes (digits and '#' are about 0.55–0.6 em).
CHAR_EM = 0.62


def cell_labels(
    cells: Sequence[tuple[str, float, float, float, float, float]],
    *,
    font: float,
    lo: Sequence[float],
    hi: Sequence[float],
    min_px: float | None = None,
) -> list[tuple[str, float, float, str | None]]:
    """Places one short label per cell (a leaf's id at its cell) so that no two overlap on a
    plot of the box ``lo``–``hi`` whose longer side is at least ``min_px`` pixels (both axes at
    the same scale, as :func:`regions_layout` draws them).

    Cells are served by weight, heaviest first: a label goes to the cell's centre, else to a
    point a quarter of the cell away from it (up, down, left, right) if its box stays apart
    from the labels already placed; else it is left out, and the result names the label that
    took its room (for the hover).

    Parameters
    ----------
    cells : sequence of (str, float, float, float, float, float)
        The label, the cell's ``x0, x1, y0, y1`` and its weight (for the order).
    font : float
        The labels' font size in pixels.
    lo, hi : sequence of float
        The plot's lower and upper corner in data units.
    min_px : float, optional
        The smallest length in pixels of the plot's longer side (default
        :data:`REGIONS_MIN_EM` × ``font``).

    Returns
    -------
    list of (str, float, float, str or None)
        Per cell, in the order given: its label, where it is drawn, and ``None`` — or, for a
        label left out, ``""`` and the cell's centre with the label that took its room.
    """
    if font <= 0:
        raise ValueError(f"font must be positive; got {font!r}")
    if min_px is None:
        min_px = REGIONS_MIN_EM * font
    if min_px <= 0:
        raise ValueError(f"min_px must be positive; got {min_px!r}")
    span = max(float(hi[0]) - float(lo[0]), float(hi[1]) - float(lo[1]))
    unit = span / min_px  # data units per pixel at the smallest size
    h = font * LINE * unit
    placed: list[tuple[str, float, float, float]] = []  # label, x, y, half-width
    out: dict[int, tuple[str, float, float, str | None]] = {}
    for i in sorted(range(len(cells)), key=lambda i: (-cells[i][5], i)):
        text, x0, x1, y0, y1, _w = cells[i]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half = text_length(text) * CHAR_EM * font * unit / 2 + unit  # and a pixel apart
        spots = [(cx, cy)]
        spots += [(cx, y0 + (y1 - y0) * f) for f in (0.75, 0.25)]
        spots += [(x0 + (x1 - x0) * f, cy) for f in (0.25, 0.75)]
        blocker = None
        for x, y in spots:
            hit = next(
                (p for p in placed if abs(p[1] - x) < half + p[3] and abs(p[2] - y) < h + unit),
                None,
            )
            if hit is None:
                placed.append((text, x, y, half))
                out[i] = (text, x, y, None)
                break
            blocker = blocker or hit[0]
        else:
            out[i] = ("", cx, cy, blocker)
    return [out[i] for i in range(len(cells))]


# ------------------------------------------------------------------------------ top-down


#: Height of one line of label text, in font sizes: end labels' centres are at least this far
#: apart (plotly draws a one-line annotation about 1.1–1.2 font sizes high).
LINE = 1.2
#: The smallest height of a lecture view's figure (``ui.lecture.view``'s ``min_height``): the
#: curves' end labels are spaced for a plot this small, so they are apart at any larger one.
VIEW_MIN_PX = 260
#: Pixels between a curve's end (the plot's right edge) and its label.
LABEL_GAP_PX = 10
#: Length in pixels of a leader line (shorter than the gap, which presenter mode scales by
#: the window's width down to 2/3 at 1280 px).
LEADER_PX = 6


def text_length(text: str) -> int:
    """Characters a plotly text shows: markup tags (``<sup>``, ``<sub>``, ``<br>``) removed
    and an escaped entity counted as one character."""
    return len(re.sub(r"&[#a-zA-Z0-9]+;", "x", re.sub(r"<[^>]*>", "", text)))


def _isotonic(z: Sequence[float]) -> list[float]:
    """The non-decreasing sequence nearest to ``z`` in least squares (pool adjacent
    violators)."""
    blocks: list[list[float]] = []  # [mean, count]
    for v in z:
        blocks.append([float(v), 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, c2 = blocks.pop()
            m1, c1 = blocks[-1]
            blocks[-1] = [(m1 * c1 + m2 * c2) / (c1 + c2), c1 + c2]
    return [m for m, c in blocks for _ in range(int(c))]


#: The height of an end label's line, in font sizes, by its text: presenting, the lecture script
#: draws a label at no less than 22 px × scale, one with a sub/superscript at 26 px × scale
#: (``MIN_LABEL``, ``MIN_SUP_PARENT``) for a figure built at 22 px with labels at 21 px, so
#: labels are spaced for 22/21 and 26/21 of their font.
PLAIN_EM, SUP_EM = 22 / 21, 26 / 21


def label_em(text: str) -> float:
    """How many of its font sizes an end label may be drawn at (:data:`SUP_EM` with a
    sub/superscript, else :data:`PLAIN_EM`)."""
    return SUP_EM if re.search(r"<su[bp]>", text, re.IGNORECASE) else PLAIN_EM


def _place(
    labels: Sequence[tuple[str, str, float]],
    *,
    font: float,
    y_range: tuple[float, float],
    plot_px: float,
    log: bool,
) -> list[tuple[str, str, float, float]]:
    """(text, colour, where the line ends, where the label goes) per label kept, in axis
    coordinates: see :func:`end_labels`."""
    if font <= 0:
        raise ValueError(f"font must be positive; got {font!r}")
    if plot_px <= 0:
        raise ValueError(f"plot_px must be positive; got {plot_px!r}")
    lo, hi = float(y_range[0]), float(y_range[1])
    if not hi > lo:
        raise ValueError(f"y_range must be increasing; got {y_range!r}")
    per_px = (hi - lo) / plot_px

    def height(text: str) -> float:  # a line, plus half a pixel so rounding never joins two
        return (font * label_em(text) * LINE + 0.5) * per_px

    kept: list[tuple[str, str, float]] = []
    for text, colour, y in labels:  # the first given first, while the range holds them
        if sum(height(t) for t, *_ in kept) + height(text) <= hi - lo:
            kept.append((text, colour, y))
    if not kept:
        return []

    def pos(y: float) -> float:
        if log:
            return float(np.log10(y)) if y > 0 else lo
        return float(y)

    want = sorted((min(max(pos(y), lo), hi), i, t, c) for i, (t, c, y) in enumerate(kept))
    hs = [height(t) for _, _, t, _ in want]
    offset = [0.0]  # centre i sits offset[i] above centre 0 when the labels touch
    for a, b in zip(hs, hs[1:]):
        offset.append(offset[-1] + (a + b) / 2)
    first, last = lo + hs[0] / 2, hi - hs[-1] / 2 - offset[-1]
    z = _isotonic([y - o for (y, *_), o in zip(want, offset, strict=True)])
    return [
        (text, colour, y, min(max(zi, first), max(last, first)) + o)
        for (y, _, text, colour), zi, o in zip(want, z, offset, strict=True)
    ]


def end_labels(
    labels: Sequence[tuple[str, str, float]],
    *,
    font: float,
    y_range: tuple[float, float],
    plot_px: float = 300.0,
    log: bool = False,
    yref: str = "y",
) -> list[dict]:
    """Names written at the right end of their lines (instead of a legend that would cover
    the plot or an axis title), apart: no two overlap on a plot at least ``plot_px`` high.
    A label is drawn in :func:`ui.theme.ink` of its colour: the curve's hue, dark enough for
    text (4.5 : 1 on the white plot).

    Each label wants the height of its line's last point; the labels are spread so that two
    neighbours' centres are at least half their lines apart (a line: :data:`LINE` × ``font`` ×
    :func:`label_em` pixels at a plot ``plot_px`` high), inside ``y_range`` (every label's
    whole line in the plot), moving them as little as possible (least squares: the nearest
    non-decreasing sequence of ``y_i − offset_i``, clipped to the range, plus ``offset_i``).
    On a taller plot the same axis coordinates are further apart in pixels, so they never
    overlap there either. :func:`end_leaders` ties a label that moved to its curve.

    Parameters
    ----------
    labels : sequence of (str, str, float)
        Text (plotly markup: ``<sup>``, ``<sub>``), colour and the y of the line's last point,
        the most important first: when ``plot_px`` cannot hold them all, the last are left
        out (their curves keep their names in the hover).
    font : float
        The labels' font size in pixels.
    y_range : (float, float)
        The y axis's range (in powers of ten when ``log``).
    plot_px : float, default 300
        The smallest height in pixels of the plot area of ``y_range`` the figure is drawn at.
    log : bool, default False
        A logarithmic y axis: ``y`` values are data, placed at ``log10(y)``.
    yref : str, default "y"
        The y axis the labels belong to.

    Returns
    -------
    list of dict
        Plotly annotations, one per label kept.
    """
    return [
        dict(
            xref="paper",
            x=1.0,
            xanchor="left",
            xshift=LABEL_GAP_PX,
            yref=yref,
            y=at,
            yanchor="middle",
            text=text,
            showarrow=False,
            align="left",
            # a label is text: its curve's colour darkened to 4.5 : 1 where the line needs 3
            font=dict(color=theme.ink(colour), size=font),
        )
        for text, colour, _y, at in _place(
            labels, font=font, y_range=y_range, plot_px=plot_px, log=log
        )
    ]


def end_leaders(
    labels: Sequence[tuple[str, str, float]],
    *,
    font: float,
    y_range: tuple[float, float],
    plot_px: float = 300.0,
    log: bool = False,
    yref: str = "y",
) -> list[dict]:
    """The leader lines of :func:`end_labels` (same arguments): for each label moved by more
    than a quarter of its line, a thin line in its colour from its curve's end (the plot's
    right edge) towards the label, :data:`LEADER_PX` pixels long. Both ends are in axis
    coordinates, so the line keeps pointing from the curve to its label at any height (a
    shape: the lecture script rescales an annotation's pixel offsets, not a shape's). The line is
    drawn in its label's colour (:func:`ui.theme.ink` of the curve's)."""
    per_px = (float(y_range[1]) - float(y_range[0])) / plot_px
    out = []
    for text, colour, y, at in _place(labels, font=font, y_range=y_range, plot_px=plot_px, log=log):
        target = (float(np.log10(y)) if y > 0 else float(y_range[0])) if log else float(y)
        target = min(max(target, float(y_range[0])), float(y_range[1]))
        if abs(at - target) > font * label_em(text) * LINE * per_px / 4:
            out.append(
                dict(
                    type="line",
                    xref="paper",
                    xsizemode="pixel",
                    xanchor=1.0,
                    x0=0,
                    x1=LEADER_PX,
                    yref=yref,
                    y0=target,
                    y1=at,
                    layer="above",
                    line=dict(color=theme.ink(colour), width=1),  # its label's colour
                )
            )
    return out


def label_centre(ann: dict) -> float:
    """The y (axis coordinates) of an end label's text."""
    return float(ann["y"])


def curves_right_margin(
    labels: Sequence[tuple[str, str, float]], *, font: float, most: float | None = None
) -> int:
    """Pixels the curves keep on their right for the end labels: room for the longest one
    (about 0.6 em a character, markup not counted), at most ``most`` pixels when given. One
    formula for every page's curves, so that the plots line up alike."""
    if not labels:
        return 14
    room = int(max(text_length(name) for name, *_ in labels) * font * 0.6) + LABEL_GAP_PX + 12
    return room if most is None else min(room, int(most))


def plot_height(fig_px: float, *, font: float, margin: dict, domain: Sequence[float] = (0, 1)):
    """The smallest height in pixels of a y axis's plot area in a figure ``fig_px`` high with
    ``margin`` and an x axis below with tick labels and a title at ``font`` (plotly's automargin
    adds their room to the bottom margin: at most two lines and the title's standoff)."""
    room = fig_px - margin.get("t", 0) - margin.get("b", 0) - 2 * LINE * font - 12
    return max(room, 1.0) * (float(domain[1]) - float(domain[0]))


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
    view_px: float = VIEW_MIN_PX,
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
    view_px : float, default :data:`VIEW_MIN_PX`
        The smallest height in pixels the figure is drawn at: the end labels are spaced so
        that none overlap at this height (:func:`plot_height`) or any larger one.
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
    margin = dict(l=8, r=8, t=4, b=8) if small else dict(l=10, r=right, t=8, b=10)
    domain = (yaxis or {}).get("domain", (0.0, 1.0))
    plot_px = plot_height(view_px, font=font, margin=margin, domain=domain)
    placing = dict(font=font - 1, y_range=tuple(y_range), plot_px=plot_px, log=log)
    leaders = end_leaders(labels, **placing)
    layout = dict(
        margin=margin,
        plot_bgcolor="white",
        font=dict(size=font),
        showlegend=False,
        uirevision="curves",
        annotations=end_labels(labels, **placing) + list(annotations),
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
    if shapes is not None or leaders:
        layout["shapes"] = list(shapes or []) + leaders
    return layout
