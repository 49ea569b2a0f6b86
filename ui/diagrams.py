"""Snapshot → graphviz diagrams (DOT source rendered by Streamlit in the browser)."""

from __future__ import annotations

import graphviz
import numpy as np

from boostcore.branching import STEP, BPStep
from boostcore.impurity import INDEX
from boostcore.topdown import TreeStep

from . import theme
from .text import rounds_span


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


def _stump_label(s, names) -> str:
    return f"σ(({names[s.feature]} − {s.theta:.2f})/τ)"


def prob_digraph(model, *, feature_names=("x1", "x2"), new_stump=None) -> graphviz.Digraph:
    """The tree, or the matryoshka with its dolls drawn as nested clusters (a chain is a
    plain list, drawn as a table by the page).

    Soft stumps are small boxes (the newest one outlined in vermillion); a node whose
    classifier is itself a tree is a dashed cluster holding that tree's stumps, so the
    nesting is visible as boxes inside boxes. The outer tree's leaves show ``H_l`` and the
    ``Π Z`` of their path. The initial model (round 0, ``t = 0``) is one leaf ``H = 0``.
    """
    from boostcore.probabilistic import Chain, ProbTree, SoftStump

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


def _separator_text(sep, names, d: int) -> str:
    aff = sep.affine(d)
    if aff is not None:
        coef, b = aff
        terms = " ".join(f"{c:+.2f}·{names[i]}" for i, c in enumerate(coef) if c != 0)
        return f"{terms} {b:+.2f} ≥ 0".lstrip("+")
    top = sorted(zip(sep.alphas, sep.hyps), key=lambda p: -abs(p[0]))[:3]
    parts = "\n".join(f"{a:+.2f}·{h.describe()}" for a, h in top)
    more = f"\n… {len(sep) - 3} more" if len(sep) > 3 else ""
    return f"Σ of {len(sep)} stumps ≥ 0\n{parts}{more}"


def odt_digraph(
    tree, *, feature_names=("x1", "x2"), current: int | None = None
) -> graphviz.Digraph:
    """A BoostODT (or G1) tree as DOT: each internal node shows ``LS ≥ 0`` (the affine
    equation for the hyperplane learner, the largest stumps otherwise), each leaf ``H``."""
    g = graphviz.Digraph(
        graph_attr={"rankdir": "TB", "bgcolor": "transparent"},
        node_attr={"fontname": "Helvetica", "fontsize": "10", "style": "filled"},
        edge_attr={"fontname": "Helvetica", "fontsize": "9"},
    )
    d = len(feature_names)
    for n in range(tree.n_nodes):
        pen = {"color": theme.HIGHLIGHT, "penwidth": "3"} if n == current else {}
        if tree.left[n] >= 0:
            g.node(
                str(n),
                f"#{n}\n{_separator_text(tree.separator[n], feature_names, d)}",
                shape="box",
                fillcolor="#F2F2F2",
                **pen,
            )
        else:
            wp, wn = tree.w_pos[n], tree.w_neg[n]
            q = wp / (wp + wn) if wp + wn > 0 else 0.5
            g.node(
                str(n),
                f"#{n}\nH = {tree.value[n]:+.3f}",
                shape="ellipse",
                fillcolor=theme.mix(q),
                **pen,
            )
    for n in tree.internal:
        g.edge(str(n), str(tree.left[n]), label="LS < 0")
        g.edge(str(n), str(tree.right[n]), label="LS ≥ 0")
    return g


def game_digraph(state, *, chosen: int | None = None) -> graphviz.Digraph:
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
