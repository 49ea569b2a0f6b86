"""Speed of BP.InfoBoost: rounds per second for the three merging schemes.

Run from the repository root:  .venv/bin/python benchmarks/bench_branching.py
Data: boostcore's "moons" (noise 0.3, label noise 0.05, all points used for training);
the weak learner is the exact best stump (InfoBoost's, minimising H(Y|h)).
Target of the issue: a 50-round run on n = 1,000 with ``bands`` under 1 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boostcore.branching import bp_infoboost  # noqa: E402
from boostcore.datasets import make_dataset  # noqa: E402

ROUNDS = 50


def run(n: int, merge: str, weak_learner: str, repeats: int = 5) -> tuple[float, int, int]:
    ds = make_dataset("moons", n=n, noise=0.3, label_noise=0.05, test_fraction=0.0, random_state=0)
    times, steps = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        steps = list(
            bp_infoboost(ds.X_train, ds.y_train, n_rounds=ROUNDS, merge=merge, weak=weak_learner)
        )
        times.append(time.perf_counter() - t0)
    done = [s for s in steps if s.kind == "step"]  # the rounds (not start or stop)
    return statistics.median(times), len(done), done[-1].metrics.n_leaves


def main() -> None:
    print(f"python {sys.version.split()[0]}; {ROUNDS} rounds asked, median of 5 runs\n")
    print("| n | scheme | weak learner | rounds run | final leaves | time (s) | rounds/s |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for n in (1_000, 10_000):
        for merge in ("all", "bands", "none"):
            for wl in ("h", "divided"):
                sec, rounds, leaves = run(n, merge, wl)
                print(
                    f"| {n:,} | {merge} | {wl} | {rounds} | {leaves} | {sec:.3f} | "
                    f"{rounds / sec:,.0f} |"
                )


if __name__ == "__main__":
    main()
