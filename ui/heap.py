"""The server process's heap: what Python's cyclic garbage collector has to walk.

A served page imports plotly, scipy, scikit-learn and the lessons' modules: some 160,000
objects the collector tracks (functions, classes, their dicts), none of which ever becomes
garbage. Python still walks all of them at every full collection, and while a class opens a
page a full collection came every 2-4 s and took 74-147 ms (``gc.callbacks`` in the served
app, issue 27): about 10 ms of server CPU per student on average, and the spread between two
measurements of the same class.

:func:`freeze_soon` does once per process, in a background thread after the first page has
run, what CPython's documentation suggests for a server: import every lesson module, collect
the garbage there is, then ``gc.freeze()`` — everything alive then moves to a permanent
generation the collector no longer walks (a full collection then takes well under a
millisecond for those objects). Objects frozen are still freed when nothing refers to them;
only reference cycles among them would never be collected, which is why the garbage is
collected first and the freeze happens once, not after every run.
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


def freeze_soon() -> None:
    """:func:`freeze_now` in a daemon thread, the first time this is called in the process
    (the app's router calls it after each page run; later calls return at once)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True

    def run() -> None:
        try:
            n = freeze_now()
            log.debug("gc.freeze: %d objects", n)
        except Exception:  # noqa: BLE001 — an optimisation: the app works without it
            log.exception("gc.freeze after start-up failed")

    threading.Thread(target=run, name="boostlab-heap-freeze", daemon=True).start()


def frozen(timeout: float | None = None) -> bool:
    """Whether the freeze has happened (waiting up to ``timeout`` seconds for it)."""
    return _done.wait(timeout)
