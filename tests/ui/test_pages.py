"""The page registry's own test (``ui/pages``, issue 23): it is the one list of the pages.

Every page file is a registered page's view and every view a file; slugs, titles and views
are unique; a lesson page's URL parameters are declared with their kind and range, it has
presets and the session key of its preset picker; the look-ups (:func:`pages.page`,
:func:`pages.with_feature`, :meth:`PageSpec.has`, :meth:`PageSpec.param`) answer and refuse
with readable errors; ``app.py`` builds the navigation from the registry; the thumbnails,
theory sections and lecture-path steps the rows name exist. Everything is parametrized over
the registry itself: no list of pages is typed here, except once, in the record each lesson's
settings must give at its defaults (written out independently of the registry, issue 42 item 2).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from streamlit.testing.v1 import AppTest

from boostcore import branching, oblique, realboost, topdown
from tests import apptest_helpers as ah
from ui import pages, theory_doc
from ui.pages.matryoshka import export as matryoshka_export
from ui.params import KINDS, Param

ROOT = Path(__file__).resolve().parents[2]


def _id(page: pages.PageSpec) -> str:
    return page.slug or "home"


# ---------------------------------------------------------------------- the rows and the files
def test_every_page_file_is_a_registered_view_and_every_view_a_file() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "views").glob("*.py")}
    views = [p.view for p in pages.PAGES]
    assert files == set(views), (
        f"page files not registered: {sorted(files - set(views))}; "
        f"registered views with no file: {sorted(set(views) - files)}"
    )


@pytest.mark.parametrize("attr", ["slug", "title", "view"])
def test_slugs_titles_and_views_are_unique(attr: str) -> None:
    values = [getattr(p, attr) for p in pages.PAGES]
    twice = sorted({v for v in values if values.count(v) > 1})
    assert not twice, f"{attr} used by more than one page: {twice}"


def test_the_home_page_comes_first_and_has_the_empty_slug() -> None:
    """The router makes the page with the empty slug the default (``app.py``)."""
    assert pages.PAGES[0].slug == "" and pages.PAGES[0].view == "views/home.py"
    assert [p.slug for p in pages.PAGES].count("") == 1


@pytest.mark.parametrize("page", pages.PAGES, ids=_id)
def test_a_slug_is_a_url_path_and_the_view_its_file(page: pages.PageSpec) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9_]*|", page.slug), page.slug
    if page.slug:
        assert page.view == f"views/{page.slug}.py"
    assert page.title and page.icon.startswith(":material/") and page.icon.endswith(":")
    assert set(page.features) <= pages.FEATURES


@pytest.mark.parametrize("page", pages.PAGES, ids=_id)
def test_every_page_declares_the_header_params(page: pages.PageSpec) -> None:
    assert set(pages.HEADER_PARAMS) <= set(page.params), page.slug
    assert page.url_params == tuple(p.name for p in page.params)


@pytest.mark.parametrize("page", pages.LESSONS, ids=_id)
def test_a_lesson_pages_bound_params_are_declared_with_kind_and_range(
    page: pages.PageSpec,
) -> None:
    """Every URL parameter a widget reads has its kind and, for a number, its range and
    default; a choice its options, unless they are known only at run time (the lecture
    view's focused run)."""
    assert set(pages.LESSON_PARAMS) <= set(page.params), page.slug
    for p in page.params:
        assert p.kind in KINDS, p
        if not p.bound:
            continue
        if p.kind in ("int", "float"):
            assert p.span is not None and p.default is not None, p
            assert p.lo <= p.default <= p.hi, p
        elif p.kind in ("choice", "choices"):
            assert p.options is not None or p in pages.LECTURE_PARAMS, (
                f"{page.slug}: {p.name} declares no options"
            )
        else:
            assert p.kind == "flag" and isinstance(p.default, bool), p


@pytest.mark.parametrize("page", pages.LESSONS, ids=_id)
def test_a_lesson_page_has_presets_and_its_pickers_key(page: pages.PageSpec) -> None:
    assert page.presets, f"{page.slug} has no presets"
    assert page.preset_key, f"{page.slug} has no preset_key"
    assert page.first_round >= 0
    assert set(pages.PRESET_PARAMS) <= set(page.params)


@pytest.mark.parametrize("page", [p for p in pages.PAGES if p.presets], ids=_id)
def test_a_page_with_presets_names_its_picker_in_its_view(page: pages.PageSpec) -> None:
    """The registry's ``preset_key`` is the key the page's preset picker is drawn with: the
    view names it, or opens with the lesson skeleton, which draws the picker with it."""
    assert page.preset_key, page.slug
    source = _source(page.view)
    named = re.search(rf"""["']{re.escape(page.preset_key)}["']""", source)
    assert named or re.search(r"\bbegin\(\s*PAGE\b", source), (
        f"{page.view} never names its preset picker's key {page.preset_key!r}"
    )
    if not named:
        lesson = _source("ui/lesson.py")
        assert lesson.count("page.preset_key") >= 2, "ui/lesson.py: the preset row and the link"
    assert set(pages.PRESET_PARAMS) <= set(page.params)


def test_pages_without_presets_have_no_picker() -> None:
    for page in pages.PAGES:
        if not page.presets:
            assert not page.preset_key and not page.challenges, page.slug


def test_the_lessons_are_the_pages_with_the_lecture_view() -> None:
    assert pages.LESSONS == pages.with_feature("lecture")
    assert pages.LESSON_SLUGS == tuple(p.slug for p in pages.LESSONS)
    assert pages.LESSONS and all(p.slug for p in pages.LESSONS)


# ----------------------------------------------------------------------------- the look-ups
@pytest.mark.parametrize("page", pages.PAGES, ids=_id)
def test_page_finds_every_row_by_its_slug(page: pages.PageSpec) -> None:
    assert pages.page(page.slug) is page
    if not page.slug:
        assert pages.page("home") is page


def test_page_refuses_an_unknown_slug_naming_the_pages() -> None:
    with pytest.raises(KeyError) as err:
        pages.page("nope")
    message = str(err.value)
    assert "'nope'" in message
    assert all(repr(p.slug or "home") in message for p in pages.PAGES), message


@pytest.mark.parametrize("feature", sorted(pages.FEATURES))
def test_with_feature_and_has_agree(feature: str) -> None:
    found = pages.with_feature(feature)
    assert found, f"no page has {feature!r}"
    assert found == tuple(p for p in pages.PAGES if feature in p.features)  # navigation order
    for page in pages.PAGES:
        assert page.has(feature) == (page in found)


def test_with_feature_and_has_refuse_an_unknown_feature() -> None:
    for call in (lambda: pages.with_feature("lectures"), lambda: pages.PAGES[0].has("lectures")):
        with pytest.raises(ValueError) as err:
            call()
        message = str(err.value)
        assert "'lectures'" in message and all(f in message for f in pages.FEATURES), message


@pytest.mark.parametrize("page", pages.PAGES, ids=_id)
def test_param_finds_every_declared_parameter(page: pages.PageSpec) -> None:
    for p in page.params:
        assert page.param(p.name) is p
    with pytest.raises(KeyError) as err:
        page.param("no_such_param")
    assert repr(page.slug) in str(err.value) and "'no_such_param'" in str(err.value)


def test_a_row_refuses_unknown_features_and_twice_declared_params() -> None:
    home = pages.page("home")
    with pytest.raises(ValueError, match=r"features of page '' must be among .*'lectures'"):
        dataclasses.replace(home, features=frozenset({"lectures"}))
    present = Param("present", "flag", default=False)
    with pytest.raises(ValueError, match=r"declares the URL parameter\(s\) \['present'\] twice"):
        dataclasses.replace(home, params=(present, present))


def test_a_row_refuses_a_lecture_step_on_a_preset_it_does_not_have() -> None:
    page = next(p for p in pages.PAGES if p.lecture_path and p.presets)
    step = pages.LectureStep("0–5", "no_such_preset", "text")
    with pytest.raises(ValueError, match="opens presets it does not have: \\['no_such_preset'\\]"):
        dataclasses.replace(page, lecture_path=(step,))


# ------------------------------------------------------------------------------- the router
def _source(rel: str) -> str:
    return (ROOT / rel).read_text("utf-8")


def test_app_builds_the_navigation_from_the_registry() -> None:
    """``ui/router.py`` makes one ``st.Page`` per registry row, in a comprehension over
    ``PAGES`` imported from ``ui.pages``; ``app.py`` navigates over ``router.pages()``; neither
    names a page file, slug or title itself."""
    app = ast.parse(_source("app.py"))
    assert "st.navigation(router.pages())" in {
        ast.unparse(n.func.value)
        for n in ast.walk(app)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "run"
    }
    tree = ast.parse(_source("ui/router.py"))
    imported = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert ("pages", "PAGES") in imported, imported
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "Page"
    ]
    assert len(calls) == 1, "ui/router.py should make its st.Page objects in one place"
    comps = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ListComp | ast.GeneratorExp) and node.elt is calls[0]
    ]
    assert comps, "st.Page(...) is not made in a comprehension"
    (gen,) = comps[0].generators
    assert ast.unparse(gen.iter) in ("PAGES", "pages.PAGES"), ast.unparse(gen.iter)
    row = gen.target.id  # type: ignore[attr-defined]
    used = {
        n.attr
        for n in ast.walk(calls[0])
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == row
    }
    assert {"view", "title", "icon", "slug"} <= used, used
    for module in (app, tree):
        docstring = module.body[0].value if isinstance(module.body[0], ast.Expr) else None
        literals = {
            n.value
            for n in ast.walk(module)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n is not docstring
        }
        named = [v for p in pages.PAGES for v in (p.view, p.title, p.slug) if v in literals]
        assert not named and not any("views/" in v for v in literals), (
            f"the router names pages itself: {named or literals}"
        )


def _two_page_lists() -> None:
    import streamlit as st

    from ui import router

    a, b = router.pages(), router.pages()
    st.text(
        f"ok {len(a) == len(b) > 1} {all(x is not y for x, y in zip(a, b, strict=True))} "
        f"{[x.url_path for x in a] == [y.url_path for y in b]} {sum(x._default for x in a)}"
    )


def test_each_run_gets_its_own_page_objects() -> None:
    """The st.Page objects are built once per process, but each run gets copies:
    ``st.navigation`` marks the page it runs on them (two sessions must not share that)."""
    at = AppTest.from_function(_two_page_lists, default_timeout=ah.TIMEOUT).run()
    ah.ok(at)
    assert [t.value for t in at.text] == ["ok True True True 1"]


def test_the_router_runs_the_default_page() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=ah.TIMEOUT).run()
    ah.ok(at)
    assert at.title and "boosting" in at.title[0].value  # the home page (the empty slug)


# ------------------------------------------------------------- what the rows name exists
@pytest.mark.parametrize("page", [p for p in pages.PAGES if p.blurb], ids=_id)
def test_every_card_of_the_home_page_has_a_thumbnail_query(page: pages.PageSpec) -> None:
    assert page.thumbnail, f"{page.slug} has a home-page card but no thumbnail query"


@pytest.mark.parametrize("page", [p for p in pages.PAGES if p.thumbnail], ids=_id)
def test_the_thumbnail_exists_and_its_query_is_the_pages(page: pages.PageSpec) -> None:
    """``scripts/make_thumbnails.py`` shoots ``/<slug>?<thumbnail>``; the home page shows
    ``assets/thumbnails/<slug>.png``."""
    assert (ROOT / "assets" / "thumbnails" / f"{page.slug}.png").is_file(), page.slug
    query = dict(parse_qsl(page.thumbnail, strict_parsing=True))
    assert set(query) <= set(page.url_params), (page.slug, query)
    if "preset" in query:
        assert query["preset"] in page.presets, (page.slug, query["preset"])
    if "round" in query:
        assert int(query["round"]) >= 0


@pytest.mark.parametrize("page", [p for p in pages.PAGES if p.theory], ids=_id)
def test_the_theory_section_exists(page: pages.PageSpec) -> None:
    numbers = {s.number for s in theory_doc.sections()}
    assert page.theory in numbers, f"{page.slug}: docs/theory.md has no section {page.theory!r}"


def test_every_page_but_the_notes_has_a_theory_section() -> None:
    missing = [
        p.slug or "home" for p in pages.PAGES if not p.theory and p.view != "views/theory.py"
    ]
    assert not missing, missing


def test_the_lecture_path_fills_45_minutes_without_gaps() -> None:
    """The steps the rows hold, in time order (as the home page lists them), follow one
    another from minute 0 to minute 45; each opens one of its page's presets."""
    steps = sorted((s for p in pages.PAGES for s in p.lecture_path), key=lambda s: s.start)
    assert steps, "no page holds a step of the lecture path"
    assert steps[0].start == 0 and steps[-1].end == 45
    for before, after in zip(steps, steps[1:]):
        assert before.end == after.start, (before.minutes, after.minutes)
    for page in pages.PAGES:
        for step in page.lecture_path:
            assert step.start < step.end and step.text, step
            assert step.preset is None or step.preset in page.presets, (page.slug, step)


def test_the_home_page_lists_the_lecture_path_in_order() -> None:
    at = ah.page("home")
    ah.ok(at)
    shown = [m.value for m in at.markdown if re.match(r"\*\*\d+–\d+ min\*\*", m.value)]
    steps = sorted(
        ((p, s) for p in pages.PAGES for s in p.lecture_path), key=lambda ps: ps[1].start
    )
    assert len(shown) == len(steps)
    for text, (_, step) in zip(shown, steps, strict=True):
        assert text.startswith(f"**{step.minutes} min**") and text.endswith(step.text)
        assert "](" not in text, text  # no markdown link: Streamlit opens it in a new tab
    # each step with a preset has its button (same tab, presenter mode:
    # tests/pages/home/test_app_home.py)
    buttons = [b.key for b in at.button if b.key and b.key.startswith("lecture_")]
    assert buttons == [f"lecture_{p.slug}_{s.preset}" for p, s in steps if s.preset]


# ---- a lesson's settings (issue 42, item 2): built from its Params and their value maps
LESSONS = [p for p in pages.PAGES if p.has("lecture")]

#: What each lesson's sidebar at its defaults means in code, written out here (not read from
#: the registry): the run's JSON record and the scripts have named these keys since issue 20.
DEFAULTS = {
    "topdown": {
        "crit": ["hatano", "mansour_mcallester", "naive"],
        "size": 16,
        "max_arity": 4,
        "index": "km",
        "gamma": 0.1,
        "leaf_rule": "max_weight",
    },
    "branching": {
        "schemes": ["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"],
        "n_rounds": 20,
        "c": 0.5,
        "wl": "h",
    },
    "matryoshka": {
        "structures": ["chain", "tree", "matryoshka"],
        "n_weak": 16,
        "softness": 0.3,
        "samples": None,
    },
    "oblique": {
        "n_internal": 7,
        "n_stumps": 10,
        "learner": "stump",
        "rule": "breadth_first",
        "inner": False,
    },
}

#: The names in code each mapped choice must land on: the core's own lists.
CODE_VALUES = {
    ("topdown", "crit"): set(topdown.CRITERIA),
    ("topdown", "leaf"): set(topdown.LEAF_RULES),
    ("branching", "wl"): set(branching.WEAK_LEARNERS),
    ("matryoshka", "struct"): set(matryoshka_export.STRUCTURES),
    ("matryoshka", "est"): {None, 100, 20, 5},
    ("oblique", "learner"): set(realboost.WEAK_LEARNERS),
    ("oblique", "rule"): set(oblique.LEAF_RULES),
}


def _defaults(page) -> dict:
    return {p.name: p.default for p in page.params if p.field}


def test_the_four_lessons_are_the_lecture_pages() -> None:
    assert sorted(p.slug for p in LESSONS) == sorted(DEFAULTS)


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.slug)
def test_settings_at_the_defaults_are_what_the_page_always_recorded(page) -> None:
    assert page.settings(_defaults(page)).as_dict() == DEFAULTS[page.slug]


@pytest.mark.parametrize(("slug", "name"), sorted(CODE_VALUES))
def test_every_value_map_lands_on_the_cores_names(slug: str, name: str) -> None:
    param = pages.page(slug).param(name)
    assert param.values is not None
    assert dict(param.values).keys() == set(param.options)
    assert set(dict(param.values).values()) == CODE_VALUES[(slug, name)]


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.slug)
def test_every_choice_of_a_lesson_maps_to_a_value(page) -> None:
    """Each option of every mapped setting, alone, gives its value (a choices one a tuple)."""
    for p in page.params:
        if p.values is None:
            continue
        for option in p.options:
            shown = dict(_defaults(page), **{p.name: [option] if p.kind == "choices" else option})
            got = getattr(page.settings(shown), p.field)
            want = dict(p.values)[option]
            assert got == ((want,) if p.kind == "choices" else want), (p.name, option)
