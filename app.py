"""boostlab — router only: page config and navigation over the page registry (``ui/pages``).

The page files live in ``views/``, not ``pages/``: Streamlit treats a ``pages/`` folder next to
the main script as a legacy multipage app until ``st.navigation`` has run once in the server
process, so the first visitor of a shared link such as ``/topdown`` would get that page
without this router (no wide layout, the wrong menu). ``views/`` has no such meaning.
"""

import streamlit as st

from ui import heap, router

#: The tab's icon, a small decision tree drawn inline (the app's primary colour,
#: .streamlit/config.toml). Streamlit turns an SVG string into a ``data:`` URI, so the icon
#: costs no request; a ``:material/…:`` icon would make the browser fetch it from
#: fonts.gstatic.com after every script run, which an offline or filtered class network
#: refuses (issue 25, item 11; tests/browser/test_browser_access.py).
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
    '<path d="M12 7v4M6 15v-2.5h12V15" fill="none" stroke="#C53948" stroke-width="2"/>'
    '<rect x="8" y="2" width="8" height="5" rx="1" fill="#C53948"/>'
    '<rect x="2" y="15" width="8" height="6" rx="1" fill="#C53948"/>'
    '<rect x="14" y="15" width="8" height="6" rx="1" fill="#C53948"/>'
    "</svg>"
)

st.set_page_config(
    page_title="boostlab — information-based boosting",
    page_icon=FAVICON,
    layout="wide",
)

st.navigation(router.pages()).run()
# once per server process, after its first page: the imported libraries out of the garbage
# collector's sight (ui/heap.py; ~10 ms of server CPU per student opening a page)
heap.freeze_once()
