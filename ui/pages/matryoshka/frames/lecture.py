"""The lecture: every frame of every run (:func:`build_lecture`; cached:
:func:`matryoshka_lecture`), with the notes under the regions (:func:`notes_for`,
:func:`curve_note`) and the proof card of each step (:func:`proof_frames`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from boostcore import steps as protocol
from boostcore.datasets import Dataset
from boostcore.probabilistic import ProbStep
from ui.cache import shared
from ui.figures import data_extent
from ui.proof import is_large
from ui.proof import proof_frames as proof_cards  # this module's proof_frames wraps it
from ui.text import notation

from .. import runs as matryoshka_runs
from ..proof import grossmann_chain
from .curves import curves_figure
from .regions import (
    GRID,
    SMALL_GRID,
    newest_stump,
    points,
    q_grids,
    quantise,
    regions_figure,
    shrink,
)
from .steps import NAMES, next_event, shown_index, step_counts, structure_footer
from .structure import structure_pictures
from .tables import dolls_table, metrics_table
from .words import describe_run


# ========================================================================== the lecture
def notes_for(
    structure: str,
    steps: Sequence[ProbStep],
    n_weak: int,
    counts: Sequence[int] | None = None,
) -> list[str]:
    """A one-line note per step under the regions (``counts``: the weak classifiers of each
    step, :func:`step_counts`; ``0 … n_weak`` if omitted); the last one ends with why the
    run stopped (the stop snapshot's ``stop_reason``)."""
    run = list(steps)
    steps = protocol.rounds(run)
    notes = []
    for t in range(n_weak + 1) if counts is None else counts:
        i = shown_index(steps, t)
        if i is None:
            notes.append(next_event(structure, steps, t))
            continue
        s = steps[i]
        n = s.metrics.n_weak
        text = s.message
        if n < t:
            nxt = next_event(structure, steps, t)
            if n == 0:  # the matryoshka before its first doll
                text = nxt
            elif structure == "matryoshka":
                text = f"Showing the level-{int(round(math.log2(n)))} doll ({n} stumps). " + (
                    nxt or "This is the last level."
                )
            else:
                text = f"Finished at {n} stumps. {s.message}"
        # the core's messages name features x1, x2, …: their notation can be typeset
        notes.append(notation(text))
    reason = protocol.stop_reason(run)
    if reason and notes:
        notes[-1] = f"{notes[-1]} Stopped: {notation(reason)}".strip()
    return notes


def curve_note(structure: str, samples: int | None) -> str:
    note = "Faint: the whole run; solid: up to this round; dot: this round."
    if structure == "matryoshka":
        note = "M2 is the paper's claim (not proven, see below); C(T) is the valid bound. " + note
    elif structure == "chain":
        note = "Training error: exact; Monte Carlo ± 2 s.e. (bars) for long chains. " + note
    elif structure == "collapse":
        note = "C(T) jumps up at a collapse, and F(T, ρ̂) is the paper's claim from there. " + note
    if samples and structure in ("chain", "tree"):
        note = f"⚠ q estimated from {samples} answers: the bounds are estimates. " + note
    return note


def proof_frames(
    structure: str,
    steps: Sequence[ProbStep],
    *,
    n_weak: int,
    samples: int | None = None,
    font: float = 12,
    counts: Sequence[int] | None = None,
) -> list[str]:
    """The proof at each step (:func:`.proof.grossmann_chain` drawn by
    :func:`ui.proof.proof_compact_html`): frame ``k`` is the chain of the snapshot shown with
    ``counts[k]`` weak classifiers (:func:`shown_index`, as the regions and curves: between
    the matryoshka's levels, its last complete doll); not yet deduplicated.

    Parameters
    ----------
    structure : {"chain", "tree", "matryoshka", "collapse"}
        The run's structure (its name in the frames).
    steps : sequence of ProbStep
        The run.
    n_weak : int
        The last round.
    samples : int, optional
        The page's ``samples`` (``R``): only the chain and the tree train on MAP estimates.
    font : float, default 12
        The figures' font (:func:`ui.proof.is_large`).
    counts : sequence of int, optional
        The weak classifiers of each step (:func:`step_counts`); ``0 … n_weak`` if omitted.

    Returns
    -------
    list of str
    """
    rounds = protocol.rounds(steps)
    r = samples if structure in ("chain", "tree") else None
    chains: dict[int, Any] = {}
    shown = []
    for t in range(n_weak + 1) if counts is None else counts:
        i = shown_index(rounds, t)
        if i is not None and i not in chains:
            chains[i] = grossmann_chain(rounds[i], samples=r)
        shown.append(None if i is None else chains[i])
    return proof_cards(shown, large=is_large(font))


def build_lecture(
    runs: dict[str, Sequence[ProbStep]],
    ds: Dataset,
    *,
    n_weak: int,
    samples: int | None,
    font: float,
    counts: Sequence[int] | None = None,
) -> dict:
    """Every frame of every run (see the module docstring); plain JSON-ready data.

    ``counts`` are the weak classifiers of each step (:func:`step_counts`), one frame of
    every view and table per step; every count ``0 … n_weak`` if omitted. ``out["counts"]``
    holds them. Each run's ``descriptions`` are its three big views' sentences for a screen
    reader, one per step like its ``notes`` (:func:`describe_run`)."""
    from ui import lecture

    counts = tuple(range(n_weak + 1) if counts is None else (int(c) for c in counts))
    lo, hi = data_extent(ds)
    names = ds.feature_names
    out: dict = {"runs": {}, "n": n_weak, "counts": counts}
    for structure, run in runs.items():
        run = list(run)
        steps = protocol.rounds(run)
        grids = [quantise(q) for q in q_grids(steps, lo, hi, GRID)]
        small_grids = [quantise(shrink(q.astype(float) / 100.0)) for q in grids]
        blank = np.full((GRID, GRID), 50, dtype=np.uint8)
        blank_small = np.full((SMALL_GRID, SMALL_GRID), 50, dtype=np.uint8)
        levels = [s.metrics.n_weak for s in steps if s.metrics.n_weak]
        pts, pts_small = points(ds), points(ds, small=True)
        regions, small, pictures, curves, spark = [], [], [], [], []
        for t in counts:
            i = shown_index(steps, t)
            step = None if i is None else steps[i]
            fresh = step is not None and step.metrics.n_weak == t
            stump = newest_stump(step) if fresh else None
            waiting = step is None or (step.metrics.n_weak == 0 and t > 0)
            empty, note = "", ""
            if t == 0:
                # three short lines: the regions' column is narrower beside the quiz on a
                # projector (its curves widen, ui/lecture) and two long ones ran out of it
                empty = "Round 0: the initial model\nH = 0: P(H(x) > 0) = ½\neverywhere"
                note = "round 0:\nH = 0"
            elif waiting:
                empty = (
                    f"No doll yet:\nthe first one comes at T = {levels[0]}"
                    if levels
                    else "Nothing to show yet"
                )
                note = f"first doll:\nT = {levels[0]}" if levels else ""
            regions.append(
                regions_figure(
                    blank if i is None else grids[i],
                    ds,
                    lo,
                    hi,
                    stump=stump,
                    font=font,
                    empty=empty,
                    pts=pts,
                )
            )
            small.append(
                regions_figure(
                    blank_small if i is None else small_grids[i],
                    ds,
                    lo,
                    hi,
                    stump=stump,
                    font=font,
                    small=True,
                    empty=note,
                    pts=pts_small,
                )
            )
            pictures.append(
                structure_pictures(
                    step,
                    structure,
                    names=names,
                    font=round(font + 1),
                    footer_text=structure_footer(structure, steps, t, step),
                    levels=levels,
                    fresh=fresh,
                )
            )
            curves.append(curves_figure(steps, t, structure=structure, n_weak=n_weak, font=font))
            spark.append(
                curves_figure(steps, t, structure=structure, n_weak=n_weak, font=font, small=True)
            )
        out["runs"][structure] = {
            "n": len(steps),  # snapshots shown (start and steps; the stop repeats the last)
            "regions": lecture.plotly_frames(regions),
            "small": lecture.plotly_frames(small),
            "structure": lecture.same_frames(pictures),
            "curves": lecture.plotly_frames(curves),
            "spark": lecture.plotly_frames(spark),
            "notes": notes_for(structure, run, n_weak, counts),
            "descriptions": describe_run(
                run, ds, structure=structure, n_weak=n_weak, counts=counts
            ),
            "curve_note": curve_note(structure, samples),
            "proof": lecture.same_frames(
                proof_frames(
                    structure, steps, n_weak=n_weak, samples=samples, font=font, counts=counts
                )
            ),
        }
    metrics, dolls = [], []
    for t in counts:
        current = {}
        for structure, steps in runs.items():
            i = shown_index(steps, t)
            current[NAMES[structure]] = None if i is None else steps[i]
        metrics.append(metrics_table(current))
        if "matryoshka" in runs:
            steps = runs["matryoshka"]
            i = shown_index(steps, t)
            dolls.append(
                dolls_table(None if i is None else steps[i], next_event("matryoshka", steps, t))
            )
    out["metrics"] = lecture.same_frames(metrics)
    out["dolls"] = lecture.same_frames(dolls) if dolls else None
    return out


@shared
def matryoshka_lecture(
    _ds: Dataset,
    ds_key: str,
    structures: tuple[str, ...],
    n_weak: int,
    softness: float,
    samples: int | None,
    font: float,
    focus: str | None = None,
) -> dict:
    """Every step of every structure's run encoded for the lecture view (cached: a step in
    the browser needs nothing from the server), stepped by what changes the ``focus`` run
    (:func:`step_counts`; every count ``0 … n_weak`` without a focus). See
    :func:`build_lecture`."""
    runs = {
        s: matryoshka_runs.prob_run(
            _ds, ds_key, s, n_weak, softness, samples if s in ("chain", "tree") else None
        )
        for s in structures
    }
    counts = None if focus is None else step_counts(runs, focus)
    return build_lecture(runs, _ds, n_weak=n_weak, samples=samples, font=font, counts=counts)
