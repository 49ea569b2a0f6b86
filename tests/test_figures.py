"""Figure and diagram builders: pure functions of a snapshot, valid for plotly/graphviz."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from boostcore.datasets import make_dataset
from boostcore.topdown import grow
from ui import diagrams, tables


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
    assert diagrams.theme.HIGHLIGHT in src  # this round's split is highlighted


def test_tables(run) -> None:
    ds, steps = run
    frame = tables.candidates_frame({"Hatano": steps[1]})
    assert list(frame["k"]) == [c.arity for c in steps[1].candidates]
    assert (frame["chosen"] == "✔").sum() == 1
    hist = tables.history_frame(steps)
    assert len(hist) == len(steps) and "index_value" in hist.columns
