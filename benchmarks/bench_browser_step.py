"""Benchmark: how long one step of the round stepper takes in a real browser, and what it costs.

Run from the repository root (needs Debian's ``/usr/bin/chromium``; never ``playwright
install``)::

    .venv/bin/python benchmarks/bench_browser_step.py
    .venv/bin/python benchmarks/bench_browser_step.py --pages topdown,branching --repeats 3
    .venv/bin/python benchmarks/bench_browser_step.py --viewport 1280x800 --present

One headless Chromium (driven by Playwright) presses → on each page and measures

* **step (ms)**: from just before ``page.keyboard.press("ArrowRight")`` until the new round
  is fully drawn — every view in sight (the three linked views; the small multiples of the
  other runs and the round tables when on screen: a view out of sight is drawn when it is
  scrolled to, issue 27) shows its frame of the new round, no rerun is running, no
  element is faded — plus two animation frames so that the paint has happened. The condition is
  polled inside the page (``wait_for_function`` with ``polling="raf"``), never with sleeps.
* **settled (ms)**: from the same moment until the server's rerun that the step causes has
  finished. The lecture stepper causes no rerun (issue 27: it tells the server the round
  only before another control is used); the old stepper *is* a rerun. "Finished" means no
  running indicator for ``QUIET_MS`` continuously; the quiet period itself is not counted.
* **KB per step**: websocket bytes the browser received from the key press until settled
  (the frames' payload lengths; 1 KB = 1000 bytes).

Each figure is the median over ``--repeats`` steps after one warm-up step. The reference is
``benchmarks/baseline_app.py``: one Streamlit slider and one line of text, stepped with → on
the focused slider — what a rerun costs when it has nothing to redraw. A page passes when
its step takes at most ``MAX_RATIO`` times the baseline's and receives at most ``MAX_KB``.

Pages that have the lecture stepper (``.bl-stepper``, ``ui/lecture/js``) are measured by its
``data-round`` and the views' ``data-drawn``/``data-frame``; pages still on Streamlit's own
stepper (``ui/rounds.stepper``) are measured by ``?round=`` in the address bar and are
labelled "(old stepper)".
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocket, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ui.pages import LESSON_SLUGS  # noqa: E402 — after the repository is on the path

ROOT = Path(__file__).resolve().parents[1]
BASELINE_APP = "benchmarks/baseline_app.py"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The lesson pages, and the game watched app against app (stepped in the browser since
#: issue 27, item 6): a page may carry its own query.
PAGES = (*LESSON_SLUGS, "game?mode=Watch")
ROUND_KEY = "round"  # every page's stepper writes ?round=
# Every view of the lecture, not only the three big ones: the small multiples of the other
# runs and the round tables must have drawn the new round too.
VIEWS = ".bl-view"
QUIET_MS = 1500  # no running indicator this long: the server's rerun is over
MAX_RATIO = 1.5  # issue 27: a step costs at most half again a trivial page's rerun
MAX_KB = 150.0
LOAD_TIMEOUT_MS = 180_000  # the first visit of a page computes its runs
STEP_TIMEOUT_MS = 60_000

# In-page instrumentation, installed once per page before the first step.
#
# DOM facts found empirically (Streamlit 1.67, MutationObserver log of a rerun that sleeps):
# * ``.stApp[data-test-script-state]`` is "running" from the moment a rerun starts until it
#   ends, then "notRunning" (also "rerunRequested"/"stopRequested" in between). It is the
#   exact running indicator.
# * ``[data-testid='stStatusWidget']`` (the running man with "Stop") is added only 500 ms
#   into a run and, when the run ends, gets the class ``StatusWidget-exit`` at once but stays
#   in the DOM while it fades (200 ms, longer on a busy machine): it counts as running only
#   while it is not exiting and holds ``[data-testid='stStatusWidgetRunningIcon']``.
# * Elements the running script has not yet re-sent carry ``data-stale="true"`` (shown
#   faded); the attribute goes back to "false" or the element is removed when the run ends.
# A MutationObserver on the script-state attribute counts the runs that start and stamps
# the moment the state last changed, so that a run shorter than one animation frame is not
# missed by the ``raf`` polling.
INSTALL_JS = """() => {
  if (window.__bench) return;
  const B = window.__bench = { runs: 0, lastBusy: performance.now(), runsAtPress: 0,
                               pressAt: 0 };
  B.running = () => {
    const app = document.querySelector('.stApp');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return true;
    const w = document.querySelector("[data-testid='stStatusWidget']:not(.StatusWidget-exit)");
    return !!(w && w.querySelector("[data-testid='stStatusWidgetRunningIcon']"));
  };
  B.busy = () => B.running() || !!document.querySelector("[data-stale='true']");
  new MutationObserver((records) => {
    for (const r of records) if (r.oldValue === 'notRunning') B.runs += 1;
    B.lastBusy = performance.now();
  }).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true,
                              attributeFilter: ['data-test-script-state'] });
  B.mark = () => { B.runsAtPress = B.runs; B.pressAt = performance.now(); };
}"""

# Settled: a run has started since the press (or the press started none within ``noRunMs``)
# and nothing has been running for ``quiet`` ms. Returns the quiet time so far, so that the
# caller can subtract it.
SETTLED_JS = """({ quiet, noRunMs }) => {
  const B = window.__bench, now = performance.now();
  if (B.busy()) { B.lastBusy = now; return false; }
  const ran = B.runs > B.runsAtPress || now - B.pressAt > noRunMs;
  return ran && now - B.lastBusy >= quiet ? now - B.lastBusy : false;
}"""

IDLE_JS = """({ quiet, ready }) => {
  const B = window.__bench, now = performance.now();
  if (B.busy() || !document.querySelector(ready)) { B.lastBusy = now; return false; }
  return now - B.lastBusy >= quiet;
}"""

BASELINE_DRAWN_JS = """({ t }) => {
  const s = document.querySelector("[data-testid='stSlider'] input[type='range']");
  if (!s || s.value !== String(t)) return false;
  const text = [...document.querySelectorAll("[data-testid='stMarkdownContainer']")]
    .some((e) => e.innerText.trim() === 'Round ' + t);
  return text && !window.__bench.busy();
}"""

LECTURE_DRAWN_JS = """({ t, views }) => {
  const st = document.querySelector('.bl-stepper');
  if (!st || st.dataset.round !== String(t)) return false;
  const vs = [...document.querySelectorAll(views)];
  if (!vs.length || vs.some((v) => v.dataset.drawn === undefined
                                   || v.dataset.drawn !== v.dataset.frame)) return false;
  return !window.__bench.busy();
}"""

OLD_DRAWN_JS = """({ t, lo, key }) => {
  const p = new URL(location.href).searchParams.get(key);
  if ((p === null ? lo : Number(p)) !== t) return false;
  return !window.__bench.busy() && !document.querySelector("[data-testid='stSkeleton']");
}"""

VIEWS_DRAWN_JS = """({ views }) => {
  const vs = [...document.querySelectorAll(views)];
  return vs.length > 0 && vs.every((v) => v.dataset.drawn !== undefined
                                          && v.dataset.drawn === v.dataset.frame);
}"""

TWO_FRAMES_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


@dataclass
class Result:
    """Per-step samples of one page (the warm-up step is not among them)."""

    label: str
    step_ms: list[float] = field(default_factory=list)
    settled_ms: list[float] = field(default_factory=list)
    kb: list[float] = field(default_factory=list)


class ByteCounter:
    """Sums the payloads of every websocket frame the page receives.

    Playwright delivers the events while a sync call runs; the count is read only after the
    quiet period, when the step's last frame has long arrived.
    """

    def __init__(self, page: Page) -> None:
        self.total = 0
        page.on("websocket", self._attach)

    def _attach(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        self.total += len(payload.encode() if isinstance(payload, str) else payload)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(script: str) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run script`` on a free port (not yet waited for)."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            script,
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--server.fileWatcherType",
            "none",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc, f"http://127.0.0.1:{port}"


def wait_healthy(proc: subprocess.Popen, base: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit for {base} exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"streamlit at {base} did not answer /_stcore/health in {timeout:.0f} s")


@contextmanager
def servers(scripts: list[str]) -> Iterator[list[str]]:
    """Serve each script; the servers are stopped even when the benchmark fails."""
    procs: list[subprocess.Popen] = []
    try:
        bases = []
        for script in scripts:  # started together: their start-up overlaps
            proc, base = start_server(script)
            procs.append(proc)
            bases.append(base)
        for proc, base in zip(procs, bases):
            wait_healthy(proc, base)
        yield bases
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


STATE_JS = """(views) => ({
  url: location.href,
  scriptState: document.querySelector('.stApp')?.getAttribute('data-test-script-state'),
  running: window.__bench?.running(),
  stale: document.querySelectorAll("[data-stale='true']").length,
  skeletons: document.querySelectorAll("[data-testid='stSkeleton']").length,
  stepper: document.querySelector('.bl-stepper')?.dataset.round,
  views: [...document.querySelectorAll(views)].map((v) => `${v.dataset.frame}/${v.dataset.drawn}`),
  focus: document.activeElement?.outerHTML.slice(0, 80),
  exception: document.querySelector("[data-testid='stException']")?.innerText.slice(0, 300),
})"""


@contextmanager
def explained(page: Page, what: str) -> Iterator[None]:
    """Turn a wait's timeout into an error that shows what the page was showing."""
    try:
        yield
    except PlaywrightTimeoutError as e:
        try:
            state = page.evaluate(STATE_JS, VIEWS)
        except PlaywrightError as inner:
            state = f"(page state unavailable: {inner})"
        raise RuntimeError(f"{what}; page state: {state}") from e


def wait_idle(page: Page, ready: str) -> None:
    with explained(page, f"{page.url} never became idle"):
        page.wait_for_function(
            IDLE_JS, arg={"quiet": QUIET_MS, "ready": ready}, polling="raf", timeout=LOAD_TIMEOUT_MS
        )


def measure_steps(
    page: Page,
    counter: ByteCounter,
    result: Result,
    targets: list[int],
    keys: list[str],
    drawn_js: str,
    drawn_arg: dict,
) -> None:
    """Press ``keys[i]`` and wait for round ``targets[i]``; the first press is the warm-up.

    The settle wait after each step also makes sure the page is idle before the next press.
    """
    for i, (t, key) in enumerate(zip(targets, keys)):
        page.evaluate("() => window.__bench.mark()")
        bytes0 = counter.total
        t0 = time.perf_counter()
        page.keyboard.press(key)
        with explained(page, f"{result.label}: step {i} ({key} to round {t}) not drawn"):
            page.wait_for_function(
                drawn_js, arg={**drawn_arg, "t": t}, polling="raf", timeout=STEP_TIMEOUT_MS
            )
        page.evaluate(TWO_FRAMES_JS)  # the drawn frame has been painted
        step = time.perf_counter() - t0
        with explained(page, f"{result.label}: step {i} (round {t}) never settled"):
            quiet = page.wait_for_function(
                SETTLED_JS,
                arg={"quiet": QUIET_MS, "noRunMs": 5000},
                polling="raf",
                timeout=STEP_TIMEOUT_MS,
            ).json_value()
        settled = time.perf_counter() - t0 - quiet / 1000
        if i == 0:
            continue
        result.step_ms.append(1000 * step)
        # A rerun that draws the step (baseline, old stepper) ends before the paint: its
        # settled time is the step time.
        result.settled_ms.append(1000 * max(settled, step))
        result.kb.append((counter.total - bytes0) / 1000)


def plan(start: int, lo: int, hi: int, presses: int) -> tuple[list[int], list[str]]:
    """Rounds to step to from ``start``: → while the run has rounds left, then ← (and back)."""
    targets, keys, t, d = [], [], start, 1
    for _ in range(presses):
        if not lo <= t + d <= hi:
            d = -d
        t += d
        targets.append(t)
        keys.append("ArrowRight" if d > 0 else "ArrowLeft")
    return targets, keys


def bench_baseline(browser: Browser, base: str, viewport: dict, repeats: int) -> Result:
    page = browser.new_page(viewport=viewport)
    try:
        counter = ByteCounter(page)
        page.goto(base + "/", timeout=LOAD_TIMEOUT_MS)
        page.evaluate(INSTALL_JS)
        wait_idle(page, "[data-testid='stSlider']")
        # This Streamlit's slider (react-aria) has no element with role="slider": the thumb
        # holds a visually hidden <input type="range"> that takes the keys. Focusing it is
        # what a click on the thumb does, without the risk of the click moving the value.
        page.focus("[data-testid='stSlider'] input[type='range']")
        targets, keys = plan(0, 0, 30, repeats + 1)
        result = Result("baseline (1 slider + 1 text)")
        measure_steps(page, counter, result, targets, keys, BASELINE_DRAWN_JS, {})
        return result
    finally:
        page.close()


def bench_page(
    browser: Browser, base: str, name: str, viewport: dict, repeats: int, present: bool
) -> Result:
    page = browser.new_page(viewport=viewport)
    try:
        counter = ByteCounter(page)
        path, _, own = name.partition("?")
        query = (
            f"?{ROUND_KEY}=1" + ("&present=true" if present else "") + (f"&{own}" if own else "")
        )
        page.goto(f"{base}/{path}{query}", timeout=LOAD_TIMEOUT_MS)
        page.evaluate(INSTALL_JS)
        wait_idle(page, ".bl-stepper, .st-key-round_bar [data-testid='stSlider']")
        # Both steppers take → only while no text field has the focus: click an empty spot
        # at the left edge (the sidebar's padding) so that the body has it.
        page.mouse.click(5, 400)
        if page.query_selector(".bl-stepper"):
            with explained(page, f"{name}: the views were never drawn"):
                page.wait_for_function(
                    VIEWS_DRAWN_JS, arg={"views": VIEWS}, polling="raf", timeout=LOAD_TIMEOUT_MS
                )
            rng = ".bl-stepper input.bl-range"
            start = int(page.get_attribute(".bl-stepper", "data-round"))
            drawn_js, drawn_arg, label = LECTURE_DRAWN_JS, {"views": VIEWS}, name
        else:
            rng = f".st-key-{ROUND_KEY}_bar [data-testid='stSlider'] input[type='range']"
            start = int(page.get_attribute(rng, "value"))
            drawn_js, label = OLD_DRAWN_JS, f"{name} (old stepper)"
            drawn_arg = {"lo": int(page.get_attribute(rng, "min")), "key": ROUND_KEY}
        lo, hi = int(page.get_attribute(rng, "min")), int(page.get_attribute(rng, "max"))
        targets, keys = plan(start, lo, hi, repeats + 1)
        result = Result(label)
        measure_steps(page, counter, result, targets, keys, drawn_js, drawn_arg)
        return result
    finally:
        page.close()


PLAY_JS = """async ({ seconds }) => {
  // Every round Play shows, and when all views had drawn it (two frames after the event).
  const shown = [];
  const onRound = (e) => {
    const t = e.detail.t;
    const check = () => {
      const vs = [...document.querySelectorAll('.bl-view')];
      if (vs.every((v) => v.dataset.drawn === v.dataset.frame)) {
        const stamp = () => shown.push([t, performance.now()]);
        requestAnimationFrame(() => requestAnimationFrame(stamp));
      } else requestAnimationFrame(check);
    };
    check();
  };
  window.addEventListener('boostlab:round', onRound);
  document.querySelector('.bl-stepper .bl-play').click();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  document.querySelector('.bl-stepper .bl-play').click();
  window.removeEventListener('boostlab:round', onRound);
  return shown;
}"""


def bench_play(
    browser: Browser, base: str, name: str, viewport: dict, present: bool, seconds: float = 8.0
) -> str:
    """Play at the normal speed (1 round/s) from round 0: the rounds drawn per second."""
    page = browser.new_page(viewport=viewport)
    try:
        query = f"?{ROUND_KEY}=0" + ("&present=true" if present else "")
        page.goto(f"{base}/{name}{query}", timeout=LOAD_TIMEOUT_MS)
        page.evaluate(INSTALL_JS)
        wait_idle(page, ".bl-stepper")
        page.wait_for_function(
            VIEWS_DRAWN_JS, arg={"views": VIEWS}, polling="raf", timeout=LOAD_TIMEOUT_MS
        )
        shown = page.evaluate(PLAY_JS, {"seconds": seconds})
        rounds = [t for t, _ in shown]
        times = [ms for _, ms in shown]
        if len(times) < 3:
            return f"Play on /{name}: only {len(times)} rounds drawn in {seconds:g} s"
        gaps = [b - a for a, b in zip(times[1:], times[2:])]  # from the first timer tick on
        rate = 1000.0 / statistics.median(gaps) if gaps else float("nan")
        return (
            f"Play on /{name} at normal speed (1 round/s): rounds {rounds[0]}–{rounds[-1]} "
            f"drawn in {seconds:g} s; median interval {statistics.median(gaps):.0f} ms "
            f"(min {min(gaps):.0f}, max {max(gaps):.0f}) = {rate:.2f} rounds/s"
        )
    finally:
        page.close()


def table(rows: list[Result], baseline: Result) -> str:
    """Aligned plain-text table that is also a markdown table."""
    base_ms = statistics.median(baseline.step_ms)
    head = [
        "page",
        "step median (ms)",
        "baseline median (ms)",
        "ratio step/baseline",
        "settled median (ms)",
        "KB received per step (median)",
        f"ratio ≤ {MAX_RATIO:g} and KB ≤ {MAX_KB:g}",
    ]
    body = []
    for r in [baseline, *rows]:
        step, kb = statistics.median(r.step_ms), statistics.median(r.kb)
        ratio = step / base_ms
        if r is baseline:
            verdict = "(reference)"
        else:
            fails = [w for w, bad in (("ratio", ratio > MAX_RATIO), ("KB", kb > MAX_KB)) if bad]
            verdict = "FAIL: " + ", ".join(fails) if fails else "PASS"
        body.append(
            [
                r.label,
                f"{step:.0f}",
                f"{base_ms:.0f}",
                f"{ratio:.2f}",
                f"{statistics.median(r.settled_ms):.0f}",
                f"{kb:.1f}",
                verdict,
            ]
        )
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return (
            "| "
            + " | ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
            )
            + " |"
        )

    rule = (
        "|"
        + "|".join("-" * (w + 1) + ":" if i else ":" + "-" * (w + 1) for i, w in enumerate(widths))
        + "|"
    )
    return "\n".join([line(head), rule, *(line(b) for b in body)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--pages",
        default=",".join(PAGES),
        help="comma-separated url paths of the app (default: %(default)s)",
    )
    ap.add_argument("--repeats", type=int, default=7, help="measured steps per page")
    ap.add_argument("--viewport", default="1920x1080", help="WIDTHxHEIGHT")
    ap.add_argument("--present", action="store_true", help="open the pages with present=true")
    args = ap.parse_args(argv)
    pages = [p.strip().strip("/") for p in args.pages.split(",") if p.strip()]
    width, height = (int(v) for v in args.viewport.lower().split("x"))
    viewport = {"width": width, "height": height}

    # A loaded machine slows every step alike only roughly: say what it was doing.
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load}; CPUs: {os.cpu_count()}")
    print(
        f"viewport {width}x{height}, {args.repeats} steps per page after 1 warm-up, "
        f"quiet period {QUIET_MS} ms{', present=true' if args.present else ''}\n"
    )

    with servers([BASELINE_APP, "app.py"]) as (base_url, app_url), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            baseline = bench_baseline(browser, base_url, viewport, args.repeats)
            rows = [
                bench_page(browser, app_url, name, viewport, args.repeats, args.present)
                for name in pages
            ]
            play = (
                bench_play(browser, app_url, "topdown", viewport, args.present)
                if "topdown" in pages
                else ""
            )
        finally:
            browser.close()
    print(table(rows, baseline))
    if play:
        print("\n" + play)
    print(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
