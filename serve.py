"""The boostlab server: the app's pages (``app.py``) and the class routes
(``ui/classroom/routes.py``: a follower's event stream, the teacher's steps, answers and
splits) in one Streamlit ``st.App`` (an ASGI app on Starlette, served by uvicorn).

Run it as ``streamlit run serve.py`` (``make run`` and ``make serve`` do): ``streamlit run``
finds ``app`` below and serves it with the usual ``--server.*`` options.
"""

import streamlit as st

from ui.classroom.routes import ROUTES

app = st.App("app.py", routes=ROUTES)
