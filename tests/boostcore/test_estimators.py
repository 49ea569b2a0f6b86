"""TopDownTreeClassifier: scikit-learn's estimator checks and the extras it adds."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.utils.estimator_checks import parametrize_with_checks

from boostcore.estimators import (
    BaseStepwiseClassifier,
    BoostODTClassifier,
    BPInfoBoostClassifier,
    ProbabilisticBoostClassifier,
    RealAdaBoostClassifier,
    TopDownTreeClassifier,
)
from boostcore.steps import STOP
from boostcore.topdown import grow


@parametrize_with_checks(
    [
        TopDownTreeClassifier(),
        TopDownTreeClassifier(max_arity=2, index="gini"),
        TopDownTreeClassifier(criterion="mansour_mcallester", gamma=0.2),
    ]
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def data(seed=0, n=200, d=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (np.sin(2 * X[:, 0]) + X[:, 1] + rng.normal(scale=0.4, size=n) > 0).astype(int)
    return X, y


@pytest.mark.parametrize(
    "params",
    [
        dict(),
        dict(size=7, max_arity=2, index="gini"),
        dict(size=20, criterion="naive", max_arity=5, index="entropy"),
        dict(size=12, criterion="mansour_mcallester", gamma=0.2, leaf_rule="max_gain"),
    ],
)
def test_staged_predict_and_apply(params):
    X, y = data()
    Xt, _ = data(seed=1, n=50)
    clf = TopDownTreeClassifier(**params).fit(X, y)
    staged = list(clf.staged_predict(Xt))
    assert len(staged) == len(clf.steps_) - 1  # the stop snapshot repeats the last round
    np.testing.assert_array_equal(staged[-1], clf.predict(Xt))
    for step, pred in zip(clf.steps_, staged):
        np.testing.assert_array_equal(pred, clf.classes_[(step.tree.predict(Xt) > 0).astype(int)])
    decisions = list(clf.staged_decision_function(Xt))
    assert len(decisions) == len(clf.steps_) - 1
    np.testing.assert_allclose(decisions[-1], clf.decision_function(Xt))
    assert clf.steps_[0].kind == "start"
    # apply: leaf ids of tree_, consistent with the tree's own routing
    leaves = clf.apply(Xt)
    assert set(np.unique(leaves)) <= set(clf.tree_.leaves.tolist())
    np.testing.assert_array_equal(leaves, clf.tree_.apply(Xt))
    assert clf.tree_ is clf.steps_[-1].tree is clf.final_step.tree
    assert clf.tree_.n_leaves <= clf.size
    assert clf.steps_[-1].kind == STOP
    if "budget" in clf.steps_[-1].stop_reason:
        assert clf.tree_.n_leaves == clf.size


def test_fit_equals_running_the_generator():
    X, y = data(2)
    params = dict(size=9, index="km", criterion="hatano", max_arity=4, gamma=None)
    clf = TopDownTreeClassifier(**params).fit(X, y)
    steps = list(grow(X, np.where(y == 1, 1, -1), **params))
    assert len(steps) == len(clf.steps_)
    for a, b in zip(steps, clf.steps_):
        assert a.message == b.message and a.split == b.split


def test_predict_proba_and_decision_function_agree():
    X, y = data(3)
    clf = TopDownTreeClassifier(size=10).fit(X, y)
    proba = clf.predict_proba(X)
    assert proba.shape == (X.shape[0], 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(clf.decision_function(X), 2 * proba[:, 1] - 1)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[(proba[:, 1] > 0.5).astype(int)])
    # training accuracy matches the last snapshot's training error
    assert 1 - clf.score(X, y) == pytest.approx(clf.steps_[-1].metrics.train_error, abs=1e-12)


def test_string_labels():
    X, y = data(4)
    names = np.where(y == 1, "spam", "ham")
    clf = TopDownTreeClassifier(size=8).fit(X, names)
    assert list(clf.classes_) == ["ham", "spam"]
    pred = clf.predict(X)
    assert set(pred) <= {"ham", "spam"}
    ref = TopDownTreeClassifier(size=8).fit(X, y)
    np.testing.assert_array_equal(pred == "spam", ref.predict(X) == 1)
    np.testing.assert_allclose(clf.predict_proba(X), ref.predict_proba(X))
    staged = list(clf.staged_predict(X))
    assert staged[-1].dtype == pred.dtype and set(staged[0]) <= {"ham", "spam"}


def test_unusual_numeric_labels():
    X, y = data(5)
    labels = np.where(y == 1, -3, 10)  # the larger label is the positive class
    clf = TopDownTreeClassifier(size=6).fit(X, labels)
    np.testing.assert_array_equal(clf.classes_, [-3, 10])
    assert clf.score(X, labels) > 0.7


def test_three_classes_raise():
    X, _ = data(6, n=30)
    y = np.arange(30) % 3
    with pytest.raises(ValueError, match="Only binary classification"):
        TopDownTreeClassifier().fit(X, y)


def test_one_class_fits_and_predicts_it():
    X, _ = data(7, n=30)
    clf = TopDownTreeClassifier(size=4).fit(X, np.full(30, "only"))
    assert list(clf.classes_) == ["only"]
    assert clf.steps_[-1].kind == STOP
    assert np.all(clf.predict(X) == "only")
    assert clf.predict_proba(X).shape == (30, 1)


def test_invalid_parameters_raise_at_fit():
    X, y = data(8, n=40)
    for params, name in [
        (dict(size=1), "size"),
        (dict(index="nope"), "index"),
        (dict(criterion="nope"), "criterion"),
        (dict(max_arity=1), "max_arity"),
        (dict(criterion="mansour_mcallester"), "gamma"),
        (dict(leaf_rule="nope"), "leaf_rule"),
    ]:
        with pytest.raises(ValueError, match=name):
            TopDownTreeClassifier(**params).fit(X, y)


def test_sample_weight_is_used():
    X, y = data(9, n=120)
    w = np.where(X[:, 0] > 0, 5.0, 1.0)
    a = TopDownTreeClassifier(size=5).fit(X, y, sample_weight=w)
    b = TopDownTreeClassifier(size=5).fit(X, y)
    c = TopDownTreeClassifier(size=5).fit(X, y, sample_weight=np.full(120, 3.0))
    assert a.steps_[1].split.leaf_q != pytest.approx(b.steps_[1].split.leaf_q)
    assert [s.message for s in b.steps_] == [s.message for s in c.steps_]


def test_clone_and_cross_validation():
    X, y = data(10, n=150)
    clf = TopDownTreeClassifier(size=6, criterion="naive")
    params = clone(clf).get_params()
    assert params["size"] == 6 and params["criterion"] == "naive"
    scores = cross_val_score(clf, X, y, cv=3)
    assert scores.shape == (3,) and np.all(scores > 0.6)


# ------------------------------------------------------------------ BPInfoBoostClassifier


@parametrize_with_checks(
    [
        BPInfoBoostClassifier(),
        BPInfoBoostClassifier(merge="none", n_rounds=6),
        BPInfoBoostClassifier(merge="all", weak="divided"),
    ]
)
def test_bp_sklearn_compatible(estimator, check):
    check(estimator)


def test_bp_staged_and_strings() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 2))
    y = np.where(X[:, 0] - X[:, 1] > 0, "yes", "no")
    clf = BPInfoBoostClassifier(n_rounds=7).fit(X, y)
    assert list(clf.classes_) == ["no", "yes"]
    staged = list(clf.staged_decision_function(X))
    assert len(staged) == 7
    assert np.allclose(staged[-1], clf.decision_function(X))
    assert set(clf.predict(X)) <= {"no", "yes"}
    proba = clf.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1) and np.all((proba >= 0) & (proba <= 1))
    assert np.array_equal(proba[:, 1] > 0.5, clf.predict(X) == "yes")
    with pytest.raises(ValueError, match="Only binary classification"):
        BPInfoBoostClassifier().fit(X, np.arange(150) % 3)


@parametrize_with_checks(
    [
        ProbabilisticBoostClassifier(),
        ProbabilisticBoostClassifier(structure="chain", n_weak=6),
        ProbabilisticBoostClassifier(structure="matryoshka", n_weak=8),
    ]
)
def test_probabilistic_sklearn_compatible(estimator, check):
    check(estimator)


def test_probabilistic_proba_is_the_models_q() -> None:
    rng = np.random.default_rng(5)
    X = rng.normal(size=(120, 2))
    y = np.where(X[:, 0] > 0, "b", "a")
    for structure in ("chain", "tree", "matryoshka"):
        clf = ProbabilisticBoostClassifier(structure=structure, n_weak=8).fit(X, y)
        p = clf.predict_proba(X)[:, 1]
        assert np.allclose(p, clf.model_.q_pos(X))
        assert np.array_equal(clf.predict(X) == "b", p > 0.5)
        assert np.mean(clf.predict(X) == y) > 0.8


# ------------------------------------------------------------------ RealAdaBoostClassifier
# issue 14, D: a scikit-learn weak learner is cloned and seeded as AdaBoostClassifier does it


def _bagged_trees():
    from sklearn.ensemble import BaggingClassifier
    from sklearn.tree import DecisionTreeClassifier

    return BaggingClassifier(DecisionTreeClassifier())


@pytest.mark.parametrize("n_estimators", [5, 30])
def test_real_adaboost_with_bagged_trees_is_sklearn_adaboost(n_estimators):
    from sklearn.ensemble import AdaBoostClassifier

    X, y = data(0, n=200)
    Xq, _ = data(1, n=400)
    ours = RealAdaBoostClassifier(
        n_estimators=n_estimators, weak=_bagged_trees(), random_state=0
    ).fit(X, y)
    ada = AdaBoostClassifier(_bagged_trees(), n_estimators=n_estimators, random_state=0).fit(X, y)
    assert len(ours.model_) == len(ada.estimators_) == n_estimators
    errors = [s.round.error for s in ours.steps_ if s.round is not None]
    np.testing.assert_allclose(errors, ada.estimator_errors_, rtol=1e-9, atol=1e-15)
    # SAMME's weight is ln((1 − ε)/ε) = 2α, and its binary decision_function is
    # 2 Σ w_e h_e / Σ w_e = 2 H / Σ α
    alphas = np.asarray(ours.model_.alphas)
    np.testing.assert_allclose(2 * alphas, ada.estimator_weights_, rtol=1e-9)
    np.testing.assert_allclose(
        2 * ours.decision_function(Xq) / alphas.sum(), ada.decision_function(Xq), atol=1e-9
    )
    np.testing.assert_array_equal(ours.predict(Xq), ada.predict(Xq))  # all 400
    np.testing.assert_array_equal(ours.predict(X), ada.predict(X))


def test_real_adaboost_leaves_the_users_weak_learner_untouched():
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    X, y = data(2, n=120)
    weak = _bagged_trees()
    inner = weak.estimator
    before = {k: repr(v) for k, v in weak.get_params(deep=True).items()}
    clf = RealAdaBoostClassifier(n_estimators=4, weak=weak, random_state=3).fit(X, y)
    assert {k: repr(v) for k, v in weak.get_params(deep=True).items()} == before
    assert weak.get_params()["random_state"] is None and inner.random_state is None
    assert weak.estimator is inner and clf.weak is weak
    for est in (weak, inner):
        with pytest.raises(NotFittedError):
            check_is_fitted(est)


def test_real_adaboost_copies_are_distinct_clones_seeded_like_sklearn():
    from sklearn.ensemble import AdaBoostClassifier

    X, y = data(3, n=120)
    weak = _bagged_trees()
    clf = RealAdaBoostClassifier(n_estimators=6, weak=weak, random_state=7).fit(X, y)
    ada = AdaBoostClassifier(_bagged_trees(), n_estimators=6, random_state=7).fit(X, y)
    copies = [h.estimator for h in clf.model_.hyps]
    assert len(copies) == 6
    assert len({id(e) for e in copies}) == 6 and all(e is not weak for e in copies)
    # deep clones: no copy shares the user's inner tree or another copy's
    inners = [e.estimator for e in copies]
    assert len({id(e) for e in inners}) == 6 and all(e is not weak.estimator for e in inners)
    keys = ("estimator__random_state", "random_state")
    seeds = [tuple(e.get_params()[k] for k in keys) for e in copies]
    # one draw per random_state parameter, in sorted key order, from one RandomState
    assert seeds == [tuple(e.get_params()[k] for k in keys) for e in ada.estimators_]
    assert len({s for pair in seeds for s in pair}) == 12
    # the hypotheses of the snapshots are the fitted copies (no wrapper is left behind)
    assert clf.steps_[-1].model.hyps[0].estimator is copies[0]
    assert clf.steps_[0].kind == "start" and clf.steps_[0].round is None
    assert "BaggingClassifier" in clf.steps_[1].message
    assert clf.steps_[1].round.hyp.describe() == "BaggingClassifier"


def test_real_adaboost_random_state_none_and_instance_like_sklearn():
    from sklearn.ensemble import AdaBoostClassifier

    X, y = data(4, n=100)
    rs_ours, rs_ada = np.random.RandomState(11), np.random.RandomState(11)
    ours = RealAdaBoostClassifier(n_estimators=3, weak=_bagged_trees(), random_state=rs_ours).fit(
        X, y
    )
    ada = AdaBoostClassifier(_bagged_trees(), n_estimators=3, random_state=rs_ada).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), ada.predict(X))
    assert rs_ours.randint(1000) == rs_ada.randint(1000)  # consumed alike
    # None: sklearn's global RandomState, as AdaBoostClassifier(random_state=None)
    np.random.seed(5)
    ours = RealAdaBoostClassifier(n_estimators=3, weak=_bagged_trees()).fit(X, y)
    np.random.seed(5)
    ada = AdaBoostClassifier(_bagged_trees(), n_estimators=3).fit(X, y)
    assert [h.estimator.random_state for h in ours.model_.hyps] == [
        e.random_state for e in ada.estimators_
    ]


@pytest.mark.parametrize("weak", ["stump", "sklearn_stump"])
def test_real_adaboost_separating_stump_decision_function_vs_sklearn(weak):
    """A stump that separates the data: μ = 1 is clipped to 1 − MU_CLIP, so α ≈ 14.16, while
    scikit-learn stores the placeholder weight 1.0 for a perfect estimator; both stop after it.
    With one term the normalised ``2 H / Σ α`` still equals scikit-learn's decision_function
    (``4 H / Σ w_e`` does not: it assumes ``w_e = 2 α_e``)."""
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    from boostcore.realboost import MU_CLIP

    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 3))
    y = (X[:, 1] > 0.2).astype(int)
    learner = DecisionTreeClassifier(max_depth=1) if weak == "sklearn_stump" else weak
    ours = RealAdaBoostClassifier(n_estimators=10, weak=learner, random_state=0).fit(X, y)
    ada = AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=1), n_estimators=10, random_state=0
    ).fit(X, y)
    assert len(ours.model_) == len(ada.estimators_) == 1
    alpha = ours.model_.alphas[0]
    assert alpha == pytest.approx(np.arctanh(1 - MU_CLIP))
    assert alpha == pytest.approx(14.162, abs=1e-3)
    assert ada.estimator_weights_.sum() == 1.0
    Xq = rng.normal(size=(400, 3))
    H = ours.decision_function(Xq)
    np.testing.assert_allclose(np.abs(H), alpha)
    np.testing.assert_allclose(2 * H / alpha, ada.decision_function(Xq), atol=1e-12)
    np.testing.assert_array_equal(ours.predict(Xq), ada.predict(Xq))
    # the documented difference: predict_proba uses the logistic link on H itself
    assert np.all(ours.predict_proba(Xq).max(axis=1) > 1 - 1e-12)
    np.testing.assert_allclose(ada.predict_proba(Xq).max(axis=1), 1 / (1 + np.exp(-2.0)))


def test_real_adaboost_perfect_round_after_others_is_weighted_unlike_sklearn():
    """The documented difference: a perfect hypothesis after earlier rounds gets α ≈ 14.16
    here and scikit-learn's weight 1.0 (α = ½ in our units) there."""
    from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier
    from sklearn.tree import DecisionTreeClassifier

    from boostcore.realboost import MU_CLIP, Additive

    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 2))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0.3)).astype(int)

    def weak():
        return BaggingClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=3)

    ours = RealAdaBoostClassifier(n_estimators=20, weak=weak(), random_state=4).fit(X, y)
    ada = AdaBoostClassifier(weak(), n_estimators=20, random_state=4).fit(X, y)
    n = len(ada.estimators_)
    assert n == len(ours.model_) > 1 and ada.estimator_errors_[n - 1] == 0
    alphas = ours.model_.alphas
    assert alphas[-1] == pytest.approx(np.arctanh(1 - MU_CLIP))
    np.testing.assert_allclose(
        2 * np.asarray(alphas[:-1]), ada.estimator_weights_[: n - 1], rtol=1e-9
    )
    assert ada.estimator_weights_[n - 1] == 1.0
    Xq = rng.normal(size=(400, 2))
    as_sklearn = Additive(ours.model_.hyps, alphas[:-1] + (0.5,))
    np.testing.assert_allclose(
        2 * as_sklearn.decision_function(Xq) / sum(as_sklearn.alphas),
        ada.decision_function(Xq),
        atol=1e-9,
    )
    assert (ours.predict(Xq) != ada.predict(Xq)).any()
    assert ours.score(X, y) == 1.0


# ------------------------------------------------------------------ BaseStepwiseClassifier
# issue 23, item 7: one base holds the plumbing, each estimator how a snapshot scores X

EVERY_ESTIMATOR = [
    TopDownTreeClassifier(size=6),
    BPInfoBoostClassifier(n_rounds=5),
    ProbabilisticBoostClassifier(n_weak=4),
    ProbabilisticBoostClassifier(structure="chain", n_weak=4),
    RealAdaBoostClassifier(n_estimators=6),
    BoostODTClassifier(n_internal=3, n_stumps=3),
]


@pytest.mark.parametrize("estimator", EVERY_ESTIMATOR, ids=repr)
def test_every_estimator_predicts_through_the_base(estimator):
    X, y = data(11, n=120)
    clf = clone(estimator).fit(X, np.where(y == 1, "spam", "ham"))
    assert isinstance(clf, BaseStepwiseClassifier)
    F, proba, pred = clf.decision_function(X), clf.predict_proba(X), clf.predict(X)
    np.testing.assert_array_equal(pred, clf.classes_[(F > 0).astype(int)])
    np.testing.assert_array_equal(pred == "spam", proba[:, 1] > 0.5)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    staged_F, staged = list(clf.staged_decision_function(X)), list(clf.staged_predict(X))
    assert len(staged) == len(staged_F) >= 1
    np.testing.assert_allclose(staged_F[-1], F)
    np.testing.assert_array_equal(staged[-1], pred)
    for f, p in zip(staged_F, staged):
        np.testing.assert_array_equal(p, clf.classes_[(f > 0).astype(int)])


@pytest.mark.parametrize("estimator", EVERY_ESTIMATOR, ids=repr)
def test_one_class_is_predicted_with_the_dtype_of_classes(estimator):
    X, _ = data(12, n=40)
    clf = clone(estimator).fit(X, np.array(["only"] * 40, dtype=object))
    pred = clf.predict(X)
    assert pred.dtype == clf.classes_.dtype == object and np.all(pred == "only")
    assert clf.predict_proba(X).shape == (40, 1)
    assert all(np.all(p == "only") for p in clf.staged_predict(X))


def test_a_subclass_must_say_how_a_snapshot_scores():
    with pytest.raises(TypeError, match="_decision or _proba_pos"):

        class NoScore(BaseStepwiseClassifier):
            pass
