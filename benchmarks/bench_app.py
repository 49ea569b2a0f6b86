"""Server time of the top-down page: the default demo's compute and one step's re-render.

Run from the repository root:  .venv/bin/python benchmarks/bench_app.py

It drives ``views/topdown.py`` with Streamlit's AppTest (in-process, no browser), so the
times are the script's server-side run time: computing the three cached runs and every
round's frames of the lecture view on a cold cache, then the page run that follows a step
(the browser draws the step itself and then tells the server the round: that rerun finds
everything cached). Browser time is measured by ``benchmarks/bench_browser_step.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from boostcore.datasets import make_dataset  # noqa: E402
from boostcore.topdown import grow  # noqa: E402

PAGE = str(ROOT / "views" / "topdown.py")


def main(repeats: int = 7) -> None:
    print(f"python {sys.version.split()[0]}, streamlit {st.__version__}")
    # 1. the default demo's compute: n = 400 (300 train / 100 test), s = 16, three criteria
    ds = make_dataset("moons", noise=0.3, label_noise=0.05)  # the page's defaults
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for crit, gamma in (("hatano", None), ("mansour_mcallester", 0.1), ("naive", None)):
            list(
                grow(
                    ds.X_train,
                    ds.y_train,
                    size=16,
                    index="km",
                    criterion=crit,
                    max_arity=4,
                    gamma=gamma,
                    X_test=ds.X_test,
                    y_test=ds.y_test,
                )
            )
        runs.append(time.perf_counter() - t0)
    compute = statistics.median(runs)

    # 2. page runs: first (cold cache) and one step (warm)
    cold, steps = [], []
    for _ in range(repeats):
        st.cache_data.clear()
        at = AppTest.from_file(PAGE, default_timeout=120)
        t0 = time.perf_counter()
        at.run()
        cold.append(time.perf_counter() - t0)
        for r in range(2, 5):
            at.session_state["round"] = r  # what the browser's stepper reports
            t0 = time.perf_counter()
            at.run()
            steps.append(time.perf_counter() - t0)
        assert not at.exception
    print()
    print("| what (default demo: moons, n = 400, s = 16, K = 4, three criteria) | median |")
    print("|---|---:|")
    print(f"| compute the three runs (grow to the end) | {compute * 1000:.0f} ms |")
    cold_ms = statistics.median(cold) * 1000
    print(f"| first page run, cold cache (compute + every round's frames) | {cold_ms:.0f} ms |")
    print(
        f"| a warm rerun of the page (a control used; cached runs and frames) | "
        f"{statistics.median(steps) * 1000:.0f} ms |"
    )
    print(
        f"\n{repeats} repeats; {len(steps)} steps timed. Targets: compute < 500 ms, "
        "step < 150 ms of server time."
    )


if __name__ == "__main__":
    main()
