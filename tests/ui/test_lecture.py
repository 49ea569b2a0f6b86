"""The lecture view's pure parts: frame codecs, SVG trees, top-down frames (no browser)."""

from __future__ import annotations

import json
import re

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from boostcore.datasets import Dataset, make_dataset
from boostcore.topdown import grow
from tests import lecture_helpers as lh
from ui import figures, lecture, svgtree, theme
from ui.pages.topdown import frames as topdown_frames


@pytest.fixture(scope="module")
def run():
    ds = make_dataset("moons", n=300, noise=0.4, label_noise=0.1, random_state=1)
    steps = tuple(
        grow(ds.X_train, ds.y_train, size=12, max_arity=3, X_test=ds.X_test, y_test=ds.y_test)
    )
    return ds, steps


# ---------------------------------------------------------------------------------- codecs
@given(hst.lists(hst.sampled_from(["a", "b", "<svg/>", "c"]), min_size=1, max_size=30))
def test_same_frames_round_trip(items) -> None:
    encoded = lecture.same_frames(items)
    assert lh.resolve(encoded) == items
    # a repeated picture is sent once: every other occurrence is a reference to it
    assert sum(isinstance(e, str) for e in encoded) == len(set(items))


def test_same_frames_of_lists_and_references_point_back() -> None:
    items = [["x", "y"], ["x", "y"], ["z"], ["x", "y"]]
    encoded = lecture.same_frames(items)
    assert encoded[1] == {"$r": 0} and encoded[3] == {"$r": 0}
    assert lh.resolve(encoded) == items


@settings(max_examples=25, deadline=None)
@given(hst.lists(hst.integers(0, 3), min_size=1, max_size=12))
def test_plotly_frames_restore_every_figure(values) -> None:
    figs = [
        go.Figure(
            [
                go.Scatter(x=[0, 1], y=[0, 1], name="static"),
                go.Scatter(x=[v], y=[v], name="moving"),
            ],
            layout=dict(title=dict(text=f"v={v}")),
        )
        for v in values
    ]
    frames = lecture.plotly_frames(figs)
    restored = lh.resolve(frames)
    for fig, got in zip(figs, restored, strict=True):
        want = json.loads(fig.to_json())
        assert [tr["y"] for tr in got["data"]] == [tr["y"] for tr in want["data"]]
        assert got["layout"]["title"]["text"] == want["layout"]["title"]["text"]
    # dicts and figures encode alike, numpy arrays as typed arrays
    import numpy as np_

    as_dict = lecture.plotly_frames(
        [
            {
                "data": [{"type": "scatter", "x": np_.arange(40.0), "y": [1, float("nan")]}],
                "layout": {},
            }
        ]
    )
    tr = as_dict[0]["data"][0]
    assert tr["x"]["dtype"] == "f4" and tr["y"] == [1, None]
    # the static trace is sent once, whatever the number of rounds
    assert sum(1 for f in frames if "$r" not in f["data"][0]) == 1
    assert all("template" not in (f["layout"] or {}) for f in frames)


_figure = hst.fixed_dictionaries(
    {
        "data": hst.lists(
            hst.fixed_dictionaries(
                {"type": hst.just("scatter"), "x": hst.lists(hst.integers(0, 2), max_size=3)},
                optional={
                    "marker": hst.fixed_dictionaries(
                        {"size": hst.integers(1, 3)},
                        optional={"color": hst.sampled_from(["red", "blue"])},
                    ),
                    "name": hst.sampled_from(["a", "b"]),
                },
            ),
            min_size=1,
            max_size=3,
        ),
        "layout": hst.fixed_dictionaries(
            {"title": hst.fixed_dictionaries({"text": hst.sampled_from(["t", "u"])})},
            optional={"xaxis": hst.fixed_dictionaries({"range": hst.just([0, 1])})},
        ),
    }
)


@settings(max_examples=200, deadline=None)
@given(hst.lists(_figure, min_size=1, max_size=8))
def test_plotly_frames_deltas_restore_every_figure(figs) -> None:
    """Repeats, deltas (a part set, a key added) and whole traces (a key dropped) all
    come back as they were, in Python as in the lecture script (the same rules)."""
    frames = lecture.plotly_frames(figs)
    assert lh.resolve(frames) == figs


def test_a_change_of_sizes_sends_the_sizes_only() -> None:
    """Issue 27, item 2: 5,000 points whose sizes change each round are sent once, then
    only their sizes."""
    import numpy as np_

    xy = np_.random.default_rng(0).normal(size=(2, 5000))
    figs = [
        {
            "data": [{"type": "scatter", "x": xy[0], "y": xy[1], "marker": {"size": xy[0] * t}}],
            "layout": {"title": {"text": "regions"}},
        }
        for t in range(1, 4)
    ]
    frames = lecture.plotly_frames(figs)
    assert frames[1]["data"][0]["$d"] == 0
    assert [path for path, _ in frames[2]["data"][0]["$set"]] == [["marker", "size"]]
    whole, delta = (len(json.dumps(frames[t]["data"][0])) for t in (0, 2))
    assert delta < 0.4 * whole
    restored = lh.resolve(frames)
    assert restored[2]["data"][0]["x"] == restored[0]["data"][0]["x"]
    assert restored[2]["data"][0]["marker"] == lecture.jsonable({"size": xy[0] * 3})


def test_table_html_escapes_and_formats() -> None:
    import pandas as pd

    frame = pd.DataFrame({"run<script>": ["<b>x</b>", "y"], "v": [0.5, None], "ok": [True, False]})
    markup = lecture.table_html(frame, decimals=3)
    assert "<script>" not in markup and "<b>" not in markup
    assert "&lt;b&gt;x&lt;/b&gt;" in markup and "run&lt;script&gt;" in markup
    rows = lh.table(markup)
    assert rows[0]["v"] == "0.500" and rows[1]["v"] == "—"
    assert rows[0]["ok"] == "yes" and rows[1]["ok"] == "no"
    assert "None" not in markup and "nan" not in markup


def test_view_rejects_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="kind must be"):
        lecture.view("gif", [], key="x")


# ---------------------------------------------------------------------------------- svgtree
def _chain(depth: int, fan: int = 2) -> dict[int, svgtree.Node]:
    """A tree where every node's last child is expanded again, ``depth`` times."""
    nodes = {0: svgtree.Node(0, ["root"])}
    nxt, cur = 1, 0
    for _ in range(depth):
        kids = []
        for _ in range(fan):
            nodes[nxt] = svgtree.Node(nxt, [f"#{nxt}", "P 0.50"], parent=cur, edge_label="≤ 1")
            kids.append(nxt)
            nxt += 1
        nodes[cur].children = kids
        cur = kids[-1]
    return nodes


def _size(svg: str) -> tuple[float, float]:
    m = re.match(r'<svg[^>]*width="([0-9.]+)" height="([0-9.]+)"', svg)
    assert m, svg[:120]
    return float(m.group(1)), float(m.group(2))


def test_tree_svg_text_is_never_scaled_and_nodes_do_not_overlap() -> None:
    nodes = _chain(4, 3)
    svg = svgtree.tree_svg(nodes, 0, font=13)
    w, h = _size(svg)
    assert f'viewBox="0 0 {w:.0f} {h:.0f}"' in svg  # natural size: one unit is one pixel
    assert 'font-size="13"' in svg
    # every node's box (rect or ellipse) stays inside the picture, and boxes on one row
    # do not overlap
    boxes = []
    for m in re.finditer(
        r'<rect class="[nhd ]+" x="([-0-9.]+)" y="([-0-9.]+)" '
        r'width="([0-9.]+)" height="([0-9.]+)" rx',
        svg,
    ):
        boxes.append(tuple(map(float, m.groups())))
    for m in re.finditer(
        r'<ellipse class="[nhd ]+" cx="([-0-9.]+)" cy="([-0-9.]+)" '
        r'rx="([0-9.]+)" ry="([0-9.]+)"',
        svg,
    ):
        cx, cy, rx, ry = map(float, m.groups())
        boxes.append((cx - rx, cy - ry, 2 * rx, 2 * ry))
    assert len(boxes) == len(nodes)
    for x, y, bw, bh in boxes:
        assert x >= 0 and y >= 0 and x + bw <= w + 0.5 and y + bh <= h + 0.5
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            same_row = abs(a[1] - b[1]) < 1
            if same_row:
                assert a[0] + a[2] <= b[0] + 0.5 or b[0] + b[2] <= a[0] + 0.5, (a, b)


def test_neighbourhood_keeps_the_path_and_counts_what_it_collapses() -> None:
    nodes = _chain(4, 3)  # 13 nodes, 9 leaves
    deepest = max(nodes)
    near = svgtree.neighbourhood(nodes, 0, [nodes[deepest].parent])
    # the path to the change and the siblings along it are kept, nothing else is lost:
    # collapsed boxes count the leaves they stand for
    counted = 0
    for n in near.values():
        m = re.search(r"▸ (\d+) leaves", " ".join(n.lines))
        counted += int(m.group(1)) if m else (0 if n.children else 1)
    assert counted == sum(1 for n in nodes.values() if not n.children)
    assert deepest in near


def test_local_view_is_three_levels_and_says_what_it_hides() -> None:
    nodes = _chain(6, 2)  # a path of depth 6
    deepest_parent = nodes[max(nodes)].parent
    local, top = svgtree.local_view(nodes, 0, deepest_parent, up=2)
    depth = {top: 0}
    for n in sorted(local):  # children have larger ids here
        for c in local[n].children:
            depth[c] = depth[n] + 1
    assert max(depth.values()) <= 3  # grandparent, parent, the node, its children
    assert deepest_parent in local and all(c in local for c in nodes[deepest_parent].children)
    assert local[top].parent is None
    assert any("▴ 3 levels above" in line for line in local[top].lines)
    svg = svgtree.tree_svg(local, top)
    assert _size(svg)[1] < _size(svgtree.tree_svg(nodes, 0))[1]


def test_hostile_text_is_escaped_in_svg() -> None:
    nodes = {0: svgtree.Node(0, ["<script>alert(1)</script>", 'a"&b'])}
    svg = svgtree.tree_svg(nodes, 0, title="<i>t</i>")
    assert "<script>" not in svg and "<i>" not in svg
    assert "&lt;script&gt;" in svg and "a&quot;&amp;b" in svg


# ------------------------------------------------------------------------ top-down frames
def test_tree_cells_figure_is_valid_and_paints_every_leaf(run) -> None:
    ds, steps = run
    for step in steps:
        fig = go.Figure(topdown_frames.tree_cells_figure(step, ds))  # valid for plotly
        cells = [s for s in fig.layout.shapes if s.type == "rect" and s.layer == "below"]
        assert len(cells) == step.tree.n_leaves
        # the cells tile the data box: their areas add up to the box's
        lo, hi = figures.data_extent(ds)
        area = sum((c.x1 - c.x0) * (c.y1 - c.y0) for c in cells)
        assert area == pytest.approx(np.prod(hi - lo), rel=1e-9)
        # SVG markers (not WebGL) for a few hundred points, all of them drawn
        pts = [d for d in fig.data if d.type in ("scatter", "scattergl") and d.mode == "markers"]
        assert {d.type for d in pts} == {"scatter"}
        assert sum(len(d.x) for d in pts) == ds.n_train + ds.n_test


def test_cell_colour_is_the_leaf_probability(run) -> None:
    ds, steps = run
    step = steps[-1]
    fig = go.Figure(topdown_frames.tree_cells_figure(step, ds))
    cells = [s for s in fig.layout.shapes if s.type == "rect" and s.layer == "below"]
    for cell in cells:
        centre = np.array([[(cell.x0 + cell.x1) / 2, (cell.y0 + cell.y1) / 2]])
        q = step.tree.predict_proba_pos(centre)[0]
        assert cell.fillcolor == theme.mix(float(q))


def test_curves_draw_the_whole_run_faint_and_this_round_solid(run) -> None:
    ds, steps = run
    for t in (0, 3, len(steps) - 1):
        fig = go.Figure(
            topdown_frames.topdown_curves(steps, t, size=12, show_mm=False, final_is_theorem=True)
        )
        index = [d for d in fig.data if d.name == "I(T)"]
        faint, solid, marker = index[0], index[1], index[2]
        assert faint.opacity < 0.5 and len(faint.x) == len(steps)
        assert len(solid.x) == t + 1
        assert list(solid.y) == pytest.approx([s.metrics.index_value for s in steps[: t + 1]])
        assert list(marker.x) == [steps[t].metrics.n_leaves]
        # no legend over the plot: lines are labelled at their right ends, apart
        assert not fig.layout.showlegend
        ends = [a.to_plotly_json() for a in fig.layout.annotations if a.xref == "paper"]
        ys = sorted(figures.label_centre(a) for a in ends)
        assert all(b - a > 0.02 for a, b in zip(ys, ys[1:]))


def test_end_labels_never_overlap_and_stay_in_range() -> None:
    labels = [(f"l{i}", "#000", v) for i, v in enumerate([0.5, 0.5, 0.51, 0.52, 1.0, 1.04])]
    anns = figures.end_labels(labels, font=12, y_range=(0.0, 1.05), plot_px=300)
    ys = sorted(figures.label_centre(a) for a in anns)
    gap = 1.05 * (12 * figures.label_em("l0") * figures.LINE + 0.5) / 300
    assert all(b - a >= gap - 1e-12 for a, b in zip(ys, ys[1:]))
    assert 0 <= ys[0] and ys[-1] <= 1.05


def test_tree_pictures_from_detailed_to_brief(run) -> None:
    ds, steps = run
    step = steps[-1]
    assert step.tree.n_leaves > 6
    pics = topdown_frames.tree_pictures(step, index="km", feature_names=ds.feature_names)
    # whole, whole brief, neighbourhood, neighbourhood brief, local view, local view brief
    # (and smaller local views when that one is still wide)
    assert len(pics) >= 6
    widths = [_size(p)[0] for p in pics]
    assert widths[1] <= widths[0] and widths[3] <= widths[2] and widths[5] <= widths[4]
    assert widths[-1] == min(widths[4:])
    assert "P(+1)" in pics[0] and "w " in pics[0]


def test_hostile_feature_names_are_escaped_in_the_tree(run) -> None:
    ds, steps = run
    names = ("<img src=x onerror=alert(1)>", '<img src=y>"&')
    for pic in topdown_frames.tree_pictures(steps[2], index="km", feature_names=names):
        assert "<img" not in pic and "&lt;img" in pic


def test_aspect_is_the_data_box_ratio() -> None:
    X = np.array([[0.0, 0.0], [4.0, 1.0], [2.0, 0.5], [1.0, 1.0]])
    y = np.array([-1, 1, -1, 1])
    ds = Dataset(name="t", description="", X_train=X, y_train=y, X_test=X[:0], y_test=y[:0])
    assert figures.aspect(ds) == pytest.approx(1 / 4)


def test_hostile_names_are_escaped_in_the_plotly_frames(run) -> None:
    """Plotly reads titles, trace names and hover text as markup: a CSV header or label
    like ``<a href=…>`` must arrive as text."""
    from dataclasses import replace

    ds, steps = run
    bad = replace(
        ds,
        feature_names=('<a href="http://x">f</a>', "<b>g</b>"),
        class_names=("<img src=x>", "ok"),
    )
    fig = topdown_frames.tree_cells_figure(steps[2], bad)
    text = json.dumps(lecture.plotly_frames([fig]))
    assert "<a href" not in text and "<b>" not in text and "<img" not in text
    assert "&lt;a href" in text and "&lt;img src=x&gt;" in text


def test_mansour_mcallester_bound_is_drawn_for_the_final_tree_only() -> None:
    """Their Theorem 4.1 is about the final tree: one marker at the run's last size, no curve
    over the rounds (issue 14, A.5)."""
    ds = make_dataset("stripes", n=300, noise=0.1, random_state=0)
    steps = tuple(
        grow(
            ds.X_train, ds.y_train, size=12, criterion="mansour_mcallester", gamma=0.1, max_arity=3
        )
    )
    for t in (1, len(steps) - 1):
        fig = go.Figure(
            topdown_frames.topdown_curves(steps, t, size=12, show_mm=True, final_is_theorem=True)
        )
        mm = [d for d in fig.data if d.name and "e<sub>γ</sub>(|T|)" in d.name]
        assert len(mm) == 1 and len(mm[0].x) == 1
        assert mm[0].x[0] == steps[-1].metrics.n_leaves
        assert mm[0].y[0] == pytest.approx(steps[-1].metrics.bound_mm)


def test_line_labels_never_take_more_than_a_third_of_a_narrow_plot() -> None:
    """Labels sit in the right margin: a long one squeezed a 300 px curves plot to nothing."""
    ds = make_dataset("moons", n=300, random_state=0)
    steps = tuple(
        grow(
            ds.X_train, ds.y_train, size=24, criterion="mansour_mcallester", gamma=0.1, max_arity=4
        )
    )
    for font in (12, 15.6):
        fig = topdown_frames.topdown_curves(
            steps, 3, size=24, show_mm=True, final_is_theorem=False, font=font
        )
        assert fig["layout"]["margin"]["r"] <= 110 * font / 12 + 1


def test_hatanos_game_value_is_drawn_as_the_tighter_bound() -> None:
    """Issue 14, A.7: φ_γ̂(s) ≤ s^−γ̂ marked at s for every run, and φ_γ̂(|T|) drawn over the
    rounds only for a binary max-weight run (where it is a bound at every round)."""
    from boostcore.bounds import phi_gamma

    ds = make_dataset("stripes", n=400, noise=0.05, random_state=0)
    multi = tuple(grow(ds.X_train, ds.y_train, size=8, max_arity=4))
    binary = tuple(grow(ds.X_train, ds.y_train, size=8, max_arity=2))
    for steps, per_round in ((multi, False), (binary, True)):
        last = len(steps) - 1
        fig = go.Figure(
            topdown_frames.topdown_curves(steps, last, size=8, show_mm=False, final_is_theorem=True)
        )
        g = steps[last].metrics.gamma_hat
        star = [d for d in fig.data if d.name == "★ φ<sub>γ̂</sub>(s)"]
        assert len(star) == 1 and star[0].x[0] == 8
        assert star[0].y[0] == pytest.approx(phi_gamma(8, g))
        assert star[0].y[0] <= 8 ** (-g) + 1e-12
        assert steps[last].metrics.index_value <= star[0].y[0] + 1e-12
        curve = [d for d in fig.data if d.name == "φ<sub>γ̂</sub>(|T|)"]
        assert bool(curve) == per_round
        if curve:  # the first trace is the whole run (faint)
            # drawn in pieces where γ̂ fell: every point drawn bounds the tree at its |T|
            at = {s.metrics.n_leaves: s.metrics.index_value for s in steps}
            points = [(x, v) for x, v in zip(curve[0].x, curve[0].y) if np.isfinite(v)]
            assert {x for x, _ in points} == set(at)
            assert all(v >= at[x] - 1e-12 for x, v in points)
