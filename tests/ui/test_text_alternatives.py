"""Text alternatives: every chart of the bounds explorer, the game and the benchmark comes
with the numbers it draws, in a table."""

from __future__ import annotations

import plotly.graph_objects as go

from tests import apptest_helpers as ah
from ui.charts import figure_frame
from ui.pages.bounds import figures as bounds_figures


def test_figure_frame_wide_when_traces_share_x() -> None:
    fig = go.Figure(
        [
            go.Scatter(x=[1, 2, 3], y=[0.5, 0.4, 0.3], name="bound"),
            go.Scatter(x=[1, 2, 3], y=[0.2, 0.1, 0.05], name="measured"),
        ]
    )
    frame = figure_frame(fig)
    assert list(frame.columns) == ["x", "bound", "measured"]
    assert frame["measured"].tolist() == [0.2, 0.1, 0.05]


def test_figure_frame_long_otherwise_and_empty_without_xy() -> None:
    fig = go.Figure([go.Scatter(x=[1, 2], y=[3, 4], name="a"), go.Scatter(x=[5], y=[6], name="b")])
    frame = figure_frame(fig)
    assert frame.to_dict("records") == [
        {"series": "a", "x": 1, "y": 3},
        {"series": "a", "x": 2, "y": 4},
        {"series": "b", "x": 5, "y": 6},
    ]
    assert figure_frame(go.Figure(go.Heatmap(z=[[1, 2]]))).empty


def test_bound_figure_numbers_are_the_plotted_values() -> None:
    fig = bounds_figures.size_bounds(0.1)
    frame = figure_frame(fig)
    assert len(frame) > 0
    for tr in fig.data:
        if tr.x is not None and tr.y is not None and tr.name in frame:
            assert frame[tr.name].tolist() == list(tr.y)


def test_pages_show_the_numbers_of_their_charts() -> None:
    for page, min_tables in (("bounds", 3), ("game", 1), ("benchmark", 2)):
        at = ah.page(page)
        assert not at.exception, (page, [e.value for e in at.exception])
        labels = [e.label for e in at.expander]
        assert labels.count("The numbers in this chart") >= min_tables, (page, labels)
