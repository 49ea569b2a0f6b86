"""End-to-end: serve the app on 127.0.0.1 and drive every page in Debian's headless Chromium.

Screenshots go to ``tests/artifacts/`` (git-ignored). The test fails on any Streamlit
exception box. It needs ``/usr/bin/chromium`` (installed by ``.ci/run``); in CI a missing
browser is a failure, never a skip.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.browser
READY = "[data-testid='stExpander']"  # the theory expander, drawn after the stepper

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError(f"{CHROMIUM} is missing in CI: .ci/run must install Debian's chromium")
    pytest.skip("Debian chromium is not installed (apt-get install chromium)",
                allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false",
         # no "File change / Rerun" banner in the screenshots while files are being edited
         "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        raise RuntimeError("streamlit did not start: " + proc.stdout.read().decode()[-2000:])
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _open(browser, url: str, ready: str | None = None):
    page = browser.new_page(viewport={"width": 1600, "height": 2200})
    page.goto(url)
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    if ready:  # the page's last element: the first script run has finished drawing
        page.wait_for_selector(ready, timeout=60_000)
    _settle(page)
    return page


def _settle(page, timeout: float = 60.0) -> None:
    """Wait until Streamlit has finished running the script and drawing."""
    deadline = time.time() + timeout
    time.sleep(1.0)
    while time.time() < deadline:
        running = page.locator("[data-testid='stStatusWidget']").count()
        skeletons = page.locator("[data-testid='stSkeleton']").count()
        if not running and not skeletons:
            time.sleep(1.0)
            return
        time.sleep(0.3)


def _no_exception_box(page) -> None:
    boxes = page.locator("[data-testid='stException']")
    assert boxes.count() == 0, boxes.first.inner_text()


def _wait_for(condition, seconds: float, message: str) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.25)
    raise AssertionError(message)


def _href(page) -> str:
    # location.href, not page.url: Streamlit updates the address with history.replaceState,
    # which Playwright's page.url does not follow.
    return page.evaluate("location.href")


def _round(page) -> int:
    m = re.search(r"[?&]round=(\d+)", _href(page))
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
    _settle(page)
    button = page.locator(PLAY).first
    button.wait_for(state="visible", timeout=30_000)
    start = _round(page)
    for attempt in range(2):
        button.click()
        try:
            _wait_for(lambda: _play_label(page) == "Pause", 30, "Play did not turn into Pause")
            return start
        except AssertionError:
            _settle(page)
            if attempt or _play_label(page) != "Play" or _round(page) != start:
                raise
    raise AssertionError("unreachable")


LECTURE = ".st-key-view-curves .bl-view[data-drawn]"  # the lecture view has drawn


def _lecture_round(page) -> int:
    """The round the client-side stepper shows (ui/lecture.js)."""
    return int(page.locator(".bl-stepper").first.get_attribute("data-round"))


def _views_drawn(page) -> bool:
    """Every view of the lecture shows the frame it was asked for."""
    return page.evaluate("""() => {
      const v = [...document.querySelectorAll('.bl-view')];
      return v.length > 0 && v.every(e => e.dataset.drawn !== undefined &&
                                          e.dataset.drawn === e.dataset.frame);
    }""")


def test_topdown_shared_link_reopens_the_same_demo(server, browser) -> None:
    url = server + "/topdown?data=moons&n=300&noise=0.4&s=12&k=3&index=gini&round=5"
    page = _open(browser, url, LECTURE)
    _no_exception_box(page)
    # This is the server's first visit and it is not the home page: the router must still
    # run (wide layout, named menu entries), not Streamlit's legacy pages/ folder mode.
    nav = page.locator("[data-testid='stSidebarNav']").inner_text()
    assert "Top-down growth" in nav and "app" not in nav.split()
    assert _round(page) == 5 and _lecture_round(page) == 5
    for key in ("n=300", "noise=0.4", "s=12", "k=3", "index=gini"):
        assert key in _href(page)
    # a parameter at its default value (data=moons) is dropped from the address, not lost
    assert page.get_by_text("Two interleaving half circles").count() == 1
    assert page.locator(".st-key-view-regions .bl-note").inner_text().startswith("Round 5:")
    page.close()


def test_home_page(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(browser, server + "/")
    _no_exception_box(page)
    assert page.get_by_text("decision trees are boosting algorithms").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)
    page.close()


def test_topdown_page_steps_and_plays(server, browser) -> None:
    """The lecture view steps in the browser: → and the buttons move the stepper, every view
    draws the new round, the address bar follows, Play advances and Pause stops."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(browser, server + "/topdown?data=stripes&noise=0.05&s=8", LECTURE)
    _no_exception_box(page)
    # a fresh page opens at the first split, not on an empty single-leaf tree
    assert _lecture_round(page) == 1
    note = page.locator(".st-key-view-regions .bl-note")
    assert note.inner_text().startswith("Round 1: leaf 0")
    page.screenshot(path=str(ARTIFACTS / "topdown_round1.png"))

    page.locator(".bl-btn[data-act='next']").click()
    _wait_for(lambda: _lecture_round(page) == 2 and _views_drawn(page), 10,
              "Next did not draw round 2")
    assert note.inner_text().startswith("Round 2:")
    assert _round(page) == 2  # written into the address bar by the browser at once
    page.locator("h1").first.click()  # focus the page, not a widget
    page.keyboard.press("ArrowRight")
    _wait_for(lambda: _lecture_round(page) == 3 and _views_drawn(page), 10,
              "the → key did not draw round 3")
    page.keyboard.press("ArrowLeft")
    _wait_for(lambda: _lecture_round(page) == 2 and _views_drawn(page), 10,
              "the ← key did not draw round 2")
    page.keyboard.press("End")
    last = int(page.locator(".bl-stepper .bl-range").get_attribute("max"))
    _wait_for(lambda: _lecture_round(page) == last, 10, "End did not go to the last round")
    page.keyboard.press("Home")
    _wait_for(lambda: _lecture_round(page) == 0, 10, "Home did not go to round 0")
    assert "round=" not in _href(page)  # round 0 is the default: not in the link

    play = page.locator(".bl-stepper .bl-play")
    play.click()
    _wait_for(lambda: play.inner_text() == "Pause", 10, "Play did not turn into Pause")
    _wait_for(lambda: _lecture_round(page) >= 2, 15, "Play did not advance two rounds")
    play.click()  # Pause
    _wait_for(lambda: play.inner_text() == "Play", 10, "Pause did not turn into Play")
    paused = _lecture_round(page)
    _settle(page)  # the server is told the paused round and reruns
    assert _lecture_round(page) == paused and _round(page) == paused
    assert _views_drawn(page)
    _no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "topdown_played.png"))
    page.close()


def test_bad_csv_upload_shows_a_readable_error(server, browser, tmp_path) -> None:
    page = _open(browser, server + "/topdown?src=Upload+CSV", LECTURE)
    _no_exception_box(page)
    bad = tmp_path / "three_classes.csv"
    bad.write_text("x1,x2,label\n0,1,a\n1,0,b\n2,2,c\n3,1,a\n")
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(bad))
    page.wait_for_selector("[data-testid='stAlertContentError']", timeout=30_000)
    _settle(page)
    _no_exception_box(page)
    text = page.locator("[data-testid='stAlertContentError']").first.inner_text()
    assert "three_classes.csv" in text and "binary" in text.lower()
    # the page falls back to the generated data and still draws its panels
    page.wait_for_selector(LECTURE, timeout=30_000)
    assert page.locator(".bl-view-plotly").count() >= 2
    page.screenshot(path=str(ARTIFACTS / "topdown_bad_csv.png"), full_page=True)
    page.close()


def test_branching_page_steps(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(browser, server + "/branching?T=10&round=1", LECTURE)
    _no_exception_box(page)
    assert _lecture_round(page) == 1
    note = page.locator(".st-key-view-regions .bl-note")
    assert note.inner_text().startswith("Round 1: h_1")
    page.locator(".bl-stepper [data-act='next']").first.click()
    _wait_for(lambda: _round(page) == 2 and _views_drawn(page), 15,
              f"Next did not move to round 2: {_href(page)}")
    assert note.inner_text().startswith("Round 2: h_2")
    program = page.locator(".st-key-view-structure svg")  # the program, drawn as SVG
    assert program.count() == 1 and "h2" in program.text_content()
    _settle(page)
    _no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "branching_round2.png"), full_page=True)
    page.close()


def test_bounds_page(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(browser, server + "/bounds", "[data-testid='stMetric']")
    _no_exception_box(page)
    assert page.locator("[data-testid='stPlotlyChart']").count() >= 3
    page.get_by_role("tab", name="Top-down growth (Hatano, Mansour–McAllester)").click()
    _settle(page)
    _no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "bounds.png"), full_page=True)
    page.close()


def test_matryoshka_page(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(browser, server + "/matryoshka?Tw=8", LECTURE)
    _no_exception_box(page)
    assert _lecture_round(page) == 4  # opens where the first dolls sit inside a doll
    page.locator(".bl-btn[data-act='last']").click()
    _wait_for(lambda: _lecture_round(page) == 8 and _views_drawn(page), 15,
              f"End did not move to round 8: {_href(page)}")
    assert page.locator(".st-key-view-regions .bl-note").inner_text().startswith(
        "Level 3: a two-node tree")
    assert "L2 doll" in page.locator(".st-key-view-structure svg").first.inner_html()
    _settle(page)
    _no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "matryoshka.png"), full_page=True)
    page.close()
