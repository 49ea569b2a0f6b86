"""ui/heap.py: once the lessons' modules are imported and frozen, a full garbage collection
no longer walks them, and garbage made afterwards is still collected.

Run in a child process: ``gc.freeze()`` acts on the whole interpreter, and the test process's
own collector must stay as it is for the other tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import gc, json, time, weakref
import pkgutil, importlib
import ui.pages as pages
for info in pkgutil.walk_packages(pages.__path__, "ui.pages."):
    importlib.import_module(info.name)
gc.collect()

def full_gc_ms(n=3):
    best = 1e9
    for _ in range(n):
        t = time.perf_counter(); gc.collect(); best = min(best, time.perf_counter() - t)
    return 1000 * best

before = full_gc_ms()
from ui import heap
heap.freeze_once()
assert heap.frozen(120), "the freeze did not happen"
heap.freeze_once()  # a second call does nothing
frozen = gc.get_freeze_count()
after = full_gc_ms()

class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a  # a cycle made after the freeze
gone = weakref.ref(a)
del a, b
gc.collect()
print(json.dumps({"before": before, "after": after, "frozen": frozen,
                  "cycle_collected": gone() is None, "count": gc.get_freeze_count()}))
"""


def test_freeze_takes_the_libraries_out_of_a_full_collection() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["frozen"] > 100_000, r  # plotly, scipy, scikit-learn, the lessons
    assert r["count"] <= r["frozen"], r  # the second call froze nothing more
    assert r["after"] < r["before"] / 5, r
    assert r["cycle_collected"], r
