"""End-to-end in Chromium: the oblique page's lecture view steps in the browser through
nodes and through the stumps inside a node, a small multiple takes the focus when clicked,
and a shared link reopens the same step (helpers from ``test_browser``)."""

from __future__ import annotations

import pytest

from tests.browser.test_browser import (
    ARTIFACTS,
    LECTURE,
    href,
    lecture_round,
    no_exception_box,
    open_page,
    round_shown,
    settle,
    views_drawn,
    views_fitted,
    wait_for,
)

pytestmark = pytest.mark.browser

NOTE = ".st-key-view-regions .bl-note"


def _inside(page, width: int, height: int) -> None:
    """The three views are side by side and wholly inside the window."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.scrollTo(0, 0)")
    wait_for(lambda: views_drawn(page), 20, "the views did not redraw after resizing")
    views_fitted(page)  # the views refit their height
    boxes = [
        page.locator(f".st-key-view-{k}").bounding_box() for k in ("regions", "structure", "curves")
    ]
    for box in boxes:
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, boxes
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"], boxes


def test_oblique_page_steps_nodes_and_stumps(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(
        browser, server + "/oblique?data=diagonal_xor&n=500&noise=0.0&seed=1&T2=3", LECTURE
    )
    no_exception_box(page)
    # a fresh page opens at the first node, not at the root alone
    assert lecture_round(page) == 1
    note = page.locator(NOTE)
    assert note.inner_text().startswith("Step 1: node 0")
    assert page.locator(".st-key-view-structure svg").count() >= 1
    _inside(page, 1440, 900)
    page.screenshot(path=str(ARTIFACTS / "oblique_step1.png"))

    page.locator("h1").first.click()  # focus the page, not a widget
    page.keyboard.press("ArrowRight")
    wait_for(
        lambda: lecture_round(page) == 2 and views_drawn(page),
        20,
        "the → key did not draw step 2",
    )
    assert note.inner_text().startswith("Step 2:")
    assert round_shown(page) == 2
    page.keyboard.press("Home")
    wait_for(lambda: lecture_round(page) == 0 and views_drawn(page), 20, "Home did not draw step 0")
    assert note.inner_text().startswith("BoostODT: the root alone")

    # AdaBoost at step 0: its small picture says when it starts; clicking it focuses it
    page.locator(".st-key-multiple-AdaBoost .bl-view").first.click()
    titles = page.locator(".st-key-view-structure .bl-title")
    wait_for(
        lambda: titles.count() == 1 and "AdaBoost" in titles.first.inner_text(),
        30,
        lambda: f"the click did not focus AdaBoost: titles {titles.all_inner_texts()}",
    )
    settle(page)
    no_exception_box(page)
    wait_for(lambda: views_drawn(page), 20, "the focused views were not drawn")
    svg = page.locator(".st-key-view-structure svg").first
    wait_for(
        lambda: "The path is empty" in svg.inner_html(),
        10,
        lambda: (
            f"AdaBoost's structure at step {lecture_round(page)} is not the empty path: "
            + svg.inner_html()[:200]
        ),
    )
    assert "focus=AdaBoost" in href(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "oblique_adaboost_step0.png"))
    page.close()


def test_oblique_inner_stepping_and_shared_link(server, browser) -> None:
    page = open_page(
        browser, server + "/oblique?data=diagonal_xor&n=500&noise=0.0&seed=1&T2=3", LECTURE
    )
    page.get_by_text("Step through the stumps inside each node").click()
    settle(page)
    wait_for(
        lambda: page.locator(NOTE).inner_text().startswith("Building node 0"),
        20,
        "stepping inside node 0 did not show its first stump",
    )
    assert page.locator(NOTE).inner_text().startswith("Building node 0: LS so far has 1 of 10")
    page.locator(".bl-btn[data-act='next']").click()
    wait_for(
        lambda: (
            page.locator(NOTE).inner_text().startswith("Building node 0: LS so far has 2 of 10")
            and views_drawn(page)
        ),
        20,
        "Next did not add the second stump",
    )
    settle(page)
    no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "oblique_inner.png"))
    shared = href(page)
    assert "inner=true" in shared and "round=2" in shared
    page.close()
    again = open_page(browser, shared, LECTURE)
    no_exception_box(again)
    assert again.locator(NOTE).inner_text().startswith("Building node 0: LS so far has 2 of 10")
    again.close()
