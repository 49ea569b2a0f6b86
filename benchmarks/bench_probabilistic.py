"""Speed of probabilistic boosting: the 2-matryoshka, the tree, the chain, and soft regions.

Run from the repository root:  .venv/bin/python benchmarks/bench_probabilistic.py
Targets of the issue: a level-5 matryoshka (32 soft stumps) on n = 1,000 in under 2 s; soft
regions on a 150 × 150 grid in under 200 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boostcore.datasets import make_dataset  # noqa: E402
from boostcore.exact_chain import exact_possible  # noqa: E402
from boostcore.probabilistic import matryoshka, prob_adaboost, prob_tree  # noqa: E402


def timed(fn, repeats=5):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    ds = make_dataset(
        "moons", n=1000, noise=0.3, label_noise=0.05, test_fraction=0.0, random_state=0
    )
    X, y = ds.X_train, ds.y_train
    xs = np.linspace(-2, 2.5, 150)
    grid = np.column_stack([a.ravel() for a in np.meshgrid(xs, xs)])
    print(
        f"python {sys.version.split()[0]}; n = {len(y)} training points, softness 0.3, "
        "median of 5 runs\n"
    )
    print("| what | time |")
    print("|---|---:|")
    sec, steps = timed(lambda: list(matryoshka(X, y, levels=5)))
    print(f"| 2-matryoshka level 5 (32 stumps; levels 1–5 all built) | {sec * 1000:.0f} ms |")
    model = steps[-1].model
    sec, _ = timed(lambda: model.q_pos(grid))
    print(f"| its soft regions P(H>0) on 150×150 | {sec * 1000:.0f} ms |")
    sec, steps = timed(lambda: list(prob_tree(X, y, n_internal=32)))
    print(f"| probabilistic tree, 32 stumps (snapshot per stump) | {sec * 1000:.0f} ms |")
    sec, _ = timed(lambda: steps[-1].model.q_pos(grid))
    print(f"| its soft regions on 150×150 | {sec * 1000:.0f} ms |")
    sec, steps = timed(lambda: list(prob_adaboost(X, y, n_rounds=32)), repeats=3)
    exact = max(t for t in range(33) if exact_possible(t, len(y)))
    print(
        f"| probabilistic AdaBoost chain, 32 stumps: exact error to T = {exact}, then 1,000 "
        f"Monte Carlo worlds | {sec * 1000:.0f} ms |"
    )
    sec, _ = timed(lambda: steps[-1].model.q_pos(grid[::4]), repeats=3)
    print(f"| chain regions on 75×75 (every 4th grid point; Monte Carlo) | {sec * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
