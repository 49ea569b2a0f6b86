"""The class's weak learners, pooled (issue 28, item 4): what the three "You are the weak
learner" modes share when a class follows — the split on /topdown, the stump on /branching,
the separator on /oblique.

The teacher turns on *Class splits* (:func:`collect_toggle`); each follower's page then has
*Send my … to the class* (:func:`send_row`) in place of its play buttons, right under the
controls it sends; the teacher's page shows :func:`panel`: how many were sent, the class's
best against the algorithm's, the button that plays the best one, the submissions drawn over
the regions and the histogram of their scores. A page scores the submissions itself, with the
function that scores the student's own choice (``score_split``, ``score_stump``,
``score_separator``): a submission it cannot score is counted as refused and changes nothing.

While the class collects, a follower's page keeps the algorithm's choice to itself
(:func:`answer_hidden`: it would give the answer away); once the teacher has played a
choice, the page shows how the class's choice compared with the algorithm's
(:func:`played_note`).

The submissions travel through the class store (:mod:`server.store`: one per student, a
new one replaces it; a new collection and each choice played drop them).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from .. import theme
from ..charts import PRESENTER_FONT, PRESENTER_SCALE, chart, presenting
from . import teach


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


def answer_hidden() -> bool:
    """Whether a follower's page keeps the algorithm's choice to itself: while the class
    collects, the algorithm's split and its score beside the student's would give the
    answer away before the student sends (issue 39, item 6)."""
    return teach.collecting()


def _sent(key: str, turn: int, message: str) -> None:
    st.session_state[f"{key}_sent"] = (turn, message)


def _send(key: str, turn: int, split: dict[str, Any]) -> None:
    _sent(key, turn, teach.send_split(split))


def send_row(key: str, split: Mapping[str, Any] | None, *, what: str, turn: int) -> None:
    """A follower's action, drawn where it is called — right under the student's controls,
    so that what it sends is just above it: send ``split`` to the class (disabled when
    ``None``: the page could not score it), or say that the teacher plays the choices. The
    confirmation goes right under the button: on a phone it is on the screen the tap was
    made on (issue 39, item 5: it landed below the table and the notes, off the screen).

    Parameters
    ----------
    key : str
        The page's weak-learner key (``"weak_topdown"``).
    split : mapping or None
        The student's choice as the page's panel reads it back (numbers and short text).
    what : str
        The choice's name: "split", "stump", "line".
    turn : int
        The rounds played so far: a confirmation is shown for its own round only (a round
        the teacher has played since asks for a new choice).
    """
    with st.container(key=f"{key}_send_row"):
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
            args=(key, turn, dict(split or {})),
        )
        sent = st.session_state.get(f"{key}_sent")
        if isinstance(sent, tuple) and len(sent) == 2 and sent[0] == turn:
            st.info(sent[1])


def played_note(key: str, text: str) -> None:
    """On a follower's page, once the teacher has played a choice: ``text`` (markdown, the
    caller escapes it), how that choice compared with the algorithm's — the answer the page
    kept to itself while the class was choosing (:func:`answer_hidden`)."""
    with st.container(key=f"{key}_played"):
        st.info(text)


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

#: Presenter mode: characters on a line of the panel's chart titles at the projector's font
#: (the panel is a quarter of a 1920-px screen, about 440 px: plotly does not wrap a title).
TITLE_CHARS = 30


def _wrapped(text: str | None, chars: int) -> str | None:
    """``text`` cut into lines of at most ``chars`` characters (plotly's ``<br>``)."""
    if not text or "<br>" in text or len(text) <= chars:
        return text
    return "<br>".join(textwrap.wrap(text, chars, break_long_words=False))


def _for_the_hall(fig: go.Figure) -> None:
    """Presenter mode: the panel's charts read like the lecture's views from the back of the
    hall — every text at ``ui.charts.PRESENTER_FONT`` (22 px at 1920) once :func:`chart`
    has enlarged the layout's fonts by ``PRESENTER_SCALE`` (a mark's text it does not
    enlarge is set to that size here), and the titles wrapped to the panel's width (issue 39,
    item 8: 12-16 px before)."""

    base = math.ceil(PRESENTER_FONT / PRESENTER_SCALE)
    lay = fig.layout

    def grow(size: float | None) -> int:
        return max(round(size or 0), base)

    title = _wrapped(lay.title.text, TITLE_CHARS)
    fig.update_layout(
        font_size=grow(lay.font.size),
        # above the plot, the top margin grown to hold all its lines
        title=dict(
            text=title,
            font_size=grow(lay.title.font.size),
            yref="paper",
            y=1,
            yanchor="bottom",
            automargin=True,
        ),
        legend_font_size=grow(lay.legend.font.size),
    )
    for name in [a for a in lay if a.startswith(("xaxis", "yaxis"))]:
        axis = lay[name]
        text = _wrapped(axis.title.text, TITLE_CHARS)
        fig.update_layout(
            {
                name: dict(
                    tickfont_size=grow(axis.tickfont.size),
                    title=dict(text=text, font_size=grow(axis.title.font.size)),
                )
            }
        )
    for ann in lay.annotations or ():
        ann.font.size = grow(ann.font.size)
    for trace in fig.data:
        if "textfont" in trace and trace.textfont.size is not None:
            trace.textfont.size = max(trace.textfont.size, PRESENTER_FONT)


def _panel_chart(fig: go.Figure, key: str) -> None:
    """One of the panel's charts: no plotly mode bar (it covered the chart's title), fonts
    for the hall in presenter mode."""
    if presenting():
        _for_the_hall(fig)
    chart(fig, key=key, config={"displayModeBar": False})


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
        # above the charts: on the projector's first screen (below them it was not)
        if st.button(
            "Use the class's best split",
            key=f"{key}_class_best",
            type="primary",
            help=play_help,
        ):
            play()
            teach.clear_class_splits()
            st.rerun()
        for name, fig in zip(("regions", "hist"), figures(), strict=False):
            _panel_chart(fig, f"{key}_class_{name}")
