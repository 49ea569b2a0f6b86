"""The lesson skeleton (ui/lesson.py) and the settings a lesson's Params declare (issue 42,
item 2): one preamble for the four lesson views, one frozen record of their settings, the
value maps in the declaration."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from ui import pages
from ui.params import Param, Settings, settings

ROOT = Path(__file__).resolve().parents[2]
LESSONS = [p for p in pages.PAGES if p.has("lecture")]


def test_a_value_map_must_match_the_options() -> None:
    with pytest.raises(ValueError, match="must map exactly its options"):
        Param("x", "choice", default="a", options=("a", "b"), values={"a": 1})
    with pytest.raises(ValueError, match="kind must be 'choice' or 'choices'"):
        Param("n", "int", lo=0, hi=3, default=1, values={1: 1})


def test_settings_need_every_declared_value() -> None:
    page = LESSONS[0]
    shown = {p.name: p.default for p in page.params if p.field}
    missing = next(p.name for p in page.params if p.field)
    del shown[missing]
    with pytest.raises(KeyError, match=f"'{missing}'"):
        page.settings(shown)


@hsettings(deadline=None)  # a loaded CI machine: the check is of values, not of speed
@given(
    st.dictionaries(
        st.sampled_from("abcd"),
        st.one_of(st.integers(), st.none(), st.tuples(st.integers())),
        max_size=4,
    )
)
def test_settings_are_frozen_hashable_and_picklable(items: dict) -> None:
    s = Settings(items)
    assert s == Settings(dict(items)) and hash(s) == hash(Settings(dict(items)))
    assert pickle.loads(pickle.dumps(s)) == s
    assert s.fields == tuple(items)
    for key, value in items.items():
        assert getattr(s, key) == value
        with pytest.raises(AttributeError, match="frozen"):
            setattr(s, key, value)
    record = s.as_dict()
    assert all(not isinstance(v, tuple) for v in record.values())
    if items:
        key = next(iter(items))
        changed = s.replace(**{key: "changed"})
        assert getattr(changed, key) == "changed" and getattr(s, key) == items[key]
    with pytest.raises(AttributeError, match="no setting"):
        s.replace(zz=1)


def test_settings_follow_the_declaration_order_and_skip_unfielded_params() -> None:
    declared = (
        Param("b", "int", lo=0, hi=9, default=1, field="second"),
        Param("a", "int", lo=0, hi=9, default=1),
        Param(
            "c", "choice", default="x", options=("x", "y"), field="first", values={"x": 0, "y": 1}
        ),
    )
    got = settings(declared, {"c": "y", "a": 3, "b": 2})
    assert got.fields == ("second", "first") and got.as_dict() == {"second": 2, "first": 1}


# the preamble the four views repeated (issue 42: 4 copies → 1): only ui/lesson.py draws it
PREAMBLE = {"page_header", "dataset_sidebar", "preset_from_url", "preset_row", "predict_toggle"}


def _called(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.slug)
def test_a_lesson_view_opens_with_begin_and_repeats_no_preamble(page) -> None:
    called = _called(ROOT / page.view)
    assert "begin" in called
    assert not called & PREAMBLE, sorted(called & PREAMBLE)
    assert PREAMBLE <= _called(ROOT / "ui" / "lesson.py")


def test_the_preamble_check_sees_a_copy() -> None:
    """The check above flags a view that draws the header itself (made-up source)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "v.py"
        path.write_text("header = page_header('t', page='x')\nlesson = begin(PAGE, 't', f)\n")
        assert _called(path) & PREAMBLE == {"page_header"}
