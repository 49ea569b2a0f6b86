"""The divide-and-merge page's branching program as a graphviz diagram (DOT source)."""

from __future__ import annotations

import graphviz
import numpy as np

from boostcore.branching import STEP, BPStep
from ui import theme
from ui.text import rounds_span


def bp_digraph(
    steps: tuple[BPStep, ...],
    t: int,
    *,
    keep_layers: int = 5,
    max_nodes: int = 8,
    feature_names: tuple[str, ...] = ("x1", "x2"),
) -> graphviz.Digraph:
    """The branching program after round ``t`` (0: the root alone), one rank per round;
    ``steps`` is the whole run (start, steps, stop).

    Each node is a leaf of ``L_r`` labelled with its weight ``w[l]`` and its mass under
    ``D_r``; its fill goes from orange (``w < 0``, votes −1) through white to blue (``w > 0``).
    Edges carry the stump's outcome −1/+1; several edges into one node are a merge. The
    stump of each round is written at the left of its rank, the current round is outlined
    in vermillion. Only the last ``keep_layers`` rounds are drawn (older ones collapse into
    one box) and a layer shows at most ``max_nodes`` leaves, the heaviest (the rest are
    gathered in a "+N more" node), so the picture stays readable at 20+ rounds.
    """
    rounds = [s for s in steps if s.kind == STEP and s.t <= t]
    T = len(rounds)
    g = graphviz.Digraph(
        graph_attr={"rankdir": "TB", "nodesep": "0.12", "ranksep": "0.3", "bgcolor": "transparent"},
        node_attr={"fontname": "Helvetica", "fontsize": "10", "style": "filled"},
        edge_attr={"fontname": "Helvetica", "fontsize": "9", "color": "#777777"},
    )
    first = max(1, T - keep_layers + 1)

    def shown(r: int) -> dict[int, str]:
        """Leaf id → node name for layer r (heaviest max_nodes; the rest → 'more')."""
        if r == 0:
            return {0: "root"}
        mass = rounds[r - 1].leaf_mass
        keep = np.argsort(-mass, kind="stable")[:max_nodes]
        names = {int(l): f"r{r}_{int(l)}" for l in keep}
        for l in range(mass.shape[0]):
            names.setdefault(l, f"r{r}_more")
        return names

    prev_names = None
    if first == 1:
        g.node("root", "root\nD=1.000", shape="ellipse", fillcolor="#FFFFFF")
        prev_names = {0: "root"}
    else:
        g.node(
            "collapsed",
            f"{rounds_span(1, first - 1)}\n(collapsed)",
            shape="box",
            fillcolor="#EEEEEE",
            style="filled,dashed",
        )
    for r in range(first, T + 1):
        step = rounds[r - 1]
        names = shown(r)
        hot = r == T
        with g.subgraph(name=f"rank{r}") as sg:
            sg.attr(rank="same")
            sg.node(
                f"h{r}",
                f"h{r}: {feature_names[step.feature]} > {step.threshold:.2f}",
                shape="plaintext",
                style="",
                fontcolor=theme.HIGHLIGHT if hot else "#333333",
            )
            n_more = sum(1 for v in names.values() if v.endswith("_more"))
            for l, name in names.items():
                if name.endswith("_more"):
                    continue
                w = float(step.weights[l])
                pen = {"color": theme.HIGHLIGHT, "penwidth": "2.5"} if hot else {"color": "#555555"}
                sg.node(
                    name,
                    f"w={w:+.2f}\nD={step.leaf_mass[l]:.3f}",
                    shape="ellipse",
                    fillcolor=theme.mix(float((1 + np.tanh(w)) / 2)),
                    **pen,
                )
            if n_more:
                sg.node(
                    f"r{r}_more",
                    f"+{n_more} more\nleaves",
                    shape="box",
                    fillcolor="#F2F2F2",
                    style="filled,dashed",
                )
        if prev_names is None:  # first drawn layer below the collapsed box
            for name in set(names.values()):
                g.edge("collapsed", name, style="dashed", arrowhead="none")
        else:
            edges = set()
            for l, pname in prev_names.items():
                for a in (0, 1):
                    target = int(step.merge[2 * l + a])
                    if target >= 0:
                        edges.add((pname, names[target], "+1" if a else "−1"))
            for pname, cname, lab in sorted(edges):
                g.edge(pname, cname, label=lab, **({"color": theme.HIGHLIGHT} if hot else {}))
        prev_names = names
    return g
