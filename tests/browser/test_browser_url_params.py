"""Nasty links in the served app (issue 16): the page shows ONE notice naming each ignored
parameter, no exception box, no traceback, and a markdown image in any parameter a page echoes
— on every page — makes the browser fetch nothing and draws no image or link to its host. The
generated cases run under AppTest (tests/ui/test_url_params.py). The pages and their parameters
are the page registry's (``ui/pages``)."""

from __future__ import annotations

import urllib.parse

import pytest

from tests.browser.test_browser import settle
from ui import pages

pytestmark = pytest.mark.browser

#: A host nobody serves: a request to it would be an image rendered from a link.
SINK = "127.0.0.1:9"
IMAGE = f"![x](http://{SINK}/p.png)"
_Q = urllib.parse.quote(IMAGE)

#: Parameters a plain open does not read (drawn only after the data source or the game's
#: mode is switched).
DRAWN_LATER = {"ptest", "watch_adv", "watch_seed"}
#: The most parameters one link carries: every page's echoed parameters fit in one link (a
#: browser test costs ~4 s a link, and `make test` stays under 10 minutes); the notice then
#: quotes each at most 40 characters, about 1.5 KB of text.
PER_LINK = 24


def _echoed(page: pages.PageSpec) -> list[str]:
    """Every URL parameter the page reads on a plain open: all its registry row declares but
    the widgets drawn later and, without the lecture view, the round (read only with a
    preset, or in the game's watch mode)."""
    return [
        p.name
        for p in page.params
        if p.name not in DRAWN_LATER and (p.name != "round" or page.has("lecture"))
    ]


def _images_in_every_parameter() -> list[tuple[str, list[str]]]:
    """A markdown image in every parameter a page echoes, on every page: a page's
    parameters in links of at most :data:`PER_LINK` each."""
    out = []
    for page in pages.PAGES:
        names = _echoed(page)
        for i in range(0, len(names), PER_LINK):
            chunk = names[i : i + PER_LINK]
            query = "&".join(f"{name}={_Q}" for name in chunk)
            out.append((f"/{page.slug or 'home'}?{query}", [f"{name}=" for name in chunk]))
    return out


CASES = [
    ("/topdown?preset=multiway&round=%C2%B2", ["round=²"]),
    (
        "/topdown?s=0&n=100000000&data=nope&k=99&gamma=nan&seed=1e999",
        ["s=0 (must be 2–64)", "n=100000000", "data=nope", "k=99", "gamma=nan", "seed=1e999"],
    ),
    ("/game?s=0&mv=" + urllib.parse.quote(IMAGE), ["mv=![x](http:", "s=0"]),
    ("/oblique?preset=" + urllib.parse.quote(IMAGE) + "&round=" + "9" * 5000, ["preset="]),
    *_images_in_every_parameter(),
    # a parameter no page reads, and a preset's round beyond its run
    (f"/home?foo={_Q}&T2=5", ["foo=", "(not a parameter of this page)", "T2=5"]),
    ("/topdown?preset=multiway&round=999", ["round=999 (this run has rounds 0–7; showing 7)"]),
]


def _case_id(case: tuple[str, list[str]]) -> str:
    path, named = case
    return path.split("?")[0] + ":" + ",".join(n.split("=")[0] for n in named)[:60]


def test_every_page_gets_an_image_in_every_parameter_it_echoes() -> None:
    covered = {(path.split("?")[0], n) for path, named in CASES for n in named}
    for page in pages.PAGES:
        for name in _echoed(page):
            assert (f"/{page.slug or 'home'}", f"{name}=") in covered, (page.slug, name)


@pytest.mark.parametrize(("path", "named"), CASES, ids=[_case_id(c) for c in CASES])
def test_nasty_link_in_the_browser(browser, server, path: str, named: list[str]) -> None:
    page = browser.new_context().new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if SINK in r.url else None)
    page.goto(server + path)
    notice = page.locator("[data-testid=stAlert]", has_text="Ignored from the link")
    notice.first.wait_for(timeout=60_000)
    settle(page)  # the rest of the run has arrived: no script run, nothing loading
    assert notice.count() == 1
    text = notice.inner_text()
    for item in named:
        assert item in text, (item, text)
    # quotes are cut at 40 characters: every entry is short, whatever the link carried
    entries = text.split("Ignored from the link: ", 1)[1].split("; ")
    assert max(len(e) for e in entries) < 120, max(entries, key=len)
    assert page.locator("[data-testid=stException]").count() == 0
    assert "Traceback" not in page.content()
    assert page.locator("img[src*='127.0.0.1:9']").count() == 0
    assert page.locator("a[href*='127.0.0.1:9']").count() == 0
    assert not requests, requests
