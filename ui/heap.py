"""The server process's heap: what Python's cyclic garbage collector has to walk.

A served page imports plotly, scipy, scikit-learn and the lessons' modules: some 160,000
objects the collector tracks (functions, classes, their dicts), none of which ever becomes
garbage. Python still walks all of them at every full collection, and while a class opens a
page a full collection came every 2-4 s and took 74-147 ms (``gc.callbacks`` in the served
app, issue 27): about 8 ms of server CPU per page open on average (5 ms with the freeze:
over the same runs, 1.2 s of full collections became 0.7 s), and much of the spread between
two measurements of the same class.

:func:`freeze_once` does once per process, at the end of the first page run (the page is
on screen by then; its script stays "running" about 1.3 s longer, once), what CPython's
documentation suggests for a server: import every lesson module, collect the garbage there
is, then ``gc.freeze()`` — everything alive then moves to a permanent generation the collector
no longer walks. Objects frozen are still freed when nothing refers to them; only reference
cycles among them would never be collected, which is why the garbage is collected first and
the freeze happens once, not after every run. It runs in the script's own thread, not in a
background one, where it would land unannounced in the CPU of whatever sessions run at that
moment.
"""

from __future__ import annotations

import gc
import importlib
import logging
import pkgutil
import threading

_lock = threading.Lock()
_started = False
_done = threading.Event()

log = logging.getLogger(__name__)


def freeze_now() -> int:
    """Import every module under ``ui.pages``, collect, freeze; the number of objects frozen.

    Returns
    -------
    int
        ``gc.get_freeze_count()`` afterwards.
    """
    import ui.pages as pages  # here, not at import: ui.pages imports the lessons' modules

    for info in pkgutil.walk_packages(pages.__path__, "ui.pages."):
        importlib.import_module(info.name)
    gc.collect()
    gc.freeze()
    _done.set()
    return gc.get_freeze_count()


def freeze_once() -> None:
    """:func:`freeze_now`, the first time this is called in the process (the app's router
    calls it after each page run; later calls return at once). A failure is logged: the
    app works without the freeze."""
    global _started
    if _started:  # the common case, without the lock
        return
    with _lock:
        if _started:
            return
        _started = True  # other sessions' runs go on meanwhile: they do not wait for it
    try:
        n = freeze_now()
        log.debug("gc.freeze: %d objects", n)
    except Exception:  # noqa: BLE001 — an optimisation: the app works without it
        log.exception("gc.freeze after start-up failed")


def frozen(timeout: float | None = None) -> bool:
    """Whether the freeze has happened (waiting up to ``timeout`` seconds for it)."""
    return _done.wait(timeout)
