"""The class store: one teacher's class, its followers, answers and submitted splits.

A class (issue 28, docs/classroom-server.md "Teach a class") is a small record that the
teacher's session writes and every follower reads:

* a short **code** (``secrets``: 6 characters of an alphabet without look-alikes, ~30 bits;
  guessing is slowed down per client by :class:`Throttle`) that students type or scan;
* the **teacher key hash**: the key itself (192 bits from ``secrets``) lives only in the
  teacher's session and the teacher link; the store keeps its SHA-256 and compares with
  :func:`hmac.compare_digest`, so neither a follower nor a dump of the store can drive;
* what the teacher shows: the **page**, its **query** (the URL parameters: data, parameters,
  preset) and the **round**, with a sequence number ``seq`` that grows with every change
  (a follower never moves back to an older state);
* the open **question** (predict, then reveal), one **answer** per student and question, and
  the students' submitted **splits** for the current leaf.

:class:`ClassStore` is the interface the routes (``server/routes.py``) and the pages
use; :class:`MemoryStore` is the in-process one (one server process; the default). A Redis
version for several processes (issue 29) implements the same methods; the tests in
``tests/server/test_class_store.py`` are written against the interface.

Every method is ``async`` (the routes run on the server's event loop), and the in-process
store keeps no object bound to a loop, so a Streamlit script thread may also drive it with
:func:`run` (``asyncio.run`` on a loop of its own). Followers wait for changes with
:meth:`ClassStore.watch`: an async iterator of states that skips the states a slow follower
missed (the newest always arrives; what a follower shows is a state, not a log).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

# what a client may do (the follower ids, the throttle, who asks) lives in admission.py; the
# names stay importable from here, where the routes and the pages have always found them
from server.admission import (  # noqa: F401
    FREE_MISSES,
    THROTTLE,
    TRUSTED_PROXIES,
    Throttle,
    Tickets,
    address_joins_full,
    class_joins_full,
    client_address,
    new_secret,
    not_admitted,
)
from server.limits import Limits, limits_from_env  # noqa: F401  (as for admission)

#: Class codes use these 31 characters: no 0/O, 1/I/L (read off a projector, typed on a
#: phone).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: The teacher key's bytes (``secrets.token_urlsafe``): 192 bits.
KEY_BYTES = 24
#: At most this many characters in an answer's choice and a submission's fields.
MAX_TEXT = 200
#: At most this many characters in the page's mode (ClassState.mode).
MAX_MODE = 16_000
#: The largest round a class can be on (a run has at most a few thousand).
MAX_ROUND = 1_000_000

T = TypeVar("T")


class ClassError(ValueError):
    """A class operation refused; ``str(error)`` is a sentence a person can read."""

    #: The HTTP status the routes answer with.
    status = 400


class NoSuchClass(ClassError):
    """No open class has this code (never opened, ended, expired, or the server restarted)."""

    status = 404


class NotTeacher(ClassError):
    """The request lacks the class's teacher key (or has a wrong one)."""

    status = 403


class NotFollowing(ClassError):
    """An answer or a split from an id that follows no open stream of the class: a script's
    made-up ids counted ("53 of 52 students answered"; one address cast 499 of 500 answers,
    issue 40, item 2)."""

    status = 403


class NotAdmitted(ClassError):
    """A stream, answer or split under an id the class did not give (issue 40, item 2):
    :mod:`server.admission`."""

    status = 403


def not_following(code: str) -> str:
    """The refusal's sentence (both stores)."""
    return (
        f"This page does not follow class {code} right now (its connection to the class is "
        "lost): reload the page, then answer again."
    )


class ClassFull(ClassError):
    """A limit of :class:`Limits` is reached."""

    status = 429


@dataclass(frozen=True)
class Question:
    """The question the class answers now: an id (new per question), the choices' labels."""

    id: str
    choices: tuple[str, ...]
    correct: int | None = None  # known to the store only once revealed (see reveal)


@dataclass(frozen=True)
class ClassState:
    """What a follower needs to show the teacher's picture, as of ``seq``."""

    code: str
    page: str
    query: tuple[tuple[str, str], ...]
    round: int | None
    seq: int
    students: int = 0
    question: Question | None = None
    answers: int = 0  # how many answered the open question
    revealed: bool = False
    histogram: tuple[int, ...] = ()  # answers per choice, once revealed
    submissions: int = 0
    ended: bool = False
    predict: bool = False  # the teacher's "Predict, then reveal" is on
    mode: str = ""  # what else the teacher's page shows (JSON, the page's own; see show)

    def public(self) -> dict[str, Any]:
        """The JSON a follower receives (nothing secret: no key, no single answer)."""
        q = self.question
        return {
            "code": self.code,
            "page": self.page,
            "query": [list(kv) for kv in self.query],
            "round": self.round,
            "seq": self.seq,
            "students": self.students,
            "question": None
            if q is None
            else {
                "id": q.id,
                "choices": list(q.choices),
                "correct": q.correct if self.revealed else None,
            },
            "answers": self.answers,
            "revealed": self.revealed,
            "histogram": list(self.histogram),
            "submissions": self.submissions,
            "ended": self.ended,
            "predict": self.predict,
            "mode": self.mode,
        }


def new_code() -> str:
    """A class code from the secure random source (``secrets``)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_key() -> str:
    """A teacher key: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the store keeps of a teacher key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def normal_code(code: Any) -> str:
    """``code`` as stored (upper case, spaces and dashes dropped), or :class:`NoSuchClass`
    with a readable message when it cannot be a code at all."""
    text = str(code or "").strip().upper().replace(" ", "").replace("-", "")
    if len(text) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in text):
        raise NoSuchClass(
            f"A class code is {CODE_LENGTH} letters and digits (no 0, 1, I, L or O); "
            f"got {str(code)[:20]!r}."
        )
    return text


def check_owner(owner: Any) -> str:
    """``owner``, a client address as the server saw it (at most 64 characters; "" for
    none), or a ClassError."""
    if not isinstance(owner, str) or len(owner) > 64:
        raise ClassError(f"owner must be a client address; got {str(owner)[:20]!r}")
    return owner


class OwnerFull(ClassFull):
    """The address that asks already has ``Limits.classes_per_address`` open classes."""


def owner_full(n: int, minutes: float) -> OwnerFull:
    """The refusal when an address already has ``n`` open classes."""
    return OwnerFull(
        f"This device's network address already has {n} open classes, its limit "
        "(BOOSTLAB_MAX_CLASSES_PER_ADDRESS): end one of them (End class on its page, or "
        f"below), or wait: a class ends by itself {minutes:g} minutes after its teacher's "
        "page has gone."
    )


def check_round(round: Any) -> int | None:
    """``round`` when it is a round a class can be on (an integer from 0 to
    :data:`MAX_ROUND`) or None; a :class:`ClassError` naming the rule otherwise (a teacher's
    round of 3,900 digits was accepted and sent to every follower, issue 40, item 10).

    >>> check_round(3), check_round(None)
    (3, None)
    >>> try:
    ...     check_round(10**30)
    ... except ClassError as e:
    ...     print(e)
    round must be an integer from 0 to 1000000; got an integer of 31 digits
    """
    if round is None:
        return None
    if not isinstance(round, int) or isinstance(round, bool) or not 0 <= round <= MAX_ROUND:
        if isinstance(round, int) and abs(round) >= 10**12:
            got = f"an integer of {len(str(abs(round)))} digits"
        else:
            got = repr(round)[:40]
        raise ClassError(f"round must be an integer from 0 to {MAX_ROUND}; got {got}")
    return round


def check_student(student: Any) -> str:
    """``student`` if it is an id the store takes (what klass.js makes); else a ClassError."""
    return _student(student)


def _student(student: Any) -> str:
    text = str(student or "")
    if not (8 <= len(text) <= 64) or not all(c.isalnum() or c in "-_" for c in text):
        raise ClassError(
            "student must be the id the class page made (8-64 letters, digits, - or _); "
            f"got {text[:20]!r}"
        )
    return text


def clean_split(split: Any) -> dict[str, Any]:
    """A student's submitted split as the store keeps it: at most 20 fields, short names,
    finite numbers or short texts; a :class:`ClassError` naming the field otherwise (the page
    that reads it back validates its meaning: ``score_split`` and the like)."""
    if not isinstance(split, Mapping) or len(split) > 20:
        raise ClassError("split must be an object of at most 20 fields")
    clean = {}
    for name, value in split.items():
        if not isinstance(name, str) or len(name) > 40:
            raise ClassError(f"split field names are short strings; got {str(name)[:40]!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ClassError(f"split.{name} must be a number or a string; got {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ClassError(f"split.{name} must be finite; got {value!r}")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ClassError(f"split.{name} is longer than {MAX_TEXT} characters")
        clean[name] = value
    return clean


def query_pairs(query: Mapping[str, Any] | tuple) -> tuple[tuple[str, str], ...]:
    items = query.items() if isinstance(query, Mapping) else query
    out = []
    for k, v in items:
        values = v if isinstance(v, (list, tuple)) else [v]
        out += [(str(k), str(x)) for x in values]
    return tuple(out)


class ClassStore(Protocol):
    """What the routes and the pages do with classes. Teacher operations take the teacher
    key and raise :class:`NotTeacher` without it; a missing class raises
    :class:`NoSuchClass`; every refusal is a :class:`ClassError` and changes nothing."""

    limits: Limits

    async def open(
        self,
        key: str,
        page: str,
        query: Mapping[str, Any],
        round: int | None,
        owner: str = "",
    ) -> str:
        """Open a class taught with ``key`` from the client address ``owner`` (at most
        ``limits.classes_per_address`` open classes per address); its code."""
        ...

    async def state(self, code: str) -> ClassState:
        """The class as of now."""
        ...

    async def is_teacher(self, code: str, key: str | None) -> bool:
        """Whether ``key`` is the class's teacher key."""
        ...

    async def show(
        self,
        code: str,
        key: str | None,
        *,
        page: str | None = None,
        query: Mapping[str, Any] | None = None,
        round: int | None = None,
        predict: bool | None = None,
        mode: str | None = None,
    ) -> ClassState:
        """The teacher shows another page, query or round, turns predict-then-reveal on or
        off, or sets the page's ``mode`` (a JSON text of at most :data:`MAX_MODE` characters
        the pages read: "you are the weak learner" and its splits so far); the given ones
        change."""
        ...

    async def ask(self, code: str, key: str | None, question: Question | None) -> ClassState:
        """The teacher opens a question (its answers start empty) or closes it (None)."""
        ...

    async def reveal(
        self, code: str, key: str | None, correct: int, question: str | None = None
    ) -> ClassState:
        """The teacher reveals the open question's answer (``question``: the id it must
        have): the histogram is published."""
        ...

    async def answer(self, code: str, student: str, question: str, choice: int) -> ClassState:
        """A student's answer to the open question (replaces theirs until the reveal)."""
        ...

    async def my_answer(self, code: str, student: str, question: str) -> int | None:
        """The choice ``student`` gave to ``question`` (None: no answer)."""
        ...

    async def submit(self, code: str, student: str, split: Mapping[str, Any]) -> ClassState:
        """A student's split for the current leaf (replaces theirs)."""
        ...

    async def splits(self, code: str) -> list[dict[str, Any]]:
        """Every submitted split, oldest first (no student ids)."""
        ...

    async def clear_splits(self, code: str, key: str | None) -> ClassState:
        """The teacher starts a new collection of splits."""
        ...

    async def admit(self, code: str, address: str) -> str:
        """A new follower's id for the class, to a page at the client address ``address``
        ("" for this machine: no address budget), within ``limits.joins_per_address`` and
        ``limits.joins_per_class`` (:class:`ClassFull` past either)."""
        ...

    async def admitted(self, code: str, student: str) -> bool:
        """Whether ``student`` is an id :meth:`admit` gave for this class."""
        ...

    async def join(self, code: str, student: str) -> ClassState:
        """A student's page follows the class (a second tab of the same student counts once)."""
        ...

    async def leave(self, code: str, student: str) -> None:
        """A follower's page went away."""
        ...

    async def following(self, code: str, student: str) -> bool:
        """Whether ``student`` holds an open stream of the class now."""
        ...

    async def alive(self, code: str, key: str | None) -> None:
        """The teacher's page is still there (every teacher operation counts as well):
        the class is not abandoned (``limits.abandoned_minutes``)."""
        ...

    async def end(self, code: str, key: str | None) -> None:
        """The teacher ends the class for everyone."""
        ...

    def watch(self, code: str) -> AsyncIterator[ClassState]:
        """The class's state now, then each newer one (a slow reader skips to the newest);
        after the state that says ``ended`` the iterator stops."""
        ...


@dataclass
class _Class:
    code: str
    key_hash: str
    page: str
    query: tuple[tuple[str, str], ...]
    round: int | None
    seq: int = 1
    touched: float = field(default_factory=time.monotonic)
    question: Question | None = None
    answers: dict[str, int] = field(default_factory=dict)
    revealed: bool = False
    histogram: tuple[int, ...] = ()
    splits: dict[str, dict[str, Any]] = field(default_factory=dict)  # student → split
    students: dict[str, int] = field(default_factory=dict)  # student → open pages
    ended: bool = False
    predict: bool = False
    mode: str = ""
    owner: str = ""  # the client address that opened it (Limits.classes_per_address)
    joins: dict[str, int] = field(default_factory=dict)  # address → ids admitted
    joined: int = 0  # ids admitted in all
    seen: float = 0.0  # when the teacher's page was last heard of (Limits.abandoned_minutes)

    def snapshot(self) -> ClassState:
        return ClassState(
            code=self.code,
            page=self.page,
            query=self.query,
            round=self.round,
            seq=self.seq,
            students=len(self.students),
            question=self.question,
            answers=len(self.answers),
            revealed=self.revealed,
            histogram=self.histogram,
            submissions=len(self.splits),
            ended=self.ended,
            predict=self.predict,
            mode=self.mode,
        )


class Watcher:
    """One follower's wake-up call: an asyncio.Event of the follower's own loop, set from
    any thread."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()

    def wake(self) -> None:
        try:
            self.loop.call_soon_threadsafe(self.event.set)
        except RuntimeError:  # its loop is closed: the follower is gone
            pass


class MemoryStore:
    """The in-process class store (one server process). Thread-safe: the routes (event loop)
    and the Streamlit script threads share it; every change happens under one lock, and
    followers are woken through their own loop."""

    def __init__(self, limits: Limits | None = None, clock=time.monotonic) -> None:
        self.limits = limits or Limits()
        self._clock = clock
        self._lock = threading.Lock()
        self._classes: dict[str, _Class] = {}
        self._watchers: dict[str, set[Watcher]] = {}
        #: the last state of recently ended classes: a follower learns that its class ended
        self._ended: dict[str, ClassState] = {}
        self._tickets = Tickets(new_secret())

    # --------------------------------------------------------------------------- helpers
    def _expire(self) -> None:
        """Close classes idle for longer than the limit (called under the lock)."""
        now = self._clock()
        idle = self.limits.idle_hours * 3600
        gone = self.limits.abandoned_minutes * 60
        for code in [
            c for c, k in self._classes.items() if now - k.touched > idle or now - k.seen > gone
        ]:
            self._close(code)

    def _close(self, code: str) -> None:
        k = self._classes.pop(code)
        k.ended, k.seq = True, k.seq + 1
        self._ended[code] = k.snapshot()
        while len(self._ended) > 1000:
            del self._ended[next(iter(self._ended))]
        for w in self._watchers.get(code, ()):
            w.wake()

    def _get(self, code: str) -> _Class:
        self._expire()
        c = normal_code(code)
        k = self._classes.get(c)
        if k is None:
            raise NoSuchClass(
                f"No class {c} is open on this server: it has ended, or the server was "
                "restarted. Ask your teacher for the code."
            )
        return k

    def _teacher(self, code: str, key: str | None) -> _Class:
        k = self._get(code)
        if not key or not hmac.compare_digest(k.key_hash, key_hash(str(key))):
            raise NotTeacher(f"Only the teacher of class {k.code} can do that.")
        k.seen = self._clock()  # the teacher's page is there
        return k

    def _changed(self, k: _Class) -> ClassState:
        k.seq += 1
        k.touched = self._clock()
        for w in self._watchers.get(k.code, ()):
            w.wake()
        return k.snapshot()

    # ------------------------------------------------------------------------- interface
    async def open(
        self,
        key: str,
        page: str,
        query: Mapping[str, Any],
        round: int | None,
        owner: str = "",
    ) -> str:
        if not isinstance(key, str) or len(key) < 22:
            raise ClassError("key must be a teacher key from new_key() (at least 128 bits)")
        owner = check_owner(owner)
        with self._lock:
            self._expire()
            if len(self._classes) >= self.limits.classes:
                raise ClassFull(
                    f"This server already has {self.limits.classes} open classes, its limit "
                    "(BOOSTLAB_MAX_CLASSES). End a class or try again later."
                )
            mine = sum(k.owner == owner for k in self._classes.values())
            if owner and mine >= self.limits.classes_per_address:
                raise owner_full(self.limits.classes_per_address, self.limits.abandoned_minutes)
            code = new_code()
            while code in self._classes:
                code = new_code()
            self._classes[code] = _Class(
                code, key_hash(key), str(page), query_pairs(query), round, owner=owner
            )
            self._classes[code].touched = self._classes[code].seen = self._clock()
            return code

    async def state(self, code: str) -> ClassState:
        with self._lock:
            try:
                return self._get(code).snapshot()
            except NoSuchClass:
                ended = self._ended.get(normal_code(code))
                if ended is not None:
                    return ended
                raise

    async def is_teacher(self, code: str, key: str | None) -> bool:
        with self._lock:
            try:
                self._teacher(code, key)
            except NotTeacher:
                return False
            return True

    async def show(
        self, code, key, *, page=None, query=None, round=None, predict=None, mode=None
    ) -> ClassState:
        check_round(round)
        if mode is not None and (not isinstance(mode, str) or len(mode) > MAX_MODE):
            raise ClassError(f"mode must be a text of at most {MAX_MODE} characters")
        with self._lock:
            k = self._teacher(code, key)
            if page is not None:
                k.page = str(page)
            if query is not None:
                k.query = query_pairs(query)
            if round is not None or page is not None or query is not None:
                k.round = round
            if predict is not None:
                k.predict = bool(predict)
            if mode is not None:
                k.mode = mode
            return self._changed(k)

    async def ask(self, code, key, question) -> ClassState:
        if question is not None and (
            not isinstance(question, Question) or not 2 <= len(question.choices) <= 8
        ):
            raise ClassError(f"question must be a Question with 2-8 choices; got {question!r}")
        with self._lock:
            k = self._teacher(code, key)
            if question is not None:
                question = replace(question, correct=None)
            if question != k.question:
                k.question, k.answers, k.revealed, k.histogram = question, {}, False, ()
            return self._changed(k)

    async def reveal(self, code, key, correct: int, question: str | None = None) -> ClassState:
        with self._lock:
            k = self._teacher(code, key)
            q = k.question
            if q is None or (question is not None and q.id != question):
                raise ClassError("There is no open question to reveal.")
            if not isinstance(correct, int) or not 0 <= correct < len(q.choices):
                raise ClassError(
                    f"correct must be a choice index 0-{len(q.choices) - 1}; got {correct!r}"
                )
            counts = [0] * len(q.choices)
            for choice in k.answers.values():
                counts[choice] += 1
            k.question, k.revealed, k.histogram = replace(q, correct=correct), True, tuple(counts)
            return self._changed(k)

    async def answer(self, code, student, question, choice) -> ClassState:
        student = _student(student)
        with self._lock:
            k = self._get(code)
            q = k.question
            if q is None or q.id != question:
                raise ClassError("That question is closed: the teacher has moved on.")
            if k.revealed:
                raise ClassError("The answer is revealed: answers are closed.")
            if not isinstance(choice, int) or isinstance(choice, bool):
                raise ClassError(f"choice must be an integer; got {choice!r}")
            if not 0 <= choice < len(q.choices):
                raise ClassError(f"choice must be 0-{len(q.choices) - 1}; got {choice!r}")
            if student not in k.students:
                raise NotFollowing(not_following(k.code))
            if student not in k.answers and len(k.answers) >= self.limits.students:
                raise ClassFull(f"This question already has {self.limits.students} answers.")
            k.answers[student] = choice
            return self._changed(k)

    async def my_answer(self, code, student, question) -> int | None:
        with self._lock:
            k = self._get(code)
            if k.question is None or k.question.id != question:
                return None
            return k.answers.get(str(student))

    async def submit(self, code, student, split) -> ClassState:
        student = _student(student)
        clean = clean_split(split)
        with self._lock:
            k = self._get(code)
            if student not in k.splits and len(k.splits) >= self.limits.submissions:
                raise ClassFull(f"This class already has {self.limits.submissions} splits.")
            k.splits.pop(student, None)  # the newest is last
            k.splits[student] = clean
            return self._changed(k)

    async def splits(self, code) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(s) for s in self._get(code).splits.values()]

    async def clear_splits(self, code, key) -> ClassState:
        with self._lock:
            k = self._teacher(code, key)
            k.splits = {}
            return self._changed(k)

    async def admit(self, code, address) -> str:
        address = check_owner(address)
        with self._lock:
            k = self._get(code)
            if k.joined >= self.limits.joins_per_class:
                raise ClassFull(class_joins_full(k.code, self.limits.joins_per_class))
            n = k.joins.get(address, 0)
            if address and n >= self.limits.joins_per_address:
                raise ClassFull(address_joins_full(k.code, self.limits.joins_per_address))
            if address:
                k.joins[address] = n + 1
            k.joined += 1
            return self._tickets.issue(k.code)

    async def admitted(self, code, student) -> bool:
        return self._tickets.valid(normal_code(code), student)

    async def join(self, code, student) -> ClassState:
        student = _student(student)
        with self._lock:
            k = self._get(code)
            if student not in k.students and len(k.students) >= self.limits.students:
                raise ClassFull(
                    f"Class {k.code} is full: {self.limits.students} students follow it "
                    "(BOOSTLAB_MAX_STUDENTS)."
                )
            k.students[student] = k.students.get(student, 0) + 1
            return self._changed(k)

    async def leave(self, code, student) -> None:
        try:
            c = normal_code(code)  # as join found it (a lower-case code joined, then stayed)
        except ClassError:
            return
        with self._lock:
            k = self._classes.get(c)
            if k is None or student not in k.students:
                return
            k.students[student] -= 1
            if k.students[student] <= 0:
                del k.students[student]
            self._changed(k)

    async def following(self, code, student) -> bool:
        with self._lock:
            return str(student) in self._get(code).students

    async def alive(self, code, key) -> None:
        with self._lock:
            self._teacher(code, key)

    async def end(self, code, key) -> None:
        with self._lock:
            k = self._teacher(code, key)
            self._close(k.code)

    async def watch(self, code: str) -> AsyncIterator[ClassState]:  # type: ignore[override]
        c = normal_code(code)
        w = Watcher()
        with self._lock:
            self._watchers.setdefault(c, set()).add(w)
        try:
            seen = -1
            while True:
                w.event.clear()
                now = await self.state(c)
                if now.seq != seen:
                    seen = now.seq
                    yield now
                if now.ended:
                    return
                await w.event.wait()
        finally:
            with self._lock:
                self._watchers.get(c, set()).discard(w)
                if not self._watchers.get(c):
                    self._watchers.pop(c, None)


#: The process's class store: the routes and every page of this server process share it (the
#: server's start puts it on Redis when ``BOOSTLAB_REDIS_URL`` is set: ``routes.lifespan``).
STORE: ClassStore = MemoryStore(limits_from_env())


def run(coro: Awaitable[T]) -> T:
    """Run a store call from a Streamlit script thread (no event loop of its own)."""
    return asyncio.run(_await(coro))


async def _await(coro: Awaitable[T]) -> T:
    return await coro
