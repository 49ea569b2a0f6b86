"""Divide-and-merge runs → the lecture view's frames (the /branching page).

Per round ``t = 0 … T`` of each merging scheme (``boostcore.steps.rounds``: round 0 is the
initial model ``F_0 = 0``, the program's root alone): the decision regions of ``sign F_t`` (a
heatmap on the grid of the stumps' thresholds, exact and small), the branching program as a
layered SVG picture (one layer per round, this round's layer in vermillion), the curves
``Π Z_t ≥ training error`` with ``Π H(Y|h_t)`` and ``|L_t|`` (the whole run faint, the rounds up
to this one solid), and the round tables. The run's last frame says why it stopped
(``boostcore.steps.final(run).stop_reason``). :func:`branching_lecture` builds them once
(cached), and :func:`program_frames` the program pictures of the focused scheme; the browser
steps through them.

Every figure builder here is a pure function (no Streamlit); only those two are cached with
``st.cache_data``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from html import escape

import numpy as np

from boostcore import steps as protocol
from boostcore.branching import START, STEP, STOP, BPStep, round_bands, round_lemma4
from boostcore.datasets import Dataset
from ui import theme
from ui.cache import shared
from ui.figures import (
    FAINT,
    LABEL_GAP_PX,
    VIEW_MIN_PX,
    curves_layout,
    data_extent,
    end_labels,
    end_leaders,
    plot_height,
    regions_layout,
)
from ui.labels import MERGE_SHORT
from ui.proof import is_large
from ui.proof import proof_frames as proof_cards  # this module's proof_frames wraps it
from ui.svgtree import svg_size
from ui.text import YOURS, notation, plural, rich_html, spoken_number, sub, who_chose

from . import runs as branching_runs
from .proof import branching_chain, four_k
from .tables import bp_metrics_frame, groups_frame

#: The merging schemes of the page: shown name → ``merge=`` of ``bp_infoboost``.
SCHEMES = {name: merge for merge, name in MERGE_SHORT.items()}  # page name → merge
#: Shades of the regions heatmap: ``z = round(LEVELS · P(+1))`` as small integers.
LEVELS = 50

#: Pictures of the program offered to the browser, from the most to the least detailed:
#: (rows, boxes per layer). The browser shows the first one that fits its panel at full
#: text size; rows beyond the last few layers collapse into one box, and the lightest
#: leaves of a layer into one "+N more" box.
DETAIL = ((9, 6), (9, 4), (6, 4), (4, 4), (5, 3), (3, 3))


#: The label of a leaf no training point reaches in the program picture (two lines).
NO_POINT = ("no training", "point reaches")

#: The curves' names as drawn (plotly's sub/superscripts; issue 39, item 9: "Π Z_t" was raw).
PROD_H = notation("Π H(Y|h_t)")
PROD_Z = notation("Π Z_t")
LEAVES = notation("|L_t|")
#: The names of the Theorem 3 chart (:func:`c_round_figure`).
C_BOUND = notation("bound 1 − cγ_t")
C_LEAVES_H = notation("H(Y|ℓ_t)")


def _minus(text: str) -> str:
    return text.replace("-", "−")


def program_rounds(run: Sequence[BPStep], t: int) -> list[BPStep]:
    """The rounds ``1 … t`` of ``run``: its ``"step"`` snapshots up to round ``t`` (none at
    round 0, where the program is its root alone)."""
    return [s for s in run if s.kind == STEP and s.t <= t]


def first_merge(run: Sequence[BPStep]) -> int:
    """The round the page opens at when the link names none: the first in which the run
    merges children (the page's subject), round 2 for a run that never merges (the first
    round whose leaves are divided again)."""
    for s in run:
        if s.kind == STEP and s.t >= 2 and s.metrics.n_divided > s.metrics.n_leaves:
            return s.t
    return 2


def _never(run: Sequence[BPStep]) -> str:
    """Why a run never got a round (``""`` for a run with rounds)."""
    if len(protocol.rounds(run)) == 1 and protocol.stop_reason(run):
        return " " + protocol.stop_reason(run)
    return ""


def _no_round(run: Sequence[BPStep]) -> str:
    """What a round-0 panel says where there is nothing to merge or plot yet (and, for a run
    that never got a round, why)."""
    return "Round 0: the initial model; no stump has divided the root yet." + _never(run)


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


# ---------------------------------------------------------------------------- program
#: Advance widths (em) of the page's font, Source Sans at weight 600 (Streamlit serves it,
#: so the lecture view always has it); other characters count as ``_EM_DEFAULT``.
_EM = {
    **dict.fromkeys("0123456789", 0.51),
    ".": 0.27,
    ",": 0.27,
    " ": 0.2,
    "−": 0.51,
    "+": 0.51,
    "-": 0.33,
    ">": 0.51,
    "<": 0.51,
    "=": 0.51,
    "w": 0.75,
    "m": 0.84,
    "W": 0.85,
    "M": 0.85,
    "D": 0.62,
    "i": 0.25,
    "l": 0.26,
    "j": 0.25,
    "t": 0.35,
    "r": 0.37,
    "f": 0.32,
    "…": 0.96,
    "–": 0.48,
    "(": 0.3,
    ")": 0.3,
}
_EM_DEFAULT = 0.6
#: The SVG's fonts: the page's own first; files saved from the Export menu fall back to
#: Helvetica/Arial, which are wider, so their widths are estimated larger (``wide=True``).
FAMILY = "'Source Sans', 'Source Sans Pro', Helvetica, Arial, sans-serif"
WIDE = 1.3


def text_width(text: str, font: float, *, wide: bool = False) -> float:
    """Estimated width in px of ``text`` at ``font`` px (a little generous)."""
    em = sum(_EM.get(ch, _EM_DEFAULT) for ch in text)
    return em * font * 1.05 * (WIDE if wide else 1.0)


def _short(name: str, n: int = 6) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def _layer(rounds: Sequence[BPStep], r: int) -> tuple[np.ndarray, np.ndarray]:
    """Weights and masses (under ``D_r``) of the leaves of layer ``r`` (0: the root)."""
    if r == 0:
        return np.zeros(1), np.ones(1)
    s = rounds[r - 1]
    return np.asarray(s.weights, dtype=float), np.asarray(s.leaf_mass, dtype=float)


def program_svg(
    rounds: Sequence[BPStep],
    *,
    rows: int,
    boxes: int,
    feature_names: Sequence[str],
    font: float = 13,
    wide: bool = False,
) -> str:
    """The branching program after ``rounds`` as a layered SVG picture.

    One layer per round (layer 0 the root): a node is a leaf of ``L_r`` with its weight
    ``w`` and its mass ``D`` under ``D_r``, filled from orange (``w < 0``, votes −1) to blue;
    a leaf no training point reaches (mass 0, weight 0) is white, dashed and labelled
    :data:`NO_POINT`, since ``|L_t|`` does not count it. Each leaf sends two edges down, the
    left one for ``h_r = −1`` and the right one for ``+1``; several edges into one node are a
    merge. The ruler on the left names each round's stump. The last layer (this round) is
    drawn in vermillion. At most ``rows`` rows are drawn (older layers collapse into one box at
    the top) and at most ``boxes`` boxes per layer (the lightest leaves are gathered in one
    "+N more" box). Text is always ``font`` px; ``width``/``height`` are the natural size in
    pixels.
    """
    T = len(rounds)
    boxes = max(boxes, 2)
    rows = max(rows, 2)
    if T + 1 <= rows:
        first, collapsed = 0, False
    else:
        first, collapsed = T - rows + 2, True
    shown = list(range(first, T + 1))
    pad, hgap, vgap = 4.0, font * 0.5, font * 1.5
    node_h = 2 * font * 1.2 + 6

    def tw(text: str) -> float:
        return text_width(text, font, wide=wide)

    layers = []
    for r in shown:
        w, mass = _layer(rounds, r)
        n = w.shape[0]
        keep = (
            list(range(n))
            if n <= boxes
            else [int(i) for i in np.argsort(-mass, kind="stable")[: boxes - 1]]
        )
        rest = sorted(set(range(n)) - set(keep))
        # a leaf of mass 0 is one no training point reaches (bands keeps them, weight 0):
        # drawn dashed and named so, as the note and |L_t| leave it out (issue 25, 8)
        empty = {int(i) for i in np.flatnonzero(mass == 0)} if r else set()
        layers.append(
            dict(r=r, w=w, mass=mass, keep=keep, keepset=set(keep), rest=rest, empty=empty)
        )

    def lines_of(layer, leaf) -> list[str]:
        if leaf is None:
            more = layer["rest"]
            return [f"+{len(more)} more", f"D {float(layer['mass'][more].sum()):.3f}"]
        if layer["r"] == 0:
            return ["root", "D 1.000"]
        if leaf in layer["empty"]:
            return list(NO_POINT)
        w = float(layer["w"][leaf])
        return [
            _minus(f"w {w:+.2f}") if round(w, 2) != 0 else "w 0.00",
            f"D {layer['mass'][leaf]:.3f}",
        ]

    # the ruler: each round's stump
    ruler: dict[int, list[str]] = {}
    for layer in layers:
        r = layer["r"]
        if r >= 1:
            s = rounds[r - 1]
            name = feature_names[s.feature] if s.feature < len(feature_names) else "x"
            ruler[r] = [f"h{r}", f"{_short(name)}>{_minus(f'{s.threshold:.3g}')}"]
    ruler_w = max((tw(t) for lines in ruler.values() for t in lines), default=0.0)
    ruler_w = ruler_w + font * 0.6 if ruler_w else 0.0

    # order of the drawn leaves: under their parents (barycentre of the edges into them,
    # weighted by the divided children's mass); votes −1 to +1 where there is no parent
    x_of: dict[tuple[int, int | None], float] = {}
    width_of: dict[tuple[int, int | None], float] = {}
    for k, layer in enumerate(layers):
        r = layer["r"]
        order = list(layer["keep"])
        prev = layers[k - 1] if k > 0 else None
        if prev is not None:
            s = rounds[r - 1]
            merge, cm = np.asarray(s.merge), np.asarray(s.child_mass)
            px = np.array(
                [
                    x_of[(prev["r"], l if l in prev["keepset"] else None)]
                    for l in range(merge.shape[0] // 2)
                ]
            )
            bary = {}
            for leaf in order:
                z = np.flatnonzero(merge == leaf)
                wts = cm[z] + 1e-12
                bary[leaf] = float(np.sum(px[z // 2] * wts) / np.sum(wts)) if z.size else 0.0
            order.sort(key=lambda leaf: (bary[leaf], layer["w"][leaf]))
        else:
            order.sort(key=lambda leaf: layer["w"][leaf])
        slots: list[int | None] = order + ([None] if layer["rest"] else [])
        layer["slots"] = slots
        x = 0.0
        for leaf in slots:
            wd = max(tw(t) for t in lines_of(layer, leaf)) + font * 0.8
            x_of[(r, leaf)] = x + wd / 2
            width_of[(r, leaf)] = wd
            x += wd + hgap
        layer["total"] = x - hgap

    coll_lines: list[str] = []
    if collapsed:
        coll_lines = [f"root … round {first - 1}", "collapsed"]
    coll_w = max((tw(t) for t in coll_lines), default=0.0) + font * 0.8
    body_w = max(max(layer["total"] for layer in layers), coll_w if collapsed else 0.0)
    width = pad + ruler_w + body_w + pad
    left = pad + ruler_w
    for layer in layers:  # centre every row
        shift = left + (body_w - layer["total"]) / 2
        for leaf in layer["slots"]:
            x_of[(layer["r"], leaf)] += shift
    y = pad
    coll_box = None
    if collapsed:
        coll_box = (left + (body_w - coll_w) / 2, y, coll_w, node_h)
        y += node_h + vgap
    y_of = {}
    for layer in layers:
        y_of[layer["r"]] = y
        y += node_h + vgap
    height = y - vgap + pad

    def baseline(top: float, i: int) -> float:
        return top + 3 + font * (1.2 * i + 0.95)

    hot_r = T if T >= 1 else None
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="{FAMILY}" font-size="{font:.0f}">'
    ]
    # edges: grey for earlier rounds, vermillion for this round's divide and merge
    plain, hot, dashed, ports = [], [], [], []
    for k in range(1, len(layers)):
        layer, prev = layers[k], layers[k - 1]
        r = layer["r"]
        merge = np.asarray(rounds[r - 1].merge)
        seen = set()
        for z, target in enumerate(merge.tolist()):
            if target < 0:
                continue
            parent, side = z // 2, z % 2
            pkey = (prev["r"], parent if parent in prev["keepset"] else None)
            ckey = (r, target if target in layer["keepset"] else None)
            if (pkey, side, ckey) in seen:
                continue
            seen.add((pkey, side, ckey))
            x0 = x_of[pkey] + (1 if side else -1) * width_of[pkey] / 4
            seg = f"M{x0:.0f} {y_of[prev['r']] + node_h:.0f}L{x_of[ckey]:.0f} {y_of[r]:.0f}"
            (hot if r == hot_r else plain).append(seg)
            if r == hot_r and (pkey, side) not in ports:
                ports.append((pkey, side))
    if coll_box is not None:
        bx, by, bw, bh = coll_box
        for leaf in layers[0]["slots"]:
            key = (layers[0]["r"], leaf)
            dashed.append(f"M{bx + bw / 2:.0f} {by + bh:.0f}L{x_of[key]:.0f} {y_of[key[0]]:.0f}")
    for segs, style in (
        (plain, 'stroke="#8A8A8A" stroke-width="1.2"'),
        (dashed, 'stroke="#8A8A8A" stroke-width="1.2" stroke-dasharray="4 3"'),
        (hot, f'stroke="{theme.HIGHLIGHT}" stroke-width="2"'),
    ):
        if segs:
            parts.append(f'<path d="{"".join(segs)}" {style} fill="none"/>')

    # the nodes: one path per fill (the weights' colours in 21 shades), text one element per
    # line of a row (a tspan per node): a picture is sent for every round, so bytes count
    def box(cx: float, top: float, wd: float) -> str:
        return f"M{cx - wd / 2:.0f} {top:.0f}h{wd:.0f}v{node_h:.0f}h{-wd:.0f}z"

    fills: dict[tuple[bool, str], list[str]] = {}
    more_n: list[str] = []
    no_point: dict[bool, list[str]] = {}
    lines: dict[tuple[int, bool], list[str]] = {}

    def write(cx: float, top: float, texts: list[str]) -> None:
        for i, t in enumerate(texts):
            lines.setdefault((round(baseline(top, i)), i == 0), []).append(
                f'<tspan x="{cx:.0f}">{escape(t)}</tspan>'
            )

    if coll_box is not None:
        bx, by, bw, bh = coll_box
        more_n.append(box(bx + bw / 2, by, bw))
        write(bx + bw / 2, by, coll_lines)
    for layer in layers:
        r = layer["r"]
        for leaf in layer["slots"]:
            key = (r, leaf)
            cx, wd, top = x_of[key], width_of[key], y_of[r]
            if leaf is None:
                more_n.append(box(cx, top, wd))
            elif leaf in layer["empty"]:
                no_point.setdefault(r == hot_r, []).append(box(cx, top, wd))
            else:
                q = round(20 * (1 + math.tanh(float(layer["w"][leaf]))) / 2) / 20
                fills.setdefault((r == hot_r, theme.mix(q)), []).append(box(cx, top, wd))
            write(cx, top, lines_of(layer, leaf))
    for hot_layer, style in (
        (False, 'stroke="#555555" stroke-width="1"'),
        (True, f'stroke="{theme.HIGHLIGHT}" stroke-width="2.5"'),
    ):
        paths = [
            f'<path d="{"".join(segs)}" fill="{fill}"/>'
            for (h, fill), segs in sorted(fills.items())
            if h == hot_layer
        ]
        if no_point.get(hot_layer):
            paths.append(
                f'<path d="{"".join(no_point[hot_layer])}" fill="#FFFFFF" stroke-dasharray="4 3"/>'
            )
        if paths:
            parts.append(f'<g {style} stroke-linejoin="round">' + "".join(paths) + "</g>")
    if more_n:
        parts.append(
            f'<path d="{"".join(more_n)}" fill="#F2F2F2" stroke="#777777" stroke-dasharray="4 3"/>'
        )
    plain_t = [
        f'<text y="{y}">' + "".join(ts) + "</text>" for (y, b), ts in sorted(lines.items()) if not b
    ]
    bold_t = [
        f'<text y="{y}">' + "".join(ts) + "</text>" for (y, b), ts in sorted(lines.items()) if b
    ]
    parts.append(
        '<g text-anchor="middle" fill="#222222">'
        + "".join(plain_t)
        + '<g font-weight="600">'
        + "".join(bold_t)
        + "</g></g>"
    )
    if ports:  # this round's divide: which edge is h_t = −1 and which +1
        marks = []
        for pkey, side in ports:
            px = x_of[pkey] + (1 if side else -1) * (width_of[pkey] / 4 + font * 0.45)
            py = y_of[pkey[0]] + node_h + font * 0.9
            marks.append(f'<text x="{px:.0f}" y="{py:.0f}">{"+" if side else "−"}</text>')
        parts.append(
            f'<g fill="{theme.HIGHLIGHT}" font-weight="700" text-anchor="middle">'
            + "".join(marks)
            + "</g>"
        )
    # the ruler
    marks = []
    for layer in layers:
        r = layer["r"]
        if r not in ruler:
            continue
        top = y_of[r]
        colour = f' fill="{theme.HIGHLIGHT}"' if r == hot_r else ""
        h, stump = ruler[r]
        marks.append(
            f'<text x="{pad:.0f}" y="{baseline(top, 0):.0f}" font-weight="700"'
            f"{colour}>{escape(h)}</text>"
        )
        marks.append(
            f'<text x="{pad:.0f}" y="{baseline(top, 1):.0f}"{colour}>{escape(stump)}</text>'
        )
    if marks:
        parts.append('<g fill="#444444">' + "".join(marks) + "</g>")
    parts.append("</svg>")
    return "".join(parts)


def program_pictures(
    run: Sequence[BPStep], t: int, *, feature_names: Sequence[str], font: float = 13
) -> list[str]:
    """Pictures of the program at round ``t`` (0: the root alone) from the most to the least
    detailed (:data:`DETAIL`), without repeats and without a picture that could never be
    chosen (one at least as large as an earlier one in both directions)."""
    rounds = program_rounds(run, t)
    out: list[str] = []
    sizes: list[tuple[float, float]] = []
    for rows, boxes in DETAIL:
        svg = program_svg(rounds, rows=rows, boxes=boxes, feature_names=feature_names, font=font)
        w, h = svg_size(svg)
        if any(w0 <= w + 0.5 and h0 <= h + 0.5 for w0, h0 in sizes):
            continue
        out.append(svg)
        sizes.append((w, h))
    return out


def divide_words(subject: str, step: BPStep, before) -> str:
    """What round ``step.t``'s stump did to the program, in short sentences: the note under
    the program, the regions' note and the quiz's why say it in these words, with these
    numbers (one count, one name: issue 25, 8). Leaves and children are counted as
    ``|L_t|`` is, by those training points reach; the others (drawn dashed in the program,
    except DT.InfoBoost's children, which are dropped) are named in a sentence of their own
    (issue 39, item 9: one sentence with three "(+k that no training point reaches)" was
    hard to follow).

    Parameters
    ----------
    subject : str
        Who divides: ``"h<sub>3</sub>"``, ``"h<sub>3</sub> = [x2 > −0.611]"``.
    step : BPStep
        The round's snapshot (its merge and counts).
    before : BPMetrics
        The previous round's metrics (the leaves divided).

    Returns
    -------
    str
        E.g. "h<sub>11</sub> divides 5 leaves into 6 children. The merge makes 5 leaves.
        Not counted (no training point reaches them): 1 leaf before, 6 children and 2
        leaves after."
    """
    m = step.metrics
    merge = np.asarray(step.merge)
    kept = int((merge >= 0).sum())
    empty = merge.shape[0] - m.n_divided  # children no training point reaches
    dropped = bool(empty) and merge.shape[0] - kept == empty
    leaves = plural(m.n_leaves, "leaf", "leaves")
    merged = kept > m.n_leaves + m.n_unreached
    out = (
        f"{subject} divides {plural(before.n_leaves, 'leaf', 'leaves')} into "
        f"{plural(m.n_divided, 'child', 'children')}. "
        + (f"The merge makes {leaves}." if merged else f"No merging: {leaves}.")
    )
    apart = []
    if before.n_unreached:
        apart.append(f"{plural(before.n_unreached, 'leaf', 'leaves')} before")
    if empty:
        apart.append(f"{plural(empty, 'child', 'children')}" + (", dropped" if dropped else ""))
    if m.n_unreached:
        apart.append(f"{plural(m.n_unreached, 'leaf', 'leaves')} after")
    if apart:
        listed = apart[0] if len(apart) == 1 else ", ".join(apart[:-1]) + " and " + apart[-1]
        out += f" Not counted (no training point reaches them): {listed}."
    return out


def program_note(run: Sequence[BPStep], t: int, whose: str = YOURS) -> str:
    """One line under the program at round ``t``: this round's divide and merge in numbers
    (:func:`divide_words`); a stump a person chose is named ``whose`` it is
    (:data:`ui.text.YOURS`, or :data:`ui.text.THE_CLASS` on a class follower's page)."""
    rounds = protocol.rounds(run)
    s = rounds[min(t, len(rounds) - 1)]
    if s.kind == START:
        return (
            f"Round 0: the program is its root, one leaf of weight 0 (F{sub(0)} = 0); "
            "round 1's stump divides it." + _never(run)
        )
    return f"Round {s.t}: " + divide_words(
        f"h{sub(s.t)}{_whose(s, whose)}", s, rounds[s.t - 1].metrics
    )


# ----------------------------------------------------------------------------- curves
def curves_figure(run: Sequence[BPStep], t: int, *, font: float = 12, small: bool = False) -> dict:
    """``Π H(Y|h_t) ≥ Π Z_t ≥`` training error (Theorem 1) and the test error against the
    round ``0 … T`` (log scale; at round 0 both products are 1 and the error is that of
    ``F_0 = 0``), above ``|L_t|``: the whole run faint, the rounds up to ``t`` solid, a
    marker at round ``t``. Lines are named at their right ends. Only traces change from
    round to round (the layout is sent once)."""
    done = protocol.rounds(run)
    cur = min(t, len(done) - 1)  # rounds are 0 … T: the index is the round
    x = np.array([s.t for s in done], dtype=float)
    ms = [s.metrics for s in done]
    n_max = max(int(x[-1]), 1)
    series = [
        (PROD_H, theme.BOUND["power"], "dot", 2.0, lambda m: m.prod_H_h),
        (PROD_Z, theme.BOUND["e"], "dash", 2.2, lambda m: m.bound_prod_Z),
        ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error),
    ]
    if ms and ms[-1].test_error is not None and not small:
        series.append(("test error", theme.MEASURED["test"], "solid", 1.6, lambda m: m.test_error))
    if small:
        series = series[1:3]
    ys = {
        name: np.array(
            [np.nan if get(m) is None or get(m) <= 0 else get(m) for m in ms], dtype=float
        )
        for name, *_, get in series
    }
    finite = np.concatenate([y[np.isfinite(y)] for y in ys.values()] or [np.zeros(0)])
    low = max(float(np.floor(np.log10(finite.min()))) if finite.size else -2.0, -6.0)
    leaves = np.array([m.n_leaves for m in ms], dtype=float)
    top_leaves = float(np.log10(max(leaves.max() if leaves.size else 2, 2))) + 0.15
    panels = [(name, colour, dash, width, ys[name], "y") for name, colour, dash, width, _ in series]
    if not small:
        panels.append((LEAVES, theme.NEUTRAL, "solid", 2.0, leaves, "y2"))
    data: list[dict] = []
    for name, colour, dash, width, y, axis in panels:  # the whole run, faint: the same always
        data.append(
            dict(
                type="scatter",
                x=x,
                y=y,
                mode="lines",
                name=name,
                yaxis=axis,
                showlegend=False,
                opacity=FAINT,
                hoverinfo="skip",
                line=dict(color=colour, dash=dash, width=width),
            )
        )
    k = cur + 1
    for name, colour, dash, width, y, axis in panels:  # up to this round, solid
        data.append(
            dict(
                type="scatter",
                x0=float(x[0]) if k else 1.0,
                dx=1.0,
                y=y[:k].astype(np.float32),
                mode="lines",
                name=name,
                yaxis=axis,
                showlegend=False,
                line=dict(color=colour, dash=dash, width=width),
                hovertemplate=f"{name}<br>round %{{x}}: %{{y:.4g}}<extra></extra>",
            )
        )
    for axis in ("y", "y2") if not small else ("y",):  # this round: markers and a cursor
        here = [(colour, y) for _, colour, _, _, y, ax in panels if ax == axis]
        data.append(
            dict(
                type="scatter",
                mode="markers",
                yaxis=axis,
                showlegend=False,
                hoverinfo="skip",
                x=np.full(len(here), x[cur]) if cur >= 0 else [],
                y=np.array([y[cur] for _, y in here]) if cur >= 0 else [],
                marker=dict(
                    color=[c for c, _ in here],
                    size=6 if small else 9,
                    line=dict(color="white", width=1),
                ),
            )
        )
        span = [10.0**low, 10.0**0.05] if axis == "y" else [1.0, 10.0**top_leaves]
        data.append(
            dict(
                type="scatter",
                mode="lines",
                yaxis=axis,
                showlegend=False,
                hoverinfo="skip",
                x=[float(x[cur])] * 2 if cur >= 0 else [],
                y=span if cur >= 0 else [],
                line=dict(color="#888888", width=1, dash="dot"),
            )
        )
    labels = [
        (name, colour, float(y[np.isfinite(y)][-1]))
        for name, colour, _, _, y, axis in panels
        if axis == "y" and np.isfinite(y).any()
    ]
    notes = []
    if len(done) == 1:  # the run never got a round: say why
        notes.append(
            dict(
                xref="paper",
                yref="paper",
                x=0.5,
                y=0.6,
                showarrow=False,
                text="No round: " + escape(protocol.stop_reason(run) or ""),
                font=dict(size=font, color="#555555"),
            )
        )
    layout = curves_layout(
        [] if small else labels,
        font=font,
        small=small,
        x_range=(-0.5, n_max + 0.5),
        x_title="round t",
        y_range=(low, 0.05),
        # short: in the upper panel's height a title of 17 characters at 22 px ran out of
        # a 1080p projector's chart, "value (log scale" (issue 39, item 8)
        y_title="log scale",
        log=True,
        annotations=notes,
        xaxis=dict(anchor="y" if small else "y2"),
        # the upper panel holds four end labels, two with a subscript (drawn larger in
        # presenter mode: ui/figures.py, SUP_EM) at the smallest height; the leaves' below
        yaxis=dict(domain=[0.0, 1.0] if small else [0.31, 1.0]),
    )
    if not small:
        # ticks at 1, 2, 4, 8 … up to the most leaves (dtick=1 on a log axis gave '1' alone
        # below 10 leaves: issue 25, 8)
        most = max(leaves.max() if leaves.size else 2, 2)
        ticks = [2**k for k in range(int(math.log2(most)) + 1)]
        layout["yaxis2"] = dict(
            type="log",
            range=[0, top_leaves],
            gridcolor="#eeeeee",
            tickmode="array",
            tickvals=ticks,
            ticktext=[str(v) for v in ticks],
            domain=[0.0, 0.22],
            automargin=True,
            title=dict(text=LEAVES, standoff=4),
        )
    return spec(data, layout)


def curves_note(run: Sequence[BPStep], t: int) -> str:
    """The curves' note at round ``t``: what bounds what, and the smoothing of pure leaves so
    far."""
    if t == 0:
        return notation(
            "Round 0: no stump yet, so Π Z_t = Π H(Y|h_t) = 1 (empty products); F_0 = 0 "
            "predicts −1 everywhere."
        )
    smoothed = [s for s in program_rounds(run, t) if s.metrics.smoothing_excess > 0]
    if smoothed:
        total = sum(s.metrics.smoothing_excess for s in smoothed)
        # one line: the proof card under the curves says the rest (its ⚠ line)
        return notation(
            f"Pure leaves smoothed in {len(smoothed)} round(s) (Z_t +{total:.4f}): Π Z_t may "
            "pass Π H(Y|h_t), yet bounds the error."
        )
    return notation(
        "Theorem 1: train error ≤ Π Z_t ≤ Π H(Y|h_t). Faint: the whole run; solid: up to "
        "this round; below: the leaves |L_t| that training points reach."
    )


# --------------------------------------------------------------- text alternatives (issue 26)
#: The curves' line names (:func:`curves_figure`) as a screen reader should read them.
SPOKEN = {
    PROD_H: "product of H(Y given h)",
    PROD_Z: "product of Z",
    "train error": "training error",
    "test error": "test error",
}


def _stump_words(step: BPStep, feature_names: Sequence[str]) -> str:
    """``h_t`` in words: "h3 is +1 where x1 > 0.42"."""
    name = feature_names[step.feature]
    return f"h{step.t} is +1 where {name} > {spoken_number(float(step.threshold))}"


def regions_description(step: BPStep, ds: Dataset, *, scheme: str) -> str:
    """One plain sentence: what :func:`regions_figure` draws for ``step`` — the vote's
    shading, this round's stump and the training error — for a screen reader.

    Parameters
    ----------
    step : BPStep
        The round's snapshot.
    ds : Dataset
        The run's data (its class names and size).
    scheme : str
        The scheme's page name ("BP.InfoBoost").

    Returns
    -------
    str
        Plain text.
    """
    m = step.metrics
    n = int(ds.n_train)
    wrong = round(m.train_error * n)  # the error of sign F_t under the uniform weights
    if step.feature is None:
        stump = f"no stump yet, so F is 0: class {ds.class_names[0]} everywhere"
    else:
        drawn = "the vermillion line" if step.feature < 2 else "not drawn: another feature"
        stump = f"stump {_stump_words(step, ds.feature_names)} ({drawn})"
    neg, pos = ds.class_names
    test = "; hollow: test" if ds.n_test else ""
    return (
        f"Regions of sign F for {scheme} after round {step.t} (blue: vote for {pos}, orange: "
        f"{neg}, white: undecided); {stump}; training error {spoken_number(m.train_error)} "
        f"({wrong} of {n} training points misclassified). Blue circles: class {pos}, orange "
        f"diamonds: class {neg}; filled: training, sized by the weight D{test}."
    )


def structure_description(run: Sequence[BPStep], t: int, *, scheme: str, whose: str = YOURS) -> str:
    """One plain sentence: the program :func:`program_pictures` draws at round ``t`` — the
    nodes of every level and this round's divide and merge (:func:`program_note`'s numbers).

    Parameters
    ----------
    run : sequence of BPStep
        The whole run.
    t : int
        The round.
    scheme : str
        The scheme's page name.

    Returns
    -------
    str
    """
    rounds = program_rounds(run, t)
    levels = [_layer(rounds, r)[0].shape[0] for r in range(len(rounds) + 1)]
    if not rounds:
        return (
            f"Branching program of {scheme} at round 0: the root alone, one leaf of weight 0; "
            "round 1's stump divides it." + _never(run)
        )
    # without "Round t: " (said before), its h<sub>t</sub> read as "ht" (plain words)
    note = re.sub(r"</?su[bp]>", "", program_note(run, t, whose).split(": ", 1)[1])
    return (
        f"Branching program of {scheme} after round {t}, one level per round (older ones may "
        f"be collapsed); nodes per level: {', '.join(map(str, levels))}. In round {t}, {note}"
    )


def curves_description(run: Sequence[BPStep], t: int) -> str:
    """One plain sentence: the values :func:`curves_figure` marks at round ``t``, by its
    lines' names read aloud (:data:`SPOKEN`), and how the training error moved.

    Parameters
    ----------
    run : sequence of BPStep
        The whole run.
    t : int
        The round.

    Returns
    -------
    str
    """
    done = protocol.rounds(run)
    t = min(t, len(done) - 1)
    m = done[t].metrics
    said = [
        f"{SPOKEN['train error']} {spoken_number(m.train_error)}",
        f"{SPOKEN[PROD_Z]} {spoken_number(m.bound_prod_Z)}",
        f"{SPOKEN[PROD_H]} {spoken_number(m.prod_H_h)}",
    ]
    if m.test_error is not None:
        said.insert(1, f"{SPOKEN['test error']} {spoken_number(m.test_error)}")
    text = f"At round {t}: " + ", ".join(said) + f"; {plural(m.n_leaves, 'leaf', 'leaves')} reached"
    if t > 0:
        before, now = done[t - 1].metrics.train_error, m.train_error
        a, b = spoken_number(before), spoken_number(now)
        move = (
            "stayed at {} since"
            if a == b
            else "fell from {} at"
            if now < before
            else "rose from {} at"
        )
        text += f". The training error {move.format(a)} round {t - 1}"
    return text + "."


# ------------------------------------------------------------------- Theorem 3 per round
def _first_jump(cs: Sequence[float], values: Sequence[float], up: bool, tol: float):
    """The first neighbouring pair of ``cs`` where ``values`` rises (``up``) or falls."""
    for i in range(len(values) - 1):
        d = values[i + 1] - values[i]
        if (d > tol) if up else (d < -tol):
            return cs[i], cs[i + 1], values[i], values[i + 1]
    return None


def c_round_figure(
    step: BPStep, bands: Sequence, c: float, *, font: float = 12, why: str = ""
) -> dict:
    """Theorem 3 at the round of ``step``: its ``D_t`` and divided children merged by the
    bands of every ``c`` (``bands``, from :func:`boostcore.branching.round_bands`).

    Top: ``H_{D_t}(Y|ℓ_t)`` against ``c`` (measured, solid) under the theorem's bound
    ``1 − cγ_t`` (dashed), between the divided leaves' ``1 − γ_t`` (no merging) and
    ``H(Y|h_t)`` (merge all). Below: ``|L_t|`` against the bound ``4K`` (log scale). The
    ``c`` of the run is marked. Round 0 (no children yet) shows ``why`` (default: the
    snapshot's message) instead."""
    if step.kind != STEP or not bands:
        return spec(
            [],
            dict(
                margin=dict(l=10, r=10, t=8, b=10),
                plot_bgcolor="white",
                font=dict(size=font),
                xaxis=dict(visible=False),
                yaxis=dict(visible=False),
                annotations=[
                    dict(
                        xref="paper",
                        yref="paper",
                        x=0.5,
                        y=0.5,
                        showarrow=False,
                        text=notation(escape(why or step.message)),
                        font=dict(size=font, color="#555555"),
                    )
                ],
            ),
        )
    m = step.metrics
    g = m.gamma
    cs = np.array([b.c for b in bands])
    H = np.array([b.H_leaves for b in bands])
    L = np.array([b.n_leaves for b in bands], dtype=float)
    K4 = np.array([b.max_leaves for b in bands], dtype=float)
    here = int(np.argmin(np.abs(cs - c)))
    # plain lists: 19 exact numbers each (a typed array would round them to float32)
    xs, Hs, Ls, K4s = cs.tolist(), H.tolist(), L.tolist(), K4.tolist()
    span = max(g, 1e-6)
    lo, hi = 1.0 - g - 0.08 * span, max(1.0, m.H_h) + 0.08 * span
    top_l = float(np.log10(max(K4.max(), L.max(), 2.0) * 1.6))
    bound, divided, merge_all = theme.BOUND["final"], theme.NEUTRAL, "#555555"
    data = [
        dict(
            type="scatter",
            mode="lines",
            x=[0.0, 1.0],
            y=[1.0, 1.0 - g],
            yaxis="y",
            name=C_BOUND,
            line=dict(color=bound, dash="dash", width=2),
            hovertemplate=notation("Theorem 3: H ≤ 1 − cγ_t<extra></extra>"),
        ),
        dict(
            type="scatter",
            mode="lines",
            x=[0.0, 1.0],
            y=[m.H_h, m.H_h],
            yaxis="y",
            name="merge all",
            line=dict(color=merge_all, dash="dot", width=1.5),
            hovertemplate=notation(f"merge all: H(Y|h_t) = {m.H_h:.4f}") + "<extra></extra>",
        ),
        dict(
            type="scatter",
            mode="lines",
            x=[0.0, 1.0],
            y=[1.0 - g, 1.0 - g],
            yaxis="y",
            name="no merging",
            line=dict(color=divided, dash="dashdot", width=1.5),
            hovertemplate=notation(f"no merging: H(Y|ℓ̃_t) = 1 − γ_t = {1 - g:.4f}")
            + "<extra></extra>",
        ),
        dict(
            type="scatter",
            mode="lines+markers",
            x=xs,
            y=Hs,
            yaxis="y",
            name=C_LEAVES_H,
            line=dict(color=theme.MEASURED["index"], width=2.5),
            marker=dict(size=6),
            hovertemplate=f"c = %{{x}}: {C_LEAVES_H} = %{{y:.5f}}<extra></extra>",
        ),
        dict(
            type="scatter",
            mode="lines",
            x=xs,
            y=K4s,
            yaxis="y2",
            name="4K",
            line=dict(color=bound, dash="dash", width=2),
            customdata=[k // 4 for k in K4s],
            hovertemplate="c = %{x}: at most 4K = %{y} leaves<br>K = %{customdata} entropy "
            + notation("bands (a leaf per band, sign and side of h_t)")
            + "<extra>Theorem 3</extra>",
        ),
        dict(
            type="scatter",
            mode="lines+markers",
            x=xs,
            y=Ls,
            yaxis="y2",
            name=LEAVES,
            line=dict(color=theme.MEASURED["train"], width=2),
            marker=dict(size=6),
            hovertemplate=f"c = %{{x}}: {LEAVES} = %{{y}}<extra></extra>",
        ),
    ]
    for axis, value in (("y", H[here]), ("y2", L[here])):  # the run's c: a ring on each panel
        data.append(
            dict(
                type="scatter",
                mode="markers",
                x=[float(cs[here])],
                y=[float(value)],
                yaxis=axis,
                showlegend=False,
                hoverinfo="skip",
                marker=dict(
                    size=13, color="rgba(0,0,0,0)", line=dict(color=theme.HIGHLIGHT, width=2.5)
                ),
            )
        )
    labels = [
        (C_BOUND, bound, 1.0 - g),
        ("merge all", merge_all, m.H_h),
        ("no merging", divided, 1.0 - g - 0.02 * span),
    ]
    right = int(len("bound 1 − cγ_t") * (font - 1) * 0.6) + LABEL_GAP_PX + 12
    margin = dict(l=10, r=right, t=8, b=10)
    top_px, low_px = (
        plot_height(VIEW_MIN_PX, font=font, margin=margin, domain=d)
        for d in ((0.36, 1.0), (0.0, 0.26))
    )
    top = dict(font=font - 1, y_range=(lo, hi), plot_px=top_px)
    # the leaves panel: the measured count first (kept if the panel holds one name only);
    # "4K" says what K is where it first appears (issue 25, item 10)
    leaves_labels = [
        (LEAVES, theme.MEASURED["train"], max(float(L[-1]), 1.0)),
        ("4K (K bands)", bound, float(K4[-1])),
    ]
    low = dict(font=font - 1, y_range=(0.0, top_l), plot_px=low_px, log=True, yref="y2")
    annotations = end_labels(labels, **top) + end_labels(leaves_labels, **low)
    leaders = end_leaders(labels, **top) + end_leaders(leaves_labels, **low)
    annotations.append(
        dict(
            xref="x",
            yref="y",
            x=float(cs[here]),
            y=float(H[here]),
            text=f"the run's c = {cs[here]:g}",
            showarrow=False,
            yshift=14,
            font=dict(size=font - 1, color=theme.HIGHLIGHT),
        )
    )
    layout = dict(
        margin=margin,
        plot_bgcolor="white",
        font=dict(size=font),
        showlegend=False,
        uirevision="c_round",
        annotations=annotations,
        shapes=leaders,
        xaxis=dict(
            range=[0, 1],
            dtick=0.1,
            gridcolor="#eeeeee",
            anchor="y2",
            automargin=True,
            title=dict(text=notation("c (the same D_t and h_t for every c)"), standoff=4),
        ),
        yaxis=dict(
            range=[lo, hi],
            gridcolor="#eeeeee",
            domain=[0.36, 1.0],
            automargin=True,
            tickformat=".3f",
            title=dict(text=notation("H(Y|ℓ_t) under D_t"), standoff=4),
        ),
        yaxis2=dict(
            type="log",
            range=[0, top_l],
            gridcolor="#eeeeee",
            dtick=1,
            domain=[0.0, 0.26],
            automargin=True,
            title=dict(text="leaves", standoff=4),
        ),
    )
    return spec(data, layout)


def c_round_note(step: BPStep, bands: Sequence, c: float, *, why: str = "") -> str:
    """What Theorem 3 says at this round, and what the re-merged children show (``why``, or
    the snapshot's message, at round 0)."""
    if step.kind != STEP or not bands:
        return notation(why or step.message)
    m = step.metrics
    cs = [b.c for b in bands]
    head = (
        f"Round {step.t} (D_t and h_t of the run with c = {c:g}; γ_t = {m.gamma:.4f}): "
        "for every c, 1 − γ_t ≤ H(Y|ℓ_t) ≤ 1 − cγ_t and |L_t| ≤ 4K, K the number of "
        "entropy bands of that c (Theorem 3). "
    )
    rise = _first_jump(cs, [b.H_leaves for b in bands], True, 1e-12)
    fall = _first_jump(cs, [b.n_leaves for b in bands], False, 0)
    found = []
    if rise:
        found.append(
            f"H(Y|ℓ_t) rises from c = {rise[0]:g} to {rise[1]:g} ({rise[2]:.4f} → {rise[3]:.4f})"
        )
    if fall:
        found.append(f"|L_t| falls from c = {fall[0]:g} to {fall[1]:g} ({fall[2]} → {fall[3]})")
    if found:
        return notation(
            head + "Here " + " and ".join(found) + ": the bands of different c are not nested."
        )
    return notation(
        head + "Here H(Y|ℓ_t) does not rise and |L_t| does not fall as c grows; the "
        "theorem does not promise that (the bands of different c are not nested)."
    )


@shared
def c_round_frames(
    _ds: Dataset,
    ds_key: str,
    n_rounds: int,
    c: float,
    weak_learner: str,
    font: float,
    choices: tuple = (),
) -> dict:
    """Theorem 3 per round for the BP.InfoBoost run with ``c`` (cached): ``{"frames",
    "notes", "n"}``, one per round ``t = 0 … T`` of that run (round 0 has no children).
    ``choices``: a student's stumps for the run's first rounds (:func:`.runs.bp_run`)."""
    from ui import lecture

    run = branching_runs.bp_run(_ds, ds_key, n_rounds, "bands", c, weak_learner, choices)
    per_snapshot = (
        tuple(round_bands(s, branching_runs.C_GRID) for s in run)
        if choices
        else branching_runs.bp_c_rounds(_ds, ds_key, n_rounds, c, weak_learner)
    )
    rounds = protocol.rounds(run)
    pairs = list(zip(rounds, per_snapshot))
    why = _no_round(run) + " Theorem 3 speaks of a round's divided children: step to round 1."
    return {
        "frames": lecture.plotly_frames(
            [c_round_figure(s, b, c, font=font, why=why) for s, b in pairs]
        ),
        "notes": [c_round_note(s, b, c, why=why) for s, b in pairs],
        "n": len(rounds),
    }


# ----------------------------------------------------------------------------- tables
def metrics_html(current: dict[str, BPStep]) -> str:
    """The round's numbers, one row per scheme (``run`` is the scheme's name)."""
    from ui.lecture import table_html

    return table_html(bp_metrics_frame(current))


def groups_html(step: BPStep) -> str:
    """BP.InfoBoost's merged leaves this round (Theorem 3's groups), with a line of numbers."""
    from ui.lecture import table_html

    if step.kind == START:
        return (
            "<p>Round 0: no groups yet: the program is its root, and round 1's stump "
            "divides it.</p>"
        )
    if step.kind == STOP:  # shown past the end of a run that stopped early
        return f"<p>{rich_html(notation(step.message))}</p>"
    if not step.groups:
        return "<p>No groups this round.</p>"
    m = step.metrics
    head = (
        f"Round {step.t}: γ_t = {m.gamma:.4f}, bound 1 − cγ_t = {m.bound_theorem3:.4f}, "
        f"H(Y|ℓ_t) = {m.H_leaves:.4f}, {len(step.groups)} groups (at most "
        f"{four_k(m.max_groups)})"
    )
    if m.n_unreached:
        head += (
            f"; {m.n_unreached} of them no training point reaches (mass 0: not "
            f"counted in |L_t| = {m.n_leaves})"
        )
    frame = groups_frame(step).astype(object)
    # the notation typeset (no user's words in these lines: numbers only)
    return f"<p><b>{rich_html(notation(head))}</b></p>" + lemma4_html(step) + table_html(frame)


def lemma4_html(step: BPStep) -> str:
    """One line beside Theorem 3's numbers: what Lemma 4 (Mansour–McAllester's merging, the
    paper's ref. [10]) would guarantee at this round with §6's ``λ, δ`` — the same bound
    ``1 − cγ_t``, with ``O((1/λ) ln(1/δ))`` groups against Theorem 3's ``O(ln(1/γ_t))``
    (Takimoto, Koya & Maruoka §6; docs/theory.md §2, "Lemma 4"). Lemma 4 only says such a
    merging exists and leaves its constant open, so its group count is shown as the
    expression ``(1/λ) ln(1/δ)``, labelled so; empty when the round has no information."""
    r = round_lemma4(step.metrics)
    if r is None:
        return ""
    lemma = "Lemma 4 (Mansour–McAllester's merging, an existence result)"
    if not r.applies:
        # only §6's λ is out of range: the lemma itself still gives the bound
        text = (
            f"{lemma}: §6's λ = (1−c)γ_t/(2(1−γ_t)) = {r.lam:.4g} is outside (0, 1) at this "
            f"round, but any 0 < λ < 1 with 0 < δ ≤ (2−c)γ_t − 1 = {r.delta_any:.4g} still "
            "guarantees (1+λ)(1−γ_t) + δ < 1 − cγ_t, since γ_t > 1/(2−c) here."
        )
    else:
        text = (
            f"{lemma} with λ = (1−c)γ_t/(2(1−γ_t)) = {r.lam:.4g} and δ = (1−c)γ_t/2 = "
            f"{r.delta:.4g} guarantees the same bound, (1+λ)(1−γ_t) + δ = {r.bound:.4f}, with "
            f"O((1/λ) ln(1/δ)) groups: (1/λ) ln(1/δ) = {r.groups_order:.1f}, times a constant "
            "the lemma does not give. By the same measure Theorem 3's bands need "
            f"ln(1/((1−c)γ_t)) / ln((1+c)/(2c)) = {r.theorem3_order:.1f}, and they count: "
            f"at most 4K = {r.max_groups} groups (|L_t| = {step.metrics.n_leaves} here)."
        )
    return f"<p>{rich_html(notation(text))}</p>"


# ------------------------------------------------------------------------------ lecture
def _played_infoboosts(step: BPStep) -> bool:
    """A student's round (be the weak learner) that played the weak learner's own stump."""
    return step.by_policy and (step.feature, step.threshold) == (
        step.algorithm_feature,
        step.algorithm_threshold,
    )


def _whose(step: BPStep, whose: str = YOURS) -> str:
    """Who chose ``h_t``, when a person did (" (your stump)", " (the class's stump)");
    nothing otherwise."""
    if not step.by_policy:
        return ""
    if _played_infoboosts(step):
        return f" (InfoBoost's stump, played by {who_chose(whose)})"
    return f" ({whose} stump)"


def _message(step: BPStep, before: BPStep | None = None, whose: str = YOURS) -> str:
    """The snapshot's message in the page's words: a student's round named as such (the core
    says "chosen by the policy; the weak learner would play …"), the divide and merge in
    :func:`divide_words`' sentences (given the round before) and the notation typeset."""
    text = step.message
    if step.by_policy:
        if _played_infoboosts(step):
            text = re.sub(r" \(chosen by the policy; [^()]*\)", _whose(step, whose), text)
        else:
            text = text.replace("chosen by the policy", f"{whose} stump")
    if step.kind == STEP and before is not None and " divides " in text and "; Z = " in text:
        head = text.split(" divides ", 1)[0]  # "Round t: h_t = [x2 > 0.4]" and who chose it
        tail = text.rsplit("; Z = ", 1)[1]
        subject = head.split(": ", 1)[1]
        return f"{notation(head.split(': ', 1)[0])}: " + (
            f"{divide_words(notation(subject), step, before.metrics)} Z = {notation(tail)}"
        )
    return notation(text)


def notes_for(run: Sequence[BPStep], n: int, whose: str = YOURS) -> list[str]:
    """One note per round ``0 … n − 1`` of the longest run: the round's message; the run's
    last round says first why it stopped (a note shows two lines), and a run that ended early
    says so while the others go on."""
    rounds = protocol.rounds(run)
    notes = [_message(s, rounds[i - 1] if i else None, whose) for i, s in enumerate(rounds)]
    reason = protocol.stop_reason(run)
    if reason:
        notes[-1] = f"{notation(reason)} {notes[-1]}"
    end = protocol.final(run).t
    notes += [f"Finished at round {end}. {notation(reason or '')}".rstrip()] * (n - len(notes))
    return notes


def proof_frames(run: Sequence[BPStep], merge: str, *, font: float = 12) -> list[str]:
    """The proof at each round ``t = 0 … T`` of ``run`` (:func:`.proof.branching_chain`
    drawn by :func:`ui.proof.proof_compact_html`, the large card at presenter mode's font):
    frame ``t`` is round ``t``'s snapshot, as the regions and curves; not yet deduplicated.

    Parameters
    ----------
    run : sequence of BPStep
        The whole run (its earlier rounds are the chain's history).
    merge : {"all", "none", "bands"}
        The run's merging scheme.
    font : float, default 12
        The figures' font (:func:`ui.proof.is_large`).

    Returns
    -------
    list of str
    """
    chains = [branching_chain(s, merge=merge, history=run) for s in protocol.rounds(run)]
    return proof_cards(chains, large=is_large(font))


def _padded(said: list[str], n: int) -> list[str]:
    """``said`` with its last sentence repeated up to ``n`` rounds."""
    return said + said[-1:] * (n - len(said))


@shared
def branching_lecture(
    _ds: Dataset,
    ds_key: str,
    schemes: tuple[str, ...],
    n_rounds: int,
    c: float,
    weak_learner: str,
    font: float,
    choices: tuple = (),
    chooser: str | None = None,
    whose: str = YOURS,
) -> dict:
    """Every round of every scheme's run, encoded for the lecture view (cached). ``choices``
    (a student's stumps, see :func:`.runs.bp_run`) apply to the run of the scheme
    ``chooser`` (the focused one); the other schemes' runs are the weak learner's. The notes
    call those stumps ``whose`` they are (:data:`ui.text.YOURS`, or :data:`ui.text.THE_CLASS`
    on a class follower's page).

    Returns ``{"runs": {name: {"n", "regions", "notes", "curves", "curve_notes", "small",
    "spark", "proof", "descriptions"}}, "metrics", "groups", "n"}``: frames one per round
    ``t = 0 … T`` (frame ``t`` is round ``t``; 0 is the initial model; ``proof`` is
    :func:`proof_frames`; ``descriptions`` the regions' and curves' sentences for a screen
    reader, one per round of the longest run like ``notes``), the
    tables one per round of the longest run
    (``groups`` is None without BP.InfoBoost). The program pictures are built for the focused
    run only (:func:`program_frames`): they are the largest frames, and only one is on the
    screen.
    """
    from ui import lecture

    runs = {
        name: branching_runs.bp_run(
            _ds,
            ds_key,
            n_rounds,
            SCHEMES[name],
            c,
            weak_learner,
            choices if name == chooser else (),
        )
        for name in schemes
    }
    rounds = {name: protocol.rounds(run) for name, run in runs.items()}
    n = max(len(r) for r in rounds.values())
    out: dict = {"runs": {}, "n": n}
    for name, run in runs.items():
        shown = rounds[name]
        k = len(shown)
        out["runs"][name] = {
            "n": k,
            "regions": lecture.plotly_frames([regions_figure(s, _ds, font=font) for s in shown]),
            "notes": notes_for(run, n, whose),
            "curves": lecture.plotly_frames([curves_figure(run, t, font=font) for t in range(k)]),
            "curve_notes": [curves_note(run, t) for t in range(k)],
            "small": lecture.plotly_frames(
                [regions_figure(s, _ds, font=font, small=True) for s in shown]
            ),
            "spark": lecture.plotly_frames(
                [curves_figure(run, t, font=font, small=True) for t in range(k)]
            ),
            "proof": lecture.same_frames(proof_frames(run, SCHEMES[name], font=font)),
            # one sentence per round like the notes (a run that ended early: its last again)
            "descriptions": {
                "regions": _padded([regions_description(s, _ds, scheme=name) for s in shown], n),
                "curves": _padded([curves_description(run, t) for t in range(k)], n),
            },
        }
    metrics, groups = [], []
    for t in range(n):
        # past the end of a run that stopped early: its stop snapshot (the last model)
        current = {
            name: rounds[name][t] if t < len(rounds[name]) else protocol.final(run)
            for name, run in runs.items()
        }
        metrics.append(metrics_html(current))
        if "BP.InfoBoost" in runs:
            groups.append(groups_html(current["BP.InfoBoost"]))
    out["metrics"] = lecture.same_frames(metrics)
    out["groups"] = lecture.same_frames(groups) if groups else None
    return out


@shared
def program_frames(
    _ds: Dataset,
    ds_key: str,
    scheme: str,
    n_rounds: int,
    c: float,
    weak_learner: str,
    font: float,
    choices: tuple = (),
    whose: str = YOURS,
) -> dict:
    """The program of one scheme's run at every round ``t = 0 … T``, for the structure view
    (cached): ``{"structure": [pictures per round], "notes": [one line per round],
    "descriptions": [one sentence per round for a screen reader]}``. Text is
    ``font + 1`` px (a little larger than the plots' tick labels). ``choices``: a student's
    stumps for the first rounds of this run (:func:`.runs.bp_run`), named ``whose`` they are
    in the notes (:func:`program_note`)."""
    from ui import lecture

    run = branching_runs.bp_run(_ds, ds_key, n_rounds, SCHEMES[scheme], c, weak_learner, choices)
    size = round(font + 1)
    k = len(protocol.rounds(run))
    return {
        "structure": lecture.same_frames(
            [program_pictures(run, t, feature_names=_ds.feature_names, font=size) for t in range(k)]
        ),
        "notes": [program_note(run, t, whose) for t in range(k)],
        "descriptions": [
            structure_description(run, t, scheme=scheme, whose=whose) for t in range(k)
        ],
    }
