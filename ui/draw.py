"""Draw your own data: a canvas where each click adds a point of the chosen class.

``st.plotly_chart(..., on_select=..., selection_mode="points")`` reports clicks on markers
only, so the canvas carries an invisible, dense grid of markers over a fixed square; a click
anywhere selects the nearest grid marker, and its ``x, y`` is the new point. After every click
the chart gets a new key, so the selection is cleared and the same spot can be clicked again.

The drawing is kept in Session State and written to the URL as ``pts=`` (three URL-safe
characters per point, see :func:`encode_points`), so a shared link reopens the same points.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from boostcore import datasets

from . import pages, params, theme
from .text import md_plain

#: The canvas is the square [−LIMIT, LIMIT]² (the generated datasets live in about ±1.5).
LIMIT = 2.0
#: Coordinates are stored on a lattice of step 1 / QUANT (0.0125); LEVELS values per axis.
QUANT = 80
LEVELS = int(2 * LIMIT * QUANT) + 1  # 321
#: Clickable grid: one marker every GRID_EVERY lattice steps (0.05), 81 × 81 markers.
GRID_EVERY = 4
#: Largest number of drawn points (the URL holds 3 characters per point).
MAX_POINTS = 400
#: Fewest points of each class for a drawing to run (as boostcore.datasets.from_points).
MIN_PER_CLASS = 2
URL_KEY = "pts"

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_INDEX = {c: i for i, c in enumerate(_ALPHABET)}
_CODE_MAX = LEVELS * LEVELS * 2  # codes 0 .. _CODE_MAX - 1 fit in 3 characters (64³)

# Session State keys (all prefixed "draw_").
_PTS, _HIST, _GEN, _MSG, _OPEN, _CLS, _LINKED = (
    "draw_pts",
    "draw_hist",
    "draw_gen",
    "draw_msg",
    "draw_open",
    "draw_cls",
    "draw_linked",
)

NEG_LABEL, POS_LABEL = "−1", "+1"

Point = tuple[int, int, int]  # (x level, y level, label ±1)


# ------------------------------------------------------------------------ pure helpers
def to_level(v: float) -> int:
    """Lattice level of a coordinate, clipped to the canvas."""
    return int(min(max(round((float(v) + LIMIT) * QUANT), 0), LEVELS - 1))


def to_coord(level: int) -> float:
    """Coordinate of a lattice level."""
    return (level - LIMIT * QUANT) / QUANT


def encode_points(points: Sequence[Point]) -> str:
    """Three URL-safe characters per point: ``(x·LEVELS + y)·2 + (label > 0)`` in base 64."""
    out = []
    for xl, yl, label in points:
        code = (xl * LEVELS + yl) * 2 + (label > 0)
        out.append(_ALPHABET[code >> 12] + _ALPHABET[(code >> 6) & 63] + _ALPHABET[code & 63])
    return "".join(out)


def decode_points(text: str) -> tuple[list[Point], str | None]:
    """Points of a ``pts=`` value and, if it is damaged, a message saying what was kept.

    Decoding stops at the first bad group of three characters (a truncated or edited link),
    keeping the points before it; more than :data:`MAX_POINTS` points keep the first ones.
    """
    points: list[Point] = []
    issue = None
    text = text.strip()
    for i in range(0, len(text), 3):
        group = text[i : i + 3]
        if len(group) < 3:
            issue = (
                f"it ends with {len(group)} stray character(s) {group!r} (each point "
                "takes 3 characters, so the link was probably cut short)"
            )
            break
        if any(c not in _INDEX for c in group):
            bad = next(c for c in group if c not in _INDEX)
            issue = (
                f"point {len(points) + 1} ({group!r}) contains {bad!r}, which never "
                "appears in a drawing's link"
            )
            break
        code = (_INDEX[group[0]] << 12) | (_INDEX[group[1]] << 6) | _INDEX[group[2]]
        if code >= _CODE_MAX:
            issue = f"point {len(points) + 1} ({group!r}) lies outside the canvas"
            break
        xy, positive = divmod(code, 2)
        points.append((xy // LEVELS, xy % LEVELS, 1 if positive else -1))
    if issue is None and len(points) > MAX_POINTS:
        issue = f"it holds {len(points)} points, more than the {MAX_POINTS} allowed"
    if issue is None:
        return points, None
    points = points[:MAX_POINTS]
    kept = f"the first {len(points)} point(s) were kept" if points else "the drawing starts empty"
    return points, (
        f"The link's drawn points ({URL_KEY}=…) could not all be read: {issue}; {kept}."
    )


def drawn_xy() -> tuple[np.ndarray, np.ndarray]:
    """The session's drawing as ``(X, y)`` (:func:`points_xy` of its points)."""
    return points_xy(st.session_state.get(_PTS, ()))


def points_xy(points: Sequence[Point]) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates (m, 2) and labels (m,) of lattice points."""
    if not points:
        return np.empty((0, 2)), np.empty(0, dtype=np.int64)
    a = np.asarray(points, dtype=np.int64)
    return np.column_stack([to_coord(a[:, 0]), to_coord(a[:, 1])]), a[:, 2]


def counts(points: Sequence[Point]) -> tuple[int, int]:
    """Number of points of class −1 and of class +1."""
    pos = sum(1 for p in points if p[2] > 0)
    return len(points) - pos, pos


def problem(points: Sequence[Point]) -> str | None:
    """Why the drawing cannot run yet (None when it can)."""
    neg, pos = counts(points)
    if neg >= MIN_PER_CLASS and pos >= MIN_PER_CLASS:
        return None
    need = []
    if neg < MIN_PER_CLASS:
        need.append(f"{MIN_PER_CLASS - neg} more of class {NEG_LABEL}")
    if pos < MIN_PER_CLASS:
        need.append(f"{MIN_PER_CLASS - pos} more of class {POS_LABEL}")
    return (
        f"Too few points to run: the algorithms need at least {MIN_PER_CLASS} points of "
        f"each class. Add {' and '.join(need)}."
    )


def from_dataset(ds: datasets.Dataset, seed: int = 0) -> tuple[list[Point], str]:
    """A dataset's points (train and test) on the lattice, at most :data:`MAX_POINTS`.

    Points outside the canvas are left out rather than moved; the message says how many
    points were taken and what was left out.
    """
    X = np.vstack([ds.X_train, ds.X_test])
    y = np.concatenate([ds.y_train, ds.y_test])
    inside = np.all(np.abs(X) <= LIMIT, axis=1)
    idx = np.flatnonzero(inside)
    note = []
    if (~inside).sum():
        note.append(f"{int((~inside).sum())} outside the canvas ±{LIMIT:g}")
    if len(idx) > MAX_POINTS:
        note.append(
            f"{len(idx) - MAX_POINTS} beyond the limit of {MAX_POINTS} points "
            "(a random sample was kept)"
        )
        idx = np.sort(np.random.default_rng(seed).choice(idx, MAX_POINTS, replace=False))
    points = [(to_level(X[i, 0]), to_level(X[i, 1]), int(y[i])) for i in idx]
    msg = f"Took {len(points)} points from the generated dataset"
    msg += f"; left out {' and '.join(note)}." if note else "."
    return points, msg


def points_key(points: Sequence[Point]) -> str:
    """A short hash identifying the drawing (for caches keyed by the dataset)."""
    return hashlib.sha1(encode_points(points).encode()).hexdigest()[:16]


def dataset(points: Sequence[Point], test_fraction: float, seed: int) -> datasets.Dataset:
    """The drawn points as a Dataset (raises ValueError if too few, see :func:`problem`)."""
    X, y = points_xy(points)
    return datasets.from_points(X, y, name="drawn", test_fraction=test_fraction, random_state=seed)


def canvas_figure(points: Sequence[Point], *, height: int = 480) -> go.Figure:
    """The drawing canvas: an invisible clickable grid, the drawn points on top."""
    g = to_coord(np.arange(0, LEVELS, GRID_EVERY))
    gx, gy = np.meshgrid(g, g)
    X, y = points_xy(points)
    data = [
        dict(
            # The click target: markers that cannot be seen but can be clicked (Plotly picks
            # the nearest marker to the pointer, whatever its opacity). hoverinfo "none" keeps
            # the click events and shows no label. WebGL: as SVG, 6561 markers took so long to
            # redraw after each click that a click soon after the previous one was lost (measured
            # in Chromium: 5 of 8 clicks 0.8 s apart with SVG, 8 of 8 with WebGL).
            type="scattergl",
            x=gx.ravel(),
            y=gy.ravel(),
            mode="markers",
            name="canvas",
            marker=dict(size=7, color="rgba(0,0,0,0)", opacity=0.0),
            selected=dict(marker=dict(opacity=0.0)),
            unselected=dict(marker=dict(opacity=0.0)),
            hoverinfo="none",
            showlegend=False,
        )
    ]
    for label, colour, name, symbol in (
        (-1, theme.CLASS_NEG, NEG_LABEL, "diamond"),
        (1, theme.CLASS_POS, POS_LABEL, "circle"),
    ):
        m = y == label
        data.append(
            dict(
                type="scatter",
                x=X[m, 0],
                y=X[m, 1],
                mode="markers",
                name=f"class {name}",
                marker=dict(
                    color=colour,
                    size=11,
                    symbol=symbol,
                    # class −1's orange is 2.25 : 1 on the white canvas: its dark outline is
                    # what stands out (WCAG 1.4.11), as in ui.figures.points_traces
                    line=dict(theme.MARKER_LINE[label]),
                ),
                unselected=dict(marker=dict(opacity=1.0)),
                hoverinfo="skip",
            )
        )
    axis = dict(
        range=[-LIMIT - 0.08, LIMIT + 0.08],
        fixedrange=True,
        zeroline=True,
        zerolinecolor="#BBBBBB",
        gridcolor="#EEEEEE",
        dtick=0.5,
        showspikes=False,
        constrain="domain",
    )  # a square plot area showing exactly the canvas
    layout = dict(
        height=height,
        margin=dict(l=40, r=10, t=10, b=40),
        dragmode=False,
        hovermode="closest",
        hoverdistance=30,
        clickmode="event+select",
        xaxis=dict(axis, title="x1"),
        yaxis=dict(axis, title="x2", scaleanchor="x"),
        plot_bgcolor="white",
        showlegend=False,
        legend=dict(
            orientation="h", x=0, y=1.0, yanchor="bottom", itemclick=False, itemdoubleclick=False
        ),
    )
    return go.Figure({"data": data, "layout": layout}, _validate=False)


# ------------------------------------------------------------------------ Streamlit state
#: What the Undo button says after each kind of change.
_UNDO_LABELS = {
    "point": "Undo last point",
    "clear": "Undo Clear",
    "start": "Undo start from generated",
}


def _set_points(points: Sequence[Point], change: str) -> None:
    """Replace the drawing, recording the previous one for Undo (``change`` names why)."""
    ss = st.session_state
    hist = ss.setdefault(_HIST, [])
    hist.append((tuple(ss.get(_PTS, ())), change))
    del hist[:-50]  # the last 50 changes can be undone
    ss[_PTS] = tuple(points)
    ss[_MSG] = None


def _on_click(chart_key: str) -> None:
    ss = st.session_state
    state = ss.get(chart_key)
    try:
        clicked = state["selection"]["points"]
    except (KeyError, TypeError):
        return
    if not clicked:
        return
    points = tuple(ss.get(_PTS, ()))
    ss[_GEN] = ss.get(_GEN, 0) + 1  # a fresh chart: no selection left to block the next click
    if len(points) >= MAX_POINTS:
        ss[_MSG] = f"The drawing is full: at most {MAX_POINTS} points (Undo or Clear first)."
        return
    hit = clicked[0]
    label = -1 if ss.get(_CLS, NEG_LABEL) == NEG_LABEL else 1
    _set_points(points + ((to_level(hit["x"]), to_level(hit["y"]), label),), "point")


def _undo() -> None:
    ss = st.session_state
    hist = ss.get(_HIST) or []
    if hist:
        ss[_PTS] = hist.pop()[0]
    else:  # nothing recorded (e.g. the drawing came from a link): remove the last point
        ss[_PTS] = tuple(ss.get(_PTS, ()))[:-1]
    ss[_MSG] = None


def _clear() -> None:
    _set_points((), "clear")


def _start_from(ds: datasets.Dataset, seed: int) -> None:
    points, msg = from_dataset(ds, seed)
    _set_points(points, "start")
    st.session_state[_MSG] = msg


def parse_points(param: str, raw: str | Sequence[str] | None) -> tuple[list, params.Ignored | None]:
    """The drawn points of a ``pts=`` value (see :func:`decode_points`): a damaged
    value keeps the points before the damage."""
    if raw is None:
        return [], None
    text = params.last_value(raw)
    points, message = decode_points(text)
    if message is None:
        return points, None
    return points, params.ignored(param, f"damaged; kept {len(points)} point(s)", text)


def init_from_url() -> None:
    """Read ``pts=`` from the URL once per session (later runs keep the session's drawing)."""
    ss = st.session_state
    if _PTS in ss:
        return
    raw = st.query_params.get(URL_KEY) or None
    points, bad = parse_points(URL_KEY, raw)
    params.note(bad, handled=URL_KEY)  # on the page's notice, quoted and escaped
    ss[_PTS] = tuple(points)
    # the panel's longer message quotes one group of 3 characters of the link, escaped
    ss[_MSG] = md_plain(decode_points(raw)[1], limit=400) if bad is not None else None
    ss[_LINKED] = problem(points) is None  # a shared drawing that runs opens folded away


def sync_url(active: bool) -> None:
    """Write the drawing to ``pts=`` while drawing; remove the parameter otherwise."""
    code = encode_points(st.session_state.get(_PTS, ())) if active else ""
    if code:
        if st.query_params.get(URL_KEY) != code:
            st.query_params[URL_KEY] = code
    elif URL_KEY in st.query_params:
        del st.query_params[URL_KEY]


def draw_panel(generated: datasets.Dataset, seed: int) -> tuple[datasets.Dataset, str] | None:
    """The drawing panel in the main area; the drawn dataset and its cache key, or None.

    ``generated`` is the sidebar's generated dataset (for "Start from the generated points");
    None is returned while the drawing is too small to run.
    """
    ss = st.session_state
    init_from_url()
    points = tuple(ss.get(_PTS, ()))
    why_not = problem(points)
    if why_not is not None:
        open_ = True  # keep the canvas in view until the drawing can run
    elif _OPEN not in ss:  # first view of the panel (or back from another source)
        open_ = not ss.get(_LINKED, False)
    else:
        open_ = bool(ss[_OPEN])  # as the student left it
    ss[_LINKED] = False
    # Assigned on every run: the browser shows an expander's state from Session State only
    # when it was set in this run, otherwise it falls back to ``expanded`` (closed).
    ss[_OPEN] = open_
    neg, pos = counts(points)
    with st.expander(
        f"Draw your points — {neg} of class {NEG_LABEL}, {pos} of class {POS_LABEL}",
        key=_OPEN,
        on_change="rerun",
        icon=":material/draw:",
    ):
        # A crosshair over the canvas says "click here" (Plotly's drag layer sets the cursor).
        st.markdown(
            "<style>.st-key-draw_open .nsewdrag {cursor: crosshair !important;}</style>",
            unsafe_allow_html=True,
        )
        left, right = st.columns([3, 2], gap="medium")
        with left:
            chart_key = f"draw_canvas_{ss.get(_GEN, 0)}"
            st.plotly_chart(
                canvas_figure(points),
                key=chart_key,
                on_select=functools.partial(_on_click, chart_key),
                selection_mode="points",
                config={"displayModeBar": False, "scrollZoom": False, "doubleClick": False},
            )
        with right:
            st.segmented_control(
                "Class of the next click",
                [NEG_LABEL, POS_LABEL],
                default=NEG_LABEL,
                key=_CLS,
                required=True,
                format_func=lambda c: (
                    f":orange[◆ class {c}]" if c == NEG_LABEL else f":blue[● class {c}]"
                ),
                help="Each click on the canvas adds one point of this class.",
            )
            st.markdown(
                f":orange[◆ class {NEG_LABEL}: **{neg}**] &nbsp;·&nbsp; "
                f":blue[● class {POS_LABEL}: **{pos}**] &nbsp;·&nbsp; "
                f"{len(points)} of at most {MAX_POINTS} points"
            )
            b1, b2 = st.columns(2)
            hist = ss.get(_HIST) or []
            b1.button(
                _UNDO_LABELS[hist[-1][1]] if hist else _UNDO_LABELS["point"],
                key="draw_undo",
                on_click=_undo,
                icon=":material/undo:",
                disabled=not (points or hist),
                width="stretch",
                help="Undo the last change: a point, Clear, or Start from the generated points.",
            )
            b2.button(
                "Clear",
                key="draw_clear",
                on_click=_clear,
                icon=":material/delete:",
                disabled=not points,
                width="stretch",
                help="Remove every point.",
            )
            st.button(
                "Start from the generated points",
                key="draw_start",
                on_click=_start_from,
                args=(generated, seed),
                icon=":material/scatter_plot:",
                width="stretch",
                help="Replace the drawing by the sidebar's generated dataset (up to "
                f"{MAX_POINTS} points inside the canvas), then add or undo points.",
            )
            test_fraction = st.slider(
                "Test fraction of the drawn points",
                **params.named(pages.DATASET_PARAMS, "ptest").number(),
                help="Share of your points held out to measure the test error (0: all of "
                "them train).",
            )
            if ss.get(_MSG):
                st.info(ss[_MSG], icon=":material/info:")
            if why_not is not None:
                st.warning(
                    f"{why_not} Meanwhile the demo below runs on the generated "
                    "dataset of the sidebar.",
                    icon=":material/warning:",
                )
            else:
                st.success(
                    f"The demo below runs on your {len(points)} points.",
                    icon=":material/check_circle:",
                )
            st.caption(
                f"Your points are saved in the address bar ({URL_KEY}=…): copy the "
                "link to share the drawing. Click anywhere on the canvas to add a "
                "point; the canvas spans ±2 on both axes."
            )
    if why_not is not None:
        return None
    try:
        ds = dataset(points, test_fraction, seed)
    except ValueError as err:  # cannot happen after problem() passed; never a traceback
        st.error(f"The drawing cannot be used: {err}")
        return None
    return ds, f"draw:{points_key(points)}:{test_fraction}:{seed}"
