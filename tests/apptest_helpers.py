"""AppTest helpers shared by the page tests: one timeout, one way to open a page, one check.

    from tests import apptest_helpers as ah

    at = ah.page("branching", T="5")  # views/branching.py with ?T=5, run once
    ah.ok(at)  # no exception on the page (the messages if there is one)

``load`` is ``page`` without the run, for a test that sets session state first;
``open_export`` opens the Export menu (a page fills it only while it is open).
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]

#: The ceiling for one script run (seconds), the same for every page and file (it was 60 for
#: the game, 180 for the guides): the slowest AppTest test takes about 3 s on an idle 2-core
#: machine (a matryoshka preset, several runs), so the ceiling only stops a hung run.
TIMEOUT = 120


def load(name: str, /, **params: str | list[str]) -> AppTest:
    """``views/<name>.py`` with the query parameters ``params``, not run yet."""
    at = AppTest.from_file(str(ROOT / "views" / f"{name}.py"), default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at


def page(name: str, /, **params: str | list[str]) -> AppTest:
    """``views/<name>.py`` with the query parameters ``params``, after its first run."""
    return load(name, **params).run()


def open_export(at: AppTest) -> AppTest:
    """Open the page's Export menu, as a click on it does (its open state is the popover's
    widget value, ``ui.header.EXPORT_MENU``), and rerun: its downloads are then there."""
    from ui.header import EXPORT_MENU

    at.session_state[EXPORT_MENU] = True
    return at.run()


def ok(at: AppTest) -> None:
    """The last run raised no exception (else the assertion lists the messages)."""
    assert not at.exception, [e.value for e in at.exception]
