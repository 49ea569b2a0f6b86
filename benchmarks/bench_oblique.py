"""Speed of G1: BoostODT and AdaBoost_R against scikit-learn's AdaBoost.

Run from the repository root:  .venv/bin/python benchmarks/bench_oblique.py
Data: Gaussian X (n × d), label sign(x1 + x2·x_d + 0.3·noise), seed 0. BoostODT uses
T2 = 7 internal nodes and T1 = 10 stumps per node (70 stumps in all); scikit-learn's
``AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))`` gets the same 70 stumps.
Target of the issue: BoostODT fits n = 10,000, d = 10 in under 2 s.
Also printed: AdaBoost_R with our exact stump search for the same 70 rounds, and the
test error of each (a 25 % hold-out) so speed is not bought with accuracy.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sklearn.ensemble import AdaBoostClassifier  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from boostcore.estimators import BoostODTClassifier, RealAdaBoostClassifier  # noqa: E402

T1, T2 = 10, 7


def data(n: int, d: int):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n + n // 3, d))  # n training points + a 25 % hold-out
    y = (X[:, 0] + X[:, 1] * X[:, -1] + 0.3 * rng.normal(size=X.shape[0]) > 0).astype(int)
    return X[:n], y[:n], X[n:], y[n:]


def timed(make, X, y, Xt, yt, repeats: int = 3) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        model = make()
        t0 = time.perf_counter()
        model.fit(X, y)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), float(np.mean(model.predict(Xt) != yt))


def main() -> None:
    print(f"python {sys.version.split()[0]}; median fit time of 3 runs; "
          f"T1 = {T1}, T2 = {T2} ({T1 * T2} stumps)\n")
    print("| n (train) | d | model | fit (s) | ratio to sklearn AdaBoost | test error |")
    print("|---:|---:|---|---:|---:|---:|")
    for n, d in ((1_000, 2), (10_000, 10), (30_000, 10)):
        X, y, Xt, yt = data(n, d)
        models = {
            "sklearn AdaBoost (70 stumps)": lambda: AdaBoostClassifier(
                DecisionTreeClassifier(max_depth=1), n_estimators=T1 * T2, random_state=0),
            "BoostODT, stumps": lambda: BoostODTClassifier(n_internal=T2, n_stumps=T1),
            "BoostODT, hyperplane": lambda: BoostODTClassifier(
                n_internal=T2, n_stumps=T1, node_learner="hyperplane"),
            "AdaBoost_R, exact stumps (70)": lambda: RealAdaBoostClassifier(
                n_estimators=T1 * T2),
        }
        base = None
        for name, make in models.items():
            sec, err = timed(make, X, y, Xt, yt)
            base = base or sec
            print(f"| {X.shape[0]:,} | {d} | {name} | {sec:.3f} | {sec / base:.2f} | {err:.3f} |")


if __name__ == "__main__":
    main()
