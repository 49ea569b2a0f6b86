"""A link's words on either card: its status in words (:data:`STATUS_TEXT`) and its labels,
reasons and notes in HTML with the notation set (:func:`math_html`).
"""

from __future__ import annotations

from ..text import notation, rich_html
from .chain import ASSUMPTION, CLAIM, ESTIMATE, HOLDS, NOT_THEOREM

# ================================================================================ drawing
STATUS_TEXT = {
    HOLDS: "✓ theorem",
    ASSUMPTION: "⚠ assumption fails",
    NOT_THEOREM: "✗ not a theorem here",
    CLAIM: "✗ paper's claim, not a theorem",
    ESTIMATE: "≈ Monte Carlo estimate",
}


def math_html(label: str) -> str:
    """A label, reason or note in HTML: escaped, with the notation set as sub- and
    superscripts (:func:`ui.text.notation`: ``_x``, ``_11``, ``_{…}``, ``^…`` up to a space,
    a comma or a closing bracket, ``^(…)``).

    The chains keep the plain notation of the curves' legends (``φ_γ̂(s)``, ``s^−γ̂``,
    ``H_{D_{t+1}}``); the card sets it (issue 39, item 9: the reasons' ``D_{t+1}`` and
    ``Σ_{i<n}`` were shown raw).

    Parameters
    ----------
    label : str

    Returns
    -------
    str
        HTML whose text is ``label`` without the ``_`` and ``^`` markers.

    Examples
    --------
    >>> from ui.proof import math_html
    >>> math_html("φ_γ̂(s) ≤ s^−γ̂")
    'φ<sub>γ̂</sub>(s) ≤ s<sup>−γ̂</sup>'
    >>> math_html("1 − x ≤ e^−x and Σ_{i<n} 1/i ≥ ln n")
    '1 − x ≤ e<sup>−x</sup> and Σ<sub>i&lt;n</sub> 1/i ≥ ln n'
    >>> math_html("<b>")
    '&lt;b&gt;'
    """
    return rich_html(notation(label))
