"""The raw clients of ``benchmarks/bench_attacks.py``: requests, a follower's event stream and
a real follower, an answer sent as the page sends it, and the attackers' slow and oversized
bodies.

Every client is plain asyncio over HTTP/1.1 on 127.0.0.1, one connection per request (a
follower's stream held open as ``benchmarks/bench_teach.py``'s ``Followers`` holds it), so
that what is sent and when is exactly what a row says; ``X-Forwarded-For`` poses as a client
address (127.0.0.1 is a trusted proxy). The clients run on one loop on a thread of its own
(:class:`Net`, :func:`aio`), because Playwright's sync API holds the main thread's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

#: What a follower's page waits before it opens its stream again (klass.js, classStream and
#: the follower's ``error``: 3 s, after asking ``events?student=…&check=1`` why it closed;
#: :class:`Stream` reads the refusal's sentence from the reply itself instead), and between
#: tries of an answer (klass.js, ANSWER_WAIT_MS).
RECONNECT_S = 3.0
ANSWER_WAIT_S = (0.3, 0.6, 1.2, 2.5, 5.0)

T_START = time.monotonic()


def log(msg: str) -> None:
    """Progress, to stderr, with the seconds since the benchmark started."""
    print(f"[{time.monotonic() - T_START:6.1f} s] {msg}", file=sys.stderr, flush=True)


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


# ------------------------------------------------------------ the attackers' raw bodies


async def slow_headers(port: int, gap: float, window: float, out: dict) -> None:
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


async def slow_body(port: int, code: str, gap: float, window: float, xff: str, out: dict) -> None:
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


async def big_body(port: int, path: str, size: int, chunked: bool, xff: str) -> dict:
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


# ----------------------------------------------------------- checks from the main thread


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


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


def served_by(port: int, cookie: str) -> str:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/_stcore/health", headers={"Cookie": cookie}
    )
    try:
        with urllib.request.urlopen(req, timeout=1) as r:
            return r.headers.get("X-Boostlab-Server", "")
    except OSError:
        return ""
