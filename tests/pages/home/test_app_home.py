"""AppTest: the home page's way into class mode (issue 39, item 10).

* "Using it in class" names *Teach a class* and says what it does, in a teacher's words.
* No two steps of the 45-minute lecture path open the same preset.
* Each step's way onward is a button that opens its page in this tab and session (not a
  link: a link opens a new tab, and the class a tab teaches would stay behind), on its
  preset and in presenter mode (``present=true`` in the page's address).
"""

from __future__ import annotations

import html
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests import apptest_helpers as ah
from ui import pages
from ui.charts import PRESENT

#: Every step of the lecture path in time order, as (page, step) (the home page's order).
STEPS = sorted(((p, s) for p in pages.PAGES for s in p.lecture_path), key=lambda ps: ps[1].start)
LINKED = [(p, s) for p, s in STEPS if s.preset]


def _home_through_the_router() -> AppTest:
    """The home page as the app runs it (``app.py``: with ``st.navigation``)."""
    at = AppTest.from_file(str(ah.ROOT / "app.py"), default_timeout=ah.TIMEOUT).run()
    ah.ok(at)
    return at


def test_using_it_in_class_names_teach_a_class() -> None:
    at = ah.page("home")
    ah.ok(at)
    text = next((m.value for m in at.markdown if "**Presenter mode**" in m.value), "")
    assert "**Teach a class**" in text, text
    item = text[text.index("**Teach a class**") : text.index("**Copy link**")]
    for words in (
        "code",
        "QR code",
        "phones",
        "**Predict, then reveal**",
        "**You are the weak learner**",
        "**Class splits**",
        "**End class**",
        "`docs/classroom-server.md`",
        "`localhost`",
    ):
        assert words in item, (words, item)


def test_no_two_lecture_steps_open_the_same_preset() -> None:
    opened = [(p.slug, s.preset) for p, s in LINKED]
    twice = sorted({o for o in opened if opened.count(o) > 1})
    assert not twice, f"lecture-path steps open the same preset twice: {twice}"


def test_the_lecture_path_has_no_link_that_opens_a_new_tab() -> None:
    """The steps are shown in order and their text holds no markdown link (Streamlit opens a
    markdown link in a new tab); each step with a preset has its button, in order."""
    at = _home_through_the_router()
    shown = [m.value for m in at.markdown if re.match(r"\*\*\d+–\d+ min\*\*", m.value)]
    assert len(shown) == len(STEPS)
    for text, (_, step) in zip(shown, STEPS, strict=True):
        assert text.startswith(f"**{step.minutes} min**") and text.endswith(step.text)
        assert "](" not in text, text
    keys = [b.key for b in at.button if b.key and b.key.startswith("lecture_")]
    assert keys == [f"lecture_{p.slug}_{s.preset}" for p, s in LINKED]
    for page, step in LINKED:
        label = at.button(key=f"lecture_{page.slug}_{step.preset}").label
        assert page.title in label.replace("\\", ""), label


@pytest.mark.parametrize(
    ("page", "step"), [pytest.param(p, s, id=f"{p.slug}-{s.preset}") for p, s in LINKED]
)
def test_a_lecture_step_opens_its_preset_in_presenter_mode(page, step) -> None:
    at = _home_through_the_router()
    at.button(key=f"lecture_{page.slug}_{step.preset}").click().run()
    ah.ok(at)
    assert at.session_state[PRESENT] is True
    assert at.query_params.get(PRESENT) == "true", dict(at.query_params)
    assert at.session_state[page.preset_key] == step.preset  # the page's preset box
    assert "preset" not in at.query_params  # loaded: its parameters are the address now
    # the preset's comment: one line on the projector (escaped HTML), a box otherwise
    start = page.presets[step.preset].comment[:40]
    shown = [e.value for e in at.info] + [h.proto.body for h in at.get("html")]
    assert any(start in t or html.escape(start) in t for t in shown), start
