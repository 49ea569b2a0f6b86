"""AppTest for the classroom tools of ``ui/header.py`` on every page.

* Presenter mode (``?present=true``): every page runs, the toggle reads True, the intro
  paragraph and the theory expander are left out; without it they are shown.
* URL round trip: a non-default state in the query string (every parameter the page draws,
  at a value next to its registry default; a lesson's round; the game's moves ``mv``)
  reaches every widget, and the query string after the run still holds it
  (state → URL → state). Then the state changes through the app and the query string follows.
* Export popover: its download buttons exist with their labels, the run JSON parses (read
  from AppTest's media storage), the script in "Show the script" compiles, and every
  Graphviz structure the page offers as SVG is drawn on the page.

The pages, their parameters and features come from the page registry (``ui/pages``); what a
page's view says of itself (its intro, its theory box, the names its run's JSON gives the
parameters) is read from the view's source.

What AppTest cannot see: a bound widget (``bind="query-params"``) changed by a *user* is
written to the address bar by the browser, not by the server, so after ``set_value`` the
query string of AppTest keeps the old value. Changes the server makes itself (the stepper's
``?round=``, the game's ``?mv=``, presets writing into session state) are visible here; the
browser-side half is in ``tests/browser/test_browser_classroom.py``.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import charts, pages
from ui.params import Param

ROOT = Path(__file__).resolve().parents[2]
#: Every page, by its name for ``ah.page`` (the registry's slug, "home" for the home page).
PAGES = [p.slug or "home" for p in pages.PAGES]


def _view(page: str) -> ast.Module:
    return ast.parse((ROOT / pages.page(page).view).read_text("utf-8"))


def _call_name(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)


def _intro_of(tree: ast.Module) -> str | None:
    """The intro paragraph of a view: ``page_header``'s ``intro`` (its second argument), or,
    for a lesson's compact header, the module's ``INTRO``, which the page shows below its
    views (``ui.header.page_header``)."""
    for node in ast.walk(tree):
        if _call_name(node) == "page_header":
            given = node.args[1:2] + [k.value for k in node.keywords if k.arg == "intro"]
            if given:
                return ast.literal_eval(given[0])
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            "INTRO"
        ]:
            return ast.literal_eval(node.value)
    return None


def _theory_of(tree: ast.Module) -> str | None:
    """The label of a view's theory expander: the ``st.expander`` whose body links to the
    theory notes (``theory_doc.link``); None if the page has none."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.With):
            continue
        opener = node.items[0].context_expr
        if _call_name(opener) != "expander" or not opener.args:
            continue
        links = [
            n
            for stmt in node.body
            for n in ast.walk(stmt)
            if _call_name(n) == "link" and ast.unparse(n.func).startswith("theory_doc.")
        ]
        if links:
            return ast.literal_eval(opener.args[0])
    return None


#: Each page's intro paragraph (read from its view).
INTRO = {page: _intro_of(_view(page)) for page in PAGES}
#: The label of each page's theory / explanation expander (None: the page has none).
THEORY = {page: _theory_of(_view(page)) for page in PAGES}


def test_the_views_intros_and_theory_boxes_are_found(tmp_path: Path) -> None:
    """Every page has an intro; the scans read a header's intro, a compact page's INTRO and
    the expander that links to the notes (the lesson pages all have one)."""
    assert all(INTRO.values()), [page for page, intro in INTRO.items() if not intro]
    assert all(THEORY[p.slug] for p in pages.LESSONS), THEORY
    tree = ast.parse(
        'page_header("T", page="x", compact=True)\n'
        'INTRO = ("a " "b")\n'
        'with st.expander("Other"):\n    st.markdown("x")\n'
        'with st.expander("The theory"):\n    theory_doc.link("1")\n'
    )
    assert _intro_of(tree) == "a b" and _theory_of(tree) == "The theory"
    tree = ast.parse('page_header("T", "the intro", page="x")\n')
    assert _intro_of(tree) == "the intro" and _theory_of(tree) is None


def _texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _has_intro(at: AppTest, page: str) -> bool:
    return any(INTRO[page] in text for text in _texts(at))


def _has_theory(at: AppTest, page: str) -> bool:
    return any(e.label.startswith(THEORY[page]) for e in at.expander)


def _present_toggle(at: AppTest, page: str):
    toggles = [t for t in at.toggle if t.key == "present"]
    assert toggles, f"{page}: no 'Presenter mode' toggle (page_header is not called)"
    return toggles[0]


def _html(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html")]


# ------------------------------------------------------------------------- presenter mode
@pytest.mark.parametrize("page", PAGES)
def test_presenter_mode_hides_intro_and_theory(page: str) -> None:
    at = ah.page(page, present="true")
    ah.ok(at)
    assert _present_toggle(at, page).value is True
    assert not _has_intro(at, page), f"{page}: intro paragraph shown in presenter mode"
    if THEORY[page]:
        assert not _has_theory(at, page), f"{page}: theory expander shown in presenter mode"
    # the presenter CSS (sidebar hidden, sticky stepper) is on the page
    assert any("stSidebar" in body and "round_bar" in body for body in _html(at))
    assert at.query_params.get("present") == "true"


@pytest.mark.parametrize("page", PAGES)
def test_without_presenter_mode_intro_and_theory_are_shown(page: str) -> None:
    at = ah.page(page)
    ah.ok(at)
    assert _present_toggle(at, page).value is False
    assert _has_intro(at, page)
    if THEORY[page]:
        assert _has_theory(at, page)
    assert not any("stSidebar" in body for body in _html(at))
    # switching it on in the page takes effect at once
    at.toggle(key="present").set_value(True).run()
    ah.ok(at)
    assert not _has_intro(at, page)
    if THEORY[page]:
        assert not _has_theory(at, page)
    at.toggle(key="present").set_value(False).run()
    ah.ok(at)
    assert _has_intro(at, page)


def _layouts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec)["layout"] for c in at.get("plotly_chart")]


def _lecture_layouts(at: AppTest) -> list[dict]:
    """First-frame layouts of the lecture's plotly views (sized by the browser)."""
    return [lh.frame_at(v, 0)["layout"] for _, v in sorted(lh.views(at, "plotly").items())]


def test_presenter_mode_enlarges_the_charts() -> None:
    plain = _lecture_layouts(ah.page("topdown", s="8"))
    big = _lecture_layouts(ah.page("topdown", s="8", present="true"))
    assert len(plain) == len(big) == 6
    # the lecture views are built for presenter mode's 1920-px design at 22 px (12 px
    # normally); the browser scales them with the window (tests/browser/test_browser_layout.py)
    k = charts.PRESENTER_FONT / 12
    for small, large in zip(plain, big, strict=True):
        base = (small.get("font") or {}).get("size") or 12
        assert large["font"]["size"] == pytest.approx(base * k, abs=1)
        for ann_s, ann_l in zip(
            small.get("annotations", []), large.get("annotations", []), strict=True
        ):  # the curves' line labels too
            assert ann_l["font"]["size"] == pytest.approx(ann_s["font"]["size"] * k, abs=1.5)


def test_presenter_mode_enlarges_legend_and_title_fonts_too() -> None:
    """Fonts a figure sets explicitly (legend, title) grow like the rest: otherwise the
    legend stays at 11 px while the tick labels grow to 16 px. The bounds explorer's charts
    are drawn by the server (a lesson's charts, /oblique's margin chart too, are lecture
    views scaled by the browser: test_browser_layout.py)."""
    plain = _layouts(ah.page("bounds"))
    big = _layouts(ah.page("bounds", present="true"))
    assert plain and len(plain) == len(big)
    for small, large in zip(plain, big, strict=True):
        for part in ("legend", "title"):
            size = ((small.get(part) or {}).get("font") or {}).get("size")
            if size:
                got = large[part]["font"]["size"]
                assert got == pytest.approx(size * 1.3, abs=1), (
                    f"{part} font {size} → {got} in presenter mode"
                )


# ----------------------------------------------------------------------- URL round trips
#: Widget types of AppTest that a parameter bound to the URL may be drawn as.
WIDGETS = (
    "slider",
    "number_input",
    "selectbox",
    "radio",
    "multiselect",
    "select_slider",
    "button_group",
    "toggle",
    "checkbox",
)
#: Parameters whose value changes which widgets the page draws (the data source, the game's
#: mode): a round trip keeps them at their default, their own tests switch them.
SWITCHES = {"src", "mode"}
#: Parameters a plain open does not draw (drawn after a switch above).
DRAWN_LATER = {"ptest", "watch_adv", "watch_seed"}


def _widgets(at: AppTest) -> dict:
    return {w.key: w for kind in WIDGETS for w in at.get(kind) if w.key}


def _options(widget) -> list[str]:
    return [getattr(o, "content", o) for o in widget.options]


def _next_to(options: list, default):
    """The option before ``default`` (after it, if it is the first)."""
    i = options.index(default)
    return options[i - 1] if i > 0 else options[i + 1]


def _near_default(p: Param, widget=None):
    """A value of ``p`` next to its default, never the default: a number one step below it
    (above it at the bottom of its range), the neighbouring option, the default choices
    without the last one, a flag switched. Options known only at run time, and a default
    that is the first of them, are read from the page's ``widget``."""
    if p.kind == "flag":
        return not p.default
    if p.kind in ("int", "float"):
        step = p.step or (1 if p.kind == "int" else 0.01)
        value = p.default - step if p.default - step >= p.lo else p.default + step
        return int(value) if p.kind == "int" else round(value, 10)
    shown = p.options is None
    options = _options(widget) if shown else list(p.options)
    if p.kind == "choice":
        default = p.default if p.default is not None else widget.value
        return _next_to(options, str(default) if shown else default)
    default = list(p.default) if p.default is not None else list(widget.value)
    if len(default) > 1:
        return default[:-1]
    return default + [o for o in options if o not in default][:1]


def _url(value) -> str | list[str]:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return [str(v) for v in value]
    return str(value)


def _round_trip(page: str) -> tuple[dict, list[tuple[str, object]]]:
    """The query string and the widgets it must set, ``(key, expected value)``: every
    parameter the page draws on a plain open at a value next to its default (the switches
    at their default, left out of the link), and a lesson's round two rounds after the one a
    preset opens at."""
    spec = pages.page(page)
    plain = ah.page(page)
    ah.ok(plain)
    drawn = _widgets(plain)
    query, expected = {}, []
    for p in spec.params:
        if not p.bound or p.name in DRAWN_LATER:
            continue
        assert p.name in drawn, f"{page}: {p.name} is not drawn on a plain open"
        if p.name in SWITCHES:
            expected.append((p.name, p.default))
            continue
        value = _near_default(p, drawn[p.name])
        query[p.name] = _url(value)
        expected.append((p.name, value))
    if spec.has("lecture"):
        query["round"] = str(spec.first_round + 2)
        expected.append(("round", spec.first_round + 2))
    return query, expected


#: The pages of the round trip (their links are made from a plain open of the page).
ROUND_TRIP_PAGES = [p for p in PAGES if any(q.bound for q in pages.page(p).params)]


def _value(at: AppTest, key: str):
    if key == "round":  # the lecture view's client-side stepper (ui/lecture)
        return lh.stepper(at, key)["t"]
    widgets = _widgets(at)
    assert key in widgets, f"no widget with key {key!r}"
    return widgets[key].value


def _same(actual, expected) -> bool:
    if isinstance(expected, float):
        return actual == pytest.approx(expected)
    return actual == expected


def _query(at: AppTest) -> dict[str, str | list[str]]:
    """AppTest's query params with one-element lists as plain strings."""
    out = {}
    for key, value in at.query_params.items():
        out[key] = value[0] if isinstance(value, list) and len(value) == 1 else value
    return out


def _check_widgets(at: AppTest, page: str, expected: list[tuple[str, object]]) -> None:
    _present_toggle(at, page)
    for key, want in expected:
        actual = _value(at, key)
        assert _same(actual, want), f"{page}: {key} is {actual!r}, the URL says {want!r}"


def _check_query(at: AppTest, page: str, params: dict) -> None:
    query = _query(at)
    for key, value in params.items():
        want = value[0] if isinstance(value, list) and len(value) == 1 else value
        assert query.get(key) == want, f"{page}: ?{key}= became {query.get(key)!r}"


@pytest.mark.parametrize("page", ROUND_TRIP_PAGES)
def test_url_round_trip(page: str) -> None:
    """Every parameter a page draws, at a value other than its default, from the URL to the
    widget and back to the URL (and the lesson's round to the stepper)."""
    params, expected = _round_trip(page)
    at = ah.page(page, **params)
    ah.ok(at)
    _check_widgets(at, page, expected)  # URL → state
    _check_query(at, page, params)  # state → URL: the address bar still holds the whole state
    # a rerun (any interaction) keeps it, and a second session opened with the query string
    # the first one ended with shows the same state
    at.run()
    ah.ok(at)
    _check_widgets(at, page, expected)
    _check_query(at, page, params)
    again = ah.page(page, **_query(at))
    ah.ok(again)
    _check_widgets(again, page, expected)
    _check_query(again, page, params)


def test_the_round_trip_links_leave_every_default() -> None:
    """A value next to the default is never the default, of every kind of parameter."""
    assert _near_default(Param("s", "int", lo=2, hi=64, default=16)) == 15
    assert _near_default(Param("s", "int", lo=2, hi=64, default=2)) == 3
    assert _near_default(Param("g", "float", lo=0.0, hi=1.0, default=0.3, step=0.05)) == 0.25
    assert _near_default(Param("c", "choice", default="a", options=("a", "b"))) == "b"
    assert _near_default(Param("c", "choices", default=("a", "b"), options=("a", "b"))) == ["a"]
    assert _near_default(Param("c", "choices", default=("b",), options=("a", "b"))) == ["b", "a"]
    assert _near_default(Param("f", "flag", default=False)) is True


#: The game's link with moves (``mv``): its URL round trip and its replay.
GAME_LINK = {"present": "true", "s": "6", "gamma": "0.2", "mv": "0-2-0.5_0.5;1-2-0.3_0.7"}


def test_game_moves_from_the_url_are_replayed() -> None:
    at = ah.page("game", **GAME_LINK)
    ah.ok(at)
    _check_query(at, "game", GAME_LINK)  # the moves stay in the address, rerun after rerun
    at.run()
    _check_query(at, "game", GAME_LINK)
    _check_query(ah.page("game", **_query(at)), "game", GAME_LINK)
    expected = [("present", True), ("mode", "You are the adversary"), ("s", 6), ("gamma", 0.2)]
    _check_widgets(at, "game", expected)
    history = [d.value for d in at.dataframe if "tree weight after" in d.value.columns][-1]
    assert len(history) == 2
    # leaf 0 (weight 1) split in two keeps 0.8, leaf 1 (0.4) split keeps 0.32: 0.4 + 0.32
    weight = float(next(m.value for m in at.metric if m.label == "Tree weight now"))
    assert weight == pytest.approx(0.72, abs=1e-4)


def test_game_watch_mode_round_trip() -> None:
    params = {
        "mode": "Watch",
        "s": "10",
        "gamma": "0.15",
        "watch_adv": "random k and shares",
        "watch_seed": "3",
        "round": "2",
        "present": "true",
    }
    at = ah.page("game", **params)
    ah.ok(at)
    assert at.radio(key="mode").value == "Watch"
    assert at.slider(key="s").value == 10
    assert at.slider(key="gamma").value == pytest.approx(0.15)
    assert at.radio(key="watch_adv").value == "random k and shares"
    assert at.number_input(key="watch_seed").value == 3
    assert lh.stepper(at)["t"] == 2  # the browser's stepper (issue 27, item 6)
    assert _query(at) == params


def test_game_player_mode_round_trip() -> None:
    params = {"mode": "You are the player", "s": "5", "gamma": "0.3", "mv": "0-2-0.5_0.5"}
    at = ah.page("game", **params)
    ah.ok(at)
    assert at.radio(key="mode").value == "You are the player"
    at.radio(key="player_leaf").set_value(2).run()
    at.button(key="player_expand").click().run()
    ah.ok(at)
    assert _query(at)["mv"] == "0-2-0.5_0.5;2-2-0.5_0.5"
    again = ah.page("game", **_query(at))
    ah.ok(again)
    history = [d.value for d in again.dataframe if "tree weight after" in d.value.columns][-1]
    assert list(history["leaf"]) == [0, 2]


# ----------------------------------------------------------- state → URL through the app
def test_stepper_writes_the_round_to_the_url() -> None:
    """The browser writes ?round= itself while stepping; the server keeps it when it is told
    the round (after stepping stops) and on every later rerun."""
    at = ah.page("topdown", s="8", round="3")
    ah.ok(at)
    assert lh.stepper(at)["t"] == 3
    lh.step_to(at, 4)
    assert _query(at)["round"] == "4"
    lh.step_to(at, 2)
    at.run()
    assert _query(at)["round"] == "2" and lh.stepper(at)["t"] == 2
    lh.step_to(at, 1)  # the page's default round: dropped from the link
    ah.ok(at)
    assert lh.stepper(at)["t"] == 1 and "round" not in at.query_params
    lh.step_to(at, 0)  # round 0 is not the default here: the link names it
    assert lh.stepper(at)["t"] == 0 and _query(at)["round"] == "0"


def test_stepper_url_names_round_0_on_a_page_whose_default_round_is_not_0() -> None:
    """Every page starts at round 0 (the initial model), but the branching page opens at its
    first merge: a link to round 0 must say so, a link to the default round need not."""
    at = ah.page("branching", T="6")
    ah.ok(at)
    default = lh.stepper(at)["t"]
    assert lh.stepper(at)["lo"] == 0 < default and "round" not in at.query_params
    lh.step_to(at, 0)
    assert _query(at)["round"] == "0"
    again = ah.page("branching", **_query(at))
    assert lh.stepper(again)["t"] == 0
    lh.step_to(again, default)
    assert "round" not in again.query_params
    lh.step_to(again, 2 if default != 2 else 3)
    assert lh.stepper(ah.page("branching", **_query(again)))["t"] == (2 if default != 2 else 3)


def test_game_moves_follow_in_the_url() -> None:
    at = ah.page("game", s="8", gamma="0.2")
    ah.ok(at)
    assert "mv" not in at.query_params
    at.button(key="adv_expand").click().run()
    assert _query(at)["mv"] == "0-2-0.5_0.5"
    at.selectbox(key="adv_k").set_value(3).run()
    at.slider(key="share_0").set_value(80).run()
    at.button(key="adv_expand").click().run()
    ah.ok(at)
    moves = _query(at)["mv"]
    assert moves.startswith("0-2-0.5_0.5;1-3-0.444444_0.277778_0.277778")
    weight = float(next(m.value for m in at.metric if m.label == "Tree weight now"))
    # a new session from that URL replays the same game
    again = ah.page("game", **_query(at))
    ah.ok(again)
    assert float(next(m.value for m in again.metric if m.label == "Tree weight now")) == (
        pytest.approx(weight, abs=1e-4)
    )
    at.button(key="game_undo").click().run()
    assert _query(at)["mv"] == "0-2-0.5_0.5"
    at.button(key="game_restart").click().run()
    ah.ok(at)
    assert "mv" not in at.query_params


def test_a_preset_writes_its_state_to_the_url() -> None:
    at = ah.page("topdown")
    ah.ok(at)
    at.selectbox(key="preset_pick").select("multiway").run()
    ah.ok(at)
    query = _query(at)
    # the preset's non-default values reach the URL (defaults are left out of it)
    assert query.get("data") == "stripes" and query.get("s") == "8"
    assert query.get("noise") == "0.05"
    again = ah.page("topdown", **query)
    assert again.selectbox(key="data").value == "stripes"
    assert again.slider(key="s").value == 8
    assert again.slider(key="noise").value == pytest.approx(0.05)


def test_changing_a_parameter_keeps_the_shown_round() -> None:
    """A round within the new run stays shown when a parameter changes (the stepper clamps
    only a round the new run does not have)."""
    at = ah.page("topdown", s="12", round="3")
    ah.ok(at)
    at.slider(key="s").set_value(20).run()
    ah.ok(at)
    assert lh.stepper(at)["t"] == 3, "changing the leaf budget reset the round"
    assert _query(at).get("round") == "3"


# -------------------------------------------------------------------------- export menu
class _KeptStorage(MemoryMediaFileStorage):
    """AppTest's in-memory media storage, kept after the run to read download data."""

    last: _KeptStorage | None = None

    def __init__(self, endpoint: str) -> None:
        super().__init__(endpoint)
        _KeptStorage.last = self


class _KeptManager(MediaFileManager):
    """AppTest's media file manager, kept after the run to build a deferred download (the
    Export menu's files are made only when clicked: their callables run here)."""

    last: _KeptManager | None = None

    def __init__(self, storage) -> None:
        super().__init__(storage)
        _KeptManager.last = self


@pytest.fixture
def downloads(monkeypatch):
    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", _KeptStorage)
    monkeypatch.setattr(app_test_module, "MediaFileManager", _KeptManager)

    def data(at: AppTest, label: str) -> bytes:
        button = next(b for b in at.get("download_button") if b.proto.label == label)
        assert _KeptStorage.last is not None and _KeptManager.last is not None
        url = button.proto.url
        if button.proto.deferred_file_id:  # what a click does: the callable runs now
            assert not url
            url = _KeptManager.last.execute_deferred(button.proto.deferred_file_id)
        return _KeptStorage.last.get_file(url.rsplit("/", 1)[1]).content

    return data


RUN_LABELS = ["Run as JSON", "Metrics per round (CSV)", "Python script (.py)"]
#: The pages with the Export menu of a run.
EXPORT_PAGES = [p.slug for p in pages.with_feature("export")]


def _own(page: str) -> list[Param]:
    """The page's own parameters (of no shared group), in declared order."""
    shared = {*pages.LESSON_PARAMS, *pages.PRESET_PARAMS, *pages.HEADER_PARAMS}
    return [p for p in pages.page(page).params if p not in shared]


def _numeric(p: Param) -> bool:
    """A number, or a choice among numbers (``Tw``: 2, 4, …, 64)."""
    return p.kind in ("int", "float") or (
        p.kind == "choice" and bool(p.options) and all(type(o) in (int, float) for o in p.options)
    )


def _small(p: Param):
    """A number (or numeric option) one step below the default (above it at the bottom): a
    run a little smaller than the page's default."""
    if p.kind == "choice":
        return _next_to(list(p.options), p.default)
    return _near_default(p)


def _export_link(page: str) -> tuple[dict, dict[str, object], str | None]:
    """The query string of a small run: each own number one step off its default, the runs
    side by side (the first own multiple choice) without the last; with the values the
    run's JSON must hold (by the view's name for each, see :func:`_json_names`) and the
    name under which it lists the runs (None: the page has no choice of runs)."""
    names = _json_names(page)
    query, expected, runs = {}, {}, None
    for p in _own(page):
        if p.name in DRAWN_LATER:
            continue
        if _numeric(p) and p.bound:
            value = _small(p)
            query[p.name] = str(value)
            expected[names[p.name]] = value
        elif p.kind == "choices" and runs is None:
            query[p.name] = list(p.default[:-1])
            runs = names[p.name]
    return query, expected, runs


def _json_names(page: str) -> dict[str, str]:
    """URL parameter → the name the run's JSON ``params`` give its value: the variable the
    view assigns the widget to (``size = sb.slider(..., **PAGE.param("s").number())``), or
    the ``dict`` keyword built from that variable (``structures=[… for p in picked]``)."""
    tree = _view(page)
    variables = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            for kw in node.value.keywords:
                inner = kw.value
                if (
                    kw.arg is None
                    and isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Attribute)
                ):
                    got = inner.func.value
                    if _call_name(got) == "param" and got.args:
                        name = ast.literal_eval(got.args[0])
                        variables[name] = node.targets[0].id  # type: ignore[attr-defined]
    keys = {}
    for node in ast.walk(tree):
        if _call_name(node) == "dict":
            for kw in node.keywords:
                used = {n.id for n in ast.walk(kw.value) if isinstance(n, ast.Name)}
                for name, var in variables.items():
                    if var in used and kw.arg:
                        keys.setdefault(name, kw.arg)
    found = {name: keys.get(name, var) for name, var in variables.items()}
    # a lesson's settings are named in the registry (Param.field, issue 42 item 2)
    own = pages.page(page).params if page in PAGES else ()
    declared = {p.name: p.field for p in own if p.field}
    return {**found, **declared}


def test_the_json_names_are_read_from_the_view(tmp_path: Path, monkeypatch) -> None:
    tree = ast.parse(
        'size = sb.slider("s", **PAGE.param("s").number())\n'
        'picked = sb.multiselect("x", **PAGE.param("struct").multi())\n'
        "gamma = sb.slider(**PAGE.param('gamma').number())\n"
        "out = dict(size=size, structures=[M[p] for p in picked])\n"
    )
    monkeypatch.setattr(f"{__name__}._view", lambda page: tree)
    assert _json_names("x") == {"s": "size", "struct": "structures", "gamma": "gamma"}


@pytest.mark.parametrize("page", sorted({*EXPORT_PAGES, "bounds", "game", "benchmark"}))
def test_the_export_menu_is_filled_only_while_open(page: str) -> None:
    """A page open with the Export menu closed (every student's) makes none of its files,
    buttons or scripts (issue 27: they were ~10-15 % of a warm open's server CPU); opened,
    they are there; closed again, they are gone."""
    from ui.header import EXPORT_MENU

    at = ah.page(page)
    ah.ok(at)
    assert at.session_state[EXPORT_MENU] is False
    assert not at.get("download_button") and not at.code, page
    ah.open_export(at)
    ah.ok(at)
    assert at.get("download_button"), f"{page}: the open Export menu offers no file"
    at.session_state[EXPORT_MENU] = False
    at.run()
    ah.ok(at)
    assert not at.get("download_button"), page


@pytest.mark.parametrize("page", EXPORT_PAGES)
def test_export_popover_downloads(page: str, downloads) -> None:
    """The Export menu of a small run: its downloads, the run's JSON holding the link's
    numbers under the page's names and one run per chosen run, the CSV, the script (shown as
    saved), and every structure offered as DOT is a DOT graph."""
    params, expected_params, runs_key = _export_link(page)
    assert params, f"{page}: no own number to set in the link"
    at = ah.open_export(ah.page(page, **params))
    ah.ok(at)
    labels = [b.proto.label for b in at.get("download_button")]
    for label in RUN_LABELS:
        assert label in labels, f"{page}: no {label!r} in {labels}"
    doc = json.loads(downloads(at, "Run as JSON"))
    assert doc["page"] == page
    for key, value in expected_params.items():
        assert doc["params"][key] == pytest.approx(value), (key, doc["params"])
    if runs_key is not None:
        chosen = doc["params"][runs_key]
        assert len(chosen) == len(params[next(p.name for p in _own(page) if p.kind == "choices")])
        assert set(doc["runs"]) == set(chosen)
    assert all(isinstance(recs, list) and recs for recs in doc["runs"].values())
    csv = downloads(at, "Metrics per round (CSV)").decode()
    assert csv.splitlines()[0].startswith("run,t,kind,chosen")
    script = downloads(at, "Python script (.py)").decode()
    compile(script, f"boostlab_{page}.py", "exec")
    shown = [c.value for c in at.code if c.language == "python"]
    # "Show the script" shows the file the button saves (st.code drops the last newline)
    assert [text.rstrip("\n") for text in shown] == [script.rstrip("\n")]
    compile(shown[0], f"boostlab_{page}.py", "exec")
    dots = [label for label in labels if label.endswith(("DOT", "(DOT)"))]
    assert dots, f"{page}: no structure offered as DOT in {labels}"
    for label in dots:
        dot = downloads(at, label).decode()
        assert dot.lstrip().startswith(("digraph", "graph", "strict")), dot[:80]


def test_topdown_exports_each_runs_rounds_and_tree(downloads) -> None:
    """One CSV of rounds and one DOT tree at the shown round per criterion run."""
    at = ah.open_export(ah.page("topdown", s="8", round="2", crit=["Hatano", "Naive"]))
    ah.ok(at)
    labels = [b.proto.label for b in at.get("download_button")]
    for name in ("Hatano", "Naive"):
        assert f"{name}: rounds as CSV" in labels and f"{name}: tree at round 2 as DOT" in labels
    doc = json.loads(downloads(at, "Run as JSON"))
    assert doc["params"]["size"] == 8 and set(doc["runs"]) == {"hatano", "naive"}


def test_oblique_exports_the_boostodt_tree(downloads) -> None:
    at = ah.open_export(ah.page("oblique", T2="3", T1="4"))
    ah.ok(at)
    assert "BoostODT tree (DOT)" in [b.proto.label for b in at.get("download_button")]
    doc = json.loads(downloads(at, "Run as JSON"))
    assert doc["params"]["n_internal"] == 3 and doc["params"]["n_stumps"] == 4
    dot = downloads(at, "BoostODT tree (DOT)").decode()
    assert dot.lstrip().startswith(("digraph", "graph", "strict")), dot[:80]


def test_game_exports_the_game_played_from_the_link(downloads) -> None:
    at = ah.open_export(ah.page("game", s="5", mv="0-2-0.5_0.5"))
    ah.ok(at)
    doc = json.loads(downloads(at, "Run as JSON"))
    assert doc["params"]["s"] == 5 and set(doc["runs"]) == {"game"}
    assert all(isinstance(recs, list) and recs for recs in doc["runs"].values())


def test_game_watch_mode_exports(downloads) -> None:
    at = ah.open_export(ah.page("game", mode="Watch", s="6", round="2"))
    ah.ok(at)
    doc = json.loads(downloads(at, "Run as JSON"))
    assert doc["params"]["mode"] == "watch" and set(doc["runs"]) == {"watch"}
    compile(at.code[0].value, "boostlab_game.py", "exec")


def test_bounds_exports_its_script() -> None:
    at = ah.open_export(ah.page("bounds", b_gamma="0.3"))
    ah.ok(at)
    assert "Python script (.py)" in [b.proto.label for b in at.get("download_button")]
    script = [c.value for c in at.code if c.language == "python"][0]
    compile(script, "boostlab_bounds.py", "exec")
    assert "0.3" in script


def test_benchmark_exports_its_results(downloads) -> None:
    at = ah.open_export(ah.page("benchmark"))
    ah.ok(at)
    for label in ("Every fold (CSV)", "Summary (CSV)"):
        text = downloads(at, label).decode()
        assert text.count("\n") > 10 and "learner" in text.splitlines()[0]


def _structures(page: str) -> tuple[int, list[str], list[str]]:
    """Graphviz drawings on the page (a small run), its SVG buttons (st.html) and its DOT
    downloads."""
    at = ah.open_export(ah.page(page, **_export_link(page)[0]))
    ah.ok(at)
    drawn = len(at.get("graphviz_chart"))
    svg_buttons = [body for body in _html(at) if 'id="boostlab-svg-' in body]
    dots = [b.proto.label for b in at.get("download_button") if "DOT" in b.proto.label]
    return drawn, svg_buttons, dots


@pytest.mark.parametrize("page", EXPORT_PAGES)
def test_every_svg_button_has_its_structure_on_the_page(page: str) -> None:
    """An SVG button saves the i-th Graphviz drawing of the page (``svg_download_button``):
    the page must draw at least i + 1 of them, or the button only says 'Not drawn yet'."""
    drawn, svg_buttons, _ = _structures(page)
    for body in svg_buttons:
        index = int(body.split('id="boostlab-svg-', 1)[1].split('"', 1)[0])
        assert index < drawn, (
            f"{page}: the SVG button for Graphviz drawing #{index} exists, but the page draws "
            f"{drawn} Graphviz structure(s)"
        )


@pytest.mark.parametrize("page", EXPORT_PAGES)
def test_every_drawn_structure_can_be_exported(page: str) -> None:
    """Every structure the page draws is offered in the Export menu as DOT and as SVG."""
    drawn, svg_buttons, dots = _structures(page)
    assert len(svg_buttons) >= drawn and len(dots) >= drawn, (
        f"{page}: {drawn} Graphviz structure(s) drawn, but the Export menu has "
        f"{len(svg_buttons)} SVG and {len(dots)} DOT download(s)"
    )


def test_camera_format_follows_the_export_radio() -> None:
    at = ah.page("topdown", s="8")
    ah.ok(at)

    def formats() -> set[str]:
        out = set()
        for v in lh.views(at, "plotly").values():
            config = v["config"]
            out.add(config["toImageButtonOptions"]["format"])
            assert config["toImageButtonOptions"]["filename"].startswith("boostlab_topdown_")
        return out

    assert formats() == {"png"}
    at.radio(key="fig_format").set_value("SVG").run()
    ah.ok(at)
    assert formats() == {"svg"}
