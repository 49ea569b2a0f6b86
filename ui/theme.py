"""One colour-blind-safe palette (Okabe & Ito, 2008) used by every figure and diagram, and the
WCAG 2.x contrast arithmetic that keeps it readable.

Classes always have the same two colours and the same two marker shapes (class −1 a diamond,
class +1 a circle); *measured* quantities are solid lines and *bounds* are dashed lines in warm
colours, on every page.

Contrast (issue 26, item 4; WCAG 1.4.3 and 1.4.11): every line and marker here is at least
:data:`GRAPHIC_MIN` : 1 against the white plot it is drawn on, and text in a palette colour is
drawn in :func:`ink` of it, the same hue darkened to :data:`TEXT_MIN` : 1. Where an
Okabe–Ito hue cannot reach 3 : 1 and stay recognisable (orange, sky blue, grey), the palette
holds the darker shade of the same hue. ``tests/ui/test_contrast.py`` checks every pair.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: WCAG 2.x 1.4.3: text (below 18 pt, or 14 pt bold) against its background.
TEXT_MIN = 4.5
#: WCAG 2.x 1.4.11: graphical objects (lines, markers, outlines) against what they sit on.
GRAPHIC_MIN = 3.0

#: The background of every plot and structure (a white card in the dark theme as well).
PLOT_BG = "#FFFFFF"
#: Text of the charts drawn by Streamlit (ticks, axis titles, legends): near-black, so
#: Streamlit's faded template grey (3.72 : 1 on white) never applies.
CHART_TEXT = "#31333F"

# The class colours. Class −1's Okabe–Ito orange fill is only 1.7 : 1 on its own pale region,
# so its markers carry a dark outline of the same hue (CLASS_NEG_EDGE); a hollow (test)
# marker of class −1 is drawn in that dark shade, its outline being all there is of it.
CLASS_NEG = "#E69F00"  # orange: class −1 (marker fill, legend)
CLASS_POS = "#0072B2"  # blue: class +1
CLASS_NEG_EDGE = "#8F6300"  # dark orange: class −1's marker outline and hollow markers
CLASS_POS_EDGE = "#FFFFFF"  # class +1's blue is 3.3 : 1 on its region: a white rim parts markers

#: Plotly ``marker.line`` of each class's filled markers (label −1 and +1).
MARKER_LINE = {
    -1: {"color": CLASS_NEG_EDGE, "width": 1.0},
    1: {"color": CLASS_POS_EDGE, "width": 0.5},
}
#: Colour of each class's hollow (test-point) markers: their line is all of them.
HOLLOW = {-1: CLASS_NEG_EDGE, 1: CLASS_POS}

MEASURED = {
    "index": "#009E73",  # bluish green: I(T)
    "train": "#000000",  # black: training error
    "test": "#CC79A7",  # reddish purple: test error
}
BOUND = {
    "e": "#D55E00",  # vermillion: e_γ(n)
    "power": "#B97F00",  # dark orange (Okabe–Ito's #E69F00 is 2.25 : 1 on white): n^-γ
    "final": "#8B0000",  # dark red: s^-γ (final tree)
    "mm": "#3B8DC2",  # dark sky blue (#56B4E9 is 2.31 : 1): Mansour–McAllester e_γ(|T|)
    "phi": "#CC79A7",  # reddish purple: Hatano's game value φ_γ (the proof's tighter bound)
}
#: This round's change (split lines on the regions, outlines, its labels): Okabe–Ito's
#: vermillion #D55E00 darkened so that it is text on white (4.98 : 1) and a line on either
#: pale region (3.2 : 1; #D55E00 was 3.87, 2.48 and 2.93).
HIGHLIGHT = "#B85100"
NEUTRAL = "#8A8A8A"  # grey lines and bars (#999999 was 2.85 : 1)

#: Lines of the bounds explorer and the benchmark, one colour each (Okabe–Ito order, with the
#: orange and sky blue of :data:`BOUND` so that every one is a graphic on white).
LINES = [
    "#000000",
    CLASS_POS,
    MEASURED["index"],
    BOUND["e"],
    MEASURED["test"],
    BOUND["power"],
    BOUND["mm"],
]

#: The pale decision regions: fully class −1, fully class +1 (opaque over the white plot).
REGION_NEG = "#F9DDA8"
REGION_POS = "#B3D3EC"
#: Diverging scale from class −1 (orange) through white to class +1 (blue) for q̂ = P(+1).
REGION_SCALE = [[0.0, REGION_NEG], [0.5, "#FFFFFF"], [1.0, REGION_POS]]


# ------------------------------------------------------------------------------ contrast
_HEX = re.compile(r"#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_FUNC = re.compile(r"rgba?\(\s*([^)]*)\)")
_NAMED = {"white": "#FFFFFF", "black": "#000000"}


def rgba(colour: str) -> tuple[float, float, float, float]:
    """A CSS colour as red, green, blue in 0–255 and alpha in 0–1.

    Parameters
    ----------
    colour : str
        ``#rgb``, ``#rgba``, ``#rrggbb``, ``#rrggbbaa``, ``rgb(r, g, b)``,
        ``rgba(r, g, b, a)``, ``white`` or ``black``.

    Returns
    -------
    tuple of float

    Raises
    ------
    ValueError
        For any other text.

    Examples
    --------
    >>> rgba("#0072B2")
    (0.0, 114.0, 178.0, 1.0)
    >>> rgba("rgba(0,158,115,0.14)")
    (0.0, 158.0, 115.0, 0.14)
    """
    text = _NAMED.get(colour.strip().lower(), colour.strip())
    if m := _HEX.fullmatch(text):
        h = m.group(1)
        if len(h) in (3, 4):
            h = "".join(c * 2 for c in h)
        r, g, b = (float(int(h[i : i + 2], 16)) for i in (0, 2, 4))
        a = int(h[6:8], 16) / 255 if len(h) == 8 else 1.0
        return r, g, b, a
    if m := _FUNC.fullmatch(text):
        parts = [p.strip() for p in m.group(1).split(",")]
        if len(parts) in (3, 4):
            r, g, b = (float(p) for p in parts[:3])
            a = float(parts[3]) if len(parts) == 4 else 1.0
            return r, g, b, a
    raise ValueError(f"not a colour this module reads: {colour!r}")


def hex_colour(r: float, g: float, b: float) -> str:
    """``#RRGGBB`` of 0–255 channels (rounded, clipped)."""
    return "#{:02X}{:02X}{:02X}".format(*(min(255, max(0, round(c))) for c in (r, g, b)))


def composite(fg: str, bg: str = PLOT_BG) -> str:
    """The opaque colour seen where ``fg`` (possibly translucent) is painted over ``bg``
    (itself composited over white when translucent): ``a·fg + (1 − a)·bg`` per channel in
    sRGB, as browsers blend.

    Examples
    --------
    >>> composite("rgba(0,0,0,0.5)", "#FFFFFF")
    '#808080'
    """
    *f, a = rgba(fg)
    *b, ab = rgba(bg)
    if ab < 1.0:
        b = list(rgba(composite(bg, "#FFFFFF"))[:3])
    return hex_colour(*(a * fc + (1 - a) * bc for fc, bc in zip(f, b, strict=True)))


def luminance(colour: str) -> float:
    """WCAG 2.x relative luminance of an opaque colour (0 black – 1 white).

    Each sRGB channel ``c`` in 0–1 is linearised (``c/12.92`` up to 0.04045, else
    ``((c + 0.055)/1.055)^2.4``) and weighted 0.2126 R + 0.7152 G + 0.0722 B. A translucent
    colour is taken over white (use :func:`composite` for another background).
    """
    r, g, b, a = rgba(colour)
    if a < 1.0:
        r, g, b, _ = rgba(composite(colour, "#FFFFFF"))

    def lin(c: float) -> float:
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(fg: str, bg: str = PLOT_BG) -> float:
    """WCAG 2.x contrast ratio of ``fg`` drawn on ``bg``: ``(L₁ + 0.05)/(L₂ + 0.05)`` with
    ``L₁`` the lighter relative luminance, from 1 (same) to 21 (black on white).

    A translucent ``fg`` is first composited over ``bg`` (what the eye sees), a translucent
    ``bg`` over white.

    Parameters
    ----------
    fg, bg : str
        CSS colours (see :func:`rgba`).

    Returns
    -------
    float

    Examples
    --------
    >>> round(contrast("#000000", "#FFFFFF"), 2)
    21.0
    >>> round(contrast("#E69F00", "#FFFFFF"), 2)
    2.25
    """
    bg_opaque = composite(bg, "#FFFFFF") if rgba(bg)[3] < 1.0 else bg
    fg_opaque = composite(fg, bg_opaque)
    hi, lo = sorted((luminance(fg_opaque), luminance(bg_opaque)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@lru_cache(maxsize=256)
def ink(colour: str, *backgrounds: str, ratio: float = TEXT_MIN) -> str:
    """The text shade of a palette colour: ``colour`` itself when it is at least ``ratio`` : 1
    on every background, else the same hue darkened (every sRGB channel scaled by one
    factor, which keeps hue and saturation) just enough.

    Curves are named by labels in their own colour; a label is text, and needs 4.5 : 1 where
    its line needs only 3 : 1 — the darker shade keeps it recognisably the curve's colour.

    Parameters
    ----------
    colour : str
        An opaque colour.
    *backgrounds : str
        What the text is drawn on (default the white plot, :data:`PLOT_BG`).
    ratio : float, default :data:`TEXT_MIN`

    Returns
    -------
    str
        ``#RRGGBB``.

    Examples
    --------
    >>> ink("#000000")
    '#000000'
    >>> round(contrast(ink("#E69F00"), "#FFFFFF"), 2) >= 4.5
    True
    """
    bgs = backgrounds or (PLOT_BG,)
    r, g, b, _ = rgba(colour)
    for step in range(201):  # 0.5 % at a time: at most 100 %, which is black (21 : 1 on white)
        k = 1.0 - step / 200
        out = hex_colour(r * k, g * k, b * k)
        if all(contrast(out, bg) >= ratio for bg in bgs):
            return out if step else hex_colour(r, g, b)
    raise ValueError(f"no shade of {colour} reaches {ratio} : 1 on {bgs}")  # a dark background


def mix(q: float) -> str:
    """Hex colour between the class colours (pale), for a leaf whose positive fraction is q."""
    neg, pos = rgba(REGION_NEG)[:3], rgba(REGION_POS)[:3]
    white = (255.0, 255.0, 255.0)
    if q >= 0.5:
        a, b, t = white, pos, (q - 0.5) * 2
    else:
        a, b, t = white, neg, (0.5 - q) * 2
    return hex_colour(*(round(a[i] + (b[i] - a[i]) * t) for i in range(3)))
