"""Page: what boostlab is, a picture of every page, and a 45-minute lecture path."""

from pathlib import Path

import streamlit as st

from ui import pages, params, theory_doc
from ui.classroom import page_header, presenting
from ui.widgets import page_link

THUMBS = Path(__file__).resolve().parents[1] / "assets" / "thumbnails"

#: The suggested lecture: (minutes, page url path, preset, what to do and say).
LECTURE = [
    (
        "0–5",
        None,
        None,
        "The claim of the hour: growing a decision tree top-down *is* "
        "boosting. Each split is a weak learner with an advantage γ, and the training error "
        "falls like a boosting bound.",
    ),
    (
        "5–11",
        "topdown",
        "multiway",
        "Step through the four stripes: Hatano takes the 4-way "
        "split, Mansour–McAllester may not. Point at I(T) (solid) under the bound curves "
        "(dashed) and at the proof card under them: each link of the chain with this "
        "round's numbers, the loosest one framed.",
    ),
    (
        "11–16",
        "topdown",
        "multiway",
        "Be the weak learner: turn on *You are the weak learner* and let a student choose "
        "the root's split (drag a box on the plot for the thresholds). Compare its score and "
        "advantage with the algorithm's, play a weak one and watch γ̂ drop and the bounds "
        "rise. Then turn on *Predict, then reveal* and take a show of hands before each step.",
    ),
    (
        "16–21",
        "game",
        "worst_case",
        "Why s^−γ? Hatano's Weight Distribution Game. Watch the "
        "equal binary splits reach φ_γ(s) exactly; then let a student play the adversary "
        "(mode *You are the adversary*) and try to beat it.",
    ),
    (
        "21–27",
        "branching",
        "merge_all",
        "InfoBoost as a branching program: divide, then "
        "merge. Compare Π Z_t with Π H(Y|h_t); then the preset *DT.InfoBoost overfits* to see "
        "what merging buys.",
    ),
    (
        "27–33",
        "matryoshka",
        "chain_wins",
        "Probabilistic stumps: the chain meets every weak "
        "classifier, the tree only log₂ T of them. Open the challenge *a tree beats the chain* "
        "(XOR) to show a bound is not a prediction.",
    ),
    (
        "33–40",
        "oblique",
        "diag_xor",
        "One algorithm, G1, gives AdaBoost, the Kearns–Mansour "
        "tree and BoostODT. On the diagonal XOR the oblique nodes win; step through the stumps "
        "inside a node.",
    ),
    (
        "40–45",
        "benchmark",
        "odt_vs_oc1",
        "Does it hold on real data? Read the verdicts: one "
        "rule for every claim (better, worse, mixed or no significant difference), and not "
        "every paper's claim comes out 'better'. End on the Bounds explorer's chain-vs-tree curve "
        "(preset *The chain against the tree*).",
    ),
]


def _thumb(url_path: str) -> None:
    path = THUMBS / f"{url_path}.png"
    if path.exists():
        st.image(str(path), width="stretch")


_notice = params.begin(pages.page("home"))
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
            _thumb(card.slug)
            page_link(card.view, card.title, card.slug, icon=card.icon)
            if not presenting():
                st.caption(card.blurb)

st.subheader("A 45-minute lecture path")
st.markdown(
    "Each link opens the page on its preset (add `&present=true` for presenter "
    "mode, or switch it on at the top of the page)."
)
for minutes, url_path, preset, text in LECTURE:
    title = pages.page(url_path).title if url_path else ""
    link = f"[{title} →](/{url_path}?preset={preset})" if url_path else ""
    st.markdown(f"**{minutes} min** {link} — {text}")

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
    theory_doc.link("intro", "The theory notes behind every page (docs/theory.md)")
    st.caption(
        "Sources: Kearns & Mansour (STOC 1996); Mansour & McAllester (NIPS 2000); Hatano "
        "(Theory of Computing Systems, 2004); Takimoto, Koya & Maruoka; Grossmann; Henry, "
        "Nock & Nielsen. See the README for full citations. Colours: Okabe–Ito, readable "
        "with every common colour-vision deficiency; the ⋮ menu → Settings switches between "
        "the light and dark themes."
    )
params.finish(_notice)
