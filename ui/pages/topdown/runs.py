"""Cached runs of the top-down growth page: every run is computed once per parameter set and
shared by all sessions (:func:`ui.cache.shared`'s size-bounded store), so stepping through the
rounds only renders.

* :func:`topdown_run` — the snapshots of one criterion's run (a student's splits replayed first);
* :func:`topdown_state` — the state the student's next round starts from;
* :func:`topdown_lecture` — every round of every criterion's run as the lecture view's frames.
"""

from __future__ import annotations

import html

import streamlit as st

from boostcore import datasets
from boostcore.topdown import (
    EXACT_SEARCH_LIMIT,
    LARGE_LEAF_CUTS,
    GrowState,
    TreeStep,
    grow,
    replay,
)
from ui import lecture
from ui.cache import shared
from ui.labels import CRITERION_SHORT

from .frames import topdown_curves, topdown_proof_frames, tree_cells_figure, tree_pictures
from .tables import candidates_frame, metrics_frame


@shared
def topdown_run(
    _ds: datasets.Dataset,
    ds_key: str,
    size: int,
    index: str,
    criterion: str,
    max_arity: int,
    gamma: float | None,
    leaf_rule: str,
    choices: tuple = (),
) -> tuple[TreeStep, ...]:
    """All snapshots of one top-down run on a dataset identified by ``ds_key``.

    ``choices`` are a student's splits for rounds 1, 2, … (``(leaf, feature, thresholds,
    force)`` each, see :func:`boostcore.topdown.replay`); the rounds after them take the
    algorithm's own split.
    """
    return tuple(
        grow(
            _ds.X_train,
            _ds.y_train,
            size=size,
            index=index,
            criterion=criterion,
            max_arity=max_arity,
            gamma=gamma,
            leaf_rule=leaf_rule,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
            choose=replay(list(choices)) if choices else None,
        )
    )


# st.cache_resource, not the shared store: a GrowState holds mapping proxies (it cannot be
# pickled, so the store could not weigh it) and is small and read-only.
@st.cache_resource(max_entries=64, show_spinner=False)
def topdown_state(
    _ds: datasets.Dataset,
    ds_key: str,
    size: int,
    index: str,
    criterion: str,
    max_arity: int,
    gamma: float | None,
    leaf_rule: str,
    choices: tuple = (),
) -> GrowState | None:
    """The state before the student's next round (``len(choices) + 1``): a
    :class:`boostcore.topdown.GrowState`, or ``None`` when the run is over by then.

    The run replays ``choices`` and stops at the policy call of the next round, so the
    state's ``members``, ``score`` and ``best`` answer for the student's tree exactly as
    :func:`boostcore.topdown.grow` would.
    """
    seen = []
    policy = replay(list(choices))

    def capture(state):
        if state.t == len(choices):
            seen.append(state)
            raise _Captured
        return policy(state)

    try:
        for _ in grow(
            _ds.X_train,
            _ds.y_train,
            size=size,
            index=index,
            criterion=criterion,
            max_arity=max_arity,
            gamma=gamma,
            leaf_rule=leaf_rule,
            choose=capture,
        ):
            pass
    except _Captured:
        pass
    return seen[0] if seen else None


class _Captured(Exception):
    """Stops a replayed run at the round the student plays next (see :func:`topdown_state`)."""


# ------------------------------------------------------------------ lecture-view frames
@shared
def topdown_lecture(
    _ds: datasets.Dataset,
    ds_key: str,
    size: int,
    index: str,
    criteria: tuple[str, ...],
    max_arity: int,
    gamma: float,
    leaf_rule: str,
    font: float,
    choices: tuple = (),
    chooser: str | None = None,
) -> dict:
    """Every round of every criterion's run, encoded for the lecture view (cached: a step
    in the browser needs nothing from the server). ``choices`` (a student's splits, see
    :func:`topdown_run`) apply to the run of criterion ``chooser``.

    Returns a dict with, per criterion, ``regions``, ``structure``, ``curves``, ``notes``,
    ``small``, ``spark`` and ``proof`` frames and ``n`` (its number of snapshots), plus
    ``tables``: the round tables over all runs (HTML, one per round of the longest run).
    """
    runs = {
        c: topdown_run(
            _ds,
            ds_key,
            size,
            index,
            c,
            max_arity,
            gamma if c == "mansour_mcallester" else None,
            leaf_rule,
            choices if c == chooser else (),
        )
        for c in criteria
    }
    # one picture per round t = 0 … T: the stop snapshot repeats the last round with the final
    # metrics (γ̂ = 0 after an early stop at an impure leaf) and the reason, so it takes its place
    runs = {c: run[:-2] + run[-1:] if len(run) > 1 else run for c, run in runs.items()}
    out: dict = {"runs": {}}
    for c, steps in runs.items():
        # a student's lighter leaf or forced split ends the theorem (the run's metrics say so)
        final_is_theorem = (
            (c != "naive" or max_arity == 2)
            and leaf_rule == "max_weight"
            and bool(steps[-1].metrics.final_guarantee)
        )
        notes = []
        for s in steps:
            text = s.message
            if s.note:
                text = f"{text}  ⚠ {s.note}"
            notes.append(text)
        out["runs"][c] = {
            "n": len(steps),
            "regions": lecture.plotly_frames([tree_cells_figure(s, _ds, font=font) for s in steps]),
            "structure": lecture.same_frames(
                [
                    tree_pictures(
                        s, index=index, feature_names=_ds.feature_names, font=round(font + 1)
                    )
                    for s in steps
                ]
            ),
            "curves": lecture.plotly_frames(
                [
                    topdown_curves(
                        steps,
                        t,
                        size=size,
                        show_mm=c == "mansour_mcallester",
                        final_is_theorem=final_is_theorem,
                        font=font,
                    )
                    for t in range(len(steps))
                ]
            ),
            "small": lecture.plotly_frames(
                [tree_cells_figure(s, _ds, small=True, font=font) for s in steps]
            ),
            "spark": lecture.plotly_frames(
                [
                    topdown_curves(
                        steps,
                        t,
                        size=size,
                        show_mm=False,
                        final_is_theorem=False,
                        font=font,
                        small=True,
                    )
                    for t in range(len(steps))
                ]
            ),
            "notes": notes,
            "proof": lecture.same_frames(
                topdown_proof_frames(steps, criterion=c, leaf_rule=leaf_rule, font=font)
            ),
        }
    n = max(len(s) for s in runs.values())
    for c, steps in runs.items():  # a run that ended early says so while the others go on
        notes = out["runs"][c]["notes"]
        notes += [f"Finished at round {len(steps) - 1}. {notes[-1]}"] * (n - len(steps))

    cand, metr = [], []
    for t in range(n):
        current = {CRITERION_SHORT[c]: steps[min(t, len(steps) - 1)] for c, steps in runs.items()}
        frame = candidates_frame(current, _ds.feature_names)
        restricted = "".join(
            f"<p>⚠ {html.escape(run)}: leaf #{s.split.leaf} holds "
            f"{int(s.tree.n_samples[s.split.leaf]):,} training points (more than "
            f"{EXACT_SEARCH_LIMIT:,}), so its k-way splits were searched over "
            f"{LARGE_LEAF_CUTS} weighted-quantile cut points per feature, not every "
            "partition: its rows are the best of those candidates.</p>"
            for run, s in current.items()
            if s.t == t and s.split is not None and not s.split.exact_search
        )
        cand.append(
            restricted + lecture.table_html(frame)
            if len(frame)
            else "<p>No split in this round (round 0 is the single-leaf tree).</p>"
        )
        metr.append(lecture.table_html(metrics_frame(current)))
    out["candidates"] = lecture.same_frames(cand)
    out["metrics"] = lecture.same_frames(metr)
    out["n"] = n
    return out
