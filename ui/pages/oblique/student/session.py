"""The student's turn on /oblique as the session keeps it: the mode's toggle, the played
separators (:data:`TURN`, one per step, for the run they belong to), whose they are, and the
node the run splits next."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from boostcore.oblique import ODTStep
from boostcore.steps import STEP
from ui.weak_common import Turn

KEY = "weak_oblique"
FOCUS = "BoostODT"  # the short name of BoostODT's run in the focus selector

INNER_OFF = (
    "Stepping through the stumps inside each node is off while you are the weak learner: "
    "your nodes are single lines (no stumps to step through), so the stepper counts one "
    "BoostODT node per step."
)


# ------------------------------------------------------------------------------ the runs
def next_split(run: Sequence[ODTStep], n_played: int) -> tuple[ODTStep, ODTStep] | None:
    """``(before, algorithm's)``: the snapshot after the student's ``n_played`` steps and the
    run's next step — the node the leaf rule picks there, split by AdaBoost_R (the run plays
    the algorithm after the student's steps) — or ``None`` when the run is over by then."""
    if n_played + 1 >= len(run):
        return None
    before, nxt = run[n_played], run[n_played + 1]
    if before.t != n_played or nxt.kind != STEP:
        return None
    return before, nxt


# ------------------------------------------------------------------------------ session
def toggle(page: str = "oblique") -> bool:
    """The "You are the weak learner" toggle (off by default: the page's normal mode)."""
    return st.toggle(
        "You are the weak learner",
        value=False,
        key=f"weak_{page}_on",
        on_change=TURN.shown,
        help="Draw BoostODT's next separator yourself — an angle and an offset, or drag a box "
        "on the plot — and see its μ, α and the node's loss next to AdaBoost_R's separator. "
        "The run continues from your lines: the regions, the tree, the curves and the proof "
        "use them.",
    )


def _focus_boostodt() -> None:
    st.session_state["focus"] = FOCUS


TURN = Turn(
    KEY,
    "The data or the parameters changed: your lines belonged to the previous run, so your "
    "turn starts again from the root.",
    on_show=_focus_boostodt,
)


def choices(signature: tuple) -> tuple:
    """The student's separators for the run with this ``signature`` (data and parameters);
    a different signature starts over (and says so once)."""
    return TURN.choices(signature)


def whose() -> str:
    """Whose the played lines are, for the views' notes: the class's on a class follower's
    page (the teacher played them), else the student's own."""
    return TURN.whose()
