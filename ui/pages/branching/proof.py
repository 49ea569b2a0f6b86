"""The proof at this round on the divide-and-merge page: its chain of inequalities.

:func:`branching_chain` turns one snapshot of a BP.InfoBoost run (plus the merging scheme and the
earlier rounds, which the snapshot does not hold) into a :class:`ui.proof.Chain`:
``ε̂(sign F_t) ≤ Π Z_t = Π H(Y|ℓ_t) ≤ Π H(Y|h_t)`` with this round's numbers, Theorem 2's floor
``H_U(Y|h_1…h_t) ≤ Π Z_t`` (every scheme) and, for the bands, Theorem 3 beside Lemma 4
(Mansour–McAllester's merging), each link marked a theorem at this round or not and why
(docs/theory.md §2). The links, statuses and drawing are the shared machinery of
:mod:`ui.proof`.
"""

from __future__ import annotations

from collections.abc import Sequence

from boostcore import bounds
from boostcore.branching import BPMetrics, round_lemma4
from boostcore.steps import Step
from ui.proof import ASSUMPTION, Chain, Link, fmt, link, make_chain, rounds_upto

#: A merging scheme's name in the chain's title.
MERGE_NAMES = {
    "all": "InfoBoost (merge all)",
    "none": "DT.InfoBoost (no merging)",
    "bands": "BP.InfoBoost (entropy bands)",
}


def four_k(max_groups: int) -> str:
    """Theorem 3's leaf count in words: ``"4K = 36 (K = 9 entropy bands × 2 signs × 2 sides
    of h_t)"``. ``K`` is the number of bands ``[ε_{j−1}, ε_j)`` of ``1 − G(q)`` the merge uses,
    the first ``j`` with ``ε_j ≥ 1`` (``boostcore.branching.eps_bands``); BP.InfoBoost merges
    within each band, sign of ``q − 1/2`` and side of ``h_t``, so at most ``4K`` leaves
    (Takimoto, Koya & Maruoka 2004, Theorem 3; docs/theory.md §2).

    >>> four_k(36)
    '4K = 36 (K = 9 entropy bands × 2 signs × 2 sides of h_t)'
    """
    if max_groups < 4 or max_groups % 4:
        raise ValueError(f"max_groups must be 4K for a whole K ≥ 1; got {max_groups!r}")
    return f"4K = {max_groups} (K = {max_groups // 4} entropy bands × 2 signs × 2 sides of h_t)"


def _round_list(ts: Sequence[int]) -> str:
    """The rounds ``ts`` as "1, 2, 3", the first six only (a note is one line of the card)."""
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

    Every scheme adds Theorem 2's floor ``H_U(Y|h_1…h_t) ≤ Π Z_t``: Theorem 2 is
    ``H_U(Y|h_1…h_t) = Π Z_t · H_{D_{t+1}}(Y|h_1…h_t)`` (through Lemma 1, so for any weights
    with the actual normalisers, smoothed or not) and ``H_{D_{t+1}}(·) ≤ 1``. The link is
    ``=`` when Lemma 3 makes that factor 1: the leaves are the paths (``n_leaves ==
    n_paths``: DT.InfoBoost, or any scheme at round 1) and no leaf of this round is smoothed
    (a one-class leaf keeps mass under ``D_{t+1}`` and adds no entropy); ``≤`` otherwise,
    with the factor in the reason. ``bands`` adds this round's Theorem 3, ``H(Y|ℓ_t) ≤ 1 −
    cγ_t``, whose reason sets Lemma 4 beside it (:func:`boostcore.branching.lemma4_merging`).

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
    >>> from ui.pages.branching.proof import branching_chain
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    >>> chain = branching_chain(run[3], merge="bands", history=run)
    >>> [lk.right_label for lk in chain.links]
    ['Π Z_t', 'Π H(Y|ℓ_t)', 'Π H(Y|h_t)', 'Π Z_t', '1 − cγ_t']
    >>> [lk.status for lk in chain.links]  # pure leaves were smoothed: Lemma 2's "=" fails
    ['holds', 'assumption', 'holds', 'holds', 'holds']
    >>> floor = chain.links[3]  # Theorem 2: no scheme's bound goes below H_U(Y|h_1…h_t)
    >>> floor.left_label, floor.relation, round(floor.left, 4), round(floor.right, 4)
    ('H_U(Y|h_1…h_t)', '≤', 0.2066, 0.2329)
    """
    if merge not in MERGE_NAMES:
        raise ValueError(f"merge must be one of {tuple(MERGE_NAMES)}; got {merge!r}")
    m = step.metrics
    rounds = rounds_upto(history, step.t)
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
    if step.t >= 1:
        links.append(_floor_link(m))
    if merge == "bands" and step.t >= 1:
        links.append(
            link(
                "H(Y|ℓ_t)",
                "≤",
                "1 − cγ_t",
                m.H_leaves,
                m.bound_theorem3,
                reason=f"Thm 3 for this round's bands (1 − γ_t = H(Y|ℓ̃_t) = {fmt(m.H_divided)}; "
                f"{m.n_leaves} leaves, at most {four_k(m.max_groups)})" + _lemma4_words(m),
            )
        )
    if step.t == 0:
        caption = "Round 0: F_0 = 0, every product is empty (= 1)."
    elif smoothed:
        caption = "Theorem 1 holds; a smoothed one-class leaf breaks Lemma 2's equality."
    else:
        caption = f"Every link is a theorem at round {step.t}: the bound is Π Z_t."
    citation = (
        "Takimoto, Koya & Maruoka (2004), "
        + {
            "none": "Lemmas 1–3, Thms 1–2",
            "bands": "Lemmas 1–4, Thms 1–3 (Lemma 4: Mansour & McAllester)",
            "all": "Lemmas 1–3, Thms 1–2; Aslam (2000)",
        }[merge]
    )
    citation += " — docs/theory.md §2"
    title = f"The proof at round {step.t} — {MERGE_NAMES[merge]}"
    return make_chain(title, links, citation, caption, step.t)


def _floor_link(m: BPMetrics) -> Link:
    """Theorem 2's floor at a round: ``H_U(Y|h_1…h_t) ≤ Π Z_t``, or ``=`` when Lemma 3 makes
    ``H_{D_{t+1}}(Y|h_1…h_t)`` equal to 1 (the leaves are the paths, none smoothed)."""
    if m.n_leaves == m.n_paths and m.smoothing_excess == 0:
        return link(
            "H_U(Y|h_1…h_t)",
            "=",
            "Π Z_t",
            m.H_paths,
            m.bound_prod_Z,
            reason="Thm 2 with Lemma 3: the leaves are the paths of h_1…h_t, each balanced "
            "under D_{t+1}, so the bound is the information floor",
        )
    why = []
    if m.n_leaves < m.n_paths:
        why.append(f"the {m.n_leaves} leaves merge the {m.n_paths} paths")
    if m.smoothing_excess > 0:
        why.append("a one-class leaf this round keeps mass under D_{t+1} without entropy")
    return link(
        "H_U(Y|h_1…h_t)",
        "≤",
        "Π Z_t",
        m.H_paths,
        m.bound_prod_Z,
        reason="Thm 2: H_U(Y|h_1…h_t) = Π Z_t · H_{D_{t+1}}(Y|h_1…h_t), and "
        f"H_{{D_{{t+1}}}}(Y|h_1…h_t) = {fmt(m.H_paths_next)} ≤ 1 because "
        + " and ".join(why)
        + " (Lemma 3 balances the leaves, not the paths): Π Z_t cannot go below this floor",
    )


def _lemma4_words(m: BPMetrics) -> str:
    """Lemma 4 (Mansour–McAllester's merging) with §6's λ, δ at this round, for the Theorem 3
    link: the same bound ``1 − cγ_t`` with ``O((1/λ) ln(1/δ))`` groups."""
    r = round_lemma4(m)
    if r is None:
        return ""
    if not r.applies:
        # only §6's λ is out of range: the lemma itself still gives the bound
        return (
            ". Lemma 4 (Mansour–McAllester's merging): §6's λ = (1−c)γ_t/(2(1−γ_t)) = "
            f"{fmt(r.lam)} is outside (0, 1), but any 0 < λ < 1 with 0 < δ ≤ (2−c)γ_t − 1 = "
            f"{fmt(r.delta_any)} still gives (1+λ)(1−γ_t) + δ < 1 − cγ_t (γ_t > 1/(2−c))"
        )
    return (
        f". Lemma 4 (Mansour–McAllester's merging) with λ = {fmt(r.lam)}, δ = {fmt(r.delta)} "
        f"guarantees the same (1+λ)(1−γ_t) + δ = {fmt(r.bound)} with O((1/λ) ln(1/δ)) groups, "
        f"(1/λ) ln(1/δ) = {r.groups_order:.1f} up to a constant the lemma leaves open "
        f"(Thm 3: ln(1/((1−c)γ_t))/ln((1+c)/(2c)) = {r.theorem3_order:.1f})"
    )
