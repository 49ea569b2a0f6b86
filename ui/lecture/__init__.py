"""The lecture view: a run's rounds stepped inside the browser, three linked views on one screen.

A page computes its runs once (cached), turns every round into a *frame* of each view —
a plotly figure (regions, curves), an SVG picture (the structure) or an HTML table — and
hands all frames to the browser once. The client-side stepper (:func:`stepper`) moves
through them without a round trip to the server: a step only swaps what is drawn, Play keeps
its speed, and ``?round=`` is written to the address bar by the browser. A step causes no
rerun: the server hears of the round only when another control of the page is used (the
Export menu, a new focus), just before that control's rerun, and a late rerun never moves
the stepper back (:class:`StepperData`'s ``seq`` and ``moved``; issue 27, item 3). Which
round is shown is :mod:`ui.rounds`'s to say; this module only draws it.

What the browser receives is declared once, in :mod:`ui.lecture.contract`: :class:`StepperData`
and :class:`ViewData` (frozen dataclasses whose fields, camelCased by
:meth:`ComponentData.to_js`, are the keys the script reads) and the values it sends back
(:data:`ROUND_STATE`, :data:`FOCUS_TRIGGER`). ``tests/ui/test_lecture_contract.py`` checks the
script against them.

Frames are deduplicated before they are sent (:mod:`ui.lecture.codec`: :func:`plotly_frames`,
:func:`same_frames`):
a trace, layout or picture equal to an earlier round's is sent as ``{"$r": round}``, and
Streamlit's message cache keeps an unchanged view from being re-sent on a rerun. Per-step
cost is measured by ``benchmarks/bench_browser_step.py``.

Layout (:mod:`ui.lecture.layout`, :func:`lecture_columns`): the three views sit side by side
in keyed containers ``view-regions``, ``view-structure`` and ``view-curves`` and size
themselves to the rest of the window, so regions, structure and bound curves are on one screen.

Panels shared by the lecture pages (one function a panel, values in, nothing computed):
:func:`preset_row` (presets and challenges, with a slot for the focus bar),
:func:`focus_select` and :func:`set_focus` (which run is shown large),
:func:`stepper_caption`, :func:`three_views` (regions, structure and curves of the focused
run, each a :class:`Panel`), :func:`small_multiples` (the other runs, each a
:class:`SmallRun`) and :func:`table` (a round's HTML table).

The package, one module a job: :mod:`~ui.lecture.assets` (the stylesheet, the script's parts in
``js/`` and plotly.js, copied into ``static/`` and loaded once), :mod:`~ui.lecture.codec`
(frames; no Streamlit call), :mod:`~ui.lecture.contract` (the Python ↔ script contract;
none either) and :mod:`~ui.lecture.layout` (the components and panels on a page). Callers use
the names below, from ``ui.lecture``.
"""

from .assets import PARTS, STATIC, ensure_lecture_js, ensure_plotly_js, script_text
from .codec import jsonable, plotly_frames, resolve_frames, same_frames, table_html
from .contract import (
    FOCUS_TRIGGER,
    ROUND_STATE,
    ComponentData,
    QuizData,
    RegionsData,
    StepperData,
    ViewData,
)
from .layout import (
    PRESENTER_PROOF_HEIGHT,
    PRESENTER_SIDE_CURVES,
    PROOF_FROM,
    PROOF_HEIGHT,
    SIDE_SHARE,
    VIEW_WIDTHS,
    Area,
    Panel,
    PresetRow,
    SmallRun,
    area,
    computing,
    focus_select,
    lecture_columns,
    preset_row,
    quiz,
    scale,
    scroll_regions,
    set_focus,
    small_multiples,
    stepper,
    stepper_caption,
    stylesheet,
    table,
    three_views,
    view,
)

__all__ = [
    "FOCUS_TRIGGER",
    "PARTS",
    "PRESENTER_PROOF_HEIGHT",
    "PRESENTER_SIDE_CURVES",
    "PROOF_FROM",
    "PROOF_HEIGHT",
    "ROUND_STATE",
    "SIDE_SHARE",
    "STATIC",
    "VIEW_WIDTHS",
    "Area",
    "ComponentData",
    "Panel",
    "PresetRow",
    "QuizData",
    "RegionsData",
    "SmallRun",
    "StepperData",
    "ViewData",
    "area",
    "computing",
    "ensure_lecture_js",
    "ensure_plotly_js",
    "focus_select",
    "jsonable",
    "lecture_columns",
    "plotly_frames",
    "preset_row",
    "quiz",
    "resolve_frames",
    "same_frames",
    "scale",
    "script_text",
    "scroll_regions",
    "set_focus",
    "small_multiples",
    "stepper",
    "stepper_caption",
    "stylesheet",
    "table",
    "table_html",
    "three_views",
    "view",
]
