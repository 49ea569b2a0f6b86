"""The SVG engine of the structure view, at a fixed text size: boxes (:class:`Box`), trees
of them (:class:`TNode`) laid out as pictures (:func:`layout`, :class:`Pic`), a picture as
SVG (:func:`svg`) and the pictures a browser may pick from (:func:`choose`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from boostcore.probabilistic import SoftStump
from ui import theme
from ui.svgtree import svg_size

CHAR = 0.58  # average character width as a fraction of the font size (Helvetica-like)
PAD = 7  # inside a doll's box
#: A picture at most this large fits every panel: less detailed ones after it are not needed.
FIT_W, FIT_H = 320, 280
#: Structure panels (width, height in px) of the layouts the page is made for — 1440×900 with
#: the sidebar, 1920×1080 without, presenter mode at 1280×720 and 1920×1080 — and a large
#: window: every frame keeps the most detailed picture that fits each of them.
PANELS = ((960, 1000), (666, 716), (520, 750), (432, 356), (347, 580), (FIT_W, FIT_H))
STUMP_FILL = "#FFFFFF"
#: The structures' edges (a graphic on white) and their labels, text on a white patch
#: (#777777 is 4.48 : 1: its ink, issue 26 item 4).
EDGE = "#777777"
EDGE_LABEL = theme.ink(EDGE)
#: The ghosts of the waiting picture: the shape of the level-1 doll before there is one. They
#: are all that picture shows (no solid copy is on screen), so their outlines are graphics and
#: their text is text: dashed NEUTRAL grey (#999999 and #AAAAAA were 2.73 and 2.32 : 1 on
#: GHOST_FILL) and a grey that reads on their fill (#777777 was 4.29).
GHOST_FILL = "#FAFAFA"
GHOST_LINE = theme.NEUTRAL
GHOST_TEXT = theme.ink(EDGE, GHOST_FILL, theme.PLOT_BG)


# ======================================================================= SVG: the engine
def _tw(text: str, font: float) -> float:
    return len(text) * font * CHAR


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
        w = max(max(_tw(s, font) for s in box.lines) + 2 * PAD, box.inner.w + 2 * PAD)
        return w, PAD + head + box.inner.h + PAD
    longest = max((_tw(s, font) for s in box.lines), default=font)
    w = longest + (22 if box.kind == "leaf" else 14)
    return max(w, 2.4 * font), len(box.lines) * font * 1.2 + 10


def box_parts(box: Box, x: float, y: float, w: float, h: float, font: float) -> list[str]:
    hot = box.hot
    stroke = theme.HIGHLIGHT if hot else (GHOST_LINE if box.kind == "ghost" else "#555555")
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
            yy = y + PAD + font * (1.2 * i + 0.9)
            weight = ' font-weight="600"' if i == 0 else ""
            parts.append(
                f'<text x="{x + PAD:.0f}" y="{yy:.0f}" text-anchor="start"{weight}>'
                f"{escape(line)}</text>"
            )
        head = len(box.lines) * font * 1.2 + 2
        ix = x + (w - box.inner.w) / 2
        iy = y + PAD + head
        parts.append(f'<g transform="translate({ix:.0f},{iy:.0f})">')
        parts.extend(box.inner.parts)
        parts.append("</g>")
        return parts
    for i, line in enumerate(box.lines):
        yy = y + 5 + font * (1.2 * i + 0.95)
        weight = ' font-weight="600"' if i == 0 and box.kind != "ghost" else ""
        parts.append(
            f'<text x="{x + w / 2:.0f}" y="{yy:.0f}"{weight}{colour}>{escape(line)}</text>'
        )
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
        lx, ly = (x0 + x1) / 2, (y0 + y1) / 2
        lw = _tw(label, font) + 6
        fill = f' fill="{theme.ink(colour)}"' if colour else ""  # text: 4.5 : 1
        marks.append(
            f'<rect x="{lx - lw / 2:.0f}" y="{ly - font * 0.6:.0f}" width="{lw:.0f}" '
            f'height="{font * 1.2:.0f}" rx="3" fill="white"/>'
        )
        marks.append(f'<text x="{lx:.0f}" y="{ly + font * 0.35:.0f}"{fill}>{escape(label)}</text>')
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


def wrap(text: str, width: int) -> list[str]:
    """Words of ``text`` in lines of at most ``width`` characters."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def svg(pic: Pic | None, font: float, *, title: str = "", footer: str = "") -> str:
    """The picture with an optional bold title line above and a plain footer text below
    (wrapped to the picture's width, at least :data:`FIT_W`), as an SVG string whose
    ``width``/``height`` are its natural size in pixels."""
    line_h = font * 1.3
    pw, ph = (pic.w, pic.h) if pic is not None else (0.0, 0.0)
    # a title wider than the picture wraps before its parenthesis (one line set the
    # picture's width: at presenter mode's 22 px "near this round's change (▸ = folded)"
    # made the least detailed picture too wide for a panel beside the student's quiz)
    heads = [title] if title else []
    if title and _tw(title, font) > max(pw, FIT_W) and " (" in title:
        first, rest = title.split(" (", 1)
        heads = [first, "(" + rest]
    top = len(heads) * line_h + (2 if heads else 0) + 4
    lines = wrap(footer, max(16, int((max(pw, FIT_W) - 10) / (font * CHAR)))) if footer else []
    texts = heads + lines
    width = max([pw] + [_tw(s, font) for s in texts]) + 10
    height = top + ph + (len(lines) * line_h + 6 if lines else 0) + 6
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{font:.0f}" text-anchor="middle">'
    ]
    for i, head in enumerate(heads):
        out.append(
            f'<text x="5" y="{font + 2 + i * line_h:.0f}" text-anchor="start" '
            f'font-weight="600">{escape(head)}</text>'
        )
    if pic is not None:
        out.append(f'<g transform="translate({(width - pw) / 2:.0f},{top:.0f})">')
        out += pic.parts
        out.append("</g>")
    y = top + ph + 6
    for line in lines:
        y += line_h
        out.append(
            f'<text x="5" y="{y - font * 0.3:.0f}" text-anchor="start" '
            f'fill="#333333">{escape(line)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def choose(pictures: Sequence[str]) -> list[str]:
    """Pictures from the most to the least detailed, cut down to what the browser may pick:
    for every typical panel size (:data:`PANELS`) the first picture that fits it, and the
    last picture (shown scaled down when nothing fits), in their order, without repeats."""
    sizes = [svg_size(p) for p in pictures]
    keep = {len(pictures) - 1}
    for W, H in PANELS:
        for i, (w, h) in enumerate(sizes):
            if w <= W and h <= H:
                keep.add(i)
                break
    out: list[str] = []
    for i in sorted(keep):
        if pictures[i] not in out:
            out.append(pictures[i])
    return out
