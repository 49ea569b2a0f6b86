"""The Weight Distribution Game's tree as a graphviz diagram (DOT source)."""

from __future__ import annotations

import graphviz

from boostcore.game import GameState
from ui import theme


def game_digraph(state: GameState, *, chosen: int | None = None) -> graphviz.Digraph:
    """The Weight Distribution Game's tree: every node with the weight it was given; current
    leaves filled by weight (darker = heavier), the chosen leaf outlined in vermillion."""
    g = graphviz.Digraph(
        graph_attr={"rankdir": "TB", "bgcolor": "transparent", "nodesep": "0.12", "ranksep": "0.3"},
        node_attr={"fontname": "Helvetica", "fontsize": "10", "style": "filled"},
        edge_attr={"color": "#777777", "arrowsize": "0.5"},
    )
    leaves = set(state.leaves)
    top = max((state.weight(i) for i in leaves), default=1.0) or 1.0
    for node in state.nodes:
        pen = {"color": theme.HIGHLIGHT, "penwidth": "3"} if node.id == chosen else {}
        if node.id in leaves:
            shade = node.weight / top
            fill = theme.mix(0.5 + 0.5 * shade)
            g.node(
                str(node.id),
                f"#{node.id}\n{node.weight:.4f}",
                shape="ellipse",
                fillcolor=fill,
                **pen,
            )
        else:
            g.node(
                str(node.id),
                f"#{node.id}\n{node.weight:.4f}",
                shape="box",
                fillcolor="#F2F2F2",
                fontcolor="#777777",
                **pen,
            )
        if node.parent >= 0:
            g.edge(str(node.parent), str(node.id))
    return g
