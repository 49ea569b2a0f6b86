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

The package, one module a job (issue 42; it was one 904-line ``proof.py``); callers use the
names below, from ``ui.proof``:

* :mod:`~ui.proof.chain`: the model — the statuses, :class:`Link`, :class:`Chain`,
  :func:`link`, :func:`make_chain`, :func:`loosest_link`, :func:`is_finite`,
  :func:`rounds_upto`;
* :mod:`~ui.proof.numbers`: a link's numbers as printed — :func:`fmt`, :func:`fmt_slack`,
  :func:`equal_up_to_rounding`, :func:`shown_relation`;
* :mod:`~ui.proof.words`: a link's status in words and its notation in HTML
  (:func:`math_html`);
* :mod:`~ui.proof.style`: the cards' colours and the compact card's stylesheet
  (:data:`COMPACT_CSS`);
* :mod:`~ui.proof.panel`: the full card, :func:`proof_panel_html`;
* :mod:`~ui.proof.compact`: the lecture view's compact cards — :func:`proof_compact_html`,
  :func:`proof_placeholder_html`, :func:`proof_frames`, :func:`is_large`.
"""

from .chain import (
    ASSUMPTION,
    CLAIM,
    EQUAL_TOL,
    ESTIMATE,
    HOLDS,
    NOT_THEOREM,
    RELATIONS,
    STATUSES,
    Chain,
    Link,
    is_finite,
    link,
    loosest_link,
    make_chain,
    rounds_upto,
)
from .compact import LARGE_FONT, is_large, proof_compact_html, proof_frames, proof_placeholder_html
from .numbers import (
    ROUNDING_SHORT,
    ROUNDING_TEXT,
    ROUNDING_TOL,
    equal_up_to_rounding,
    fmt,
    fmt_slack,
    shown_relation,
)
from .panel import proof_panel_html
from .style import (
    CARD_BORDER,
    COMPACT_CSS,
    FAIL,
    FAIL_BG,
    FOCUS,
    INK,
    LOOSE,
    LOOSE_BG,
    LOOSE_TEXT,
    MUTED,
    OK,
    OK_TEXT,
    ROW_BGS,
    WARN,
)
from .words import STATUS_TEXT, math_html

__all__ = [
    "ASSUMPTION",
    "CARD_BORDER",
    "CLAIM",
    "COMPACT_CSS",
    "Chain",
    "EQUAL_TOL",
    "ESTIMATE",
    "FAIL",
    "FAIL_BG",
    "FOCUS",
    "HOLDS",
    "INK",
    "LARGE_FONT",
    "LOOSE",
    "LOOSE_BG",
    "LOOSE_TEXT",
    "Link",
    "MUTED",
    "NOT_THEOREM",
    "OK",
    "OK_TEXT",
    "RELATIONS",
    "ROUNDING_SHORT",
    "ROUNDING_TEXT",
    "ROUNDING_TOL",
    "ROW_BGS",
    "STATUSES",
    "STATUS_TEXT",
    "WARN",
    "equal_up_to_rounding",
    "fmt",
    "fmt_slack",
    "is_finite",
    "is_large",
    "link",
    "loosest_link",
    "make_chain",
    "math_html",
    "proof_compact_html",
    "proof_frames",
    "proof_panel_html",
    "proof_placeholder_html",
    "rounds_upto",
    "shown_relation",
]
