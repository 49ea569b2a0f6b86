"""URL parameters are declared once (issue 23, item 6): in the page registry (``ui/pages``).

Every widget bound to the URL takes its key, range or options and default from its
:class:`ui.params.Param` (``**PAGE.param("s").number()``; ``**params.named(pages.DATASET_PARAMS,
"n").number()`` for the shared groups), never as literals of its own. The files are parsed
(``ast``), not imported, so a failure names the file and the line; then every declaration is
checked for a default inside its range, and every page with presets is opened to check that
its widgets show the declared range, options and default.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from tests import apptest_helpers as ah
from ui import pages
from ui.params import Param

ROOT = Path(__file__).resolve().parents[2]

#: The helpers of :class:`ui.params.Param` and the kinds each one serves.
HELPERS = {
    "number": {"int", "float"},
    "select": {"choice"},
    "segmented": {"choice"},
    "select_slider": {"choice"},
    "multi": {"choices"},
    "flag": {"flag"},
}
#: Arguments the helper gives the widget: passing one of them as well repeats the declaration.
GIVEN_BY_HELPER = {
    "min_value",
    "max_value",
    "value",
    "step",
    "options",
    "index",
    "default",
    "key",
    "bind",
}
#: Bound widgets that pass their options themselves, (file, key) → why. The lecture view's
#: focus: its options are the runs' names, known only at run time, and its Param declares
#: none (``pages.LECTURE_PARAMS``); ui/lecture/layout.py is not this work's to change.
EXEMPT = {("ui/lecture/layout.py", "focus"): "run-time options; the Param declares none"}


def _files(root: Path = ROOT) -> list[Path]:
    return sorted([*(root / "views").rglob("*.py"), *(root / "ui").rglob("*.py")])


def _rel(path: Path, root: Path = ROOT) -> str:
    return path.relative_to(root).as_posix()


def _const(node: ast.AST | None):
    return node.value if isinstance(node, ast.Constant) else None


def _helper(call: ast.Call) -> ast.Call | None:
    """The ``<Param>.<helper>(...)`` call unpacked into ``call`` (``**…``), if any."""
    for kw in call.keywords:
        v = kw.value
        if (
            kw.arg is None
            and isinstance(v, ast.Call)
            and isinstance(v.func, ast.Attribute)
            and v.func.attr in HELPERS
        ):
            return v
    return None


def _bound_calls(path: Path) -> list[tuple[ast.Call, ast.Call | None]]:
    """Every call bound to the URL in ``path``: ``bind="query-params"`` written out, or a
    Param helper unpacked into it; with the helper call (None if there is none)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        helper = _helper(node)
        literal = any(
            kw.arg == "bind" and _const(kw.value) == "query-params" for kw in node.keywords
        )
        if helper is not None or literal:
            found.append((node, helper))
    return found


def _literal_key(call: ast.Call) -> str | None:
    return next((_const(kw.value) for kw in call.keywords if kw.arg == "key"), None)


def _constants(tree: ast.Module, path: Path | None = None) -> dict[str, str]:
    """The module's ``NAME = "text"`` assignments (``PRESENT = "present"``), and those it
    imports by name from a sibling module (``from .charts import PRESENT``) when ``path``
    says where the module is."""
    found = {
        t.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for t in node.targets
        if isinstance(t, ast.Name) and isinstance(node.value.value, str)
    }
    if path is None:
        return found
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            source = path.parent / (node.module.replace(".", "/") + ".py")
            if source.is_file():
                theirs = _constants(ast.parse(source.read_text("utf-8")))
                found.update(
                    {a.asname or a.name: theirs[a.name] for a in node.names if a.name in theirs}
                )
    return found


def _param_ref(helper: ast.Call, constants: dict[str, str]) -> tuple[str, str | None] | None:
    """What the helper's Param is: ``("PAGE", name)`` for ``PAGE.param("name")``,
    ``("GROUP_NAME", name)`` for ``named(pages.GROUP_NAME, "name")``; None if neither. The
    name may be a module-level constant (``constants``)."""
    obj = helper.func.value  # type: ignore[union-attr]
    if not isinstance(obj, ast.Call):
        return None

    def name(node: ast.AST) -> str | None:
        return constants.get(node.id) if isinstance(node, ast.Name) else _const(node)

    func = obj.func
    if isinstance(func, ast.Attribute) and func.attr == "param" and len(obj.args) == 1:
        if isinstance(func.value, ast.Name):
            return func.value.id, name(obj.args[0])
    fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if fname == "named" and len(obj.args) == 2:
        group = obj.args[0]
        gname = group.attr if isinstance(group, ast.Attribute) else getattr(group, "id", None)
        return gname, name(obj.args[1])
    return None


def _repeated_declarations(root: Path = ROOT) -> list[str]:
    """``file:line`` and what is wrong, for every bound widget under ``root``'s views/ and
    ui/ that passes a range, options, default, key or bind itself."""
    offenders = []
    for path in _files(root):
        rel = _rel(path, root)
        for call, helper in _bound_calls(path):
            where = f"{rel}:{call.lineno}"
            if helper is None:
                if (rel, _literal_key(call)) in EXEMPT:
                    continue
                offenders.append(
                    f"{where} binds {_literal_key(call)!r} to the URL without its Param "
                    "(**PAGE.param(name).<helper>())"
                )
                continue
            has_label_kw = any(kw.arg == "label" for kw in call.keywords)
            extra = call.args[0 if has_label_kw else 1 :]
            if extra:
                offenders.append(f"{where} passes {len(extra)} positional value(s) after the label")
            repeated = sorted(kw.arg for kw in call.keywords if kw.arg in GIVEN_BY_HELPER)
            if repeated:
                offenders.append(f"{where} passes {repeated} besides its Param")
    return offenders


def test_no_bound_widget_repeats_its_declaration() -> None:
    """A widget bound to the URL passes no range, options, default, key or bind of its own:
    all of them come from ``**<Param>.<helper>(...)`` (positional arguments after the label
    too: ``st.slider("s", 2, 64, 16, …)`` is what this forbids)."""
    offenders = _repeated_declarations()
    assert not offenders, "\n".join(offenders)


def test_the_scan_finds_literals_in_every_form(tmp_path: Path) -> None:
    """The scan above sees positional and keyword literals, and accepts the Param form."""
    (tmp_path / "views").mkdir()
    (tmp_path / "ui").mkdir()
    (tmp_path / "views" / "x.py").write_text(
        'a = st.slider("s", 2, 64, 16, key="s", bind="query-params")\n'
        'b = st.selectbox("i", **PAGE.param("i").select(), index=1)\n'
        'c = st.slider("t", **PAGE.param("t").number(), help="fine")\n'
        'd = st.toggle(label="p", **named(pages.HEADER_PARAMS, "present").flag())\n'
        'e = st.radio("r", ["a", "b"], **PAGE.param("r").select())\n'
    )
    (tmp_path / "ui" / "lecture").mkdir()
    (tmp_path / "ui" / "lecture" / "layout.py").write_text(
        'f = st.selectbox("Focused run", names, index=i, key="focus", bind="query-params")\n'
    )
    assert _repeated_declarations(tmp_path) == [
        "views/x.py:1 binds 's' to the URL without its Param (**PAGE.param(name).<helper>())",
        "views/x.py:2 passes ['index'] besides its Param",
        "views/x.py:5 passes 1 positional value(s) after the label",
    ]


def _view_page(path: Path) -> pages.PageSpec | None:
    return next((p for p in pages.PAGES if p.view == _rel(path)), None)


def test_every_bound_widget_names_a_declared_param_of_its_kind() -> None:
    """Each helper reads a parameter its page (or the shared group it names) declares, of a
    kind the helper serves (``.number()`` for a number, ``.multi()`` for several choices…);
    each view's ``PAGE`` is its own row of the registry; and every bound parameter a page
    declares is read by some widget (no declaration without its widget)."""
    problems, seen_by_view, shared = [], {}, {key for _, key in EXEMPT}
    for path in _files():
        rel, page = _rel(path), _view_page(path)
        tree = ast.parse(path.read_text("utf-8"))
        constants = _constants(tree, path)
        if page is not None:
            slugs = [
                _const(node.value.args[0])
                for node in tree.body
                if isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["PAGE"]
                and isinstance(node.value, ast.Call)
                and node.value.args
            ]
            calls = _bound_calls(path)
            if calls and slugs != [page.slug]:
                problems.append(f"{rel}: PAGE = pages.page({page.slug!r}) expected, got {slugs}")
        names = seen_by_view.setdefault(rel, set())
        for call, helper in _bound_calls(path):
            if helper is None:
                continue
            where = f"{rel}:{call.lineno}"
            ref = _param_ref(helper, constants)
            if ref is None or ref[1] is None:
                problems.append(f"{where}: the Param is neither PAGE.param('…') nor named(…)")
                continue
            owner, name = ref
            if owner == "PAGE" and page is not None:
                declared = {p.name: p for p in page.params}
            elif owner.endswith("_PARAMS") and hasattr(pages, owner):
                declared = {p.name: p for p in getattr(pages, owner)}
                shared.add(name)
            else:
                problems.append(f"{where}: {owner} is not its page's PAGE nor a pages group")
                continue
            if name not in declared:
                problems.append(f"{where}: {name!r} is not declared by {owner}")
                continue
            kind, used = declared[name].kind, helper.func.attr  # type: ignore[union-attr]
            if kind not in HELPERS[used]:
                problems.append(f"{where}: .{used}() on {name!r}, a {kind} parameter")
            names.add(name)
    for page in pages.PAGES:
        drawn = seen_by_view.get(page.view, set()) | shared
        missing = [p.name for p in page.params if p.bound and p.name not in drawn]
        if missing:
            problems.append(f"{page.view}: declared but bound by no widget: {missing}")
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------ the declarations
def _bound_params() -> list[tuple[str, Param]]:
    return [(p.slug or "home", q) for p in pages.PAGES for q in p.params if q.bound]


@pytest.mark.parametrize(
    "slug,param", _bound_params(), ids=[f"{s}-{p.name}" for s, p in _bound_params()]
)
def test_every_default_lies_in_its_range_or_options(slug: str, param: Param) -> None:
    """Numbers: ``lo ≤ default ≤ hi`` on the step's grid, ints for an int parameter (an int
    slider stays int) and floats for a float one; choices: the default among the options
    (several for ``"choices"``), no option twice; a flag: a bool."""
    if param.kind in ("int", "float"):
        want = int if param.kind == "int" else float
        values = [param.lo, param.hi, param.default] + ([param.step] if param.step else [])
        assert all(type(v) is want for v in values), (param, [type(v) for v in values])
        assert param.lo < param.hi and param.lo <= param.default <= param.hi, param
        if param.step is not None:
            steps = (param.default - param.lo) / param.step
            assert math.isclose(steps, round(steps), abs_tol=1e-9), param
    elif param.kind == "flag":
        assert type(param.default) is bool, param
    else:
        if param.options is not None:
            assert len(set(param.options)) == len(param.options), param.options
        if param.kind == "choices":
            assert isinstance(param.default, tuple), param
            assert len(set(param.default)) == len(param.default), param
        if param.options is not None and param.default is not None:
            wanted = param.default if param.kind == "choices" else (param.default,)
            assert set(wanted) <= set(param.options), param
        if param.options is None:  # options known only at run time: the helper is told
            with pytest.raises(TypeError, match="declares no options"):
                param.select() if param.kind == "choice" else param.multi()


def test_the_shared_groups_are_in_every_page_that_draws_them() -> None:
    """Every page has the header's parameters; every lesson the dataset's too."""
    for page in pages.PAGES:
        assert set(pages.HEADER_PARAMS) <= set(page.params), page.slug
        if page.has("lecture"):
            assert set(pages.DATASET_PARAMS) <= set(page.params), page.slug


# ---------------------------------------------------------- the labels → values maps agree
def _module_maps(path: Path) -> dict[str, list]:
    """The module-level dicts (their keys) and tuples or lists (their items) of literals in
    ``path``, by name."""
    out = {}
    for node in ast.parse(path.read_text("utf-8")).body:
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            continue
        try:
            if isinstance(node.value, ast.Dict):
                out[node.targets[0].id] = [ast.literal_eval(k) for k in node.value.keys]
            elif isinstance(node.value, ast.Tuple | ast.List):
                out[node.targets[0].id] = list(ast.literal_eval(node.value))
        except ValueError:  # not literals (a dict of names, a call…): no map of options
            continue
    return out


def _maps(root: Path = ROOT) -> list[tuple[str, str, str]]:
    """``(view, map, param)``: every module-level map of a registered page's view that knows
    an option of one of the page's choice parameters (``RULES = {"largest weight": …}`` for
    ``leaf``). Such a map translates the widget's option into what the page does with it."""
    found = []
    for page in pages.PAGES:
        maps = _module_maps(root / page.view)
        for name, keys in maps.items():
            for p in page.params:
                if p.kind in ("choice", "choices") and p.options:
                    if {str(k) for k in keys} & {str(o) for o in p.options}:
                        found.append((page.view, name, p.name))
    return found


MAPS = _maps()


def test_the_map_scan_finds_a_views_maps(tmp_path: Path) -> None:
    """The scan finds a view's dict and tuple of options, and passes over other constants."""
    page = next(p for p in pages.PAGES if any(q.options for q in p.params if q.kind == "choice"))
    param = next(q for q in page.params if q.kind == "choice" and q.options)
    view = tmp_path / page.view
    view.parent.mkdir(parents=True)
    view.write_text(
        f"A = {{{param.options[0]!r}: 1}}\nB = ({param.options[-1]!r},)\nC = {{'zz': 1}}\n"
        "D = dict(x=1)\nE = {k: 1 for k in 'ab'}\n"
    )
    for other in pages.PAGES:
        if other.view != page.view:
            (tmp_path / other.view).write_text("")
    assert ("A", param.name) in [(m, p) for v, m, p in _maps(tmp_path)]
    assert ("B", param.name) in [(m, p) for v, m, p in _maps(tmp_path)]
    assert not {m for _, m, _ in _maps(tmp_path)} & {"C", "D", "E"}


def test_the_views_have_maps_of_options() -> None:
    """The scan finds the views' maps (an empty list would test nothing)."""
    assert len(MAPS) >= len({view for view, _, _ in MAPS}) > 1, MAPS


@pytest.mark.parametrize("rel,name,param", MAPS, ids=[f"{m[0]}-{m[1]}-{m[2]}" for m in MAPS])
def test_a_views_map_has_the_params_options(rel: str, name: str, param: str) -> None:
    """The view's map knows every option the widget shows, in the widget's order."""
    page = _view_page(ROOT / rel)
    assert page is not None, rel
    assert _module_maps(ROOT / rel)[name] == list(page.param(param).options)


def test_the_options_imported_from_ui_are_the_params() -> None:
    """Options the registry and a page's parts both take from one object stay the same."""
    from ui.labels import CRITERION_SHORT, INDEX
    from ui.pages.benchmark.results import SHOW
    from ui.pages.branching.frames import SCHEMES

    assert list(SCHEMES) == list(pages.page("branching").param("schemes").options)
    assert list(CRITERION_SHORT.values()) == list(pages.page("topdown").param("crit").options)
    assert list(INDEX) == list(pages.page("topdown").param("index").options)
    assert list(SHOW) == list(pages.page("benchmark").param("bench_show").options)


# ---------------------------------------------------------------- the widgets, as shown
#: Widget types of AppTest that a bound parameter may be drawn as.
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
#: Bound parameters a plain open of the page does not draw, and the link that draws them.
DRAWN_LATER = {
    "ptest": {"src": "Draw"},
    "watch_adv": {"mode": "Watch"},
    "watch_seed": {"mode": "Watch"},
}
#: The pages with presets, opened plainly, and each link above on the first such page that
#: declares the parameters it draws.
OPENS = [(p.slug, {}) for p in pages.PAGES if p.presets] + [
    next(
        (p.slug, query)
        for p in pages.PAGES
        if p.presets
        and {name for name, q in DRAWN_LATER.items() if q == query} <= set(p.url_params)
    )
    for query in {tuple(q.items()): q for q in DRAWN_LATER.values()}.values()
]


def _expected(param: Param):
    if param.kind == "choices":
        return list(param.default)
    if param.kind == "flag":
        return bool(param.default)
    return param.default


def _shown_options(widget) -> list[str]:
    return [getattr(o, "content", o) for o in widget.options]


@pytest.mark.parametrize(
    "slug,query", OPENS, ids=[f"{s}-{'&'.join(q) or 'plain'}" for s, q in OPENS]
)
def test_a_plain_open_shows_the_declared_defaults(slug: str, query: dict) -> None:
    """Every widget bound to the URL shows the registry's default (same type: an int stays an
    int), range and step, or options in the declared order."""
    at = ah.page(slug, **query)
    ah.ok(at)
    page = pages.page(slug)
    widgets = {w.key: w for kind in WIDGETS for w in at.get(kind) if w.key}
    expected = [p.name for p in page.params if p.bound and DRAWN_LATER.get(p.name, query) == query]
    unseen = [name for name in expected if name not in widgets]
    assert not unseen, f"{slug}: not drawn on a plain open: {unseen}"
    problems = []
    for p in page.params:
        if not p.bound or p.name not in widgets:
            continue
        w, value = widgets[p.name], at.session_state[p.name]
        want = _expected(p)
        if p.name in query or p.default is None:
            pass  # the link's value, or a run-time default (the first option, or the page's)
        elif value != want or type(value) is not type(want):
            problems.append(
                f"{p.name}: shows {value!r} ({type(value).__name__}), declared {want!r}"
            )
        if p.kind in ("int", "float"):
            shown = (w.min, w.max) + ((w.step,) if p.step is not None else ())
            declared = (p.lo, p.hi) + ((p.step,) if p.step is not None else ())
            if not all(math.isclose(a, b) for a, b in zip(shown, declared, strict=True)):
                problems.append(f"{p.name}: range {shown}, declared {declared}")
        elif p.options is not None:
            if _shown_options(w) != [str(o) for o in p.options]:
                problems.append(f"{p.name}: options {_shown_options(w)}, declared {p.options}")
    assert not problems, f"{slug}: " + "; ".join(problems)
