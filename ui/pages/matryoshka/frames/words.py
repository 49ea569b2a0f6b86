"""The three big views in words, for a screen reader (issue 26): one plain sentence per
step of the regions, the structure and the curves (:func:`describe_run`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.datasets import Dataset
from boostcore.probabilistic import Chain, ProbStep, ProbTree, SoftStump
from ui.text import plural, spoken_number

from .curves import curve_series
from .drawing import name_of
from .regions import newest_stump
from .steps import NAMES, shown_index, structure_footer
from .structure import doll_depth

# ======================================================== text alternatives (issue 26)
#: The curves' line names (:func:`curve_series`) as a screen reader should read them.
SPOKEN = {
    "F(T, ρ̂)": "F of T and rho hat",
    "F(T, ρ̂) (paper's claim)": "F of T and rho hat (the paper's claim)",
    "F(2, ρ̂) (valid)": "F of 2 and rho hat (valid)",
    "ρ̂<sup>T</sup>": "rho hat to the power T",
    "M2 (paper)": "the paper's M2",
    "Π Z<sub>t</sub> (valid)": "product of Z (valid)",
    "C(T) (valid)": "C(T) (valid)",
    "train error": "expected training error",
    "test error": "expected test error",
}


def stump_words(s: SoftStump, names: Sequence[str]) -> str:
    """A soft stump in words (:func:`stump_label` without its ``<``): the feature, the side
    that leans to +1, the threshold θ and the softness τ."""
    side = "above" if s.polarity >= 0 else "below"
    return (
        f"leans to +1 where {name_of(names, s.feature)} is {side} {spoken_number(float(s.theta))}"
        f", softness tau {spoken_number(float(s.tau))}"
    )


def _error(m) -> str:
    """The expected training error in words (the chain's with its Monte Carlo spread)."""
    said = spoken_number(m.train_error)
    if m.mc_stderr is not None:
        said += f" (Monte Carlo, plus or minus {spoken_number(2 * m.mc_stderr)})"
    return said


def _shown(steps: Sequence[ProbStep], t: int) -> tuple[ProbStep | None, bool]:
    """The snapshot drawn with ``t`` weak classifiers and whether it is this step's own
    (as :func:`build_lecture` decides)."""
    i = shown_index(steps, t)
    step = None if i is None else steps[i]
    return step, step is not None and step.metrics.n_weak == t


def regions_description(steps: Sequence[ProbStep], t: int, ds: Dataset, *, structure: str) -> str:
    """One plain sentence: what :func:`regions_figure` draws with ``t`` weak classifiers —
    the shading, the newest soft stump and the expected training error.

    Parameters
    ----------
    steps : sequence of ProbStep
        The run's rounds (:func:`boostcore.steps.rounds`).
    t : int
        The weak classifiers of this step (:func:`step_counts`).
    ds : Dataset
        The run's data (its class names).
    structure : str
        ``"chain"``, ``"tree"``, ``"matryoshka"`` or ``"collapse"``.

    Returns
    -------
    str
        Plain text.
    """
    step, fresh = _shown(steps, t)
    neg, pos = ds.class_names
    test = ", hollow ones test points" if ds.n_test else ""
    key = (
        f"Blue circles are class {pos} and orange diamonds class {neg} (filled markers are "
        f"training points{test}; all one size)."
    )
    head = f"Chance that the vote H(x) is positive for the {NAMES[structure]}"
    if t == 0 or step is None or step.metrics.n_weak == 0:
        levels = [s.metrics.n_weak for s in steps if s.metrics.n_weak]
        what = (
            "the initial model H = 0"
            if t == 0
            else f"no doll yet (the first comes at T = {levels[0]})"
            if levels
            else "nothing yet"
        )
        err = "" if step is None else f"; expected training error {_error(step.metrics)}"
        return f"{head}: {what}, so one half everywhere (white){err}. {key}"
    m = step.metrics
    err = f"expected training error {_error(m)}"
    stump = newest_stump(step) if fresh else None
    new = (
        f"; the newest soft stump {stump_words(stump, ds.feature_names)} (the vermillion line "
        "and its pale band of two tau either side)"
        if stump is not None and stump.feature < 2
        else ""
    )
    return (
        f"{head} after T = {m.n_weak} soft stumps, shaded from orange (0) through white (one "
        f"half) to blue (1){new}; {err}. {key}"
    )


def _tree_depth(tree: ProbTree) -> int:
    """Edges from the root to the deepest leaf of the outer tree."""
    deepest = 0
    for n in tree.leaves:
        d = 0
        while tree.parent[n] >= 0:
            n, d = tree.parent[n], d + 1
        deepest = max(deepest, d)
    return deepest


def structure_description(
    steps: Sequence[ProbStep], t: int, *, structure: str, names: Sequence[str]
) -> str:
    """One plain sentence: the structure :func:`structure_pictures` draws with ``t`` weak
    classifiers — the chain's stumps, the tree's leaves and depth, the matryoshka's dolls —
    and this step's change.

    Parameters
    ----------
    steps : sequence of ProbStep
        The run's rounds.
    t : int
        The weak classifiers of this step.
    structure : str
    names : sequence of str
        The feature names.

    Returns
    -------
    str
    """
    step, fresh = _shown(steps, t)
    footer = structure_footer(structure, steps, t, step)
    if step is None or step.metrics.n_weak == 0:
        if t == 0:
            return (
                "The initial model: one leaf with H = 0 and product of Z 1, so every point is "
                "+1 with chance one half."
            )
        return f"No doll yet. {footer}".strip()
    model, m = step.model, step.metrics
    stump = newest_stump(step) if fresh else None
    newest = "" if stump is None else f" The newest soft stump {stump_words(stump, names)}."
    if isinstance(model, Chain):
        return (
            f"Chain of {plural(len(model.stumps), 'soft stump', 'soft stumps')}: every point "
            f"meets all of them and H adds their weighted answers.{newest}"
        )
    leaves = plural(len(model.leaves), "leaf", "leaves")
    depth = _tree_depth(model)
    if structure == "matryoshka":
        nested = doll_depth(model)
        dolls = f", dolls nested {nested} deep" if nested else ", no doll inside yet"
        return (
            f"Matryoshka of {m.n_weak} soft stumps: an outer two-node tree with {leaves}"
            f"{dolls}. {footer}"
        )
    dolls = sum(isinstance(c, ProbTree) for c in model.classifier)
    folded = (f", {plural(dolls, 'doll', 'dolls')} among its nodes" if dolls else "") + (
        " (collapsed into one doll at this step)" if step.collapsed and fresh else ""
    )
    return (
        f"Probabilistic tree of {m.n_weak} soft stumps with {leaves} and depth {depth}"
        f"{folded}; each leaf shows its vote H and the product of Z on its path.{newest}"
    )


def curves_description(steps: Sequence[ProbStep], t: int, *, structure: str, n_weak: int) -> str:
    """One plain sentence: the values :func:`curves_figure` marks at the snapshot shown with
    ``t`` weak classifiers, by its lines' names read aloud (:data:`SPOKEN`), and how the
    expected training error moved since the snapshot before.

    Parameters
    ----------
    steps : sequence of ProbStep
        The run's rounds.
    t : int
        The weak classifiers of this step.
    structure : str
    n_weak : int
        The run's budget of weak classifiers.

    Returns
    -------
    str
    """
    i = shown_index(steps, t)
    if i is None:
        return f"Nothing drawn yet: the curves start at the first doll (of {n_weak} stumps)."
    m = steps[i].metrics
    said = []
    for name, *_, get in curve_series(structure, steps, False):
        value = get(m)
        if value is not None and np.isfinite(value):
            said.append(f"{SPOKEN[name]} {spoken_number(float(value))}")
    rho = "" if not np.isfinite(m.rho_hat) else f", with rho hat {spoken_number(m.rho_hat)}"
    text = f"At T = {m.n_weak} weak classifiers: " + ", ".join(said) + rho
    if i > 0:
        before, now = steps[i - 1].metrics, m.train_error
        a, b = spoken_number(before.train_error), spoken_number(now)
        move = (
            "stayed at {} since"
            if a == b
            else "fell from {} at"
            if now < before.train_error
            else "rose from {} at"
        )
        text += f". The expected training error {move.format(a)} T = {before.n_weak}"
    return text + "."


def describe_run(
    run: Sequence[ProbStep], ds: Dataset, *, structure: str, n_weak: int, counts: Sequence[int]
) -> dict[str, list[str]]:
    """The three big views' descriptions for a screen reader, one per step (``counts``).

    Parameters
    ----------
    run : sequence of ProbStep
        The whole run.
    ds : Dataset
    structure : str
    n_weak : int
    counts : sequence of int
        The weak classifiers of each step (:func:`step_counts`).

    Returns
    -------
    dict of str to list of str
        ``"regions"``, ``"structure"`` and ``"curves"``.
    """
    steps = protocol.rounds(list(run))
    return {
        "regions": [regions_description(steps, t, ds, structure=structure) for t in counts],
        "structure": [
            structure_description(steps, t, structure=structure, names=ds.feature_names)
            for t in counts
        ],
        "curves": [
            curves_description(steps, t, structure=structure, n_weak=n_weak) for t in counts
        ],
    }
