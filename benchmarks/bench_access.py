"""Benchmark: every page on a student's phone, by keyboard and for a screen reader (issue 26).

Run from the repository root (needs Debian's ``/usr/bin/chromium``; never ``playwright
install``)::

    .venv/bin/python benchmarks/bench_access.py
    .venv/bin/python benchmarks/bench_access.py --pages topdown,home --shots /tmp/access_shots
    .venv/bin/python benchmarks/bench_access.py --root /tmp/other-checkout --out results.md

The script serves ``app.py`` of ``--root`` (default: this repository) with its own Streamlit
server on a free port and opens every page of the registry (``ui.pages.PAGES``; ``home`` is
the page at ``/``) in one headless Chromium, emulating touch devices (``is_mobile``,
``has_touch``, device scale factor 2):

* ``phone`` 390×844 and ``tablet`` 768×1024, each page as it opens (mode ``plain``);
* the four lesson pages (``ui.pages.with_feature("lecture")``) also on the phone with every
  mode on (``all``): ``?present=true``, then *Predict, then reveal* and, where the page has
  it, *You are the weak learner*, clicked by their label text.

After the page has settled (no script run, no running indicator, every lecture view drawn,
every plotly chart and Graphviz picture drawn, the boxes still for a few animation frames),
``audit(page)`` measures, at scroll position 0:

1. **Sideways scroll.** ``pagePx``: how far the *page* scrolls sideways — max(scrollWidth −
   clientWidth) over the page's own scrollers that let the user scroll sideways (the window,
   i.e. ``document.scrollingElement`` unless ``html``/``body`` hide their overflow, and
   Streamlit's ``[data-testid="stMain"]`` and ``[data-testid="stAppViewContainer"]`` when their
   computed ``overflow-x`` is ``auto`` or ``scroll``; Streamlit scrolls its main section, not
   the window). ``boxes``: how many other visible elements scroll sideways inside themselves
   (``overflow-x`` auto/scroll and content wider than the box: a wide table in its own box,
   which is acceptable). ``right``: how far the rightmost visible element's right edge lies
   beyond the viewport, each box cut by its ancestors that clip (``overflow-x`` not
   ``visible``) except the page's scrollers, so that it is the distance a student must swipe
   (0 when nothing sticks out). Absolutely positioned boxes are cut by every clipping
   ancestor, not only their containing block's (a small over-estimate of clipping).
2. **Stepper in view** (lesson pages): whether the stepper's next (``button[data-act="next"]``)
   and Play (``.bl-play``) buttons lie wholly inside the viewport, cut by the ancestors that
   clip them (Streamlit's main section clips what sticks out sideways), and are the element
   hit at their centre (no header over them) — at scroll 0 and with the page's vertical
   scroller at half its range (is the stepper sticky?). **Usable** = the page does not
   scroll sideways and, on a lesson page, both buttons are in view at both positions.
3. **axe-core** (the bundled ``axe.min.js`` of ``axe-playwright-python``; tags ``wcag2a``,
   ``wcag2aa``, ``wcag21a``, ``wcag21aa``, ``wcag22aa``; violations only): each violating node
   is *ours* when its element lies inside our own markup (``OURS_SELECTOR``: an element with a
   ``bl-…`` class, the lecture components' hosts — components v2 render into the page, inside
   ``.stBidiComponent`` —, ``st.html`` blocks, plotly charts with their toolbar, Graphviz
   pictures) and *Streamlit's* otherwise (its widgets, header, sidebar, toolbar, markdown
   styling, ``st.caption``; also nodes axe reports without an element, such as the document).
   Counts of nodes per rule id for each side; nothing is left out.
4. **Tab stops to the stepper** (lesson pages): with the focus navigation starting at the top
   of the document (a ``tabindex=-1`` marker first in ``body`` holds the focus, so a toggle
   clicked before does not count as the start), Tab is pressed until ``document.activeElement``
   is inside ``.bl-stepper``; ">150" when 150 presses do not get there. Stops inside plotly
   toolbars are counted apart.
5. **Tap targets**: every visible interactive element (``TARGET_SELECTOR``: links, buttons,
   inputs, selects, text areas, summaries, the ARIA widget roles, positive ``tabindex``,
   plotly's toolbar buttons) that is not cut away entirely by a clipping ancestor (the
   collapsed sidebar is moved off-screen, to the left). A checkbox or radio ``input`` inside a
   ``label`` (Streamlit's toggles and checkboxes draw their own small input) is measured as its
   label, the area a tap hits. Reported: the smallest by min(width, height), the number under
   24 px in either dimension (WCAG 2.5.8, inline text links included) out of all, and the
   smallest of the stepper's buttons and the quiz's answers (``.bl-stepper button,
   .bl-quiz-a``; the issue asks ≥ 44 px).

A markdown table goes to stdout (and to ``--out``), one row per page × viewport × mode, with
the per-rule axe detail and the small tap targets below it; progress goes to stderr.

For tests: ``audit(page)`` (``from bench_access import audit`` with ``benchmarks/`` on
``sys.path``) runs every measurement on a settled page; the in-page parts are the module's
``*_JS`` constants, and ``settle``, ``axe_violations``, ``tab_stops_to_stepper`` can be used
alone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lecture_layout import (  # noqa: E402  (the server and the mount marker are shared)
    ARGS,
    CHROMIUM,
    MOUNTS_JS,
    log,
    streamlit_server,
)

from ui import pages as _registry  # noqa: E402  (the page list is declared once, there)

#: every page's slug ("" is home) and the lesson pages
ALL_PAGES = tuple(p.slug for p in _registry.PAGES)
LESSONS = tuple(p.slug for p in _registry.with_feature("lecture"))
STUDENT = {p.slug for p in _registry.with_feature("lecture") if p.has("student")}
#: name → (width, height); both emulate a touch device at device scale factor 2
VIEWPORTS: dict[str, tuple[int, int]] = {"phone": (390, 844), "tablet": (768, 1024)}
WEAK = "You are the weak learner"
QUIZ = "Predict, then reveal"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
TAB_CAP = 150
LOAD_TIMEOUT_MS = 180_000  # the first visit of a page computes its runs
SETTLE_TIMEOUT_MS = 60_000
IDLE_QUIET_MS = 300  # no script run this long (covers the gap between a click and its run)
REFIT_MS = 1250  # the lecture script refits a view 60, 400 and 1200 ms after it mounts
STILL_FRAMES = 5  # the boxes unchanged for this many animation frames

#: A node of an axe violation is ours when its element lies inside one of these.
OURS_SELECTOR = ", ".join(
    [
        '[class^="bl-"]',
        '[class*=" bl-"]',
        ".stBidiComponent",  # the lecture components' hosts (components v2, in the page)
        '[data-testid^="stBidiComponent"]',
        '[data-testid="stHtml"]',
        ".js-plotly-plot",  # the chart and its toolbar: we choose its config
        '[data-testid="stGraphVizChart"]',  # our DOT, laid out by Graphviz
        '[data-testid="stImage"]',  # our pictures (the home page's screenshots)
        ".katex",  # our formulas (st.latex, $…$ in our markdown)
        ".katex-display",
    ]
)
#: The axe-core that axe-playwright-python bundles (read from its banner; "?" if absent).
try:
    from axe_playwright_python.base import AXE_SCRIPT as _AXE

    AXE_VERSION = _AXE[:40].split("axe v", 1)[1].split()[0]
except (ImportError, IndexError):
    AXE_VERSION = "?"
#: What a finger or the Tab key can reach.
TARGET_SELECTOR = ", ".join(
    [
        "a[href]",
        "button",
        "input:not([type=hidden])",
        "select",
        "textarea",
        "summary",
        '[role="button"]',
        '[role="tab"]',
        '[role="slider"]',
        '[role="checkbox"]',
        '[role="switch"]',
        '[tabindex]:not([tabindex="-1"])',
        ".modebar-btn",
    ]
)
#: The controls the issue wants at 44 px at least.
BIG_TARGETS = ".bl-stepper button, .bl-quiz-a"

# ---------------------------------------------------------------------------- in the page

# Shared helpers, prepended to the measurements below: a short description of an element, its
# visibility, and the page's own scrollers.
_HELPERS_JS = r"""
  const PAGE_SCROLLERS = ['[data-testid="stMain"]', '[data-testid="stAppViewContainer"]'];
  const desc = (e) => {
    if (!e || !e.tagName) return String(e);
    const tag = e.tagName.toLowerCase();
    const cls = typeof e.className === 'string' ? e.className : (e.className?.baseVal || '');
    const bl = cls.split(/\s+/).filter((c) => c.startsWith('bl-') || c.startsWith('st-key-')
                                            || c === 'modebar-btn').slice(0, 2);
    const tid = e.dataset?.testid ? `[${e.dataset.testid}]` : '';
    // cut by code points: KaTeX's math letters are surrogate pairs
    const name = Array.from((e.getAttribute('aria-label') || e.getAttribute('data-title')
                             || e.title || e.innerText || e.textContent || '')
                            .replace(/\s+/g, ' ').trim()).slice(0, 30).join('');
    return tag + (bl.length ? '.' + bl.join('.') : '') + tid + (name ? ` "${name}"` : '');
  };
  const clipsX = (s) => s.overflowX !== 'visible';
  const scrollsX = (s) => s.overflowX === 'auto' || s.overflowX === 'scroll';
  const scrollsY = (s) => s.overflowY === 'auto' || s.overflowY === 'scroll';
  const pageScrollers = () => PAGE_SCROLLERS.map((s) => document.querySelector(s))
    .filter(Boolean);
  // the window scrolls unless html (or body, whose overflow the viewport takes when html's is
  // visible) hides its overflow
  const windowScrolls = (axis) => {
    const h = getComputedStyle(document.documentElement)['overflow' + axis];
    const b = getComputedStyle(document.body)['overflow' + axis];
    const v = h === 'visible' ? b : h;
    return v !== 'hidden' && v !== 'clip';
  };
  const cut = (r, c) => c ? { left: Math.max(r.left, c.left), right: Math.min(r.right, c.right),
      top: Math.max(r.top, c.top), bottom: Math.min(r.bottom, c.bottom) }
    : { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  // the part of e's box that its clipping ancestors leave (page scrollers cut too when
  // withPage, e.g. to tell whether a button can be seen without a sideways swipe)
  const clipped = (e, withPage) => {
    const pagers = new Set(pageScrollers());
    let r = cut(e.getBoundingClientRect(), null);
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      // without withPage, what a page scroller holds can be scrolled into view
      if (!withPage && pagers.has(a) && scrollsX(s)) break;
      if (clipsX(s) || s.overflowY !== 'visible') r = cut(r, a.getBoundingClientRect());
      if (s.position === 'fixed') break;
    }
    return r;
  };
"""

#: Sideways scroll: the page's scrollers, the boxes that scroll sideways inside the page, and
#: how far the rightmost visible element sticks out of the viewport (see the module doc).
OVERFLOW_JS = (
    "() => {"
    + _HELPERS_JS
    + r"""
  const W = document.documentElement.clientWidth;
  const pagers = pageScrollers();
  const scrollers = [];
  const se = document.scrollingElement;
  scrollers.push({ what: 'window', px: windowScrolls('X') ? se.scrollWidth - se.clientWidth : 0,
                   hiddenPx: se.scrollWidth - se.clientWidth });
  for (const e of pagers) {
    const s = getComputedStyle(e), over = e.scrollWidth - e.clientWidth;
    scrollers.push({ what: e.dataset.testid, px: scrollsX(s) ? over : 0, hiddenPx: over,
                     overflowX: s.overflowX });
  }
  const pagePx = Math.max(0, ...scrollers.map((s) => s.px));
  const pagerSet = new Set([document.documentElement, document.body, ...pagers]);
  // one walk: each element's box cut by its clipping ancestors (not the page's scrollers);
  // SVG drawings count as one box (their insides are many and never stick out further)
  let right = { px: 0, what: '' };
  const boxes = [];
  const walk = (e, clip) => {
    const s = getComputedStyle(e);
    if (s.display === 'none') return;
    if (s.position === 'fixed') clip = null;
    const visible = s.visibility !== 'hidden' && parseFloat(s.opacity) > 0;
    const r = e.getBoundingClientRect();
    const c = cut(r, clip);
    if (visible && r.width > 0 && r.height > 0 && c.right > Math.max(c.left, 0)
        && c.bottom > c.top) {
      if (c.right - W >= right.px - 0.5 && c.right - W > 0.5)
        right = { px: Math.round(c.right - W), what: desc(e) };
      if (!pagerSet.has(e) && scrollsX(s) && e.scrollWidth > e.clientWidth + 1)
        boxes.push({ what: desc(e), px: e.scrollWidth - e.clientWidth });
    }
    if (e instanceof SVGElement) return;
    // a page scroller that scrolls sideways brings all it holds into view: no clip below it
    const pager = pagerSet.has(e);
    const inner = pager && (scrollsX(s) || e === document.body) ? null
      : clipsX(s) || s.overflowY !== 'visible' ? c : clip;
    for (const c of e.children) walk(c, inner);
  };
  walk(document.body, null);
  return { width: W, pagePx, scrollers, boxes: boxes.length, boxList: boxes.slice(0, 8),
           right };
}"""
)

#: The stepper's next and Play buttons: in view at scroll 0 and half-way down (async).
STEPPER_JS = (
    "async () => {"
    + _HELPERS_JS
    + r"""
  const frames = (n) => new Promise((res) => {
    const f = () => (n-- <= 0 ? res() : requestAnimationFrame(f)); f(); });
  const st = document.querySelector('.bl-stepper');
  if (!st) return null;
  const W = document.documentElement.clientWidth, H = document.documentElement.clientHeight;
  const look = (sel) => {
    const b = st.querySelector(sel);
    if (!b) return { found: false, inView: false };
    const r = b.getBoundingClientRect(), c = clipped(b, true);
    const whole = c.left >= r.left - 0.5 && c.right <= r.right + 0.5 && c.top >= r.top - 0.5
      && c.bottom <= r.bottom + 0.5 && Math.abs((c.right - c.left) - r.width) < 1
      && Math.abs((c.bottom - c.top) - r.height) < 1;
    const inside = r.left >= -0.5 && r.right <= W + 0.5 && r.top >= -0.5 && r.bottom <= H + 0.5;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const onTop = !!hit && (hit === b || b.contains(hit));
    return { found: true, x: Math.round(r.left), y: Math.round(r.top), w: Math.round(r.width),
             inView: whole && inside && onTop, whole, inside, onTop };
  };
  // the page's vertical scroller: Streamlit's main section, else the window
  const se = document.scrollingElement;
  const sc = [...pageScrollers(), se].find((e) => e.scrollHeight - e.clientHeight > 1
    && (e === se || scrollsY(getComputedStyle(e)))) || se;
  const put = async (y) => { sc.scrollTop = y; if (sc !== se) se.scrollTop = 0; await frames(2); };
  await put(0);
  const top = { next: look('button[data-act="next"]'), play: look('.bl-play') };
  const range = sc.scrollHeight - sc.clientHeight;
  await put(Math.round(range / 2));
  const middle = { next: look('button[data-act="next"]'), play: look('.bl-play'),
                   scrolledTo: sc.scrollTop };
  await put(0);
  const ok = [top.next, top.play, middle.next, middle.play].every((x) => x.inView);
  return { top, middle, range, scroller: sc === se ? 'window' : sc.dataset.testid, ok };
}"""
)

#: Tap targets: the smallest, the number under 24 px, the smallest stepper/quiz control.
TAPS_JS = (
    "([targetSel, bigSel]) => {"
    + _HELPERS_JS
    + r"""
  const seen = new Set();
  const items = [];
  for (const e of document.querySelectorAll(targetSel)) {
    // a checkbox or radio drawn small inside its label: the label is what a tap hits
    let t = e;
    if (e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio')) {
      t = e.closest('label') || (e.labels && e.labels[0]) || e;
    }
    if (seen.has(t)) continue;
    seen.add(t);
    if (t.disabled && t.tagName !== 'BUTTON') continue;
    const vis = t.checkVisibility ? t.checkVisibility({ visibilityProperty: true,
                                                        checkVisibilityCSS: true }) : true;
    const r = t.getBoundingClientRect();
    if (!vis || r.width < 0.5 || r.height < 0.5) continue;
    const c = clipped(t, false);
    if (c.right - c.left < 0.5 || c.bottom - c.top < 0.5 || c.right <= 0) continue;
    items.push({ w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10,
                 what: desc(t), big: !!t.closest(bigSel) && t.matches('button') });
  }
  const byMin = (a, b) => Math.min(a.w, a.h) - Math.min(b.w, b.h);
  const small = items.filter((x) => x.w < 24 || x.h < 24).sort(byMin);
  const big = items.filter((x) => x.big).sort(byMin);
  return { total: items.length, under24: small.length,
           smallest: items.length ? [...items].sort(byMin)[0] : null,
           smallList: small.map((x) => `${x.w}×${x.h} ${x.what}`),
           bigSmallest: big.length ? big[0] : null, bigCount: big.length };
}"""
)

#: axe-core on the whole document, each violating node sorted into ours or Streamlit's.
#: axe (since 4.5) checks colour contrast and target size only on what is scrolled into view
#: (dequelabs/axe-core#3772), and Streamlit scrolls its main section: so after the full run
#: at scroll 0 those rules run again at every step of the page's scroller (down, and across
#: when it scrolls sideways), and the nodes are merged (one node counts once).
AXE_RUN_JS = (
    "async ([tags, oursSel, scrollRules]) => {"
    + _HELPERS_JS
    + r"""
  const frames = (n) => new Promise((res) => {
    const f = () => (n-- <= 0 ? res() : requestAnimationFrame(f)); f(); });
  const found = new Map();  // rule id -> Map(element or target -> {side, target})
  const add = (res) => {
    for (const v of res.violations) {
      const nodes = found.get(v.id) || found.set(v.id, new Map()).get(v.id);
      for (const n of v.nodes) {
        const el = n.element;
        const key = el || n.target.flat().join(' ');
        if (nodes.has(key)) continue;
        const side = el && el.closest && el.closest(oursSel) ? 'ours' : 'streamlit';
        nodes.set(key, { side, target: n.target.flat().join(' ') });
      }
    }
  };
  const opts = { resultTypes: ['violations'], elementRef: true };
  add(await axe.run(document, { ...opts, runOnly: { type: 'tag', values: tags } }));
  const se = document.scrollingElement;
  const sc = [...pageScrollers(), se].find((e) => e.scrollHeight - e.clientHeight > 1
    && (e === se || scrollsY(getComputedStyle(e)))) || se;
  const maxY = sc.scrollHeight - sc.clientHeight, maxX = sc.scrollWidth - sc.clientWidth;
  const step = Math.max(100, Math.round(sc.clientHeight * 0.8));  // overlap: the header
  const xs = maxX > 1 && (sc === se || scrollsX(getComputedStyle(sc))) ? [0, maxX] : [0];
  let positions = 1;
  for (const x of scrollRules.length ? xs : []) {  // no rules: the first pass alone
    for (let y = 0; ; y = Math.min(y + step, maxY)) {
      if (x || y) {
        sc.scrollTo(x, y);
        await frames(2);
        add(await axe.run(document, { ...opts, runOnly: { type: 'rule', values: scrollRules } }));
        positions += 1;
      }
      if (y >= maxY) break;
    }
  }
  sc.scrollTo(0, 0);
  await frames(2);
  const out = { ours: {}, streamlit: {}, examples: {}, positions };
  for (const [id, nodes] of found) {
    for (const { side, target } of nodes.values()) {
      out[side][id] = (out[side][id] || 0) + 1;
      const ex = out.examples[side + ' ' + id] || (out.examples[side + ' ' + id] = []);
      if (ex.length < 3) ex.push(target);
    }
  }
  return out;
}"""
)
#: the rules whose result depends on what is scrolled into view (run at every scroll step)
SCROLL_RULES = ["color-contrast", "target-size"]

#: The focus navigation starts at the top of the document: a marker that Tab skips holds it.
TAB_START_JS = """() => {
  document.querySelector('#bl-bench-start')?.remove();
  const m = document.createElement('div');
  m.id = 'bl-bench-start'; m.tabIndex = -1;
  document.body.prepend(m);
  m.focus({ preventScroll: true });
  return document.activeElement === m;
}"""
TAB_WHERE_JS = """() => { const a = document.activeElement;
  return [!!(a && a.closest('.bl-stepper')), !!(a && a.closest('.modebar')),
          !a || a === document.body]; }"""
TAB_END_JS = """() => { document.querySelector('#bl-bench-start')?.remove();
  document.activeElement && document.activeElement.blur();
  for (const s of ['[data-testid="stMain"]', '[data-testid="stAppViewContainer"]'])
    { const e = document.querySelector(s); if (e) { e.scrollTop = 0; e.scrollLeft = 0; } }
  window.scrollTo(0, 0); }"""

# Settled: no script run and no running indicator for ``quiet`` ms; on a lesson page the
# three views drawn; every plotly chart and Graphviz picture drawn; the last lecture view
# mounted ``refit`` ms ago; the boxes of the views, charts and buttons the same for
# ``frames`` animation frames.
SETTLED_JS = """([t0, quiet, refit, frames, lesson]) => {
  const now = performance.now();
  const app = document.querySelector("[data-testid='stApp']");
  const s = window.__blAccSettle || (window.__blAccSettle = {changed: now, sig: '', n: 0});
  if (s.t0 !== t0) { s.t0 = t0; s.changed = now; s.sig = ''; s.n = 0; }
  const w = document.querySelector("[data-testid='stStatusWidget']:not(.StatusWidget-exit)");
  const running = !app || app.dataset.testScriptState !== 'notRunning'
    || app.dataset.testConnectionState !== 'CONNECTED'
    || !!(w && w.querySelector("[data-testid='stStatusWidgetRunningIcon']"))
    || !!document.querySelector("[data-testid='stSkeleton']");
  if (running) { s.changed = now; return false; }
  const views = [...document.querySelectorAll(['regions', 'structure', 'curves']
    .map((k) => `.st-key-view-${k} .bl-view`).join(', '))];
  if ((lesson && !views.length) || views.some((v) => v.dataset.drawn === undefined
      || (v.dataset.frame !== undefined && v.dataset.drawn !== v.dataset.frame))) {
    s.changed = now; return false; }
  const charts = [...document.querySelectorAll("[data-testid='stPlotlyChart']")];
  const graphs = [...document.querySelectorAll("[data-testid='stGraphVizChart']")];
  if (charts.some((c) => !c.querySelector('.main-svg'))
      || graphs.some((g) => !g.querySelector('svg'))) { s.changed = now; return false; }
  if (now - s.changed < quiet) return false;
  if (now - (window.__blLastMount || 0) < refit) return false;
  const boxes = [...views, ...charts, ...graphs, ...document.querySelectorAll('button')];
  const sig = JSON.stringify(boxes.map((e) => {
    const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }));
  if (sig === s.sig) s.n += 1; else { s.sig = sig; s.n = 0; }
  return s.n >= frames;
}"""


def settle(page: Any, lesson: bool, timeout_ms: int = SETTLE_TIMEOUT_MS) -> None:
    """Wait until the page has settled (see ``SETTLED_JS``), polled each animation frame.

    Parameters
    ----------
    page : playwright.sync_api.Page
        A page of the app with ``MOUNTS_JS`` as an init script.
    lesson : bool
        Whether the page has the lecture view (then its three views must be drawn).
    timeout_ms : int
        How long to wait at most.
    """
    t0 = page.evaluate("performance.now()")
    page.wait_for_function(
        SETTLED_JS,
        arg=[t0, IDLE_QUIET_MS, REFIT_MS, STILL_FRAMES, lesson],
        polling="raf",
        timeout=timeout_ms,
    )


def axe_violations(page: Any, scroll: bool = True) -> dict:
    """Run axe-core (WCAG 2.0–2.2 A + AA) and sort every violating node into ours/Streamlit's.

    Parameters
    ----------
    page : playwright.sync_api.Page
        A settled page.
    scroll : bool
        Whether to run ``SCROLL_RULES`` again at every scroll step (what axe checks only in
        view: colour contrast and target size); without, one pass at the top (the tests:
        tests/ui/test_contrast.py checks the colours and ``TAPS_JS`` every target).

    Returns
    -------
    dict
        ``ours`` and ``streamlit`` (rule id → number of violating nodes), ``examples``
        ("<side> <rule>" → up to three of the nodes' axe targets) and ``positions`` (at how
        many scroll positions ``SCROLL_RULES`` ran).
    """
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        from axe_playwright_python.base import AXE_SCRIPT  # the bundled axe-core

        page.evaluate(AXE_SCRIPT)
    return page.evaluate(AXE_RUN_JS, [AXE_TAGS, OURS_SELECTOR, SCROLL_RULES if scroll else []])


def tab_stops_to_stepper(page: Any, cap: int = TAB_CAP) -> dict:
    """Press Tab from the top of the document until the focus is inside the stepper.

    Parameters
    ----------
    page : playwright.sync_api.Page
        A settled lesson page.
    cap : int
        The most presses tried.

    Returns
    -------
    dict
        ``stops`` (the presses that brought the focus into ``.bl-stepper``, None if ``cap``
        did not), ``modebar`` (how many of the stops before were in plotly toolbars) and
        ``skip`` (whether the first stop is a skip link whose Enter puts the focus in the
        stepper: then one Tab and Enter reach it).
    """
    page.evaluate(TAB_START_JS)
    page.keyboard.press("Tab")
    skip = False
    if page.evaluate("() => !!document.activeElement?.matches('a.bl-skip')"):
        page.keyboard.press("Enter")
        skip = bool(page.evaluate(TAB_WHERE_JS)[0])
    page.evaluate(TAB_START_JS)
    modebar = 0
    stops = None
    for i in range(1, cap + 1):
        page.keyboard.press("Tab")
        in_stepper, in_modebar, _ = page.evaluate(TAB_WHERE_JS)
        if in_stepper:
            stops = i
            break
        modebar += in_modebar
    page.evaluate(TAB_END_JS)
    return {"stops": stops, "modebar": modebar, "skip": skip}


def audit(
    page: Any, lesson: bool | None = None, tabs: bool = True, axe: bool = True, scroll: bool = True
) -> dict:
    """Every measurement of the module doc on a settled page, from scroll position 0.

    Parameters
    ----------
    page : playwright.sync_api.Page
        A settled page of the app (see :func:`settle`).
    lesson : bool, optional
        Whether it is a lesson page (default: whether it has a ``.bl-stepper``).
    tabs : bool
        Whether to count the Tab stops to the stepper (lesson pages only; it moves the focus,
        so it comes last).
    axe : bool
        Whether to run axe-core (``None`` in the result without).
    scroll : bool
        Passed to :func:`axe_violations`.

    Returns
    -------
    dict
        ``overflow`` (``OVERFLOW_JS``: ``pagePx``, ``scrollers``, ``boxes``, ``boxList``,
        ``right``), ``stepper`` (``STEPPER_JS``, None without a stepper), ``taps``
        (``TAPS_JS``), ``axe`` (:func:`axe_violations`), ``tab`` (:func:`tab_stops_to_stepper`
        or None), ``usable`` (no sideways page scroll and, with a stepper, next and Play in
        view at the top and half-way down) and ``seconds`` (how long each part took).
    """
    secs: dict[str, float] = {}

    def timed(name: str, fn: Any, *args: Any) -> Any:
        t = time.monotonic()
        out = fn(*args)
        secs[name] = round(time.monotonic() - t, 2)
        return out

    page.evaluate(TAB_END_JS)  # scroll 0, nothing focused
    overflow = timed("overflow", page.evaluate, OVERFLOW_JS)
    stepper = timed("stepper", page.evaluate, STEPPER_JS)
    if lesson is None:
        lesson = stepper is not None
    taps = timed("taps", page.evaluate, TAPS_JS, [TARGET_SELECTOR, BIG_TARGETS])
    axe = timed("axe", axe_violations, page, scroll) if axe else None
    tab = timed("tab", tab_stops_to_stepper, page) if tabs and lesson and stepper else None
    usable = overflow["pagePx"] <= 0 and (not lesson or bool(stepper and stepper["ok"]))
    return {
        "overflow": overflow,
        "stepper": stepper,
        "taps": taps,
        "axe": axe,
        "tab": tab,
        "usable": usable,
        "seconds": secs,
    }


# ---------------------------------------------------------------------------- running


@dataclass
class Row:
    """One page × viewport × mode."""

    page: str
    viewport: str
    mode: str
    a: dict | None = None
    error: str = ""
    load_s: float = 0.0
    notes: list[str] = field(default_factory=list)


def page_name(slug: str) -> str:
    """``/topdown``; the home page is ``/``."""
    return "/" + slug


def run_one(browser: Any, base: str, slug: str, vp: str, mode: str, shots: Path | None) -> Row:
    """Open one page in a fresh touch context, switch its modes on, settle and audit it."""
    width, height = VIEWPORTS[vp]
    row = Row(slug, vp, mode)
    lesson = slug in LESSONS
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = ctx.new_page()
    page.add_init_script(MOUNTS_JS)
    try:
        t = time.monotonic()
        url = f"{base}/{slug}" + ("?present=true" if mode == "all" else "")
        page.goto(url, timeout=LOAD_TIMEOUT_MS)
        if lesson:
            page.wait_for_selector(
                ".st-key-view-curves .bl-view[data-drawn]", timeout=LOAD_TIMEOUT_MS
            )
        settle(page, lesson, LOAD_TIMEOUT_MS)
        if mode == "all":
            for label in (QUIZ, WEAK) if slug in STUDENT else (QUIZ,):
                page.get_by_text(label, exact=True).first.click()
                settle(page, lesson)
            # the pointer stays where it clicked: its hover would show what a hover shows
            # (Streamlit's heading links), so it goes to the header's empty corner
            page.mouse.move(1, 1)
        row.load_s = time.monotonic() - t
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / f"{slug or 'home'}_{vp}_{mode}.png"))
        row.a = audit(page, lesson=lesson)
        s = row.a["seconds"]
        log(
            f"  {page_name(slug)} {vp} {mode}: ready in {row.load_s:.1f} s, audit "
            + ", ".join(f"{k} {v:.1f} s" for k, v in s.items())
        )
    except Exception as e:  # noqa: BLE001 — one failed setting must not end the run
        row.error = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
        log(f"  {page_name(slug)} {vp} {mode}: {row.error}")
    finally:
        ctx.close()
    return row


def settings(slugs: list[str]) -> list[tuple[str, str, str]]:
    """(slug, viewport, mode) in the table's order: phone plain, phone all modes, tablet."""
    out = []
    for slug in slugs:
        out.append((slug, "phone", "plain"))
        if slug in LESSONS:
            out.append((slug, "phone", "all"))
        out.append((slug, "tablet", "plain"))
    return out


# ---------------------------------------------------------------------------- the table


def _rules(counts: dict[str, int]) -> str:
    if not counts:
        return "none"
    return ", ".join(f"{k}×{v}" for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _esc(s: str) -> str:
    # a lone surrogate (text cut inside a pair) cannot be printed: "?" instead
    s = s.encode("utf-8", "replace").decode("utf-8")
    return s.replace("|", "\\|").replace("\n", " ")


def _short_target(t: str) -> str:
    """An axe target without Streamlit's generated class names, at most 90 characters."""
    t = re.sub(r"\.(st-emotion-cache-[\w-]+|e[a-z0-9]{5,}\d)\b", "", t)
    return t if len(t) <= 90 else "…" + t[-89:]


def _button(b: dict | None) -> str:
    if not b or not b.get("found"):
        return "none"
    if b["inView"]:
        return "in"
    why = []
    if not b["inside"] or not b["whole"]:
        why.append(f"x={b['x']}, y={b['y']}")
    if b["inside"] and b["whole"] and not b["onTop"]:
        why.append("covered")
    return "OUT (" + ", ".join(why) + ")"


def _target(t: dict | None) -> str:
    if not t:
        return "—"
    return f"{t['w']:g}×{t['h']:g} {_esc(t['what'])}"


def modes_text(slug: str, mode: str) -> str:
    """The mode as the table names it: "plain" or the modes switched on."""
    if mode == "plain":
        return "plain"
    return "present + quiz" + (" + weak" if slug in STUDENT else "")


def table(rows: list[Row]) -> str:
    """The main table: one row per page × viewport × mode."""
    head = [
        "page",
        "viewport",
        "mode",
        "usable",
        "page sideways px",
        "rightmost beyond px",
        "boxes sideways",
        "▶ / Play at top",
        "▶ / Play half-way",
        "axe nodes ours / Streamlit's",
        "Tab stops to stepper",
        "smallest tap target",
        "targets < 24 px",
        "smallest stepper/quiz button",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        base = [page_name(r.page), r.viewport, modes_text(r.page, r.mode)]
        if r.a is None:
            lines.append(
                "| "
                + " | ".join(base + [f"error: {_esc(r.error)}"] + ["—"] * (len(head) - 4))
                + " |"
            )
            continue
        a = r.a
        o, st, tp, ax = a["overflow"], a["stepper"], a["taps"], a["axe"]
        right = f"{o['right']['px']}" + (
            f" ({_esc(o['right']['what'])})" if o["right"]["px"] else ""
        )
        if st:
            top = f"{_button(st['top']['next'])} / {_button(st['top']['play'])}"
            mid = f"{_button(st['middle']['next'])} / {_button(st['middle']['play'])}"
        else:
            top = mid = "—"
        if a["tab"] is None:
            tab = "—"
        else:
            n = a["tab"]["stops"]
            tab = f">{TAB_CAP}" if n is None else str(n)
            if a["tab"]["modebar"]:
                tab += f" ({a['tab']['modebar']} in plot toolbars)"
            if a["tab"].get("skip"):
                tab = f"1 + Enter (skip link); {tab} in order"
        cells = base + [
            "yes" if a["usable"] else "NO",
            f"{o['pagePx']}",
            right,
            str(o["boxes"]),
            top,
            mid,
            f"{sum(ax['ours'].values())} / {sum(ax['streamlit'].values())}",
            tab,
            _target(tp["smallest"]),
            f"{tp['under24']} of {tp['total']}",
            _target(tp["bigSmallest"]) + (f" (of {tp['bigCount']})" if tp["bigCount"] else ""),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def detail(rows: list[Row]) -> str:
    """Per row: axe's violating nodes per rule and side, with examples; the small targets."""
    out = []
    for r in rows:
        if r.a is None:
            continue
        a = r.a
        ax = a["axe"]
        out.append(f"**{page_name(r.page)} {r.viewport} {modes_text(r.page, r.mode)}**")
        out.append("")
        out.append(f"- axe, ours: {_rules(ax['ours'])}")
        out.append(f"- axe, Streamlit's: {_rules(ax['streamlit'])}")
        for key, ex in sorted(ax["examples"].items()):
            out.append(f"  - {key}: " + "; ".join(f"`{_esc(_short_target(x))}`" for x in ex))
        tp = a["taps"]
        kinds = Counter(
            s.split(" ", 1)[1].split(' "')[0] if " " in s else s for s in tp["smallList"]
        )
        out.append(
            f"- tap targets under 24 px: {tp['under24']} of {tp['total']}"
            + (": " + ", ".join(f"{_esc(k)}×{n}" for k, n in kinds.most_common(8)) if kinds else "")
        )
        if tp["smallList"]:
            out.append("  - smallest: " + "; ".join(_esc(s) for s in tp["smallList"][:5]))
        o = a["overflow"]
        if o["boxes"]:
            out.append(
                "- boxes that scroll sideways: "
                + "; ".join(f"{_esc(b['what'])} (+{b['px']} px)" for b in o["boxList"])
            )
        hidden = [s for s in o["scrollers"] if s["hiddenPx"] > 0 and s["px"] == 0]
        if hidden:
            out.append(
                "- wider than the screen but not scrollable: "
                + "; ".join(f"{s['what']} +{s['hiddenPx']} px" for s in hidden)
            )
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Run the audit; prints the table (and the detail) to stdout."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--pages",
        default=",".join(s or "home" for s in ALL_PAGES),
        help="comma-separated slugs, home for / (default: %(default)s)",
    )
    ap.add_argument(
        "--root", type=Path, default=ROOT, help="checkout whose app.py is served (default: here)"
    )
    ap.add_argument("--out", type=Path, help="also write the markdown to this file")
    ap.add_argument("--shots", type=Path, help="save a screenshot of each setting here")
    ap.add_argument("--json", type=Path, help="also write every measurement to this file")
    ap.add_argument(
        "--detail",
        action="store_true",
        help="also print the violations and small targets of each setting (always in --out)",
    )
    args = ap.parse_args(argv)
    slugs = []
    for p in args.pages.split(","):
        p = p.strip().strip("/")
        slugs.append("" if p == "home" else p)
    unknown = [s for s in slugs if s not in ALL_PAGES]
    if unknown:
        ap.error(
            f"--pages must name pages among {', '.join(s or 'home' for s in ALL_PAGES)}; "
            f"got {', '.join(unknown)}"
        )
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
            for slug, vp, mode in settings(slugs):
                rows.append(run_one(browser, base, slug, vp, mode, args.shots))
        finally:
            browser.close()
    took = time.monotonic() - t_start
    text = "\n".join(
        [
            table(rows),
            "",
            "phone = 390×844, tablet = 768×1024, both touch (is_mobile, has_touch, device "
            "scale factor 2). Modes: plain = the page as it opens; present + quiz (+ weak) = "
            "?present=true with Predict, then reveal (and You are the weak learner) on. "
            "usable = the page does not scroll sideways and, on a lesson page, the stepper's "
            "▶ and Play are wholly in view and not covered both at the top and half-way down "
            "the page (the stepper stays on screen). page sideways px = how far the window or "
            "Streamlit's main section scrolls sideways; rightmost beyond px = the rightmost "
            "visible element's right edge past the screen; boxes sideways = elements that "
            "scroll sideways inside the page (tables, formulas: acceptable). ▶ / Play: in, or "
            "OUT with the button's x, y in CSS px. axe nodes = violating nodes of axe-core "
            f"{AXE_VERSION} (WCAG 2.0–2.2 A + AA; colour contrast and target size also checked "
            "at every scroll step); ours = inside our markup (bl- classes, the lecture "
            "components, st.html, plotly charts, Graphviz pictures, our pictures and "
            "formulas), Streamlit's = the rest. "
            "Tab stops: presses from the top of the document until the focus is in the "
            "stepper (with a skip link first: one Tab and Enter, then the count in order). "
            "Tap targets: every visible link, button, field and ARIA widget (a "
            "toggle's or checkbox's label stands for its input), W×H in CSS px; the stepper's "
            "buttons and the quiz's answers should be ≥ 44 px.",
            "",
            "{detail}"
            f"Took {took / 60:.1f} min; load average before {load0}, after "
            f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min); "
            f"{os.cpu_count()} CPUs.",
        ]
    )
    text = text.encode("utf-8", "replace").decode("utf-8")  # no lone surrogate left
    full = text.replace("{detail}", "## Detail\n\n" + detail(rows) + "\n")
    print(full if args.detail else text.replace("{detail}", ""))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1, ensure_ascii=False))
    if args.out:
        cmd = "    .venv/bin/python benchmarks/bench_access.py " + " ".join(
            argv if argv is not None else sys.argv[1:]
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            "# Accessibility audit (issue 26)\n\nMade with\n\n" + cmd + "\n\n" + full + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
