"""The probabilistic page's tree and matryoshka as a graphviz diagram (DOT source)."""

from __future__ import annotations

from collections.abc import Sequence

import graphviz
import numpy as np

from boostcore.probabilistic import Chain, ProbTree, SoftStump
from ui import theme


def _stump_label(s: SoftStump, names: Sequence[str]) -> str:
    return f"σ(({names[s.feature]} − {s.theta:.2f})/τ)"


def prob_digraph(
    model: Chain | ProbTree,
    *,
    feature_names: tuple[str, ...] = ("x1", "x2"),
    new_stump: SoftStump | None = None,
) -> graphviz.Digraph:
    """The tree, or the matryoshka with its dolls drawn as nested clusters (a chain is a
    plain list, drawn as a table by the page).

    Soft stumps are small boxes (the newest one outlined in vermillion); a node whose
    classifier is itself a tree is a dashed cluster holding that tree's stumps, so the
    nesting is visible as boxes inside boxes. The outer tree's leaves show ``H_l`` and the
    ``Π Z`` of their path. The initial model (round 0, ``t = 0``) is one leaf ``H = 0``.
    """
    g = graphviz.Digraph(
        graph_attr={
            "rankdir": "TB",
            "nodesep": "0.15",
            "ranksep": "0.3",
            "bgcolor": "transparent",
            "compound": "true",
        },
        node_attr={"fontname": "Helvetica", "fontsize": "9", "style": "filled"},
        edge_attr={"fontname": "Helvetica", "fontsize": "8", "color": "#777777"},
    )
    if isinstance(model, Chain):
        # rows of four, read left to right: every point meets every stump, H adds them up
        items = list(zip(model.stumps, model.alpha_pos, model.alpha_neg))
        if not items:  # round 0, the initial model: no weak classifier yet
            g.node("c0", "H = 0 (no weak classifier yet)", shape="ellipse", fillcolor="#F2F2F2")
        for row in range(0, len(items), 4):
            with g.subgraph(name=f"row{row}") as sg:
                sg.attr(rank="same")
                for t in range(row + 1, min(row + 4, len(items)) + 1):
                    s, ap, an = items[t - 1]
                    hot = s is new_stump
                    sg.node(
                        f"c{t}",
                        f"h{t}: {_stump_label(s, feature_names)}\nα₊={ap:.2f}  α₋={an:.2f}",
                        shape="box",
                        fillcolor="#F2F2F2",
                        **({"color": theme.HIGHLIGHT, "penwidth": "2.5"} if hot else {}),
                    )
        for t in range(2, len(items) + 1):
            g.edge(f"c{t - 1}", f"c{t}", label="+")
        return g
    counter = [0]
    palette = ["#FFFFFF", "#F4F8FB", "#EAF2F8", "#DDEBF5", "#D0E3F1", "#C3DBEE"]

    def draw(tree: ProbTree, graph, depth: int) -> tuple[str, list[str]]:
        """Draw ``tree``; return an anchor node inside it and its leaf node names."""
        counter[0] += 1
        tag = f"t{counter[0]}"
        anchors, clusters = {}, {}
        for n, clf in enumerate(tree.classifier):
            if clf is None:
                continue
            if isinstance(clf, SoftStump):
                name = f"{tag}_n{n}"
                hot = clf is new_stump
                graph.node(
                    name,
                    _stump_label(clf, feature_names),
                    shape="box",
                    fillcolor="#F2F2F2",
                    **({"color": theme.HIGHLIGHT, "penwidth": "2.5"} if hot else {}),
                )
                anchors[n] = name
            else:
                clusters[n] = f"cluster_{tag}_{n}"
                with graph.subgraph(name=clusters[n]) as sub:
                    sub.attr(
                        style="dashed,filled",
                        color="#555555",
                        fillcolor=palette[min(depth + 1, len(palette) - 1)],
                        label=f"doll ({clf.n_weak} stumps)",
                        fontsize="9",
                    )
                    anchors[n], _ = draw(clf, sub, depth + 1)
        leaves = []
        for n, ch in enumerate(tree.children):
            # inside a doll only its stumps are drawn: its leaves are summed into the doll's
            # P(H > 0), and drawing them all would bury the nesting
            if ch is None and depth == 0:
                name = f"{tag}_n{n}"
                graph.node(
                    name,
                    f"H={tree.leaf_value(n):+.2f}\nΠZ={tree.path_product(n):.3f}",
                    shape="ellipse",
                    fillcolor=theme.mix(float((1 + np.tanh(tree.leaf_value(n))) / 2)),
                )
                anchors[n] = name
                leaves.append(name)
        for n, ch in enumerate(tree.children):
            if ch is None:
                continue
            for child, lab in ((ch[0], "−"), (ch[1], "+")):
                if child not in anchors:
                    continue
                # an edge of the outer tree leaves / enters the doll's box, not a stump in it
                ends = {}
                if n in clusters:
                    ends["ltail"] = clusters[n]
                if child in clusters:
                    ends["lhead"] = clusters[child]
                g.edge(anchors[n], anchors[child], label=lab, **ends)
        return anchors[0], leaves

    draw(model, g, 0)
    return g
