"""AppTest for the classroom tools of ``ui/classroom.py`` on every page.

* Presenter mode (``?present=true``): every page runs, the toggle reads True, the intro
  paragraph and the theory expander are left out; without it they are shown.
* URL round trip: a non-default state in the query string (data, parameters, round,
  presenter mode; the game's mode/s/γ and moves ``mv``; the bounds sliders; the benchmark
  selectors) reaches every widget, and the query string after the run still holds it
  (state → URL → state). Then the state changes through the app and the query string follows.
* Export popover: its download buttons exist with their labels, the run JSON parses (read
  from AppTest's media storage), the script in "Show the script" compiles, and every
  Graphviz structure the page offers as SVG is drawn on the page.

What AppTest cannot see: a bound widget (``bind="query-params"``) changed by a *user* is
written to the address bar by the browser, not by the server, so after ``set_value`` the
query string of AppTest keeps the old value. Changes the server makes itself (the stepper's
``?round=``, the game's ``?mv=``, presets writing into session state) are visible here; the
browser-side half is in ``tests/test_browser_classroom.py``.
"""

from __future__ import annotations

import json

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh

PAGES = ["home", "topdown", "game", "branching", "matryoshka", "oblique", "benchmark", "bounds"]

#: A phrase of each page's intro paragraph (the ``intro`` of ``page_header``).
INTRO = {
    "home": "Top-down decision-tree growth, InfoBoost, branching programs",
    "topdown": "The same data and the same leaf budget",
    "game": "A game between a **player**",
    "branching": "Each round one stump divides every leaf in two",
    "matryoshka": "Grossmann boosts *probabilistic* weak classifiers",
    "oblique": "Henry, Nock and Nielsen's **G1**",
    "benchmark": "Twelve real binary datasets",
    "bounds": "Every bound of the app as a closed form",
}
#: The start of each page's theory / explanation expander (None: the page has none).
THEORY = {
    "home": None,
    "topdown": "The theory on this page",
    "game": "What the game proves",
    "branching": "The theory: Theorem 1",
    "matryoshka": "The bounds, and where the paper's nesting argument breaks",
    "oblique": "The theory: G1",
    "benchmark": "Protocol, budgets and datasets",
    "bounds": None,
}


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
    for small, large in zip(plain, big, strict=True):
        base = (small.get("font") or {}).get("size") or 12
        assert large["font"]["size"] == pytest.approx(base * 1.3, abs=1)
        for ann_s, ann_l in zip(
            small.get("annotations", []), large.get("annotations", []), strict=True
        ):  # the curves' line labels too
            assert ann_l["font"]["size"] == pytest.approx(ann_s["font"]["size"] * 1.3, abs=1)


def test_presenter_mode_enlarges_legend_and_title_fonts_too() -> None:
    """Fonts a figure sets explicitly (legend, title) grow like the rest: otherwise the
    legend stays at 11 px while the tick labels grow to 16 px."""
    plain = _layouts(ah.page("oblique"))
    big = _layouts(ah.page("oblique", present="true"))
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
#: Per page: the query string (every value differs from the widget's default) and the
#: widgets it must set, as (accessor, key, expected value).
ROUND_TRIPS: dict[str, tuple[dict, list[tuple[str, str, object]]]] = {
    "home": ({"present": "true"}, [("toggle", "present", True)]),
    "topdown": (
        {
            "present": "true",
            "data": "circles",
            "n": "300",
            "noise": "0.4",
            "pos": "0.6",
            "flip": "0.1",
            "test": "0.3",
            "seed": "7",
            "crit": ["Hatano", "Naive"],
            "s": "12",
            "k": "3",
            "index": "gini",
            "gamma": "0.2",
            "leaf": "largest gain",
            "round": "4",
        },
        [
            ("toggle", "present", True),
            ("selectbox", "data", "circles"),
            ("slider", "n", 300),
            ("slider", "noise", 0.4),
            ("slider", "pos", 0.6),
            ("slider", "flip", 0.1),
            ("slider", "test", 0.3),
            ("number_input", "seed", 7),
            ("multiselect", "crit", ["Hatano", "Naive"]),
            ("slider", "s", 12),
            ("slider", "k", 3),
            ("selectbox", "index", "gini"),
            ("slider", "gamma", 0.2),
            ("radio", "leaf", "largest gain"),
            ("stepper", "round", 4),
        ],
    ),
    "branching": (
        {
            "present": "true",
            "data": "xor",
            "n": "240",
            "seed": "3",
            "schemes": ["BP.InfoBoost", "DT.InfoBoost"],
            "T": "12",
            "c": "0.7",
            "wl": "divided leaves",
            "round": "5",
        },
        [
            ("toggle", "present", True),
            ("selectbox", "data", "xor"),
            ("slider", "n", 240),
            ("number_input", "seed", 3),
            ("multiselect", "schemes", ["BP.InfoBoost", "DT.InfoBoost"]),
            ("slider", "T", 12),
            ("slider", "c", 0.7),
            ("radio", "wl", "divided leaves"),
            ("stepper", "round", 5),
        ],
    ),
    "matryoshka": (
        {
            "present": "true",
            "data": "circles",
            "n": "200",
            "struct": ["Tree", "Matryoshka"],
            "Tw": "8",
            "tau": "0.5",
            "est": "20 answers",
            "round": "6",  # not the page's default round 4, which a link leaves out
        },
        [
            ("toggle", "present", True),
            ("selectbox", "data", "circles"),
            ("slider", "n", 200),
            ("multiselect", "struct", ["Tree", "Matryoshka"]),
            ("select_slider", "Tw", 8),
            ("slider", "tau", 0.5),
            ("select_slider", "est", "20 answers"),
            ("stepper", "round", 6),
        ],
    ),
    "oblique": (
        {
            "present": "true",
            "data": "band",
            "n": "200",
            "T2": "4",
            "T1": "5",
            "learner": "hyperplane (oblique line)",
            "rule": "largest decrease of Σ 2√(w⁺w⁻)",
            "inner": "true",
            "round": "3",
        },
        [
            ("toggle", "present", True),
            ("selectbox", "data", "band"),
            ("slider", "n", 200),
            ("slider", "T2", 4),
            ("slider", "T1", 5),
            ("radio", "learner", "hyperplane (oblique line)"),
            ("radio", "rule", "largest decrease of Σ 2√(w⁺w⁻)"),
            ("checkbox", "inner", True),
            ("stepper", "round", 3),
        ],
    ),
    "game": (
        {"present": "true", "s": "6", "gamma": "0.2", "mv": "0-2-0.5_0.5;1-2-0.3_0.7"},
        [
            ("toggle", "present", True),
            ("radio", "mode", "You are the adversary"),
            ("slider", "s", 6),
            ("slider", "gamma", 0.2),
        ],
    ),
    "bounds": (
        {
            "present": "true",
            "b_rhos": ["3/4", "1/2"],
            "b_T": "65536",
            "b_rho3": "3/4",
            "b_C": "0.6",
            "b_Tn": "128",
            "b_gamma": "0.3",
            "b_eps": "0.001",
        },
        [
            ("toggle", "present", True),
            ("multiselect", "b_rhos", ["3/4", "1/2"]),
            ("select_slider", "b_T", 65536),
            ("select_slider", "b_rho3", "3/4"),
            ("slider", "b_C", 0.6),
            ("slider", "b_Tn", 128),
            ("slider", "b_gamma", 0.3),
            ("select_slider", "b_eps", 0.001),
        ],
    ),
    "benchmark": (
        {
            "present": "true",
            "bench_show": "fit time (s)",
            "bench_ref": "sklearn AdaBoost (stumps)",
            "bench_ds": "vote",
            "now_ds": "labor",
            "now_learners": ["TopDown binary (Kearns–Mansour)", "sklearn DecisionTree"],
            "now_folds": "3",
        },
        [
            ("toggle", "present", True),
            ("radio", "bench_show", "fit time (s)"),
            ("selectbox", "bench_ref", "sklearn AdaBoost (stumps)"),
            ("selectbox", "bench_ds", "vote"),
            ("selectbox", "now_ds", "labor"),
            (
                "multiselect",
                "now_learners",
                ["TopDown binary (Kearns–Mansour)", "sklearn DecisionTree"],
            ),
            ("slider", "now_folds", 3),
        ],
    ),
}


def _value(at: AppTest, accessor: str, key: str):
    if accessor == "stepper":  # the lecture view's client-side stepper (ui/lecture.py)
        return lh.stepper(at, key)["t"]
    return getattr(at, accessor)(key=key).value


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


def _check_widgets(at: AppTest, page: str) -> None:
    for accessor, key, expected in ROUND_TRIPS[page][1]:
        if key == "present":
            _present_toggle(at, page)
        actual = _value(at, accessor, key)
        assert _same(actual, expected), f"{page}: {key} is {actual!r}, the URL says {expected!r}"


def _check_query(at: AppTest, page: str) -> None:
    params = ROUND_TRIPS[page][0]
    query = _query(at)
    for key, value in params.items():
        want = value[0] if isinstance(value, list) and len(value) == 1 else value
        assert query.get(key) == want, f"{page}: ?{key}= became {query.get(key)!r}"


@pytest.mark.parametrize("page", PAGES)
def test_url_round_trip(page: str) -> None:
    params = ROUND_TRIPS[page][0]
    at = ah.page(page, **params)
    ah.ok(at)
    _check_widgets(at, page)  # URL → state
    _check_query(at, page)  # state → URL: the address bar still holds the whole state
    # a rerun (any interaction) keeps it, and a second session opened with the query string
    # the first one ended with shows the same state
    at.run()
    ah.ok(at)
    _check_widgets(at, page)
    _check_query(at, page)
    again = ah.page(page, **_query(at))
    ah.ok(again)
    _check_widgets(again, page)
    _check_query(again, page)


def test_game_moves_from_the_url_are_replayed() -> None:
    at = ah.page("game", **ROUND_TRIPS["game"][0])
    ah.ok(at)
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
    assert at.slider(key="round").value == 2
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


@pytest.fixture
def downloads(monkeypatch):
    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", _KeptStorage)

    def data(at: AppTest, label: str) -> bytes:
        button = next(b for b in at.get("download_button") if b.proto.label == label)
        assert _KeptStorage.last is not None
        return _KeptStorage.last.get_file(button.proto.url.rsplit("/", 1)[1]).content

    return data


RUN_LABELS = ["Run as JSON", "Metrics per round (CSV)", "Python script (.py)"]
#: Per data page: the query string, the extra download labels, the JSON ``params`` to find
#: and the names of the runs.
EXPORTS = {
    "topdown": (
        {"s": "8", "round": "2", "crit": ["Hatano", "Naive"]},
        [
            "Hatano: rounds as CSV",
            "Hatano: tree at round 2 as DOT",
            "Naive: rounds as CSV",
            "Naive: tree at round 2 as DOT",
        ],
        {"size": 8},
        {"hatano", "naive"},
    ),
    "branching": ({"T": "6"}, [], {"n_rounds": 6}, {"InfoBoost", "BP.InfoBoost", "DT.InfoBoost"}),
    "matryoshka": ({"Tw": "4"}, [], {"n_weak": 4}, {"chain", "tree", "matryoshka"}),
    "oblique": (
        {"T2": "3", "T1": "4"},
        ["BoostODT tree (DOT)"],
        {"n_internal": 3, "n_stumps": 4},
        None,
    ),
    "game": ({"s": "5", "mv": "0-2-0.5_0.5"}, [], {"s": 5}, {"game"}),
}


@pytest.mark.parametrize("page", sorted(EXPORTS))
def test_export_popover_downloads(page: str, downloads) -> None:
    params, extra, expected_params, run_names = EXPORTS[page]
    at = ah.page(page, **params)
    ah.ok(at)
    labels = [b.proto.label for b in at.get("download_button")]
    for label in RUN_LABELS + extra:
        assert label in labels, f"{page}: no {label!r} in {labels}"
    doc = json.loads(downloads(at, "Run as JSON"))
    assert doc["page"] == page
    for key, value in expected_params.items():
        assert doc["params"][key] == value
    if run_names is not None:
        assert set(doc["runs"]) == run_names
    assert all(isinstance(recs, list) and recs for recs in doc["runs"].values())
    csv = downloads(at, "Metrics per round (CSV)").decode()
    assert csv.splitlines()[0].startswith("run,t,kind,chosen")
    script = downloads(at, "Python script (.py)").decode()
    compile(script, f"boostlab_{page}.py", "exec")
    shown = [c.value for c in at.code if c.language == "python"]
    # "Show the script" shows the file the button saves (st.code drops the last newline)
    assert [text.rstrip("\n") for text in shown] == [script.rstrip("\n")]
    compile(shown[0], f"boostlab_{page}.py", "exec")
    for label in extra:
        if label.endswith("DOT") or label.endswith("(DOT)"):
            dot = downloads(at, label).decode()
            assert dot.lstrip().startswith(("digraph", "graph", "strict")), dot[:80]


def test_game_watch_mode_exports(downloads) -> None:
    at = ah.page("game", mode="Watch", s="6", round="2")
    ah.ok(at)
    doc = json.loads(downloads(at, "Run as JSON"))
    assert doc["params"]["mode"] == "watch" and set(doc["runs"]) == {"watch"}
    compile(at.code[0].value, "boostlab_game.py", "exec")


def test_bounds_exports_its_script() -> None:
    at = ah.page("bounds", b_gamma="0.3")
    ah.ok(at)
    assert "Python script (.py)" in [b.proto.label for b in at.get("download_button")]
    script = [c.value for c in at.code if c.language == "python"][0]
    compile(script, "boostlab_bounds.py", "exec")
    assert "0.3" in script


def test_benchmark_exports_its_results(downloads) -> None:
    at = ah.page("benchmark")
    ah.ok(at)
    for label in ("Every fold (CSV)", "Summary (CSV)"):
        text = downloads(at, label).decode()
        assert text.count("\n") > 10 and "learner" in text.splitlines()[0]


STRUCTURE_PAGES = {
    "topdown": {"s": "8"},
    "branching": {"T": "6"},
    "matryoshka": {"Tw": "4"},
    "oblique": {"T2": "3", "T1": "4"},
    "game": {"s": "5"},
}


def _structures(page: str) -> tuple[int, list[str], list[str]]:
    """Graphviz drawings on the page, its SVG buttons (st.html) and its DOT downloads."""
    at = ah.page(page, **STRUCTURE_PAGES[page])
    ah.ok(at)
    drawn = len(at.get("graphviz_chart"))
    svg_buttons = [body for body in _html(at) if 'id="boostlab-svg-' in body]
    dots = [b.proto.label for b in at.get("download_button") if "DOT" in b.proto.label]
    return drawn, svg_buttons, dots


@pytest.mark.parametrize("page", sorted(STRUCTURE_PAGES))
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


@pytest.mark.parametrize("page", sorted(STRUCTURE_PAGES))
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
