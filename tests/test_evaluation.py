"""The benchmark harness: same folds for every learner, statistics, verdicts, tiny run."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np
import pytest

from boostcore import evaluation

ROOT = Path(__file__).resolve().parents[1]


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def test_folds_are_stratified_disjoint_and_seeded():
    _, y = _data()
    folds = evaluation.stratified_folds(y, 5, seed=3)
    together = np.concatenate(folds)
    assert sorted(together.tolist()) == list(range(len(y)))
    for f in folds:
        assert abs(np.mean(y[f] > 0) - np.mean(y > 0)) < 0.1
    again = evaluation.stratified_folds(y, 5, seed=3)
    assert all(np.array_equal(a, b) for a, b in zip(folds, again))


def test_cross_validate_compare_and_verdict():
    X, y = _data()
    chosen = evaluation.learners(["TopDown binary (Kearns–Mansour)", "sklearn DecisionTree"])
    rows = evaluation.cross_validate("toy", X, y, np.zeros(3, dtype=bool), chosen, n_folds=3)
    assert len(rows) == 6 and {r["fold"] for r in rows} == {0, 1, 2}
    assert all(0 <= r["test_error"] <= 1 and r["size"] > 0 for r in rows)
    summary = evaluation.summarise(rows)
    assert len(summary) == 2 and all(s["folds"] == 3 for s in summary)
    res = evaluation.compare(rows, "TopDown binary (Kearns–Mansour)", "sklearn DecisionTree")
    assert res["wins"] + res["ties"] + res["losses"] == 1
    assert evaluation.verdict(res)


def test_compare_counts_wins_and_losses():
    rows = []
    for ds, (ea, eb) in {"d1": (0.1, 0.3), "d2": (0.1, 0.3), "d3": (0.4, 0.2)}.items():
        for f in range(5):
            rows.append({"dataset": ds, "learner": "a", "fold": f, "test_error": ea + 0.01 * f})
            rows.append({"dataset": ds, "learner": "b", "fold": f, "test_error": eb})
    res = evaluation.compare(rows, "a", "b")
    assert (res["wins"], res["ties"], res["losses"]) == (2, 0, 1)
    assert all(d["significant"] for d in res["details"])
    assert evaluation.verdict(res).startswith("Mixed")


def test_unknown_learner_lists_known_ones():
    with pytest.raises(ValueError, match="known: .*sklearn DecisionTree"):
        evaluation.learners(["nope"])


def test_runner_tiny_configuration(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import run_benchmark

    rows = run_benchmark.run(["monk1", "vote"], ["TopDown binary (Kearns–Mansour)",
                                                 "TopDown-M (Hatano, k ≤ 4)"], 2, tmp_path,
                             verbose=False)
    assert len(rows) == 2 * 2 * 2
    with (tmp_path / "summary.csv").open() as fh:
        assert len(list(csv.DictReader(fh))) == 4
    text = (tmp_path / "claims.md").read_text()
    assert "Hatano" in text and "wins" in text
