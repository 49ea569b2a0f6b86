"""The structure view's drawing, at a fixed text size, on the engine of :mod:`ui.svg`: boxes
(:class:`Box`), trees of them (:class:`TNode`) laid out downwards or rightwards as pictures
(:func:`layout`, :class:`Pic`; a doll is a box holding its own picture) and a picture with
its title and footer as SVG (:func:`svg`). Which of them the browser may pick from:
:func:`ui.svg.choose`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from boostcore.probabilistic import SoftStump
from ui import theme
from ui.svg import (
    EDGE,
    FIT_W,
    NODE_LINE,
    baseline,
    chars_in,
    document,
    plate_label,
    split_title,
    text_box,
    text_tag,
    text_width,
    widest,
    wrap,
)

PAD = 7  # inside a doll's box
STUMP_FILL = "#FFFFFF"
#: The structures' edge labels (:data:`ui.svg.EDGE` is a graphic on white): text on a white
#: patch (#777777 is 4.48 : 1: its ink, issue 26 item 4).
EDGE_LABEL = theme.ink(EDGE)
#: The ghosts of the waiting picture: the shape of the level-1 doll before there is one. They
#: are all that picture shows (no solid copy is on screen), so their outlines are graphics and
#: their text is text: dashed NEUTRAL grey (#999999 and #AAAAAA were 2.73 and 2.32 : 1 on
#: GHOST_FILL) and a grey that reads on their fill (#777777 was 4.29).
GHOST_FILL = "#FAFAFA"
GHOST_LINE = theme.NEUTRAL
GHOST_TEXT = theme.ink(EDGE, GHOST_FILL, theme.PLOT_BG)


# ======================================================================= SVG: the boxes
def name_of(names: Sequence[str], j: int) -> str:
    s = str(names[j]) if j < len(names) else f"x{j + 1}"
    return s if len(s) <= 14 else s[:13] + "…"


def stump_label(s: SoftStump, names: Sequence[str]) -> str:
    """``x1 > 0.23``: the side on which the soft stump leans to +1 (polarity −1: ``<``)."""
    op = ">" if s.polarity >= 0 else "<"
    return f"{name_of(names, s.feature)} {op} {s.theta:.2f}"


@dataclass
class Box:
    """One drawn box: a soft stump, a leaf (ellipse), a doll holding its own picture, a
    folded doll or subtree (dashed, with a count), or a ghost of what is still to come."""

    lines: Sequence[str]
    kind: str = "stump"  # stump | leaf | doll | folded | ghost
    fill: str = STUMP_FILL
    hot: bool = False
    inner: Pic | None = None


@dataclass
class Pic:
    """A laid-out picture: size, SVG fragments in its own coordinates, and the anchor of its
    root box (top centre when laid out downwards, left middle when laid out rightwards)."""

    w: float
    h: float
    parts: list[str]
    ax: float
    ay: float


@dataclass
class TNode:
    box: Box
    kids: list[tuple[str, bool, TNode]] = field(default_factory=list)


def box_size(box: Box, font: float) -> tuple[float, float]:
    if box.kind == "doll" and box.inner is not None:
        head = len(box.lines) * font * 1.2 + 2
        w = max(widest(box.lines, font) + 2 * PAD, box.inner.w + 2 * PAD)
        return w, PAD + head + box.inner.h + PAD
    return text_box(box.lines, font, pad=22 if box.kind == "leaf" else 14, default=font)


def box_parts(box: Box, x: float, y: float, w: float, h: float, font: float) -> list[str]:
    hot = box.hot
    stroke = theme.HIGHLIGHT if hot else (GHOST_LINE if box.kind == "ghost" else NODE_LINE)
    sw = 3 if hot and box.kind in ("stump", "leaf") else (2.5 if hot else 1)
    dash = (
        ' stroke-dasharray="4 3"'
        if box.kind in ("folded", "ghost") or (box.kind == "doll" and not hot)
        else ""
    )
    parts = []
    if box.kind == "leaf":
        parts.append(
            f'<ellipse cx="{x + w / 2:.0f}" cy="{y + h / 2:.0f}" rx="{w / 2:.0f}" '
            f'ry="{h / 2:.0f}" fill="{box.fill}" stroke="{stroke}" '
            f'stroke-width="{sw}"{dash}/>'
        )
    else:
        at = (f' x="{x:.0f}"' if round(x) else "") + (f' y="{y:.0f}"' if round(y) else "")
        parts.append(
            f'<rect{at} width="{w:.0f}" height="{h:.0f}" '
            f'rx="{8 if box.kind == "doll" else 5}" fill="{box.fill}" '
            f'stroke="{stroke}" stroke-width="{sw}"{dash}/>'
        )
    colour = f' fill="{GHOST_TEXT}"' if box.kind == "ghost" else ""
    if box.kind == "doll" and box.inner is not None:
        for i, line in enumerate(box.lines):
            yy = baseline(y, i, font, inset=PAD, ascent=0.9)
            weight = ' font-weight="600"' if i == 0 else ""
            parts.append(text_tag(line, x + PAD, yy, attrs=f' text-anchor="start"{weight}'))
        head = len(box.lines) * font * 1.2 + 2
        ix = x + (w - box.inner.w) / 2
        iy = y + PAD + head
        parts.append(f'<g transform="translate({ix:.0f},{iy:.0f})">')
        parts.extend(box.inner.parts)
        parts.append("</g>")
        return parts
    for i, line in enumerate(box.lines):
        yy = baseline(y, i, font)
        weight = ' font-weight="600"' if i == 0 and box.kind != "ghost" else ""
        parts.append(text_tag(line, x + w / 2, yy, attrs=weight + colour))
    return parts


def _edge(
    x0, y0, x1, y1, label: str, hot: bool, font: float, *, ghost: bool = False
) -> tuple[str, list[str]]:
    """An edge (its line, and its label on a white patch): plain edges take their stroke
    and the labels their colour from the groups :func:`_edges` puts them in."""
    colour = theme.HIGHLIGHT if hot else (GHOST_LINE if ghost else "")
    style = f' stroke="{colour}"' if colour else ""
    style += ' stroke-width="2.2"' if hot else ""
    style += ' stroke-dasharray="4 3"' if ghost else ""
    line = f'<line x1="{x0:.0f}" y1="{y0:.0f}" x2="{x1:.0f}" y2="{y1:.0f}"{style}/>'
    marks = []
    if label:
        fill = f' fill="{theme.ink(colour)}"' if colour else ""  # text: 4.5 : 1
        marks.append(
            plate_label(
                label,
                (x0 + x1) / 2,
                (y0 + y1) / 2,
                font,
                drop=0.35,
                plate=' rx="3" fill="white"',
                ink=fill,
            )
        )
    return line, marks


def _edges(edges: list[tuple[str, list[str]]]) -> list[str]:
    lines = "".join(e[0] for e in edges)
    marks = "".join("".join(e[1]) for e in edges)
    out = [f'<g stroke="{EDGE}" stroke-width="1.1">{lines}</g>']
    if marks:
        out.append(f'<g font-weight="600" fill="{EDGE_LABEL}">{marks}</g>')
    return out


def layout(node: TNode, orient: str, font: float) -> Pic:
    """Lay a tree out downwards (``"down"``: children side by side under their parent) or
    rightwards (``"right"``: children stacked to the right), parents centred on their
    children, every box at its natural size."""
    bw, bh = box_size(node.box, font)
    me = box_parts(node.box, 0, 0, bw, bh, font)
    if not node.kids:
        return Pic(
            bw, bh, me, bw / 2 if orient == "down" else 0.0, 0.0 if orient == "down" else bh / 2
        )
    pics = [layout(k, orient, font) for _, _, k in node.kids]
    parts: list[str] = []
    if orient == "down":
        gap, vgap = font * 0.8, font * 2.0
        xs, cur = [], 0.0
        for p in pics:
            xs.append(cur)
            cur += p.w + gap
        anchors = [x + p.ax for x, p in zip(xs, pics)]
        centre = (anchors[0] + anchors[-1]) / 2
        shift = max(0.0, bw / 2 - centre)
        xs = [x + shift for x in xs]
        centre += shift
        top = bh + vgap
        left = centre - bw / 2
        width = max(left + bw, xs[-1] + pics[-1].w)
        height = top + max(p.h for p in pics)
        parts += _edges(
            [
                _edge(
                    centre,
                    bh,
                    x + p.ax,
                    top + p.ay,
                    label,
                    hot,
                    font,
                    ghost=kid.box.kind == "ghost",
                )
                for (label, hot, kid), x, p in zip(node.kids, xs, pics)
            ]
        )
        for x, p in zip(xs, pics):
            parts.append(f'<g transform="translate({x:.0f},{top:.0f})">')
            parts += p.parts
            parts.append("</g>")
        parts.append(f'<g transform="translate({left:.0f},0)">')
        parts += me
        parts.append("</g>")
        return Pic(width, height, parts, centre, 0.0)
    gap, hgap = font * 0.8, font * 2.6
    ys, cur = [], 0.0
    for p in pics:
        ys.append(cur)
        cur += p.h + gap
    anchors = [y + p.ay for y, p in zip(ys, pics)]
    middle = (anchors[0] + anchors[-1]) / 2
    shift = max(0.0, bh / 2 - middle)
    ys = [y + shift for y in ys]
    middle += shift
    left = bw + hgap
    top = middle - bh / 2
    width = left + max(p.w for p in pics)
    height = max(top + bh, ys[-1] + pics[-1].h)
    parts += _edges(
        [
            _edge(
                bw, middle, left + p.ax, y + p.ay, label, hot, font, ghost=kid.box.kind == "ghost"
            )
            for (label, hot, kid), y, p in zip(node.kids, ys, pics)
        ]
    )
    for y, p in zip(ys, pics):
        parts.append(f'<g transform="translate({left:.0f},{y:.0f})">')
        parts += p.parts
        parts.append("</g>")
    parts.append(f'<g transform="translate(0,{top:.0f})">')
    parts += me
    parts.append("</g>")
    return Pic(width, height, parts, 0.0, middle)


def svg(pic: Pic | None, font: float, *, title: str = "", footer: str = "") -> str:
    """The picture with an optional bold title line above and a plain footer text below
    (wrapped to the picture's width, at least :data:`ui.svg.FIT_W`), as an SVG string whose
    ``width``/``height`` are its natural size in pixels."""
    line_h = font * 1.3
    pw, ph = (pic.w, pic.h) if pic is not None else (0.0, 0.0)
    # a title wider than the picture wraps before its parenthesis (one line set the
    # picture's width: at presenter mode's 22 px "near this round's change (▸ = folded)"
    # made the least detailed picture too wide for a panel beside the student's quiz)
    heads = split_title(title, max(pw, FIT_W), font)
    top = len(heads) * line_h + (2 if heads else 0) + 4
    lines = wrap(footer, max(16, chars_in(max(pw, FIT_W) - 10, font))) if footer else []
    texts = heads + lines
    width = max([pw] + [text_width(s, font) for s in texts]) + 10
    height = top + ph + (len(lines) * line_h + 6 if lines else 0) + 6
    out = []
    for i, head in enumerate(heads):
        out.append(
            text_tag(head, 5, font + 2 + i * line_h, attrs=' text-anchor="start" font-weight="600"')
        )
    if pic is not None:
        out.append(f'<g transform="translate({(width - pw) / 2:.0f},{top:.0f})">')
        out += pic.parts
        out.append("</g>")
    y = top + ph + 6
    for line in lines:
        y += line_h
        out.append(text_tag(line, 5, y - font * 0.3, attrs=' text-anchor="start" fill="#333333"'))
    return document(width, height, font, out, attrs=' text-anchor="middle"')
