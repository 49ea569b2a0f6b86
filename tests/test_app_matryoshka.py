"""AppTest for the probabilistic boosting page: every structure, stepping, softness."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

TIMEOUT = 120


def _page(**params: str) -> AppTest:
    at = AppTest.from_file("../views/matryoshka.py", default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("struct", ["Chain (prob. AdaBoost)", "Tree", "Matryoshka",
                                    "Greedy collapse (§5.4)"])
def test_each_structure_steps_to_the_end(struct: str) -> None:
    at = _page(struct=struct, Tw="8")
    _ok(at)
    at.button(key="round_last").click().run()
    _ok(at)
    rows = [d.value for d in at.dataframe if "structure" in d.value.columns][0]
    assert list(rows["structure"]) == [struct] and int(rows["T"].iloc[0]) == 8
    assert float(rows["expected train error"].iloc[0]) <= float(
        rows["C(T) / Π Z (valid)"].iloc[0]) + (
        float(rows["± (2 s.e.)"].iloc[0]) * 2 if struct.startswith("Chain") else 1e-12)


def test_all_structures_softness_and_first_round() -> None:
    at = _page(tau="0.9", Tw="4")
    _ok(at)
    assert at.slider(key="round").value == 1
    assert any("first doll needs 2" in i.value for i in at.info)  # matryoshka at T = 1
    at.button(key="round_next").click().run()
    _ok(at)
    assert len(at.get("plotly_chart")) == 6


def test_no_structure_warns() -> None:
    at = _page()
    at.multiselect(key="struct").set_value([]).run()
    _ok(at)
    assert any("at least one structure" in w.value for w in at.warning)


def test_doll_table_measures_node_Z_against_C() -> None:
    at = _page(struct="Matryoshka", Tw="8")
    at.button(key="round_last").click().run()
    _ok(at)
    table = at.dataframe[-1].value
    assert len(table) == 6  # level 3: two level-2 dolls, each holding two level-1 dolls
    assert (table["gap"] == table.iloc[:, 2] - table.iloc[:, 1]).all()


def test_estimated_q_warns_that_bounds_are_estimates() -> None:
    at = _page(est="5 answers", Tw="4")
    _ok(at)
    assert any("estimated from 5 answers" in w.value for w in at.warning)
