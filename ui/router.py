"""The router's ``st.Page`` objects, built once per server process from the page registry.

Why (issue 27, item 1): ``st.Page(path)`` resolves the page file's path and checks that it
exists (``Path.resolve``, ``is_file``) every time it is built, and ``app.py`` builds one per
page of the registry on every script run of every session: 3 % of the server's CPU for a
warm page open of /oblique (py-spy, 30 students). The page list never changes while the
process runs, so the objects are built once and each run gets shallow copies:
``st.navigation`` marks the page it runs on its own objects (``_can_be_called``,
``_default``), and two sessions sharing one object could refuse each other's page.
"""

from __future__ import annotations

import copy
import threading
from pathlib import Path

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from .pages import PAGES

#: The repository's root: the registry's view files are named relative to it.
ROOT = Path(__file__).resolve().parent.parent
_lock = threading.Lock()
_pages: tuple[StreamlitPage, ...] = ()


def pages() -> list[StreamlitPage]:
    """One ``st.Page`` per row of the registry (``ui.pages.PAGES``), the home page default.

    Call it inside a script run (``st.Page`` needs one).
    """
    global _pages
    with _lock:
        if not _pages:
            _pages = tuple(
                st.Page(
                    ROOT / p.view,
                    title=p.title,
                    icon=p.icon,
                    url_path=p.slug or None,
                    default=not p.slug,
                )
                for p in PAGES
            )
        return [copy.copy(p) for p in _pages]
