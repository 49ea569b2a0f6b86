"""Issue 16: whatever the sequence of links, a served app keeps the memory of its shared store
of runs and frames under the budget.

A real server (``streamlit run app.py`` on 127.0.0.1, its own process) is opened by 30
students in turn, each with a distinct maximal link of /branching (5,000 points, 60 rounds,
every merging scheme: about 21 MiB stored per link, so 30 links would hold about 630 MiB
without a bound). Each "student" is a websocket client speaking Streamlit's protocol, exactly
what a browser sends when it opens the link (``benchmarks/load_check.py``). The server's
budget is lowered to 128 MiB through ``BOOSTLAB_CACHE_MIB`` so that the store fills after a
few links and the test stays quick; ``benchmarks/bench_memory.py`` measures the default 1 GiB
budget (docs/classroom-server.md).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from benchmarks.load_check import PageSpec, open_session
from tests.conftest import streamlit_server
from ui import cache

#: Starts its own app server and measures it (CPU, memory): run alone, after the parallel
#: part of `make test`, so that no other test competes with what it measures.
pytestmark = pytest.mark.serial

BUDGET_MIB = 128
#: What a server may keep beyond its store: the page being computed (a maximal /branching run
#: and its frames before they are stored), the sessions' state and the allocator's slack.
#: Measured: +190 MiB on an idle machine (plateau from the 6th link); +329 MiB on the 2-core
#: machine while another test run loaded it (a creep of ~12 MiB per link after the 19th,
#: not explained yet: docs/classroom-server.md). Without the store's bound: +911 MiB.
SLACK_MIB = 320
LINKS = 30
SPEC = PageSpec("branching", "", "InfoBoost grows a branching program", "bp_infoboost")


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def _open(port: int, query: str) -> None:
    async def one():
        res, ws = await open_session(port, SPEC, query, timeout=120)
        if ws is not None:
            await ws.close()  # the student closes the tab
        return res

    res = asyncio.run(one())
    assert res.ok, (query, res.error)


def test_thirty_distinct_maximal_links_keep_a_served_app_under_its_budget() -> None:
    if not Path("/proc/self/status").exists():
        pytest.skip("no /proc on this system: resident memory cannot be read")
    procs: list = []
    with streamlit_server(env={cache.BUDGET_ENV: str(BUDGET_MIB)}, procs=procs) as base:
        port = int(base.rsplit(":", 1)[1])
        pid = procs[0].pid
        _open(port, "n=5000&T=60&seed=999")  # imports and Streamlit's own state, once
        start = _rss_mib(pid)
        rows = []
        for i in range(LINKS):
            _open(port, f"n=5000&T=60&seed={i}")
            rows.append(_rss_mib(pid))
    print(f"server RSS {start:.0f} MiB after one link; after each of {LINKS} distinct links:")
    print(" ".join(f"{r:.0f}" for r in rows))
    grown = max(rows) - start
    assert grown < BUDGET_MIB + SLACK_MIB, (start, rows)
    # and the store did fill: without it being bounded the same links grow by ~630 MiB
    assert max(rows[-10:]) - start > BUDGET_MIB / 4, (start, rows)
