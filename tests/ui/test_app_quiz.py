"""Predict, then reveal on the pages (issue 17, item 2): the toggle asks a question generated
from the page's own run, Reveal marks the pick against the next snapshot, the session keeps
the score, and presenter mode letters the answers. The questions themselves are checked
against the snapshots in tests/ui/test_quiz.py; here, that each page wires them up."""

from __future__ import annotations

import pytest

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import pages

#: The links a page is opened at when its default one is not enough: the game asks on the
#: server as the adversary after two moves (watching, it asks in the browser: below).
QUERIES: dict[str, list[dict[str, str]]] = {
    "game": [
        {"mode": "You are the adversary", "mv": "0-2-0.5_0.5;1-2-0.5_0.5"},
    ],
}
#: Every page with the registry's "quiz" feature, at each of its links.
PAGES = [(p.slug, query) for p in pages.with_feature("quiz") for query in QUERIES.get(p.slug, [{}])]


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [a.value for a in (*at.success, *at.error, *at.info)]
    return "\n".join(parts)


def _quiz_radio(at):
    return next(r for r in at.radio if r.key and r.key.startswith("quiz_"))


#: The lecture pages ask in the browser (ui/lecture/js, role "quiz"); the game on the server.
LECTURE = [p.slug for p in pages.with_feature("quiz") if p.slug != "game"]
SERVER = [(name, query) for name, query in PAGES if name == "game"]


def _quiz_data(at, name: str) -> dict:
    return lh.components(at)[f"quiz_{name}_view"]


@pytest.mark.parametrize("name", LECTURE)
def test_each_lecture_page_hands_every_rounds_question_to_the_browser(name: str) -> None:
    """Issue 25, item 6: the questions of the whole run go with the frames, one per round of
    the stepper (the last round has none), so the browser asks the one of the round it
    draws without waiting for the server."""
    at = ah.page(name)
    assert f"quiz_{name}_view" not in lh.components(at)  # off by default
    at.toggle(key=f"quiz_{name}_on").set_value(True).run()
    ah.ok(at)
    data = _quiz_data(at, name)
    step = lh.stepper(at)
    qs = data["questions"]
    assert data["stepper"] == "round" and data["page"] == name and data["presenting"] is False
    assert len(qs) == step["hi"] - step["lo"] + 1
    assert qs[-1] is None  # nothing to ask at the last round
    asked = [q for q in qs if q is not None]
    assert len(asked) >= len(qs) // 2, "most rounds ask a question"
    assert len({q["id"] for q in asked}) == len(asked)  # never the same question twice
    for q in asked:
        assert 3 <= len(q["answers"]) <= 4 and len(set(q["answers"])) == len(q["answers"])
        assert 0 <= q["correct"] < len(q["answers"]) and q["text"] and q["why"]
    # no server-side widget: nothing to pick or reveal on the server, nothing to lose
    assert not any(r.key and r.key.startswith("quiz_") for r in at.radio)


@pytest.mark.parametrize("name", LECTURE)
def test_the_browser_quiz_is_the_round_a_step_shows(name: str) -> None:
    """The question at round t is about the step from t: the one the server's question
    builder gives for the same round (a step does not rebuild the list)."""
    at = ah.page(name)
    at.toggle(key=f"quiz_{name}_on").set_value(True).run()
    before = _quiz_data(at, name)["questions"]
    step = lh.stepper(at)
    lh.step_to(at, min(step["t"] + 1, step["hi"]))
    ah.ok(at)
    assert _quiz_data(at, name)["questions"] == before


@pytest.mark.parametrize(("name", "query"), SERVER)
@pytest.mark.parametrize("right", [True, False])
def test_the_game_asks_reveals_and_scores(name: str, query: dict, right: bool) -> None:
    at = ah.page(name, **query)
    assert not any(r.key and r.key.startswith("quiz_") for r in at.radio)  # off by default
    at.toggle(key=f"quiz_{name}_on").set_value(True).run()
    ah.ok(at)
    q = at.session_state[f"quiz_{name}_current"]
    assert q is not None and 3 <= len(q.answers) <= 4
    assert f"**Predict:** {q.text}"[:30] in _texts(at).replace("\\", "")
    pick = q.correct if right else (q.correct + 1) % len(q.answers)
    _quiz_radio(at).set_value(pick).run()
    at.button(key=f"quiz_{name}_reveal_{q.ident}").click().run()
    ah.ok(at)
    text = _texts(at)
    assert ("1 of 1 right" if right else "0 of 1 right") in text, text
    assert at.session_state[f"quiz_{name}_log"][q.ident] == pick


@pytest.mark.parametrize("name", ["topdown", "oblique"])
def test_presenter_mode_tells_the_browser_quiz(name: str) -> None:
    at = ah.page(name, present="true")
    at.toggle(key=f"quiz_{name}_on").set_value(True).run()
    ah.ok(at)
    assert _quiz_data(at, name)["presenting"] is True


def test_watching_the_game_asks_in_the_browser_and_hides_the_next_leaf() -> None:
    """Issue 27, item 6: watching steps in the browser, and its questions go with the
    frames; while they are asked, the tree does not mark the leaf the question is about."""
    at = ah.page("game", mode="Watch", s="8")
    tree = lh.components(at)["lv_game_tree"]
    assert 'class="h"' in lh.frame_at(tree, 0)
    at.toggle(key="quiz_game_on").set_value(True).run()
    ah.ok(at)
    data = _quiz_data(at, "game")
    step = lh.stepper(at)
    assert len(data["questions"]) == step["hi"] - step["lo"] + 1
    assert any(q is not None for q in data["questions"])
    tree = lh.components(at)["lv_game_tree"]
    assert all('class="h"' not in f for f in lh.resolve(tree["frames"]))
    assert not any(r.key and r.key.startswith("quiz_") for r in at.radio)


def test_game_hides_the_next_leaf_until_the_prediction_is_revealed() -> None:
    at = ah.page("game", mode="You are the adversary", mv="0-2-0.5_0.5;1-2-0.5_0.5")
    at.toggle(key="quiz_game_on").set_value(True).run()
    assert "marked once the prediction is revealed" in _texts(at)
    q = at.session_state["quiz_game_current"]
    at.button(key=f"quiz_game_reveal_{q.ident}").click().run()
    ah.ok(at)
    assert "Vermillion: the heaviest leaf" in _texts(at)


def test_player_mode_says_there_is_nothing_to_predict() -> None:
    at = ah.page("game", mode="You are the player")
    at.toggle(key="quiz_game_on").set_value(True).run()
    ah.ok(at)
    assert "nothing to predict" in _texts(at)
