"""The way into class mode, in Chromium (issue 39, item 10).

* A teacher opens a class on the home page and clicks a step of the 45-minute lecture path:
  the page opens in the SAME tab (no new tab: the tab that teaches is still the class's
  teacher), in presenter mode and on the step's preset; the class card is still there with
  the same code, and a student following on a phone is taken to the new page. Back home
  (the navigation's Home), still teaching, the next step takes the class on.
* The join dialog's students' link reads from the back of a hall: >= 28 px at 1920x1080 in
  presenter mode, the class code larger still; at 390x844 it wraps (no sideways scroll).
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_browser import new_page, no_exception_box, settle, wait_for
from tests.browser.test_browser_teach import FOLLOWING, LECTURE, PHONE, page_address

pytestmark = pytest.mark.browser

ART = "tests/artifacts/issue39"
PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}
JOIN_LINK = ".bl-class-join code"


def _open_class(page, url: str, ready: str) -> str:
    """Open ``url``, click *Teach a class*, wait for the join dialog; the class code."""
    page.goto(url)
    page.wait_for_selector(ready, timeout=60_000)
    settle(page)
    page.get_by_role("button", name="Teach a class").click()
    page.wait_for_selector(".st-key-class-code", timeout=60_000)
    found = re.search(r"Class\s+([A-Z0-9]{6})", page.locator(".st-key-class-code").inner_text())
    assert found, page.locator(".st-key-class-code").inner_text()
    dialog = page.get_by_role("dialog")
    dialog.wait_for(timeout=20_000)
    page.wait_for_selector("img.bl-class-qr", timeout=20_000)
    return found.group(1)


def _close_dialog(page) -> None:
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="detached", timeout=10_000)


def _step(page, title: str):
    """The home page's way onward from the lecture step on page ``title`` ("Top-down growth →"
    or "Top-down growth: <the preset> →"; a button or a link, whichever the page has)."""
    name = re.compile(rf"^{re.escape(title)}(: .*)? →$")
    return page.get_by_role("button", name=name).or_(page.get_by_role("link", name=name)).first


def _px(locator) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def test_a_lecture_path_link_keeps_the_class_in_this_tab(server, browser) -> None:
    teacher = new_page(browser, **PROJECTOR)
    opened: list = []  # a page the link opened in another tab
    teacher.context.on("page", lambda p: opened.append(p))
    code = _open_class(teacher, server + "/", "h1")
    _close_dialog(teacher)
    student = new_page(browser, **PHONE)
    student.goto(f"{server}/?class={code}")
    student.wait_for_selector(FOLLOWING, timeout=60_000)
    step = _step(teacher, "Top-down growth")
    step.scroll_into_view_if_needed()
    teacher.screenshot(path=f"{ART}/way_in_home_teaching.png")
    step.click()
    wait_for(
        lambda: opened or "/topdown" in page_address(teacher),
        60,
        lambda: f"nothing opened; the teacher's tab is at {page_address(teacher)}",
    )
    assert not opened, f"the link opened a new tab ({opened[0].url}): the class stays behind"
    assert len(teacher.context.pages) == 1
    teacher.wait_for_selector(LECTURE, timeout=60_000)
    settle(teacher)
    address = page_address(teacher)
    assert "present=true" in address, address
    assert "data=stripes" in address, address  # the preset's parameters (it was loaded)
    # this tab still teaches the class: the card with the same code, no Teach button
    card = teacher.locator(".st-key-class-code")
    card.wait_for(timeout=20_000)
    assert code in card.inner_text()
    assert teacher.get_by_role("button", name="Teach a class").count() == 0
    # presenter mode is on
    assert teacher.get_by_role("switch", name="Presenter mode").is_checked()
    # the student's phone followed the teacher to the new page (without presenter mode)
    wait_for(
        lambda: "/topdown" in page_address(student) and "data=stripes" in page_address(student),
        60,
        lambda: f"the student's address is {page_address(student)}",
    )
    student.wait_for_selector(FOLLOWING, timeout=60_000)
    assert f"class={code}" in page_address(student) and "present=true" not in page_address(student)
    teacher.screenshot(path=f"{ART}/way_in_topdown_teaching.png")
    # back home (presenter mode off, the navigation's Home), still teaching; the next step
    # takes the class on, in presenter mode again
    teacher.get_by_text("Presenter mode", exact=True).first.click()
    settle(teacher)
    teacher.locator("[data-testid=stSidebarNav]").get_by_role("link", name="Home").click()
    teacher.wait_for_function("() => location.pathname === '/'", timeout=60_000)
    settle(teacher)
    assert code in teacher.locator(".st-key-class-code").inner_text()
    _step(teacher, "Weight Distribution Game").click()
    wait_for(
        lambda: "/game" in page_address(teacher) and "present=true" in page_address(teacher),
        60,
        lambda: f"the teacher's tab is at {page_address(teacher)}",
    )
    assert not opened and len(teacher.context.pages) == 1
    settle(teacher)
    assert code in teacher.locator(".st-key-class-code").inner_text()
    wait_for(
        lambda: "/game" in page_address(student) and f"class={code}" in page_address(student),
        60,
        lambda: f"the student's address is {page_address(student)}",
    )
    for p in (teacher, student):
        no_exception_box(p)
        p.close()


def test_the_join_dialogs_link_reads_from_the_back_of_the_hall(server, browser) -> None:
    teacher = new_page(browser, **PROJECTOR)
    code = _open_class(teacher, server + "/topdown?present=true", LECTURE)
    dialog = teacher.get_by_role("dialog")
    link = dialog.locator(JOIN_LINK)
    assert f"class={code}" in link.inner_text()
    assert _px(link) >= 28, f"the students' link is {_px(link)} px"
    assert _px(dialog.locator(".bl-class-join .bl-class-code b")) >= _px(link)
    # the link fits the dialog: no part of it is cut off or scrolled
    box, frame = link.bounding_box(), dialog.bounding_box()
    assert box and frame and box["x"] + box["width"] <= frame["x"] + frame["width"], (box, frame)
    teacher.screenshot(path=f"{ART}/join_1920x1080_present.png")
    no_exception_box(teacher)
    teacher.close()
    phone = new_page(browser, **PHONE)
    _open_class(phone, server + "/topdown?present=true", LECTURE)
    link = phone.get_by_role("dialog").locator(JOIN_LINK)
    box = link.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert link.evaluate("e => e.closest('[role=dialog]').scrollWidth <= 390")
    assert _px(link) >= 16
    phone.screenshot(path=f"{ART}/join_390x844.png")
    no_exception_box(phone)
    phone.close()
