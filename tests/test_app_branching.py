"""AppTest for the divide-and-merge page: every scheme and option, stepping, presets."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

TIMEOUT = 120


def _page(**params: str) -> AppTest:
    at = AppTest.from_file("../views/branching.py", default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("scheme", ["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"])
@pytest.mark.parametrize("wl", ["H(Y|h)", "divided leaves"])
def test_each_scheme_and_weak_learner(scheme: str, wl: str) -> None:
    at = _page(schemes=scheme, wl=wl, T="8")
    _ok(at)
    at.button(key="round_last").click().run()
    _ok(at)
    table = at.dataframe[-1].value
    assert list(table["scheme"]) == [scheme]
    assert int(table["round"].iloc[0]) == 8


@pytest.mark.parametrize("data", ["moons", "xor", "stripes", "checkerboard"])
def test_datasets_and_c(data: str) -> None:
    at = _page(data=data, c="0.9", T="6")
    _ok(at)
    assert len(at.get("plotly_chart")) == 3 * 3 + 1  # regions, curves, leaves per scheme + c sweep


def test_stepping_and_groups_table() -> None:
    at = _page(T="5")
    assert at.slider(key="round").value == 1  # BP.InfoBoost's first snapshot is round 1
    assert any(c.value.startswith("Round 1:") for c in at.caption)
    at.button(key="round_next").click().run()
    _ok(at)
    assert at.slider(key="round").value == 2
    assert any(c.value.startswith("Round 2:") for c in at.caption)
    headers = [m.value for m in at.markdown if m.value.startswith("#### BP.InfoBoost's groups")]
    assert headers and "round 2" in headers[0]


def test_presets_and_their_claims() -> None:
    at = _page()
    at.selectbox(key="bp_preset").select("overfit").run()
    _ok(at)
    at.button(key="round_last").click().run()
    rows = at.dataframe[-1].value.set_index("scheme")
    assert rows.loc["DT.InfoBoost", "test error"] > rows.loc["BP.InfoBoost", "test error"]
    assert rows.loc["DT.InfoBoost", "|L_t|"] > 10 * rows.loc["BP.InfoBoost", "|L_t|"]
    at.selectbox(key="bp_preset").select("merge_all").run()
    at.button(key="round_last").click().run()
    rows = at.dataframe[-1].value.set_index("scheme")
    assert rows.loc["DT.InfoBoost", "Π Z"] < rows.loc["InfoBoost", "Π Z"] / 2


def test_no_scheme_warns() -> None:
    at = _page()
    at.multiselect(key="schemes").set_value([]).run()
    _ok(at)
    assert any("at least one merging scheme" in w.value for w in at.warning)

