"""No request leaves the machine (issue 25, item 11): a class network may be offline or
filtered, so every asset must come from the app's own server.

Opens every page of the registry (``ui.pages.PAGES``) in one headless Chromium context and
steps a lesson page with the → key and the stepper's Next button, recording every request
the pages make. The test fails on any request to a host other than the app's, and on any
error response (≥ 400) from the app, except Streamlit's own base-path probe (see
``_streamlit_probe``).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from test_browser import LECTURE, _lecture_round, _settle, _views_drawn, _wait_for

from ui import pages

pytestmark = pytest.mark.browser

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


def _step(page) -> None:
    """Step the lesson page three rounds: the → key twice and the stepper's Next button."""
    start = _lecture_round(page)
    page.locator("h1").first.click()  # focus the page, not a widget
    for step in (1, 2, 3):
        if step < 3:
            page.keyboard.press("ArrowRight")
        else:
            page.locator(".bl-btn[data-act='next']").first.click()
        _wait_for(
            lambda s=step: _lecture_round(page) == start + s and _views_drawn(page),
            10,
            f"the stepper did not draw round {start + step}",
        )
    _settle(page)  # the server is told the round and reruns


def test_no_request_leaves_the_app(server, browser) -> None:
    app = urlsplit(server).netloc
    outside: list[str] = []
    errors: list[str] = []

    def on_request(request) -> None:
        url = urlsplit(request.url)
        if url.scheme not in _LOCAL_SCHEMES and url.netloc != app:
            outside.append(request.url)

    def on_response(response) -> None:
        url = urlsplit(response.url)
        if url.netloc == app and response.status >= 400 and not _streamlit_probe(url.path):
            errors.append(f"{response.status} {response.url}")

    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    context.on("request", on_request)
    context.on("response", on_response)
    page = context.new_page()
    stepped = pages.with_feature("lecture")[0].slug  # the first page with the stepper
    for spec in pages.PAGES:
        page.goto(f"{server}/{spec.slug}")
        page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
        if spec.slug == stepped:
            page.wait_for_selector(LECTURE, timeout=60_000)
        _settle(page)  # the script run has ended: page config (the favicon) is applied
        if spec.slug == stepped:
            _step(page)
    context.close()
    assert not outside, f"{len(outside)} request(s) left the app, e.g. {sorted(set(outside))[:5]}"
    assert not errors, f"the app answered {len(errors)} request(s) with an error: {errors[:5]}"
