"""The typed contract between ui/lecture/contract.py and the script ui/lecture/js/ (issue 23,
item 4).

Python declares what it sends once (``lecture.StepperData``, ``lecture.ViewData``: their
fields, camelCased, plus ``role``) and what the script sends back (their ``states`` and
``triggers``). Here the script (its parts joined) is parsed — comments, strings, template text and
regular expressions blanked out first — and every read of its ``data`` collected per role:
``data.x``, ``data?.x``, ``data["x"]``, ``const { x, y: z, w = 1 } = data``, ``"x" in data``,
also under another name when ``data`` is passed to a helper (``fitHeight(el, data)`` makes
the helper's parameter an alias) or bound to one (``const d = data``). A use the parser
cannot check (``data[k]``, ``...rest``, ``data`` handed to an unknown function) is itself a
failure, so the checks below cannot pass by missing a read. The parser is tested on a
snippet first.

The tests fail when the script reads a key Python does not send, when Python sends a key the
script never reads, when the script sends back a name Python does not declare (or declares
one the script never sends), and when Python registers a callback other than through the
contract.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import lecture

ROOT = Path(__file__).resolve().parents[2]
#: The lecture script as the browser gets it: its parts joined.
JS_TEXT = lecture.script_text()
#: The contract's classes by role.
ROLES: dict[str, type[lecture.ComponentData]] = {
    cls.role: cls
    for cls in (lecture.StepperData, lecture.ViewData, lecture.QuizData, lecture.RegionsData)
}
#: What the script sends back, and the Python keyword Streamlit calls for it.
SENDERS = {"setStateValue": "states", "setTriggerValue": "triggers"}
#: Keys that size a view (window, reservation, aspect): read in one function only.
SIZING = {"height", "minHeight", "maxHeight", "reserve", "reserveFrom", "aspect"}


# ------------------------------------------------------------------------------ the parser
_KEYWORDS_BEFORE_REGEX = {
    "return",
    "typeof",
    "case",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "instanceof",
    "else",
    "do",
}


def code_only(src: str) -> str:
    """``src`` with what is not code blanked (same length, newlines kept): comments, regular
    expression literals and template text; a string literal keeps its text only when it is a
    plain name (``"round"``, ``"$r"``), so ``data["x"]`` and ``setStateValue("x")`` stay
    readable while ``"see data.x"`` cannot be mistaken for code. ``${…}`` inside a template
    is code."""
    out = list(src)
    n = len(src)

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def string_end(i: int) -> int:  # i at the opening quote; returns the index past the end
        q, k = src[i], i + 1
        while k < n and src[k] != q:
            k += 2 if src[k] == "\\" else 1
        return k + 1

    def regex_end(i: int) -> int:  # i at the opening slash
        k, in_class = i + 1, False
        while k < n:
            c = src[k]
            if c == "\\":
                k += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                k += 1
                while k < n and (src[k].isalnum() or src[k] == "_"):  # flags
                    k += 1
                return k
            k += 1
        return k

    def code(i: int, closing: bool) -> int:
        """Scan code from ``i``; with ``closing``, stop after the ``}`` closing a ``${``."""
        depth, prev, word = 0, "", ""
        while i < n:
            c = src[i]
            if src.startswith("//", i):
                j = src.find("\n", i)
                j = n if j < 0 else j
                blank(i, j)
                i = j
                continue
            if src.startswith("/*", i):
                j = src.find("*/", i + 2)
                j = n if j < 0 else j + 2
                blank(i, j)
                i = j
                continue
            if c in "'\"":
                j = string_end(i)
                if not re.fullmatch(r"[\w$-]*", src[i + 1 : j - 1]):
                    blank(i + 1, j - 1)
                i, prev, word = j, c, ""
                continue
            if c == "`":
                i, prev, word = template(i + 1), "`", ""
                continue
            if c == "/" and (
                prev in ("", *"(,=:[!&|?{};+-*%<>~^") or word in _KEYWORDS_BEFORE_REGEX
            ):
                j = regex_end(i)
                blank(i + 1, j)
                i, prev, word = j, "/", ""
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                if closing and depth == 0:
                    return i + 1
                depth -= 1
            if c.isalnum() or c in "_$":
                joined = i > 0 and (src[i - 1].isalnum() or src[i - 1] in "_$")
                word = word + c if joined else c
            elif not c.isspace():
                word = ""
            if not c.isspace():
                prev = c
            i += 1
        return i

    def template(i: int) -> int:  # i just past the opening backquote
        start = i
        while i < n:
            if src[i] == "\\":
                i += 2
                continue
            if src[i] == "`":
                blank(start, i)
                return i + 1
            if src.startswith("${", i):
                blank(start, i)
                i = code(i + 2, closing=True)
                start = i
                continue
            i += 1
        blank(start, n)
        return n

    code(0, closing=False)
    return "".join(out)


def _matching(text: str, i: int, open_: str = "{", close: str = "}") -> int:
    """Index just past the bracket matching ``text[i]`` (code only, strings blanked)."""
    depth = 0
    for k in range(i, len(text)):
        if text[k] == open_:
            depth += 1
        elif text[k] == close:
            depth -= 1
            if depth == 0:
                return k + 1
    raise ValueError(f"unbalanced {open_!r} at {i}")


def _split_args(text: str) -> list[tuple[str, int]]:
    """A call's arguments (stripped) with their offsets in ``text``, split at the commas
    outside brackets."""
    args, depth, start = [], 0, 0
    for k, c in enumerate([*text, ","]):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            part = text[start:k]
            if part.strip():
                args.append((part.strip(), start + len(part) - len(part.lstrip())))
            start = k + 1
    return args


@dataclass
class Unit:
    """One top-level function (``name`` ``"default"`` for the default export, ``"<module>"``
    for the code outside functions): where it starts, its parameters and its body."""

    name: str
    params: list[str]
    start: int
    body: str
    sent: dict[str, set[str]] = field(default_factory=lambda: {"states": set(), "triggers": set()})


@dataclass
class JsContract:
    """What the script reads of ``data`` and sends back, per role.

    Attributes
    ----------
    mounts : dict
        Role → the function that mounts it (the script's ``MOUNT`` table).
    reads : dict
        Role → key → lines where it is read (every function the mount reaches, the default
        export and the module's own code).
    sent : dict
        Role → ``"states"`` / ``"triggers"`` → names sent back.
    unit_reads : dict
        Function → key → lines (to see where a key is read).
    problems : list of str
        Uses of ``data`` the parser cannot check, each with its line.
    """

    mounts: dict[str, str] = field(default_factory=dict)
    reads: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    sent: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    unit_reads: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


_IDENT = r"[A-Za-z_$][\w$]*"


def _units(code: str) -> list[Unit]:
    units, outside, i = [], [], 0
    header = re.compile(rf"(export\s+default\s+)?\bfunction\s*({_IDENT})?\s*\(([^)]*)\)\s*\{{")
    while True:
        m = header.search(code, i)
        if not m:
            outside.append((i, code[i:]))
            break
        outside.append((i, code[i : m.start()]))
        end = _matching(code, m.end() - 1)
        name = "default" if m.group(1) else (m.group(2) or "<anonymous>")
        params = [p.split("=")[0].strip() for p in m.group(3).split(",") if p.strip()]
        units.append(Unit(name, params, m.end(), code[m.end() : end - 1]))
        i = end
    # the module's own code, with the functions' bodies cut out (same offsets: blanks)
    module = [" "] * len(code)
    for start, text in outside:
        module[start : start + len(text)] = text
    units.append(Unit("<module>", [], 0, "".join(module)))
    return units


def parse_js(src: str) -> JsContract:
    """Parse a lecture script: see :class:`JsContract`."""
    code = code_only(src)
    units = _units(code)
    by_name = {u.name: u for u in units}
    out = JsContract()

    def line(pos: int) -> int:
        return src.count("\n", 0, pos) + 1

    # aliases of data: the name itself everywhere, a helper's parameter it is passed as,
    # and a local bound to it
    aliases: dict[str, set[str]] = {u.name: {"data"} for u in units}
    callees: dict[str, set[str]] = {u.name: set() for u in units}
    changed = True
    while changed:
        changed = False
        for u in units:
            for a in list(aliases[u.name]):
                for m in re.finditer(rf"(?:const|let|var)\s+({_IDENT})\s*=\s*{a}\s*[;\n]", u.body):
                    if m.group(1) not in aliases[u.name]:
                        aliases[u.name].add(m.group(1))
                        changed = True
            for m in re.finditer(rf"(?<![\w$.])({_IDENT})\s*\(", u.body):
                callee = by_name.get(m.group(1))
                if callee is None or callee is u:
                    continue
                args = _split_args(u.body[m.end() : _matching(u.body, m.end() - 1, "(", ")") - 1])
                for k, (arg, _) in enumerate(args):
                    if arg in aliases[u.name] and k < len(callee.params):
                        if callee.params[k] not in aliases[callee.name]:
                            aliases[callee.name].add(callee.params[k])
                            changed = True

    for u in units:
        reads: dict[str, list[int]] = {}
        handled: set[int] = set()  # offsets (in the body) of alias uses understood
        names = "|".join(sorted(aliases[u.name]))
        alias = rf"(?<![\w$.])(?:{names})(?![\w$])"
        found: list[tuple[str, int]] = []  # (key, offset in the body)

        for m in re.finditer(rf"({alias})\s*(?:\?\.|\.)\s*({_IDENT})", u.body):
            found.append((m.group(2), m.start()))
            handled.add(m.start())
        for m in re.finditer(rf"({alias})\s*(?:\?\.)?\[\s*(.*?)\s*\]", u.body):
            lit = re.fullmatch(r"""(["'])([\w$-]+)\1""", m.group(2))
            if lit:
                found.append((lit.group(2), m.start()))
                handled.add(m.start())
        for m in re.finditer(rf"(?:const|let|var)\s*\{{([^}}]*)\}}\s*=\s*({alias})", u.body):
            for part in filter(None, (p.strip() for p in m.group(1).split(","))):
                if part.startswith("..."):
                    out.problems.append(
                        f"line {line(u.start + m.start())}: {part} takes every key of data"
                    )
                    continue
                found.append((re.split(r"[:=]", part)[0].strip(), m.start()))
            handled.add(m.start(2))
        for m in re.finditer(rf"""(["'])([\w$-]+)\1\s+in\s+({alias})""", u.body):
            found.append((m.group(2), m.start()))
            handled.add(m.start(3))
        # declarations and destructuring that bind the name itself
        for m in re.finditer(rf"(?:const|let|var)\s+({alias})\s*=", u.body):
            handled.add(m.start(1))
        for m in re.finditer(rf"(?:const|let|var)\s+({_IDENT})\s*=\s*({alias})\s*[;\n]", u.body):
            handled.add(m.start(2))
        for m in re.finditer(r"(?:const|let|var)\s*\{([^}]*)\}\s*=\s*component\b", u.body):
            for a in re.finditer(alias, m.group(1)):
                handled.add(m.start(1) + a.start())
        # a property named data in an object literal ({ data: traces }: plotly's frames)
        for m in re.finditer(rf"[{{,]\s*({alias})\s*:", u.body):
            handled.add(m.start(1))
        # passed whole to a helper of this script (its parameter is an alias, see above)
        for m in re.finditer(rf"(?<![\w$.])({_IDENT})\s*\(", u.body):
            if m.group(1) not in by_name:
                continue
            end = _matching(u.body, m.end() - 1, "(", ")") - 1
            for arg, offset in _split_args(u.body[m.end() : end]):
                if arg in aliases[u.name]:
                    handled.add(m.end() + offset)
        for m in re.finditer(alias, u.body):
            if m.start() not in handled:
                snippet = u.body[m.start() : m.start() + 30].split("\n")[0]
                out.problems.append(
                    f"line {line(u.start + m.start())} ({u.name}): a use of data the "
                    f"contract test cannot check: {snippet!r}"
                )
        for m in re.finditer(r"(?<![\w$])(setStateValue|setTriggerValue)\s*\(\s*([^,)]*)", u.body):
            lit = re.fullmatch(r"""(["'])([\w$-]+)\1""", m.group(2).strip())
            if lit is None:
                out.problems.append(
                    f"line {line(u.start + m.start())}: {m.group(1)} with a name that is "
                    f"not a string literal: {m.group(2)!r}"
                )
                continue
            u.sent[SENDERS[m.group(1)]].add(lit.group(2))
        for name in by_name:
            if name != u.name and re.search(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", u.body):
                callees[u.name].add(name)
        for key, pos in found:
            reads.setdefault(key, []).append(line(u.start + pos))
        out.unit_reads[u.name] = reads

    table = re.search(r"const\s+MOUNT\s*=\s*\{([^}]*)\}", code)
    if table is None:
        out.problems.append("no `const MOUNT = { role: mountFunction, … }` table")
        return out
    out.mounts = dict(re.findall(rf"({_IDENT})\s*:\s*({_IDENT})", table.group(1)))
    for role, mount in out.mounts.items():
        # the functions the mount reaches; the default export and the module's own code
        # read for every role, but what they reference (every mount) is not followed
        seen, todo = {"default", "<module>"}, [mount]
        while todo:
            name = todo.pop()
            if name in seen or name not in by_name:
                continue
            seen.add(name)
            todo.extend(callees[name])
        out.reads[role] = {}
        out.sent[role] = {"states": set(), "triggers": set()}
        for name in seen & set(by_name):
            for key, lines in out.unit_reads[name].items():
                out.reads[role].setdefault(key, []).extend(lines)
            for kind, names in by_name[name].sent.items():
                out.sent[role][kind] |= names
    return out


@pytest.fixture(scope="module")
def js() -> JsContract:
    return parse_js(JS_TEXT)


# -------------------------------------------------------------------- the parser, on a snippet
SNIPPET = r"""
// data.inComment is not read, nor "data.inLineComment"
const MOUNT = { a: mountA, b: mountB };
/* data.inBlockComment */
function helper(el, spec, n) {
  const re = /width="([0-9.]+)" data.inRegex/;
  return spec.viaParam + n + (spec?.optional ?? 0);
}
function mountA(component) {
  const { data, setStateValue } = component;
  const { one, two: renamed, three = 3 } = data;
  const frame = { data: [1], layout: {} };
  const x = data["quoted"] + data['single'] + ("inKey" in data ? 1 : 0);
  const s = `text ${data.inTemplateCode} more ${ { a: 1 }.a } data.notCode`;
  helper(null, data, 2);
  setStateValue("round", x);
  return 4 / data.afterDivision / 2;
}
function mountB(component) {
  const { data, setTriggerValue } = component;
  const label = "see data.inString", other = 'data.inSingle', t = `data.inTemplateText`;
  const d = data;
  setTriggerValue("focus", d.viaLocal);
  return data.onlyB;
}
export default function (component) {
  const data = component.data || {};
  return (MOUNT[data.role] || mountB)(component);
}
"""


def test_the_parser_blanks_what_is_not_code() -> None:
    code = code_only(SNIPPET)
    assert len(code) == len(SNIPPET) and code.count("\n") == SNIPPET.count("\n")
    for gone in (
        "inComment",
        "inLineComment",
        "inString",
        "inSingle",
        "inTemplateText",
        "inBlockComment",
        "inRegex",
        "notCode",
    ):
        assert gone not in code, gone
    for kept in ('data["quoted"]', "${data.inTemplateCode}", 'setStateValue("round"'):
        assert kept in code, kept


def test_the_parser_reads_every_form_per_role() -> None:
    got = parse_js(SNIPPET)
    assert not got.problems, got.problems
    assert got.mounts == {"a": "mountA", "b": "mountB"}
    common = {"role"}  # the default export dispatches on it
    a = {"one", "two", "three", "quoted", "single", "inKey", "inTemplateCode", "afterDivision"}
    helper = {"viaParam", "optional"}  # mountA passes data to helper(el, spec, n)
    assert set(got.reads["a"]) == common | a | helper
    assert set(got.reads["b"]) == common | {"viaLocal", "onlyB"}
    assert got.sent["a"] == {"states": {"round"}, "triggers": set()}
    assert got.sent["b"] == {"states": set(), "triggers": {"focus"}}
    # lines are the snippet's own (1-based)
    lines = SNIPPET.split("\n")
    assert "data.onlyB" in lines[got.reads["b"]["onlyB"][0] - 1]
    assert set(got.unit_reads["helper"]) == helper


@pytest.mark.parametrize(
    "body, problem",
    [
        ("return data[key];", "cannot check"),
        ("const { a, ...rest } = data;", "...rest"),
        ("return JSON.stringify(data);", "cannot check"),
        ("return Object.assign({}, data);", "cannot check"),
        ("for (const k in data) {}", "cannot check"),
        ("setStateValue(name, 1);", "not a string literal"),
    ],
)
def test_the_parser_reports_what_it_cannot_check(body: str, problem: str) -> None:
    src = (
        "const MOUNT = { a: mountA };\n"
        "function mountA(component) {\n"
        "  const { data, setStateValue } = component;\n"
        f"  {body}\n"
        "}\n"
    )
    got = parse_js(src)
    assert any(problem in p and "line 4" in p for p in got.problems), got.problems


def test_the_parser_needs_the_mount_table() -> None:
    assert any("MOUNT" in p for p in parse_js("function f(data) { return data.x; }").problems)


# ------------------------------------------------------------------------ the lecture script itself
def test_every_use_of_data_in_lecture_js_is_checkable(js: JsContract) -> None:
    assert not js.problems, js.problems


def test_the_roles_are_the_contracts(js: JsContract) -> None:
    assert set(js.mounts) == set(ROLES), (js.mounts, set(ROLES))


@pytest.mark.parametrize("role", sorted(ROLES))
def test_the_js_reads_only_what_python_sends(js: JsContract, role: str) -> None:
    sent = set(ROLES[role].js_keys())
    extra = {k: v for k, v in js.reads[role].items() if k not in sent}
    assert not extra, (
        f"the lecture script reads keys {ROLES[role].__name__} does not send (key: lines): {extra}"
    )


@pytest.mark.parametrize("role", sorted(ROLES))
def test_python_sends_only_what_the_js_reads(js: JsContract, role: str) -> None:
    unread = set(ROLES[role].js_keys()) - set(js.reads[role])
    assert not unread, f"{ROLES[role].__name__} sends keys the lecture script never reads: {unread}"


@pytest.mark.parametrize("role", sorted(ROLES))
def test_what_the_js_sends_back_is_declared(js: JsContract, role: str) -> None:
    cls = ROLES[role]
    assert js.sent[role]["states"] == set(cls.states), (role, js.sent[role])
    assert js.sent[role]["triggers"] == set(cls.triggers), (role, js.sent[role])


def test_a_views_size_is_computed_in_one_function(js: JsContract) -> None:
    """The window/aspect rule exists once (it was written out twice: at mount and on
    refit); every sizing key is read in that one function."""
    where = {key: {name for name, reads in js.unit_reads.items() if key in reads} for key in SIZING}
    assert set().union(*where.values()) == {"fitHeight"}, where


def test_keys_python_never_sent_are_not_read(js: JsContract) -> None:
    """The keys the lecture script used to read with a fallback although Python never sent them (the
    fallback is now a named constant of the script)."""
    read = set(js.reads["stepper"]) | set(js.reads["view"])
    assert not read & {"plotHeight", "syncDelay", "aspectPad", "speed"}
    assert "t" not in js.reads["view"]
    script = JS_TEXT
    assert "ASPECT_PAD = 70" in script
    assert "SYNC_DELAY" not in script  # issue 27, item 3: no sync a moment after stepping


# --------------------------------------------------------------------------- the Python side
def test_to_js_camelcases_every_field_once() -> None:
    data = lecture.StepperData(
        key="round", page="p", lo=0, hi=3, t=1, label="Round", caption="", start=0, seq=0, moved=0
    ).to_js()
    assert list(data) == list(lecture.StepperData.js_keys())
    assert data["role"] == "stepper" and data["hi"] == 3
    assert "minHeight" in lecture.ViewData.js_keys() and "reserveFrom" in lecture.ViewData.js_keys()
    assert not any("_" in k for cls in ROLES.values() for k in cls.js_keys())


def test_callbacks_are_the_declared_names_only() -> None:
    def f() -> None:
        pass

    assert lecture.StepperData.callbacks(round=f) == {"on_round_change": f}
    assert lecture.ViewData.callbacks(focus=f) == {"on_focus_change": f}
    with pytest.raises(ValueError, match="sends back only"):
        lecture.ViewData.callbacks(round=f)


def _calls(path: Path) -> list[ast.Call]:
    return [n for n in ast.walk(ast.parse(path.read_text("utf-8"))) if isinstance(n, ast.Call)]


def test_python_registers_a_callback_for_every_value_sent_back() -> None:
    """ui/lecture/layout.py registers its callbacks through ``<Role>Data.callbacks(name=…)``,
    one for each name the role declares; no module passes ``on_…_change`` to a component itself."""
    registered: dict[str, set[str]] = {cls.__name__: set() for cls in ROLES.values()}
    for call in _calls(ROOT / "ui" / "lecture" / "layout.py"):
        f = call.func
        if (
            isinstance(f, ast.Attribute)
            and f.attr == "callbacks"
            and isinstance(f.value, ast.Name)
            and f.value.id in registered
        ):
            registered[f.value.id] |= {kw.arg for kw in call.keywords if kw.arg}
    for cls in ROLES.values():
        assert registered[cls.__name__] == {*cls.states, *cls.triggers}, cls.__name__
    literal = [
        f"{path.relative_to(ROOT)}:{call.lineno} passes {kw.arg}"
        for path in sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "views").rglob("*.py")])
        for call in _calls(path)
        for kw in call.keywords
        if kw.arg and re.fullmatch(r"on_\w+_change", kw.arg)
    ]
    assert not literal, literal


def test_a_page_sends_exactly_the_contracts_keys() -> None:
    """End to end: every lecture component a page mounts got the keys of its role."""
    at = ah.page("topdown")
    ah.ok(at)
    at.toggle(key="quiz_topdown_on").set_value(True).run()  # the quiz is a role too
    ah.ok(at)
    comps = lh.components(at)
    assert {d["role"] for d in comps.values()} == set(ROLES) - {"regions"}
    # the bounds explorer's formulas are the role that makes wide boxes Tab stops
    bounds = ah.page("bounds")
    ah.ok(bounds)
    comps.update(lh.components(bounds))
    assert {d["role"] for d in comps.values()} == set(ROLES)
    for key, data in comps.items():
        assert list(data) == list(ROLES[data["role"]].js_keys()), key


def test_klass_js_reads_what_class_data_sends_and_sends_back_what_is_declared() -> None:
    """The class component (klass.js, joined from ui/classroom/js/, and ClassData in
    ui/classroom/teach.py): the keys the script reads from ``data`` are the keys
    :meth:`ClassData.to_js` sends, and every ``setTriggerValue`` name is one of
    ``ClassData.TRIGGERS``."""
    from ui.classroom.teach import ClassData, script_text

    src = code_only(script_text())
    read = set(re.findall(r"\bdata\.(\w+)", src)) | set(
        re.findall(r"\.data \|\| \{\}\)\.(\w+)", src)
    )
    for names in re.findall(r"const\s*\{([^}]*)\}\s*=\s*data\b", src):
        read |= {n.strip().split(":")[0] for n in names.split(",") if n.strip()}
    sent = set(ClassData("student", "ABCDEF", None).to_js())
    assert read == sent, (sorted(read - sent), sorted(sent - read))
    fired = set(re.findall(r"setTriggerValue\(\s*\"(\w+)\"", src))
    assert fired and fired <= set(ClassData.TRIGGERS), fired
    assert "setStateValue" not in src  # the class component keeps no state on the server


def test_klass_js_is_every_part_of_ui_classroom_js_once_and_only_the_last_exports() -> None:
    """klass.js is joined from ui/classroom/js/ (``SCRIPT_PARTS``): every file there is one
    part, named once, and only the last part (the entry point) has ``export default``."""
    from ui.classroom.teach import SCRIPT_PARTS

    folder = ROOT / "ui" / "classroom" / "js"
    assert sorted(SCRIPT_PARTS) == sorted(p.name for p in folder.glob("*.js"))
    exports = [p for p in SCRIPT_PARTS if "export default" in (folder / p).read_text("utf-8")]
    assert exports == [SCRIPT_PARTS[-1]], exports
