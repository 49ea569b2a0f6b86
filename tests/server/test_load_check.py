"""The classroom load check's machinery against a real server (quick: three sessions).

A server is started on 127.0.0.1 through ``benchmarks/serve_counted.py``; three simulated
students (websocket clients speaking Streamlit's protocol) open the same top-down URL at once
on the cold cache. Every session must finish the script without an exception, and the shared
``st.cache_data`` must have grown each of the page's runs once, not once per session.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

#: Starts its own app server and measures it (CPU, memory): run alone, after the parallel
#: part of `make test`, so that no other test competes with what it measures.
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parents[2]


def _load_check():
    spec = importlib.util.spec_from_file_location(
        "boostlab_load_check", ROOT / "benchmarks" / "load_check.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lc():
    return _load_check()


@pytest.fixture(scope="module")
def server(lc, tmp_path_factory):
    with lc.Server(tmp_path_factory.mktemp("load") / "calls.jsonl") as srv:
        yield srv


def _assert_all_ok(result) -> None:
    for s in result.sessions:
        assert s.ok, f"?{s.query}: {s.error}"
        assert s.status == "FINISHED_SUCCESSFULLY"
        assert s.deltas > 0 and not s.exceptions


@pytest.mark.timeout(120)
def test_identical_sessions_share_one_computation(lc, server) -> None:
    spec = lc.PAGES["topdown"]
    cold = lc.run_scenario(server, spec, "(a) cold", [spec.query] * 3, timeout=60)
    _assert_all_ok(cold)
    # The page grows one tree per criterion (three by default): each ran exactly once.
    assert cold.distinct == 3
    assert cold.calls == cold.distinct, [c["key"] for c in server.calls()]

    warm = lc.run_scenario(server, spec, "(b) warm", [spec.query] * 3, timeout=60)
    _assert_all_ok(warm)
    assert warm.calls == 0

    seeds = lc.run_scenario(
        server, spec, "(c) seeds", [f"{spec.query}&seed={i}" for i in (1, 2)], timeout=60
    )
    _assert_all_ok(seeds)
    assert seeds.calls == seeds.distinct == 2 * 3


@pytest.mark.timeout(60)
def test_a_wrong_page_is_reported_not_counted_as_ok(lc, server) -> None:
    bad = lc.PageSpec("no_such_page", "", "never drawn", "grow")
    result = lc.run_scenario(server, bad, "bad", [""], timeout=30)
    assert result.ok == 0
    assert "page not found" in result.sessions[0].error
    assert "not drawn" in result.sessions[0].error


def test_a_server_start_that_times_out_says_so_with_the_servers_output(lc, tmp_path) -> None:
    """Issue 27, item 7: the timeout closed the server's log before the message read it
    ("seek of closed file"); now the message names the timeout and the log stays readable."""
    with pytest.raises(RuntimeError, match=r"did not answer /_stcore/health within 0 s"):
        lc.Server(tmp_path / "calls.jsonl", startup_timeout=0)


def test_the_table_gives_server_cpu_per_session(lc) -> None:
    sessions = [lc.SessionResult(query="", ok=True, latency=0.5) for _ in range(4)]
    result = lc.ScenarioResult("topdown", "(a) cold", sessions, 1.0, 3, 3, 100.0, 120.0, 2.0)
    assert result.cpu_per_session_ms == 500.0
    head, _, row = lc.table([result]).splitlines()
    assert "server CPU / session (ms)" in head and "| 500 |" in row
