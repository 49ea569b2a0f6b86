"""Exact k-way interval search against the 256-cut search (issue 24, part D).

Run from the repository root:  .venv/bin/python benchmarks/bench_exact_search.py
One leaf of ``m`` training points of boostcore's "moons" (noise 0.2, label noise 0.1) with
uniform weights, both features, the entropy index: ``best_interval_splits`` exact
(``max_cuts=None``) and with ``LARGE_LEAF_CUTS = 256`` weighted-quantile cuts, for
``K = 3 … 6``; best of 3 runs each. Then every generated dataset of the app at ``K = 6`` and
2,000 / 3,000 points, and an adversarial leaf (labels alternating along x1, so every gap
between two points is a class boundary). Target of the issue: exact within 10× the 256-cut
search at m = 2,000 for K ≤ 6, and ``EXACT_SEARCH_LIMIT`` as high as that holds. Prints two
markdown tables; runs in about 10 s.
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

SIZES = (1000, 2000, 4000)
ARITIES = (3, 4, 5, 6)
#: The second table: every generated dataset of the app at K = 6 (the limit is set by the worst).
DATASETS = (
    ("moons", 0.1),
    ("moons", 0.0),
    ("circles", 0.05),
    ("xor", 0.0),
    ("spirals", 0.0),
    ("stripes", 0.0),
)


def leaf(kind: str, m: int, label_noise: float = 0.1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``m`` points of a teaching dataset, or alternating labels (the adversarial leaf)."""
    if kind == "alternating":
        rng = np.random.default_rng(0)
        X = np.column_stack([np.arange(m, dtype=float), rng.normal(size=m)])
        y = np.where(np.arange(m) % 2 == 0, 1, -1)
    else:
        ds = make_dataset(kind, n=m, label_noise=label_noise, test_fraction=0.0, random_state=0)
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


def ratio(X: np.ndarray, y: np.ndarray, w: np.ndarray, K: int) -> tuple[float, float]:
    """Exact and 256-cut search times (s) at one leaf, best of 3 each."""
    order = presort(X).T
    exact = best_of(lambda: best_interval_splits(X, y, w, order, entropy, K))
    cut = best_of(lambda: best_interval_splits(X, y, w, order, entropy, K, LARGE_LEAF_CUTS))
    return exact, cut


def main() -> None:
    print(f"Exact search vs {LARGE_LEAF_CUTS}-cut search, one leaf, 2 features, entropy, ")
    print(f"best of 3 (`EXACT_SEARCH_LIMIT = {EXACT_SEARCH_LIMIT}`):\n")
    print("| leaf | m | K | exact (ms) | 256 cuts (ms) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for m in SIZES:
        X, y, w = leaf("moons", m)
        for K in ARITIES:
            exact, cut = ratio(X, y, w, K)
            print(
                f"| moons, 10 % label noise | {m:,} | {K} | {exact * 1e3:.1f} | "
                f"{cut * 1e3:.1f} | {exact / cut:.1f}× |",
                flush=True,
            )
    print("\nEvery generated dataset at K = 6 (the limit is where the worst passes 10×):\n")
    print("| leaf | m = 2,000 | m = 3,000 |")
    print("|---|---:|---:|")
    for name, noise in (*DATASETS, ("alternating", 0.0)):
        cells = []
        for m in (2000, 3000):
            X, y, w = leaf(name, m, noise)
            exact, cut = ratio(X, y, w, 6)
            cells.append(f"{exact / cut:.1f}× ({exact * 1e3:.0f} ms)")
        label = "alternating labels" if name == "alternating" else name
        label += f", {noise:.0%} label noise" if noise else ""
        print(f"| {label} | {cells[0]} | {cells[1]} |", flush=True)


if __name__ == "__main__":
    main()
