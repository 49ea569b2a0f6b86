"""One colour-blind-safe palette (Okabe & Ito, 2008) used by every figure and diagram.

Classes always have the same two colours; *measured* quantities are solid lines and
*bounds* are dashed lines in warm colours, on every page.
"""

CLASS_NEG = "#E69F00"  # orange: class −1
CLASS_POS = "#0072B2"  # blue: class +1

MEASURED = {
    "index": "#009E73",  # bluish green: I(T)
    "train": "#000000",  # black: training error
    "test": "#CC79A7",  # reddish purple: test error
}
BOUND = {
    "e": "#D55E00",  # vermillion: e_γ(n)
    "power": "#E69F00",  # orange: n^-γ
    "final": "#8B0000",  # dark red: s^-γ (final tree)
    "mm": "#56B4E9",  # sky blue: Mansour–McAllester e_γ(|T|) with the user's γ
    "phi": "#CC79A7",  # reddish purple: Hatano's game value φ_γ (the proof's tighter bound)
}
HIGHLIGHT = "#D55E00"
NEUTRAL = "#999999"

#: Diverging scale from class −1 (orange) through white to class +1 (blue) for q̂ = P(+1).
REGION_SCALE = [[0.0, "#F9DDA8"], [0.5, "#FFFFFF"], [1.0, "#B3D3EC"]]


def mix(q: float) -> str:
    """Hex colour between the class colours (pale), for a leaf whose positive fraction is q."""
    neg = (0xF9, 0xDD, 0xA8)
    pos = (0xB3, 0xD3, 0xEC)
    white = (0xFF, 0xFF, 0xFF)
    if q >= 0.5:
        a, b, t = white, pos, (q - 0.5) * 2
    else:
        a, b, t = white, neg, (0.5 - q) * 2
    rgb = tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))
    return "#{:02X}{:02X}{:02X}".format(*rgb)
