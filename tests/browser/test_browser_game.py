"""End-to-end in Chromium: play a Weight Distribution Game as the adversary to the end."""

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


def test_game_page_play_as_the_adversary(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/game?s=4&gamma=0.2", "[data-testid='stExpander']")
    no_exception_box(page)
    # equal binary splits with γ = 0.2: the tree weighs 0.8, then 0.72, then 0.64 = φ_γ(4)
    for expected in ("0.8000", "0.7200", "0.6400"):
        page.locator(".st-key-adv_expand button").click()
        metric = page.locator("[data-testid='stMetricValue']").first
        wait_for(
            lambda e=expected, m=metric: m.inner_text().strip() == e,
            20,
            f"the tree weight did not become {expected}",
        )
        settle(page)
        no_exception_box(page)
    wait_for(lambda: page.get_by_text("Game over").count() == 1, 20, "the game did not end")
    assert page.get_by_text("Why nobody beats").count() == 1
    page.screenshot(path=str(ARTIFACTS / "game_over.png"), full_page=True)
    page.close()


def test_game_page_lemma9_step(server, browser) -> None:
    """Issue 14, A.8: the preset's 4-way game (0.72), then Lemma 9's replacement (0.729)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, server + "/game?preset=lemma9", ".st-key-lemma9_node")
    no_exception_box(page)
    page.get_by_role("button", name="Replace by binary splits").click()
    wait_for(
        lambda: page.get_by_text("Binary subtree instead").count() == 1,
        20,
        "the Lemma 9 step did not appear",
    )
    settle(page)
    no_exception_box(page)
    values = [v.inner_text().strip() for v in page.locator("[data-testid='stMetricValue']").all()]
    assert "0.7200" in values and values.count("0.7290") >= 2, values
    assert page.locator("[data-testid='stGraphVizChart']").count() >= 3
    page.screenshot(path=str(ARTIFACTS / "game_lemma9.png"), full_page=True)
    page.close()
