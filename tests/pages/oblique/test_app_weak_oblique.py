"""You are the weak learner on /oblique (issue 17, item 1), through AppTest: at the node
BoostODT splits next the student's line is scored live next to AdaBoost_R's separator (the
same numbers as ``score_separator``), "Use my line" continues BoostODT's run from the
student's separators (the snapshot is ``by_policy`` with the student's line, and the lecture's
regions, tree and inner table say so), a line that does not split the node is refused with a
readable message, "Use AdaBoost_R's separator", Undo, Start over and new parameters behave,
and the mode turns on at the student's step m with inner stepping off.

The drag on the plot is checked in Chromium (the box's diagonal becomes the line); here the
geometry behind it (:func:`ui.pages.oblique.student.line_from_points`) is checked directly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from boostcore.oblique import score_separator
from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import compute
from ui.pages.oblique import runs as oblique_runs
from ui.pages.oblique import student as oblique_student

KEY = "weak_oblique"


def _on(**query):
    at = ah.page("oblique", **query)
    ah.ok(at)
    at.toggle(key=f"{KEY}_on").set_value(True).run()
    ah.ok(at)
    return at


def _table(at):
    return next(d.value for d in at.dataframe if "after/before" in d.value.columns)


def _texts(at) -> str:
    return "\n".join(
        [c.value for c in at.caption]
        + [m.value for m in at.markdown]
        + [w.value for w in at.warning]
    )


def _ds(at):
    ss = at.session_state
    return compute.generated_dataset(
        ss["data"], ss["n"], ss["noise"], ss["pos"], ss["flip"], int(ss["seed"]), ss["test"]
    )


def _run(at, choices):
    """BoostODT's run the page computes from the student's choices (default parameters but
    T2 and T1, read from the page's widgets)."""
    ss = at.session_state
    return oblique_runs.odt_run(
        _ds(at), "test", ss["T2"], ss["T1"], "stump", "breadth_first", tuple(choices)
    )


def _button(at, key: str):
    return next(b for b in at.button if b.key == key)


def test_the_mode_shows_step_m_and_scores_a_default_line_and_adaboost_rs() -> None:
    at = _on()
    assert at.session_state["round"] == 0  # the tree to split, not AdaBoost_R's step 1
    assert at.session_state["focus"] == "BoostODT"
    table = _table(at)
    assert list(table["separator"]) == ["your line", "AdaBoost_R (10 stumps)"]
    # the default line: θ = 0, through the centre of the node's examples (the root: all)
    ds = _ds(at)
    run = _run(at, ())
    direction, b = oblique_student.line_of(0.0, 0.0, ds.X_train.mean(axis=0))
    r = score_separator(ds.X_train, ds.y_train, run[0], 0, direction, b, n_stumps=10)
    yours, algo = table.iloc[0], table.iloc[1]
    assert np.isclose(yours["μ"], r.yours.mu) and np.isclose(yours["α"], r.yours.alpha)
    assert np.isclose(yours["√(1 − μ²)"], math.sqrt(1 - r.yours.mu**2))
    assert np.isclose(yours["after"], r.yours.loss_after)
    assert yours["left | right"] == f"{r.yours.n_left} | {r.yours.n_right}"
    # AdaBoost_R's separator at the root is what the run's step 1 uses
    assert np.isclose(algo["μ"], r.algorithm.mu)
    assert np.isclose(algo["after"], r.algorithm.loss_after)
    assert np.isclose(algo["Thm 1 bound after"], run[1].metrics.bound_theorem1)
    assert yours["after/before"] <= yours["√(1 − μ²)"] + 1e-9  # the node-level inequality
    assert "step 1: split node **#0**" in _texts(at)


def test_use_my_line_continues_boostodts_run_from_the_students_line() -> None:
    at = _on()
    at.slider(key=f"{KEY}_theta_0").set_value(30.0).run()
    ah.ok(at)
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    played = at.session_state[f"{KEY}_choices"]
    assert len(played) == 1 and at.session_state["round"] == 1
    (direction, b) = played[0]
    assert np.allclose(direction, (math.cos(math.pi / 6), math.sin(math.pi / 6)))
    run = _run(at, played)
    first = run[1]
    assert first.by_policy and first.node == 0
    coef, intercept = first.separator.affine(2)
    assert np.allclose(coef, direction) and np.isclose(intercept, b)
    assert first.algorithm_separator is not None and first.inner == ()
    assert not any(s.by_policy for s in run[2:])  # the later steps are AdaBoost_R's
    # the lecture shows the student's run: the note, the tree and the inner table say so
    views = lh.views(at)
    assert "split by your line" in lh.note_at(views["lv_regions_BoostODT"], 1)
    assert "LS: your line" in lh.frame_at(views["lv_structure_BoostODT"], 1)[0]
    assert "your line" in lh.frame_at(views["lv_inner"], 1)
    # AdaBoost keeps its budget: the student's node counts the T1 stumps AdaBoost_R built
    rows = {r["method"]: r for r in lh.table(lh.frame_at(views["lv_metrics"], 1))}
    assert rows["AdaBoost (G1 on a path)"]["step"] == "10 stumps"
    # and the panel asks for step 2, at the node the leaf rule picks next
    assert f"step 2: split node **#{run[2].node}**" in _texts(at)


def test_a_line_that_sends_every_example_to_one_side_is_refused() -> None:
    at = _on()
    offset = at.slider(key=f"{KEY}_offset_0")
    offset.set_value(offset.max).run()  # the line at the edge of the view: all on one side
    ah.ok(at)
    assert any("does not split the node" in w.value for w in at.warning)
    assert _button(at, f"{KEY}_play").disabled
    assert at.session_state[f"{KEY}_choices"] == ()
    # turning the line back lets it split again
    offset.set_value(0.0).run()
    assert not at.warning and not _button(at, f"{KEY}_play").disabled


def test_adaboost_rs_separator_undo_start_over_and_new_parameters() -> None:
    at = _on()
    at.button(key=f"{KEY}_take").click().run()  # step 1: AdaBoost_R's separator
    ah.ok(at)
    assert at.session_state[f"{KEY}_choices"] == (None,)
    run = _run(at, (None,))
    assert not run[1].by_policy
    assert (
        run[1].separator
        == oblique_runs.odt_run(_ds(at), "test", 7, 10, "stump", "breadth_first")[1].separator
    )
    at.button(key=f"{KEY}_play").click().run()  # step 2: the default line
    assert len(at.session_state[f"{KEY}_choices"]) == 2 and at.session_state["round"] == 2
    at.button(key=f"{KEY}_undo").click().run()
    assert at.session_state[f"{KEY}_choices"] == (None,) and at.session_state["round"] == 1
    at.button(key=f"{KEY}_restart").click().run()
    assert at.session_state[f"{KEY}_choices"] == () and at.session_state["round"] == 0
    assert _button(at, f"{KEY}_undo").disabled
    at.button(key=f"{KEY}_play").click().run()
    at.slider(key="T1").set_value(6).run()
    ah.ok(at)
    assert at.session_state[f"{KEY}_choices"] == ()
    assert any("your turn starts again" in i.value for i in at.info)
    assert at.session_state["round"] == 0 and lh.stepper(at)["t"] == 0
    assert list(_table(at)["separator"])[1] == "AdaBoost_R (6 stumps)"


def test_the_mode_turns_on_at_step_m_with_boostodt_focused() -> None:
    at = _on()
    at.button(key=f"{KEY}_play").click().run()
    at.button(key=f"{KEY}_play").click().run()
    at.toggle(key=f"{KEY}_on").set_value(False).run()
    ah.ok(at)
    assert not [b for b in at.button if b.key == f"{KEY}_play"]  # the panel is gone
    lh.step_to(at, 5)
    at.session_state["focus"] = "AdaBoost"
    at.run()
    at.toggle(key=f"{KEY}_on").set_value(True).run()
    ah.ok(at)
    assert at.session_state["round"] == 2 and lh.stepper(at)["t"] == 2
    assert at.session_state["focus"] == "BoostODT"
    assert len(at.session_state[f"{KEY}_choices"]) == 2


def test_inner_stepping_is_off_in_the_mode_with_a_notice() -> None:
    at = _on(inner="true", T2="3", T1="4", data="diagonal_xor")
    assert any("Stepping through the stumps inside each node is off" in i.value for i in at.info)
    assert lh.stepper(at)["hi"] == 3  # one position per node: rounds 0 … 3
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    assert lh.stepper(at)["t"] == 1


def test_the_run_ends_and_the_panel_says_so() -> None:
    at = _on(T2="2")
    for _ in range(2):
        at.button(key=f"{KEY}_take").click().run()
        ah.ok(at)
    assert any("Your run is complete after 2 step(s)" in s.value for s in at.success)
    assert not [b for b in at.button if b.key == f"{KEY}_play"]


@pytest.mark.parametrize(
    ("a", "b"), [((0.0, 0.0), (1.0, 1.0)), ((2.0, -1.0), (-3.0, 0.5)), ((1.0, 5.0), (1.0, 2.0))]
)
def test_a_drag_from_a_to_b_is_the_line_through_them_with_its_right_on_the_right(a, b) -> None:
    centre = (0.3, -0.2)
    theta, offset = oblique_student.line_from_points(a, b, centre)
    direction, c = oblique_student.line_of(theta, offset, centre)
    n = np.asarray(direction)
    assert abs(n @ a + c) < 1e-9 and abs(n @ b + c) < 1e-9
    # the right-hand side of the way from a to b is LS ≥ 0 (the right child)
    t = np.subtract(b, a)
    right_of = np.asarray(a) + t / 2 + np.array([t[1], -t[0]])
    assert n @ right_of + c > 0
    assert oblique_student.line_from_points(a, a, centre) is None


@pytest.mark.parametrize(("a", "b"), [((-1.0, 1.0), (1.0, -1.0)), ((0.2, 2.0), (0.2, -2.0))])
def test_a_drag_either_way_gives_the_same_line_with_a_positive_edge(a, b) -> None:
    """Issue 25, item 10: dragging the same line top-to-bottom instead of bottom-to-top gave
    μ < 0 and put LS ≥ 0 on the side the student did not mean; a drag now sets the line and
    the side with more +1 weight becomes LS ≥ 0."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=200) > 0.1, 1, -1)
    centre = X.mean(axis=0)

    def mu_of(theta: float, offset: float) -> float:
        n, c = oblique_student.line_of(theta, offset, centre)
        return float(np.mean(y * np.where(X @ np.asarray(n) + c >= 0, 1, -1)))

    got = []
    for p, q in ((a, b), (b, a)):
        raw = oblique_student.line_from_points(p, q, centre)
        theta, offset = oblique_student.with_edge(*raw, mu_of)
        assert mu_of(theta, offset) >= 0
        n, c = oblique_student.line_of(theta, offset, centre)
        assert abs(np.asarray(n) @ a + c) < 1e-9 and abs(np.asarray(n) @ b + c) < 1e-9
        got.append((round(theta, 9), round(offset, 9)))
    assert got[0] == got[1]
    # one of the two drags needed the turn: without it, that drag's μ is negative
    raw = [oblique_student.line_from_points(p, q, centre) for p, q in ((a, b), (b, a))]
    assert min(mu_of(*r) for r in raw) < 0
