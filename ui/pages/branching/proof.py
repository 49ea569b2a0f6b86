"""The proof at this round on the divide-and-merge page: its chain of inequalities.

:func:`branching_chain` turns one snapshot of a BP.InfoBoost run (plus the merging scheme and the
earlier rounds, which the snapshot does not hold) into a :class:`ui.proof.Chain`:
``ε̂(sign F_t) ≤ Π Z_t = Π H(Y|ℓ_t) ≤ Π H(Y|h_t)`` with this round's numbers, each link marked
a theorem at this round or not and why (docs/theory.md §2). The links, statuses and drawing are
the shared machinery of :mod:`ui.proof`.
"""

from __future__ import annotations

from collections.abc import Sequence

from boostcore import bounds
from boostcore.steps import Step
from ui.proof import ASSUMPTION, Chain, fmt, link, make_chain, rounds_upto

#: A merging scheme's name in the chain's title.
MERGE_NAMES = {
    "all": "InfoBoost (merge all)",
    "none": "DT.InfoBoost (no merging)",
    "bands": "BP.InfoBoost (entropy bands)",
}


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
    >>> from ui.pages.branching.proof import branching_chain
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
    return make_chain(title, links, citation, caption, step.t)
