"""The page header every page shares: the presenter-mode toggle, the share link, *Teach a
class*, the Export menu (figures, structures, the run as JSON/CSV, its Python script) and the
preset and challenge pickers.

The two buttons that must run in the browser — copying the address bar and saving a drawn
Graphviz structure as SVG — are a few lines of JavaScript in ``st.html``: Streamlit has no
clipboard API, and the structures are laid out by Graphviz in the browser (no ``dot`` binary
on the server), so the SVG only exists there. Presenter mode itself and the chart wrappers
that apply it are :mod:`ui.charts`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from . import params, rounds
from .charts import FIG_FORMAT, PRESENT, presenting
from .classroom import teach
from .guides import Guide
from .param_groups import HEADER_PARAMS

#: The Export popover's open state (``st.session_state[EXPORT_MENU]``): its files are made
#: only while it is open.
EXPORT_MENU = "export_menu"


_PRESENTER_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"] {
  display: none !important;
}
/* drawn for a 1920-px-wide projector (20 px text) and scaled with the window's width, so a
   1280×720 projector shows the 1920×1080 page at 2/3 (the lecture views scale their charts
   the same way: ui/lecture/js) */
html { font-size: calc(100vw * 20 / 1920); }
header[data-testid="stHeader"] { display: none !important; }
.stMainBlockContainer, [data-testid="stMainBlockContainer"] {
  max-width: 100% !important; padding: 0.5rem 1.2rem 3rem 1.2rem !important;
}
[data-testid="stLayoutWrapper"]:has(> .st-key-round_bar), .st-key-round_bar {
  position: sticky; top: 0; z-index: 990;
  background: var(--st-background-color, #ffffff); padding: 0.2rem 0 0.2rem 0;
}
.bl-view .bl-title { font-size: 1.1rem !important; }
.bl-view .bl-note { font-size: 0.9rem !important; }
.bl-proof-lg { font-size: 1.1rem !important; }
.bl-proof-lg sub, .bl-proof-lg sup, .bl-proof-lg .bl-proof-cite, .bl-proof-lg .bl-proof-key,
.bl-proof-lg .bl-proof-foot, .bl-proof-lg .bl-proof-why { font-size: 0.82em !important; }
/* in those smaller lines an index keeps the line's size (0.82 × 0.82 would be 15 px) */
.bl-proof-lg :is(.bl-proof-cite, .bl-proof-key, .bl-proof-foot, .bl-proof-why, i) :is(sub, sup) {
  font-size: 1em !important; }
h1 { font-size: 2.0rem !important; }
h1.bl-page-title { font-size: 1.5rem !important; }
.bl-one-line { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 0.85rem; }
/* a window under 1100 px (a phone, a tablet, 200 % zoom) is not a projector: text at its
   normal size, the views stacked or two in a row (ui/lecture/js draws their charts at a fixed
   scale there), the stepper pinned at the very top (the top bar is hidden) */
@media (max-width: 1100px) {
  html { font-size: 16px; }
  [data-testid="stLayoutWrapper"]:has(> .st-key-round_bar), .st-key-round_bar { top: 0 !important; }
}
@media (max-width: 700px) {
  .stMainBlockContainer, [data-testid="stMainBlockContainer"] {
    padding: 0.5rem 0.75rem 3rem 0.75rem !important; }
}
</style>
"""

#: Lecture pages: less space above the title, a one-line title beside the buttons.
_LECTURE_CSS = """
<style>
.stMainBlockContainer, [data-testid="stMainBlockContainer"] { padding-top: 3.6rem !important; }
h1.bl-page-title { font-size: 1.55rem !important; line-height: 1.25; padding: 0 !important;
  margin: 0 !important; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
/* a tablet or a phone: the whole title on two lines, the toggles' labels wrapped, not cut */
@media (max-width: 1100px) {
  h1.bl-page-title { white-space: normal; }
  [data-testid="stCheckbox"] [data-testid="stWidgetLabel"] [data-testid="stMarkdownContainer"],
  [data-testid="stCheckbox"] [data-testid="stWidgetLabel"] p { white-space: normal; }
}
@media (max-width: 700px) { h1.bl-page-title { font-size: 1.3rem !important; } }
</style>
"""

#: Every page: Streamlit's small controls made 24-px targets for a finger (WCAG 2.5.8, issue
#: 26, item 9) — the "?" beside a widget (16 px), a heading's link (16 px), a chip's ×,
#: plotly's mode-bar buttons (24 × 22), the tabs' scroll arrows (20 px).
_TARGETS_CSS = """
<style>
[data-testid="stTooltipHoverTarget"] > button, [data-testid="stHeaderActionElements"] a {
  min-width: 24px; min-height: 24px; display: inline-flex; align-items: center;
  justify-content: center; }
.js-plotly-plot .modebar-btn { padding: 4px !important; min-width: 24px; min-height: 24px;
  box-sizing: border-box; }
[data-testid="stTabs"] button[data-testid^="stTabsScroll"] { min-width: 24px; }
/* a phone: a preset's comment on a row of its own (beside the Challenges button it was a
   197-px column of 40 lines) */
@media (max-width: 700px) {
  [data-testid="stLayoutWrapper"]:has(> .st-key-preset_comment), .st-key-preset_comment {
    flex: 1 1 100% !important; width: 100% !important; min-width: 100% !important; } }
/* a touch screen has no hover: plotly's mode bar would stay drawn over the chart's legend
   and hints (issue 26, item 8); the lecture's charts have their own Zoom button */
@media (hover: none) {
  [data-testid="stPlotlyChart"] .modebar-container { display: none !important; }
  /* so would a table's toolbar (search, download, full screen: 44 px drawn above the
     table), over the last line of the sentence above it (the student's merge on /branching,
     issue 39, item 9); a table too wide for a phone scrolls sideways in its frame */
  [data-testid="stDataFrame"] > [data-testid="stElementToolbar"] { display: none !important; } }
[data-testid="stMultiSelectTagsContainer"] button, [data-baseweb="tag"] [role="presentation"] {
  min-width: 24px; min-height: 24px;
  display: inline-flex; align-items: center; justify-content: center; }
</style>
"""

_LINK_ICON = (
    '<svg width="16" height="16" viewBox="0 0 24 24" style="vertical-align:-3px" '
    'fill="currentColor" aria-hidden="true"><path d="M3.9 12a3.1 3.1 0 0 1 3.1-3.1h4V7H7a5 '
    "5 0 0 0 0 10h4v-1.9H7A3.1 3.1 0 0 1 3.9 12zM8 13h8v-2H8v2zm9-6h-4v1.9h4a3.1 3.1 0 0 1 "
    '0 6.2h-4V17h4a5 5 0 0 0 0-10z"/></svg>'
)

_BUTTON_CSS = (
    "font: inherit; font-size: 0.9rem; padding: 0.25rem 0.75rem; border-radius: 0.5rem; "
    "border: 1px solid rgba(128,128,128,0.45); background: transparent; color: inherit; "
    "cursor: pointer; white-space: nowrap;"
)


@dataclass
class Header:
    """What :func:`page_header` leaves for the page to fill once its run is computed."""

    export: Any  # the Export popover (a container: ``with header.export: ...``)
    modes: Any = None  # the row's first slot: the page's mode toggles (predict, weak learner)
    #: Whether the Export popover is open. Pages fill it only then: its download buttons,
    #: scripts and captions were ~10-15 % of a warm page open's server CPU, paid by every
    #: student for a menu that a teacher opens now and then (issue 27). Opening it reruns
    #: the page, which then fills it.
    export_open: bool = False


def page_header(
    title: str, intro: str | None = None, *, page: str, export: bool = True, compact: bool = False
) -> Header:
    """Title row with the presenter toggle, a copy-link button and the Export menu.

    Parameters
    ----------
    title : str
        The page title.
    intro : str, optional
        One paragraph of explanation, left out in presenter mode.
    page : str
        Short page name, used in file names of exports.
    export : bool, default True
        Whether the page has an Export menu (the home page has nothing to export).

    compact : bool, default False
        Lecture pages: the title and the buttons share one row and the intro is left for
        the page to show below its views (:func:`page_intro`), so that the stepper and the
        three views own the screen.

    Returns
    -------
    Header
        Holds the Export popover, which the page fills after computing its run.
    """
    slug = "" if page == "home" else page  # the page's URL path (the registry's slug)
    if compact:
        left, right = st.columns([3, 2], vertical_alignment="center")
        with left:
            st.markdown(
                f"<h1 class='bl-page-title'>{html.escape(title)}</h1>", unsafe_allow_html=True
            )
        holder = right
    else:
        holder = st.container()
    bar = holder.container(
        horizontal=True,
        horizontal_alignment="right",
        vertical_alignment="center",
        key="classroom_bar",
    )
    modes = bar.container(horizontal=True, width="content", vertical_alignment="center")
    bar.toggle(
        "Presenter mode",
        **params.named(HEADER_PARAMS, PRESENT).flag(),
        help="For a projector: hides the sidebar and the explanations, enlarges fonts and "
        "plots, pins the stepper at the top. Keys: ← → step, Home/End jump, Space plays. "
        "Turn it off here to change the parameters again.",
    )
    with bar:
        copy_link_button()
    # the Teach button's place: it is drawn after the class bar below, which may take up a
    # class this tab taught before its server session was lost (then there is no button)
    teach_slot = bar.container(width="content")
    menu = None
    if export:
        menu = bar.popover(
            "Export",
            icon=":material/download:",
            help="Figures, structures, the run as JSON/CSV, Python code.",
            key=EXPORT_MENU,
            on_change="rerun",
        )
        with menu:
            st.radio(
                "The camera icon of each chart saves",
                ["PNG", "SVG"],
                key=FIG_FORMAT,
                horizontal=True,
                help="Hover a chart and click the camera icon at its top right to save it "
                "in this format (PNG at twice the screen resolution).",
            )
    st.html(_TARGETS_CSS)
    teach.class_bar(slug)
    teach.teach_button(teach_slot, slug)
    if compact:
        st.html(_LECTURE_CSS)
    else:
        st.title(title)
    if presenting():
        st.html(_PRESENTER_CSS)
    elif intro and not compact:
        st.markdown(intro)
    st.session_state["_page"] = page
    st.session_state["_drawn"] = []  # structures drawn on this run, in page order
    return Header(
        export=menu if menu is not None else st.container(),
        modes=modes,
        export_open=bool(menu is not None and menu.open),
    )


def copy_link_button(label: str = "Copy link") -> None:
    """A button that copies the address bar (the page's whole state) to the clipboard."""
    st.html(
        f"""
<button id="boostlab-copy-link" title="Copy this page's address: it holds the dataset, the
parameters, the round and presenter mode, so the link reopens the same picture."
 style="{_BUTTON_CSS}">{_LINK_ICON} <span>{html.escape(label)}</span></button>
<script>
(function () {{
  const b = document.getElementById("boostlab-copy-link");
  if (!b || b.dataset.bound) return;
  b.dataset.bound = "1";
  b.addEventListener("click", async () => {{
    const url = window.location.href;
    try {{
      await navigator.clipboard.writeText(url);
      b.querySelector("span").textContent = "Copied";
    }} catch (e) {{
      window.prompt("Copy this link:", url);
    }}
    setTimeout(() => {{ b.querySelector("span").textContent = {json.dumps(label)}; }}, 2000);
  }});
}})();
</script>
""",
        width="content",
        unsafe_allow_javascript=True,
    )


def svg_download_button(index: int, filename: str, label: str) -> None:
    """Save the ``index``-th Graphviz structure drawn on the page as an SVG file.

    Graphviz lays structures out in the browser, so the SVG is taken from the page itself.
    """
    bid = f"boostlab-svg-{index}"
    st.html(
        f"""
<button id="{bid}" style="{_BUTTON_CSS}">{html.escape(label)}</button>
<script>
(function () {{
  const b = document.getElementById({json.dumps(bid)});
  if (!b || b.dataset.bound) return;
  b.dataset.bound = "1";
  b.addEventListener("click", () => {{
    const svgs = document.querySelectorAll('[data-testid="stGraphVizChart"] svg');
    const svg = svgs[{index}];
    if (!svg) {{ b.textContent = "Not drawn yet: scroll to it first"; return; }}
    const clone = svg.cloneNode(true);
    clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    const text = '<?xml version="1.0" encoding="UTF-8"?>\\n' +
      new XMLSerializer().serializeToString(clone);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], {{type: "image/svg+xml"}}));
    a.download = {json.dumps(filename)};
    document.body.appendChild(a); a.click(); a.remove();
  }});
}})();
</script>
""",
        width="content",
        unsafe_allow_javascript=True,
    )


def export_structures(header: Header, page: str) -> None:
    """DOT and SVG downloads for every structure drawn on the page so far."""
    drawn = st.session_state.get("_drawn", [])
    if not drawn or not header.export_open:
        return
    with header.export:
        st.markdown("**The structures as drawn**")
        for i, (label, source) in enumerate(drawn):
            name = f"boostlab_{page}_{i + 1}"
            st.download_button(
                f"{label} (DOT)",
                source,
                file_name=f"{name}.dot",
                mime="text/vnd.graphviz",
                key=f"{name}_dot",
                on_click="ignore",
                help="Graphviz source: render it with `dot -Tsvg` or any Graphviz viewer.",
            )
            svg_download_button(i, f"{name}.svg", f"{label} (SVG)")


def data_code(choice) -> tuple[str, dict]:
    """Python lines that rebuild the page's dataset, and its parameters for the JSON export."""
    from . import dataset_code

    # a drawing's points come with the choice (ui.widgets fills them in): the header does not
    # reach up into the canvas module for them
    xy = choice.drawn_xy if choice.key.startswith("draw:") else None
    source, params = dataset_code.dataset_spec(choice.key, choice.dataset.name, drawn_xy=xy)
    shown = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in params.items()}
    return dataset_code.dataset_code(source, params), {"source": source, **shown}


def _runs(runs: dict | Callable[[], dict]) -> dict:
    return runs() if callable(runs) else runs


def export_run(
    header: Header,
    page: str,
    params: dict,
    runs: dict | Callable[[], dict],
    snippet: str,
    feature_names=None,
) -> None:
    """The run as JSON and CSV (metrics per round) and a Python script that reproduces it.

    The files are made when their button is clicked (a deferred download: making them for
    every page open cost 10-18 % of its server CPU, issue 27). Give ``runs`` as a function
    that gets them from the shared run cache again: a deferred download keeps what it refers
    to for as long as its session lives (and 2 minutes after it disconnects), and 30
    sessions holding 30 heavy runs each went past the cache's budget
    (tests/server/test_memory_budget.py).
    """
    from . import records

    if not header.export_open:
        return
    with header.export:
        st.markdown("**The whole run**")
        st.download_button(
            "Run as JSON",
            lambda: records.run_json(page, params, _runs(runs), feature_names),
            file_name=f"boostlab_{page}_run.json",
            mime="application/json",
            key=f"{page}_run_json",
            on_click="ignore",
            help="The parameters and every round's metrics and choices, for every run shown.",
        )
        st.download_button(
            "Metrics per round (CSV)",
            lambda: records.run_csv(_runs(runs), feature_names),
            file_name=f"boostlab_{page}_run.csv",
            mime="text/csv",
            key=f"{page}_run_csv",
            on_click="ignore",
            help="One row per run and round.",
        )
        st.markdown("**Python that reproduces this run with `boostcore`**")
        st.download_button(
            "Python script (.py)",
            snippet,
            file_name=f"boostlab_{page}.py",
            mime="text/x-python",
            key=f"{page}_snippet",
            on_click="ignore",
            help="Run it from the project folder (`python boostlab_" + page + ".py`): it "
            "prints every round and the final numbers shown here.",
        )
        with st.expander("Show the script"):
            st.code(snippet, language="python")


# ------------------------------------------------------------------- presets and challenges
def _load(key: str, guides: dict, kind: str, round_value: int, name: str | None = None) -> None:
    """Callback: put a guide's state into the widgets (and so into the URL)."""
    ss = st.session_state
    if name is None:
        name = ss.get(key if kind == "preset" else f"{key}_challenge")
    if name not in guides:
        return
    params.handled(*guides[name].state)  # set here, not by the link: not on its notice
    for k, v in guides[name].state.items():
        if k == rounds.KEY:
            continue  # the round is ui/rounds.py's to set, below
        ss[k] = v
        # Before the widgets exist (a ?preset= link), a value set from Python reaches the
        # address bar only if it is written here, or a link copied after a step would
        # open the default demo. Once a widget is bound, Streamlit writes it itself and
        # refuses a direct write.
        try:
            if params.is_default(k, v):
                # as a bound widget writes it: a default is left out of the address (a value
                # of the preset's that equals it kept the teacher's address from ever
                # reading as a student's, issue 39, item 1)
                if k in st.query_params:
                    del st.query_params[k]
            else:
                st.query_params[k] = (
                    [_url_text(x) for x in v] if isinstance(v, list) else (_url_text(v))
                )
        except StreamlitAPIException:
            pass
    # the guide's round, not the one shown before (the stepper clamps it into the run)
    rounds.set_from_preset(guides[name].state.get(rounds.KEY, round_value))
    ss[f"{key}_shown"] = (kind, name)


def _url_text(value) -> str:
    """A widget value as a bound widget writes it to the URL (labels, numbers, true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def presets_and_challenges(
    key: str, presets: dict[str, Guide], challenges: dict[str, Guide], *, first_round: int = 0
) -> None:
    """A preset picker with its comment, and a Challenges menu whose answers load a demo.

    ``key`` is the preset selectbox's key (and prefixes the other session keys);
    ``first_round`` is where a loaded preset starts (a guide's ``state`` may set ``round``
    itself: the stepper clamps a large number to the last round).
    """
    # A row that keeps each control at its natural width (a narrow column would cut the
    # Challenges button's label) and gives the rest to the comment.
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    c1, c2 = row.container(width=250), row.container(width="content")
    c3 = row.container(key="preset_comment")  # a row of its own on a phone (_TARGETS_CSS)
    compact = presenting()
    if presets:
        c1.selectbox(
            "Preset",
            list(presets),
            index=None,
            key=key,
            label_visibility="collapsed" if compact else "visible",
            placeholder="Choose a preset…",
            format_func=lambda p: presets[p].title,
            on_change=_load,
            args=(key, presets, "preset", first_round),
            help="Load a prepared demo (data and parameters) with a comment on what to look at.",
        )
    if challenges:
        # The popover tracks its state (key + on_change) so that loading an answer can close
        # it: the demo it loads is on the page behind it.
        with c2.popover(
            f"Challenges ({len(challenges)})",
            icon=":material/emoji_objects:",
            help="Questions to try on your own; each has an answer you can load.",
            key=f"{key}_challenges",
            on_change="rerun",
        ):
            for name, ch in challenges.items():
                st.markdown(f"**{ch.title}**")
                st.button(
                    "Show an answer",
                    key=f"{key}_ch_{name}",
                    on_click=_reveal_and_load,
                    args=(key, challenges, name, first_round),
                )
    shown = st.session_state.get(f"{key}_shown")
    if shown:
        kind, name = shown
        guides = presets if kind == "preset" else challenges
        if name in guides:
            g = guides[name]
            if compact:  # one line on the projector; the whole comment on hover
                text = g.comment if kind == "preset" else f"{g.title} — {g.comment}"
                c3.html(
                    f"<div class='bl-one-line' title='{html.escape(text, quote=True)}'>"
                    f"<b>{'Preset' if kind == 'preset' else 'Challenge'}:</b> "
                    f"{html.escape(text)}</div>"
                )
            elif kind == "preset":
                c3.info(g.comment, icon=":material/lightbulb:")
            else:
                c3.success(f"**{g.title}** — {g.comment}", icon=":material/emoji_objects:")


def _reveal_and_load(key: str, challenges: dict, name: str, round_value: int) -> None:
    st.session_state[f"{key}_challenges"] = False  # close the Challenges popover
    st.session_state[f"{key}_challenge"] = name
    st.session_state[key] = None  # the preset box no longer describes what is shown
    _load(key, challenges, "challenge", round_value, name)


def preset_from_url(key: str, presets: dict[str, Guide], *, first_round: int = 0) -> None:
    """Load ``?preset=<name>`` once, before the page draws its widgets (lecture-path links).

    The preset's state then lives in the widgets and so in the URL; the ``preset`` parameter
    itself is removed so that later changes are not overridden.
    """
    ss = st.session_state
    raw = st.query_params.get("preset")
    if raw is None or ss.get(f"{key}_url_done"):
        return
    ss[f"{key}_url_done"] = True
    del st.query_params["preset"]
    name, bad = params.parse_choice("preset", raw, list(presets), None)
    params.note(bad, handled="preset")
    if name is None:
        return
    ss[key] = name
    _load(key, presets, "preset", first_round, name)
    # A link may name the round to show as well. The run is not computed yet here, so the
    # stepper applies it (ui/rounds.py) and says so if it is not a round of the run.
    rounds.from_link()
