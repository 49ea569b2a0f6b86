"""Issue 25, items 9 and 10 on /topdown, /branching, /oblique, /game and /bounds: the curves'
end labels and the leaf ids never overlap, the γ̂ bounds are drawn as steps where γ̂ fell (with
a note there), no caret is left in a figure's text, and Theorem 3's 4K says what K is.

Label boxes are computed from the figures as the browser lays them out at the smallest size a
lecture view draws (``ui.lecture.view``'s ``min_height``): the plot area is the figure's height
less its margins and the x axis's tick labels and title below (each one line, 1.2 font sizes,
plus the title's standoff and the tick labels' pad); a label is a box one line high around
its centre. A taller view only moves the boxes further apart."""

from __future__ import annotations

import inspect
import itertools
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore import datasets
from boostcore.branching import STEP, bp_infoboost, round_bands
from boostcore.topdown import grow
from ui import figures, lecture
from ui.pages.branching import frames as fb
from ui.pages.topdown import frames as ft

HEIGHT = 260  # lecture.view's smallest figure (checked below)
FONTS = (12, 22)  # the figures' base font: normal and presenting at 1920×1080


def _circles() -> datasets.Dataset:
    # the app's generated data at its defaults (n, noise, flip, test), circles
    return datasets.make_dataset("circles", n=400, noise=0.3, label_noise=0.05, random_state=0)


def _topdown(ds: datasets.Dataset, size: int = 16, arity: int = 4, **kw) -> list:
    steps = list(
        grow(
            ds.X_train,
            ds.y_train,
            size=size,
            max_arity=arity,
            X_test=ds.X_test,
            y_test=ds.y_test,
            **kw,
        )
    )
    return steps[:-2] + steps[-1:]  # as the page: the stop snapshot in the last round's place


def _plot_px(layout: dict, font: float) -> float:
    m = layout["margin"]
    return HEIGHT - m["t"] - m["b"] - 2 * 1.2 * font - 4 - 8


def label_boxes(fig: dict) -> list[tuple[str, float, float]]:
    """The end labels' boxes (text, bottom, top) in pixels from the plot area's bottom."""
    layout = fig["layout"]
    plot = _plot_px(layout, layout["font"]["size"])
    out = []
    for a in layout.get("annotations", []):
        if a.get("xref") != "paper" or a.get("x", 0) < 1:
            continue  # not an end label (a note inside the plot)
        axis = layout["yaxis" + a["yref"][1:]]
        lo, hi = axis["range"]
        d0, d1 = axis.get("domain", (0.0, 1.0))
        y = figures.label_centre(a)
        centre = plot * (d0 + (d1 - d0) * (y - lo) / (hi - lo))
        # presenting, the lecture script draws a label at ≥ 22/21 of its font, ≥ 26/21 with
        # <sub>/<sup>
        em = 26 / 21 if re.search("<su[bp]>", a["text"]) else 22 / 21
        half = a["font"]["size"] * em * 1.2 / 2
        out.append((a["text"], centre - half, centre + half, plot * d0, plot * d1))
    return out


def assert_apart(fig: dict) -> int:
    """No two end labels overlap and each lies within its axis's part of the plot; returns
    how many there are."""
    boxes = label_boxes(fig)
    for (ta, a0, a1, *_), (tb, b0, b1, *_) in itertools.combinations(boxes, 2):
        assert a1 <= b0 + 1e-9 or b1 <= a0 + 1e-9, f"{ta!r} overlaps {tb!r}"
    for text, b0, b1, d0, d1 in boxes:
        assert d0 - 1e-9 <= b0 and b1 <= d1 + 1e-9, f"{text!r} leaves the plot"
    return len(boxes)


def test_the_smallest_view_is_the_one_labels_are_spaced_for() -> None:
    assert inspect.signature(lecture.view).parameters["min_height"].default == HEIGHT
    assert figures.VIEW_MIN_PX == HEIGHT


@pytest.mark.parametrize("font", FONTS)
def test_topdown_end_labels_never_overlap(font) -> None:
    """circles, s = 16, k = 4 (the issue's run): '★ Thm 4', '|T|^−γ̂' and 'e_γ̂(|T|)' end within
    0.05 of each other and overlapped; a binary run adds φ_γ̂(|T|), MM's run its ◆."""
    ds = _circles()
    runs = [
        (_topdown(ds), 16, False),
        (_topdown(ds, size=12, arity=2), 12, False),
        (_topdown(ds, size=12, arity=3, criterion="mansour_mcallester", gamma=0.1), 12, True),
    ]
    for steps, size, mm in runs:
        for t in range(len(steps)):
            fig = ft.topdown_curves(
                steps, t, size=size, show_mm=mm, final_is_theorem=True, font=font
            )
            n = assert_apart(fig)
            names = {tr["name"] for tr in fig["data"] if "fell" not in tr["name"]}
            # every curve keeps its name at 12 px; at 22 px a 260 px view holds six
            assert n == len(names) if font == 12 else n >= min(len(names), 6)


def test_moved_labels_are_tied_to_their_curves() -> None:
    labels = [("a", "#111111", 0.50), ("b", "#222222", 0.50), ("c", "#333333", 0.51)]
    kw = dict(font=12, y_range=(0.0, 1.0), plot_px=100)
    anns = figures.end_labels(labels, **kw)
    at = {a["text"]: a["y"] for a in anns}
    leaders = figures.end_leaders(labels, **kw)
    moved = {t for t, c, y in labels if abs(at[t] - y) > 0.05}
    assert moved and len(leaders) == len(moved), "three labels at one height cannot all stay"
    colour = {c: (t, y) for t, c, y in labels}
    for line in leaders:  # from the curve's end (the plot's edge) to its label, its colour
        text, y = colour[line["line"]["color"]]
        assert (line["y0"], line["y1"]) == (y, at[text]) and line["xanchor"] == 1.0
        go.Figure({"layout": {"shapes": [line]}})  # valid for plotly
    centres = sorted(at.values())
    assert all(b - a >= (12 * 1.2) / 100 for a, b in zip(centres, centres[1:]))


def test_labels_that_cannot_fit_keep_the_first_given() -> None:
    labels = [(f"l{i}", "#000000", 0.5) for i in range(10)]
    anns = figures.end_labels(labels, font=20, y_range=(0.0, 1.0), plot_px=100)
    # a line of 20 px (22/21 of it presenting, × 1.2): three fit in 100 px, not four
    assert [a["text"] for a in sorted(anns, key=figures.label_centre)] == ["l0", "l1", "l2"]
    with pytest.raises(ValueError, match="plot_px"):
        figures.end_labels(labels, font=12, y_range=(0, 1), plot_px=0)


@pytest.mark.parametrize("font", FONTS)
def test_branching_end_labels_never_overlap(font) -> None:
    ds = datasets.make_dataset("moons", n=200, noise=0.3, label_noise=0.05, random_state=0)
    run = tuple(
        bp_infoboost(ds.X_train, ds.y_train, n_rounds=8, X_test=ds.X_test, y_test=ds.y_test)
    )
    for t in range(9):
        assert assert_apart(fb.curves_figure(run, t, font=font)) == 4
    for s in [s for s in run if s.kind == STEP][:4]:
        fig = fb.c_round_figure(s, round_bands(s, (0.1, 0.3, 0.5, 0.7, 0.9)), 0.5, font=font)
        assert assert_apart(fig) >= 4


# ------------------------------------------------------------------------------ leaf ids
def _id_boxes(fig: dict, font: float) -> list[tuple[float, float, float, float]]:
    """The drawn leaf ids' boxes in pixels on a regions plot whose longer side is
    ``figures.REGIONS_MIN_EM`` of their font (both axes at one scale)."""
    layout = fig["layout"]
    (x0, x1), (y0, y1) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    px = figures.REGIONS_MIN_EM * font / max(x1 - x0, y1 - y0)
    ids = next(tr for tr in fig["data"] if tr.get("name") == "leaf ids")
    out = []
    for text, x, y in zip(ids["text"], ids["x"], ids["y"], strict=True):
        if text:
            w, h = len(text) * 0.6 * font, 1.2 * font
            out.append((x * px - w / 2, x * px + w / 2, y * px - h / 2, y * px + h / 2))
    return out


@pytest.mark.parametrize("font", FONTS)
def test_leaf_ids_never_overlap_on_the_regions(font) -> None:
    """circles, s = 16, k = 4: #25 and #26 (the last split's thin cells) overlapped."""
    ds = _circles()
    steps = _topdown(ds)
    for step in steps[-3:]:
        fig = ft.tree_cells_figure(step, ds, font=font)
        go.Figure(fig)
        boxes = _id_boxes(fig, font - 1)
        for a, b in itertools.combinations(boxes, 2):
            assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2]
        ids = next(tr for tr in fig["data"] if tr.get("name") == "leaf ids")
        leaves = list(step.tree.leaves)
        assert len(ids["text"]) == len(leaves)
        for leaf, text, hover in zip(leaves, ids["text"], ids["hovertext"], strict=True):
            assert hover.startswith(f"leaf #{leaf}")
            if not text:  # left out: the hover says which label took its room
                assert re.search(r"no room beside #\d+", hover)
    last = ft.tree_cells_figure(steps[-1], ds, font=22)
    ids = next(tr for tr in last["data"] if tr.get("name") == "leaf ids")
    assert "" in ids["text"], "at 22 px some ids of this 16-leaf tree cannot all be drawn"


# ---------------------------------------------------------------------------- γ̂ falls
def test_the_bounds_step_where_gamma_fell_with_a_note_there() -> None:
    ds = _circles()
    steps = _topdown(ds)
    falls = ft.gamma_falls(steps)
    assert falls, "γ̂ falls in this run"
    r = falls[0]
    g = [s.metrics.gamma_hat for s in steps]
    assert g[r] < g[r - 1]
    x_step = steps[r - 1].metrics.n_leaves  # the tree round r split
    before = ft.topdown_curves(steps, r - 1, size=16, show_mm=False, final_is_theorem=True)
    assert not any("fell" in a["text"] for a in before["layout"]["annotations"])
    fig = ft.topdown_curves(steps, r, size=16, show_mm=False, final_is_theorem=True)
    go.Figure(fig)
    note = [a for a in fig["layout"]["annotations"] if "fell" in a["text"]]
    assert len(note) == 1 and note[0]["x"] == x_step and note[0]["xref"] == "x"
    assert note[0]["text"] == f"γ̂ fell<br>to {g[r]:.2g}"
    for name in (ft.E_BOUND, ft.POWER):
        solid = [tr for tr in fig["data"] if tr["name"] == name and tr.get("legendgroup")][0]
        xs, ys = np.array(solid["x"], dtype=float), np.array(solid["y"], dtype=float)
        gap = int(np.flatnonzero(np.isnan(ys))[0])  # the line breaks at the step …
        assert xs[gap - 1] == x_step == xs[gap + 1] and ys[gap + 1] > ys[gap - 1]
        step = [tr for tr in fig["data"] if tr["name"] == f"{name}: γ̂ fell"][-1]
        assert step["x"][:2] == [x_step, x_step]  # … and a dotted connector joins the pieces
        assert step["y"][:2] == pytest.approx([ys[gap - 1], ys[gap + 1]])
        assert step["line"]["dash"] == "dot"


# --------------------------------------------------------------------------- notation
def _texts(fig: dict) -> list[str]:
    """Every text a figure shows: trace names, annotations, axis and plot titles, tick
    texts, text traces."""
    layout = fig["layout"]
    out = [tr.get("name") or "" for tr in fig["data"]]
    out += [t for tr in fig["data"] for t in (tr.get("text") or []) if isinstance(t, str)]
    out += [a.get("text", "") for a in layout.get("annotations", [])]
    for key, value in layout.items():
        if key.startswith(("xaxis", "yaxis")) or key == "title":
            title = value.get("title") if key != "title" else value
            if isinstance(title, dict):
                out.append(title.get("text") or "")
            elif isinstance(title, str):
                out.append(title)
            out += [str(t) for t in value.get("ticktext", []) or []]
    return out


def _figures_of_every_page() -> list[dict]:
    """One small run's figures of each page: /topdown's curves (a Hatano run at a middle and
    its last round, MM's run with its ◆) and regions, /branching's curves and Theorem 3 per
    round, /oblique's curves of its three runs and margin curves, /game's two figures and
    every /bounds figure."""
    from boostcore.game import expand, lemma9_replacement, new_game
    from ui.pages.bounds import figures as bf
    from ui.pages.game import figures as gf
    from ui.pages.oblique import figures as of
    from ui.pages.oblique import frames as fo
    from ui.pages.oblique import runs as oblique_runs

    ds = datasets.make_dataset("moons", n=120, noise=0.3, random_state=0)
    steps = _topdown(ds, size=6)
    out = [
        ft.topdown_curves(steps, t, size=6, show_mm=False, final_is_theorem=b)
        for t, b in ((1, True), (len(steps) - 1, False))
    ]
    out.append(ft.tree_cells_figure(steps[-1], ds))
    mm = _topdown(ds, size=8, arity=3, criterion="mansour_mcallester", gamma=0.1)
    out.append(ft.topdown_curves(mm, len(mm) - 1, size=8, show_mm=True, final_is_theorem=False))
    run = tuple(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    out.append(fb.curves_figure(run, 2))
    s = [s for s in run if s.kind == STEP][0]
    out.append(fb.c_round_figure(s, round_bands(s, (0.3, 0.5)), 0.5))
    runs = {
        fo.ADA: oblique_runs.g1_path_run.__wrapped__(ds, "k", 4, "stump"),
        fo.KM: oblique_runs.g1_tree_run.__wrapped__(ds, "k", 2, "max_decrease"),
        fo.ODT: oblique_runs.odt_run.__wrapped__(ds, "k", 2, 2, "stump", "breadth_first"),
    }
    out += [fo.g1_curves(r, 2, xlabel=fo.XLABEL[k]) for k, r in runs.items()]
    last = {k: r[-1] for k, r in runs.items()}
    out.append(of.margin_figure(last))
    game = expand(new_game(8, 0.1), 0, 3, (0.5, 0.3, 0.2))
    out += [gf.trajectory_figure(game), gf.lemma9_figure(lemma9_replacement(game, 0))]
    out += [
        bf.grossmann_fig2_left((0.5, 0.875)),
        bf.grossmann_fig2_right(16, (0.5, 0.875)),
        bf.grossmann_fig3((16, 256), 0.875),
        bf.split_prices(0.1),
        bf.size_bounds(0.1),
        bf.infoboost_rounds_figure(0.1),
        bf.band_count_figure((0.3, 0.5)),
        bf.admissible_arity_figure(16, 0.1),
        bf.multiway_budget_figure(16, 0.1),
        bf.size_bounds_at(0.2, 8),
        bf.weak_learning_sizes_figure(0.1, 0.2),
    ]
    return [f if isinstance(f, dict) else f.to_plotly_json() for f in out]


def test_no_caret_in_any_figure_text() -> None:
    """Powers are drawn with <sup> (plotly), never written with '^' (issue 25, item 10)."""
    for fig in _figures_of_every_page():
        for text in _texts(fig):
            assert "^" not in text, text


# ------------------------------------------------------------------------------- 4K
def test_4k_says_what_k_is() -> None:
    from ui.pages.branching.proof import branching_chain, four_k

    assert four_k(36) == "4K = 36 (K = 9 entropy bands × 2 signs × 2 sides of h_t)"
    with pytest.raises(ValueError, match="max_groups"):
        four_k(38)
    ds = datasets.make_dataset("moons", n=120, noise=0.3, random_state=0)
    run = tuple(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3, merge="bands", c=0.5))
    s = [s for s in run if s.kind == STEP][1]
    chain = branching_chain(s, merge="bands", history=run)
    thm3 = [lk for lk in chain.links if lk.right_label == "1 − cγ_t"][0]
    k = s.metrics.max_groups // 4
    assert f"4K = {s.metrics.max_groups} (K = {k} entropy bands" in thm3.reason
    assert f"K = {k} entropy bands" in fb.groups_html(s)
    fig = fb.c_round_figure(s, round_bands(s, (0.3, 0.5)), 0.5)
    assert any(a["text"] == "4K (K bands)" for a in fig["layout"]["annotations"])
    trace = next(tr for tr in fig["data"] if tr.get("name") == "4K")
    assert "entropy bands" in trace["hovertemplate"] and trace["customdata"] == [
        b.max_leaves // 4 for b in round_bands(s, (0.3, 0.5))
    ]
    assert "K the number of entropy bands" in fb.c_round_note(s, round_bands(s, (0.5,)), 0.5)
