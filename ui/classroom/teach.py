"""Teach a class (issue 28): the header's *Teach a class* button, the teacher's class card
(code, QR code of the students' link, count, teacher link, *End class*) and a follower's
banner (*Explore on my own* / *Rejoin the class*).

The class lives in the store (:mod:`server.store`); what moves during a lecture moves in
the browser (``klass.js``): the teacher's steps are POSTed to the class's routes
(:mod:`server.routes`) and reach followers as events on a stream they hold open, with
no Streamlit rerun per follower per step. This module runs on the pages' script runs only:

* a teacher's run publishes the page and its URL parameters when they change (a new page, a
  parameter, a preset), so followers open the same link;
* a student's run (``?class=CODE``) checks the code and mounts the follower's banner; the
  page itself is the teacher's link, computed like any other warm open.

The teacher key never appears in the teacher's address bar (a projector shows it): the class
is held by the teacher's session, and the *teacher link* (``?class=CODE&teach=KEY``, shown in
the class card for the teacher to keep) reopens it on another device or after a reload; the
key is taken out of the address as soon as it is read.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlencode

import streamlit as st

import server.store as cs

from .. import params, static_js

#: URL parameters of class mode (declared in ``ui.pages.HEADER_PARAMS``).
CLASS_PARAM = "class"
TEACH_PARAM = "teach"
#: Parameters a follower does not take from the teacher: class mode's own, presenter mode
#: (a projector's, not a phone's) and the round (it travels on its own, in the stream).
NOT_SHARED = frozenset({CLASS_PARAM, TEACH_PARAM, "present", "round"})
#: Session key of the class this session teaches: ``{"code", "key"}``.
TEACHING = "_teaching"
#: Session key of the teacher's "Class splits" toggle (students send their splits).
COLLECT = "class_collect"
#: Session key of a follower session's id for its submissions (one split per student).
STUDENT = "_class_student"
#: Key of a follower's class component.
STUDENT_COMPONENT = "class_student"
#: Session key: open the join dialog (the QR code) on this run.
SHOW_QR = "_class_show_qr"
#: Session key: a follower's browser asked for this run (klass.js's ``sync``): its page does
#: not show the class's predict or mode, so the run takes them again.
RESYNC = "_class_resync"
#: Session key: a class this tab is not to ask for again (this session ended it, or the
#: server refused to resume it).
FORGET = "_class_forget"
#: Key of the component that asks for a class this tab taught before its session was lost.
RESUME_COMPONENT = "class_resume"

_CSS = """<style>
.st-key-class-card { border: 1px solid rgba(128,128,128,0.45); border-radius: 0.6rem;
  padding: 0.3rem 0.8rem; flex-wrap: wrap; }
/* the join dialog's link and code are read from the back of a hall: >= 28 px at 1920 px,
   presenting or not (32 px in presenter mode); they wrap, never scroll sideways */
.bl-class-join { font-size: max(1.6rem, 1.6vw); line-height: 1.3; display: flex;
  flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: baseline; justify-content: space-between; }
.bl-class-join > div { min-width: 0; max-width: 100%; }
.bl-class-join code { font-size: 1em; overflow-wrap: anywhere; white-space: normal; }
.bl-class-join .bl-class-code b { font-size: 1.5em; }
@media (max-width: 700px) { .bl-class-join { font-size: 1.2rem; } }
.bl-class-code b { font-size: 1.7rem; letter-spacing: 0.12em; font-variant-numeric: tabular-nums; }
.bl-class-qr { display: block; margin: 0 auto; width: min(480px, 70vh, 80vw); height: auto;
  image-rendering: pixelated; }
</style>"""
#: The class's browser script (klass.js) in parts (``ui/classroom/js/``, one file per job),
#: in the order they are joined (each names what it holds; only main.js exports).
SCRIPT_PARTS = ("base.js", "transport.js", "teacher.js", "follower.js", "main.js")


def script_text() -> str:
    """klass.js, the class's browser script: its parts (:data:`SCRIPT_PARTS`) joined in order."""
    return static_js.joined(Path(__file__).resolve().parent / "js", SCRIPT_PARTS)


#: klass.js, served once per browser from static/ (it is mounted on every page open: a tab
#: may take up the class it taught, _resume)
_COMPONENT = st.components.v2.component(
    "boostlab_class",
    js=static_js.loader("klass", script_text()),
    isolate_styles=False,
)


def _weak_key(page: str) -> str:
    """The prefix of the page's "You are the weak learner" keys (ui/weak_common.Turn)."""
    return f"weak_{page or 'home'}"


def _plain(x: Any) -> Any:
    """A numpy number as a Python one (for the mode's JSON)."""
    return x.item() if hasattr(x, "item") else str(x)


def _tuples(x: Any) -> Any:
    """JSON lists back into the tuples the pages' choices are made of."""
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


def _mode(page: str) -> str:
    """The teacher's weak-learner mode as the class's ``mode`` text: on, the splits played
    so far and whether students send theirs ("" when the mode is off)."""
    ss = st.session_state
    wk = _weak_key(page)
    if not ss.get(f"{wk}_on"):
        return ""
    return json.dumps(
        {
            "weak": True,
            "played": list(ss.get(f"{wk}_choices", ())),
            "collect": bool(ss.get(COLLECT, False)),
        },
        default=_plain,
        sort_keys=True,
    )


def _follow_mode(page: str, state: cs.ClassState, force: bool = False) -> None:
    """A follower's page takes the teacher's weak-learner mode: the toggle (each time the
    teacher changes it, or when ``force``: the browser asked) and the splits played (they
    replace the student's own)."""
    ss = st.session_state
    wk = _weak_key(page)
    try:
        mode = json.loads(state.mode) if state.mode else {}
    except ValueError:
        mode = {}
    weak = bool(mode.get("weak"))
    if force or ss.get("_class_mode_weak") != (state.code, weak):
        ss["_class_mode_weak"] = (state.code, weak)
        ss[f"{wk}_on"] = weak
    ss[f"{wk}_class"] = _tuples(mode.get("played", [])) if weak else None
    ss["_class_collecting"] = weak and bool(mode.get("collect"))


def collecting() -> bool:
    """On a follower's page: the teacher asks for the students' splits."""
    return bool(st.session_state.get("_class_collecting")) and bool(_following())


def _following() -> str | None:
    return st.session_state.get("_class_following")


def send_split(split: dict[str, Any]) -> str:
    """A follower sends its split to the class (one per student: a new one replaces it);
    a sentence saying what happened."""
    code = _following()
    if not code:
        return "This page does not follow a class."
    # one split per session (a reload of the page is a new session: it may count twice),
    # under an id the class gave, as a follower's page's (it counts against the address's
    # budget of joins: bare sessions of a script cannot fill the splits)
    ids = st.session_state.setdefault(STUDENT, {})
    try:
        if code not in ids:
            ids[code] = cs.run(cs.STORE.admit(code, teacher_address()))
        state = cs.run(cs.STORE.submit(code, ids[code], split))
    except cs.ClassError as e:
        return str(e)
    return f"Sent. {state.submissions} split(s) in the class so far; you may send another."


def teaching() -> bool:
    """Whether this session teaches a class."""
    return bool(st.session_state.get(TEACHING))


def class_splits() -> list[dict[str, Any]]:
    """The splits the class sent (the teacher's page; none when not teaching)."""
    teaching_ = st.session_state.get(TEACHING)
    if not teaching_:
        return []
    try:
        return cs.run(cs.STORE.splits(teaching_["code"]))
    except cs.ClassError:
        return []


def clear_class_splits() -> None:
    """A new collection: the class's splits so far are dropped (the teacher's toggle and
    each split played)."""
    teaching_ = st.session_state.get(TEACHING)
    if teaching_:
        try:
            cs.run(cs.STORE.clear_splits(teaching_["code"], teaching_["key"]))
        except cs.ClassError:
            pass


def _predict_key(page: str) -> str:
    """The session key of the page's "Predict, then reveal" toggle (ui/quiz_widget.py)."""
    return f"quiz_{page or 'home'}_on"


@dataclass(frozen=True)
class ClassData:
    """What ``klass.js`` is mounted with (``data``): the role, the class, the class's round
    as this run knew it, the teacher's predict and mode, and the URL parameters followers do
    not take (the page and its parameters are read from the address bar on both sides:
    the browser writes a changed widget's value there). ``key`` only for the teacher's own
    page. What the script sends back: the triggers (:data:`TRIGGERS`) ``sync`` (a follower's
    page asks for a run when it does not show the teacher's predict or mode) and ``resume``
    (role ``"resume"``: a tab that taught a class before its server session was lost asks
    for it again, ``"CODE:KEY"``); no state
    (telling the browser's id with the next control used made a rerun race the Send button's
    click: a click was lost in a test run). ``tests/ui/test_lecture_contract.py`` checks klass.js
    against both."""

    #: the names klass.js fires with ``setTriggerValue``
    TRIGGERS: ClassVar[tuple[str, ...]] = ("sync", "resume")
    #: the names klass.js sets with ``setStateValue``
    STATES: ClassVar[tuple[str, ...]] = ()

    role: str
    code: str
    round: int | None
    predict: bool = False
    mode: str = ""
    key: str = ""
    #: URL parameters followers do not take (:data:`NOT_SHARED`)
    not_shared: tuple[str, ...] = tuple(sorted(NOT_SHARED))

    def to_js(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "code": self.code,
            "round": self.round,
            "predict": self.predict,
            "mode": self.mode,
            "key": self.key,
            "notShared": list(self.not_shared),
        }

    @classmethod
    def callbacks(cls, **handlers: Any) -> dict[str, Any]:
        """``on_<name>_change`` for each trigger of :data:`TRIGGERS` and state value of
        :data:`STATES` (all of them given: Streamlit keeps a state value only with one)."""
        names = (*cls.TRIGGERS, *cls.STATES)
        if set(handlers) != set(names):
            raise ValueError(f"ClassData.callbacks needs {names}; got {sorted(handlers)}")
        return {f"on_{name}_change": fn for name, fn in handlers.items()}


def shared_query() -> tuple[tuple[str, str], ...]:
    """This page's URL parameters that followers take (sorted, repeated ones kept)."""
    out = []
    for k in sorted(st.query_params):
        if k not in NOT_SHARED:
            out += [(k, v) for v in st.query_params.get_all(k)]
    return tuple(out)


def _url_round() -> int | None:
    raw = st.query_params.get("round")
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


def client_address() -> str:
    """Who asks, for the throttle of wrong codes: the address the class routes see for the
    same browser (the throttle is theirs too: ``cs.THROTTLE``)."""
    try:
        peer, headers = st.context.ip_address, st.context.headers
        forwarded = headers.get("x-forwarded-for", "") if headers else ""
    except Exception:  # noqa: BLE001  (AppTest has no client)
        return "?"
    if not isinstance(peer, str) or not peer:
        return "?"
    return cs.client_address(peer, forwarded if isinstance(forwarded, str) else "")


def _base_url() -> str:
    """The address students type: the teacher's own host and scheme, as the browser sent
    them (``X-Forwarded-Proto`` / ``X-Forwarded-Host`` when a proxy such as HAProxy or a
    department's HTTPS front end passed them on)."""
    try:
        headers = st.context.headers
    except Exception:  # noqa: BLE001  (AppTest has no request)
        headers = {}
    return base_url(headers)


def base_url(headers: Any) -> str:
    """``scheme://host`` from a request's headers (see :func:`_base_url`)."""
    host = headers.get("X-Forwarded-Host") or headers.get("Host") or "localhost:8501"
    scheme = (headers.get("X-Forwarded-Proto") or "http").split(",")[0].strip().lower()
    if scheme not in ("http", "https"):
        scheme = "http"
    host = host.split(",")[0].strip()
    if not host or any(c in host for c in "/?#@ \\"):
        host = "localhost:8501"
    return f"{scheme}://{host}"


def _local(url: str) -> bool:
    host = url.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    return host in ("localhost", "127.0.0.1", "[::1]")


def student_link(page: str, code: str) -> str:
    """The link in the QR code: the page and the class (the rest comes from the stream)."""
    return f"{_base_url()}/{page}?{urlencode({CLASS_PARAM: code})}"


def teacher_link(page: str, code: str, key: str) -> str:
    """The link that makes its opener the teacher of ``code`` (keep it private)."""
    return f"{_base_url()}/{page}?{urlencode({CLASS_PARAM: code, TEACH_PARAM: key})}"


def qr_data_uri(text: str, *, scale: int = 8) -> str:
    """``text`` as a QR code: an SVG ``data:`` URI (black on white, with its quiet zone), for
    an ``<img>`` (``st.html`` drops inline SVG)."""
    import segno

    return segno.make(text, error="m").svg_data_uri(scale=scale, dark="#000", light="#fff")


# --------------------------------------------------------------------------------- teacher
def teacher_address() -> str:
    """The teacher's client address, as the class routes tell it (behind the hall's proxy,
    the address it forwards): what ``Limits.classes_per_address`` counts ("" for this
    machine itself)."""
    peer, headers = st.context.ip_address, st.context.headers
    forwarded = headers.get("x-forwarded-for", "") if headers else ""
    # none known (a test's session): the class counts for no address
    peer = peer if isinstance(peer, str) else ""
    address = cs.client_address(peer, forwarded if isinstance(forwarded, str) else "")
    # this machine's own browsers (the server's operator, its tests and benchmarks) count
    # for no address: the budget is for the network's clients
    return "" if address in cs.TRUSTED_PROXIES else address


def _open_class(page: str) -> None:
    """Callback of *Teach a class*: a new class showing this page as it is."""
    key = cs.new_key()
    try:
        code = cs.run(
            cs.STORE.open(key, page, dict(_pairs(shared_query())), _url_round(), teacher_address())
        )
    except cs.ClassError as e:
        st.session_state["_class_error"] = str(e)
        # this browser may have opened them: it can end them (klass.js, taughtMount)
        st.session_state["_class_owner_full"] = isinstance(e, cs.OwnerFull)
        return
    st.session_state[TEACHING] = {"code": code, "key": key}
    st.session_state[SHOW_QR] = True


def _pairs(query: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for k, v in query:
        out.setdefault(k, []).append(v)
    return out


def _end_class() -> None:
    teaching = st.session_state.pop(TEACHING, None)
    if teaching:
        st.session_state[FORGET] = teaching["code"]
        try:
            cs.run(cs.STORE.end(teaching["code"], teaching["key"]))
        except cs.ClassError:
            pass  # already ended (expired, or ended from another device)


def teach_button(container: Any, page: str) -> None:
    """The header's *Teach a class* button (nothing while this session teaches or follows)."""
    if st.session_state.get(TEACHING) or st.query_params.get(CLASS_PARAM):
        return
    container.button(
        "Teach a class",
        icon=":material/groups:",
        key="teach_class",
        on_click=_open_class,
        args=(page,),
        help="Students follow this screen on their phones: they open the link (or scan the "
        "QR code) and see your page, parameters and round as you step.",
    )


@st.dialog("Join the class", width="large")
def _join_dialog(code: str, link: str) -> None:
    """The code, the students' link and its QR code, large enough to scan from the back."""
    st.html(
        f"<div class='bl-class-join'><div>Scan, or open <code>{html.escape(link)}</code></div>"
        f"<div class='bl-class-code'>Class <b>{html.escape(code)}</b></div></div>"
    )
    alt = html.escape(f"QR code of the students' link {link}", quote=True)
    st.html(f'<img class="bl-class-qr" src="{qr_data_uri(link)}" alt="{alt}">')
    if _local(link):
        st.warning(
            "Phones cannot reach this machine as localhost: open the app at the Network URL "
            "that `make serve` prints, and this link and QR code will use it."
        )


def _show_join() -> None:
    st.session_state[SHOW_QR] = True


def _teacher_card(page: str, teaching: dict) -> None:
    code, key = teaching["code"], teaching["key"]
    try:
        state = cs.run(cs.STORE.state(code))
    except cs.ClassError as e:
        st.session_state.pop(TEACHING, None)
        st.warning(str(e))
        return
    if state.ended:
        st.session_state.pop(TEACHING, None)
        st.info(f"Class {code} has ended.")
        return
    # the page and its parameters are told by the teacher's browser (klass.js: what its
    # address bar holds; a changed widget's value is written there by the browser after
    # this run has started)
    predict = bool(st.session_state.get(_predict_key(page), False))
    if state.predict != predict:  # followers ask the same questions
        state = cs.run(cs.STORE.show(code, key, predict=predict))
    mode = _mode(page)
    if state.mode != mode:  # the weak learner: its splits so far, whether students send
        state = cs.run(cs.STORE.show(code, key, mode=mode))
    link = student_link(page, code)
    st.html(_CSS)
    with st.container(key="class-card", horizontal=True, vertical_alignment="center", gap="small"):
        with st.container(key="class-code", width="content"):
            st.html(f"<div class='bl-class-code'>Class <b>{html.escape(code)}</b></div>")
        with st.container(key="class-count", width="content"):
            st.html(f"<div><b data-bl-count>{state.students}</b> following</div>")
        st.space("stretch")
        st.button(
            "Join QR",
            icon=":material/qr_code_2:",
            key="class_qr",
            on_click=_show_join,
            help="The code, the students' link and its QR code, large.",
        )
        with st.popover("Teacher link", icon=":material/key:"):
            st.markdown(
                "Opens this class as its teacher on another device, or after a reload. "
                "Keep it private: whoever has it drives the class."
            )
            st.code(teacher_link(page, code, key), language=None, wrap_lines=True)
        # two steps, the second one named: a class is ended by a decision, not a slip of
        # the finger beside the Teacher link (issue 39, item 11)
        with st.popover("End class", icon=":material/stop_circle:"):
            st.markdown(
                f"End class {code} for everyone? The students' pages say that "
                "the class has ended and stay theirs to explore; the code stops working."
            )
            st.button("End the class now", key="end_class", on_click=_end_class, type="primary")
    if st.session_state.pop(SHOW_QR, False):
        _join_dialog(code, link)
    _COMPONENT(
        key="class_teacher",
        data=ClassData("teacher", code, state.round, predict, mode, key=key).to_js(),
        # klass.js asks for a run when the page's connection came back (a new server
        # session, in a hall, takes the class up again from it: _resume)
        **ClassData.callbacks(sync=lambda: None, resume=lambda: None),
    )


# --------------------------------------------------------------------------------- student
def _from_teacher_link(page: str, code: str, key: str) -> bool:
    """``?teach=KEY``: this session becomes the class's teacher if the key is right. The key
    leaves the address bar at once either way."""
    try:
        del st.query_params[TEACH_PARAM]
        del st.query_params[CLASS_PARAM]
    except KeyError:
        pass
    wait = THROTTLE.blocked(client_address())
    if wait > 0:
        st.error(f"Too many wrong class codes or keys from this device: try again in {wait:.0f} s.")
        return False
    try:
        ok = cs.run(cs.STORE.is_teacher(code, key))
    except cs.ClassError as e:
        THROTTLE.miss(client_address())
        st.error(str(e))
        return False
    if not ok:
        THROTTLE.miss(client_address())
        st.error(f"This teacher link is not the one of class {cs.normal_code(code)}.")
        return False
    state = cs.run(cs.STORE.state(code))
    st.session_state[TEACHING] = {"code": state.code, "key": key}
    return True


THROTTLE = cs.THROTTLE  # the routes' too: one count of wrong codes per address


#: A class store that does not answer (the hall's Redis restarting) answers with this status.
UNAVAILABLE = 503


@st.fragment(run_every=3.0)
def _wait_for_the_store(code: str) -> None:
    """While the class store does not answer, asked again every 3 s; the page runs again
    (and follows the class) as soon as it does."""
    try:
        cs.run(cs.STORE.state(code))
    except cs.ClassError as e:
        if e.status == UNAVAILABLE:
            return
    st.rerun()


def _resync() -> None:
    """A follower's browser asked for a run (``sync``): the run takes the class's predict
    and mode again."""
    st.session_state[RESYNC] = True


def _student_banner(page: str, code: str) -> None:
    wait = THROTTLE.blocked(client_address())
    if wait > 0:
        st.error(f"Too many wrong class codes from this device: try again in {wait:.0f} s.")
        return
    try:
        state = cs.run(cs.STORE.state(code))
    except cs.ClassError as e:
        st.warning(str(e))
        if e.status == UNAVAILABLE:  # not a wrong code: the class is there, its store is not
            _wait_for_the_store(code)
        else:
            THROTTLE.miss(client_address())
        return
    if state.ended:
        st.info(f"Class {state.code} has ended. The page is yours to explore.")
        return
    # the teacher's "Predict, then reveal", each time it changes (a student exploring keeps
    # their own choice until then), and whenever the browser asks: a run that set it and was
    # cut short before it drew the toggle (a newer run request) left the browser's old value,
    # which the next run took back (issue 39, item 2)
    force = bool(st.session_state.pop(RESYNC, False))
    seen = st.session_state.get("_class_predict")
    if force or seen != (state.code, state.predict):
        st.session_state["_class_predict"] = (state.code, state.predict)
        st.session_state[_predict_key(page)] = state.predict
    predict = bool(st.session_state.get(_predict_key(page), False))
    st.session_state["_class_following"] = state.code
    _follow_mode(page, state, force)
    with st.container(key="class-follow"):
        _COMPONENT(
            key=STUDENT_COMPONENT,
            data=ClassData("student", state.code, _url_round(), predict, state.mode).to_js(),
            # klass.js asks for a run when its page does not show the teacher's predict or
            # mode: the run takes them again (RESYNC); the browser's id is read when a split
            # is sent (send_split)
            **ClassData.callbacks(sync=_resync, resume=lambda: None),
        )


def _link_params() -> tuple[str | None, str | None]:
    """The link's class code and teacher key, each ``None`` when absent; a value that cannot
    be one is reported on the page's notice (quoted as text) and taken out of the address."""
    params.handled(CLASS_PARAM, TEACH_PARAM)
    code = key = None
    raw = st.query_params.get(CLASS_PARAM)
    if raw is not None:
        try:
            code = cs.normal_code(raw)
        except cs.NoSuchClass:
            THROTTLE.miss(client_address())
            params.note(params.ignored(CLASS_PARAM, "not a class code (6 letters and digits)", raw))
            del st.query_params[CLASS_PARAM]
    raw = st.query_params.get(TEACH_PARAM)
    if raw is not None:
        well_formed = 22 <= len(raw) <= 64 and all(c.isalnum() or c in "-_" for c in raw)
        if code is None or not well_formed:
            params.note(
                params.ignored(
                    TEACH_PARAM,
                    "not a teacher key" if well_formed or code else "a teacher key needs ?class=",
                    raw,
                )
            )
            del st.query_params[TEACH_PARAM]
        else:
            key = raw
    return code, key


def class_bar(page: str) -> None:
    """Under the page header: the teacher's class card, or a follower's banner, or nothing."""
    if err := st.session_state.pop("_class_error", None):
        st.error(err)
        if st.session_state.pop("_class_owner_full", False):
            _COMPONENT(
                key="class_taught",
                data=ClassData("taught", "", None).to_js(),
                **ClassData.callbacks(sync=lambda: None, resume=lambda: None),
            )
    ss = st.session_state
    ss["_class_following"] = None  # set again below while this page follows a class
    ss["_class_collecting"] = False
    ss[f"{_weak_key(page)}_class"] = None
    code, key = _link_params()
    if code and key:
        _from_teacher_link(page, code, key)
        code = None
    teaching = st.session_state.get(TEACHING)
    if not teaching and not code:
        teaching = _resume()
    if teaching:
        _teacher_card(page, teaching)
    elif code:
        _student_banner(page, code)


def _resume() -> dict | None:
    """A tab that taught a class before its server session was lost (in a lecture hall the
    process that held it died and the page reconnected to another; or the page was
    reloaded) asks for it again (klass.js, ``resumeMount``): this session teaches it again
    if the key is the class's and the class is open (issue 39, item 4)."""
    asked = _COMPONENT(
        key=RESUME_COMPONENT,
        data=ClassData("resume", st.session_state.get(FORGET) or "", None).to_js(),
        **ClassData.callbacks(sync=lambda: None, resume=lambda: None),
    )
    raw = getattr(asked, "resume", None)
    if not isinstance(raw, str) or raw.count(":") != 1:
        return None
    code, key = raw.split(":")
    if THROTTLE.blocked(client_address()) > 0:  # a key is guessed here no faster than by a link
        return None
    gone = (
        f"Class {code} could not be taken up again on this page: it has ended, or the "
        "server that held it restarted. Students keep their pages; open a new class with "
        "*Teach a class* and show them its code."
    )
    try:
        code = cs.normal_code(code)
        ok = cs.run(cs.STORE.is_teacher(code, key))
        state = cs.run(cs.STORE.state(code)) if ok else None
    except cs.NoSuchClass:
        st.session_state[FORGET] = code
        st.info(gone)
        return None
    except cs.ClassError as e:  # the store does not answer (the hall's Redis restarting)
        st.warning(f"{e} Reload this page in a moment to take class {code} up again.")
        return None
    if not ok:
        THROTTLE.miss(client_address())
        st.session_state[FORGET] = code
        return None
    if state.ended:
        st.session_state[FORGET] = code
        st.info(gone)
        return None
    st.session_state[TEACHING] = {"code": state.code, "key": key}
    st.toast(f"Class {state.code} goes on: this page teaches it again.", icon=":material/groups:")
    return st.session_state[TEACHING]
