"""What a lecture page loads once: the stepper's and the views' stylesheet, the lecture
script and plotly.js (copied into ``static/``), and the Streamlit component that mounts the
script.

The script is kept in parts (``ui/lecture/js/``, one file per role of the component, in
:data:`PARTS` order) and served as one file: the parts share one scope, the way the single
the lecture script did, without a bundler (a concatenation needs none, and the script is an ES
module only for its ``export default``).
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import streamlit as st

from ..proof import COMPACT_CSS

_HERE = Path(__file__).resolve().parent
#: Where Streamlit serves ``app/static/`` from (the repository's ``static/``).
STATIC = _HERE.parent.parent / "static"
#: The lecture script's parts, in the order they are joined (each names what it holds).
PARTS = ("base.js", "stepper.js", "views.js", "quiz.js", "main.js")


def script_text() -> str:
    """The lecture script: its parts (:data:`PARTS`) joined in order."""
    return "\n".join((_HERE / "js" / p).read_text(encoding="utf-8") for p in PARTS)


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
   (the teacher drives its stepper: ui/classroom/js/follower.js sets body.bl-following) */
@media (hover: none), (pointer: coarse), (max-width: 700px) {
  .bl-stepper .bl-keys { display: none; } }
body.bl-following .bl-stepper .bl-keys { display: none; }
.bl-view { background: white; color: #31333F; border-radius: 0.4rem; }
.bl-view .bl-title { font-weight: 600; font-size: 0.95rem; padding: 0.1rem 0.2rem; }
.bl-view .bl-note { font-size: 0.8rem; color: #555; padding: 0 0.3rem; margin-top: 0.15rem;
  line-height: 1.2; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical;
  overflow: hidden; max-height: 2.4em; }
.bl-view .bl-note:empty { display: none; }
/* the notation's sub/superscripts (ui/text.py, ui/lecture/js rich): no taller lines, and in
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
   restyled both drawings' ~2000 (ui/lecture/js, viewMount) */
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
    """Copy the lecture script into ``static/`` under a name holding its hash; return that name.

    Why: Streamlit sends a component's inline JavaScript inside every element that mounts it
    (39 KB × 11 components, a third of /topdown's page open, issue 27 item 2). The component
    is given a five-line loader instead (:data:`LOADER`), which imports the script from
    ``app/static/``: the browser fetches it once and keeps it (a new hash for a new script).
    Stale copies of earlier versions are removed.
    """
    import hashlib
    import os

    text = script_text()
    name = f"lecture.{hashlib.sha256(text.encode()).hexdigest()[:12]}.js"
    dst = STATIC / name
    if not dst.exists() or dst.read_text(encoding="utf-8") != text:
        STATIC.mkdir(exist_ok=True)
        tmp = dst.with_name(f".lecture.{os.getpid()}.tmp")  # see ensure_plotly_js
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(dst)
    for old in STATIC.glob("lecture.*.js"):
        if old.name != name:
            old.unlink(missing_ok=True)
    return name


#: The component's JavaScript: the real script, imported once from ``static/`` (one module,
#: shared by every component of the page through ``window.__boostlab``). A view mounted
#: before the script arrives is drawn when it does; one unmounted before is never drawn.
LOADER = """const M = import(new URL("app/static/%s", document.baseURI).href);
export default function (component) {
  let off = null, gone = false;
  M.then((m) => { if (!gone) off = m.default(component); });
  return () => { gone = true; if (typeof off === "function") off(); };
}
"""


def component_js() -> str:
    """The component's JavaScript: the loader of the script's static copy (the script itself
    on a read-only installation)."""
    try:
        return LOADER % ensure_lecture_js()
    except OSError:  # a read-only installation: inline the script (as large as it is)
        return script_text()


#: The one Streamlit component every stepper, view, quiz and region box of a page mounts.
COMPONENT = st.components.v2.component("boostlab_lecture", js=component_js(), isolate_styles=False)


def ensure_plotly_js() -> Path:
    """Copy plotly.js from the installed ``plotly`` package into ``static/`` (served by
    Streamlit at ``app/static/``), where the lecture views load it from.

    The file is not committed (4.8 MB, and it must match the installed plotly); it is copied
    once per installation.
    """
    import plotly

    src = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    dst = STATIC / "plotly.min.js"
    if not dst.exists() or dst.stat().st_size != src.stat().st_size:
        import os

        STATIC.mkdir(exist_ok=True)
        # a file of this process's own, renamed into place: two servers (or a test run and a
        # server) starting at once never see, or serve, a half-written copy
        tmp = dst.with_name(f".plotly.{os.getpid()}.tmp")
        shutil.copy2(src, tmp)  # with the package's date: browsers cache it longer (issue 27)
        tmp.replace(dst)
    return dst


try:
    ensure_plotly_js()
except OSError as err:  # a read-only installation: say so on the page instead of failing
    PLOTLY_ERROR: str | None = f"plotly.js could not be copied into static/: {err}"
else:
    PLOTLY_ERROR = None


class _Prepared:
    """HTML that ``st.html`` takes as it is (its ``_repr_html_``): a string would be dedented
    and stripped on every call, 0.4 ms for the 15 KB stylesheet on every page open (issue 27,
    item 1); this one is cleaned once, at import."""

    def __init__(self, html_text: str) -> None:
        self._html = textwrap.dedent(html_text).strip()

    def _repr_html_(self) -> str:
        return self._html


#: The stylesheet :func:`ui.lecture.stylesheet` draws.
STYLESHEET = _Prepared(_NO_FADE_CSS + "<style>" + _CSS + COMPACT_CSS + "</style>")
