"""URL parameters (issue 16, points 1, 3, 4): one parser per type that never raises, and on
every page ONE notice naming each parameter of a link it ignored, as plain text.

The parsers (ui/params.py) are tested directly with hypothesis; the pages with AppTest: a
fixed table of nasty links, a hypothesis-generated link per page, and markdown payloads in
every echoed parameter, which must never reach a rendered element as markup.
"""

from __future__ import annotations

import html
import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from tests import apptest_helpers as ah
from ui import draw, figures, pages, params
from ui.text import md_plain, plot_plain

TEXT = hst.text(max_size=300)
RAW = hst.one_of(hst.none(), TEXT, hst.lists(TEXT, min_size=1, max_size=3))


def _well_formed(bad: params.Ignored | None, param: str) -> None:
    if bad is not None:
        assert bad.param == param and bad.reason
        assert len(bad.value) <= params.QUOTE_LIMIT


# ------------------------------------------------------------------------------ the parsers
@given(RAW)
def test_no_parser_raises_on_any_text(raw) -> None:
    results = [
        params.parse_int("n", raw, lo=40, hi=5000, default=400),
        params.parse_float("noise", raw, lo=0.0, hi=1.0, default=0.3),
        params.parse_choice("data", raw, ["moons", "stripes"], "moons"),
        params.parse_choices("crit", raw, ["Hatano", "Naive"], ["Naive"]),
        params.parse_round("round", raw, lo=1, hi=8, default=1),
        params.parse_moves("mv", raw),
        draw.parse_points("pts", raw),
    ]
    for (_, bad), name in zip(results, ["n", "noise", "data", "crit", "round", "mv", "pts"]):
        _well_formed(bad, name)
        if raw is None:
            assert bad is None


@given(hst.integers(-(10**6), 10**6), hst.integers(0, 10**4))
def test_int_round_trips_and_out_of_range_is_default(value: int, width: int) -> None:
    lo, hi = -width, width
    got, bad = params.parse_int("k", str(value), lo=lo, hi=hi, default=0)
    if lo <= value <= hi:
        assert (got, bad) == (value, None)
    else:
        assert got == 0 and bad is not None and f"{lo}–{hi}" in bad.reason


@given(hst.floats(allow_nan=True, allow_infinity=True))
def test_float_round_trips_and_non_finite_is_default(value: float) -> None:
    got, bad = params.parse_float("gamma", repr(value), lo=-1e6, hi=1e6, default=0.1)
    if math.isfinite(value) and -1e6 <= value <= 1e6:
        assert (got, bad) == (value, None)
    else:
        assert got == 0.1 and bad is not None


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("²", "not a whole number"),
        ("9" * 5000, "not a whole number"),
        ("１", "not a whole number"),  # a full-width digit: isdigit() but not ASCII
        ("3.0", "not a whole number"),
        ("0", "must be 2–64"),
        ("100000000", "must be 2–64"),
    ],
)
def test_int_invalid_gives_default_and_reason(raw: str, reason: str) -> None:
    got, bad = params.parse_int("s", raw, lo=2, hi=64, default=16)
    assert got == 16 and bad is not None
    assert bad.reason == reason and bad.value == params.quote(raw)
    assert len(bad.value) <= params.QUOTE_LIMIT


@pytest.mark.parametrize("raw", ["nan", "inf", "-inf", "1e999", "abc", "1_0", ""])
def test_float_invalid_gives_default(raw: str) -> None:
    assert params.parse_float("gamma", raw, lo=0, hi=0.5, default=0.1)[0] == 0.1
    assert params.parse_float("gamma", raw, lo=0, hi=0.5, default=0.1)[1] is not None


@given(hst.sampled_from(["moons", "stripes", "xor"]), TEXT)
def test_choice_round_trips_and_unknown_is_default(choice: str, other: str) -> None:
    choices = ["moons", "stripes", "xor"]
    assert params.parse_choice("data", choice, choices, "moons") == (choice, None)
    got, bad = params.parse_choice("data", other, choices, "moons")
    assert (got, bad is None) == ((other, True) if other in choices else ("moons", False))


@given(hst.lists(hst.sampled_from(["A", "B", "C"]), min_size=1), hst.lists(TEXT, max_size=3))
def test_choices_keep_the_known_ones(known: list[str], other: list[str]) -> None:
    got, bad = params.parse_choices("crit", known + other, ["A", "B", "C"], ["A"])
    unknown = [v for v in other if v not in "ABC" or not v]
    assert got == list(dict.fromkeys(v for v in known + other if v in ("A", "B", "C")))
    assert (bad is None) == (not unknown)
    got, bad = params.parse_choices("crit", ["zz"], ["A", "B", "C"], ["A"])
    assert got == ["A"] and bad is not None


@given(hst.integers(-(10**9), 10**9))
def test_round_is_clamped_with_a_reason(value: int) -> None:
    got, bad = params.parse_round("round", str(value), lo=1, hi=8, default=1)
    assert got == min(max(value, 1), 8)
    assert (bad is None) == (1 <= value <= 8)


def test_round_text_gives_the_default() -> None:
    for raw in ["²", "9" * 5000, "", "1.5", "![x](http://h/p.png)"]:
        got, bad = params.parse_round("round", raw, lo=0, hi=8, default=3)
        assert got == 3 and bad is not None and "not a whole number" in bad.reason


moves = hst.lists(
    hst.tuples(
        hst.integers(0, 99),
        hst.integers(2, 6),
        hst.lists(hst.floats(0, 1, allow_nan=False), min_size=1, max_size=6).map(tuple),
    ),
    max_size=8,
)


@given(moves)
def test_moves_round_trip(ms) -> None:
    text = ";".join(f"{leaf}-{k}-" + "_".join(repr(d) for d in dist) for leaf, k, dist in ms)
    assert params.parse_moves("mv", text) == (ms, None)


def test_moves_stop_at_the_first_bad_one() -> None:
    got, bad = params.parse_moves("mv", "0-2-0.5_0.5;![x](http://h/p.png);1-2-1_0")
    assert got == [(0, 2, (0.5, 0.5))]
    assert bad is not None and "move 2" in bad.reason and bad.value.startswith("![x]")
    got, bad = params.parse_moves("mv", ";".join(["0-2-1_0"] * 5000))
    assert len(got) == params.MAX_MOVES and bad is not None


@given(hst.lists(hst.tuples(hst.integers(0, 9), hst.integers(0, 9), hst.sampled_from([-1, 1]))))
def test_points_round_trip(points) -> None:
    points = [(x * draw.LEVELS // 10, y * draw.LEVELS // 10, c) for x, y, c in points]
    points = points[: draw.MAX_POINTS]
    assert draw.parse_points("pts", draw.encode_points(points)) == (points, None)
    got, bad = draw.parse_points("pts", draw.encode_points(points) + "#!")
    assert got == points and bad is not None


@given(TEXT, hst.integers(1, 100))
def test_quote_is_short(raw: str, limit: int) -> None:
    assert len(params.quote(raw, limit)) <= limit
    assert params.quote(raw, limit) == raw or len(raw) > limit or not raw.isprintable()


def test_widget_problem_reasons() -> None:
    assert params.widget_problem("s", ["0"], 16).reason == "not allowed; using 16"
    assert params.widget_problem("s", ["0"], 16, (2, 64)).reason == "must be 2–64"
    assert params.widget_problem("g", ["0.9"], 0.1, (0.0, 0.5)).reason == "must be 0–0.5"
    assert params.widget_problem("s", ["²"], 16).reason == "not a whole number"
    assert params.widget_problem("g", ["nan"], 0.1).reason == "not a finite number"
    assert params.widget_problem("d", ["nope"], "moons").reason == "not one of the choices"
    assert params.widget_problem("p", ["maybe"], False).reason == "not true or false"
    assert params.widget_problem("c", ["A", "zz"], ["A"]).reason.startswith("not all")
    assert params.widget_problem("s", ["16"], 16) is None
    assert params.widget_problem("g", ["0.33"], 0.33) is None
    assert params.widget_problem("p", ["true"], True) is None
    assert params.widget_problem("c", ["A", "B"], ["A", "B"]) is None


# ---------------------------------------------------------------------------- the escaping
IMAGE = "![x](http://127.0.0.1:9/p.png)"
LINK = "[Session expired: click here](http://127.0.0.1:9/login)"
HTML = "<img src=http://127.0.0.1:9/h.png><a href='http://127.0.0.1:9/a'>b</a>"
PAYLOADS = [IMAGE, LINK, HTML, "http://127.0.0.1:9/auto", "www.example.com", "a@b.example"]


def _unescaped(text: str, sub: str) -> bool:
    """Whether ``sub`` occurs in markdown source without a backslash before it."""
    i = text.find(sub)
    while i >= 0:
        if i == 0 or text[i - 1] != "\\":
            return True
        i = text.find(sub, i + 1)
    return False


def _is_markup(text: str) -> bool:
    """Whether markdown source holds an unescaped image, link or HTML tag, or an autolink
    (Streamlit finds those after reading the escapes, so a backslash does not count)."""
    plain = text.replace("\\", "")
    if any(m in plain for m in ("http://", "https://", "www.")) or re.search(r"\w@\w", plain):
        return True
    return any(_unescaped(text, m) for m in ("![", "[Session", "](", "<img", "<a "))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_md_plain_neutralises_markup(payload: str) -> None:
    shown = md_plain(payload, limit=200)
    assert "](" not in shown and "<" not in shown.replace("\\<", "")
    assert "http://" not in shown and "www." not in shown and "a@b" not in shown


def test_md_plain_keeps_ordinary_text_readable() -> None:
    assert md_plain("students.csv") == "students.csv"
    assert md_plain("x2 is missing: line 3 (empty)") == "x2 is missing: line 3 (empty)"
    assert md_plain("a\nb\r# c") == "a b \\# c"


def test_plot_plain_escapes_html() -> None:
    assert plot_plain("<a href='x'>&</a>") == "&lt;a href='x'&gt;&amp;&lt;/a&gt;"


# ----------------------------------------------------------------------------- the pages
#: Parameters a plain open does not read, and the link that makes the page draw them.
DRAWN_LATER = {
    "ptest": {"src": "Draw"},
    "watch_adv": {"mode": "Watch"},
    "watch_seed": {"mode": "Watch"},
}


def _name(page: pages.PageSpec) -> str:
    return page.slug or "home"


def _reads(page: pages.PageSpec) -> list[str]:
    """The URL parameters the page reads on every run: every one it declares (the registry)
    but a widget drawn only in some states (:data:`DRAWN_LATER`, read when drawn), the
    preset (added where a test wants it) and, without the lecture view, the round (read only
    with a preset or in the game's watch mode)."""
    return [
        p.name
        for p in page.params
        if p.name not in DRAWN_LATER
        and p.name != "preset"
        and (p.name != "round" or page.has("lecture"))
    ]


#: The URL parameters each page reads on every run.
PAGE_KEYS = {_name(p): _reads(p) for p in pages.PAGES}
PRESET_PAGES = [p.slug for p in pages.PAGES if p.presets]

#: Values no parameter of any page accepts.
NASTY = ["²", "9" * 5000, "nan", "-inf", "1e999", "１", "0x10", IMAGE, LINK, HTML, "\x00\n# h"]


def _texts(at) -> list[str]:
    """The markdown source of every element that renders markdown (and every exception)."""
    kinds = ["markdown", "caption", "info", "warning", "error", "success", "toast", "title"]
    kinds += ["header", "subheader", "exception"]
    out = []
    for kind in kinds:
        for el in at.get(kind):
            value = getattr(el, "value", None)
            if isinstance(value, str):
                out.append(value)
            out.extend(str(x) for x in getattr(el, "stack_trace", []) or [])
    return out


def _notice(at) -> str:
    shown = [w.value for w in at.warning if w.value.startswith("Ignored from the link:")]
    assert len(shown) <= 1, shown
    return shown[0] if shown else ""


def _check(at, ignored: list[str]) -> None:
    ah.ok(at)
    texts = _texts(at)
    assert not any("Traceback" in t for t in texts)
    notice = _notice(at)
    for param in ignored:
        assert f"{md_plain(param)}=" in notice, (param, notice)
    # a quote is at most 40 characters: nothing near 5,000 digits is echoed anywhere
    assert not any("9" * 60 in t for t in texts)
    echoed = [t for t in texts if "127.0.0.1" in t]  # the payloads' host
    assert not any(_is_markup(t) for t in echoed), [t for t in echoed if _is_markup(t)]


def _own(page: pages.PageSpec, *kinds: str) -> list[str]:
    """The page's own parameters (of no shared group) of these kinds, in declared order."""
    shared = set(pages.LESSON_PARAMS)
    return [p.name for p in page.params if p not in shared and p.kind in kinds]


def _lesson_cases(page: pages.PageSpec) -> list[tuple[str, dict, list[str]]]:
    """Nasty links every lesson page gets, built from its declared parameters: a bad preset
    with a link in the round and its last own number below its range; a bad round, an
    unknown data source and an infinite number; a huge number for its first choice and
    markup in its first multiple choice; markup as the drawn points."""
    numbers = _own(page, "int", "float")
    low = page.param(numbers[-1])
    below = str(low.lo - 4) if low.kind == "float" else str(int(low.lo) - 4)
    last_number = (_own(page, "float") or numbers)[-1]
    choice = dict.fromkeys(_own(page, "choice")[:1], "9" * 5000)
    choices = dict.fromkeys(_own(page, "choices")[:1], IMAGE)
    return [
        (
            page.slug,
            dict(preset="bad", round=LINK, **{low.name: below}),
            ["preset", "round", low.name],
        ),
        (
            page.slug,
            dict(round="²", src="Nope", **{last_number: "inf"}),
            ["round", "src", last_number],
        ),
        (page.slug, {**choice, **choices}, [*choice, *choices]),
        (page.slug, dict(src="Draw", pts=IMAGE), ["pts"]),
    ]


CASES = [
    ("topdown", dict(preset="multiway", round="²"), ["round"]),
    ("topdown", dict(preset="multiway", round="9" * 5000), ["round"]),
    ("topdown", dict(s="0", n="100000000", data="nope", k="99", gamma="nan"), ["s", "n", "data"]),
    ("topdown", dict(preset=IMAGE), ["preset"]),
    *(case for page in pages.LESSONS for case in _lesson_cases(page)),
    ("game", dict(mv=IMAGE, s="0", gamma="nan"), ["mv", "s", "gamma"]),
    ("game", dict(mv="0-2-0.5_0.5;" + "1-9-1;" * 20000), ["mv"]),
    ("game", dict(preset="multiway", round="²", mode=LINK), ["preset", "mode"]),
    ("bounds", dict(b_Tn="0", b_C="nan", b_rho3=IMAGE), ["b_Tn", "b_C", "b_rho3"]),
    ("benchmark", dict(bench_ds=LINK, now_folds="99"), ["bench_ds", "now_folds"]),
    ("theory", dict(section=IMAGE, present="maybe"), ["section", "present"]),
    ("home", dict(present=HTML), ["present"]),
]


@pytest.mark.parametrize(("name", "query", "ignored"), CASES)
def test_nasty_link_gives_a_notice_and_no_traceback(name: str, query: dict, ignored) -> None:
    _check(ah.page(name, **query), ignored)


def test_the_notice_gives_the_widget_range() -> None:
    notice = _notice(ah.page("topdown", s="0", noise="7"))
    assert "s=0 (must be 2–64)" in notice and "noise=7 (must be 0–1)" in notice


def test_preset_with_a_bad_round_still_loads_the_preset() -> None:
    at = ah.page("topdown", preset="multiway", round="²")
    _check(at, ["round"])
    assert at.session_state["preset_pick"] == "multiway"


@pytest.mark.parametrize("name", PAGE_KEYS)
def test_markup_in_every_echoed_parameter_stays_text(name: str) -> None:
    """Each parameter of the page carries a markdown image or link: none reaches a rendered
    element as markup (it appears escaped, ``\\!\\[x\\]``, or not at all)."""
    keys = PAGE_KEYS[name] + (["preset"] if name in PRESET_PAGES else [])
    query = {k: (IMAGE if i % 2 else LINK) for i, k in enumerate(keys)}
    at = ah.page(name, **query)
    _check(at, keys)
    texts = _texts(at)
    assert not any("![x](" in t or _unescaped(t, "[Session expired") for t in texts)
    notice = _notice(at)
    assert "\\!\\[x\\]" in notice or "\\[Session expired" in notice


@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(hst.data())
@pytest.mark.parametrize("name", PAGE_KEYS)
def test_generated_link_gives_a_notice_and_no_traceback(name: str, data) -> None:
    keys = data.draw(hst.lists(hst.sampled_from(PAGE_KEYS[name]), min_size=1, max_size=4))
    query = {k: data.draw(hst.sampled_from(NASTY), label=k) for k in dict.fromkeys(keys)}
    _check(ah.page(name, **query), list(query))


# ------------------------------------------------------ file names and headers of an upload
HOSTILE_NAME = "![x](http://127.0.0.1:9/f.png)[click](http://e).csv"


def _upload_app(data: bytes, name: str) -> None:
    from ui.widgets import dataset_from_upload

    dataset_from_upload(data, name)


@pytest.mark.parametrize(
    "data",
    [
        b"![h](http://127.0.0.1:9/h.png),<b>y</b>,label\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n",
        b"x1,x2,label\n1,2,a\n3,,b\n5,6,a\n7,[k](http://e),b\n9,10,b\n11,12,a\n",
        b"x1,x2,label\n1,2,[k](http://e)\n3,4,[k](http://e)\n5,6,a\n",
        b"[k](http://e),x2\n1,2\n",
    ],
)
def test_upload_messages_show_names_and_headers_as_text(data: bytes) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(
        _upload_app, args=(data, HOSTILE_NAME), default_timeout=ah.TIMEOUT
    ).run()
    ah.ok(at)
    texts = _texts(at) + [e.value for e in at.sidebar.get("success")]
    assert texts
    assert not any(_is_markup(t) for t in texts), texts


def test_plotly_titles_and_legends_escape_csv_names() -> None:
    import numpy as np

    from boostcore.datasets import Dataset

    X = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [1.0, 1.0]])
    ds = Dataset(
        name="csv",
        description="hostile names",
        X_train=X,
        X_test=X[:0],
        y_train=np.array([-1, 1, -1, 1]),
        y_test=np.array([], dtype=np.int64),
        feature_names=("<a href='http://e'>x</a>", "<b>y</b>&"),
        class_names=("<img src=x>", "+1"),
    )
    layout = figures.regions_layout(ds, np.zeros(2), np.ones(2))
    titles = [layout["xaxis"]["title"]["text"], layout["yaxis"]["title"]["text"]]
    names = [t.get("name", "") for t in figures.points_traces(ds)]
    for text in titles + names:
        assert "<" not in text and ">" not in text, text
    assert titles == [html.escape(n) for n in ds.feature_names]  # shown as typed


def test_a_widget_drawn_later_is_checked_when_it_is_drawn() -> None:
    """``watch_seed`` is drawn in watch mode only: a bad value in the link is named on the
    notice once the mode shows it, and not before."""
    at = ah.page("game", watch_seed="abc")
    ah.ok(at)
    assert "watch" not in _notice(at)
    at.radio(key="mode").set_value("Watch").run()
    ah.ok(at)
    assert "watch\\_seed=abc (not a whole number)" in _notice(at)


def test_a_loaded_preset_is_not_reported_as_ignored() -> None:
    at = ah.page("topdown", s="20")
    _check(at, [])
    assert _notice(at) == ""
    at.selectbox(key="preset_pick").select("multiway").run()
    _check(at, [])
    assert _notice(at) == ""


# ------------------------------------------------- parameters a page does not read, preset rounds
@pytest.mark.parametrize("name", PAGE_KEYS)
def test_a_parameter_the_page_does_not_read_is_named_and_dropped(name: str) -> None:
    """``?foo=1`` (no page reads it) and ``?T2x=5`` are named on the notice and removed from
    the address, so a copied link leaves them out; the page's own parameters are kept (the
    header's ``present``, and the data source on a page with the dataset sidebar)."""
    own = {"present": "true"}
    if "src" in PAGE_KEYS[name]:
        own["src"] = "Generated"
    at = ah.page(name, foo="1", T2x="5", **own)
    _check(at, ["foo", "T2x"])
    notice = _notice(at)
    assert "foo=1 (not a parameter of this page)" in notice, notice
    assert "T2x=5 (not a parameter of this page)" in notice, notice
    assert "foo" not in at.query_params and "T2x" not in at.query_params
    for key in own:
        assert f"{key}=" not in notice


def test_another_pages_parameter_is_named() -> None:
    notice = _notice(ah.page("topdown", T2="5"))
    assert "T2=5 (not a parameter of this page)" in notice


def test_streamlits_own_parameters_are_not_reported() -> None:
    at = ah.page("topdown", embed="true")
    _check(at, [])
    assert _notice(at) == ""


@pytest.mark.parametrize("name", pages.LESSON_SLUGS)
def test_a_preset_links_round_outside_the_run_is_clamped_and_named(name: str) -> None:
    """``?preset=…&round=999`` (the page's first preset): the run is computed after the
    preset is loaded, so the stepper clamps the round into it and the notice says which
    round is shown."""
    preset = next(iter(pages.page(name).presets))
    at = ah.page(name, preset=preset, round="999")
    _check(at, ["round"])
    notice = _notice(at)
    m = re.search(r"round=999 \(this run has rounds 0–(\d+); showing (\d+)\)", notice)
    assert m and m.group(1) == m.group(2), notice
    assert at.session_state["round"] == int(m.group(2))
    assert at.query_params["round"] == m.group(2)


def test_a_preset_links_round_inside_the_run_is_shown_without_a_notice() -> None:
    at = ah.page("topdown", preset="multiway", round="2")
    _check(at, [])
    assert _notice(at) == "" and at.session_state["round"] == 2


def test_every_bound_widget_key_is_declared_by_its_page() -> None:
    """Every key a view binds to the URL is a parameter its registry row declares, and the
    shared modules bind only the shared groups' parameters (``ui/pages``): a new URL-bound
    widget cannot be reported as "not a parameter of this page"."""
    import ast
    from pathlib import Path

    from ui import pages

    def bound(path: Path) -> set[str]:
        keys = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                kw = {k.arg: k.value for k in node.keywords}
                b = kw.get("bind")
                if isinstance(b, ast.Constant) and b.value == "query-params":
                    key = kw["key"]
                    keys.add(key.value if isinstance(key, ast.Constant) else key.id)
        return keys

    def names(group) -> set[str]:
        return {p.name for p in group}

    root = Path(__file__).resolve().parents[2]
    shared = {
        "widgets.py": names(pages.DATASET_PARAMS),
        "draw.py": names(pages.DATASET_PARAMS),
        "lecture/layout.py": names(pages.LECTURE_PARAMS),
        "classroom/__init__.py": {"PRESENT"} | names(pages.HEADER_PARAMS),
    }
    for file, declared in shared.items():
        assert bound(root / "ui" / file) <= declared, file
    for page in pages.PAGES:
        assert bound(root / page.view) <= set(page.url_params), page.view
        assert names(pages.HEADER_PARAMS) <= set(page.url_params), page.view
        if page.has("lecture"):
            assert names(pages.LESSON_PARAMS) <= set(page.url_params), page.view


def test_the_one_streamlit_internal_we_use_is_still_there() -> None:
    """``params.reseed_widgets_from_link`` is the app's only reach into Streamlit's
    internals: if an upgrade moves them, this fails by name instead of the app degrading."""
    from streamlit.runtime.state.query_params import QueryParams
    from streamlit.runtime.state.session_state_proxy import get_session_state

    assert callable(get_session_state)
    qp = QueryParams()
    qp.set_initial_query_params("seed=1e999&n=5")
    assert qp.get_initial_value("seed") == "1e999"  # what would seed the number input
    qp.set_initial_query_params_from_current()  # the method params.reseed_... calls
    # the current parameters are empty (the bad one deleted): nothing seeds a widget now
    assert qp.get_initial_value("seed") is None and qp.get_initial_value("n") is None
