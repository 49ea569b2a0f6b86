"""Unit tests of ui/pages/oblique/frames/: the oblique page's lecture frames (no Streamlit run).

Every plotly frame must rebuild as a validated ``go.Figure``; every view has one frame per
stepper position; regions are small ``uint8`` heatmaps with SVG markers; SVG pictures carry
their natural size and legible text; every text from the data (feature names) is escaped.
"""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from boostcore import datasets, steps
from tests import lecture_helpers as lh
from ui.pages.oblique import frames as fo
from ui.pages.oblique import runs as oblique_runs

HOSTILE = '<b>x</b>"&'


def _ds(name: str = "moons", n: int = 200, names=None, seed: int = 0) -> datasets.Dataset:
    ds = datasets.make_dataset(name, n=n, noise=0.3, random_state=seed, test_fraction=0.25)
    if names is not None:
        ds = dataclasses.replace(ds, feature_names=names)
    return ds


def _runs(ds, T2: int = 3, T1: int = 4, learner: str = "stump", rule: str = "breadth_first"):
    return {
        fo.ADA: oblique_runs.g1_path_run.__wrapped__(ds, "k", T2 * T1, "stump"),
        fo.KM: oblique_runs.g1_tree_run.__wrapped__(ds, "k", T2, "max_decrease"),
        fo.ODT: oblique_runs.odt_run.__wrapped__(ds, "k", T2, T1, learner, rule),
    }


def _lecture(ds, runs, *, inner: bool = False, font: float = 12, learner: str = "stump"):
    return fo.build_lecture(
        ds,
        runs,
        inner=inner,
        font=font,
        learner=learner,
        peers=lambda n: oblique_runs.axis_parallel_peers.__wrapped__(ds, "k", n),
    )


@pytest.fixture(scope="module")
def plain():
    ds = _ds()
    runs = _runs(ds)
    return ds, runs, _lecture(ds, runs)


@pytest.fixture(scope="module")
def inner():
    ds = _ds("diagonal_xor", n=240, seed=1)
    runs = _runs(ds, T2=2, T1=4)
    return ds, runs, _lecture(ds, runs, inner=True)


def _at(frames, t: int):
    """The frame at position ``t`` of a list of encoded frames."""
    return lh.resolve(frames)[t]


def _svgs(frames) -> list[str]:
    out = []
    for f in lh.resolve(frames):
        out += f if isinstance(f, list) else [f]
    return out


VIEWS = ("regions", "small", "structure", "curves", "spark")


@pytest.mark.parametrize("case", ["plain", "inner"])
def test_one_frame_per_position_and_valid_plotly(case, request) -> None:
    ds, runs, lec = request.getfixturevalue(case)
    n = lec["n"]
    assert n == len(oblique_runs.odt_schedule(runs[fo.ODT], case == "inner"))
    for name in fo.ORDER:
        run = lec["runs"][name]
        for v in VIEWS:
            assert len(run[v]) == n, (name, v)
        assert len(run["notes"]) == n
        for v in ("regions", "small", "curves", "spark"):
            for frame in lh.resolve(run[v]):
                go.Figure(frame)  # validates every property
        # the frames are JSON as sent
        json.dumps(run)
    for table in ("inner", "peers", "metrics"):
        assert len(lec[table]) == n


def test_regions_are_small_uint8_heatmaps_with_svg_markers(plain) -> None:
    ds, _, lec = plain
    for name in fo.ORDER:
        for key in ("regions", "small"):
            frame = _at(lec["runs"][name][key], 1)
            heat = frame["data"][0]
            assert heat["type"] == "heatmap" and heat["z"]["dtype"] == "u1"
            rows, cols = (int(s) for s in heat["z"]["shape"].split(","))
            assert max(rows, cols) <= 80
            kinds = {tr["type"] for tr in frame["data"][1:]}
            assert "scattergl" not in kinds
            sizes = frame["data"][1]["marker"]["size"]
            assert sizes["dtype"] == "u1"  # marker size = weight, as small integers


def test_old_boundaries_are_sent_once(plain) -> None:
    """A node's boundary keeps its trace slot and bytes from step to step, so the frame
    codec replaces it by a reference."""
    _, runs, lec = plain
    frames = lec["runs"][fo.ODT]["regions"]
    last = frames[-1]["data"]
    refs = [tr for tr in last if isinstance(tr, dict) and "$r" in tr]
    assert len(refs) >= 2  # test points and the first node's boundary at least


def test_svg_pictures_have_natural_size_and_legible_text(plain) -> None:
    for font, least in ((12, 12), (12 * 1.3, 15.6)):
        ds, runs, _ = plain
        lec = _lecture(ds, runs, font=font)
        for name in fo.ORDER:
            for svg in _svgs(lec["runs"][name]["structure"]):
                m = re.match(
                    r'<svg [^>]*width="(\d+)" height="(\d+)" viewBox="0 0 (\d+) (\d+)"', svg
                )
                assert m, svg[:120]
                assert m.group(1) == m.group(3) and m.group(2) == m.group(4)
                sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
                assert min(sizes) >= least - 0.5, (name, min(sizes))


def test_regions_and_curves_fonts_follow_presenter_scale(plain) -> None:
    ds, runs, _ = plain
    big = _lecture(ds, runs, font=12 * 1.3)
    frame = _at(big["runs"][fo.ODT]["curves"], 1)
    assert frame["layout"]["font"]["size"] == pytest.approx(15.6)
    for ann in frame["layout"]["annotations"]:
        assert ann["font"]["size"] >= 12


def test_hostile_feature_names_are_escaped() -> None:
    ds = _ds(names=(HOSTILE, "y"))
    runs = _runs(ds)
    lec = _lecture(ds, runs)
    text = json.dumps(lec, ensure_ascii=False)
    pictures = [s for name in fo.ORDER for s in _svgs(lec["runs"][name]["structure"])]
    tables = [t for key in ("inner", "peers", "metrics") for t in lh.resolve(lec[key])]
    for markup in pictures + tables:
        assert "<b>x</b>" not in markup
    assert any("&lt;b&gt;x&lt;/b&gt;" in p for p in pictures)  # the KM tree names its feature
    assert any("&lt;b&gt;x" in t for t in tables)  # AdaBoost_R's stumps
    assert "&amp;" in text


def test_adaboost_at_step_0_says_what_will_appear(plain) -> None:
    _, runs, lec = plain
    ada = lec["runs"][fo.ADA]
    pictures = _at(ada["structure"], 0)
    assert len(pictures) == 1 and "step 1" in pictures[0] and "empty" in pictures[0]
    regions = _at(ada["regions"], 0)
    assert "step 1" in regions["layout"]["annotations"][0]["text"]
    curves = _at(ada["curves"], 0)
    assert any("step 1" in a["text"] for a in curves["layout"]["annotations"])
    assert lh.note_at(ada, 0).startswith("H = 0")
    # from step 1 on, its path shows the stumps BoostODT's root used
    first = _at(ada["structure"], 1)[0]
    used = len(runs[fo.ODT][1].inner)
    assert f"h{used} =" in first and f"h{used + 1} =" not in first


def test_large_tree_shows_the_neighbourhood_not_a_shrunk_tree() -> None:
    ds = _ds(n=400)
    runs = _runs(ds, T2=15, T1=3)
    lec = _lecture(ds, runs)
    last = _at(lec["runs"][fo.ODT]["structure"], lec["n"] - 1)
    assert len(last) >= 3
    widths = [float(re.search(r'width="(\d+)"', s).group(1)) for s in last]
    assert widths[-1] < widths[0]  # fallbacks are narrower, not scaled
    assert "collapsed" in last[1] and "▸" in last[1]
    fonts = {re.search(r'font-size="([\d.]+)"', s).group(1) for s in last}
    assert fonts == {"13"}  # the same text size in every option


def test_shown_at_last_position_matches_the_exported_numbers(plain) -> None:
    """The page's last stepper position is what tests/ui/test_exports.py expects the script to
    print: AdaBoost after as many stumps as BoostODT used, the KM tree at the same size."""
    _, runs, lec = plain
    schedule = oblique_runs.odt_schedule(runs[fo.ODT], False)
    i, _, used = schedule[-1]
    shown = fo.shown_at(runs, schedule, len(schedule) - 1)
    # every run shows one of its rounds t = 0 … T (the index is t, the stop is not shown)
    ada, km = steps.rounds(runs[fo.ADA]), steps.rounds(runs[fo.KM])
    assert runs[fo.ADA][shown[fo.ADA].idx] is ada[min(used, len(ada) - 1)]
    assert ada[shown[fo.ADA].idx].t == min(used, len(ada) - 1)
    assert shown[fo.KM].idx == min(i, len(km) - 1)
    assert shown[fo.ODT].idx == i == len(steps.rounds(runs[fo.ODT])) - 1


def test_inner_weights_reproduce_adaboost_r(inner) -> None:
    """The weights drawn while a node is built are AdaBoost_R's: each recorded μ_j is the
    edge of s_j on them."""
    ds, runs, _ = inner
    for step in runs[fo.ODT]:
        if not step.inner:
            continue
        idx = step.node_index
        y = ds.y_train[idx]
        for r in step.inner:
            w = fo.inner_weights(step, r.j, ds.X_train, ds.y_train)
            h = r.hyp(ds.X_train[idx])
            assert (w * y * h).sum() / (r.R * w.sum()) == pytest.approx(r.mu, abs=1e-9)


def test_inner_stepping_draws_the_partial_separator(inner) -> None:
    ds, runs, lec = inner
    schedule = oblique_runs.odt_schedule(runs[fo.ODT], True)
    k = next(k for k, (_, j, _) in enumerate(schedule) if j == 1)
    assert lh.note_at(lec["runs"][fo.ODT], k).startswith("Building node 0: LS so far has 1")
    pics = _at(lec["runs"][fo.ODT]["structure"], k)
    assert "building 1/" in pics[0]
    line = _at(lec["runs"][fo.ODT]["regions"], k)["data"][5]
    assert line["name"] == "this step" and len(line["x"]) > 1


def test_polylines_join_the_marching_squares_segments() -> None:
    xs = np.linspace(-1, 1, 41)
    ys = np.linspace(-1, 1, 41)
    X, Y = np.meshgrid(xs, ys)
    field = (X**2 + Y**2 - 0.47).ravel()
    px, py = fo.polylines(xs, ys, field, 6)
    assert px.count(None) == 0  # one closed circle: a single polyline
    r = np.hypot(np.array(px, dtype=float), np.array(py, dtype=float))
    assert np.allclose(r, np.sqrt(0.47), atol=0.01)
    assert px[0] == px[-1] and py[0] == py[-1]


def test_default_payload_stays_small() -> None:
    """The page's default settings (T2 = 7, T1 = 10, 400 points): the whole lecture dict is
    under 1 MB. (Its build time is not asserted: a timed test fails on a loaded machine — it
    did, 2.9 s against a 2 s bound, beside two other test runs; benchmarks/bench_oblique.py
    times the page.)"""
    ds = datasets.make_dataset("moons", n=400, noise=0.3, random_state=0, test_fraction=0.25)
    runs = _runs(ds, T2=7, T1=10)
    lec = _lecture(ds, runs)
    assert len(json.dumps(lec)) < 1_000_000


def test_one_frame_per_round_from_round_0_and_the_stop_reason_last(plain) -> None:
    """Frame count = T + 1: round 0 is the initial model of every run (AdaBoost's H = 0, the
    trees' root alone), the stop snapshot has no frame of its own and its reason closes the
    last frame's notes."""
    _, runs, lec = plain
    odt = steps.rounds(runs[fo.ODT])
    assert lec["n"] == len(odt) == odt[-1].t + 1
    shown = fo.shown_at(runs, oblique_runs.odt_schedule(runs[fo.ODT], False), 0)
    assert {name: runs[name][shown[name].idx].t for name in fo.ORDER} == dict.fromkeys(fo.ORDER, 0)
    assert lh.note_at(lec["runs"][fo.ODT], 0).startswith("BoostODT: the root alone")
    assert "Round 0" in lh.resolve(lec["inner"])[0]
    last = lec["n"] - 1
    for name in (fo.ODT, fo.KM):
        note = lh.note_at(lec["runs"][name], last)
        # the reason in the page's words: "All 7 splits are done." (no "n_internal = 7")
        assert note.endswith(fo.said(steps.stop_reason(runs[name]))), (name, note)
        assert "n_internal" not in note
    # every round's numbers, AdaBoost's H = 0 included (Theorem 1's empty product is 1)
    rows = lh.table(lh.resolve(lec["metrics"])[0])
    ada = next(r for r in rows if r["method"] == fo.ADA)
    assert ada["step"] == "0 stumps" and float(ada["Theorem 1 bound"]) == 1.0
    assert float(ada["E e⁻ʸᴴ"]) == 1.0


def test_an_early_stop_ends_on_its_last_round_with_the_reason() -> None:
    """BoostODT runs out of splittable leaves before T2: no extra frame for the stop, the
    last frame is its last split and says why it ended."""
    ds = _ds("moons", n=60, seed=0)
    ds = dataclasses.replace(ds, X_train=ds.X_train[:12], y_train=ds.y_train[:12])
    runs = _runs(ds, T2=12, T1=2)
    odt = runs[fo.ODT]
    assert odt[-1].t < 12 and "no leaf can be split" in steps.stop_reason(odt)
    lec = _lecture(ds, runs)
    assert lec["n"] == odt[-1].t + 1
    note = lh.note_at(lec["runs"][fo.ODT], lec["n"] - 1)
    assert note.endswith(steps.stop_reason(odt))


# ------------------------------------------------------- text alternatives (issue 26, item 5)
def _array(v) -> np.ndarray:
    """A trace's x or y: a typed array (base64) or a list."""
    import base64

    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).astype(float)
    return np.asarray(v, dtype=float)


def _marked(frame: dict) -> dict[str, float]:
    """The curves' marker at this position of each line (a marker trace follows its named
    lines), finite values only: the log axis leaves a 0 out."""
    out, name = {}, None
    for tr in frame["data"]:
        if tr.get("name"):
            name = tr["name"]
        elif tr.get("mode") == "markers" and name is not None:
            y = _array(tr.get("y", []))
            if y.size == 1 and np.isfinite(y[0]):
                out[name] = float(y[0])
    return out


def _number(text: str, after: str) -> float:
    found = re.search(rf"{re.escape(after)} (minus )?(\d+(?:\.\d+)?)", text)
    assert found, (after, text)
    return (-1 if found.group(1) else 1) * float(found.group(2))


@pytest.fixture(scope="module")
def hyperplane():
    ds = _ds("diagonal_xor", n=240, seed=1)
    runs = _runs(ds, T2=2, T1=4, learner="hyperplane")
    return ds, runs, _lecture(ds, runs, inner=True, learner="hyperplane")


@pytest.mark.parametrize("case", ["plain", "inner", "hyperplane"])
def test_descriptions_state_what_the_frames_draw(case, request) -> None:
    from tests.ui.test_descriptions import assert_plain_and_one_per_round

    ds, runs, lec = request.getfixturevalue(case)
    schedule = [tuple(p) for p in lec["schedule"]]
    for name in fo.ORDER:
        run = lec["runs"][name]
        d = run["descriptions"]
        assert_plain_and_one_per_round(d, len(run["notes"]))
        curves = lh.resolve(run["curves"])
        snapshots = steps.rounds(runs[name])
        for k in range(lec["n"]):
            marked = _marked(curves[k])
            assert marked, (name, k)
            for line, value in marked.items():  # within rounding to two decimals (float32)
                assert abs(_number(d["curves"][k], fo.SPOKEN[line]) - value) <= 0.0051, line
            err = _number(d["regions"][k], "training error")
            assert err == _number(d["curves"][k], "training error")
            sh = fo.shown_at(runs, schedule, k, ds.feature_names)[name]
            step = snapshots[sh.idx]
            if name == fo.ADA:
                assert f"after {step.t} stump" in d["regions"][k] or sh.idx == 0
                continue
            leaves = len(step.tree.leaves)
            assert f" with {leaves} lea" in d["structure"][k], d["structure"][k]
            sep = sh.partial if sh.partial is not None else step.separator
            if sh.partial is None and step.node is not None:
                assert f"split leaf #{step.node} by " in d["structure"][k]
            if sep is None:
                continue
            aff = sep.affine(2)
            if aff is not None:  # the line said is the separator's
                coef, b = aff
                text = d["structure"][k]
                for i, c in enumerate(coef):
                    if c:
                        said = re.search(rf"(minus )?(\d+\.\d+) times {ds.feature_names[i]}", text)
                        assert said and abs(float(said.group(2)) - abs(c)) <= 0.0051, text
                        assert (said.group(1) is not None) == (c < 0), text
            elif len(sep) == 1:
                h = sep.hyps[0]
                said = _number(d["structure"][k], f"{ds.feature_names[h.feature]} >")
                assert abs(said - h.threshold) <= 0.0051
    if case == "hyperplane":
        assert any("the line " in s for s in lec["runs"][fo.ODT]["descriptions"]["structure"])
