"""Issue 15, item 2: one validator for every generator and estimator.

Every generator and every scikit-learn estimator × every bad input raises a ``ValueError``
that names the parameter (never a ``TypeError``, never a silent acceptance); generators raise
at call time, before the first snapshot. The rules live in ``boostcore/_validation.py``
(``check_xy`` and ``check_test_set``); the behaviour with string and single-class labels is
the same across generators, except that the probabilistic generators reject a single class.
"""

from __future__ import annotations

import numpy as np
import pytest

from boostcore.branching import bp_infoboost
from boostcore.estimators import (
    BoostODTClassifier,
    BPInfoBoostClassifier,
    ProbabilisticBoostClassifier,
    RealAdaBoostClassifier,
    TopDownTreeClassifier,
)
from boostcore.oblique import boost_odt, g1_tree
from boostcore.probabilistic import collapse_tree, matryoshka, prob_adaboost, prob_tree
from boostcore.realboost import g1_linear
from boostcore.topdown import grow

RNG = np.random.default_rng(0)
X0 = RNG.normal(size=(20, 2))
Y0 = np.where(X0[:, 0] + 0.3 * X0[:, 1] > 0, 1, -1)
S0 = np.where(Y0 > 0, "spam", "ham")  # "spam" > "ham": the +1 class


def _nan(X, value=np.nan):
    X = X.copy()
    X[3, 1] = value
    return X


# name -> (call(X, y, **kw), takes sample_weight, accepts a single training class)
GENERATORS = {
    "grow": (lambda X, y, **kw: grow(X, y, size=4, **kw), True, True),
    "bp_infoboost-all": (
        lambda X, y, **kw: bp_infoboost(X, y, n_rounds=2, merge="all", **kw),
        False,
        True,
    ),
    "bp_infoboost-none": (
        lambda X, y, **kw: bp_infoboost(X, y, n_rounds=2, merge="none", **kw),
        False,
        True,
    ),
    "bp_infoboost-bands": (
        lambda X, y, **kw: bp_infoboost(X, y, n_rounds=2, merge="bands", **kw),
        False,
        True,
    ),
    "prob_adaboost": (
        lambda X, y, **kw: prob_adaboost(X, y, n_rounds=2, mc_samples=20, **kw),
        False,
        False,
    ),
    "prob_tree": (lambda X, y, **kw: prob_tree(X, y, n_internal=2, **kw), False, False),
    "matryoshka": (lambda X, y, **kw: matryoshka(X, y, levels=1, **kw), False, False),
    "collapse_tree": (lambda X, y, **kw: collapse_tree(X, y, n_internal=2, **kw), False, False),
    "g1_linear": (lambda X, y, **kw: g1_linear(X, y, n_rounds=2, **kw), True, True),
    "g1_tree": (lambda X, y, **kw: g1_tree(X, y, n_internal=2, **kw), True, True),
    "boost_odt": (lambda X, y, **kw: boost_odt(X, y, n_internal=2, n_stumps=2, **kw), True, True),
}

# name -> (X, y, extra keyword arguments, regex the message must match)
BAD_DATA = {
    "X-nan": (_nan(X0), Y0, {}, r"^X must not contain NaN"),
    "X-inf": (_nan(X0, np.inf), Y0, {}, r"^X must not contain NaN or infinity"),
    "X-strings": (np.full((20, 2), "a"), Y0, {}, r"^X must hold numbers"),
    "X-1d": (X0[:, 0], Y0, {}, r"^X must be a 2-D array"),
    "y-nan": (X0, np.where(Y0 > 0, 1.0, np.nan), {}, r"^y must not contain missing labels"),
    "y-none": (X0, np.where(Y0 > 0, "a", None), {}, r"^y must not contain missing labels"),
    "y-mixed-types": (
        X0,
        np.array(["a" if v > 0 else 1 for v in Y0], dtype=object),
        {},
        r"^y labels must be of one comparable type",
    ),
    "y-three-classes": (X0, np.arange(20) % 3, {}, r"^y has 3 classes"),
    "y-short": (X0, Y0[:-1], {}, r"^y must be 1-D with one label per row of X"),
    "X_test-alone": (X0, Y0, {"X_test": X0}, r"X_test and y_test must be given together"),
    "y_test-alone": (X0, Y0, {"y_test": Y0}, r"X_test and y_test must be given together"),
    "X_test-columns": (
        X0,
        Y0,
        {"X_test": X0[:, :1], "y_test": Y0},
        r"^X_test must have 2 columns like X",
    ),
    "X_test-1d": (X0, Y0, {"X_test": X0[:, 0], "y_test": Y0}, r"^X_test must have 2 columns"),
    "X_test-nan": (X0, Y0, {"X_test": _nan(X0), "y_test": Y0}, r"^X_test must not contain NaN"),
    "X_test-inf": (
        X0,
        Y0,
        {"X_test": _nan(X0, -np.inf), "y_test": Y0},
        r"^X_test must not contain NaN or infinity",
    ),
    "X_test-strings": (
        X0,
        Y0,
        {"X_test": np.full((20, 2), "a"), "y_test": Y0},
        r"^X_test must hold numbers",
    ),
    "y_test-short": (
        X0,
        Y0,
        {"X_test": X0, "y_test": Y0[:-1]},
        r"^y_test must have one label per row of X_test",
    ),
    "y_test-unknown": (
        X0,
        Y0,
        {"X_test": X0, "y_test": np.where(Y0 > 0, 2, 0)},
        r"^y_test has labels \[0, 2\] that are not in y",
    ),
    "y_test-nan": (
        X0,
        Y0,
        {"X_test": X0, "y_test": np.where(Y0 > 0, 1.0, np.nan)},
        r"^y_test has labels \[nan\]",
    ),
    "y_test-strings-vs-numbers": (
        X0,
        Y0,
        {"X_test": X0, "y_test": S0},
        r"^y_test has labels \['ham', 'spam'\]",
    ),
    "y_test-unknown-string": (
        X0,
        S0,
        {"X_test": X0, "y_test": np.where(Y0 > 0, "spam", "eggs")},
        r"^y_test has labels \['eggs'\] that are not in y",
    ),
    "y_test-other-single-class": (
        X0,
        np.full(20, "a"),
        {"X_test": X0, "y_test": np.full(20, "b")},
        r"^y_test has labels \['b'\] that are not in y \(\['a'\]\)",
    ),
}

BAD_WEIGHTS = {
    "negative": (-np.ones(20), r"^sample_weight must be finite and non-negative"),
    "one-negative": (np.r_[-1.0, np.ones(19)], r"^sample_weight must be finite and non-neg"),
    "nan": (np.r_[np.nan, np.ones(19)], r"^sample_weight must be finite"),
    "all-zero": (np.zeros(20), r"^sample_weight must have a positive sum"),
    "short": (np.ones(19), r"^sample_weight must have one weight per sample"),
    "strings": (np.full(20, "w"), r"^sample_weight must hold numbers"),
}


def _single_class_data(case):
    # the probabilistic generators reject a single class before looking at the test set
    return case == "y_test-other-single-class"


@pytest.mark.parametrize("case", list(BAD_DATA))
@pytest.mark.parametrize("gen", list(GENERATORS))
def test_generators_reject_bad_data_at_call_time(gen, case):
    call, _, one_class_ok = GENERATORS[gen]
    X, y, kw, match = BAD_DATA[case]
    if _single_class_data(case) and not one_class_ok:
        match = "y has a single class"
    with pytest.raises(ValueError, match=match):
        call(X, y, **kw)  # no next(): the call itself raises, before any snapshot


@pytest.mark.parametrize("case", list(BAD_WEIGHTS))
@pytest.mark.parametrize("gen", [g for g, (_, weights, _) in GENERATORS.items() if weights])
@pytest.mark.parametrize("labels", ["two-classes", "one-class"])
def test_generators_reject_bad_sample_weights(gen, case, labels):
    call = GENERATORS[gen][0]
    w, match = BAD_WEIGHTS[case]
    y = Y0 if labels == "two-classes" else np.full(20, "a")
    with pytest.raises(ValueError, match=match):
        call(X0, y, sample_weight=w)


def _last_metrics(steps):
    return [s.metrics for s in steps if s.metrics is not None][-1]


def _errors(metrics):
    if hasattr(metrics, "expected_train_error"):
        return metrics.expected_train_error, metrics.expected_test_error
    return metrics.train_error, metrics.test_error


@pytest.mark.parametrize("gen", list(GENERATORS))
def test_string_labels_behave_like_their_sorted_plus_minus_one(gen):
    """The larger label in sorted order is +1, for strings as for numbers."""
    call = GENERATORS[gen][0]
    ref = list(call(X0, Y0, X_test=X0[:10], y_test=Y0[:10]))
    got = list(call(X0, S0, X_test=X0[:10], y_test=S0[:10]))
    assert [s.message for s in got] == [s.message for s in ref]
    assert _errors(_last_metrics(got)) == pytest.approx(_errors(_last_metrics(ref)))
    flipped = np.where(Y0 > 0, "a", "b")  # now the +1 class of Y0 is the smaller label
    neg = list(call(X0, -Y0, X_test=X0[:10], y_test=-Y0[:10]))
    got = list(call(X0, flipped, X_test=X0[:10], y_test=flipped[:10]))
    assert [s.message for s in got] == [s.message for s in neg]


@pytest.mark.parametrize("label", ["a", "only", 0, -1, 1, 7])
@pytest.mark.parametrize("gen", list(GENERATORS))
def test_single_class_labels_same_behaviour_across_generators(gen, label):
    """One training class: accepted (a model with training and test error 0 on that class) by
    the top-down tree, BP.InfoBoost and the G1 family; rejected with a ValueError naming y by
    the probabilistic generators — with string and numeric labels alike, never a TypeError."""
    call, _, one_class_ok = GENERATORS[gen]
    y = np.full(20, label)
    if not one_class_ok:
        with pytest.raises(ValueError, match="^y has a single class"):
            call(X0, y, X_test=X0[:5], y_test=y[:5])
        return
    steps = list(call(X0, y, X_test=X0[:5], y_test=y[:5]))
    # a string label plays +1 like a positive number (a number ≤ 0 plays −1): same snapshots
    ref = np.full(20, -1 if isinstance(label, int) and label <= 0 else 1)
    same = list(call(X0, ref, X_test=X0[:5], y_test=ref[:5]))
    assert [s.message for s in steps] == [s.message for s in same]
    assert _errors(_last_metrics(steps)) == _errors(_last_metrics(same))
    if gen != "g1_linear":  # AdaBoost_R's stumps are not constants: it may err on one class
        assert _errors(_last_metrics(steps)) == (0.0, 0.0)


# --------------------------------------------------------------------------------- estimators
ESTIMATORS = {
    "TopDownTreeClassifier": (lambda: TopDownTreeClassifier(size=4), True),
    "BPInfoBoostClassifier": (lambda: BPInfoBoostClassifier(n_rounds=2), False),
    "ProbabilisticBoostClassifier-tree": (lambda: ProbabilisticBoostClassifier(n_weak=2), False),
    "ProbabilisticBoostClassifier-chain": (
        lambda: ProbabilisticBoostClassifier(structure="chain", n_weak=2),
        False,
    ),
    "ProbabilisticBoostClassifier-matryoshka": (
        lambda: ProbabilisticBoostClassifier(structure="matryoshka", n_weak=2),
        False,
    ),
    "RealAdaBoostClassifier": (lambda: RealAdaBoostClassifier(n_estimators=2), True),
    "BoostODTClassifier": (lambda: BoostODTClassifier(n_internal=2, n_stumps=2), True),
}

# scikit-learn's own messages where its checks expect them (they name X or y)
BAD_FIT = {
    "X-nan": (_nan(X0), Y0, r"Input X contains NaN"),
    "X-inf": (_nan(X0, np.inf), Y0, r"Input X contains infinity"),
    "y-nan": (X0, np.where(Y0 > 0, 1.0, np.nan), r"Input y contains NaN"),
    "y-short": (X0, Y0[:-1], r"^y must have one label per row of X"),
    "X-short": (X0[:-1], Y0, r"^y must have one label per row of X"),
    "y-three-classes": (X0, np.arange(20) % 3, r"^Only binary classification is supported"),
}


@pytest.mark.parametrize("case", list(BAD_FIT))
@pytest.mark.parametrize("est", list(ESTIMATORS))
def test_estimators_reject_bad_data_at_fit(est, case):
    X, y, match = BAD_FIT[case]
    with pytest.raises(ValueError, match=match):
        ESTIMATORS[est][0]().fit(X, y)


@pytest.mark.parametrize("labels", ["two-classes", "one-class"])
@pytest.mark.parametrize("est", list(ESTIMATORS))
def test_estimators_reject_test_data_with_another_number_of_features(est, labels):
    """The estimators' test set is what predict gets: another number of columns names X."""
    y = S0 if labels == "two-classes" else np.full(20, "a")
    clf = ESTIMATORS[est][0]().fit(X0, y)
    for method in ("predict", "decision_function", "predict_proba"):
        if hasattr(clf, method):
            with pytest.raises(ValueError, match=r"X has 1 features"):
                getattr(clf, method)(X0[:, :1])
            with pytest.raises(ValueError, match=r"Input X contains NaN"):
                getattr(clf, method)(_nan(X0))


@pytest.mark.parametrize("case", list(BAD_WEIGHTS))
@pytest.mark.parametrize("est", [e for e, (_, weights) in ESTIMATORS.items() if weights])
@pytest.mark.parametrize("labels", ["two-classes", "one-class"])
def test_estimators_reject_bad_sample_weights(est, case, labels):
    """Also with a single class, where fit stops before running the generator."""
    w, match = BAD_WEIGHTS[case]
    y = S0 if labels == "two-classes" else np.full(20, "a")
    with pytest.raises(ValueError, match=match):
        ESTIMATORS[est][0]().fit(X0, y, sample_weight=w)


@pytest.mark.parametrize("label", ["only", 0, 7])
@pytest.mark.parametrize("est", list(ESTIMATORS))
def test_estimators_accept_a_single_class_and_predict_it(est, label):
    y = np.full(20, label)
    clf = ESTIMATORS[est][0]().fit(X0, y)
    assert list(clf.classes_) == [label]
    assert np.all(clf.predict(X0) == label)


@pytest.mark.parametrize("est", list(ESTIMATORS))
def test_estimators_string_labels_match_plus_minus_one(est):
    """The larger label in sorted order ("spam") plays +1, exactly like numeric labels."""
    a = ESTIMATORS[est][0]().fit(X0, S0)
    b = ESTIMATORS[est][0]().fit(X0, Y0)
    assert list(a.classes_) == ["ham", "spam"]
    np.testing.assert_array_equal(a.predict(X0) == "spam", b.predict(X0) == 1)
