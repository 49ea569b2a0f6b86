"""End-to-end in Chromium: the benchmark page shows the committed results and runs now."""

from __future__ import annotations

import pytest

from tests.browser.test_browser import (
    ARTIFACTS,
    no_exception_box,
    open_page,
    settle,
    wait_for,
)

pytestmark = pytest.mark.browser


def test_benchmark_page_and_run_now(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/benchmark", ".st-key-now_run")
    no_exception_box(page)
    assert page.get_by_text("The papers' claims, checked").count() == 1
    assert page.locator("[data-testid='stPlotlyChart']").count() == 5
    page.locator(".st-key-now_run button").click()
    wait_for(lambda: page.get_by_text("Done in").count() == 1, 60, "the run did not finish")
    settle(page)
    no_exception_box(page)
    page.screenshot(path=str(ARTIFACTS / "benchmark.png"), full_page=True)
    page.close()
