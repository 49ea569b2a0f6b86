"""The server's responses protect a class from other sites (issue 40, item 10), in Chromium.

* Every response — the app's pages, Streamlit's own files, the class routes — says
  ``Referrer-Policy: no-referrer`` (a teacher's link holds the class's key, and it travelled
  in the Referer of 66 requests of the page), ``frame-ancestors 'self'`` and
  ``X-Frame-Options`` (no other site frames the app), ``nosniff``.
* The pages still work with them: a lesson page opened with a query like a teacher's link
  draws its views, and none of the requests it makes carries a Referer.
"""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from server.routes import SECURITY_HEADERS
from tests.browser.test_browser import LECTURE, new_page, no_exception_box, settle

pytestmark = pytest.mark.browser


def _headers(url: str) -> dict[str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return {k.lower(): v for k, v in r.headers.items()}
    except urllib.error.HTTPError as e:  # a refusal is a response too
        return {k.lower(): v for k, v in e.headers.items()}


def test_every_response_carries_the_security_headers(server) -> None:
    for path in ("/", "/topdown", "/_stcore/health", "/api/class/ABCDEF/events"):
        got = _headers(server + path)
        for name, value in SECURITY_HEADERS:
            assert got.get(name.decode()) == value.decode(), (path, name, got)


def test_a_page_with_a_secret_in_its_address_sends_no_referer(server, browser) -> None:
    page = new_page(browser)
    referers = []
    page.on("request", lambda r: referers.append((r.url, r.headers.get("referer"))))
    csp = []
    page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else 0)
    page.goto(f"{server}/topdown?secret=do-not-send-me")
    page.wait_for_selector(LECTURE, timeout=60_000)
    settle(page)
    assert len(referers) > 10, referers  # the page's scripts, styles and data
    sent = [(u, r) for u, r in referers if r]
    assert not sent, sent[:5]
    assert not csp, csp
    no_exception_box(page)
    page.close()


@pytest.mark.parametrize("slug", ["", "game", "branching", "benchmark", "bounds", "theory"])
def test_no_page_breaks_the_content_security_policy(server, browser, slug: str) -> None:
    """The policy (``object-src``, ``base-uri``, ``form-action``, ``frame-ancestors``) blocks
    nothing a page of the app does: no violation is reported while it loads."""
    page = new_page(browser)
    seen = []
    page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text else 0)
    page.goto(f"{server}/{slug}")
    page.wait_for_selector("h1", timeout=60_000)
    settle(page)
    assert not seen, seen
    no_exception_box(page)
    page.close()
