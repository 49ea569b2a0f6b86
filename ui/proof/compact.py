"""The lecture view's compact proof cards, one line a link: :func:`proof_compact_html`,
:func:`proof_placeholder_html` and :func:`proof_frames` (one card per round; their
stylesheet is :data:`ui.proof.style.COMPACT_CSS`), and :func:`is_large`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..text import notation, plain
from .chain import ASSUMPTION, CLAIM, ESTIMATE, HOLDS, NOT_THEOREM, Chain, Link
from .numbers import ROUNDING_SHORT, ROUNDING_TEXT, fmt, fmt_slack, shown_relation
from .words import STATUS_TEXT, math_html

# ======================================================================== compact drawing
#: The status glyph of a link in the compact panel.
_GLYPH = {HOLDS: "✓", ASSUMPTION: "⚠", NOT_THEOREM: "✗", CLAIM: "✗", ESTIMATE: "≈"}


def _compact_row(lk: Link, loosest: bool) -> str:
    esc = html.escape
    cls = "bl-proof-link" + (" bl-proof-loose" if loosest else "")
    if not lk.holds:
        cls += " bl-proof-fail"
    status = STATUS_TEXT[lk.status]
    if not lk.holds:
        status += " — true on this run" if lk.observed else " — false on this run"
    detail = lk.reason if lk.holds else lk.note
    tip = ("loosest link · " if loosest else "") + status
    tip += f": {detail}" if detail else ""
    rel_num = shown_relation(lk)
    slack = fmt_slack(lk)
    if slack == ROUNDING_TEXT:
        # "≈ 0" in the slack's column (the words took 212 px of a 355-px card on /oblique's
        # projector and cut the relation; issue 39, item 8); the words and the exact
        # difference the column rounds away in the line's reason
        sign = "+" if lk.slack > 0 else ""
        tip += f" ({ROUNDING_TEXT}: slack {sign}{fmt(lk.slack, digits=3)})"
        slack_cell = f"<b>{esc(ROUNDING_SHORT)}</b>"
    else:
        slack_cell = f"<i>slack </i><b>{esc(slack)}</b>"
    return (
        f'<div class="{cls}" data-status="{esc(lk.status)}"'
        + (' data-loosest="true"' if loosest else "")
        # no title attribute: the reason is the row's own (hidden) cell, shown on hover,
        # focus or tap — a copy in a tooltip would double every card's bytes in every frame
        + ' tabindex="0" role="group">'
        f"<span>{esc(_GLYPH[lk.status])}</span>"
        f"<span>{math_html(lk.left_label)} <b>{esc(lk.relation)}</b> "
        f"{math_html(lk.right_label)}</span>"
        f"<span>{esc(fmt(lk.left))} {esc(rel_num)} {esc(fmt(lk.right))}</span>"
        f"<span>{slack_cell}</span>"
        f'<span class="bl-proof-why">{math_html(tip)}</span>'
        "</div>"
    )


def proof_compact_html(chain: Chain, *, large: bool = False) -> str:
    """The chain as a compact card for the lecture view: one line per link, about 200 px high.

    Each line holds the link's status glyph (``✓`` a theorem at this round, ``⚠`` an
    assumption fails, ``✗`` not a theorem / a paper's claim, ``≈`` a Monte Carlo estimate),
    the relation, its two values and the slack, in a grid so the numbers line up. The loosest
    holding link has a vermillion frame and tint; a link that does not hold is grey on grey
    with a dashed rule. Every line gives its status and the reason (or the note saying why it
    does not hold) in a reason line under it, shown while the line is hovered or has focus
    (one copy: no ``title`` tooltip, which doubled every frame's bytes): each line is
    focusable (``tabindex=0``), so Tab or a tap opens it with no script, and the card
    keeps its height while nothing is focused (issue 25: the reasons were
    in hover tooltips only). The first link that does not hold also gets a footnote with that
    whole note, clamped by the stylesheet to two lines. Slacks have 3 significant digits, and
    two values that differ by less than rounding say "equal up to rounding" (``≈`` between
    them, not ``≠``; :func:`fmt_slack`). A small key line names the tint (dropped in presenter
    mode when there is a footnote: its second line takes that place, so the card still fits
    a 1080p projector), and the citation is one small line (the caption is its tooltip).

    The fragment is self-contained: its ``<style>`` is scoped by ``bl-proof`` class names,
    there is no script and no external asset, and every text is escaped with
    :func:`html.escape`. The card is opaque white with its own ink, so it reads the same on a
    dark theme. At 13 px (``large=False``) five links, the footnote, key and citation take
    about 190 px and fit a 420 px column; ``large=True`` (presenter mode, 16 px) about
    190 px in a 550 px column. Below 360 px the word "slack" is dropped; a narrower column
    then cuts the relation's text (an ellipsis; the line's tooltip), never the numbers.

    Parameters
    ----------
    chain : Chain
        From one of the builders.
    large : bool, default False
        Presenter mode: larger type.

    Returns
    -------
    str
        One ``<div class="bl-proof-c">`` (an HTML fragment).

    Examples
    --------
    >>> from ui.proof import link, make_chain, proof_compact_html
    >>> c = make_chain("round 1", [link("ε̂", "≤", "I", 0.1, 0.25),
    ...                        link("I", "≤", "<x>", 0.25, 0.2, status="claim", note="a claim")],
    ...            "paper", "why", 1)
    >>> out = proof_compact_html(c)
    >>> "0.1 ≤ 0.25" in out, "+0.15" in out, "&lt;x&gt;" in out, "<x>" in out
    (True, True, True, False)
    >>> out.count('data-loosest="true"'), "bl-proof-foot" in out, "<script" in out
    (1, True, False)
    """
    esc = html.escape
    rows = "".join(_compact_row(lk, i == chain.loosest) for i, lk in enumerate(chain.links))
    failing = [lk for lk in chain.links if not lk.holds]
    foot = ""
    if failing:
        first = failing[0]
        # the count before the note: the note may run past the footnote's two lines
        more = f" (+{len(failing) - 1} more; tap a grey line)" if len(failing) > 1 else ""
        words = f"{first.left_label} {first.relation} {first.right_label}"
        foot = (
            f'<div class="bl-proof-foot" title="{esc(plain(notation(first.note)))}">'
            f"<b>{esc(_GLYPH[first.status])}</b> {math_html(words)}{esc(more)}: "
            f"{math_html(first.note)}</div>"
        )
    key = ""
    # presenter mode: a footnote's second line takes the key line's place, so that five
    # links, the footnote and the citation still fit beside the curves on a 1080p projector
    # (tests/browser/test_browser_student.py); the loosest line's reason still says "loosest link"
    if chain.loosest is not None and not (large and failing):
        key = (
            '<div class="bl-proof-key"><span></span>loosest link · ✓ theorem here'
            + (" · ⚠ ✗ not here" if failing else "")
            + " · tap or Tab to a line for why</div>"
        )
    return (
        f'<div class="bl-proof-c{" bl-proof-lg" if large else ""}" role="group" '
        f'aria-label="{esc(plain(notation(chain.title)))}" data-round="{chain.t}">'
        f'<div class="bl-proof-t">{rows}</div>'
        f"{foot}{key}"
        f'<div class="bl-proof-cite" title="{esc(plain(notation(chain.caption)))}">'
        f"{math_html(chain.citation)}</div>"
        "</div>"
    )


def proof_placeholder_html(text: str, *, large: bool = False) -> str:
    """The compact card's frame when a run shows no snapshot at this round (plain text).

    Parameters
    ----------
    text : str
        What the panel says instead (escaped).
    large : bool, default False
        Presenter mode.

    Returns
    -------
    str

    Examples
    --------
    >>> from ui.proof import proof_placeholder_html
    >>> "&lt;b&gt;" in proof_placeholder_html("<b>")
    True
    """
    return (
        f'<div class="bl-proof-c{" bl-proof-lg" if large else ""}" role="group">'
        f'<div class="bl-proof-cite">{html.escape(text)}</div></div>'
    )


#: Figure font (px) from which the frame builders draw the large card: presenter mode builds
#: its frames at 12 × 1.3 = 15.6 px (``ui.charts.PRESENTER_SCALE``), the normal page at 12.
LARGE_FONT = 14.0


def is_large(font: float) -> bool:
    """Whether frames built at figure font ``font`` are presenter mode's (large card).

    >>> from ui.proof import is_large
    >>> is_large(12), is_large(12 * 1.3)
    (False, True)
    """
    return float(font) >= LARGE_FONT


def proof_frames(chains: Sequence[Chain | None], *, large: bool = False) -> list[str]:
    """One compact card per round (:func:`proof_compact_html`), for ``lecture.same_frames``.

    Parameters
    ----------
    chains : sequence of Chain or None
        The chain shown at each round; ``None`` draws an empty-run placeholder.
    large : bool, default False
        Presenter mode.

    Returns
    -------
    list of str
    """
    return [
        proof_compact_html(c, large=large)
        if c is not None
        else proof_placeholder_html("No snapshot of this run at this round.", large=large)
        for c in chains
    ]
