"""Predict, then reveal: ui/quiz_widget.py in a tiny harness app (AppTest).

The harness asks the game's questions (ui.pages.game.questions on a real run) at the round
held in ``st.session_state["t"]``; the tests pick answers, reveal, step and check the marking,
the why, the score, presenter mode's lettered answers and the escaping of every text.
"""

from __future__ import annotations

import html

import pytest
from streamlit.testing.v1 import AppTest

from boostcore.game import play
from ui import quiz
from ui.pages.game import questions

KEY = "quiz_h"


def _harness() -> None:
    import streamlit as st

    from boostcore.game import play
    from ui.pages.game import questions
    from ui.quiz_widget import ask, predict_toggle

    run = list(play(10, 0.2))  # the max-weight player against equal binary splits
    ss = st.session_state
    if predict_toggle("harness"):
        q = ss.get("fixed") or questions.question(run, int(ss.get("t", 1)), seed=3)
        revealed = ask(
            q,
            key="quiz_h",
            presenting=bool(ss.get("presenting", False)),
            on_reveal=lambda q: ss.__setitem__("on_reveal", q.t),
        )
        st.text(f"revealed={revealed}")


def _question(t: int) -> quiz.Question:
    run = list(play(10, 0.2))
    return questions.question(run, t, seed=3)


def _app(**state) -> AppTest:
    at = AppTest.from_function(_harness, default_timeout=60)
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _on(at: AppTest) -> AppTest:
    at.toggle(key="quiz_harness_on").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [a.value for a in (*at.success, *at.error, *at.info)]
    return "\n".join(parts)


def _score(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Score this session"))


def _unescape(text: str) -> str:
    return text.replace("\\", "")


def test_the_toggle_is_off_by_default_and_asks_when_on() -> None:
    at = _app(t=1)
    assert not at.radio and not at.button
    _on(at)
    q = _question(1)
    (radio,) = at.radio
    assert [_unescape(o) for o in radio.options] == [q.labelled(i) for i in range(len(q.answers))]
    assert radio.value is None
    assert _unescape(q.text) in _unescape(_text(at))
    assert at.button(key=f"{KEY}_reveal_{q.ident}")
    assert _score(at).endswith("No prediction marked yet")
    assert at.text[0].value == "revealed=False"


def test_a_right_pick_is_marked_with_the_why_and_scored() -> None:
    at = _on(_app(t=1))
    q = _question(1)
    at.radio[0].set_value(q.correct).run()
    at.button(key=f"{KEY}_reveal_{q.ident}").click().run()
    assert not at.exception
    assert not at.radio, "the answers are no longer a choice once revealed"
    (ok,) = at.success
    assert _unescape(ok.value).startswith(f"Right: {q.labelled(q.correct)}.")
    assert _unescape(q.why) in _unescape(ok.value)
    marked = _unescape(_text(at))
    assert f"✓ **{q.labelled(q.correct)}** (your answer)" in marked
    assert _score(at).endswith("1 of 1 right")
    assert at.session_state["on_reveal"] == 1
    assert at.text[0].value == "revealed=True"


def test_a_wrong_pick_is_crossed_and_the_right_answer_shown() -> None:
    at = _on(_app(t=1))
    q = _question(1)
    wrong = (q.correct + 1) % len(q.answers)
    at.radio[0].set_value(wrong).run()
    at.button(key=f"{KEY}_reveal_{q.ident}").click().run()
    (bad,) = at.error
    assert f"the answer is {q.labelled(q.correct)}." in _unescape(bad.value)
    marked = _unescape(_text(at))
    assert f"✗ ~~{q.labelled(wrong)}~~ (your answer)" in marked
    assert f"✓ **{q.labelled(q.correct)}**" in marked
    assert _score(at).endswith("0 of 1 right")


def test_stepping_reveals_the_pending_pick_and_asks_the_next_question() -> None:
    at = _on(_app(t=1))
    q1, q2 = _question(1), _question(2)
    assert q1.ident != q2.ident
    at.radio[0].set_value(q1.correct).run()
    at.session_state["t"] = 2  # the page steps on without Reveal
    at.run()
    assert not at.exception
    text = _unescape(_text(at))
    assert f"✓ **Round 1's prediction:** Right: {q1.labelled(q1.correct)}." in text
    assert _unescape(q2.text) in text
    (radio,) = at.radio  # the next question, nothing picked yet
    assert radio.value is None
    assert [_unescape(o) for o in radio.options] == [q2.labelled(i) for i in range(len(q2.answers))]
    assert _score(at).endswith("1 of 1 right")
    # a wrong pick, then a step: marked ✗ and counted
    at.radio[0].set_value((q2.correct + 1) % len(q2.answers)).run()
    at.session_state["t"] = 3
    at.run()
    assert "✗ **Round 2's prediction:** Not this time" in _unescape(_text(at))
    assert _score(at).endswith("1 of 2 right")
    # back to round 1: shown as revealed, never counted twice
    at.session_state["t"] = 1
    at.run()
    assert not at.radio
    assert f"✓ **{q1.labelled(q1.correct)}** (your answer)" in _unescape(_text(at))
    assert _score(at).endswith("1 of 2 right")
    # forward again without a pick: nothing is marked for a question nobody answered
    at.session_state["t"] = 4
    at.run()
    at.session_state["t"] = 5
    at.run()
    assert "Round 4's prediction" not in _unescape(_text(at))
    assert _score(at).endswith("1 of 2 right")


def test_reveal_without_a_pick_shows_the_answer_and_does_not_count() -> None:
    at = _on(_app(t=1))
    q = _question(1)
    at.button(key=f"{KEY}_reveal_{q.ident}").click().run()
    (info,) = at.info
    assert _unescape(info.value) == f"The answer is {q.labelled(q.correct)}. {q.why}"
    assert _score(at).endswith("No prediction marked yet")


@pytest.mark.parametrize("pick", [True, False])
def test_presenter_mode_shows_the_answers_large_and_lettered(pick: bool) -> None:
    at = _on(_app(t=1, presenting=True))
    q = _question(1)
    (block,) = at.html
    assert "bl-quiz-q" in block.value and "font-size: 1.5rem" in block.value
    for i, letter in enumerate(q.letters):
        assert f"<b>{letter}</b>" in block.value
        assert html.escape(q.answers[i]) in block.value
    (radio,) = at.radio
    assert radio.label == "Class's answer"
    assert radio.options == list(q.letters)
    if pick:
        radio.set_value(q.correct).run()
    at.button(key=f"{KEY}_reveal_{q.ident}").click().run()
    (block,) = at.html
    assert f"bl-quiz-right'><b>{q.letters[q.correct]}</b>" in block.value
    assert "bl-quiz-why" in block.value
    assert not at.radio and not at.button
    assert _score(at).endswith("1 of 1 right" if pick else "No prediction marked yet")


def test_every_text_is_escaped() -> None:
    hostile = quiz.Question(
        "topdown",
        0,
        "Which <b>leaf</b> [x](http://evil.example)?",
        ("<img src=x onerror=alert(1)>", "$x$ **bold**", "plain"),
        0,
        "because <script>alert(1)</script>",
        "leaf",
    )
    for presenting in (False, True):
        at = _on(_app(fixed=hostile, presenting=presenting))
        if presenting:
            body = at.html[0].value
            assert "<img" not in body and "<script" not in body and "&lt;img" in body
            at.button(key=f"{KEY}_reveal_{hostile.ident}").click().run()
            assert "&lt;script&gt;" in at.html[0].value and "<script>" not in at.html[0].value
        else:
            options = at.radio[0].options
            assert "\\<img" in options[0] and "\\$x\\$ \\*\\*bold\\*\\*" in options[1]
            assert "\\<b\\>leaf\\</b\\>" in _text(at) and "\\[x\\]" in _text(at)
            at.radio[0].set_value(0).run()
            at.button(key=f"{KEY}_reveal_{hostile.ident}").click().run()
            assert "\\<script\\>" in at.success[0].value


def test_the_step_to_the_last_round_reveals_the_pending_pick() -> None:
    at = _on(_app(t=8))
    q = _question(8)
    at.radio[0].set_value(q.correct).run()
    at.session_state["t"] = 9  # the last round: no question after it
    at.run()
    text = _unescape(_text(at))
    assert f"✓ **Round 8's prediction:** Right: {q.labelled(q.correct)}." in text
    assert "Nothing left to predict" in text and text.endswith("Score this session: 1 of 1 right")


def test_no_next_step_says_so() -> None:
    at = _on(_app(t=9))  # the game of s = 10 is over after move 9
    assert not at.radio
    assert "Nothing left to predict" in _text(at)
    assert at.text[0].value == "revealed=False"
