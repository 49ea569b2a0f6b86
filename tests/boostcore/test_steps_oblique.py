"""The step protocol (boostcore/steps.py) for G1 (docs/theory.md §4): G1 on a path
(``g1_linear``, AdaBoost_R), on a tree (``g1_tree``) and BoostODT (``boost_odt``), every
option, runs that use their budget and runs that stop early (issue 15, item 1)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier

from boostcore import steps
from boostcore.oblique import LEAF_RULES, ODTStep, boost_odt, g1_tree
from boostcore.realboost import THETA_GRID, WEAK_LEARNERS, G1Metrics, G1Step, g1_linear
from boostcore.steps import START, STEP, STOP
from tests.strategies import labelled_samples


def _data(seed: int, m: int = 60, d: int = 2, test: bool = True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = np.where(X[:, 0] + 0.8 * X[:, 1] * X[:, -1] + 0.5 * rng.normal(size=m) > 0, 1, 0)
    y[:2] = (0, 1)
    if test:
        return X[:45], y[:45], {"X_test": X[45:], "y_test": y[45:]}
    return X, y, {}


T = 5
GENERATORS = {
    **{
        f"g1_linear[{weak}]": (lambda X, y, w=weak, **kw: g1_linear(X, y, n_rounds=T, weak=w, **kw))
        for weak in ("stump", "hyperplane")
    },
    "g1_linear[sklearn]": lambda X, y, **kw: g1_linear(
        X, y, n_rounds=T, weak=DecisionTreeClassifier(max_depth=1), random_state=0, **kw
    ),
    **{
        f"g1_tree[{rule}]": (
            lambda X, y, r=rule, **kw: g1_tree(X, y, n_internal=T, leaf_rule=r, **kw)
        )
        for rule in LEAF_RULES
    },
    **{
        f"boost_odt[{learner},{rule}]": (
            lambda X, y, lr=learner, r=rule, **kw: boost_odt(
                X, y, n_internal=T, n_stumps=3, weak=lr, leaf_rule=r, **kw
            )
        )
        for learner in WEAK_LEARNERS
        for rule in LEAF_RULES
    },
}


def _check_g1(run, X, y01, test: dict) -> None:
    """The protocol, and what G1's snapshots add to it."""
    steps.check_run(run)
    path = isinstance(run[0], G1Step)
    assert all(isinstance(s, G1Step if path else ODTStep) for s in run)
    assert all(isinstance(s.metrics, G1Metrics) for s in run)
    start, stop = run[0], run[-1]
    rounds = steps.rounds(run)
    assert [s.t for s in rounds] == list(range(len(rounds)))
    assert [s.kind for s in rounds] == [START] + [STEP] * (len(rounds) - 1)
    # t = 0: G1 on a path starts from H = 0 (predicts −1 everywhere, empty product 1);
    # the trees start from the root's constant ½ ln(w⁺/w⁻)
    m0 = start.metrics
    y = np.where(y01 == 1, 1, -1)
    if path:
        assert len(start.model) == 0 and start.round is None
        assert m0.train_error == pytest.approx(np.mean(y == 1))
        assert (m0.exp_loss, m0.margin_error_0, m0.bound_theorem1) == (1.0, 1.0, 1.0)
        assert m0.km_impurity is None and m0.n_leaves is None
        if test:
            assert m0.test_error == pytest.approx(np.mean(test["y_test"] == 1))
    else:
        assert start.tree.n_nodes == 1 and start.node is None and m0.n_leaves == 1
        for s in rounds:
            assert s.metrics.n_leaves == len(s.tree.leaves) == s.t + 1
    assert (m0.test_error is None) == (not test)
    np.testing.assert_allclose(
        m0.bound_margin, (1 + THETA_GRID) / (1 - THETA_GRID) * m0.bound_theorem1
    )
    # every step: Theorem 1 on the training sample
    for s in run:
        m = s.metrics
        assert m.train_error <= m.margin_error_0 + 1e-12
        assert m.margin_error_0 <= m.bound_theorem1 + 1e-12
        assert m.exp_loss <= m.bound_theorem1 * (1 + 1e-9) + 1e-12
    for s in rounds[1:]:
        if path:
            assert len(s.model) == s.t and s.round.j == s.t
        else:
            assert s.node is not None and len(s.separator) >= 1
    # the stop snapshot repeats the last round and says why in words
    last = rounds[-1]
    assert stop.t == last.t and stop.metrics is last.metrics
    if path:
        assert stop.model == last.model and stop.round is None
    else:
        assert stop.tree is last.tree and stop.node is None
    if last.t == T:
        assert stop.stop_reason in (
            f"All T = {T} rounds are done.",
            f"All n_internal = {T} splits are done.",
            f"All T2 = {T} splits are done.",
        )
    # flat, JSON-serialisable records that name the bounds by their theorem
    recs = [s.to_record() for s in run]
    json.dumps(recs, allow_nan=False)
    assert {"bound_theorem1", "exp_loss", "n_leaves", "km_impurity"} <= set(recs[-1])
    assert not {"bound", "margin_bound", "bound_margin"} & set(recs[-1])  # no arrays
    if path:
        assert {"h", "mu", "alpha", "weighted_error"} <= set(recs[1])
        assert recs[0]["h"] is None and recs[0]["n_leaves"] is None
    else:
        assert {"node", "left_child", "right_child", "n_weak", "separator"} <= set(recs[-1])
        if len(rounds) > 1:
            assert recs[1]["node"] == 0 and recs[1]["left_child"] == 1
    # snapshots pickle (st.cache_data)
    assert pickle.loads(pickle.dumps(stop)).stop_reason == stop.stop_reason


@pytest.mark.parametrize("name", list(GENERATORS))
@pytest.mark.parametrize("test", [True, False])
@pytest.mark.parametrize("seed", [0, 1])
def test_every_generator_and_option_follows_the_protocol(name: str, test: bool, seed: int):
    X, y, kw = _data(seed, test=test)
    run = list(GENERATORS[name](X, y, **kw))
    _check_g1(run, X, y, kw)


@pytest.mark.parametrize("name", list(GENERATORS))
def test_no_split_possible_is_start_then_stop(name: str):
    X = np.zeros((8, 2))
    y = np.array([0, 1] * 4)
    run = list(GENERATORS[name](X, y))
    _check_g1(run, X, y, {})
    assert [(s.t, s.kind) for s in run] == [(0, START), (0, STOP)]
    assert steps.stop_reason(run)
    assert len(steps.rounds(run)) == 1


def test_a_perfect_stump_stops_the_path_early_with_the_reason():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    run = list(g1_linear(X, y, n_rounds=5))
    _check_g1(run, X, y, {})
    assert [(s.t, s.kind) for s in run] == [(0, START), (1, STEP), (1, STOP)]
    assert "perfect" in steps.stop_reason(run)
    assert steps.final(run).metrics.train_error == 0


def test_pure_leaves_stop_the_trees_early_with_the_reason():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    for run in (list(g1_tree(X, y, n_internal=4)), list(boost_odt(X, y, n_internal=4))):
        _check_g1(run, X, y, {})
        assert [(s.t, s.kind) for s in run] == [(0, START), (1, STEP), (1, STOP)]
        assert "no leaf can be split" in steps.stop_reason(run)


def test_budget_reasons_name_the_parameter():
    X, y, _ = _data(3, m=120, test=False)
    assert steps.stop_reason(list(g1_linear(X, y, n_rounds=4))) == "All T = 4 rounds are done."
    assert (
        steps.stop_reason(list(g1_tree(X, y, n_internal=2)))
        == "All n_internal = 2 splits are done."
    )
    assert (
        steps.stop_reason(list(boost_odt(X, y, n_internal=2, n_stumps=2)))
        == "All T2 = 2 splits are done."
    )


SAMPLES = labelled_samples(
    max_n=40,
    levels=(2, 4, 1000),
    labels=("random",),
    classes=(0, 1),
    both="first_two",
    weights=True,
)


@given(SAMPLES, st.sampled_from(sorted(GENERATORS)))
@settings(max_examples=60, deadline=None)
def test_protocol_holds_on_random_data(sample, name):
    X, y, w = sample
    run = list(GENERATORS[name](X, y, sample_weight=w))
    steps.check_run(run)
    assert steps.final(run).metrics is steps.rounds(run)[-1].metrics
