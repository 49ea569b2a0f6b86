"""The benchmark's error-vs-budget curves pair every staged prediction with its own budget
(the step protocol's stop snapshot repeats the last round and must not shift the pairs)."""

from __future__ import annotations

import numpy as np
import pytest

from boostcore import evaluation

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _data(n: int = 160):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4, 1, 0)
    return X, y, np.zeros(3, dtype=bool)


@pytest.mark.parametrize(
    "name, first",
    [
        ("TopDown binary (Kearns–Mansour)", 1),  # the single-leaf tree, then 2, 3, … leaves
        ("BP.InfoBoost (bands)", 1),
        ("RealAdaBoost (stumps)", 1),
        ("BoostODT (stumps)", 1),  # one internal node after the first step
    ],
)
def test_each_budget_is_paired_with_its_own_prediction(name: str, first: int) -> None:
    X, y, cat = _data()
    rows = evaluation.budget_curves("toy", X, y, cat, [name], n_folds=2, random_state=0)
    fold0 = [r for r in rows if r["fold"] == 0]
    budgets = [r["budget"] for r in fold0]
    assert budgets[0] == first and budgets == list(range(first, first + len(budgets)))
    # the error at a budget is the error of the model with that budget, refitted directly
    lrn = evaluation.learners([name])[0]
    train, test = (
        np.setdiff1d(np.arange(len(y)), evaluation.stratified_folds(y, 2, 0)[0]),
        evaluation.stratified_folds(y, 2, 0)[0],
    )
    from boostcore.real_datasets import Preprocessor

    pre = Preprocessor(encode="onehot").fit(X[train], cat)
    Xtr, Xte = pre.transform(X[train]), pre.transform(X[test])
    model = lrn.make().fit(Xtr, y[train])
    final = float(np.mean(model.predict(Xte) != y[test]))
    assert fold0[-1]["test_error"] == pytest.approx(final)
