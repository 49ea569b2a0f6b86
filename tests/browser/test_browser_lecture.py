"""End-to-end in Chromium: on every algorithm page the three linked views — regions,
structure, bound curves — are on one screen, and a step changes them.

Checked at the three settings of a lecture: presenter mode at 1920×1080 and 1280×720
(``?present=true``) and normal mode at 1440×900 with the sidebar open. Screenshots go to
``tests/artifacts/``. The speed of a step is measured by ``benchmarks/bench_browser_step.py``,
not here.
"""

from __future__ import annotations

import pytest

from tests.browser.test_browser import (
    ARTIFACTS,
    lecture_round,
    new_page,
    no_exception_box,
    settle,
    views_drawn,
    views_fitted,
    wait_for,
)
from ui import pages

pytestmark = pytest.mark.browser

VIEWS = ("view-regions", "view-structure", "view-curves")

#: Each page with the lecture view (the registry's lessons) at a mid round of its default demo.
PAGES = {p.slug: f"/{p.slug}?round=5" for p in pages.LESSONS}

#: The window of a laptop with the sidebar open. Presenter mode at 1920×1080 and 1280×720,
#: in every mode, is tests/browser/test_browser_layout.py's (which also steps there).
SETTINGS = {
    "normal-1440x900": ((1440, 900), False),
}


def _all_drawn(page) -> bool:
    return page.evaluate(f"""() => {{
      const keys = {list(VIEWS)!r};
      return keys.every(k => {{
        const v = document.querySelector('.st-key-' + k + ' .bl-view');
        return v && v.dataset.drawn !== undefined && v.dataset.drawn === v.dataset.frame;
      }});
    }}""")


def _frames(page) -> dict[str, str]:
    return page.evaluate(f"""() => Object.fromEntries({list(VIEWS)!r}.map(k => {{
      const v = document.querySelector('.st-key-' + k + ' .bl-view');
      return [k, v ? v.dataset.frame + '|' + (v.querySelector('.bl-body') || v).innerHTML.length
                   : null];
    }}))""")


@pytest.mark.parametrize("setting", list(SETTINGS))
@pytest.mark.parametrize("name", list(PAGES))
@pytest.mark.long
def test_three_views_on_one_screen_and_a_step_changes_them(
    server, browser, name: str, setting: str
) -> None:
    (width, height), present = SETTINGS[setting]
    url = server + PAGES[name] + ("&present=true" if present else "")
    page = new_page(browser, viewport={"width": width, "height": height})
    try:
        page.goto(url)
        page.wait_for_selector(".bl-stepper", timeout=60_000)
        wait_for(lambda: _all_drawn(page), 60, f"{name}: the three views were not drawn")
        # the views size themselves to the window once the page has settled (the lecture script)
        views_fitted(page)
        no_exception_box(page)
        if not present:
            assert page.locator("section[data-testid='stSidebar']").first.is_visible()
        boxes = {}
        for key in VIEWS:
            box = page.locator(f".st-key-{key}").first.bounding_box()
            assert box is not None, f"{name}: no container with key {key}"
            boxes[key] = box
            assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (
                f"{name} at {setting}: {key} spans y {box['y']:.0f}–"
                f"{box['y'] + box['height']:.0f}, the window is {height} px high"
            )
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
        # side by side, left to right: regions, structure, curves
        xs = [boxes[k]["x"] for k in VIEWS]
        assert xs == sorted(xs), f"{name}: the views are not side by side: {boxes}"
        page.screenshot(path=str(ARTIFACTS / f"lecture_{name}_{setting}.png"))

        before = _frames(page)
        t = lecture_round(page)
        page.locator(".bl-stepper .bl-btn[data-act='next']").click()
        wait_for(
            lambda: lecture_round(page) == t + 1 and views_drawn(page),
            20,
            f"{name}: Next did not draw round {t + 1}",
        )
        after = _frames(page)
        assert after != before, f"{name}: a step changed none of the three views"
        # the regions plot has its key: what markers, shading and lines mean
        assert page.get_by_text("Regions:", exact=False).count() >= 1
        # the student's panel (every mode on) sits beside the views: they stay in the window
        spec = pages.page(name)
        modes = ["Predict, then reveal"] + (
            ["You are the weak learner"] if spec.has("student") else []
        )
        for label in modes:
            page.get_by_text(label, exact=True).first.click()
            settle(page)
        wait_for(lambda: _all_drawn(page), 30, f"{name}: the views did not draw with the panel")
        views_fitted(page)
        for key in VIEWS:
            box = page.locator(f".st-key-{key} .bl-view").first.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (
                f"{name} at {setting} with the student's panel: {key} spans y {box['y']:.0f}–"
                f"{box['y'] + box['height']:.0f}, the window is {height} px high"
            )
        assert page.locator(".st-key-lecture-side").first.is_visible()
        page.screenshot(path=str(ARTIFACTS / f"lecture_{name}_{setting}_panel.png"))
    finally:
        page.close()


def test_clicking_a_small_multiple_focuses_its_run(server, browser) -> None:
    """The other runs sit below as small pictures on the same stepper; a click on one makes
    it the focused run (in the big views and the link) and keeps the round."""
    page = new_page(browser, viewport={"width": 1440, "height": 900})
    try:
        page.goto(server + "/topdown?s=12&round=4")
        wait_for(lambda: _all_drawn(page), 60, "the three views were not drawn")

        def titles() -> list[str]:
            # while the server reruns, the old view can stand beside the new one for a moment
            return page.locator(".st-key-view-regions .bl-title").all_inner_texts()

        assert [t[:6] for t in titles()] == ["Hatano"]
        page.locator("[class*='st-key-lv_small_naive'] .bl-view").click()
        wait_for(
            lambda: [t[:5] for t in titles()] == ["Naive"] and _all_drawn(page),
            30,
            "clicking the Naive run did not focus it",
        )
        assert lecture_round(page) == 4
        assert "focus=Naive" in page.evaluate("location.href")
        no_exception_box(page)
    finally:
        page.close()
