"""The step protocol (boostcore/steps.py) for BP.InfoBoost: every merging scheme and weak
learner, runs that use their budget and runs that stop early (issue 15, item 1)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore import steps
from boostcore.branching import MERGES, START, STEP, STOP, WEAK_LEARNERS, bp_infoboost
from tests.strategies import labelled_samples


def _data(seed: int, m: int = 60, d: int = 2, test: bool = True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=m) > 0, 1, -1)
    if test:
        return X[:40], y[:40], X[40:], y[40:]
    return X, y, None, None


@pytest.mark.parametrize("merge", MERGES)
@pytest.mark.parametrize("wl", WEAK_LEARNERS)
@pytest.mark.parametrize("test", [True, False])
@pytest.mark.parametrize("seed", [0, 1])
def test_every_option_follows_the_protocol(merge: str, wl: str, test: bool, seed: int) -> None:
    X, y, Xt, yt = _data(seed, test=test)
    T = 6
    run = list(bp_infoboost(X, y, n_rounds=T, merge=merge, c=0.4, weak=wl, X_test=Xt, y_test=yt))
    steps.check_run(run)
    start, stop = run[0], run[-1]
    # t = 0: F_0 = 0 predicts −1 everywhere; empty products; the root is the only leaf
    m0 = start.metrics
    assert m0.train_error == pytest.approx(np.mean(y == 1))
    assert (m0.test_error is None) == (not test)
    if test:
        assert m0.test_error == pytest.approx(np.mean(yt == 1))
    assert (m0.n_leaves, m0.bound_prod_Z, m0.prod_H_h) == (1, 1.0, 1.0)
    assert math.isnan(m0.Z) and math.isnan(m0.gamma)
    assert start.program.rounds == () and start.feature is None
    assert np.all(start.program.decision_function(X) == 0)
    # one step per round, then a stop that repeats the last snapshot
    rounds = steps.rounds(run)
    assert [s.t for s in rounds] == list(range(len(rounds)))
    assert stop.t == rounds[-1].t and stop.metrics is rounds[-1].metrics
    assert stop.program is rounds[-1].program
    if rounds[-1].t == T:
        assert stop.stop_reason == f"All T = {T} rounds are done."
    for s in rounds[1:]:
        assert s.kind == STEP and len(s.program.rounds) == s.t
    # records are flat, JSON-serialisable and name the bounds by their theorem
    recs = [s.to_record() for s in run]
    json.dumps(recs, allow_nan=False)
    assert {"bound_prod_Z", "bound_theorem3", "feature", "threshold"} <= set(recs[-1])
    assert "prod_Z" not in recs[-1] and "band_bound" not in recs[-1]
    assert (recs[-1]["bound_theorem3"] is None) == (merge != "bands")


def test_a_run_without_any_round_is_start_then_stop() -> None:
    X = np.zeros((10, 2))
    y = np.array([1, -1] * 5)
    run = list(bp_infoboost(X, y, n_rounds=5))
    steps.check_run(run)
    assert [(s.t, s.kind) for s in run] == [(0, START), (0, STOP)]
    assert "two different values" in steps.stop_reason(run)
    assert len(steps.rounds(run)) == 1


def test_a_run_without_information_stops_with_the_paper_reason() -> None:
    X = np.array([[0.0], [1.0]] * 5)
    y = np.array([1, -1, -1, 1] * 2 + [1, -1])
    run = list(bp_infoboost(X, y, n_rounds=4))
    steps.check_run(run)
    assert run[-1].kind == STOP and "no information" in run[-1].stop_reason
    assert run[-1].t == run[-2].t


def test_dt_infoboost_stops_before_the_cap(monkeypatch) -> None:
    import boostcore.branching as br

    monkeypatch.setattr(br, "MAX_LEAVES", 8)
    X, y, _, _ = _data(3, m=200, test=False)
    run = list(bp_infoboost(X, y, n_rounds=20, merge="none"))
    steps.check_run(run)
    assert "8 leaves" in run[-1].stop_reason and run[-1].t < 20


SAMPLES = labelled_samples(
    min_n=4, max_n=40, ties=("none", "coarse"), labels=("random",), p_positive=(0.1, 0.9)
)


@settings(max_examples=40, deadline=None)
@given(
    data=SAMPLES,
    merge=st.sampled_from(MERGES),
    wl=st.sampled_from(WEAK_LEARNERS),
    c=st.floats(0.05, 0.95),
    T=st.integers(1, 10),
)
def test_the_protocol_holds_on_random_data(data, merge, wl, c, T) -> None:
    X, y = data
    run = list(bp_infoboost(X, y, n_rounds=T, merge=merge, c=c, weak=wl))
    steps.check_run(run)
    assert len(steps.rounds(run)) <= T + 1
    assert steps.final(run).metrics.train_error <= steps.final(run).metrics.bound_prod_Z + 1e-9
