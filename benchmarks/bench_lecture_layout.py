"""Benchmark: how the four lesson pages lay out for a lecturer (issue 25, items 1, 2, 3 and 6).

Run from the repository root (needs Debian's ``/usr/bin/chromium``; never ``playwright
install``)::

    .venv/bin/python benchmarks/bench_lecture_layout.py
    .venv/bin/python benchmarks/bench_lecture_layout.py --pages topdown,branching --load
    .venv/bin/python benchmarks/bench_lecture_layout.py --root /tmp/other-checkout --load

The script serves ``app.py`` of ``--root`` (default: this repository) with its own Streamlit
server on a free port and opens each page in one headless Chromium at the three settings of a
lecture: ``?present=true`` at 1920×1080 and 1280×720, and the normal page (sidebar open) at
1440×900. On each it measures four modes in turn — none, *You are the weak learner* (``weak``;
/matryoshka has no such toggle), *Predict, then reveal* (``quiz``) and both — toggled by a
click on the toggle's label, then waits until the page has settled (no script run, no
running indicator, every view drawn, the views' boxes still).

For each page × viewport × mode, at scroll position 0, it records (``measure``):

* the top and bottom y of the three views (regions, structure, curves) and of the proof
  card; ``fits`` = all four lie inside the window;
* the smallest rendered text inside those four: SVG ``text``/``tspan`` (plotly charts and
  the SVG tree pictures) at computed font-size × the scale of ``getScreenCTM()`` (the SVGs
  are scaled; ``hypot(a, b)`` so that rotated axis titles count too), HTML text at its
  computed font-size (× any CSS transform scale). Separately for normal text ("label") and
  for sub/superscripts: HTML inside ``sub``/``sup`` (or ``vertical-align`` sub/super), SVG
  text whose font-size is below its parent text's (plotly draws ``<sup>`` as a smaller
  ``tspan`` shifted by ``dy``). Hidden text (zero-size box, ``display: none``,
  ``visibility: hidden``, opacity 0) and plotly's mode bar are left out;
* in weak mode: the y of the student's primary button (the one whose text starts with
  "Use my") and whether it lies inside the window.

Quiz question delay (quiz mode only, at 1440×900 and 1920×1080 presenting): ArrowRight with
the focus on the page body, timed in the page (``performance.now``) from the key press until
the first quiz box (``[class*="st-key-quiz_"][class*="_box"]``) shows text that differs from
before the press, the stepper (``.bl-stepper[data-round]``) is at the new round, no script
run is going on and the text has not changed for 300 ms; the delay is the moment of the
box's last change, so the 300 ms are not counted. Median of 3 steps, at most 30 s each
(">30 s" then). A step after which the box keeps the question it asked before (the step's
script run is over and the page has been idle for 2 s) is no delay: it is counted apart
("1× same question") and one more step is taken, at most two more. With ``--load`` the
same is measured again while two ``python -c "while True: pass"`` processes keep both
cores busy (started for the quiz measurement only and killed after it).

The table goes to stdout (markdown), progress to stderr.

For tests: ``MEASURE_JS`` is the in-page measurement of one page and ``measure(page)`` runs
it (``from bench_lecture_layout import measure`` with ``benchmarks/`` on ``sys.path``).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ui import pages as _registry  # noqa: E402  (the lesson list is declared once, there)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]
PAGES = tuple(p.slug for p in _registry.with_feature("lecture"))
#: name → (width, height, presenter mode)
VIEWPORTS: dict[str, tuple[int, int, bool]] = {
    "1920x1080 present": (1920, 1080, True),
    "1280x720 present": (1280, 720, True),
    "1440x900": (1440, 900, False),
}
#: where the quiz question delay is measured (the lecture's two usual screens)
QUIZ_VIEWPORTS = ("1440x900", "1920x1080 present")
WEAK = "You are the weak learner"
QUIZ = "Predict, then reveal"
NO_WEAK = {p.slug for p in _registry.with_feature("lecture") if not p.has("student")}
VIEW_KEYS = ("regions", "structure", "curves")
QUIZ_BOX = '[class*="st-key-quiz_"][class*="_box"]'
QUIZ_STEPS = 3
QUIZ_TIMEOUT_MS = 30_000
QUIZ_QUIET_MS = 300  # the box's text unchanged this long: the new question is in place
LOAD_TIMEOUT_MS = 180_000  # the first visit of a page computes its runs
SETTLE_TIMEOUT_MS = 60_000
IDLE_QUIET_MS = 300  # no script run this long (covers the gap between a click and its run)
REFIT_MS = 1250  # the lecture script refits a view 60, 400 and 1200 ms after it mounts
STILL_FRAMES = 5  # the views' boxes unchanged for this many animation frames

# The geometry and text sizes of one page, measured where it stands after every scrollable
# ancestor of the views has been put back to the top (the views' y are window coordinates).
MEASURE_JS = r"""() => {
  const SEL = {
    regions: '.st-key-view-regions .bl-view',
    structure: '.st-key-view-structure .bl-view',
    curves: '.st-key-view-curves .bl-view',
    proof: '.st-key-view-proof .bl-view',
  };
  const H = window.innerHeight, W = window.innerWidth;
  // scroll position 0: the window and every scrolled ancestor of the views (Streamlit
  // scrolls its main section, not the window)
  let scrolled = window.scrollY;
  window.scrollTo(0, 0);
  for (const v of document.querySelectorAll('.bl-view')) {
    for (let e = v.parentElement; e; e = e.parentElement) {
      if (e.scrollTop) { scrolled = Math.max(scrolled, e.scrollTop); e.scrollTop = 0; }
    }
  }
  const r1 = (x) => Math.round(x * 10) / 10;
  const views = {};
  for (const [k, sel] of Object.entries(SEL)) {
    const es = [...document.querySelectorAll(sel)].filter((e) => {
      const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
    if (!es.length) { views[k] = null; continue; }
    const rs = es.map((e) => e.getBoundingClientRect());
    views[k] = { top: r1(Math.min(...rs.map((r) => r.top))),
                 bottom: r1(Math.max(...rs.map((r) => r.bottom))), count: es.length };
  }
  const fits = Object.values(views).every(
    (v) => v && v.top >= -0.5 && v.bottom <= H + 0.5);

  // ---- the smallest rendered text
  const ZW = /[\s\u200b\u200c\u200d\u2060\ufeff]+/g;
  const ownText = (e) => [...e.childNodes].filter((n) => n.nodeType === 3)
    .map((n) => n.nodeValue).join('').replace(ZW, ' ').trim();
  const visible = (e) => {
    if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true,
        checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true }))
      return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const svgText = (e) => e instanceof SVGElement && (e.tagName === 'text' || e.tagName === 'tspan'
                                                     || e.tagName === 'textPath');
  let label = null, sub = null, counted = 0;
  const perView = {};  // the smallest label of each view, to see which one to enlarge
  const consider = (which, size, e, where) => {
    const rec = { px: Math.round(size * 100) / 100, text: ownText(e).slice(0, 20), where,
                  tag: e.tagName.toLowerCase() };
    if (which === 'label' && !(perView[where] && perView[where].px <= rec.px))
      perView[where] = rec;
    const cur = which === 'label' ? label : sub;
    if (cur && cur.px <= rec.px) return;
    if (which === 'label') label = rec; else sub = rec;
  };
  for (const [where, sel] of Object.entries(SEL)) {
    for (const root of document.querySelectorAll(sel)) {
      for (const e of root.querySelectorAll('*')) {
        if (e.closest('.modebar-container, .modebar')) continue;
        if (!ownText(e) || !visible(e)) continue;
        if (e instanceof SVGElement) {
          if (!svgText(e)) continue;
          const m = e.getScreenCTM();
          const scale = m ? Math.hypot(m.a, m.b) : 1;
          const size = px(e) * scale;
          // plotly's <sup>/<sub> (and the trees' indices): a tspan with a smaller font-size
          // than the text it sits in; a <g>'s font-size means nothing (plotly sets none)
          const parent = e.parentElement;
          const smaller = !!parent && svgText(parent) && px(e) < px(parent) - 0.01;
          consider(smaller ? 'sub' : 'label', size, e, where);
        } else {
          // a CSS transform (scale) shrinks the text without changing its font-size
          const r = e.getBoundingClientRect();
          // (offsetWidth is a whole number: on a short inline element such as a <sub> the
          // ratio is off by a few per cent without any transform, so only a clear one counts)
          const ratio = e.offsetWidth > 0 ? r.width / e.offsetWidth : 1;
          const scale = Math.abs(ratio - 1) > 0.08 ? ratio : 1;
          const va = getComputedStyle(e).verticalAlign;
          const isSub = !!e.closest('sub, sup') || va === 'sub' || va === 'super';
          consider(isSub ? 'sub' : 'label', px(e) * scale, e, where);
        }
        counted += 1;
      }
    }
  }

  // ---- the student's primary button ("Use my split", "Use my stump", ...)
  const btn = [...document.querySelectorAll('button')]
    .find((b) => b.innerText.trim().startsWith('Use my') && visible(b));
  let button = null;
  if (btn) {
    const r = btn.getBoundingClientRect();
    button = { text: btn.innerText.trim(), top: r1(r.top), bottom: r1(r.bottom),
               inside: r.top >= -0.5 && r.bottom <= H + 0.5 };
  }
  return { width: W, height: H, scrolled, views, fits, label, sub, perView, texts: counted,
           button };
}"""


def measure(page: Any) -> dict:
    """Measure one page as it stands: views' and proof card's y, smallest text, student button.

    Parameters
    ----------
    page : playwright.sync_api.Page
        A page of the app that has settled (views drawn); it is scrolled back to the top.

    Returns
    -------
    dict
        ``width``, ``height`` (the window), ``scrolled`` (how far it was scrolled before),
        ``views`` (``regions``/``structure``/``curves``/``proof`` → ``{top, bottom, count}`` or
        None when missing), ``fits`` (all four inside the window), ``label`` and ``sub`` (the
        smallest normal text and the smallest sub/superscript: ``{px, text, where, tag}`` or
        None), ``perView`` (view name → its smallest normal text, same form), ``texts``
        (how many text elements were measured) and ``button`` (the student's
        "Use my …" button: ``{text, top, bottom, inside}`` or None).
    """
    return page.evaluate(MEASURE_JS)


# ---------------------------------------------------------------------------- waiting

# Marks every lecture view with the moment it entered the page (the lecture script refits a view's
# height 60, 400 and 1200 ms after it mounts, so its box is final only after that).
MOUNTS_JS = """new MutationObserver(ms => {
  const now = performance.now();
  window.__blLastMount = window.__blLastMount || now;
  for (const m of ms) for (const n of m.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const v of [n, ...n.querySelectorAll('.bl-view')])
      if (v.classList.contains('bl-view') && v.__blMounted === undefined) {
        v.__blMounted = now; window.__blLastMount = now; }
  }
}).observe(document, {childList: true, subtree: true});"""

# Settled: no script run and no running indicator for ``quiet`` ms, the views of the three
# panels drawn, the last mount ``refit`` ms ago and the boxes of the views, the proof card
# and the student's button the same for ``frames`` animation frames.
SETTLED_JS = """([t0, quiet, refit, frames]) => {
  const now = performance.now();
  const app = document.querySelector("[data-testid='stApp']");
  const s = window.__blSettle || (window.__blSettle = {changed: now, sig: '', n: 0});
  if (s.t0 !== t0) { s.t0 = t0; s.changed = now; s.sig = ''; s.n = 0; }
  const w = document.querySelector("[data-testid='stStatusWidget']:not(.StatusWidget-exit)");
  const running = !app || app.dataset.testScriptState !== 'notRunning'
    || app.dataset.testConnectionState !== 'CONNECTED'
    || !!(w && w.querySelector("[data-testid='stStatusWidgetRunningIcon']"))
    || !!document.querySelector("[data-testid='stSkeleton']");
  if (running) { s.changed = now; return false; }
  const views = [...document.querySelectorAll(['regions', 'structure', 'curves']
    .map((k) => `.st-key-view-${k} .bl-view`).join(', '))];
  if (!views.length || views.some((v) => v.dataset.drawn === undefined
      || (v.dataset.frame !== undefined && v.dataset.drawn !== v.dataset.frame))) {
    s.changed = now; return false; }
  if (now - s.changed < quiet) return false;
  if (now - (window.__blLastMount || 0) < refit) return false;
  const boxes = [...views, ...document.querySelectorAll('.st-key-view-proof .bl-view, button')];
  const sig = JSON.stringify(boxes.map((e) => {
    const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }));
  if (sig === s.sig) s.n += 1; else { s.sig = sig; s.n = 0; }
  return s.n >= frames;
}"""

# The quiz question delay: armed before the key press; polled each animation frame after it.
QUIZ_ARM_JS = """([sel]) => {
  const box = () => document.querySelector(sel);
  const Q = window.__blQuiz = { before: box() ? box().innerText : '', pressAt: null, runs: 0 };
  Q.last = Q.before; Q.lastChange = null; Q.lastBusy = performance.now();
  const st = document.querySelector('.bl-stepper');
  Q.round = Number(st?.dataset.round);
  Q.max = Number(st?.querySelector('input.bl-range')?.max ?? Infinity);
  window.addEventListener('keydown', () => { if (Q.pressAt === null)
    Q.pressAt = performance.now(); }, { capture: true, once: true });
  // count the script runs that start after the press: the server's answer to the step
  if (Q.obs) Q.obs.disconnect();
  Q.obs = new MutationObserver((records) => {
    for (const r of records) if (r.oldValue === 'notRunning' && Q.pressAt !== null) Q.runs += 1;
  });
  Q.obs.observe(document.body, { subtree: true, attributes: true, attributeOldValue: true,
                                 attributeFilter: ['data-test-script-state'] });
  return [Q.round, Q.max];
}"""

# Done when the box shows a new text, the stepper is at the new round, no script runs and the
# text has stayed for ``quiet`` ms: returns {ms} (press → the box's last change). Also done,
# with {same: true}, when the step's script run is over (or none came in ``noRunMs``), the
# page has been idle for ``idleMs`` and the box still shows the text of before the press: the
# page asks the same question again (no delay to measure: it will not change any more).
QUIZ_DONE_JS = """([sel, target, quiet, idleMs, noRunMs]) => {
  const Q = window.__blQuiz, now = performance.now();
  if (Q.pressAt === null) return false;
  const b = document.querySelector(sel);
  const text = b ? b.innerText : '';  // innerText: not the box's <style>
  if (text !== Q.last) { Q.last = text; Q.lastChange = now; }
  const st = document.querySelector('.bl-stepper');
  if (!st || Number(st.dataset.round) !== target) return false;
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.dataset.testScriptState !== 'notRunning') { Q.lastBusy = now; return false; }
  if (text !== Q.before && Q.lastChange !== null)
    return now - Q.lastChange >= quiet ? { ms: Q.lastChange - Q.pressAt,
                                           text: text.slice(0, 60) } : false;
  const over = Q.runs > 0 || now - Q.pressAt > noRunMs;
  return over && now - Q.lastBusy >= idleMs ? { same: true, text: text.slice(0, 60) } : false;
}"""

#: after the step's run, this long idle with the old question means it will not change
SAME_IDLE_MS = 2000
NO_RUN_MS = 5000


def settle(page: Any, timeout_ms: int = SETTLE_TIMEOUT_MS) -> None:
    """Wait until the page has settled (see ``SETTLED_JS``): polled each animation frame."""
    t0 = page.evaluate("performance.now()")
    page.wait_for_function(
        SETTLED_JS,
        arg=[t0, IDLE_QUIET_MS, REFIT_MS, STILL_FRAMES],
        polling="raf",
        timeout=timeout_ms,
    )


# ---------------------------------------------------------------------------- server


def free_port() -> int:
    """A free TCP port of 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(root: Path) -> Iterator[str]:
    """Serve ``root/app.py`` on a free port; yields the base URL once it is healthy.

    The server is stopped at the end, also when the benchmark fails or is interrupted.
    """
    port = free_port()
    log = tempfile.TemporaryFile()  # a pipe nobody reads would fill up and block the server
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
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
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                log.seek(0)
                tail = log.read().decode(errors="replace")[-2000:]
                raise RuntimeError(f"streamlit exited with code {proc.returncode}: {tail}")
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"streamlit at {base} never answered /_stcore/health"
                    ) from None
                time.sleep(0.2)  # polling the health endpoint, not waiting a fixed time
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


@contextmanager
def burners(n: int) -> Iterator[None]:
    """``n`` busy-looping Python processes for the duration of the block (killed after)."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait(timeout=10)


# ---------------------------------------------------------------------------- measuring


@dataclass
class Row:
    """One page × viewport × mode."""

    page: str
    viewport: str
    mode: str
    m: dict | None = None
    error: str = ""
    quiz_idle: list[float | str | None] = field(default_factory=list)
    quiz_loaded: list[float | str | None] = field(default_factory=list)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def toggle(page: Any, label: str) -> None:
    """Click the toggle's label text and wait until the page has settled."""
    page.get_by_text(label, exact=True).first.click()
    settle(page)


def quiz_step(page: Any) -> float | str | None:
    """Press → on the page body: the quiz question delay in ms.

    Returns None when no new question came within 30 s, "same" when the step's run ended
    and the box still asks what it asked before the press, "end" at the run's last round.
    """
    # the body must have the focus: the lecture script ignores keys typed into a field, and a
    # focused radio of the quiz would take the arrow itself
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    start, last = page.evaluate(QUIZ_ARM_JS, [QUIZ_BOX])
    if start + 1 > last:
        return "end"
    page.keyboard.press("ArrowRight")
    try:
        got = page.wait_for_function(
            QUIZ_DONE_JS,
            arg=[QUIZ_BOX, start + 1, QUIZ_QUIET_MS, SAME_IDLE_MS, NO_RUN_MS],
            polling="raf",
            timeout=QUIZ_TIMEOUT_MS,
        ).json_value()
        text = got["text"].replace("\n", " ")
        if got.get("same"):
            log(f"    round {start} → {start + 1}: the same question stays: {text!r}")
            result: float | str | None = "same"
        else:
            log(f"    round {start} → {start + 1}: {got['ms'] / 1000:.2f} s to {text!r}")
            result = got["ms"]
    except Exception as e:  # noqa: BLE001 — a timeout (or a lost page) is a result here
        log(f"    round {start} → {start + 1}: no new question in 30 s ({type(e).__name__})")
        result = None
    try:
        settle(page)  # the next step starts from a quiet page
    except Exception:  # noqa: BLE001
        pass
    return result


def quiz_delays(page: Any, steps: int) -> list[float | str | None]:
    """Step until ``steps`` steps brought a new question (or timed out); at most
    ``steps + 2`` presses, so that a repeated question does not count as a delay."""
    out: list[float | str | None] = []
    for _ in range(steps + 2):
        r = quiz_step(page)
        if r == "end":
            break
        out.append(r)
        if sum(x != "same" for x in out) >= steps:
            break
    return out


def modes_for(name: str) -> list[str]:
    return ["none", "quiz"] if name in NO_WEAK else ["none", "weak", "both", "quiz"]


def run_viewport(browser: Any, base: str, name: str, vp: str, load: bool) -> list[Row]:
    """Every mode of one page at one viewport, in one browser page (toggled in turn)."""
    width, height, present = VIEWPORTS[vp]
    rows: list[Row] = []
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.add_init_script(MOUNTS_JS)
    try:
        t = time.monotonic()
        page.goto(f"{base}/{name}" + ("?present=true" if present else ""), timeout=LOAD_TIMEOUT_MS)
        page.wait_for_selector(".st-key-view-curves .bl-view[data-drawn]", timeout=LOAD_TIMEOUT_MS)
        settle(page)
        log(f"  {name} {vp}: loaded in {time.monotonic() - t:.1f} s")
        # none → weak → both → quiz: each step flips one toggle
        flips = {"weak": WEAK, "both": QUIZ, "quiz": WEAK}
        if name in NO_WEAK:
            flips = {"quiz": QUIZ}
        for mode in modes_for(name):
            row = Row(name, vp, mode)
            rows.append(row)
            try:
                if mode in flips:
                    t = time.monotonic()
                    toggle(page, flips[mode])
                    log(f"  {name} {vp} {mode}: toggled in {time.monotonic() - t:.1f} s")
                row.m = measure(page)
            except Exception as e:  # noqa: BLE001 — one failed setting must not end the run
                row.error = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
                log(f"  {name} {vp} {mode}: {row.error}")
                break
        quiz = rows[-1]
        if vp in QUIZ_VIEWPORTS and quiz.mode == "quiz" and not quiz.error:
            if not page.query_selector(QUIZ_BOX):
                quiz.error = "no quiz box"
            else:
                log(f"  {name} {vp}: quiz delay, idle")
                quiz.quiz_idle = quiz_delays(page, QUIZ_STEPS)
                if load:
                    log(f"  {name} {vp}: quiz delay, 2 burners")
                    with burners(2):
                        quiz.quiz_loaded = quiz_delays(page, QUIZ_STEPS)
    except Exception as e:  # noqa: BLE001
        msg = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
        log(f"  {name} {vp}: {msg}")
        if not rows:
            rows.append(Row(name, vp, "none", error=msg))
    finally:
        ctx.close()
    return rows


# ---------------------------------------------------------------------------- the table


def fmt_delay(ms: float | None) -> str:
    return ">30 s" if ms is None else f"{ms / 1000:.2f} s"


def median_delay(samples: list[float | str | None]) -> str:
    """Median of the steps that brought a new question (a timeout counts as the longest),
    with the number of steps that kept the old question."""
    same = sum(x == "same" for x in samples)
    xs = sorted((x for x in samples if x != "same"), key=lambda v: float("inf") if v is None else v)
    if not xs:
        out = "—"
    elif len(xs) % 2:
        out = fmt_delay(xs[len(xs) // 2])
    else:
        a, b = xs[len(xs) // 2 - 1], xs[len(xs) // 2]
        out = fmt_delay(None if a is None or b is None else statistics.mean([a, b]))
    if xs:
        out += f" (n={len(xs)})"
    return out + (f", {same}× same question" if same else "")


def fmt_text(rec: dict | None) -> str:
    if not rec:
        return "—"
    text = rec["text"].replace("|", "\\|")
    return f"{rec['px']:.1f} “{text}” ({rec['where']})"


def table(rows: list[Row], load: bool) -> str:
    head = [
        "page",
        "viewport",
        "mode",
        "views top y",
        "views bottom y",
        "proof bottom y",
        "fits",
        "smallest label px (text, view)",
        "smallest sub/sup px (text, view)",
        "student button y",
        "quiz delay idle",
        "quiz delay loaded" if load else "quiz delay loaded (no --load)",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        if r.m is None:
            cells = [r.page, r.viewport, r.mode, f"error: {r.error}"] + ["—"] * (len(head) - 4)
        else:
            v = r.m["views"]
            three = [v[k] for k in VIEW_KEYS if v[k]]
            top = f"{min(x['top'] for x in three):.0f}" if three else "—"
            bottom = f"{max(x['bottom'] for x in three):.0f}" if three else "—"
            if len(three) < 3:
                top += f" ({3 - len(three)} missing)"
            proof = f"{v['proof']['bottom']:.0f}" if v["proof"] else "none"
            b = r.m["button"]
            if r.mode in ("weak", "both"):
                btn = f"{b['top']:.0f} ({'in' if b['inside'] else 'OUT of'} view)" if b else "none"
            else:
                btn = "—"
            quiz = r.mode == "quiz" and r.viewport in QUIZ_VIEWPORTS
            cells = [
                r.page,
                r.viewport,
                r.mode,
                top,
                bottom,
                proof,
                "yes" if r.m["fits"] else "no",
                fmt_text(r.m["label"]),
                fmt_text(r.m["sub"]),
                btn,
                median_delay(r.quiz_idle) if quiz else "—",
                median_delay(r.quiz_loaded) if quiz and load else "—",
            ]
            if r.error:
                cells[3] += f" (then {r.error})"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_view_table(rows: list[Row]) -> str:
    """The smallest normal text of each view (which view to enlarge)."""
    views = [*VIEW_KEYS, "proof"]
    head = ["page", "viewport", "mode", *(f"{v} smallest label px" for v in views)]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        if r.m is None:
            continue
        cells = [r.page, r.viewport, r.mode, *(fmt_text(r.m["perView"].get(v)) for v in views)]
        lines.append(
            "| "
            + " | ".join(c.replace(f" ({v})", "") for c, v in zip(cells, ["", "", "", *views]))
            + " |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints the table to stdout."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--pages", default=",".join(PAGES), help="comma-separated pages (default: %(default)s)"
    )
    ap.add_argument(
        "--root", type=Path, default=ROOT, help="checkout whose app.py is served (default: here)"
    )
    ap.add_argument(
        "--load",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time the quiz with both cores kept busy (default; --no-load skips it)",
    )
    ap.add_argument("--json", type=Path, help="also write every measurement to this file")
    args = ap.parse_args(argv)
    pages = [p.strip().strip("/") for p in args.pages.split(",") if p.strip()]
    unknown = [p for p in pages if p not in PAGES]
    if unknown:
        ap.error(f"--pages must name pages among {', '.join(PAGES)}; got {', '.join(unknown)}")
    root = args.root.resolve()
    if not (root / "app.py").is_file():
        ap.error(f"--root must be a checkout with app.py; {root} has none")

    from playwright.sync_api import sync_playwright  # only the run needs it, not an import

    t_start = time.monotonic()
    load0 = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    log(f"serving {root}/app.py; load average {load0}")
    rows: list[Row] = []
    with streamlit_server(root) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for name in pages:
                for vp in VIEWPORTS:
                    rows += run_viewport(browser, base, name, vp, args.load)
        finally:
            browser.close()
    print(table(rows, args.load))
    print("\nSmallest normal text per view:\n")
    print(per_view_table(rows))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1, ensure_ascii=False))
    took = time.monotonic() - t_start
    print(
        f"\nTook {took / 60:.1f} min; load average before {load0}, after "
        f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min); {os.cpu_count()} CPUs."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
