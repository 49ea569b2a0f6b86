"""The proof at this round on the top-down growth page: its chain of inequalities.

:func:`topdown_chain` turns one snapshot of a top-down run (plus the criterion and leaf rule the
snapshot does not hold) into a :class:`ui.proof.Chain`: ``ε̂(T) ≤ I(T) ≤ φ_γ̂(…) ≤ …`` with
this round's numbers, each link marked a theorem at this round or not and why
(docs/theory.md §1). The links, statuses and drawing are the shared machinery of
:mod:`ui.proof`; :func:`ui.proof.proof_frames` draws the chains as the lecture's cards.
"""

from __future__ import annotations

from boostcore.steps import Step
from ui.proof import ASSUMPTION, HOLDS, NOT_THEOREM, Chain, Link, fmt, is_finite, link, make_chain
from ui.text import YOURS, capitalized

#: A criterion's name in the chain's title.
TOPDOWN_NAMES = {
    "hatano": "Hatano's TOPDOWN-M",
    "mansour_mcallester": "Mansour–McAllester",
    "naive": "the naive criterion",
}


def _gamma_zero_note(step: Step) -> str:
    """Why a bound is the trivial 1 when ``γ̂ = 0``, with the snapshot's own note if any."""
    extra = f" {step.note}" if getattr(step, "note", "") else ""
    return (
        "γ̂ = 0: at some expansion the weak-hypothesis assumption failed (the heaviest leaf "
        "could not be split, or the chosen split removed nothing), so this bound is the "
        f"trivial 1 (docs/theory.md §0.3).{extra}"
    )


def hatano_rule_breaks(step: Step) -> list[tuple[int, int, int]]:
    """The splits of the run so far that break Hatano's rule ``k = 2`` or ``k ≤ s/|T|``.

    Read from the tree itself: an internal node's children carry the round that created
    them (``Tree.created_at``), and ``|T|`` before a split is one plus the ``k − 1`` leaves
    each earlier split added. Hatano (2004), Fig. 2's acceptability rule (docs/theory.md §1.2).

    Parameters
    ----------
    step : boostcore.topdown.TreeStep
        A snapshot of a top-down run.

    Returns
    -------
    list of (round, k, n_leaves)
        Each offending split in round order: its round, its arity and ``|T|`` just before it.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.topdown import grow
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(grow(ds.X_train, ds.y_train, size=3, criterion="naive", max_arity=3))
    >>> hatano_rule_breaks(run[-1])  # one 3-way split at |T| = 1: 3 ≤ 3/1 is allowed
    []
    """
    tree = step.tree
    internal = [node for node, ch in enumerate(tree.children) if ch]
    internal.sort(key=lambda node: int(tree.created_at[tree.children[node][0]]))
    breaks, n = [], 1
    for node in internal:
        k = len(tree.children[node])
        if k > 2 and k > step.size / n:
            breaks.append((int(tree.created_at[tree.children[node][0]]), k, n))
        n += k - 1
    return breaks


def _broken_rule_note(step: Step, criterion: str) -> str:
    """Why ``I(T) ≤ φ_γ̂(s)`` is not Theorem 4 on a run whose split broke Hatano's rule."""
    breaks = hatano_rule_breaks(step)
    if not breaks:  # final_guarantee is False for a reason the tree does not show
        return "a split of this run left Theorem 4's assumptions, so φ_γ̂(s) is a reference (§1.2)"
    t, k, n = breaks[0]
    more = f" (and {len(breaks) - 1} later split(s))" if len(breaks) > 1 else ""
    who = f"{TOPDOWN_NAMES[criterion]} took" if criterion in TOPDOWN_NAMES else "the run took"
    return (
        f"{who} a {k}-way split at round {t}, when |T| = {n}{more}: Hatano's rule k ≤ s/|T| "
        f"= {step.size}/{n} forbids it, so Theorem 4 does not apply: φ_γ̂(s) is a reference "
        "(§1.2, §1.4)"
    )


def topdown_chain(
    step: Step, *, criterion: str, leaf_rule: str = "max_weight", whose: str = YOURS
) -> Chain:
    """The chain of top-down growth at this round (docs/theory.md §1).

    * A binary run with the max-weight leaf rule (``metrics.binary_guarantee``):
      ``ε̂(T) ≤ I(T) ≤ φ_γ̂(|T|) ≤ e_γ̂(|T|) ≤ |T|^−γ̂`` at **every** round — Kearns–Mansour's
      analysis (Mansour & McAllester 2000, Theorem 3.2) and Hatano (2004), Theorems 3 and 5:
      a binary max-weight run is TOPDOWN-M for every target size (docs/theory.md §1.1, §1.5).
    * After a multi-way split: ``ε̂(T) ≤ I(T) ≤ φ_γ̂(s) ≤ s^−γ̂``, where ``I(T) ≤ φ_γ̂(s)`` is
      Hatano's Theorem 4 (through its proof) for the **final** tree of budget ``s`` only, and
      only when every split of the run kept Hatano's rule ``k = 2`` or ``k ≤ s/|T|``
      (``TreeMetrics.final_guarantee``): always for ``hatano`` and ``mansour_mcallester``
      (whose rule implies it), and for a ``naive`` run whose wide splits happened to keep it.
      The proof uses only the rule and ``γ̂``, not the criterion's name; a run that broke the
      rule is greyed with the split that broke it (docs/theory.md §1.2, §1.4).
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
    whose : str, default :data:`ui.text.YOURS`
        Whose the splits a person chose are, for the caption (:data:`ui.text.THE_CLASS` on a
        class follower's page).

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
    >>> from ui.pages.topdown.proof import topdown_chain
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
    started = is_finite(g)
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
        elif not getattr(m, "final_guarantee", True):
            # grey by what the run did: the proof of Theorem 4 needs only max-weight leaves
            # and Hatano's rule at every expansion, whatever criterion chose the splits
            kw = dict(status=NOT_THEOREM, note=_broken_rule_note(step, criterion))
        elif not final:
            kw = dict(
                status=NOT_THEOREM,
                note=f"after a multi-way split Theorem 4 bounds only the final tree "
                f"(|T| = s = {s}); at |T| = {n} no theorem bounds I(T) (§1.2)",
            )
        elif trivial:
            kw = dict(status=ASSUMPTION, note=_gamma_zero_note(step))
        else:
            why = {
                "mansour_mcallester": " (their acceptability rule implies Hatano's k ≤ s/|T|)",
                "naive": " (every split of this run kept Hatano's rule k ≤ s/|T|)",
            }.get(criterion, "")
            kw = dict(reason=f"the final tree of budget s: Hatano's Thm 4, by its proof{why}")
        links += [
            link("I(T)", "≤", "φ_γ̂(s)", m.index_value, m.bound_phi_final, **kw),
            link(
                "φ_γ̂(s)",
                "≤",
                "s^−γ̂",
                m.bound_phi_final,
                m.bound_final,
                reason="φ_γ(s) ≤ s^−γ: the last step of Hatano's proof of Thm 4 (§1.5)",
            ),
        ]
        if by_hand:
            caption = (
                f"{capitalized(whose)} splits left the theorems' rules: only "
                f"ε̂(T) ≤ I(T) holds (|T| = {n})."
            )
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
    return make_chain(title, links, citation, caption, step.t)


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
