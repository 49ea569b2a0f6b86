"""The structure view of /branching: the branching program as a layered SVG picture
(:func:`program_svg`, offered at several sizes by :func:`program_pictures`) and the line
under it (:func:`program_note`, in :func:`divide_words`' sentences), with the helpers the
other views share (:func:`program_rounds`, :func:`never`, :func:`whose_stump`). Pure
functions (no Streamlit)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.branching import START, STEP, BPStep
from ui import theme
from ui.svg import (
    FONT,
    NODE_LINE,
    SOURCE_SANS,
    baseline,
    choosable,
    document,
    text_tag,
    text_width,
)
from ui.text import YOURS, plural, sub, who_chose

#: Pictures of the program offered to the browser, from the most to the least detailed:
#: (rows, boxes per layer). The browser shows the first one that fits its panel at full
#: text size; rows beyond the last few layers collapse into one box, and the lightest
#: leaves of a layer into one "+N more" box.
DETAIL = ((9, 6), (9, 4), (6, 4), (4, 4), (5, 3), (3, 3))


#: The label of a leaf no training point reaches in the program picture (two lines).
NO_POINT = ("no training", "point reaches")


def _minus(text: str) -> str:
    return text.replace("-", "−")


def program_rounds(run: Sequence[BPStep], t: int) -> list[BPStep]:
    """The rounds ``1 … t`` of ``run``: its ``"step"`` snapshots up to round ``t`` (none at
    round 0, where the program is its root alone)."""
    return [s for s in run if s.kind == STEP and s.t <= t]


def never(run: Sequence[BPStep]) -> str:
    """Why a run never got a round (``""`` for a run with rounds)."""
    if len(protocol.rounds(run)) == 1 and protocol.stop_reason(run):
        return " " + protocol.stop_reason(run)
    return ""


# ---------------------------------------------------------------------------- program
#: The program is set in the page's own font (:data:`ui.svg.SOURCE_SANS`); files saved from
#: the Export menu fall back to Helvetica/Arial, which are wider, so their widths are
#: estimated this much larger (``wide=True``).
WIDE = 1.3


def _short(name: str, n: int = 6) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def layer_leaves(rounds: Sequence[BPStep], r: int) -> tuple[np.ndarray, np.ndarray]:
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
    font: float = FONT,
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
        return text_width(text, font, face=SOURCE_SANS, widen=WIDE if wide else 1.0)

    layers = []
    for r in shown:
        w, mass = layer_leaves(rounds, r)
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

    hot_r = T if T >= 1 else None
    parts = []
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
            lines.setdefault((round(baseline(top, i, font, inset=3)), i == 0), []).append(
                text_tag(t, cx, tag="tspan")
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
        (False, f'stroke="{NODE_LINE}" stroke-width="1"'),
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
            marks.append(text_tag("+" if side else "−", px, py))
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
            text_tag(h, pad, baseline(top, 0, font, inset=3), attrs=' font-weight="700"' + colour)
        )
        marks.append(text_tag(stump, pad, baseline(top, 1, font, inset=3), attrs=colour))
    if marks:
        parts.append('<g fill="#444444">' + "".join(marks) + "</g>")
    return document(width, height, font, parts, face=SOURCE_SANS)


def program_pictures(
    run: Sequence[BPStep], t: int, *, feature_names: Sequence[str], font: float = FONT
) -> list[str]:
    """Pictures of the program at round ``t`` (0: the root alone) from the most to the least
    detailed (:data:`DETAIL`), without repeats and without a picture that could never be
    chosen (one at least as large as an earlier one in both directions:
    :func:`ui.svg.choosable`)."""
    rounds = program_rounds(run, t)
    return choosable(
        program_svg(rounds, rows=rows, boxes=boxes, feature_names=feature_names, font=font)
        for rows, boxes in DETAIL
    )


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


def played_infoboosts(step: BPStep) -> bool:
    """A student's round (be the weak learner) that played the weak learner's own stump."""
    return step.by_policy and (step.feature, step.threshold) == (
        step.algorithm_feature,
        step.algorithm_threshold,
    )


def whose_stump(step: BPStep, whose: str = YOURS) -> str:
    """Who chose ``h_t``, when a person did (" (your stump)", " (the class's stump)");
    nothing otherwise."""
    if not step.by_policy:
        return ""
    if played_infoboosts(step):
        return f" (InfoBoost's stump, played by {who_chose(whose)})"
    return f" ({whose} stump)"


def program_note(run: Sequence[BPStep], t: int, whose: str = YOURS) -> str:
    """One line under the program at round ``t``: this round's divide and merge in numbers
    (:func:`divide_words`); a stump a person chose is named ``whose`` it is
    (:data:`ui.text.YOURS`, or :data:`ui.text.THE_CLASS` on a class follower's page)."""
    rounds = protocol.rounds(run)
    s = rounds[min(t, len(rounds) - 1)]
    if s.kind == START:
        return (
            f"Round 0: the program is its root, one leaf of weight 0 (F{sub(0)} = 0); "
            "round 1's stump divides it." + never(run)
        )
    return f"Round {s.t}: " + divide_words(
        f"h{sub(s.t)}{whose_stump(s, whose)}", s, rounds[s.t - 1].metrics
    )
