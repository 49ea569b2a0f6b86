"""Benchmark: what a class costs on the lesson pages (issue 27, "Measure").

Run from the repository root (needs Debian's ``/usr/bin/chromium``; never ``playwright
install``)::

    .venv/bin/python benchmarks/bench_class.py
    .venv/bin/python benchmarks/bench_class.py --pages topdown,branching --quick
    .venv/bin/python benchmarks/bench_class.py --root /tmp/other-checkout --out class.md

One server (``benchmarks/load_check.py``'s ``Server``: ``streamlit run app.py`` of ``--root``
through that checkout's ``benchmarks/serve_counted.py``, on 127.0.0.1 and a free port) serves
every lesson page of the registry (``ui.pages.with_feature("lecture")`` of ``--root``). Per
page:

* **Server CPU per student, warm open.** The page's default link (``/<slug>``, no query) is
  opened once by a websocket client speaking Streamlit's protocol (``load_check.open_session``:
  what a browser sends when a link is opened) to fill the cache (the "cold open" columns), then
  by 10 students at once, then by 30 at once; each class is repeated ``--classes`` times
  (default 5; 0.5 s apart). Server CPU = user + system time of the server process over the
  scenario (``/proc``), divided by the number of students; the table gives the median of the
  repetitions and their range (one class of 10 varied by ±15 ms from run to run: a single
  one says little). Latency = connect → ``script_finished``, median over the students of
  every repetition. The clients run on the same machine.
* **Payload.** The bytes the websocket carried from the server for one page open: the sum of
  the ``ForwardMsg`` frames' lengths (``SessionResult.bytes``; Streamlit sends them
  uncompressed unless ``server.enableWebsocketCompression`` is on, and a client that sends no
  cached-message hashes gets every message whole, as a fresh tab does). 1 KB = 1000 bytes.
  HTTP (the app's scripts, plotly.min.js) is not counted. "Default" is the median of the 10
  warm opens; "largest" is one open of the page at its largest settings, taken from the
  registry's URL parameters: every number at its ``hi``, a choice among numbers at its
  largest option, a several-choice parameter with all its options; floats, flags, the seed and
  the other choices at their defaults (the query is printed). Its cold open (computing the
  run) and one warm open after it are timed too.
* **A student who leaves** (issue 27, item 1): the same largest settings with another seed
  (not computed yet) opened and the connection closed after 1 s; the server's CPU from then
  until it is idle (0.5 s with less than 0.05 s of CPU). Compare with the cold open's: a
  computation that goes on for nobody costs about that.
* **Play** in headless Chromium at 1920×1080 in presenter mode (``--viewport 1440x900`` for
  the normal page): the stepper's speed set to *fast* (0.5 s a round) and Play pressed for
  about 10 s of playing (pressed again when it stops at the last round). rounds/s = rounds
  advanced / playing time, where a run of Play lasts from the press to its last round advanced
  (the tick that finds the last round and stops, and the time until the next press, are not
  counted: a page of 5 rounds would otherwise never reach the goal of 2). With ``--load N``,
  N busy-looping Python processes run during Play only (the issue's 0.31 rounds/s was under
  load). A round is *dropped* when, at the moment the next round came, one of the page's views
  (``.bl-view`` with a ``data-frame``) had not drawn its frame (``data-drawn`` ≠
  ``data-frame``): the class never saw that round whole. Also counted while playing: animation
  frames (``requestAnimationFrame``) further apart than 50 ms, the longest gap, and the main
  thread's long tasks (``PerformanceObserver``, ``longtask``) as a share of the whole
  measurement window.
* **Growth per 100 steps** on the same page, before Play: 100 key presses (→, and ← back from
  the last round, bouncing between the ends) on the document with the focus on the body, each
  waited for until every view has drawn its frame of the new round (a teacher stepping), then
  as many presses as take it back to the round the count began at (what a round draws is
  not growth; added in issue 27), and the page left to settle. DOM elements
  (``document.getElementsByTagName('*').length``) and, through the Chrome DevTools Protocol
  after a forced garbage collection (``HeapProfiler.collectGarbage``,
  ``Memory.getDOMCounters``), nodes, event listeners and documents, before and after; the
  change is given for the first 100 steps and, without ``--quick``, for a second 100. A press
  after which the stepper is not at the round asked for (within 5 s, or moved back before its
  views were drawn) is *lost*; one whose round is shown but not drawn by every view within
  30 s is counted apart.

The step's ratio to a trivial page is ``benchmarks/bench_browser_step.py``'s and is not
measured here. The load average is printed before and after, with the CPU count. The table
goes to stdout (markdown), progress to stderr; ``--out FILE`` also writes it, with the
command line at its top.
"""

from __future__ import annotations

import argparse
import ast
import os
import shlex
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import load_check as lc  # noqa: E402  (the server and the websocket students, reused)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]
#: name → (width, height, presenter mode)
VIEWPORTS: dict[str, tuple[int, int, bool]] = {
    "1920x1080 present": (1920, 1080, True),
    "1440x900": (1440, 900, False),
}
CLASS_SIZES = (10, 30)
PLAY_SECONDS = 10.0
STEPS = 100
GAP_MS = 50  # an animation frame later than this is a visible hitch (3 frames at 60 Hz)
LOAD_TIMEOUT_MS = 300_000  # a page's first open in Chromium may compute its runs
STEP_TIMEOUT_MS = 30_000
PRESS_TIMEOUT_MS = 5_000
SESSION_TIMEOUT = 600.0  # a cold open at the largest settings computes the whole run
#: URL parameters left at their default for the "largest" link: the seed changes the data,
#: not its size; presenter mode changes the picture, not the run
NOT_A_SIZE = {"seed", "present"}

# Installed before the page's scripts: the Play measurement. A listener on the window in the
# capture phase runs before the views' own (ui/lecture/js's ``boostlab:round``), so when a new
# round arrives it still sees the views as the previous round left them.
PLAY_JS = r"""(() => {
  const P = window.__blPlay = { on: false, rounds: 0, dropped: 0, lateViews: 0, views: 0,
    lastT: null, segStart: null, segLast: null, playMs: 0, frames: 0, gaps: 0, maxGap: 0,
    lastFrame: null, longMs: 0, onAt: 0, onMs: 0 };
  window.addEventListener('boostlab:round', (ev) => {
    if (!P.on) return;
    const now = performance.now();
    const { t, source } = ev.detail;
    if (source === 'pause') {
      // a run of Play ends at its last round: the interval's tick that finds the last
      // round and stops is no round advanced (it would cost 0.5 s per run of a short page)
      if (P.segStart !== null) {
        P.playMs += (P.segLast ?? now) - P.segStart; P.segStart = null; P.segLast = null; }
      P.lastT = null;
      return;
    }
    if (source !== 'play') return;
    if (P.segStart === null) { P.segStart = now; P.lastT = t; return; }  // Play pressed
    if (t === P.lastT) return;
    const views = [...document.querySelectorAll('.bl-view')]
      .filter((v) => v.dataset.frame !== undefined);
    const late = views.filter((v) => v.dataset.drawn !== v.dataset.frame).length;
    P.rounds += 1; P.views = Math.max(P.views, views.length);
    if (late) { P.dropped += 1; P.lateViews += late; }
    P.lastT = t; P.segLast = now;
  }, true);
  const tick = (ts) => {
    if (P.on) {
      if (P.lastFrame !== null) {
        const gap = ts - P.lastFrame;
        P.frames += 1;
        if (gap > GAP) P.gaps += 1;
        P.maxGap = Math.max(P.maxGap, gap);
      }
      P.lastFrame = ts;
    } else P.lastFrame = null;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver((list) => {
      if (P.on) for (const e of list.getEntries()) P.longMs += e.duration;
    }).observe({ type: 'longtask', buffered: false });
  } catch (e) { /* no long-task timing in this browser */ }
})();"""

# the stepper shows round t
ROUND_JS = """(t) => {
  const st = document.querySelector('.bl-stepper');
  return !!st && st.dataset.round === String(t);
}"""

# every view has drawn the frame it was last asked for
DRAWN_JS = """(t) => {
  const st = document.querySelector('.bl-stepper');
  if (!st || st.dataset.round !== String(t)) return false;
  return [...document.querySelectorAll('.bl-view')]
    .every((v) => v.dataset.frame === undefined || v.dataset.drawn === v.dataset.frame);
}"""


def log(msg: str) -> None:
    """Progress on stderr (the table goes to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- the pages


def page_title(root: Path, view: str) -> str:
    """The title a lesson page draws (the first argument of its ``page_header`` call), read
    from ``root/view``: ``load_check.open_session`` checks that it was drawn. "" (any
    heading counts) when the file has no such call."""
    tree = ast.parse((root / view).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) == "page_header"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            return str(node.args[0].value)
    return ""


def largest_query(spec: Any) -> str:
    """The query of ``spec``'s (a registry ``PageSpec``) largest settings.

    Every number at its ``hi`` (ints only: a float is a rate or a tolerance, not a size), a
    choice among numbers at its largest option, a several-choice parameter with all its
    options; the rest stays at its default and is left out of the link.
    """
    pairs: list[tuple[str, str]] = []
    for p in spec.params:
        if p.name in NOT_A_SIZE:
            continue
        if p.kind == "int" and p.hi is not None and p.hi != p.default:
            pairs.append((p.name, str(int(p.hi))))
        elif (
            p.kind == "choice" and p.options and all(isinstance(o, int | float) for o in p.options)
        ):
            if max(p.options) != p.default:
                pairs.append((p.name, str(max(p.options))))
        elif p.kind == "choices" and p.options and tuple(p.default or ()) != tuple(p.options):
            pairs += [(p.name, str(o)) for o in p.options]
    return urlencode(pairs)


# ---------------------------------------------------------------------------- server side


@dataclass
class ServerRow:
    """The websocket measurements of one page."""

    page: str
    cold: lc.ScenarioResult | None = None
    classes: dict[int, list[lc.ScenarioResult]] = field(default_factory=dict)
    largest_query: str = ""
    largest_cold: lc.ScenarioResult | None = None
    largest_warm: lc.ScenarioResult | None = None
    #: server CPU (s) after a student who opened an uncached largest link left 1 s later,
    #: until the server is idle (0.5 s with < 0.05 s of CPU), and how long that took
    abandoned_cpu: float = float("nan")
    abandoned_s: float = float("nan")
    error: str = ""


def abandoned(server: lc.Server, slug: str, query: str) -> tuple[float, float]:
    """A student opens ``/slug?query`` (not computed yet) and closes the tab after 1 s:
    the server's CPU from then until it is idle, and the time that took (at most 60 s)."""
    import asyncio

    from websockets.asyncio.client import connect

    async def leave() -> None:
        ws = await connect(
            f"ws://127.0.0.1:{server.port}/_stcore/stream",
            subprotocols=["streamlit"],
            max_size=None,
            ping_interval=None,
        )
        await ws.send(lc.rerun_message(slug, query))
        await asyncio.sleep(1.0)
        await ws.close()

    asyncio.run(leave())
    cpu0, t0 = server.cpu_seconds(), time.monotonic()
    last = cpu0
    while time.monotonic() - t0 < 60:
        time.sleep(0.5)
        now = server.cpu_seconds()
        if now - last < 0.05:
            break
        last = now
    return server.cpu_seconds() - cpu0, time.monotonic() - t0


def _check(r: lc.ScenarioResult) -> str:
    bad = [s for s in r.sessions if not s.ok]
    return f"{len(bad)} of {len(r.sessions)} failed: {bad[0].error}" if bad else ""


def measure_server(
    server: lc.Server, spec: Any, title: str, sizes: tuple[int, ...], classes: int = 1
) -> ServerRow:
    """Cold open, the classes of ``sizes`` students (each ``classes`` times) and the largest
    settings of one page."""
    row = ServerRow(spec.slug)
    generator = lc.PAGES[spec.slug].generator if spec.slug in lc.PAGES else ""
    ps = lc.PageSpec(spec.slug, "", title, generator)
    row.cold = lc.run_scenario(server, ps, "cold open", [""], timeout=SESSION_TIMEOUT)
    problem = _check(row.cold)
    log(f"  /{spec.slug}: cold open {row.cold.wall:.1f} s {problem}")
    for n in sizes:
        for i in range(classes):
            if i:
                time.sleep(0.5)  # the last class's sessions closed; the server idle again
            r = lc.run_scenario(server, ps, f"{n} students", [""] * n, timeout=SESSION_TIMEOUT)
            row.classes.setdefault(n, []).append(r)
            problem = problem or _check(r)
            log(
                f"  /{spec.slug}: {n} students ({i + 1}/{classes}), "
                f"{r.cpu_per_session_ms:.0f} ms CPU each, wall {r.wall:.1f} s"
            )
    row.largest_query = q = largest_query(spec)
    big = lc.PageSpec(spec.slug, q, title, generator)
    row.largest_cold = lc.run_scenario(server, big, "largest, cold", [q], timeout=SESSION_TIMEOUT)
    problem = problem or _check(row.largest_cold)
    log(f"  /{spec.slug}?{q}: cold {row.largest_cold.wall:.1f} s")
    row.largest_warm = lc.run_scenario(server, big, "largest, warm", [q], timeout=SESSION_TIMEOUT)
    problem = problem or _check(row.largest_warm)
    gone = (q + "&" if q else "") + "seed=4242"  # the same settings, not computed yet
    row.abandoned_cpu, row.abandoned_s = abandoned(server, spec.slug, gone)
    log(f"  /{spec.slug}: left after 1 s: {row.abandoned_cpu:.2f} s CPU after")
    row.error = problem
    return row


# ---------------------------------------------------------------------------- browser side


@dataclass
class BrowserRow:
    """The Chromium measurements of one page at one viewport."""

    page: str
    viewport: str
    lo: int = 0
    hi: int = 0
    play: dict = field(default_factory=dict)
    counters: list[dict] = field(default_factory=list)  # before, after 100, (after 200)
    lost: int = 0
    undrawn: int = 0
    error: str = ""


def counters(page: Any, cdp: Any) -> dict:
    """DOM elements, and the DevTools counters after a garbage collection, once every chart
    has drawn its rounds either way and dropped any other (ui/lecture/js keeps those three)."""
    page.wait_for_function(
        "() => !document.querySelector('.bl-view-plotly[data-ahead=busy]')", timeout=30_000
    )
    cdp.send("HeapProfiler.collectGarbage")
    out = dict(cdp.send("Memory.getDOMCounters"))
    out["elements"] = page.evaluate("document.getElementsByTagName('*').length")
    return out


def steps(page: Any, n: int, lo: int, hi: int) -> tuple[int, int]:
    """``n`` key presses on the body, bouncing between ``lo`` and ``hi``, each waited for
    until the round is drawn (at most 30 s).

    Returns
    -------
    lost : int
        Presses after which the stepper was not at the round they asked for.
    undrawn : int
        Presses whose round the stepper showed but some view had not drawn in 30 s.
    """
    lost = undrawn = 0
    t = int(page.get_attribute(".bl-stepper", "data-round"))
    up = t < hi
    for _ in range(n):
        if up and t >= hi:
            up = False
        elif not up and t <= lo:
            up = True
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("ArrowRight" if up else "ArrowLeft")
        want = t + (1 if up else -1)
        try:
            # the stepper moves in the key's own handler: 5 s without it is a lost press
            page.wait_for_function(ROUND_JS, arg=want, polling="raf", timeout=PRESS_TIMEOUT_MS)
            page.wait_for_function(DRAWN_JS, arg=want, polling="raf", timeout=STEP_TIMEOUT_MS)
            t = want
        except Exception:  # noqa: BLE001 — a lost press is a result, counted
            t = int(page.get_attribute(".bl-stepper", "data-round"))
            if t == want:
                undrawn += 1
            else:  # never moved, or moved back (a late echo of the server)
                lost += 1
                log(f"    a press for round {want} lost: the stepper shows {t}")
    return lost, undrawn


def play(page: Any, seconds: float) -> dict:
    """Play at the fastest speed for ``seconds`` of playing; the page's ``__blPlay``."""
    page.select_option(".bl-stepper .bl-speed", "fast")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.bl-view')].every((v) =>"
        " v.dataset.frame === undefined || v.dataset.drawn === v.dataset.frame)",
        polling="raf",
        timeout=STEP_TIMEOUT_MS,
    )
    page.evaluate("() => { window.__blPlay.on = true; window.__blPlay.onAt = performance.now(); }")
    deadline = time.monotonic() + seconds * 3  # a page that never plays must end too
    while time.monotonic() < deadline:
        p = page.evaluate("() => window.__blPlay")
        if p["playMs"] + (0 if p["segStart"] is None else 1) >= seconds * 1000:
            break
        playing = page.evaluate(
            "() => document.querySelector('.bl-stepper .bl-play').classList.contains('bl-playing')"
        )
        if not playing:
            page.click(".bl-stepper .bl-play")
        else:
            now = page.evaluate("() => performance.now()")
            if p["segStart"] is not None and p["playMs"] + now - p["segStart"] >= seconds * 1000:
                break
        # polling the clock of a 10-s window: this wait is what is measured, not a guess
        page.wait_for_timeout(100)
    # the end of the window closes the segment; then Play is stopped
    result = page.evaluate(
        """() => { const P = window.__blPlay, now = performance.now();
          if (P.segStart !== null) {
            P.playMs += (P.segLast ?? now) - P.segStart; P.segStart = null; }
          P.on = false; P.onMs = now - P.onAt; return Object.assign({}, P); }"""
    )
    if page.evaluate(
        "() => document.querySelector('.bl-stepper .bl-play').classList.contains('bl-playing')"
    ):
        page.click(".bl-stepper .bl-play")
    return result


def measure_browser(
    browser: Any,
    base: str,
    slug: str,
    vp: str,
    n_steps: int,
    repeats: int,
    seconds: float,
    load: int = 0,
) -> BrowserRow:
    """Growth over ``repeats`` × ``n_steps`` steps, then Play (with ``load`` CPU burners),
    on one page at one viewport."""
    from bench_lecture_layout import MOUNTS_JS, settle

    width, height, present = VIEWPORTS[vp]
    row = BrowserRow(slug, vp)
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.add_init_script(MOUNTS_JS)
    page.add_init_script(PLAY_JS.replace("GAP", str(GAP_MS)))
    try:
        t0 = time.monotonic()
        page.goto(f"{base}/{slug}" + ("?present=true" if present else ""), timeout=LOAD_TIMEOUT_MS)
        page.wait_for_selector(".st-key-view-curves .bl-view[data-drawn]", timeout=LOAD_TIMEOUT_MS)
        settle(page)
        log(f"  /{slug} {vp}: loaded in {time.monotonic() - t0:.1f} s")
        row.lo = int(page.get_attribute(".bl-stepper .bl-range", "min"))
        row.hi = int(page.get_attribute(".bl-stepper .bl-range", "max"))
        cdp = ctx.new_cdp_session(page)
        row.counters.append(counters(page, cdp))
        start = int(page.get_attribute(".bl-stepper", "data-round"))
        for _ in range(repeats):
            t0 = time.monotonic()
            lost, undrawn = steps(page, n_steps, row.lo, row.hi)
            # back at the round the count began at: what a round draws is not growth
            now = int(page.get_attribute(".bl-stepper", "data-round"))
            back = abs(now - start)
            lost2, undrawn2 = steps(page, back, min(now, start), max(now, start))
            row.lost += lost + lost2
            row.undrawn += undrawn + undrawn2
            settle(page)
            row.counters.append(counters(page, cdp))
            log(
                f"  /{slug} {vp}: {n_steps} steps in {time.monotonic() - t0:.1f} s, "
                f"counters {row.counters[-1]}"
            )
        if load:
            from bench_lecture_layout import burners

            with burners(load):
                row.play = play(page, seconds)
        else:
            row.play = play(page, seconds)
        log(f"  /{slug} {vp}: Play {row.play}")
    except Exception as e:  # noqa: BLE001 — one failed page must not end the run
        row.error = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
        log(f"  /{slug} {vp}: {row.error}")
    finally:
        ctx.close()
    return row


# ---------------------------------------------------------------------------- the tables


def _ms(x: float) -> str:
    return "—" if x != x else f"{x:.0f}"


def _results(r: lc.ScenarioResult | list[lc.ScenarioResult] | None) -> list[lc.ScenarioResult]:
    return [] if r is None else r if isinstance(r, list) else [r]


def _median_latency(r: lc.ScenarioResult | list[lc.ScenarioResult] | None) -> str:
    lat = [x for one in _results(r) for x in one.latencies()]
    return f"{statistics.median(lat):.2f}" if lat else "—"


def _kb(r: lc.ScenarioResult | list[lc.ScenarioResult] | None) -> str:
    sizes = [s.bytes for one in _results(r) for s in one.sessions if s.bytes]
    return f"{statistics.median(sizes) / 1000:,.0f}" if sizes else "—"


def _cpu(rs: list[lc.ScenarioResult] | None) -> str:
    """Server CPU per student: the median class, and the range when it was repeated."""
    cpu = [r.cpu_per_session_ms for r in rs or []]
    if not cpu:
        return "—"
    if len(cpu) == 1:
        return _ms(cpu[0])
    return f"{_ms(statistics.median(cpu))} ({_ms(min(cpu))}–{_ms(max(cpu))})"


def server_table(rows: list[ServerRow], sizes: tuple[int, ...]) -> str:
    """The websocket measurements as a markdown table."""
    head = ["page", "cold open: s / server CPU s"]
    for n in sizes:
        head += [f"{n} students: CPU / student (ms), median (range)", f"{n}: median s"]
    head += [
        "payload default (KB)",
        "largest settings",
        "payload largest (KB)",
        "largest: cold open s / warm CPU ms",
        "left after 1 s: server CPU after (s)",
    ]
    lines = ["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for r in rows:
        cold = r.cold
        cells = [f"/{r.page}", f"{cold.wall:.1f} / {cold.server_cpu:.1f}" if cold else "—"]
        for n in sizes:
            c = r.classes.get(n)
            cells += [_cpu(c), _median_latency(c)]
        big, warm = r.largest_cold, r.largest_warm
        cells += [
            _kb(r.classes.get(sizes[0])),
            f"`{r.largest_query}`",
            _kb(big),
            f"{big.wall:.1f} / {_ms(warm.cpu_per_session_ms) if warm else '—'}" if big else "—",
            "—" if r.abandoned_cpu != r.abandoned_cpu else f"{r.abandoned_cpu:.2f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _growth(row: BrowserRow, key: str) -> str:
    c = row.counters
    if len(c) < 2:
        return "—"
    return " / ".join(f"{c[i + 1][key] - c[i][key]:+d}" for i in range(len(c) - 1))


def browser_table(rows: list[BrowserRow]) -> str:
    """The Chromium measurements as a markdown table."""
    head = [
        "page",
        "viewport",
        "rounds",
        "Play rounds/s",
        "rounds dropped",
        "frames > 50 ms / frames",
        "longest frame (ms)",
        "long tasks (% of the window)",
        "DOM elements / 100 steps",
        "nodes / 100 steps",
        "listeners / 100 steps",
        "documents / 100 steps",
        "DOM nodes, listeners at start",
        "presses lost / not drawn in 30 s",
    ]
    lines = ["| " + " | ".join(head) + " |", "|---|---" + "|---:" * (len(head) - 2) + "|"]
    for r in rows:
        p = r.play
        secs = p.get("playMs", 0) / 1000
        rate = f"{p['rounds'] / secs:.2f}" if secs else "—"
        dropped = f"{p['dropped']} of {p['rounds']}" if p else "—"
        if p and p["rounds"]:
            dropped += f" ({100 * p['dropped'] / p['rounds']:.0f} %)"
        c0 = r.counters[0] if r.counters else {}
        cells = [
            f"/{r.page}",
            r.viewport,
            f"{r.lo}–{r.hi}",
            rate + (f" (over {secs:.1f} s)" if secs else ""),
            dropped,
            f"{p['gaps']} / {p['frames']}" if p else "—",
            f"{p['maxGap']:.0f}" if p else "—",
            f"{100 * p['longMs'] / p['onMs']:.0f}" if p and p.get("onMs") else "—",
            _growth(r, "elements"),
            _growth(r, "nodes"),
            _growth(r, "jsEventListeners"),
            _growth(r, "documents"),
            f"{c0.get('nodes', '—')}, {c0.get('jsEventListeners', '—')}",
            f"{r.lost} / {r.undrawn}",
        ]
        if r.error:
            cells[-1] += f" — {r.error}"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    """Measure, print the tables and (``--out``) write them; 1 if a measurement failed."""
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--root", type=Path, default=ROOT, help="checkout whose app.py is served (default: here)"
    )
    ap.add_argument("--pages", default="", help="comma-separated lesson pages (default: all)")
    ap.add_argument(
        "--viewport",
        choices=sorted(VIEWPORTS),
        default="1920x1080 present",
        help="the browser's window for Play and the growth (default: 1920x1080 present)",
    )
    ap.add_argument("--out", type=Path, help="also write the markdown here")
    ap.add_argument(
        "--load",
        type=int,
        default=0,
        metavar="N",
        help="N busy-looping processes during Play (default 0: an idle machine)",
    )
    ap.add_argument(
        "--classes",
        type=int,
        default=5,
        metavar="K",
        help="repetitions of each class of students (default 5; 1 with --quick)",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="10 students only, 5 s of Play, one set of 100 steps",
    )
    args = ap.parse_args(argv)
    root = args.root.resolve()
    if not (root / "app.py").is_file():
        ap.error(f"--root must be a checkout with app.py; {root} has none")
    if not (root / "benchmarks" / "serve_counted.py").is_file():
        ap.error(f"--root must have benchmarks/serve_counted.py; {root} has none")
    # the served checkout's registry: its pages and their parameters' ranges
    sys.path.insert(0, str(root))
    from ui import pages as registry

    lessons = registry.with_feature("lecture")
    slugs = [s for s in args.pages.split(",") if s] or [p.slug for p in lessons]
    unknown = sorted(set(slugs) - {p.slug for p in lessons})
    if unknown:
        ap.error(f"not lesson pages: {unknown}; they are {[p.slug for p in lessons]}")
    specs = [p for p in lessons if p.slug in slugs]
    sizes = CLASS_SIZES[:1] if args.quick else CLASS_SIZES
    seconds = PLAY_SECONDS / 2 if args.quick else PLAY_SECONDS
    repeats = 1 if args.quick else 2

    load0 = os.getloadavg()
    t_start = time.monotonic()
    log(f"serving {root}/app.py; load average {load0}; {os.cpu_count()} CPUs")
    # load_check's Server runs ROOT/benchmarks/serve_counted.py in ROOT: point it at --root
    lc.ROOT, lc.SERVE = root, root / "benchmarks" / "serve_counted.py"
    server_rows: list[ServerRow] = []
    browser_rows: list[BrowserRow] = []
    with tempfile.TemporaryDirectory(prefix="boostlab-class-") as tmp:
        with lc.Server(Path(tmp) / "calls.jsonl") as server:
            for spec in specs:
                log(f"/{spec.slug}: websocket students")
                try:
                    server_rows.append(
                        measure_server(
                            server,
                            spec,
                            page_title(root, spec.view),
                            sizes,
                            1 if args.quick else max(1, args.classes),
                        )
                    )
                except Exception as e:  # noqa: BLE001
                    server_rows.append(ServerRow(spec.slug, error=f"{type(e).__name__}: {e}"))
                    log(f"  /{spec.slug}: {server_rows[-1].error}")
            # after the websocket scenarios (they run their own event loops): the browser
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for spec in specs:
                    log(f"/{spec.slug}: Chromium, {args.viewport}")
                    browser_rows.append(
                        measure_browser(
                            browser,
                            server.base,
                            spec.slug,
                            args.viewport,
                            STEPS,
                            repeats,
                            seconds,
                            args.load,
                        )
                    )
                browser.close()
    load1 = os.getloadavg()
    minutes = (time.monotonic() - t_start) / 60

    def fmt(load: tuple[float, float, float]) -> str:
        return ", ".join(f"{x:.2f}" for x in load)

    failed = [r for r in server_rows if r.error] + [r for r in browser_rows if r.error]
    parts = [
        server_table(server_rows, sizes),
        "",
        "Server: one `streamlit run` of the checkout (load_check's `Server`); students are "
        "websocket clients speaking Streamlit's protocol (load_check's `open_session`), on "
        "the same machine. CPU = the server process's user + system time over the scenario "
        f"÷ students; each class opened the link {1 if args.quick else max(1, args.classes)} "
        "time(s), 0.5 s apart: the median class and the range. The cold open is the "
        "link's first open (it fills the cache). Payload = "
        "the ForwardMsg bytes the websocket carried for one page open (1 KB = 1000 bytes; "
        "HTTP not counted).",
        "",
        browser_table(browser_rows),
        "",
        f"Chromium ({CHROMIUM}, headless) at {args.viewport}, the page's default link. Play: "
        "speed *fast* (0.5 s a round, so at most 2 rounds/s)"
        + (f", {args.load} CPU burners running" if args.load else ", no CPU burner")
        + "; a round is dropped when a view "
        "had not drawn its frame when the next round came. Growth: the change of each "
        "counter over 100 steps (→/← on the body, each waited for until drawn; "
        f"{'first 100 / second 100' if repeats == 2 else 'one set of 100'}); nodes, "
        "listeners and documents from Memory.getDOMCounters after "
        "HeapProfiler.collectGarbage. The step's ratio to a trivial page: "
        "benchmarks/bench_browser_step.py.",
        "",
        f"Took {minutes:.1f} min; load average before {fmt(load0)}, after {fmt(load1)} "
        f"(1, 5, 15 min); {os.cpu_count()} CPUs.",
    ]
    for r in failed:
        parts.append(f"\nFAILED /{r.page}: {r.error}")
    text = "\n".join(parts)
    print(text)
    if args.out:
        cmd = " ".join(shlex.quote(a) for a in [".venv/bin/python", *sys.argv])
        args.out.write_text(f"`{cmd}`\n\n{text}\n", encoding="utf-8")
        log(f"written to {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
