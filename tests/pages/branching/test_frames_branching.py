"""Unit tests of the /branching page's frame builders (ui/pages/branching/frames/): every frame is
a valid plotly figure or SVG picture, one per snapshot, small, escaped, and drawn at a fixed
text size."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore import datasets
from boostcore import steps as protocol
from boostcore.branching import START, STEP, STOP, bp_infoboost
from ui import lecture, theme
from ui.pages.branching import frames as fb
from ui.svg import svg_size
from ui.text import notation

HOSTILE = '<b>x</b>"&'


def _ds(
    features=("x1", "x2"), classes=("-1", "+1"), n=200, test=0.25, name="moons"
) -> datasets.Dataset:
    ds = datasets.make_dataset(
        name, n=n, noise=0.3, imbalance=0.5, label_noise=0.05, random_state=0, test_fraction=test
    )
    return datasets.Dataset(
        ds.name,
        ds.description,
        ds.X_train,
        ds.y_train,
        ds.X_test,
        ds.y_test,
        feature_names=features,
        class_names=classes,
    )


def _run(ds, merge="bands", T=12, c=0.5):
    """The whole run: start (round 0), one step per round, stop."""
    return tuple(
        bp_infoboost(
            ds.X_train,
            ds.y_train,
            n_rounds=T,
            merge=merge,
            c=c,
            X_test=ds.X_test if ds.n_test else None,
            y_test=ds.y_test if ds.n_test else None,
        )
    )


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed XML: every text was escaped
    assert root.tag.endswith("svg")
    return root


def _texts(root: ET.Element) -> list[str]:
    """Every line of text drawn: a <tspan> (one per node in a row's line) or a <text>
    without tspans."""
    out = []
    for e in root.iter():
        if e.tag.endswith("tspan"):
            out.append("".join(e.itertext()))
        elif e.tag.endswith("text") and not any(c.tag.endswith("tspan") for c in e):
            out.append("".join(e.itertext()))
    return out


# ------------------------------------------------------------------------------ regions
@pytest.mark.parametrize("merge", ["all", "bands", "none"])
def test_regions_frames_are_valid_plotly_and_small(merge: str) -> None:
    ds = _ds()
    steps = protocol.rounds(_run(ds, merge))  # rounds 0 … T
    assert steps[0].kind == START and len(steps) == 13
    for s in steps:
        for small in (False, True):
            spec = fb.regions_figure(s, ds, small=small)
            go.Figure(spec)  # validates every property
            heat = spec["data"][0]
            assert heat["type"] == "heatmap" and heat["z"].dtype == np.uint8
            rows, cols = heat["z"].shape
            assert len(heat["x"]) == cols + 1 and len(heat["y"]) == rows + 1  # cell edges
            assert rows + cols <= len(steps) + 1  # the cells of the thresholds' grid
            encoded = lecture.plotly_frames([spec])[0]["data"][0]["z"]
            assert isinstance(encoded, list) or encoded["dtype"] == "u1"  # small integers
    frames = lecture.plotly_frames([fb.regions_figure(s, ds) for s in steps])
    assert len(frames) == len(steps)
    assert all(f["layout"] == {"$r": 0} for f in frames[1:])  # the layout is sent once
    assert len(json.dumps(frames)) < 8000 * len(steps)


def test_regions_follow_sign_of_F() -> None:
    ds = _ds()
    step = protocol.rounds(_run(ds, "all", T=6))[-1]
    spec = fb.regions_figure(step, ds)
    z = spec["data"][0]["z"]
    assert z.min() < fb.LEVELS / 2 < z.max()  # both classes have a region
    line = spec["data"][-2]
    assert line["line"]["color"] == theme.HIGHLIGHT and len(line["x"]) == 2  # this round's stump


def test_round_0_is_the_initial_model() -> None:
    """Round 0 (issue 15, item 1): F_0 = 0 (every cell undecided, no stump line, equal
    weights), the root alone in the program, both products 1 on the curves."""
    ds = _ds()
    run = _run(ds, "bands", T=4)
    start = protocol.rounds(run)[0]
    spec = fb.regions_figure(start, ds)
    z = spec["data"][0]["z"]
    assert z.shape == (1, 1) and int(z[0, 0]) == fb.LEVELS // 2  # undecided
    assert spec["data"][-2]["x"] == []  # no stump yet
    sizes = [np.unique(tr["marker"]["size"]) for tr in spec["data"][1:] if "train" in tr["name"]]
    assert all(len(u) == 1 for u in sizes)  # D_1 is uniform
    pics = fb.program_pictures(run, 0, feature_names=ds.feature_names)
    texts = _texts(_svg(pics[0]))
    assert "root" in texts and not any(t.startswith("h1") for t in texts)
    assert fb.program_note(run, 0).startswith("Round 0: the program is its root")
    curves = fb.curves_figure(run, 0)
    marks = [tr for tr in curves["data"] if tr.get("mode") == "markers" and tr["yaxis"] == "y"]
    assert list(marks[0]["x"]) == [0.0, 0.0, 0.0, 0.0]  # Π H, Π Z, train, test at round 0
    assert list(marks[0]["y"][:2]) == [1.0, 1.0]
    assert fb.curves_note(run, 0).startswith("Round 0:")
    assert fb.groups_html(start).startswith("<p>Round 0: no groups yet")
    lec = fb.notes_for(run, 5)
    assert lec[0] == notation(start.message)  # "F<sub>0</sub> = 0": the notation typeset
    last = protocol.rounds(run)[-1]
    assert lec[-1].startswith("All T = 4 rounds are done. Round 4: h<sub>4</sub> = [")
    assert lec[-1].endswith(" Z = " + last.message.rsplit("; Z = ", 1)[1])


def test_regions_escape_names_from_a_csv() -> None:
    ds = _ds(features=(HOSTILE, "y"), classes=("<i>neg", "p&s"))
    spec = fb.regions_figure(_run(ds, "all", T=2)[-1], ds)
    text = json.dumps(lecture.plotly_frames([spec]))
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text
    assert "<i>neg" not in text


# ------------------------------------------------------------------------------ curves
def test_curves_frames_one_per_snapshot_with_a_static_layout() -> None:
    ds = _ds()
    steps = _run(ds, "bands", T=10)
    specs = [fb.curves_figure(steps, t) for t in range(11)]  # rounds 0 … 10
    for spec in specs + [fb.curves_figure(steps, 3, small=True)]:
        go.Figure(spec)
    frames = lecture.plotly_frames(specs)
    assert len(frames) == len(protocol.rounds(steps)) == 11
    assert all(f["layout"] == {"$r": 0} for f in frames[1:])
    # the faint whole-run traces are sent once too
    assert all(tr == {"$r": 0} for f in frames[1:] for tr in f["data"][:5])
    texts = [a["text"] for a in specs[0]["layout"]["annotations"]]
    # named in plotly's sub/superscripts (issue 39, item 9: "Π Z_t" was drawn raw)
    assert {"Π Z<sub>t</sub>", "Π H(Y|h<sub>t</sub>)", "train error", "test error"} <= set(texts)


def test_curves_of_a_run_without_a_round_say_so() -> None:
    X = np.ones((20, 2))
    y = np.array([1, -1] * 10)
    steps = tuple(bp_infoboost(X, y, n_rounds=5))
    assert [s.kind for s in steps] == [START, STOP]
    spec = fb.curves_figure(steps, 0)
    go.Figure(spec)
    reason = steps[-1].stop_reason
    assert any(a["text"] == f"No round: {reason}" for a in spec["layout"]["annotations"])
    pics = fb.program_pictures(steps, 0, feature_names=("a", "b"))
    assert "root" in pics[0]
    assert fb.program_note(steps, 0).endswith(reason)
    assert fb.notes_for(steps, 3) == [
        notation(f"{reason} {steps[0].message}"),
        f"Finished at round 0. {reason}",
        f"Finished at round 0. {reason}",
    ]


# ------------------------------------------------------------------------------ program
def test_program_svg_is_valid_escaped_and_sized() -> None:
    ds = _ds(features=(HOSTILE, "y"))
    steps = fb.program_rounds(_run(ds, "bands", T=8), 8)
    assert len(steps) == 8
    svg = fb.program_svg(steps, rows=20, boxes=20, feature_names=ds.feature_names, font=13)
    root = _svg(svg)
    w, h = svg_size(svg)
    assert root.get("width") == f"{w:.0f}" and root.get("viewBox") == f"0 0 {w:.0f} {h:.0f}"
    assert root.get("font-size") == "13"
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    texts = _texts(root)
    assert "root" in texts and "h8" in texts
    assert any(t.startswith("<b>x") for t in texts)  # the name as text, shortened
    # every leaf of every layer is drawn, also one no training point reaches: w and D, or
    # (issue 25, 8) the label that says no training point reaches it
    n_nodes = 1 + sum(len(s.weights) for s in steps)
    n_empty = sum(s.metrics.n_unreached for s in steps)
    assert n_empty and texts.count(fb.NO_POINT[0]) == n_empty
    assert sum(t.startswith("w ") for t in texts) == n_nodes - 1 - n_empty


def test_program_collapses_old_layers_and_light_leaves() -> None:
    ds = _ds()
    steps = fb.program_rounds(_run(ds, "none", T=10), 10)
    svg = fb.program_svg(steps, rows=4, boxes=3, feature_names=ds.feature_names)
    texts = _texts(_svg(svg))
    assert "root … round 7" in texts and "collapsed" in texts
    assert {"h8", "h9", "h10"} <= set(texts) and "h7" not in texts
    assert sum(t.startswith("+") and t.endswith("more") for t in texts) == 3
    assert sum(t.startswith("w ") for t in texts) == 3 * 2  # two leaves + one box per layer


def test_program_shows_merges_and_this_rounds_layer() -> None:
    ds = _ds()
    steps = fb.program_rounds(_run(ds, "all", T=3), 3)
    svg = fb.program_svg(steps, rows=9, boxes=6, feature_names=ds.feature_names)
    paths = re.findall(r'<path d="([^"]*)" stroke="([^"]*)"', svg)
    hot = [d for d, colour in paths if colour == theme.HIGHLIGHT]
    assert len(hot) == 1
    ends = re.findall(r"L(\d+) (\d+)", hot[0])
    assert len(ends) == 4 and len(set(ends)) == 2  # four children merged into two leaves
    hot_pen = f'stroke="{theme.HIGHLIGHT}" stroke-width="2.5"'
    assert svg.count(hot_pen) == 1  # this layer's nodes
    hot_nodes = svg.split(hot_pen, 1)[1].split("</g>", 1)[0]
    assert hot_nodes.count("z") == 2  # InfoBoost: two leaves per round


@pytest.mark.parametrize("font", [13, 17])
def test_program_pictures_go_from_detailed_to_small(font: int) -> None:
    ds = _ds()
    steps = _run(ds, "none", T=12)
    for t in (0, 5, 12):
        pics = fb.program_pictures(steps, t, feature_names=ds.feature_names, font=font)
        sizes = [svg_size(p) for p in pics]
        assert len(set(pics)) == len(pics)
        for i, (w, h) in enumerate(sizes):  # none is at least as large as an earlier one
            assert not any(w0 <= w and h0 <= h for w0, h0 in sizes[:i])
        assert all(f'font-size="{font}"' in p for p in pics)
        for p in pics:
            _svg(p)


# ------------------------------------------------------------------------------ tables
def test_tables_escape_and_show_dashes() -> None:
    ds = _ds(test=0.0)
    steps = protocol.rounds(_run(ds, "bands", T=3))
    html = fb.metrics_html({"<s>run": steps[-1]})
    assert "<s>run" not in html and "&lt;s&gt;run" in html
    assert "—" in html  # no test set: the test error is missing
    assert "<td>3</td>" in html  # integers stay integers
    groups = fb.groups_html(steps[-1])
    assert groups.startswith("<p><b>Round 3:") and "<table>" in groups


# ------------------------------------------------------------------------------ lecture
def test_lecture_has_one_frame_per_snapshot_and_stays_small() -> None:
    ds = datasets.make_dataset(
        "moons",
        n=400,
        noise=0.3,
        imbalance=0.5,
        label_noise=0.05,
        random_state=0,
        test_fraction=0.25,
    )
    schemes = tuple(fb.SCHEMES)
    lec = fb.branching_lecture(ds, "test-moons", schemes, 20, 0.5, "h", 12.0)
    programs = {s: fb.program_frames(ds, "test-moons", s, 20, 0.5, "h", 12.0) for s in schemes}
    assert lec["n"] == 21  # rounds 0 … 20
    for name in schemes:
        run = lec["runs"][name]
        for key in ("regions", "curves", "small", "spark", "curve_notes"):
            assert len(run[key]) == run["n"], (name, key)
        assert len(run["notes"]) == lec["n"]
        assert len(programs[name]["structure"]) == len(programs[name]["notes"]) == run["n"]
    assert len(lec["metrics"]) == len(lec["groups"]) == lec["n"]
    size = len(json.dumps(lec)) + max(len(json.dumps(p)) for p in programs.values())
    # 1.46 MB before the screen reader's descriptions (issue 26, item 5), which add ~38 kB
    # here (three schemes × 21 rounds of two sentences, and the program's)
    assert size < 1_550_000, size
    # no bound on its build time: a timed test fails on a loaded machine (benchmarks/ time it)


def test_program_note_counts_the_divide_and_the_merge() -> None:
    ds = _ds()
    ib, dt = _run(ds, "all", T=3), _run(ds, "none", T=3)
    assert fb.program_note(ib, 2) == (
        "Round 2: h<sub>2</sub> divides 2 leaves into 4 children. The merge makes 2 leaves."
    )
    assert (
        fb.program_note(ib, 1)
        == "Round 1: h<sub>1</sub> divides 1 leaf into 2 children. No merging: 2 leaves."
    )
    note = fb.program_note(dt, 2)
    assert note.startswith("Round 2: h<sub>2</sub> divides 2 leaves into") and "No merging" in note


def test_program_note_and_groups_name_the_leaves_no_training_point_reaches() -> None:
    """The program draws a bands leaf only unseen points reach; the note and the groups
    table count the merged leaves as |L_t| does (reached ones) and name the others apart
    (issue 14, B.4)."""
    ds = datasets.make_dataset(
        "moons",
        n=400,
        noise=0.3,
        imbalance=0.5,
        label_noise=0.05,
        random_state=1,
        test_fraction=0.25,
    )
    steps = _run(ds, "bands", T=3)
    s = steps[3]
    assert s.t == 3 and (s.metrics.n_leaves, s.metrics.n_unreached) == (4, 1)
    # short sentences, the ones no training point reaches in one of their own (issue 39,
    # item 9: three "(+k that no training point reaches)" in one sentence)
    assert fb.program_note(steps, 3) == (
        "Round 3: h<sub>3</sub> divides 3 leaves into 4 children. The merge makes 4 leaves. "
        "Not counted (no training point reaches them): 2 children and 1 leaf after."
    )
    head = fb.groups_html(s).split("</b>", 1)[0]
    assert "5 groups" in head and "1 of them no training point reaches" in head
    assert "|L<sub>t</sub>| = 4" in head  # the notation typeset


# ------------------------------------------------------------ Theorem 3 per round (B.3)
def test_c_round_frames_are_valid_and_show_the_per_round_statement() -> None:
    """One frame per snapshot of the BP.InfoBoost run: this round's children merged with
    every c, under the bound 1 − cγ_t; the note says what the theorem promises and what this
    round shows (issue 14, B.3)."""
    from boostcore.branching import round_bands
    from ui.pages.branching.runs import C_GRID

    ds = _ds()
    run = _run(ds, "bands", T=6, c=0.5)
    steps = [s for s in run if s.kind == STEP]
    for s in steps:
        bands = round_bands(s, C_GRID)
        fig = fb.c_round_figure(s, bands, 0.5, font=12)
        go.Figure(fig)  # validates
        by_name = {tr.get("name"): tr for tr in fig["data"]}
        h, bound = by_name["H(Y|ℓ<sub>t</sub>)"], by_name["bound 1 − cγ<sub>t</sub>"]
        assert h["x"] == list(C_GRID)
        assert bound["y"] == [1.0, 1.0 - s.metrics.gamma]
        assert all(v <= 1 - c * s.metrics.gamma + 1e-12 for c, v in zip(h["x"], h["y"]))
        assert by_name["|L<sub>t</sub>|"]["y"] == [b.n_leaves for b in bands]
        rings = [tr for tr in fig["data"] if tr.get("hoverinfo") == "skip"]
        assert [r["x"] for r in rings] == [[0.5], [0.5]]  # the run's own c on both panels
        note = fb.c_round_note(s, bands, 0.5)
        assert note.startswith(
            f"Round {s.t} (D<sub>t</sub> and h<sub>t</sub> of the run with c = 0.5;"
        )
        assert "1 − γ<sub>t</sub> ≤ H(Y|ℓ<sub>t</sub>) ≤ 1 − cγ<sub>t</sub>" in note
        assert "not nested" in note
    view = fb.c_round_frames(ds, "test-c-round", 6, 0.5, "h", 12.0)
    assert view["n"] == len(view["frames"]) == len(view["notes"]) == len(steps) + 1
    assert view["notes"][0].startswith("Round 0: the initial model; no stump")
    assert view["notes"][1].startswith("Round 1 (D<sub>t</sub> and h<sub>t</sub>")


def test_c_round_of_a_run_without_a_round_says_so() -> None:
    X = np.zeros((10, 2))
    y = np.array([1, -1] * 5)
    run = tuple(bp_infoboost(X, y, n_rounds=3))
    s = run[0]
    why = fb.no_round(run)
    assert why.endswith(run[-1].stop_reason)
    fig = fb.c_round_figure(s, (), 0.5, why=why)
    go.Figure(fig)
    assert fig["layout"]["annotations"][0]["text"] == notation(why)
    assert fb.c_round_note(s, (), 0.5, why=why) == notation(why)
    assert fb.c_round_note(s, (), 0.5) == notation(s.message)


def test_program_note_and_round_message_count_the_same_leaves() -> None:
    """The note under the program and the round's message (under the regions) said '4 leaves
    into 8 children' and '3 leaves into 5 children' for the same round: both now count the
    leaves training points reach and name the others apart."""
    import re

    from boostcore.branching import bp_infoboost
    from boostcore.datasets import make_dataset

    ds = make_dataset("moons", n=400, noise=0.3, label_noise=0.05, random_state=0)
    steps = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=8))
    seen_unreached = False
    for s in steps:
        if s.kind != STEP:
            continue
        note = fb.program_note(steps, s.t)
        before_msg = int(re.search(r"divides (\d+) lea", s.message).group(1))
        before_note = int(re.search(r"divides (\d+) lea", note).group(1))
        assert before_msg == before_note, (s.message, note)
        seen_unreached |= "leaf before" in note or "leaves before" in note
    assert seen_unreached  # the case that differed is in this run


# ------------------------------------------------- Lemma 4 beside Theorem 3 (issue 24, 14)
def test_groups_table_sets_lemma4_beside_theorem3() -> None:
    """Under the groups' head, one line: Lemma 4 (Mansour–McAllester's merging) with §6's
    λ = (1−c)γ_t/(2(1−γ_t)), δ = (1−c)γ_t/2 — the same bound (1+λ)(1−γ_t) + δ = 1 − cγ_t,
    with (1/λ) ln(1/δ) groups up to the lemma's constant — against Theorem 3's 4K (numbers
    recomputed here from the formulas)."""
    import html as _html
    import math

    c = 0.5
    steps = protocol.rounds(_run(_ds(), "bands", T=4, c=c))
    for s in steps[1:]:
        m = s.metrics
        g = m.gamma
        lam, delta = (1 - c) * g / (2 * (1 - g)), (1 - c) * g / 2
        text = _html.unescape(fb.groups_html(s))  # the notation typeset: γ<sub>t</sub>
        assert "Lemma 4 (Mansour–McAllester's merging, an existence result)" in text
        assert f"λ = (1−c)γ<sub>t</sub>/(2(1−γ<sub>t</sub>)) = {lam:.4g}" in text
        assert f"δ = (1−c)γ<sub>t</sub>/2 = {delta:.4g}" in text
        assert f"(1+λ)(1−γ<sub>t</sub>) + δ = {1 - c * g:.4f}" in text
        assert f"(1/λ) ln(1/δ) = {math.log(1 / delta) / lam:.1f}" in text
        assert f"at most 4K = {m.max_groups} groups" in text
    assert "Lemma 4" not in fb.groups_html(steps[0])  # round 0: no groups, no round


# ------------------------------------------------ one count, one name (issue 25, 8)
def test_leaves_subplot_has_readable_ticks_up_to_the_most_leaves() -> None:
    """The |L_t| subplot was a log axis with dtick=1: below 10 leaves its one tick was '1'.
    Ticks now sit at 1, 2, 4, … up to the most leaves of the run."""
    run = _run(_ds(), "bands", T=8)
    most = max(s.metrics.n_leaves for s in protocol.rounds(run))
    axis = fb.curves_figure(run, 3)["layout"]["yaxis2"]
    ticks = [float(v) for v in axis["tickvals"]]
    assert ticks[0] == 1 and len(ticks) >= 2
    assert all(b == 2 * a for a, b in zip(ticks, ticks[1:]))
    assert ticks[-1] <= most < 2 * ticks[-1]
    assert [str(int(v)) for v in ticks] == list(axis["ticktext"])


def _counts_said(text: str) -> tuple:
    """The counts a round's divide and merge are said with: in the core's message ("divides
    5 leaves (+1 that no training point reaches) into 6 children that training points reach
    (+6 …), merged into 5 leaves (+2 …)") or in the page's sentences (:func:`fb.divide_words`):
    leaves before and those no point reaches, children and those no point reaches (dropped or
    not), leaves after and those no point reaches."""
    core = re.search(
        r"divides (\d+) lea\w+(?: \(\+(\d+) that no training point reaches\))? into (\d+) "
        r"child\w*(?: that training points reach \(\+(\d+) that no training point "
        r"reaches(, dropped)?\))?, merged into (\d+) lea\w+(?: \(\+(\d+) that no training "
        r"point reaches\))?;",
        text,
    )
    if core:
        a, a0, b, b0, dropped, c, c0 = core.groups()
        return int(a), int(a0 or 0), int(b), int(b0 or 0), bool(dropped), int(c), int(c0 or 0)
    page = re.search(
        r"divides (\d+) lea\w+ into (\d+) child\w*\. (?:The merge makes|No merging:) (\d+) "
        r"lea\w+\.(?: Not counted \(no training point reaches them\): (.*)\.)?",
        text,
    )
    assert page, text
    a, b, c, apart = page.groups()
    apart = apart or ""
    before = re.search(r"(\d+) lea\w+ before", apart)
    children = re.search(r"(\d+) child\w*(, dropped)?", apart)
    after = re.search(r"(\d+) lea\w+ after", apart)
    return (
        int(a),
        int(before.group(1)) if before else 0,
        int(b),
        int(children.group(1)) if children else 0,
        bool(children and children.group(2)),
        int(c),
        int(after.group(1)) if after else 0,
    )


def test_program_note_message_quiz_and_picture_count_the_leaves_alike() -> None:
    """On rounds with leaves no training point reaches, the program drew them as ordinary
    boxes, the quiz's right answer counted |L_t| only ('5 leaves' beside 7 boxes), and the
    note and the round's message counted the children differently ('into 12 children' /
    'into 6 children'). Now: the picture draws |L_t| boxes plus, dashed and labelled, those
    no training point reaches; the note under the program, the regions' note and the quiz's
    why say the same words (short sentences, issue 39 item 9) with the numbers of the core's
    message; the quiz asks for the leaves training points reach."""
    from ui.pages.branching.frames import NO_POINT
    from ui.pages.branching.questions import all_questions
    from ui.text import plural

    run = _run(_ds(), "bands", T=8)
    rounds = protocol.rounds(run)
    notes = fb.notes_for(run, len(rounds))
    seen = 0
    for s in rounds[2:]:
        m = s.metrics
        if not m.n_unreached:
            continue
        seen += 1
        # the picture of round t alone (older rounds collapsed): one box per leaf
        svg = fb.program_svg(
            fb.program_rounds(run, s.t), rows=2, boxes=100, feature_names=("x1", "x2")
        )
        texts = [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}tspan")]
        assert texts.count(NO_POINT[1]) == m.n_unreached
        assert sum(t.startswith("D ") for t in texts) == m.n_leaves
        note = fb.program_note(run, s.t)
        words = note.split(f"Round {s.t}: h<sub>{s.t}</sub> ", 1)[1]  # "divides …"
        counts = _counts_said(s.message)
        assert counts == _counts_said(note), (s.message, note)
        assert counts[6] == m.n_unreached  # the leaves no training point reaches, apart
        assert f"The merge makes {plural(m.n_leaves, 'leaf', 'leaves')}." in note
        assert "(+" not in note  # no count in brackets any more
        # the regions' note: the core's message in these words, its numbers kept
        assert words in notes[s.t] and f"Round {s.t}: h<sub>{s.t}</sub> = [" in notes[s.t]
        assert notes[s.t].endswith(" Z = " + s.message.rsplit("; Z = ", 1)[1])
        q = {
            q.kind: q for q in all_questions(run, s.t - 1, seed=0, X=_ds().X_train, y=_ds().y_train)
        }["leaves"]
        assert "leaves that training points reach" in q.text
        assert q.answers[q.correct] == plural(m.n_leaves, "leaf", "leaves")
        assert q.why == f"h<sub>{s.t}</sub> {words}"
    assert seen >= 3  # the case the issue names is in this run


# ------------------------------------------------------- text alternatives (issue 26, item 5)
def _faint(fig: dict, name: str) -> np.ndarray:
    """The whole run's values of the curves' line ``name`` (the faint trace: every round)."""
    (tr,) = [tr for tr in fig["data"] if tr.get("name") == name and "opacity" in tr]
    return np.asarray(tr["y"], dtype=float)


@pytest.mark.parametrize("merge", ["all", "bands", "none"])
def test_descriptions_state_what_the_frames_draw(merge: str) -> None:
    from tests.ui.test_descriptions import NOT_PLAIN

    ds = _ds()
    run = _run(ds, merge, T=6)
    scheme = fb.MERGE_SHORT[merge]
    say = fb.spoken_number
    for t, step in enumerate(protocol.rounds(run)):
        regions = fb.regions_description(step, ds, scheme=scheme)
        structure = fb.structure_description(run, t, scheme=scheme)
        curves = fb.curves_description(run, t)
        for text in (regions, structure, curves):
            assert not NOT_PLAIN.search(text), text
        fig = fb.curves_figure(run, t)
        err = _faint(fig, "train error")[t]
        wrong = int(np.sum(step.program.predict(ds.X_train) != ds.y_train))
        assert f"training error {say(err)} ({wrong} of {ds.n_train} " in regions
        # every line's value at this round, by its name read aloud, and the leaves below
        for name, spoken in fb.SPOKEN.items():
            value = _faint(fig, name)[t]
            if np.isfinite(value):  # a zero is not on the log scale
                assert f"{spoken} {say(value)}" in curves, (name, curves)
        leaves = int(_faint(fig, fb.LEAVES)[t])
        assert f"; {leaves} lea" in curves and step.metrics.n_leaves == leaves
        if t == 0:
            assert "no stump yet" in regions and "the root alone" in structure
            continue
        # the stump drawn is the stump said
        (line,) = [tr for tr in fb.regions_figure(step, ds)["data"] if tr.get("name") == "h_t"]
        at = line["x"][0] if step.feature == 0 else line["y"][0]
        assert f"h{t} is +1 where {ds.feature_names[step.feature]} > {say(at)}" in regions
        # the last level drawn holds every leaf of the round, reached or not
        drawn = len(step.weights)
        assert drawn == step.metrics.n_leaves + step.metrics.n_unreached
        assert re.search(rf"nodes per level: 1(, \d+)*, {drawn}\. In round {t}, h{t} ", structure)
        # the program's note, read as plain words (its h<sub>t</sub> as "ht")
        said = re.sub(r"</?su[bp]>", "", fb.program_note(run, t).split(": ", 1)[1])
        assert structure.endswith(said)


def test_lecture_and_program_carry_one_description_per_round() -> None:
    from tests.ui.test_descriptions import NOT_PLAIN

    ds = _ds()
    schemes = tuple(fb.SCHEMES)
    lec = fb.branching_lecture.__wrapped__(ds, "test-desc", schemes, 5, 0.5, "h", 12.0)
    for name in schemes:
        run = lec["runs"][name]
        said = run["descriptions"]
        assert set(said) == {"regions", "curves"}
        for panel, texts in said.items():
            assert len(texts) == len(run["notes"]) == lec["n"], (name, panel)
            assert texts[run["n"] :] == texts[run["n"] - 1 : run["n"]] * (lec["n"] - run["n"])
            assert all(text and not NOT_PLAIN.search(text) for text in texts)
        program = fb.program_frames.__wrapped__(ds, "test-desc", name, 5, 0.5, "h", 12.0)
        assert len(program["descriptions"]) == len(program["notes"]) == run["n"]
        assert program["descriptions"][0].startswith(f"Branching program of {name} at round 0")
