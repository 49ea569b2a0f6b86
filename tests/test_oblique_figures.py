"""Oblique page figures, tables and DOT: pure functions of snapshots, valid for plotly."""

from __future__ import annotations

import graphviz
import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore.datasets import make_dataset
from boostcore.oblique import THETA_GRID, boost_odt, g1_linear, g1_tree
from ui import diagrams, oblique_figures, tables
from ui.oblique_figures import zero_segments


def _validated(fig: go.Figure) -> go.Figure:
    # the builders skip plotly's validation for speed: rebuild with it, so a bad property
    # fails here; the figure itself is returned (its arrays stay plain numpy arrays)
    go.Figure(fig.to_dict())
    return fig


@pytest.fixture(scope="module")
def runs():
    ds = make_dataset("band", n=300, seed=2)
    kw = dict(X_test=ds.X_test, y_test=ds.y_test)
    return ds, {
        "path": tuple(g1_linear(ds.X_train, ds.y_train, n_rounds=12, **kw)),
        "tree": tuple(g1_tree(ds.X_train, ds.y_train, n_internal=4, **kw)),
        "odt": tuple(boost_odt(ds.X_train, ds.y_train, n_internal=4, n_stumps=5, **kw)),
        "odt_h": tuple(boost_odt(ds.X_train, ds.y_train, n_internal=3, n_stumps=5,
                                 node_learner="hyperplane", **kw)),
    }


def test_zero_segments_lie_on_the_line():
    xs, ys = np.linspace(-2, 2, 60), np.linspace(-1, 3, 45)
    X, Y = np.meshgrid(xs, ys)
    F = 0.7 * X - Y + 0.4
    sx, sy = zero_segments(xs, ys, F.ravel())
    P = np.array([(a, b) for a, b in zip(sx, sy) if a is not None])
    assert len(P) > 40
    np.testing.assert_allclose(0.7 * P[:, 0] - P[:, 1] + 0.4, 0, atol=1e-12)
    # outside the region (NaN) nothing is drawn
    G = np.where(X > 0, F, np.nan)
    gx, _ = zero_segments(xs, ys, G.ravel())
    assert all(v is None or v >= xs[xs > 0][0] - 1e-12 for v in gx)


def test_path_regions_draw_weights_and_the_stump(runs):
    ds, r = runs
    for step in r["path"]:
        fig = _validated(oblique_figures.path_regions_figure(step, ds))
        assert fig.data[0].type == "heatmap"
        assert len(fig.layout.shapes) == 1  # the newest stump
        n_pts = sum(len(d.x) for d in fig.data if d.type == "scattergl")
        assert n_pts == ds.n_train + ds.n_test


@pytest.mark.parametrize("name", ["tree", "odt", "odt_h"])
def test_tree_regions_and_tree_figure(runs, name):
    ds, r = runs
    for step in r[name]:
        fig = _validated(oblique_figures.tree_regions_figure(step, ds))
        lines = [d for d in fig.data if d.type == "scatter" and d.mode == "lines"]
        assert len(lines) == len(step.tree.internal)
        if step.node is not None:
            assert any(d.line.width == 4 for d in lines)  # this step's node in vermillion
        tf = _validated(oblique_figures.odt_tree_figure(step, ds))
        assert len([s for s in tf.layout.shapes if s.type == "rect"]) == step.tree.n_nodes
        dot = diagrams.odt_digraph(step.tree, current=step.node)
        assert isinstance(dot, graphviz.Digraph)
        assert dot.source.count("->") == 2 * len(step.tree.internal)


def test_partial_separator_while_building(runs):
    ds, r = runs
    step = r["odt"][2]
    before = r["odt"][1]
    part = step.separator.prefix(2)
    fig = _validated(oblique_figures.tree_regions_figure(before, ds, partial=part,
                                                         partial_node=step.node))
    assert any(d.name == "node being built" for d in fig.data)
    tf = _validated(oblique_figures.odt_tree_figure(before, ds, partial=part,
                                                    partial_node=step.node))
    assert tf.layout.shapes


def test_curves_and_margins(runs):
    ds, r = runs
    for steps in r.values():
        fig = _validated(oblique_figures.g1_curves_figure(steps, 2, xlabel="t"))
        names = [d.name for d in fig.data]
        assert "Theorem 1 bound (θ = 0)" in names and "training error" in names
        assert all(len(d.x) <= 3 for d in fig.data)
    current = {"AdaBoost (G1 on a path)": r["path"][-1], "BoostODT": r["odt"][-1]}
    fig = _validated(oblique_figures.margin_figure(current))
    assert len(fig.data) == 4
    assert len(fig.data[0].x) == len(THETA_GRID)


def test_tables(runs):
    ds, r = runs
    step = r["odt"][1]
    assert len(tables.inner_frame(step)) == len(step.inner)
    assert len(tables.inner_frame(step, 2)) == 2
    frame = tables.g1_metrics_frame({"a": (r["path"][-1], "x"), "b": (None, "y")})
    assert list(frame["method"]) == ["a", "b"]
    assert len(tables.g1_history_frame(r["odt"])) == sum(s.metrics is not None for s in r["odt"])
    text = diagrams.odt_digraph(r["odt_h"][-1].tree).source
    assert "≥ 0" in text and "x1" in text
