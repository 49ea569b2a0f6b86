"""The proof as a self-contained HTML card, one box a link: :func:`proof_panel_html`."""

from __future__ import annotations

import html

from .chain import Chain, Link
from .numbers import fmt, fmt_slack, shown_relation
from .style import CARD_BORDER, FAIL, FAIL_BG, INK, LOOSE, LOOSE_BG, LOOSE_TEXT, MUTED, OK, OK_TEXT
from .words import STATUS_TEXT, math_html


def _link_html(lk: Link, loosest: bool, esc) -> str:
    if loosest:
        box = f"border:2px solid {LOOSE};border-left:6px solid {LOOSE};background:{LOOSE_BG};"
    elif lk.holds:
        box = f"border:1px solid #D9DDE3;border-left:6px solid {OK};background:#FFFFFF;"
    else:
        box = f"border:1.5px dashed {FAIL};border-left:6px dashed {FAIL};background:{FAIL_BG};"
    rel_num = shown_relation(lk)
    badge = (
        f'<span style="float:right;background:{LOOSE_TEXT};color:#FFFFFF;font-weight:700;'
        f'border-radius:3px;padding:0 0.35em;font-size:0.8em">loosest link</span>'
        if loosest
        else ""
    )
    status = STATUS_TEXT[lk.status]
    if not lk.holds:
        status += " — true on this run" if lk.observed else " — false on this run"
    detail = lk.reason if lk.holds else lk.note
    math_style = (
        "font-family:'STIX Two Math','Cambria Math','Latin Modern Math','Times New Roman',serif;"
        "font-size:1.12em"
    )
    text_decor = "" if lk.holds else "color:" + FAIL + ";"
    return (
        f'<div class="bl-proof-link" data-status="{esc(lk.status)}" '
        f'data-loosest="{"true" if loosest else "false"}" '
        f'style="{box}border-radius:5px;padding:0.3em 0.5em;margin:0.3em 0;">'
        f"{badge}"
        f'<div style="{math_style};{text_decor}">{math_html(lk.left_label)} '
        f"<b>{esc(lk.relation)}</b> {math_html(lk.right_label)}</div>"
        f'<div style="font-variant-numeric:tabular-nums;white-space:nowrap;overflow:hidden;'
        f'text-overflow:ellipsis">'
        f"{esc(fmt(lk.left))} {esc(rel_num)} {esc(fmt(lk.right))}"
        f'<span style="color:{MUTED}"> · slack </span>'
        f"<b>{esc(fmt_slack(lk))}</b></div>"
        f'<div style="font-size:0.82em;color:{MUTED};line-height:1.3">'
        f'<span style="font-weight:600;color:{OK_TEXT if lk.holds else FAIL}">'
        f"{esc(status)}</span>" + (f": {esc(detail)}" if detail else "") + "</div></div>"
    )


def proof_panel_html(chain: Chain, *, large: bool = False) -> str:
    """The chain as a compact, self-contained HTML card (no external assets, inline styles).

    Each link shows its two sides, its two values and its slack; the loosest holding link has
    a vermillion border, a tinted background and a "loosest link" badge; links that are not
    theorems at this round are dashed and grey, with their status and note. The card is
    opaque white with its own text colours, so it reads the same on a dark projector theme.
    Every text is escaped with :func:`html.escape`. Normal size fits a column of 300–420 px
    beside a plot; ``large=True`` is the presenter-mode variant.

    Parameters
    ----------
    chain : Chain
        From one of the builders.
    large : bool, default False
        Presenter mode: larger type and a wider card.

    Returns
    -------
    str
        One ``<div>`` (an HTML fragment).

    Examples
    --------
    >>> from ui.proof import link, make_chain, proof_panel_html
    >>> c = make_chain("<b>round 1</b>", [link("ε̂", "≤", "I", 0.1, 0.25)], "paper", "why", 1)
    >>> out = proof_panel_html(c)
    >>> "&lt;b&gt;round 1&lt;/b&gt;" in out, "0.25" in out, "loosest link" in out
    (True, True, True)
    """
    esc = html.escape
    size = 18 if large else 13
    width = 620 if large else 420
    rows = "".join(_link_html(lk, i == chain.loosest, esc) for i, lk in enumerate(chain.links))
    return (
        f'<div class="bl-proof" role="group" aria-label="{esc(chain.title)}" '
        f'data-round="{chain.t}" '
        f'style="box-sizing:border-box;width:100%;max-width:{width}px;background:#FFFFFF;'
        f"color:{INK};border:1px solid {CARD_BORDER};border-radius:8px;"
        f"padding:0.55em 0.7em;font-family:'Source Sans Pro','Source Sans 3','Helvetica Neue',"
        f'Arial,sans-serif;font-size:{size}px;line-height:1.35">'
        f'<div style="font-weight:700;font-size:1.05em;margin-bottom:0.15em">'
        f"{esc(chain.title)}</div>"
        f"{rows}"
        f'<div style="font-size:0.9em;margin-top:0.35em">{esc(chain.caption)}</div>'
        f'<div style="font-size:0.78em;color:{MUTED};margin-top:0.2em">'
        f"{esc(chain.citation)}</div>"
        "</div>"
    )
