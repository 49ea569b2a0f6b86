"""AppTest for the oblique page: every option, stepping through nodes and stumps, presets."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

TIMEOUT = 120


def _page(**params: str) -> AppTest:
    at = AppTest.from_file("../views/oblique.py", default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _numbers(at: AppTest):
    frames = [d.value for d in at.dataframe if "method" in d.value.columns]
    assert frames
    return frames[-1].set_index("method")


def _peers(at: AppTest):
    frames = [d.value for d in at.dataframe if "model" in d.value.columns]
    assert frames
    return frames[-1].set_index("model")


def test_defaults_first_step_and_last_step() -> None:
    at = _page()
    _ok(at)
    assert at.slider(key="round").value == 0
    assert any("no weak hypothesis yet" in i.value for i in at.info)
    at.button(key="round_last").click().run()
    _ok(at)
    rows = _numbers(at)
    assert set(rows.index) == {"AdaBoost (G1 on a path)", "KM tree (G1 on a tree)", "BoostODT"}
    # Theorem 1 on screen: training error ≤ ν(H, 0) ≤ bound for every method
    for _, r in rows.iterrows():
        assert r["train error"] <= r["ν(H, 0)"] + 1e-12 <= r["Theorem 1 bound"] + 2e-12
        assert r["E e^(−yH)"] <= r["Theorem 1 bound"] * (1 + 1e-9)
    assert len(at.get("plotly_chart")) == 3 + 1 + 3 + 1  # regions, tree, curves, margins


@pytest.mark.parametrize("learner", ["stumps (the paper)", "hyperplane (oblique line)"])
@pytest.mark.parametrize("rule", ["breadth-first (complete tree)",
                                  "largest decrease of Σ 2√(w⁺w⁻)"])
def test_each_learner_and_rule(learner: str, rule: str) -> None:
    at = _page(learner=learner, rule=rule, T2="4", T1="5", data="band")
    _ok(at)
    for _ in range(2):
        at.button(key="round_next").click().run()
        _ok(at)
    assert at.slider(key="round").value == 2
    assert any("AdaBoost_R inside node" in m.value for m in at.markdown)


def test_stepping_through_stumps_inside_nodes() -> None:
    at = _page(inner="true", T2="2", T1="4", data="diagonal_xor")
    _ok(at)
    at.button(key="round_next").click().run()
    _ok(at)
    assert any("node 1, stump 1/" in c.value for c in at.caption) or \
        any("stump 1/" in c.value for c in at.caption)
    inner = [d.value for d in at.dataframe if "μ_j" in d.value.columns][-1]
    assert len(inner) == 1
    at.button(key="round_next").click().run()
    inner = [d.value for d in at.dataframe if "μ_j" in d.value.columns][-1]
    assert len(inner) == 2
    at.button(key="round_last").click().run()
    _ok(at)


@pytest.mark.parametrize("data", ["moons", "circles", "xor", "spirals"])
def test_datasets(data: str) -> None:
    at = _page(data=data, T2="3", T1="3")
    _ok(at)
    at.button(key="round_last").click().run()
    _ok(at)


def test_url_round_trip() -> None:
    at = _page(T2="5", T1="7", learner="hyperplane (oblique line)", round="3")
    _ok(at)
    assert at.slider(key="round").value == 3
    assert at.slider(key="T2").value == 5 and at.slider(key="T1").value == 7
    assert at.query_params["round"] == ["3"] or at.query_params["round"] == "3"


def test_preset_diagonal_xor_claim() -> None:
    at = _page()
    at.selectbox(key="odt_preset").select("diag_xor").run()
    _ok(at)
    at.button(key="round_last").click().run()
    _ok(at)
    peers = _peers(at)
    odt = peers.loc[[i for i in peers.index if i.startswith("BoostODT")][0]]
    assert odt["test error"] < 0.15
    for name in ("KM tree (G1 on a tree)", "scikit-learn DecisionTreeClassifier",
                 "TopDown, binary, km index (boostlab)"):
        assert peers.loc[name, "test error"] > odt["test error"] + 0.1
        assert peers.loc[name, "leaves"] == odt["leaves"] == 4


def test_preset_band_claim() -> None:
    at = _page()
    at.selectbox(key="odt_preset").select("band").run()
    at.button(key="round_last").click().run()
    _ok(at)
    peers = _peers(at)
    odt = peers.loc[[i for i in peers.index if i.startswith("BoostODT")][0]]
    assert odt["test error"] < 0.21
    assert peers.loc["KM tree (G1 on a tree)", "test error"] > odt["test error"] + 0.05


def test_preset_hyperplane_claim_and_its_failure_seed() -> None:
    at = _page()
    at.selectbox(key="odt_preset").select("hyperplane").run()
    at.button(key="round_last").click().run()
    _ok(at)
    odt = _peers(at)
    good = odt.loc[[i for i in odt.index if i.startswith("BoostODT")][0], "test error"]
    assert good < 0.1
    at.number_input(key="seed").set_value(0).run()
    if not at.button(key="round_last").disabled:  # the round may already be the last one
        at.button(key="round_last").click().run()
    _ok(at)
    assert at.slider(key="round").value == at.slider(key="round").max
    odt = _peers(at)
    bad = odt.loc[[i for i in odt.index if i.startswith("BoostODT")][0], "test error"]
    assert bad > 0.2


def test_exports() -> None:
    at = _page(T2="3", T1="3")
    at.button(key="round_last").click().run()
    _ok(at)
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Run as JSON", "Metrics per round (CSV)", "Python script (.py)",
                      "BoostODT tree (DOT)"]
