"""The class's splits on a phone and on the projector (issue 39, items 5 and 8), in Chromium.

* On a 390 × 844 phone following the class, *Send my split to the class* sits under the
  controls it sends (leaf, feature, branches, thresholds), a finger's 44 px high, and its
  confirmation lands right under it: a tap made with the button low on the screen shows
  "Sent." without scrolling (it was below the table and the notes, off the screen).
* On the teacher's projector (1920 × 1080, presenter mode) the *Class splits* panel's charts
  read from the back of the hall like the lecture's views (text ≥ 22 px; 12-16 px before),
  no plotly mode bar is drawn over their titles, and *Use the class's best split* is on the
  first screen (it was under both charts, below the fold).
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_browser import (
    ARTIFACTS,
    LECTURE,
    new_page,
    no_exception_box,
    settle,
    wait_for,
)

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}
FOLLOWING = ".st-key-class-follow [data-following=true]"
BOX = ".st-key-weak_topdown_box"
PANEL = ".st-key-weak_topdown_class"
SEND = "Send my split to the class"
#: Presenter mode's chart text at 1920 px (tests/browser/test_browser_layout.py's LABEL_PX).
LABEL_PX = 22.0

#: The smallest drawn SVG text inside ``sel`` (plotly's titles, ticks, labels), and its text.
_SMALLEST_JS = r"""(sel) => {
  const own = e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.nodeValue)
    .join('').replace(/[\s\u200b]+/g, ' ').trim();
  const seen = e => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({visibilityProperty: true}); };
  let out = [1e9, '', 0];
  for (const e of document.querySelector(sel).querySelectorAll('svg text, svg tspan')) {
    if (e.closest('.modebar-container') || !own(e) || !seen(e)) continue;
    const m = e.getScreenCTM();
    const px = (m ? Math.hypot(m.a, m.b) : 1) * parseFloat(getComputedStyle(e).fontSize);
    out[2] += 1;
    if (px < out[0]) out = [Math.round(px * 10) / 10, own(e), out[2]];
  }
  return out;
}"""

#: Scroll the page's scrolling box so that the bottom of ``sel`` is ``gap`` px above the
#: bottom of the window (where a thumb taps a button low on the screen).
_LOW_ON_SCREEN_JS = r"""([sel, gap]) => {
  const el = document.querySelector(sel);
  let box = el.parentElement;
  while (box && !(box.scrollHeight > box.clientHeight + 1 &&
                  /(auto|scroll)/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
  box = box || document.scrollingElement;
  box.scrollTop += el.getBoundingClientRect().bottom - (window.innerHeight - gap);
  return el.getBoundingClientRect().bottom;
}"""


def _open(browser, url: str, **kwargs):
    page = new_page(browser, **kwargs)
    page.goto(url)
    page.wait_for_selector(LECTURE, timeout=60_000)
    settle(page)
    return page


def _class_collecting(browser, server: str, teacher_query: str = ""):
    """A teacher on /topdown with the weak learner and *Class splits* on, and a phone that
    follows the class and shows its Send button."""
    url = f"{server}/topdown?data=stripes&noise=0.05&s=8" + teacher_query
    teacher = _open(browser, url, **PROJECTOR)
    teacher.get_by_role("button", name="Teach a class").click()
    teacher.wait_for_selector(".st-key-class-code", timeout=60_000)
    code = re.search(r"Class\s+([A-Z0-9]{6})", teacher.locator(".st-key-class-code").inner_text())
    assert code, teacher.locator(".st-key-class-code").inner_text()
    teacher.keyboard.press("Escape")  # the join dialog
    teacher.get_by_role("dialog").wait_for(state="detached", timeout=10_000)
    phone = _open(browser, f"{server}/topdown?class={code.group(1)}", **PHONE)
    phone.wait_for_selector(FOLLOWING, timeout=60_000)
    teacher.get_by_text("You are the weak learner", exact=True).first.click()
    teacher.wait_for_selector(BOX, timeout=60_000)
    settle(teacher)
    teacher.get_by_text("Class splits", exact=True).first.click()
    settle(teacher)
    send = phone.get_by_role("button", name=SEND)
    wait_for(lambda: send.count() > 0 and send.first.is_visible(), 60, "no Send on the phone")
    settle(phone)
    return teacher, phone, send


@pytest.mark.long
def test_a_phone_sends_from_under_its_controls(server, browser) -> None:
    teacher, phone, send = _class_collecting(browser, server)
    controls = phone.locator(
        f"{BOX} :is([data-testid=stSelectbox], [data-testid=stRadio], [data-testid=stSlider])"
    )
    assert controls.count() >= 3, controls.count()  # leaf, feature, the threshold(s)
    last = max(
        controls.nth(i).bounding_box()["y"] + controls.nth(i).bounding_box()["height"]
        for i in range(controls.count())
    )
    box = send.bounding_box()
    assert box["y"] >= last, (box, last)  # under the controls it sends
    assert box["height"] >= 44, box  # a finger's target
    # the button low on the screen, as a thumb finds it, then tapped
    phone.evaluate(_LOW_ON_SCREEN_JS, [f"{BOX} .st-key-weak_topdown_send", 120])
    box = send.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844 - 100, box
    send.tap()
    sent = phone.locator(BOX).get_by_text("Sent.")
    sent.first.wait_for(timeout=20_000)
    settle(phone)
    where = sent.first.bounding_box()
    # right under the button, and on the screen the tap was made on
    assert 0 <= where["y"] - (box["y"] + box["height"]) <= 80, (where, box)
    assert where["y"] >= 0 and where["y"] + 20 <= 844, where
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "pool_phone_sent.png"))
    for p in (teacher, phone):
        no_exception_box(p)
        p.close()


@pytest.mark.long
def test_the_projectors_class_panel_reads_from_the_back(server, browser) -> None:
    teacher, phone, send = _class_collecting(browser, server, "&present=true")
    send.tap()
    phone.get_by_text("Sent.").first.wait_for(timeout=20_000)
    panel = teacher.locator(PANEL)
    wait_for(lambda: "Class splits: 1" in panel.inner_text(), 30, lambda: panel.inner_text())
    charts = panel.locator("[data-testid=stPlotlyChart]")
    wait_for(lambda: charts.count() == 2, 20, lambda: f"{charts.count()} charts in the panel")
    wait_for(
        lambda: teacher.evaluate(_SMALLEST_JS, PANEL)[2] >= 10,
        20,
        "the panel's charts drew no text",
    )
    settle(teacher)
    # the best split's button on the first screen: in the window and in the side panel's
    # visible part (it scrolls on its own), before anything is scrolled
    side = teacher.locator(".st-key-lecture-side")
    assert side.evaluate("e => e.scrollTop") == 0
    edge = side.bounding_box()
    best = panel.get_by_role("button", name="Use the class's best split").bounding_box()
    assert best["y"] >= 0 and best["y"] + best["height"] <= min(1080, edge["y"] + edge["height"]), (
        best,
        edge,
    )
    charts.first.scroll_into_view_if_needed()
    smallest = teacher.evaluate(_SMALLEST_JS, PANEL)
    assert smallest[0] >= LABEL_PX - 0.3, ("the panel's chart text", smallest)
    # a mouse over a chart: no mode bar over its title
    chart = charts.first.bounding_box()
    teacher.mouse.move(chart["x"] + chart["width"] / 2, chart["y"] + chart["height"] / 2)
    bar = panel.locator(".modebar-btn")
    assert not [i for i in range(bar.count()) if bar.nth(i).is_visible()], "a mode bar is drawn"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    teacher.screenshot(path=str(ARTIFACTS / "pool_projector_panel.png"))
    for p in (teacher, phone):
        no_exception_box(p)
        p.close()
