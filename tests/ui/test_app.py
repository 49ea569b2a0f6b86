"""AppTest: the app and every page run without exception, step, and show readable errors."""

from __future__ import annotations

import functools

import pytest
from streamlit.testing.v1 import AppTest

from boostcore.datasets import GENERATORS
from boostcore.impurity import INDEX
from tests import apptest_helpers as ah
from tests import lecture_helpers as lh

_page = functools.partial(ah.page, "topdown")


def test_router_runs() -> None:
    at = AppTest.from_file(str(ah.ROOT / "app.py"), default_timeout=ah.TIMEOUT).run()
    ah.ok(at)


def test_home_runs() -> None:
    at = ah.page("home")
    ah.ok(at)
    assert "boosting" in at.title[0].value


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_topdown_every_dataset(name: str) -> None:
    at = _page(data=name, n="200")
    ah.ok(at)
    assert at.selectbox(key="data").value == name
    # the focused run's regions, tree and curves, and a small regions + sparkline per other run
    v = lh.views(at)
    assert {"lv_regions_hatano", "lv_tree_hatano", "lv_curves_hatano"} <= set(v)
    assert {"lv_small_mansour_mcallester", "lv_spark_naive"} <= set(v)
    assert len(lh.views(at, "plotly")) == 2 + 2 * 2


@pytest.mark.parametrize("index", sorted(INDEX))
@pytest.mark.parametrize("k", ["2", "5"])
def test_topdown_every_index_and_arity(index: str, k: str) -> None:
    at = _page(data="moons", n="200", index=index, k=k)
    ah.ok(at)
    lh.step_to(at, lh.stepper(at)["hi"])
    ah.ok(at)
    assert lh.stepper(at)["t"] == lh.stepper(at)["hi"]


@pytest.mark.parametrize("crit", ["Hatano", "Mansour-McAllester", "Naive"])
def test_topdown_each_criterion_alone_and_gain_rule(crit: str) -> None:
    at = _page(crit=crit, leaf="largest gain", s="24")
    ah.ok(at)
    assert at.multiselect(key="crit").value == [crit]
    assert len(lh.views(at, "plotly")) == 2  # regions and curves, no other runs


def test_stepping_changes_the_shown_round() -> None:
    at = _page(data="xor", s="8")
    st_ = lh.stepper(at)
    assert st_["lo"] == 0 and st_["t"] == 1  # a fresh page opens where the first split is
    regions = lh.views(at)["lv_regions_hatano"]
    assert lh.note_at(regions, 1).startswith("Round 1:")
    assert lh.note_at(regions, 0).startswith("Round 0")
    last = st_["hi"]
    note = lh.note_at(regions, last)
    assert note.startswith(f"Round {last}") or note.startswith("Finished at round")
    lh.step_to(at, 3)
    ah.ok(at)
    assert lh.stepper(at)["t"] == 3 and at.query_params["round"] in ("3", ["3"])


def test_url_round_trip() -> None:
    at = _page(data="circles", n="300", s="12", k="3", index="gini", round="4")
    ah.ok(at)
    assert at.selectbox(key="data").value == "circles"
    assert at.slider(key="n").value == 300
    assert at.slider(key="s").value == 12
    assert at.slider(key="k").value == 3
    assert at.selectbox(key="index").value == "gini"
    assert lh.stepper(at)["t"] == 4


def test_presets_load_their_parameters() -> None:
    at = _page()
    at.selectbox(key="preset_pick").select("multiway").run()
    ah.ok(at)
    assert at.selectbox(key="data").value == "stripes"
    assert at.slider(key="s").value == 8
    assert any("Four stripes" in i.value for i in at.info)


def test_stripes_preset_shows_hatano_taking_the_wide_split() -> None:
    at = _page()
    at.selectbox(key="preset_pick").select("multiway").run()
    assert lh.stepper(at)["t"] == 1
    hatano = lh.note_at(lh.views(at)["lv_regions_hatano"], 1)
    assert hatano.startswith("Round 1:") and "4-way" in hatano


def test_no_criterion_selected_warns() -> None:
    at = ah.page("topdown")
    at.multiselect(key="crit").set_value([]).run()
    ah.ok(at)
    assert any("at least one criterion" in w.value for w in at.warning)


def _upload_app(data: bytes) -> None:
    from ui.widgets import dataset_from_upload

    dataset_from_upload(data, "students.csv")


@pytest.mark.parametrize(
    "data, phrase",
    [
        (b"", "empty"),
        (b"x1,x2,label\n1,2,a\n3,4,a\n5,6,a\n", "one class"),
        (b"x1,x2,label\n1,2,a\n3,4,b\n5,6,c\n7,8,a\n", "binary"),
        (b"x1,x2,label\n1,,a\n3,4,b\n", "missing"),
        (b"x1,x2,label\n1,hello,a\n3,4,b\n", "hello"),
        ("x1,x2,label\n1,2,caf\u00e9\n3,4,b\n".encode("latin-1"), "UTF-8"),
    ],
)
def test_bad_csv_shows_an_error_not_a_traceback(data: bytes, phrase: str) -> None:
    at = AppTest.from_function(_upload_app, args=(data,), default_timeout=ah.TIMEOUT).run()
    ah.ok(at)
    assert len(at.error) == 1
    assert phrase.lower() in at.error[0].value.lower()


def test_naive_preset_shows_naive_ending_worse_than_hatano() -> None:
    at = _page()
    at.selectbox(key="preset_pick").select("naive").run()
    ah.ok(at)
    table = lh.round_table(at, "lv_metrics", lh.stepper(at)["hi"])
    assert float(table["Naive"]["I(T)"]) > float(table["Hatano"]["I(T)"])
    assert float(table["Naive"]["test error"]) > float(table["Hatano"]["test error"])


def test_loose_preset_has_a_tiny_gamma_and_a_bound_near_one() -> None:
    at = _page()
    at.selectbox(key="preset_pick").select("loose").run()
    ah.ok(at)
    row = lh.round_table(at, "lv_metrics", lh.stepper(at)["hi"])["Hatano"]
    assert float(row["γ̂"]) < 0.05 and float(row["e_γ̂(|T|)"]) > 0.9
    assert float(row["train error"]) < 0.05


def test_export_offers_csv_and_dot_for_every_run() -> None:
    at = ah.open_export(_page(round="2"))
    ah.ok(at)
    labels = [b.proto.label for b in at.get("download_button")]
    for name in ("Hatano", "Mansour-McAllester", "Naive"):
        assert f"{name}: rounds as CSV" in labels
        assert f"{name}: tree at round 2 as DOT" in labels


def test_preset_from_a_link_keeps_its_parameters_in_the_address() -> None:
    """/topdown?preset=multiway: the address bar then holds the preset's parameters, so a
    link copied after a step reopens the same picture, not the default demo."""
    at = _page(preset="multiway")
    ah.ok(at)
    q = {k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in at.query_params.items()}
    assert "preset" not in q
    assert q["data"] == "stripes" and q["s"] == "8" and q["noise"] == "0.05"
    again = _page(**{k: v for k, v in q.items()})
    ah.ok(again)
    assert again.selectbox(key="data").value == "stripes" and again.slider(key="s").value == 8
    assert again.slider(key="noise").value == 0.05


def test_theory_states_hatanos_assumption_and_what_differs_from_mm() -> None:
    """Theorem 4 assumes Hatano's Definition 2 (for every sample there exists a split with
    advantage γ), not 'every binary split has advantage γ'; his guarantee is s^−γ, not MM's
    e_γ(s) (issue 14, A.4)."""
    at = _page()
    text = " ".join(m.value for m in at.markdown)
    assert "if every binary split has advantage" not in text
    assert "Definition 2" in text and "*for every* sample" in text
    assert "makes the same guarantee" not in text and "not the same one" in text


def test_game_says_fact_1_holds_for_the_selected_split_only() -> None:
    at = ah.page("game")
    ah.ok(at)
    text = " ".join(m.value for m in at.markdown)
    assert "Fact 1(2)" in text and "*selects*" in text
