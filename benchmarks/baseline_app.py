"""The smallest Streamlit page with a round slider: the reference step time for
``bench_browser_step.py`` (one widget, one line of text, one rerun per step)."""

import streamlit as st

v = st.slider("Round", 0, 30, 0, key="round")
st.write(f"Round {v}")
