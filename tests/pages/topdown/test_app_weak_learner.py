"""You are the weak learner on /topdown (issue 17, item 1), through AppTest: the student's
split is scored live next to the algorithm's, "Use my split" continues the focused run from
the student's tree (the snapshot records the choice, and γ̂ follows the student's
advantages), a lighter leaf or a forced split is allowed and ends the theorem, and Undo,
Start over and a change of parameters behave."""

from __future__ import annotations

import numpy as np

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import compute
from ui.pages.topdown import runs as topdown_runs
from ui.pages.topdown.proof import topdown_chain

KEY = "weak_topdown"


def _on(**query):
    at = ah.page("topdown", **query)
    at.toggle(key=f"{KEY}_on").set_value(True).run()
    ah.ok(at)
    return at


def _table(at):
    return next(d.value for d in at.dataframe if "accepted by the rule" in d.value.columns)


def _texts(at) -> str:
    return "\n".join([c.value for c in at.caption] + [m.value for m in at.markdown])


def _run(at, choices):
    """The focused (Hatano) run the page computes from the student's choices: the same
    arguments as the page, read from its widgets."""
    ss = at.session_state
    ds = compute.generated_dataset(
        ss["data"], ss["n"], ss["noise"], ss["pos"], ss["flip"], int(ss["seed"]), ss["test"]
    )
    return topdown_runs.topdown_run(
        ds, "test", ss["s"], ss["index"], "hatano", ss["k"], None, "max_weight", choices
    )


def test_the_mode_shows_the_tree_to_split_and_scores_the_default_split() -> None:
    at = _on()
    assert at.session_state["round"] == 0  # not the algorithm's round 1: that is the answer
    table = _table(at)
    assert list(table["split"]) == ["yours", "best at this leaf"]
    yours, best = table.iloc[0], table.iloc[1]
    assert yours["leaf"] == best["leaf"] == "#0"
    assert best["score"] >= yours["score"] - 1e-12  # the algorithm's argmax at this leaf


def test_use_my_split_continues_the_run_from_the_students_tree() -> None:
    at = _on()
    leaf = next(s for s in at.selectbox if s.key.startswith(f"{KEY}_leaf")).value
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    played = at.session_state[f"{KEY}_choices"]
    assert len(played) == 1 and played[0][0] == leaf
    assert at.session_state["round"] == 1
    run = _run(at, played)
    first = run[1]
    assert first.split.by_policy and first.split.leaf == leaf
    assert np.allclose(first.split.thresholds, played[0][2])
    # γ̂ is the student's advantage after their round; the algorithm's run would differ
    assert np.isclose(first.metrics.gamma_hat, first.split.advantage_per_level)
    # the table now asks for round 2 on the student's tree
    assert "round 2" in _texts(at)


def test_a_lighter_leaf_is_allowed_and_ends_the_theorem() -> None:
    at = _on()
    at.button(key=f"{KEY}_play").click().run()  # round 1: the default split of the root
    box = next(s for s in at.selectbox if s.key.startswith(f"{KEY}_leaf"))
    lighter = next(v for v in box.options if "(heaviest)" not in v)
    lighter = int(lighter.split(" ")[0][1:])  # "#2 · weight 0.471"
    box.set_value(lighter).run()
    assert "is not the heaviest" in _texts(at)
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    played = at.session_state[f"{KEY}_choices"]
    run = _run(at, played)
    assert run[2].split.leaf == lighter and not run[2].split.max_weight_leaf
    assert not run[-1].metrics.final_guarantee
    # the proof card says the student's split ended the theorem (the bounds are a reference)
    chain = topdown_chain(run[-1], criterion="hatano")
    bound = next(lk for lk in chain.links if lk.left_label == "I(T)")
    assert not bound.holds and "chosen by hand" in bound.note


def test_undo_start_over_and_a_new_parameter_reset_the_turn() -> None:
    at = _on()
    at.button(key=f"{KEY}_play").click().run()
    at.button(key=f"{KEY}_take").click().run()
    assert len(at.session_state[f"{KEY}_choices"]) == 2
    at.button(key=f"{KEY}_undo").click().run()
    assert len(at.session_state[f"{KEY}_choices"]) == 1
    at.button(key=f"{KEY}_restart").click().run()
    assert at.session_state[f"{KEY}_choices"] == ()
    at.button(key=f"{KEY}_play").click().run()
    at.slider(key="s").set_value(12).run()
    ah.ok(at)
    assert at.session_state[f"{KEY}_choices"] == ()
    assert any("your turn starts again" in i.value for i in at.info)


def test_a_split_the_rule_refuses_needs_force_and_ends_the_theorem() -> None:
    # s = 6: after the root's binary split (|T| = 2) Hatano admits k ≤ s/|T| = 3, so a
    # 4-way split is refused unless forced
    at = _on(s="6")
    at.button(key=f"{KEY}_play").click().run()
    feature = next(r for r in at.radio if r.key.startswith(f"{KEY}_feature"))
    for f in feature.options:  # a feature with at least 4 distinct values in the leaf
        feature.set_value(feature.options.index(f) if isinstance(feature.value, int) else f)
        at.run()
        k = next((s for s in at.slider if s.key.endswith("_k")), None)
        if k is not None and k.max >= 4:
            break
    k.set_value(4).run()
    table = _table(at)
    assert table.iloc[0]["accepted by the rule"] == "no"
    assert next(b for b in at.button if b.key == f"{KEY}_play").disabled
    force = next(c for c in at.checkbox if c.key.startswith(f"{KEY}_force"))
    force.check().run()
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    played = at.session_state[f"{KEY}_choices"]
    assert len(played) == 2 and len(played[1][2]) == 3 and played[1][3] is True
    run = _run(at, played)
    assert run[2].split.by_policy and not run[2].split.acceptable
    assert not run[-1].metrics.final_guarantee
    # the round's note names the student, not the core's "policy" (issue 25, item 10)
    note = lh.note_at(lh.views(at)["lv_regions_hatano"], 2)
    assert "You forced a 4-way split" in note and "policy" not in note, note


def test_a_split_that_changes_the_number_of_rounds_still_shows_its_tree() -> None:
    """On stripes Hatano's run takes a 4-way root split (5 rounds to s = 8); a student's
    binary root split lengthens the run: the stepper's range changes, and the page must show
    round 1 (the student's tree), not the round kept from before (ui/weak_common.py sets
    ``round_keep`` too)."""
    at = _on(data="stripes", noise="0.05", s="8", crit="Hatano")  # the longest run is yours
    before = at.session_state["round_range"]
    k = next(s for s in at.slider if s.key.endswith("_k"))
    k.set_value(2).run()
    at.button(key=f"{KEY}_play").click().run()
    ah.ok(at)
    assert at.session_state["round_range"] != before  # the run got longer
    assert at.session_state["round"] == 1


def _hostile_turn() -> None:
    import numpy as np

    from boostcore.datasets import Dataset
    from ui.pages.topdown import runs as topdown_runs
    from ui.pages.topdown import student as topdown_student

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    ds = Dataset(
        name="csv",
        description="hostile names",
        X_train=X,
        X_test=X[:0],
        y_train=np.where(X[:, 0] > 0, 1, -1),
        y_test=np.array([], dtype=np.int64),
        feature_names=("![x](http://127.0.0.1:9/p.png)", "[click](http://e)"),
        class_names=("-1", "+1"),
    )
    state = topdown_runs.topdown_state(
        ds, "hostile", 4, "gini", "hatano", 3, None, "max_weight", ()
    )
    topdown_student.topdown_turn(ds, state, max_arity=3, criterion_label="**Hatano**", n_played=0)


def test_csv_feature_names_are_plain_text_in_the_turn_panel() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_hostile_turn, default_timeout=ah.TIMEOUT).run()
    ah.ok(at)
    feature = next(r for r in at.radio if r.key.startswith(f"{KEY}_feature"))
    # markdown characters escaped (a radio option renders markdown): no image, no link
    assert all("![" not in o and "[click](" not in o for o in feature.options), feature.options
