"""The arrows point one way: views → ui → boostcore (docs/development.md, "How the code is
arranged"; issue 15, item 5), without
cycles, without private names taken across modules, and each lesson in its own folder
(issue 23, item 5).

Every module is parsed (``ast``), not imported, so a test failure names the file and the
import line and nothing is executed; subfolders (``ui/pages/<slug>/``) are walked too. The
counting itself is ``scripts/architecture.py``, which prints the same numbers.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from scripts import architecture

ROOT = Path(__file__).resolve().parents[1]

#: Views that may still import the core directly, each with the work that removes it. Empty:
#: views/game.py was the last one, moved to ui by the step-protocol work (ui/pages/game/rules.py).
VIEWS_ALLOWED_TO_IMPORT_BOOSTCORE: set[str] = set()


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, top-level package)`` of every import in ``path``; relative imports are
    resolved against the file's own package (``from . import x`` in ui/ is ``ui``)."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append((node.lineno, path.parent.name))
            elif node.module:
                found.append((node.lineno, node.module.split(".")[0]))
    return found


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _offenders(folder: str, forbidden: set[str], allowed: set[str] = frozenset()) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {package}"
        for path in _modules(folder)
        if path.name not in allowed
        for line, package in _imports(path)
        if package in forbidden
    ]


@pytest.mark.parametrize("folder", ["views", "ui", "boostcore", "server"])
def test_the_folders_hold_modules(folder: str) -> None:
    assert _modules(folder), f"no modules found in {folder}/"


def test_views_do_not_import_the_core() -> None:
    """A page composes ui widgets and figures; the core is reached through ui."""
    offenders = _offenders("views", {"boostcore"}, VIEWS_ALLOWED_TO_IMPORT_BOOSTCORE)
    assert not offenders, offenders


def test_views_import_only_ui_streamlit_and_the_standard_library() -> None:
    """A page never does math: no numpy, pandas, scipy or plotly in a view."""
    allowed = {"ui", "streamlit", "__future__"} | set(sys.stdlib_module_names)
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {package}"
        for path in _modules("views")
        for line, package in _imports(path)
        if package not in allowed
        and not (package == "boostcore" and path.name in VIEWS_ALLOWED_TO_IMPORT_BOOSTCORE)
    ]
    assert not offenders, offenders


def test_the_core_imports_no_ui_stack() -> None:
    """boostcore stays importable and testable without Streamlit, plotly or the app."""
    offenders = _offenders("boostcore", {"streamlit", "plotly", "ui", "views"})
    assert not offenders, offenders


def test_the_class_server_imports_neither_streamlit_nor_the_app_above_it() -> None:
    """Issue 42, item 1: ``server/`` (the class store, the Redis store, the routes) runs
    without Streamlit, so a lesson player or a follower page can be served by it alone."""
    offenders = _offenders("server", {"streamlit", "ui", "views", "plotly"})
    assert not offenders, offenders


def test_importing_the_class_store_loads_no_streamlit() -> None:
    """What the rule above is for, measured: ``import server.store`` (and the routes and the
    Redis store) in a fresh interpreter loads no module of Streamlit, ui or views."""
    import subprocess

    code = (
        "import sys, server.store, server.routes, server.redis_store;"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'streamlit', 'ui', 'views'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_ui_never_imports_views() -> None:
    offenders = _offenders("ui", {"views"})
    assert not offenders, offenders


def test_the_allow_list_is_still_needed() -> None:
    """An exception that is no longer used is deleted, so the rule cannot silently widen."""
    unused = [
        name
        for name in VIEWS_ALLOWED_TO_IMPORT_BOOSTCORE
        if not (ROOT / "views" / name).exists()
        or all(package != "boostcore" for _, package in _imports(ROOT / "views" / name))
    ]
    assert not unused, f"remove {unused} from VIEWS_ALLOWED_TO_IMPORT_BOOSTCORE"


def test_imports_are_found_in_every_form(tmp_path: Path) -> None:
    """The parser sees plain, dotted, from- and relative imports, also inside functions."""
    pkg = tmp_path / "ui"
    pkg.mkdir()
    module = pkg / "m.py"
    module.write_text(
        "import boostcore.bounds\n"
        "from boostcore import datasets\n"
        "from . import compute\n"
        "def f():\n"
        "    import streamlit as st\n"
    )
    assert sorted(_imports(module)) == [
        (1, "boostcore"),
        (2, "boostcore"),
        (3, "ui"),
        (5, "streamlit"),
    ]


# ------------------------------------------------------------ issue 23: cycles, names, lessons
def test_no_import_cycle_inside_the_app() -> None:
    """Imports inside functions count: a cycle hidden in a function is still a cycle."""
    assert architecture.Graph().cycles() == []


def test_no_private_name_is_taken_across_modules() -> None:
    """``from m import _x`` and ``m._x`` across the app's modules: a name another module
    needs is public (documented) in the module that owns it."""
    assert architecture.Graph().private_names() == []


def test_no_arrow_runs_back_up_between_the_parts_of_ui() -> None:
    """Issue 42, item 1: ui's parts (a top-level module, ``ui/classroom/``, the registry,
    a lesson's folder) import each other one way; the page header no longer reaches up into
    the registry or the canvas module."""
    assert architecture.Graph().upward_arrows() == []


def test_a_lesson_imports_neither_another_lesson_nor_the_registry() -> None:
    assert architecture.Graph().lesson_breaches() == []


def test_only_the_registry_and_its_test_list_the_lessons() -> None:
    """No file but the registry (and its own test) retypes the list of lesson pages."""
    found = architecture.page_list_files(architecture.lesson_slugs())
    assert set(found) <= {"ui/pages/__init__.py", "tests/ui/test_pages.py"}, found


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """The graph sees a cycle through an import inside a function, a private name taken by
    import and by attribute, and a lesson importing another lesson."""
    ui = tmp_path / "ui"
    (ui / "pages" / "a").mkdir(parents=True)
    (ui / "pages" / "b").mkdir(parents=True)
    for init in (ui, ui / "pages", ui / "pages" / "a", ui / "pages" / "b"):
        (init / "__init__.py").write_text("")
    (ui / "x.py").write_text("from . import y\n_hidden = 1\n")
    (ui / "y.py").write_text("def f():\n    from .x import _hidden\n")
    (ui / "z.py").write_text("from ui import x\nprint(x._hidden)\n")
    (ui / "pages" / "a" / "frames.py").write_text("from ui.pages.b import frames\n")
    (ui / "pages" / "b" / "frames.py").write_text("from ui import x\n")
    graph = architecture.Graph(tmp_path, ("ui",))
    assert graph.cycles() == [["ui.x", "ui.y"]]
    assert graph.private_names() == [
        "ui/y.py:2 takes _hidden from ui.x",
        "ui/z.py:2 takes _hidden from x",
    ]
    assert graph.lesson_breaches() == [
        "ui/pages/a/frames.py imports ui.pages.b",
        "ui/pages/a/frames.py imports ui.pages.b.frames",
    ]
    (ui / "sub").mkdir()
    (ui / "sub" / "__init__.py").write_text("")
    (ui / "sub" / "inner.py").write_text("from ui.pages.b import frames\n")  # up ...
    (ui / "pages" / "b" / "views.py").write_text("from ui.sub import inner\n")  # ... and down
    graph = architecture.Graph(tmp_path, ("ui",))
    assert graph.upward_arrows() == [
        "ui/pages/b/views.py:1 imports ui.sub",
        "ui/pages/b/views.py:1 imports ui.sub.inner",
        "ui/sub/inner.py:1 imports ui.pages.b",
        "ui/sub/inner.py:1 imports ui.pages.b.frames",
        "ui/x.py:1 imports ui.y",  # two top-level modules on a cycle are two parts
        "ui/y.py:2 imports ui.x",
    ]
    (tmp_path / "t.py").write_text("P = ['a', 'b']\n")
    assert architecture.page_list_files(("a", "b"), tmp_path) == ["t.py"]


def test_every_doctest_is_collected() -> None:
    """Issue 42, item 5: pytest's ``testpaths`` hold every Python file with a doctest (a
    folder, not a hand-kept list of modules: a new lesson's doctests are never skipped)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    paths = [ROOT / p for p in config["tool"]["pytest"]["ini_options"]["testpaths"]]
    assert all(p.is_dir() for p in paths), "testpaths are folders"
    with_doctests = [
        f
        for f in sorted(ROOT.rglob("*.py"))
        if ".venv" not in f.parts and ">>> " in f.read_text("utf-8", errors="replace")
    ]
    missed = [
        str(f.relative_to(ROOT)) for f in with_doctests if not any(p in f.parents for p in paths)
    ]
    assert with_doctests and not missed, missed


#: The packages whose modules a test may import by name (the app's and the tests' own).
OURS = ("tests", "ui", "boostcore", "server", "views", "scripts", "benchmarks")


def _ours(module: str) -> bool:
    parts = module.split(".")
    return parts[0] in OURS or parts[-1].startswith(("test_", "apptest_", "conftest"))


def _private_test_imports(files) -> list[str]:
    """``file:line name`` of every private name a test or benchmark takes from one of our
    modules: ``from test_x import _y`` (or ``tests.…``), ``module._y`` on a module it imported
    (``from ui import payload`` then ``payload._memo``) and ``setattr(module, "_y", …)``."""
    out = []
    for path in files:
        tree = ast.parse(path.read_text("utf-8"))
        bound: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and _ours(node.module or ""):
                bound |= {a.asname or a.name for a in node.names}
                out += [
                    f"{path.name}:{node.lineno} {a.name}" for a in node.names if a.name[0] == "_"
                ]
            elif isinstance(node, ast.Import):
                bound |= {a.asname or a.name.split(".")[0] for a in node.names if _ours(a.name)}
        for node in ast.walk(tree):
            taken = None
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in bound:
                    taken = node.attr
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "setattr"
                and len(node.args) >= 2
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id in bound
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                taken = node.args[1].value
            if taken and taken.startswith("_") and not taken.startswith("__"):
                out.append(f"{path.name}:{node.lineno} {taken}")
    return out


def test_no_test_takes_a_private_name_from_another_test(tmp_path: Path) -> None:
    """Issue 42, item 5: a helper several test files share is public in the file that owns it
    (the browser tests' settle, new_page, wait_for …; the class tests' teach, page_address)."""
    files = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    assert _private_test_imports(files) == []
    made_up = tmp_path / "test_x.py"
    made_up.write_text(
        "from test_browser import _settle, LECTURE\n"
        "from ui import payload\n"
        "from tests.ui import test_quiz as tq\n"
        "payload._memo, tq._case(1), payload.pack, np._x, payload.__name__\n"
        'monkeypatch.setattr(payload, "_gzip", None)\n'
    )
    assert sorted(_private_test_imports([made_up])) == [
        "test_x.py:1 _settle",
        "test_x.py:4 _case",
        "test_x.py:4 _memo",
        "test_x.py:5 _gzip",
    ]


#: The test folders and what each holds (issue 42, item 5: a feature's tests are found by its
#: path). At the top only the tests of the repository as a whole, and the shared helpers.
TEST_FOLDERS = {
    "boostcore": "the algorithm core",
    "server": "the class server, the lecture hall and the served app's limits",
    "ui": "the shared ui modules, and every page at once in AppTest",
    "ui/classroom": "the class's page side in AppTest",
    "browser": "end to end in Chromium",
}
TOP_TESTS = {"test_architecture.py", "test_docs.py", "test_readme.py", "test_style.py"}


def test_the_tests_mirror_the_source_tree() -> None:
    """Every test file sits in a folder named for what it tests: one of ``TEST_FOLDERS`` or
    ``pages/<slug>`` for a registered page (``home`` for the home page); the top holds only
    the repository-wide tests. Each folder is a package, so a helper another folder's test
    imports has one name (``tests.browser.test_browser``)."""
    from ui import pages

    slugs = {p.slug or "home" for p in pages.PAGES}
    tests = ROOT / "tests"
    misplaced = []
    for path in sorted(tests.rglob("test_*.py")):
        folder = path.parent.relative_to(tests).as_posix()
        if folder == ".":
            ok = path.name in TOP_TESTS
        elif folder.startswith("pages/"):
            ok = folder.count("/") == 1 and folder.split("/")[1] in slugs
        else:
            ok = folder in TEST_FOLDERS
        if not ok:
            misplaced.append(path.relative_to(ROOT).as_posix())
        for d in path.relative_to(tests).parents:
            assert (tests / d / "__init__.py").exists(), f"tests/{d} is not a package"
    assert not misplaced, misplaced
