"""The skeleton every lesson page runs on: what the four lecture views did alike, once.

A lesson view (``views/topdown.py``, ``branching.py``, ``matryoshka.py``, ``oblique.py``)
opens with :func:`begin` and ends with :meth:`Lesson.export` and :meth:`Lesson.close`::

    lesson = begin(PAGE, "Top-down growth: …", _sidebar, student_toggle=student.toggle)
    s = lesson.settings                      # one frozen record, in code's terms
    with lesson.computing("Growing the trees…"):
        lec = frames.topdown_lecture(lesson.ds, lesson.key, s, …)
    t = lesson.stepper(lec["n"], default=1)
    area = lesson.area()
    …                                        # the page's own views
    lesson.export(s, runs_now, lambda code: export.snippet(code, …))
    lesson.close(INTRO, _theory)

``begin`` applies a preset the link names, draws the page header, the dataset sidebar, the
page's own sidebar (its widgets return their values by URL parameter name; the page's
:class:`ui.params.Param` declarations turn them into :class:`ui.params.Settings`), the row
of presets and challenges, and the mode toggles (predict, and the student's turn where the
lesson has one). The page decides what it computes and draws; this module draws nothing of
its own between the two ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from . import lecture, quiz_widget
from .charts import presenting
from .header import Header, data_code, export_run, page_header, preset_from_url
from .params import Settings
from .widgets import DataChoice, dataset_sidebar


@dataclass
class Lesson:
    """One run of a lesson page: what :func:`begin` drew and read.

    Attributes
    ----------
    page : PageSpec
        The page's row of the registry (``ui.pages``).
    header : Header
        The page header (its Export menu and mode slot).
    choice : DataChoice
        The dataset the sidebar chose.
    settings : Settings
        The lesson's own sidebar, in code's terms.
    row : lecture.PresetRow
        The presets row's slots (``row.focus`` for the focus bar).
    predict : bool
        Whether "Predict, then reveal" is on.
    weak : bool
        Whether the student plays the weak learner (False where the lesson has no such turn).
    elapsed : float or None
        Seconds the last :meth:`computing` block took (the stepper's caption says it).
    """

    page: Any
    header: Header
    choice: DataChoice
    settings: Settings
    row: lecture.PresetRow
    predict: bool
    weak: bool
    elapsed: float | None = field(default=None)

    @property
    def ds(self):
        """The dataset (``choice.dataset``)."""
        return self.choice.dataset

    @property
    def key(self):
        """The dataset's cache key (``choice.key``)."""
        return self.choice.key

    @contextmanager
    def computing(self, text: str) -> Iterator[None]:
        """:func:`ui.lecture.computing` with ``text``, timed for the stepper's caption."""
        started = time.perf_counter()
        with lecture.computing(text):
            yield
        self.elapsed = time.perf_counter() - started

    def stepper(
        self,
        n_steps: int,
        *,
        default: int | None,
        unit: str = "round",
        note: str = "",
        **kwargs: Any,
    ) -> int | None:
        """The lesson's stepper over ``n_steps`` steps, captioned with the data's sizes and
        the time the run took (:func:`ui.lecture.stepper_caption`)."""
        caption = lecture.stepper_caption(self.ds, self.elapsed, unit=unit, note=note)
        return lecture.stepper(
            n_steps, page=self.page.slug, default=default, caption=caption, **kwargs
        )

    def area(self, *, side: bool | None = None) -> lecture.Area:
        """The area under the stepper, with the side panel when the student plays or
        predicts (or when ``side`` says so)."""
        return lecture.area(side=bool(self.weak or self.predict) if side is None else side)

    def export(
        self,
        settings: Settings,
        runs_now: Callable[[], Mapping[str, Any]],
        snippet: Callable[[str], str],
        extra: Callable[[], None] | None = None,
        *,
        extra_first: bool = True,
    ) -> None:
        """The Export menu's lesson downloads, made only while the menu is open: ``extra``
        (the page's own downloads; after the others when not ``extra_first``), the run as
        JSON/CSV with ``settings`` and the script ``snippet(data_code)`` reproducing the
        page."""
        if not self.header.export_open:
            return
        if extra is not None and extra_first:
            extra()
        code, dparams = data_code(self.choice)
        export_run(
            self.header,
            self.page.slug,
            {"data": dparams, **settings.as_dict()},
            runs_now,
            snippet(code),
            self.ds.feature_names,
        )
        if extra is not None and not extra_first:
            extra()

    def close(self, intro: str, theory: Callable[[], None]) -> None:
        """The page's introduction and its theory expander, except in presenter mode."""
        if not presenting():
            st.markdown(intro)
            theory()


def begin(
    page: Any,
    title: str,
    sidebar: Callable[[], Mapping[str, Any]],
    *,
    student_toggle: Callable[[str], bool] | None = None,
    first_round: int | Callable[[], int] | None = None,
) -> Lesson:
    """Open a lesson page: the preset a link names, the header, the dataset sidebar, the
    page's sidebar, the presets row and the mode toggles.

    Parameters
    ----------
    page : PageSpec
        The page's row of the registry (its slug, parameters, presets, preset key).
    title : str
        The page's title.
    sidebar : callable
        Draws the page's own sidebar widgets and returns their values by URL parameter name.
    student_toggle : callable, optional
        The lesson's "You are the weak learner" toggle (``student.toggle``), if it has one.
    first_round : int or callable, optional
        The round a preset opens at (a callable where it depends on the page's state);
        the registry's ``first_round`` when omitted.

    Returns
    -------
    Lesson
    """
    first = page.first_round if first_round is None else first_round

    def opening() -> int:
        return first() if callable(first) else first

    preset_from_url(page.preset_key, page.presets, first_round=opening())
    header = page_header(title, page=page.slug, compact=True)
    choice = dataset_sidebar()
    settings = page.settings(sidebar())
    row = lecture.preset_row(
        page.preset_key,
        page.presets,
        page.challenges,
        first_round=opening(),
    )
    with row.modes:
        predict = quiz_widget.predict_toggle(page.slug)
        weak = bool(student_toggle(page.slug)) if student_toggle is not None else False
    return Lesson(page, header, choice, settings, row, predict, weak)
