"""The boostlab server: the app's pages (``app.py``) and the class routes
(``server/routes.py``: a follower's event stream, the teacher's steps, answers and
splits) in one Streamlit ``st.App`` (an ASGI app on Starlette, served by uvicorn).

Run it as ``streamlit run serve.py`` (``make run`` and ``make serve`` do): ``streamlit run``
finds ``app`` below and serves it with the usual ``--server.*`` options.
"""

import streamlit as st
from starlette.middleware import Middleware

from server.routes import ROUTES, SecurityHeaders, lifespan

# the lifespan puts the class store on Redis when BOOSTLAB_REDIS_URL is set (a lecture hall of
# several processes, scripts/hall.py), in this process otherwise
# every response gets the security headers (routes.SECURITY_HEADERS), the pages' too
app = st.App("app.py", routes=ROUTES, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])
