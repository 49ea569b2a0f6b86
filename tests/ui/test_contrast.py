"""Contrast of every colour the figures, structures, proof card and theme set (issue 26, item 4;
WCAG 2.x 1.4.3 and 1.4.11): text at least 4.5 : 1 on what it is drawn on, graphics (lines,
markers, outlines, bars) at least 3 : 1.

The colours come from the code (``ui.theme``, the modules' constants, the figures they build,
``.streamlit/config.toml``), never retyped here, so a change that loses contrast fails.
Backgrounds: the white plot and card (``theme.PLOT_BG``); the pale decision regions, opaque
over the plot (``theme.mix``); the proof card's rows; Streamlit's page and sidebar in either
theme. No browser.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore import datasets
from ui import figures, proof, svgtree, theme
from ui.svg import EDGE, NODE_LINE
from ui.theme import GRAPHIC_MIN, TEXT_MIN, contrast

ROOT = Path(__file__).resolve().parents[2]
WHITE = theme.PLOT_BG
#: What a marker of the regions plot can sit on: white, either full region and the shades
#: between (``theme.mix`` of a leaf's positive fraction, every 5 %).
REGION_BGS = sorted({theme.mix(q) for q in np.linspace(0.0, 1.0, 21)} | {WHITE})


# --------------------------------------------------------------------- the arithmetic
def test_contrast_is_wcag_relative_luminance() -> None:
    """Known WCAG ratios: black on white 21, white on white 1, #777 4.48 (the classic just
    below 4.5), #767676 4.54, symmetric in its arguments."""
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#FFFFFF", "#FFFFFF") == pytest.approx(1.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.478, abs=1e-3)
    assert contrast("#767676", "#FFFFFF") == pytest.approx(4.542, abs=1e-3)
    assert contrast("#0072B2", "#E69F00") == pytest.approx(contrast("#E69F00", "#0072B2"))
    assert contrast("white", "#fff") == pytest.approx(1.0)


def test_translucent_colours_are_composited_over_their_background() -> None:
    """rgba text is what the eye sees over its background: black at 50 % on white is #808080
    (3.95 : 1), and a translucent background is taken over white."""
    assert theme.composite("rgba(0,0,0,0.5)", "#FFFFFF") == "#808080"
    assert contrast("rgba(0,0,0,0.5)", "#FFFFFF") == pytest.approx(contrast("#808080", "#FFF"))
    assert contrast("#000000", "rgba(0,0,0,0.5)") == pytest.approx(contrast("#000", "#808080"))
    assert theme.rgba("#0072B280") == (0.0, 114.0, 178.0, 128 / 255)
    with pytest.raises(ValueError):
        theme.rgba("orange")


def test_ink_darkens_to_text_contrast_keeping_the_hue() -> None:
    """``ink`` leaves a colour that already reads as text alone and darkens any other by one
    factor on all channels (same hue) just to 4.5 : 1."""
    assert theme.ink("#000000") == "#000000"
    for colour in ("#E69F00", "#56B4E9", "#CC79A7", "#009E73", "#D55E00", "#999999"):
        dark = theme.ink(colour)
        assert contrast(dark, WHITE) >= TEXT_MIN
        r, g, b, _ = theme.rgba(colour)
        r2, g2, b2, _ = theme.rgba(dark)
        k = max(r2, g2, b2) / max(r, g, b)
        assert max(abs(r2 - r * k), abs(g2 - g * k), abs(b2 - b * k)) <= 1.0  # one factor


# --------------------------------------------------------------------------- palette
def _palette_lines() -> dict[str, str]:
    lines = {f"MEASURED[{k!r}]": c for k, c in theme.MEASURED.items()}
    lines |= {f"BOUND[{k!r}]": c for k, c in theme.BOUND.items()}
    lines |= {f"LINES[{i}]": c for i, c in enumerate(theme.LINES)}
    lines |= {"HIGHLIGHT": theme.HIGHLIGHT, "NEUTRAL": theme.NEUTRAL}
    lines |= {"CLASS_POS": theme.CLASS_POS, "CLASS_NEG_EDGE": theme.CLASS_NEG_EDGE}
    return lines


@pytest.mark.parametrize("name", sorted(_palette_lines()))
def test_every_palette_line_is_a_graphic_on_the_white_plot(name: str) -> None:
    """Each curve colour is at least 3 : 1 on the plot (#E69F00 was 2.25, #56B4E9 2.31,
    #999999 2.85) and its end label's shade (``ink``) at least 4.5 : 1."""
    colour = _palette_lines()[name]
    assert contrast(colour, WHITE) >= GRAPHIC_MIN, (name, colour, contrast(colour, WHITE))
    assert contrast(theme.ink(colour), WHITE) >= TEXT_MIN


@pytest.mark.parametrize("bg", REGION_BGS)
def test_this_rounds_change_stands_out_on_every_region(bg: str) -> None:
    """This round's split line (``HIGHLIGHT``) is drawn over the regions."""
    assert contrast(theme.HIGHLIGHT, bg) >= GRAPHIC_MIN, (bg, contrast(theme.HIGHLIGHT, bg))


def _marker_contrast(marker: dict, bg: str) -> float:
    """How much a marker stands out on ``bg``: its fill, or its outline when that is at least
    1 px wide (a hollow marker is its line, drawn in ``marker.color``)."""
    if str(marker["symbol"]).endswith("-open"):
        return contrast(marker["color"], bg)
    best = contrast(marker["color"], bg)
    line = marker.get("line") or {}
    if line.get("width", 0) >= 1 and line.get("color"):
        best = max(best, contrast(line["color"], bg))
    return best


def _tiny() -> datasets.Dataset:
    return datasets.make_dataset("moons", n=60, noise=0.2, random_state=0)


@pytest.mark.parametrize("bg", REGION_BGS)
def test_every_class_marker_stands_out_on_every_region(bg: str) -> None:
    """Training (filled) and test (hollow) markers of both classes, as ``points_traces``
    draws them, on their own region, the other one and white: class −1's orange fill was
    1.71 : 1 on its own region, with a white rim."""
    for tr in figures.points_traces(_tiny()):
        ratio = _marker_contrast(tr["marker"], bg)
        assert ratio >= GRAPHIC_MIN, (tr["name"], bg, round(ratio, 2))


def test_classes_keep_their_shapes_and_hues() -> None:
    """Told apart by shape as well as colour: class −1 diamonds, class +1 circles, in the
    Okabe–Ito orange and blue (legend and fills unchanged)."""
    traces = figures.points_traces(_tiny())
    symbols = [tr["marker"]["symbol"] for tr in traces]
    fills = [tr["marker"]["color"] for tr in traces if "train" in tr["name"]]
    assert symbols == ["diamond", "diamond-open", "circle", "circle-open"]
    assert fills == [theme.CLASS_NEG, theme.CLASS_POS]
    assert theme.CLASS_NEG == "#E69F00" and theme.CLASS_POS == "#0072B2"


# ------------------------------------------------------------------------- end labels
def test_end_labels_and_leaders_of_any_palette_colour_read_on_the_plot() -> None:
    """A curve's name at its end is text (4.5 : 1; ``|T|^−γ̂`` in orange was 2.25), its
    leader line a graphic."""
    colours = sorted(set(_palette_lines().values()))
    labels = [(f"c{i}", c, 0.0) for i, c in enumerate(colours)]  # all at 0: all are moved
    kw = dict(font=11, y_range=(0.0, 1.0), plot_px=2000.0)
    for ann in figures.end_labels(labels, **kw):
        assert contrast(ann["font"]["color"], WHITE) >= TEXT_MIN, ann
    leaders = figures.end_leaders(labels, **kw)
    assert leaders
    for shape in leaders:
        assert contrast(shape["line"]["color"], WHITE) >= GRAPHIC_MIN, shape


def _lecture_curves() -> list[dict]:
    """The lesson pages' curves of a small run (/topdown's with MM's bound, /branching's)."""
    from boostcore.branching import bp_infoboost
    from boostcore.topdown import grow
    from ui.pages.branching import frames as fb
    from ui.pages.topdown import frames as ft

    ds = _tiny()
    out = []
    for crit, show_mm in (("hatano", False), ("mansour_mcallester", True)):
        steps = list(grow(ds.X_train, ds.y_train, size=6, max_arity=3, criterion=crit, gamma=0.1))
        steps = steps[:-2] + steps[-1:]
        out.append(
            ft.topdown_curves(
                steps, len(steps) - 1, size=6, show_mm=show_mm, final_is_theorem=False
            )
        )
    out.append(fb.curves_figure(tuple(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3)), 2))
    return [f if isinstance(f, dict) else f.to_plotly_json() for f in out]


def _is_end_label(ann: dict) -> bool:
    return ann.get("xref") == "paper" and ann.get("x") == 1.0 and ann.get("xanchor") == "left"


def test_lecture_curves_end_labels_are_text_and_their_lines_graphics() -> None:
    """Every end label of the lesson pages' curves is at 4.5 : 1 and every solid curve at
    3 : 1 on the plot (the faint whole-run copies behind them are not counted: see the
    report of issue 26)."""
    figs = _lecture_curves()
    names = []
    for fig in figs:
        for ann in filter(_is_end_label, fig["layout"]["annotations"]):
            colour = ann["font"]["color"]
            names.append(ann["text"])
            assert contrast(colour, WHITE) >= TEXT_MIN, (ann["text"], colour)
        for tr in fig["data"]:
            line = tr.get("line") or {}
            if line.get("color") and tr.get("opacity", 1.0) == 1.0:
                assert contrast(line["color"], WHITE) >= GRAPHIC_MIN, (tr.get("name"), line)
    assert any("γ̂" in n for n in names)  # |T|^−γ̂ was among them (2.25 : 1)


def test_lecture_curves_other_notes_are_text() -> None:
    """The other notes on the curves (not end labels) are text too: /topdown's "γ̂ fell to …"
    was e_γ̂'s vermillion #D55E00, 3.87 : 1."""
    notes = []
    for fig in _lecture_curves():
        for ann in fig["layout"]["annotations"]:
            colour = (ann.get("font") or {}).get("color")
            if colour and not _is_end_label(ann):
                notes.append(ann["text"])
                assert contrast(colour, WHITE) >= TEXT_MIN, (ann["text"], colour)
    assert any("γ̂ fell" in n for n in notes)  # the note is among those checked


# ------------------------------------------- the lesson pages' own points and pictures
def _class_markers(traces) -> list[dict]:
    """The class markers among a figure's traces (named "class …")."""
    traces = [t if isinstance(t, dict) else t.to_plotly_json() for t in traces]
    out = [t for t in traces if str(t.get("name", "")).startswith("class ")]
    assert out
    return out


@pytest.mark.parametrize("bg", REGION_BGS)
def test_branching_points_stand_out_on_every_region(bg: str) -> None:
    """/branching draws its own points (SVG markers in its frames): class −1's orange fill with
    a white 0.5 px rim was 1.71 : 1 on its own region, its hollow test markers 2.25 on white."""
    from ui.pages.branching import frames as fb

    markers = _class_markers(fb.points(_tiny()))
    assert any(str(t["marker"]["symbol"]).endswith("-open") for t in markers)  # test points
    for tr in markers:
        ratio = _marker_contrast(tr["marker"], bg)
        assert ratio >= GRAPHIC_MIN, (tr["name"], bg, round(ratio, 2))


def test_drawing_canvas_points_stand_out() -> None:
    """The drawing canvas (``ui.draw``) on its white plot: class −1 was orange with a white
    rim, 2.25 : 1."""
    from ui import draw

    fig = draw.canvas_figure([(10, 10, -1), (30, 30, 1), (50, 20, -1)])
    assert fig.layout.plot_bgcolor in ("white", WHITE)
    for tr in _class_markers(fig.data):
        ratio = _marker_contrast(tr["marker"], WHITE)
        assert ratio >= GRAPHIC_MIN, (tr["name"], round(ratio, 2))


@functools.cache
def _odt_run() -> tuple:
    from ui.pages.oblique import runs as oblique_runs

    return oblique_runs.odt_run.__wrapped__(_tiny(), "tiny", 2, 3, "stump", "breadth_first")


def test_oblique_weak_learner_points_stand_out() -> None:
    """/oblique's "you are the weak learner" plot: the node's examples on the white cell
    (class −1 orange with a white rim was 2.25 : 1)."""
    from ui.pages.oblique import student

    ds = _tiny()
    before, algo = student.next_split(_odt_run(), 0)
    members = np.asarray(algo.node_index)
    lo, hi = student.view_box(ds, ds.X_train[members])
    mine = ((1.0, 0.0), -float(ds.X_train[members, 0].mean()))
    fig = student.figure(
        ds, before, int(algo.node), members, np.asarray(algo.node_weights), mine, None, lo, hi
    )
    assert fig.layout.plot_bgcolor in ("white", WHITE)
    for tr in _class_markers(fig.data):
        ratio = _marker_contrast(tr["marker"], WHITE)
        assert ratio >= GRAPHIC_MIN, (tr["name"], round(ratio, 2))


_SVG_DOT = re.compile(
    r'<path d="([^"]*)" stroke="([^"]+)" stroke-width="([\d.]+)" stroke-linecap="(\w+)"'
)


def test_oblique_mini_views_points_stand_out() -> None:
    """The mini view of each node in /oblique's tree draws its examples as dots on white
    (class −1 square, class +1 round): each dot is a graphic, by its colour or by a rim at
    least 1 px wide drawn under it (class −1's orange alone was 2.25 : 1)."""
    from boostcore.steps import rounds
    from ui.pages.oblique import frames as fo

    steps = rounds(_odt_run())
    pics = fo.TreePictures(steps, _tiny(), km=False, font=13)
    svg = pics.pictures(steps[-1], hot_node=None)[0]
    dots: dict[tuple[str, str], list[tuple[str, float]]] = {}
    for d, stroke, width, cap in _SVG_DOT.findall(svg):
        dots.setdefault((d, cap), []).append((stroke, float(width)))
    assert {cap for _, cap in dots} == {"square", "round"}
    for (_, cap), drawn in dots.items():
        colour, width = drawn[-1]  # the dot: drawn last, over its rim
        seen = contrast(colour, WHITE)
        for rim, w in drawn[:-1]:
            if w >= width + 2:
                seen = max(seen, contrast(rim, WHITE))
        assert seen >= GRAPHIC_MIN, (cap, drawn, round(seen, 2))


def test_oblique_tree_edge_labels_are_text() -> None:
    """The edge labels of /oblique's tree on their 90 % white plate over the edge: #777777
    was 4.48 : 1 on white alone."""
    from boostcore.steps import rounds
    from ui.pages.oblique import frames as fo

    steps = rounds(_odt_run())
    pics = fo.TreePictures(steps, _tiny(), km=False, font=13)
    svg = "".join(pics.pictures(steps[-1], hot_node=h)[0] for h in (None, 0))  # plain, hot
    labels = re.findall(
        r'<line[^>]*stroke="(#[0-9A-Fa-f]{6})"[^>]*/><rect[^>]*opacity="([\d.]+)"'
        r'/><text[^>]*fill="(#[0-9A-Fa-f]{6})"',
        svg,
    )
    edges = {edge for edge, _, _ in labels}
    assert theme.HIGHLIGHT in edges and len(edges) == 2  # this step's edges and the others
    for edge, opacity, text in labels:
        plate = theme.composite(f"rgba(255,255,255,{opacity})", edge)
        assert contrast(text, plate) >= TEXT_MIN, (text, edge, round(contrast(text, plate), 2))


def _svg_colours(svg: str) -> tuple[set[str], set[str], set[str]]:
    """Stroke colours, text colours (a ``fill`` on ``<text>`` or on a ``<g>`` of texts) and
    shape fills of an SVG picture."""
    strokes = set(re.findall(r'stroke="(#[0-9A-Fa-f]{3,6})"', svg))
    texts = set(re.findall(r'<text[^>]*fill="(#[0-9A-Fa-f]{3,6})"', svg))
    texts |= set(re.findall(r'<g[^>]*fill="(#[0-9A-Fa-f]{3,6})"[^>]*>(?:<rect[^>]*/>)*<text', svg))
    fills = set(re.findall(r'<(?:rect|ellipse)[^>]*fill="(#[0-9A-Fa-f]{3,6})"', svg))
    return strokes, texts, fills


def test_oblique_waiting_panel_outline_is_a_graphic() -> None:
    """/oblique's panel before there is a tree to draw: its dashed outline is all there is
    of the picture to come (#999999 was 2.85 : 1 on the card, 2.66 on its fill)."""
    from ui.pages.oblique import frames as fo

    strokes, _, fills = _svg_colours(fo.message_svg(["the tree comes at step 1"], font=13))
    assert strokes and fills
    for stroke in strokes:
        for bg in fills | {WHITE}:
            assert contrast(stroke, bg) >= GRAPHIC_MIN, (stroke, bg, round(contrast(stroke, bg), 2))


def test_matryoshka_waiting_picture_ghosts_are_seen() -> None:
    """Before its first doll /matryoshka shows the level-1 doll's shape as dashed ghosts, and
    nothing else: their outlines and edges are graphics (#999999 and #AAAAAA were 2.73 and
    2.32 : 1 on the ghosts' fill), their names and edge signs text (#777777 4.29, the signs
    in #AAAAAA 2.32)."""
    from ui.pages.matryoshka import frames as fm

    (svg,) = fm.waiting_picture("The first doll comes at T = 2.", font=13, levels=(2, 4))
    strokes, texts, fills = _svg_colours(svg)
    assert "stroke-dasharray" in svg and fm.GHOST_FILL in fills
    for stroke in strokes:
        for bg in fills | {WHITE}:
            assert contrast(stroke, bg) >= GRAPHIC_MIN, (stroke, bg, round(contrast(stroke, bg), 2))
    assert fm.GHOST_TEXT in texts and len(texts) >= 2  # the ghosts' names and edge signs
    for text in texts:  # edge signs on their white patch, the footer on the card
        assert contrast(text, WHITE) >= TEXT_MIN, (text, round(contrast(text, WHITE), 2))
    for bg in fills - {"#FFFFFF", "#fff"}:  # the names inside the ghosts
        assert contrast(fm.GHOST_TEXT, bg) >= TEXT_MIN, (bg, round(contrast(fm.GHOST_TEXT, bg), 2))


def test_matryoshka_edge_labels_are_text() -> None:
    """The structures' edge labels (the ± of a stump's children) on their white patch:
    #777777 was 4.48 : 1."""
    from ui.pages.matryoshka import frames as fm

    tree = fm.TNode(fm.Box(["h1"]), [("−", False, fm.TNode(fm.Box(["leaf"], "leaf")))])
    svg = fm.svg(fm.layout(tree, "down", 13), 13)
    _, texts, _ = _svg_colours(svg)
    assert fm.EDGE_LABEL in texts
    for text in texts:
        assert contrast(text, WHITE) >= TEXT_MIN, (text, round(contrast(text, WHITE), 2))


# ------------------------------------------------------- charts drawn by Streamlit
@functools.cache
def _streamlit_charts() -> dict[str, go.Figure]:
    from boostcore.game import expand, lemma9_replacement, new_game
    from boostcore.realboost import THETA_GRID
    from ui.pages.benchmark import figures as bench
    from ui.pages.bounds import figures as bf
    from ui.pages.game import figures as gf
    from ui.pages.oblique import figures as of

    game = expand(new_game(8, 0.1), 0, 3, (0.5, 0.3, 0.2))

    class _Metrics:
        margin_error = np.linspace(0, 1, THETA_GRID.size)
        bound_margin = np.linspace(0.2, 1.2, THETA_GRID.size)

    class _Step:
        metrics = _Metrics()

    details = [{"diff": d, "significant": s} for d in (-1, 1) for s in (True, False)]
    results = [{"a": "ours", "details": details, "ties": 1}]
    summary = [
        {"learner": "ours", "error_mean": 0.1, "error_sd": 0.02, "ours": True},
        {"learner": "sklearn", "error_mean": 0.2, "error_sd": 0.03, "ours": False},
    ]
    curves = [
        {"axis": "leaves", "learner": name, "budget": b, "error_mean": 0.1 * b}
        for name in ("a", "b", "c", "d", "e", "f", "g", "sklearn tree")
        for b in (1, 2)
    ]
    return {
        "game trajectory": gf.trajectory_figure(game),
        "game lemma 9": gf.lemma9_figure(lemma9_replacement(game, 0)),
        "bounds fig2 left": bf.grossmann_fig2_left((0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)),
        "bounds fig2 right": bf.grossmann_fig2_right(16, (0.5, 0.875)),
        "bounds fig3": bf.grossmann_fig3((16, 256), 0.875),
        "bounds split prices": bf.split_prices(0.1),
        "bounds sizes": bf.size_bounds_at(0.2, 8),
        "bounds rounds": bf.infoboost_rounds_figure(0.1),
        "bounds bands": bf.band_count_figure((0.3, 0.5)),
        "bounds arity": bf.admissible_arity_figure(16, 0.1),
        "bounds budget": bf.multiway_budget_figure(16, 0.1),
        "bounds weak learning": bf.weak_learning_sizes_figure(0.1, 0.2),
        "oblique margins": of.margin_figure({"AdaBoost (G1 on a path)": _Step()}),
        "benchmark wins": bench.win_loss_figure(results, "sklearn"),
        "benchmark errors": bench.dataset_errors_figure(summary),
        "benchmark budget": bench.budget_figure(curves, "leaves"),
    }


#: The charts above, by name (for the test ids; the figures are built once, when first used).
CHARTS = (
    "game trajectory",
    "game lemma 9",
    "bounds fig2 left",
    "bounds fig2 right",
    "bounds fig3",
    "bounds split prices",
    "bounds sizes",
    "bounds rounds",
    "bounds bands",
    "bounds arity",
    "bounds budget",
    "bounds weak learning",
    "oblique margins",
    "benchmark wins",
    "benchmark errors",
    "benchmark budget",
)


def test_every_streamlit_chart_is_checked() -> None:
    assert sorted(_streamlit_charts()) == sorted(CHARTS)


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_streamlit_charts_set_their_text_colour(name: str) -> None:
    """Ticks, axis titles and legends of a chart ``st.plotly_chart`` draws are set by the
    figure (Streamlit's template greys them: the game's and bounds' ticks were 3.72 : 1) and
    read at 4.5 : 1 on the white chart."""
    lay = _streamlit_charts()[name].to_plotly_json()["layout"]
    assert contrast(lay["font"]["color"], WHITE) >= TEXT_MIN
    assert contrast(lay["legend"]["font"]["color"], WHITE) >= TEXT_MIN
    axes = [k for k in lay if re.fullmatch(r"[xy]axis\d*", k)]
    assert {"xaxis", "yaxis"} <= set(axes)
    for key in axes:
        axis = lay[key]
        assert contrast(axis["tickfont"]["color"], WHITE) >= TEXT_MIN, key
        if axis.get("title", {}).get("text"):
            assert contrast(axis["title"]["font"]["color"], WHITE) >= TEXT_MIN, key


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_streamlit_charts_lines_markers_and_bars_are_graphics(name: str) -> None:
    """Every line, marker and bar colour of those charts is 3 : 1 on white (the benchmark's
    pale win/loss bars were 1.5–2.0 : 1); stacked bars are parted by white."""
    fig = _streamlit_charts()[name]
    for tr in fig.to_plotly_json()["data"]:
        for part in ("line", "marker"):
            colours = (tr.get(part) or {}).get("color")
            for c in [colours] if isinstance(colours, str) else colours or []:
                assert contrast(c, WHITE) >= GRAPHIC_MIN, (name, tr.get("name"), part, c)
        if tr["type"] == "bar" and fig.layout.barmode == "stack":
            assert tr["marker"]["line"]["color"] == WHITE


# -------------------------------------------------------------------------- the tree
def test_tree_edges_labels_and_outlines() -> None:
    """The SVG tree: edge labels (#777 was 4.48) and this round's edge label (vermillion,
    3.87) are text on their white plate laid over the edge; edges and outlines graphics."""
    plate = f"rgba(255,255,255,{svgtree.LABEL_PLATE})"
    for edge in (EDGE, theme.HIGHLIGHT):
        bg = theme.composite(plate, edge)
        assert contrast(svgtree.LABEL, bg) >= TEXT_MIN, (edge, bg)
        assert contrast(svgtree.LABEL_HOT, bg) >= TEXT_MIN, (edge, bg)
    for stroke in (EDGE, NODE_LINE, theme.HIGHLIGHT):
        assert contrast(stroke, WHITE) >= GRAPHIC_MIN, stroke
    for fill in [svgtree.Node(0, ["x"]).fill, *REGION_BGS]:  # node text is black
        assert contrast("#000000", fill) >= TEXT_MIN


def test_tree_svg_draws_with_those_colours() -> None:
    nodes = {
        0: svgtree.Node(0, ["root"], children=[1, 2]),
        1: svgtree.Node(1, ["a"], parent=0, edge_label="x ≤ 1", edge_hot=True, hot=True),
        2: svgtree.Node(2, ["b"], parent=0, edge_label="x > 1"),
    }
    svg = svgtree.tree_svg(nodes, 0)
    style = svg.split("<style>", 1)[1].split("</style>", 1)[0]
    fills = set(re.findall(r"fill:(#[0-9A-Fa-f]{3,6})", style)) - {"#fff"}
    strokes = set(re.findall(r"stroke:(#[0-9A-Fa-f]{3,6})", style))
    assert fills == {svgtree.LABEL, svgtree.LABEL_HOT}
    assert strokes == {EDGE, NODE_LINE, theme.HIGHLIGHT}


# ------------------------------------------------------------------------ proof card
def _proof_text() -> dict[str, tuple[str, ...]]:
    """Each text colour of the proof card and the rows it is drawn on."""
    return {
        proof.INK: proof.ROW_BGS,
        proof.MUTED: proof.ROW_BGS,
        proof.FAIL: (proof.FAIL_BG, WHITE),
        proof.WARN: (proof.FAIL_BG, WHITE),
        proof.OK_TEXT: proof.ROW_BGS,
        proof.LOOSE_TEXT: proof.ROW_BGS,
        "#FFFFFF": (proof.LOOSE_TEXT,),  # the "loosest link" badge
    }


def test_proof_card_text() -> None:
    """Every text colour of the card on every row it can be on; the loosest link's slack was
    vermillion on its tinted row, 3.32 : 1 (axe's one violation in the app's own content)."""
    for fg, bgs in _proof_text().items():
        for bg in bgs:
            assert contrast(fg, bg) >= TEXT_MIN, (fg, bg, round(contrast(fg, bg), 2))


def test_proof_card_stripes_and_borders() -> None:
    for fg in (proof.OK, proof.LOOSE, proof.FAIL, proof.FOCUS):
        assert contrast(fg, WHITE) >= GRAPHIC_MIN, fg
    assert contrast(proof.LOOSE, proof.LOOSE_BG) >= GRAPHIC_MIN


def _card_html() -> str:
    from ui.proof import link, make_chain, proof_panel_html

    links = [link("a", "≤", "b", 0.1, 0.2), link("b", "≤", "c", 0.2, 0.9)]
    chain = make_chain("round 1", links, "paper", "why", 1)
    return proof_panel_html(chain) + proof.COMPACT_CSS


def test_proof_card_uses_no_other_text_colour() -> None:
    """Every ``color:`` the card's HTML and stylesheet set is one checked above (a new one
    must be added there, with its background)."""
    used = set(re.findall(r"(?<![-\w])color:\s*(#[0-9A-Fa-f]{3,6})", _card_html()))
    used = {theme.hex_colour(*theme.rgba(c)[:3]) for c in used}
    checked = {theme.hex_colour(*theme.rgba(c)[:3]) for c in _proof_text()}
    assert used <= checked, used - checked
    assert proof.LOOSE_TEXT in _card_html()  # the slack and the badge


# ------------------------------------------------------------------ Streamlit's theme
#: Streamlit's page and sidebar backgrounds (1.67: #FFFFFF / #F8F8F7 light, #171614 / #21201D
#: dark; before 1.5x's redesign the dark page was #0E1117). The config sets neither.
PAGE = {"light": ("#FFFFFF", "#F8F8F7"), "dark": ("#171614", "#21201D", "#0E1117")}
#: ``st.caption`` is textColor at this opacity (Streamlit's ``opacities.secondary``).
CAPTION_OPACITY = 0.6


def _theme(name: str) -> dict:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    return config["theme"][name]


def _alpha(colour: str, a: float) -> str:
    r, g, b, _ = theme.rgba(colour)
    return f"rgba({r:.0f},{g:.0f},{b:.0f},{a})"


@pytest.mark.parametrize("name", sorted(PAGE))
def test_streamlit_caption_reads_in_both_themes(name: str) -> None:
    """``st.caption`` (textColor at 60 %) on the page and the sidebar: 3.81–3.88 : 1 before
    with Streamlit's #2F2D2B."""
    text = _theme(name)["textColor"]
    for bg in PAGE[name]:
        seen = theme.composite(_alpha(text, CAPTION_OPACITY), bg)
        assert contrast(seen, bg) >= TEXT_MIN, (name, bg, round(contrast(seen, bg), 2))


def test_light_primary_segmented_control_and_buttons() -> None:
    """A selected segmented-control option is primaryColor on primaryColor at 10 % (20 %
    hovered) over the page (4.23 : 1 before, on the sidebar); a primary button white on it."""
    primary = _theme("light")["primaryColor"]
    assert contrast("#FFFFFF", primary) >= TEXT_MIN
    for bg in PAGE["light"]:
        assert contrast(primary, bg) >= GRAPHIC_MIN
        for a in (0.1, 0.2):
            tint = theme.composite(_alpha(primary, a), bg)
            assert contrast(primary, tint) >= TEXT_MIN, (bg, a, round(contrast(primary, tint), 2))


def test_dark_primary_buttons_read_and_controls_show() -> None:
    """In the dark theme white on a primary button is text (#E0606D gave 3.46 : 1) and the
    primary is a graphic on the page; no primary can also make the selected option's text
    4.5 : 1 there (white needs a dark red, the dark page a light one): it stays above 3."""
    primary = _theme("dark")["primaryColor"]
    assert contrast("#FFFFFF", primary) >= TEXT_MIN
    for bg in PAGE["dark"]:
        assert contrast(primary, bg) >= GRAPHIC_MIN, bg
        tint = theme.composite(_alpha(primary, 0.1), bg)
        assert contrast(primary, tint) >= GRAPHIC_MIN, bg
