"""The proof at this round: a page's chain of inequalities with this round's numbers.

Issue 17, item 3. Each algorithm page draws the bound curves of its theory; this module writes
the *chain* behind them for one snapshot — every link with its two values, its slack
(right − left), whether it is a theorem at this round and, if not, why — so that a class sees
which link the proof spends most on (the loosest) and where an assumption breaks.

Computing and drawing are separate, and only the machinery shared by every page lives here:

* each lesson's builder, in its own ``ui/pages/<slug>/proof.py`` (e.g.
  :func:`ui.pages.topdown.proof.topdown_chain`), turns a snapshot (plus the run context its
  metrics do not hold: the criterion, the merging scheme, earlier rounds) into a frozen
  :class:`Chain` of :class:`Link` s with :func:`link` and :func:`make_chain`. The builders only
  *read* the snapshots; the few numbers the metrics lack come from :mod:`boostcore.bounds`;
* :func:`proof_panel_html` draws a chain as a small self-contained HTML card, and
  :func:`proof_compact_html` / :func:`proof_frames` as the lecture view's compact cards (their
  stylesheet, :data:`COMPACT_CSS`, drawn once per page by ui/lecture).

What a link's ``status`` means (``holds`` is ``status == "holds"``):

``"holds"``
    A theorem at this round; the values satisfy it (the tests check this on random data at
    every round of every run).
``"assumption"``
    The theorem's assumption fails at this round (``γ̂ = 0``, a one-class leaf, ``μ = 0``, a
    run that is not γ-boosting, ``ρ̂ = 1``): the link is trivial or no longer follows.
``"not_theorem"``
    No theorem covers this link at this round (an intermediate tree after a multi-way split,
    the largest-gain leaf rule, …): the right side is a reference value.
``"claim"``
    A paper's claim that is not a theorem (Grossmann's nesting step, docs/theory.md §3.3).
``"estimate"``
    A theorem about an exact value, but the value shown is a Monte Carlo estimate that lies
    above the bound by sampling noise.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

from boostcore.steps import STOP, Step

from . import theme
from .text import notation, plain, rich_html

HOLDS = "holds"
ASSUMPTION = "assumption"
NOT_THEOREM = "not_theorem"
CLAIM = "claim"
ESTIMATE = "estimate"
STATUSES = (HOLDS, ASSUMPTION, NOT_THEOREM, CLAIM, ESTIMATE)
RELATIONS = ("≤", "=")

#: Two values closer than this (relative to 1 or the larger value) count as equal: the
#: float error of the products and sums the chains compare is far below it.
EQUAL_TOL = 1e-12

#: Two values closer than this, relative to the larger, are "equal up to rounding" on the
#: card: :func:`fmt` shows 4 significant digits, so a relative difference of 10⁻⁵ never shows
#: in the values (e.g. /oblique's Σ 2√(w⁺w⁻) = E e^−yH, off by ~2×10⁻⁶ where a one-class leaf's
#: μ is clipped); the slack column says so rather than print ``+4.38×10⁻⁷`` (issue 25).
ROUNDING_TOL = 1e-5
ROUNDING_TEXT = "equal up to rounding"
#: The compact card's slack column for such values (the words go to the line's reason).
ROUNDING_SHORT = "≈ 0"


# ================================================================================== chain
@dataclass(frozen=True)
class Link:
    """One link ``left relation right`` of a chain, with this round's values.

    Attributes
    ----------
    left_label, relation, right_label : str
        The link in Unicode math, e.g. ``"ε̂(T)"``, ``"≤"``, ``"I(T)"``; ``relation`` is
        ``"≤"`` or ``"="``.
    left, right : float
        The two sides at this round (``nan`` where undefined).
    slack : float
        ``right − left``.
    holds : bool
        Whether the link is a theorem at this round (``status == "holds"``).
    note : str
        Why the link is not a theorem at this round (empty when it holds).
    status : str
        One of :data:`STATUSES` (see the module docstring).
    reason : str
        The result that makes the link hold (shown for holding links; it may also say why a
        link is trivially true, e.g. at round 0).
    """

    left_label: str
    relation: str
    right_label: str
    left: float
    right: float
    slack: float
    holds: bool
    note: str = ""
    status: str = HOLDS
    reason: str = ""

    @property
    def observed(self) -> bool:
        """Whether this run's values satisfy the relation (equality to :data:`EQUAL_TOL`).

        Returns
        -------
        bool

        Examples
        --------
        >>> from ui.proof import link
        >>> link("a", "≤", "b", 0.2, 0.5).observed, link("a", "=", "b", 0.2, 0.5).observed
        (True, False)
        """
        tol = EQUAL_TOL * max(1.0, abs(self.left), abs(self.right))
        if not (math.isfinite(self.left) and math.isfinite(self.right)):
            return False
        if self.relation == "=":
            return abs(self.slack) <= tol
        return self.slack >= -tol


def link(
    left_label: str,
    relation: str,
    right_label: str,
    left: float,
    right: float,
    *,
    status: str = HOLDS,
    note: str = "",
    reason: str = "",
) -> Link:
    """A :class:`Link` with ``slack = right − left`` and ``holds = (status == "holds")``.

    Parameters
    ----------
    left_label, relation, right_label : str
        As in :class:`Link`.
    left, right : float
        The two values.
    status : str, default "holds"
        One of :data:`STATUSES`.
    note : str, default ""
        Why the link is not a theorem here (needed unless ``status == "holds"``).
    reason : str, default ""
        The result behind a holding link.

    Returns
    -------
    Link

    Raises
    ------
    ValueError
        For an unknown relation or status, or a link that does not hold without a note.

    Examples
    --------
    >>> from ui.proof import link
    >>> lk = link("ε̂(T)", "≤", "I(T)", 0.05, 0.2)
    >>> lk.holds, round(lk.slack, 2)
    (True, 0.15)
    """
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}; got {relation!r}")
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}; got {status!r}")
    if status != HOLDS and not note:
        raise ValueError("a link that does not hold needs a note saying why")
    left, right = _num(left), _num(right)
    return Link(
        left_label=left_label,
        relation=relation,
        right_label=right_label,
        left=left,
        right=right,
        slack=right - left,
        holds=status == HOLDS,
        note=note,
        status=status,
        reason=reason,
    )


@dataclass(frozen=True)
class Chain:
    """A page's chain of inequalities at one round.

    Attributes
    ----------
    title : str
        E.g. ``"The proof at round 3"``.
    links : tuple of Link
        The links in reading order; the first one's ``left`` is the training error the
        page shows.
    loosest : int or None
        Index of the holding link with the largest slack (the first on ties); ``None`` if
        no link holds.
    citation : str
        The papers and theorems, with the section of docs/theory.md.
    caption : str
        One line on what this round's chain says.
    t : int
        The round.
    """

    title: str
    links: tuple[Link, ...]
    loosest: int | None
    citation: str
    caption: str
    t: int = 0

    @property
    def leftmost(self) -> float:
        """The chain's first value: the training error the page shows.

        Returns
        -------
        float
        """
        return self.links[0].left


def loosest_link(links: Sequence[Link]) -> int | None:
    """Index of the holding link with the largest slack (the first on ties), or ``None``.

    Parameters
    ----------
    links : sequence of Link

    Returns
    -------
    int or None

    Examples
    --------
    >>> from ui.proof import link, loosest_link
    >>> loosest_link([link("a", "≤", "b", 0, 0.1), link("b", "≤", "c", 0.1, 0.5),
    ...               link("c", "≤", "d", 0.5, 2.0, status="claim", note="not a theorem")])
    1
    """
    best: int | None = None
    for i, lk in enumerate(links):
        if lk.holds and (best is None or lk.slack > links[best].slack):
            best = i
    return best


def make_chain(title: str, links: Sequence[Link], citation: str, caption: str, t: int) -> Chain:
    """A :class:`Chain` of ``links`` with its loosest link found (:func:`loosest_link`).

    Every lesson's builder ends with it, so that no chain can name a loosest link that is not
    the largest slack among the holding ones.

    Parameters
    ----------
    title : str
        E.g. ``"The proof at round 3 — Hatano's TOPDOWN-M"``.
    links : sequence of Link
        The links in reading order (the first one's ``left`` is the page's training error).
    citation, caption : str
        As in :class:`Chain`.
    t : int
        The round.

    Returns
    -------
    Chain

    Examples
    --------
    >>> from ui.proof import link, make_chain
    >>> c = make_chain("round 1", [link("a", "≤", "b", 0, 0.1), link("b", "≤", "c", 0.1, 0.5)],
    ...                "paper", "why", 1)
    >>> c.loosest, c.leftmost, c.t
    (1, 0.0, 1)
    """
    return Chain(
        title=title,
        links=tuple(links),
        loosest=loosest_link(links),
        citation=citation,
        caption=caption,
        t=int(t),
    )


def _num(v: float | None) -> float:
    return float("nan") if v is None else float(v)


def is_finite(v: float | None) -> bool:
    """Whether ``v`` is a finite number (``None``, ``nan`` and ``±inf`` are not).

    The builders test with it whether a metric is defined at this round (e.g. ``γ̂`` before the
    first split, ``ρ̂`` before the first weak classifier).

    Parameters
    ----------
    v : float or None

    Returns
    -------
    bool

    Examples
    --------
    >>> from ui.proof import is_finite
    >>> is_finite(0.5), is_finite(None), is_finite(float("nan"))
    (True, False, False)
    """
    return v is not None and math.isfinite(float(v))


def rounds_upto(history: Sequence[Step], t: int) -> list[Step]:
    """The snapshots of rounds ``1 … t`` of ``history``, one per round.

    The chains whose products run over earlier rounds (divide and merge, G1 on a path) read
    those rounds here; a stop snapshot may stand for its round (it repeats the round's metrics,
    and its reason is what the last frame shows), a round's other snapshot is kept otherwise.

    Parameters
    ----------
    history : sequence of Step
        The run's snapshots (e.g. the whole run), holding every round ``1 … t``.
    t : int
        The last round wanted.

    Returns
    -------
    list of Step
        The snapshot of round ``k`` at index ``k − 1``.

    Raises
    ------
    ValueError
        When ``history`` lacks one of the rounds.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.realboost import g1_linear
    >>> from ui.proof import rounds_upto
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(g1_linear(ds.X_train, ds.y_train, n_rounds=3))
    >>> [s.t for s in rounds_upto(run, 3)]
    [1, 2, 3]
    >>> rounds_upto(run[:2], 3)
    Traceback (most recent call last):
    ...
    ValueError: history must hold every round 1 … 3 of the run; rounds [2, 3] are missing
    """
    by_t: dict[int, Step] = {}
    for s in history:
        if 1 <= s.t <= t and (s.t not in by_t or by_t[s.t].kind == STOP):
            by_t[s.t] = s
    missing = [k for k in range(1, t + 1) if k not in by_t]
    if missing:
        raise ValueError(
            f"history must hold every round 1 … {t} of the run; rounds {missing} are missing"
        )
    return [by_t[k] for k in range(1, t + 1)]


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


# ================================================================================ drawing
_STATUS_TEXT = {
    HOLDS: "✓ theorem",
    ASSUMPTION: "⚠ assumption fails",
    NOT_THEOREM: "✗ not a theorem here",
    CLAIM: "✗ paper's claim, not a theorem",
    ESTIMATE: "≈ Monte Carlo estimate",
}

#: Colours (Okabe–Ito where they carry meaning). The card is opaque white with its own text
#: colour, like the charts' white cards in the dark theme, so it reads the same on a light
#: page and on a dark projector theme.
_INK = "#1F2430"
_MUTED = "#4A5160"
_CARD_BORDER = "#B8BEC8"
_OK = theme.MEASURED["index"]  # bluish green: a theorem (its row's stripe)
_LOOSE = theme.HIGHLIGHT  # vermillion: the loosest link (its border)
_LOOSE_BG = "#FCEBDD"
_FAIL = "#5B6170"
_FAIL_BG = "#EEF0F3"
#: Rows' backgrounds: a theorem's (white), the loosest link's, a failing link's.
_ROW_BGS = ("#FFFFFF", _LOOSE_BG, _FAIL_BG)
#: The text shades of the green and the vermillion (the ✓, a status, the loosest slack and
#: its badge): the stripe colours are graphics (3 : 1), their words text (4.5 : 1 on every
#: row; the slack number was vermillion #D55E00 on _LOOSE_BG, 3.32 : 1, issue 26).
_OK_TEXT = theme.ink(_OK, *_ROW_BGS)
_LOOSE_TEXT = theme.ink(_LOOSE, *_ROW_BGS)
#: The keyboard focus ring of a compact row.
_FOCUS = theme.CLASS_POS


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


def _violated(rel: str) -> str:
    return "≠" if rel == "=" else ">"


def _shown_relation(lk: Link) -> str:
    """The relation between a link's two printed values: its own when this run's values
    satisfy it, ``≈`` when they miss it by less than rounding, else ``≠`` or ``>``."""
    if lk.observed:
        return lk.relation
    return "≈" if equal_up_to_rounding(lk) else _violated(lk.relation)


def _link_html(lk: Link, loosest: bool, esc) -> str:
    if loosest:
        box = f"border:2px solid {_LOOSE};border-left:6px solid {_LOOSE};background:{_LOOSE_BG};"
    elif lk.holds:
        box = f"border:1px solid #D9DDE3;border-left:6px solid {_OK};background:#FFFFFF;"
    else:
        box = f"border:1.5px dashed {_FAIL};border-left:6px dashed {_FAIL};background:{_FAIL_BG};"
    rel_num = _shown_relation(lk)
    badge = (
        f'<span style="float:right;background:{_LOOSE_TEXT};color:#FFFFFF;font-weight:700;'
        f'border-radius:3px;padding:0 0.35em;font-size:0.8em">loosest link</span>'
        if loosest
        else ""
    )
    status = _STATUS_TEXT[lk.status]
    if not lk.holds:
        status += " — true on this run" if lk.observed else " — false on this run"
    detail = lk.reason if lk.holds else lk.note
    math_style = (
        "font-family:'STIX Two Math','Cambria Math','Latin Modern Math','Times New Roman',serif;"
        "font-size:1.12em"
    )
    text_decor = "" if lk.holds else "color:" + _FAIL + ";"
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
        f'<span style="color:{_MUTED}"> · slack </span>'
        f"<b>{esc(fmt_slack(lk))}</b></div>"
        f'<div style="font-size:0.82em;color:{_MUTED};line-height:1.3">'
        f'<span style="font-weight:600;color:{_OK_TEXT if lk.holds else _FAIL}">'
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
        f"color:{_INK};border:1px solid {_CARD_BORDER};border-radius:8px;"
        f"padding:0.55em 0.7em;font-family:'Source Sans Pro','Source Sans 3','Helvetica Neue',"
        f'Arial,sans-serif;font-size:{size}px;line-height:1.35">'
        f'<div style="font-weight:700;font-size:1.05em;margin-bottom:0.15em">'
        f"{esc(chain.title)}</div>"
        f"{rows}"
        f'<div style="font-size:0.9em;margin-top:0.35em">{esc(chain.caption)}</div>'
        f'<div style="font-size:0.78em;color:{_MUTED};margin-top:0.2em">'
        f"{esc(chain.citation)}</div>"
        "</div>"
    )


# ======================================================================== compact drawing
#: The status glyph of a link in the compact panel.
_GLYPH = {HOLDS: "✓", ASSUMPTION: "⚠", NOT_THEOREM: "✗", CLAIM: "✗", ESTIMATE: "≈"}
_WARN = "#A64B00"  # the ⚠ and ✗ glyphs: dark orange, readable on the grey row

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
    ".bl-proof-c{background:#FFF;color:" + _INK + ";"
    "border:1px solid " + _CARD_BORDER + ";border-radius:6px;padding:4px 6px 3px;"
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
    ".bl-proof-link:focus{outline:2px solid " + _FOCUS + "}"
    ".bl-proof-link:focus:not(:focus-visible){outline-style:dotted}"
    ".bl-proof-link>*{white-space:nowrap;padding:1px var(--bl-pad,5px);border:solid transparent;"
    "border-width:2px 0;text-align:right;font-variant-numeric:tabular-nums}"
    ".bl-proof-link>:first-child{text-align:center;font-weight:700;color:" + _OK_TEXT + ";"
    "border-left-width:2px;border-radius:4px 0 0 4px;padding-left:3px}"
    ".bl-proof-link>:nth-child(2){text-align:left;overflow:hidden;text-overflow:ellipsis}"
    ".bl-proof-link>:nth-child(4){border-right-width:2px;border-radius:0 4px 4px 0}"
    ".bl-proof-link>.bl-proof-why{display:none;grid-column:1/-1;white-space:normal;"
    "text-align:left;border:0;border-radius:0;padding:0 5px 2px;font-size:.8em;"
    "background:none;color:" + _MUTED + "}"
    ".bl-proof-link:focus>.bl-proof-why,.bl-proof-link:hover>.bl-proof-why{display:block}"
    ".bl-proof-link i{font-style:normal;color:" + _MUTED + ";font-size:.85em}"
    ".bl-proof-c sub,.bl-proof-c sup{font-size:.72em;line-height:0}"
    ".bl-proof-loose>*{background:" + _LOOSE_BG + ";border-color:" + _LOOSE + "}"
    ".bl-proof-loose>:nth-child(4) b{color:" + _LOOSE_TEXT + "}"
    ".bl-proof-fail>*{background:" + _FAIL_BG + ";color:" + _FAIL + ";"
    "border-bottom:1px dashed;border-top-width:0;padding-top:3px}"
    ".bl-proof-fail>:first-child,.bl-proof-foot b{color:" + _WARN + "}"
    ".bl-proof-foot,.bl-proof-key,.bl-proof-cite{white-space:nowrap;overflow:hidden;"
    "text-overflow:ellipsis;font-size:.78em;color:" + _MUTED + "}"
    ".bl-proof-foot{font-size:.85em;color:" + _FAIL + ";margin-top:3px;white-space:normal;"
    "display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;line-clamp:2}"
    ".bl-proof-key span{display:inline-block;width:.9em;height:.7em;margin:2px .25em 0 0;"
    "background:" + _LOOSE_BG + ";border:2px solid " + _LOOSE + ";border-radius:2px}"
    # a phone: the card at 14 px, its key, citation, footnote and reasons at 12 px and its
    # sub/superscripts at 10.5 px (the key was 10 px and the indices 9.4; issue 39, item 9)
    "@media (max-width:700px){.bl-proof-c{font-size:14px}"
    ".bl-proof-c .bl-proof-key,.bl-proof-c .bl-proof-cite,.bl-proof-c .bl-proof-foot,"
    ".bl-proof-c .bl-proof-link>.bl-proof-why{font-size:12px}"
    ".bl-proof-c sub,.bl-proof-c sup{font-size:.75em}"
    ".bl-proof-key sub,.bl-proof-key sup,.bl-proof-cite sub,.bl-proof-cite sup,"
    ".bl-proof-foot sub,.bl-proof-foot sup,.bl-proof-why sub,.bl-proof-why sup{font-size:.88em}}"
)


def _compact_row(lk: Link, loosest: bool) -> str:
    esc = html.escape
    cls = "bl-proof-link" + (" bl-proof-loose" if loosest else "")
    if not lk.holds:
        cls += " bl-proof-fail"
    status = _STATUS_TEXT[lk.status]
    if not lk.holds:
        status += " — true on this run" if lk.observed else " — false on this run"
    detail = lk.reason if lk.holds else lk.note
    tip = ("loosest link · " if loosest else "") + status
    tip += f": {detail}" if detail else ""
    rel_num = _shown_relation(lk)
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
    # (tests/test_browser_student.py); the loosest line's reason still says "loosest link"
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
