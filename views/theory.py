"""Page: the theory notes (docs/theory.md), one section at a time, opened from any page."""

from __future__ import annotations

import streamlit as st

from ui import pages, params, theory_doc
from ui.header import page_header

_notice = params.begin(pages.page("theory"))
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
# the value comes from a link: an unknown one is named on the page's notice, quoted, escaped
wanted, bad = params.parse_choice("section", st.query_params.get("section"), list(labels), "intro")
params.note(
    bad and params.Ignored("section", "there is no section of that number", bad.value),
    handled="section",
)
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
params.finish(_notice)
