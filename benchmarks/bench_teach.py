"""What following a class costs (issue 28): one teacher, 60 lightweight followers and 3
Chromium followers; the teacher steps 30 times, then 30 students answer one question.

    .venv/bin/python benchmarks/bench_teach.py [--followers 60] [--browsers 3] [--steps 30]

(``benchmarks/bench_class.py`` is issue 27's "what a class costs" of page opens; this is the
class mode's.)

One server (``load_check.Server``: ``streamlit run serve.py`` through ``serve_counted.py``, on
127.0.0.1 and a free port). The teacher is a Chromium page of /topdown at 1920×1080 in
presenter mode that opens a class with *Teach a class*. The followers:

* **lightweight**: asyncio clients holding the class's event stream
  (``GET /api/class/<code>/events?student=…``), as a follower's page does, each noting when
  an event names a new round;
* **Chromium**: pages of the students' link (``/topdown?class=<code>``, 390×844, touch) that
  note when their stepper shows the round and every lecture view has drawn it.

The teacher presses → 30 times, 0.8 s apart (a teacher stepping briskly), each time noting the
wall clock just before the press. Latency = a follower's time of receipt (or of drawing) −
the press; all clocks are this machine's (``time.time()`` and the pages' ``Date.now()``).
Server CPU per step = the server process's user + system time over the 30 steps ÷ 30 (from
``/proc``), with the followers connected; RSS per follower = (RSS with every follower
connected − RSS before any) ÷ followers.

Then the teacher turns on *Predict, then reveal* and 30 lightweight students answer the
question at once (``POST /api/class/<code>/answer``): the time from the first answer sent to
the teacher's page showing "30 of …".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import load_check as lc  # noqa: E402  (the server, reused)

CHROMIUM = "/usr/bin/chromium"
STEP_GAP = 0.8

#: Marks, in a follower's page, when each round the class sent is shown and drawn.
DRAWN_LOG = """
window.__blDrawn = [];
const check = () => {
  const s = document.querySelector('.bl-stepper');
  const v = [...document.querySelectorAll('.bl-view')];
  const drawn = (e) => e.dataset.drawn !== undefined && e.dataset.drawn === e.dataset.frame;
  if (s && v.length && v.every(drawn)) {
    const t = parseInt(s.dataset.round, 10);
    const log = window.__blDrawn;
    if (!log.length || log[log.length - 1][0] !== t) log.push([t, Date.now()]);
  }
  requestAnimationFrame(check);
};
requestAnimationFrame(check);
"""


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Followers:
    """``n`` event-stream clients on their own thread's loop; ``seen[i]`` lists the
    ``(time, round)`` of every event stream ``i`` received."""

    def __init__(self, port: int, code: str, n: int) -> None:
        self.port, self.code, self.n = port, code, n
        self.seen: list[list[tuple[float, int]]] = [[] for _ in range(n)]
        #: the process that serves each stream (HAProxy's X-Boostlab-Server; "" without one)
        self.servers = [""] * n
        #: each follower's id, as the class gave it
        self.ids = [""] * n
        self.connected = 0
        self.errors: list[str] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks = [asyncio.run_coroutine_threadsafe(self.follow(i), self.loop) for i in range(n)]

    async def follow(self, i: int) -> None:
        try:
            # the id the class gives (POST …/join), as a follower's page asks for it
            status, out = await _post(self.port, f"/api/class/{self.code}/join", {})
            if status != 200:
                self.errors.append(f"join: {status} {out.get('error', '')}")
                return
            self.ids[i] = out["student"]
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(
                (
                    f"GET /api/class/{self.code}/events?student={self.ids[i]} HTTP/1.1\r\n"
                    f"Host: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n\r\n"
                ).encode()
            )
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                self.errors.append(head.split(b"\r\n", 1)[0].decode())
                return
            for h in head.decode(errors="replace").split("\r\n"):
                if h.lower().startswith("x-boostlab-server:"):
                    self.servers[i] = h.split(":", 1)[1].strip()
            self.connected += 1
            while True:
                line = await reader.readline()
                if not line:
                    return
                # chunked transfer: the size lines are skipped, the SSE lines read
                if line.startswith(b"data: "):
                    state = json.loads(line[6:])
                    self.seen[i].append((time.time(), state.get("round")))
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001  (reported in the table)
            self.errors.append(repr(e))

    def close(self) -> None:
        async def stop() -> None:
            mine = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in mine:
                task.cancel()
            await asyncio.gather(*mine, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


async def _post(port: int, path: str, body: dict) -> tuple[int, dict]:
    """One JSON POST on a connection of its own: the status and the JSON reply."""
    data = json.dumps(body)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            f"Connection: close\r\n\r\n{data}"
        ).encode()
    )
    await writer.drain()
    reply = await reader.read()
    writer.close()
    head, _, rest = reply.partition(b"\r\n\r\n")
    try:
        out = json.loads(rest.decode(errors="replace").strip() or "{}")
    except ValueError:
        out = {"error": rest.decode(errors="replace")[:200]}
    return int(head.split(b" ", 2)[1]), out if isinstance(out, dict) else {}


async def _answers(port: int, code: str, question: str, ids: list[str], choices: int) -> float:
    """The followers ``ids`` answer at once; the time the first was sent."""

    async def one(i: int, who: str) -> None:
        body = {"student": who, "question": question, "choice": i % choices}
        status, out = await _post(port, f"/api/class/{code}/answer", body)
        if status != 200:
            refused.append(f"{status} {out.get('error', '')}"[:200])

    refused: list[str] = []
    t0 = time.time()
    await asyncio.gather(*(one(i, who) for i, who in enumerate(ids)))
    if refused:
        raise RuntimeError(f"{len(refused)} answers refused: {refused[0]}")
    return t0


def latencies(
    pressed: list[tuple[int, float]], logs: list[list[tuple[float, int]]]
) -> tuple[list[float], int]:
    """For each press (round ``t`` at time ``p``) and each follower's log of ``(time,
    round)``: the time from ``p`` to the first entry of round ``t`` at or after ``p`` (and
    before the next press's round could repeat it); and how many presses a follower never
    got."""
    out, missed = [], 0
    ends = [p for _, p in pressed[1:]] + [float("inf")]
    for (t, p), end in zip(pressed, ends, strict=True):
        for entries in logs:
            hit = next((at for at, r in entries if r == t and p <= at < end + 5), None)
            if hit is None:
                missed += 1
            else:
                out.append(hit - p)
    return out, missed


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def home(teacher, shown: str, tries: int = 3) -> None:
    """The teacher's stepper back at round 0 (Home on the page), pressed again when a press
    came while the page was being redrawn (seen once: the stepper stayed where it was)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for i in range(tries):
        teacher.keyboard.press("Home")
        try:
            teacher.wait_for_function(shown, arg=0, timeout=10_000)
            return
        except PlaywrightTimeout:
            if i == tries - 1:
                raise
            teacher.locator("h1").first.click()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--followers", type=int, default=60, help="lightweight followers (60)")
    ap.add_argument("--browsers", type=int, default=3, help="Chromium followers (3)")
    ap.add_argument("--steps", type=int, default=30, help="the teacher's steps (30)")
    ap.add_argument("--answers", type=int, default=30, help="students answering (30)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, lc.Server(Path(tmp) / "calls.jsonl") as server:
        base = server.base
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            teacher = browser.new_page(viewport={"width": 1920, "height": 1080})
            teacher.goto(base + "/topdown?present=true")
            teacher.wait_for_selector(".st-key-view-curves .bl-view[data-drawn]", timeout=120_000)
            teacher.get_by_role("button", name="Teach a class").click()
            teacher.wait_for_selector(".st-key-class-code", timeout=60_000)
            text = teacher.locator(".st-key-class-code").inner_text()
            code = re.search(r"([A-Z0-9]{6})", text).group(1)
            teacher.keyboard.press("Escape")
            teacher.wait_for_selector("[role=dialog]", state="detached", timeout=10_000)
            log(f"class {code}")
            rss0 = rss_mib(server.proc.pid)
            crowd = Followers(server.port, code, args.followers)
            students = []
            for _ in range(args.browsers):
                page = browser.new_page(
                    viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
                )
                page.add_init_script(DRAWN_LOG)
                page.goto(f"{base}/topdown?class={code}")
                page.wait_for_selector(
                    ".st-key-class-follow [data-following=true]", timeout=120_000
                )
                students.append(page)
            deadline = time.time() + 30
            while crowd.connected < args.followers and time.time() < deadline:
                time.sleep(0.1)
            time.sleep(2)
            rss1 = rss_mib(server.proc.pid)
            n_followers = crowd.connected + len(students)
            log(f"{crowd.connected} streams and {len(students)} pages follow; RSS {rss1:.0f} MiB")
            shown = "t => document.querySelector('.bl-stepper').dataset.round === String(t)"
            hi = int(teacher.locator(".bl-range").first.get_attribute("max"))
            # the keys go to the page (not a control), and the stepper answers them
            teacher.locator("h1").first.click()
            home(teacher, shown)
            time.sleep(STEP_GAP)
            pressed: list[tuple[int, float]] = []  # (the round asked for, the press's time)
            cpu0 = server.cpu_seconds()
            t = 0
            while len(pressed) < args.steps:
                if t >= hi:  # back to the start, not measured
                    home(teacher, shown)
                    t = 0
                    time.sleep(STEP_GAP)
                    continue
                now = time.time()
                teacher.keyboard.press("ArrowRight")
                t += 1
                pressed.append((t, now))
                teacher.wait_for_function(shown, arg=t, timeout=10_000)
                time.sleep(max(0.0, now + STEP_GAP - time.time()))
            time.sleep(3)
            cpu_steps = server.cpu_seconds() - cpu0
            received, missing = latencies(pressed, crowd.seen)
            drawn, undrawn = latencies(
                pressed,
                [
                    [(ms / 1000, t) for t, ms in page.evaluate("window.__blDrawn")]
                    for page in students
                ],
            )
            # 30 answers to one question (at round 1: the last round has none to ask)
            teacher.keyboard.press("Home")
            teacher.keyboard.press("ArrowRight")
            teacher.get_by_text("Predict, then reveal", exact=True).first.click()
            teacher.wait_for_selector(".bl-quiz", timeout=60_000)
            teacher.wait_for_function(
                "() => /students answered/.test(document.querySelector('.bl-quiz-class')"
                "?.textContent || '')",
                timeout=30_000,
            )
            question = teacher.locator(".bl-quiz").get_attribute("data-qid")
            choices = teacher.locator(".bl-quiz-a").count()
            # on the followers' loop (Playwright's sync API holds this thread's)
            t0 = asyncio.run_coroutine_threadsafe(
                _answers(server.port, code, question, crowd.ids[: args.answers], choices),
                crowd.loop,
            ).result(60)
            teacher.wait_for_function(
                "n => (document.querySelector('.bl-quiz-class')?.textContent || '')"
                ".startsWith(n + ' of')",
                arg=args.answers,
                timeout=60_000,
            )
            counted = time.time() - t0
            crowd.close()
            browser.close()
    load1 = os.getloadavg()
    ms = lambda x: f"{1000 * x:.0f}"  # noqa: E731
    rows = [
        "| measure | value |",
        "|---|---:|",
        f"| followers: event streams + Chromium pages | {crowd.connected} + {len(students)} |",
        f"| steps (→ on the teacher's page) | {len(pressed)} |",
        f"| press → stream event, p50 / p95 (ms) | {ms(pct(received, 0.5))} / "
        f"{ms(pct(received, 0.95))} |",
        f"| events missed (stream × step) | {missing} |",
        f"| press → drawn on a Chromium follower, p50 / p95 (ms) | {ms(pct(drawn, 0.5))} / "
        f"{ms(pct(drawn, 0.95))} |",
        f"| rounds not drawn by a Chromium follower | {undrawn} |",
        f"| server CPU per step (ms) | {ms(cpu_steps / max(len(pressed), 1))} |",
        f"| server CPU per step and follower (ms) | "
        f"{1000 * cpu_steps / max(len(pressed), 1) / max(n_followers, 1):.2f} |",
        f"| server RSS before → with followers (MiB) | {rss0:.0f} → {rss1:.0f} |",
        f"| RSS per follower (MiB) | {(rss1 - rss0) / max(n_followers, 1):.2f} |",
        f"| {args.answers} answers at once → the projector shows {args.answers} (ms) | "
        f"{ms(counted)} |",
    ]
    if crowd.errors:
        rows.append(f"| stream errors | {len(crowd.errors)}: {crowd.errors[0][:80]} |")
    print("\n".join(rows))
    print()
    print(
        f"One server on 127.0.0.1 (`streamlit run serve.py`); teacher: Chromium 1920×1080 "
        f"presenter mode, → every {STEP_GAP} s; lightweight followers: asyncio clients of the "
        f"event stream; Chromium followers: 390×844 touch pages of the students' link. "
        f"Load average before {load0[0]:.2f}, after {load1[0]:.2f}; {os.cpu_count()} CPUs."
    )
    print(f"p50 / p95 of {len(received)} stream receipts and {len(drawn)} drawings.")
    return 0 if not missing and not crowd.errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
