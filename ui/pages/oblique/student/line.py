"""The student's line on /oblique: from the two ends of a drag or from an angle and an offset,
clipped to the view, turned so that its side ``LS ≥ 0`` holds more of the +1 weight, and
written out (its equation in the data's feature names, a score's number)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np


# ------------------------------------------------------------------------------ geometry
def line_from_points(a, b, centre) -> tuple[float, float] | None:
    """The line through ``a`` and ``b`` as ``(θ in degrees, offset from centre)``: its normal
    ``(cos θ, sin θ)`` points to the right-hand side of the way from ``a`` to ``b`` (the side
    ``LS ≥ 0``, the right child), the offset is the signed distance of the line from
    ``centre`` along the normal. ``None`` if ``a`` and ``b`` coincide.

    >>> line_from_points((0.0, 0.0), (0.0, 1.0), (0.0, 0.0))  # upwards: right is +x
    (0.0, 0.0)
    >>> theta, d = line_from_points((0.0, 1.0), (1.0, 1.0), (0.0, 0.0))  # rightwards
    >>> round(theta, 6), round(d, 6)
    (270.0, -1.0)
    """
    a, b, c = (np.asarray(p, dtype=float) for p in (a, b, centre))
    t = b - a
    length = float(np.hypot(*t))
    if not length > 0 or not math.isfinite(length):
        return None
    n = np.array([t[1], -t[0]]) / length
    theta = math.degrees(math.atan2(n[1], n[0])) % 360.0
    return theta, float(n @ (a - c))


def line_of(theta: float, offset: float, centre) -> tuple[tuple[float, float], float]:
    """``((cos θ, sin θ), b)``: the line at angle θ (degrees) and signed distance ``offset``
    from ``centre``, as :func:`boostcore.oblique.line_separator` takes it
    (``cos θ·x₁ + sin θ·x₂ + b ≥ 0`` goes right)."""
    r = math.radians(theta)
    n = (math.cos(r), math.sin(r))
    b = -(n[0] * float(centre[0]) + n[1] * float(centre[1])) - float(offset)
    return n, b


def clip(direction, b: float, lo, hi) -> tuple[list[float], list[float]]:
    """The segment of ``direction·x + b = 0`` inside the box ``lo … hi``."""
    (p, q), pts = direction, []
    for x in (lo[0], hi[0]):
        if abs(q) > 1e-12:
            y = -(p * x + b) / q
            if lo[1] - 1e-9 <= y <= hi[1] + 1e-9:
                pts.append((x, y))
    for y in (lo[1], hi[1]):
        if abs(p) > 1e-12:
            x = -(q * y + b) / p
            if lo[0] - 1e-9 <= x <= hi[0] + 1e-9:
                pts.append((x, y))
    if len(pts) < 2:
        return [], []
    pts.sort()
    return [pts[0][0], pts[-1][0]], [pts[0][1], pts[-1][1]]


def with_edge(
    theta: float, offset: float, mu_of: Callable[[float, float], float]
) -> tuple[float, float]:
    """The same line turned so that its side ``LS ≥ 0`` holds more of the +1 weight
    (``μ ≥ 0``): ``(θ + 180°, −offset)`` when ``mu_of(θ, offset) < 0``, else unchanged.

    A drag sets the line, not which side is which: without this, dragging the same line
    top-to-bottom instead of bottom-to-top gave a negative μ and put "LS ≥ 0" on the side
    the student did not mean (issue 25, item 10). The tree is the same either way (each
    child gets its own constant); only the weak hypothesis's sign, and so μ, flips.

    Parameters
    ----------
    theta, offset : float
        The line (:func:`line_of`).
    mu_of : callable
        μ of the line ``(θ, offset)`` on the node's weights.

    Returns
    -------
    tuple of float
        ``(θ, offset)`` with ``μ ≥ 0``, θ in [0°, 360°).

    Examples
    --------
    >>> with_edge(30.0, 0.5, lambda t, o: -0.2)
    (210.0, -0.5)
    >>> with_edge(30.0, 0.5, lambda t, o: 0.2)
    (30.0, 0.5)
    """
    if mu_of(theta, offset) < 0:
        return (theta + 180.0) % 360.0, -offset
    return theta, offset


def fmt(x: float | None) -> str:
    return f"{x:.4g}" if x is not None and math.isfinite(x) else "—"


def equation(direction, b: float, names: Sequence[str]) -> str:
    """``0.866·x₁ + 0.5·x₂ − 0.31 = 0`` with the data's feature names (plain text)."""
    terms = []
    for w, name in zip(direction, names):
        if abs(w) < 5e-4:
            continue
        sign = "−" if w < 0 else "+"
        terms.append(f"{sign} {abs(w):.3f}·{name[:14]}")
    if abs(b) >= 5e-4 or not terms:
        terms.append(f"{'−' if b < 0 else '+'} {abs(b):.3g}")
    text = " ".join(terms)
    text = text[2:] if text.startswith("+ ") else "−" + text[2:]
    return text + " = 0"
