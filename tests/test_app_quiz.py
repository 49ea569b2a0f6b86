"""Predict, then reveal on the pages (issue 17, item 2): the toggle asks a question generated
from the page's own run, Reveal marks the pick against the next snapshot, the session keeps
the score, and presenter mode letters the answers. The questions themselves are checked
against the snapshots in tests/test_quiz.py; here, that each page wires them up."""

from __future__ import annotations

import html

import pytest

from tests import apptest_helpers as ah
from ui import pages

#: The links a page is opened at when its default one is not enough: the game asks in two of
#: its modes (watching, and as the adversary after two moves).
QUERIES: dict[str, list[dict[str, str]]] = {
    "game": [
        {"mode": "Watch"},
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


@pytest.mark.parametrize(("name", "query"), PAGES)
@pytest.mark.parametrize("right", [True, False])
def test_each_page_asks_reveals_and_scores(name: str, query: dict, right: bool) -> None:
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
def test_presenter_mode_letters_the_answers(name: str) -> None:
    at = ah.page(name, present="true")
    at.toggle(key=f"quiz_{name}_on").set_value(True).run()
    ah.ok(at)
    q = at.session_state[f"quiz_{name}_current"]
    block = next(h for h in at.get("html") if "bl-quiz-grid" in str(h.value))
    for letter, answer in zip("ABCD", q.answers):
        assert f"<b>{letter}</b>{html.escape(answer)}" in block.value
    assert _quiz_radio(at).options == list("ABCD"[: len(q.answers)])


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
