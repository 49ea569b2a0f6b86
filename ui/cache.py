"""One shared, size-bounded cache for the runs and lecture frames every session reuses.

Why not ``st.cache_data`` for these: it bounds each function by its number of entries, not by
size, and hands every session its own unpickled copy. One link to the oblique page at its
largest settings holds about 210 MB of frames; 60 distinct such links took a server from 0.6 to
5.9 GiB, and ten students opening the same link unpickled ten copies (issue 16). Here:

* every value is stored once and **shared** by every session that asks for it (the runs are
  frozen snapshots with read-only arrays, and the frames are only read: views copy what they
  send to the browser);
* the entries of all the functions decorated with :func:`shared` together stay under
  :data:`BUDGET_BYTES` (1 GiB), least recently used first out; a value larger than
  :data:`ENTRY_MAX_BYTES` is returned but not kept;
* identical requests that arrive while the value is being computed wait for that one
  computation instead of starting their own.

Sizes are measured as pickled bytes (:func:`size_of`) when a value is stored: close to what
``st.cache_data`` kept, and an underestimate of the Python objects' own overhead;
``benchmarks/bench_memory.py`` measures the server's resident memory against the budget.
Arguments whose names start with ``_`` are not part of the key (as with ``st.cache_data``):
``_ds`` is identified by its ``ds_key``.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

#: The environment variable that sets the budget in MiB (a small classroom machine may lower
#: it; docs/classroom-server.md).
BUDGET_ENV = "BOOSTLAB_CACHE_MIB"
#: The smallest budget it may set: below, a single page's run could not be kept at all.
MIN_BUDGET_MIB = 16
#: The largest (1 TiB): a larger number is a typo, not a machine.
MAX_BUDGET_MIB = 1 << 20


def budget_from_env(environ: dict[str, str] | None = None) -> int:
    """The budget in bytes: ``$BOOSTLAB_CACHE_MIB`` MiB if set to a whole number of
    16 … 1,048,576, else 1 GiB (an invalid value is named in the server's log, not fatal:
    the app still starts).

    >>> budget_from_env({}) == 1 << 30, budget_from_env({"BOOSTLAB_CACHE_MIB": "256"}) >> 20
    (True, 256)
    """
    raw = (os.environ if environ is None else environ).get(BUDGET_ENV)
    if raw is None:
        return 1 << 30
    text = raw.strip()
    # ASCII digits only: int() also reads "１２８" and a 400-digit number
    mib = int(text) if text.isascii() and text.isdigit() and len(text) <= 7 else -1
    if not MIN_BUDGET_MIB <= mib <= MAX_BUDGET_MIB:
        logging.getLogger(__name__).warning(
            "%s must be a whole number of MiB, %d–%d; got %r: using 1024",
            BUDGET_ENV,
            MIN_BUDGET_MIB,
            MAX_BUDGET_MIB,
            raw[:40],
        )
        return 1 << 30
    return mib << 20


#: What all the shared entries together may hold (pickled bytes).
BUDGET_BYTES = budget_from_env()
#: A larger value is returned but not kept (it would push out most of the others).
ENTRY_MAX_BYTES = BUDGET_BYTES // 4

_lock = threading.Lock()
_entries: OrderedDict[tuple, tuple[Any, int]] = OrderedDict()
_pending: dict[tuple, threading.Event] = {}
_total = 0


def size_of(value: Any) -> int:
    """Pickled size of ``value`` in bytes (what the cache counts against its budget)."""
    return len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def stats() -> dict[str, int]:
    """``entries`` and ``bytes`` held now, and the ``budget`` (for tests and benchmarks)."""
    with _lock:
        return {"entries": len(_entries), "bytes": _total, "budget": BUDGET_BYTES}


def clear() -> None:
    """Forget every entry (tests; a server frees its memory the same way on restart)."""
    global _total
    with _lock:
        _entries.clear()
        _total = 0


def _store(key: tuple, value: Any, size: int) -> None:
    global _total
    if size > ENTRY_MAX_BYTES:
        return
    with _lock:
        if key in _entries:
            return
        while _entries and _total + size > BUDGET_BYTES:
            _, (_, old) = _entries.popitem(last=False)
            _total -= old
        _entries[key] = (value, size)
        _total += size


def shared(fn: F) -> F:
    """Cache ``fn`` in the shared, size-bounded store (see the module docstring).

    Parameters
    ----------
    fn : callable
        A pure function of its arguments (those named ``_…`` excepted, which must be
        determined by the others). Its value must not be modified by its callers.

    Returns
    -------
    callable
        ``fn`` cached; ``fn.__wrapped__`` is the uncached function.
    """
    sig = inspect.signature(fn)
    name = (fn.__module__, fn.__qualname__)

    @functools.wraps(fn)
    def cached(*args: Any, **kwargs: Any) -> Any:
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        key = name + tuple((k, v) for k, v in bound.arguments.items() if not k.startswith("_"))
        while True:
            with _lock:
                hit = _entries.get(key)
                if hit is not None:
                    _entries.move_to_end(key)
                    return hit[0]
                waiting = _pending.get(key)
                if waiting is None:
                    _pending[key] = threading.Event()
                    break
            waiting.wait()  # the same request is being computed: use its value
        try:
            value = fn(*args, **kwargs)
            # a key holding an uploaded file's bytes counts too
            key_bytes = sum(len(v) for _, v in key[2:] if isinstance(v, bytes | str))
            _store(key, value, size_of(value) + key_bytes)
            return value
        finally:
            with _lock:
                _pending.pop(key).set()

    return cached  # type: ignore[return-value]


# ----------------------------------------------------------------------- cancelled sessions
def stop_requested() -> bool:
    """Whether the script run on this thread was asked to stop: its session disconnected
    (the student closed the tab) or the server is shutting down.

    Reads Streamlit's ScriptRequests state (no public API says it; a Streamlit without it
    reads as "not asked"). A rerun request (a new parameter) is not a stop: the run it
    abandons may be shared, and Streamlit handles it at its next element.
    """
    try:
        from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        requests = getattr(ctx, "script_requests", None)
        return getattr(requests, "_state", None) == ScriptRequestType.STOP
    except Exception:  # noqa: BLE001 — never let the check itself break a computation
        return False


def cancellable(items: Iterable[T]) -> Iterator[T]:
    """``items`` one by one, stopping with Streamlit's ``StopException`` as soon as the
    session that asked for them is gone (issue 27, item 1: a heavy link opened and closed
    went on computing for seconds). Wrap the snapshots of a run being computed for the
    shared store: a stopped computation is not stored, and a session waiting for the same
    value computes it itself (:func:`shared`).
    """
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    for item in items:
        if stop_requested():
            raise StopException()
        yield item
