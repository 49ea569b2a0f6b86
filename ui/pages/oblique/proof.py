"""The proof at this round on the boosted oblique trees page: its chain of inequalities.

:func:`g1_chain` turns one snapshot of G1 — on a path (AdaBoost_R) or on a tree (G1's tree,
BoostODT) — into a :class:`ui.proof.Chain`: ``ε̂(H) ≤ E e^−yH ≤ Π √(1 − μ_t²) …`` with this
round's numbers, each link marked a theorem at this round or not and why (docs/theory.md §4.1).
The links, statuses and drawing are the shared machinery of :mod:`ui.proof`.
"""

from __future__ import annotations

from collections.abc import Sequence

from boostcore import bounds
from boostcore.steps import STOP, Step
from ui.proof import ASSUMPTION, Chain, fmt, link, make_chain, rounds_upto


def _no_edge_stop(step: Step) -> bool:
    """Whether ``step`` is a stop because no weak hypothesis has an edge (``μ = 0``): only the
    stop snapshot's reason says so, its metrics repeat the last round's."""
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
    >>> from ui.pages.oblique.proof import g1_chain
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
    mus = [s.round.mu for s in rounds_upto(history, step.t) if s.round is not None]
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
    return make_chain(
        f"The proof at round {step.t} — G1 on a path",
        links,
        caption=caption,
        citation=citation,
        t=step.t,
    )


def _g1_tree_chain(step: Step) -> Chain:
    """:func:`g1_chain` for a tree snapshot (G1's tree, BoostODT): Theorem 2's chain."""
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
    return make_chain(
        f"The proof at round {step.t} — G1 on a tree", links, citation, caption, step.t
    )
