"""Where the oblique page's stepper stands: the three runs' names, what inner stepping
costs (and when it is refused), what each run shows at a stepper position (:class:`Shown`,
:func:`shown_at`; its note in the page's words, :func:`said`) and a weak hypothesis with the
data's feature names (:func:`describe`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from boostcore.realboost import Additive, WeakHypothesis
from boostcore.steps import final, rounds
from ui.text import notation

#: Long run names (tables, help texts) and the short ones of the focus selector / URL.
ADA, KM, ODT = "AdaBoost (G1 on a path)", "KM tree (G1 on a tree)", "BoostODT"
SHORT = {ODT: "BoostODT", ADA: "AdaBoost", KM: "KM tree"}
ORDER = (ADA, KM, ODT)

#: Inner stepping draws one frame per AdaBoost_R round of every node. Measured on this
#: project's 2-core machine (issue 16): about 4.7 ms + 12.6 µs per training point per frame
#: (1,240 frames: 10.5 s at 300 points, 64 s at 3,750). Above this many seconds the page
#: steps node by node instead and says why.
INNER_SECONDS_LIMIT = 15.0


def inner_stepping_cost(n_train: int, n_internal: int, n_stumps: int) -> float:
    """Estimated seconds to prepare the inner-stepping lecture (:data:`INNER_SECONDS_LIMIT`).

    >>> round(inner_stepping_cost(3750, 31, 40))
    64
    """
    return n_internal * n_stumps * (4.7 + 0.0126 * n_train) / 1000.0


def inner_stepping_refusal(n_train: int, n_internal: int, n_stumps: int) -> str | None:
    """Why inner stepping is off for this size (plain text), or ``None`` when it is allowed."""
    cost = inner_stepping_cost(n_train, n_internal, n_stumps)
    if cost <= INNER_SECONDS_LIMIT:
        return None
    return (
        f"Stepping through the stumps inside each node is off for this size: "
        f"{n_internal * n_stumps:,} steps on {n_train:,} training points would take about "
        f"{cost:.0f} s to prepare (the limit is {INNER_SECONDS_LIMIT:.0f} s). Fewer stumps per "
        "node (T1), fewer nodes (T2) or fewer points allow it; the page steps node by node."
    )


# ------------------------------------------------------------------------------ positions
@dataclass
class Shown:
    """What one run shows at a stepper position."""

    idx: int  # index of the snapshot in the run (a round: 0 = the initial model)
    label: str  # "10 stumps", "3 splits", "node 4, stump 2/10"
    note: str  # one line under the views
    partial: Additive | None = None  # BoostODT: the separator being built
    partial_node: int | None = None
    j: int | None = None  # BoostODT: stumps of the node being built
    new: tuple[int, int] = (0, 0)  # AdaBoost: the stumps added at this step (lo, hi]


def said(text: str) -> str:
    """A core message or stop reason (its features are x1, x2, …) in the page's words: the
    notation typeset (``h_10``) and no parameter's name ("All n_internal = 7 splits are
    done." says "All 7 splits are done.")."""
    return notation(re.sub(r"\bn_internal = ", "", text))


def _ended(note: str, run, shown_last: bool) -> str:
    """``note`` (a core message), followed by why the run ended when its last round is
    shown, in the page's words (:func:`said`)."""
    reason = final(run).stop_reason if run else None
    return said(f"{note} {reason}" if shown_last and reason else note)


def shown_at(
    runs: dict, schedule: Sequence[tuple], k: int, names: Sequence[str] | None = None
) -> dict[str, Shown]:
    """Each run's snapshot at stepper position ``k`` (AdaBoost after as many stumps as
    BoostODT has used; the KM tree after as many splits as BoostODT's complete nodes);
    ``names`` are the feature names used in the notes.

    Every run shows one of its rounds (``t = 0 … T``, :func:`boostcore.steps.rounds`): the
    index is the same in the whole run. A run's last round adds why the run ended
    (:func:`boostcore.steps.final`) to its note.
    """
    i, j, used = schedule[k]
    prev_used = schedule[k - 1][2] if k > 0 else 0
    odt, ada, km = (rounds(runs[name]) for name in (ODT, ADA, KM))
    odt_step = odt[i]
    complete = j is None or j == len(odt_step.inner)
    out: dict[str, Shown] = {}

    t_ada = len(ada) - 1  # AdaBoost's last round
    a = min(used, t_ada)
    s = ada[a]
    if a == 0:
        note = "H = 0: no stump yet. " + (
            "AdaBoost's first stumps appear at step 1, as many as BoostODT's root uses."
            if t_ada
            else final(runs[ADA]).stop_reason
        )
    elif used > t_ada:
        note = said(f"Finished at round {s.t}. {final(runs[ADA]).stop_reason}")
    else:
        note = _ended(s.message, runs[ADA], a == t_ada)
    out[ADA] = Shown(a, f"{s.t} stumps", note, new=(min(prev_used, t_ada), a))

    k_km = i if complete else i - 1
    t_km = len(km) - 1
    a = min(k_km, t_km)
    if k_km > a:
        note = said(f"Finished after {km[a].t} splits. {final(runs[KM]).stop_reason}")
    else:
        note = _ended(km[a].message, runs[KM], a == t_km)
    out[KM] = Shown(a, f"{km[a].t} splits", note)

    if complete:
        out[ODT] = Shown(
            i, f"{i} nodes", _ended(odt_step.message, runs[ODT], k == len(schedule) - 1)
        )
    else:
        n_in = len(odt_step.inner)
        out[ODT] = Shown(
            i - 1,
            f"node {odt_step.node}, stump {j}/{n_in}",
            f"Building node {odt_step.node}: LS so far has {j} of {n_in} weak hypotheses "
            f"(newest: {describe(odt_step.inner[j - 1].hyp, names)}, "
            f"α = {odt_step.inner[j - 1].alpha:.3f}).",
            partial=odt_step.separator.prefix(j),
            partial_node=odt_step.node,
            j=j,
        )
    return out


# ------------------------------------------------------------------------------ helpers
def short(name: str, n: int = 12) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def describe(h: WeakHypothesis, names: Sequence[str] | None) -> str:
    """A weak hypothesis with the data's feature names (plain text, escape before use)."""
    f = short(names[h.feature]) if names is not None and h.feature >= 0 else f"x{h.feature + 1}"
    sign = "" if h.polarity > 0 else "−"
    if h.kind == "stump":
        return f"{sign}sgn({f} > {h.threshold:.3g})"
    if h.kind == "linear":
        return f"{sign}({f} − {h.threshold:.3g})"
    if h.kind == "constant":
        return f"{h.polarity:+g}"
    return type(h.estimator).__name__
