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
from boostcore.bounds import phi_gamma, size_bound
from boostcore.datasets import Dataset
from boostcore.impurity import INDEX
from boostcore.topdown import EXACT_SEARCH_LIMIT, LARGE_LEAF_CUTS, TreeStep
from ui import lecture, theme
from ui.cache import shared
from ui.figures import (
    FAINT,
    curves_layout,
    data_extent,
    figure_dict,
    points_traces,
    regions_layout,
)
from ui.labels import CRITERION_SHORT
from ui.proof import is_large, proof_frames
from ui.svgtree import Node, local_view, neighbourhood, svg_size, tree_svg

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
        data.append(
            dict(
                type="scatter",
                x=boxes[leaves, 0].mean(axis=1),
                y=boxes[leaves, 1].mean(axis=1),
                mode="text",
                text=[f"#{i}" for i in leaves],
                name="leaf ids",
                textfont=dict(color="#333333", size=font - 1),
                customdata=np.round(q[leaves], 3),
                hovertemplate="leaf %{text}<br>P(+1) = %{customdata:.2f}<extra></extra>",
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
    rounds up to ``t`` solid, a marker at round ``t``. The legend is one line above the plot.
    """
    t = min(t, len(steps) - 1)
    allm = [s.metrics for s in steps]
    n_all = np.array([m.n_leaves for m in allm])
    data: list[dict] = []
    series: list[tuple[str, str, str, float, Callable[[Any], Any]]] = [
        ("|T|^−γ̂", theme.BOUND["power"], "dot", 2, lambda m: m.bound_power),
        ("e_γ̂(|T|)", theme.BOUND["e"], "dash", 2, lambda m: m.bound_e),
    ]
    if allm[-1].binary_guarantee:
        # a binary max-weight run: Hatano's game value bounds I(T) at every round, tighter
        # than e_γ̂ (a multi-way or largest-gain run has no such per-round theorem)
        series.append(("φ_γ̂(|T|)", theme.BOUND["phi"], "dashdot", 2, lambda m: m.bound_phi))
    series += [
        ("I(T)", theme.MEASURED["index"], "solid", 2.5, lambda m: m.index_value),
        ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error),
    ]
    if allm[-1].test_error is not None and not small:
        series.append(("test error", theme.MEASURED["test"], "solid", 1.5, lambda m: m.test_error))
    if small:
        series = [s for s in series if s[0] in ("I(T)", "train error", "e_γ̂(|T|)")]
    for name, colour, dash, width, get in series:
        y = np.array([np.nan if get(m) is None else get(m) for m in allm], dtype=float)
        data.append(
            dict(
                type="scatter",
                x=n_all,
                y=y,
                mode="lines",
                name=name,
                showlegend=False,
                opacity=FAINT,
                hoverinfo="skip",
                line=dict(color=colour, dash=dash, width=width),
            )
        )
        data.append(
            dict(
                type="scatter",
                x=n_all[: t + 1],
                y=y[: t + 1],
                mode="lines",
                name=name,
                legendgroup=name,
                line=dict(color=colour, dash=dash, width=width),
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
    labels = []
    for name, colour, _dash, _width, get in [] if small else series:
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
                "★ Thm 4: s^−γ̂" if final_is_theorem else "★ s^−γ̂ (ref.)",
                size_bound(size, g),
                theme.BOUND["final"],
                "s^−γ̂|final-tree bound",
            ),
            (
                f"★ φ_γ̂(s){ref}",
                phi_gamma(size, g),
                theme.BOUND["phi"],
                "φ_γ̂(s)|final-tree bound of Hatano's proof",
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
        mm = "◆ MM e_γ(|T|)" if final.mm_gamma_boosting else "◆ e_γ(|T|) (ref.)"
        data.append(
            dict(
                type="scatter",
                x=[final.n_leaves],
                y=[final.bound_mm],
                mode="markers",
                name=mm,
                marker=dict(symbol="diamond", size=12, color=theme.BOUND["mm"]),
                hovertemplate="e_γ(|T|) = %{y:.4f}<extra>Mansour–McAllester, final tree</extra>",
            )
        )
        labels.append((mm, theme.BOUND["mm"], float(final.bound_mm)))
    # room for the longest label, but never more than a third of a narrow (300 px) plot
    layout = curves_layout(
        labels,
        font=font,
        small=small,
        x_range=(0.5, size + 0.5),
        x_title="leaves |T|",
        most_right=110 * font / 12,
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


def _last_finite(values) -> float | None:
    for v in reversed(values):
        if v is not None and np.isfinite(v):
            return float(v)
    return None


# --------------------------------------------------------------------------- the proof
def topdown_proof_frames(
    steps: Sequence[TreeStep], *, criterion: str, leaf_rule: str, font: float = 12
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

    Returns
    -------
    list of str
    """
    chains = [topdown_chain(s, criterion=criterion, leaf_rule=leaf_rule) for s in steps]
    return proof_frames(chains, large=is_large(font))


# ------------------------------------------------------------------------ the lecture view
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
    :func:`ui.pages.topdown.runs.topdown_run`) apply to the run of criterion ``chooser``.

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
        # by what the run did, not the criterion's name: a student's lighter leaf or forced
        # split, or a naive split that broke Hatano's k ≤ s/|T|, ends the theorem, and the
        # run's metrics say so (final_guarantee); the proof card decides the same way
        final_is_theorem = leaf_rule == "max_weight" and bool(steps[-1].metrics.final_guarantee)
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
