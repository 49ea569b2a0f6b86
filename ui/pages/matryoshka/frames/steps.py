"""The matryoshka page's steps: which snapshot a step shows, and what comes next.

:func:`step_counts` (one step per change of the focused run), :func:`step_of` and
:func:`shown_index`; the matryoshka's schedule in words (:func:`next_event`,
:func:`structure_footer`); :data:`NAMES`, the runs' names on the page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from boostcore import steps as protocol
from boostcore.probabilistic import ProbStep

NAMES = {"chain": "Chain", "tree": "Tree", "matryoshka": "Matryoshka", "collapse": "Collapse"}


# =============================================================================== schedule
def shown_index(steps: Sequence[ProbStep], t: int) -> int | None:
    """Index of the snapshot shown at round ``t``: the last one of the run's rounds
    (:func:`boostcore.steps.rounds`, the stop snapshot left out) using at most ``t`` weak
    classifiers (``metrics.n_weak``); ``None`` only for a run without snapshots."""
    idx = None
    for i, s in enumerate(protocol.rounds(steps)):
        if s.metrics.n_weak <= t:
            idx = i
        else:
            break
    return idx


def step_counts(runs: dict[str, Sequence[ProbStep]], focus: str) -> tuple[int, ...]:
    """The weak-classifier counts the page steps through: one step per change of the picture.

    The counts at which the focused run has a snapshot (:func:`boostcore.steps.rounds`; the
    chain, the tree and the collapse add one soft stump a snapshot, the matryoshka one level,
    ``2^ℓ`` stumps: Grossmann §5.3), then — if the focused run stopped before the others —
    every later count at which another run changes. Counts in between would change nothing
    of the focused run (issue 25, 7: the matryoshka's regions and dolls stood still at
    5–7 and 9–15 weak classifiers).

    Parameters
    ----------
    runs : dict of str to sequence of ProbStep
        The runs shown (structure → snapshots).
    focus : str
        The focused run's structure (a key of ``runs``).

    Returns
    -------
    tuple of int
        Increasing counts, starting at 0 (the initial model).

    Raises
    ------
    ValueError
        If ``focus`` is not one of ``runs``.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka, prob_adaboost
    >>> ds = make_dataset("moons", n=60, random_state=0)
    >>> runs = {"matryoshka": list(matryoshka(ds.X_train, ds.y_train, levels=2)),
    ...         "chain": list(prob_adaboost(ds.X_train, ds.y_train, n_rounds=4))}
    >>> step_counts(runs, "matryoshka"), step_counts(runs, "chain")
    ((0, 2, 4), (0, 1, 2, 3, 4))
    """
    if focus not in runs:
        raise ValueError(f"focus must be one of the runs {sorted(runs)}; got {focus!r}")
    own = {int(s.metrics.n_weak) for s in protocol.rounds(runs[focus])} | {0}
    last = max(own)
    later = {
        int(s.metrics.n_weak)
        for name, run in runs.items()
        if name != focus
        for s in protocol.rounds(run)
        if s.metrics.n_weak > last
    }
    return tuple(sorted(own | later))


def step_of(counts: Sequence[int], n_weak: int) -> int:
    """The step showing ``n_weak`` weak classifiers: the last step whose count is at most
    ``n_weak`` (0 below the first count), e.g. the level holding that many stumps.

    Examples
    --------
    >>> step_of((0, 2, 4, 8, 16), 5), step_of((0, 2, 4, 8, 16), 99), step_of((0, 2), -1)
    (2, 4, 0)
    """
    k = 0
    for i, c in enumerate(counts):
        if c <= n_weak:
            k = i
    return k


def next_event(structure: str, steps: Sequence[ProbStep], t: int) -> str:
    """What the matryoshka shows next and when (empty for the other runs / the last level)."""
    if structure != "matryoshka":
        return ""
    later = [s.metrics.n_weak for s in protocol.rounds(steps) if s.metrics.n_weak > t]
    if not later:
        return ""
    nxt = later[0]
    level = int(round(math.log2(nxt)))
    if level == 1:
        return f"The first doll appears at T = {nxt}: a two-node tree of 2 soft stumps (level 1)."
    return (
        f"T = {nxt} brings level {level}: this doll becomes the root of a two-node tree "
        f"and a new level-{level - 1} doll ({nxt // 2} stumps) grows in its heavier child."
    )


def structure_footer(structure: str, steps, t: int, step: ProbStep | None) -> str:
    """The matryoshka's footer: what is new at this level, and when the next one comes."""
    if structure != "matryoshka":
        return ""
    later = [s.metrics.n_weak for s in protocol.rounds(steps) if s.metrics.n_weak > t]
    if step is None or step.metrics.n_weak == 0:
        return next_event(structure, steps, t)
    n = step.metrics.n_weak
    level = int(round(math.log2(n)))
    nxt = (
        f"Next: level {level + 1} at T = {later[0]}."
        if later
        else f"Level {level} is the last (T = {n})."
    )
    if n != t:
        return (
            f"Next: level {level + 1} at T = {later[0]}, with this doll as its root."
            if later
            else nxt
        )
    if level == 1:
        return f"Level 1 (T = {n}): a two-node tree of soft stumps. {nxt}"
    return (
        f"Level {level} (T = {n}). New: the L{level - 1} doll in the heavier child "
        f"(vermillion). Root: the level-{level - 1} doll of T = {n // 2}. {nxt}"
    )
