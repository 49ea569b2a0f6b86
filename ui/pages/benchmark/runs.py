"""The benchmark page's runs: the committed cross-validation results (read once per
modification time of their file, ``st.cache_data``) and a run on one dataset now.

* :data:`RESULTS_DIR` — where ``benchmarks/run_benchmark.py`` writes its results;
* :func:`benchmark_results`, :func:`budget_results` — the committed rows, keyed by
  :func:`results_mtime` so a re-run of the benchmark script is picked up;
* :func:`run_benchmark_now` — cross-validate chosen learners on one dataset (not cached).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from boostcore import evaluation
from boostcore.real_datasets import load_real

#: The committed results of ``benchmarks/run_benchmark.py`` (``folds.csv``, ``budget.csv``).
RESULTS_DIR = Path(__file__).resolve().parents[3] / "benchmarks" / "results"


@st.cache_data(show_spinner=False)
def benchmark_results(mtime: float) -> list[dict]:
    """The committed per-fold benchmark rows (``benchmarks/results/folds.csv``); ``mtime``
    keys the cache so a re-run of the benchmark script is picked up."""
    return evaluation.read_folds(RESULTS_DIR / "folds.csv")


def results_mtime() -> float:
    """Modification time of the committed results (0 when there are none)."""
    path = RESULTS_DIR / "folds.csv"
    return path.stat().st_mtime if path.exists() else 0.0


def run_benchmark_now(
    dataset: str, names: list[str], n_folds: int, progress: Callable[[int, int, str], None] | None
) -> list[dict]:
    """Cross-validate the chosen learners on one dataset now (not cached: the page asks)."""
    ds = load_real(dataset)
    return evaluation.cross_validate(
        dataset,
        ds.X,
        ds.y,
        ds.categorical,
        evaluation.learners(names),
        n_folds=n_folds,
        progress=progress,
    )


@st.cache_data(show_spinner=False)
def budget_results(mtime: float) -> list[dict]:
    """The committed error-vs-budget rows (``benchmarks/results/budget.csv``; [] if none)."""
    path = RESULTS_DIR / "budget.csv"
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r["budget"] = int(r["budget"])
        r["error_mean"] = float(r["error_mean"])
    return rows
