"""The student's turn in the served app (issue 17), in headless Chromium: drag a box on the
weak learner's regions plot to place thresholds on /topdown and play the split. (The quiz in
the browser and the proof card on a projector: tests/browser/test_browser_layout.py.) Screenshots go
to tests/artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.test_browser import (
    ARTIFACTS,
    LECTURE,
    lecture_round,
    no_exception_box,
    open_page,
    settle,
    views_drawn,
    wait_for,
)

pytestmark = pytest.mark.browser

WEAK = ".st-key-weak_topdown_box"


def _toggle(page, label: str) -> None:
    page.get_by_text(label, exact=True).first.click()
    settle(page)


def test_drag_a_threshold_box_and_play_the_split(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/topdown?data=stripes&noise=0.05&s=8", LECTURE)
    _toggle(page, "You are the weak learner")
    panel = page.locator(WEAK)
    panel.wait_for(timeout=30_000)
    assert lecture_round(page) == 0  # the tree to split, not the algorithm's next round
    plot = panel.locator(".js-plotly-plot:not(.bl-slot-off)").first
    box = plot.locator(".nsewdrag").first.bounding_box()
    # a box across the middle of the plot: its two x edges become two thresholds (k = 3)
    x0, x1 = box["x"] + box["width"] * 0.3, box["x"] + box["width"] * 0.62
    y0, y1 = box["y"] + box["height"] * 0.2, box["y"] + box["height"] * 0.8
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=10)
    page.mouse.up()
    settle(page)
    # the sliders took the box's edges: two thresholds, k = 3 (the table is a canvas grid:
    # its numbers are checked in tests/pages/topdown/test_app_weak_learner.py)
    wait_for(
        lambda: "Threshold 2" in panel.inner_text(),
        15,
        lambda: "the box did not set two thresholds: " + panel.inner_text()[:400],
    )
    assert panel.locator("[data-testid='stDataFrame']").count() == 1
    page.screenshot(path=str(ARTIFACTS / "weak_learner_box.png"), full_page=True)
    panel.get_by_role("button", name="Use my split").click()
    settle(page)
    wait_for(lambda: lecture_round(page) == 1, 15, "the page did not show round 1")
    wait_for(lambda: views_drawn(page), 15, "the views did not draw the student's tree")
    # the student's 3-way split, not the algorithm's (the stepper's round can arrive before
    # the views' new frames on a loaded machine: waited for, not read once)
    note = page.locator(".st-key-view-regions .bl-note")
    wait_for(lambda: "split 3-way" in note.inner_text(), 15, lambda: note.inner_text())
    assert "round 2" in panel.inner_text()
    no_exception_box(page)
    page.close()
