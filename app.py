"""boostlab — router only: page config and navigation over the page registry (``ui/pages``).

The page files live in ``views/``, not ``pages/``: Streamlit treats a ``pages/`` folder next to
the main script as a legacy multipage app until ``st.navigation`` has run once in the server
process, so the first visitor of a shared link such as ``/topdown`` would get that page
without this router (no wide layout, the wrong menu). ``views/`` has no such meaning.
"""

import streamlit as st

from ui.pages import PAGES

st.set_page_config(
    page_title="boostlab — information-based boosting",
    page_icon=":material/account_tree:",
    layout="wide",
)

st.navigation(
    [
        st.Page(p.view, title=p.title, icon=p.icon, url_path=p.slug or None, default=not p.slug)
        for p in PAGES
    ]
).run()
