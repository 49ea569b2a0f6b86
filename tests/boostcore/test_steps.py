"""The step protocol (boostcore/steps.py) on every generator: one parametrised test.

Every algorithm's generator yields ``start`` (t = 0), one ``step`` per step (t += 1) and a
``stop`` that repeats the last round with the reason; metrics are never None and use the
same names for the same quantities; ``to_record()`` is flat and JSON-serialisable.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore import game, steps
from boostcore.branching import bp_infoboost
from boostcore.datasets import make_dataset
from boostcore.oblique import boost_odt, g1_tree
from boostcore.probabilistic import collapse_tree, matryoshka, prob_adaboost, prob_tree
from boostcore.realboost import g1_linear
from boostcore.topdown import grow
from tests.strategies import labelled_samples

#: name → (generator call on (X, y, X_test, y_test), has leaves, is a tree-like budget run)
GENERATORS = {
    "grow hatano": lambda X, y, Xt, yt: grow(X, y, size=6, X_test=Xt, y_test=yt),
    "grow mansour_mcallester": lambda X, y, Xt, yt: grow(
        X, y, size=6, criterion="mansour_mcallester", gamma=0.2, X_test=Xt, y_test=yt
    ),
    "grow naive max_gain": lambda X, y, Xt, yt: grow(
        X, y, size=6, criterion="naive", leaf_rule="max_gain", X_test=Xt, y_test=yt
    ),
    "grow binary": lambda X, y, Xt, yt: grow(X, y, size=5, max_arity=2, X_test=Xt, y_test=yt),
    "bp_infoboost bands": lambda X, y, Xt, yt: bp_infoboost(
        X, y, n_rounds=5, merge="bands", X_test=Xt, y_test=yt
    ),
    "bp_infoboost all (InfoBoost)": lambda X, y, Xt, yt: bp_infoboost(
        X, y, n_rounds=5, merge="all", X_test=Xt, y_test=yt
    ),
    "bp_infoboost none (DT.InfoBoost)": lambda X, y, Xt, yt: bp_infoboost(
        X, y, n_rounds=4, merge="none", X_test=Xt, y_test=yt
    ),
    "prob_adaboost": lambda X, y, Xt, yt: prob_adaboost(
        X, y, n_rounds=4, mc_samples=200, X_test=Xt, y_test=yt
    ),
    "prob_tree": lambda X, y, Xt, yt: prob_tree(X, y, n_internal=4, X_test=Xt, y_test=yt),
    "collapse_tree": lambda X, y, Xt, yt: collapse_tree(X, y, n_internal=4, X_test=Xt, y_test=yt),
    "matryoshka": lambda X, y, Xt, yt: matryoshka(X, y, levels=2, X_test=Xt, y_test=yt),
    "g1_linear": lambda X, y, Xt, yt: g1_linear(X, y, n_rounds=5, X_test=Xt, y_test=yt),
    "g1_tree": lambda X, y, Xt, yt: g1_tree(X, y, n_internal=4, X_test=Xt, y_test=yt),
    "boost_odt": lambda X, y, Xt, yt: boost_odt(
        X, y, n_internal=3, n_stumps=3, X_test=Xt, y_test=yt
    ),
}
#: the generators whose model has leaves (``metrics.n_leaves`` is an int)
WITH_LEAVES = {k for k in GENERATORS if not k.startswith(("prob_adaboost", "g1_linear"))}


def _data(seed: int = 0, n: int = 120):
    ds = make_dataset("moons", n=n, noise=0.25, random_state=seed, test_fraction=0.25)
    return ds.X_train, ds.y_train, ds.X_test, ds.y_test


def _check_common_metrics(run, name: str, with_test: bool) -> None:
    for s in run:
        m = s.metrics
        assert isinstance(m, steps.Metrics), name
        assert 0.0 <= m.train_error <= 1.0, (name, s.t, m.train_error)
        if with_test:
            assert m.test_error is not None and 0.0 <= m.test_error <= 1.0, (name, s.t)
        else:
            assert m.test_error is None, (name, s.t)
        if name in WITH_LEAVES:
            assert isinstance(m.n_leaves, int) and m.n_leaves >= 1, (name, s.t, m.n_leaves)
        bad = [k for k in m.as_dict() if "bound" in k and not k.startswith("bound_")]
        assert not bad, f"{name}: bound values are named bound_…; got {bad}"


@pytest.mark.parametrize("name", sorted(GENERATORS))
@pytest.mark.parametrize("with_test", [True, False], ids=["test set", "no test set"])
def test_every_generator_follows_the_step_protocol(name: str, with_test: bool) -> None:
    X, y, Xt, yt = _data()
    run = list(GENERATORS[name](X, y, Xt if with_test else None, yt if with_test else None))
    steps.check_run(run)
    assert [s.t for s in run] == list(range(len(run) - 1)) + [len(run) - 2]
    _check_common_metrics(run, name, with_test)
    assert steps.stop_reason(run) == run[-1].stop_reason
    assert len(steps.rounds(run)) == len(run) - 1
    for s in run:
        rec = s.to_record()
        assert list(rec)[:2] == ["t", "kind"]
        json.dumps(rec, allow_nan=False)  # plain JSON: no nan, no numpy values
        assert rec["train_error"] == pytest.approx(s.metrics.train_error)
    # snapshots are frozen: the protocol's fields cannot be changed after the fact
    with pytest.raises(AttributeError):
        run[0].t = 5


@pytest.mark.parametrize("adversary", ["equal", "random"])
def test_the_games_positions_follow_the_step_protocol(adversary: str) -> None:
    adv = game.equal_binary_adversary if adversary == "equal" else game.random_adversary(3)
    run = list(game.play(9, 0.15, game.max_weight_player, adv))
    steps.check_run(run)
    assert [s.t for s in run] == [len(s.history) for s in run]
    # Theorem 3: against the max-weight player the game ends at most w·φ_γ(s) ≤ w·s^−γ
    final = run[-1].metrics
    assert final.total_weight <= final.bound_theorem3 + 1e-12 <= final.bound_power + 2e-12
    for s in run:
        assert s.metrics.n_leaves == s.n_leaves and s.metrics.total_weight == s.total
        json.dumps(s.to_record(), allow_nan=False)
    one = list(game.play(1, 0.2))  # over before the first move: start, then stop
    steps.check_run(one)
    assert [(s.t, s.kind) for s in one] == [(0, "start"), (0, "stop")]


def test_a_run_that_cannot_start_says_why_in_its_stop_snapshot() -> None:
    X = np.zeros((6, 2))
    y = np.array([0, 1, 0, 1, 0, 1])
    for name in ("grow hatano", "bp_infoboost bands", "g1_tree"):
        run = list(GENERATORS[name](X, y, None, None))
        steps.check_run(run)
        assert run[-1].stop_reason, name


def test_check_run_names_the_broken_rule() -> None:
    X, y, _, _ = _data()
    run = list(grow(X, y, size=4))
    with pytest.raises(AssertionError, match="last snapshot is stop"):
        steps.check_run(run[:-1])
    with pytest.raises(AssertionError, match="first snapshot is start"):
        steps.check_run(run[1:])
    with pytest.raises(AssertionError, match="t=3 after t=1"):
        steps.check_run([run[0], run[1], run[3], run[4]])


@settings(max_examples=25, deadline=None)
@given(
    data=labelled_samples(
        min_n=12,
        min_d=2,
        max_d=2,
        ties=("fine",),  # rounding makes ties and duplicate points
        labels=("random",),
        classes=(0, 1),
        both="first_two",
    ),
    name=st.sampled_from(sorted(GENERATORS)),
)
def test_the_protocol_holds_on_random_data(data, name: str) -> None:
    X, y = data
    run = list(GENERATORS[name](X, y, None, None))
    steps.check_run(run)
    _check_common_metrics(run, name, with_test=False)
