"""AppTest for the probabilistic boosting page (lecture view): every structure, stepping,
the first screens, the doll table, focus and exports."""

from __future__ import annotations

import functools
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import theme

STRUCTS = {
    "Chain (prob. AdaBoost)": "chain",
    "Tree": "tree",
    "Matryoshka": "matryoshka",
    "Greedy collapse (§5.4)": "collapse",
}
SHORT = {"chain": "Chain", "tree": "Tree", "matryoshka": "Matryoshka", "collapse": "Collapse"}


_page = functools.partial(ah.page, "matryoshka")


def _metrics(at: AppTest, t: int) -> dict[str, dict[str, str]]:
    return lh.round_table(at, "lv_metrics", t)


@pytest.mark.parametrize("struct", list(STRUCTS))
def test_each_structure_steps_to_the_end(struct: str) -> None:
    at = _page(struct=struct, Tw="8")
    ah.ok(at)
    s = STRUCTS[struct]
    views = lh.views(at)
    assert {f"lv_regions_{s}", f"lv_structure_{s}", f"lv_curves_{s}", "lv_metrics"} <= set(views)
    assert not any(k.startswith("lv_small_") for k in views)  # one run: no small multiples
    st_ = lh.stepper(at)
    # step 0: the initial model; then every weak classifier, or the matryoshka's levels
    last = 3 if s == "matryoshka" else 8
    assert (st_["lo"], st_["hi"]) == (0, last)
    assert st_["label"] == ("Level" if s == "matryoshka" else "Weak classifiers used")
    for v in views.values():  # one frame per step of the stepper
        assert len(v["frames"]) == last + 1 and "first" not in v
    lh.step_to(at, last)
    ah.ok(at)
    assert lh.stepper(at)["t"] == last
    row = _metrics(at, last)[SHORT[s]]
    assert row["T"] == "8"
    # every structure's error is exact at T = 8 (the chain's too: issue 41, item 1)
    assert row["± 2 s.e."] == "—"
    slack = 1e-9
    assert float(row["train error"]) <= float(row["C(T) / Π Z (valid)"]) + slack
    assert lh.note_at(views[f"lv_regions_{s}"], last).endswith(
        "Stopped: All L = 3 levels are built: the doll holds 2<sup>L</sup> = 8 soft stumps."
        if s == "matryoshka"
        else "Stopped: All T = 8 weak classifiers are trained (the budget)."
    )
    lh.step_to(at, 0)
    ah.ok(at)
    row = _metrics(at, 0)[SHORT[s]]
    assert (row["T"], row["train error"], row["C(T) / Π Z (valid)"]) == ("0", "0.5000", "1.0000")
    assert "Round 0: the initial model" in lh.frame_at(views[f"lv_structure_{s}"], 0)[0]


def test_first_screen_shows_the_first_doll_inside_a_doll() -> None:
    at = _page()
    ah.ok(at)
    st_ = lh.stepper(at)
    # the matryoshka focused: one step per level (T = 0, 2, 4, 8, 16); level 2, dolls as nodes
    assert (st_["lo"], st_["hi"], st_["t"], st_["label"]) == (0, 4, 2, "Level")
    assert "T = 0, 2, 4, 8, 16 weak classifiers" in st_["caption"]
    assert at.selectbox(key="focus").value == "Matryoshka"
    v = lh.views(at)
    assert {"lv_small_chain", "lv_spark_chain", "lv_small_tree", "lv_spark_tree"} <= set(v)
    picture = lh.frame_at(v["lv_structure_matryoshka"], 2)[0]
    assert "L1 doll" in picture and theme.HIGHLIGHT in picture  # the new doll, outlined
    assert lh.note_at(v["lv_regions_matryoshka"], 2).startswith("Level 2: a two-node tree")
    assert lh.note_at(v["lv_regions_matryoshka"], 1).startswith("Level 1: ")
    # the other runs and the table are shown at the same counts: 4 weak classifiers
    assert {row["T"] for row in _metrics(at, 2).values()} == {"4"}


def test_before_the_first_doll_the_small_picture_says_what_comes_and_when() -> None:
    """With the chain focused the page steps every weak classifier: the matryoshka's small
    picture says, before its first doll, at which T it comes."""
    at = _page(tau="0.9", Tw="4", focus="Chain")
    ah.ok(at)
    assert (lh.stepper(at)["hi"], lh.stepper(at)["t"]) == (4, 4)
    v = lh.views(at)
    small = lh.frame_at(v["lv_small_matryoshka"], 1)
    assert "T = 2" in small["layout"]["annotations"][0]["text"]
    assert _metrics(at, 1)["Matryoshka"]["T"] == "0"  # still the initial model
    assert _metrics(at, 3)["Matryoshka"]["T"] == "2"  # between levels: the last doll
    lh.step_to(at, 2)
    ah.ok(at)
    assert lh.stepper(at)["t"] == 2


def test_an_old_round_link_opens_at_the_level_holding_its_count() -> None:
    """Issue 25, 7: ?round= counted weak classifiers before the matryoshka stepped by level.
    A value above the last level can only be such a count: it opens the level holding it
    (?round=12 at T = 16: level 3, 8 stumps; was the last level if merely clamped). A value
    up to the last level is a level; a chain or tree focus still counts weak classifiers."""
    for value, level in (("12", 3), ("16", 4), ("7", 2), ("99", 4), ("3", 3), ("0", 0)):
        at = _page(round=value)
        ah.ok(at)
        assert lh.stepper(at)["t"] == level, value
        assert not at.warning, value  # nothing on the notice: the link was understood
        assert {row["T"] for row in _metrics(at, level).values()} == {str(2**level if level else 0)}
    at = _page(round="5", focus="Chain")
    ah.ok(at)
    assert lh.stepper(at)["t"] == 5 and _metrics(at, 5)["Chain"]["T"] == "5"


def test_changing_the_focus_keeps_the_weak_classifiers_shown() -> None:
    """The stepper's unit depends on the focused run (levels ↔ weak classifiers): another
    focus opens at the step showing the same number of weak classifiers."""
    at = _page(round="3")  # level 3: 8 stumps
    ah.ok(at)
    at.session_state["focus"] = "Chain"  # what clicking the chain's small picture does
    at.run()
    ah.ok(at)
    assert (lh.stepper(at)["hi"], lh.stepper(at)["t"]) == (16, 8)
    lh.step_to(at, 5)  # 5 stumps: the matryoshka shows level 2 (4 stumps)
    ah.ok(at)
    at.session_state["focus"] = "Matryoshka"
    at.run()
    ah.ok(at)
    assert (lh.stepper(at)["hi"], lh.stepper(at)["t"]) == (4, 2)


def test_no_structure_warns() -> None:
    at = _page()
    at.multiselect(key="struct").set_value([]).run()
    ah.ok(at)
    assert any("at least one structure" in w.value for w in at.warning)


def test_doll_table_compares_node_Z_with_the_rho_the_paper_plugs_in() -> None:
    """Issue 14, C.1: each doll's Z₊ + Z₋ as a node is compared with the doll's bound as the
    paper plugs it in, M2(T₁, ρ̂) = F(2, …F(2, ρ̂)) — not with its own C, which it can never be
    below — and the caption says where the nesting argument breaks."""
    from boostcore import bounds

    at = _page(struct="Matryoshka", Tw="8")
    ah.ok(at)
    tables = lh.views(at)["lv_dolls"]
    rows = lh.table(lh.frame_at(tables, 3))
    assert len(rows) == 6  # level 3: two level-2 dolls, each holding two level-1 dolls
    from ui.pages.matryoshka.frames import DOLL_COLUMNS

    lvl, t1, rho_c, paper, valid_c, node_c, excess, step_c = DOLL_COLUMNS
    for r in rows:
        level, rho = int(r[lvl]), float(r[rho_c])
        assert int(r[t1]) == 2**level
        assert float(r[paper]) == pytest.approx(bounds.m2(level, rho), abs=2e-4)
        node, c = float(r[node_c]), float(r[valid_c])
        assert node >= c - 1e-4
        assert float(r[excess]) == pytest.approx(node - float(r[paper]), abs=2e-4)
        assert r[step_c] == ("fails (node above ρ)" if node - float(r[paper]) > 0 else "holds here")
    assert not any(k == "gap" for k in rows[0])
    caption = " ".join(c.value for c in at.caption)
    assert "This is where the nesting argument breaks" in caption
    assert "never below its own valid bound C" in caption
    assert "positive gap means the paper's M2 curve is not backed" not in caption
    assert "No doll is used as a node yet" in lh.frame_at(tables, 1)


def test_theory_notes_say_how_the_weak_learner_searches() -> None:
    """Issue 14, C.3: the page says what the soft-stump search does."""
    at = _page(Tw="4")
    ah.ok(at)
    text = " ".join(m.value for m in at.markdown)
    assert "branch and bound certifies that no stump is better by more than 0.01 %" in text


def test_estimated_q_warns_that_bounds_are_estimates() -> None:
    at = _page(est="5 answers", Tw="4")
    ah.ok(at)
    assert any("estimated from 5 answers" in w.value for w in at.warning)
    # the matryoshka keeps the exact q: its curves say nothing about estimates
    assert "estimated" not in lh.views(at)["lv_curves_matryoshka"]["notes"][0]
    at = _page(est="5 answers", Tw="4", focus="Chain")
    ah.ok(at)
    assert "estimated from 5" in lh.views(at)["lv_curves_chain"]["notes"][0]


def test_focus_from_the_link_and_from_a_small_multiple() -> None:
    at = _page(focus="Tree")
    ah.ok(at)
    assert "lv_structure_tree" in lh.views(at) and "lv_small_matryoshka" in lh.views(at)
    at.session_state["focus"] = "Chain"  # what clicking the chain's small picture does
    at.run()
    ah.ok(at)
    assert "lv_regions_chain" in lh.views(at) and not at.warning


def test_exports_offer_each_structure_at_this_round() -> None:
    at = ah.open_export(_page(Tw="8", round="5", focus="Chain"))
    ah.ok(at)
    labels = [b.proto.label for b in at.get("download_button")]
    for label in (
        "Chain: structure at T = 5 as SVG",
        "Tree: structure at T = 5 as DOT",
        "Matryoshka: structure at T = 4 as SVG",
        "Matryoshka: structure at T = 4 as DOT",
        "Run as JSON",
    ):
        assert label in labels, labels


def test_presenter_mode_runs() -> None:
    at = _page(present="true", Tw="8", round="3")
    ah.ok(at)
    assert lh.stepper(at)["t"] == 3
    svg = lh.frame_at(lh.views(at)["lv_structure_matryoshka"], 3)[0]
    plain = _page(Tw="8", round="3")
    ah.ok(plain)
    small = lh.frame_at(lh.views(plain)["lv_structure_matryoshka"], 3)[0]

    def size(picture: str) -> float:
        return float(re.search(r'font-size="([0-9.]+)"', picture)[1])

    assert size(svg) > size(small)  # text at the presenter scale


def test_a_preset_logs_no_widget_default_warning() -> None:
    """Loading a preset writes the widgets' values through Session State while the widgets
    keep their declared defaults (they must: the address leaves out a value equal to the
    widget's default, and every session must agree on it, issue 39, item 1). Streamlit would
    log 'The widget with key "src" was created with a default value but also had its value
    set via the Session State API' (issue 25, 12): our config turns that line off. Streamlit
    logs it once per process, so the test resets that flag at every record (and fails loudly
    if Streamlit renames it) to see every widget that would warn."""
    import logging

    from streamlit.elements.lib import policies

    assert hasattr(policies, "_shown_default_value_warning")
    seen: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())
            policies._shown_default_value_warning = False

    at = _page(Tw="8")
    ah.ok(at)
    catch = Catch()
    policies._LOGGER.addHandler(catch)
    policies._shown_default_value_warning = False
    try:
        at.selectbox(key="mat_preset").select("nesting").run()
    finally:
        policies._LOGGER.removeHandler(catch)
    ah.ok(at)
    assert at.segmented_control(key="src").value == "Generated"
    assert at.select_slider(key="Tw").value == 16  # the preset's values reach the widgets
    assert not [m for m in seen if "default value" in m], seen
