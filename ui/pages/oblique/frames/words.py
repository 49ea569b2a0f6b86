"""The oblique page's text alternatives (issue 26): the sentences a screen reader says for
the regions, the structure and the curves at each stepper position (:func:`describe_position`)
and for the margin chart (:func:`describe_margins`), with numbers, weak hypotheses and
separators in words."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore.datasets import Dataset
from boostcore.oblique import ObliqueTree
from boostcore.realboost import THETA_GRID, Additive, WeakHypothesis
from ui.text import plural
from ui.text import spoken_number as unsigned_spoken

from .curves import SERIES
from .positions import ADA, KM, ODT, Shown

# --------------------------------------------------------------- text alternatives (issue 26)
#: The curves' line names (:data:`SERIES`) as a screen reader should read them.
SPOKEN = {
    "Thm 1 bound": "Theorem 1's bound",
    "E e<sup>−yH</sup>": "exponential loss",
    "train error": "training error",
    "test error": "test error",
}
#: The trees' names in a sentence.
TREE_NAME = {KM: "Kearns–Mansour tree", ODT: "BoostODT tree"}
#: What each run's x axis counts (:data:`XLABEL`), in a sentence.
UNIT = {ADA: ("stump", "stumps"), KM: ("split", "splits"), ODT: ("internal node", "internal nodes")}


def spoken_number(x: float) -> str:
    """A number as the descriptions say it: two decimals, a small positive value with its
    first digit (two decimals would read a bound of 0.004 as 0), "minus" for a sign.

    Parameters
    ----------
    x : float

    Returns
    -------
    str
    """
    return "minus " + unsigned_spoken(-x) if x < 0 else unsigned_spoken(x)


def hypothesis_words(h: WeakHypothesis, names: Sequence[str]) -> str:
    """A weak hypothesis in words (:func:`describe` without symbols a screen reader spells)."""
    f = str(names[h.feature]) if 0 <= h.feature < len(names) else f"x{h.feature + 1}"
    if h.kind == "stump":
        return f"{'+1' if h.polarity > 0 else '−1'} where {f} > {spoken_number(h.threshold)}"
    if h.kind == "linear":
        sign = "" if h.polarity > 0 else "minus "
        return f"{sign}({f} minus {spoken_number(h.threshold)})"
    if h.kind == "constant":
        return f"the constant {h.polarity:+g}"
    return type(h.estimator).__name__


def separator_words(sep: Additive, names: Sequence[str]) -> str:
    """A node's separator ``LS`` in words: the line ``LS = 0`` when it is affine (the
    hyperplane learner, a student's line), a single stump's test, or the sum it is."""
    aff = sep.affine(len(names))
    if aff is not None:
        coef, b = aff
        terms = [(float(c), f" times {names[i]}") for i, c in enumerate(coef) if c]
        terms += [(float(b), "")] if b or not terms else []
        said = ""
        for i, (v, tail) in enumerate(terms):  # "a times x1 minus b times x2 plus c"
            sign = ("minus " if v < 0 else "") if i == 0 else (" minus " if v < 0 else " plus ")
            said += f"{sign}{spoken_number(abs(v))}{tail}"
        return f"the line {said} = 0"
    if len(sep) == 1:
        return f"the stump {hypothesis_words(sep.hyps[0], names)}"
    return f"a sum of {len(sep)} weak hypotheses (a staircase boundary)"


def _depth(tree: ObliqueTree) -> int:
    return max(tree.depth[n] for n in tree.leaves)


def _points_key(ds: Dataset, weights: str) -> str:
    neg, pos = ds.class_names
    test = "; hollow: test" if ds.n_test else ""
    return (
        f"Blue circles: class {pos}, orange diamonds: class {neg}; filled: training, sized by "
        f"{weights}{test}."
    )


def describe_position(
    name: str, steps: Sequence, sh: Shown, ds: Dataset, *, node_size: int = 0
) -> dict[str, str]:
    """The three big views' sentences for a screen reader at one stepper position: what the
    regions, the structure and the curves draw of run ``name`` (snapshot ``sh``).

    Parameters
    ----------
    name : str
        ``ADA``, ``KM`` or ``ODT``.
    steps : sequence
        The run's rounds (:func:`boostcore.steps.rounds`).
    sh : Shown
        What the run shows here (:func:`shown_at`).
    ds : Dataset
        The run's data.
    node_size : int, default 0
        BoostODT building a node: the weak hypotheses its separator will have.

    Returns
    -------
    dict of str to str
        ``"regions"``, ``"structure"`` and ``"curves"``: plain text.
    """
    names = ds.feature_names
    step = steps[sh.idx]
    m = step.metrics
    err = f"training error {spoken_number(m.train_error)}"
    shade = "shaded by the vote H (blue: +1, orange: −1, white: undecided)"
    one, many = UNIT[name]
    if name == ADA:
        lo, hi = sh.new
        if sh.idx == 0:
            regions = f"Decision regions of AdaBoost at H = 0: no stump yet; {err}."
            structure = "AdaBoost as G1 on a path: no weak hypothesis yet (H = 0)."
        else:
            newest = steps[hi].round if hi and hi < len(steps) else None
            added = (
                f"; this step's {plural(hi - lo, 'stump', 'stumps')} in vermillion"
                if hi > lo
                else ""
            )
            h = (
                ""
                if newest is None
                else f"; the newest, h{hi}: {hypothesis_words(newest.hyp, names)}, alpha "
                f"{spoken_number(newest.alpha)}, mu {spoken_number(newest.mu)}"
            )
            regions = (
                f"Decision regions of AdaBoost after {plural(step.t, one, many)}, {shade}"
                f"{added}; {err}."
            )
            structure = (
                f"AdaBoost as G1 on a path of {plural(step.t, one, many)}: every point meets "
                f"all of them{h}."
            )
        regions += " " + _points_key(ds, "the weights w of the newest stump")
    else:
        tree = step.tree
        what = f"{TREE_NAME[name]} with {plural(len(tree.leaves), 'leaf', 'leaves')}"
        if sh.partial is not None:
            change = (
                f"building node #{sh.partial_node}: its separator so far has {sh.j} of "
                f"{node_size} weak hypotheses, {separator_words(sh.partial, names)}"
            )
        elif step.node is not None:
            change = (
                f"step {step.t} split leaf #{step.node} by "
                f"{separator_words(step.separator, names)} into leaves "
                f"#{step.children[0]} and #{step.children[1]}"
            )
        else:
            change = "no split yet: the root is the only leaf"
        drawn = (
            ""
            if step.node is None and sh.partial is None
            else ", drawn as the thick vermillion line (grey lines: earlier nodes' boundaries)"
        )
        regions = (
            f"Decision regions of the {what}, {shade}; {change}{drawn}; {err}. "
            + _points_key(ds, "the weights of the node being split")
        )
        structure = f"{what} and depth {_depth(tree)}; {change}."
    said = []
    for line, *_, get in SERIES:
        value = get(m)
        if value is not None:
            said.append(f"{SPOKEN[line]} {spoken_number(float(value))}")
    curves = f"After {plural(step.t, one, many)}: " + ", ".join(said)
    if sh.idx > 0:
        before, now = steps[sh.idx - 1].metrics.train_error, m.train_error
        a, b = spoken_number(before), spoken_number(now)
        move = (
            "stayed at {} since"
            if a == b
            else "fell from {} at"
            if now < before
            else "rose from {} at"
        )
        curves += f". The training error {move.format(a)} {plural(steps[sh.idx - 1].t, one, many)}"
    return {"regions": regions, "structure": structure, "curves": curves + "."}


def describe_margins(current: dict[str, object]) -> str:
    """What the margin chart shows at one position, for a screen reader: per run, the
    weight with margin at most 0 (``ν(H, 0)``, which bounds the training error) and
    Theorem 1's bound on it."""
    zero = int(np.argmin(np.abs(THETA_GRID)))
    parts = []
    for name, step in current.items():
        m = getattr(step, "metrics", None)
        if m is None:
            continue
        parts.append(
            f"{name}: {100 * float(m.margin_error[zero]):.0f} % of the weight has margin at "
            f"most 0, bound {float(min(m.bound_margin[zero], 1.05)):.2f}"
        )
    return "Margin-error curves ν(H, θ) and Theorem 1's bounds. " + "; ".join(parts) + "."
