"""End-to-end in Chromium: the oblique page steps through nodes and through the stumps inside
a node, and a shared link reopens the same step (fixtures from ``test_browser``)."""

from __future__ import annotations

import pytest
from test_browser import (  # noqa: F401  (server and browser are fixtures)
    ARTIFACTS,
    READY,
    _href,
    _no_exception_box,
    _open,
    _round,
    _settle,
    _wait_for,
    browser,
    server,
)

pytestmark = pytest.mark.browser


def test_oblique_page_steps_nodes_and_stumps(server, browser) -> None:  # noqa: F811
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(browser, server + "/oblique?data=diagonal_xor&n=500&noise=0.0&seed=1&T2=3",
                 READY)
    _no_exception_box(page)
    assert page.get_by_text("H = 0: no weak hypothesis yet").count() == 1
    page.locator(".st-key-round_next button").first.click()
    _wait_for(lambda: _round(page) == 1, 20, f"Next did not move to step 1: {_href(page)}")
    _wait_for(lambda: page.get_by_text("AdaBoost_R inside node 0").count() == 1, 20,
              "the root's AdaBoost_R table was not drawn")
    _settle(page)
    _no_exception_box(page)
    # three region plots, the tree, three curve plots and the margin plot
    assert page.locator("[data-testid='stPlotlyChart']").count() == 8
    page.screenshot(path=str(ARTIFACTS / "oblique_step1.png"), full_page=True)
    # the stumps inside each node: every step adds one AdaBoost_R round
    page.get_by_text("Step through the stumps inside each node").click()
    _settle(page)
    if _round(page) != 0:  # the new schedule may already start the page at step 0
        page.locator(".st-key-round_first button").first.click()
    _wait_for(lambda: _round(page) == 0, 20, f"Home did not go back to step 0: {_href(page)}")
    _settle(page)
    page.locator(".st-key-round_next button").first.click()
    _wait_for(lambda: page.get_by_text("stump 1/10").count() >= 1, 20,
              "stepping inside node 0 did not show its first stump")
    _settle(page)
    _no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "oblique_inner.png"), full_page=True)
    shared = _href(page)
    assert "inner=true" in shared and "round=1" in shared
    page.close()
    again = _open(browser, shared, READY)
    _no_exception_box(again)
    assert again.get_by_text("stump 1/10").count() >= 1
    again.close()
