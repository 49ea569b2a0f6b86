"""What a class reads, in Chromium (issue 39, items 8 and 9).

* Presenter mode with *Predict, then reveal* on (the quiz beside the views), at 1920×1080,
  at 1280×720 and at 1920×960 (a 1080p projector showing the browser's tabs and toolbar), at
  every round of each lesson page: no chart text (an annotation, an end label, an axis
  title) runs out of its chart or into another one (/topdown's "γ̂ fell to 0.043" sat on
  e_γ̂(|T|)'s label, /branching's y title read "value (log scale"); every line of the proof
  card shows its inequality whole, its values and its slack (/oblique's and /branching's
  names ended in "…", /oblique's "equal up to rounding" pushed the slack out of the card);
  and no title, note, quiz text or proof line shows raw notation ("Π Z_t", "h_11",
  "e^(−yH)"): the notation is set as sub/superscripts.
* On a 390×844 phone (touch) with the quiz on: no chart sub/superscript under 10 px (plotly
  draws them at 70 % of their label: 7.7 px) and no line of the proof card's key or
  citation under 12 px (10 px).
* The stepper's caption speaks to the class: the data's sizes, no "cached", "ready in" or
  "drawn by your browser"; the keys only where there is a keyboard, never on a touch
  screen, and not on a class follower's page (the teacher drives its stepper), laptop or
  phone.

Screenshots go to tests/artifacts/issue39/.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_browser import (
    ARTIFACTS,
    LECTURE,
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

#: The lesson pages (the registry's, with a lecture, a proof card and the quiz).
PAGES = tuple(p.slug for p in pages.with_feature("lecture"))
QUIZ = "Predict, then reveal"
OUT = ARTIFACTS / "issue39"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
FOLLOWING = ".st-key-class-follow [data-following=true]"

#: At the round shown: chart texts outside their chart or on top of one another, proof lines
#: cut, and texts with raw notation (an "_" or "^" between a letter and its index).
_ROUND_JS = r"""() => {
  const out = {outside: [], overlaps: [], cut: [], raw: []};
  const R = e => e.getBoundingClientRect();
  // two texts overlap where their glyphs could: a text's box holds its line's leading too,
  // an eighth of its height above and below (two labels whose boxes touch do not collide)
  const ink = r => ({left: r.left, right: r.right, top: r.top + r.height / 8,
                     bottom: r.bottom - r.height / 8});
  const area = (p, q) => { const a = ink(p), b = ink(q);
    return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
           Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)); };
  const RAW = /[\p{L}\p{N})|\]\u0302]_[\p{L}\p{N}{(]|[\p{L}\p{N})|\]]\^[\p{L}\p{N}(−{-]/u;
  const raw = (where, text) => { if (RAW.test(text)) out.raw.push([where, text.slice(0, 90)]); };
  for (const key of ['regions', 'curves']) {
    const view = document.querySelector(`.st-key-view-${key} .bl-view`);
    const slot = view && [...view.querySelectorAll('.bl-slot')]
      .find(s => !s.classList.contains('bl-slot-off'));
    const svg = slot && slot.querySelector('svg.main-svg');
    if (!svg) { out.outside.push([key, 'no chart']); continue; }
    const box = R(svg);
    const texts = [];
    for (const t of slot.querySelectorAll(
        '.infolayer .annotation-text-g text, .infolayer [class*="title"] text')) {
      const r = R(t), s = t.textContent.trim();
      if (!r.width || !s) continue;
      raw(key + ' chart', s);
      texts.push([s, r]);
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 ||
          r.bottom > box.bottom + 0.5) out.outside.push([key, s]);
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++)
      if (area(texts[i][1], texts[j][1]) > 4) out.overlaps.push([key, texts[i][0], texts[j][0]]);
  }
  for (const e of document.querySelectorAll('.bl-view .bl-title, .bl-view .bl-note, ' +
      '.bl-quiz-q, .bl-quiz-a, .bl-quiz-why, .bl-quiz-last, .bl-proof-c, .bl-caption'))
    raw(e.className, e.textContent);
  const card = document.querySelector('.st-key-view-proof .bl-proof-c');
  if (!card) out.cut.push('no proof card');
  else {
    const edge = R(card).right;
    for (const row of card.querySelectorAll('.bl-proof-link')) {
      const cells = [...row.children].slice(0, 4);
      for (const c of cells)
        if (c.scrollWidth > c.clientWidth + 1 || R(c).right > edge + 0.5)
          out.cut.push(c.textContent);
      if (!cells[3].querySelector('b') || !R(cells[3].querySelector('b')).width)
        out.cut.push('no slack: ' + row.textContent);
    }
  }
  return out;
}"""


def _open_presenting(browser, server: str, name: str, size: tuple[int, int]):
    width, height = size
    page = new_page(browser, viewport={"width": width, "height": height})
    page.goto(f"{server}/{name}?present=true")
    page.wait_for_selector(LECTURE, timeout=60_000)
    settle(page)
    page.get_by_text(QUIZ, exact=True).first.click()
    settle(page)
    page.locator(".bl-quiz").first.wait_for(timeout=20_000)
    wait_for(lambda: views_drawn(page), 20, f"/{name}: the views did not draw")
    views_fitted(page)
    return page


@pytest.mark.parametrize(
    "name, size",
    [(name, size) for name in PAGES for size in ((1920, 1080), (1280, 720))]
    + [("topdown", (1920, 960)), ("branching", (1920, 960))],
    ids=lambda v: v if isinstance(v, str) else f"{v[0]}x{v[1]}",
)
@pytest.mark.long
def test_presenter_texts_with_predict_are_whole_at_every_round(server, browser, name, size):
    OUT.mkdir(parents=True, exist_ok=True)
    page = _open_presenting(browser, server, name, size)
    page.locator(".bl-stepper .bl-btn[data-act='first']").click()
    hi = int(page.locator(".bl-stepper .bl-range").get_attribute("max"))
    bad: dict[str, list] = {"outside": [], "overlaps": [], "cut": [], "raw": []}
    for t in range(hi + 1):
        wait_for(
            lambda t=t: lecture_round(page) == t and views_drawn(page),
            20,
            f"/{name}: round {t} was not drawn",
        )
        # the quiz's why is a text the class reads too: reveal it (the teacher does)
        page.evaluate(
            "() => { const b = document.querySelector('.bl-quiz-reveal');"
            " if (b && !b.hidden) b.click(); }"
        )
        found = page.evaluate(_ROUND_JS)
        for kind, items in found.items():
            bad[kind] += [(t, item) for item in items]
        if t == min(6, hi):
            page.screenshot(path=str(OUT / f"texts_after_{name}_{size[0]}x{size[1]}_round{t}.png"))
        if t < hi:
            page.locator(".bl-stepper .bl-btn[data-act='next']").click()
    where = f"/{name} {size[0]}×{size[1]} presenting with the quiz"
    assert not bad["outside"], (where, "chart text outside its chart", bad["outside"][:5])
    assert not bad["overlaps"], (where, "chart texts on one another", bad["overlaps"][:5])
    assert not bad["cut"], (where, "proof lines cut", bad["cut"][:5])
    assert not bad["raw"], (where, "raw notation", bad["raw"][:5])
    no_exception_box(page)
    page.close()


#: The smallest chart sub/superscript (SVG text smaller than the text it sits in) and the
#: smallest text of the proof card's key and citation, and of its sub/superscripts.
_PHONE_JS = r"""() => {
  const px = e => parseFloat(getComputedStyle(e).fontSize);
  const seen = e => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({visibilityProperty: true}); };
  const out = {chart: [1e9, ''], key: [1e9, ''], index: [1e9, ''], charts: 0};
  const keep = (k, v, e) => { if (v < out[k][0]) out[k] = [Math.round(v * 10) / 10,
                                                          e.textContent.slice(0, 40)]; };
  for (const e of document.querySelectorAll('.bl-view .bl-slot:not(.bl-slot-off) tspan')) {
    const p = e.parentElement;
    if (!e.textContent.trim() || !seen(e) || e.closest('.modebar-container')) continue;
    if (p && (p.tagName === 'text' || p.tagName === 'tspan') && px(e) < px(p) - 0.01) {
      out.charts += 1;
      const m = e.getScreenCTM();
      keep('chart', (m ? Math.hypot(m.a, m.b) : 1) * px(e), e);
    }
  }
  for (const e of document.querySelectorAll('.bl-proof-key, .bl-proof-cite'))
    if (seen(e)) keep('key', px(e), e);
  for (const e of document.querySelectorAll('.bl-proof-c :is(sub, sup)'))
    if (seen(e)) keep('index', px(e), e);
  return out;
}"""


@pytest.mark.parametrize("name", PAGES)
def test_phone_sub_superscripts_and_proof_key_are_readable(server, browser, name) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, **PHONE)
    page.goto(f"{server}/{name}?round=3")
    page.wait_for_selector(LECTURE, timeout=60_000)
    settle(page)
    page.get_by_text(QUIZ, exact=True).first.tap()
    settle(page)
    page.locator(".bl-quiz").first.wait_for(timeout=20_000)
    wait_for(lambda: views_drawn(page), 20, f"/{name}: the views did not draw")
    seen: dict[str, list] = {"chart": [1e9, ""], "key": [1e9, ""], "index": [1e9, ""]}
    charts = 0
    for key in ("regions", "curves", "proof"):  # each view in sight (views far off wait)
        page.locator(f".st-key-view-{key}").first.scroll_into_view_if_needed()
        wait_for(lambda: views_drawn(page), 20, f"/{name}: {key} did not draw")
        m = page.evaluate(_PHONE_JS)
        charts += m.pop("charts")
        for k, v in m.items():
            seen[k] = min(seen[k], v)
    page.locator(".st-key-view-curves").first.screenshot(
        path=str(OUT / f"texts_after_phone_{name}_curves.png")
    )
    page.locator(".st-key-view-proof").first.screenshot(
        path=str(OUT / f"texts_after_phone_{name}_proof.png")
    )
    assert charts, f"/{name}: no chart sub/superscript seen (the check would be empty)"
    assert seen["chart"][0] >= 10 - 0.05, (name, "chart sub/superscript", seen["chart"])
    assert seen["key"][0] >= 12 - 0.05, (name, "proof card's key or citation", seen["key"])
    assert seen["index"][0] >= 10 - 0.05, (name, "proof card's sub/superscript", seen["index"])
    no_exception_box(page)
    page.close()


def _caption(page) -> str:
    """The stepper's caption as drawn (what is hidden is left out)."""
    return page.locator(".bl-stepper .bl-caption").first.inner_text()


def _no_developer_talk(caption: str) -> None:
    assert re.search(r"\d+ training and \d+ test points", caption), caption
    for words in ("cached", "ready in", "drawn by your browser", "browser"):
        assert words not in caption, caption


def test_stepper_caption_speaks_to_the_class(server, browser) -> None:
    # a laptop: the data's sizes and, for its keyboard, the keys
    laptop = new_page(browser, viewport={"width": 1440, "height": 900})
    laptop.goto(f"{server}/topdown")
    laptop.wait_for_selector(LECTURE, timeout=60_000)
    settle(laptop)
    caption = _caption(laptop)
    _no_developer_talk(caption)
    assert "← →" in caption and "Space" in caption, caption
    # a phone: no keyboard, no keys
    phone = new_page(browser, **PHONE)
    phone.goto(f"{server}/branching")
    phone.wait_for_selector(LECTURE, timeout=60_000)
    settle(phone)
    caption = _caption(phone)
    _no_developer_talk(caption)
    assert "←" not in caption and "Keyboard" not in caption and "Space" not in caption, caption
    for p in (laptop, phone):
        no_exception_box(p)
        p.close()


@pytest.mark.long
def test_a_class_followers_caption_names_no_keys(server, browser) -> None:
    """A follower's stepper is the teacher's: on a laptop (which has a keyboard) and on a
    phone, its caption does not tell the student to use keys."""
    teacher = new_page(browser, viewport={"width": 1600, "height": 1000})
    teacher.goto(f"{server}/topdown")
    teacher.wait_for_selector(LECTURE, timeout=60_000)
    settle(teacher)
    teacher.get_by_role("button", name="Teach a class").click()
    teacher.wait_for_selector(".st-key-class-code", timeout=60_000)
    code = re.search(r"Class\s+([A-Z0-9]{6})", teacher.locator(".st-key-class-code").inner_text())
    assert code, teacher.locator(".st-key-class-code").inner_text()
    teacher.keyboard.press("Escape")  # the join dialog
    students = []
    for kwargs in ({"viewport": {"width": 1440, "height": 900}}, PHONE):
        student = new_page(browser, **kwargs)
        student.goto(f"{server}/topdown?class={code.group(1)}")
        student.wait_for_selector(LECTURE, timeout=60_000)
        student.wait_for_selector(FOLLOWING, timeout=60_000)
        settle(student)
        student.wait_for_selector("body.bl-following", state="attached", timeout=20_000)
        caption = _caption(student)
        _no_developer_talk(caption)
        assert "←" not in caption and "Keyboard" not in caption, (kwargs, caption)
        students.append(student)
    students[1].screenshot(path=str(OUT / "texts_after_follower_phone.png"))
    for p in (teacher, *students):
        no_exception_box(p)
        p.close()


#: Texts of the page under a drawn table toolbar (search, download, full screen), which a
#: touch screen never hides: what they cover.
_UNDER_TOOLBAR_JS = r"""() => {
  const hit = [];
  const texts = [...document.querySelectorAll('[data-testid=stMarkdownContainer] p')];
  for (const bar of document.querySelectorAll('[data-testid=stElementToolbar]')) {
    const b = bar.getBoundingClientRect();
    if (!b.width || !b.height || getComputedStyle(bar).display === 'none') continue;
    for (const t of texts) {
      const r = t.getBoundingClientRect();
      if (Math.min(r.right, b.right) - Math.max(r.left, b.left) > 2 &&
          Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) > 2)
        hit.push(t.textContent.slice(0, 80));
    }
  }
  return hit;
}"""


def test_a_phones_tables_leave_the_sentence_above_them_readable(server, browser) -> None:
    """On a phone the weak learner's tables on /branching came with their toolbar drawn for
    good (no hover on a touch screen), 44 px over the end of the merge's sentence above
    ("Theorem 3: H(Y|ℓₜ) = 0.9494 ≤ 1 − c…")."""
    page = new_page(browser, **PHONE)
    page.goto(f"{server}/branching")
    page.wait_for_selector(LECTURE, timeout=60_000)
    settle(page)
    page.get_by_text("You are the weak learner", exact=True).first.tap()
    settle(page)
    tables = page.locator(".st-key-weak_branching_box [data-testid=stDataFrame]")
    wait_for(lambda: tables.count() >= 3, 30, lambda: f"{tables.count()} tables")
    for i in range(tables.count()):
        tables.nth(i).scroll_into_view_if_needed()
        covered = page.evaluate(_UNDER_TOOLBAR_JS)
        assert not covered, covered
    no_exception_box(page)
    page.close()
