"""End-to-end: serve the app on 127.0.0.1 and drive every page in Debian's headless Chromium.

Screenshots go to ``tests/artifacts/`` (git-ignored). The test fails on any Streamlit
exception box. It needs ``/usr/bin/chromium`` (installed by ``.ci/run``); in CI a missing
browser is a failure, never a skip.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"

pytestmark = pytest.mark.browser
READY = "[data-testid='stExpander']"  # the theory expander, drawn after the stepper

# The server and the browser are the session's (``tests/conftest.py``); the helpers below are
# shared by every ``tests/browser/test_browser*.py``.


#: The lecture script refits a view's height 60, 400 and 1200 ms after the view mounts
#: (ui/lecture/js/views.js).
REFIT_MS = 1200

#: Marks every lecture view (``.bl-view``) with the time it entered the page.
_MOUNTS = """new MutationObserver(ms => {
  const now = performance.now();
  for (const m of ms) for (const n of m.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const v of [n, ...n.querySelectorAll('.bl-view')])
      if (v.classList.contains('bl-view') && v.__blMounted === undefined) v.__blMounted = now;
  }
}).observe(document, {childList: true, subtree: true});"""

_FITTED = """([w, h, refit, frames]) => {
  if (window.innerWidth !== w || window.innerHeight !== h) return false;
  const views = [...document.querySelectorAll('.bl-view')];
  if (!views.length || views.some(v => v.__blMounted === undefined)) return false;
  if (performance.now() - Math.max(...views.map(v => v.__blMounted)) < refit) return false;
  const sig = JSON.stringify(views.map(v => {
    const r = v.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }));
  const s = window.__blFit || (window.__blFit = {sig: '', n: 0});
  if (sig === s.sig) s.n += 1; else { s.sig = sig; s.n = 0; }
  return s.n >= frames;
}"""


def new_page(browser, **kwargs):
    """A page (in a fresh context) that notes when each lecture view mounts."""
    page = browser.new_page(**kwargs)
    page.add_init_script(_MOUNTS)
    return page


def views_fitted(page, timeout: float = 20.0) -> None:
    """Wait until the lecture script has fitted the views to the window: the window has its
    size, the last refit after each view mounted has run, and the views have stopped moving
    (the same boxes for 5 frames on end)."""
    size = page.viewport_size
    page.evaluate("delete window.__blFit")
    page.wait_for_function(
        _FITTED, arg=[size["width"], size["height"], REFIT_MS + 50, 5], timeout=timeout * 1000
    )


def still(page, *selectors: str, timeout: float = 10.0) -> None:
    """Wait until the boxes of these elements are the same for 5 frames on end (a scroll has
    ended)."""
    page.evaluate("delete window.__blStill")
    page.wait_for_function(
        """(sels) => {
      const es = sels.map(sel => document.querySelector(sel));
      if (es.some(e => !e)) return false;
      const sig = JSON.stringify(es.map(e => {
        const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }));
      const s = window.__blStill || (window.__blStill = {sig: '', n: 0});
      if (sig === s.sig) s.n += 1; else { s.sig = sig; s.n = 0; }
      return s.n >= 5;
    }""",
        arg=list(selectors),
        timeout=timeout * 1000,
    )


def open_page(browser, url: str, ready: str | None = None):
    page = new_page(browser, viewport={"width": 1600, "height": 2200})
    page.goto(url)
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    if ready:  # the page's last element: the first script run has finished drawing
        page.wait_for_selector(ready, timeout=60_000)
    settle(page)
    return page


#: How long the app must stay idle before it counts as settled. Streamlit shows a run only
#: once the server has started it, a few milliseconds after a click on loopback; this window
#: covers that gap (it is not a wait for the run itself, which is watched).
QUIET_MS = 300

_IDLE = """([t0, quiet]) => {
  const app = document.querySelector("[data-testid='stApp']");
  if (!app) return false;
  let w = window.__blIdle;
  if (!w || w.app !== app) {  // watch the app's run and connection state from now on
    w = window.__blIdle = {app, changed: performance.now()};
    new MutationObserver(() => { w.changed = performance.now(); }).observe(app, {
      attributes: true,
      attributeFilter: ["data-test-script-state", "data-test-connection-state"]});
  }
  const idle = app.dataset.testScriptState === "notRunning"
    && app.dataset.testConnectionState === "CONNECTED"
    && !document.querySelector("[data-testid='stStatusWidget']")
    && !document.querySelector("[data-testid='stSkeleton']");
  if (!idle) { w.changed = performance.now(); return false; }
  return performance.now() - Math.max(w.changed, t0) >= quiet;
}"""


def settle(page, timeout: float = 60.0) -> None:
    """Wait until Streamlit has finished running the script and drawing: no script run, no
    running-man status widget and no loading skeleton, for ``QUIET_MS`` on end (a run started
    meanwhile, by the action before, restarts the count)."""
    t0 = page.evaluate("performance.now()")
    page.wait_for_function(_IDLE, arg=[t0, QUIET_MS], timeout=timeout * 1000)


def no_exception_box(page) -> None:
    boxes = page.locator("[data-testid='stException']")
    assert boxes.count() == 0, boxes.first.inner_text()


def wait_for(condition, seconds: float, message) -> None:
    """Poll ``condition`` until it holds; else fail with ``message`` (a callable is called
    then, so it can describe the page as it is)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(message() if callable(message) else message)


def href(page) -> str:
    # location.href, not page.url: Streamlit updates the address with history.replaceState,
    # which Playwright's page.url does not follow.
    return page.evaluate("location.href")


def round_shown(page) -> int:
    m = re.search(r"[?&]round=(\d+)", href(page))
    return int(m.group(1)) if m else 0


PLAY = ".st-key-round_play button"


def _play_label(page) -> str:
    """What the Play/Pause button says now ("" while it is being redrawn)."""
    for label in ("Pause", "Play"):
        if page.locator(f"{PLAY}:has-text('{label}')").count():
            return label
    return ""


def _press_play(page) -> int:
    """Click Play once the page is idle and wait until the button reads Pause.

    Returns the round shown when Play was pressed. The click is repeated only if, once the
    app is idle again, the button still reads Play and the round has not moved: that click
    was lost, not slow (a second click on a slow but received click would pause again).
    """
    settle(page)
    button = page.locator(PLAY).first
    button.wait_for(state="visible", timeout=30_000)
    start = round_shown(page)
    for attempt in range(2):
        button.click()
        try:
            wait_for(lambda: _play_label(page) == "Pause", 30, "Play did not turn into Pause")
            return start
        except AssertionError:
            settle(page)
            if attempt or _play_label(page) != "Play" or round_shown(page) != start:
                raise
    raise AssertionError("unreachable")


LECTURE = ".st-key-view-curves .bl-view[data-drawn]"  # the lecture view has drawn


def lecture_round(page) -> int:
    """The round the client-side stepper shows (ui/lecture/js)."""
    return int(page.locator(".bl-stepper").first.get_attribute("data-round"))


def views_drawn(page) -> bool:
    """Every view of the lecture shows the frame it was asked for."""
    return page.evaluate("""() => {
      const v = [...document.querySelectorAll('.bl-view')];
      return v.length > 0 && v.every(e => e.dataset.drawn !== undefined &&
                                          e.dataset.drawn === e.dataset.frame);
    }""")


def test_topdown_shared_link_reopens_the_same_demo(fresh_server, browser) -> None:
    # a server of its own: the check is about the server's first visit (see below)
    url = fresh_server + "/topdown?data=moons&n=300&noise=0.4&s=12&k=3&index=gini&round=5"
    page = open_page(browser, url, LECTURE)
    no_exception_box(page)
    # This is the server's first visit and it is not the home page: the router must still
    # run (wide layout, named menu entries), not Streamlit's legacy pages/ folder mode.
    nav = page.locator("[data-testid='stSidebarNav']").inner_text()
    assert "Top-down growth" in nav and "app" not in nav.split()
    assert round_shown(page) == 5 and lecture_round(page) == 5
    for key in ("n=300", "noise=0.4", "s=12", "k=3", "index=gini"):
        assert key in href(page)
    # a parameter at its default value (data=moons) is dropped from the address, not lost
    assert page.get_by_text("Two interleaving half circles").count() == 1
    assert page.locator(".st-key-view-regions .bl-note").inner_text().startswith("Round 5:")
    page.close()


def test_home_page(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/")
    no_exception_box(page)
    assert page.get_by_text("decision trees are boosting algorithms").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)
    page.close()


def test_topdown_page_steps_and_plays(server, browser) -> None:
    """The lecture view steps in the browser: → and the buttons move the stepper, every view
    draws the new round, the address bar follows, Play advances and Pause stops."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/topdown?data=stripes&noise=0.05&s=8", LECTURE)
    no_exception_box(page)
    # a fresh page opens at the first split, not on an empty single-leaf tree
    assert lecture_round(page) == 1
    note = page.locator(".st-key-view-regions .bl-note")
    assert note.inner_text().startswith("Round 1: leaf 0")
    page.screenshot(path=str(ARTIFACTS / "topdown_round1.png"))

    page.locator(".bl-btn[data-act='next']").click()
    wait_for(
        lambda: lecture_round(page) == 2 and views_drawn(page), 10, "Next did not draw round 2"
    )
    assert note.inner_text().startswith("Round 2:")
    assert round_shown(page) == 2  # written into the address bar by the browser at once
    page.locator("h1").first.click()  # focus the page, not a widget
    page.keyboard.press("ArrowRight")
    wait_for(
        lambda: lecture_round(page) == 3 and views_drawn(page),
        10,
        "the → key did not draw round 3",
    )
    page.keyboard.press("ArrowLeft")
    wait_for(
        lambda: lecture_round(page) == 2 and views_drawn(page),
        10,
        "the ← key did not draw round 2",
    )
    page.keyboard.press("End")
    last = int(page.locator(".bl-stepper .bl-range").get_attribute("max"))
    wait_for(lambda: lecture_round(page) == last, 10, "End did not go to the last round")
    page.keyboard.press("Home")
    wait_for(lambda: lecture_round(page) == 0, 10, "Home did not go to round 0")
    # the topdown page opens at round 1: round 0 is named in the link, round 1 is not (waited
    # for: under load a late rerun for an earlier round may write its link first, and the
    # stepper then tells the server its round again)
    wait_for(lambda: "round=0" in href(page), 20, lambda: f"the link is {href(page)}")
    page.keyboard.press("ArrowRight")
    wait_for(lambda: lecture_round(page) == 1, 10, "the → key did not draw round 1")
    wait_for(lambda: "round=" not in href(page), 20, lambda: f"the link is {href(page)}")
    # a run that ended before the others keeps its last picture, and its note says so
    # (default data, s = 16: Hatano's tree is full after 13 splits, Mansour–McAllester's after 15)
    hat = open_page(browser, server + "/topdown?s=16&round=15", LECTURE)
    wait_for(lambda: lecture_round(hat) == 15, 10, "the link did not open round 15")
    assert (
        hat.locator(".st-key-view-regions .bl-note")
        .inner_text()
        .startswith("Finished at round 13.")
    )
    hat.close()

    play = page.locator(".bl-stepper .bl-play")
    play.click()
    wait_for(lambda: play.inner_text() == "Pause", 10, "Play did not turn into Pause")
    wait_for(lambda: lecture_round(page) >= 2, 15, "Play did not advance two rounds")
    play.click()  # Pause
    wait_for(lambda: play.inner_text() == "Play", 10, "Pause did not turn into Play")
    paused = lecture_round(page)
    settle(page)  # the server is told the paused round and reruns
    assert lecture_round(page) == paused and round_shown(page) == paused
    assert views_drawn(page)
    no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "topdown_played.png"))
    page.close()


def test_bad_csv_upload_shows_a_readable_error(server, browser, tmp_path) -> None:
    page = open_page(browser, server + "/topdown?src=Upload+CSV", LECTURE)
    no_exception_box(page)
    bad = tmp_path / "three_classes.csv"
    bad.write_text("x1,x2,label\n0,1,a\n1,0,b\n2,2,c\n3,1,a\n")
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(bad))
    page.wait_for_selector("[data-testid='stAlertContentError']", timeout=30_000)
    settle(page)
    no_exception_box(page)
    text = page.locator("[data-testid='stAlertContentError']").first.inner_text()
    assert "three_classes.csv" in text and "binary" in text.lower()
    # the page falls back to the generated data and still draws its panels
    page.wait_for_selector(LECTURE, timeout=30_000)
    assert page.locator(".bl-view-plotly").count() >= 2
    page.screenshot(path=str(ARTIFACTS / "topdown_bad_csv.png"), full_page=True)
    page.close()


def test_branching_page_steps(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/branching?T=10&round=1", LECTURE)
    no_exception_box(page)
    assert lecture_round(page) == 1
    note = page.locator(".st-key-view-regions .bl-note")
    # h_1 drawn with its index as a subscript (issue 39, item 9: "h_1" was shown raw)
    assert note.inner_text().startswith("Round 1: h1 = [")
    assert note.locator("sub").first.inner_text() == "1"
    page.locator(".bl-stepper [data-act='next']").first.click()
    wait_for(
        lambda: round_shown(page) == 2 and views_drawn(page),
        15,
        f"Next did not move to round 2: {href(page)}",
    )
    assert note.inner_text().startswith("Round 2: h2 = [")
    program = page.locator(".st-key-view-structure svg")  # the program, drawn as SVG
    assert program.count() == 1 and "h2" in program.text_content()
    settle(page)
    no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "branching_round2.png"), full_page=True)
    page.close()


def test_bounds_page(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/bounds", "[data-testid='stMetric']")
    no_exception_box(page)
    assert page.locator("[data-testid='stPlotlyChart']").count() >= 3
    page.get_by_role("tab", name="Top-down growth (Hatano, Mansour–McAllester)").click()
    settle(page)
    no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "bounds.png"), full_page=True)
    page.close()


def test_matryoshka_page(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/matryoshka?Tw=8", LECTURE)
    no_exception_box(page)
    # the matryoshka steps by level (issue 25, 7): it opens at level 2 (4 stumps), where the
    # first dolls sit inside a doll, and T = 8 ends at level 3
    assert lecture_round(page) == 2
    page.locator(".bl-btn[data-act='last']").click()
    wait_for(
        lambda: lecture_round(page) == 3 and views_drawn(page),
        15,
        f"End did not move to level 3: {href(page)}",
    )
    assert (
        page.locator(".st-key-view-regions .bl-note")
        .inner_text()
        .startswith("Level 3: a two-node tree")
    )
    assert "L2 doll" in page.locator(".st-key-view-structure svg").first.inner_html()
    settle(page)
    no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "matryoshka.png"), full_page=True)
    page.close()
