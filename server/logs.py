"""The server's log, rate-limited (issue 40, item 4): one client's flood must not fill the disk.

A script that sent malformed requests, or held more connections than the process had open
files, grew the log by ~300 MB in 2 minutes (the same warning for every request, each with a
traceback). :class:`RateLimit` is a :class:`logging.Filter` on every handler of the process:
a message (its logger and its format string, whatever its arguments) passes at most
``burst`` times per ``window`` seconds; past that, its records are dropped and counted, and
the next one that passes says how many like it were dropped. :func:`install` puts it on the
handlers the server has at its start (uvicorn's, Streamlit's, the root's and Python's last
resort) and says so once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

#: Records of one message that pass per window, and the window (seconds).
BURST = 10
WINDOW = 60.0


class RateLimit(logging.Filter):
    """Passes each message (logger name, level, format string) at most ``burst`` times per
    ``window`` seconds; the first to pass after some were dropped carries their count.

    >>> f = RateLimit(burst=2, window=60, clock=lambda: 0.0)
    >>> rec = lambda: logging.LogRecord("x", logging.WARNING, "", 0, "bad %s", ("a",), None)
    >>> [f.filter(rec()) for _ in range(4)]
    [True, True, False, False]
    """

    def __init__(
        self,
        burst: int = BURST,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst, self.window, self._clock = burst, window, clock
        self._seen: dict[tuple, list[float]] = {}  # message → [window start, passed, dropped]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg)[:200])
        now = self._clock()
        with self._lock:
            seen = self._seen.get(key)
            if seen is None or now - seen[0] >= self.window:
                dropped = int(seen[2]) if seen else 0
                self._seen[key] = [now, 1, 0]
                if len(self._seen) > 5000:  # forget the oldest messages
                    for old in list(self._seen)[:2500]:
                        del self._seen[old]
                if dropped:
                    record.msg = (
                        f"{record.msg} [{dropped} more like this in the last minute not logged]"
                    )
                return True
            if seen[1] < self.burst:
                seen[1] += 1
                return True
            seen[2] += 1
            return False


#: The process's one filter (every handler shares it, so a message counts once).
LIMIT = RateLimit()


def install(limit: RateLimit = LIMIT) -> int:
    """Give the server's own messages (``boostlab.*``) a handler on stderr, as uvicorn's, and
    put ``limit`` on every handler the process has now; the number of handlers."""
    ours = logging.getLogger("boostlab")
    if not ours.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:  boostlab: %(message)s"))
        ours.addHandler(handler)
        ours.setLevel(logging.INFO)
        ours.propagate = False
    handlers = {id(logging.lastResort): logging.lastResort} if logging.lastResort else {}
    loggers = [logging.getLogger()] + [
        x for x in logging.Logger.manager.loggerDict.values() if isinstance(x, logging.Logger)
    ]
    for logger in loggers:
        for handler in logger.handlers:
            handlers[id(handler)] = handler
    for handler in handlers.values():
        if limit not in handler.filters:
            handler.addFilter(limit)
    return len(handlers)
