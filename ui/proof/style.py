"""The proof cards' colours and the compact card's stylesheet, :data:`COMPACT_CSS` (drawn once
per page by ui/lecture).
"""

from __future__ import annotations

from .. import theme

#: Colours (Okabe–Ito where they carry meaning). The card is opaque white with its own text
#: colour, like the charts' white cards in the dark theme, so it reads the same on a light
#: page and on a dark projector theme.
INK = "#1F2430"
MUTED = "#4A5160"
CARD_BORDER = "#B8BEC8"
OK = theme.MEASURED["index"]  # bluish green: a theorem (its row's stripe)
LOOSE = theme.HIGHLIGHT  # vermillion: the loosest link (its border)
LOOSE_BG = "#FCEBDD"
FAIL = "#5B6170"
FAIL_BG = "#EEF0F3"
#: Rows' backgrounds: a theorem's (white), the loosest link's, a failing link's.
ROW_BGS = ("#FFFFFF", LOOSE_BG, FAIL_BG)
#: The text shades of the green and the vermillion (the ✓, a status, the loosest slack and
#: its badge): the stripe colours are graphics (3 : 1), their words text (4.5 : 1 on every
#: row; the slack number was vermillion #D55E00 on LOOSE_BG, 3.32 : 1, issue 26).
OK_TEXT = theme.ink(OK, *ROW_BGS)
LOOSE_TEXT = theme.ink(LOOSE, *ROW_BGS)
#: The keyboard focus ring of a compact row.
FOCUS = theme.CLASS_POS

WARN = "#A64B00"  # the ⚠ and ✗ glyphs: dark orange, readable on the grey row

#: The compact panel's stylesheet, scoped by ``bl-proof`` class names (it is inserted with
#: ``innerHTML`` by ui/lecture/js, next to other views). One grid for all links, so the values
#: and slacks line up; a row (``.bl-proof-link``) is a subgrid spanning the card, its four
#: cells (glyph, relation, values, slack) carry its colours, and a fifth, the line's reason
#: (``.bl-proof-why``), shows under it only while the row is hovered or has focus: a row is
#: focusable (``tabindex=0``), so Tab or a tap opens it and the card keeps its height
#: otherwise, with no script (issue 25: the reasons were in hover tooltips only, out of
#: reach on a tablet or a keyboard). The footnote wraps to two lines (a line clamp, not a
#: one-line ellipsis).
#: Drawn once per page by ui/lecture (every round's frame without it: a copy per frame cost
#: ~250 KB on /branching).
COMPACT_CSS = (
    ".bl-proof-c{background:#FFF;color:" + INK + ";"
    "border:1px solid " + CARD_BORDER + ";border-radius:6px;padding:4px 6px 3px;"
    "font-size:13px;line-height:1.3;overflow:hidden;container-type:inline-size}"
    # presenter mode: a card of five links with its footnote must stay on a 1080p screen; its
    # paddings in em, so that the card is the 1920-px design at any window's width (the
    # lecture view scales its text with the width: in pixels a 1280-px projector's card
    # needed 3 px more than 2/3 of the 1920-px one, and cut a relation; issue 39, item 8)
    ".bl-proof-lg{font-size:16px;padding:.18em .36em .14em;line-height:1.22}"
    ".bl-proof-lg .bl-proof-t{row-gap:1px;--bl-pad:.23em}"
    # a narrow card drops the word "slack" and narrows its cells' padding (--bl-pad); so does
    # one whose relations would be cut otherwise (ui/lecture/js, fitProof: a wider card, e.g.
    # on a projector beside the quiz, whose "slack" words left the names no room)
    ".bl-proof-terse .bl-proof-link i{display:none}.bl-proof-terse .bl-proof-t{--bl-pad:3px}"
    ".bl-proof-lg.bl-proof-terse .bl-proof-t{--bl-pad:.14em}"
    "@container (max-width:480px){.bl-proof-link i{display:none}.bl-proof-t{--bl-pad:3px}"
    ".bl-proof-lg .bl-proof-t{--bl-pad:.14em}}"
    ".bl-proof-t{display:grid;grid-template-columns:max-content minmax(0,max-content) "
    "max-content max-content;row-gap:2px}"
    ".bl-proof-link{display:grid;grid-column:1/-1;grid-template-columns:subgrid;"
    "border-radius:4px;outline-offset:1px}"
    ".bl-proof-link:focus{outline:2px solid " + FOCUS + "}"
    ".bl-proof-link:focus:not(:focus-visible){outline-style:dotted}"
    ".bl-proof-link>*{white-space:nowrap;padding:1px var(--bl-pad,5px);border:solid transparent;"
    "border-width:2px 0;text-align:right;font-variant-numeric:tabular-nums}"
    ".bl-proof-link>:first-child{text-align:center;font-weight:700;color:" + OK_TEXT + ";"
    "border-left-width:2px;border-radius:4px 0 0 4px;padding-left:3px}"
    ".bl-proof-link>:nth-child(2){text-align:left;overflow:hidden;text-overflow:ellipsis}"
    ".bl-proof-link>:nth-child(4){border-right-width:2px;border-radius:0 4px 4px 0}"
    ".bl-proof-link>.bl-proof-why{display:none;grid-column:1/-1;white-space:normal;"
    "text-align:left;border:0;border-radius:0;padding:0 5px 2px;font-size:.8em;"
    "background:none;color:" + MUTED + "}"
    ".bl-proof-link:focus>.bl-proof-why,.bl-proof-link:hover>.bl-proof-why{display:block}"
    ".bl-proof-link i{font-style:normal;color:" + MUTED + ";font-size:.85em}"
    ".bl-proof-c sub,.bl-proof-c sup{font-size:.72em;line-height:0}"
    ".bl-proof-loose>*{background:" + LOOSE_BG + ";border-color:" + LOOSE + "}"
    ".bl-proof-loose>:nth-child(4) b{color:" + LOOSE_TEXT + "}"
    ".bl-proof-fail>*{background:" + FAIL_BG + ";color:" + FAIL + ";"
    "border-bottom:1px dashed;border-top-width:0;padding-top:3px}"
    ".bl-proof-fail>:first-child,.bl-proof-foot b{color:" + WARN + "}"
    ".bl-proof-foot,.bl-proof-key,.bl-proof-cite{white-space:nowrap;overflow:hidden;"
    "text-overflow:ellipsis;font-size:.78em;color:" + MUTED + "}"
    ".bl-proof-foot{font-size:.85em;color:" + FAIL + ";margin-top:3px;white-space:normal;"
    "display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;line-clamp:2}"
    ".bl-proof-key span{display:inline-block;width:.9em;height:.7em;margin:2px .25em 0 0;"
    "background:" + LOOSE_BG + ";border:2px solid " + LOOSE + ";border-radius:2px}"
    # a phone: the card at 14 px, its key, citation, footnote and reasons at 12 px and its
    # sub/superscripts at 10.5 px (the key was 10 px and the indices 9.4; issue 39, item 9)
    "@media (max-width:700px){.bl-proof-c{font-size:14px}"
    ".bl-proof-c .bl-proof-key,.bl-proof-c .bl-proof-cite,.bl-proof-c .bl-proof-foot,"
    ".bl-proof-c .bl-proof-link>.bl-proof-why{font-size:12px}"
    ".bl-proof-c sub,.bl-proof-c sup{font-size:.75em}"
    ".bl-proof-key sub,.bl-proof-key sup,.bl-proof-cite sub,.bl-proof-cite sup,"
    ".bl-proof-foot sub,.bl-proof-foot sup,.bl-proof-why sub,.bl-proof-why sup{font-size:.88em}}"
)
