"""The oblique page's lecture: every stepper position of the three runs encoded for the
lecture view (:func:`oblique_lecture`, cached; :func:`build_lecture` from runs already
computed) and the stepper's positions (:func:`schedule_of`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boostcore.datasets import Dataset
from boostcore.steps import rounds
from ui import lecture
from ui.cache import shared
from ui.text import YOURS

from .. import runs as oblique_runs
from ..figures import margin_frame
from .curves import XLABEL, g1_curves
from .panels import inner_html, metrics_frame, peers_html, proof_frames
from .positions import ADA, KM, ODT, ORDER, shown_at
from .regions import GRID, LINE_GRID, SMALL_GRID, Grid, PathRegions, TreeRegions, inner_weights
from .structure import TreePictures, path_pictures
from .words import describe_margins, describe_position


# ------------------------------------------------------------------------------ the page
@shared
def oblique_lecture(
    _ds: Dataset,
    ds_key: str,
    n_internal: int,
    n_stumps: int,
    learner: str,
    rule: str,
    inner: bool,
    font: float,
    choices: tuple = (),
    whose: str = YOURS,
) -> dict:
    """Every stepper position of the three runs, encoded for the lecture view (cached: a
    step in the browser needs nothing from the server).

    ``choices`` are a student's separators for BoostODT's steps 1, 2, … (``((cos θ, sin θ),
    b)`` or ``None`` for AdaBoost_R's, :func:`.runs.odt_run`): the BoostODT run is
    then continued from them (the later steps are AdaBoost_R's). The notes and pictures call
    those lines ``whose`` they are (:data:`ui.text.YOURS`, or :data:`ui.text.THE_CLASS` on a
    class follower's page).

    Returns ``n`` (positions), ``schedule`` and, per run (long name),
    ``regions``, ``structure``, ``curves``, ``small``, ``spark`` and ``proof`` frames
    (:func:`proof_frames`), ``notes`` and ``descriptions`` (the three big views' sentences
    for a screen reader, one per position: :func:`describe_position`);
    the round tables ``inner``, ``peers`` and ``metrics`` (HTML, one per position), and the
    margin-error curves of the three runs, ``margins`` (one figure per position).
    """
    runs = {
        ADA: oblique_runs.g1_path_run(_ds, ds_key, n_internal * n_stumps, "stump"),
        KM: oblique_runs.g1_tree_run(_ds, ds_key, n_internal, "max_decrease"),
        ODT: oblique_runs.odt_run(_ds, ds_key, n_internal, n_stumps, learner, rule, choices),
    }
    return build_lecture(
        _ds,
        runs,
        inner=inner,
        font=font,
        learner=learner,
        peers=lambda n: oblique_runs.axis_parallel_peers(_ds, ds_key, n),
        whose=whose,
    )


def schedule_of(odt_steps, inner: bool) -> list[tuple[int, int | None, int]]:
    """The stepper's positions (:func:`.runs.odt_schedule`); a node split by a student's
    line (``by_policy``, no AdaBoost_R rounds) counts the stumps AdaBoost_R built for it, so
    AdaBoost keeps its budget of T1 stumps per BoostODT node."""
    out = oblique_runs.odt_schedule(odt_steps, inner)
    steps = rounds(odt_steps)
    if not any(getattr(s, "by_policy", False) for s in steps):
        return out
    used = np.cumsum(
        [0]
        + [
            len(s.algorithm_inner) if getattr(s, "by_policy", False) else len(s.inner)
            for s in steps
        ]
    )
    return [
        (i, j, int(used[i] + (j if j is not None else used[i + 1] - used[i]))) for i, j, _ in out
    ]


def build_lecture(
    ds: Dataset,
    runs: dict,
    *,
    inner: bool,
    font: float,
    learner: str,
    peers: Callable[[int], list[dict]],
    whose: str = YOURS,
) -> dict:
    """The lecture dict of :func:`oblique_lecture` from runs already computed; ``peers``
    gives the axis-parallel trees' rows for a number of leaves; ``whose`` a person's lines
    are (:func:`oblique_lecture`)."""
    schedule = schedule_of(runs[ODT], inner)
    n = len(schedule)
    at = [shown_at(runs, schedule, k, ds.feature_names) for k in range(n)]
    grid = Grid(ds, GRID, LINE_GRID)
    small_grid = Grid(ds, SMALL_GRID, LINE_GRID // 2)
    names = ds.feature_names
    pic_font = round(font + 1)
    n_first = schedule[1][2] if n > 1 else 0

    out: dict = {"n": n, "schedule": [list(p) for p in schedule], "runs": {}}
    for name in ORDER:
        steps = rounds(runs[name])  # t = 0 … T: the stop snapshot repeats the last round
        regions, small, structure, curves, spark, notes = [], [], [], [], [], []
        said: dict[str, list[str]] = {"regions": [], "structure": [], "curves": []}
        if name == ADA:
            big_r, small_r = PathRegions(steps, ds, grid), PathRegions(steps, ds, small_grid)
        else:
            big_r, small_r = (TreeRegions(steps, ds, grid), TreeRegions(steps, ds, small_grid))
            pics = TreePictures(steps, ds, km=name == KM, font=pic_font, whose=whose)
        for k in range(n):
            sh = at[k][name]
            notes.append(sh.note.replace("the policy's line", f"{whose} line"))
            if name == ADA:
                regions.append(big_r.figure(sh.idx, sh.new, font=font, n_first=n_first))
                small.append(small_r.figure(sh.idx, sh.new, font=font, small=True))
                structure.append(
                    path_pictures(steps, sh, names=names, font=pic_font, n_first=n_first)
                )
                empty = (
                    f"Round 0: H = 0<br>the first {n_first} stumps come at step 1"
                    if sh.idx == 0
                    else ""
                )
            else:
                step = steps[sh.idx]
                i, j, _ = schedule[k]
                if sh.partial is not None:  # BoostODT building a node
                    full = runs[ODT][i]
                    w_node = inner_weights(full, sh.j, ds.X_train, ds.y_train)
                    hot = None
                else:
                    full = step
                    w_node = np.asarray(step.node_weights) if step.node is not None else None
                    hot = step.node
                w = None
                if w_node is not None and full.node_index.size:
                    w = np.zeros(ds.n_train)
                    w[full.node_index] = w_node
                kw = dict(hot=hot, partial=sh.partial, partial_node=sh.partial_node, weights=w)
                regions.append(big_r.figure(step, font=font, **kw))
                small.append(small_r.figure(step, font=font, small=True, **kw))
                structure.append(
                    pics.pictures(
                        step,
                        hot_node=hot,
                        partial=sh.partial,
                        partial_node=sh.partial_node,
                        n_total=len(runs[ODT][i].inner),
                        lean=inner,
                    )
                )
                empty = ""
            curves.append(g1_curves(steps, sh.idx, xlabel=XLABEL[name], font=font, empty=empty))
            node_size = len(runs[ODT][schedule[k][0]].inner) if sh.partial is not None else 0
            for view, text in describe_position(name, steps, sh, ds, node_size=node_size).items():
                said[view].append(text)
            spark.append(g1_curves(steps, sh.idx, xlabel=XLABEL[name], font=font, small=True))
        out["runs"][name] = {
            "regions": lecture.plotly_frames(regions),
            "small": lecture.plotly_frames(small),
            "structure": lecture.same_frames(structure),
            "curves": lecture.plotly_frames(curves),
            "spark": lecture.plotly_frames(spark),
            "notes": notes,
            "descriptions": said,
            "proof": lecture.same_frames(
                proof_frames(runs[name], [at[k][name].idx for k in range(n)], font=font)
            ),
        }

    inner_t, peers_t, metrics_t, margins, margin_said = [], [], [], [], []
    for k in range(n):
        now = {r: runs[r][at[k][r].idx] for r in ORDER}
        margins.append(margin_frame(now))
        margin_said.append(describe_margins(now))
        inner_t.append(inner_html(runs[ODT], schedule, k, names, whose))
        sh = at[k]
        odt_step = runs[ODT][sh[ODT].idx]
        n_leaves = odt_step.metrics.n_leaves
        rows = [
            {
                "model": f"BoostODT ({learner})",
                "leaves": n_leaves,
                "train error": odt_step.metrics.train_error,
                "test error": odt_step.metrics.test_error,
            }
        ]
        km_step = runs[KM][sh[KM].idx]
        rows.append(
            {
                "model": KM,
                "leaves": km_step.metrics.n_leaves,
                "train error": km_step.metrics.train_error,
                "test error": km_step.metrics.test_error,
            }
        )
        rows += peers(n_leaves)
        peers_t.append(peers_html(rows))
        current = {r: (runs[r][sh[r].idx], sh[r].label) for r in ORDER}
        metrics_t.append(lecture.table_html(metrics_frame(current), decimals=4))
    out["inner"] = lecture.same_frames(inner_t)
    out["peers"] = lecture.same_frames(peers_t)
    out["metrics"] = lecture.same_frames(metrics_t)
    out["margins"] = lecture.plotly_frames(margins)
    out["margin_descriptions"] = margin_said
    return out
