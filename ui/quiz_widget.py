"""Predict, then reveal: the Streamlit piece that asks a :class:`ui.quiz.Question` (issue 17,
item 2).

A page that offers the mode calls its lesson's ``questions.question`` (``ui/pages/<slug>/
questions.py``)::

    if predict_toggle("topdown"):
        q = questions.question(run, t, seed=..., index=...)
        ask(q, key="quiz_topdown", presenting=presenting())

* The question is shown with its answers lettered A–D; the student picks one (a radio), then
  **Reveal** marks it: ✓ on the right answer, ✗ on a wrong pick, and the one-line *why*.
* Stepping reveals too: when the page moves on to a later round while a pick is pending, the
  pick is marked (shown as "Round t's prediction") and the next round's question is asked.
* The session keeps a score — "3 of 4 right" — counting each question once, however often
  the student comes back to its round (a question already revealed is shown revealed).
* In presenter mode the question and the lettered answers are large, for a show of hands;
  the class's answer may be recorded (letters only) before **Reveal**, or not at all.

State lives in ``st.session_state`` under keys that start with ``key`` (plain keys, so it
survives the rounds where the widget is not drawn). Every text is escaped: markdown through
:func:`ui.text.md_plain`, HTML through :func:`html.escape` (feature names come from CSVs).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from . import lecture
from .quiz import LETTERS, Question
from .text import md_plain
from .theme import HIGHLIGHT, MEASURED

#: Okabe–Ito bluish green marks the right answer, vermillion a wrong pick (the app's palette).
RIGHT_COLOUR = MEASURED["index"]
WRONG_COLOUR = HIGHLIGHT
#: Longest text shown in markdown (questions and whys are one line; this only guards).
MAX_TEXT = 400

_PRESENTER_CSS = f"""
<style>
.bl-quiz {{ border: 2px solid rgba(128,128,128,0.45); border-radius: 0.75rem;
  padding: 0.5rem 1.0rem; margin: 0.1rem 0 0.2rem 0; }}
.bl-quiz-q {{ font-size: 1.5rem; font-weight: 600; line-height: 1.25; margin-bottom: 0.4rem; }}
/* the answers side by side (one row on a projector): the three views keep the screen */
.bl-quiz-grid {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
  gap: 0.5rem; }}
.bl-quiz-a {{ font-size: 1.3rem; padding: 0.3rem 0.8rem; border-radius: 0.6rem;
  border: 2px solid rgba(128,128,128,0.35); }}
.bl-quiz-a b {{ display: inline-block; min-width: 2.0rem; }}
.bl-quiz-right {{ border-color: {RIGHT_COLOUR}; background: rgba(0,158,115,0.14); }}
.bl-quiz-wrong {{ border-color: {WRONG_COLOUR}; background: rgba(213,94,0,0.10); }}
.bl-quiz-dim {{ opacity: 0.45; }}
.bl-quiz-why {{ font-size: 1.2rem; margin-top: 0.4rem; }}
/* a 1280-px projector: the same lines, smaller, so that the views keep their height */
@media (max-width: 1500px) {{
  .bl-quiz-q {{ font-size: 1.15rem; margin-bottom: 0.25rem; }}
  .bl-quiz-a {{ font-size: 1.0rem; padding: 0.15rem 0.6rem; }}
  .bl-quiz-grid {{ grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 0.35rem; }}
  .bl-quiz-why {{ font-size: 1.0rem; }}
}}
.bl-quiz-score {{ font-size: 1.0rem; opacity: 0.8; margin-top: 0.4rem; }}
</style>
"""


def predict_toggle(page: str, *, key: str | None = None) -> bool:
    """The "Predict, then reveal" toggle of a page (off by default).

    Parameters
    ----------
    page : str
        The page's short name (the toggle's session key is ``quiz_<page>_on``).
    key : str, optional
        Another session key for the toggle.

    Returns
    -------
    bool
        Whether the page asks a question before each step.
    """
    # off by default; no value= given: a class follower's page sets it from the teacher's
    # (ui/classroom/teach.py) before it is drawn
    return st.toggle(
        "Predict, then reveal",
        key=key or f"quiz_{page}_on",
        help="Before each step, one question about what the step will do, generated from "
        "this run: pick an answer, then reveal it (or step). The session keeps a score.",
    )


def score(key: str) -> tuple[int, int]:
    """``(right, answered)`` so far in this session for the widget ``key``."""
    right, answered = st.session_state.get(f"{key}_score", (0, 0))
    return int(right), int(answered)


def score_text(right: int, answered: int) -> str:
    """``"3 of 4 right"`` (``"No prediction marked yet"`` before the first)."""
    if answered == 0:
        return "No prediction marked yet"
    return f"{right} of {answered} right"


def reset(key: str) -> None:
    """Forget the widget's questions, picks and score (a new class, a new game)."""
    for k in [k for k in st.session_state if str(k).startswith(f"{key}_")]:
        del st.session_state[k]


# ------------------------------------------------------------------------------ state
def _log(key: str) -> dict[str, int | None]:
    """Every question revealed so far (by id) and the answer picked then (``None``: none)."""
    return st.session_state.setdefault(f"{key}_log", {})


def _picks(key: str) -> dict[str, int]:
    """The answer picked for each question not revealed yet (by id)."""
    return st.session_state.setdefault(f"{key}_picks", {})


def _radio_key(key: str, q: Question) -> str:
    return f"{key}_choice_{q.ident}"


def _mark(key: str, q: Question, choice: int | None) -> None:
    """Reveal ``q``: log the pick and count it in the score (once per question)."""
    log = _log(key)
    if q.ident in log:
        return
    log[q.ident] = choice
    _picks(key).pop(q.ident, None)
    if choice is not None:
        right, answered = score(key)
        st.session_state[f"{key}_score"] = (right + (choice == q.correct), answered + 1)


def _picked(key: str, q: Question) -> None:
    """The radio's callback: keep the pick in a plain key (the radio's own state is dropped
    on a run that does not draw it, e.g. the run after a step)."""
    value = st.session_state.get(_radio_key(key, q))
    if value is None:
        _picks(key).pop(q.ident, None)
    else:
        _picks(key)[q.ident] = int(value)


def _reveal(key: str, q: Question, on_reveal: Callable[[Question], None] | None) -> None:
    _mark(key, q, _picks(key).get(q.ident))
    if on_reveal is not None:
        on_reveal(q)


def _stepped(key: str, q: Question | None) -> tuple[Question, int] | None:
    """When the page has moved on to a later round (``q`` asked later, or no question: the
    run's last round), mark the pending pick of the question asked before — the step reveals
    it — and return that question and its pick to show."""
    ss = st.session_state
    before: Question | None = ss.get(f"{key}_current")
    ss[f"{key}_current"] = q
    if before is None or (q is not None and before.ident == q.ident):
        return None
    pick = _picks(key).get(before.ident)
    if pick is None or before.ident in _log(key):
        return None  # nothing was predicted, or it is marked already
    if q is not None and (before.page != q.page or q.t <= before.t):
        return None  # not a step forward past it
    _mark(key, before, pick)
    return before, pick


# ---------------------------------------------------------------------------- drawing
def _verdict(q: Question, choice: int | None) -> tuple[str, str]:
    """``(kind, text)``: ``"right"``, ``"wrong"`` or ``"shown"`` and the line saying so."""
    answer = f"{LETTERS[q.correct]}. {q.answer}"
    if choice is None:
        return "shown", f"The answer is {answer}. {q.why}"
    if choice == q.correct:
        return "right", f"Right: {answer}. {q.why}"
    return "wrong", f"Not this time — the answer is {answer}. {q.why}"


def _marked_lines(q: Question, choice: int | None) -> str:
    """The answers as markdown lines: ✓ on the right one (bold), ✗ on a wrong pick."""
    lines = []
    for i in range(len(q.answers)):
        text = md_plain(q.labelled(i), MAX_TEXT)
        if i == q.correct:
            mine = " (your answer)" if choice == i else ""
            lines.append(f"✓ **{text}**{mine}")
        elif i == choice:
            lines.append(f"✗ ~~{text}~~ (your answer)")
        else:
            lines.append(f"◦ {text}")
    return "  \n".join(lines)


def _alert(kind: str, text: str) -> None:
    safe = md_plain(text, MAX_TEXT)
    if kind == "right":
        st.success(safe, icon="✅")
    elif kind == "wrong":
        st.error(safe, icon="❌")
    else:
        st.info(safe, icon="💡")


def _normal(key: str, q: Question, choice: int | None, revealed: bool, on_reveal) -> None:
    st.markdown(f"**Predict:** {md_plain(q.text, MAX_TEXT)}")
    if revealed:
        st.markdown(_marked_lines(q, choice))
        _alert(*_verdict(q, choice))
        return
    st.radio(
        "Your prediction",
        list(range(len(q.answers))),
        index=choice,
        format_func=lambda i: md_plain(q.labelled(i), MAX_TEXT),
        key=_radio_key(key, q),
        on_change=_picked,
        args=(key, q),
    )
    st.button(
        "Reveal",
        key=f"{key}_reveal_{q.ident}",
        type="primary",
        on_click=_reveal,
        args=(key, q, on_reveal),
        help="Show the right answer and why (stepping to the next round reveals it too).",
    )


def _presenter_html(q: Question, choice: int | None, revealed: bool) -> str:
    boxes = []
    for i, letter in enumerate(q.letters):
        cls = "bl-quiz-a"
        mark = ""
        if revealed:
            if i == q.correct:
                cls += " bl-quiz-right"
                mark = " ✓"
            elif i == choice:
                cls += " bl-quiz-wrong"
                mark = " ✗"
            else:
                cls += " bl-quiz-dim"
        boxes.append(f"<div class='{cls}'><b>{letter}</b>{html.escape(q.answers[i])}{mark}</div>")
    why = ""
    if revealed:
        _, text = _verdict(q, choice)
        why = f"<div class='bl-quiz-why'>{html.escape(text)}</div>"
    return (
        f"<div class='bl-quiz'><div class='bl-quiz-q'>{html.escape(q.text)}</div>"
        f"<div class='bl-quiz-grid'>{''.join(boxes)}</div>{why}</div>"
    )


def _presenter(key: str, q: Question, choice: int | None, revealed: bool, on_reveal) -> Any:
    """The question and its answers large on the left; the class's answer and Reveal on one
    line on the right, the score under them (the column is returned, for the score), so that
    the quiz takes a few lines of a projector's height and the three views keep the rest."""
    left, right = st.columns([4, 1.5], vertical_alignment="center")
    left.html(_PRESENTER_CSS + _presenter_html(q, choice, revealed))
    if revealed:
        return right
    with right.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.radio(
            "Class's answer",
            list(range(len(q.answers))),
            index=choice,
            format_func=lambda i: LETTERS[i],
            help="Optional: the letter most hands went up for, to keep the class's score.",
            horizontal=True,
            label_visibility="collapsed",
            key=_radio_key(key, q),
            on_change=_picked,
            args=(key, q),
        )
        st.button(
            "Reveal",
            key=f"{key}_reveal_{q.ident}",
            type="primary",
            on_click=_reveal,
            args=(key, q, on_reveal),
        )
    return right


def ask(
    question: Question | None,
    *,
    key: str,
    presenting: bool,
    on_reveal: Callable[[Question], None] | None = None,
) -> bool:
    """Ask ``question`` before the page's next step; mark it when revealed.

    Parameters
    ----------
    question : Question or None
        This round's question (the page's ``ui.pages.<slug>.questions.question``); ``None``
        when there is no next step (the widget then says so and shows the score).
    key : str
        Prefix of every session key of the widget (one per page, e.g. ``"quiz_topdown"``).
    presenting : bool
        Presenter mode (``ui.charts.presenting()``): the question large, answers
        lettered for a show of hands, the class's answer optional.
    on_reveal : callable, optional
        Called with the question when **Reveal** is pressed (e.g. to step the page on).

    Returns
    -------
    bool
        Whether the question is revealed (by **Reveal** now or earlier in the session).
    """
    with st.container(border=not presenting, key=f"{key}_box"):
        last = _stepped(key, question)
        if last is not None:
            before, pick = last
            kind, text = _verdict(before, pick)
            mark = {"right": "✓", "wrong": "✗"}.get(kind, "")
            st.markdown(
                f"{mark} **Round {before.t}'s prediction:** " + md_plain(text, MAX_TEXT),
            )
        if question is None:
            st.caption(
                md_plain("Nothing left to predict: this is the run's last round.", MAX_TEXT)
                + f" · Score this session: {score_text(*score(key))}"
            )
            return False
        log = _log(key)
        revealed = question.ident in log
        choice = log[question.ident] if revealed else _picks(key).get(question.ident)
        slot = st
        if presenting:
            slot = _presenter(key, question, choice, revealed, on_reveal)
        else:
            _normal(key, question, choice, revealed, on_reveal)
        hint = (
            "The class's answer (optional), then Reveal · " if presenting and not revealed else ""
        )
        slot.caption(f"{hint}Score this session: {score_text(*score(key))}")
        return revealed


# ------------------------------------------------------------------- the lecture pages' quiz
def question_data(q: Question | None) -> dict[str, Any] | None:
    """A question as the browser's quiz reads it (``ui/lecture/js``, role ``"quiz"``): text
    whose only markup is the notation's ``<sub>``/``<sup>`` (:func:`ui.text.sub`), which the
    browser draws as such; every other character is set as text, never as markup."""
    if q is None:
        return None
    return {
        "id": q.ident,
        "t": int(q.t),
        "text": q.text,
        "answers": list(q.answers),
        "correct": int(q.correct),
        "why": q.why,
        "kind": q.kind,
    }


def lecture_quiz(questions: Sequence[Question | None], *, page: str, presenting: bool) -> None:
    """Predict, then reveal on a lecture page: every round's question handed to the browser
    with the frames, so it is asked, revealed and scored there at the round on screen
    (issue 25, item 6: asked by the server it came seconds after the step, and a pick or a
    reveal could be lost in a rerun).

    Parameters
    ----------
    questions : sequence of Question or None
        The question asked at each round ``t`` (about the step to ``t + 1``); ``None`` where
        there is nothing to ask (the last round).
    page : str
        The page's name: the keyed container is ``quiz_{page}_box`` and the score is kept
        per page in the browser tab.
    presenting : bool
        Presenter mode (larger text; the class's answer is optional).
    """
    with st.container(key=f"quiz_{page}_box"):
        lecture.quiz(
            [question_data(q) for q in questions],
            page=page,
            key=f"quiz_{page}_view",
            presenting=presenting,
        )
