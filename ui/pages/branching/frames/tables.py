"""The round tables of /branching as HTML: the schemes' numbers (:func:`metrics_html`),
BP.InfoBoost's merged groups (:func:`groups_html`) and Lemma 4's line beside them
(:func:`lemma4_html`); the tables themselves are ``ui/pages/branching/tables.py``'s."""

from __future__ import annotations

from boostcore.branching import START, STOP, BPStep, round_lemma4
from ui.text import notation, rich_html

from ..proof import four_k
from ..tables import bp_metrics_frame, groups_frame


# ----------------------------------------------------------------------------- tables
def metrics_html(current: dict[str, BPStep]) -> str:
    """The round's numbers, one row per scheme (``run`` is the scheme's name)."""
    from ui.lecture import table_html

    return table_html(bp_metrics_frame(current))


def groups_html(step: BPStep) -> str:
    """BP.InfoBoost's merged leaves this round (Theorem 3's groups), with a line of numbers."""
    from ui.lecture import table_html

    if step.kind == START:
        return (
            "<p>Round 0: no groups yet: the program is its root, and round 1's stump "
            "divides it.</p>"
        )
    if step.kind == STOP:  # shown past the end of a run that stopped early
        return f"<p>{rich_html(notation(step.message))}</p>"
    if not step.groups:
        return "<p>No groups this round.</p>"
    m = step.metrics
    head = (
        f"Round {step.t}: γ_t = {m.gamma:.4f}, bound 1 − cγ_t = {m.bound_theorem3:.4f}, "
        f"H(Y|ℓ_t) = {m.H_leaves:.4f}, {len(step.groups)} groups (at most "
        f"{four_k(m.max_groups)})"
    )
    if m.n_unreached:
        head += (
            f"; {m.n_unreached} of them no training point reaches (mass 0: not "
            f"counted in |L_t| = {m.n_leaves})"
        )
    frame = groups_frame(step).astype(object)
    # the notation typeset (no user's words in these lines: numbers only)
    return f"<p><b>{rich_html(notation(head))}</b></p>" + lemma4_html(step) + table_html(frame)


def lemma4_html(step: BPStep) -> str:
    """One line beside Theorem 3's numbers: what Lemma 4 (Mansour–McAllester's merging, the
    paper's ref. [10]) would guarantee at this round with §6's ``λ, δ`` — the same bound
    ``1 − cγ_t``, with ``O((1/λ) ln(1/δ))`` groups against Theorem 3's ``O(ln(1/γ_t))``
    (Takimoto, Koya & Maruoka §6; docs/theory.md §2, "Lemma 4"). Lemma 4 only says such a
    merging exists and leaves its constant open, so its group count is shown as the
    expression ``(1/λ) ln(1/δ)``, labelled so; empty when the round has no information."""
    r = round_lemma4(step.metrics)
    if r is None:
        return ""
    lemma = "Lemma 4 (Mansour–McAllester's merging, an existence result)"
    if not r.applies:
        # only §6's λ is out of range: the lemma itself still gives the bound
        text = (
            f"{lemma}: §6's λ = (1−c)γ_t/(2(1−γ_t)) = {r.lam:.4g} is outside (0, 1) at this "
            f"round, but any 0 < λ < 1 with 0 < δ ≤ (2−c)γ_t − 1 = {r.delta_any:.4g} still "
            "guarantees (1+λ)(1−γ_t) + δ < 1 − cγ_t, since γ_t > 1/(2−c) here."
        )
    else:
        text = (
            f"{lemma} with λ = (1−c)γ_t/(2(1−γ_t)) = {r.lam:.4g} and δ = (1−c)γ_t/2 = "
            f"{r.delta:.4g} guarantees the same bound, (1+λ)(1−γ_t) + δ = {r.bound:.4f}, with "
            f"O((1/λ) ln(1/δ)) groups: (1/λ) ln(1/δ) = {r.groups_order:.1f}, times a constant "
            "the lemma does not give. By the same measure Theorem 3's bands need "
            f"ln(1/((1−c)γ_t)) / ln((1+c)/(2c)) = {r.theorem3_order:.1f}, and they count: "
            f"at most 4K = {r.max_groups} groups (|L_t| = {step.metrics.n_leaves} here)."
        )
    return f"<p>{rich_html(notation(text))}</p>"
