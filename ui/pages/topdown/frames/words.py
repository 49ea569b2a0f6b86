"""The text alternatives of /topdown's views (issue 26): one plain sentence per snapshot for a
screen reader, of the regions, the tree and the curves (:func:`topdown_descriptions`), and the
curves' names as a screen reader says them (:data:`SPOKEN`). Pure functions (no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore.bounds import phi_gamma, size_bound
from boostcore.datasets import Dataset
from boostcore.topdown import TreeStep
from ui.text import plural, spoken_number

from .curves import E_BOUND, PHI_T, POWER, gamma

# --------------------------------------------------------------- text alternatives (issue 26)
#: The curves' legend names as a screen reader should read them (no markup, no carets).
SPOKEN = {
    POWER: "|T| to the power minus gamma hat",
    E_BOUND: "e of |T| at gamma hat",
    PHI_T: "phi of |T| at gamma hat",
    "I(T)": "I(T)",
    "train error": "training error",
    "test error": "test error",
}


def _points_key(ds: Dataset) -> str:
    """What the markers of :func:`ui.figures.points_traces` are (the class names are the
    data's own: an uploaded CSV's labels)."""
    neg, pos = ds.class_names
    test = ", hollow ones test points" if ds.n_test else ""
    return (
        f"Blue circles are class {pos} and orange diamonds class {neg} "
        f"(filled markers are training points{test})."
    )


def _split_words(step: TreeStep, feature_names: Sequence[str]) -> str:
    """This round's split in words: leaf, feature, thresholds, new leaves."""
    sp = step.split
    if sp is None:
        return ""
    cuts = " and ".join(spoken_number(float(v)) for v in sp.thresholds)
    kids = ", ".join(f"#{c}" for c in sp.children)
    return (
        f"round {step.t} split leaf #{sp.leaf} on {feature_names[sp.feature]} at {cuts} "
        f"into {sp.arity} leaves ({kids})"
    )


def regions_description(step: TreeStep, ds: Dataset, *, run: str) -> str:
    """One plain sentence: what the regions frame of ``step`` (:func:`tree_cells_figure`)
    shows — the cells, this round's split and the training error — for a screen reader.

    Parameters
    ----------
    step : TreeStep
        The snapshot the frame draws.
    ds : Dataset
        The run's data (its class names and size).
    run : str
        The criterion's short name ("Hatano").

    Returns
    -------
    str
        Plain text (no markup).
    """
    m = step.metrics
    n = int(ds.n_train)
    # the run's training weights are uniform (1/n each), so the weighted error is a count
    wrong = round(m.train_error * n)
    cells = (
        "one leaf covers the plane (no split yet)"
        if m.n_leaves == 1
        else f"{m.n_leaves} leaves split the plane into rectangles shaded by their P(+1)"
    )
    split = _split_words(step, ds.feature_names)
    split = f"; {split}, drawn in vermillion" if split else ""
    return (
        f"Decision regions of {run}'s tree after round {step.t}: {cells}{split}; training "
        f"error {spoken_number(m.train_error)} ({wrong} of {n} training points "
        f"misclassified). {_points_key(ds)}"
    )


def structure_description(step: TreeStep, *, feature_names: Sequence[str]) -> str:
    """One plain sentence: the tree of ``step`` (:func:`tree_pictures`) — leaves, depth and
    this round's split.

    Parameters
    ----------
    step : TreeStep
    feature_names : sequence of str

    Returns
    -------
    str
    """
    tree = step.tree
    leaves = tree.leaves
    depth = int(np.max(np.asarray(tree.depth)[leaves]))
    split = _split_words(step, feature_names)
    what = f"; {split}" if split else "; no split yet: the root is the only leaf"
    return (
        f"Tree with {plural(len(leaves), 'leaf', 'leaves')} and depth {depth} after round "
        f"{step.t}{what}. Each "
        "leaf shows its id, its number of training points, P(+1) and its weight."
    )


def curves_description(
    steps: Sequence[TreeStep], t: int, *, size: int, show_mm: bool, final_is_theorem: bool
) -> str:
    """One plain sentence: the values :func:`topdown_curves` marks at round ``t``, by the
    legend's names (:data:`SPOKEN`), and how the training error moved since round ``t − 1``.

    Parameters
    ----------
    steps : sequence of TreeStep
        The run's snapshots, as the curves get them.
    t : int
        The round.
    size : int
        The leaf budget ``s`` (where the final-tree bounds ★ stand).
    show_mm, final_is_theorem : bool
        As :func:`topdown_curves` draws them.

    Returns
    -------
    str
    """
    t = min(t, len(steps) - 1)
    m, final = steps[t].metrics, steps[-1].metrics
    said = [
        f"I(T) {spoken_number(m.index_value)}",
        f"training error {spoken_number(m.train_error)}",
    ]
    if m.test_error is not None:
        said.append(f"test error {spoken_number(m.test_error)}")
    bounds = [
        f"{SPOKEN[E_BOUND]} {spoken_number(m.bound_e)}",
        f"{SPOKEN[POWER]} {spoken_number(m.bound_power)}",
    ]
    if final.binary_guarantee:
        bounds.append(f"{SPOKEN[PHI_T]} {spoken_number(m.bound_phi)}")
    text = f"At round {t}, |T| = {plural(m.n_leaves, 'leaf', 'leaves')}: " + ", ".join(said)
    if np.isfinite(m.gamma_hat):
        g = gamma(m)
        ref = "" if final_is_theorem else " (a reference here)"
        whose = "Theorem 4's" if final_is_theorem else "the"
        text += (
            f"; with gamma hat {spoken_number(g)} the bounds are " + ", ".join(bounds) + "; "
            f"{whose} final-tree bound s to the power "
            f"minus gamma hat is {spoken_number(float(size_bound(size, g)))} and phi of s "
            f"{spoken_number(float(phi_gamma(size, g)))} at s = {size}{ref}"
        )
    else:  # the bounds at gamma hat 0 (as drawn): 1 for the single leaf
        text += "; no split yet, so no gamma hat: the bounds " + ", ".join(bounds)
    if show_mm and final.bound_mm is not None:
        text += (
            f"; Mansour–McAllester's e of |T| for the final tree "
            f"{spoken_number(float(final.bound_mm))}"
            + ("" if final.mm_gamma_boosting else " (a reference: not gamma-boosting)")
        )
    if t > 0:
        before, now = steps[t - 1].metrics.train_error, m.train_error
        a, b = spoken_number(before), spoken_number(now)
        move = (
            "stayed at {} since"
            if a == b
            else "fell from {} at"
            if now < before
            else "rose from {} at"
        )
        text += f". The training error {move.format(a)} round {t - 1}"
    return text + "."


def topdown_descriptions(
    steps: Sequence[TreeStep],
    ds: Dataset,
    *,
    run: str,
    size: int,
    show_mm: bool,
    final_is_theorem: bool,
) -> dict[str, list[str]]:
    """The three big views' descriptions, one sentence per snapshot of ``steps``.

    Parameters
    ----------
    steps : sequence of TreeStep
        The page's snapshots (the stop snapshot in the last round's place).
    ds : Dataset
    run : str
        The criterion's short name.
    size : int
    show_mm, final_is_theorem : bool
        As the curves are drawn.

    Returns
    -------
    dict of str to list of str
        ``"regions"``, ``"structure"`` and ``"curves"``.
    """
    return {
        "regions": [regions_description(s, ds, run=run) for s in steps],
        "structure": [structure_description(s, feature_names=ds.feature_names) for s in steps],
        "curves": [
            curves_description(
                steps, t, size=size, show_mm=show_mm, final_is_theorem=final_is_theorem
            )
            for t in range(len(steps))
        ],
    }
