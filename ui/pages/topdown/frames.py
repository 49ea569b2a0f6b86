"""Runs → the lecture view's frames: one regions figure, structure picture, curves figure and
round table per snapshot (pure functions: no Streamlit, unit-testable).

Figures here are drawn for stepping in the browser: the decision regions of an axis-parallel
tree are one rectangle per leaf cell (not a heatmap), points are SVG markers, and the curves
draw the whole run faintly with the part up to this round solid and a marker at this round,
so the class sees where the bound is going before the run gets there.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boostcore import datasets
from boostcore.bounds import e_gamma, phi_gamma, size_bound
from boostcore.datasets import Dataset
from boostcore.impurity import INDEX
from boostcore.topdown import EXACT_SEARCH_LIMIT, LARGE_LEAF_CUTS, TreeStep
from ui import lecture, theme
from ui.cache import shared
from ui.figures import (
    FAINT,
    cell_labels,
    curves_layout,
    data_extent,
    figure_dict,
    points_traces,
    regions_layout,
)
from ui.labels import CRITERION_SHORT
from ui.params import Settings
from ui.proof import is_large, proof_frames
from ui.svgtree import Node, local_view, neighbourhood, svg_size, tree_svg
from ui.text import YOURS, plural, spoken_number, who_chose

from .diagrams import interval_label
from .proof import topdown_chain
from .runs import topdown_run
from .tables import candidates_frame, metrics_frame


def tree_cells_figure(step: TreeStep, ds: Dataset, *, small: bool = False, font: float = 12):
    """Regions of the tree at ``step``: one rectangle per leaf cell, shaded by the leaf's
    ``q̂`` (orange = class −1, white = undecided, blue = +1); grey lines are earlier splits,
    the thick vermillion lines this round's split and the dashed box its leaf."""
    tree = step.tree
    lo, hi = data_extent(ds)
    boxes = tree.node_boxes(lo, hi)
    q = tree.q
    leaves = tree.leaves
    shapes = [
        dict(
            type="rect",
            layer="below",
            x0=float(boxes[n, 0, 0]),
            x1=float(boxes[n, 0, 1]),
            y0=float(boxes[n, 1, 0]),
            y1=float(boxes[n, 1, 1]),
            line=dict(width=0),
            fillcolor=theme.mix(float(q[n])),
        )
        for n in leaves
    ]
    current = step.split.leaf if step.split is not None else None
    for nid in np.flatnonzero(tree.feature >= 0):
        f = int(tree.feature[nid])
        box = boxes[nid]
        now = nid == current
        for theta in tree.thresholds[nid]:
            if f == 0:
                x0 = x1 = float(theta)
                y0, y1 = float(box[1, 0]), float(box[1, 1])
            else:
                y0 = y1 = float(theta)
                x0, x1 = float(box[0, 0]), float(box[0, 1])
            shapes.append(
                dict(
                    type="line",
                    x0=x0,
                    x1=x1,
                    y0=y0,
                    y1=y1,
                    line=dict(color=theme.HIGHLIGHT if now else "#555555", width=4 if now else 1),
                )
            )
    if current is not None:
        bx = boxes[current]
        shapes.append(
            dict(
                type="rect",
                x0=float(bx[0, 0]),
                x1=float(bx[0, 1]),
                y0=float(bx[1, 0]),
                y1=float(bx[1, 1]),
                line=dict(color=theme.HIGHLIGHT, width=2, dash="dash"),
            )
        )
    data = points_traces(ds, show_test=not small)
    if not small and tree.n_leaves <= 32:
        # leaf ids apart at the smallest size the view draws (ui.figures.cell_labels): the
        # lighter of two leaves whose ids would overlap moves within its cell or goes unnamed
        where = cell_labels(
            [
                (
                    f"#{i}",
                    *(float(v) for v in boxes[i, 0]),
                    *(float(v) for v in boxes[i, 1]),
                    float(tree.n_samples[i]),
                )
                for i in leaves
            ],
            font=font - 1,
            lo=lo,
            hi=hi,
        )
        data.append(
            dict(
                type="scatter",
                x=[x for _, x, _, _ in where],
                y=[y for _, _, y, _ in where],
                mode="text",
                text=[text for text, *_ in where],
                name="leaf ids",
                textfont=dict(color="#333333", size=font - 1),
                hovertext=[
                    f"leaf #{i}"
                    + ("" if by is None else f" (its id is not drawn: no room beside {by})")
                    + f"<br>P(+1) = {q[i]:.2f}"
                    for i, (_, _, _, by) in zip(leaves, where, strict=True)
                ],
                hoverinfo="text",
                showlegend=False,
            )
        )
    return figure_dict(data, regions_layout(ds, lo, hi, shapes=shapes, font=font, small=small))


def tree_nodes(
    step: TreeStep, *, index: str, feature_names: Sequence[str], brief: bool = False
) -> dict[int, Node]:
    """The tree at ``step`` as drawable nodes: internal nodes name their feature, edges their
    interval, leaves show id, n, P(+1) and Hatano's weight w = p̂·I(q̂)."""
    tree = step.tree
    weights = tree.node_weight(INDEX[index])
    q = tree.q
    current = step.split.leaf if step.split is not None else None
    new = set(step.split.children) if step.split is not None else set()
    nodes: dict[int, Node] = {}
    for nid in range(tree.n_nodes):
        parent = int(tree.parent[nid])
        parent = None if parent < 0 else parent
        label = ""
        if parent is not None:
            b = tree.children[parent].index(nid)
            thr = tree.thresholds[parent]
            # brief: one number per branch (its upper end; the last branch its lower end)
            label = (
                interval_label(thr, b)
                if not brief
                else f"≤{thr[b]:.2f}"
                if b < len(thr)
                else f">{thr[-1]:.2f}"
            )
        hot = nid == current or nid in new
        if tree.feature[nid] >= 0:
            lines = [f"#{nid} {feature_names[tree.feature[nid]]}?"]
            nodes[nid] = Node(
                nid,
                lines,
                parent,
                "#F2F2F2",
                "box",
                hot,
                label,
                parent == current and parent is not None,
                children=list(tree.children[nid]),
            )
        else:
            lines = (
                [f"#{nid}", f"{q[nid]:.2f}"]
                if brief
                else [
                    f"#{nid} n={tree.n_samples[nid]}",
                    f"P(+1) {q[nid]:.2f}",
                    f"w {weights[nid]:.3f}",
                ]
            )
            nodes[nid] = Node(
                nid,
                lines,
                parent,
                theme.mix(float(q[nid])),
                "ellipse",
                hot,
                label,
                parent == current and parent is not None,
            )
    return nodes


def tree_pictures(
    step: TreeStep, *, index: str, feature_names: Sequence[str], font: float = 13
) -> list[str]:
    """Pictures of the tree from the most to the least detailed: the whole tree, the whole tree
    with brief leaves (id and P(+1)), and (for more than 6 leaves) the neighbourhood of this
    round's split, then only the split with its parent and grandparent, each with full and
    with brief leaves. The browser shows the first one that fits the panel at full text size
    (the last one, scaled down, only if none fits)."""
    nodes = tree_nodes(step, index=index, feature_names=feature_names)
    pics = [tree_svg(nodes, 0, font=font)]
    if step.tree.n_leaves > 3:
        brief = tree_nodes(step, index=index, feature_names=feature_names, brief=True)
        pics.append(tree_svg(brief, 0, font=font, title="leaves: #id and P(+1)"))
    if step.tree.n_leaves > 6:
        keep = [step.split.leaf] if step.split is not None else []
        for source in (nodes, brief):
            pics.append(
                tree_svg(
                    neighbourhood(source, 0, keep),
                    0,
                    font=font,
                    title="near this round's split (▸ = collapsed subtree)",
                )
            )
        if keep:  # deep or wide trees: the split with its parent and grandparent, then less
            for up in (2, 1, 0):
                for source in (nodes, brief) if up == 2 else (brief,):
                    near, top = local_view(source, 0, keep[0], up=up)
                    pics.append(
                        tree_svg(
                            near, top, font=font, title="this round's split (▴ = levels above)"
                        )
                    )
                w, h = svg_size(pics[-1])
                if w <= 300 and h <= 300:  # fits the narrowest panel: no need for less
                    break
    return pics


#: The curves' names as plotly draws them (<sup>/<sub>, not carets: issue 25, item 10).
POWER = "|T|<sup>−γ̂</sup>"
E_BOUND = "e<sub>γ̂</sub>(|T|)"
PHI_T = "φ<sub>γ̂</sub>(|T|)"
THM4 = "★ Thm 4: s<sup>−γ̂</sup>"
THM4_REF = "★ s<sup>−γ̂</sup> (ref.)"
PHI_S = "★ φ<sub>γ̂</sub>(s)"


def _gamma(m) -> float:
    """The γ̂ a snapshot's bounds use: the measured one clipped to [0, 1], 0 before any split
    (as ``boostcore.topdown`` computes ``bound_e``, ``bound_power``, ``bound_phi``)."""
    g = m.gamma_hat
    return 0.0 if not np.isfinite(g) else min(max(float(g), 0.0), 1.0)


def gamma_falls(steps: Sequence[TreeStep]) -> list[int]:
    """The rounds at which γ̂ fell: ``γ̂_t < γ̂_{t−1}`` with both measured (round 0 has none).

    The curves ``e_γ̂(|T|)``, ``|T|^−γ̂`` and ``φ_γ̂(|T|)`` use the smallest advantage so far
    (Hatano 2004, Theorem 4; Mansour & McAllester 2002, Theorem 3.2; docs/theory.md §1.2), so
    at such a round they jump up: the bound of the grown tree is weaker, not the tree worse.
    """
    gs = [s.metrics.gamma_hat for s in steps]
    return [
        t
        for t in range(1, len(gs))
        if np.isfinite(gs[t - 1]) and np.isfinite(gs[t]) and gs[t] < gs[t - 1] - 1e-12
    ]


def _pieces(
    steps: Sequence[TreeStep], upto: int, bound: Callable[[int, float], float]
) -> tuple[list[float], list[float], list[float], list[float]]:
    """A γ̂-bound over rounds ``0 … upto`` drawn as what it is: each piece uses one γ̂. Where γ̂
    fell (round ``t``'s split had a smaller advantage), the line breaks at the tree it split
    (``|T_{t−1}|``) and goes on from that tree's bound with the new γ̂ — still a bound there,
    only weaker — so every point drawn bounds its tree. Returns the line's x, y (NaN at the
    breaks) and the vertical connectors' x, y (NaN-separated)."""
    x: list[float] = []
    y: list[float] = []
    cx: list[float] = []
    cy: list[float] = []
    falls = set(gamma_falls(steps[: upto + 1]))
    for t, s in enumerate(steps[: upto + 1]):
        n = int(s.metrics.n_leaves)
        g = _gamma(s.metrics)
        if t in falls:
            n0 = int(steps[t - 1].metrics.n_leaves)
            before, after = (float(bound(n0, v)) for v in (_gamma(steps[t - 1].metrics), g))
            x += [np.nan, n0]
            y += [np.nan, after]
            cx += [n0, n0, np.nan]
            cy += [before, after, np.nan]
        x.append(n)
        y.append(float(bound(n, g)))
    return x, y, cx, cy


def topdown_curves(
    steps: Sequence[TreeStep],
    t: int,
    *,
    size: int,
    show_mm: bool,
    final_is_theorem: bool,
    font: float = 12,
    small: bool = False,
):
    """``I(T)``, training/test error and the bounds against ``|T|``: the whole run faint, the
    rounds up to ``t`` solid, a marker at round ``t``. Lines are named at their right ends
    (:func:`ui.figures.end_labels`). The bounds that use γ̂ are drawn in pieces, one per value
    of γ̂, with a dotted connector where γ̂ fell and, at the last fall up to round ``t``, a
    note on the plot that says so (:func:`gamma_falls`).
    """
    t = min(t, len(steps) - 1)
    allm = [s.metrics for s in steps]
    n_all = np.array([m.n_leaves for m in allm])
    data: list[dict] = []
    # (name, colour, dash, width, value per snapshot, the bound as a function of (|T|, γ̂))
    series: list[tuple[str, str, str, float, Callable[[Any], Any], Any]] = [
        (POWER, theme.BOUND["power"], "dot", 2, lambda m: m.bound_power, size_bound),
        (E_BOUND, theme.BOUND["e"], "dash", 2, lambda m: m.bound_e, e_gamma),
    ]
    if allm[-1].binary_guarantee:
        # a binary max-weight run: Hatano's game value bounds I(T) at every round, tighter
        # than e_γ̂ (a multi-way or largest-gain run has no such per-round theorem)
        series.append((PHI_T, theme.BOUND["phi"], "dashdot", 2, lambda m: m.bound_phi, phi_gamma))
    series += [
        ("I(T)", theme.MEASURED["index"], "solid", 2.5, lambda m: m.index_value, None),
        ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error, None),
    ]
    if allm[-1].test_error is not None and not small:
        series.append(
            ("test error", theme.MEASURED["test"], "solid", 1.5, lambda m: m.test_error, None)
        )
    if small:
        series = [s for s in series if s[0] in ("I(T)", "train error", E_BOUND)]
    for name, colour, dash, width, get, bound in series:
        y = np.array([np.nan if get(m) is None else get(m) for m in allm], dtype=float)
        line = dict(color=colour, dash=dash, width=width)
        if bound is None:
            faint_xy = (n_all, y)
            solid_xy = (n_all[: t + 1], y[: t + 1])
        else:
            fx, fy, fcx, fcy = _pieces(steps, len(steps) - 1, bound)
            sx, sy, scx, scy = _pieces(steps, t, bound)
            faint_xy, solid_xy = (fx, fy), (sx, sy)
        data.append(
            dict(
                type="scatter",
                x=faint_xy[0],
                y=faint_xy[1],
                mode="lines",
                name=name,
                showlegend=False,
                opacity=FAINT,
                hoverinfo="skip",
                line=line,
            )
        )
        data.append(
            dict(
                type="scatter",
                x=solid_xy[0],
                y=solid_xy[1],
                mode="lines",
                name=name,
                legendgroup=name,
                line=line,
                hovertemplate=f"{name}<br>|T| = %{{x}}: %{{y:.4f}}<extra></extra>",
            )
        )
        data.append(
            dict(
                type="scatter",
                x=[n_all[t]],
                y=[y[t]],
                mode="markers",
                name=name,
                showlegend=False,
                legendgroup=name,
                hoverinfo="skip",
                marker=dict(
                    color=colour, size=9 if not small else 6, line=dict(color="white", width=1)
                ),
            )
        )
        if bound is not None:  # where γ̂ fell: a dotted step, faint for the whole run
            for cx, cy, opacity in ((fcx, fcy, FAINT), (scx, scy, 1.0)):
                data.append(
                    dict(
                        type="scatter",
                        x=cx,
                        y=cy,
                        mode="lines",
                        name=f"{name}: γ̂ fell",
                        showlegend=False,
                        opacity=opacity,
                        hoverinfo="skip",
                        line=dict(color=colour, dash="dot", width=1.5),
                    )
                )
    labels = []
    for name, colour, _dash, _width, get, _bound in [] if small else series:
        y_last = _last_finite([get(m) for m in allm])
        if y_last is not None:
            labels.append((name, colour, y_last))
    g = allm[t].gamma_hat
    if not small and np.isfinite(g):
        g = min(max(g, 0.0), 1.0)
        ref = "" if final_is_theorem else " (ref.)"
        # Theorem 4's s^−γ̂, and the tighter φ_γ̂(s) ≤ s^−γ̂ that Hatano's proof gives
        for name, value, colour, what in (
            (
                THM4 if final_is_theorem else THM4_REF,
                size_bound(size, g),
                theme.BOUND["final"],
                "s<sup>−γ̂</sup>|final-tree bound",
            ),
            (
                f"{PHI_S}{ref}",
                phi_gamma(size, g),
                theme.BOUND["phi"],
                "φ<sub>γ̂</sub>(s)|final-tree bound of Hatano's proof",
            ),
        ):
            label, extra = what.split("|")
            data.append(
                dict(
                    type="scatter",
                    x=[size],
                    y=[float(value)],
                    mode="markers",
                    name=name,
                    marker=dict(symbol="star", size=13, color=colour),
                    hovertemplate=f"{label} = %{{y:.4f}}<extra>{extra}</extra>",
                )
            )
            labels.append((name, colour, float(value)))
    final = allm[-1]
    if not small and show_mm and final.bound_mm is not None:
        # Mansour–McAllester's Theorem 4.1 bounds the *final* tree only (an intermediate
        # tree can lie above e_γ(|T|)): a marker at the run's last size, as Theorem 4's ★
        # short labels: they sit in the plot's right margin (the caption under the curves
        # says whether the run is γ-boosting, i.e. whether this is their theorem's bound)
        mm = "◆ MM e<sub>γ</sub>(|T|)" if final.mm_gamma_boosting else "◆ e<sub>γ</sub>(|T|) (ref.)"
        data.append(
            dict(
                type="scatter",
                x=[final.n_leaves],
                y=[final.bound_mm],
                mode="markers",
                name=mm,
                marker=dict(symbol="diamond", size=12, color=theme.BOUND["mm"]),
                hovertemplate="e<sub>γ</sub>(|T|) = %{y:.4f}"
                "<extra>Mansour–McAllester, final tree</extra>",
            )
        )
        labels.append((mm, theme.BOUND["mm"], float(final.bound_mm)))
    # the names kept first if a small plot cannot hold them all: the measured curves, then
    # Theorem 4's ★ and the bounds at every round (end_labels leaves out the last)
    first = ("I(T)", "train error", THM4, THM4_REF, E_BOUND, POWER, "test error")
    labels.sort(key=lambda lab: first.index(lab[0]) if lab[0] in first else len(first))
    notes = [] if small else _fall_note(steps, t, font=font, size=size)
    # room for the longest label, but never more than a third of a narrow (300 px) plot
    layout = curves_layout(
        labels,
        font=font,
        small=small,
        x_range=(0.5, size + 0.5),
        x_title="leaves |T|",
        most_right=110 * font / 12,
        annotations=notes,
        shapes=[
            dict(
                type="line",
                xref="x",
                yref="paper",
                x0=int(n_all[t]),
                x1=int(n_all[t]),
                y0=0,
                y1=1,
                line=dict(color="#888888", width=1, dash="dot"),
            )
        ],
    )
    return figure_dict(data, layout)


def _fall_note(steps: Sequence[TreeStep], t: int, *, font: float, size: int) -> list[dict]:
    """At the last round ``≤ t`` where γ̂ fell, a note on the plot, pointing at the foot of
    ``e_γ̂``'s step: "γ̂ fell to … here" (issue 25, item 9); nothing before the first fall."""
    falls = gamma_falls(steps[: t + 1])
    if not falls:
        return []
    r = falls[-1]
    m, before = steps[r].metrics, steps[r - 1].metrics
    n = int(before.n_leaves)  # the step is drawn at the tree round r split
    foot = float(e_gamma(n, _gamma(before)))
    # two short lines beside the step, on the side of the plot with more room, so that they
    # stay inside it: the end labels are right of the plot (a note right of a step at 47 % ran
    # into e_γ̂(|T|)'s label on a projector beside the quiz; issue 39, item 8)
    right_half = n > (size + 1) / 2
    return [
        dict(
            xref="x",
            yref="y",
            x=n,
            y=foot,
            text=f"γ̂ fell<br>to {m.gamma_hat:.2g}",
            hovertext=(
                f"At round {r} γ̂ fell from {before.gamma_hat:.3g} to {m.gamma_hat:.3g}: the "
                "dashed bounds use γ̂, the smallest advantage of the splits so far (0 once a "
                "leaf that holds both classes cannot be split), so they step up here. The tree "
                "did not get worse; its guarantee did."
            ),
            showarrow=True,
            arrowhead=0,
            arrowwidth=1,
            arrowcolor=theme.BOUND["e"],
            ax=-18 if right_half else 18,
            ay=round(1.8 * font),
            xanchor="right" if right_half else "left",
            align="right" if right_half else "left",
            # text: e_γ's vermillion darkened to 4.5 : 1 (#D55E00 is 3.87 on white)
            font=dict(size=font - 1, color=theme.ink(theme.BOUND["e"])),
            bgcolor="rgba(255,255,255,0.85)",
        )
    ]


def _last_finite(values) -> float | None:
    for v in reversed(values):
        if v is not None and np.isfinite(v):
            return float(v)
    return None


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
        g = _gamma(m)
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
