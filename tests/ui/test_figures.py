"""Figure and diagram builders: pure functions of a snapshot, valid for plotly/graphviz."""

from __future__ import annotations

import html
import re

import plotly.graph_objects as go
import pytest

from boostcore.datasets import make_dataset
from boostcore.topdown import grow
from ui import tables, theme
from ui.pages.topdown import diagrams
from ui.pages.topdown import tables as topdown_tables


@pytest.fixture(scope="module")
def run():
    ds = make_dataset("moons", n=200, random_state=1)
    steps = tuple(
        grow(ds.X_train, ds.y_train, size=10, max_arity=3, X_test=ds.X_test, y_test=ds.y_test)
    )
    return ds, steps


def _validated(fig: go.Figure) -> go.Figure:
    # the builders skip validation for speed: rebuild with it, so a bad property fails here
    return go.Figure(fig.to_dict())


def test_tree_diagram_has_every_node_and_edge(run) -> None:
    ds, steps = run
    step = [s for s in steps if s.split is not None][-1]
    src = diagrams.tree_digraph(step, index="km").source
    tree = step.tree
    for nid in range(tree.n_nodes):
        assert f"\n\t{nid} [" in src
    assert src.count("->") == tree.n_nodes - 1
    assert theme.HIGHLIGHT in src  # this round's split is highlighted


def test_tables(run) -> None:
    ds, steps = run
    frame = topdown_tables.candidates_frame({"Hatano": steps[1]})
    assert list(frame["k"]) == [c.arity for c in steps[1].candidates]
    assert (frame["chosen"] == "✔").sum() == 1
    hist = tables.history_frame(steps)
    assert len(hist) == len(steps) and "index_value" in hist.columns


def test_one_curves_layout_for_every_page() -> None:
    """ui.figures.curves_layout: end labels at the right, room for the longest one (capped
    when asked), no titles or labels in a small view, a log axis with a tick per decade."""
    from ui.figures import LABEL_GAP_PX, curves_layout, curves_right_margin

    labels = [("train error", "#000000", 0.2), ("Π Z_t", "#0072B2", 0.5)]
    lay = curves_layout(labels, font=12, small=False, x_range=(0, 5), x_title="round t")
    assert [a["text"] for a in sorted(lay["annotations"], key=lambda a: a["y"])] == [
        "train error",
        "Π Z_t",
    ]
    # room for the longest name, the gap to the plot (a leader line's length) and 12 px
    room = int(11 * 12 * 0.6) + LABEL_GAP_PX + 12
    assert lay["margin"]["r"] == curves_right_margin(labels, font=12) == room
    assert curves_right_margin(labels, font=12, most=50) == 50
    assert curves_right_margin([], font=12) == 14
    small = curves_layout([], font=12, small=True, x_range=(0, 5), x_title="round t")
    assert small["xaxis"]["title"] is None and not small["yaxis"]["showticklabels"]
    assert "shapes" not in small
    log = curves_layout(
        labels, font=12, small=False, x_range=(0, 5), x_title="t", y_range=(-3, 0.05), log=True
    )
    assert log["yaxis"]["type"] == "log" and log["yaxis"]["dtick"] == 1
    go.Figure({"data": [], "layout": log})  # valid for plotly


def test_a_tree_pictures_title_fits_its_width() -> None:
    """A local view's title ("this round's split (▴ = levels above)") was cut at the tree's
    width when the tree was narrower than the title (issue 25, seen at 22 px)."""
    from ui import svgtree
    from ui.svg import BOLD, CHAR, svg_size

    title = "this round's split (▴ = levels above)"
    nodes = {0: svgtree.Node(id=0, lines=("#0",))}
    for font in (12.0, 23.0):
        pic = svgtree.tree_svg(nodes, 0, font=font, title=title)
        width, _ = svg_size(pic)
        # wrapped before its parenthesis, each line as wide as the picture at most
        found = re.findall(r'<text class="t"[^>]*>([^<]*)</text>', pic)
        lines = [html.unescape(t) for t in found]
        assert " ".join(lines) == title and len(lines) == 2, lines
        for line in lines:
            assert width >= len(line) * font * CHAR * BOLD
        # the picture is no wider than its longer line needs: it still fits a narrow panel
        assert width < len(title) * font * CHAR
