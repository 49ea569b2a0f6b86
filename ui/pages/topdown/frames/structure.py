"""The structure view of /topdown: the tree at a snapshot as drawable nodes
(:func:`tree_nodes`) and as SVG pictures at a fixed text size, from the most to the least
detailed (:func:`tree_pictures`; the browser shows the first that fits). Pure functions (no
Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

from boostcore.impurity import INDEX
from boostcore.topdown import TreeStep
from ui import theme
from ui.svg import svg_size
from ui.svgtree import Node, local_view, neighbourhood, tree_svg

from ..diagrams import interval_label


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
