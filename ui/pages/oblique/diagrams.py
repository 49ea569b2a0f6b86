"""The oblique page's BoostODT (or G1) tree as a graphviz diagram (DOT source)."""

from __future__ import annotations

from collections.abc import Sequence

import graphviz

from boostcore.oblique import ObliqueTree
from boostcore.realboost import Additive
from ui import theme


def _separator_text(sep: Additive, names: Sequence[str], d: int) -> str:
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
    tree: ObliqueTree,
    *,
    feature_names: tuple[str, ...] = ("x1", "x2"),
    current: int | None = None,
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
