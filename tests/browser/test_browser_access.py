"""Students' own devices (issue 26): every page on a phone and a tablet, by touch, by keyboard
and with a screen reader, in Chromium.

* Every page at 390×844 and 768×1024 (touch): no sideways scroll of the page, the stepper's
  ▶ and Play on screen (at the top and half-way down: it is pinned), no axe-core violation
  (WCAG 2.0–2.2 A and AA) in our own content, tap targets of at least 24 px and 44 px for the
  stepper's buttons and the quiz's answers. The lesson pages as they open, and with every
  mode on at once: presenter mode, Predict and the weak learner (``benchmarks/bench_access.py``'s
  ``audit`` measures; its table is the issue's before/after).
* On a phone a one-finger swipe over a chart scrolls the page and leaves the chart's axes
  alone; the chart's Zoom button hands it the gestures.
* The stepper by tap, the skip link to it by keyboard, the round announced, the views named
  and described at the round, reduced motion's slow Play.
* No request leaves the app on any of these pages, and the app answers none with an error
  (a class network may be offline or filtered; issue 25, item 11).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from ui import pages

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_access import MOUNTS_JS, QUIZ, STUDENT, TAB_START_JS, WEAK, audit, settle  # noqa: E402

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = (390, 844)
TABLET = (768, 1024)
LESSONS = {p.slug for p in pages.with_feature("lecture")}
LOAD_MS = 180_000


#: Schemes that never touch the network (inline images, object URLs, blank frames).
_LOCAL_SCHEMES = {"data", "blob", "about", "javascript"}


def _streamlit_probe(path: str) -> bool:
    """Whether ``path`` is Streamlit's base-path probe on a page's URL path.

    Streamlit's frontend (1.67, ``index.*.js``: the list of possible base URIs) cannot tell a
    multipage URL path from a ``server.baseUrlPath``, so on ``/<slug>`` it first pings
    ``/<slug>/_stcore/health`` and ``/<slug>/_stcore/host-config`` (404: no such route) and
    then ``/_stcore/…``, which answer. Only ``window.__streamlit.BACKEND_BASE_URL``, set in
    the page before Streamlit's bundle runs, would skip that guess, and an app cannot reach
    that: the 404s stay on the app's own server and leave nothing out of the machine.
    """
    slugs = "|".join(re.escape(p.slug) for p in pages.PAGES if p.slug)
    return re.fullmatch(rf"/(?:{slugs})/_stcore/(?:health|host-config)", path) is not None


class Requests:
    """Every request a context makes (issue 25, item 11: a class network may be offline or
    filtered, so every asset must come from the app's own server): those to another host,
    and the app's error answers (≥ 400) but Streamlit's base-path probe."""

    def __init__(self, server: str) -> None:
        self.app = urlsplit(server).netloc
        self.outside: list[str] = []
        self.errors: list[str] = []

    def request(self, request) -> None:
        url = urlsplit(request.url)
        if url.scheme not in _LOCAL_SCHEMES and url.netloc != self.app:
            self.outside.append(request.url)

    def response(self, response) -> None:
        url = urlsplit(response.url)
        if url.netloc == self.app and response.status >= 400 and not _streamlit_probe(url.path):
            self.errors.append(f"{response.status} {response.url}")

    def check(self) -> None:
        assert not self.outside, f"requests left the app: {sorted(set(self.outside))[:5]}"
        assert not self.errors, f"the app answered with an error: {self.errors[:5]}"


def _touch_page(browser, size: tuple[int, int], requests: Requests | None = None, **kw):
    ctx = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=1,
        **kw,
    )
    if requests is not None:
        ctx.on("request", requests.request)
        ctx.on("response", requests.response)
    page = ctx.new_page()
    page.add_init_script(MOUNTS_JS)
    return page


def _open(page, url: str, lesson: bool) -> None:
    page.goto(url, timeout=LOAD_MS)
    if lesson:
        page.wait_for_selector(".st-key-view-curves .bl-view[data-drawn]", timeout=LOAD_MS)
    settle(page, lesson, LOAD_MS)


def _check(page, where: str, lesson: bool, *, axe: bool = False) -> dict:
    """The page measured where it stands (``bench_access.audit``); axe-core in one pass at
    the top when ``axe`` (its colour contrast and target size below the fold are
    tests/ui/test_contrast.py's and ``TAPS_JS``'s: the benchmark scrolls, ~5 s a page)."""
    a = audit(page, lesson=lesson, tabs=False, axe=axe, scroll=False)
    assert a["overflow"]["pagePx"] <= 0, (where, "the page scrolls sideways", a["overflow"])
    if lesson:
        assert a["stepper"] and a["stepper"]["ok"], (where, "▶ or Play off screen", a["stepper"])
    if axe:
        assert not a["axe"]["ours"], (where, "axe violations in our content", a["axe"])
    big = a["taps"]["bigSmallest"]
    if big is not None:
        assert min(big["w"], big["h"]) >= 44 - 0.5, (where, "a stepper/quiz target", big)
    ours_small = [s for s in a["taps"]["smallList"] if " bl-" in s or "bl-" in s.split(" ", 1)[-1]]
    assert not ours_small, (where, "our targets under 24 px", ours_small)
    return a


#: The narrowest info box (a preset's comment) as a share of the main area's width: beside the
#: Challenges button it was a 197-px column of 40 lines on a phone.
_ALERTS_JS = """() => { const main = document.querySelector('[data-testid=stMain]');
  const w = main.getBoundingClientRect().width;
  return [...main.querySelectorAll('[data-testid=stAlert]')].map(
    (a) => a.getBoundingClientRect().width / w); }"""


@pytest.mark.parametrize("slug", [p.slug for p in pages.PAGES], ids=lambda s: s or "home")
@pytest.mark.long
def test_every_page_on_a_phone_and_a_tablet(server, browser, slug) -> None:
    lesson = slug in LESSONS
    requests = Requests(server)
    page = _touch_page(browser, PHONE, requests)
    # the page on its home-page preset: its comment box shows too
    thumb = pages.page(slug).thumbnail
    _open(page, f"{server}/{slug}" + (f"?{thumb}" if thumb else ""), lesson)
    _check(page, f"/{slug} phone", lesson, axe=True)
    narrow = [round(w, 2) for w in page.evaluate(_ALERTS_JS) if w < 0.8]
    assert not narrow, (f"/{slug} phone", "info boxes squeezed into a column", narrow)
    page.set_viewport_size({"width": TABLET[0], "height": TABLET[1]})
    settle(page, lesson)
    _check(page, f"/{slug} tablet", lesson)
    if not lesson:
        requests.check()
        return
    modes = (QUIZ, WEAK) if slug in STUDENT else (QUIZ,)
    # every mode at once (the student's panel at its fullest) and presenter mode, on both
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    _open(page, f"{server}/{slug}?present=true", lesson)
    for label in modes:
        page.get_by_text(label, exact=True).first.click()
        settle(page, lesson)
    _check(page, f"/{slug} phone presenting, {' + '.join(modes)}", lesson, axe=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"access_{slug}_phone_present_all.png"))
    page.set_viewport_size({"width": TABLET[0], "height": TABLET[1]})
    settle(page, lesson)
    _check(page, f"/{slug} tablet presenting, {' + '.join(modes)}", lesson)
    requests.check()


# the drawing shown (a chart keeps drawings of the rounds next to it, hidden: ui/lecture/js)
_CHART = ".st-key-view-regions .js-plotly-plot:not(.bl-slot-off)"
_AXES = """() => { const g = document.querySelector('__CHART__');
  return JSON.stringify([g._fullLayout.xaxis.range, g._fullLayout.yaxis.range]); }""".replace(
    "__CHART__", _CHART
)
_TOP = "() => document.querySelector('[data-testid=stMain]').scrollTop"


def _swipe(page, x: float, y: float, dy: float) -> None:
    """A one-finger swipe upwards by ``dy`` px from (x, y) (Chromium's touch events)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 11):
        point = {"x": x, "y": y - dy * i / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_phone_swipes_taps_and_reads_the_lecture(server, browser) -> None:
    requests = Requests(server)
    page = _touch_page(browser, PHONE, requests, reduced_motion="reduce")
    _open(page, f"{server}/topdown?round=1", True)
    stepper = page.locator(".bl-stepper")
    # reduced motion: Play's default pace is the slow one
    assert page.locator(".bl-stepper .bl-speed").input_value() == "slow"

    # ▶ by tap; the round is announced and the views are named and described at it
    page.locator(".bl-stepper .bl-btn[data-act='next']").tap()
    page.wait_for_function("document.querySelector('.bl-stepper').dataset.round === '2'")
    live = stepper.locator("[aria-live]")
    assert live.inner_text().startswith("Round 2 of "), live.inner_text()
    regions = page.locator(".st-key-view-regions .bl-body")
    assert regions.get_attribute("role") == "figure"
    assert regions.get_attribute("aria-label").endswith(", round 2")
    desc = page.locator("#" + regions.get_attribute("aria-describedby"))
    assert "round 2" in desc.inner_text() and "training error" in desc.inner_text()
    tree = page.locator(".st-key-view-structure .bl-body")
    assert tree.get_attribute("role") == "img" and tree.get_attribute("aria-label")

    # Play by tap, and Pause (after the server has been told the round: its rerun remounts
    # the stepper, which stops a Play started meanwhile — issue 27 removes that rerun)
    settle(page, True)
    play = page.locator(".bl-stepper .bl-play")
    play.tap()
    page.wait_for_function("document.querySelector('.bl-stepper .bl-play').textContent === 'Pause'")
    play.tap()
    page.wait_for_function("document.querySelector('.bl-stepper .bl-play').textContent === 'Play'")

    # a swipe over the regions scrolls the page; the chart's axes stay
    chart = page.locator(_CHART)
    chart.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = chart.bounding_box()
    axes, top = page.evaluate(_AXES), page.evaluate(_TOP)
    _swipe(page, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.7, 200)
    page.wait_for_function(f"({_TOP})() > {top + 100}")
    assert page.evaluate(_AXES) == axes, "the swipe moved the chart"
    assert not chart.locator(".modebar-btn").first.is_visible()

    # Zoom hands the chart the gestures (and its mode bar), and takes them back
    zoom = page.locator(".st-key-view-regions .bl-zoom")
    zoom.tap()
    assert zoom.get_attribute("aria-pressed") == "true"
    page.wait_for_function(f"document.querySelector('{_CHART}')._fullLayout.dragmode === 'zoom'")
    box = chart.bounding_box()
    top = page.evaluate(_TOP)
    _swipe(page, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.4, 120)
    page.wait_for_function(f"({_AXES})() !== {axes!r}")
    zoom.tap()
    assert zoom.get_attribute("aria-pressed") == "false"

    # the keyboard: the first Tab stop is the skip link, Enter lands on the round slider,
    # and the arrow keys step from there
    assert page.evaluate(TAB_START_JS)  # the focus at the top of the document
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "bl-skip"
    assert page.locator("#bl-skip").bounding_box()["y"] >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('bl-range')")
    t = int(stepper.get_attribute("data-round"))
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"document.querySelector('.bl-stepper').dataset.round === '{t + 1}'")
    # a note cut to two lines opens on a tap, closes, and opens again
    note = page.locator(".st-key-view-curves .bl-note")  # the curves' long caption
    page.wait_for_function(
        "document.querySelector('.st-key-view-curves .bl-note').classList.contains('bl-cut')"
    )
    note.scroll_into_view_if_needed()
    for expanded in ("true", "false", "true"):
        note.tap()
        assert note.get_attribute("aria-expanded") == expanded
    page.wait_for_selector(".st-key-view-curves .bl-view[data-drawn]")
    settle(page, True)  # the server is told the round and reruns: its requests count too
    requests.check()
