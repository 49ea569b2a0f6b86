"""Issue 40's attacks, replayed: what one student's script gets, and what a real student and
the teacher still get meanwhile.

    .venv/bin/python benchmarks/bench_attacks.py            # every row (2.5 min on 2 cores)
    .venv/bin/python benchmarks/bench_attacks.py --quick    # smaller counts, shorter waits
    .venv/bin/python benchmarks/bench_attacks.py --only 2,5,h10k   # some rows (ids below)
    .venv/bin/python benchmarks/bench_attacks.py --no-hall  # the single process only

(``--quick`` saves little: the hall's rows mostly wait for a leave behind HAProxy.) A run of
every row, quick or not, writes the table to ``benchmarks/results/attacks.md`` (the note under
it names the command); ``--only``, ``--no-hall`` and ``--no-single`` only print it.

Loopback only, every loop bounded in count and time. Two targets, started here and stopped at
the end (``try``/``finally``):

* **one process**: ``streamlit run serve.py`` on 127.0.0.1 and a free port (what ``make
  serve`` runs; its stdout and stderr go to a file whose growth is the "log bytes"). Its
  class is opened by a headless Chromium teacher page (``/topdown?present=true``, *Teach a
  class*, then *Predict, then reveal*, which opens the class's question); the teacher key is
  read from the page's ``sessionStorage`` (klass.js keeps it there).
* **the hall**: ``scripts/hall.py``'s ``Hall`` (Redis, 2 app processes, HAProxy in front);
  its class is opened on the hall's Redis directly, as ``benchmarks/bench_hall.py`` does.

The attacker and every real student are raw asyncio HTTP clients (HTTP/1.1, one connection
per request, a follower's stream held open as ``benchmarks/bench_teach.py``'s ``Followers``
holds it). Each poses as a client address with ``X-Forwarded-For`` (127.0.0.1 is a trusted
proxy): the attacker is 203.0.113.x (TEST-NET-3), real students 198.51.100.x (TEST-NET-2),
one address each. Through the hall, HAProxy appends the peer (127.0.0.1) and uvicorn's own
proxy-header handling takes the rightmost address it does not trust, i.e. the posed one; row
h3 checks that the app really counts the posed address there.

Every attack row also runs a **probe** (during the attack where the attack holds something
open or is a burst): a health check (``GET /_stcore/health``), a page load (a Streamlit
session of /topdown over its websocket: connect → script finished, ``load_check.
open_session``), a new real student from an address of its own (join, follow, answer the open
question: the answer's latency, and whether the class counts it) and the teacher's step
(``POST …/round`` with the key, as the teacher's page sends it: until the student's stream
shows the round).

Rows (``--only`` takes these ids): one process 1 classes, 2 made-up ids, 3 join flood,
4 ghost followers (and how soon a real leave is counted), 5 stream flood, 5b the class filled
from one address, 6 slow clients, 7 nested ``[`` and a lone surrogate, 8 four 128 MB bodies,
9 wrong codes behind a school's address, 11 headers; the hall h3 join flood from a posed
address, h2 made-up ids, h4 ghosts (Redis; a real leave through HAProxy and straight to a
process), h7 nested ``[`` (Redis), h11 headers, h10k SIGKILL during answers, h10s SIGSTOP.
Each row also says how many bytes the server's log grew meanwhile. A row is a function
``row_…(target) -> Row``; add one to ``SINGLE_ROWS`` or ``HALL_ROWS``.

Progress goes to stderr: which row, what it waits for.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
import load_check as lc  # noqa: E402  (open_session: a page load over Streamlit's websocket)

CHROMIUM = "/usr/bin/chromium"
RESULTS = BENCH / "results" / "attacks.md"
#: The attacker's addresses (TEST-NET-3; one per attack, so one row's refusals do not leak
#: into the next) and the school's (many students behind one NAT).
ATTACKER = "203.0.113.66"
SCHOOL = "203.0.113.70"
#: The page a probe loads (a Streamlit session: connect → script finished).
PAGE = lc.PageSpec("topdown", "", "Top-down growth", "grow")
#: What a follower's page waits before it opens its stream again (klass.js, classStream:
#: 3 s), and between tries of an answer (klass.js, ANSWER_WAIT_MS).
RECONNECT_S = 3.0
#: How long the hall's rows wait for followers that left to be counted out: through HAProxy
#: the app hears of a closed stream only when it next writes to it (an event, or the
#: keep-alive: ``routes.KEEPALIVE``, 15 s after the last), so twice that and some.
LEAVE_WAIT_HALL = 35.0
ANSWER_WAIT_S = (0.3, 0.6, 1.2, 2.5, 5.0)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SECURITY = (
    "referrer-policy",
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
)

T_START = time.monotonic()


def log(msg: str) -> None:
    print(f"[{time.monotonic() - T_START:6.1f} s] {msg}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- numbers


def ms(seconds: float) -> str:
    return "—" if seconds != seconds else f"{1000 * seconds:.0f} ms"


def sec(seconds: float, digits: int = 1) -> str:
    return "—" if seconds != seconds else f"{seconds:.{digits}f} s"


def pct(values: list[float], q: float) -> float:
    s = sorted(v for v in values if v == v)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


def counts(values) -> str:
    """``[200, 200, 429]`` → ``"2 × 200, 1 × 429"`` (0: no reply)."""
    c = Counter(values)
    return ", ".join(f"{n} × {k if k else 'no reply'}" for k, n in sorted(c.items(), key=str))


def proc_status(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of ``pid`` (MiB; Linux /proc)."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return out


def rss(pid: int) -> float:
    return proc_status(pid).get("VmRSS", float("nan"))


def open_files_limit(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
    except (OSError, ValueError, IndexError):
        pass
    return None


def wrong_code() -> str:
    return "".join(random.choice(CODE_ALPHABET) for _ in range(6))


def forged_id() -> str:
    """An id shaped like the class's (``f-`` + 16 hex + ``-`` + 24 hex), signed by no one."""
    return f"f-{secrets.token_hex(8)}-{secrets.token_hex(12)}"


# ------------------------------------------------------------------------ the network


class Net:
    """An asyncio loop on a thread of its own: the clients run there while Playwright's sync
    API holds the main thread's (as ``bench_teach.Followers`` does)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Awaitable, timeout: float, tick: Callable[[], Any] | None = None):
        """``coro``'s result (waited for at most ``timeout`` s; ``tick()`` every 0.5 s
        meanwhile, e.g. the hall's supervision)."""
        fut = asyncio.run_coroutine_threadsafe(coro, self.loop)
        deadline = time.monotonic() + timeout
        while True:
            try:
                return fut.result(timeout=0.5)
            except TimeoutError:
                if time.monotonic() > deadline:
                    fut.cancel()
                    raise TimeoutError(f"no result within {timeout:.0f} s") from None
                if tick is not None:
                    tick()

    def close(self) -> None:
        async def stop() -> None:
            mine = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in mine:
                task.cancel()
            await asyncio.gather(*mine, return_exceptions=True)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(stop(), self.loop).result(15)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


NET: Net | None = None


def aio(coro: Awaitable, timeout: float = 180.0, tick=None):
    assert NET is not None
    return NET.run(coro, timeout, tick)


@dataclass
class Reply:
    status: int  # 0: no reply (see error)
    seconds: float
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    error: str = ""

    def json(self) -> dict:
        try:
            out = json.loads(self.body.decode(errors="replace") or "{}")
        except ValueError:
            return {}
        return out if isinstance(out, dict) else {}

    @property
    def said(self) -> str:
        return str(self.json().get("error", ""))


def dechunk(data: bytes) -> bytes:
    out, rest = bytearray(), data
    while rest:
        line, _, rest = rest.partition(b"\r\n")
        try:
            size = int(line.split(b";")[0].strip() or b"0", 16)
        except ValueError:
            break
        if size == 0:
            break
        out += rest[:size]
        rest = rest[size + 2 :]
    return bytes(out)


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ", 2)[1])
    except (IndexError, ValueError):
        status = 0
    headers: dict[str, str] = {}
    for h in lines[1:]:
        name, _, value = h.partition(":")
        headers.setdefault(name.strip().lower(), value.strip())
    return status, headers


def head_lines(port: int, method: str, path: str, headers: dict[str, str]) -> bytes:
    text = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    text += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return (text + "\r\n").encode("latin-1")


async def request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 15.0,
) -> Reply:
    """One request on a connection of its own (``Connection: close``)."""
    h = {"Connection": "close", **(headers or {})}
    if body is not None:
        h["Content-Length"] = str(len(body))
    t0 = time.perf_counter()
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(head_lines(port, method, path, h) + (body or b""))
            await writer.drain()
            raw = await reader.read()
    except TimeoutError:
        return Reply(0, time.perf_counter() - t0, error="timeout")
    except OSError as e:
        return Reply(0, time.perf_counter() - t0, error=type(e).__name__)
    finally:
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - t0
    head, _, rest = raw.partition(b"\r\n\r\n")
    status, hdrs = parse_head(head)
    if "chunked" in hdrs.get("transfer-encoding", "").lower():
        rest = dechunk(rest)
    return Reply(status, seconds, hdrs, rest, "" if status else "no reply")


async def post_json(port: int, path: str, obj: Any, xff: str | None = None, timeout=15.0) -> Reply:
    headers = {"Content-Type": "application/json"}
    if xff:
        headers["X-Forwarded-For"] = xff
    return await request(port, "POST", path, json.dumps(obj).encode(), headers, timeout)


async def burst(
    n: int, limit: int, make: Callable[[int], Awaitable], progress: list[int] | None = None
):
    """``make(0..n-1)``, at most ``limit`` at once; ``progress[0]`` counts those done."""
    sem = asyncio.Semaphore(limit)
    progress = progress if progress is not None else [0]

    async def one(i: int):
        async with sem:
            out = await make(i)
            progress[0] += 1
            return out

    return await asyncio.gather(*(one(i) for i in range(n)))


async def until(condition: Callable[[], bool], timeout: float, poll: float = 0.02) -> float:
    """Seconds until ``condition()`` holds; nan when it did not within ``timeout``."""
    t0 = time.monotonic()
    while True:
        if condition():
            return time.monotonic() - t0
        if time.monotonic() - t0 > timeout:
            return float("nan")
        await asyncio.sleep(poll)


class Stream:
    """A follower's event stream (``GET /api/class/<code>/events``), held open: ``state`` is
    the newest event's JSON; ``ended`` is set when the connection ends."""

    def __init__(self) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.state: dict | None = None
        self.events = 0
        self.error = ""
        self.opened = float("nan")
        self.closed_at: float | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task | None = None
        self._changed = asyncio.Event()

    @property
    def server(self) -> str:
        return self.headers.get("x-boostlab-server", "")

    @property
    def alive(self) -> bool:
        return self._task is not None and not self._task.done()

    async def open(
        self,
        port: int,
        code: str,
        student: str | None = None,
        xff: str | None = None,
        timeout: float = 10.0,
        drop: str = "",
    ) -> Stream:
        """Open it; ``drop="at once"`` closes the connection right after the request is
        written, ``drop="after head"`` right after the reply's head (a ghost follower)."""
        path = f"/api/class/{code}/events" + (f"?student={student}" if student else "")
        headers = {"Accept": "text/event-stream"}
        if xff:
            headers["X-Forwarded-For"] = xff
        t0 = time.perf_counter()
        try:
            async with asyncio.timeout(timeout):
                reader, self._writer = await asyncio.open_connection("127.0.0.1", port)
                self._writer.write(head_lines(port, "GET", path, headers))
                await self._writer.drain()
                if drop == "at once":
                    self.close()
                    return self
                head = await reader.readuntil(b"\r\n\r\n")
                self.status, self.headers = parse_head(head)
                self.opened = time.perf_counter() - t0
                if self.status != 200 or drop:
                    if self.status != 200:
                        with contextlib.suppress(Exception):
                            async with asyncio.timeout(2):
                                body = await reader.read(4096)
                            if "chunked" in self.headers.get("transfer-encoding", ""):
                                body = dechunk(body)
                            self.error = json.loads(body or b"{}").get("error", "")
                    self.close()
                    return self
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as e:
            self.error = type(e).__name__
            self.close()
            return self
        chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
        self._task = asyncio.ensure_future(self._read(reader, chunked))
        return self

    async def _read(self, reader: asyncio.StreamReader, chunked: bool) -> None:
        buf = b""
        try:
            while True:
                if chunked:
                    line = await reader.readline()
                    if not line:
                        return
                    if not line.strip():
                        continue
                    size = int(line.split(b";")[0].strip(), 16)
                    if size == 0:
                        return
                    data = (await reader.readexactly(size + 2))[:size]
                else:
                    data = await reader.read(65536)
                    if not data:
                        return
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if line.startswith(b"data: "):
                        self.state = json.loads(line[6:])
                        self.events += 1
                        self._changed.set()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            return
        finally:
            self.closed_at = time.monotonic()
            self._changed.set()

    async def wait_for(self, pred: Callable[[dict], bool], timeout: float) -> float:
        """Seconds until an event's state satisfies ``pred`` (nan: not within ``timeout``,
        or the stream ended)."""
        t0 = time.monotonic()
        while True:
            if self.state is not None and pred(self.state):
                return time.monotonic() - t0
            left = timeout - (time.monotonic() - t0)
            if left <= 0 or not self.alive:
                return float("nan")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    def close(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        if self._task is not None:
            self._task.cancel()


class Follower:
    """A real follower: its id from ``…/join`` and its stream, opened again ``RECONNECT_S``
    after it ends (as the page's EventSource does); ``student=False`` is the teacher's kind
    of stream (no id: it counts no one)."""

    def __init__(self, port: int, code: str, address: str | None, student: bool = True) -> None:
        self.port, self.code, self.address, self.is_student = port, code, address, student
        self.id = ""
        self.join: Reply | None = None
        self.stream: Stream | None = None
        self.history: list[tuple[float, str, int]] = []  # (opened at, server, status)
        self.cuts: list[float] = []  # when a stream of it ended
        self.said = ""  # the last refusal's sentence
        self._task: asyncio.Task | None = None
        self._stop = False

    async def start(self, timeout: float = 15.0) -> Follower:
        if self.is_student:
            self.join = await post_json(self.port, f"/api/class/{self.code}/join", {}, self.address)
            if self.join.status != 200:
                return self
            self.id = self.join.json().get("student", "")
        self._task = asyncio.ensure_future(self._keep())
        await until(
            lambda: self.following or self._stop or (self.history and self.history[-1][2] != 200),
            timeout,
        )
        return self

    async def _keep(self) -> None:
        while not self._stop:
            s = await Stream().open(self.port, self.code, self.id or None, self.address)
            self.history.append((time.monotonic(), s.server, s.status))
            self.said = s.error
            if s.status == 200:
                self.stream = s
                with contextlib.suppress(Exception):
                    await s._task
                self.cuts.append(time.monotonic())
            if self._stop:
                return
            await asyncio.sleep(RECONNECT_S)

    @property
    def following(self) -> bool:
        return self.stream is not None and self.stream.alive and self.stream.state is not None

    @property
    def state(self) -> dict:
        return (self.stream.state if self.stream else None) or {}

    async def wait_for(self, pred, timeout: float) -> float:
        """As :meth:`Stream.wait_for`, across reconnections."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            s = self.stream
            if s is not None and s.alive:
                got = await s.wait_for(pred, min(1.0, timeout - (time.monotonic() - t0)))
                if got == got:
                    return time.monotonic() - t0
            else:
                await asyncio.sleep(0.05)
        return float("nan")

    def close(self) -> None:
        self._stop = True
        if self._task is not None:
            self._task.cancel()
        if self.stream is not None:
            self.stream.close()


def close_all(followers: list[Follower | None]) -> None:
    """Close followers from the main thread: on the clients' loop (a transport is closed
    on its own loop), then until their streams have ended (≤ 5 s)."""

    async def go() -> None:
        fs = [f for f in followers if f is not None]
        for f in fs:
            f.close()
        await until(lambda: all(f.stream is None or not f.stream.alive for f in fs), 5)

    with contextlib.suppress(Exception):
        aio(go(), 15)


async def answer_until_acked(
    port: int, code: str, f: Follower, qid: str, choice: int, within: float = 30.0
) -> dict:
    """A student's answer sent as the page sends it (klass.js, sendAnswer): tried again on
    no reply, 429, 502, 503, 504 and 403 (its stream reconnecting; an id the class did not
    give: it joins again), waits of 0.3-5 s, until acknowledged or ``within`` s."""
    t0, tries, seen = time.monotonic(), 0, []
    out = {
        "acked": False,
        "refused": "",
        "statuses": seen,
        "first_sent": None,
        "seconds": float("nan"),
    }
    while time.monotonic() - t0 < within:
        if out["first_sent"] is None:
            out["first_sent"] = time.monotonic()
        r = await post_json(
            port,
            f"/api/class/{code}/answer",
            {"student": f.id, "question": qid, "choice": choice},
            f.address,
            timeout=max(1.0, min(15.0, within - (time.monotonic() - t0))),
        )
        seen.append(r.status or r.error)
        if r.status == 200:
            out["acked"], out["seconds"] = True, time.monotonic() - t0
            return out
        if r.status in (400, 404, 413, 415):
            out["refused"] = f"{r.status} {r.said[:80]}"
            return out
        if r.status == 403 and "not given" in r.said:
            j = await post_json(port, f"/api/class/{code}/join", {}, f.address)
            if j.status == 200:
                f.id = j.json().get("student", f.id)
        await asyncio.sleep(ANSWER_WAIT_S[min(tries, len(ANSWER_WAIT_S) - 1)])
        tries += 1
    return out


# --------------------------------------------------------------------------- targets


@dataclass
class Target:
    """What the attacks run against: one process or the hall."""

    name: str
    port: int
    code: str
    key: str
    pids: Callable[[], list[int]]
    log_bytes: Callable[[], int]
    args: argparse.Namespace
    watcher: Follower | None = None
    followers: list[Follower] = field(default_factory=list)
    browser: Any = None
    extra: dict = field(default_factory=dict)
    #: how long a probe waits for its student to be counted out once it left (0: not at all;
    #: through HAProxy a leave is heard only at the stream's next keep-alive, row h4)
    leave_wait: float = 10.0
    _next: int = 20

    def address(self) -> str:
        """A fresh real student's address (198.51.100.x)."""
        self._next += 1
        return f"198.51.100.{self._next}"

    @property
    def state(self) -> dict:
        return self.watcher.state if self.watcher else {}

    def rss(self) -> str:
        return " + ".join(f"{rss(p):.0f}" for p in self.pids()) + " MiB"


@dataclass
class Probe:
    health: Reply | None = None
    page: float = float("nan")
    page_error: str = ""
    join: int = 0
    follow: int = 0
    follow_said: str = ""
    answer: Reply | None = None
    counted: bool = False
    step: Reply | None = None
    step_seen: float = float("nan")
    left: float | None = None
    note: str = ""

    def text(self) -> str:
        parts = []
        if self.health is not None:
            h = self.health
            parts.append(f"health {h.status or h.error} in {ms(h.seconds)}")
        if self.page == self.page:
            parts.append(f"page load {sec(self.page, 2)}")
        elif self.page_error:
            parts.append(f"page load failed: {self.page_error[:60]}")
        if self.join:
            s = f"a new student joins {self.join}"
            if self.follow:
                s += f", follows {self.follow}"
                if self.follow != 200 and self.follow_said:
                    s += f" (“{self.follow_said[:60]}…”)"
            if self.answer is not None:
                a = self.answer
                s += f", answers {a.status or a.error} in {ms(a.seconds)}"
                s += ", counted" if self.counted else ", NOT counted"
            if self.left is not None:
                s += (
                    f", counted out {ms(self.left)} after it left"
                    if self.left == self.left
                    else ", NOT counted out within the wait after it left"
                )
            parts.append(s)
        if self.step is not None:
            parts.append(
                f"teacher's step {self.step.status or self.step.error} in {ms(self.step.seconds)}"
                + (f", at the student {ms(self.step_seen)}" if self.follow == 200 else "")
            )
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)


async def probe(t: Target, page: bool = True, xff: str | None = None) -> Probe:
    """What a real student and the teacher get now (see the module docstring)."""
    p = Probe()
    p.health = await request(t.port, "GET", "/_stcore/health", timeout=15)
    if page:
        res, ws = await lc.open_session(t.port, PAGE, "", timeout=60)
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if res.ok:
            p.page = res.latency
        else:
            p.page_error = res.error
    before = t.state.get("students", 0)
    f = await Follower(t.port, t.code, xff or t.address()).start()
    try:
        p.join = f.join.status if f.join else 0
        p.follow = f.history[-1][2] if f.history else 0
        p.follow_said = f.said
        q = (f.state or t.state).get("question")
        if f.following and q:
            p.answer = await post_json(
                t.port,
                f"/api/class/{t.code}/answer",
                {"student": f.id, "question": q["id"], "choice": 1},
                f.address,
            )
            if p.answer.status == 200:
                n = p.answer.json().get("answers", 10**9)
                got = await f.wait_for(lambda s: s.get("answers", 0) >= n, 5)
                p.counted = got == got  # the class's stream shows the count that includes it
        elif f.following:
            p.note = "no open question"
        now = f.state.get("round")
        to = 1 if now != 1 else 2
        t0 = time.monotonic()
        p.step = await post_json(t.port, f"/api/class/{t.code}/round", {"key": t.key, "round": to})
        if p.step.status == 200 and f.following:
            seen = await f.wait_for(lambda s: s.get("round") == to, 10)
            p.step_seen = time.monotonic() - t0 if seen == seen else float("nan")
    finally:
        f.close()
    if p.follow == 200 and t.watcher is not None and t.leave_wait:
        p.left = await until(lambda: t.state.get("students", 0) <= before, t.leave_wait)
    return p


async def leave_lag(t: Target, port: int, n: int = 5) -> float:
    """``n`` real students follow (on ``port``), then close their streams at once: the
    seconds until the class counts them out (nan: not within ``LEAVE_WAIT_HALL``)."""
    base = t.state.get("students", 0)
    crowd = [await Follower(port, t.code, t.address()).start() for _ in range(n)]
    await until(lambda: t.state.get("students", 0) >= base + n, 10)
    t0 = time.monotonic()
    for f in crowd:
        f.close()
    got = await until(lambda: t.state.get("students", 0) <= base, LEAVE_WAIT_HALL)
    return got if got != got else time.monotonic() - t0


async def state_now(t: Target) -> dict:
    """The class as of now: the first event of a new stream (no id: it counts no one)."""
    s = await Stream().open(t.port, t.code)
    await s.wait_for(lambda _: True, 10)
    s.close()
    return s.state or {}


async def probe_during(t: Target, progress: list[int], start_at: int, page: bool = True) -> Probe:
    """The probe, once the attack has made ``start_at`` requests (bounded: 30 s)."""
    await until(lambda: progress[0] >= start_at, 30)
    return await probe(t, page)


# ----------------------------------------------------------------------------- rows


def server_constants() -> dict[str, float]:
    """The server's own bounds, read from its code (the budget column follows them)."""
    out: dict[str, float] = {"BODY_SECONDS": 10.0, "MAX_BODY": 4096, "MAX_DEPTH": 4}
    with contextlib.suppress(Exception):
        import ui.classroom.routes as routes

        for name in ("BODY_SECONDS", "MAX_BODY", "MAX_DEPTH", "KEEPALIVE"):
            if hasattr(routes, name):
                out[name] = getattr(routes, name)
    with contextlib.suppress(Exception):
        from ui.classroom import deadline

        out["HEAD_SECONDS"] = deadline.HEAD_SECONDS
    return out


@dataclass
class Row:
    attack: str
    budget: str
    attacker: str
    kept: str


def n_of(args, full: int, quick: int) -> int:
    return quick if args.quick else full


# -- 1 -------------------------------------------------------------------------------
def open_class_page(browser, base: str, xff: str | None, path: str = "/topdown"):
    """A Chromium page of ``path`` that presses *Teach a class*: ``(context, page, code,
    key, seconds from the press to the code or the refusal, refusal)``."""
    headers = {"X-Forwarded-For": xff} if xff else {}
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000}, extra_http_headers=headers)
    page = ctx.new_page()
    page.goto(base + path, timeout=120_000)
    button = page.get_by_role("button", name="Teach a class")
    button.wait_for(timeout=120_000)
    t0 = time.monotonic()
    button.click()
    page.locator(
        ".st-key-class-code, [data-testid=stAlert]:has-text('open classes')"
    ).first.wait_for(timeout=60_000)
    seconds = time.monotonic() - t0
    if page.locator(".st-key-class-code").count():
        code = re.search(r"([A-Z2-9]{6})", page.locator(".st-key-class-code").inner_text()).group(1)
        page.wait_for_function(
            "c => (JSON.parse(sessionStorage.getItem('boostlab-teaching') || 'null') || {})"
            ".code === c",
            arg=code,
            timeout=30_000,
        )
        key = page.evaluate("JSON.parse(sessionStorage.getItem('boostlab-teaching')).key")
        return ctx, page, code, key, seconds, ""
    refusal = page.locator("[data-testid=stAlert]:has-text('open classes')").first.inner_text()
    return ctx, page, None, None, seconds, refusal


def row_classes(t: Target) -> Row:
    n = n_of(t.args, 5, 4)
    base = f"http://127.0.0.1:{t.port}"
    opened, refused, times, ctxs = 0, [], [], []
    try:
        for i in range(n):
            log(f"[1] attacker's Teach a class {i + 1}/{n} (X-Forwarded-For {ATTACKER})")
            ctx, _, code, _, seconds, refusal = open_class_page(t.browser, base, ATTACKER)
            ctxs.append(ctx)
            times.append(seconds)
            opened += code is not None
            if refusal:
                refused.append(refusal)
        other = t.address()
        log(f"[1] a real teacher at {other} presses Teach a class")
        ctx, _, code, _, seconds, refusal = open_class_page(t.browser, base, other)
        ctxs.append(ctx)
    finally:
        for c in ctxs:
            with contextlib.suppress(Exception):
                c.close()
    words = f" (“{refused[0][:90]}…”)" if refused else ""
    return Row(
        f"**{t.name}** · 1. classes from one address: {n} × *Teach a class* in Chromium pages "
        f"posing as {ATTACKER}",
        "3 open classes per address (`BOOSTLAB_MAX_CLASSES_PER_ADDRESS`), 50 per server "
        "(`BOOSTLAB_MAX_CLASSES`)",
        f"{opened} of {n} opened; {len(refused)} refused in words{words}",
        f"a real teacher at another address ({other}): "
        + (
            f"class {code} opened, {sec(seconds, 2)} from the press"
            if code
            else f"REFUSED: {refusal[:80]}"
        ),
    )


# -- 2 -------------------------------------------------------------------------------
async def _made_up(t: Target, n_answers: int, n_streams: int, xff: str) -> dict:
    """First the made-up streams (held while the class is read), then the made-up answers
    with the probe among them; the class is read before, between and after."""
    q = t.state.get("question") or {}
    before = await state_now(t)
    streams = await asyncio.gather(
        *(Stream().open(t.port, t.code, forged_id(), xff) for _ in range(n_streams))
    )
    with_streams = await state_now(t)
    for s in streams:
        s.close()
    progress = [0]

    async def answer(i: int) -> Reply:
        return await post_json(
            t.port,
            f"/api/class/{t.code}/answer",
            {
                "student": forged_id() if i % 5 else f"s-{secrets.token_hex(6)}",
                "question": q.get("id"),
                "choice": i % 4,
            },
            xff,
        )

    during = asyncio.ensure_future(probe_during(t, progress, n_answers // 10))
    replies = await burst(n_answers, 50, answer, progress)
    p = await during
    after = await state_now(t)
    return {
        "replies": replies,
        "streams": streams,
        "before": before,
        "with_streams": with_streams,
        "after": after,
        "probe": p,
    }


def row_made_up(t: Target) -> Row:
    n, m = n_of(t.args, 500, 200), 20
    xff = "203.0.113.67" if t.name == "one process" else "203.0.113.87"
    log(f"[2] {m} streams, then {n} answers, under made-up ids from {xff}")
    out = aio(_made_up(t, n, m, xff), 120)
    replies, streams, p = out["replies"], out["streams"], out["probe"]
    said = Counter(r.said[:60] for r in replies if r.status != 200).most_common(1)
    b, w, a = out["before"], out["with_streams"], out["after"]
    forged = a.get("answers", 0) - b.get("answers", 0) - int(p.counted)
    return Row(
        f"**{t.name}** · 2. made-up ids: {m} event streams, then {n} answers, under ids the "
        "class did not give (forged `f-…` and old-style `s-…`)",
        "an id counts only if the class gave it (`POST …/join`, signed) and, for an answer, "
        "only while it holds an open stream",
        f"streams: {counts(s.status for s in streams)} (the class's students "
        f"{b.get('students')} → {w.get('students')} while they were tried); answers: "
        f"{counts(r.status for r in replies)}"
        + (f" (“{said[0][0]}…”)" if said else "")
        + f"; answers the class counted from them: {forged}",
        f"{p.text()}; the class counts {w.get('students')} students: its real ones",
    )


# -- 3 -------------------------------------------------------------------------------
def row_join_flood(t: Target) -> Row:
    n = n_of(t.args, 700, 650)
    xff = "203.0.113.68"
    log(f"[3] {n} joins from {xff}")

    async def go():
        progress = [0]
        during = asyncio.ensure_future(probe_during(t, progress, n // 2))
        t0 = time.monotonic()
        replies = await burst(
            n, 50, lambda i: post_json(t.port, f"/api/class/{t.code}/join", {}, xff), progress
        )
        took = time.monotonic() - t0
        same = await post_json(t.port, f"/api/class/{t.code}/join", {}, xff)
        return replies, took, same, await during

    replies, took, same, p = aio(go(), 120)
    given = sum(r.status == 200 for r in replies)
    return Row(
        f"**{t.name}** · 3. join flood: {n} joins from one address ({xff})",
        "600 ids per address per class (`BOOSTLAB_MAX_JOINS_PER_ADDRESS`), 2,000 per class "
        "(`BOOSTLAB_MAX_JOINS_PER_CLASS`)",
        f"{given} ids given, {counts(r.status for r in replies if r.status != 200)} refused, "
        f"in {sec(took)}; one more from that address: {same.status}",
        p.text() + " (a new student behind the attacker's own address is refused too: the budget "
        "is the address's)",
    )


# -- 4 -------------------------------------------------------------------------------
def row_ghosts(t: Target) -> Row:
    n = n_of(t.args, 500, 200)
    xff = "203.0.113.69" if t.name == "one process" else "203.0.113.89"
    log(f"[4] {n} joins from {xff}, then {n} streams with the code in lower case, dropped at once")

    async def go():
        ids = [
            r.json().get("student", "")
            for r in await burst(
                n, 50, lambda i: post_json(t.port, f"/api/class/{t.code}/join", {}, xff)
            )
        ]
        ids = [i for i in ids if i]
        real = sum(f.following for f in t.followers)
        log(f"[4] first the class counts its {real} real followers (≤ 15 s)")
        settled = await until(lambda: t.state.get("students") == real, 15)
        if settled != settled:
            log(f"[4] it counts {t.state.get('students')}, not {real}; the burst starts anyway")
        peak = [real]

        async def watch():
            while True:
                peak[0] = max(peak[0], t.state.get("students", 0))
                await asyncio.sleep(0.01)

        w = asyncio.ensure_future(watch())
        t0 = time.monotonic()
        streams = await burst(
            len(ids),
            50,
            lambda i: Stream().open(
                t.port, t.code.lower(), ids[i], xff, drop="at once" if i % 2 == 0 else "after head"
            ),
        )
        burst_s = time.monotonic() - t0
        log(f"[4] waiting until the class counts its {real} real students again (at most 20 s)")
        back = await until(lambda: t.state.get("students") == real, 20)
        left = t.state.get("students")
        w.cancel()
        p = await probe(t, page=False)
        lags = {"": await leave_lag(t, t.port)}
        if "hall" in t.extra:
            lags[" (straight to app1, not through HAProxy)"] = await leave_lag(
                t, t.extra["hall"].piece("app1").port
            )
        return ids, streams, real, peak[0], burst_s, back, left, p, lags

    ids, streams, real, peak, burst_s, back, left, p, lags = aio(go(), 240)
    lag_text = "; ".join(
        f"5 real students close their streams{how}: counted out after {sec(lag, 2)}"
        if lag == lag
        else f"5 real students close their streams{how}: NOT all counted out within "
        f"{LEAVE_WAIT_HALL:.0f} s"
        for how, lag in lags.items()
    )
    after = [s.status for s in streams if s.status]
    return Row(
        f"**{t.name}** · 4. ghost followers: {len(ids)} admitted ids open a stream with the "
        "code in lower case and drop it (half at once, half after the reply's head)",
        "a stream that closes is counted out (even before its first byte); 500 students per "
        "class (`BOOSTLAB_MAX_STUDENTS`)",
        f"{len(ids)} ids, streams in {sec(burst_s)}: {counts(after)} (the rest dropped before "
        f"the reply); the class's count peaked at {peak} students",
        f"back to its {real} real students "
        + (f"{sec(back, 2)} after the burst" if back == back else f"NOT within 20 s (still {left})")
        + f"; {lag_text}; {p.text()}",
    )


# -- 5 -------------------------------------------------------------------------------
def row_stream_flood(t: Target) -> Row:
    n = n_of(t.args, 1000, 700)
    xff = "203.0.113.71"
    pid = t.pids()[0]
    limit = open_files_limit(pid)
    log(f"[5] {n} streams from {xff}")

    async def go():
        rss0 = rss(pid)
        t0 = time.monotonic()
        streams = await burst(
            n, 100, lambda i: Stream().open(t.port, t.code, None, xff, timeout=20)
        )
        took = time.monotonic() - t0
        held = [s for s in streams if s.status == 200]
        log(f"[5] {len(held)} held; probing while they are held")
        rss1 = rss(pid)
        p = await probe(t)
        extra = await Stream().open(t.port, t.code, None, xff)
        extra.close()
        for s in held:
            s.close()
        log("[5] streams closed; waiting until the address may open one again (at most 15 s)")
        ok = [False]

        async def try_again():
            s = await Stream().open(t.port, t.code, None, xff)
            s.close()
            return s.status == 200

        t1 = time.monotonic()
        while time.monotonic() - t1 < 15 and not ok[0]:
            ok[0] = await try_again()
            if not ok[0]:
                await asyncio.sleep(0.1)
        freed = time.monotonic() - t1 if ok[0] else float("nan")
        return streams, took, p, rss0, rss1, extra.status, freed

    streams, took, p, rss0, rss1, extra, freed = aio(go(), 240)
    refused = [s for s in streams if s.status != 200]
    said = Counter(s.error[:50] for s in refused if s.error).most_common(1)
    total = f"{limit - 200:,}" if limit else "?"
    return Row(
        f"**{t.name}** · 5. stream flood: {n} event streams from one address ({xff})",
        f"600 streams per address (`BOOSTLAB_MAX_STREAMS_PER_ADDRESS`); per process the "
        f"open-file limit − 200 ({total} here, limit {limit})",
        f"{counts(s.status for s in streams)} in {sec(took)}"
        + (f" (“{said[0][0]}…”)" if said else "")
        + f"; one more: {extra}; once closed, the address may open one again after {sec(freed, 2)}",
        f"while {sum(s.status == 200 for s in streams)} are held: {p.text()}; server RSS "
        f"{rss0:.0f} → {rss1:.0f} MiB",
    )


# -- 5b ------------------------------------------------------------------------------
def row_fill(t: Target) -> Row:
    """One address takes ids (``…/join``) and holds a stream for each: within its budgets
    (600 ids, 600 streams), more than a class's 500 seats."""
    import ui.classroom.store as cs

    xff = "203.0.113.75"
    n = seats = cs.limits_from_env().students  # the server's, from the same environment
    log(f"[5b] {n} joins from {xff}, then a stream held for each id")

    async def go():
        joins = await burst(
            n, 50, lambda i: post_json(t.port, f"/api/class/{t.code}/join", {}, xff)
        )
        ids = [r.json().get("student", "") for r in joins if r.status == 200]
        t0 = time.monotonic()
        streams = await burst(len(ids), 50, lambda i: Stream().open(t.port, t.code, ids[i], xff))
        took = time.monotonic() - t0
        full = await until(lambda: t.state.get("students", 0) >= seats, 5)
        count = t.state.get("students", 0)
        log(f"[5b] the class counts {count}; probing")
        p = await probe(t)
        for s in streams:
            s.close()
        back = await until(lambda: t.state.get("students", 0) < count - len(ids) // 2, 15)
        return joins, streams, took, count, full, p, back

    joins, streams, took, count, full, p, back = aio(go(), 180)
    held = sum(s.status == 200 for s in streams)
    said = Counter(s.error[:40] for s in streams if s.status != 200 and s.error).most_common(1)
    return Row(
        f"**{t.name}** · 5b. the class filled from one address ({xff}): {n} ids joined, "
        "a stream held for each",
        "500 students per class (`BOOSTLAB_MAX_STUDENTS`); 600 ids and 600 streams per address "
        "(a class behind one school address fits)",
        f"{sum(r.status == 200 for r in joins)} ids; {held} streams held, "
        f"{counts(s.status for s in streams if s.status != 200) or 'none refused'}"
        + (f" (“{said[0][0]}…”)" if said else "")
        + f", in {sec(took)}; the class counts {count} students",
        f"{p.text()}; once the attacker closed them, the count fell "
        + (f"after {sec(back, 2)}" if back == back else "NOT within 15 s"),
    )


# -- 6 -------------------------------------------------------------------------------
async def _slow_headers(port: int, gap: float, window: float, out: dict) -> None:
    """One connection sending a request's headers a byte every ``gap`` s for ``window`` s:
    ``out`` gets ``closed`` (seconds after the first byte when the server ended it) or
    ``status`` (a reply came)."""
    t0 = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as e:
        out["error"] = type(e).__name__
        return
    rest = b"GET /_stcore/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000

    async def read():
        data = await reader.read(4096)
        if data:
            out["status"] = parse_head(data.partition(b"\r\n\r\n")[0])[0]
        out["closed"] = time.monotonic() - t0

    r = asyncio.ensure_future(read())
    try:
        for b in rest:
            if r.done() or time.monotonic() - t0 > window:
                break
            writer.write(bytes([b]))
            await writer.drain()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(r), gap)
    except OSError:
        out.setdefault("closed", time.monotonic() - t0)
    finally:
        r.cancel()
        writer.close()


async def _slow_body(port: int, code: str, gap: float, window: float, xff: str, out: dict) -> None:
    """A POST whose headers arrive at once and whose 100-byte body a byte every ``gap`` s."""
    t0 = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as e:
        out["error"] = type(e).__name__
        return
    headers = {"Content-Type": "application/json", "Content-Length": "100", "X-Forwarded-For": xff}
    writer.write(head_lines(port, "POST", f"/api/class/{code}/answer", headers))

    async def read():
        data = await reader.read(4096)
        if data:
            out["status"] = parse_head(data.partition(b"\r\n\r\n")[0])[0]
        out["closed"] = time.monotonic() - t0

    r = asyncio.ensure_future(read())
    try:
        for _ in range(100):
            if r.done() or time.monotonic() - t0 > window:
                break
            writer.write(b" ")
            await writer.drain()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(r), gap)
    except OSError:
        out.setdefault("closed", time.monotonic() - t0)
    finally:
        if not r.done():
            with contextlib.suppress(TimeoutError, Exception):
                await asyncio.wait_for(r, 1)
        r.cancel()
        writer.close()


def row_slow(t: Target) -> Row:
    n_heads, n_bodies = n_of(t.args, 200, 100), 50
    window = n_of(t.args, 30.0, 14.0)
    xff = "203.0.113.72"
    log(
        f"[6] {n_heads} connections trickle headers (1 byte / 3 s), {n_bodies} bodies "
        f"(1 byte / 2 s), for {window:.0f} s"
    )

    async def go():
        heads = [dict() for _ in range(n_heads)]
        bodies = [dict() for _ in range(n_bodies)]
        tasks = [asyncio.ensure_future(_slow_headers(t.port, 3.0, window, o)) for o in heads]
        tasks += [
            asyncio.ensure_future(_slow_body(t.port, t.code, 2.0, window, xff, o)) for o in bodies
        ]
        t0 = time.monotonic()
        log("[6] probing while they trickle (after 5 s)")
        await until(lambda: time.monotonic() - t0 > 5, 6, poll=0.1)
        p = await probe(t)
        held_mid = sum("closed" not in o for o in heads)
        await asyncio.gather(*tasks)
        return heads, bodies, p, held_mid

    heads, bodies, p, held_mid = aio(go(), window + 90)
    cut = [
        o["closed"] for o in heads if "closed" in o and "status" not in o and o["closed"] < window
    ]
    answered = [o for o in heads if "status" in o]
    answered_s = [o["closed"] for o in answered]
    body_s = [o["closed"] for o in bodies if o.get("status")]
    held = n_heads - len(cut) - len(answered)
    head_text = (
        f"headers: {held} of {n_heads} still held after {window:.0f} s"
        + (
            f", {len(cut)} cut by the server (after {sec(min(cut), 2)}–{sec(max(cut), 2)})"
            if cut
            else ""
        )
        + (
            f", {len(answered)} answered ({counts(o['status'] for o in answered)} after "
            f"{sec(min(answered_s), 2)}–{sec(max(answered_s), 2)})"
            if answered
            else ""
        )
    )
    body_text = f"bodies: {counts(o.get('status', 0) for o in bodies)}" + (
        f" after {sec(min(body_s), 2)}–{sec(max(body_s), 2)}" if body_s else ""
    )
    c = server_constants()
    heads_budget = (
        f"a request's head {c['HEAD_SECONDS']:g} s (`ui/classroom/deadline.py`)"
        if c.get("HEAD_SECONDS")
        else "a request's head: no deadline of the app's"
    )
    return Row(
        f"**{t.name}** · 6. slow clients: {n_heads} connections sending a request's headers "
        f"1 byte / 3 s, {n_bodies} POST bodies 1 byte / 2 s (times from the connection)",
        f"a POST body has {c['BODY_SECONDS']:g} s to arrive (408); {heads_budget}",
        f"{head_text}; {body_text}",
        f"after 5 s, with {held_mid} header connections open: {p.text()}",
    )


# -- 7 -------------------------------------------------------------------------------
ROUTES = ("answer", "join", "round", "show", "ask", "reveal", "split")


def row_nested(t: Target) -> Row:
    n = n_of(t.args, 1000, 300) if t.name == "one process" else n_of(t.args, 300, 100)
    xff = "203.0.113.73" if t.name == "one process" else "203.0.113.93"
    body = b"[" * 4096
    log(f"[7] {n} POSTs of 4 KB of '[' to the 7 POST routes from {xff}")

    async def go():
        log0 = t.log_bytes()
        progress = [0]
        during = asyncio.ensure_future(probe_during(t, progress, n // 3))
        t0 = time.monotonic()
        replies = await burst(
            n,
            50,
            lambda i: request(
                t.port,
                "POST",
                f"/api/class/{t.code}/{ROUTES[i % len(ROUTES)]}",
                body,
                {"Content-Type": "application/json", "X-Forwarded-For": xff},
            ),
            progress,
        )
        took = time.monotonic() - t0
        surrogate = await request(
            t.port,
            "POST",
            f"/api/class/{t.code}/answer",
            b'{"student": "f-0000000000000000-000000000000000000000000", '
            b'"question": "\\ud800", "choice": 0}',
            {"Content-Type": "application/json", "X-Forwarded-For": xff},
        )
        p = await during
        # the log has what it will get once it stops growing (polled, at most 5 s)
        last, still = t.log_bytes(), time.monotonic()
        while time.monotonic() - still < 0.5 and time.monotonic() - t0 < took + 5:
            await asyncio.sleep(0.1)
            now = t.log_bytes()
            if now != last:
                last, still = now, time.monotonic()
        return replies, took, surrogate, p, last - log0

    replies, took, surrogate, p, grown = aio(go(), 180)
    c = server_constants()
    said = Counter(r.said[:50] for r in replies).most_common(1)
    return Row(
        f"**{t.name}** · 7. {n} POSTs of 4 KB of nested `[` (all 7 POST routes), and one "
        'lone surrogate `"\\ud800"` as a question id',
        f"{c['MAX_BODY']:,} bytes per body (413), nesting ≤ {c['MAX_DEPTH']} (400), text must "
        "be Unicode (400); "
        "no traceback for a client's error",
        f"{counts(r.status for r in replies)} in {sec(took)}"
        + (f" (“{said[0][0]}”)" if said else "")
        + f"; the surrogate: {surrogate.status} (“{surrogate.said[:50]}”); the server's log "
        f"grew {grown:,} bytes",
        p.text(),
    )


# -- 8 -------------------------------------------------------------------------------
async def _big_body(port: int, path: str, size: int, chunked: bool, xff: str) -> dict:
    """A POST of ``size`` bytes (spaces), declared (Content-Length) or chunked: until the
    server answers or closes; how much was sent by then."""
    t0 = time.monotonic()
    out = {"status": 0, "sent": 0, "seconds": float("nan"), "error": ""}
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as e:
        out["error"] = type(e).__name__
        return out
    headers = {"Content-Type": "application/json", "X-Forwarded-For": xff, "Connection": "close"}
    headers.update({"Transfer-Encoding": "chunked"} if chunked else {"Content-Length": str(size)})
    block = b" " * (1 << 20)
    frame = (f"{len(block):x}\r\n".encode() + block + b"\r\n") if chunked else block

    async def read():
        try:
            data = await reader.read(65536)
        except OSError as e:  # the server reset the connection (the reply lost with it)
            out["error"], data = "reset" if isinstance(e, ConnectionResetError) else repr(e), b""
        else:
            out["error"] = "" if data else "closed"
        out["status"] = parse_head(data.partition(b"\r\n\r\n")[0])[0] if data else 0
        out["seconds"] = time.monotonic() - t0

    r = asyncio.ensure_future(read())
    try:
        writer.write(head_lines(port, "POST", path, headers))
        while out["sent"] < size and not r.done():
            writer.write(frame)
            async with asyncio.timeout(10):
                await writer.drain()
            out["sent"] += len(block)
        if chunked and not r.done():
            writer.write(b"0\r\n\r\n")
        async with asyncio.timeout(15):
            await r
    except (OSError, TimeoutError) as e:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await r
        out["error"] = out["error"] or type(e).__name__
    finally:
        r.cancel()
        writer.close()
    return out


def row_big(t: Target) -> Row:
    size = 128 << 20
    xff = "203.0.113.74"
    pids = t.pids()
    log("[8] four 128 MB bodies at once, declared (Content-Length), then four chunked")

    async def go():
        m0 = [proc_status(p) for p in pids]
        path = f"/api/class/{t.code}/answer"
        declared = await asyncio.gather(
            *(_big_body(t.port, path, size, False, xff) for _ in range(4))
        )
        m1 = [proc_status(p) for p in pids]
        chunked = await asyncio.gather(
            *(_big_body(t.port, path, size, True, xff) for _ in range(4))
        )
        m2 = [proc_status(p) for p in pids]
        p = await probe(t)
        return declared, chunked, m0, m1, m2, p

    declared, chunked, m0, m1, m2, p = aio(go(), 240)

    def one(kind: str, outs: list[dict]) -> str:
        sent = [o["sent"] for o in outs]
        got = [o["status"] or f"connection {o['error']}" for o in outs]
        return (
            f"{kind}: {counts(got)} within {sec(max(o['seconds'] for o in outs), 2)}, "
            f"{max(sent) / 2**20:.0f} MiB at most sent by then"
        )

    mem = lambda m, k: " + ".join(f"{x.get(k, float('nan')):.0f}" for x in m)  # noqa: E731
    return Row(
        f"**{t.name}** · 8. four 128 MB POST bodies at once, twice: with Content-Length, "
        "then chunked (no length)",
        f"{server_constants()['MAX_BODY']:,} bytes per body, refused while it is read (413)",
        f"{one('declared', declared)}; {one('chunked', chunked)}",
        f"server RSS {mem(m0, 'VmRSS')} → {mem(m1, 'VmRSS')} → {mem(m2, 'VmRSS')} MiB (peak "
        f"since start {mem(m0, 'VmHWM')} → {mem(m2, 'VmHWM')} MiB); {p.text()}",
    )


# -- 9 -------------------------------------------------------------------------------
def row_wrong_codes(t: Target) -> Row:
    n = 100
    log(f"[9] a follower at the school address {SCHOOL}, then {n} wrong codes from it")

    async def go():
        member = await Follower(t.port, t.code, SCHOOL).start()
        statuses = []
        for i in range(n):
            code = wrong_code()
            if i % 2:
                r = await post_json(t.port, f"/api/class/{code}/join", {}, SCHOOL)
            else:
                r = await request(
                    t.port, "GET", f"/api/class/{code}/events", headers={"X-Forwarded-For": SCHOOL}
                )
            statuses.append(r.status)
        first_429 = next((i + 1 for i, s in enumerate(statuses) if s == 429), None)
        q = t.state.get("question") or {}
        a = await post_json(
            t.port,
            f"/api/class/{t.code}/answer",
            {"student": member.id, "question": q.get("id"), "choice": 2},
            SCHOOL,
        )
        second = await Stream().open(t.port, t.code, member.id, SCHOOL)
        second.close()
        to = 1 if t.state.get("round") != 1 else 2
        step = await post_json(
            t.port, f"/api/class/{t.code}/round", {"key": t.key, "round": to}, SCHOOL
        )
        newcomer = await post_json(t.port, f"/api/class/{t.code}/join", {}, SCHOOL)
        p = await probe(t)
        member.close()
        return member, statuses, first_429, a, second, step, newcomer, p

    member, statuses, first_429, a, second, step, newcomer, p = aio(go(), 180)
    return Row(
        f"**{t.name}** · 9. {n} wrong class codes from a school's address ({SCHOOL}; the "
        "events and join routes, alternately)",
        "30 wrong codes a minute per address (then 429; per process), the class's followers "
        "and its teacher let through",
        f"{counts(statuses)}: the first 429 at try {first_429}",
        f"at the school's address: a follower (stream open before) answers {a.status}, opens a "
        f"second stream {second.status}, the teacher steps {step.status}; a new student there "
        f"joins {newcomer.status} (“{newcomer.said[:50]}”); elsewhere: {p.text()}",
    )


# -- 11 ------------------------------------------------------------------------------
def row_headers(t: Target) -> Row:
    log("[11] security headers on pages and routes")

    async def go():
        xff = t.address()
        out = {
            "page /topdown": await request(t.port, "GET", "/topdown"),
            "/_stcore/health": await request(t.port, "GET", "/_stcore/health"),
            "POST …/join": await post_json(t.port, f"/api/class/{t.code}/join", {}, xff),
            "a 404 (no such class)": await request(
                t.port, "GET", "/api/class/ZZZZZZ/events", headers={"X-Forwarded-For": xff}
            ),
        }
        s = await Stream().open(t.port, t.code, None, xff, drop="after head")
        out["GET …/events"] = Reply(s.status, s.opened, s.headers)
        return out

    got = aio(go(), 60)
    parts, missing = [], []
    for name, r in got.items():
        have = [h for h in SECURITY if h in r.headers]
        parts.append(f"{name} ({r.status}): {len(have)}/4")
        missing += [f"{name} lacks {h}" for h in SECURITY if h not in r.headers]
    sample = got["page /topdown"].headers
    return Row(
        f"**{t.name}** · 11. security headers on a page and on the routes",
        "every response: `Referrer-Policy: no-referrer`, `Content-Security-Policy: "
        "frame-ancestors 'self'`, `X-Frame-Options: SAMEORIGIN`, `X-Content-Type-Options: nosniff`",
        "—",
        "; ".join(parts)
        + (f"; MISSING: {', '.join(missing)}" if missing else "")
        + f" (page: `{sample.get('content-security-policy', '')}`, "
        f"`{sample.get('referrer-policy', '')}`)",
    )


# --------------------------------------------------------------------- the hall's rows


def row_posed(t: Target) -> Row:
    """Whether a client's own X-Forwarded-For is the address the hall's app counts (a
    class of its own: 601 joins from one posed address)."""
    hall, store = t.extra["hall"], t.extra["store"]
    import ui.classroom.store as cs

    key = cs.new_key()
    code = cs.run(store.open(key, "topdown", {}, 0))
    xff = "203.0.113.83"
    log(f"[h3] 601 joins through HAProxy posing as {xff} (a class of its own: {code})")

    async def go():
        replies = await burst(
            601, 50, lambda i: post_json(t.port, f"/api/class/{code}/join", {}, xff)
        )
        other = await post_json(t.port, f"/api/class/{code}/join", {}, "203.0.113.84")
        plain = await post_json(t.port, f"/api/class/{code}/join", {})
        return replies, other, plain

    replies, other, plain = aio(go(), 120, tick=hall.supervise)
    with contextlib.suppress(Exception):
        cs.run(store.end(code, key))
    given = sum(r.status == 200 for r in replies)
    return Row(
        f"**{t.name}** · 3. join flood through HAProxy: 601 joins sending "
        f"`X-Forwarded-For: {xff}` (HAProxy appends 127.0.0.1)",
        "600 ids per address per class (`BOOSTLAB_MAX_JOINS_PER_ADDRESS`), counted on Redis "
        "across the processes",
        f"{given} ids given, {counts(r.status for r in replies if r.status != 200)} refused: the "
        "app counts the posed address (uvicorn takes the rightmost address it does not trust; "
        "a real client's own address would be that one)",
        f"another posed address joins {other.status}; a loopback client without the header "
        f"joins {plain.status}",
    )


#: In the kill row, this many answers leave at the same moment halfway, and the process is
#: killed this long after they were sent: answers in flight when it dies.
AT_ONCE, KILL_AFTER_S = 6, 0.003


def _answers_with_fault(t: Target, crowd: list[Follower], qid: str, fault) -> list[dict]:
    """Every follower of ``crowd`` answers ``qid`` (until acknowledged, ≤ 30 s), spread over
    0.5 s, except ``AT_ONCE`` of them halfway, sent together; ``fault()`` ``KILL_AFTER_S``
    after those were sent."""
    hall = t.extra["hall"]
    half = len(crowd) // 2

    async def go():
        async def one(i: int, f: Follower) -> dict:
            at = half if half <= i < half + AT_ONCE else i
            await asyncio.sleep(0.5 * at / len(crowd))  # a class answering within 0.5 s
            if i == half:
                asyncio.get_running_loop().call_later(KILL_AFTER_S, fault)
            return await answer_until_acked(t.port, t.code, f, qid, i % 4)

        return await asyncio.gather(*(one(i, f) for i, f in enumerate(crowd)))

    return aio(go(), 90, tick=hall.supervise)


def row_kill(t: Target) -> Row:
    import ui.classroom.store as cs

    hall, store = t.extra["hall"], t.extra["store"]
    n = n_of(t.args, 50, 20)
    log(f"[h10k] {n} students join and follow through HAProxy")
    crowd = aio(_crowd(t, n), 120, tick=hall.supervise)
    try:
        spread = Counter(f.stream.server for f in crowd if f.stream)
        victim = "app1"
        held_real = sum(f.stream is not None and f.stream.server == victim for f in t.followers)
        pid = hall.piece(victim).proc.pid
        qid = f"bench-kill-{secrets.token_hex(3)}"
        cs.run(store.ask(t.code, t.key, cs.Question(qid, ("A", "B", "C", "D"))))
        aio(
            until(
                lambda: all(
                    (f.state.get("question") or {}).get("id") == qid for f in crowd if f.following
                ),
                10,
            )
        )
        killed = {}

        def kill() -> None:
            killed["at"] = time.monotonic()
            os.kill(pid, signal.SIGKILL)

        log(
            f"[h10k] {n} answers within 0.5 s, {AT_ONCE} of them at once halfway and {victim} "
            f"killed {1000 * KILL_AFTER_S:.0f} ms after those; each tried again for ≤ 30 s"
        )
        outs = _answers_with_fault(t, crowd, qid, kill)
        log(f"[h10k] SIGKILL {victim} (pid {pid}) was sent; all answers are done")
        state = cs.run(store.state(t.code))
        mine = [cs.run(store.my_answer(t.code, f.id, qid)) for f in crowd]
        log(f"[h10k] waiting until the hall has {victim} back (≤ 90 s)")
        back = wait_sync(
            lambda: hall.piece(victim).proc.poll() is None and _healthy(hall.piece(victim).port),
            90,
            tick=hall.supervise,
        )
        back = time.monotonic() - killed["at"] if back == back else back
    finally:
        close_all(crowd)
    real = len(t.followers)
    wait_sync(lambda: all(f.following for f in t.followers), 10)
    log(
        f"[h10k] its students have left; waiting until the class counts its {real} real "
        f"students again (≤ {LEAVE_WAIT_HALL:.0f} s: through HAProxy a leave waits for a "
        "keep-alive)"
    )
    gone = wait_sync(lambda: cs.run(store.state(t.code)).students == real, LEAVE_WAIT_HALL)
    left = cs.run(store.state(t.code)).students
    acked = [o["acked"] for o in outs]
    counted = [m is not None for m in mine]
    right = sum(m == i % 4 for i, m in enumerate(mine))
    retried = sum(len(o["statuses"]) > 1 for o in outs)
    seen = Counter(s for o in outs for s in o["statuses"] if s != 200)
    lost = sum(a and not c for a, c in zip(acked, counted))
    unconfirmed = sum(c and not a for a, c in zip(acked, counted))
    slowest = max((o["seconds"] for o in outs if o["acked"]), default=float("nan"))
    return Row(
        f"**{t.name}** · 10. SIGKILL one app process ({victim}, held "
        f"{spread.get(victim, 0)} of {n} streams) while {n} students answer within 0.5 s "
        f"({AT_ONCE} at once halfway, the kill {1000 * KILL_AFTER_S:.0f} ms after them)",
        "the page tries an answer again (no reply, 429, 502-504, 403) for ≤ 30 s here; the "
        "same answer twice is one answer",
        f"{n} answers sent; {sum(acked)} acknowledged (the slowest after {sec(slowest, 2)}; "
        f"{retried} needed more than one try; refusals on the way: "
        f"{counts(seen.elements()) or 'none'})",
        f"the class counts {state.answers} answers ({sum(counted)} students have one, {right} "
        f"with the choice they sent); lost (acknowledged, not counted): {lost}; counted, not "
        f"acknowledged: {unconfirmed}; not acknowledged within 30 s: {n - sum(acked)}; {victim} "
        f"(restarted by the hall) answered its health check {sec(back)} after the kill; once "
        f"the {n} students had closed their streams the class counted "
        + (
            f"its {real} real students again after {sec(gone, 2)}"
            if gone == gone
            else f"{left} students, not its {real} real ones, {LEAVE_WAIT_HALL:.0f} s later "
            f"({victim} held {spread.get(victim, 0)} streams of them and {held_real} of the real "
            "students' when it died: nothing counts those out)"
        ),
    )


async def _crowd(t: Target, n: int) -> list[Follower]:
    crowd = await asyncio.gather(*(Follower(t.port, t.code, t.address()).start() for _ in range(n)))
    return list(crowd)


def wait_sync(condition: Callable[[], bool], timeout: float, tick=None) -> float:
    """As :func:`until`, on the main thread (for blocking checks), ``tick()`` meanwhile."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if tick is not None:
            tick()
        if condition():
            return time.monotonic() - t0
        time.sleep(0.1)
    return float("nan")


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


def _served_by(port: int, cookie: str) -> str:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/_stcore/health", headers={"Cookie": cookie}
    )
    try:
        with urllib.request.urlopen(req, timeout=1) as r:
            return r.headers.get("X-Boostlab-Server", "")
    except OSError:
        return ""


def row_stop(t: Target) -> Row:
    import ui.classroom.store as cs

    hall, store = t.extra["hall"], t.extra["store"]
    n = n_of(t.args, 40, 20)
    window = n_of(t.args, 40.0, 25.0)
    cfg = (hall.folder / "haproxy.cfg").read_text()
    shutdown = "on-marked-down shutdown-sessions" in cfg
    log(f"[h10s] {n} students follow through HAProxy")
    crowd = aio(_crowd(t, n), 120, tick=hall.supervise)
    pid = None
    try:
        spread = Counter(f.stream.server for f in crowd if f.following)
        victim = spread.most_common(1)[0][0]
        pid = hall.piece(victim).proc.pid
        on = [f for f in crowd if f.following and f.stream.server == victim]
        qid = f"bench-stop-{secrets.token_hex(3)}"
        cs.run(store.ask(t.code, t.key, cs.Question(qid, ("A", "B", "C", "D"))))
        aio(
            until(
                lambda: all(
                    (f.state.get("question") or {}).get("id") == qid for f in crowd if f.following
                ),
                10,
            )
        )
        log(
            f"[h10s] SIGSTOP {victim} (pid {pid}, {len(on)} streams); its students answer; "
            f"waiting ≤ {window:.0f} s"
        )

        async def go():
            t0 = time.monotonic()
            os.kill(pid, signal.SIGSTOP)
            answers = [
                asyncio.ensure_future(answer_until_acked(t.port, t.code, f, qid, 3, within=window))
                for f in on
            ]
            await asyncio.sleep(0)
            health = await request(t.port, "GET", "/_stcore/health", timeout=15)
            cut = await until(
                lambda: all(f.cuts and f.cuts[-1] > t0 for f in on), window, poll=0.05
            )
            cut_at = [f.cuts[-1] - t0 for f in on if f.cuts and f.cuts[-1] > t0]
            moved = await until(
                lambda: all(f.following and f.stream.server not in ("", victim) for f in on),
                max(1.0, window - (time.monotonic() - t0)),
                poll=0.05,
            )
            moved_at = time.monotonic() - t0 if moved == moved else float("nan")
            page = await probe(t)
            outs = await asyncio.gather(*answers)
            return health, cut, cut_at, moved_at, page, outs, time.monotonic() - t0

        health, cut, cut_at, moved_at, page, outs, stopped_for = aio(go(), window * 2 + 60)
    finally:
        if pid is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
    log(f"[h10s] SIGCONT {victim}; waiting until HAProxy sends its cookie to it again (≤ 30 s)")
    back = wait_sync(lambda: _served_by(t.port, f"BLSRV={victim}") == victim, 30, hall.supervise)
    mine = [cs.run(store.my_answer(t.code, f.id, qid)) for f in on]
    before = cs.run(store.state(t.code)).students
    close_all(crowd)
    gone = wait_sync(lambda: cs.run(store.state(t.code)).students <= before - n, LEAVE_WAIT_HALL)
    state = cs.run(store.state(t.code))
    acked = sum(o["acked"] for o in outs)
    counted = sum(m is not None for m in mine)
    seen = Counter(s for o in outs for s in o["statuses"] if s != 200)
    slowest = max((o["seconds"] for o in outs if o["acked"]), default=float("nan"))
    cut_text = (
        f"all {len(on)} cut after {sec(max(cut_at), 2)} (first {sec(min(cut_at), 2)})"
        if cut == cut and cut_at
        else f"{len(cut_at)} of {len(on)} cut within {window:.0f} s"
    )
    return Row(
        f"**{t.name}** · 10. SIGSTOP one app process ({victim}, {len(on)} of {n} streams), "
        f"SIGCONT after {stopped_for:.0f} s",
        "HAProxy checks `/_stcore/health` every 1 s, down after 2 failures"
        + (
            "; `on-marked-down shutdown-sessions` cuts its connections"
            if shutdown
            else "; no `on-marked-down shutdown-sessions` in the config in effect"
        ),
        f"its streams: {cut_text}; following again through the other process "
        + (f"{sec(moved_at, 2)} after the stop" if moved_at == moved_at else "NOT within the wait"),
        f"its {len(on)} students' answers: {acked} acknowledged (slowest {sec(slowest)}; on the "
        f"way {counts(seen.elements()) or 'no refusal'}), {counted} counted; health through "
        f"HAProxy {health.status or health.error} in {ms(health.seconds)}; later {page.text()}; "
        f"{victim} served its cookie again {sec(back)} after SIGCONT; its {n} students closed "
        f"their streams: the class's count {before} → {state.students} "
        + (
            f"after {sec(gone, 2)}"
            if gone == gone
            else f"(not all counted out within {LEAVE_WAIT_HALL:.0f} s)"
        ),
    )


# ------------------------------------------------------------------------- the targets


class AppProcess:
    """``streamlit run serve.py`` on 127.0.0.1 and a free port (``make serve`` binds
    0.0.0.0); what it prints goes to ``log``."""

    def __init__(self, folder: Path) -> None:
        self.port = lc.free_port()
        self.log = folder / "app.log"
        env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
        env.pop("BOOSTLAB_REDIS_URL", None)
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable, "-m", "streamlit", "run", "serve.py",
                    "--server.address", "127.0.0.1", "--server.port", str(self.port),
                    "--server.headless", "true", "--server.fileWatcherType", "none",
                ],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 120
        while not _healthy(self.port):
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited:\n" + self.log.read_text()[-2000:])
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not answer /_stcore/health within 120 s")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


SINGLE_ROWS: list[tuple[str, Callable[[Target], Row]]] = [
    ("1", row_classes),
    ("2", row_made_up),
    ("3", row_join_flood),
    ("4", row_ghosts),
    ("5", row_stream_flood),
    ("5b", row_fill),
    ("6", row_slow),
    ("7", row_nested),
    ("8", row_big),
    ("9", row_wrong_codes),
    ("11", row_headers),
]
HALL_ROWS: list[tuple[str, Callable[[Target], Row]]] = [
    ("h3", row_posed),
    ("h2", row_made_up),
    ("h4", row_ghosts),
    ("h7", row_nested),
    ("h11", row_headers),
    ("h10k", row_kill),
    ("h10s", row_stop),
]


def run_rows(t: Target, rows, only: set[str] | None, out: list[Row]) -> None:
    for rid, fn in rows:
        if only and rid not in only:
            continue
        t0, log0 = time.monotonic(), t.log_bytes()
        try:
            row = fn(t)
            if "log grew" not in row.attacker + row.kept:
                row.kept += f"; the server's log grew {t.log_bytes() - log0:,} bytes"
            out.append(row)
            log(f"[{rid}] done in {time.monotonic() - t0:.1f} s")
        except Exception as e:  # noqa: BLE001  (a row that failed is a row saying so)
            traceback.print_exc()
            out.append(
                Row(
                    f"**{t.name}** · {rid}. {fn.__name__}",
                    "—",
                    f"the benchmark failed: {e!r}"[:300],
                    "—",
                )
            )


def single(args, only, out: list[Row]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bl-attacks-") as tmp:
        log("one process: starting streamlit run serve.py")
        app = AppProcess(Path(tmp))
        t = None
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                try:
                    log("one process: the teacher's Chromium page opens a class (Teach a class)")
                    base = f"http://127.0.0.1:{app.port}"
                    _, teacher, code, key, _, refusal = open_class_page(
                        browser, base, None, "/topdown?present=true"
                    )
                    if not code:
                        raise RuntimeError(f"the teacher could not open a class: {refusal}")
                    teacher.keyboard.press("Escape")
                    teacher.get_by_role("dialog").wait_for(state="detached", timeout=10_000)
                    teacher.locator("h1").first.click()
                    teacher.keyboard.press("Home")
                    teacher.keyboard.press("ArrowRight")
                    teacher.get_by_text("Predict, then reveal", exact=True).first.click()
                    teacher.wait_for_selector(".bl-quiz", timeout=60_000)
                    t = Target(
                        "one process", app.port, code, key,
                        pids=lambda: [app.proc.pid],
                        log_bytes=lambda: app.log.stat().st_size,
                        args=args, browser=browser,
                    )  # fmt: skip
                    log(f"one process: class {code}; a watcher stream and 3 real students follow")
                    t.watcher = aio(Follower(app.port, code, None, student=False).start())
                    got = aio(until(lambda: bool(t.state.get("question")), 30))
                    log(f"one process: the question opened after {got:.1f} s")
                    if got != got:
                        raise RuntimeError(
                            "the class's question did not open (Predict, then reveal)"
                        )
                    t.followers = aio(_crowd(t, 3))
                    run_rows(t, SINGLE_ROWS, only, out)
                finally:
                    if t is not None:
                        close_all([t.watcher, *t.followers])
                    log("one process: closing Chromium")
                    browser.close()
        finally:
            log("one process: stopping the server")
            app.stop()
            log("one process: stopped")


def hall_part(args, only, out: list[Row]) -> None:
    from hall import Hall, free_port

    import ui.classroom.store as cs
    from ui.classroom.redis_store import RedisStore

    folder = Path(tempfile.mkdtemp(prefix="bl-attacks-hall-"))
    hall = Hall(replicas=2, port=free_port(), address="127.0.0.1", folder=folder)
    log(f"the hall: starting Redis, 2 app processes and HAProxy in {folder}")
    hall.start()
    store = None
    t = None
    try:
        store = RedisStore(hall.redis_url)
        key = cs.new_key()
        code = cs.run(store.open(key, "topdown", {}, 0))
        cs.run(store.ask(code, key, cs.Question("bench-q0", ("A", "B", "C", "D"))))

        def app_logs() -> int:
            return sum(p.log.stat().st_size for p in hall.pieces if p.name.startswith("app"))

        t = Target(
            "hall", hall.port, code, key,
            pids=lambda: [hall.piece(f"app{i + 1}").proc.pid for i in range(2)],
            log_bytes=app_logs, args=args, extra={"hall": hall, "store": store}, leave_wait=0,
        )  # fmt: skip
        log(f"the hall: class {code}; a watcher stream and 3 real students follow")
        t.watcher = aio(Follower(hall.port, code, None, student=False).start())
        t.followers = aio(_crowd(t, 3))
        run_rows(t, HALL_ROWS, only, out)
    finally:
        if t is not None:
            close_all([t.watcher, *t.followers])
        for piece in list(hall.pieces):  # a stopped process would not hear SIGTERM
            with contextlib.suppress(OSError):
                os.kill(piece.proc.pid, signal.SIGCONT)
        if store is not None:
            store.close()
        hall.stop()
        log("the hall: stopped")


def tree_state() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--short", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.split("\n")
    except OSError:
        return "?"
    files = [line[3:] for line in dirty if line.strip()]
    return f"commit {head}" + (
        f", with uncommitted changes in {', '.join(f'`{f}`' for f in files)}" if files else ""
    )


def table(rows: list[Row]) -> str:
    esc = lambda s: s.replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = [
        "| attack | budget (the limit that applies) | what the attacker got "
        "| what a real student and the teacher still get |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {esc(r.attack)} | {esc(r.budget)} | {esc(r.attacker)} | {esc(r.kept)} |" for r in rows
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    global NET
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller counts and shorter waits")
    ap.add_argument(
        "--only",
        default="",
        help="row ids, comma-separated (1-9, 5b, 11, h2, h3, h4, h7, h11, h10k, h10s)",
    )
    ap.add_argument("--no-hall", action="store_true", help="skip the hall")
    ap.add_argument("--no-single", action="store_true", help="skip the single process")
    ap.add_argument(
        "--out", type=Path, default=RESULTS, help=f"the Markdown file ({RESULTS.relative_to(ROOT)})"
    )
    args = ap.parse_args(argv)
    only = {x.strip() for x in args.only.split(",") if x.strip()} or None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):  # the clients hold ~1,300 connections
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    load0 = os.getloadavg()
    rows: list[Row] = []
    NET = Net()
    try:
        if not args.no_single and (not only or only & {r for r, _ in SINGLE_ROWS}):
            single(args, only, rows)
        if not args.no_hall and (not only or only & {r for r, _ in HALL_ROWS}):
            hall_part(args, only, rows)
    finally:
        NET.close()
    took = time.monotonic() - T_START
    load1 = os.getloadavg()
    text = table(rows)
    command = (
        "bench_attacks.py"
        + (" --quick" if args.quick else "")
        + (f" --only {args.only}" if only else "")
        + (" --no-hall" if args.no_hall else "")
        + (" --no-single" if args.no_single else "")
    )
    note = (
        f"`.venv/bin/python benchmarks/{command}`: loopback only, {os.cpu_count()} CPUs, took "
        f"{took / 60:.1f} min; load average {load0[0]:.1f} before, {load1[0]:.1f} after (other "
        f"jobs share the machine). Measured on {tree_state()}. One process = `streamlit run "
        f"serve.py` (in-memory class store); the hall = `scripts/hall.py`'s Hall: Redis, 2 app "
        f"processes, HAProxy. Attackers pose as 203.0.113.x, real students as 198.51.100.x "
        f"(`X-Forwarded-For`, believed from loopback). A probe = health check, a page load "
        f"(/topdown over Streamlit's websocket: connect → script finished), a new student "
        f"joining, following and answering, the teacher's step (`POST …/round`) until the "
        f"student's stream shows it."
    )
    print(text)
    print()
    print(note)
    if not only and not args.no_hall and not args.no_single:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            "# Issue 40's attacks, replayed (`benchmarks/bench_attacks.py`)\n\n"
            + text
            + "\n\n"
            + note
            + "\n"
        )
        log(f"written to {args.out}")
    return 0 if all("the benchmark failed" not in r.attacker for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
