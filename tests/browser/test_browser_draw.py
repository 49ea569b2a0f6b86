"""End-to-end: draw a dataset by clicking on the canvas in Debian's headless Chromium.

Opens /topdown, chooses the Draw source, clicks points of both classes at known places on
the canvas, undoes one, checks the counts, the points in the link (``pts=``) and that the
demo runs on the drawn data, then reopens the link and finds the same points. Screenshots go
to ``tests/artifacts/``. Needs ``/usr/bin/chromium`` (a failure in CI, a skip elsewhere).
"""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.browser.test_browser import (
    href,
    no_exception_box,
    open_page,
    settle,
    wait_for,
)
from ui import draw

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
READY = "[data-testid='stExpander']"
PANEL = ".st-key-draw_open"
CANVAS = f"{PANEL} .js-plotly-plot:not(.bl-slot-off)"


pytestmark = pytest.mark.browser


def _url_points(page) -> list[tuple[int, int, int]]:
    query = urllib.parse.parse_qs(urllib.parse.urlparse(href(page)).query)
    points, problem = draw.decode_points(query.get("pts", [""])[0])
    assert problem is None, problem
    return points


def _panel_title(page) -> str:
    return page.locator(f"{PANEL} summary").first.inner_text()


def _canvas_pixel(page, x: float, y: float) -> tuple[float, float]:
    """Where the data point (x, y) is on the screen, from Plotly's own axis mapping."""
    return tuple(
        page.evaluate(
            """([x, y]) => {
            const gd = document.querySelector(arguments_selector);
            const fl = gd._fullLayout, box = gd.getBoundingClientRect();
            // _offset: where the axis starts (the square canvas is centred in the chart)
            return [box.left + fl.xaxis._offset + fl.xaxis.l2p(x),
                    box.top + fl.yaxis._offset + fl.yaxis.l2p(y)];
        }""".replace("arguments_selector", repr(CANVAS)),
            [x, y],
        )
    )


def _click_canvas(page, x: float, y: float) -> None:
    """Click at data point (x, y) and wait until the drawing has one point more."""
    before = len(_url_points(page))
    page.wait_for_selector(CANVAS, timeout=30_000)
    px, py = _canvas_pixel(page, x, y)
    page.mouse.click(px, py)
    wait_for(
        lambda: len(_url_points(page)) == before + 1,
        30,
        lambda: f"the click at ({x}, {y}) added no point: {href(page)}",
    )
    settle(page)


def _choose_class(page, label: str) -> None:
    page.locator(f".st-key-draw_cls button:has-text('class {label}')").first.click()
    settle(page)


NEG = [(-1.0, 1.0), (-1.5, -0.5), (-0.5, 0.0)]  # on the clickable grid (step 0.05)
POS = [(1.0, -1.0), (1.5, 0.5), (0.5, 0.25)]


@pytest.mark.long
def test_draw_points_by_clicking_and_share_the_link(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/topdown", READY)
    page.locator(".st-key-src button:has-text('Draw')").first.click()
    page.wait_for_selector(CANVAS, timeout=60_000)
    settle(page)
    no_exception_box(page)
    assert "src=Draw" in href(page)
    assert page.get_by_text("Too few points to run").count() == 1
    page.screenshot(path=str(ARTIFACTS / "draw_empty.png"), full_page=True)

    for x, y in NEG:  # class −1 is chosen by default
        _click_canvas(page, x, y)
    _choose_class(page, "+1")
    for x, y in POS:
        _click_canvas(page, x, y)
    assert "3 of class −1, 3 of class +1" in _panel_title(page)

    page.locator(".st-key-draw_undo button").first.click()
    wait_for(lambda: len(_url_points(page)) == 5, 30, "Undo did not remove a point")
    settle(page)
    assert "3 of class −1, 2 of class +1" in _panel_title(page)

    # every point is where it was clicked, of the class chosen then, in click order
    expected = [(draw.to_level(x), draw.to_level(y), -1) for x, y in NEG]
    expected += [(draw.to_level(x), draw.to_level(y), 1) for x, y in POS[:2]]
    assert _url_points(page) == expected
    X, labels = draw.points_xy(_url_points(page))
    assert X.tolist() == [list(p) for p in NEG + POS[:2]]

    # the demo below runs on the drawn data: 5 training points, no test points
    assert page.get_by_text("The demo below runs on your 5 points").count() == 1
    # the stepper's caption (drawn by the lecture script when the stepper remounts with the new run)
    wait_for(
        lambda: page.get_by_text("5 training and 0 test points").count() == 1,
        10,
        lambda: f"the stepper says {page.locator('.bl-caption').all_inner_texts()}",
    )
    # round 1: the root's children share the 5 points (the tree is an SVG of the lecture view)
    page.wait_for_selector(".st-key-view-structure .bl-view[data-drawn]", timeout=30_000)
    tree = page.locator(".st-key-view-structure svg").first.inner_html()
    assert sum(int(n) for n in re.findall(r"n=(\d+)", tree)) == 5, tree[:500]
    no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "draw_drawn.png"), full_page=True)
    link = href(page)
    page.close()

    # the link reopens the same drawing (the canvas folded away: the drawing can run)
    again = open_page(browser, link, READY)
    no_exception_box(again)
    assert _url_points(again) == expected
    assert "3 of class −1, 2 of class +1" in _panel_title(again)
    wait_for(
        lambda: again.get_by_text("5 training and 0 test points").count() == 1,
        10,
        lambda: f"the stepper says {again.locator('.bl-caption').all_inner_texts()}",
    )
    again.screenshot(path=str(ARTIFACTS / "draw_reopened.png"), full_page=True)
    # open the panel: the same points are drawn on the canvas
    again.locator(f"{PANEL} summary").first.click()
    again.wait_for_selector(CANVAS, timeout=30_000)
    settle(again)
    drawn = again.evaluate(
        f"""() => document.querySelector({CANVAS!r})._fullData.slice(1)
               .map(t => Array.from(t.x).map((x, i) => [x, t.y[i]]))"""
    )
    assert sorted(map(tuple, drawn[0])) == sorted(NEG)
    assert sorted(map(tuple, drawn[1])) == sorted(POS[:2])
    again.screenshot(path=str(ARTIFACTS / "draw_reopened_open.png"), full_page=True)
    again.close()
