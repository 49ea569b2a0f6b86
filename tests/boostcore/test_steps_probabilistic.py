"""The step protocol (boostcore/steps.py) on every probabilistic-boosting generator: start at
t = 0 with the initial model's real metrics, one step per weak classifier (chain, tree,
collapse) or per level of nesting (matryoshka), a stop snapshot that repeats the last one."""

from __future__ import annotations

import json
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore import steps
from boostcore.probabilistic import (
    ProbMetrics,
    ProbStep,
    collapse_tree,
    matryoshka,
    prob_adaboost,
    prob_tree,
)
from tests.strategies import labelled_samples


def _data(seed: int = 0, m: int = 40, test: bool = True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=m) > 0, 1, -1)
    y[:2] = (-1, 1)
    if not test:
        return X, y, {}
    Xt = rng.normal(size=(15, 2))
    yt = np.where(Xt[:, 0] > 0, 1, -1)
    return X, y, {"X_test": Xt, "y_test": yt}


#: name → call(X, y, size, **kw): a run of ``size`` steps (weak classifiers; matryoshka levels)
GENERATORS = {
    "chain": lambda X, y, n, **kw: prob_adaboost(X, y, n_rounds=n, mc_samples=50, **kw),
    "chain-map": lambda X, y, n, **kw: prob_adaboost(
        X, y, n_rounds=n, mc_samples=50, samples=5, **kw
    ),
    "tree": lambda X, y, n, **kw: prob_tree(X, y, n_internal=n, **kw),
    "tree-map": lambda X, y, n, **kw: prob_tree(
        X, y, n_internal=n, samples=3, random_state=2, **kw
    ),
    "tree-soft": lambda X, y, n, **kw: prob_tree(X, y, n_internal=n, softness=2.0, **kw),
    "collapse": lambda X, y, n, **kw: collapse_tree(X, y, n_internal=n, **kw),
    "matryoshka": lambda X, y, n, **kw: matryoshka(X, y, levels=n, **kw),
}


def _structure(name: str) -> str:
    return name.split("-")[0]


def _check_family_rules(run: list, name: str, size: int) -> None:
    """What the protocol means for this family, beyond :func:`steps.check_run`."""
    steps.check_run(run)
    assert len(run) == size + 2  # start, one per step, stop
    assert [s.t for s in run] == list(range(size + 1)) + [size]
    structure = _structure(name)
    for s in run:
        assert isinstance(s, ProbStep) and isinstance(s.metrics, ProbMetrics)
        assert s.structure == structure
        m = s.metrics
        n = 2**s.t if structure == "matryoshka" and s.t else s.t
        assert m.n_weak == n
        assert (len(s.model.stumps) if structure == "chain" else s.model.n_weak) == n
        rec = s.to_record()
        json.dumps(rec)  # flat and JSON-serialisable
        assert rec["n_weak"] == n and rec["structure"] == structure
        assert rec["level"] == (s.t if structure == "matryoshka" else None)
    start, stop = run[0], run[-1]
    m0 = start.metrics
    assert m0.train_error == 0.5 and m0.bound_C == 1.0  # H = 0: every answer a fair coin
    assert m0.bound_F == 1.0 and m0.bound_rho_T == 1.0 and m0.bound_M2 is None
    assert math.isnan(m0.rho_hat)  # no weak classifier yet
    assert m0.test_error in (0.5, None)
    assert start.stump is None and start.D is None
    assert stop.metrics == run[-2].metrics and stop.model is run[-2].model
    assert stop.stop_reason and stop.message != run[-2].message
    assert all(s.stop_reason is None for s in run[:-1])


@pytest.mark.parametrize("name", list(GENERATORS))
@pytest.mark.parametrize("size", [1, 3])
@pytest.mark.parametrize("test", [True, False])
def test_every_generator_follows_the_protocol(name: str, size: int, test: bool) -> None:
    X, y, kw = _data(size, test=test)
    run = list(GENERATORS[name](X, y, size, **kw))
    _check_family_rules(run, name, size)
    assert (run[0].metrics.test_error is None) == (not test)


@pytest.mark.parametrize("name", list(GENERATORS))
def test_snapshots_pickle_and_repeat(name: str) -> None:
    X, y, kw = _data(7)
    run = list(GENERATORS[name](X, y, 2, **kw))
    again = list(GENERATORS[name](X, y, 2, **kw))
    assert [s.to_record() for s in run] == [s.to_record() for s in again]
    back = pickle.loads(pickle.dumps(run))
    assert [s.to_record() for s in back] == [s.to_record() for s in run]
    assert steps.rounds(run) == run[:-1] and steps.final(run) is run[-1]


def test_stop_reasons_say_the_budget() -> None:
    X, y, _ = _data(1)
    assert list(prob_tree(X, y, n_internal=2))[-1].stop_reason == (
        "All T = 2 weak classifiers are trained (the budget)."
    )
    assert list(matryoshka(X, y, levels=2))[-1].stop_reason == (
        "All L = 2 levels are built: the doll holds 2^L = 4 soft stumps."
    )


def test_chain_start_is_the_empty_chain() -> None:
    X, y, kw = _data(3)
    start = next(prob_adaboost(X, y, n_rounds=2, mc_samples=40, **kw))
    assert start.kind == steps.START and start.model.stumps == ()
    assert np.all(start.model.q_pos(X) == 0.5)
    assert start.metrics.mc_stderr is None and start.metrics.test_error == 0.5  # exact


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(list(GENERATORS)),
    data=labelled_samples(
        max_n=40, min_d=2, max_d=2, ties=("fine",), labels=("random",), both="first_two"
    ),
    size=st.integers(1, 3),
    tau=st.sampled_from([0.05, 0.3, 1.0]),
)
def test_protocol_holds_on_random_data(name, data, size, tau) -> None:
    X, y = data  # ties happen
    call = GENERATORS[name]
    kw = {} if name == "tree-soft" else {"softness": tau}
    run = list(call(X, y, size, **kw))
    _check_family_rules(run, name, size)
    for s in run[1:]:  # the bounds hold at every snapshot
        if _structure(name) != "chain" and "map" not in name:
            assert s.metrics.train_error <= s.metrics.bound_C + 1e-12
