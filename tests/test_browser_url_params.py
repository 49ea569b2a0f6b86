"""Nasty links in the served app (issue 16): the page shows ONE notice naming each ignored
parameter, no exception box, no traceback, and a markdown image in any parameter a page echoes
— on every page — makes the browser fetch nothing and draws no image or link to its host. The
generated cases run under AppTest (tests/test_url_params.py)."""

from __future__ import annotations

import urllib.parse

import pytest
from test_browser import _settle

pytestmark = pytest.mark.browser

#: A host nobody serves: a request to it would be an image rendered from a link.
SINK = "127.0.0.1:9"
IMAGE = f"![x](http://{SINK}/p.png)"
_Q = urllib.parse.quote(IMAGE)

CASES = [
    ("/topdown?preset=multiway&round=%C2%B2", ["round=²"]),
    (
        "/topdown?s=0&n=100000000&data=nope&k=99&gamma=nan&seed=1e999",
        ["s=0 (must be 2–64)", "n=100000000", "data=nope", "k=99", "gamma=nan", "seed=1e999"],
    ),
    ("/game?s=0&mv=" + urllib.parse.quote(IMAGE), ["mv=![x](http:", "s=0"]),
    ("/oblique?preset=" + urllib.parse.quote(IMAGE) + "&round=" + "9" * 5000, ["preset="]),
    # a markdown image in every parameter a page echoes, on every other page
    (f"/branching?preset={_Q}&round={_Q}&T={_Q}", ["preset=", "round=", "T="]),
    (f"/matryoshka?preset={_Q}&round={_Q}&tau={_Q}", ["preset=", "round=", "tau="]),
    (f"/bounds?preset={_Q}&b_s={_Q}", ["preset=", "b_s="]),
    (f"/benchmark?preset={_Q}", ["preset="]),
    (f"/theory?section={_Q}", ["section="]),
    (f"/topdown?data={_Q}&index={_Q}&k={_Q}", ["data=", "index=", "k="]),
    (f"/game?mode={_Q}&gamma={_Q}", ["mode=", "gamma="]),
    # a parameter no page reads, and a preset's round beyond its run
    (f"/home?foo={_Q}&T2=5", ["foo=", "(not a parameter of this page)", "T2=5"]),
    ("/topdown?preset=multiway&round=999", ["round=999 (this run has rounds 0–7; showing 7)"]),
]


@pytest.mark.parametrize(("path", "named"), CASES)
def test_nasty_link_in_the_browser(browser, server, path: str, named: list[str]) -> None:
    page = browser.new_context().new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if SINK in r.url else None)
    page.goto(server + path)
    notice = page.locator("[data-testid=stAlert]", has_text="Ignored from the link")
    notice.first.wait_for(timeout=60_000)
    _settle(page)  # the rest of the run has arrived: no script run, nothing loading
    assert notice.count() == 1
    text = notice.inner_text()
    for item in named:
        assert item in text, (item, text)
    assert len(text) < 1000  # quotes are cut at 40 characters
    assert page.locator("[data-testid=stException]").count() == 0
    assert "Traceback" not in page.content()
    assert page.locator("img[src*='127.0.0.1:9']").count() == 0
    assert page.locator("a[href*='127.0.0.1:9']").count() == 0
    assert not requests, requests
