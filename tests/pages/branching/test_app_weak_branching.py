"""You are the weak learner on /branching (issue 17, item 1), through AppTest: the student's
stump is scored live next to InfoBoost's (H(Y|h_t), the divided leaves, the merge, Z_t, Π Z_t,
the training error), "Use my stump" continues the focused scheme's run from the student's
stumps (the snapshot records the choice, the later rounds are the weak learner's), a stump
that brings no information scores Z_t = 1 (Lemma 3), and Undo, Start over, a change of
parameters or of the focused scheme, and turning the mode on behave."""

from __future__ import annotations

import numpy as np
import pytest

from boostcore.branching import score_stump
from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import compute
from ui.pages.branching import runs as branching_runs
from ui.pages.branching import student as branching_student
from ui.pages.branching.frames import SCHEMES

KEY = "weak_branching"
LEARNERS = {"H(Y|h)": "h", "divided leaves": "divided"}  # the page's radio → weak=
T = "6"


def _on(**query):
    at = ah.page("branching", **{"T": T, **query})
    at.toggle(key=f"{KEY}_on").set_value(True).run()
    ah.ok(at)
    return at


def _table(at):
    return next(d.value for d in at.dataframe if "Π Zₜ" in d.value.columns)


def _leaves(at):
    """The student's divided leaves (the first of the panel's leaf tables)."""
    return next(d.value for d in at.dataframe if "merged into" in d.value.columns)


def _texts(at) -> str:
    return "\n".join([c.value for c in at.caption] + [m.value for m in at.markdown])


def _stump(at, n_played: int) -> tuple[int, float]:
    """The stump the panel shows for the student's next round (feature radio, slider)."""
    feature = at.radio(key=f"{KEY}_feature_{n_played}").value
    return feature, at.slider(key=f"{KEY}_{n_played}_{feature}_thr").value


def _args(at) -> tuple:
    """The page's dataset and run settings, read from its widgets."""
    ss = at.session_state
    ds = compute.generated_dataset(
        ss["data"], ss["n"], ss["noise"], ss["pos"], ss["flip"], int(ss["seed"]), ss["test"]
    )
    focus = at.selectbox(key="focus").value
    return ds, ss["T"], SCHEMES[focus], ss["c"], LEARNERS[ss["wl"]]


def _run(at, choices=()):
    """The focused run the page computes from the student's choices (same arguments)."""
    ds, n_rounds, merge, c, wl = _args(at)
    return branching_runs.bp_run(ds, "test-weak", n_rounds, merge, c, wl, tuple(choices))


def test_the_mode_shows_round_0_and_scores_the_default_stump_and_infoboosts() -> None:
    at = _on()
    assert at.session_state["round"] == 0  # not the algorithm's round 1: that is the answer
    assert lh.stepper(at)["t"] == 0
    table = _table(at)
    assert list(table["stump"]) == ["yours", "InfoBoost's"]
    yours, algo = table.iloc[0], table.iloc[1]
    # the page's numbers are score_stump's, on the page's own run and settings
    ds, _, merge, c, wl = _args(at)
    run = _run(at)
    feature, threshold = _stump(at, 0)
    score = score_stump(ds.X_train, ds.y_train, run[0], feature, threshold, merge=merge, c=c)
    for column, value in (
        ("H(Y|hₜ)", score.yours.H_h),
        ("H(Y|ℓ̃ₜ)", score.yours.H_divided),
        ("Zₜ", score.yours.Z),
        ("Π Zₜ", score.yours.prod_Z),
        ("train error", score.yours.train_error),
    ):
        assert yours[column] == pytest.approx(value, abs=1e-12), column
    # InfoBoost's row is the algorithm's own round 1 (its snapshot), and the argmin of H(Y|h)
    first = run[1].metrics
    assert not run[1].by_policy
    assert algo["H(Y|hₜ)"] == pytest.approx(first.H_h, abs=1e-12)
    assert algo["Zₜ"] == pytest.approx(first.Z, abs=1e-12)
    assert algo["Π Zₜ"] == pytest.approx(first.bound_prod_Z, abs=1e-12)
    assert algo["train error"] == pytest.approx(first.train_error, abs=1e-12)
    assert algo["H(Y|hₜ)"] <= yours["H(Y|hₜ)"] + 1e-12
    assert algo["children → leaves"] == f"{first.n_divided} → {first.n_leaves}"
    # the divided leaves: the root's two children, their masses under D_1 adding up to 1
    leaves = _leaves(at)
    assert list(leaves.columns) == ["child", "leaf", "side", "mass", "q", "merged into"]
    assert set(leaves["side"]) <= {"−1", "+1"} and set(leaves["leaf"]) == {"#0"}
    assert leaves["mass"].sum() == pytest.approx(1.0)
    assert "BP.InfoBoost's run, round 1 of 6" in _texts(at)
    assert "bands (c = 0.5)" in _texts(at)


def test_use_my_stump_continues_the_focused_run_from_the_students_stump() -> None:
    at = _on()
    at.slider(key=f"{KEY}_0_0_thr").set_value(0.25).run()
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    played = at.session_state[f"{KEY}_choices"]
    assert played == ((0, 0.25),)
    assert at.session_state["round"] == 1  # the program the stump made
    run = _run(at, played)
    first = run[1]
    assert first.by_policy and (first.feature, first.threshold) == (0, 0.25)
    assert run[2].kind == "step" and not run[2].by_policy  # later rounds: InfoBoost's
    # the lecture views show the student's run: its notes and program name the stump
    regions = lh.views(at)["lv_regions_BP_InfoBoost"]
    assert "your stump" in lh.note_at(regions, 1) and "x1 > 0.25" in lh.note_at(regions, 1)
    program = lh.views(at)["lv_program_BP_InfoBoost"]
    assert lh.note_at(program, 1).startswith("Round 1: h<sub>1</sub> (your stump) divides")
    # the metrics table of round 1 is the student's run
    row = lh.round_table(at, "lv_metrics", 1)["BP.InfoBoost"]
    assert float(row["Π Z"]) == pytest.approx(first.metrics.bound_prod_Z, abs=1e-4)
    # so does Theorem 3's view of this round (the children re-merged with every c)
    c_round = lh.views(at)["lv_c_round"]
    assert f"γ<sub>t</sub> = {first.metrics.gamma:.4f}" in lh.note_at(c_round, 1)
    assert "the run is made of your stumps for rounds 1" in _texts(at)
    # the panel now asks for round 2 on the student's program
    assert "round 2 of 6" in _texts(at)
    table = _table(at)
    ds, _, merge, c, _ = _args(at)
    feature, threshold = _stump(at, 1)
    score = score_stump(ds.X_train, ds.y_train, first, feature, threshold, merge=merge, c=c)
    assert table.iloc[0]["Zₜ"] == pytest.approx(score.yours.Z, abs=1e-12)
    assert table.iloc[1]["Zₜ"] == pytest.approx(run[2].metrics.Z, abs=1e-12)


@pytest.mark.parametrize("focus", ["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"])
@pytest.mark.parametrize("wl", ["H(Y|h)", "divided leaves"])
def test_every_scheme_and_weak_learner_compares_with_the_algorithms_round(focus, wl) -> None:
    at = _on(focus=focus, wl=wl)
    at.button(key=f"{KEY}_take").click().run()  # round 1: InfoBoost's stump, then round 2
    ah.ok(at)
    run = _run(at)
    algo = _table(at).iloc[1]
    assert algo["Zₜ"] == pytest.approx(run[2].metrics.Z, abs=1e-12)
    assert algo["Π Zₜ"] == pytest.approx(run[2].metrics.bound_prod_Z, abs=1e-12)
    yours = _table(at).iloc[0]
    if wl == "H(Y|h)":  # what the weak learner minimises, it minimises
        assert algo["H(Y|hₜ)"] <= yours["H(Y|hₜ)"] + 1e-12
    else:
        assert algo["H(Y|ℓ̃ₜ)"] <= yours["H(Y|ℓ̃ₜ)"] + 1e-12
    assert f"{focus}'s run, round 2 of 6" in _texts(at)


def test_use_infoboosts_stump_plays_the_algorithms_round() -> None:
    at = _on()
    at.button(key=f"{KEY}_take").click().run()
    ah.ok(at)
    played = at.session_state[f"{KEY}_choices"]
    algorithm = _run(at)
    assert played == ((algorithm[1].feature, algorithm[1].threshold),)
    assert _run(at, played)[1].metrics == algorithm[1].metrics
    regions = lh.views(at)["lv_regions_BP_InfoBoost"]
    assert "(InfoBoost's stump, played by you) divides" in lh.note_at(regions, 1)
    program = lh.views(at)["lv_program_BP_InfoBoost"]
    assert lh.note_at(program, 1).startswith(
        "Round 1: h<sub>1</sub> (InfoBoost's stump, played by you)"
    )


@pytest.mark.parametrize("how", ["h1 again", "a threshold past the data"])
def test_a_stump_with_no_information_gives_z_1_as_the_page_shows(how: str) -> None:
    at = _on(focus="InfoBoost")
    at.button(key=f"{KEY}_take").click().run()  # round 1: InfoBoost's stump
    (f1, t1), *_ = at.session_state[f"{KEY}_choices"]
    at.radio(key=f"{KEY}_feature_1").set_value(f1).run()
    slider = at.slider(key=f"{KEY}_1_{f1}_thr")
    slider.set_value(t1 if how == "h1 again" else slider.max).run()
    ah.ok(at)
    yours = _table(at).iloc[0]
    assert yours["Zₜ"] == pytest.approx(1.0, abs=1e-9)
    assert yours["H(Y|hₜ)"] == pytest.approx(1.0, abs=1e-9)
    text = _texts(at)
    assert "brings no information" in text and "Lemma 3" in text
    before = _run(at, at.session_state[f"{KEY}_choices"])[1].metrics.bound_prod_Z
    assert yours["Π Zₜ"] == pytest.approx(before, abs=1e-9)  # Π Z_t does not fall
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    run = _run(at, at.session_state[f"{KEY}_choices"])
    assert run[2].by_policy and run[2].metrics.Z == pytest.approx(1.0, abs=1e-9)
    assert run[2].metrics.train_error <= run[2].metrics.bound_prod_Z  # Theorem 1 still


def test_undo_start_over_and_new_parameters_reset_the_turn() -> None:
    at = _on()
    at.button(key=f"{KEY}_play").click().run()
    at.button(key=f"{KEY}_take").click().run()
    assert len(at.session_state[f"{KEY}_choices"]) == 2 and at.session_state["round"] == 2
    at.button(key=f"{KEY}_undo").click().run()
    assert len(at.session_state[f"{KEY}_choices"]) == 1 and at.session_state["round"] == 1
    at.button(key=f"{KEY}_restart").click().run()
    assert at.session_state[f"{KEY}_choices"] == () and at.session_state["round"] == 0
    at.button(key=f"{KEY}_play").click().run()
    at.slider(key="c").set_value(0.7).run()
    ah.ok(at)
    assert at.session_state[f"{KEY}_choices"] == ()
    assert any("your turn starts again" in i.value for i in at.info)
    at.button(key=f"{KEY}_play").click().run()
    at.session_state["focus"] = "DT.InfoBoost"  # what clicking a small multiple does
    at.run()
    ah.ok(at)
    assert at.session_state[f"{KEY}_choices"] == ()
    assert "DT.InfoBoost's run, round 1" in _texts(at)


def test_the_mode_turns_on_at_the_students_round() -> None:
    at = _on()
    at.button(key=f"{KEY}_play").click().run()
    at.button(key=f"{KEY}_take").click().run()
    at.toggle(key=f"{KEY}_on").set_value(False).run()
    lh.step_to(at, 5)
    assert lh.stepper(at)["t"] == 5
    at.toggle(key=f"{KEY}_on").set_value(True).run()
    ah.ok(at)
    assert at.session_state["round"] == 2 and lh.stepper(at)["t"] == 2
    assert "round 3 of 6" in _texts(at)


def test_a_complete_run_says_so() -> None:
    at = _on(T="2")
    at.button(key=f"{KEY}_play").click().run()
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    assert any("Your run is complete" in s.value for s in at.success)
    assert not any(b.key == f"{KEY}_play" for b in at.button)


VALUES = np.array([-1.0, -0.25, 0.1, 0.31, 1.0])  # a feature's training values


@pytest.mark.parametrize(
    ("selection", "feature", "expected"),
    [
        # a click: the nearest training value (the plot's positions are float32)
        ({"points": [{"x": 0.3100000023841858, "y": -0.2}], "box": []}, 0, 0.31),
        ({"points": [{"x": 0.3, "y": -0.2}], "box": []}, 1, -0.25),
        ({"points": [{"x": 5.0, "y": 0.0}], "box": []}, 0, 1.0),
        # a box: its lower edge inside the data, else the other one
        ({"points": [], "box": [{"x": [0.5, -0.4], "y": [0.0, 1.0]}]}, 0, -0.4),
        ({"points": [], "box": [{"x": [-9.0, 0.6], "y": [0.0, 1.0]}]}, 0, 0.6),
        ({"points": [], "box": [{"x": [0.0, 1.0], "y": [-0.1, 0.2]}]}, 1, -0.1),
    ],
)
def test_a_click_or_a_box_on_the_plot_sets_the_threshold(
    monkeypatch, selection, feature, expected
) -> None:
    state = {"plot": {"selection": selection}, "thr": 0.0}
    monkeypatch.setattr(branching_student.st, "session_state", state)
    branching_student.from_plot("plot", "thr", feature, VALUES)
    assert state["thr"] == expected


def test_a_box_outside_the_data_changes_nothing(monkeypatch) -> None:
    state = {"plot": {"selection": {"points": [], "box": [{"x": [-5, -4], "y": [0, 1]}]}}}
    state["thr"] = 0.1
    monkeypatch.setattr(branching_student.st, "session_state", state)
    branching_student.from_plot("plot", "thr", 0, VALUES)
    assert state["thr"] == 0.1


def test_the_default_threshold_halves_the_weight() -> None:
    values = np.array([0.0, 1.0, 2.0, 3.0])
    assert branching_student.default_threshold(values, np.full(4, 0.25)) == 1.5
    assert branching_student.default_threshold(values, np.array([0.7, 0.1, 0.1, 0.1])) == 0.5
    assert branching_student.default_threshold(values, np.array([0.0, 0.0, 0.0, 1.0])) == 2.5
