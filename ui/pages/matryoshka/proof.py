"""The proof at this round on the probabilistic boosting page: its chain of inequalities.

:func:`grossmann_chain` turns one snapshot of a probabilistic run (chain, tree, matryoshka or
collapsing tree) into a :class:`ui.proof.Chain`: ``E[error] ≤ C(T) ≤ F(T, ρ̂)`` and its variants
with this round's numbers, each link marked a theorem at this round, an estimate, or the paper's
claim, and why (docs/theory.md §3). The links, statuses and drawing are the shared machinery of
:mod:`ui.proof`.
"""

from __future__ import annotations

from boostcore import bounds
from boostcore.steps import Step
from ui.proof import (
    ASSUMPTION,
    CLAIM,
    ESTIMATE,
    NOT_THEOREM,
    Chain,
    fmt,
    is_finite,
    link,
    make_chain,
)

#: ``ρ̂`` (Grossmann) at least this close to 1 means a weak classifier without edge.
NO_EDGE_RHO = 1e-12

#: A structure's name in the chain's title and caption.
GROSSMANN_NAMES = {
    "chain": "probabilistic AdaBoost",
    "tree": "the probabilistic tree",
    "matryoshka": "the 2-matryoshka",
    "collapse": "the collapsing tree",
}


def _outer_internal(model: object) -> int:
    """Internal nodes of a probabilistic tree's outermost tree (its own weak classifiers)."""
    return sum(ch is not None for ch in model.children)


def is_collapsed(model: object) -> bool:
    """Whether some node of the outer tree is itself a tree (a collapsed doll)."""
    return any(
        ch is not None and hasattr(clf, "children")
        for ch, clf in zip(model.children, model.classifier)
    )


def grossmann_chain(step: Step, *, samples: int | None = None) -> Chain:
    """The chain of probabilistic boosting at this round (Grossmann 2006; docs/theory.md §3).

    * chain (probabilistic AdaBoost, §3.1): ``E[error] ≤ Π Z_t ≤ ρ̂^T`` — the exponential
      loss telescopes to ``Π Z_t``; ``ρ̂ = max Z_t``. The error is exact for a short chain
      (:mod:`boostcore.exact_chain`) and a Monte Carlo estimate beyond: when an estimate lies
      above ``Π Z_t`` (sampling noise) the link is an ``"estimate"``.
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
    >>> from ui.pages.matryoshka.proof import grossmann_chain
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> step = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1]
    >>> [(lk.right_label, round(lk.right, 3)) for lk in grossmann_chain(step).links]
    [('C(T)', 0.745), ('F(T, ρ̂)', 0.8)]
    """
    m = step.metrics
    structure = step.structure
    T = int(m.n_weak)
    rho = m.rho_hat
    no_edge = is_finite(rho) and float(rho) >= 1.0 - NO_EDGE_RHO
    edge_note = (
        "ρ̂ = 1: a weak classifier with no edge (Z₊ + Z₋ = 1), so this bound is the trivial 1 (§3.1)"
    )
    empty = "no weak classifier yet: the bound is 1" if T == 0 else ""
    map_note = (
        f"trained on MAP estimates of q (R = {samples}): the bound is computed from "
        "estimates, so it is an estimate, not a bound (§3)"
    )
    estimated = structure == "chain" and m.mc_stderr is not None
    left = "E[error] (MC)" if estimated else "E[error]"
    bound = "Π Z_t" if structure == "chain" else "C(T)"
    if samples is not None:
        kw = dict(status=NOT_THEOREM, note=map_note)
    elif estimated and m.train_error > m.bound_C:
        se = m.mc_stderr
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
            f"Level {L} (T = {T} soft stumps): the valid bounds are C(T) and F(2, ρ̂) of "
            f"the outer two-node tree, as on the chart.{claims}"
            if L >= 1
            else "Level 0: H = 0, the bound is 1."
        )
        citation = "Grossmann (2006), §4 Eqs. (8)–(9), §5.3 (M2) — docs/theory.md §3.2–3.3"
    else:  # tree, collapse
        n_out = _outer_internal(step.model)
        kw = dict(reason=empty or "greedy growth with ρ̂ = max (Z₊ + Z₋), Eq. (9)")
        if no_edge:
            kw = dict(status=ASSUMPTION, note=edge_note)
        if structure == "collapse" and is_collapsed(step.model):
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
    return make_chain(title, links, citation, caption, step.t)
