"""The bounds explorer's closed forms as a script (its template: ``export.py.tmpl`` next to
this module; the shared templating is :mod:`ui.exports`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ui import exports
from ui.dataset_code import literal

#: The page as the script's header names it.
TITLE = "Bounds explorer page"
#: The papers the page follows (the header's ``Paper:`` line; continuation lines are comments).
PAPER = (
    "E. Grossmann (probabilistic boosting, matryoshki); K. Hatano (2004); Y. Mansour and\n"
    "#   D. McAllester (NIPS 2000); E. Takimoto, S. Koya and A. Maruoka (divide and merge)."
)


def _rho(value: Any) -> float:
    """A ρ given as a number or as the page's label (``"7/8"``)."""
    if isinstance(value, str):
        return float(Fraction(value))
    return float(value)


def snippet(
    rhos: Sequence[Any], T: int, rho3: Any, C: float, Tn: int, gamma: float, eps: float
) -> str:
    """Script printing the bounds explorer's closed forms for the page's slider values.

    Parameters
    ----------
    rhos : sequence
        The per-node bounds ρ: numbers or the page's labels (``"7/8"``); none means 7/8.
    T : int
        The weak classifiers of Figure 2, right.
    rho3 : number or str
        The ρ of Figure 3 (a number or a label).
    C, Tn : float, int
        The collapse-rate sliders.
    gamma : float
        The top-down tab's γ.
    eps : float
        The InfoBoost tab's ε.

    Returns
    -------
    str
        The complete script.
    """
    rhos = [_rho(r) for r in rhos] or [7 / 8]
    return exports.script(
        __package__,
        TITLE,
        PAPER,
        RHOS=literal(rhos),
        T=literal(int(T)),
        RHO3=literal(_rho(rho3)),
        C=literal(float(C)),
        TN=literal(int(Tn)),
        GAMMA=literal(float(gamma)),
        EPS=literal(float(eps)),
    )
