"""Exact k-way interval search against the 256-cut search (issue 24, part D).

Run from the repository root:  .venv/bin/python benchmarks/bench_exact_search.py
One leaf of ``m`` training points of boostcore's "moons" (noise 0.2, label noise 0.1) with
uniform weights, both features, the entropy index: ``best_interval_splits`` exact
(``max_cuts=None``) and with ``LARGE_LEAF_CUTS = 256`` weighted-quantile cuts, for
``K = 3 … 6``; best of 3 runs each. Also an adversarial leaf (labels alternating along x1,
so every gap between two points is a class boundary). Target of the issue: exact within 10×
the 256-cut search at m = 2,000 for K ≤ 6. Prints a markdown table; runs in well under 2 min.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boostcore.datasets import make_dataset  # noqa: E402
from boostcore.impurity import entropy  # noqa: E402
from boostcore.splits import best_interval_splits, presort  # noqa: E402
from boostcore.topdown import EXACT_SEARCH_LIMIT, LARGE_LEAF_CUTS  # noqa: E402

SIZES = (500, 1000, 2000, 4000)
ARITIES = (3, 4, 5, 6)


def leaf(kind: str, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``m`` points of a noisy teaching dataset, or alternating labels (the adversarial leaf)."""
    if kind == "alternating":
        rng = np.random.default_rng(0)
        X = np.column_stack([np.arange(m, dtype=float), rng.normal(size=m)])
        y = np.where(np.arange(m) % 2 == 0, 1, -1)
    else:
        ds = make_dataset("moons", n=m, label_noise=0.1, test_fraction=0.0, random_state=0)
        X, y = ds.X_train, ds.y_train
    return X, y, np.full(len(y), 1.0 / len(y))


def best_of(fn, repeats: int = 3) -> float:
    """Smallest wall time of ``repeats`` calls, in seconds."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    print(f"Exact search vs {LARGE_LEAF_CUTS}-cut search, one leaf, 2 features, entropy, ")
    print(f"best of 3 (`EXACT_SEARCH_LIMIT = {EXACT_SEARCH_LIMIT}`):\n")
    print("| leaf | m | K | exact (ms) | 256 cuts (ms) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind, sizes in (("moons, 10 % label noise", SIZES), ("alternating", (500, 1000, 2000))):
        for m in sizes:
            X, y, w = leaf("alternating" if kind == "alternating" else "moons", m)
            order = presort(X).T
            for K in ARITIES:
                exact = best_of(
                    lambda X=X, y=y, w=w, o=order, K=K: best_interval_splits(X, y, w, o, entropy, K)
                )
                cut = best_of(
                    lambda X=X, y=y, w=w, o=order, K=K: best_interval_splits(
                        X, y, w, o, entropy, K, LARGE_LEAF_CUTS
                    )
                )
                print(
                    f"| {kind} | {m:,} | {K} | {exact * 1e3:.1f} | {cut * 1e3:.1f} "
                    f"| {exact / cut:.1f}× |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
