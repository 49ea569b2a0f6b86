"""End-to-end in Chromium: presenter mode, the Export menu's downloads and the copy-link button.

Serves the app on 127.0.0.1 (the same pattern as ``tests/browser/test_browser.py``) and drives
Debian's headless Chromium. Screenshots go to ``tests/artifacts/`` (git-ignored). In CI a missing
``/usr/bin/chromium`` is a failure, never a skip.

The browser half of the URL round trip is checked here: a widget a user changes is written to
the address bar by the browser (``bind="query-params"``), which AppTest cannot see.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.browser.test_browser import (
    LECTURE,
    href,
    lecture_round,
    no_exception_box,
    round_shown,
    settle,
    still,
    views_drawn,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
VIEWPORT = {"width": 1600, "height": 900}  # a projector-sized window


pytestmark = pytest.mark.browser


@pytest.fixture
def context(browser, server):
    ctx = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    yield ctx
    ctx.close()


def _open(context, url: str, ready: str):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    page.wait_for_selector(ready, timeout=60_000)
    settle(page)
    no_exception_box(page)
    return page


def _query(page) -> dict[str, list[str]]:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(href(page)).query)


def _thumb(page, key: str) -> str:
    return page.locator(f".st-key-{key} [data-testid='stSliderThumbValue']").first.inner_text()


SIDEBAR = "section[data-testid='stSidebar']"
BAR = ".st-key-round_bar"


# --------------------------------------------------------------------------- presenter mode
def test_presenter_mode_topdown(server, context) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(context, server + "/topdown?present=true&round=3", BAR)
    assert not page.locator(SIDEBAR).first.is_visible(), "the sidebar shows in presenter mode"
    assert page.locator("[data-testid='stExpandSidebarButton']").count() == 0 or not (
        page.locator("[data-testid='stExpandSidebarButton']").first.is_visible()
    )
    title = page.locator("h1").first
    assert title.is_visible() and "Top-down growth" in title.inner_text()
    # explanations are left out, the presenter toggle is on
    assert page.get_by_text("The same data and the same leaf budget").count() == 0
    assert page.get_by_text("The theory on this page").count() == 0
    assert page.locator(".st-key-present input[type='checkbox']").first.is_checked()
    page.wait_for_selector(LECTURE, timeout=30_000)
    assert round_shown(page) == 3 and lecture_round(page) == 3
    page.screenshot(path=str(ARTIFACTS / "presenter_topdown.png"))

    # the → key steps (and writes the round to the address bar)
    title.click()  # focus the page, not a widget
    page.keyboard.press("ArrowRight")
    wait_for(
        lambda: round_shown(page) == 4 and views_drawn(page),
        20,
        f"→ did not move to round 4: {href(page)}",
    )
    settle(page)
    no_exception_box(page)
    assert "present=true" in href(page)

    # scrolled down, the stepper stays pinned at the top of the window
    bar = page.locator(BAR).first
    before = bar.bounding_box()
    page.mouse.move(800, 600)
    page.mouse.wheel(0, 1500)
    wait_for(
        lambda: title.bounding_box()["y"] + title.bounding_box()["height"] < 0,
        10,
        "the page did not scroll",
    )
    still(page, "h1", BAR)  # the scroll has ended: the title and the bar stand still
    after = bar.bounding_box()
    assert 0 <= after["y"] and after["y"] + after["height"] <= VIEWPORT["height"] / 3, (
        f"the stepper is not pinned at the top after scrolling: {before} → {after}"
    )
    assert lecture_round(page) == 4
    page.screenshot(path=str(ARTIFACTS / "presenter_topdown_scrolled.png"))
    page.close()


@pytest.mark.parametrize(
    "path, ready, theory, name",
    [
        (
            "/branching?present=true&round=4",
            BAR,
            "The theory: Theorem 1",
            "presenter_branching.png",
        ),
        (
            "/game?present=true&s=6&mv=0-2-0.5_0.5;1-2-0.3_0.7",
            "[data-testid='stGraphVizChart']",
            "What the game proves",
            "presenter_game.png",
        ),
    ],
)
def test_presenter_mode_other_pages(
    server, context, path: str, ready: str, theory: str, name: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _open(context, server + path, ready)
    page.screenshot(path=str(ARTIFACTS / name))
    assert not page.locator(SIDEBAR).first.is_visible()
    assert page.locator("h1").first.is_visible()
    assert page.get_by_text(theory).count() == 0
    page.close()


def test_presenter_toggle_writes_the_url(server, context) -> None:
    """A user turning the bound toggle on and off changes the address bar (state → URL)."""
    page = _open(context, server + "/topdown?s=8&round=2", "[data-testid='stExpander']")
    assert page.locator(SIDEBAR).first.is_visible()
    page.locator(".st-key-present label").first.click()
    wait_for(
        lambda: _query(page).get("present") == ["true"],
        20,
        f"turning presenter mode on did not reach the URL: {href(page)}",
    )
    settle(page)
    # the sidebar slides out and in (a CSS transition that can outlast the rerun)
    page.locator(SIDEBAR).first.wait_for(state="hidden", timeout=10_000)
    assert round_shown(page) == 2 and _query(page).get("s") == ["8"]
    page.locator(".st-key-present label").first.click()
    wait_for(
        lambda: "present" not in _query(page),
        20,
        f"turning presenter mode off did not reach the URL: {href(page)}",
    )
    settle(page)
    page.locator(SIDEBAR).first.wait_for(state="visible", timeout=10_000)
    page.close()


# ------------------------------------------------------------------------------- exports
def _download(page, click) -> tuple[str, bytes]:
    with page.expect_download(timeout=30_000) as info:
        click()
    download = info.value
    return download.suggested_filename, Path(download.path()).read_bytes()


@pytest.mark.long
def test_export_downloads(server, context) -> None:
    page = _open(context, server + "/topdown?s=8&round=2", "[data-testid='stExpander']")
    export = page.get_by_role("button", name="Export")
    export.click()
    popover = page.locator("[data-testid='stPopoverBody']")
    popover.wait_for(state="visible", timeout=10_000)

    name, data = _download(page, lambda: popover.get_by_role("button", name="Run as JSON").click())
    assert name == "boostlab_topdown_run.json"
    doc = json.loads(data)
    assert doc["page"] == "topdown" and doc["params"]["size"] == 8
    assert set(doc["runs"]) == {"hatano", "mansour_mcallester", "naive"}

    name, data = _download(
        page, lambda: popover.get_by_role("button", name="Hatano: tree at round 2 as DOT").click()
    )
    assert name == "topdown_hatano_round2.dot"
    assert data.decode().startswith("digraph")

    # the tree as drawn on the page (the lecture view's SVG, built on the server)
    name, data = _download(
        page, lambda: popover.get_by_role("button", name="Hatano: tree at round 2 as SVG").click()
    )
    assert name == "topdown_hatano_round2.svg"
    text = data.decode()
    assert text.startswith("<svg") and "</svg>" in text and "#0 x" in text

    # the camera button of a chart saves PNG by default …
    page.keyboard.press("Escape")
    wait_for(
        lambda: not popover.count() or not popover.first.is_visible(),
        10,
        "the Export popover did not close",
    )
    chart = page.locator(".st-key-view-regions .bl-view-plotly").first
    chart.hover()
    camera = chart.locator(
        ".js-plotly-plot:not(.bl-slot-off) .modebar-btn[data-title^='Download plot']"
    ).first
    name, data = _download(page, camera.click)
    assert name == "boostlab_topdown_regions_hatano.png"
    assert data[:8] == b"\x89PNG\r\n\x1a\n"

    # … and SVG once chosen in the Export menu (chosen once the menu has filled in: opening
    # it reruns the page, which then adds its files)
    export.click()
    popover.wait_for(state="visible", timeout=10_000)
    popover.get_by_role("button", name="Run as JSON").wait_for(timeout=30_000)
    popover.get_by_text("SVG", exact=True).click()
    settle(page)
    assert popover.get_by_role("radio", name="SVG").is_checked()
    no_exception_box(page)
    page.keyboard.press("Escape")
    settle(page)  # closing the menu reruns the page too
    page.wait_for_selector(LECTURE, timeout=30_000)
    chart = page.locator(".st-key-view-regions .bl-view-plotly").first
    chart.hover()
    camera = chart.locator(
        ".js-plotly-plot:not(.bl-slot-off) .modebar-btn[data-title^='Download plot']"
    ).first
    name, data = _download(page, camera.click)
    assert name == "boostlab_topdown_regions_hatano.svg"
    assert b"<svg" in data[:200]
    page.close()


@pytest.mark.long
def test_game_structure_exports_as_dot_and_svg(server, context) -> None:
    """Every drawn structure is in the Export menu (here the game tree after two moves of
    the adversary's mode); watching, the tree at the move shown (stepped in the browser:
    the round is reported when the menu opens)."""
    page = _open(
        context,
        server + "/game?mode=You+are+the+adversary&s=6&mv=0-2-0.5_0.5;1-2-0.5_0.5",
        "[data-testid='stGraphVizChart']",
    )
    page.get_by_role("button", name="Export").click()
    popover = page.locator("[data-testid='stPopoverBody']")
    popover.wait_for(state="visible", timeout=10_000)
    name, data = _download(
        page, lambda: popover.get_by_role("button", name="game tree after move 2 (DOT)").click()
    )
    assert name == "boostlab_game_1.dot" and data.decode().startswith("digraph")
    name, data = _download(page, lambda: popover.locator("#boostlab-svg-0").click())
    assert name == "boostlab_game_1.svg"
    text = data.decode()
    assert text.startswith("<?xml") and "<svg" in text and "#3" in text
    page.close()

    page = _open(context, server + "/game?mode=Watch&s=6", ".st-key-lv_game_tree .bl-view")
    page.locator("h1").first.click()
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    page.get_by_role("button", name="Export").click()
    popover = page.locator("[data-testid='stPopoverBody']")
    popover.wait_for(state="visible", timeout=10_000)
    button = popover.get_by_role("button", name="Game tree after move 2 (DOT)")
    button.wait_for(timeout=20_000)
    name, data = _download(page, button.click)
    assert name == "boostlab_game_move2.dot" and data.decode().startswith("digraph")
    assert data.decode().count("->") == 4  # two moves of two children each
    page.close()


# ----------------------------------------------------------------------------- copy link
@pytest.mark.long
def test_copy_link_reopens_the_same_demo(server, context) -> None:
    url = server + "/topdown?data=circles&noise=0.4&s=12&k=3&round=5"
    page = _open(context, url, LECTURE)
    assert round_shown(page) == 5
    # a user changes a bound widget: the browser writes it to the address bar
    page.locator(".st-key-s input[type='range']").first.focus()
    page.keyboard.press("ArrowRight")
    wait_for(
        lambda: _query(page).get("s") == ["13"],
        20,
        f"the leaf budget did not reach the URL: {href(page)}",
    )
    settle(page)
    shown_round = round_shown(page)

    page.locator("#boostlab-copy-link").click()
    wait_for(
        lambda: page.locator("#boostlab-copy-link").inner_text().strip() == "Copied",
        10,
        "the button did not say Copied",
    )
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == href(page)
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(copied).query)
    assert query["data"] == ["circles"] and query["noise"] == ["0.4"] and query["k"] == ["3"]
    assert query["s"] == ["13"]
    page.close()

    again = _open(context, copied, LECTURE)
    assert _query(again) == query
    assert round_shown(again) == shown_round
    assert _thumb(again, "s") == "13" and _thumb(again, "k") == "3"
    assert _thumb(again, "noise").startswith("0.40") and lecture_round(again) == shown_round
    from boostcore.datasets import DATASET_DESCRIPTIONS

    assert again.get_by_text(DATASET_DESCRIPTIONS["circles"]).count() == 1
    again.close()
