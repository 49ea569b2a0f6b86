"""The class's weak learners, pooled (issue 28, item 4): what the three "You are the weak
learner" modes share when a class follows — the split on /topdown, the stump on /branching,
the separator on /oblique.

The teacher turns on *Class splits* (:func:`collect_toggle`); each follower's page then has
*Send my … to the class* (:func:`send_row`) in place of its play buttons; the teacher's page
shows :func:`panel`: how many were sent, the class's best against the algorithm's, the
submissions drawn over the regions, the histogram of their scores, and the button that plays
the best one. A page scores the submissions itself, with the function that scores the
student's own choice (``score_split``, ``score_stump``, ``score_separator``): a submission it
cannot score is counted as refused and changes nothing.

The submissions travel through the class store (:mod:`ui.classroom.store`: one per student, a
new one replaces it; a new collection and each choice played drop them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from .. import theme
from . import chart, teach


def collect_toggle() -> None:
    """The teacher's *Class splits* toggle (only on a page that teaches a class)."""
    if teach.teaching():
        st.toggle(
            "Class splits",
            key=teach.COLLECT,
            on_change=teach.clear_class_splits,
            help="Every student sends their choice from their phone; this panel shows them "
            "on the regions, their scores against the algorithm's, and the class's best, "
            "which you can play.",
        )


def collecting() -> bool:
    """Whether the teacher's page shows the class's submissions now."""
    return teach.teaching() and bool(st.session_state.get(teach.COLLECT))


def _sent(key: str, message: str) -> None:
    st.session_state[f"{key}_sent"] = message


def _send(key: str, split: dict[str, Any]) -> None:
    _sent(key, teach.send_split(split))


def send_row(actions: Any, key: str, split: Mapping[str, Any] | None, *, what: str) -> None:
    """A follower's action in ``actions``: send ``split`` to the class (disabled when
    ``None``: the page could not score it), or say that the teacher plays the choices.

    Parameters
    ----------
    actions : container
        Where the page's play buttons would be.
    key : str
        The page's weak-learner key (``"weak_topdown"``).
    split : mapping or None
        The student's choice as the page's panel reads it back (numbers and short text).
    what : str
        The choice's name: "split", "stump", "line".
    """
    with actions:
        if not teach.collecting():
            st.caption(
                f"The teacher plays the {what}s. When they open *Class splits*, send yours "
                "from here."
            )
            return
        st.button(
            f"Send my {what} to the class",
            key=f"{key}_send",
            type="primary",
            disabled=split is None,
            on_click=_send,
            args=(key, dict(split or {})),
        )
    if message := st.session_state.get(f"{key}_sent"):
        st.info(message)


def histogram(
    values: Sequence[float],
    reference: float | None,
    *,
    title: str,
    x_title: str,
    reference_label: str = "the algorithm's",
) -> go.Figure:
    """The class's scores as a histogram, the algorithm's as a line."""
    fig = go.Figure(go.Histogram(x=list(values), nbinsx=12, marker_color="rgba(60,60,60,0.55)"))
    if reference is not None:
        fig.add_vline(
            x=reference,
            line=dict(color=theme.HIGHLIGHT, width=3),
            annotation_text=reference_label,
            annotation_position="top",
        )
    fig.update_layout(
        title=dict(text=title),
        xaxis_title=x_title,
        yaxis_title="students",
        # whole students: a tick every student, or every few of a large class
        yaxis=dict(tick0=0, dtick=max(1, math.ceil(len(values) / 6)), rangemode="tozero"),
        height=300,
        margin=dict(t=56),
        bargap=0.05,
    )
    return fig


#: How a submission is drawn on the regions: the class's in grey dots, the best in colour.
OTHERS = dict(color="rgba(60,60,60,0.55)", width=1.5, dash="dot")
BEST = dict(color=theme.HIGHLIGHT, width=4, dash="solid")


def panel(
    key: str,
    *,
    n: int,
    refused: int,
    best: str,
    figures: Callable[[], Sequence[go.Figure]],
    play: Callable[[], None],
    play_help: str,
) -> None:
    """The teacher's view of the class's submissions (call it from the page's fragment).

    Parameters
    ----------
    key : str
        The page's weak-learner key; the panel is ``st.container(key=f"{key}_class")``.
    n, refused : int
        Submissions scored, and refused (not a choice of this round).
    best : str
        Markdown: the class's best and the algorithm's (escaped by the caller).
    figures : callable
        The panel's figures (the regions with the submissions, the histogram), built only
        when there is something to draw.
    play : callable
        Plays the class's best (the page's ``Turn.play``).
    play_help : str
        The button's help text.
    """
    with st.container(border=True, key=f"{key}_class"):
        note = f" ({refused} refused: not a choice of this round)" if refused else ""
        if not n:
            st.markdown(f"**Class splits**: waiting for the students' choices{note}.")
            return
        st.markdown(f"**Class splits: {n}** sent{note}. {best}")
        for name, fig in zip(("regions", "hist"), figures(), strict=False):
            chart(fig, key=f"{key}_class_{name}")
        if st.button(
            "Use the class's best split",
            key=f"{key}_class_best",
            type="primary",
            help=play_help,
        ):
            play()
            teach.clear_class_splits()
            st.rerun()
