"""The lecture of /topdown, built once per setting: every round of every criterion's run encoded
for the lecture view (:func:`topdown_lecture`, cached), with the notes, the round tables and the
proof card of each round (:func:`topdown_proof_frames`)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from boostcore import datasets
from boostcore.topdown import EXACT_SEARCH_LIMIT, LARGE_LEAF_CUTS, TreeStep
from ui import lecture
from ui.cache import shared
from ui.labels import CRITERION_SHORT
from ui.params import Settings
from ui.proof import is_large, proof_frames
from ui.text import YOURS, who_chose

from ..proof import topdown_chain
from ..runs import topdown_run
from ..tables import candidates_frame, metrics_frame
from .curves import topdown_curves
from .regions import tree_cells_figure
from .structure import tree_pictures
from .words import topdown_descriptions


# --------------------------------------------------------------------------- the proof
def topdown_proof_frames(
    steps: Sequence[TreeStep],
    *,
    criterion: str,
    leaf_rule: str,
    font: float = 12,
    whose: str = YOURS,
) -> list[str]:
    """The proof at each round (:func:`.proof.topdown_chain` drawn by
    :func:`ui.proof.proof_compact_html`): one compact HTML card per snapshot of ``steps``, in
    the same order as the regions and curves frames (the page's steps: the stop snapshot in
    the last round's place), not yet deduplicated (``lecture.same_frames``).

    Parameters
    ----------
    steps : sequence of TreeStep
        The snapshots shown, one per round.
    criterion, leaf_rule : str
        The run's criterion and leaf rule (the snapshots do not hold them).
    font : float, default 12
        The figures' font: presenter mode's larger one draws the large card
        (:func:`ui.proof.is_large`).
    whose : str, default :data:`ui.text.YOURS`
        Whose a person's splits are (:func:`.proof.topdown_chain`).

    Returns
    -------
    list of str
    """
    chains = [
        topdown_chain(s, criterion=criterion, leaf_rule=leaf_rule, whose=whose) for s in steps
    ]
    return proof_frames(chains, large=is_large(font))


# ------------------------------------------------------------------------ the lecture view
@shared
def topdown_lecture(
    _ds: datasets.Dataset,
    ds_key: str,
    settings: Settings,
    font: float,
    choices: tuple = (),
    chooser: str | None = None,
    whose: str = YOURS,
) -> dict:
    """Every round of every criterion's run, encoded for the lecture view (cached: a step
    in the browser needs nothing from the server). ``settings`` are the page's
    (``crit``, ``size``, ``index``, ``max_arity``, ``gamma``, ``leaf_rule``: the registry's
    declaration of the page). ``choices`` (a student's splits, see
    :func:`ui.pages.topdown.runs.topdown_run`) apply to the run of criterion ``chooser``;
    ``whose`` they are, for the notes (:data:`ui.text.YOURS`, or :data:`ui.text.THE_CLASS`
    on a class follower's page).

    Returns a dict with, per criterion, ``regions``, ``structure``, ``curves``, ``notes``,
    ``small``, ``spark`` and ``proof`` frames, ``descriptions`` (the three big views'
    sentences for a screen reader, one per round like the notes: :func:`topdown_descriptions`)
    and ``n`` (its number of snapshots), plus
    ``tables``: the round tables over all runs (HTML, one per round of the longest run).
    """
    size, index, max_arity, leaf_rule = (
        settings.size,
        settings.index,
        settings.max_arity,
        settings.leaf_rule,
    )
    runs = {
        c: topdown_run(
            _ds,
            ds_key,
            size,
            index,
            c,
            max_arity,
            settings.gamma if c == "mansour_mcallester" else None,
            leaf_rule,
            choices if c == chooser else (),
        )
        for c in settings.crit
    }
    # one picture per round t = 0 … T: the stop snapshot repeats the last round with the final
    # metrics (γ̂ = 0 after an early stop at an impure leaf) and the reason, so it takes its place
    runs = {c: run[:-2] + run[-1:] if len(run) > 1 else run for c, run in runs.items()}
    out: dict = {"runs": {}}
    for c, steps in runs.items():
        # by what the run did, not the criterion's name: a student's lighter leaf or forced
        # split, or a naive split that broke Hatano's k ≤ s/|T|, ends the theorem, and the
        # run's metrics say so (final_guarantee); the proof card decides the same way
        final_is_theorem = leaf_rule == "max_weight" and bool(steps[-1].metrics.final_guarantee)
        notes = []
        for s in steps:
            text = s.message.replace("(the policy's choice)", f"({whose} split)")
            if s.note:
                # the core speaks of "the policy" (any choose= callable); on the page the
                # policy is the student, or the class (issue 25, item 10; issue 39, item 7)
                who = who_chose(whose, capital=True)
                note = s.note.replace("The policy expanded", f"{who} expanded")
                text = f"{text}  ⚠ {note.replace('The policy forced', f'{who} forced')}"
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
                topdown_proof_frames(
                    steps, criterion=c, leaf_rule=leaf_rule, font=font, whose=whose
                )
            ),
            "descriptions": topdown_descriptions(
                steps,
                _ds,
                run=CRITERION_SHORT[c],
                size=size,
                show_mm=c == "mansour_mcallester",
                final_is_theorem=final_is_theorem,
            ),
        }
    n = max(len(s) for s in runs.values())
    for c, steps in runs.items():  # a run that ended early says so while the others go on
        notes = out["runs"][c]["notes"]
        notes += [f"Finished at round {len(steps) - 1}. {notes[-1]}"] * (n - len(steps))
        for said in out["runs"][c]["descriptions"].values():  # the last picture stays
            said += [said[-1]] * (n - len(steps))

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
