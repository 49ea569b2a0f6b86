"""AppTest for the divide-and-merge page (lecture view): every scheme and option, the focused
run and the small multiples, stepping as the browser does, presets, exports."""

from __future__ import annotations

import functools

import pytest

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh

VIEWS = ("lv_regions_{}", "lv_program_{}", "lv_curves_{}")


_page = functools.partial(ah.page, "branching")


def _slug(name: str) -> str:
    return name.replace(".", "_")


@pytest.mark.parametrize("scheme", ["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"])
@pytest.mark.parametrize("wl", ["H(Y|h)", "divided leaves"])
def test_each_scheme_and_weak_learner(scheme: str, wl: str) -> None:
    at = _page(schemes=scheme, wl=wl, T="8")
    ah.ok(at)
    assert at.selectbox(key="focus").value == scheme
    v = lh.views(at)
    assert {k.format(_slug(scheme)) for k in VIEWS} <= set(v)
    assert not [k for k in v if k.startswith(("lv_small_", "lv_spark_"))]  # no other runs
    hi = lh.stepper(at)["hi"]
    lh.step_to(at, hi)
    ah.ok(at)
    assert lh.stepper(at)["t"] == hi == 8
    row = lh.round_table(at, "lv_metrics", hi)
    assert list(row) == [scheme] and row[scheme]["round"] == "8"
    assert ("lv_groups" in lh.views(at)) == (scheme == "BP.InfoBoost")


@pytest.mark.parametrize("data", ["moons", "xor", "stripes", "checkerboard"])
def test_datasets_and_c(data: str) -> None:
    at = _page(data=data, c="0.9", T="6")
    ah.ok(at)
    v = lh.views(at)
    assert {k.format("BP_InfoBoost") for k in VIEWS} <= set(v)  # the main scheme is focused
    for other in ("InfoBoost", "DT_InfoBoost"):  # the others as small multiples
        assert {f"lv_small_{other}", f"lv_spark_{other}"} <= set(v)
        assert v[f"lv_small_{other}"]["focusable"] == other.replace("_", ".")
    assert len(lh.views(at, "plotly")) == 2 + 2 * 2 + 1  # + Theorem 3 at this round
    assert len(at.get("plotly_chart")) == 0  # no whole-run c sweep any more
    for name, view in v.items():  # every view holds one frame per round (rounds 0 … 6)
        if name != "lv_groups" and view["kind"] != "html":
            assert "first" not in view
            assert len(view["frames"]) == 7, name


def test_stepping_changes_the_shown_round() -> None:
    at = _page(T="5")
    st_ = lh.stepper(at)
    assert st_["lo"] == 0 and st_["hi"] == 5  # round 0 is the initial model F_0 = 0
    start = st_["t"]
    assert start >= 2  # a fresh page opens where the focused scheme first merges children
    regions = lh.views(at)["lv_regions_BP_InfoBoost"]
    assert lh.note_at(regions, 0).startswith("Round 0: the initial model")
    assert lh.note_at(regions, 1).startswith("Round 1:")
    assert lh.note_at(regions, 5).startswith("All T = 5 rounds are done. Round 5:")
    assert lh.note_at(regions, 4).startswith("Round 4:")
    program = lh.views(at)["lv_program_BP_InfoBoost"]
    assert "merge" in lh.note_at(program, start)
    groups = lh.views(at)["lv_groups"]
    assert "Round 2:" in lh.frame_at(groups, 2)
    assert "Round 0: no groups yet" in lh.frame_at(groups, 0)
    assert lh.note_at(program, 0).startswith("Round 0: the program is its root")
    assert lh.round_table(at, "lv_metrics", 0)["BP.InfoBoost"]["round"] == "0"
    lh.step_to(at, 0)
    ah.ok(at)
    assert lh.stepper(at)["t"] == 0
    lh.step_to(at, 4)
    ah.ok(at)
    assert lh.stepper(at)["t"] == 4 and at.query_params["round"] in ("4", ["4"])
    assert lh.round_table(at, "lv_metrics", 4)["BP.InfoBoost"]["round"] == "4"


def test_program_pictures_fit_a_panel_with_text_at_full_size() -> None:
    """Every round offers pictures from the most to the least detailed; the last one is
    small enough for a small panel, and the text size is the same in all of them."""
    at = _page(T="20", schemes="DT.InfoBoost")
    ah.ok(at)
    view = lh.views(at)["lv_program_DT_InfoBoost"]
    for t in (0, 1, 10, 20):
        pics = lh.frame_at(view, t)
        assert isinstance(pics, list) and pics
        assert all('font-size="13"' in p for p in pics)
        w, h = (float(pics[-1].split(f'{a}="', 1)[1].split('"', 1)[0]) for a in ("width", "height"))
        assert w <= 340 and h <= 300, (t, w, h)
    assert "more" in lh.frame_at(view, 20)[0] and "collapsed" in lh.frame_at(view, 20)[-1]


@pytest.mark.parametrize("focus", ["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"])
def test_focus_follows_the_link_and_a_click(focus: str) -> None:
    at = _page(focus=focus, T="6")
    ah.ok(at)
    assert at.selectbox(key="focus").value == focus
    assert {k.format(_slug(focus)) for k in VIEWS} <= set(lh.views(at))
    other = "DT.InfoBoost" if focus != "DT.InfoBoost" else "InfoBoost"
    at.session_state["focus"] = other  # what clicking a small multiple does
    at.run()
    ah.ok(at)
    v = lh.views(at)
    assert {k.format(_slug(other)) for k in VIEWS} <= set(v)
    assert f"lv_small_{_slug(focus)}" in v and f"lv_small_{_slug(other)}" not in v


def test_a_focus_not_among_the_schemes_falls_back() -> None:
    at = _page(schemes=["InfoBoost", "DT.InfoBoost"], T="4")
    ah.ok(at)
    assert at.selectbox(key="focus").value == "InfoBoost"  # BP.InfoBoost is not compared


def test_presets_and_their_claims() -> None:
    at = _page()
    at.selectbox(key="bp_preset").select("overfit").run()
    ah.ok(at)
    hi = lh.stepper(at)["hi"]
    rows = lh.round_table(at, "lv_metrics", hi)
    assert float(rows["DT.InfoBoost"]["test error"]) > float(rows["BP.InfoBoost"]["test error"])
    assert int(rows["DT.InfoBoost"]["|L_t|"]) > 10 * int(rows["BP.InfoBoost"]["|L_t|"])
    at.selectbox(key="bp_preset").select("merge_all").run()
    ah.ok(at)
    hi = lh.stepper(at)["hi"]
    rows = lh.round_table(at, "lv_metrics", hi)
    assert float(rows["DT.InfoBoost"]["Π Z"]) < float(rows["InfoBoost"]["Π Z"]) / 2


def test_exports_offer_every_program_as_dot_and_svg() -> None:
    at = ah.open_export(_page(T="6", round="3"))
    ah.ok(at)
    labels = [b.proto.label for b in at.get("download_button")]
    for name in ("InfoBoost", "BP.InfoBoost", "DT.InfoBoost"):
        assert f"{name}: program at round 3 as DOT" in labels
        assert f"{name}: program at round 3 as SVG" in labels


def test_presenter_mode_enlarges_every_view() -> None:
    plain, big = _page(T="6"), _page(T="6", present="true")
    for at in (plain, big):
        ah.ok(at)
    for key, view in lh.views(plain, "plotly").items():
        small_font = lh.frame_at(view, 1)["layout"]["font"]["size"]
        large_font = lh.frame_at(lh.views(big, "plotly")[key], 1)["layout"]["font"]["size"]
        # presenter mode's 1920-px design: 22 px (12 normally); the browser scales it
        assert large_font == pytest.approx(small_font * 22 / 12, abs=0.5), key
    pic = lh.frame_at(lh.views(big)["lv_program_BP_InfoBoost"], 2)[0]
    assert 'font-size="23"' in pic  # 13 px × 22/12 (the program's text is a size larger)


def test_no_scheme_warns() -> None:
    at = _page()
    at.multiselect(key="schemes").set_value([]).run()
    ah.ok(at)
    assert any("at least one merging scheme" in w.value for w in at.warning)


def test_theorem_3_size_bound_has_the_corrected_denominator() -> None:
    """The paper prints log(1+1/c); the bound the band count follows is log((1+c)/(2c))
    (issue 14, B.1): at c = 0.95, γ = 0.05 the real 4K is 1,036, not the printed form's 33."""

    from boostcore import bounds

    at = ah.page("branching")
    latex = " ".join(e.proto.body for e in at.get("latex"))
    assert r"\log((1+c)/(2c))" in latex and r"\log(1+1/c)" not in latex
    assert 4 * bounds.band_count(0.95, 0.05) == 1036


def test_lemma_3_remark_is_about_dt_infoboost_only() -> None:
    """'h_{t+1} must bring new information' is the paper's remark about DT.InfoBoost; with
    merging an earlier stump can be picked again (issue 14, B.2)."""

    at = ah.page("branching")
    text = " ".join(m.value for m in at.markdown)
    assert "must bring information the program does not already have" not in text
    assert "For **DT.InfoBoost**" in text and "picked again" in text


def test_c_is_shown_per_round_not_as_a_whole_run_trend() -> None:
    """Theorem 3 is a per-round statement for one D_t (issue 14, B.3): the whole-run claim
    'larger c: more leaves and a smaller Π Z_t' is gone; the page shows, at every round, that
    round's children merged with every c, and says what holds."""
    at = _page(T="6", c="0.5")
    ah.ok(at)
    captions = " ".join(c.value for c in at.caption)
    for z in ("Π Z_t", "Π Zₜ"):
        assert f"Larger c: more bands, so more leaves and a smaller {z}" not in captions
    assert "statement about one round" in captions and "not nested" in captions
    assert "1 − cγₜ" in captions
    view = lh.views(at)["lv_c_round"]
    assert "first" not in view and len(view["frames"]) == 7  # rounds 0 … 6
    assert lh.note_at(view, 0).startswith("Round 0: the initial model")
    frame = lh.frame_at(view, 2)
    names = [tr.get("name") for tr in frame["data"]]
    h_name, bound_name = "H(Y|ℓ<sub>t</sub>)", "bound 1 − cγ<sub>t</sub>"  # typeset names
    assert {h_name, bound_name, "|L<sub>t</sub>|", "4K"} <= set(names)
    h = next(tr for tr in frame["data"] if tr.get("name") == h_name)
    bound = next(tr for tr in frame["data"] if tr.get("name") == bound_name)
    g = bound["y"][0] - bound["y"][1]  # the bound runs from (0, 1) to (1, 1 − γ_t)
    for c, value in zip(h["x"], h["y"]):
        assert value <= 1 - c * g + 1e-9
    assert "for every c, 1 − γ<sub>t</sub> ≤ H(Y|ℓ<sub>t</sub>) ≤ 1 − cγ<sub>t</sub>" in lh.note_at(
        view, 2
    )


def test_leaf_count_says_what_it_counts() -> None:
    """|L_t| counts the leaves training points reach, for every scheme (issue 14, B.4)."""
    at = _page(T="4")
    ah.ok(at)
    captions = " ".join(c.value for c in at.caption)
    assert "|Lₜ| counts the same thing for every scheme" in captions
    assert "at least one training point reaches" in captions


def test_theory_says_when_the_two_bounds_coincide_and_shows_the_floor() -> None:
    """Issue 24, item 8: merge all gives Z_t = H(Y|h_t) only on rounds without a one-class
    side (smoothing), so the theory box no longer says the two bounds coincide without a
    condition; and it names Theorem 2's floor for every scheme (item 14)."""
    at = ah.page("branching")
    text = " ".join(m.value for m in at.markdown)
    assert "the two bounds coincide until a round smooths a one-class side" in text
    assert "$Z_t=H_{D_t}(Y\\mid h_t)$: the two bounds coincide." not in text
    assert "For every scheme Theorem 2 gives the floor" in text
