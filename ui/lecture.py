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

What the browser receives is declared once, here: :class:`StepperData` and :class:`ViewData`
(frozen dataclasses whose fields, camelCased by :meth:`ComponentData.to_js`, are the keys
``lecture.js`` reads) and the values it sends back (:data:`ROUND_STATE`,
:data:`FOCUS_TRIGGER`). ``tests/test_lecture_contract.py`` checks the script against them.

Frames are deduplicated before they are sent (:func:`plotly_frames`, :func:`same_frames`):
a trace, layout or picture equal to an earlier round's is sent as ``{"$r": round}``, and
Streamlit's message cache keeps an unchanged view from being re-sent on a rerun. Per-step
cost is measured by ``benchmarks/bench_browser_step.py``.

Layout (:func:`lecture_columns`): the three views sit side by side in keyed containers
``view-regions``, ``view-structure`` and ``view-curves`` and size themselves to the rest of
the window, so regions, structure and bound curves are on one screen.

Panels shared by the lecture pages (one function a panel, values in, nothing computed):
:func:`preset_row` (presets and challenges, with a slot for the focus bar),
:func:`focus_select` and :func:`set_focus` (which run is shown large),
:func:`stepper_caption`, :func:`three_views` (regions, structure and curves of the focused
run, each a :class:`Panel`), :func:`small_multiples` (the other runs, each a
:class:`SmallRun`) and :func:`table` (a round's HTML table).
"""

from __future__ import annotations

import functools
import html
import json
import shutil
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from . import payload, rounds
from .charts import PRESENTER_FONT, chart_config, presenting
from .header import presets_and_challenges
from .proof import COMPACT_CSS

if TYPE_CHECKING:
    from boostcore.datasets import Dataset

    from .guides import Guide

#: Pixels the proof panel takes under the curves (ui/proof.py's compact table).
PROOF_HEIGHT = 220
#: The same in presenter mode's 1920-px design (a card of five links at 22 px; scaled with
#: the window's width by ui/lecture.js).
PRESENTER_PROOF_HEIGHT = 320
#: The shortest window in which the curves leave that room (1080-px projectors; a 720-px one
#: keeps the curves' height and shows the proof below the fold).
PROOF_FROM = 900

_HERE = Path(__file__).resolve().parent
_STATIC = _HERE.parent / "static"

_CSS = """
.bl-stepper { font-family: inherit; }
.bl-stepper .bl-row { display: flex; align-items: center; gap: 0.75rem; flex-wrap: nowrap; }
.bl-stepper .bl-label { white-space: nowrap; font-size: 1rem; min-width: 9.5em; }
.bl-stepper .bl-value { font-size: 1.25rem; font-variant-numeric: tabular-nums; }
.bl-stepper .bl-of { opacity: 0.7; font-size: 0.85rem; }
.bl-stepper .bl-range { flex: 1 1 auto; min-width: 6rem; accent-color: #A52F3C; height: 1.6rem; }
.bl-stepper .bl-buttons { display: flex; gap: 0.3rem; flex: 0 0 auto; align-items: center; }
.bl-stepper .bl-btn { font: inherit; font-size: 1rem; min-width: 2.4rem; height: 2.4rem;
  padding: 0 0.6rem; border-radius: 0.5rem; border: 1px solid rgba(128,128,128,0.45);
  background: transparent; color: inherit; cursor: pointer; white-space: nowrap; }
.bl-stepper .bl-btn:disabled { opacity: 0.35; cursor: default; }
.bl-stepper .bl-play { background: #A52F3C; color: white; border-color: #A52F3C;
  min-width: 5rem; font-weight: 600; }
.bl-stepper .bl-play.bl-playing { background: #8B1E2B; }
.bl-stepper .bl-speed { font: inherit; font-size: 0.9rem; height: 2.4rem; border-radius: 0.5rem;
  border: 1px solid rgba(128,128,128,0.45); background: transparent; color: inherit; }
.bl-stepper .bl-caption { font-size: 0.8rem; opacity: 0.75; margin-top: 0.1rem; }
.bl-stepper .bl-caption:empty { display: none; }
/* the keys, for a keyboard: not on a touch screen, a narrow one or a class follower's page
   (the teacher drives its stepper: ui/classroom/klass.js sets body.bl-following) */
@media (hover: none), (pointer: coarse), (max-width: 700px) {
  .bl-stepper .bl-keys { display: none; } }
body.bl-following .bl-stepper .bl-keys { display: none; }
.bl-view { background: white; color: #31333F; border-radius: 0.4rem; }
.bl-view .bl-title { font-weight: 600; font-size: 0.95rem; padding: 0.1rem 0.2rem; }
.bl-view .bl-note { font-size: 0.8rem; color: #555; padding: 0 0.3rem; margin-top: 0.15rem;
  line-height: 1.2; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical;
  overflow: hidden; max-height: 2.4em; }
.bl-view .bl-note:empty { display: none; }
/* the notation's sub/superscripts (ui/text.py, ui/lecture.js rich): no taller lines, and in
   presenter mode no smaller than the hall's 18 px at 1920 (a note is 18 px there) */
:is(.bl-view .bl-title, .bl-view .bl-note, .bl-stepper .bl-caption, .bl-quiz) :is(sub, sup) {
  font-size: 0.8em; line-height: 0; }
.bl-present .bl-note :is(sub, sup) { font-size: 1em; }
.bl-present .bl-title :is(sub, sup) { font-size: 0.82em; }
.bl-view-svg .bl-body { overflow: hidden; text-align: center; }
.bl-view-plotly .bl-body { position: relative; }
.bl-view-plotly .bl-slot { position: absolute; top: 0; left: 0; width: 100%; height: 100%; }
/* a drawing kept for another round: not drawn, not hit, out of the accessibility tree; its
   rendering state is kept, so showing it restyles ~600 elements, where visibility: hidden
   restyled both drawings' ~2000 (ui/lecture.js, viewMount) */
.bl-view-plotly .bl-slot-off { content-visibility: hidden; pointer-events: none; }
.bl-view-svg .bl-body svg { display: inline-block; max-width: 100%; max-height: 100%;
  width: auto; height: auto; }
.bl-stepper .bl-btn svg { vertical-align: middle; }
.bl-view-html .bl-body { overflow-x: auto; }
.bl-view-html table { border-collapse: collapse; font-size: 0.85rem; width: 100%; }
.bl-view-html th, .bl-view-html td { border-bottom: 1px solid #e6e6e6; padding: 0.2rem 0.45rem;
  text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.bl-view-html th { background: #f5f5f7; font-weight: 600; }
.bl-view-html td:first-child, .bl-view-html th:first-child { text-align: left; }
.bl-quiz { border: 1px solid rgba(128,128,128,0.45); border-radius: 0.6rem; padding: 0.5rem 0.7rem;
  font-size: 1rem; line-height: 1.3; }
.bl-quiz-q { font-weight: 600; margin-bottom: 0.4rem; }
.bl-quiz-grid { display: grid; grid-template-columns: 1fr; gap: 0.35rem; }
.bl-quiz-a { font: inherit; text-align: left; min-height: 44px; padding: 0.3rem 0.6rem;
  border-radius: 0.5rem; border: 2px solid rgba(128,128,128,0.4); background: transparent;
  color: inherit; cursor: pointer; display: flex; gap: 0.5rem; align-items: center; }
.bl-quiz-a b { min-width: 1.4em; }
.bl-quiz-a:disabled { cursor: default; color: inherit; }
.bl-quiz-picked { border-color: #31333F; background: rgba(49,51,63,0.08); }
.bl-quiz-right { border-color: #009E73; background: rgba(0,158,115,0.14); }
.bl-quiz-wrong { border-color: #D55E00; background: rgba(213,94,0,0.10); }
.bl-quiz-dim { opacity: 0.55; }
.bl-quiz-actions { margin-top: 0.4rem; }
.bl-quiz-reveal { font: inherit; min-height: 44px; padding: 0 1.1rem; border-radius: 0.5rem;
  border: 1px solid #A52F3C; background: #A52F3C; color: white; font-weight: 600;
  cursor: pointer; }
.bl-quiz-reveal[hidden] { display: none; }
.bl-quiz-why { margin-top: 0.4rem; }
.bl-quiz-why:empty, .bl-quiz-last:empty { display: none; }
.bl-quiz-why.bl-quiz-right, .bl-quiz-last.bl-quiz-right { border-left: 4px solid #009E73;
  background: rgba(0,158,115,0.10); padding: 0.2rem 0.5rem; }
.bl-quiz-why.bl-quiz-wrong, .bl-quiz-last.bl-quiz-wrong { border-left: 4px solid #D55E00;
  background: rgba(213,94,0,0.08); padding: 0.2rem 0.5rem; }
.bl-quiz-why.bl-quiz-shown, .bl-quiz-last.bl-quiz-shown { border-left: 4px solid #0072B2;
  background: rgba(0,114,178,0.08); padding: 0.2rem 0.5rem; }
.bl-quiz-last { margin-bottom: 0.4rem; font-size: 0.9em; }
.bl-quiz-score { margin-top: 0.35rem; font-size: 0.9em; color: #4a4c57; }
.bl-quiz-class { margin-top: 0.35rem; font-size: 0.95em; }
.bl-quiz-class:empty { display: none; }
.bl-quiz-bar { display: grid; grid-template-columns: 2.6em 1fr 2.5em; gap: 0.4rem;
  align-items: center; margin-top: 0.15rem; }
.bl-quiz-bar span { display: block; height: 0.9em; min-width: 2px; background: #8c8f99;
  border-radius: 0.2rem; }
.bl-quiz-bar-right span { background: #009E73; }
.bl-quiz-bar i { font-style: normal; font-variant-numeric: tabular-nums; text-align: right; }
.st-key-lecture-side { max-height: calc(100vh - 8rem); overflow-y: auto; overflow-x: hidden;
  position: sticky; top: 7.5rem; padding-right: 0.2rem; }
/* the side panel is narrow: the student's columns (plot | controls) stack, full width */
.st-key-lecture-side [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
.st-key-lecture-side [data-testid="stColumn"] { min-width: 100% !important;
  width: 100% !important; flex: 1 1 100% !important; }
.bl-focusable { cursor: pointer; outline: 1px solid transparent; }
.bl-focusable:hover { outline: 2px solid #A52F3C; }
/* ---- phones, keyboards and screen readers (issue 26) */
/* read by a screen reader, not drawn */
.bl-sr { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
/* the page's first Tab stop, shown while it has the focus */
.bl-skip { position: fixed; left: 0.5rem; top: -5rem; z-index: 1000000; background: #31333F;
  color: #ffffff !important; padding: 0 1rem; min-height: 44px; display: flex;
  align-items: center; border-radius: 0.4rem; font-weight: 600; text-decoration: none; }
.bl-skip:focus { top: 0.5rem; outline: 3px solid #0072B2; outline-offset: 2px; }
.bl-stepper :is(.bl-btn, .bl-range, .bl-speed):focus-visible,
.bl-focusable:focus-visible, .bl-view .bl-note[role=button]:focus-visible,
.bl-zoom:focus-visible, .bl-quiz-a:focus-visible, .bl-quiz-reveal:focus-visible {
  outline: 3px solid #0072B2; outline-offset: 2px; }
/* Streamlit's toggles and checkboxes show where the keyboard is */
label[data-baseweb="checkbox"]:has(input:focus-visible) { outline: 3px solid #0072B2;
  outline-offset: 2px; border-radius: 0.3rem; }
/* a note cut to two lines opens whole on a tap or Enter */
.bl-view .bl-note.bl-cut { cursor: pointer; }
.bl-view .bl-note.bl-open { display: block; -webkit-line-clamp: unset; max-height: none;
  overflow: visible; cursor: pointer; }
.bl-view .bl-body .bl-cut { cursor: pointer; }
.bl-view .bl-body .bl-cut:focus-visible { outline: 3px solid #0072B2; outline-offset: 1px; }
.bl-view .bl-body .bl-cut.bl-open { white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; display: block !important; -webkit-line-clamp: unset !important; }
/* a finger's targets: the proof card's lines and its cut lines at least 24 px high */
@media (pointer: coarse), (max-width: 1100px) {
  .bl-view .bl-proof-link > * { padding-top: 4px; padding-bottom: 4px; }
  .bl-view .bl-body .bl-cut { line-height: 24px; }
}
/* on a touch screen a chart lets the page scroll until its Zoom button hands it the gestures */
.bl-view .bl-title:has(> .bl-zoom) { display: flex; align-items: center;
  justify-content: space-between; gap: 0.4rem; }
.bl-zoom { flex: 0 0 auto; font: inherit; font-size: 0.8rem; font-weight: 400; min-height: 44px;
  min-width: 44px; padding: 0 0.7rem; border-radius: 0.5rem;
  border: 1px solid rgba(49,51,63,0.55); background: #ffffff; color: #31333F; cursor: pointer; }
.bl-zoom[aria-pressed="true"] { background: #31333F; color: #ffffff; }
.bl-touch-locked .js-plotly-plot .draglayer, .bl-touch-locked .js-plotly-plot .draglayer *,
.bl-touch-locked .js-plotly-plot .legend, .bl-touch-locked .js-plotly-plot .legend * {
  pointer-events: none !important; }
/* plotly's mode bar (a mouse's: hidden on a touch screen until Zoom): 24-px buttons */
.js-plotly-plot .modebar-btn { padding: 4px !important; min-width: 24px;
  min-height: 24px; box-sizing: border-box; }
/* Streamlit's "?" help icons: a target of at least 24 px (WCAG 2.5.8) */
[data-testid="stTooltipHoverTarget"] { min-width: 24px; min-height: 24px; display: inline-flex;
  align-items: center; justify-content: center; }
@media (prefers-reduced-motion: reduce) {
  .bl-stepper *, .bl-view, .bl-view *, .bl-quiz * { transition: none !important;
    animation: none !important; scroll-behavior: auto !important; }
}
/* A tablet, a small laptop window: the regions and the structure side by side, the curves
   and the proof under them at full width, the student's panel under the views (three views
   in a row left the curves ~80 px wide at 768 px; issue 26, item 8). */
@media (max-width: 1100px) {
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-view-regions),
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-lecture-side) {
    flex-wrap: wrap; }
  [data-testid="stColumn"]:has(.st-key-view-regions),
  [data-testid="stColumn"]:has(.st-key-view-structure) {
    flex: 1 1 calc(50% - 1rem) !important; min-width: calc(50% - 1rem) !important;
    width: calc(50% - 1rem) !important; }
  [data-testid="stColumn"]:has(.st-key-view-curves),
  [data-testid="stColumn"]:has(> [data-testid="stVerticalBlock"] .st-key-lecture-main),
  [data-testid="stColumn"]:has(.st-key-lecture-side) {
    flex: 1 1 100% !important; min-width: 100% !important; width: 100% !important; }
  .st-key-lecture-side { max-height: none; position: static; overflow: visible; }
  /* the stepper pinned under the top bar, its buttons 44-px targets; above the page's end
     of the screen while the page's top (a long preset comment) is read, it waits there */
  [data-testid="stLayoutWrapper"]:has(> .st-key-round_bar), .st-key-round_bar {
    position: sticky; top: 3.75rem; bottom: 0; z-index: 990;
    background: var(--st-background-color, #ffffff); padding: 0.15rem 0; }
  .bl-stepper .bl-btn { min-width: 44px; height: 44px; }
  .bl-stepper .bl-range, .bl-stepper .bl-speed { height: 44px; }
}
/* Narrow screens (a phone, a tablet upright, 200 % zoom): the views stack (Streamlit's
   columns do), the stepper wraps onto two rows of 44-px targets and stays pinned under the
   page's top bar, and nothing is wider than the screen (issue 26, items 1, 7 and 9). */
@media (max-width: 700px) {
  .bl-stepper .bl-row { flex-wrap: wrap; gap: 0.35rem 0.5rem; }
  .bl-stepper .bl-label { min-width: 0; flex: 0 0 auto; font-size: 0.95rem; }
  .bl-stepper .bl-range { flex: 1 1 6rem; min-width: 0; height: 44px; margin: 0; }
  .bl-stepper .bl-buttons { flex: 1 1 100%; min-width: 0; }
  .bl-stepper .bl-btn { flex: 1 1 0; min-width: 44px; height: 44px; padding: 0; }
  .bl-stepper .bl-play { flex: 1.5 1 0; min-width: 4rem; }
  .bl-stepper .bl-speed { flex: 2.4 1 0; min-width: 0; height: 44px; font-size: 0.85rem; }
  .bl-stepper .bl-caption { font-size: 0.75rem; white-space: nowrap; overflow: hidden;
    text-overflow: ellipsis; cursor: pointer; }
  .bl-stepper .bl-caption.bl-open { white-space: normal; }
  [data-testid="stColumn"]:has(.st-key-view-regions),
  [data-testid="stColumn"]:has(.st-key-view-structure) {
    flex: 1 1 100% !important; min-width: 100% !important; width: 100% !important; }
  .bl-view-html .bl-body { max-width: 100%; }
}
"""

#: Nothing on a lecture page fades while the server reruns: a step is drawn by the browser,
#: and the rerun that follows it (the server being told the round) changes nothing visible,
#: so a fade would only flicker. A slow rerun still shows Streamlit's running indicator.
_NO_FADE_CSS = """
<style>
[data-testid="stMain"] [data-stale="true"], [data-testid="stMain"] .stale-element {
  opacity: 1 !important; transition: none !important;
}
/* A new run (a preset, a parameter) is computed under a spinner: the spinner floats over
   the page instead of pushing the stepper and the views down (issue 25, item 12: the layout
   jumped), and while it shows, the old run's views fade, so nobody mistakes them for the
   new one. */
[data-testid="stLayoutWrapper"]:has(> .st-key-lecture-compute), .st-key-lecture-compute {
  position: fixed !important; top: 40vh; left: 50%; transform: translateX(-50%);
  z-index: 1001; width: auto !important; min-width: 0 !important;
}
.st-key-lecture-compute [data-testid="stElementContainer"]:has(> [data-testid="stSpinner"]) {
  width: auto !important; background: var(--st-background-color, #fff);
  padding: 0.7rem 1.2rem; border-radius: 0.6rem; box-shadow: 0 2px 14px rgba(0,0,0,0.25);
}
[data-testid="stMain"]:has(.st-key-lecture-compute [data-testid="stSpinner"]) .st-key-lecture-main {
  opacity: 0.3;
}
</style>
"""


def ensure_lecture_js() -> str:
    """Copy ``lecture.js`` into ``static/`` under a name holding its hash; return that name.

    Why: Streamlit sends a component's inline JavaScript inside every element that mounts it
    (39 KB × 11 components, a third of /topdown's page open, issue 27 item 2). The component
    is given a five-line loader instead (:data:`_LOADER`), which imports the script from
    ``app/static/``: the browser fetches it once and keeps it (a new hash for a new script).
    Stale copies of earlier versions are removed.
    """
    import hashlib
    import os

    text = (_HERE / "lecture.js").read_text(encoding="utf-8")
    name = f"lecture.{hashlib.sha256(text.encode()).hexdigest()[:12]}.js"
    dst = _STATIC / name
    if not dst.exists() or dst.read_text(encoding="utf-8") != text:
        _STATIC.mkdir(exist_ok=True)
        tmp = dst.with_name(f".lecture.{os.getpid()}.tmp")  # see ensure_plotly_js
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(dst)
    for old in _STATIC.glob("lecture.*.js"):
        if old.name != name:
            old.unlink(missing_ok=True)
    return name


#: The component's JavaScript: the real script, imported once from ``static/`` (one module,
#: shared by every component of the page through ``window.__boostlab``). A view mounted
#: before the script arrives is drawn when it does; one unmounted before is never drawn.
_LOADER = """const M = import(new URL("app/static/%s", document.baseURI).href);
export default function (component) {
  let off = null, gone = false;
  M.then((m) => { if (!gone) off = m.default(component); });
  return () => { gone = true; if (typeof off === "function") off(); };
}
"""


def _js() -> str:
    try:
        return _LOADER % ensure_lecture_js()
    except OSError:  # a read-only installation: inline the script (as large as it is)
        return (_HERE / "lecture.js").read_text(encoding="utf-8")


_COMPONENT = st.components.v2.component("boostlab_lecture", js=_js(), isolate_styles=False)


def ensure_plotly_js() -> Path:
    """Copy plotly.js from the installed ``plotly`` package into ``static/`` (served by
    Streamlit at ``app/static/``), where the lecture views load it from.

    The file is not committed (4.8 MB, and it must match the installed plotly); it is copied
    once per installation.
    """
    import plotly

    src = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    dst = _STATIC / "plotly.min.js"
    if not dst.exists() or dst.stat().st_size != src.stat().st_size:
        import os

        _STATIC.mkdir(exist_ok=True)
        # a file of this process's own, renamed into place: two servers (or a test run and a
        # server) starting at once never see, or serve, a half-written copy
        tmp = dst.with_name(f".plotly.{os.getpid()}.tmp")
        shutil.copy2(src, tmp)  # with the package's date: browsers cache it longer (issue 27)
        tmp.replace(dst)
    return dst


# ----------------------------------------------------------------------------- frame codecs
try:
    ensure_plotly_js()
except OSError as err:  # a read-only installation: say so on the page instead of failing
    _PLOTLY_ERROR: str | None = f"plotly.js could not be copied into static/: {err}"
else:
    _PLOTLY_ERROR = None


def _canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _jsonable(obj: Any) -> Any:
    """Plain JSON values; numpy arrays of more than 16 numbers become plotly.js typed arrays
    (:func:`ui.payload.typed_array`: floats as float32, ample for drawing and half the bytes)."""
    import numpy as np

    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "fiub" and obj.size > 16:
            return payload.typed_array(obj)
        return _jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, float) and obj != obj:  # NaN: a gap in a line
        return None
    return obj


_MISSING = object()


def _changes(base: dict, new: dict, path: list, out: list) -> bool:
    """Append ``[path, value]`` for every part of ``new`` that differs from ``base`` (a dict
    whose keys all stay is walked into; anything else is replaced whole); ``False`` when
    ``new`` lacks a key of ``base`` (a change a list of settings cannot say)."""
    if any(k not in new for k in base):
        return False
    for k, v in new.items():
        b = base.get(k, _MISSING)
        if b is _MISSING:
            out.append([[*path, k], v])
        elif b == v:
            continue
        elif isinstance(v, dict) and isinstance(b, dict) and "bdata" not in v:
            if not _changes(b, v, [*path, k], out):
                out.append([[*path, k], v])
        else:
            out.append([[*path, k], v])
    return True


def _delta(base: dict, new: dict, size: int, t: int) -> dict | None:
    """``new`` as the previous round's ``base`` with some parts set — ``{"$d": t − 1,
    "$set": [[path, value], …]}`` — when that is under 90 % of its ``size`` in JSON."""
    sets: list = []
    if not _changes(base, new, [], sets):
        return None
    delta = {"$d": t - 1, "$set": sets}
    return delta if len(json.dumps(delta, separators=(",", ":"))) < 0.9 * size else None


def plotly_frames(figures: Sequence[Any]) -> list[dict]:
    """Plotly figures (one per round; a ``go.Figure`` or a ``{"data", "layout"}`` dict) as
    JSON-ready frames with repeats replaced by references and changes by deltas.

    A trace equal to the same trace of an earlier round, or a layout equal to an earlier
    layout, becomes ``{"$r": round}``. One that differs from the previous round's in a few
    parts only (the points' sizes, a line's end, a title) becomes ``{"$d": round − 1,
    "$set": [[path, value], …]}`` (issue 27, item 2: /branching at 5,000 points re-sent
    every point's coordinates each round for a change of their sizes). The browser
    (``lecture.js``) and :func:`resolve_frames` restore them.
    """
    out: list[dict] = []
    seen_traces: list[dict[str, int]] = []
    seen_layouts: dict[str, int] = {}
    prev_traces: list[dict] = []
    prev_layout: dict | None = None
    for t, fig in enumerate(figures):
        if not isinstance(fig, dict):
            fig = fig.to_plotly_json()
        spec = _jsonable(fig)
        data = []
        traces = spec.get("data", [])
        for i, tr in enumerate(traces):
            if len(seen_traces) <= i:
                seen_traces.append({})
            c = _canon(tr)
            if c in seen_traces[i]:
                data.append({"$r": seen_traces[i][c]})
                continue
            seen_traces[i][c] = t
            delta = None
            if i < len(prev_traces) and isinstance(tr, dict):
                delta = _delta(prev_traces[i], tr, len(c), t)
            data.append(delta or tr)
        prev_traces = list(traces)
        lay = dict(spec.get("layout", {}))
        lay.pop("template", None)  # plotly.py's default template: plotly.js has its own
        full = lay
        c = _canon(lay)
        if c in seen_layouts:
            lay = {"$r": seen_layouts[c]}
        else:
            seen_layouts[c] = t
            if prev_layout is not None:
                lay = _delta(prev_layout, lay, len(c), t) or lay
        prev_layout = full
        out.append({"data": data, "layout": lay})
    return out


def _patched(base: dict, sets: list) -> dict:
    """``base`` with each ``[path, value]`` of ``sets`` set; the dicts along a path are
    copied, everything else is shared."""
    out = dict(base)
    for path, value in sets:
        node = out
        for k in path[:-1]:
            node[k] = dict(node[k])
            node = node[k]
        node[path[-1]] = value
    return out


def resolve_frames(frames: Sequence[Any]) -> list[Any]:
    """Undo the references and deltas of :func:`plotly_frames` and :func:`same_frames`
    (what ``lecture.js``'s ``resolveFrames`` does; tests and exports read frames with it)."""
    out: list[Any] = []

    def part(ref: Any, earlier) -> Any:
        if isinstance(ref, dict) and "$r" in ref:
            return earlier(ref["$r"])
        if isinstance(ref, dict) and "$d" in ref:
            return _patched(earlier(ref["$d"]), ref["$set"])
        return ref

    for f in frames:
        if isinstance(f, dict) and "$r" in f:
            out.append(out[f["$r"]])
        elif isinstance(f, dict) and isinstance(f.get("data"), list):
            data = [part(tr, lambda s, i=i: out[s]["data"][i]) for i, tr in enumerate(f["data"])]
            out.append({"data": data, "layout": part(f["layout"], lambda s: out[s]["layout"])})
        else:
            out.append(f)
    return out


def same_frames(items: Sequence[str]) -> list[Any]:
    """Strings (SVG pictures, HTML tables) or lists of them, one per round, with repeats as
    references."""
    out: list[Any] = []
    seen: dict[str, int] = {}
    for t, s in enumerate(items):
        c = s if isinstance(s, str) else _canon(s)
        if c in seen:
            out.append({"$r": seen[c]})
        else:
            seen[c] = t
            out.append(s)
    return out


def table_html(frame, *, decimals: int = 4) -> str:
    """A small table as escaped HTML (every cell is text: headers and values are escaped);
    missing values show as "—" and numbers with the same number of decimals. A header that
    the glossary of docs/theory.md explains gets that line as its tooltip."""
    import math

    def cell(v) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "—"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, float):
            return f"{v:.{decimals}f}"
        return str(v)

    from .theory_doc import tip

    def th(c) -> str:
        text = tip(str(c))
        if text is None:
            return f"<th>{html.escape(str(c))}</th>"
        # the glossary line of docs/theory.md as a tooltip; dotted underline says "hover me"
        return (
            f'<th title="{html.escape(text)}" style="text-decoration: underline '
            f'dotted; cursor: help">{html.escape(str(c))}</th>'
        )

    head = "".join(th(c) for c in frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell(v))}</td>" for v in row) + "</tr>"
        for row in frame.astype(object).to_numpy().tolist()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


# ------------------------------------------------------------------- the contract with lecture.js
@functools.cache  # a handful of field names, converted on every view of every run
def _camel(name: str) -> str:
    """``min_height`` → ``minHeight``: a Python field's name as lecture.js reads it."""
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


@dataclass(frozen=True)
class ComponentData:
    """What ``ui/lecture.js`` is mounted with, and what it sends back; one subclass per role.

    The component's ``data`` is built only by :meth:`to_js` from a subclass's fields (their
    names in camelCase, plus ``role``), and its callbacks only by :meth:`callbacks` from the
    names the subclass declares. ``tests/test_lecture_contract.py`` parses ``lecture.js`` and
    fails when the script reads a key that is not sent, a key is sent that the script never
    reads, or the script sends back a value whose name is not declared here.

    Attributes
    ----------
    role : str
        The ``data.role`` lecture.js dispatches on (class attribute).
    states : tuple of str
        Names of the values the script keeps with ``setStateValue(name, value)``; Streamlit
        calls ``on_{name}_change`` (class attribute).
    triggers : tuple of str
        Names of the events the script fires with ``setTriggerValue(name, value)``; Streamlit
        calls ``on_{name}_change`` (class attribute).
    """

    role: ClassVar[str] = ""
    states: ClassVar[tuple[str, ...]] = ()
    triggers: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def js_keys(cls) -> tuple[str, ...]:
        """The keys of :meth:`to_js`, as lecture.js reads them."""
        return ("role", *(_camel(f.name) for f in fields(cls)))

    def to_js(self) -> dict[str, Any]:
        """The component's ``data``: ``role`` and every field, camelCased (not copied: the
        frames can be megabytes)."""
        return {"role": self.role, **{_camel(f.name): getattr(self, f.name) for f in fields(self)}}

    @classmethod
    def callbacks(cls, **handlers: Callable[[], None]) -> dict[str, Callable[[], None]]:
        """Streamlit's ``on_{name}_change`` keyword arguments for declared names.

        Parameters
        ----------
        **handlers : callable
            One callback per declared state or trigger name (``round=…``, ``focus=…``).

        Returns
        -------
        dict of str to callable
            ``{"on_round_change": …}``, to unpack into the component call.

        Raises
        ------
        ValueError
            For a name the role does not declare (the script never sends it).
        """
        declared = (*cls.states, *cls.triggers)
        unknown = sorted(set(handlers) - set(declared))
        if unknown:
            raise ValueError(f"{cls.__name__} sends back only {declared}; got {unknown}")
        return {f"on_{name}_change": handler for name, handler in handlers.items()}


#: The browser stepper's state value: the round it shows (``setStateValue("round", t)``).
ROUND_STATE = "round"
#: A focusable view's trigger: a click on a small multiple (``setTriggerValue("focus", name)``).
FOCUS_TRIGGER = "focus"


@dataclass(frozen=True)
class StepperData(ComponentData):
    """The browser's round stepper (role ``"stepper"``); see :func:`stepper`.

    Attributes
    ----------
    key : str
        The round's session key and URL parameter (the stepper writes ``?{key}=``).
    page : str
        The page's name: the browser keeps one stepper state per page and key.
    lo, hi : int
        The run's first and last round.
    t : int
        The round the server shows (a change of it wins over the browser's round).
    label : str
        The slider's label.
    caption : str
        The line under the stepper (empty in presenter mode).
    start : int
        The page's default round: the address bar names every other round.
    seq : int
        The sequence number of the browser's last report the server applied (0: none); a
        rerun that began before a later report is a late echo, which does not move the
        round (:func:`ui.rounds.on_browser_round`).
    moved : int
        How many times the server moved the round itself (a preset, the student's play):
        a change of it wins over the browser's round.
    """

    role: ClassVar[str] = "stepper"
    states: ClassVar[tuple[str, ...]] = (ROUND_STATE,)

    key: str
    page: str
    lo: int
    hi: int
    t: int
    label: str
    caption: str
    start: int
    seq: int
    moved: int


@dataclass(frozen=True)
class ViewData(ComponentData):
    """One view of the lecture (role ``"view"``); see :func:`view` for the meaning of each.

    Attributes
    ----------
    kind : {"plotly", "svg", "html"}
    stepper : str
        The key of the stepper whose round the view draws.
    frames : list
        One encoded frame per round.
    title : str
    notes : list of str or None
    height : int or None
        A fixed height; ``None`` fits the window (``min_height``, ``max_height``,
        ``reserve``, ``reserve_from``) and the data's ``aspect``.
    min_height, max_height, reserve : int
    reserve_from : int or None
    config : dict
        plotly.js's config (the camera button's file name, responsive).
    focusable : str or None
        The ``focus`` trigger's value on a click; ``None``: not clickable.
    descriptions : list of str or None
        One plain sentence per round: what the drawing shows (its accessible description).
    aspect : float or None
        Height/width of the plotted data.
    presenter : bool
        Presenter mode: the frames were built for a 1920-px-wide screen; the browser scales
        their text and margins with the window's width, with a floor of 22 px at 1920
        (26 px for a label holding a sub/superscript).
    """

    role: ClassVar[str] = "view"
    triggers: ClassVar[tuple[str, ...]] = (FOCUS_TRIGGER,)

    kind: str
    stepper: str
    frames: Sequence[Any]
    title: str
    notes: Sequence[str] | None
    height: int | None
    min_height: int
    max_height: int
    reserve: int
    reserve_from: int | None
    config: dict[str, Any]
    focusable: str | None
    aspect: float | None
    presenter: bool
    descriptions: Sequence[str] | None = None


@dataclass(frozen=True)
class QuizData(ComponentData):
    """Predict, then reveal in the browser (role ``"quiz"``); see :func:`quiz`.

    Attributes
    ----------
    stepper : str
        The key of the stepper whose round the quiz follows.
    page : str
        The page's name: the browser keeps one score per page (sessionStorage).
    questions : list of dict or None
        One entry per round: the question asked before the next step (``id``, ``t``,
        ``text``, ``answers``, ``correct``, ``why``, ``kind``), or ``None`` (nothing to ask).
    presenting : bool
        Presenter mode: larger text, and the class's answer is optional.
    """

    role: ClassVar[str] = "quiz"

    stepper: str
    page: str
    questions: list[dict[str, Any] | None]
    presenting: bool


@dataclass(frozen=True)
class RegionsData(ComponentData):
    """Boxes that scroll sideways made keyboard regions (role ``"regions"``); see
    :func:`scroll_regions`.

    Attributes
    ----------
    selector : str
        CSS selector of the boxes (e.g. KaTeX's display formulas).
    label : str
        The accessible name of a box that scrolls (a Tab stop then).
    """

    role: ClassVar[str] = "regions"

    selector: str
    label: str


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
    _COMPONENT(key="bl_regions", data=RegionsData(selector=selector, label=label).to_js())


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
    if _PLOTLY_ERROR:
        st.error(
            f"The charts cannot be drawn: {_PLOTLY_ERROR}. Run the app once from a "
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
        _COMPONENT(
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
    return _COMPONENT(key=key, data=_packed(data), height="content", **callbacks)


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
    return _COMPONENT(key=key, data=payload.pack(data.to_js()), height="content")


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
    st.html(_STYLESHEET)
    st.session_state[_SIDE_KEY] = False  # until this run's area() says otherwise


class _Prepared:
    """HTML that ``st.html`` takes as it is (its ``_repr_html_``): a string would be dedented
    and stripped on every call, 0.4 ms for the 15 KB stylesheet on every page open (issue 27,
    item 1); this one is cleaned once, at import."""

    def __init__(self, html_text: str) -> None:
        self._html = textwrap.dedent(html_text).strip()

    def _repr_html_(self) -> str:
        return self._html


_STYLESHEET = _Prepared(_NO_FADE_CSS + "<style>" + _CSS + COMPACT_CSS + "</style>")


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
    stepping is drawn by your browser" was the developers' line). ``ui/lecture.js`` adds the
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
    del elapsed, unit  # the class needs neither (the keys are lecture.js's)
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
        HTML frames of the proof at this round (ui/proof.py), drawn under the curves; the
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
