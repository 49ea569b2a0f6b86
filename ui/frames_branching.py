"""Divide-and-merge runs → the lecture view's frames (the /branching page).

Per snapshot of each merging scheme: the decision regions of ``sign F_t`` (a heatmap on the
grid of the stumps' thresholds, exact and small), the branching program as a layered SVG
picture (one layer per round, this round's layer in vermillion), the curves
``Π Z_t ≥ training error`` with ``Π H(Y|h_t)`` and ``|L_t|`` (the whole run faint, the rounds up
to this one solid), and the round tables. :func:`branching_lecture` builds all of them once
(cached); the browser steps through them.

Every figure builder here is a pure function (no Streamlit); only :func:`branching_lecture`
is cached with ``st.cache_data``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import numpy as np
import pandas as pd
import streamlit as st

from boostcore.branching import BPStep
from boostcore.datasets import Dataset

from . import theme
from .figures import _figure, data_extent
from .lecture_frames import FAINT, end_labels, points_traces, regions_layout

#: The merging schemes of the page: shown name → ``merge=`` of ``bp_infoboost``.
SCHEMES = {"InfoBoost": "all", "BP.InfoBoost": "bands", "DT.InfoBoost": "none"}
#: Shades of the regions heatmap: ``z = round(LEVELS · P(+1))`` as small integers.
LEVELS = 50
CHAR = 0.58  # average character width as a fraction of the font size (Helvetica-like)

#: Pictures of the program offered to the browser, from the most to the least detailed:
#: (rows, boxes per layer). The browser shows the first one that fits its panel at full
#: text size; rows beyond the last few layers collapse into one box, and the lightest
#: leaves of a layer into one "+N more" box.
DETAIL = ((12, 8), (9, 6), (8, 5), (7, 4), (6, 4), (5, 4), (6, 3), (5, 3), (4, 3), (3, 3),
          (2, 3))


def _minus(text: str) -> str:
    return text.replace("-", "−")


def _done(steps: Sequence[BPStep], t: int) -> list[BPStep]:
    """The rounds of ``steps[: t + 1]`` that happened (a final stop step has no metrics)."""
    return [s for s in steps[: t + 1] if s.metrics is not None]


# ---------------------------------------------------------------------------- regions
def _edges(rounds, feature: int, lo: float, hi: float) -> np.ndarray:
    inner = sorted({r.threshold for r in rounds if r.feature == feature and lo < r.threshold < hi})
    return np.array([lo, *inner, hi], dtype=float)


def regions_figure(step: BPStep, ds: Dataset, *, font: float = 12, small: bool = False):
    """Regions of ``sign F_t`` after round ``step.t``, shaded by ``1/(1+e^{−2F_t})``.

    ``F_t`` only changes at the thresholds of the stumps so far, so the heatmap's cells are
    the cells of that grid (at most 61 × 61 small integers), exact at any zoom. Training
    points have area ∝ ``D_t`` (the weights ``h_t`` was chosen on); this round's stump is
    the vermillion line, with its ``+1`` side marked.
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
    data = [dict(type="heatmap", x=ex, y=ey, z=z, zmin=0, zmax=LEVELS,
                 colorscale=theme.REGION_SCALE, showscale=False, hoverinfo="skip",
                 name="regions")]
    D = np.asarray(step.D, dtype=float)
    rel = np.sqrt(D / D.max()) if D.size and D.max() > 0 else np.ones(ds.n_train)
    size = np.rint((2 + 7 * rel) if small else (4 + 14 * rel)).astype(np.uint8)
    data += points_traces(
        ds, show_test=not small, size=size,
        customdata=None if small else (D * ds.n_train).astype(np.float32),
        hover=None if small else "%{x:.3f}, %{y:.3f}<br>D_t = %{customdata:.2f}/m"
        "<extra>train</extra>")
    shapes, notes = [], []
    if step.feature is not None and step.feature < 2:
        th = float(step.threshold)
        if step.feature == 0:
            line = dict(x0=th, x1=th, y0=float(lo[1]), y1=float(hi[1]))
            note = dict(x=th, y=float(hi[1]), xanchor="left", yanchor="top", xshift=3,
                        text=f"h{step.t} = +1 ▸")
        else:
            line = dict(x0=float(lo[0]), x1=float(hi[0]), y0=th, y1=th)
            note = dict(x=float(hi[0]), y=th, xanchor="right", yanchor="bottom", yshift=2,
                        text=f"▴ h{step.t} = +1")
        shapes.append(dict(type="line", line=dict(color=theme.HIGHLIGHT, width=2 if small
                                                  else 4), **line))
        if not small:
            notes.append(dict(xref="x", yref="y", showarrow=False, bgcolor="rgba(255,255,255,0.8)",
                              font=dict(color=theme.HIGHLIGHT, size=font), **note))
    layout = regions_layout(ds, lo, hi, shapes=shapes, font=font, small=small)
    if not small:  # axis titles are plotly's pseudo-HTML: a CSV's column name is escaped
        layout["xaxis"]["title"] = dict(text=escape(ds.feature_names[0]))
        layout["yaxis"]["title"] = dict(text=escape(ds.feature_names[1]))
    layout["annotations"] = notes
    return _figure(data, layout)


# ---------------------------------------------------------------------------- program
def _text_w(text: str, font: float) -> float:
    return len(text) * font * CHAR


def _short(name: str, n: int = 8) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def _layer(rounds: Sequence[BPStep], r: int) -> tuple[np.ndarray, np.ndarray]:
    """Weights and masses (under ``D_r``) of the leaves of layer ``r`` (0: the root)."""
    if r == 0:
        return np.zeros(1), np.ones(1)
    s = rounds[r - 1]
    return np.asarray(s.weights, dtype=float), np.asarray(s.leaf_mass, dtype=float)


def program_svg(rounds: Sequence[BPStep], *, rows: int, boxes: int,
                feature_names: Sequence[str], font: float = 13) -> str:
    """The branching program after ``rounds`` as a layered SVG picture.

    One layer per round (layer 0 the root): a node is a leaf of ``L_r`` with its weight
    ``w`` and its mass under ``D_r``, filled from orange (``w < 0``, votes −1) to blue.
    Each leaf sends two edges down, the left one for ``h_r = −1`` and the right one for
    ``+1``; several edges into one node are a merge. The last layer (this round) is drawn
    in vermillion. At most ``rows`` rows are drawn (older layers collapse into one box at the
    top) and at most ``boxes`` boxes per layer (the lightest leaves are gathered in one
    "+N more" box). Text is always ``font`` px; ``width``/``height`` are the natural size.
    """
    T = len(rounds)
    boxes = max(boxes, 2)
    if T + 1 <= rows:
        first, collapsed = 0, False
    else:
        first, collapsed = T + 3 - max(rows, 2), True
    shown = list(range(first, T + 1))
    pad, hgap = 4.0, font * 0.7
    node_h = 2 * font * 1.2 + 8
    label_h = font * 1.25
    vgap = font * 1.1 + label_h  # room for the edges and the layer's stump label

    # per layer: the leaves drawn (heaviest first) and the "+N more" box
    layers = []
    for r in shown:
        w, mass = _layer(rounds, r)
        n = w.shape[0]
        if n <= boxes:
            keep = list(range(n))
        else:
            keep = [int(i) for i in np.argsort(-mass, kind="stable")[: boxes - 1]]
        rest = sorted(set(range(n)) - set(keep))
        layers.append(dict(r=r, w=w, mass=mass, keep=keep, rest=rest))

    def lines_of(layer, leaf) -> list[str]:
        if leaf is None:
            more = layer["rest"]
            return [f"+{len(more)} more", f"D {float(layer['mass'][more].sum()):.3f}"]
        if layer["r"] == 0:
            return ["root", "D 1.000"]
        return [_minus(f"w {layer['w'][leaf]:+.2f}"), f"D {layer['mass'][leaf]:.3f}"]

    # order of the drawn leaves: under their parents (barycentre of the edges into them,
    # weighted by the divided children's mass), votes −1 to +1 where there is no parent
    x_of: dict[tuple[int, int | None], float] = {}
    width_of: dict[tuple[int, int | None], float] = {}
    row_w = []
    for k, layer in enumerate(layers):
        r = layer["r"]
        order = list(layer["keep"])
        prev = layers[k - 1] if k > 0 else None
        if prev is not None:
            s = rounds[r - 1]
            merge, cm = np.asarray(s.merge), np.asarray(s.child_mass)
            n_prev = merge.shape[0] // 2
            px = np.array([x_of.get((prev["r"], l if l in prev["keep"] else None), 0.0)
                           for l in range(n_prev)])
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
        widths = [max(_text_w(t, font) for t in lines_of(layer, leaf)) + 12 for leaf in slots]
        total = sum(widths) + hgap * (len(slots) - 1)
        # provisional positions from 0 (centred once the picture's width is known)
        x = 0.0
        for leaf, wd in zip(slots, widths, strict=True):
            x_of[(r, leaf)] = x + wd / 2
            width_of[(r, leaf)] = wd
            x += wd + hgap
        row_w.append(total)
        layer["total"] = total

    labels = {}
    for layer in layers:
        r = layer["r"]
        if r >= 1:
            s = rounds[r - 1]
            name = _short(feature_names[s.feature]) if s.feature < len(feature_names) else "x"
            labels[r] = f"h{r}: {name} > {_minus(f'{s.threshold:.3g}')}"
    coll_lines = []
    if collapsed:
        last_hidden = first - 1
        coll_lines = [f"root … round {last_hidden}" if last_hidden > 1 else "root, round 1",
                      "(collapsed)"]
    label_w = max((_text_w(t, font) for t in labels.values()), default=0.0)
    coll_w = max((_text_w(t, font) for t in coll_lines), default=0.0) + 12
    width = max(max(row_w, default=0.0), coll_w, label_w) + 2 * pad
    # centre every row
    for layer in layers:
        shift = pad + (width - 2 * pad - layer["total"]) / 2
        for leaf in layer["slots"]:
            x_of[(layer["r"], leaf)] += shift

    y = pad
    coll_box = None
    if collapsed:
        coll_box = ((width - coll_w) / 2, y, coll_w, node_h)
        y += node_h + vgap
    y_of = {}
    for layer in layers:
        y_of[layer["r"]] = y
        y += node_h + vgap
    height = y - vgap + pad

    hot_r = T if T >= 1 else None
    f0 = f"{font:.0f}"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
             f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'font-family="Helvetica, Arial, sans-serif" font-size="{f0}">']
    # edges: grey for earlier rounds, vermillion for this round's divide and merge
    plain, hot, dashed = [], [], []
    ports = []
    for k in range(1, len(layers)):
        layer, prev = layers[k], layers[k - 1]
        r = layer["r"]
        s = rounds[r - 1]
        merge = np.asarray(s.merge)
        seen = set()
        for z, target in enumerate(merge):
            if target < 0:
                continue
            parent, side = z // 2, z % 2
            pkey = (prev["r"], parent if parent in prev["keep"] else None)
            ckey = (r, int(target) if int(target) in layer["keep"] else None)
            if (pkey, side, ckey) in seen:
                continue
            seen.add((pkey, side, ckey))
            pw = width_of[pkey]
            x0 = x_of[pkey] + (1 if side else -1) * pw / 4
            y0 = y_of[prev["r"]] + node_h
            x1, y1 = x_of[ckey], y_of[r]
            seg = f"M{x0:.0f} {y0:.0f}L{x1:.0f} {y1:.0f}"
            (hot if r == hot_r else plain).append(seg)
            if r == hot_r and (pkey, side) not in ports:
                ports.append((pkey, side))
    if coll_box is not None and layers:
        bx, by, bw, bh = coll_box
        for leaf in layers[0]["slots"]:
            key = (layers[0]["r"], leaf)
            dashed.append(f"M{bx + bw / 2:.0f} {by + bh:.0f}L{x_of[key]:.0f} {y_of[key[0]]:.0f}")
    if plain:
        parts.append(f'<path d="{"".join(plain)}" stroke="#8A8A8A" stroke-width="1.2" '
                     'fill="none"/>')
    if dashed:
        parts.append(f'<path d="{"".join(dashed)}" stroke="#8A8A8A" stroke-width="1.2" '
                     'stroke-dasharray="4 3" fill="none"/>')
    if hot:
        parts.append(f'<path d="{"".join(hot)}" stroke="{theme.HIGHLIGHT}" stroke-width="2" '
                     'fill="none"/>')
    # the stump of each round, in the gap above its layer
    label_parts = []
    for layer in layers:
        r = layer["r"]
        if r in labels:
            ly = y_of[r] - font * 0.45
            colour = theme.HIGHLIGHT if r == hot_r else "#444444"
            weight = ' font-weight="700"' if r == hot_r else ""
            label_parts.append(f'<text x="{pad:.0f}" y="{ly:.0f}" fill="{colour}"{weight}>'
                               f"{escape(labels[r])}</text>")
    if label_parts:
        parts.append('<g stroke="white" stroke-width="3" paint-order="stroke" '
                     'stroke-linejoin="round">' + "".join(label_parts) + "</g>")
    # the nodes
    plain_n, hot_n, more_n, texts = [], [], [], []
    if coll_box is not None:
        bx, by, bw, bh = coll_box
        more_n.append(f'<rect x="{bx:.0f}" y="{by:.0f}" width="{bw:.0f}" height="{bh:.0f}" '
                      'rx="5"/>')
        for i, t in enumerate(coll_lines):
            texts.append(f'<text x="{bx + bw / 2:.0f}" y="{by + 4 + font * (1.2 * i + 0.95):.0f}"'
                         f">{escape(t)}</text>")
    for layer in layers:
        r = layer["r"]
        for leaf in layer["slots"]:
            key = (r, leaf)
            cx, wd, top = x_of[key], width_of[key], y_of[r]
            rect = (f'<rect x="{cx - wd / 2:.0f}" y="{top:.0f}" width="{wd:.0f}" '
                    f'height="{node_h:.0f}" rx="5"')
            if leaf is None:
                more_n.append(rect + "/>")
            else:
                w = float(layer["w"][leaf])
                fill = theme.mix(float((1 + math.tanh(w)) / 2))
                (hot_n if r == hot_r else plain_n).append(rect + f' fill="{fill}"/>')
            for i, t in enumerate(lines_of(layer, leaf)):
                weight = ' font-weight="600"' if i == 0 else ""
                texts.append(f'<text x="{cx:.0f}" y="{top + 4 + font * (1.2 * i + 0.95):.0f}"'
                             f"{weight}>{escape(t)}</text>")
    if plain_n:
        parts.append('<g stroke="#555555" stroke-width="1">' + "".join(plain_n) + "</g>")
    if more_n:
        parts.append('<g fill="#F2F2F2" stroke="#777777" stroke-dasharray="4 3">'
                     + "".join(more_n) + "</g>")
    if hot_n:
        parts.append(f'<g stroke="{theme.HIGHLIGHT}" stroke-width="2.5">' + "".join(hot_n)
                     + "</g>")
    if ports:  # this round's divide: which edge is h_t = −1 and which +1
        pf = font * 0.9
        marks = []
        for pkey, side in ports:
            px = x_of[pkey] + (1 if side else -1) * (width_of[pkey] / 4 + pf * 0.55)
            py = y_of[pkey[0]] + node_h + pf * 0.95
            marks.append(f'<text x="{px:.0f}" y="{py:.0f}">{"+" if side else "−"}</text>')
        parts.append(f'<g fill="{theme.HIGHLIGHT}" font-size="{pf:.0f}" font-weight="700">'
                     + "".join(marks) + "</g>")
    parts.append('<g text-anchor="middle" fill="#222222">' + "".join(texts) + "</g>")
    parts.append("</svg>")
    return "".join(parts)


def svg_size(svg: str) -> tuple[float, float]:
    """The natural ``width`` and ``height`` of a picture built here."""
    head = svg[: svg.index(">")]
    w = float(head.split('width="', 1)[1].split('"', 1)[0])
    h = float(head.split('height="', 1)[1].split('"', 1)[0])
    return w, h


def program_pictures(steps: Sequence[BPStep], t: int, *, feature_names: Sequence[str],
                     font: float = 13) -> list[str]:
    """Pictures of the program at snapshot ``t`` from the most to the least detailed
    (:data:`DETAIL`), without repeats and without a picture that could never be chosen (one
    at least as large as an earlier one in both directions)."""
    rounds = _done(steps, t)
    out: list[str] = []
    sizes: list[tuple[float, float]] = []
    for rows, boxes in DETAIL:
        svg = program_svg(rounds, rows=rows, boxes=boxes, feature_names=feature_names,
                          font=font)
        w, h = svg_size(svg)
        if any(w0 <= w + 0.5 and h0 <= h + 0.5 for w0, h0 in sizes):
            continue
        out.append(svg)
        sizes.append((w, h))
    return out


def program_note(steps: Sequence[BPStep], t: int) -> str:
    """One line under the program: this round's divide and merge in numbers."""
    s = steps[min(t, len(steps) - 1)]
    if s.metrics is None:
        return s.stop_reason or s.message
    m = s.metrics
    before = (steps[t - 1].metrics.n_leaves if t > 0 and steps[t - 1].metrics is not None
              else 1)
    merged = m.n_divided - m.n_leaves
    what = (f"{merged} merge(s) joined them into {m.n_leaves}" if merged > 0
            else f"no merging: {m.n_leaves} leaves")
    return (f"Round {s.t}: h{s.t} divides {before} leaf(s) into {m.n_divided} children "
            f"(left edge −1, right edge +1); {what}.")


# ----------------------------------------------------------------------------- curves
def curves_figure(steps: Sequence[BPStep], t: int, *, font: float = 12, small: bool = False):
    """``Π H(Y|h_t) ≥ Π Z_t ≥`` training error (Theorem 1) and the test error against the
    round (log scale), above ``|L_t|``: the whole run faint, the rounds up to ``t`` solid, a
    marker at round ``t``. Lines are named at their right ends."""
    done = [s for s in steps if s.metrics is not None]
    t_round = steps[min(t, len(steps) - 1)].t
    cur = sum(1 for s in done if s.t <= t_round) - 1  # index in ``done`` of this round
    x = np.array([s.t for s in done], dtype=float)
    ms = [s.metrics for s in done]
    n_max = max(int(x[-1]) if len(x) else 1, 1)
    series = [
        ("Π H(Y|h_t)", theme.BOUND["power"], "dot", 2.0, lambda m: m.prod_H_h),
        ("Π Z_t", theme.BOUND["e"], "dash", 2.2, lambda m: m.prod_Z),
        ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error),
    ]
    if ms and ms[-1].test_error is not None and not small:
        series.append(("test error", theme.MEASURED["test"], "solid", 1.6,
                       lambda m: m.test_error))
    if small:
        series = series[1:3]
    values = [v for m in ms for *_, get in series for v in [get(m)] if v is not None and v > 0]
    low = float(np.floor(np.log10(min(values)))) if values else -2.0
    low = max(low, -6.0)
    data: list[dict] = []
    labels = []

    def add(y, name, colour, dash, width, yaxis="y", marker=9):
        data.append(dict(type="scatter", x=x, y=y, mode="lines", name=name, yaxis=yaxis,
                         showlegend=False, opacity=FAINT, hoverinfo="skip",
                         line=dict(color=colour, dash=dash, width=width)))
        if cur >= 0:
            data.append(dict(type="scatter", x=x[: cur + 1], y=y[: cur + 1], mode="lines",
                             name=name, yaxis=yaxis, showlegend=False,
                             line=dict(color=colour, dash=dash, width=width),
                             hovertemplate=f"{name}<br>round %{{x}}: %{{y:.4g}}"
                             "<extra></extra>"))
            data.append(dict(type="scatter", x=x[cur: cur + 1], y=y[cur: cur + 1],
                             mode="markers", yaxis=yaxis, showlegend=False, hoverinfo="skip",
                             marker=dict(color=colour, size=marker,
                                         line=dict(color="white", width=1))))

    for name, colour, dash, width, get in series:
        y = np.array([get(m) if get(m) is not None and get(m) > 0 else np.nan for m in ms],
                     dtype=float)
        add(y, name, colour, dash, width, marker=6 if small else 9)
        finite = y[np.isfinite(y)]
        if finite.size:
            labels.append((name, colour, float(finite[-1])))
    leaves = np.array([m.n_leaves for m in ms], dtype=float)
    top_leaves = float(np.log10(max(leaves.max() if leaves.size else 2, 2))) + 0.15
    if not small:
        add(leaves, "|L_t|", theme.NEUTRAL, "solid", 2.0, yaxis="y2", marker=7)
    annotations = [] if small else end_labels(labels, font=font - 1, y_range=(low, 0.05),
                                              plot_px=260.0, log=True)
    if not done and not small:
        annotations.append(dict(xref="paper", yref="paper", x=0.5, y=0.6, showarrow=False,
                                text="No round yet: the curves start at round 1.",
                                font=dict(size=font, color="#555555")))
    right = 10 if small or not labels else int(max(len(n) for n, *_ in labels)
                                               * (font - 1) * 0.6) + 14
    shapes = []
    if cur >= 0:
        shapes.append(dict(type="line", xref="x", yref="paper", x0=float(x[cur]),
                           x1=float(x[cur]), y0=0, y1=1,
                           line=dict(color="#888888", width=1, dash="dot")))
    layout = dict(
        margin=dict(l=8, r=8, t=4, b=8) if small else dict(l=10, r=right, t=8, b=10),
        plot_bgcolor="white", font=dict(size=font), showlegend=False, uirevision="curves",
        annotations=annotations, shapes=shapes,
        xaxis=dict(range=[0.5, n_max + 0.5], gridcolor="#eeeeee", showticklabels=not small,
                   automargin=True, anchor="y2" if not small else "y",
                   title=None if small else dict(text="round t", standoff=4)),
        yaxis=dict(type="log", range=[low, 0.05], gridcolor="#eeeeee", dtick=1,
                   showticklabels=not small, automargin=True,
                   domain=[0.0, 1.0] if small else [0.34, 1.0],
                   title=None if small else dict(text="Theorem 1 (log)", standoff=4)),
    )
    if not small:
        layout["yaxis2"] = dict(type="log", range=[0, top_leaves], gridcolor="#eeeeee",
                                dtick=1, domain=[0.0, 0.24], automargin=True,
                                title=dict(text="|L_t|", standoff=4))
    return _figure(data, layout)


def curves_note(steps: Sequence[BPStep], t: int) -> str:
    """The curves' note: what bounds what, and the smoothing of pure leaves so far."""
    smoothed = [s for s in steps[: t + 1]
                if s.metrics is not None and s.metrics.smoothing_excess > 0]
    if smoothed:
        total = sum(s.metrics.smoothing_excess for s in smoothed)
        return (f"{len(smoothed)} round(s) so far smoothed a pure leaf's weight (Z_t grew by "
                f"{total:.4f} in all): there Π Z_t may exceed Π H(Y|h_t); it still bounds "
                "the training error.")
    return ("Theorem 1: train error ≤ Π Z_t ≤ Π H(Y|h_t). Faint: the whole run; solid: up to "
            "this round; below: the leaves |L_t|.")


# ----------------------------------------------------------------------------- tables
def _cells(frame: pd.DataFrame, ints: Sequence[str]) -> pd.DataFrame:
    """Integer columns as Python ints in an object column (a NaN elsewhere would turn them
    into floats with decimals)."""
    frame = frame.astype(object)
    for col in ints:
        if col in frame:
            frame[col] = [None if v is None or (isinstance(v, float) and math.isnan(v))
                          else int(v) for v in frame[col]]
    return frame.where(frame.notna(), None)


def metrics_html(current: dict[str, BPStep]) -> str:
    """The round's numbers, one row per scheme (``run`` is the scheme's name)."""
    from .lecture import table_html

    rows = []
    for name, s in current.items():
        m = s.metrics
        if m is None:
            rows.append({"run": name, "round": s.t, "note": s.stop_reason})
            continue
        rows.append({
            "run": name, "round": m.t, "|L_t|": m.n_leaves, "train error": m.train_error,
            "test error": m.test_error, "Z_t": m.Z, "H(Y|h_t)": m.H_h, "H(Y|ℓ̃_t)": m.H_divided,
            "H(Y|ℓ_t)": m.H_leaves, "γ_t": m.gamma, "Π Z": m.prod_Z, "Π H(Y|h)": m.prod_H_h,
        })
    frame = pd.DataFrame(rows)
    return table_html(_cells(frame, ("round", "|L_t|")))


def groups_html(step: BPStep) -> str:
    """BP.InfoBoost's merged leaves this round (Theorem 3's groups), with a line of numbers."""
    from .lecture import table_html
    from .tables import groups_frame

    if step.metrics is None or not step.groups:
        reason = step.stop_reason or "No groups this round."
        return f"<p>{escape(reason)}</p>"
    m = step.metrics
    head = (f"Round {step.t}: γ_t = {m.gamma:.4f}, bound 1 − cγ_t = {m.band_bound:.4f}, "
            f"H(Y|ℓ_t) = {m.H_leaves:.4f}, {m.n_leaves} groups (at most 4K = {m.max_groups})")
    frame = _cells(groups_frame(step), ("leaf", "band j", "children merged"))
    return f"<p><b>{escape(head)}</b></p>" + table_html(frame)


# ------------------------------------------------------------------------------ lecture
def notes_for(steps: Sequence[BPStep], n: int) -> list[str]:
    """One note per round of the longest run: the round's message; a run that ended early
    says so while the others go on."""
    notes = [s.message for s in steps]
    end = steps[-1].t if steps[-1].metrics is not None else steps[-1].t - 1
    notes += [f"Finished at round {end}. {notes[-1]}"] * (n - len(steps))
    return notes


@st.cache_data(max_entries=32, show_spinner=False)
def branching_lecture(_ds: Dataset, ds_key: str, schemes: tuple[str, ...], n_rounds: int,
                      c: float, weak_learner: str, font: float) -> dict:
    """Every round of every scheme's run, encoded for the lecture view (cached).

    Returns ``{"runs": {name: {"n", "regions", "structure", "structure_notes", "curves",
    "notes", "curve_notes", "small", "spark"}}, "metrics", "groups", "n"}``: frames one per
    snapshot (snapshot 0 is round 1), the tables one per snapshot of the longest run.
    """
    from . import compute, lecture

    runs = {name: compute.bp_run(_ds, ds_key, n_rounds, SCHEMES[name], c, weak_learner)
            for name in schemes}
    n = max(len(s) for s in runs.values())
    svg_font = round(font + 1)
    out: dict = {"runs": {}, "n": n}
    for name, steps in runs.items():
        k = len(steps)
        out["runs"][name] = {
            "n": k,
            "regions": lecture.plotly_frames([regions_figure(s, _ds, font=font) for s in steps]),
            "structure": lecture.same_frames(
                [program_pictures(steps, t, feature_names=_ds.feature_names, font=svg_font)
                 for t in range(k)]),
            "structure_notes": [program_note(steps, t) for t in range(k)],
            "curves": lecture.plotly_frames([curves_figure(steps, t, font=font)
                                             for t in range(k)]),
            "curve_notes": [curves_note(steps, t) for t in range(k)],
            "small": lecture.plotly_frames([regions_figure(s, _ds, font=font, small=True)
                                            for s in steps]),
            "spark": lecture.plotly_frames([curves_figure(steps, t, font=font, small=True)
                                            for t in range(k)]),
            "notes": notes_for(steps, n),
        }
    metrics, groups = [], []
    for t in range(n):
        current = {name: steps[min(t, len(steps) - 1)] for name, steps in runs.items()}
        metrics.append(metrics_html(current))
        if "BP.InfoBoost" in runs:
            groups.append(groups_html(current["BP.InfoBoost"]))
    out["metrics"] = lecture.same_frames(metrics)
    out["groups"] = lecture.same_frames(groups) if groups else None
    return out
