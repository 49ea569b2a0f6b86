"""The lecture's Streamlit side: the stepper, the views and the quiz as components
(:func:`stepper`, :func:`view`, :func:`quiz`), where they go on the page (:func:`area`,
:func:`lecture_columns`) and the panels every lecture page shares (:func:`preset_row`,
:func:`three_views`, :func:`small_multiples`, :func:`table`, …; values in, nothing
computed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from .. import payload, rounds
from ..charts import PRESENTER_FONT, chart_config, presenting
from ..header import presets_and_challenges
from .assets import COMPONENT, PLOTLY_ERROR, STYLESHEET
from .contract import ROUND_STATE, QuizData, RegionsData, StepperData, ViewData

if TYPE_CHECKING:
    from boostcore.datasets import Dataset

    from ..guides import Guide


#: Pixels the proof panel takes under the curves (ui/proof/compact.py's compact table).
PROOF_HEIGHT = 220
#: The same in presenter mode's 1920-px design (a card of five links at 22 px; scaled with
#: the window's width by ui/lecture/js).
PRESENTER_PROOF_HEIGHT = 320
#: The shortest window in which the curves leave that room (1080-px projectors; a 720-px one
#: keeps the curves' height and shows the proof below the fold).
PROOF_FROM = 900


def scroll_regions(
    selector: str = ".katex-display", label: str = "Formula (scrolls sideways)"
) -> None:
    """Make every box matching ``selector`` that is wider than the screen a named Tab stop,
    so the keyboard can scroll it too (axe: scrollable-region-focusable; a long formula
    scrolls sideways on a phone). Checked again when the page or the window changes.

    Parameters
    ----------
    selector : str, default ".katex-display"
        The boxes (Streamlit's ``st.latex`` formulas by default).
    label : str
        Their accessible name.
    """
    COMPONENT(key="bl_regions", data=RegionsData(selector=selector, label=label).to_js())


# ---------------------------------------------------------------------------------- stepper
def stepper(
    n_steps: int,
    *,
    page: str,
    key: str = rounds.KEY,
    default: int | None = None,
    label: str = "Round",
    caption: str = "",
) -> int | None:
    """The client-side round stepper; returns the round the server knows (for tables and
    exports), or ``None`` when the run has no rounds.

    Parameters
    ----------
    n_steps : int
        Number of rounds; the rounds shown are ``0 … n_steps − 1`` (round ``t`` of the step
        protocol, boostcore/steps.py: round 0 is the initial model).
    page : str
        The page's name (the browser keeps one stepper state per page).
    key : str, default ``rounds.KEY``
        Session key and URL parameter of the round (:mod:`ui.rounds` owns it: this function
        only asks it which round to show, and registers its callback for the browser's).
    default : int, optional
        Round shown when neither the link nor the session names one (the first interesting
        round); 0 if omitted.
    label, caption : str
        The slider's label and a one-line caption under it.

    Returns
    -------
    int or None
        The round as last told to the server.
    """
    if n_steps < 1:
        st.warning("The run produced no rounds to show.")
        return None
    lo, hi = 0, n_steps - 1
    start = lo if default is None else min(max(default, lo), hi)
    t = rounds.settle(lo, hi, start=start, key=key)
    if PLOTLY_ERROR:
        st.error(
            f"The charts cannot be drawn: {PLOTLY_ERROR}. Run the app once from a "
            "writable copy, or copy plotly.min.js from the plotly package into static/."
        )
    with st.container(key=f"{key}_bar"):
        data = StepperData(
            key=key,
            page=page,
            lo=lo,
            hi=hi,
            t=t,
            label=label,
            caption="" if presenting() else caption,
            start=start,
            seq=rounds.reported(key),
            moved=rounds.moves(key),
        )
        COMPONENT(
            key=rounds.control_key(key),
            data=data.to_js(),
            default={ROUND_STATE: {"t": t, "seq": rounds.reported(key)}},
            height="content",
            **StepperData.callbacks(round=lambda: rounds.on_browser_round(key, state=ROUND_STATE)),
        )
    return t


# ------------------------------------------------------------------------------------ views
def view(
    kind: str,
    frames: Sequence[Any],
    *,
    key: str,
    stepper_key: str = rounds.KEY,
    title: str = "",
    notes: Sequence[str] | None = None,
    height: int | None = None,
    min_height: int = 260,
    max_height: int = 900,
    reserve: int = 16,
    reserve_from: int | None = None,
    chart_key: str | None = None,
    focus: str | None = None,
    on_focus: Callable[[], None] | None = None,
    aspect: float | None = None,
    presenter: bool = False,
    descriptions: Sequence[str] | None = None,
) -> Any:
    """One view of the lecture: all its frames, drawn by the browser at the stepper's round.

    Parameters
    ----------
    kind : {"plotly", "svg", "html"}
        Plotly figures (from :func:`plotly_frames`), or SVG / HTML strings built from
        escaped text (from :func:`same_frames`).
    frames : sequence
        One frame per snapshot, already encoded.
    key : str
        Streamlit key of the component.
        Frame ``t`` is drawn at round ``t`` (rounds after the last show the last).
    title : str
        A one-line title drawn above the view (plain text).
    notes : sequence of str, optional
        A one-line note per frame under the view (plain text).
    height : int, optional
        Fixed height in pixels; by default the view fills the window below its top,
        between ``min_height`` and ``max_height``, leaving ``reserve`` pixels (only in a
        window at least ``reserve_from`` pixels high, when given; 16 below).
    chart_key : str, optional
        Name used for the camera button's file name.
    focus : str, optional
        Clicking the view reports this value as the ``focus`` trigger (small multiples), and
        ``on_focus`` is called.
    aspect : float, optional
        Height/width of the plotted data (regions keep the data's aspect ratio): the view
        then takes no more height than its width needs.
    presenter : bool, default False
        Frames built for presenter mode's 1920-px design (see :class:`ViewData`).
    descriptions : sequence of str, optional
        One plain sentence per frame saying what it shows, for a screen reader: the drawing
        is an image (``role="img"``) named by ``title`` and the round, described by this
        sentence (by the note when there is none). One sentence: the same at every round.
    """
    if kind not in ("plotly", "svg", "html"):
        raise ValueError(f"kind must be 'plotly', 'svg' or 'html'; got {kind!r}")
    data = ViewData(
        kind=kind,
        stepper=stepper_key,
        frames=frames,
        title=title,
        notes=notes or None,
        height=height,
        min_height=min_height,
        max_height=max_height,
        reserve=reserve,
        reserve_from=reserve_from,
        config={**chart_config(chart_key or key), "responsive": True},
        focusable=focus,
        aspect=aspect,
        presenter=presenter,
        descriptions=descriptions or None,
    )
    # only a focusable view registers the callback (the others never fire the trigger)
    callbacks = ViewData.callbacks(focus=on_focus or _nothing) if focus is not None else {}
    return COMPONENT(key=key, data=_packed(data), height="content", **callbacks)


def _packed(data: ViewData) -> bytes:
    """The view's data as bytes (ui/payload.py): its frames, notes and descriptions packed
    once per run."""
    return payload.pack(data.to_js(), ("frames", "notes", "descriptions"))


def quiz(
    questions: Sequence[dict[str, Any] | None],
    *,
    page: str,
    key: str,
    stepper_key: str = rounds.KEY,
    presenting: bool = False,
) -> Any:
    """Predict, then reveal, asked and scored by the browser at the stepper's round.

    Parameters
    ----------
    questions : sequence of dict or None
        One per round (see :class:`QuizData`); built by :func:`ui.quiz_widget.lecture_quiz`.
    page : str
        The page's name (its score is kept apart from other pages').
    key : str
        Streamlit key of the component.
    stepper_key : str, default ``rounds.KEY``
        The stepper the quiz follows.
    presenting : bool, default False
        Presenter mode.
    """
    data = QuizData(
        stepper=stepper_key, page=page, questions=list(questions), presenting=presenting
    )
    return COMPONENT(key=key, data=payload.pack(data.to_js()), height="content")


def _nothing() -> None:
    """The ``focus`` callback of a view clicked without one: the trigger still reruns."""


def scale() -> float:
    """Font scale of the lecture's figures (base 12 px): presenter mode's 22 px at 1920."""
    return PRESENTER_FONT / 12.0 if presenting() else 1.0


#: The regions' column is the widest: the plot keeps the data's aspect, so only a wider
#: column lets it use the height the window gives (issue 25, item 2: ~200 px stayed empty).
VIEW_WIDTHS = (1.25, 1.0, 1.05)


def lecture_columns(widths: Sequence[float] = VIEW_WIDTHS):
    """Three side-by-side keyed containers: ``view-regions``, ``view-structure``,
    ``view-curves`` (the tests and presenter CSS find the views by these keys), and a fourth,
    ``view-proof``, under the curves in their column (the proof at this round; empty unless
    filled)."""
    cols = st.columns(list(widths), gap="small")
    return (
        cols[0].container(key="view-regions"),
        cols[1].container(key="view-structure"),
        cols[2].container(key="view-curves"),
        cols[2].container(key="view-proof"),
    )


@dataclass(frozen=True)
class Area:
    """Where a lecture page puts its views and its student's panel (see :func:`area`).

    Attributes
    ----------
    main : DeltaGenerator
        The three views (``with area.main: three_views(...)``).
    side : DeltaGenerator
        The student's turn and the quiz, beside the views (keyed ``lecture-side``); the
        same as ``main`` when there is no side panel.
    """

    main: DeltaGenerator
    side: DeltaGenerator


#: Width of the student's panel beside the views, as a share of the page's width.
SIDE_SHARE = 0.25

#: Presenter mode with the student's panel beside the views: the share of the views' width
#: the curves' column (and the proof card under it) gets at least. At 1920 px that is ~500 px,
#: what a card of five links at 22 px needs for its relations, values and slacks (at 430 px
#: the branching and oblique pages' relations were cut, and the γ̂ note of the top-down curves ran
#: into their labels; issue 39, item 8).
PRESENTER_SIDE_CURVES = 0.37
#: The session key where :func:`area` leaves whether the page has a side panel this run.
_SIDE_KEY = "_lecture_side"


def _side_widths(widths: Sequence[float]) -> tuple[float, ...]:
    """The three views' widths (regions, structure, curves) as shares of their sum, the
    curves' raised to :data:`PRESENTER_SIDE_CURVES` when they have less, taken from the
    regions: they keep their data's aspect and only get smaller, where a structure's picture
    (chosen to fit its column at full text size) would lose detail or be drawn smaller
    (the matryoshka's dolls at 392 px had 20.8-px text; the oblique tree folds a node below
    476 px at 1920).

    >>> [round(w, 3) for w in _side_widths((1.25, 1.0, 1.05))]
    [0.327, 0.303, 0.37]
    >>> [round(w, 3) for w in _side_widths((1.2, 1.3, 0.9))]
    [0.248, 0.382, 0.37]
    >>> _side_widths((1.0, 1.0, 2.0))
    (0.25, 0.25, 0.5)
    """
    total = float(sum(widths))
    regions, structure, curves = (float(w) / total for w in widths)
    short = max(PRESENTER_SIDE_CURVES - curves, 0.0)
    return (regions - short, structure, curves + short)


def area(*, side: bool) -> Area:
    """The lecture's area under the stepper: the three views, and — when the student plays
    the weak learner or predicts — a panel beside them, so that the views stay on the
    screen in every mode (issue 25, item 1: above the views they were pushed below the
    fold). The panel scrolls on its own when its content is taller than the window.

    Parameters
    ----------
    side : bool
        Whether the page shows a student's panel.

    Returns
    -------
    Area
        The containers to fill.
    """
    st.session_state[_SIDE_KEY] = bool(side)  # three_views widens the curves beside it
    if not side:
        main = st.container(key="lecture-main")
        return Area(main=main, side=main)
    left, right = st.columns([1 - SIDE_SHARE, SIDE_SHARE], gap="small")
    return Area(main=left.container(key="lecture-main"), side=right.container(key="lecture-side"))


# ------------------------------------------------------------------- panels of a lecture page
@dataclass(frozen=True)
class PresetRow:
    """The slots :func:`preset_row` leaves for the page: its mode toggles and its focus bar."""

    modes: DeltaGenerator
    focus: DeltaGenerator


def stylesheet() -> None:
    """The stepper's and the views' styles (:func:`preset_row` puts them first on a lesson
    page; a page with a stepper and no preset row, the game's Watch mode, calls this)."""
    st.html(STYLESHEET)
    st.session_state[_SIDE_KEY] = False  # until this run's area() says otherwise


def preset_row(
    key: str, presets: dict[str, Guide], challenges: dict[str, Guide], *, first_round: int
) -> PresetRow:
    """The row under the page header: presets and challenges on the left, then a slot for
    the page's mode toggles (predict, be the weak learner) and a narrow column on the right
    for the focus bar.

    Parameters
    ----------
    key : str
        Key of the preset selectbox (see :func:`ui.header.presets_and_challenges`).
    presets, challenges : dict of str to Guide
        The page's presets and challenges.
    first_round : int
        Round a loaded preset starts at.

    Returns
    -------
    PresetRow
        The middle column (``modes``, a vertical stack of toggles) and the right-hand one
        (``focus``), inside the keyed container ``preset_row``, filled later by the page.
    """
    # the lecture's stylesheet comes first on the page: an element after it can be replaced
    # for a moment by the spinner of a new run (Streamlit puts the spinner where the previous
    # run had its next element), and without the stylesheet the spinner pushed the page down
    stylesheet()
    with st.container(key="preset_row"):
        left, modes, right = st.columns([2.6, 1.6, 1.1], vertical_alignment="bottom")
        with left:
            presets_and_challenges(key, presets, challenges, first_round=first_round)
        # the toggles side by side (one row, wrapping only where the page is narrow): a
        # stack of two took a line of the projector's height from the views
        toggles = modes.container(horizontal=True, vertical_alignment="center", gap="small")
    return PresetRow(modes=toggles, focus=right)


@contextmanager
def computing(text: str) -> Iterator[None]:
    """A spinner over the page while a new run is computed (a preset, a parameter).

    It lives in a keyed container of its own (``lecture-compute``, always drawn at the same
    place, empty once the run is ready), so it never takes the place of the stepper or the
    views while they wait for the new run; the stylesheet floats it over the page and fades
    the old run's views while it shows (issue 25, item 12).

    Parameters
    ----------
    text : str
        What is being computed ("Growing the trees…").
    """
    with st.container(key="lecture-compute"), st.spinner(text):
        yield


def stepper_caption(
    ds: Dataset, elapsed: float | None = None, *, unit: str = "round", note: str = ""
) -> str:
    """The one-line caption under a lecture page's stepper: the data's sizes and what a step
    does, in words for the class (issue 39, item 9: "every round ready in 0.00 s (cached);
    stepping is drawn by your browser" was the developers' line). ``ui/lecture/js`` adds the
    keys after it for a keyboard (hidden on a touch or narrow screen and on a class
    follower's page, whose stepper the teacher drives).

    Parameters
    ----------
    ds : Dataset
        The page's data (its training and test sizes are named).
    elapsed : float, optional
        Seconds the page took to get every round ready: not shown (the pages still pass it).
    unit : str, default "round"
        What the stepper steps through ("round", "step"): not shown either.
    note : str, optional
        A sentence on what one step does.

    Returns
    -------
    str
        ``"300 training and 100 test points"``, then `` · {note}`` when given.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> stepper_caption(make_dataset("moons", n=100, random_state=0), 0.12)
    '75 training and 25 test points'
    """
    del elapsed, unit  # the class needs neither (the keys are the lecture script's)
    return f"{ds.n_train} training and {ds.n_test} test points" + (f" · {note}" if note else "")


def focus_select(options: Sequence[str], *, help: str, index: int = 0) -> str | None:
    """The "Focused run" selectbox: which run fills the screen (session key and URL
    parameter ``focus``; its label is hidden in presenter mode).

    Parameters
    ----------
    options : sequence of str
        The runs' names.
    help : str
        The tooltip.
    index : int, default 0
        The option chosen when neither the session nor the link names one.

    Returns
    -------
    str or None
        The chosen name.
    """
    return st.selectbox(
        "Focused run",
        options,
        index=index,
        key="focus",
        bind="query-params",
        label_visibility="collapsed" if presenting() else "visible",
        help=help,
    )


def set_focus(name: str) -> None:
    """Focus the run called ``name`` (the :func:`small_multiples` click)."""
    st.session_state["focus"] = name


@dataclass(frozen=True)
class Panel:
    """One of the three large views of the focused run.

    Attributes
    ----------
    frames : sequence
        One encoded frame per round (:func:`plotly_frames` or :func:`same_frames`).
    title : str
        The line drawn above the view.
    notes : sequence of str, optional
        A note per frame under the view (one note: the same under every frame).
    aspect : float, optional
        Height/width of the plotted data (see :func:`view`).
    descriptions : sequence of str, optional
        What the view shows at each round, in one plain sentence, for a screen reader (the
        drawing's accessible description; see :func:`view`).
    """

    frames: Sequence[Any]
    title: str
    notes: Sequence[str] | None = None
    aspect: float | None = None
    descriptions: Sequence[str] | None = None


def three_views(
    tag: str,
    *,
    regions: Panel,
    structure: Panel,
    curves: Panel,
    structure_name: str = "structure",
    widths: Sequence[float] = VIEW_WIDTHS,
    proof: Panel | None = None,
) -> None:
    """The focused run's regions, structure and curves side by side (:func:`lecture_columns`).

    Parameters
    ----------
    tag : str
        The run's name in keys: the views are ``lv_regions_{tag}``,
        ``lv_{structure_name}_{tag}`` and ``lv_curves_{tag}``; the camera buttons save
        ``regions_{tag}`` and ``curves_{tag}``.
    regions : Panel
        Plotly frames of the decision regions.
    structure : Panel
        SVG frames of the learned structure (tree, program, …).
    curves : Panel
        Plotly frames of the errors and bounds.
    structure_name : str, default "structure"
        The structure's word in its key ("tree", "program", "structure").
    widths : sequence of float, default (1.25, 1.0, 1.05)
        Relative widths of the three columns.
    proof : Panel, optional
        HTML frames of the proof at this round (ui/proof/compact.py), drawn under the curves; the
        curves leave it :data:`PROOF_HEIGHT` pixels so that both fit the window. In presenter
        mode beside a side panel (:func:`area`) the curves' column gets at least
        :data:`PRESENTER_SIDE_CURVES` of the width, so that the card's lines fit.
    """
    if proof is not None and presenting() and st.session_state.get(_SIDE_KEY):
        widths = _side_widths(widths)
    left, middle, right, below = lecture_columns(widths)
    with left:
        view(
            "plotly",
            regions.frames,
            key=f"lv_regions_{tag}",
            notes=regions.notes,
            descriptions=regions.descriptions,
            chart_key=f"regions_{tag}",
            title=regions.title,
            aspect=regions.aspect,
            presenter=presenting(),
        )
    with middle:
        view(
            "svg",
            structure.frames,
            key=f"lv_{structure_name}_{tag}",
            notes=structure.notes,
            descriptions=structure.descriptions,
            title=structure.title,
            aspect=structure.aspect,
            presenter=presenting(),
        )
    with right:
        view(
            "plotly",
            curves.frames,
            key=f"lv_curves_{tag}",
            chart_key=f"curves_{tag}",
            notes=curves.notes,
            descriptions=curves.descriptions,
            title=curves.title,
            aspect=curves.aspect,
            reserve=16
            + (0 if proof is None else PRESENTER_PROOF_HEIGHT if presenting() else PROOF_HEIGHT),
            reserve_from=PROOF_FROM if proof is not None else None,
            presenter=presenting(),
        )
    if proof is not None:
        with below:
            view(
                "html",
                proof.frames,
                key=f"lv_proof_{tag}",
                title=proof.title,
                notes=proof.notes,
                descriptions=proof.descriptions,
                presenter=presenting(),
            )


@dataclass(frozen=True)
class SmallRun:
    """A run shown small under the focused one.

    Attributes
    ----------
    tag : str
        The run's name in keys (``multiple-{tag}``, ``lv_small_{tag}``, ``lv_spark_{tag}``).
    name : str
        Its title, and the value a click on it reports (the focus bar's option).
    small : sequence
        Plotly frames of its small regions.
    spark : sequence
        Plotly frames of its small curves.
    """

    tag: str
    name: str
    small: Sequence[Any]
    spark: Sequence[Any]


def small_multiples(
    runs: Sequence[SmallRun],
    *,
    heading: str,
    spark_title: str,
    on_focus: Callable[[str], None],
    columns: int = 3,
) -> None:
    """The other runs, small: regions and curves of each in a bordered box; a click on one
    focuses it. Nothing is drawn when there are no other runs.

    Parameters
    ----------
    runs : sequence of SmallRun
        The runs to show, in order.
    heading : str
        The line above them.
    spark_title : str
        Title of every small curves view.
    on_focus : callable
        Called with the run's ``name`` when it is clicked (usually :func:`set_focus`).
    columns : int, default 3
        Boxes in a row.
    """
    if not runs:
        return
    st.markdown(f"##### {heading}")
    cols = st.columns(columns)
    for i, run in enumerate(runs):
        with cols[i % columns], st.container(key=f"multiple-{run.tag}", border=True):
            a, b = st.columns([1, 1.3])
            for col, kind, frames, title in (
                (a, "small", run.small, run.name),
                (b, "spark", run.spark, spark_title),
            ):
                with col:
                    view(
                        "plotly",
                        frames,
                        key=f"lv_{kind}_{run.tag}",
                        title=title,
                        height=170,
                        focus=run.name,
                        on_focus=lambda n=run.name: on_focus(n),
                    )


def table(frames: Sequence[Any], *, key: str) -> Any:
    """A round's HTML table (frames from :func:`table_html` and :func:`same_frames`), as tall
    as its rows.

    Parameters
    ----------
    frames : sequence
        One table per round.
    key : str
        Streamlit key of the view.

    Returns
    -------
    Any
        The component's value (see :func:`view`).
    """
    return view("html", frames, key=key, min_height=0, max_height=100000)
