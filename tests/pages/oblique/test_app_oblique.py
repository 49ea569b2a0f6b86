"""AppTest for the oblique page (lecture view): every option, stepping through nodes and
through the stumps inside a node, the focused run, presets and exports.

The stepper and the views are client-side components (ui/lecture): the tests read what
they were given (``tests/lecture_helpers.py``) and step the way the browser does.
"""

from __future__ import annotations

import base64
import functools

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh

METHODS = {"AdaBoost (G1 on a path)", "KM tree (G1 on a tree)", "BoostODT"}


_page = functools.partial(ah.page, "oblique")


def _last(at: AppTest) -> int:
    hi = lh.stepper(at)["hi"]
    lh.step_to(at, hi)
    ah.ok(at)
    assert lh.stepper(at)["t"] == hi
    return hi


def _numbers(at: AppTest, t: int) -> dict[str, dict[str, str]]:
    return {r["method"]: r for r in lh.table(lh.frame_at(lh.views(at)["lv_metrics"], t))}


def _peers(at: AppTest, t: int) -> dict[str, dict[str, str]]:
    return {r["model"]: r for r in lh.table(lh.frame_at(lh.views(at)["lv_peers"], t))}


def _inner_rows(at: AppTest, t: int) -> list[dict[str, str]]:
    return lh.table(lh.frame_at(lh.views(at)["lv_inner"], t))


def test_defaults_open_at_the_first_node_and_step_to_the_last() -> None:
    at = _page()
    ah.ok(at)
    st_ = lh.stepper(at)
    assert st_["lo"] == 0 and st_["t"] == 1  # a fresh page opens where the first node is
    v = lh.views(at)
    # the focused run (BoostODT) large, the two others as small multiples
    assert {"lv_regions_BoostODT", "lv_structure_BoostODT", "lv_curves_BoostODT"} <= set(v)
    assert {
        "lv_small_AdaBoost",
        "lv_spark_AdaBoost",
        "lv_small_KM_tree",
        "lv_spark_KM_tree",
    } <= set(v)
    assert v["lv_structure_BoostODT"]["kind"] == "svg"
    assert v["lv_regions_BoostODT"]["aspect"] > 0
    for view in v.values():
        assert len(view["frames"]) == st_["hi"] + 1
    assert lh.note_at(v["lv_regions_BoostODT"], 1).startswith("Step 1: node 0")
    assert lh.note_at(v["lv_regions_BoostODT"], 0).startswith("BoostODT: the root alone")
    # round 0 is every run's initial model: AdaBoost's H = 0 (no stump, Theorem 1's empty
    # product 1), the trees' root alone
    rows0 = _numbers(at, 0)
    assert set(rows0) == METHODS
    assert rows0["AdaBoost (G1 on a path)"]["step"] == "0 stumps"
    assert float(rows0["AdaBoost (G1 on a path)"]["Theorem 1 bound"]) == 1.0
    assert rows0["BoostODT"]["step"] == "0 nodes"
    assert st_["hi"] == 7  # the default T2 = 7 splits: rounds 0 … 7
    hi = _last(at)
    rows = _numbers(at, hi)
    assert set(rows) == METHODS
    # Theorem 1 on screen: training error ≤ ν(H, 0) ≤ bound for every method (4 decimals)
    for r in rows.values():
        err, nu, bound = (float(r[c]) for c in ("train error", "ν(H, 0)", "Theorem 1 bound"))
        assert err <= nu + 1e-4 and nu <= bound + 1e-4
        assert float(r["E e⁻ʸᴴ"]) <= bound + 1e-4
    # the margin chart under the views is a lecture view: it follows the stepper in the
    # browser, and at every step its ν(H, 0) is the numbers table's
    assert not at.get("plotly_chart")
    for t in (0, 3, hi):
        fig = lh.frame_at(v["lv_margins"], t)
        nu = {
            tr["name"].removesuffix(": ν(H, θ)"): _floats(tr["y"])
            for tr in fig["data"]
            if tr["name"].endswith(": ν(H, θ)")
        }
        assert set(nu) == METHODS
        rows = _numbers(at, t)
        for name, y in nu.items():
            assert abs(y[50] - float(rows[name]["ν(H, 0)"])) <= 1e-4, (t, name)
        assert (
            "% of the weight has margin at most 0" in lh.views(at)["lv_margins"]["descriptions"][t]
        )


def _floats(values) -> list[float]:
    """A trace's numbers, sent as a list or as plotly's base64 array (``{dtype, bdata}``)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return [float(x) for x in values]


@pytest.mark.parametrize("learner", ["stumps (the paper)", "hyperplane (oblique line)"])
@pytest.mark.parametrize(
    "rule", ["breadth-first (complete tree)", "largest decrease of Σ 2√(w⁺w⁻)"]
)
def test_each_learner_and_rule(learner: str, rule: str) -> None:
    at = _page(learner=learner, rule=rule, T2="4", T1="5", data="band")
    ah.ok(at)
    lh.step_to(at, 2)
    ah.ok(at)
    assert lh.stepper(at)["t"] == 2
    inner = lh.frame_at(lh.views(at)["lv_inner"], 2)
    assert "AdaBoost_R inside node" in inner
    assert 1 <= len(_inner_rows(at, 2)) <= 5
    tree = lh.frame_at(lh.views(at)["lv_structure_BoostODT"], 2)[0]
    caption = "LS: a line" if learner.startswith("hyperplane") else "LS: "
    assert caption in tree


def test_stepping_through_stumps_inside_nodes() -> None:
    at = _page(inner="true", T2="2", T1="4", data="diagonal_xor")
    ah.ok(at)
    regions = lh.views(at)["lv_regions_BoostODT"]
    assert lh.note_at(regions, 1).startswith("Building node 0: LS so far has 1 of 4")
    assert len(_inner_rows(at, 1)) == 1 and len(_inner_rows(at, 2)) == 2
    tree = lh.frame_at(lh.views(at)["lv_structure_BoostODT"], 1)[0]
    assert "building 1/4" in tree
    lh.step_to(at, 2)
    ah.ok(at)
    _last(at)


@pytest.mark.parametrize("data", ["moons", "circles", "xor", "spirals"])
def test_datasets(data: str) -> None:
    at = _page(data=data, T2="3", T1="3")
    ah.ok(at)
    _last(at)


def test_focus_switches_the_large_views() -> None:
    at = _page(T2="3", T1="3")
    at.selectbox(key="focus").select("AdaBoost").run()
    ah.ok(at)
    v = lh.views(at)
    assert {"lv_regions_AdaBoost", "lv_structure_AdaBoost", "lv_curves_AdaBoost"} <= set(v)
    assert {"lv_small_BoostODT", "lv_small_KM_tree"} <= set(v)
    assert "lv_regions_BoostODT" not in v
    # step 0: AdaBoost's panels say what will appear and when
    assert "step 1" in lh.frame_at(v["lv_structure_AdaBoost"], 0)[0]
    at.selectbox(key="focus").select("KM tree").run()
    ah.ok(at)
    assert "lv_structure_KM_tree" in lh.views(at)


def test_url_round_trip() -> None:
    at = _page(T2="5", T1="7", learner="hyperplane (oblique line)", round="3", focus="KM tree")
    ah.ok(at)
    assert lh.stepper(at)["t"] == 3
    assert at.slider(key="T2").value == 5 and at.slider(key="T1").value == 7
    assert at.selectbox(key="focus").value == "KM tree"
    assert at.query_params["round"] in ("3", ["3"])


def test_presenter_mode_enlarges_the_lecture_fonts() -> None:
    plain = lh.frame_at(lh.views(_page(T2="3"))["lv_curves_BoostODT"], 1)["layout"]
    big = lh.frame_at(lh.views(_page(T2="3", present="true"))["lv_curves_BoostODT"], 1)["layout"]
    # presenter mode's 1920-px design at 22 px (12 normally), scaled by the browser
    assert big["font"]["size"] == pytest.approx(plain["font"]["size"] * 22 / 12)


def test_preset_diagonal_xor_claim() -> None:
    at = _page()
    at.selectbox(key="odt_preset").select("diag_xor").run()
    ah.ok(at)
    assert lh.stepper(at)["t"] == 1
    hi = _last(at)
    peers = _peers(at, hi)
    odt = peers[next(m for m in peers if m.startswith("BoostODT"))]
    assert float(odt["test error"]) < 0.15
    for name in (
        "KM tree (G1 on a tree)",
        "scikit-learn DecisionTreeClassifier",
        "TopDown, binary, km index (boostlab)",
    ):
        assert float(peers[name]["test error"]) > float(odt["test error"]) + 0.1
        assert peers[name]["leaves"] == odt["leaves"] == "4"


def test_preset_band_claim() -> None:
    at = _page()
    at.selectbox(key="odt_preset").select("band").run()
    hi = _last(at)
    peers = _peers(at, hi)
    odt = peers[next(m for m in peers if m.startswith("BoostODT"))]
    assert float(odt["test error"]) < 0.21
    assert float(peers["KM tree (G1 on a tree)"]["test error"]) > float(odt["test error"]) + 0.05


def test_preset_hyperplane_claim_and_its_failure_seed() -> None:
    at = _page()
    at.selectbox(key="odt_preset").select("hyperplane").run()
    hi = _last(at)
    peers = _peers(at, hi)
    good = float(peers[next(m for m in peers if m.startswith("BoostODT"))]["test error"])
    assert good < 0.1
    at.number_input(key="seed").set_value(0).run()
    ah.ok(at)
    hi = _last(at)
    peers = _peers(at, hi)
    bad = float(peers[next(m for m in peers if m.startswith("BoostODT"))]["test error"])
    assert bad > 0.2


def test_exports() -> None:
    at = _page(T2="3", T1="3")
    _last(at)
    ah.open_export(at)
    labels = [b.label for b in at.get("download_button")]
    assert labels == [
        "Run as JSON",
        "Metrics per round (CSV)",
        "Python script (.py)",
        "BoostODT tree (DOT)",
        "BoostODT tree (SVG)",
    ]
    svg = next(b for b in at.get("download_button") if b.label == "BoostODT tree (SVG)")
    assert svg.proto.label == "BoostODT tree (SVG)"


def test_inner_stepping_is_refused_above_its_cost_with_a_notice() -> None:
    """Issue 16: the largest link (5,000 points, T2 = 31, T1 = 40, inner stepping) would take
    about a minute and 210 MB; the page steps node by node instead and says why."""
    from ui.pages.oblique.frames import INNER_SECONDS_LIMIT, inner_stepping_cost

    at = _page(inner="true", T2="31", T1="40", n="5000")
    ah.ok(at)
    notes = [i.value for i in at.info if "off for this size" in i.value]
    assert len(notes) == 1 and "1,240 steps on 3,750 training points" in notes[0]
    assert lh.stepper(at)["hi"] <= 31  # one step per node, not per stump
    assert inner_stepping_cost(3750, 31, 40) > INNER_SECONDS_LIMIT
    small = _page(inner="true", T2="2", T1="4", data="diagonal_xor")
    ah.ok(small)
    assert not [i for i in small.info if "off for this size" in i.value]
    assert lh.stepper(small)["hi"] > 2  # inner stepping kept: one step per stump
