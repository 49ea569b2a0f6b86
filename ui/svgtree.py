"""Trees drawn as SVG at a fixed text size, for the lecture view's structure panel (topdown's
trees and the game's), on the engine of :mod:`ui.svg`.

Graphviz lays structures out in the browser for ``st.graphviz_chart``, which costs a server
rerun per round; the lecture view instead swaps prepared pictures, so the layout is done
here: a layered "tidy" layout (:func:`ui.svg.tidy_layout`: leaves side by side in order, a
parent centred over its children). Text is never scaled down to fit: when a tree is too wide
for the panel, the page sends a second, *neighbourhood* picture (:func:`neighbourhood`) — the
path from the root to this round's change, the siblings along it and this round's new nodes;
every other subtree is collapsed into one box that says how many leaves it holds.

Every string that reaches the SVG is escaped (by :func:`ui.svg.text_tag` and
:func:`ui.svg.plate_label`: feature names may come from a CSV).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from . import theme
from .svg import (
    BOLD,
    EDGE,
    FONT,
    NODE_LINE,
    SMALL,
    baseline,
    document,
    plate_label,
    split_title,
    text_box,
    text_tag,
    text_width,
    tidy_layout,
    widest,
)

#: A tree's edge label is text (4.5 : 1) on a white plate of opacity LABEL_PLATE laid over its
#: edge (:data:`ui.svg.EDGE`), so it is measured against that plate over the darkest edge
#: (tests/ui/test_contrast.py).
LABEL_PLATE = 0.85
#: What an edge label is drawn on at worst: the plate over a hot (this round's) edge.
LABEL_BG = theme.composite(f"rgba(255,255,255,{LABEL_PLATE})", theme.HIGHLIGHT)
#: An edge label (#777777 before: 4.48 : 1 on white) and this round's edge label (vermillion
#: #D55E00 before: 3.87 : 1), each the darker shade of its edge's colour that reads as text.
LABEL = theme.ink(EDGE, LABEL_BG, theme.composite(f"rgba(255,255,255,{LABEL_PLATE})", EDGE))
LABEL_HOT = theme.ink(theme.HIGHLIGHT, LABEL_BG)


@dataclass
class Node:
    """One node of a drawn tree."""

    id: int
    lines: Sequence[str]
    parent: int | None = None
    fill: str = "#F2F2F2"
    shape: str = "box"  # "box" (rounded) or "ellipse"
    hot: bool = False  # outlined in vermillion: this round's change
    edge_label: str = ""  # label of the edge from the parent
    edge_hot: bool = False
    dashed: bool = False  # a collapsed subtree
    children: list[int] = field(default_factory=list)


def neighbourhood(
    nodes: dict[int, Node], root: int, keep: Iterable[int], what: str = "leaves"
) -> dict[int, Node]:
    """The part of the tree a student needs this round: the path from ``root`` to every node
    in ``keep``, the siblings along that path, and ``keep`` with its children; every other
    subtree becomes one dashed box counting its leaves (``what`` names them)."""
    keep = [k for k in keep if k in nodes]
    path: set[int] = set()
    for k in keep:
        n = k
        while n is not None:
            path.add(n)
            n = nodes[n].parent
    shown = set(path) | {root}
    for n in list(path):
        shown.update(nodes[n].children)
    for k in keep:
        shown.update(nodes[k].children)

    def leaves(n: int) -> int:
        ch = nodes[n].children
        return 1 if not ch else sum(leaves(c) for c in ch)

    out: dict[int, Node] = {}
    for n in sorted(shown):
        src = nodes[n]
        expanded = n in path or n in keep or not src.children
        if expanded:
            kids = [c for c in src.children if c in shown]
            out[n] = Node(
                src.id,
                src.lines,
                src.parent,
                src.fill,
                src.shape,
                src.hot,
                src.edge_label,
                src.edge_hot,
                src.dashed,
                kids,
            )
        else:
            count = leaves(n)
            out[n] = Node(
                src.id,
                [src.lines[0], f"▸ {count} {what}"],
                src.parent,
                src.fill,
                "box",
                src.hot,
                src.edge_label,
                src.edge_hot,
                True,
                [],
            )
    return out


def local_view(
    nodes: dict[int, Node], root: int, node: int, *, up: int = 2, what: str = "leaves"
) -> tuple[dict[int, Node], int]:
    """The smallest useful picture of a change deep in a big tree: ``node``'s neighbourhood
    (:func:`neighbourhood`) cut ``up`` levels above it. The top node shown says how many
    levels it hides above; returns the nodes and the id of the top node."""
    chain = [node]
    while nodes[chain[-1]].parent is not None and len(chain) <= up:
        chain.append(nodes[chain[-1]].parent)
    top = chain[-1]
    hidden = 0
    n = nodes[top].parent
    while n is not None:
        hidden += 1
        n = nodes[n].parent
    near = neighbourhood(nodes, root, [node], what)
    below: set[int] = set()
    stack = [top]
    while stack:
        n = stack.pop()
        below.add(n)
        stack.extend(near[n].children)
    out = {n: near[n] for n in below}
    t = out[top]
    lines = list(t.lines) + (
        [f"▴ {hidden} level{'s' if hidden > 1 else ''} above"] if hidden else []
    )
    out[top] = Node(
        t.id, lines, None, t.fill, t.shape, t.hot, "", False, t.dashed, list(t.children)
    )
    return out, top


def tree_svg(
    nodes: dict[int, Node],
    root: int,
    *,
    font: float = FONT,
    hgap: float = 8,
    vgap: float | None = None,
    title: str = "",
) -> str:
    """Lay out ``nodes`` (children lists filled) as a tidy tree and return an SVG string whose
    ``width``/``height`` are its natural size in pixels at ``font`` px text."""
    vgap = vgap if vgap is not None else font * 2.0
    # an ellipse's text needs more room at its sides than a box's
    sizes = {
        n: text_box(node.lines, font, pad=22 if node.shape == "ellipse" else 14)
        for n, node in nodes.items()
    }
    # a node is laid out at least as wide as the label of the edge into it, so that the
    # labels of sibling edges do not run into each other
    room = {
        n: max(sizes[n][0], text_width(node.edge_label, font, size=SMALL, pad=10))
        for n, node in nodes.items()
    }
    lay = tidy_layout(
        {n: node.children for n, node in nodes.items()},
        sizes,
        room,
        root,
        top=(font * 1.4 if title else 0) + 4,
        hgap=hgap,
        vgap=vgap,
    )
    x, y_top, depth, order = lay.x, lay.y_top, lay.depth, lay.order
    width, height = lay.width, lay.height

    # A title wider than the tree was cut at the tree's width: it wraps before its
    # parenthesis onto a second line, and if a line is still wider than the tree the picture
    # widens with the tree in the middle (bold text: BOLD times as wide as plain text).
    titles = split_title(title, width, font, widen=BOLD, pad=8)
    if len(titles) > 1:
        y_top = [v + font * 1.2 for v in y_top]
        height += font * 1.2
    title_w = widest(titles, font, widen=BOLD, pad=8)
    if title_w > width:
        dx = (title_w - width) / 2
        x = {n: v + dx for n, v in x.items()}
        width = title_w

    hot = theme.HIGHLIGHT
    # Styles scoped to this picture's class (an inline SVG's <style> applies to the whole
    # page): the per-element attributes they replace are most of a picture's bytes.
    style = (
        f".bt text{{text-anchor:middle}}.bt .t{{text-anchor:start;font-weight:600}}"
        f".bt .b{{font-weight:600}}.bt .e{{stroke:{EDGE};stroke-width:1.1}}"
        f".bt .eh{{stroke:{hot};stroke-width:2.2}}"
        f".bt .l{{font-size:{font * SMALL:.1f}px;fill:{LABEL}}}.bt .lh{{fill:{LABEL_HOT}}}"
        f".bt .lb{{fill:#fff;opacity:{LABEL_PLATE}}}.bt .n{{stroke:{NODE_LINE};stroke-width:1}}"
        f".bt .h{{stroke:{hot};stroke-width:3}}.bt .d{{stroke-dasharray:4 3}}"
    )
    parts = [f"<style>{style}</style>"]
    for i, line in enumerate(titles):
        parts.append(text_tag(line, 4, font * (1 + 1.2 * i), cls="t"))
    # edges first, under the nodes
    for n in order:
        node = nodes[n]
        if node.parent is None or node.parent not in nodes or n == root:
            continue
        p = node.parent
        x0, y0 = x[p], y_top[depth[p]] + sizes[p][1]
        x1, y1 = x[n], y_top[depth[n]]
        cls = "eh" if node.edge_hot else "e"
        parts.append(
            f'<line class="{cls}" x1="{x0:.0f}" y1="{y0:.0f}" x2="{x1:.0f}" y2="{y1:.0f}"/>'
        )
        if node.edge_label:
            # just above the child, where siblings are a node's width apart (at the edge's
            # middle they are only half that, and their labels would run into each other)
            lx = x0 + 0.85 * (x1 - x0)
            ly = y0 + 0.85 * (y1 - y0) + font * 0.2
            parts.append(
                plate_label(
                    node.edge_label,
                    lx,
                    ly,
                    font,
                    size=SMALL,
                    pad=4,
                    top=0.96,
                    height=1.1,
                    plate_cls="lb",
                    cls="l lh" if node.edge_hot else "l",
                )
            )
    for n in order:
        node = nodes[n]
        w, h = sizes[n]
        cx, ty = x[n], y_top[depth[n]]
        cls = ("h" if node.hot else "n") + (" d" if node.dashed else "")
        if node.shape == "ellipse":
            parts.append(
                f'<ellipse class="{cls}" cx="{cx:.1f}" cy="{ty + h / 2:.1f}" '
                f'rx="{w / 2:.1f}" ry="{h / 2:.1f}" fill="{node.fill}"/>'
            )
        else:
            parts.append(
                f'<rect class="{cls}" x="{cx - w / 2:.1f}" y="{ty:.1f}" '
                f'width="{w:.1f}" height="{h:.1f}" rx="5" fill="{node.fill}"/>'
            )
        for i, line in enumerate(node.lines):
            parts.append(text_tag(line, cx, baseline(ty, i, font), cls="b" if i == 0 else ""))
    return document(width, height, font, parts, cls="bt")
