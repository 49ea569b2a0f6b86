"""boostlab — router only: page config and navigation over the page files in ``views/``.

The page files live in ``views/``, not ``pages/``: Streamlit treats a ``pages/`` folder next to
the main script as a legacy multipage app until ``st.navigation`` has run once in the server
process, so the first visitor of a shared link such as ``/topdown`` would get that page
without this router (no wide layout, the wrong menu). ``views/`` has no such meaning.
"""

import streamlit as st

st.set_page_config(
    page_title="boostlab — information-based boosting",
    page_icon=":material/account_tree:",
    layout="wide",
)

pages = [
    st.Page("views/home.py", title="Home", icon=":material/home:", default=True),
    st.Page(
        "views/topdown.py",
        title="Top-down growth",
        icon=":material/account_tree:",
        url_path="topdown",
    ),
    st.Page(
        "views/game.py", title="Weight Distribution Game", icon=":material/casino:", url_path="game"
    ),
    st.Page(
        "views/branching.py",
        title="Divide and merge (InfoBoost)",
        icon=":material/hub:",
        url_path="branching",
    ),
    st.Page(
        "views/matryoshka.py",
        title="Probabilistic trees & matryoshka",
        icon=":material/deployed_code:",
        url_path="matryoshka",
    ),
    st.Page(
        "views/oblique.py",
        title="Boosted oblique trees (G1)",
        icon=":material/call_split:",
        url_path="oblique",
    ),
    st.Page(
        "views/benchmark.py",
        title="Benchmark on real data",
        icon=":material/leaderboard:",
        url_path="benchmark",
    ),
    st.Page(
        "views/bounds.py", title="Bounds explorer", icon=":material/functions:", url_path="bounds"
    ),
    st.Page(
        "views/theory.py", title="Theory notes", icon=":material/menu_book:", url_path="theory"
    ),
]
st.navigation(pages).run()
