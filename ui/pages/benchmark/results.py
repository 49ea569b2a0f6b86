"""Everything the benchmark page (``views/benchmark.py``) shows, computed from the results.

The committed results are keyed by their file's modification time (``runs.results_mtime``)
so a re-run of ``benchmarks/run_benchmark.py`` is picked up; the summaries, claim checks and
comparisons of those rows are cached per ``mtime`` (``st.cache_data``), so moving a widget on
the page only renders. A run "now" is summarised without a cache (the page asks for it once).
The statistics themselves are :mod:`boostcore.evaluation`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from boostcore import evaluation
from boostcore.real_datasets import REAL_DATASETS

from . import runs as benchmark_runs

#: The verdict rule in words (``evaluation.verdict`` applies it).
VERDICT_RULE = evaluation.VERDICT_RULE

#: What the results table can show: its radio label → the summary's column.
SHOW = {
    "mean test error": "error_mean",
    "sd of test error": "error_sd",
    "fit time (s)": "fit_seconds",
    "size": "size",
}


@dataclass(frozen=True)
class ClaimCheck:
    """One paper's claim checked on the results: ``a`` against ``b``, the verdict ``text``
    (one phrase of ``evaluation.VERDICTS``), its explanation ``description`` and one row per
    dataset in ``details``."""

    title: str
    a: str
    b: str
    text: str
    description: str
    details: pd.DataFrame


def learner_names() -> list[str]:
    """Every learner the benchmark knows, in the protocol's order."""
    return [lrn.name for lrn in evaluation.learners()]


def learners_table() -> pd.DataFrame:
    """The learners with their family, budget and whether they are boostlab's own."""
    return pd.DataFrame(
        [
            {"learner": lrn.name, "family": lrn.family, "budget": lrn.budget, "ours": lrn.ours}
            for lrn in evaluation.learners()
        ]
    )


def dataset_names() -> list[str]:
    """The real datasets shipped with the app, in their fixed order."""
    return list(REAL_DATASETS)


def dataset_description(name: str) -> str | None:
    """One real dataset's description (None for a name that is not a shipped dataset)."""
    info = REAL_DATASETS.get(name)
    return info.description if info is not None else None


def datasets_table() -> pd.DataFrame:
    """The real datasets: size, features, positive class, source and description."""
    return pd.DataFrame(
        [
            {
                "dataset": n,
                "rows": i.n_samples,
                "features": i.n_features,
                "categorical": i.n_categorical,
                "positive class": i.positive_class,
                "positives": i.n_positive,
                "source": i.source,
                "description": i.description,
            }
            for n, i in REAL_DATASETS.items()
        ]
    )


@st.cache_data(max_entries=4, show_spinner=False)
def claim_checks(mtime: float) -> list[ClaimCheck]:
    """Every claim of ``evaluation.CLAIMS`` whose two learners were run, checked (cached)."""
    rows = benchmark_runs.benchmark_results(mtime)
    learners_run = {r["learner"] for r in rows}
    checks = []
    for title, a, b in evaluation.CLAIMS:
        if a not in learners_run or b not in learners_run:
            continue
        res = evaluation.compare(rows, a, b)
        details = pd.DataFrame(
            [
                {
                    "dataset": d["dataset"],
                    "error a": d["a"],
                    "error b": d["b"],
                    "a − b": d["diff"],
                    "paired t p": d["p_t"],
                    "significant": d["significant"],
                }
                for d in res["details"]
            ]
        )
        checks.append(
            ClaimCheck(title, a, b, evaluation.verdict(res), evaluation.describe(res), details)
        )
    return checks


@st.cache_data(max_entries=4, show_spinner=False)
def summary(mtime: float) -> pd.DataFrame:
    """Per learner and dataset: mean and sd of the test error, fit time, size (cached)."""
    return pd.DataFrame(evaluation.summarise(benchmark_runs.benchmark_results(mtime)))


def summary_learners(mtime: float) -> list[str]:
    """The learners present in the committed results, sorted."""
    return sorted(summary(mtime)["learner"].unique())


@st.cache_data(max_entries=16, show_spinner=False)
def results_table(mtime: float, show: str) -> pd.DataFrame:
    """Learners × datasets of one quantity of :data:`SHOW`; for the errors, with the mean
    over datasets as the last column and the rows sorted by it (cached)."""
    col = SHOW[show]
    table = summary(mtime).pivot(index="learner", columns="dataset", values=col)
    if col.startswith("error"):
        table["mean over datasets"] = table.mean(axis=1)
        table = table.sort_values("mean over datasets")
    return table


@st.cache_data(max_entries=32, show_spinner=False)
def against(mtime: float, ref: str) -> list[dict]:
    """Every other learner of the results compared with ``ref`` (``evaluation.compare``)."""
    rows = benchmark_runs.benchmark_results(mtime)
    return [evaluation.compare(rows, n, ref) for n in summary_learners(mtime) if n != ref]


def result_datasets(mtime: float) -> list[str]:
    """The datasets present in the committed results, sorted."""
    return sorted({r["dataset"] for r in benchmark_runs.benchmark_results(mtime)})


@st.cache_data(max_entries=32, show_spinner=False)
def dataset_summary(mtime: float, name: str) -> list[dict]:
    """One dataset's summary per learner, each marked ``ours`` or not (cached)."""
    sel = [r for r in benchmark_runs.benchmark_results(mtime) if r["dataset"] == name]
    out = evaluation.summarise(sel)
    ours = {r["learner"]: r["ours"] for r in sel}
    for s in out:
        s["ours"] = ours[s["learner"]]
    return out


def budget_curves(mtime: float, name: str) -> list[dict]:
    """One dataset's committed error-vs-budget rows ([] if none)."""
    return [r for r in benchmark_runs.budget_results(mtime) if r["dataset"] == name]


def fit_estimate(mtime: float, dataset: str, chosen: list[str], folds: int) -> float:
    """Seconds of fitting a run now of ``chosen`` on ``dataset`` with ``folds`` folds should
    take, from the committed run's mean fit time per fold (0 when it has none)."""
    past = benchmark_runs.benchmark_results(mtime) if mtime else []
    per_fit: dict[str, list[float]] = {}
    for r in past:
        if r["dataset"] == dataset:
            per_fit.setdefault(r["learner"], []).append(r["fit_seconds"])
    return sum(sum(v) / len(v) for k, v in per_fit.items() if k in chosen) * folds


def run_summary(rows: list[dict]) -> pd.DataFrame:
    """The summary of a run now, with the page's column names."""
    return pd.DataFrame(evaluation.summarise(rows)).rename(
        columns={"error_mean": "mean error", "error_sd": "sd", "fit_seconds": "fit (s)"}
    )


@st.cache_data(max_entries=4, show_spinner=False)
def folds_csv(mtime: float) -> str:
    """Every committed fold as CSV (cached)."""
    return pd.DataFrame(benchmark_runs.benchmark_results(mtime)).to_csv(index=False)


def summary_csv(mtime: float) -> str:
    """The summary of the committed results as CSV."""
    return summary(mtime).to_csv(index=False)
