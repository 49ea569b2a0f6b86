"""Oblique page figures, tables and DOT: pure functions of snapshots, valid for plotly."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore.datasets import make_dataset
from boostcore.oblique import boost_odt, g1_tree
from boostcore.realboost import THETA_GRID, g1_linear
from ui.pages.oblique import diagrams
from ui.pages.oblique import figures as oblique_figures
from ui.pages.oblique.figures import zero_segments
from ui.pages.oblique.frames import metrics_frame
from ui.pages.oblique.tables import inner_frame


def _validated(fig: go.Figure) -> go.Figure:
    # the builders skip plotly's validation for speed: rebuild with it, so a bad property
    # fails here; the figure itself is returned (its arrays stay plain numpy arrays)
    go.Figure(fig.to_dict())
    return fig


@pytest.fixture(scope="module")
def runs():
    ds = make_dataset("band", n=300, random_state=2)
    kw = dict(X_test=ds.X_test, y_test=ds.y_test)
    return ds, {
        "path": tuple(g1_linear(ds.X_train, ds.y_train, n_rounds=12, **kw)),
        "tree": tuple(g1_tree(ds.X_train, ds.y_train, n_internal=4, **kw)),
        "odt": tuple(boost_odt(ds.X_train, ds.y_train, n_internal=4, n_stumps=5, **kw)),
        "odt_h": tuple(
            boost_odt(ds.X_train, ds.y_train, n_internal=3, n_stumps=5, weak="hyperplane", **kw)
        ),
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


def test_margins(runs):
    ds, r = runs
    current = {"AdaBoost (G1 on a path)": r["path"][-1], "BoostODT": r["odt"][-1]}
    fig = _validated(oblique_figures.margin_figure(current))
    assert len(fig.data) == 4
    assert len(fig.data[0].x) == len(THETA_GRID)


def test_tables(runs):
    ds, r = runs
    step = r["odt"][1]
    assert len(inner_frame(step)) == len(step.inner)
    assert len(inner_frame(step, 2)) == 2
    frame = metrics_frame({"a": (r["path"][-1], "x"), "b": (r["odt"][0], "y")})
    assert list(frame["method"]) == ["a", "b"]
    assert frame["Theorem 1 bound"].tolist() == [
        r["path"][-1].metrics.bound_theorem1,
        r["odt"][0].metrics.bound_theorem1,
    ]
    text = diagrams.odt_digraph(r["odt_h"][-1].tree).source
    assert "≥ 0" in text and "x1" in text
