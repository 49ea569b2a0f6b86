"""boostlab — router only: page config and navigation over ``pages/``."""

import streamlit as st

st.set_page_config(
    page_title="boostlab — information-based boosting", page_icon=":material/account_tree:",
    layout="wide",
)

pages = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/topdown.py", title="Top-down growth", icon=":material/account_tree:",
            url_path="topdown"),
]
st.navigation(pages).run()
