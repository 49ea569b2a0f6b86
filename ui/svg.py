"""The structure pictures' SVG engine: the layer every lesson's structure picture is drawn on.

A lesson's structure view is an SVG picture drawn here in Python at a fixed text size, one
per round (and per level of detail: the browser shows the first of a round's pictures that
fits its panel, so text never shrinks; a less detailed picture comes instead). Each lesson
places its own boxes — a tidy tree (``ui/svgtree.py`` for topdown and the game, oblique's
``frames/structure.py`` with a mini-plot in a node), a layered program (branching's
``frames/program.py``), dolls nested in boxes (matryoshka's ``frames/drawing.py``) — and all
of them are built from what this module holds, once:

* the fonts and the text-width estimate every layout sizes its boxes by (:class:`Face`,
  :data:`HELVETICA`, :data:`SOURCE_SANS`, :func:`text_width`, :func:`widest`,
  :func:`chars_in`): there is no browser to measure text in when a picture is drawn; a box
  of text lines' size and its lines' baselines (:func:`text_box`, :func:`baseline`);
* the SVG document (:func:`document`) and its text (:func:`text_tag`), an edge's label on a
  white plate (:func:`plate_label`), a footer's words in lines (:func:`wrap`) and a title
  too wide for its picture in two lines (:func:`split_title`);
* the layered "tidy" layout of a tree (:func:`tidy_layout`, :class:`Layout`);
* a picture's natural size and the pictures the browser may pick from (:func:`svg_size`,
  :func:`fits`, :func:`choose`, :func:`choosable`).

Every string that reaches a picture is escaped by :func:`text_tag` (and so by
:func:`plate_label`): feature names may come from a CSV. Numbers are written with as many
decimals as each drawer always wrote (``digits``): the pictures are sent for every round, so
their bytes count, and a drawer's output does not change with this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

FONT = 13  # px; at least plotly's tick labels (12 px) so the structure reads as the plots do
CHAR = 0.58  # average character width as a fraction of the font size (Helvetica-like)
#: A box's lines of text are this many fonts apart (:func:`text_box`, :func:`baseline`).
LINE = 1.2
#: Bold text is estimated this much wider than plain text (a title's lines).
BOLD = 1.1
#: An edge label's text size, a fraction of the picture's font (a tree's labels are set a
#: little smaller than its nodes' text).
SMALL = 0.96
#: Edges and node outlines, graphics on the white card (3 : 1 on white, tests/ui/test_contrast.py).
EDGE = "#777777"
NODE_LINE = "#555555"

#: A picture at most this large fits every panel: less detailed ones after it are not needed.
FIT_W, FIT_H = 320, 280
#: Structure panels (width, height in px) of the layouts the page is made for — 1440×900 with
#: the sidebar, 1920×1080 without, presenter mode at 1280×720 and 1920×1080 — and a large
#: window: :func:`choose` keeps the most detailed picture that fits each of them.
PANELS = ((960, 1000), (666, 716), (520, 750), (432, 356), (347, 580), (FIT_W, FIT_H))


# ----------------------------------------------------------------------------- text widths
@dataclass(frozen=True)
class Face:
    """A font a picture names, and how wide its text is estimated to be.

    Attributes
    ----------
    family : str
        The SVG's ``font-family`` list, the first choice first.
    char : float
        A character's advance width as a fraction of the font size: every character's when
        ``advances`` is empty, else that of a character it does not list.
    advances : Mapping[str, float]
        Measured advance widths (em) of single characters; empty: every one is ``char``.
    slack : float
        A factor on a measured (``advances``) estimate, to err on the wide side.
    """

    family: str
    char: float
    advances: Mapping[str, float] = field(default_factory=dict)
    slack: float = 1.0


#: The structure pictures' font: Helvetica or Arial, one average width for every character.
HELVETICA = Face("Helvetica, Arial, sans-serif", CHAR)
#: The page's own font, Source Sans at weight 600 (Streamlit serves it, so the lecture view
#: always has it), measured per character, estimated 5 % generous. A file saved from the
#: Export menu falls back to Helvetica/Arial, which are wider (a drawer widens for that).
SOURCE_SANS = Face(
    "'Source Sans', 'Source Sans Pro', Helvetica, Arial, sans-serif",
    0.6,
    {
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
    },
    1.05,
)


def text_width(
    text: str,
    font: float,
    *,
    size: float = 1.0,
    widen: float = 1.0,
    pad: float = 0.0,
    face: Face = HELVETICA,
) -> float:
    """The estimated width in px of ``text`` set in ``face`` at ``font`` px, plus ``pad``.

    Parameters
    ----------
    text : str
        The text, as it will be drawn (before escaping).
    font : float
        The picture's font size in px.
    size : float, default=1.0
        The text's own size as a fraction of ``font`` (an edge label: :data:`SMALL`).
    widen : float, default=1.0
        A factor for text wider than the face's plain text: bold (:data:`BOLD`), or a wider
        fallback font.
    pad : float, default=0.0
        Added to the width (a box's inner margins, a plate's).
    face : Face, default=HELVETICA
        The font whose widths are estimated.

    Returns
    -------
    float
        ``len(text) × font × size × face.char × widen + pad``, or with ``advances`` the sum
        of the characters' widths for ``len(text) × face.char`` and ``face.slack`` for
        ``face.char`` (the factors in this order: the pictures' sizes depend on it).

    Examples
    --------
    >>> text_width("abc", 10)
    17.4
    >>> round(text_width("w 1", 10, face=SOURCE_SANS), 2)  # (0.75 + 0.2 + 0.51) × 10 × 1.05
    15.33
    """
    if not face.advances:
        return len(text) * font * size * face.char * widen + pad
    em = sum(face.advances.get(ch, face.char) for ch in text)
    return em * font * size * face.slack * widen + pad


def widest(
    texts: Iterable[str],
    font: float,
    *,
    size: float = 1.0,
    widen: float = 1.0,
    pad: float = 0.0,
    face: Face = HELVETICA,
    default: float = 0.0,
) -> float:
    """The largest :func:`text_width` of ``texts`` (same parameters), ``default`` for none.

    >>> widest(["ab", "abcd", "a"], 10, pad=4)
    27.2
    >>> widest([], 10, default=5.0)
    5.0
    """
    return max(
        (text_width(t, font, size=size, widen=widen, pad=pad, face=face) for t in texts),
        default=default,
    )


def text_box(
    lines: Sequence[str], font: float, *, pad: float = 14.0, default: float | None = None
) -> tuple[float, float]:
    """The size of a box holding ``lines`` of text (:data:`HELVETICA`) at ``font`` px: its
    widest line plus ``pad`` (a box's inner margins), at least 2.4 fonts wide (a short
    label's box stays a box); :data:`LINE` fonts a line plus 10 px margins high. ``default``
    is the width of an empty box's text (one character: ``font × CHAR``).

    >>> text_box(["#3", "P 0.50"], 10)
    (48.8, 34.0)
    """
    w = widest(lines, font, default=font * CHAR if default is None else default) + pad
    return max(w, 2.4 * font), len(lines) * font * LINE + 10


def baseline(top: float, i: int, font: float, *, inset: float = 5.0, ascent: float = 0.95) -> float:
    """The baseline of line ``i`` (from 0) of a box's text: ``inset`` px below the box's
    ``top``, then ``ascent`` fonts (the first line's) and :data:`LINE` fonts a line.

    >>> baseline(100, 1, 10)
    126.5
    """
    return top + inset + font * (LINE * i + ascent)


def chars_in(width: float, font: float, *, face: Face = HELVETICA) -> int:
    """How many average characters of ``face`` at ``font`` px fit in ``width`` px (the
    inverse of :func:`text_width`, for :func:`wrap`).

    >>> chars_in(300, 13)
    39
    """
    return int(width / (font * face.char))


# -------------------------------------------------------------------------------- elements
def document(
    width: float,
    height: float,
    font: float,
    body: Iterable[str],
    *,
    face: Face = HELVETICA,
    cls: str = "",
    attrs: str = "",
) -> str:
    """An SVG picture: ``body`` (SVG fragments, already escaped) at its natural size.

    Parameters
    ----------
    width, height : float
        The picture's natural size in px (its ``width``, ``height`` and ``viewBox``, rounded
        to whole pixels): the browser reads it (:func:`svg_size`) to pick a picture.
    font : float
        The text size in px of every text that does not set its own.
    body : iterable of str
        The fragments, in drawing order.
    face : Face, default=HELVETICA
        The font the picture names.
    cls : str, default=""
        A class on the ``<svg>`` element (its ``<style>`` scoped to it).
    attrs : str, default=""
        More attributes of the ``<svg>`` element (``' text-anchor="middle"'``).

    Returns
    -------
    str
        The ``<svg>`` element.

    Examples
    --------
    >>> pic = document(120.4, 30, 13, ["<rect/>"])
    >>> pic[: pic.index("font-family")]
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30" viewBox="0 0 120 30" '
    >>> pic[pic.index("font-family") :]
    'font-family="Helvetica, Arial, sans-serif" font-size="13"><rect/></svg>'
    """
    cls = f' class="{cls}"' if cls else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{cls} width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="{face.family}" font-size="{font:.0f}"{attrs}>' + "".join(body) + "</svg>"
    )


def text_tag(
    content: str,
    x: float | None = None,
    y: float | None = None,
    *,
    cls: str = "",
    attrs: str = "",
    digits: int = 0,
    tag: str = "text",
) -> str:
    """A text element holding ``content`` escaped: ``<text class x y …>content</text>``.

    Parameters
    ----------
    content : str
        The text (any string: a feature name from a CSV is safe here).
    x, y : float, optional
        Its position (left out when ``None``: a ``<tspan>`` takes its row's ``y``).
    cls : str, default=""
        Its class, written first.
    attrs : str, default=""
        More attributes, written after ``x`` and ``y`` (``' font-weight="600"'``).
    digits : int, default=0
        Decimals of ``x`` and ``y``.
    tag : str, default="text"
        The element (``"tspan"``).

    Returns
    -------
    str
        The element.

    Examples
    --------
    >>> text_tag("<b>x</b> & y", 4, 12.6)
    '<text x="4" y="13">&lt;b&gt;x&lt;/b&gt; &amp; y</text>'
    >>> text_tag("a", 3.25, cls="b", digits=1, tag="tspan")
    '<tspan class="b" x="3.2">a</tspan>'
    """
    at = f' class="{cls}"' if cls else ""
    if x is not None:
        at += f' x="{x:.{digits}f}"'
    if y is not None:
        at += f' y="{y:.{digits}f}"'
    return f"<{tag}{at}{attrs}>{escape(content)}</{tag}>"


def plate_label(
    label: str,
    x: float,
    y: float,
    font: float,
    *,
    size: float = 1.0,
    pad: float = 6.0,
    top: float = 0.6,
    height: float = 1.2,
    drop: float = 0.0,
    digits: int = 0,
    plate: str = "",
    ink: str = "",
    plate_cls: str = "",
    cls: str = "",
) -> str:
    """An edge's label centred at ``x`` on a white plate laid over the edge, so that it reads
    as text whatever the edge under it: the plate (a ``<rect>``), then the text.

    Parameters
    ----------
    label : str
        The label (escaped here).
    x, y : float
        The label's centre ``x`` and the point ``y`` the plate and the text are placed from.
    font : float
        The picture's font size in px.
    size : float, default=1.0
        The label's text size as a fraction of ``font`` (its width is estimated at it).
    pad : float, default=6.0
        How much wider than the text the plate is.
    top, height : float, default=0.6, 1.2
        The plate's top at ``y − top × font``, its height ``height × font``.
    drop : float, default=0.0
        The text's baseline at ``y + drop × font``.
    digits : int, default=0
        Decimals of the coordinates.
    plate, ink : str, default=""
        More attributes of the plate (``' fill="white"'``) and of the text (its fill).
    plate_cls, cls : str, default=""
        Classes of the plate and of the text (a picture that styles them in its ``<style>``).

    Returns
    -------
    str
        The plate and the text.

    Examples
    --------
    >>> plate_label("x<1", 50, 20, 10, plate=' fill="white"')
    '<rect x="38" y="14" width="23" height="12" fill="white"/><text x="50" y="20">x&lt;1</text>'
    """
    w = text_width(label, font, size=size, pad=pad)
    c = f' class="{plate_cls}"' if plate_cls else ""
    d = digits
    return (
        f'<rect{c} x="{x - w / 2:.{d}f}" y="{y - font * top:.{d}f}" width="{w:.{d}f}" '
        f'height="{font * height:.{d}f}"{plate}/>'
        + text_tag(label, x, y + font * drop, cls=cls, attrs=ink, digits=digits)
    )


def wrap(text: str, width: int) -> list[str]:
    """Words of ``text`` in lines of at most ``width`` characters (a longer word alone).

    >>> wrap("the quick brown fox jumps", 9)
    ['the quick', 'brown fox', 'jumps']
    """
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def split_title(
    title: str,
    room: float,
    font: float,
    *,
    widen: float = 1.0,
    pad: float = 0.0,
) -> list[str]:
    """A picture's title as its lines: none for no title; one, or two when it is wider than
    ``room`` px and has a parenthesis to break before (at presenter mode's 22 px "near this
    round's change (▸ = folded)" in one line set the picture's width and made it too wide for
    a panel). ``widen`` and ``pad`` as in :func:`text_width`.

    >>> split_title("near the change (▸ = folded)", 100, 13)
    ['near the change', '(▸ = folded)']
    >>> split_title("short (x)", 100, 13), split_title("", 100, 13)
    (['short (x)'], [])
    """
    if not title:
        return []
    if text_width(title, font, widen=widen, pad=pad) > room and " (" in title:
        head, rest = title.split(" (", 1)
        return [head, "(" + rest]
    return [title]


# ---------------------------------------------------------------------------- tidy layout
@dataclass
class Layout:
    """Where :func:`tidy_layout` put every node: its centre ``x``, the top of its row
    ``y_top[depth[n]]``, the nodes in depth-first ``order``, and the picture's size."""

    x: dict[int, float]
    y_top: list[float]
    depth: dict[int, int]
    order: list[int]
    width: float
    height: float


def tidy_layout(
    children: Mapping[int, Sequence[int]],
    sizes: Mapping[int, tuple[float, float]],
    room: Mapping[int, float],
    root: int,
    *,
    top: float,
    hgap: float,
    vgap: float,
) -> Layout:
    """A layered tidy layout: leaves side by side in order, each parent centred over its
    children (moved right, with its subtree, when it is wider than they are).

    Parameters
    ----------
    children : mapping of int to sequence of int
        Every node's children, in order (a leaf's: empty).
    sizes : mapping of int to (float, float)
        Every node's (width, height) in px.
    room : mapping of int to float
        The width each node takes in its row: at least its width (also its incoming edge
        label's, so that sibling labels do not run into each other).
    root : int
        The node at the top.
    top : float
        The first row's top (below a title).
    hgap, vgap : float
        The gaps between neighbours in a row and between rows.

    Returns
    -------
    Layout
        The nodes' places and the picture's size (4 px margins).
    """
    depth: dict[int, int] = {}
    order: list[int] = []

    def walk(n: int, d: int) -> None:
        depth[n] = d
        order.append(n)
        for c in children[n]:
            walk(c, d + 1)

    walk(root, 0)
    rows = max(depth.values()) + 1
    row_h = [0.0] * rows
    for n, d in depth.items():
        row_h[d] = max(row_h[d], sizes[n][1])
    y_top = [0.0] * rows
    for d in range(rows):
        y_top[d] = top
        top += row_h[d] + vgap
    height = top - vgap + 6

    def subtree(n: int) -> list[int]:
        out = [n]
        for c in children[n]:
            out += subtree(c)
        return out

    x: dict[int, float] = {}
    cursor = [4.0]

    def place(n: int) -> tuple[float, float]:
        """Place the subtree of n from cursor; return its left and right extent."""
        kids = children[n]
        w = room[n]
        if not kids:
            x[n] = cursor[0] + w / 2
            cursor[0] += w + hgap
            return x[n] - w / 2, x[n] + w / 2
        start = cursor[0]
        spans = [place(c) for c in kids]
        centre = (x[kids[0]] + x[kids[-1]]) / 2
        left = centre - w / 2
        if left < start:  # a wide parent over narrow children: shift the children right
            shift = start - left
            for m in subtree(n)[1:]:
                x[m] += shift
            cursor[0] += shift
            centre += shift
        x[n] = centre
        right = max(max(s[1] for s in spans), centre + w / 2)
        cursor[0] = max(cursor[0], right + hgap)
        return min(spans[0][0], centre - w / 2), right

    place(root)
    width = max(x[n] + sizes[n][0] / 2 for n in order) + 4
    return Layout(x, y_top, depth, order, width, height)


# ------------------------------------------------------------------ sizes and the choice
def svg_size(picture: str) -> tuple[float, float]:
    """The natural ``width`` and ``height`` (pixels) of a picture built by :func:`document`.

    >>> svg_size(document(120.4, 30, 13, []))
    (120.0, 30.0)
    """
    head = picture[: picture.index(">")]
    w = float(head.split('width="', 1)[1].split('"', 1)[0])
    h = float(head.split('height="', 1)[1].split('"', 1)[0])
    return w, h


def fits(picture: str, width: float = FIT_W, height: float = FIT_H) -> bool:
    """Whether ``picture`` fits a ``width`` × ``height`` panel at its natural size (by
    default every panel: no less detailed picture is needed after it)."""
    w, h = svg_size(picture)
    return w <= width and h <= height


def choose(pictures: Sequence[str], panels: Sequence[tuple[float, float]] = PANELS) -> list[str]:
    """Pictures from the most to the least detailed, cut down to what the browser may pick:
    for every typical panel size (:data:`PANELS`) the first picture that fits it, and the
    last picture (shown scaled down when nothing fits), in their order, without repeats."""
    sizes = [svg_size(p) for p in pictures]
    keep = {len(pictures) - 1}
    for W, H in panels:
        for i, (w, h) in enumerate(sizes):
            if w <= W and h <= H:
                keep.add(i)
                break
    out: list[str] = []
    for i in sorted(keep):
        if pictures[i] not in out:
            out.append(pictures[i])
    return out


def choosable(pictures: Iterable[str], *, slack: float = 0.5) -> list[str]:
    """Pictures from the most to the least detailed without those the browser could never
    pick (it shows the first that fits): one at least as large as an earlier one in both
    directions (within ``slack`` px) is left out."""
    out: list[str] = []
    sizes: list[tuple[float, float]] = []
    for picture in pictures:
        w, h = svg_size(picture)
        if any(w0 <= w + slack and h0 <= h + slack for w0, h0 in sizes):
            continue
        out.append(picture)
        sizes.append((w, h))
    return out
