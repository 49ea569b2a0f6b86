"""A link's numbers as the cards print them: :func:`fmt` (4 significant digits in Unicode),
:func:`fmt_slack`, :func:`equal_up_to_rounding` (:data:`ROUNDING_TOL`) and
:func:`shown_relation`, the relation between the two printed values.
"""

from __future__ import annotations

import math

from .chain import EQUAL_TOL, Link

#: Two values closer than this, relative to the larger, are "equal up to rounding" on the
#: card: :func:`fmt` shows 4 significant digits, so a relative difference of 10⁻⁵ never shows
#: in the values (e.g. /oblique's Σ 2√(w⁺w⁻) = E e^−yH, off by ~2×10⁻⁶ where a one-class leaf's
#: μ is clipped); the slack column says so rather than print ``+4.38×10⁻⁷`` (issue 25).
ROUNDING_TOL = 1e-5
ROUNDING_TEXT = "equal up to rounding"
#: The compact card's slack column for such values (the words go to the line's reason).
ROUNDING_SHORT = "≈ 0"

# =============================================================================== numbers
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt(value: float | None, digits: int = 4) -> str:
    """A number with ``digits`` significant digits in Unicode (``−``, ``×10⁻⁶`` exponents).

    Parameters
    ----------
    value : float or None
        ``None`` and ``nan`` give ``"—"`` (undefined at this round).
    digits : int, default 4
        Significant digits (trailing zeros dropped, as ``%g`` does).

    Returns
    -------
    str

    Examples
    --------
    >>> from ui.proof import fmt
    >>> fmt(0.20661), fmt(-0.0031), fmt(1.4e-06), fmt(0.0), fmt(float("nan"))
    ('0.2066', '−0.0031', '1.4×10⁻⁶', '0', '—')
    >>> fmt(0.06565, digits=3), fmt(1.23456e-5, digits=3)
    ('0.0657', '1.23×10⁻⁵')
    """
    if not (isinstance(digits, int) and digits >= 1):
        raise ValueError(f"digits must be an integer ≥ 1; got {digits!r}")
    if value is None or math.isnan(float(value)):
        return "—"
    v = float(value)
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if v == 0:
        return "0"
    s = f"{v:.{digits}g}"
    if "e" in s:
        mant, exp = s.split("e")
        s = f"{mant}×10{str(int(exp)).translate(_SUPERSCRIPT)}"
    return s.replace("-", "−")


def equal_up_to_rounding(lk: Link) -> bool:
    """Whether a link's two values differ, but by less than :data:`ROUNDING_TOL` of the larger.

    Such values print the same at the card's 4 significant digits, so ``0.2066 ≠ 0.2066``
    with a slack of ``+4.38×10⁻⁷`` would only puzzle a class: the card says "equal up to
    rounding" instead (issue 25; the exact slack stays in the line's reason). Values equal to
    :data:`EQUAL_TOL` are not "up to rounding": their slack is ``0``.

    Parameters
    ----------
    lk : Link

    Returns
    -------
    bool

    Examples
    --------
    >>> from ui.proof import equal_up_to_rounding, link
    >>> equal_up_to_rounding(link("a", "=", "b", 0.2066, 0.2066 + 4.4e-7))
    True
    >>> equal_up_to_rounding(link("a", "=", "b", 0.3, 0.3)), equal_up_to_rounding(
    ...     link("a", "≤", "b", 0.2, 0.2001))
    (False, False)
    """
    s, scale = lk.slack, max(abs(lk.left), abs(lk.right))
    if not math.isfinite(s) or abs(s) <= EQUAL_TOL * max(1.0, scale):
        return False
    return abs(s) <= ROUNDING_TOL * scale


def fmt_slack(lk: Link) -> str:
    """A link's slack with its sign, 3 significant digits (``+0.153``, ``−0.00123``).

    ``0`` when the values are equal (to :data:`EQUAL_TOL`), ``"equal up to rounding"`` when
    they differ by less than :data:`ROUNDING_TOL` of the larger (:func:`equal_up_to_rounding`).
    Three digits everywhere, so a column of slacks reads as one format (issue 25).

    Parameters
    ----------
    lk : Link

    Returns
    -------
    str

    Examples
    --------
    >>> from ui.proof import fmt_slack, link
    >>> fmt_slack(link("a", "≤", "b", 0.05, 0.2)), fmt_slack(link("a", "=", "b", 0.3, 0.3))
    ('+0.15', '0')
    >>> fmt_slack(link("a", "≤", "b", 0.3, 0.3001625)), fmt_slack(link("a", "≤", "b", 0.5, 0.4))
    ('+0.000163', '−0.1')
    >>> fmt_slack(link("a", "=", "b", 0.448, 0.448 + 4.447e-8))
    'equal up to rounding'
    """
    s = lk.slack
    if not math.isfinite(s):
        return "—"
    if abs(s) <= EQUAL_TOL * max(1.0, abs(lk.left), abs(lk.right)):
        return "0"
    if equal_up_to_rounding(lk):
        return ROUNDING_TEXT
    return ("+" if s > 0 else "") + fmt(s, digits=3)


def _violated(rel: str) -> str:
    return "≠" if rel == "=" else ">"


def shown_relation(lk: Link) -> str:
    """The relation between a link's two printed values: its own when this run's values
    satisfy it, ``≈`` when they miss it by less than rounding, else ``≠`` or ``>``."""
    if lk.observed:
        return lk.relation
    return "≈" if equal_up_to_rounding(lk) else _violated(lk.relation)
