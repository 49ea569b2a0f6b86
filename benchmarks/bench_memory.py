"""Resident memory of the shared run cache under a sequence of distinct heavy links.

    .venv/bin/python benchmarks/bench_memory.py [--links 30]

Each "link" is what one distinct URL makes the server cache: the oblique page's AdaBoost run
at its largest setting (5,000 points, 31 × 40 = 1,240 rounds, about 84 MB as stored) on a
dataset with its own seed, computed through ``ui/pages/oblique/runs.py`` exactly as a page
does. Prints, after every link, the cache's entries and stored bytes and the process's resident
memory (RSS), so the plateau under ``ui.cache.BUDGET_BYTES`` shows; a table, not a timed test.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
logging.getLogger("streamlit").setLevel(logging.ERROR)


def rss_mib() -> float:
    """Current resident set size of this process (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--links", type=int, default=30)
    args = ap.parse_args()
    from ui import cache, compute
    from ui.pages.oblique import runs as oblique_runs

    start = rss_mib()
    print(
        f"budget {cache.BUDGET_BYTES / 2**20:.0f} MiB; RSS at start {start:.0f} MiB; "
        f"{os.cpu_count()} CPUs"
    )
    print("| link | entries | stored MiB | RSS MiB | s |")
    print("|---:|---:|---:|---:|---:|")
    peak = start
    for i in range(args.links):
        t = time.perf_counter()
        ds = compute.generated_dataset.__wrapped__("moons", 5000, 0.3, 0.5, 0.05, i, 0.25)
        oblique_runs.g1_path_run(ds, f"moons-5000-seed{i}", 31 * 40, "stump")
        s = cache.stats()
        now = rss_mib()
        peak = max(peak, now)
        print(
            f"| {i + 1} | {s['entries']} | {s['bytes'] / 2**20:.0f} | {now:.0f} | "
            f"{time.perf_counter() - t:.1f} |",
            flush=True,
        )
    print(
        f"\npeak RSS {peak:.0f} MiB ({peak - start:.0f} MiB above the start) for "
        f"{args.links} distinct links; without a size bound they would hold about "
        f"{args.links * 84} MB"
    )


if __name__ == "__main__":
    main()
