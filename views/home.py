"""Page: what boostlab is, a picture of every page, and a 45-minute lecture path."""

from pathlib import Path

import streamlit as st

from ui import pages, params, theory_doc
from ui.charts import PRESENT, presenting
from ui.header import page_header
from ui.text import md_plain
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


def _open_step(page: pages.PageSpec, preset: str) -> None:
    """A lecture-path button: its page opens on the next run, on ``preset``, in presenter
    mode, in this tab.

    Not a link: a link opens a new tab (a class taught from this tab would stay behind), and
    even ``st.page_link`` in the same tab keeps the session's presenter mode (a toggle bound
    to the URL takes the session's value over the link's ``present=true``). Set here, before
    any widget is drawn, presenter mode goes with the class to the next page; and the page
    loads its preset again if this session opened it from a link before.
    """
    st.session_state[PRESENT] = True  # the toggle writes ``present=true`` into the address
    st.session_state.pop(f"{page.preset_key}_url_done", None)  # ui.header.preset_from_url
    st.session_state[_GO] = (page.view, {"preset": preset})


#: Session key: the page (view, query) a lecture-path button asked for.
_GO = "_home_lecture_go"
if go := st.session_state.pop(_GO, None):
    st.switch_page(go[0], query_params=go[1])  # the same tab and session: the class goes along

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
    "Each button opens its page on a preset, in presenter mode and in this tab: a class you "
    "teach from this tab (*Teach a class*, top right) comes along, and the students' phones "
    "follow you from page to page."
)
for page, step in LECTURE:
    with st.container(gap="xxsmall"):
        st.markdown(f"**{step.minutes} min** — {step.text}")
        if step.preset:
            st.button(
                md_plain(f"{page.title}: {page.presets[step.preset].title} →", limit=200),
                key=f"lecture_{page.slug}_{step.preset}",
                icon=page.icon,
                on_click=_open_step,
                args=(page, step.preset),
                help="Opens the page in this tab, on this preset and in presenter mode; a "
                "class you teach from this tab follows.",
            )

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
5. **Teach a class** (top right): your students follow this screen on their phones.
   - It shows a short class **code** and a **QR code**, large enough to scan from the back of
     the room. Students scan it or type the link, and their phones show your page, data and
     round as you step (nothing to install, no names asked). Open the app at its network
     address (the *Network URL* that `make serve` prints): phones cannot reach `localhost`.
   - Teach from this one tab: the lecture path's buttons above open their pages in it, and
     the class comes along.
   - **Predict, then reveal**: everyone answers each question on their phone; your screen
     counts the answers, and **Reveal** shows how the class voted.
   - **You are the weak learner** with **Class splits**: each student sends their own split;
     your screen scores them all and can go on from the class's best.
   - **End class** (on the class card) tells the students the class is over; their pages
     are then theirs to explore.
   - Step by step, and how to serve the app to a room of phones: `docs/classroom-server.md`,
     section *Teach a class*.
6. **Copy link**: the address holds the whole demo (data, parameters, round, presenter
   mode), so a shared link opens the same picture. **Export**: figures (PNG/SVG from the
   camera icon), structures (DOT/SVG), the run (JSON/CSV) and a Python script.
7. **Challenges** on every page are questions to try alone; each has an answer to load.
"""
    )
    theory_doc.link(PAGE.theory, "The theory notes behind every page (docs/theory.md)")
    st.caption(
        "Sources: Kearns & Mansour (STOC 1996); Mansour & McAllester (NIPS 2000); Hatano "
        "(Theory of Computing Systems, 2004); Takimoto, Koya & Maruoka; Grossmann; Henry, "
        "Nock & Nielsen; full citations in the References of docs/theory.md. Colours: "
        "Okabe–Ito, readable with every common colour-vision deficiency; the ⋮ menu → "
        "Settings switches between the light and dark themes."
    )
params.finish(_notice)
