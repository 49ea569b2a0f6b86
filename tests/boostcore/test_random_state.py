"""One randomness convention (issue 15, item 3): every boostcore function that draws takes
``random_state`` — None (fresh entropy), an int ≥ 0 (a seed: reproducible) or a
``numpy.random.Generator`` — normalised by ``boostcore._validation.check_random_state``;
anything else is a ``ValueError`` naming ``random_state``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from boostcore import csvdata, datasets, evaluation, game, oblique, probabilistic, realboost
from boostcore._validation import check_random_state, seed_of
from boostcore.estimators import ProbabilisticBoostClassifier

_CSV = "x1,x2,label\n" + "".join(f"{i % 7},{(3 * i) % 5},{'ab'[i % 2]}\n" for i in range(40))
_X = np.random.default_rng(0).normal(size=(40, 2))
_Y = np.where(_X[:, 0] + 0.3 * _X[:, 1] > 0, 1, -1)


def _fingerprint(value) -> tuple:
    """Numbers that change when the draws change."""
    if isinstance(value, datasets.Dataset):
        return tuple(np.round(value.X_train.ravel()[:12], 12)) + tuple(value.y_test.tolist())
    return tuple(np.round(np.asarray(value, dtype=float).ravel(), 12))


#: name → function of ``random_state`` returning something that depends on the draws
DRAWS = {
    "make_dataset": lambda rs: datasets.make_dataset("moons", n=60, random_state=rs),
    "from_points": lambda rs: datasets.from_points(_X, _Y, test_fraction=0.3, random_state=rs),
    "load_csv": lambda rs: csvdata.load_csv(_CSV, test_fraction=0.3, random_state=rs),
    # the Monte Carlo worlds (the reported error is exact for so short a chain)
    "prob_adaboost": lambda rs: (
        list(probabilistic.prob_adaboost(_X, _Y, n_rounds=3, mc_samples=50, random_state=rs))[-1]
        .model.sample_H(_X)
        .ravel()
    ),
    "prob_tree (MAP estimates)": lambda rs: [
        s.metrics.bound_C
        for s in probabilistic.prob_tree(_X, _Y, n_internal=3, samples=2, random_state=rs)
    ],
    "map_estimate": lambda rs: probabilistic.map_estimate(np.full(30, 0.5), 3, rs, 1),
    "game.random_adversary": lambda rs: [
        s.total for s in game.play(12, 0.1, adversary=game.random_adversary(rs))
    ],
    "g1_linear (scikit-learn weak learner)": lambda rs: [
        s.metrics.exp_loss
        for s in realboost.g1_linear(
            _X,
            _Y,
            n_rounds=3,
            weak=DecisionTreeClassifier(max_depth=1, max_features=1),
            random_state=rs,
        )
    ],
    "ProbabilisticBoostClassifier": lambda rs: (
        ProbabilisticBoostClassifier(structure="chain", n_weak=3, random_state=rs)
        .fit(_X, _Y)
        .predict_proba(_X[:10])
    ),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_every_drawing_function_follows_the_convention(name: str) -> None:
    draw = DRAWS[name]
    a, b = _fingerprint(draw(5)), _fingerprint(draw(5))
    assert a == b, "the same int seed gives the same draws"
    gen = _fingerprint(draw(np.random.default_rng(5)))
    assert gen == _fingerprint(draw(np.random.default_rng(5))), "a Generator is used"
    _fingerprint(draw(None))  # fresh entropy is accepted
    for bad in (-1, 1.5, "7", True):
        with pytest.raises(ValueError, match="random_state"):
            draw(bad)


@pytest.mark.parametrize("name", ["make_dataset", "from_points", "load_csv", "prob_adaboost"])
def test_different_seeds_give_different_draws(name: str) -> None:
    draws = {_fingerprint(DRAWS[name](seed)) for seed in range(4)}
    assert len(draws) > 1


def test_the_defaults_are_reproducible() -> None:
    """Pages need the same picture on every run: the defaults are seeds, not None."""
    for fn in (
        datasets.make_dataset,
        datasets.from_points,
        csvdata.load_csv,
        csvdata.load_csv_report,
        probabilistic.prob_adaboost,
        probabilistic.prob_tree,
        game.random_adversary,
    ):
        assert inspect.signature(fn).parameters["random_state"].default == 0, fn.__name__
    assert ProbabilisticBoostClassifier().random_state == 0


def test_no_core_function_takes_a_seed_parameter() -> None:
    """One word for the concept: ``random_state`` (``Chain.seed`` is a model's stored seed)."""
    for mod in (csvdata, datasets, evaluation, game, oblique, probabilistic, realboost):
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ == mod.__name__ and not name.startswith("_"):
                assert "seed" not in inspect.signature(fn).parameters, f"{mod.__name__}.{name}"


def test_check_random_state_and_seed_of() -> None:
    g = np.random.default_rng(0)
    assert check_random_state(g) is g
    assert isinstance(check_random_state(None), np.random.Generator)
    assert seed_of(9) == 9 and 0 <= seed_of(None) < 2**32
    with pytest.raises(ValueError, match="random_state must be None, an int ≥ 0"):
        check_random_state(np.random.RandomState(0))
