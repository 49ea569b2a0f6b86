"""Page: the theory notes (docs/theory.md), one section at a time, opened from any page."""

from __future__ import annotations

import streamlit as st

from ui import theory_doc
from ui.classroom import page_header
from ui.text import md_plain

page_header(
    "Theory notes",
    "What every page computes and why: the definitions, theorems and bounds with their "
    "papers and sections, the corrections to printed formulas, and where a paper's argument "
    "fails. The same text as `docs/theory.md` in the repository.",
    page="theory",
    export=False,
)

secs = theory_doc.sections()
labels = {s.number: ("    " if s.level == 3 else "") + s.label for s in secs}
wanted = st.query_params.get("section", "intro")
if wanted not in labels:
    # the value comes from a link: shown as typed, never as markdown
    st.warning(f"There is no section “{md_plain(wanted)}” in the notes; showing the first one.")
    wanted = "intro"
number = st.selectbox(
    "Section",
    list(labels),
    index=list(labels).index(wanted),
    format_func=lambda n: labels[n].strip(),
    help="Every page's 'theory' box links to its section here.",
)
if number != st.query_params.get("section"):
    st.query_params["section"] = number
st.markdown(theory_doc.section(number).text)
