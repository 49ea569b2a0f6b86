"""What ``benchmarks/bench_attacks.py``'s rows run against and what they measure besides the
attack: the target (one process or the hall), the probe of what a real student and the
teacher still get, a table row, and the numbers' words.

A probe (:func:`probe`) is a health check (``GET /_stcore/health``), a page load (a Streamlit
session of /topdown over its websocket: connect → script finished, ``load_check.
open_session``), a new real student from an address of its own (join, follow, answer the open
question: the answer's latency, and whether the class counts it) and the teacher's step
(``POST …/round`` with the key, as the teacher's page sends it: until the student's stream
shows the round).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT))
import load_check as lc  # noqa: E402  (open_session: a page load over Streamlit's websocket)
from attack_clients import Follower, Reply, Stream, post_json, request, until  # noqa: E402

#: The page a probe loads (a Streamlit session: connect → script finished).
PAGE = lc.PageSpec("topdown", "", "Top-down growth", "grow")
#: How long the hall's rows wait for followers that left to be counted out. Through HAProxy
#: the app hears of a closed stream at the second write after the close (HAProxy gives up on
#: a half-closed client then), i.e. within two keep-alives (``routes.KEEPALIVE``, 2.5 s), and
#: a dead process's followers once its lease has run out and another process has looked
#: (``redis_shared.LEASE_SECONDS`` 12 s, renewed every ``RENEW_SECONDS`` 3 s: ~15 s); this
#: holds either with room, and a row says when it was not enough.
LEAVE_WAIT_HALL = 35.0


# ----------------------------------------------------------------------------- numbers


def ms(seconds: float) -> str:
    return "—" if seconds != seconds else f"{1000 * seconds:.0f} ms"


def sec(seconds: float, digits: int = 1) -> str:
    return "—" if seconds != seconds else f"{seconds:.{digits}f} s"


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
    #: through HAProxy a leave takes up to two keep-alives, which row h4 measures)
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


async def follow_crowd(t: Target, n: int) -> list[Follower]:
    """``n`` real students, each from an address of its own, joined and following."""
    crowd = await asyncio.gather(*(Follower(t.port, t.code, t.address()).start() for _ in range(n)))
    return list(crowd)


# ------------------------------------------------------------------------------ a row


def server_constants() -> dict[str, float]:
    """The server's own bounds, read from its code (the budget column follows them)."""
    out: dict[str, float] = {"BODY_SECONDS": 10.0, "MAX_BODY": 4096, "MAX_DEPTH": 4}
    with contextlib.suppress(Exception):
        import server.routes as routes

        for name in ("BODY_SECONDS", "MAX_BODY", "MAX_DEPTH", "KEEPALIVE"):
            if hasattr(routes, name):
                out[name] = getattr(routes, name)
    with contextlib.suppress(Exception):
        from server import deadline

        out["HEAD_SECONDS"] = deadline.HEAD_SECONDS
    with contextlib.suppress(Exception):
        from server import redis_shared

        out["LEASE_SECONDS"] = redis_shared.LEASE_SECONDS
        out["RENEW_SECONDS"] = redis_shared.RENEW_SECONDS
    return out


@dataclass
class Row:
    """One line of the table: the attack, the budget that applies, what the attacker got,
    and what a real student and the teacher still got."""

    attack: str
    budget: str
    attacker: str
    kept: str


def n_of(args, full: int, quick: int) -> int:
    """``quick`` under ``--quick``, else ``full``."""
    return quick if args.quick else full
