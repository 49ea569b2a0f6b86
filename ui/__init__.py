"""Streamlit-facing helpers shared by the pages: widgets, cached runs, figures, diagrams."""
