"""G1, AdaBoost_R and BoostODT (docs/theory.md §4): theorems as property tests, scikit-learn
agreement."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from boostcore.datasets import make_dataset
from boostcore.estimators import BoostODTClassifier, RealAdaBoostClassifier
from boostcore.oblique import boost_odt, g1_tree
from boostcore.realboost import MU_CLIP, THETA_GRID, Additive, g1_linear
from boostcore.steps import START, STEP, STOP
from tests.strategies import labelled_samples

CLIPPED_ALPHA = float(np.arctanh(1.0 - MU_CLIP))


def data(seed=0, n=120, d=3, noise=0.3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    score = X[:, 0] + 0.7 * X[:, 1] * X[:, -1] + noise * rng.normal(size=n)
    return X, np.where(score > 0, 1, 0)


SAMPLES = labelled_samples(
    levels=(3, 8, 1000), labels=("random",), classes=(0, 1), both="first_two", weights=True
)


PROP = settings(max_examples=40, deadline=None)


# --------------------------------------------------------------------------- sklearn agreement
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n_rounds", [1, 7, 25])
def test_g1_path_with_sklearn_stumps_is_sklearn_adaboost(seed, n_rounds):
    X, y = data(seed, n=150, d=4)
    ours = RealAdaBoostClassifier(
        n_estimators=n_rounds, weak=DecisionTreeClassifier(max_depth=1), random_state=seed
    ).fit(X, y)
    ada = AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=1), n_estimators=n_rounds, random_state=seed
    ).fit(X, y)
    hyps = ours.model_.hyps
    assert len(hyps) == len(ada.estimators_) == n_rounds
    for h, e in zip(hyps, ada.estimators_):
        a, b = h.estimator.tree_, e.tree_
        assert a.feature[0] == b.feature[0]
        assert a.threshold[0] == pytest.approx(b.threshold[0], abs=1e-12)
    # SAMME's coefficient is ln((1−ε)/ε) = 2α
    np.testing.assert_allclose(
        2 * np.asarray(ours.model_.alphas), ada.estimator_weights_, rtol=1e-9
    )
    Xq = np.random.default_rng(99).normal(size=(300, 4))
    # sklearn's binary decision_function is 2 Σ w_e h_e / Σ w_e = 4 H / Σ w_e
    np.testing.assert_allclose(
        4 * ours.decision_function(Xq) / ada.estimator_weights_.sum(),
        ada.decision_function(Xq),
        atol=1e-9,
    )
    np.testing.assert_array_equal(ours.predict(Xq), ada.predict(Xq))
    np.testing.assert_array_equal(ours.predict(X), ada.predict(X))


def test_sklearn_weights_equal_ours_round_by_round():
    X, y = data(3, n=100, d=2)
    steps = list(
        g1_linear(X, y, n_rounds=5, weak=DecisionTreeClassifier(max_depth=1), random_state=0)
    )
    ada = AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=1), n_estimators=5, random_state=0
    ).fit(X, y)
    errs = [s.round.error for s in steps if s.kind == STEP]
    np.testing.assert_allclose(errs, ada.estimator_errors_, rtol=1e-9)


def brute_force_stump(X, y, w):
    best = (-1.0, None)
    for j in range(X.shape[1]):
        vals = np.unique(X[:, j])
        for a, b in zip(vals[:-1], vals[1:]):
            th = (a + b) / 2
            h = np.where(X[:, j] > th, 1.0, -1.0)
            mu = abs((w * y * h).sum()) / w.sum()
            if mu > best[0] + 1e-12:
                best = (mu, (j, th))
    return best


@given(SAMPLES)
@PROP
def test_stump_learner_picks_largest_abs_mu(sample):
    X, y01, w = sample
    steps = list(g1_linear(X, y01, n_rounds=1, sample_weight=w))
    assert steps[0].kind == START and steps[-1].kind == STOP
    s = steps[1]
    if s.kind == STOP:
        assert (
            all(np.unique(X[:, j]).size < 2 for j in range(X.shape[1]))
            or "no edge" in s.stop_reason
        )
        return
    y = np.where(y01 == 1, 1, -1)
    w1 = np.ones(len(y)) / len(y) if w is None else w / w.sum()
    mu, _ = brute_force_stump(X, y, w1)
    assert s.round.mu == pytest.approx(mu, abs=1e-9)
    assert s.round.error == pytest.approx((1 - mu) / 2, abs=1e-9)
    assert s.round.mu >= 0


# --------------------------------------------------------------------------- G1 invariants
@given(SAMPLES, st.sampled_from(["stump", "hyperplane"]))
@PROP
def test_g1_update_keeps_mass_and_bounds_hold(sample, weak):
    X, y, w = sample
    y_pm = np.where(y == 1, 1, -1)
    for s in g1_linear(X, y, n_rounds=12, weak=weak, sample_weight=w):
        _check_bounds(s.metrics)  # the start (H = 0) and the stop snapshot too
        if s.kind != STEP:
            continue
        if abs(s.round.mu) < 1 - MU_CLIP:
            # the update keeps the mass of S_t (= S on a path)
            assert s.w_next.sum() == pytest.approx(s.w.sum(), abs=1e-12)
        # the new weights are a distribution over which h_t has no edge left
        if weak == "stump" and abs(s.round.mu) < 1 - MU_CLIP:
            h = s.round.hyp(X)
            assert abs((s.w_next * y_pm * h).sum()) <= 1e-9


def _check_bounds(m):
    tol = 1e-12
    assert m.train_error <= m.margin_error_0 + tol
    assert m.margin_error_0 <= m.bound_theorem1 + tol
    assert m.exp_loss <= m.bound_theorem1 * (1 + 1e-9) + tol
    assert np.all(m.margin_error <= m.bound_margin * (1 + 1e-9) + tol)
    assert np.all(np.diff(m.margin_error) >= -tol)


@given(SAMPLES, st.sampled_from(["max_decrease", "breadth_first"]))
@PROP
def test_theorem2_on_g1_tree(sample, rule):
    X, y, w = sample
    w1 = np.ones(len(y)) / len(y) if w is None else w / w.sum()
    for s in g1_tree(X, y, n_internal=6, leaf_rule=rule, sample_weight=w):
        if s.kind == STOP:
            break
        _check_theorem2(s, X, y, w1)
        _check_bounds(s.metrics)


@given(
    SAMPLES,
    st.sampled_from(["stump", "hyperplane"]),
    st.sampled_from(["max_decrease", "breadth_first"]),
)
@PROP
def test_theorem2_and_bounds_on_boost_odt(sample, learner, rule):
    X, y, w = sample
    w1 = np.ones(len(y)) / len(y) if w is None else w / w.sum()
    for s in boost_odt(
        X, y, n_internal=5, n_stumps=4, weak=learner, leaf_rule=rule, sample_weight=w
    ):
        if s.kind == STOP:
            break
        _check_theorem2(s, X, y, w1)
        _check_bounds(s.metrics)


def _check_theorem2(step, X, y01, w1):
    """Leaf output ½ ln(w⁺/w⁻) and exp loss Σ 2 sqrt(w⁺w⁻) (Theorem 2), pure leaves apart."""
    tree = step.tree
    y = np.where(y01 == 1, 1, -1)
    leaf = tree.apply(X)
    pure_part = 0.0
    for n in tree.leaves:
        here = leaf == n
        wp, wn = w1[here & (y > 0)].sum(), w1[here & (y < 0)].sum()
        assert tree.w_pos[n] == pytest.approx(wp, abs=1e-12)
        assert tree.w_neg[n] == pytest.approx(wn, abs=1e-12)
        v = tree.value[n]
        if wp > 0 and wn > 0:
            assert v == pytest.approx(0.5 * np.log(wp / wn), abs=1e-9)
        else:
            # one class: G1's clipped μ gives the parent's value ± atanh(1 − 1e−12)
            parent = next(p for p in range(n) if n in (tree.left[p], tree.right[p]))
            sign = 1.0 if wp > 0 else -1.0
            assert v == pytest.approx(tree.value[parent] + sign * CLIPPED_ALPHA, abs=1e-6)
            pure_part += (wp + wn) * np.exp(-sign * v)
    assert step.metrics.exp_loss - pure_part == pytest.approx(step.metrics.km_impurity, abs=1e-9)


def test_pure_leaves_make_exp_loss_tiny_not_zero():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    steps = list(g1_tree(X, y, n_internal=1))
    m = steps[-1].metrics
    assert m.train_error == 0 and m.km_impurity == 0
    assert 0 < m.exp_loss < 1e-5


def test_g1_tree_matches_km_topdown_partition():
    """G1 on a tree with KM stumps grows the same leaves as TOPDOWN with the km index."""
    from boostcore.topdown import grow

    X, y = data(4, n=200, d=3)
    ours = list(g1_tree(X, y, n_internal=7, leaf_rule="max_decrease"))[-1].tree
    km = [
        s
        for s in grow(
            X, np.where(y == 1, 1, -1), size=8, index="km", max_arity=2, leaf_rule="max_gain"
        )
    ][-1].tree
    a, b = ours.apply(X), km.apply(X)
    pairs = set(zip(a.tolist(), b.tolist()))
    assert len(pairs) == len(set(a.tolist())) == len(set(b.tolist())) == 8


# --------------------------------------------------------------------------- BoostODT
@pytest.mark.parametrize("seed", range(4))
def test_hyperplane_node_boundary_is_a_straight_line(seed):
    ds = make_dataset("band", n=300, random_state=seed)
    steps = [
        s
        for s in boost_odt(ds.X_train, ds.y_train, n_internal=3, n_stumps=8, weak="hyperplane")
        if s.kind == STEP
    ]
    assert steps
    for s in steps:
        sep = s.separator
        assert sep.affine(2) is not None
        # find zero crossings of LS on horizontal lines by bisection and check collinearity
        pts = []
        for y0 in np.linspace(-3, 3, 13):
            xs = np.linspace(-50, 50, 2001)
            v = sep.decision_function(np.column_stack([xs, np.full_like(xs, y0)]))
            cross = np.flatnonzero(np.sign(v[1:]) != np.sign(v[:-1]))
            for i in cross[:1]:
                a, b = xs[i], xs[i + 1]
                for _ in range(60):
                    c = (a + b) / 2
                    fc = sep.decision_function(np.array([[c, y0]]))[0]
                    fa = sep.decision_function(np.array([[a, y0]]))[0]
                    a, b = (a, c) if np.sign(fc) != np.sign(fa) else (c, b)
                pts.append((a, y0))
        if len(pts) >= 3:
            P = np.array(pts)
            d1, d2 = P[1:] - P[0], P[-1] - P[0]
            cross = d1[:, 0] * d2[1] - d1[:, 1] * d2[0]
            assert np.all(np.abs(cross) <= 1e-6 * (1 + np.abs(P).max() ** 2))


def test_stump_node_boundary_is_a_staircase():
    ds = make_dataset("band", n=400, random_state=1)
    s = next(
        s for s in boost_odt(ds.X_train, ds.y_train, n_internal=1, n_stumps=10) if s.kind == STEP
    )
    assert s.separator.affine(2) is None
    assert len(s.inner) == len(s.separator) >= 2
    assert {h.kind for h in s.separator.hyps} == {"stump"}


def test_node_weights_are_class_balanced():
    X, y = data(1, n=90, d=2)
    for s in boost_odt(X, y, n_internal=3):
        if s.kind != STEP:
            continue
        yy = y[s.node_index]
        assert s.node_weights[yy == 1].sum() == pytest.approx(0.5)
        assert s.node_weights[yy == 0].sum() == pytest.approx(0.5)


def test_breadth_first_builds_a_complete_tree():
    ds = make_dataset("moons", n=500, noise=0.4, random_state=0)
    steps = [
        s for s in boost_odt(ds.X_train, ds.y_train, n_internal=7, n_stumps=3) if s.kind == STEP
    ]
    tree = steps[-1].tree
    assert len(tree.internal) == 7
    depths = [tree.depth[s.node] for s in steps]
    assert depths == sorted(depths)  # level by level
    # a node is passed over only when it cannot be split (pure, or its LS is one-sided)
    skipped = [n for n in tree.leaves if tree.depth[n] < depths[-1]]
    for n in skipped:
        pure = tree.w_pos[n] == 0 or tree.w_neg[n] == 0
        assert pure or n in {c for s in steps for c in s.children}


def test_oblique_beats_axis_parallel_on_the_diagonal_xor():
    ds = make_dataset("diagonal_xor", n=600, noise=0.0, random_state=0)
    kw = dict(n_internal=3, X_test=ds.X_test, y_test=ds.y_test)
    hyper = list(boost_odt(ds.X_train, ds.y_train, weak="hyperplane", **kw))[-1]
    axis = list(g1_tree(ds.X_train, ds.y_train, **kw))[-1]
    assert hyper.metrics.test_error < axis.metrics.test_error


def test_determinism_frozen_and_pickle():
    X, y = data(2)
    a = list(boost_odt(X, y, n_internal=4, weak="hyperplane"))
    b = list(boost_odt(X, y, n_internal=4, weak="hyperplane"))
    for s, t in zip(a, b):
        assert s.message == t.message
        np.testing.assert_array_equal(s.w, t.w)
    with pytest.raises(ValueError):
        a[-1].w[0] = 1.0
    with pytest.raises(AttributeError):
        a[-1].t = 3
    c = pickle.loads(pickle.dumps(a[-1]))
    np.testing.assert_array_equal(c.tree.decision_function(X), a[-1].tree.decision_function(X))
    assert a[0].kind == START and a[0].t == 0


def test_perfect_weak_hypothesis_stops_with_reason():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    steps = list(g1_linear(X, y, n_rounds=5))
    assert [(s.t, s.kind) for s in steps] == [(0, START), (1, STEP), (1, STOP)]
    assert steps[0].metrics.train_error == 0.5  # H = 0 counts as −1: the positives are wrong
    assert steps[1].metrics.train_error == 0
    assert "perfect" in steps[-1].stop_reason


def test_constant_features_stop_with_reason():
    X = np.zeros((6, 2))
    y = np.array([0, 1, 0, 1, 0, 1])
    assert list(g1_linear(X, y, n_rounds=3))[-1].kind == STOP
    steps = list(boost_odt(X, y, n_internal=2))
    assert steps[-1].kind == STOP and "no leaf" in steps[-1].stop_reason.lower()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda X, y: g1_linear(X, y, n_rounds=0), "n_rounds must be between 1 and 2000; got 0"),
        (lambda X, y: g1_linear(X, y, n_rounds=3, weak="tree"), "weak must be one of"),
        (lambda X, y: g1_linear(X, y, n_rounds=3, weak=object()), "weak must be 'stump'"),
        (lambda X, y: boost_odt(X, y, n_stumps=0), "n_stumps must be between 1 and 200; got 0"),
        (lambda X, y: boost_odt(X, y, weak="oc1"), "weak must be one of"),
        (lambda X, y: boost_odt(X, y, leaf_rule="dfs"), "leaf_rule must be one of"),
        (lambda X, y: g1_tree(X, y, n_internal=1000), "n_internal must be between 1 and 255"),
        (lambda X, y: boost_odt(X, y, X_test=X), "X_test and y_test must be given together"),
        (lambda X, y: boost_odt(X, y, X_test=X[:, :1], y_test=y), "X_test must have 3 columns"),
        (lambda X, y: boost_odt(X, y[:-1]), "y must be 1-D with one label per row"),
    ],
)
def test_validation_messages(call, match):
    X, y = data(0)
    with pytest.raises(ValueError, match=match):
        call(X, y)


def test_margin_curve_is_a_weighted_cdf():
    X, y = data(5)
    m = list(g1_linear(X, y, n_rounds=10))[-1].metrics
    assert m.margin_error.shape == THETA_GRID.shape
    assert m.margin_error[0] >= 0 and m.margin_error[-1] <= 1


def test_additive_prefix_and_staged():
    X, y = data(6)
    model = list(g1_linear(X, y, n_rounds=6, weak="hyperplane"))[-1].model
    staged = list(model.staged_decision_function(X))
    np.testing.assert_allclose(staged[2], model.prefix(3).decision_function(X))
    coef, b = model.affine(3)
    np.testing.assert_allclose(X @ coef + b, model.decision_function(X), atol=1e-12)
    assert isinstance(model.prefix(0), Additive) and len(model.prefix(0)) == 0


# --------------------------------------------------------------------------- estimators
@parametrize_with_checks(
    [
        RealAdaBoostClassifier(n_estimators=10),
        RealAdaBoostClassifier(n_estimators=5, weak="hyperplane"),
        BoostODTClassifier(n_internal=3, n_stumps=3),
        BoostODTClassifier(n_internal=3, n_stumps=3, weak="hyperplane", leaf_rule="max_decrease"),
    ]
)
def test_g1_estimators_sklearn_compatible(estimator, check):
    check(estimator)


def test_estimators_staged_and_apply():
    X, y = data(7)
    clf = BoostODTClassifier(n_internal=4, n_stumps=3).fit(X, y)
    staged = list(clf.staged_decision_function(X))
    assert len(staged) == 4  # one per split, as scikit-learn's staged methods (no root)
    np.testing.assert_allclose(staged[-1], clf.decision_function(X))
    leaves = clf.apply(X)
    assert set(np.unique(leaves)) <= set(clf.tree_.leaves)
    proba = clf.predict_proba(X)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[(proba[:, 1] > 0.5).astype(int)])
    ada = RealAdaBoostClassifier(n_estimators=7).fit(X, y)
    assert len(list(ada.staged_predict(X))) == 7
    with pytest.raises(ValueError, match="binary"):
        RealAdaBoostClassifier().fit(X, np.arange(len(y)) % 3)


def test_g1_linear_clones_and_seeds_a_nested_weak_learner_like_sklearn_adaboost():
    """Issue 14, D: g1_linear itself (not only the estimator) deep-clones the weak learner,
    never changes the user's object, and seeds each copy as scikit-learn's AdaBoost does."""
    from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier
    from sklearn.tree import DecisionTreeClassifier

    from boostcore.realboost import g1_linear

    rng = np.random.default_rng(4)
    X = rng.normal(size=(160, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=160) > 0, 1, -1)
    weak = BaggingClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=3)
    before = {k: repr(v) for k, v in weak.get_params(deep=True).items()}
    steps = list(g1_linear(X, y, n_rounds=4, weak=weak, random_state=0))
    assert {k: repr(v) for k, v in weak.get_params(deep=True).items()} == before
    assert not hasattr(weak, "estimators_")
    ours = [h.estimator for h in steps[-1].model.hyps]
    ada = AdaBoostClassifier(weak, n_estimators=4, random_state=0).fit(X, y)
    for a, b in zip(ours, ada.estimators_):
        assert a is not weak and a.estimator is not weak.estimator
        assert a.random_state == b.random_state
        assert a.estimator.random_state == b.estimator.random_state
