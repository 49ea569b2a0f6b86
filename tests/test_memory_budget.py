"""Issue 16: whatever the sequence of links, the shared store of runs and frames stays under
its budget, and so does the memory the process keeps. Thirty distinct heavy links of one page
are opened in one process (AppTest: the same code a server runs), with the budget lowered to
64 MiB so that the test is quick; benchmarks/bench_memory.py measures the real 1 GiB budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import apptest_helpers as ah
from ui import cache

BUDGET = 64 << 20


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    pytest.skip("no /proc/self/status on this system")


def test_thirty_distinct_heavy_links_stay_under_the_budget(monkeypatch) -> None:
    monkeypatch.setattr(cache, "BUDGET_BYTES", BUDGET)
    monkeypatch.setattr(cache, "ENTRY_MAX_BYTES", BUDGET // 4)
    cache.clear()
    # warm up imports and Streamlit's own state once, then measure from there
    ah.ok(ah.page("branching", T="60", n="1000", seed="999"))
    start = _rss_mib()
    peak_store, peak_rss = 0, start
    for i in range(30):
        at = ah.page("branching", T="60", n="1000", seed=str(i))
        ah.ok(at)
        peak_store = max(peak_store, cache.stats()["bytes"])
        peak_rss = max(peak_rss, _rss_mib())
    print(f"store peak {peak_store / 2**20:.0f} MiB, RSS {start:.0f} → {peak_rss:.0f} MiB")
    cache.clear()
    assert BUDGET * 0.5 < peak_store <= BUDGET  # filled, and never above
    assert cache.stats()["entries"] == 0
    # what the process kept beyond the store: the page being computed and allocator slack
    assert peak_rss - start < BUDGET / 2**20 + 200, (start, peak_rss)
