"""The shared, size-bounded cache of runs and frames (ui/cache.py; issue 16, memory)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from ui import cache


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    cache.clear()
    yield
    cache.clear()


def _counted():
    calls = []

    @cache.shared
    def run(_ds, key: str, n: int, pause: float = 0.0):
        calls.append((key, n))
        time.sleep(pause)
        return np.zeros(n)

    return run, calls


def test_one_stored_value_shared_by_every_caller() -> None:
    run, calls = _counted()
    a = run("ignored", "k", 1000)
    b = run(object(), "k", 1000)  # a `_` argument is not part of the key (as st.cache_data)
    assert a is b and calls == [("k", 1000)]
    assert run.__wrapped__(None, "k", 3).shape == (3,) and len(calls) == 2


def test_the_budget_holds_whatever_the_sequence(monkeypatch) -> None:
    monkeypatch.setattr(cache, "BUDGET_BYTES", 100_000)
    monkeypatch.setattr(cache, "ENTRY_MAX_BYTES", 40_000)
    run, calls = _counted()
    for i in range(50):
        run(None, f"k{i}", 3000)  # 24 kB each
        s = cache.stats()
        assert s["bytes"] <= 100_000 and s["entries"] <= 4
    assert cache.stats()["entries"] == 4
    run(None, "k49", 3000)  # the most recent ones stay
    assert len(calls) == 50
    run(None, "k0", 3000)  # the oldest went first
    assert len(calls) == 51
    run(None, "big", 10_000)  # 80 kB: returned, not kept
    run(None, "big", 10_000)
    assert calls[-2:] == [("big", 10_000), ("big", 10_000)]


def test_identical_concurrent_requests_compute_once() -> None:
    run, calls = _counted()
    out = []
    threads = [
        threading.Thread(target=lambda: out.append(run(None, "same", 10, pause=0.3)))
        for _ in range(8)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert calls == [("same", 10)] and len(out) == 8 and all(v is out[0] for v in out)


def test_a_failure_is_not_cached() -> None:
    tries = []

    @cache.shared
    def flaky(n: int):
        tries.append(n)
        if len(tries) == 1:
            raise ValueError("first time")
        return n

    with pytest.raises(ValueError):
        flaky(1)
    assert flaky(1) == 1 and tries == [1, 1]


def test_a_large_key_counts_against_the_budget(monkeypatch) -> None:
    monkeypatch.setattr(cache, "BUDGET_BYTES", 100_000)
    monkeypatch.setattr(cache, "ENTRY_MAX_BYTES", 40_000)

    @cache.shared
    def parse(data: bytes) -> int:
        return len(data)

    for i in range(10):
        parse(bytes([i]) * 30_000)  # 30 kB of key, a tiny value
    assert cache.stats()["entries"] == 3 and cache.stats()["bytes"] <= 100_000


@pytest.mark.parametrize("raw", ["", "abc", "8", "-5", "1.5", "１２８", "9" * 400, "2000000"])
def test_an_invalid_budget_in_the_environment_is_named_and_the_default_used(raw, caplog) -> None:
    with caplog.at_level("WARNING", logger="ui.cache"):
        assert cache.budget_from_env({cache.BUDGET_ENV: raw}) == 1 << 30
    assert cache.BUDGET_ENV in caplog.text and "16–1048576" in caplog.text


def test_a_budget_in_the_environment_is_used() -> None:
    assert cache.budget_from_env({cache.BUDGET_ENV: " 16 "}) == 16 << 20
    assert cache.budget_from_env({}) == 1 << 30


# ------------------------------------------------------------ a session that is gone (issue 27)
def test_cancellable_passes_items_through_outside_a_stopped_run() -> None:
    assert not cache.stop_requested()  # no script run on this thread
    assert list(cache.cancellable(iter(range(5)))) == [0, 1, 2, 3, 4]


def test_a_stopped_session_stops_computing_and_a_waiting_one_computes_itself(monkeypatch) -> None:
    """The session computing a run disconnects: its computation stops at the next snapshot
    (nothing is stored), and another session waiting for the same run computes it itself
    instead of waiting forever."""
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    stopped = threading.Event()
    first_in = threading.Event()
    made: list[int] = []
    monkeypatch.setattr(
        cache,
        "stop_requested",
        lambda: stopped.is_set() and threading.current_thread().name == "gone",
    )

    def snapshots(n: int):
        for i in range(n):
            made.append(i)
            first_in.set()
            if threading.current_thread().name == "gone" and i == 1:
                stopped.set()  # the tab is closed while round 1 is computed
            time.sleep(0.01)
            yield i

    @cache.shared
    def run(n: int) -> tuple:
        return tuple(cache.cancellable(snapshots(n)))

    cache.clear()
    out: dict[str, object] = {}

    def call(name: str) -> None:
        try:
            out[name] = run(6)
        except StopException:
            out[name] = "stopped"

    gone = threading.Thread(target=call, args=("gone",), name="gone")
    gone.start()
    first_in.wait(5)
    waiting = threading.Thread(target=call, args=("waiting",), name="waiting")
    waiting.start()
    gone.join(10)
    waiting.join(10)
    assert out == {"gone": "stopped", "waiting": (0, 1, 2, 3, 4, 5)}
    # the gone run stopped at the round it was closed in: rounds 2-5 were never computed
    assert made[:2] == [0, 1] and len(made) == 2 + 6
    assert run(6) == (0, 1, 2, 3, 4, 5)  # the waiting session's value was stored
    cache.clear()
