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
    print(
        f"python {sys.version.split()[0]}; median fit time of 3 runs; "
        f"T1 = {T1}, T2 = {T2} ({T1 * T2} stumps)\n"
    )
    print("| n (train) | d | model | fit (s) | ratio to sklearn AdaBoost | test error |")
    print("|---:|---:|---|---:|---:|---:|")
    for n, d in ((1_000, 2), (10_000, 10), (30_000, 10)):
        X, y, Xt, yt = data(n, d)
        models = {
            "sklearn AdaBoost (70 stumps)": lambda: AdaBoostClassifier(
                DecisionTreeClassifier(max_depth=1), n_estimators=T1 * T2, random_state=0
            ),
            "BoostODT, stumps": lambda: BoostODTClassifier(n_internal=T2, n_stumps=T1),
            "BoostODT, hyperplane": lambda: BoostODTClassifier(
                n_internal=T2, n_stumps=T1, weak="hyperplane"
            ),
            "AdaBoost_R, exact stumps (70)": lambda: RealAdaBoostClassifier(n_estimators=T1 * T2),
        }
        base = None
        for name, make in models.items():
            sec, err = timed(make, X, y, Xt, yt)
            base = base or sec
            print(f"| {X.shape[0]:,} | {d} | {name} | {sec:.3f} | {sec / base:.2f} | {err:.3f} |")


def page(repeats: int = 5) -> None:
    """Server time of the oblique page (AppTest, in-process: browser drawing not included)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from boostcore.datasets import make_dataset
    from boostcore.oblique import boost_odt, g1_tree
    from boostcore.realboost import g1_linear

    ds = make_dataset("moons", noise=0.3, label_noise=0.05)  # the page's defaults
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        kw = dict(X_test=ds.X_test, y_test=ds.y_test)
        list(g1_linear(ds.X_train, ds.y_train, n_rounds=T1 * T2, **kw))
        list(g1_tree(ds.X_train, ds.y_train, n_internal=T2, **kw))
        list(boost_odt(ds.X_train, ds.y_train, n_internal=T2, n_stumps=T1, **kw))
        runs.append(time.perf_counter() - t0)
    cold, steps = [], []
    path = str(Path(__file__).resolve().parents[1] / "views" / "oblique.py")
    for _ in range(repeats):
        st.cache_data.clear()
        at = AppTest.from_file(path, default_timeout=120)
        t0 = time.perf_counter()
        at.run()
        cold.append(time.perf_counter() - t0)
        for r in range(1, 5):
            t0 = time.perf_counter()
            # what the browser's stepper reports after a step it drew itself (lecture view)
            at.session_state["round_ctl"] = {"round": r}
            at.session_state["round"] = r
            at.run()
            steps.append(time.perf_counter() - t0)
        assert not at.exception
    print("\n| oblique page, default demo (moons, n = 400, T2 = 7, T1 = 10) | median |")
    print("|---|---:|")
    print(
        f"| compute AdaBoost (70 stumps), KM tree, BoostODT | "
        f"{statistics.median(runs) * 1000:.0f} ms |"
    )
    print(
        f"| first page run, cold cache (compute + draw) | {statistics.median(cold) * 1000:.0f} ms |"
    )
    print(
        f"| a warm rerun of the page (a control used; cached runs and frames) | "
        f"{statistics.median(steps) * 1000:.0f} ms |"
    )


if __name__ == "__main__":
    main()
    page()
