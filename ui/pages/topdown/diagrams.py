"""The top-down page's tree as a graphviz diagram (DOT source: the export menu's download)."""

from __future__ import annotations

import graphviz

from boostcore.impurity import INDEX
from boostcore.topdown import TreeStep
from ui import theme


def interval_label(thresholds: tuple[float, ...], b: int) -> str:
    """Edge label of branch ``b``: the interval of values it receives."""
    k = len(thresholds) + 1
    if k == 2:
        return f"≤ {thresholds[0]:.2f}" if b == 0 else f"> {thresholds[0]:.2f}"
    if b == 0:
        return f"≤ {thresholds[0]:.2f}"
    if b == k - 1:
        return f"> {thresholds[-1]:.2f}"
    return f"({thresholds[b - 1]:.2f}, {thresholds[b]:.2f}]"


def tree_digraph(
    step: TreeStep,
    *,
    index: str = "km",
    feature_names: tuple[str, ...] = ("x1", "x2"),
    class_names: tuple[str, str] = ("-1", "+1"),
    compact: bool = False,
) -> graphviz.Digraph:
    """The multi-way tree at ``step``: internal nodes name their feature, edges their interval.

    Leaves show their id (as in the regions plot), the number of training points, ``P(+1)``
    and Hatano's weight ``p̂·I(q̂)``; their fill goes from orange (class −1) to blue (+1).
    The node split this round and its new children are outlined in vermillion.
    """
    tree = step.tree
    I = INDEX[index]
    weights = tree.node_weight(I)
    q = tree.q
    current = step.split.leaf if step.split is not None else None
    new = set(step.split.children) if step.split is not None else set()
    g = graphviz.Digraph(
        graph_attr={
            "rankdir": "TB",
            "nodesep": "0.15",
            "ranksep": "0.35",
            "bgcolor": "transparent",
        },
        node_attr={"fontname": "Helvetica", "fontsize": "10", "style": "filled"},
        edge_attr={"fontname": "Helvetica", "fontsize": "9", "color": "#666666"},
    )
    for nid in range(tree.n_nodes):
        hot = nid == current or nid in new
        pen = {"color": theme.HIGHLIGHT, "penwidth": "3"} if hot else {"color": "#555555"}
        if tree.feature[nid] >= 0:
            name = feature_names[tree.feature[nid]]
            g.node(
                str(nid),
                f"#{nid}  {name}?",
                shape="box",
                fillcolor="#F2F2F2",
                style="filled,rounded",
                **pen,
            )
        else:
            label = (
                f"#{nid}\nn={tree.n_samples[nid]}"
                if compact
                else f"#{nid}\nn={tree.n_samples[nid]}  P(+1)={q[nid]:.2f}\nw={weights[nid]:.3f}"
            )
            g.node(str(nid), label, shape="ellipse", fillcolor=theme.mix(float(q[nid])), **pen)
    for nid in range(tree.n_nodes):
        for b, child in enumerate(tree.children[nid]):
            hot = nid == current
            g.edge(
                str(nid),
                str(child),
                label=interval_label(tree.thresholds[nid], b),
                **({"color": theme.HIGHLIGHT, "penwidth": "2"} if hot else {}),
            )
    return g
