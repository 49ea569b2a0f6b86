"""The oblique page's panels beside the three views, one per stepper position: the round
tables (AdaBoost_R's rounds in the node, :func:`inner_html`; the runs' numbers,
:func:`metrics_frame`; the same-size axis-parallel trees, :func:`peers_html`) and the proof
(:func:`proof_frames`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from html import escape

from boostcore.steps import final, rounds
from ui import lecture
from ui.proof import is_large
from ui.proof import proof_frames as proof_cards  # this module's proof_frames wraps it
from ui.text import YOURS

from ..proof import g1_chain
from ..tables import inner_frame
from .positions import describe, short


# ------------------------------------------------------------------------------ tables
def inner_html(odt_steps, schedule, k: int, names: Sequence[str], whose: str = YOURS) -> str:
    """The AdaBoost_R rounds that built (or are building) the node of BoostODT's step (a
    node a person's line split: ``whose`` line it is, and what AdaBoost_R built instead)."""
    i, j, _ = schedule[k]
    step = odt_steps[i]
    if getattr(step, "by_policy", False):
        coef, b = step.separator.affine(len(names))
        terms = " ".join(
            f"{'−' if w < 0 else '+'} {abs(w):.3f}·{short(name, 14)}"
            for w, name in zip(coef, names)
            if w != 0.0
        ) + (f" {'−' if b < 0 else '+'} {abs(b):.3g}" if b != 0.0 else "")
        terms = terms[2:] if terms.startswith("+ ") else "−" + terms[2:]
        head = (
            f"<p><b>Node {step.node}: {escape(whose)} line</b> {escape(terms)} = 0 — "
            f"{step.node_index.size} examples, no AdaBoost_R rounds. What AdaBoost_R built "
            "for this node instead (the run did not use it):</p>"
        )
        frame = inner_frame(replace(step, inner=step.algorithm_inner))
        frame["weak hypothesis s_j"] = [
            describe(r.hyp, names) for r in step.algorithm_inner[: len(frame)]
        ]
        return head + lecture.table_html(frame, decimals=4)
    if not step.inner:
        return (
            "<p><b>Round 0: the root alone.</b> One constant node: H = ½ ln(w⁺/w⁻) "
            "everywhere. Step forward to watch AdaBoost_R build the root's separator LS.</p>"
        )
    building = j is not None and j < len(step.inner)
    frame = inner_frame(step, j if building else None)
    frame["weak hypothesis s_j"] = [describe(r.hyp, names) for r in step.inner[: len(frame)]]
    head = (
        f"<p><b>AdaBoost_R inside node {step.node}</b> — {step.node_index.size} "
        "examples, class-balanced weights (each class has mass ½)"
        + (f"; {j} of {len(step.inner)} rounds so far" if building else "")
        + ".</p>"
    )
    return head + lecture.table_html(frame, decimals=4)


def metrics_frame(current: dict):
    """One row per G1 specialisation: the numbers of the shown round (``current`` maps a
    run's name to ``(snapshot, label)``); the columns of Theorems 1 and 2."""
    import pandas as pd

    rows = []
    for name, (s, label) in current.items():
        m = s.metrics
        rows.append(
            {
                "method": name,
                "step": label,
                "train error": m.train_error,
                "test error": m.test_error,
                "ν(H, 0)": m.margin_error_0,
                "E e⁻ʸᴴ": m.exp_loss,
                "Σ 2√(w⁺w⁻)": m.km_impurity,
                "Theorem 1 bound": m.bound_theorem1,
            }
        )
    return pd.DataFrame(rows)


def peers_html(rows: list[dict]) -> str:
    import pandas as pd

    frame = pd.DataFrame(rows, columns=["model", "leaves", "train error", "test error"])
    return (
        "<div class='bl-odt-peers'><style>.bl-odt-peers td:first-child{white-space:normal;"
        "min-width:11em}</style>" + lecture.table_html(frame, decimals=3) + "</div>"
    )


# ------------------------------------------------------------------------------ the proof
def proof_frames(run: Sequence, shown: Sequence[int], *, font: float = 12) -> list[str]:
    """The proof at each stepper position (:func:`.proof.g1_chain` drawn by
    :func:`ui.proof.proof_compact_html`): position ``k`` shows the chain of the run's round
    ``shown[k]`` (``shown_at(...)[name].idx``, the snapshot its regions and curves show; while
    BoostODT builds a node, the tree before it); not yet deduplicated.

    The run's last round is drawn from its stop snapshot (the same round and metrics) so that
    a run that stopped because no weak hypothesis has an edge (``μ = 0``) says so.

    Parameters
    ----------
    run : sequence of G1Step or ODTStep
        The whole run (G1 on a path needs its earlier rounds).
    shown : sequence of int
        The round shown at each position.
    font : float, default 12
        The figures' font (:func:`ui.proof.is_large`).

    Returns
    -------
    list of str
    """
    run = list(run)
    steps = rounds(run)
    last = final(run) if run and final(run).t == steps[-1].t else steps[-1]
    chains: dict[int, object] = {}
    for i in dict.fromkeys(shown):
        step = last if i == len(steps) - 1 else steps[i]
        chains[i] = g1_chain(step, history=run)
    return proof_cards([chains[i] for i in shown], large=is_large(font))
