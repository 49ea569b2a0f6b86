"""Screenshot every page in presenter mode for the home page's thumbnails, and the four
lecture pages at projector size for the README.

Usage: ``.venv/bin/python scripts/make_thumbnails.py`` (starts the app on a free loopback
port, drives Debian's ``/usr/bin/chromium`` with Playwright, writes
``assets/thumbnails/<page>.png`` at 480 px wide and ``assets/lecture_<page>.png`` — the whole
window at 1920×1080 in presenter mode; ``assets/screenshot_topdown.png`` is the top-down one;
``assets/student_weak_learner.png`` and ``assets/student_predict.png``: the student's turn
beside the views; ``assets/lecture_topdown_720.png``: the top-down page on a 1280×720 projector;
``assets/phone_<page>.png``: each lesson page on a 390×844 phone, by touch, scrolled to its
views under the pinned stepper). Re-run it after a visible change to a page.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ui.pages import LESSON_SLUGS, PAGES  # noqa: E402 — after the repository is on the path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "assets" / "thumbnails"
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

#: page → the URL query shown in its thumbnail (a preset, in presenter mode): the registry's.
SHOTS = {p.slug: p.thumbnail for p in PAGES if p.thumbnail}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _settle(page) -> None:
    """Wait until Streamlit has stopped running the script and drawing."""
    time.sleep(2.0)
    for _ in range(120):
        if not page.locator("[data-testid='stStatusWidget']").count():
            break
        time.sleep(0.5)
    time.sleep(2.5)


#: The lecture pages: one projector-sized screenshot each (regions, structure, curves).
LECTURE = LESSON_SLUGS
DRAWN = """() => ['view-regions', 'view-structure', 'view-curves'].every(k => {
  const v = document.querySelector('.st-key-' + k + ' .bl-view');
  return v && v.dataset.drawn !== undefined && v.dataset.drawn === v.dataset.frame; })"""


def _lecture_shot(browser, base: str, name: str, query: str) -> None:
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{base}/{name}?present=true&{query}")
    page.wait_for_function(DRAWN, timeout=60_000)
    _settle(page)
    page.wait_for_function(DRAWN, timeout=60_000)
    out = ROOT / "assets" / f"lecture_{name}.png"
    page.screenshot(path=str(out))
    page.close()
    _save_small(out)
    if name == "topdown":
        (ROOT / "assets" / "screenshot_topdown.png").write_bytes(out.read_bytes())
        # the same design at 2/3 on a 1280×720 projector (presenter mode scales with width)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{base}/{name}?present=true&{query}")
        page.wait_for_function(DRAWN, timeout=60_000)
        _settle(page)
        page.wait_for_function(DRAWN, timeout=60_000)
        small = ROOT / "assets" / f"lecture_{name}_720.png"
        page.screenshot(path=str(small))
        page.close()
        _save_small(small)


def _phone_shots(browser, base: str) -> None:
    """Each lesson page as a student's phone shows it (390×844, touch): the stepper pinned at
    the top, the views stacked under it."""
    for name in LESSON_SLUGS:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            device_scale_factor=1,
        )
        page = ctx.new_page()
        page.goto(f"{base}/{name}?{SHOTS[name]}")
        page.wait_for_function(DRAWN, timeout=60_000)
        _settle(page)
        # scroll the regions view up to just under the stepper, pinned under the top bar
        page.evaluate("""() => {
          const bar = document.querySelector(".bl-stepper").getBoundingClientRect();
          const top = document.querySelector("header[data-testid='stHeader']")
            .getBoundingClientRect().bottom;
          const view = document.querySelector(".st-key-view-regions").getBoundingClientRect();
          document.querySelector("[data-testid='stMain']").scrollTop +=
            view.top - (top + bar.height + 8);
        }""")
        page.wait_for_function(DRAWN, timeout=60_000)
        out = ROOT / "assets" / f"phone_{name}.png"
        page.screenshot(path=str(out))
        ctx.close()
        _save_small(out)


def _save_small(out: Path) -> None:
    with Image.open(out) as im:  # keep the repository small: a palette PNG reads as well
        im.convert("RGB").quantize(colors=256).save(out, optimize=True)
    print(f"wrote {out}")


def _student_shots(browser, base: str) -> None:
    """The student's turn at projector size: the weak learner's split on /topdown (a box
    dragged for two thresholds) and a prediction revealed on /branching."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{base}/topdown?present=true&data=stripes&noise=0.05&s=8")
    page.wait_for_function(DRAWN, timeout=60_000)
    _settle(page)
    page.get_by_text("You are the weak learner", exact=True).first.click()
    _settle(page)
    plot = page.locator(".st-key-weak_topdown_box .js-plotly-plot .nsewdrag").first
    for _ in range(3):  # the chart may still be wiring its drag handlers: until k = 3
        box = plot.bounding_box()
        page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] * 0.62, box["y"] + box["height"] * 0.8, steps=10)
        page.mouse.up()
        _settle(page)
        if "Threshold 2" in page.locator(".st-key-weak_topdown_box").inner_text():
            break
    out = ROOT / "assets" / "student_weak_learner.png"
    page.screenshot(path=str(out))
    page.close()
    _save_small(out)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{base}/branching?present=true&preset=merge_all&round=3")
    page.wait_for_function(DRAWN, timeout=60_000)
    _settle(page)
    page.get_by_text("Predict, then reveal", exact=True).first.click()
    _settle(page)
    # the quiz is asked in the browser (ui/lecture/js): a pick and Reveal need no rerun
    quiz = page.locator(".st-key-quiz_branching_box .bl-quiz")
    quiz.wait_for(timeout=30_000)
    quiz.locator(".bl-quiz-a").nth(2).click()
    quiz.locator(".bl-quiz-reveal").click()
    page.wait_for_function(
        "() => document.querySelector('.bl-quiz')?.dataset.revealed === '1'", timeout=10_000
    )
    page.wait_for_function(DRAWN, timeout=60_000)
    out = ROOT / "assets" / "student_predict.png"
    page.screenshot(path=str(out))
    page.close()
    _save_small(out)


def main() -> int:
    port = _free_port()
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
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for name in LECTURE:
                _lecture_shot(browser, base, name, SHOTS[name])
            _student_shots(browser, base)
            _phone_shots(browser, base)
            for name, query in SHOTS.items():
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(f"{base}/{name}?present=true&{query}")
                page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
                _settle(page)
                if name in LECTURE:
                    page.wait_for_function(DRAWN, timeout=60_000)
                # show the pictures, not the header: scroll the first chart to the top
                page.evaluate("""() => {
                  const el = document.querySelector(".st-key-round_bar, "
                    + "[data-testid='stPlotlyChart'], [data-testid='stGraphVizChart']");
                  const main = document.querySelector("[data-testid='stMain']");
                  if (el && main) main.scrollTop += el.getBoundingClientRect().top - 230;
                }""")
                time.sleep(1.5)
                raw = OUT / f"{name}_full.png"
                page.screenshot(path=str(raw))
                page.close()
                with Image.open(raw) as im:
                    im.thumbnail((480, 480))
                    im.save(OUT / f"{name}.png", optimize=True)
                raw.unlink()
                print(f"wrote {OUT / name}.png")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
