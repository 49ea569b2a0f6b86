"""Page: what boostlab is, a picture of every page, and a 45-minute lecture path."""

from pathlib import Path

import streamlit as st

from ui import pages, params, theory_doc
from ui.classroom import page_header, presenting
from ui.widgets import page_link

THUMBS = Path(__file__).resolve().parents[1] / "assets" / "thumbnails"

PAGE = pages.page("home")
#: The suggested lecture: every page's steps (the registry's ``lecture_path``) in time order,
#: as (page, step).
LECTURE = sorted(
    ((p, step) for p in pages.PAGES for step in p.lecture_path), key=lambda ps: ps[1].start
)


def _thumb(url_path: str, title: str) -> None:
    path = THUMBS / f"{url_path}.png"
    if path.exists():
        # a screen reader hears what the picture is (axe: image-alt)
        st.image(str(path), width="stretch", alt=f"Screenshot of the page {title}")


_notice = params.begin(PAGE)
page_header(
    "boostlab: decision trees are boosting algorithms",
    "Top-down decision-tree growth, InfoBoost, branching programs and real AdaBoost are all "
    "**boosting algorithms**: each round, a weak split or hypothesis that is only slightly "
    "better than chance provably drives the training error down. boostlab lets you *step "
    "through the rounds* of these algorithms on 2D data while the decision regions, the "
    "growing structure and the theory's **bound curves** move together.",
    page="home",
    export=False,
)

st.subheader("Pages")
CARDS = [p for p in pages.PAGES if p.blurb]
for row in range(0, len(CARDS), 3):
    cols = st.columns(3, gap="large")
    for col, card in zip(cols, CARDS[row : row + 3]):
        with col:
            _thumb(card.slug, card.title)
            page_link(card.view, card.title, card.slug, icon=card.icon)
            if not presenting():
                st.caption(card.blurb)

st.subheader("A 45-minute lecture path")
st.markdown(
    "Each link opens the page on its preset (add `&present=true` for presenter "
    "mode, or switch it on at the top of the page)."
)
for page, step in LECTURE:
    link = f"[{page.title} →](/{page.slug}?preset={step.preset})" if step.preset else ""
    st.markdown(f"**{step.minutes} min** {link} — {step.text}")

if not presenting():
    st.subheader("Using it in class")
    st.markdown(
        """
1. Pick a **preset** at the top of a page (each has a one-line comment on what to look at),
   or a dataset in the sidebar — generated, uploaded as CSV, or drawn by clicking.
2. Step with **◀ ▶** (or the ← → keys), or press **Play** (Space) and let the rounds run.
3. Point at the three panels: the regions and the split just made (vermillion), the
   structure (the same leaf ids as in the regions), and the curves, where measured values
   are solid and bounds are dashed.
4. **Presenter mode** (top right) hides the sidebar and the explanations and enlarges
   everything for a projector; the stepper stays pinned at the top.
5. **Copy link**: the address holds the whole demo (data, parameters, round, presenter
   mode), so a shared link opens the same picture. **Export**: figures (PNG/SVG from the
   camera icon), structures (DOT/SVG), the run (JSON/CSV) and a Python script.
6. **Challenges** on every page are questions to try alone; each has an answer to load.
"""
    )
    theory_doc.link(PAGE.theory, "The theory notes behind every page (docs/theory.md)")
    st.caption(
        "Sources: Kearns & Mansour (STOC 1996); Mansour & McAllester (NIPS 2000); Hatano "
        "(Theory of Computing Systems, 2004); Takimoto, Koya & Maruoka; Grossmann; Henry, "
        "Nock & Nielsen. See the README for full citations. Colours: Okabe–Ito, readable "
        "with every common colour-vision deficiency; the ⋮ menu → Settings switches between "
        "the light and dark themes."
    )
params.finish(_notice)
