"""Figure and diagram builders: pure functions of a snapshot, valid for plotly/graphviz."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore.datasets import make_dataset
from boostcore.topdown import grow
from ui import diagrams, figures, tables


@pytest.fixture(scope="module")
def run():
    ds = make_dataset("moons", n=200, seed=1)
    steps = tuple(grow(ds.X_train, ds.y_train, size=10, max_arity=3,
                       X_test=ds.X_test, y_test=ds.y_test))
    return ds, steps


def _validated(fig: go.Figure) -> go.Figure:
    # the builders skip validation for speed: rebuild with it, so a bad property fails here
    return go.Figure(fig.to_dict())


def test_regions_figure_is_valid_and_highlights_the_split(run) -> None:
    ds, steps = run
    for step in steps:
        fig = figures.tree_regions_figure(step, ds, title="t")
        _validated(fig)
        heat = fig.data[0]
        assert heat.type == "heatmap"
        z = np.asarray(heat.z)
        assert z.shape == (figures.GRID, figures.GRID) and z.min() >= 0 and z.max() <= 1
        # one line per threshold of every internal node (+ the dashed box of the new split)
        n_thr = sum(len(t) for t in step.tree.thresholds)
        assert len(fig.layout.shapes) == n_thr + (step.split is not None)
        # train + test points of both classes, all of them
        pts = [d for d in fig.data if d.type == "scattergl"]
        assert sum(len(d.x) for d in pts) == ds.n_train + ds.n_test


def test_regions_background_matches_the_tree(run) -> None:
    ds, steps = run
    step = steps[-1]
    fig = figures.tree_regions_figure(step, ds)
    heat = fig.data[0]
    xs, ys = np.asarray(heat.x), np.asarray(heat.y)
    i, j = 17, 101
    q = step.tree.predict_proba_pos(np.array([[xs[j], ys[i]]]))[0]
    assert np.asarray(heat.z)[i, j] == pytest.approx(q)


def test_curves_figure_draws_rounds_up_to_t(run) -> None:
    ds, steps = run
    for t in (0, 2, len(steps) - 1, len(steps) + 5):
        fig = figures.topdown_curves_figure(steps, t, size=10, show_mm=True)
        _validated(fig)
        shown = min(t, len(steps) - 1) + 1
        index_trace = [d for d in fig.data if d.name == "I(T) (index)"][0]
        assert len(index_trace.x) == shown
        assert list(index_trace.y) == pytest.approx(
            [s.metrics.index_value for s in steps[:shown]])


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
