"""ui/rounds.py, the one owner of the round (issue 23, item 3).

(a) The API's behaviour, through small AppTest scripts that call it as the pages do: the
link's round on the session's first run, clamping when a new run has fewer rounds, a
preset's round winning over the round shown before, a preset link's round, a bad link value
reported on the page's notice, the browser's report, the student's moves.

(b) Nobody else writes the round: every module under ``ui/`` and ``views/`` (subfolders too)
is parsed and a write or delete of ``st.session_state[…]`` (or an alias of it, ``ss[…]``)
or ``st.query_params[…]`` with a round key fails, naming file and line. A round key is a
literal ``"round"`` or ``"round_…"``, ``rounds.KEY``, or — inside a function that takes a
stepper key (a parameter defaulting to ``"round"`` / ``rounds.KEY``, or named
``stepper_key``) — that parameter or an f-string starting with it (``f"{key}_keep"``).
The detector is tested on a snippet first. And ``ui/lecture/js`` sends back only the names
the contract declares (``setStateValue`` of the stepper's round).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests import apptest_helpers as ah
from tests.ui import test_lecture_contract as contract
from ui import lecture, rounds

ROOT = Path(__file__).resolve().parents[2]
#: The one module allowed to write the round.
OWNER = "ui/rounds.py"
#: Session keys of a stepper's that no other key of the app ends with (``f"{k}_keep"`` is a
#: round key whatever ``k`` is called; ``_shown`` and ``_speed`` are left out: other widgets
#: use them).
ROUND_SUFFIXES = {
    "_init",
    "_keep",
    "_range",
    "_from_link",
    "_playing",
    "_locked",
    "_last_tick",
    "_advanced",
    "_ctl",
    "_seq",
    "_moves",
    "_moved_now",
}


# ------------------------------------------------------------------------ (a) the API
def _app() -> None:
    """A page in miniature: what the test put in ``todo`` (rounds' functions, called as the
    pages call them) before the stepper's state for a run of ``lo … hi``, then the notice."""
    import streamlit as st

    from ui import params, rounds

    ss = st.session_state
    for name, args in ss.pop("todo", ()):
        getattr(rounds, name)(*args)
    lo, hi = ss.get("run", (0, 9))
    t = rounds.settle(lo, hi, start=ss.get("start", 0))
    st.markdown(f"t={t} current={rounds.current()}")
    params.finish()


def _open(**query: str) -> AppTest:
    at = AppTest.from_function(_app, default_timeout=ah.TIMEOUT)
    for k, v in query.items():
        at.query_params[k] = v
    return at


def _run(at: AppTest, *todo: tuple, run: tuple[int, int] | None = None) -> int:
    """Run once (after ``todo``, for a run of rounds ``run``); the round shown."""
    at.session_state["todo"] = list(todo)
    if run is not None:
        at.session_state["run"] = run
    at.run()
    ah.ok(at)
    text = at.markdown[0].value
    t, current = (int(part.split("=")[1]) for part in text.split())
    assert t == current, text
    return t


def _url(at: AppTest) -> str | None:
    value = at.query_params.get("round")
    return value[-1] if isinstance(value, list) else value


def _notice(at: AppTest) -> str:
    return " ".join(w.value for w in at.warning)


def test_the_links_round_is_read_on_the_first_run_only() -> None:
    at = _open(round="5")
    assert _run(at) == 5 and _url(at) == "5"
    at.query_params["round"] = "7"  # the session's round wins from now on
    assert _run(at) == 5


def test_without_a_link_the_default_round_and_no_parameter() -> None:
    at = _open()
    at.session_state["start"] = 2
    assert _run(at) == 2 and _url(at) is None  # the page's default needs no parameter
    assert _run(at, ("show", (4,))) == 4 and _url(at) == "4"
    assert _run(at, ("show", (2,))) == 2 and _url(at) is None


def test_a_link_round_outside_the_run_is_clamped_and_noted() -> None:
    at = _open(round="99")
    assert _run(at) == 9
    assert "round=99" in _notice(at) and "showing 9" in _notice(at)


def test_a_bad_link_value_is_noted_and_the_default_shown() -> None:
    at = _open(round="abc")
    at.session_state["start"] = 1
    assert _run(at) == 1
    assert "round=abc" in _notice(at) and "not a whole number" in _notice(at)


def test_a_new_run_with_fewer_rounds_clamps_and_more_rounds_keep_it() -> None:
    at = _open(round="8")
    assert _run(at) == 8
    assert _run(at, run=(0, 4)) == 4  # new parameters: fewer rounds
    assert _run(at, run=(0, 12)) == 4  # more again: the round shown is kept
    assert _run(at, ("show", (11,))) == 11
    assert _run(at, run=(0, 20)) == 11


def test_the_students_round_is_kept_when_the_run_changes() -> None:
    """A student's split can change the run's number of rounds: show() keeps its round
    (ui/weak_common.py relied on round_keep for this; issue 17's regression)."""
    at = _open()
    assert _run(at, ("show", (3,))) == 3
    assert _run(at, ("show", (1,)), run=(0, 6)) == 1


def test_a_presets_round_wins() -> None:
    at = _open(round="6")
    assert _run(at) == 6
    # a preset of another run: its round, not the one shown before (kept as 6)
    assert _run(at, ("set_from_preset", (2,)), run=(0, 7)) == 2
    # a large preset round is the run's last
    assert _run(at, ("set_from_preset", (99,)), run=(0, 5)) == 5
    assert not at.warning


def test_a_preset_links_round_wins_over_the_presets() -> None:
    at = _open(preset="x", round="3")
    # as ui.header.preset_from_url: the preset's round, then the link's kept
    assert _run(at, ("set_from_preset", (1,)), ("from_link", ())) == 3
    assert _run(at) == 3  # applied once


def test_a_bad_preset_link_round_keeps_the_presets_and_is_noted() -> None:
    at = _open(preset="x", round="zz")
    assert _run(at, ("set_from_preset", (4,)), ("from_link", ())) == 4
    assert "round=zz" in _notice(at)
    at = _open(preset="x", round="50")
    assert _run(at, ("set_from_preset", (4,)), ("from_link", ()), run=(0, 7)) == 7
    assert "showing 7" in _notice(at)


def test_a_link_without_a_round_keeps_nothing() -> None:
    at = _open(preset="x")
    assert _run(at, ("set_from_preset", (4,)), ("from_link", ())) == 4
    assert not at.warning


def _browser_app() -> None:
    """The browser's stepper reports a round: its component state, then the callback."""
    import streamlit as st

    from ui import rounds

    ss = st.session_state
    report = ss.pop("report", None)
    if report is not None:
        # what Streamlit stores under the component's key before calling on_round_change
        ss[rounds.control_key()] = report
        rounds.on_browser_round(state="round")
    st.markdown(f"t={rounds.settle(0, 9)} seq={rounds.reported()} moves={rounds.moves()}")


@pytest.mark.parametrize(
    "report, shown",
    [
        ({"round": 6}, 6),
        ({"round": {"t": 4, "seq": 1}}, 4),
        ({"round": {"t": 4}}, 0),
        ({"round": "x"}, 0),
        ({}, 0),
        (None, 0),
    ],
)
def test_the_browsers_round_is_shown_and_a_bad_report_ignored(report, shown: int) -> None:
    at = AppTest.from_function(_browser_app, default_timeout=ah.TIMEOUT).run()
    at.session_state["report"] = report
    at.run()
    ah.ok(at)
    assert at.markdown[0].value.startswith(f"t={shown} ")


def test_a_late_report_does_not_move_the_round_back_and_python_moves_are_counted() -> None:
    """Issue 27, item 3: the browser numbers its reports; one older than a report applied
    (a rerun that began before it) changes nothing. The server's own moves are counted, so
    that the browser's stepper follows them (and only them)."""
    at = AppTest.from_function(_browser_app, default_timeout=ah.TIMEOUT).run()
    for report, want in (
        ({"t": 5, "seq": 2}, "t=5 seq=2 moves=0"),
        ({"t": 3, "seq": 1}, "t=5 seq=2 moves=0"),  # late: ignored
        ({"t": 7, "seq": 3}, "t=7 seq=3 moves=0"),
    ):
        at.session_state["report"] = {"round": report}
        at.run()
        ah.ok(at)
        assert at.markdown[0].value == want, report
    at = _open()
    _run(at, ("show", (2,)))
    _run(at, ("set_from_preset", (4,)))
    assert at.session_state["round_moves"] == 2


def _move_and_report_app() -> None:
    """A control's callback moves the round (the student's mode turned on: round 0) and the
    browser's report of its round (sent just before that control) is handled after it, in
    the same run."""
    import streamlit as st

    from ui import rounds

    ss = st.session_state
    if ss.pop("go", False):
        rounds.show(0)
        ss[rounds.control_key()] = {"round": {"t": 6, "seq": 4}}
        rounds.on_browser_round(state="round")
    st.markdown(f"t={rounds.settle(0, 9)} seq={rounds.reported()} moves={rounds.moves()}")


def test_a_controls_move_wins_over_a_report_handled_after_it() -> None:
    at = AppTest.from_function(_move_and_report_app, default_timeout=ah.TIMEOUT).run()
    at.session_state["go"] = True
    at.run()
    ah.ok(at)
    assert at.markdown[0].value == "t=0 seq=4 moves=1"
    at.session_state["report"] = None
    at.run()  # the next run: reports count again
    assert "round_moved_now" not in at.session_state


def _current_app() -> None:
    import streamlit as st

    from ui import rounds

    st.markdown(f"{rounds.current()} {rounds.current(default=3)}")


def test_current_before_any_stepper() -> None:
    at = AppTest.from_function(_current_app, default_timeout=ah.TIMEOUT).run()
    assert at.markdown[0].value == "None 3"


def test_the_control_key_is_the_steppers() -> None:
    assert rounds.control_key() == "round_ctl" and rounds.control_key("move") == "move_ctl"


# --------------------------------------------------------------- (b) nobody else writes it
def _is_session(node: ast.AST, aliases: set[str]) -> bool:
    """``st.session_state``, ``st.query_params``, or a name bound to one of them."""
    if isinstance(node, ast.Attribute) and node.attr in ("session_state", "query_params"):
        return True
    return isinstance(node, ast.Name) and node.id in aliases


def _stepper_params(
    fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, consts: dict[str, str]
) -> set[str]:
    """Parameters holding a stepper key: defaulting to "round" / rounds.KEY / a module
    constant equal to "round", or named ``stepper_key``."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    found = {a.arg for a, d in pairs if _names_the_round(d, set(), consts)}
    found |= {a.arg for a in [*positional, *args.kwonlyargs] if a.arg == "stepper_key"}
    return found


def _names_the_round(node: ast.AST, params: set[str], consts: dict[str, str]) -> bool:
    """Whether ``node`` (a subscript's key) is a round key."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value == "round" or node.value.startswith("round_")
    if isinstance(node, ast.Name):
        return node.id in params or node.id in consts
    if isinstance(node, ast.Attribute):  # rounds.KEY
        return node.attr == "KEY" and isinstance(node.value, ast.Name) and node.value.id == "rounds"
    if isinstance(node, ast.JoinedStr) and node.values:  # f"{key}_keep", f"round_{x}"
        last = node.values[-1]
        if (
            len(node.values) == 2
            and isinstance(last, ast.Constant)
            and last.value in ROUND_SUFFIXES
        ):
            return True  # f"{whatever}_keep": a stepper's key, whatever the variable's name
        first = node.values[0]
        if isinstance(first, ast.FormattedValue):
            return _names_the_round(first.value, params, consts)
        return _names_the_round(first, params, consts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # key + "_keep"
        return _names_the_round(node.left, params, consts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):  # rounds.control_key()
        f = node.func
        return isinstance(f.value, ast.Name) and f.value.id == "rounds"
    return False


class _RoundWrites(ast.NodeVisitor):
    """Writes and deletes of the round's session keys and URL parameter in one module."""

    #: Methods of session_state / query_params that write the key given first.
    WRITERS = {"pop", "setdefault", "__setitem__", "__delitem__"}

    def __init__(self, tree: ast.Module) -> None:
        self.found: list[tuple[int, str]] = []
        self.params: list[set[str]] = [set()]
        self.aliases: set[str] = {"ss", "session_state"}
        # module constants naming the round (KEY = "round") and aliases (ss = st.session_state)
        self.consts: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if not isinstance(target, ast.Name):
                        continue
                    if _is_session(node.value, set()):
                        self.aliases.add(target.id)
                    elif _names_the_round(node.value, set(), {}) and isinstance(
                        node.value, ast.Constant
                    ):
                        self.consts[target.id] = node.value.value

    def _round(self, key: ast.AST) -> bool:
        return _names_the_round(key, self.params[-1], self.consts)

    def _target(self, node: ast.AST, verb: str) -> None:
        if isinstance(node, ast.Tuple | ast.List):
            for elt in node.elts:
                self._target(elt, verb)
        elif isinstance(node, ast.Subscript) and _is_session(node.value, self.aliases):
            if self._round(node.slice):
                self.found.append((node.lineno, f"{verb} {ast.unparse(node)}"))
        elif isinstance(node, ast.Attribute) and _is_session(node.value, self.aliases):
            if node.attr == "round" or node.attr.startswith("round_"):
                self.found.append((node.lineno, f"{verb} {ast.unparse(node)}"))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.params.append(self.params[-1] | _stepper_params(node, self.consts))  # closures too
        self.generic_visit(node)
        self.params.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, "writes")
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target, "writes")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._target(node.target, "writes")
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._target(target, "deletes")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Attribute) and _is_session(f.value, self.aliases):
            keys: list[ast.AST] = []
            if f.attr in self.WRITERS and node.args:
                keys = [node.args[0]]
            elif f.attr in ("update", "from_dict"):
                keys = [ast.Constant(kw.arg) for kw in node.keywords if kw.arg]
                keys += [k for a in node.args if isinstance(a, ast.Dict) for k in a.keys if k]
            if any(self._round(k) for k in keys):
                self.found.append((node.lineno, f"calls {ast.unparse(node)[:80]}"))
        if isinstance(f, ast.Name) and f.id in ("setattr", "delattr") and len(node.args) >= 2:
            obj, name = node.args[:2]
            if _is_session(obj, self.aliases) and self._round(name):
                self.found.append((node.lineno, f"calls {ast.unparse(node)[:80]}"))
        self.generic_visit(node)


def round_writes(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` of every write or delete of a round key in a module's source."""
    tree = ast.parse(source)
    finder = _RoundWrites(tree)
    finder.visit(tree)
    return sorted(finder.found)


SNIPPET = """
import streamlit as st
from ui import rounds

KEY = "round"
ss_alias = st.session_state

def stepper(n, *, key: str = "round"):
    ss = st.session_state
    ss[key] = 1                                  # ! the stepper key parameter
    ss[f"{key}_keep"] = 1                        # ! an f-string starting with it
    st.session_state["round_playing"] = False    # ! a literal round_ key
    del st.query_params[key]                     # !
    ss.pop(f"{key}_from_link", None)             # !
    st.query_params["round"] = "3"               # !
    callback = lambda: ss.__setitem__(key, 2)    # ! a closure inherits the key
    ss[f"{key}_bar_seen"], x = True, 1           # ! tuple targets

def view(*, stepper_key: str = rounds.KEY, key: str = "lv"):
    st.session_state[stepper_key] += 1           # ! named stepper_key, augmented
    st.session_state[key] = 1                    # fine: this key is the view's own
    st.session_state[f"{key}_x"] = 1             # fine

def helper(k):
    st.session_state[f"{k}_keep"] = 1            # ! a stepper's own suffix
    st.session_state[f"{k}_advanced"] = 1        # ! a stepper's own suffix

def preset(key):
    ss = st.session_state
    ss[f"{key}_shown"] = 1                       # fine: key is not a stepper key here
    ss[rounds.KEY] = 2                           # !
    ss_alias[KEY] = 3                            # ! alias and module constant
    st.session_state.update({"round_keep": 1})   # !
    st.query_params.update(round="2")            # !
    setattr(st.session_state, "round", 4)        # !
    st.session_state.round_keep = 5              # !
    x = st.session_state.get("round")            # fine: a read
    ss["rounds_total"] = 1                       # fine: not "round" nor "round_…"
    st.session_state[rounds.control_key()] = {}  # !
"""


def test_the_detector_on_a_snippet() -> None:
    """Every line marked ``# !`` is found, and nothing else."""
    marked = [i for i, text in enumerate(SNIPPET.split("\n"), start=1) if "# !" in text]
    assert len(marked) == 18
    assert [line for line, _ in round_writes(SNIPPET)] == marked, round_writes(SNIPPET)


def _modules() -> list[Path]:
    return sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "views").rglob("*.py")])


def test_only_ui_rounds_writes_the_round() -> None:
    offenders = [
        f"{path.relative_to(ROOT).as_posix()}:{line} {what}"
        for path in _modules()
        if path.relative_to(ROOT).as_posix() != OWNER
        for line, what in round_writes(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "only ui/rounds.py writes the round:\n" + "\n".join(offenders)


def test_the_owner_is_seen_writing() -> None:
    """The detector does see ui/rounds.py's own writes (so the test above is not vacuous)."""
    found = round_writes((ROOT / OWNER).read_text(encoding="utf-8"))
    assert len(found) >= 20, found
    assert any("_keep" in what for _, what in found)


def test_the_walk_reaches_subfolders() -> None:
    assert any(p.parent.parent.name == "pages" for p in _modules())


def test_lecture_js_sends_back_only_the_contracts_names() -> None:
    js = contract.parse_js(contract.JS_TEXT)
    assert not js.problems, js.problems
    states = set().union(*(s["states"] for s in js.sent.values()))
    assert states == {lecture.ROUND_STATE} == set(lecture.StepperData.states)
    triggers = set().union(*(s["triggers"] for s in js.sent.values()))
    assert triggers == set(lecture.StepperData.triggers) | set(lecture.ViewData.triggers)
