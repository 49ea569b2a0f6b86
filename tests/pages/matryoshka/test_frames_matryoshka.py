"""Unit tests of the probabilistic-boosting page's frame builders (ui/pages/matryoshka/frames/):
frames are valid plotly figures, one per round 0 … T (round 0: the initial model), small,
escaped, and the SVG pictures are well-formed at their natural size with the newest change
outlined."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
import time
import xml.etree.ElementTree as ET

import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore import datasets, steps
from boostcore.probabilistic import Chain
from tests import lecture_helpers as lh
from ui import theme
from ui.figures import data_extent
from ui.pages.matryoshka import frames as fm
from ui.pages.matryoshka import runs as matryoshka_runs
from ui.pages.matryoshka.proof import grossmann_chain, is_collapsed
from ui.proof import fmt
from ui.svg import choose, svg_size
from ui.text import notation

HOSTILE = '<b>x</b>"&'


def _ds(name: str = "moons", names=None) -> datasets.Dataset:
    ds = datasets.make_dataset(
        name, n=300, noise=0.3, imbalance=0.5, label_noise=0.05, random_state=0, test_fraction=0.25
    )
    return dataclasses.replace(ds, feature_names=names) if names else ds


def _runs(ds, n_weak: int, structures=("chain", "tree", "matryoshka", "collapse")):
    return {
        s: matryoshka_runs.prob_run.__wrapped__(ds, "test", s, n_weak, 0.3, None)
        for s in structures
    }


@pytest.fixture(scope="module")
def lecture() -> tuple[dict, dict, datasets.Dataset]:
    ds = _ds()
    runs = _runs(ds, 16)
    return fm.build_lecture(runs, ds, n_weak=16, samples=None, font=12), runs, ds


@pytest.fixture(scope="module")
def hostile() -> dict:
    ds = _ds("xor", names=(HOSTILE, "y<script>"))
    return fm.build_lecture(_runs(ds, 8), ds, n_weak=8, samples=None, font=12)


def test_one_frame_per_round_of_every_view(lecture) -> None:
    lec, runs, _ = lecture
    assert lec["n"] == 16 and set(lec["runs"]) == set(runs)
    for s, run in lec["runs"].items():
        for view in ("regions", "small", "structure", "curves", "spark", "notes"):
            assert len(run[view]) == 17, (s, view)  # rounds 0 … 16
        assert run["n"] == len(steps.rounds(runs[s]))
    assert len(lec["metrics"]) == len(lec["dolls"]) == 17


def test_round_zero_is_the_initial_model(lecture) -> None:
    """Every run's round 0 is its start snapshot: H = 0, P(H > 0) = ½ everywhere, bound 1."""
    lec, runs, _ = lecture
    for s, run in lec["runs"].items():
        assert runs[s][0].kind == "start" and runs[s][0].metrics.n_weak == 0
        regions = lh.resolve(run["regions"])[0]
        z = regions["data"][0]["z"]
        assert set(base64.b64decode(z["bdata"])) == {50}  # ½ everywhere, in percent
        assert "Round 0: the initial model" in regions["layout"]["annotations"][0]["text"]
        pictures = lh.resolve(run["structure"])[0]
        assert fm.INITIAL_TITLE in pictures[0] and theme.HIGHLIGHT not in pictures[0]
        assert run["notes"][0].startswith("Round 0: the initial model H = 0")
        curves = lh.resolve(run["curves"])[0]
        assert curves["layout"]["xaxis"]["range"][0] < 0  # T = 0 is on the axis
    rows = {r["run"]: r for r in lh.table(lh.resolve(lec["metrics"])[0])}
    for row in rows.values():
        assert row["T"] == "0" and row["train error"] == "0.5000"
        assert row["C(T) / Π Z (valid)"] == "1.0000" and row["ρ̂"] == "—"


def test_last_note_says_why_the_run_stopped(lecture) -> None:
    lec, runs, _ = lecture
    for s, run in lec["runs"].items():
        reason = steps.final(runs[s]).stop_reason
        # the reason's notation typeset ("2<sup>L</sup> = 16 soft stumps")
        assert reason and run["notes"][-1].endswith(f"Stopped: {notation(reason)}"), s
        assert not any("Stopped" in n for n in run["notes"][:-1])


def test_doll_table_compares_each_node_with_the_papers_rho(lecture) -> None:
    """Issue 14, C.1: the doll table shows the ρ the paper plugs in for each doll (its bound
    M2(T₁, ρ̂)) next to the node's Z₊ + Z₋, no 'gap' against C (never negative)."""
    lec, runs, _ = lecture
    step = runs["matryoshka"][-1]  # level 4: 14 dolls used as nodes
    rows = lh.table(fm.dolls_table(step, ""))
    assert len(rows) == len(step.dolls) == 14
    assert tuple(rows[0]) == fm.DOLL_COLUMNS
    for r, d in zip(rows, step.dolls, strict=True):
        assert float(r[fm.DOLL_COLUMNS[3]]) == pytest.approx(d.paper_bound, abs=1e-4)
        assert float(r[fm.DOLL_COLUMNS[6]]) == pytest.approx(d.node_Z - d.paper_bound, abs=1e-4)
    assert lh.resolve(lec["dolls"])[16] == fm.dolls_table(step, "")  # round 16 shows it
    assert "gap" not in fm.DOLLS_CAPTION and "not backed" not in fm.DOLLS_CAPTION
    assert "where the nesting argument breaks" in fm.DOLLS_CAPTION


def test_every_frame_is_a_valid_plotly_figure(lecture) -> None:
    lec, _, _ = lecture
    for run in lec["runs"].values():
        for view in ("regions", "small", "curves", "spark"):
            for frame in lh.resolve(run[view]):
                go.Figure(frame)  # validates every property


def test_static_traces_are_sent_once(lecture) -> None:
    lec, _, _ = lecture
    regions = lec["runs"]["tree"]["regions"]
    assert all(tr == {"$r": 0} for tr in regions[2]["data"][1:])  # the points
    assert "$r" not in regions[2]["data"][0]  # this round's heatmap
    # the matryoshka's heatmap changes only when a level is complete (rounds 2, 4, 8, 16)
    mat = lec["runs"]["matryoshka"]["regions"]
    assert "$r" in mat[5]["data"][0] and "$r" in mat[7]["data"][0]  # rounds 5 and 7
    curves = lec["runs"]["chain"]["curves"]
    assert curves[6]["layout"] == {"$r": 0}  # the round is a trace: one layout for all


def test_regions_are_small_integers_on_a_coarse_grid(lecture) -> None:
    lec, runs, ds = lecture
    z = lh.resolve(lec["runs"]["chain"]["regions"])[9]["data"][0]["z"]
    assert z["dtype"] == "u1" and z["shape"] == f"{fm.GRID}, {fm.GRID}"
    small = lh.resolve(lec["runs"]["chain"]["small"])[9]["data"][0]["z"]
    assert small["shape"] == f"{fm.SMALL_GRID}, {fm.SMALL_GRID}"
    frame = lh.resolve(lec["runs"]["chain"]["regions"])[9]
    assert len(json.dumps(frame["data"][0])) < 6000


def test_chain_grid_equals_its_monte_carlo_q(lecture) -> None:
    _, runs, ds = lecture
    lo, hi = data_extent(ds)
    grids = fm.q_grids(runs["chain"], lo, hi, 20)
    G = fm.grid_points(lo, hi, 20)
    for i in (0, 1, 7, 15):  # 0: the empty chain, ½ everywhere
        model = runs["chain"][i].model
        assert isinstance(model, Chain)
        ref = model.q_pos(G).reshape(20, 20)
        assert np.abs(grids[i] - ref).max() < 1e-3
    tree = runs["tree"][5]
    assert np.allclose(fm.q_grids([tree], lo, hi, 20)[0], tree.model.q_pos(G).reshape(20, 20))


def test_quantise_and_shrink() -> None:
    q = np.linspace(0, 1, 16).reshape(4, 4)
    z = fm.quantise(q)
    assert z.dtype == np.uint8 and z.min() == 0 and z.max() == 100
    assert fm.shrink(q).shape == (2, 2)
    assert fm.typed(z)["shape"] == "4, 4"


def test_payload_and_build_time_at_default_settings() -> None:
    ds = _ds()
    runs = _runs(ds, 16, ("chain", "tree", "matryoshka"))
    started = time.process_time()
    lec = fm.build_lecture(runs, ds, n_weak=16, samples=None, font=12)
    assert time.process_time() - started < 3.0  # about 0.3 s on an idle machine
    sent = {
        k: v
        for k, v in lec["runs"]["matryoshka"].items()
        if k in ("regions", "structure", "curves")
    }
    sent["others"] = [lec["runs"][s][k] for s in ("chain", "tree") for k in ("small", "spark")]
    sent["tables"] = [lec["metrics"], lec["dolls"]]
    assert len(json.dumps(sent)) < 600_000
    assert len(json.dumps(lec)) < 1_500_000  # every run's frames, focused or not


def _pictures(lec: dict, structure: str) -> list[list[str]]:
    return lh.resolve(lec["runs"][structure]["structure"])


def test_pictures_are_svg_at_their_natural_size(lecture) -> None:
    lec, _, _ = lecture
    for s in lec["runs"]:
        for t, options in enumerate(_pictures(lec, s)):
            assert isinstance(options, list) and options
            sizes = []
            for picture in options:
                root = ET.fromstring(picture)
                w, h = float(root.get("width")), float(root.get("height"))
                assert root.get("viewBox") == f"0 0 {w:.0f} {h:.0f}"
                assert root.get("font-size") == "13"  # never shrunk
                sizes.append(w * h)
            assert len(set(options)) == len(options), (s, t)


def test_structure_font_follows_the_presenter_scale() -> None:
    ds = _ds()
    step = _runs(ds, 4, ("tree",))["tree"][-1]
    for font in (13, 17):
        for picture in fm.structure_pictures(step, "tree", names=ds.feature_names, font=font):
            assert ET.fromstring(picture).get("font-size") == str(font)


def test_newest_stump_is_outlined(lecture) -> None:
    lec, runs, _ = lecture
    for s in ("chain", "tree", "collapse"):
        pictures = _pictures(lec, s)
        assert not any(theme.HIGHLIGHT in p for p in pictures[0])  # round 0: nothing yet
        for options in pictures[1:]:
            assert all(theme.HIGHLIGHT in p for p in options), s
    mat = _pictures(lec, "matryoshka")
    assert all(theme.HIGHLIGHT in p for p in mat[4])  # round 4: a new level-1 doll
    assert not any(theme.HIGHLIGHT in p for p in mat[5])  # round 5: nothing new


def test_large_tree_shows_the_neighbourhood_of_the_change() -> None:
    ds = _ds("circles")
    steps = _runs(ds, 32, ("tree",))["tree"]
    options = fm.structure_pictures(steps[-1], "tree", names=ds.feature_names, font=13)
    assert len(options) >= 2
    last = options[-1]
    assert ("▸" in last or "levels above" in last) and theme.HIGHLIGHT in last
    assert "near this round" in last
    folded = fm.structure_pictures(
        _runs(_ds("moons"), 32, ("tree",))["tree"][-1], "tree", names=ds.feature_names, font=13
    )
    assert any(re.search(r"▸ \d+ leaves", p) for p in folded)
    w, h = svg_size(last)
    assert w <= 700 and h <= 800


def test_long_chain_folds_its_earlier_stumps() -> None:
    ds = _ds()
    step = _runs(ds, 32, ("chain",))["chain"][-1]
    options = fm.structure_pictures(step, "chain", names=ds.feature_names, font=13)
    assert "▸ 20 earlier stumps" in options[0] and "h32" in options[0]
    assert theme.HIGHLIGHT in options[-1]


def test_matryoshka_dolls_are_boxes_in_boxes() -> None:
    ds = _ds()
    steps = _runs(ds, 16, ("matryoshka",))["matryoshka"]
    full = fm.structure_pictures(steps[-1], "matryoshka", names=ds.feature_names, font=13)
    assert any("L3 doll · 8 stumps" in p and "L1 doll · 2 stumps" in p for p in full)
    # the least detailed picture folds the dolls into counted boxes
    assert "▸ 8 stumps" in full[-1]
    assert fm.last_stump(steps[-1].model) is fm.newest_stump(steps[-1])


def test_waiting_picture_says_what_comes_and_when(lecture) -> None:
    lec, _, _ = lecture
    assert fm.INITIAL_TITLE in _pictures(lec, "matryoshka")[0][0]  # round 0
    first = _pictures(lec, "matryoshka")[1]  # round 1: no doll yet
    assert len(first) == 1
    text = " ".join(
        t.text or "" for t in ET.fromstring(first[0]).iter("{http://www.w3.org/2000/svg}text")
    )
    # counted in weak classifiers T, whatever the stepper's unit (a round, a level)
    assert "No doll yet" in text and "at T = 2" in text and "L4 at T = 16" in text


def test_hostile_feature_names_are_escaped(hostile) -> None:
    for s, run in hostile["runs"].items():
        for options in lh.resolve(run["structure"]):
            for picture in options:
                ET.fromstring(picture)  # still well-formed XML
                assert "<b>" not in picture and "<script>" not in picture, s
        regions = lh.resolve(run["regions"])[3]
        assert regions["layout"]["xaxis"]["title"]["text"] == "&lt;b&gt;x&lt;/b&gt;&quot;&amp;"
        assert "<script>" not in regions["layout"]["yaxis"]["title"]["text"]
    tree = lh.resolve(hostile["runs"]["tree"]["structure"])[3]
    assert any("&lt;b&gt;x&lt;/b&gt;&quot;&amp;" in p or "y&lt;script&gt;" in p for p in tree)


def test_tables_show_a_dash_for_missing_values(lecture) -> None:
    lec, _, _ = lecture
    rows = {r["run"]: r for r in lh.table(lh.resolve(lec["metrics"])[1])}  # round 1
    # the matryoshka still shows its initial model: no weak classifier, ρ̂ not defined yet
    assert rows["Matryoshka"]["T"] == "0" and rows["Matryoshka"]["ρ̂"] == "—"
    assert rows["Matryoshka"]["M2 (paper)"] == "—"
    # the chain's error is exact at this length (issue 41, item 1): no spread to show
    assert rows["Tree"]["± 2 s.e."] == "—" and rows["Chain"]["± 2 s.e."] == "—"
    assert re.fullmatch(r"\d\.\d{4}", rows["Chain"]["train error"])


def test_choose_keeps_the_last_and_drops_repeats() -> None:
    small = fm.svg(None, 13, title="a")
    big = fm.svg(fm.Pic(2000, 2000, [], 0, 0), 13)
    assert choose([big, small, small]) == [small]
    assert choose([big]) == [big]


def test_f_curve_is_labelled_the_papers_claim_for_the_collapse(lecture) -> None:
    """Issue 24, item 12: F(T, ρ̂) is Bound (8) for a greedy tree of T stumps, but for the
    collapsing tree it needs Grossmann's nesting step: the curve's name, hover and line-end
    label say it is the paper's claim there, as the proof card does. (The matryoshka draws
    the bound its card names instead, F(2, ρ̂): the next test.)"""
    _frames, runs, _ds = lecture
    fig = fm.curves_figure(runs["matryoshka"], 99, structure="matryoshka", n_weak=16)
    assert not [tr for tr in fig["data"] if str(tr.get("name", "")).startswith("F(T")]
    for structure in ("tree", "chain"):
        fig = fm.curves_figure(runs[structure], 99, structure=structure, n_weak=16)
        f_traces = [tr for tr in fig["data"] if str(tr.get("name", "")).startswith("F(T, ρ̂)")]
        assert f_traces, structure
        hovers = [tr["hovertemplate"] for tr in f_traces if "hovertemplate" in tr]
        ends = [a["text"] for a in fig["layout"].get("annotations", []) if "F(T" in a["text"]]
        assert hovers and ends, structure
        for text in [tr["name"] for tr in f_traces] + hovers + ends:
            assert "paper's claim" not in text, (structure, text)
    # issue 41, item 15: the collapsing tree's F(T, ρ̂) is Bound (9) until its first collapse
    # (the card marks it ✓ there) and the paper's claim from the collapse on
    run = steps.rounds(runs["collapse"])
    fig = fm.curves_figure(run, 99, structure="collapse", n_weak=16)
    done = [is_collapsed(s.model) for s in run]
    first = done.index(True)
    assert first > 1, "the test's run collapses late enough to show both parts"
    faint = {
        tr["name"]: _values(tr["y"])
        for tr in fig["data"]
        if str(tr.get("name", "")).startswith("F(T") and tr.get("opacity") == fm.FAINT
    }
    valid, claim = faint["F(T, ρ̂)"], faint["F(T, ρ̂) (paper's claim)"]
    for i, c in enumerate(done):
        assert np.isfinite(valid[i]) == (not c), i
        assert np.isfinite(claim[i]) == (c or i == first - 1), i
    ends = [a["text"] for a in fig["layout"].get("annotations", []) if "F(T" in a["text"]]
    assert ends and all("paper's claim" in e for e in ends), ends  # the end is the claim


def test_f_is_not_a_bound_for_the_collapsing_tree() -> None:
    """Why the label of item 12 is needed: on moons (n = 400, τ = 0.9, T = 16) the collapsing
    tree's valid bound C(T) lies above F(T, ρ̂) at some rounds, so F(T, ρ̂) bounds nothing
    there (it is the paper's nesting claim)."""
    ds = datasets.make_dataset(
        "moons",
        n=400,
        noise=0.3,
        imbalance=0.5,
        label_noise=0.05,
        random_state=0,
        test_fraction=0.25,
    )
    run = matryoshka_runs.prob_run.__wrapped__(ds, "test", "collapse", 16, 0.9, None)
    above = [s.t for s in run if s.metrics.bound_C > s.metrics.bound_F + 1e-12]
    assert above, "expected a round where C(T) > F(T, ρ̂)"


# ------------------------------------------------------- issue 25, 7: a step is what changes
def _values(spec) -> np.ndarray:
    """A typed-array spec of :func:`fm.typed` (or a plain list) as numbers."""
    if isinstance(spec, dict):
        return np.frombuffer(base64.b64decode(spec["bdata"]), dtype=spec["dtype"])
    return np.asarray(spec, dtype=float)


@pytest.fixture(scope="module")
def levels(lecture) -> tuple[dict, dict, tuple[int, ...]]:
    """The page's default runs (chain, tree, matryoshka; T = 16) stepped for the matryoshka."""
    _lec, runs, ds = lecture
    shown = {s: runs[s] for s in ("chain", "tree", "matryoshka")}
    counts = fm.step_counts(shown, "matryoshka")
    lec = fm.build_lecture(shown, ds, n_weak=16, samples=None, font=12, counts=counts)
    return lec, shown, counts


def test_the_matryoshka_focus_steps_by_level_and_every_step_changes_the_picture(levels) -> None:
    """Issue 25, 7: stepping every weak classifier left the matryoshka's regions and dolls
    unchanged at 5–7 and 9–15. Focused, it steps by level (T = 0, 2, 4, 8, 16), and no two
    consecutive frames of its regions or of its dolls are equal; the chain and the tree,
    which change with every weak classifier, keep that step when focused."""
    lec, runs, counts = levels
    assert counts == (0, 2, 4, 8, 16) and lec["counts"] == counts
    assert fm.step_counts(runs, "chain") == fm.step_counts(runs, "tree") == tuple(range(17))
    mat = lec["runs"]["matryoshka"]
    for view in ("regions", "small", "structure", "curves", "spark", "notes", "proof"):
        assert len(mat[view]) == len(counts), view
    regions, dolls = lh.resolve(mat["regions"]), lh.resolve(mat["structure"])
    for k in range(1, len(counts)):
        assert regions[k] != regions[k - 1], k
        assert dolls[k] != dolls[k - 1], k
        assert (
            mat["notes"][k].startswith(f"Level {k}: ")
            and f"{counts[k]} soft stumps" in (mat["notes"][k])
        )


def test_small_multiples_tables_curves_and_proof_follow_the_same_steps(levels) -> None:
    """The other runs, the round tables, the curves' 'this round' line and the proof card
    show step k at counts[k] weak classifiers, as the focused run does."""
    lec, runs, counts = levels
    metrics = lh.resolve(lec["metrics"])
    assert len(metrics) == len(lh.resolve(lec["dolls"])) == len(counts)
    for k, n in enumerate(counts):
        rows = {r["run"]: r for r in lh.table(metrics[k])}
        assert {rows[fm.NAMES[s]]["T"] for s in runs} == {str(n)}, (k, rows)
        for s, run in lec["runs"].items():
            assert len(run["small"]) == len(run["spark"]) == len(counts)
            curves = lh.resolve(run["curves"])[k]
            this_round = curves["data"][0]
            assert list(_values(this_round["x"])) == [n, n], (s, k)
            steps_ = steps.rounds(runs[s])
            shown = steps_[fm.shown_index(steps_, n)]
            assert shown.metrics.n_weak == n
            card = lh.resolve(run["proof"])[k]
            assert fmt(shown.metrics.train_error) in card, (s, k)


def test_matryoshka_chart_and_card_name_the_same_bound(lecture) -> None:
    """Issue 25, 10: the proof card said F(2, ρ̂) where the chart said F(T, ρ̂). The card is
    right: the matryoshka's outer tree has two nodes, whose Z₊ + Z₋ are at most ρ̂ (the largest
    over every node of every level), so C(T) ≤ F(2, ρ̂) by Eq. (9); F(T, ρ̂) of T stumps would
    need the nesting step. The chart now draws the card's quantity, with its value, at every
    level; its labels use real superscripts and subscripts (no caret text)."""
    _lec, runs, _ds = lecture
    run = steps.rounds(runs["matryoshka"])
    for step in run[1:]:
        n = step.metrics.n_weak
        card = grossmann_chain(step).links[1]
        assert card.right_label == "F(2, ρ̂)"
        fig = fm.curves_figure(run, n, structure="matryoshka", n_weak=16)
        named = [tr for tr in fig["data"] if str(tr.get("name", "")).startswith(card.right_label)]
        assert named, [tr.get("name") for tr in fig["data"]]
        x, y = _values(named[0]["x"]), _values(named[0]["y"])
        assert y[list(x).index(n)] == pytest.approx(card.right, rel=1e-6)
        ends = [a["text"] for a in fig["layout"]["annotations"]]
        assert any(e.startswith(card.right_label) for e in ends)
    for structure in runs:
        fig = fm.curves_figure(runs[structure], 4, structure=structure, n_weak=16)
        texts = [str(tr.get("name", "")) for tr in fig["data"]]
        texts += [a["text"] for a in fig["layout"]["annotations"]]
        assert "ρ̂<sup>T</sup>" in texts, structure
        assert not [t for t in texts if "^" in t or "_" in t], (structure, texts)


# ------------------------------------------------------- text alternatives (issue 26, item 5)
def _said(text: str, name: str) -> float:
    """The number a description says after ``name``."""
    found = re.search(rf"{re.escape(name)} (-?\d+(?:\.\d+)?(?:e-?\d+)?)", text)
    assert found, (name, text)
    return float(found.group(1))


def _dots(frame: dict) -> dict[str, float]:
    """The curves' marker at the snapshot shown, by line name (finite values only)."""
    out = {}
    for tr in frame["data"]:
        if tr.get("mode") == "markers" and tr.get("name"):
            y = _values(tr.get("y", []))
            if y.size == 1 and np.isfinite(y[0]):
                out[tr["name"]] = float(y[0])
    return out


def test_descriptions_one_plain_sentence_per_step(lecture, levels) -> None:
    from tests.ui.test_descriptions import assert_plain_and_one_per_round

    for lec in (lecture[0], levels[0]):
        for run in lec["runs"].values():
            assert_plain_and_one_per_round(run["descriptions"], len(run["notes"]))


def test_descriptions_state_what_the_frames_draw(levels) -> None:
    """Every step of every run (the matryoshka focused: its levels): the curves' sentence
    says every value marked, the regions' the same training error and the newest stump's
    threshold drawn, the structure's the stumps, leaves and dolls of the snapshot."""
    lec, runs, counts = levels
    for structure, run in lec["runs"].items():
        d = run["descriptions"]
        curves, regions = lh.resolve(run["curves"]), lh.resolve(run["regions"])
        rounds = steps.rounds(runs[structure])
        for k, t in enumerate(counts):
            dots = _dots(curves[k])
            said = [n for n in fm.SPOKEN if f"{fm.SPOKEN[n]} " in d["curves"][k]]
            assert {fm.SPOKEN[n] for n in said} == {fm.SPOKEN[n] for n in dots}, d["curves"][k]
            for name, value in dots.items():
                # two decimals of a float32: within half a hundredth and a little
                assert abs(_said(d["curves"][k], fm.SPOKEN[name]) - value) <= 0.0051, name
            err = _said(d["regions"][k], "expected training error")
            assert err == _said(d["curves"][k], "expected training error")
            lines = [s for s in regions[k]["layout"].get("shapes", []) if s["type"] == "line"]
            if lines:
                theta = lines[0]["x0"] if lines[0]["x0"] == lines[0]["x1"] else lines[0]["y0"]
                side = re.search(r"is (above|below) (-?[\d.]+)", d["regions"][k])
                assert side and abs(float(side.group(2)) - theta) <= 0.0051
            else:
                assert "newest soft stump" not in d["regions"][k]
            step = rounds[fm.shown_index(rounds, t)]
            model = step.model
            if t == 0:
                assert d["structure"][k].startswith("The initial model: one leaf")
            elif isinstance(model, Chain):
                assert d["structure"][k].startswith(f"Chain of {len(model.stumps)} soft stump")
            else:
                leaves = len(model.leaves)
                assert f" {leaves} leaves" in d["structure"][k], d["structure"][k]
            if structure == "matryoshka" and k >= 2:
                assert f"Matryoshka of {t} soft stumps" in d["structure"][k]
                assert f"dolls nested {k - 1} deep" in d["structure"][k]
