"""The proof at this round: a page's chain of inequalities with this round's numbers.

Issue 17, item 3. Each algorithm page draws the bound curves of its theory; this module writes
the *chain* behind them for one snapshot — every link with its two values, its slack
(right − left), whether it is a theorem at this round and, if not, why — so that a class sees
which link the proof spends most on (the loosest) and where an assumption breaks.

Computing and drawing are separate:

* the builders :func:`topdown_chain`, :func:`branching_chain`, :func:`grossmann_chain` and
  :func:`g1_chain` turn a snapshot (plus the run context its metrics do not hold: the
  criterion, the merging scheme, earlier rounds) into a frozen :class:`Chain` of
  :class:`Link` s. They only *read* the snapshots; the few numbers the metrics lack come from
  :mod:`boostcore.bounds` (:func:`~boostcore.bounds.divide_merge_products`,
  :func:`~boostcore.bounds.g1_weak_learning_bound`, :func:`~boostcore.bounds.f_tree`);
* :func:`proof_panel_html` draws a chain as a small self-contained HTML card.

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
import re
from collections.abc import Sequence
from dataclasses import dataclass

from boostcore import bounds
from boostcore.steps import STOP, Step

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

#: ``ρ̂`` (Grossmann) at least this close to 1 means a weak classifier without edge.
NO_EDGE_RHO = 1e-12


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


def _chain(title: str, links: list[Link], citation: str, caption: str, t: int) -> Chain:
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


def _finite(v: float | None) -> bool:
    return v is not None and math.isfinite(float(v))


# =============================================================================== numbers
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt(value: float | None) -> str:
    """A number with 4 significant digits in Unicode (``−`` for minus, ``×10⁻⁶`` exponents).

    Parameters
    ----------
    value : float or None
        ``None`` and ``nan`` give ``"—"`` (undefined at this round).

    Returns
    -------
    str

    Examples
    --------
    >>> from ui.proof import fmt
    >>> fmt(0.20661), fmt(-0.0031), fmt(1.4e-06), fmt(0.0), fmt(float("nan"))
    ('0.2066', '−0.0031', '1.4×10⁻⁶', '0', '—')
    """
    if value is None or math.isnan(float(value)):
        return "—"
    v = float(value)
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if v == 0:
        return "0"
    s = f"{v:.4g}"
    if "e" in s:
        mant, exp = s.split("e")
        s = f"{mant}×10{str(int(exp)).translate(_SUPERSCRIPT)}"
    return s.replace("-", "−")


def fmt_slack(lk: Link) -> str:
    """A link's slack with its sign (``+0.1533``, ``−0.0012``), ``0`` within rounding.

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
    """
    s = lk.slack
    if not math.isfinite(s):
        return "—"
    if abs(s) <= EQUAL_TOL * max(1.0, abs(lk.left), abs(lk.right)):
        return "0"
    return ("+" if s > 0 else "") + fmt(s)


# ================================================================================ top-down
TOPDOWN_NAMES = {
    "hatano": "Hatano's TOPDOWN-M",
    "mansour_mcallester": "Mansour–McAllester",
    "naive": "the naive criterion",
}


def _gamma_zero_note(step: Step) -> str:
    extra = f" {step.note}" if getattr(step, "note", "") else ""
    return (
        "γ̂ = 0: at some expansion the weak-hypothesis assumption failed (the heaviest leaf "
        "could not be split, or the chosen split removed nothing), so this bound is the "
        f"trivial 1 (docs/theory.md §0.3).{extra}"
    )


def topdown_chain(step: Step, *, criterion: str, leaf_rule: str = "max_weight") -> Chain:
    """The chain of top-down growth at this round (docs/theory.md §1).

    * A binary run with the max-weight leaf rule (``metrics.binary_guarantee``):
      ``ε̂(T) ≤ I(T) ≤ φ_γ̂(|T|) ≤ e_γ̂(|T|) ≤ |T|^−γ̂`` at **every** round — Kearns–Mansour's
      analysis (Mansour & McAllester 2000, Theorem 3.2) and Hatano (2004), Theorems 3 and 5:
      a binary max-weight run is TOPDOWN-M for every target size (docs/theory.md §1.1, §1.5).
    * After a multi-way split: ``ε̂(T) ≤ I(T) ≤ φ_γ̂(s) ≤ s^−γ̂``, where ``I(T) ≤ φ_γ̂(s)`` is
      Hatano's Theorem 4 (through its proof) for the **final** tree of budget ``s`` only, and
      only for criteria whose acceptable splits are Hatano's (``hatano``, and
      ``mansour_mcallester``, whose rule implies ``k ≤ s/|T|``); docs/theory.md §1.2.
    * ``mansour_mcallester`` adds ``I(T) ≤ e_γ(|T|)`` with the run's ``γ``: their Theorem 4.1,
      for the final tree of a γ-boosting run, and at every round of a binary one
      (docs/theory.md §1.3).

    ``ε̂(T) ≤ I(T)`` holds for every tree (§0.1). ``γ̂ = 0`` (the weak-hypothesis assumption
    failed at some leaf) makes the bounds the trivial 1: the link is marked so.

    Parameters
    ----------
    step : boostcore.topdown.TreeStep
        The snapshot.
    criterion : {"hatano", "mansour_mcallester", "naive"}
        The run's criterion (not held by the snapshot).
    leaf_rule : {"max_weight", "max_gain"}, default "max_weight"
        The run's leaf rule; the theorems need ``max_weight``.

    Returns
    -------
    Chain

    Raises
    ------
    ValueError
        For an unknown criterion or leaf rule.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.topdown import grow
    >>> from ui.proof import topdown_chain
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> step = list(grow(ds.X_train, ds.y_train, size=4, max_arity=2))[-1]
    >>> chain = topdown_chain(step, criterion="hatano")
    >>> [(lk.left_label, lk.right_label, lk.holds) for lk in chain.links][:2]
    [('ε̂(T)', 'I(T)', True), ('I(T)', 'φ_γ̂(|T|)', True)]
    >>> chain.leftmost == step.metrics.train_error
    True
    """
    if criterion not in TOPDOWN_NAMES:
        raise ValueError(f"criterion must be one of {tuple(TOPDOWN_NAMES)}; got {criterion!r}")
    if leaf_rule not in ("max_weight", "max_gain"):
        raise ValueError(f"leaf_rule must be 'max_weight' or 'max_gain'; got {leaf_rule!r}")
    m = step.metrics
    s = int(step.size)
    n = int(m.n_leaves)
    g = m.gamma_hat
    started = _finite(g)
    trivial = started and float(g) <= 0.0
    multiway = any(len(ch) > 2 for ch in step.tree.children)
    # binary_guarantee is False from round 0 on under the largest-gain rule, and otherwise only
    # after a multi-way split: a binary tree without it was not grown by the max-weight rule
    # a split chosen by hand (grow(choose=...)) on a lighter leaf, or forced past the
    # acceptability rule, ends the theorems from its round on (TreeMetrics.final_guarantee)
    by_hand = bool(getattr(m, "policy_rounds", 0)) and not getattr(m, "final_guarantee", True)
    max_weight = leaf_rule == "max_weight" and (m.binary_guarantee or multiway or by_hand)
    final = n >= s or m.index_value <= 0.0
    base = (
        "no split yet: γ̂ is undefined and the bound is 1 ≥ I(T), where the induction starts"
        if not started
        else ""
    )
    links = [
        link(
            "ε̂(T)",
            "≤",
            "I(T)",
            m.train_error,
            m.index_value,
            reason="every index has I(q) ≥ min(q, 1 − q) (Kearns–Mansour; §0.1)",
        )
    ]
    if m.binary_guarantee and max_weight:
        kw = dict(
            reason=base
            or "a binary max-weight run is TOPDOWN-M for every size (Hatano, Thms 3 and 5)"
        )
        if trivial:
            kw = dict(status=ASSUMPTION, note=_gamma_zero_note(step))
        links += [
            link("I(T)", "≤", "φ_γ̂(|T|)", m.index_value, m.bound_phi, **kw),
            link(
                "φ_γ̂(|T|)",
                "≤",
                "e_γ̂(|T|)",
                m.bound_phi,
                m.bound_e,
                reason="φ_γ(n) ≤ e_γ(n): the game's value against Kearns–Mansour's product (§5)",
            ),
            link(
                "e_γ̂(|T|)",
                "≤",
                "|T|^−γ̂",
                m.bound_e,
                m.bound_power,
                reason="1 − x ≤ e^−x and Σ_{i<n} 1/i ≥ ln n (Kearns–Mansour; §1.1)",
            ),
        ]
        caption = (
            f"Binary max-weight run: every link is a theorem at every round "
            f"(|T| = {n}, γ̂ = {fmt(g)})."
        )
        citation = (
            "Kearns & Mansour (1999); Mansour & McAllester (2000), Thm 3.2; Hatano (2004), "
            "Thms 3 and 5 — docs/theory.md §1.1, §1.5"
        )
    else:
        if by_hand:
            kw = dict(
                status=NOT_THEOREM,
                note="a split chosen by hand expanded a lighter leaf than the heaviest, or "
                "broke the acceptability rule k ≤ s/|T|: Theorem 4's proof no longer covers "
                "this tree, so φ_γ̂(s) is a reference (§1.2)",
            )
        elif not max_weight:
            kw = dict(
                status=NOT_THEOREM,
                note="the largest-gain leaf rule is not the max-weight rule the proofs need: "
                "no theorem bounds I(T) on this run (§1.1); φ_γ̂(s) is a reference",
            )
        elif criterion == "naive":
            kw = dict(
                status=NOT_THEOREM,
                note="the naive criterion admits k-way splits that Hatano's rule k ≤ s/|T| "
                "forbids, so Theorem 4 does not apply: φ_γ̂(s) is a reference (§1.4)",
            )
        elif not final:
            kw = dict(
                status=NOT_THEOREM,
                note=f"after a multi-way split Theorem 4 bounds only the final tree "
                f"(|T| = s = {s}); at |T| = {n} no theorem bounds I(T) (§1.2)",
            )
        elif trivial:
            kw = dict(status=ASSUMPTION, note=_gamma_zero_note(step))
        else:
            why = (
                " (their acceptability rule implies Hatano's k ≤ s/|T|)"
                if criterion == "mansour_mcallester"
                else ""
            )
            kw = dict(reason=f"the final tree of budget s: Hatano's Thm 4, by its proof{why}")
        links += [
            link("I(T)", "≤", "φ_γ̂(s)", m.index_value, m.bound_phi_final, **kw),
            link(
                "φ_γ̂(s)",
                "≤",
                "s^−γ̂",
                m.bound_phi_final,
                m.bound_final,
                reason="φ_γ(s) ≤ s^−γ (Hatano, Thm 5; §1.5)",
            ),
        ]
        if by_hand:
            caption = f"Your splits left the theorems' rules: only ε̂(T) ≤ I(T) holds (|T| = {n})."
        elif not max_weight:
            caption = f"Largest-gain leaf rule: only ε̂(T) ≤ I(T) is a theorem (|T| = {n})."
        elif kw.get("status", HOLDS) == HOLDS:
            caption = (
                f"Final tree (|T| = {n}, s = {s}): Theorem 4 with the advantage "
                f"γ̂ = {fmt(g)} the run achieved."
            )
        else:
            caption = (
                f"Multi-way run: Theorem 4 speaks of the final tree only (|T| = {n}, s = {s})."
            )
        citation = "Hatano (2004), Thm 4 and its proof (Thms 3, 5) — docs/theory.md §1.2, §1.5"
    if criterion == "mansour_mcallester" and m.bound_mm is not None:
        links.append(_mm_link(step, max_weight, multiway, final, trivial))
        citation += "; Mansour & McAllester (2000), Thm 4.1 — §1.3"
    title = f"The proof at round {step.t} — {TOPDOWN_NAMES[criterion]}"
    return _chain(title, links, citation, caption, step.t)


def _mm_link(step: Step, max_weight: bool, multiway: bool, final: bool, trivial: bool) -> Link:
    """Mansour–McAllester's ``I(T) ≤ e_γ(|T|)`` with the run's ``γ`` (Theorem 4.1)."""
    m = step.metrics
    gamma = fmt(m.mm_gamma)
    if getattr(m, "mm_guarantee", None) is False and getattr(m, "policy_rounds", 0):
        kw = dict(
            status=NOT_THEOREM,
            note="a split chosen by hand left Theorem 4.1's rules (a lighter leaf, or a split "
            "their acceptability rule refuses) (§1.3)",
        )
    elif not max_weight:
        kw = dict(status=NOT_THEOREM, note="Theorem 4.1 needs the max-weight leaf rule")
    elif not m.mm_gamma_boosting:
        kw = dict(
            status=ASSUMPTION,
            note=f"not γ-boosting at γ = {gamma}: some split had Δ/g_γ(k) < γ·I(q̂_ℓ), so "
            "Theorem 4.1 does not apply (§1.3)",
        )
    elif trivial:
        kw = dict(
            status=ASSUMPTION,
            note="γ̂ = 0: the weak-learning assumption failed at a leaf no split could "
            "divide, so the induction behind Theorem 4.1 is not established (§0.3)",
        )
    elif multiway and not final:
        kw = dict(
            status=NOT_THEOREM,
            note="after a multi-way split Theorem 4.1 bounds only the tree the run outputs "
            "(|T| = s)",
        )
    elif multiway:
        kw = dict(
            reason=f"Mansour–McAllester Thm 4.1: the final tree of a γ-boosting run (γ = {gamma})"
        )
    else:
        kw = dict(
            reason=f"a binary γ-boosting run, at every round (Kearns–Mansour's induction, "
            f"γ = {gamma})"
        )
    return link("I(T)", "≤", "e_γ(|T|)", m.index_value, m.bound_mm, **kw)


# ============================================================================= branching
MERGE_NAMES = {
    "all": "InfoBoost (merge all)",
    "none": "DT.InfoBoost (no merging)",
    "bands": "BP.InfoBoost (entropy bands)",
}


def _rounds_upto(history: Sequence[Step], t: int) -> list[Step]:
    """The snapshots of rounds ``1 … t`` of ``history`` (a stop snapshot may stand for its
    round: it repeats the round's metrics)."""
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


def _round_list(ts: Sequence[int]) -> str:
    return ", ".join(str(t) for t in ts[:6]) + (", …" if len(ts) > 6 else "")


def branching_chain(step: Step, *, merge: str, history: Sequence[Step]) -> Chain:
    """The chain of divide and merge at this round (Takimoto, Koya & Maruoka; docs/theory.md §2).

    ``ε̂(sign F_t) ≤ Π Z_t = Π H(Y|ℓ_t) ≤ Π H(Y|h_t)``:

    * ``ε̂ ≤ Π Z_t`` — Theorem 1 (through Lemma 1) for every merging scheme, smoothing on or
      off, since the actual normalisers are used;
    * ``Π Z_t = Π H(Y|ℓ_t)`` — Lemma 2, exact only when no leaf so far needed smoothing; a
      one-class leaf makes ``Z_t`` larger by the smoothing excess, and the link is marked;
    * ``Π H(Y|ℓ_t) ≤ Π H(Y|h_t)`` — ``ℓ_t`` refines ``h_t`` (Lemma 2), for every scheme; an
      equality for InfoBoost (``merge="all"``: ``ℓ_t`` is the two sides of ``h_t``).

    Per scheme: ``none`` adds Theorem 2, ``Π Z_t = H_U(Y|h_1…h_t)`` (the information floor;
    exact when this round's leaves need no smoothing, Lemma 3); ``bands`` adds this round's
    Theorem 3, ``H(Y|ℓ_t) ≤ 1 − cγ_t``.

    Parameters
    ----------
    step : boostcore.branching.BPStep
        The snapshot.
    merge : {"all", "none", "bands"}
        The run's merging scheme.
    history : sequence of BPStep
        The run's snapshots holding every round ``1 … step.t`` (e.g. the whole run):
        ``Π H(Y|ℓ_t)`` and where smoothing happened are not in one snapshot's metrics.

    Returns
    -------
    Chain

    Raises
    ------
    ValueError
        For an unknown scheme, or a history that lacks a round.

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost
    >>> from boostcore.datasets import make_dataset
    >>> from ui.proof import branching_chain
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    >>> chain = branching_chain(run[3], merge="bands", history=run)
    >>> [lk.right_label for lk in chain.links]
    ['Π Z_t', 'Π H(Y|ℓ_t)', 'Π H(Y|h_t)', '1 − cγ_t']
    >>> [lk.status for lk in chain.links]  # pure leaves were smoothed: Lemma 2's "=" fails
    ['holds', 'assumption', 'holds', 'holds']
    """
    if merge not in MERGE_NAMES:
        raise ValueError(f"merge must be one of {tuple(MERGE_NAMES)}; got {merge!r}")
    m = step.metrics
    rounds = _rounds_upto(history, step.t)
    ms = [s.metrics for s in rounds]
    _, prod_leaves, _ = bounds.divide_merge_products(
        [x.Z for x in ms], [x.H_leaves for x in ms], [x.H_h for x in ms]
    )
    smoothed = [s.t for s in rounds if s.metrics.smoothing_excess > 0]
    empty = "no round yet: the empty products are 1" if step.t == 0 else ""
    links = [
        link(
            "ε̂(sign F_t)",
            "≤",
            "Π Z_t",
            m.train_error,
            m.bound_prod_Z,
            reason=empty or "Thm 1 via Lemma 1: [yF ≤ 0] ≤ e^−yF, with the actual normalisers",
        )
    ]
    if smoothed:
        kw = dict(
            status=ASSUMPTION,
            note=f"a one-class leaf in round {_round_list(smoothed)}: its weight ½ ln(W⁺/W⁻) "
            "is smoothed, so Z_t exceeds H(Y|ℓ_t); Lemma 2's equality, and with it "
            "ε̂ ≤ Π H(Y|h_t), no longer follows (§0.3)",
        )
    else:
        kw = dict(reason=empty or "Lemma 2: w[l] minimises Z_t, which becomes Σ 2√(W⁺W⁻)")
    links.append(link("Π Z_t", "=", "Π H(Y|ℓ_t)", m.bound_prod_Z, prod_leaves, **kw))
    links.append(
        link(
            "Π H(Y|ℓ_t)",
            "=" if merge == "all" else "≤",
            "Π H(Y|h_t)",
            prod_leaves,
            m.prod_H_h,
            reason=empty
            or (
                "InfoBoost: ℓ_t is the two sides of h_t"
                if merge == "all"
                else "ℓ_t refines h_t, so H(Y|ℓ_t) ≤ H(Y|h_t) (Lemma 2)"
            ),
        )
    )
    if merge == "none" and step.t >= 1:
        if m.smoothing_excess > 0:
            kw = dict(
                status=ASSUMPTION,
                note="a one-class leaf this round: Lemma 3 (H_{D_{t+1}}(Y|ℓ_t) = 1) fails, so "
                "Π Z_t is above the floor H_U(Y|h_1…h_t) (§2, Thm 2)",
            )
        else:
            kw = dict(reason="Thm 2 with Lemma 3: DT.InfoBoost's bound is the information floor")
        links.append(link("Π Z_t", "=", "H_U(Y|h_1…h_t)", m.bound_prod_Z, m.H_uniform, **kw))
    if merge == "bands" and step.t >= 1:
        links.append(
            link(
                "H(Y|ℓ_t)",
                "≤",
                "1 − cγ_t",
                m.H_leaves,
                m.bound_theorem3,
                reason=f"Thm 3 for this round's bands (1 − γ_t = H(Y|ℓ̃_t) = {fmt(m.H_divided)})",
            )
        )
    if step.t == 0:
        caption = "Round 0: F_0 = 0, every product is empty (= 1)."
    elif smoothed:
        caption = "Theorem 1 holds; a smoothed one-class leaf breaks Lemma 2's equality."
    else:
        caption = f"Every link is a theorem at round {step.t}: the bound is Π Z_t."
    citation = (
        "Takimoto, Koya & Maruoka (2004), Lemmas 1–2, Thm 1"
        + {
            "none": ", Thm 2",
            "bands": ", Thm 3",
            "all": "; Aslam (2000)",
        }[merge]
    )
    citation += " — docs/theory.md §2"
    title = f"The proof at round {step.t} — {MERGE_NAMES[merge]}"
    return _chain(title, links, citation, caption, step.t)


# ============================================================================= Grossmann
GROSSMANN_NAMES = {
    "chain": "probabilistic AdaBoost",
    "tree": "the probabilistic tree",
    "matryoshka": "the 2-matryoshka",
    "collapse": "the collapsing tree",
}


def _outer_internal(model: object) -> int:
    """Internal nodes of a probabilistic tree's outermost tree (its own weak classifiers)."""
    return sum(ch is not None for ch in model.children)


def _collapsed(model: object) -> bool:
    """Whether some node of the outer tree is itself a tree (a collapsed doll)."""
    return any(
        ch is not None and hasattr(clf, "children")
        for ch, clf in zip(model.children, model.classifier)
    )


def grossmann_chain(step: Step, *, samples: int | None = None) -> Chain:
    """The chain of probabilistic boosting at this round (Grossmann 2006; docs/theory.md §3).

    * chain (probabilistic AdaBoost, §3.1): ``E[error] ≤ Π Z_t ≤ ρ̂^T`` — the exponential
      loss telescopes to ``Π Z_t``; ``ρ̂ = max Z_t``. The error is a Monte Carlo estimate:
      when it lies above ``Π Z_t`` (sampling noise) the link is an ``"estimate"``.
    * tree (§3.2): ``E[error] ≤ C(T) ≤ F(T, ρ̂)`` — Bound (8), exact with the exact ``q``,
      and greedy growth with ``ρ̂ = max (Z₊ + Z₋)``, Eq. (9).
    * matryoshka (§3.3): ``E[error] ≤ C(T) ≤ F(2, ρ̂)`` is what holds — the outer tree has two
      nodes whose ``Z₊ + Z₋ ≤ ρ̂``; from level 2 on ``C(T) ≤ M2(T, ρ̂)`` is **the paper's
      claim**, not a theorem: its nesting step plugs a doll's error bound in as the next
      level's ``ρ``, but a doll's ``Z₊ + Z₋`` as a node is at least its own ``C``
      (docs/theory.md §3.3). The link says how many dolls of this run break that step.
    * collapse (§5.4): like the tree until a collapse; then ``F`` counts the outer tree's own
      nodes, and ``F(T, ρ̂)`` over every stump is marked as the nesting claim.

    ``ρ̂ = 1`` (a weak classifier without edge) makes ``F`` and ``ρ̂^T`` the trivial 1: the
    link is marked. With ``samples = R`` (MAP estimates of ``q``) ``C`` and ``Π Z`` are
    estimates of the bound, not bounds.

    Parameters
    ----------
    step : boostcore.probabilistic.ProbStep
        The snapshot (its ``structure`` says which chain).
    samples : int, optional
        The run's ``samples`` (``R``), if it trained on MAP estimates.

    Returns
    -------
    Chain

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import prob_tree
    >>> from ui.proof import grossmann_chain
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> step = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1]
    >>> [(lk.right_label, round(lk.right, 3)) for lk in grossmann_chain(step).links]
    [('C(T)', 0.745), ('F(T, ρ̂)', 0.8)]
    """
    m = step.metrics
    structure = step.structure
    T = int(m.n_weak)
    rho = m.rho_hat
    no_edge = _finite(rho) and float(rho) >= 1.0 - NO_EDGE_RHO
    edge_note = (
        "ρ̂ = 1: a weak classifier with no edge (Z₊ + Z₋ = 1), so this bound is the trivial 1 (§3.1)"
    )
    empty = "no weak classifier yet: the bound is 1" if T == 0 else ""
    map_note = (
        f"trained on MAP estimates of q (R = {samples}): the bound is computed from "
        "estimates, so it is an estimate, not a bound (§3)"
    )
    left = "E[error] (MC)" if structure == "chain" else "E[error]"
    bound = "Π Z_t" if structure == "chain" else "C(T)"
    if samples is not None:
        kw = dict(status=NOT_THEOREM, note=map_note)
    elif structure == "chain" and m.train_error > m.bound_C:
        se = m.mc_stderr or 0.0
        kw = dict(
            status=ESTIMATE,
            note=f"a Monte Carlo estimate (± {fmt(se)} s.e.) above Π Z_t by sampling noise; "
            "the exact expected error is ≤ Π Z_t",
        )
    elif structure == "chain":
        kw = dict(reason=empty or "§3: 0/1 loss ≤ e^−yH, and the weights telescope to Π Z_t")
    else:
        kw = dict(reason=empty or "Bound (8): C(T) = E[e^−yH] exactly, with the exact q (§3.2)")
    links = [link(left, "≤", bound, m.train_error, m.bound_C, **kw)]
    claims = ""
    if structure == "chain":
        kw = dict(reason=empty or "ρ̂ = max Z_t, so each factor is ≤ ρ̂ (Eq. (3))")
        if no_edge:
            kw = dict(status=ASSUMPTION, note=edge_note)
        links.append(link("Π Z_t", "≤", "ρ̂^T", m.bound_C, m.bound_rho_T, **kw))
        caption = f"Probabilistic AdaBoost after T = {T} soft stumps: the valid bound is Π Z_t."
        citation = "Grossmann (2006), §3, Eqs. (1)–(3) — docs/theory.md §3.1"
    elif structure == "matryoshka":
        L = int(step.t)
        if L == 0:
            links.append(link("C(T)", "≤", "F(T, ρ̂)", m.bound_C, m.bound_F, reason=empty))
        else:
            rho_c = min(max(float(rho), 0.0), 1.0)
            kw = dict(reason="the outer tree: two greedy nodes with Z₊ + Z₋ ≤ ρ̂, Eq. (9) at T = 2")
            if no_edge:
                kw = dict(status=ASSUMPTION, note=edge_note)
            links.append(link("C(T)", "≤", "F(2, ρ̂)", m.bound_C, bounds.f_tree(2, rho_c), **kw))
            if L >= 2 and m.bound_M2 is not None:
                bad = sum(d.node_excess > 0 for d in step.dolls)
                run_says = (
                    f"{bad} of {len(step.dolls)} dolls used as nodes have Z₊ + Z₋ above the ρ "
                    "the paper plugs in"
                    if bad
                    else "the step happens to hold for every doll of this run, which proves "
                    "nothing in general"
                )
                links.append(
                    link(
                        "C(T)",
                        "≤",
                        "M2(T, ρ̂)",
                        m.bound_C,
                        m.bound_M2,
                        status=CLAIM,
                        note="Grossmann's nesting step uses a doll's error bound as the next "
                        "level's ρ, but a doll's Z₊ + Z₋ as a node is "
                        f"≥ its own C (§3.3); here {run_says}",
                    )
                )
                claims = " M2 is the paper's claim."
        caption = (
            f"Level {L} (T = {T} soft stumps): the valid bounds are C(T) and F(2, ρ̂); "
            f"F(T, ρ̂) is a plain tree's bound.{claims}"
            if L >= 1
            else "Level 0: H = 0, the bound is 1."
        )
        citation = "Grossmann (2006), §4 Eqs. (8)–(9), §5.3 (M2) — docs/theory.md §3.2–3.3"
    else:  # tree, collapse
        n_out = _outer_internal(step.model)
        kw = dict(reason=empty or "greedy growth with ρ̂ = max (Z₊ + Z₋), Eq. (9)")
        if no_edge:
            kw = dict(status=ASSUMPTION, note=edge_note)
        if structure == "collapse" and _collapsed(step.model):
            rho_c = min(max(float(rho), 0.0), 1.0)
            if not no_edge:
                kw = dict(reason=f"the outer tree's own {n_out} greedy node(s), Eq. (9)")
            links.append(
                link(
                    "C(T)",
                    "≤",
                    f"F({n_out}, ρ̂)",
                    m.bound_C,
                    bounds.f_tree(n_out, rho_c),
                    **kw,
                )
            )
            links.append(
                link(
                    "C(T)",
                    "≤",
                    "F(T, ρ̂)",
                    m.bound_C,
                    m.bound_F,
                    status=CLAIM,
                    note=f"after a collapse the outer tree has {n_out} node(s), not T = {T} "
                    "stumps: F(T, ρ̂) would need Grossmann's nesting step (§3.3)",
                )
            )
        else:
            links.append(link("C(T)", "≤", "F(T, ρ̂)", m.bound_C, m.bound_F, **kw))
        caption = f"{GROSSMANN_NAMES[structure].capitalize()} with T = {T} soft stumps."
        citation = "Grossmann (2006), §4, Eqs. (8)–(9) — docs/theory.md §3.2"
        if structure == "collapse":
            citation += ", §3.3 (§5.4's collapse)"
    title = f"The proof at round {step.t} — {GROSSMANN_NAMES[structure]}"
    return _chain(title, links, citation, caption, step.t)


# ==================================================================================== G1
def _no_edge_stop(step: Step) -> bool:
    reason = step.stop_reason or ""
    return step.kind == STOP and ("μ = 0" in reason or "no edge" in reason)


def g1_chain(step: Step, *, history: Sequence[Step] | None = None) -> Chain:
    """The chain of G1 at this round (Henry, Nock & Nielsen 2007; docs/theory.md §4.1).

    * On a path (:func:`boostcore.realboost.g1_linear`, AdaBoost_R):
      ``ε̂(H) ≤ E e^−yH ≤ Π √(1 − μ_t²) ≤ e^{−γ̂²T/2}`` — the 0/1 loss is at most the
      exponential loss; Theorem 1 ``[R]`` at ``θ = 0``; and the weak-learning form with
      ``γ̂ = min |μ_t|`` (:func:`boostcore.bounds.g1_weak_learning_bound`). A run that stops
      because its next weak hypothesis has ``μ = 0`` makes ``γ̂ = 0``: the last link is marked.
    * On a tree (:func:`boostcore.oblique.g1_tree`, :func:`boostcore.oblique.boost_odt`):
      ``ε̂(H) ≤ Σ_ℓ 2√(w⁺w⁻) = E e^−yH ≤ max_p Π √(1 − μ²)`` — each leaf votes its majority,
      Theorem 2 ``[R]`` (exact except at one-class leaves, whose clipped output ±14.2 loses a
      little: that link is then marked) and Theorem 1 over the paths of constant nodes.

    Parameters
    ----------
    step : boostcore.realboost.G1Step or boostcore.oblique.ODTStep
        The snapshot.
    history : sequence of G1Step, optional
        Required for G1 on a path: the run's snapshots holding every round ``1 … step.t``
        (the ``μ_t`` of earlier rounds are not in the snapshot).

    Returns
    -------
    Chain

    Raises
    ------
    ValueError
        For a path snapshot without ``history``, or a history that lacks a round.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.realboost import g1_linear
    >>> from ui.proof import g1_chain
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(g1_linear(ds.X_train, ds.y_train, n_rounds=5))
    >>> chain = g1_chain(run[-1], history=run)
    >>> [lk.right_label for lk in chain.links]
    ['E e^−yH', 'Π √(1 − μ_t²)', 'e^−γ̂²T/2']
    """
    m = step.metrics
    if hasattr(step, "tree"):
        return _g1_tree_chain(step)
    if history is None:
        raise ValueError("history is required for G1 on a path: the μ_t of earlier rounds")
    mus = [s.round.mu for s in _rounds_upto(history, step.t) if s.round is not None]
    if len(mus) != step.t:
        raise ValueError(f"history must hold the weak hypothesis of every round 1 … {step.t}")
    stalled = _no_edge_stop(step)
    g, rate = bounds.g1_weak_learning_bound(mus + [0.0] if stalled else mus)
    empty = step.t == 0
    if stalled:
        kw = dict(
            status=ASSUMPTION,
            note=f"the best weak hypothesis of round {step.t + 1} has μ = 0 (no edge): the "
            "weak-learning assumption |μ_t| ≥ γ > 0 fails, γ̂ = 0 and the bound cannot fall "
            "further — G1 stops (§4.1)",
        )
    else:
        kw = dict(
            reason="no weak hypothesis yet: the empty product is 1"
            if empty
            else f"√(1 − μ²) ≤ e^−μ²/2 with |μ_t| ≥ γ̂ = {fmt(g)}"
        )
    links = [
        link(
            "ε̂(H)",
            "≤",
            "E e^−yH",
            m.train_error,
            m.exp_loss,
            reason="[yH ≤ 0] ≤ e^−yH for every example"
            + (" (H = 0: the loss is 1)" if empty else ""),
        ),
        link(
            "E e^−yH",
            "≤",
            "Π √(1 − μ_t²)",
            m.exp_loss,
            m.bound_theorem1,
            reason="no weak hypothesis yet: both sides are 1"
            if empty
            else "Thm 1 [R] at θ = 0: each update keeps the mass of S_t",
        ),
        link("Π √(1 − μ_t²)", "≤", "e^−γ̂²T/2", m.bound_theorem1, rate, **kw),
    ]
    caption = (
        "No edge: the chain holds for H_t, but no further round can lower the bound."
        if stalled
        else f"AdaBoost_R after T = {step.t} weak hypotheses (γ̂ = {fmt(g)})."
    )
    citation = (
        "Henry, Nock & Nielsen (2007), Thm 1 [R]; Nock & Nielsen (2006) — docs/theory.md §4.1"
    )
    return _chain(
        f"The proof at round {step.t} — G1 on a path",
        links,
        caption=caption,
        citation=citation,
        t=step.t,
    )


def _g1_tree_chain(step: Step) -> Chain:
    m = step.metrics
    tree = step.tree
    one_class = [n for n in tree.leaves if tree.w_pos[n] <= 0 or tree.w_neg[n] <= 0]
    if one_class:
        kw = dict(
            status=ASSUMPTION,
            note=f"{len(one_class)} one-class leaf(s): μ = ±1 is clipped, so such a leaf "
            "outputs about ±14.2, not ±∞, and loses a little; Theorem 2's identity is off by "
            "that, while Σ 2√(w⁺w⁻) ≤ E e^−yH still holds (AM–GM) (§4.1)",
        )
    else:
        kw = dict(reason="Thm 2 [R]: each leaf outputs ½ ln(w⁺/w⁻), whatever the constants")
    links = [
        link(
            "ε̂(H)",
            "≤",
            "Σ_ℓ 2√(w⁺w⁻)",
            m.train_error,
            m.km_impurity,
            reason="each leaf votes its majority: min(w⁺, w⁻) ≤ 2√(w⁺w⁻) (Kearns–Mansour)",
        ),
        link("Σ_ℓ 2√(w⁺w⁻)", "=", "E e^−yH", m.km_impurity, m.exp_loss, **kw),
        link(
            "E e^−yH",
            "≤",
            "max_p Π √(1 − μ²)",
            m.exp_loss,
            m.bound_theorem1,
            reason="Thm 1 [R] at θ = 0 over the paths of constant nodes",
        ),
    ]
    caption = (
        f"A tree of {m.n_leaves} leaves: its exponential loss is the Kearns–Mansour index "
        "(Theorem 2)."
    )
    citation = "Henry, Nock & Nielsen (2007), Thms 1–2 [R] — docs/theory.md §4.1–4.2"
    return _chain(f"The proof at round {step.t} — G1 on a tree", links, citation, caption, step.t)


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
_OK = "#009E73"  # bluish green: a theorem
_LOOSE = "#D55E00"  # vermillion: the loosest link (theme.HIGHLIGHT)
_LOOSE_BG = "#FCEBDD"
_FAIL = "#5B6170"
_FAIL_BG = "#EEF0F3"


_SUB = re.compile(r"_([0-9A-Za-zα-ωΑ-Ωℓ][\u0300-\u036f]?)")
_SUP = re.compile(r"\^([^\s)]+)")


def math_html(label: str) -> str:
    """A label in HTML: escaped, with ``_x`` as a subscript and ``^…`` as a superscript.

    The labels keep the plain notation of the curves' legends (``φ_γ̂(s)``, ``s^−γ̂``); the
    panel sets the one-character subscripts and the superscripts (up to a space or ``)``).

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
    >>> math_html("<b>")
    '&lt;b&gt;'
    """
    out = html.escape(label)
    out = _SUB.sub(r"<sub>\1</sub>", out)
    return _SUP.sub(r"<sup>\1</sup>", out)


def _violated(rel: str) -> str:
    return "≠" if rel == "=" else ">"


def _link_html(lk: Link, loosest: bool, esc) -> str:
    if loosest:
        box = f"border:2px solid {_LOOSE};border-left:6px solid {_LOOSE};background:{_LOOSE_BG};"
    elif lk.holds:
        box = f"border:1px solid #D9DDE3;border-left:6px solid {_OK};background:#FFFFFF;"
    else:
        box = f"border:1.5px dashed {_FAIL};border-left:6px dashed {_FAIL};background:{_FAIL_BG};"
    rel_num = lk.relation if lk.observed else _violated(lk.relation)
    badge = (
        f'<span style="float:right;background:{_LOOSE};color:#FFFFFF;font-weight:700;'
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
        f'<span style="font-weight:600;color:{_OK if lk.holds else _FAIL}">'
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
    >>> from ui.proof import _chain, link, proof_panel_html
    >>> c = _chain("<b>round 1</b>", [link("ε̂", "≤", "I", 0.1, 0.25)], "paper", "why", 1)
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
#: ``innerHTML`` by ui/lecture.js, next to other views). One grid for all links, so the values
#: and slacks line up; a row (``.bl-proof-link``) is ``display: contents`` and its four cells
#: (glyph, relation, values, slack) carry its colours. Short: it is sent with every frame.
#: The compact card's stylesheet: drawn once per page by ui/lecture.py (every round's frame
#: without it: a copy per frame cost ~250 KB on /branching).
COMPACT_CSS = (
    ".bl-proof-c{background:#FFF;color:" + _INK + ";"
    "border:1px solid " + _CARD_BORDER + ";border-radius:6px;padding:4px 6px 3px;"
    "font-size:13px;line-height:1.3;overflow:hidden;container-type:inline-size}"
    "@container (max-width:360px){.bl-proof-link i{display:none}"
    ".bl-proof-link>*{padding:1px 3px}}"
    ".bl-proof-lg{font-size:16px;padding:5px 8px 4px}"
    ".bl-proof-t{display:grid;grid-template-columns:max-content minmax(0,max-content) "
    "max-content max-content;row-gap:2px}"
    ".bl-proof-link{display:contents}"
    ".bl-proof-link>*{white-space:nowrap;padding:1px 5px;border:solid transparent;"
    "border-width:2px 0;text-align:right;font-variant-numeric:tabular-nums}"
    ".bl-proof-link>:first-child{text-align:center;font-weight:700;color:" + _OK + ";"
    "border-left-width:2px;border-radius:4px 0 0 4px;padding-left:3px}"
    ".bl-proof-link>:nth-child(2){text-align:left;overflow:hidden;text-overflow:ellipsis}"
    ".bl-proof-link>:last-child{border-right-width:2px;border-radius:0 4px 4px 0}"
    ".bl-proof-link i{font-style:normal;color:" + _MUTED + ";font-size:.85em}"
    ".bl-proof-c sub,.bl-proof-c sup{font-size:.72em;line-height:0}"
    ".bl-proof-loose>*{background:" + _LOOSE_BG + ";border-color:" + _LOOSE + "}"
    ".bl-proof-loose>:last-child b{color:" + _LOOSE + "}"
    ".bl-proof-fail>*{background:" + _FAIL_BG + ";color:" + _FAIL + ";"
    "border-bottom:1px dashed;border-top-width:0;padding-top:3px}"
    ".bl-proof-fail>:first-child,.bl-proof-foot b{color:" + _WARN + "}"
    ".bl-proof-foot,.bl-proof-key,.bl-proof-cite{white-space:nowrap;overflow:hidden;"
    "text-overflow:ellipsis;font-size:.78em;color:" + _MUTED + "}"
    ".bl-proof-foot{font-size:.85em;color:" + _FAIL + ";margin-top:3px}"
    ".bl-proof-key span{display:inline-block;width:.9em;height:.7em;margin:2px .25em 0 0;"
    "background:" + _LOOSE_BG + ";border:2px solid " + _LOOSE + ";border-radius:2px}"
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
    rel_num = lk.relation if lk.observed else _violated(lk.relation)
    return (
        f'<div class="{cls}" data-status="{esc(lk.status)}"'
        + (' data-loosest="true"' if loosest else "")
        + f' title="{esc(tip)}">'
        f"<span>{esc(_GLYPH[lk.status])}</span>"
        f"<span>{math_html(lk.left_label)} <b>{esc(lk.relation)}</b> "
        f"{math_html(lk.right_label)}</span>"
        f"<span>{esc(fmt(lk.left))} {esc(rel_num)} {esc(fmt(lk.right))}</span>"
        f"<span><i>slack </i><b>{esc(fmt_slack(lk))}</b></span>"
        "</div>"
    )


def _clip(text: str, limit: int = 150) -> str:
    """``text`` cut to ``limit`` characters at a word (more never fits one footnote line)."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def proof_compact_html(chain: Chain, *, large: bool = False) -> str:
    """The chain as a compact card for the lecture view: one line per link, about 200 px high.

    Each line holds the link's status glyph (``✓`` a theorem at this round, ``⚠`` an
    assumption fails, ``✗`` not a theorem / a paper's claim, ``≈`` a Monte Carlo estimate),
    the relation, its two values and the slack, in a grid so the numbers line up. The loosest
    holding link has a vermillion frame and tint; a link that does not hold is grey on grey
    with a dashed rule. Every line's ``title`` tooltip gives its status and the reason (or
    the note saying why it does not hold); the first link that does not hold also gets one
    footnote line with that note (cut with an ellipsis where the column ends: the whole note
    is that link's tooltip). A small key line names the tint, and the citation is one small
    line (the caption is its tooltip).

    The fragment is self-contained: its ``<style>`` is scoped by ``bl-proof`` class names,
    there is no script and no external asset, and every text is escaped with
    :func:`html.escape`. The card is opaque white with its own ink, so it reads the same on a
    dark theme. At 13 px (``large=False``) five links, the footnote, key and citation take
    about 180 px and fit a 420 px column; ``large=True`` (presenter mode, 16 px) about
    210 px in a 550 px column. Below 360 px the word "slack" is dropped; a narrower column
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
    >>> from ui.proof import _chain, link, proof_compact_html
    >>> c = _chain("round 1", [link("ε̂", "≤", "I", 0.1, 0.25),
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
        more = f" (+{len(failing) - 1} more: hover a grey line)" if len(failing) > 1 else ""
        words = f"{first.left_label} {first.relation} {first.right_label}"
        foot = (
            '<div class="bl-proof-foot">'
            f"<b>{esc(_GLYPH[first.status])}</b> {math_html(words)}: {esc(_clip(first.note))}"
            f"{esc(more)}</div>"
        )
    key = ""
    if chain.loosest is not None:
        key = (
            '<div class="bl-proof-key"><span></span>loosest link · ✓ theorem here'
            + (" · ⚠ ✗ not here" if failing else "")
            + " · hover a line for why</div>"
        )
    return (
        f'<div class="bl-proof-c{" bl-proof-lg" if large else ""}" role="group" '
        f'aria-label="{esc(chain.title)}" data-round="{chain.t}">'
        f'<div class="bl-proof-t">{rows}</div>'
        f"{foot}{key}"
        f'<div class="bl-proof-cite" title="{esc(chain.caption)}">{esc(chain.citation)}</div>'
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
#: its frames at 12 × 1.3 = 15.6 px (``ui.classroom.PRESENTER_SCALE``), the normal page at 12.
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
