"""Be the weak learner on /oblique (issue 17): ``score_separator`` and ``boost_odt(choose=…)``.

BoostODT (Henry, Nock & Nielsen 2007; docs/theory.md §4). A student's line at a node is scored
by the tree grower's own code on a restored copy of the run; these tests check that (1)
AdaBoost_R's separator scores exactly as the snapshot that splits the node records, (2) the
scores agree with a brute force written here from the definitions (class-balanced weights, G1's
μ, Theorem 2's loss, Theorem 1's path products) and obey the node-level inequality
``loss_after/loss_before ≤ sqrt(1 − μ²)``, (3) a run continued from random students' lines keeps
the step protocol, Theorem 2 and Theorem 1's chain (error ≤ ν(H, 0) ≤ max Π sqrt(1 − μ²), and
E e^{−yH} ≤ the same product), and (4) bad inputs are refused with messages that name the
parameter, the rule and the value.

AdaBoost_R's separator is not an argmin of anything at the node (it is T1 greedy rounds), so
unlike on /branching there is no "the algorithm is at least as good" property to test.
"""

from __future__ import annotations

import math
import re
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore import steps
from boostcore.oblique import (
    LEAF_RULES,
    NodeScore,
    ODTStep,
    SeparatorScore,
    boost_odt,
    line_separator,
    score_separator,
)
from boostcore.realboost import MU_CLIP, WEAK_LEARNERS, G1Metrics, alpha_of
from boostcore.steps import STEP
from tests.strategies import labelled_samples

H = settings(max_examples=25, deadline=None)
SAMPLES = labelled_samples(
    max_n=50,
    levels=(3, 8, 1000),
    labels=("random", "linear"),
    classes=(0, 1),
    both="first_two",
    weights=True,
)
TOL = 1e-9


def _w1(w, m: int) -> np.ndarray:
    return np.full(m, 1.0 / m) if w is None else np.asarray(w, dtype=float) / np.sum(w)


def _same_metrics(a: G1Metrics, b: G1Metrics) -> None:
    """Equal bit for bit, the test error apart (scores are computed without a test set)."""
    for f in fields(a):
        if f.name == "test_error":
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y, err_msg=f.name)
        else:
            assert x == y, f.name


def _same_split(score: SeparatorScore, step: ODTStep) -> None:
    """The score of the separator a step used is that step's tree and metrics."""
    assert score.splits and score.children == step.children
    assert score.tree == step.tree
    _same_metrics(score.metrics, step.metrics)
    kids = step.children
    assert score.mu_children == (step.tree.mu[kids[0]], step.tree.mu[kids[1]])


def _members(step: ODTStep, X: np.ndarray, node: int) -> np.ndarray:
    return np.flatnonzero(step.tree.apply(X) == node)


def _student_line(rng: np.random.Generator, X: np.ndarray, idx: np.ndarray):
    """A random line through the node's examples: a random normal, the offset at a random
    quantile of the projections (it splits unless they are all equal: then ``None``)."""
    d = X.shape[1]
    for _ in range(10):
        direction = rng.normal(size=d)
        if rng.random() < 0.3:  # axis-parallel lines too
            direction = np.eye(d)[rng.integers(d)] * rng.choice([-1.0, 1.0])
        proj = X[idx] @ direction
        lo, hi = np.min(proj), np.max(proj)
        if hi - lo > 1e-9:
            cut = rng.uniform(lo, hi)
            # keep every example clear of the line, so that the brute force's dot product and
            # the separator's sum put it on the same side
            if np.min(np.abs(X @ direction - cut)) > 1e-7:
                return direction, -cut
    return None


# --------------------------------------------------------------------------- (1) the snapshots
@H
@given(
    sample=SAMPLES,
    weak=st.sampled_from(WEAK_LEARNERS),
    rule=st.sampled_from(LEAF_RULES),
    n_stumps=st.integers(1, 5),
    n_internal=st.integers(1, 6),
    seed=st.integers(0, 2**31 - 1),
)
def test_adaboost_rs_separator_scores_as_every_snapshot_records(
    sample, weak, rule, n_stumps, n_internal, seed
):
    X, y, w = sample
    rng = np.random.default_rng(seed)
    kw = dict(n_stumps=n_stumps, weak=weak, sample_weight=w)
    run = list(boost_odt(X, y, n_internal=n_internal, leaf_rule=rule, **kw))
    for prev, s in zip(run, run[1:]):
        if s.kind != STEP:
            continue
        line = _student_line(rng, X, s.node_index) or ([1.0] * X.shape[1], 0.0)
        r = score_separator(X, y, prev, s.node, *line, **kw)
        assert isinstance(r, NodeScore) and r.t == s.t and r.node == s.node
        np.testing.assert_array_equal(r.members, s.node_index)
        np.testing.assert_array_equal(r.node_weights, s.node_weights)
        a = r.algorithm
        assert a.separator == s.separator and a.inner == s.inner
        assert s.algorithm_separator is s.separator and not s.by_policy
        _same_split(a, s)
        # the message's decrease is the score's
        assert f"drops by {a.decrease:.4f}" in s.message


# --------------------------------------------------------------------------- (2) brute force
def _path_product(tree, node: int) -> float:
    """``Π sqrt(1 − μ²)`` over the nodes from the root to ``node`` (walking up the parents)."""
    out = 1.0
    n = node
    while n >= 0:
        out *= math.sqrt(1.0 - tree.mu[n] ** 2)
        n = next((p for p in range(tree.n_nodes) if n in (tree.left[p], tree.right[p])), -1)
    return out


@H
@given(
    sample=SAMPLES,
    weak=st.sampled_from(WEAK_LEARNERS),
    n_internal=st.integers(1, 5),
    seed=st.integers(0, 2**31 - 1),
)
def test_scores_agree_with_a_brute_force_from_the_definitions(sample, weak, n_internal, seed):
    X, y01, w = sample
    y = np.where(y01 == 1, 1, -1)
    m = len(y)
    w1 = _w1(w, m)
    rng = np.random.default_rng(seed)
    run = steps.rounds(
        list(boost_odt(X, y01, n_internal=n_internal, n_stumps=3, weak=weak, sample_weight=w))
    )
    step = run[int(rng.integers(len(run)))]
    tree = step.tree
    leaves = [n for n in tree.leaves if tree.w_pos[n] > 0 and tree.w_neg[n] > 0]
    if not leaves:
        return
    node = int(rng.choice(leaves))
    idx = _members(step, X, node)
    for _ in range(3):
        line = _student_line(rng, X, idx)
        if line is None:
            return
        direction, offset = line
        r = score_separator(
            X, y01, step, node, direction, offset, n_stumps=3, weak=weak, sample_weight=w
        )
        s = r.yours
        np.testing.assert_array_equal(r.members, idx)
        # class-balanced node weights b_i = w_1,i / (2 W^{y_i}) (docs/theory.md §4.2)
        pos = y[idx] > 0
        Wp, Wn = w1[idx][pos].sum(), w1[idx][~pos].sum()
        b = np.where(pos, w1[idx] / (2 * Wp), w1[idx] / (2 * Wn))
        np.testing.assert_allclose(r.node_weights, b, atol=1e-12)
        # the ±1 output of the line and G1's μ (Fig. 2, R = 1) under b
        out = np.where(X[idx] @ direction + offset >= 0, 1.0, -1.0)
        np.testing.assert_array_equal(s.right, out > 0)
        mu = float(np.sum(b * y[idx] * out) / np.sum(b))
        assert s.mu == pytest.approx(mu, abs=TOL)
        assert s.error == pytest.approx((1 - mu) / 2, abs=TOL)
        assert s.alpha == pytest.approx(
            math.atanh(np.clip(mu, -1 + MU_CLIP, 1 - MU_CLIP)), abs=1e-6
        )
        assert s.factor == pytest.approx(math.sqrt(max(0.0, 1 - mu * mu)), abs=TOL)
        # Theorem 2: the node's share of the exponential loss, before and after the split
        before = 2 * math.sqrt(Wp * Wn)
        after = sum(
            2 * math.sqrt(w1[idx][side & pos].sum() * w1[idx][side & ~pos].sum())
            for side in (out > 0, out < 0)
        )
        assert s.loss_before == pytest.approx(before, abs=TOL)
        assert s.loss_after == pytest.approx(after, abs=TOL)
        assert s.decrease == pytest.approx(before - after, abs=TOL)
        # the node-level inequality: the split multiplies the node's loss by ≤ sqrt(1 − μ²)
        assert s.loss_ratio <= s.factor + TOL
        assert s.splits and (s.n_left, s.n_right) == (int(np.sum(out < 0)), int(np.sum(out > 0)))
        # the new leaves' G1 constants: μ_s = (b⁺_s − b⁻_s)/(b⁺_s + b⁻_s) on each side, and
        # Σ_s m_s sqrt(1 − μ_s²) = the loss ratio (one-class sides: clipped μ, tiny slack)
        mus, mass = [], []
        for side in (out < 0, out > 0):
            bp, bn = b[side & pos].sum(), b[side & ~pos].sum()
            mus.append((bp - bn) / (bp + bn))
            mass.append(bp + bn)
        np.testing.assert_allclose(
            s.mu_children, np.clip(mus, -1 + MU_CLIP, 1 - MU_CLIP), atol=1e-9
        )
        assert sum(mm * math.sqrt(1 - u * u) for mm, u in zip(mass, mus)) == pytest.approx(
            s.loss_ratio, abs=1e-5
        )
        # Theorem 1 after the split: max over the leaves of the path products
        assert r.path_product == pytest.approx(_path_product(tree, node), abs=1e-12)
        after_tree = s.tree
        bound = max(_path_product(after_tree, n) for n in after_tree.leaves)
        assert s.metrics.bound_theorem1 == pytest.approx(bound, abs=1e-12)
        kids = [r.path_product * f for f in s.factor_children]
        others = [p for n, p in tree.path_products().items() if n != node]
        assert bound == pytest.approx(max(others + kids), abs=1e-12)
        # Theorem 2 on the tree after the split: km impurity = Σ_ℓ 2 sqrt(w⁺w⁻)
        assert s.metrics.km_impurity == pytest.approx(
            step.metrics.km_impurity - s.decrease, abs=1e-12
        )


def test_a_perfect_line_has_mu_one_and_a_line_missing_the_node_does_not_split() -> None:
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 2.0]])
    y = np.array([0, 0, 1, 1, 1])
    start = next(boost_odt(X, y, n_internal=1, n_stumps=2))
    r = score_separator(X, y, start, 0, [0.0, 1.0], -0.5, n_stumps=2)
    assert r.yours.mu == 1.0 and r.yours.factor == 0.0 and r.yours.loss_after == 0.0
    assert r.yours.alpha == pytest.approx(alpha_of(1.0)) and r.yours.error == 0.0
    miss = score_separator(X, y, start, 0, [0.0, 1.0], 5.0, n_stumps=2, compare=False).yours
    assert not miss.splits and miss.children is None and miss.metrics is None
    assert miss.mu == pytest.approx(0.0, abs=1e-15)  # a constant: no edge under balanced b
    assert miss.loss_after == miss.loss_before and miss.decrease == 0.0
    flipped = score_separator(X, y, start, 0, [0.0, -1.0], 0.5, n_stumps=2).yours
    assert flipped.mu == -1.0 and flipped.loss_ratio == 0.0  # orientation: only μ's sign


# --------------------------------------------------------------------------- (3) choose=
def _random_policy(X, seed: int, p_none: float):
    rng = np.random.default_rng(seed)
    said: dict[int, tuple | None] = {}

    def choose(step: ODTStep, node: int):
        assert isinstance(step, ODTStep) and step.kind != "stop"
        assert step.tree.left[node] < 0
        out = None
        if rng.random() >= p_none:
            out = _student_line(rng, X, _members(step, X, node))
        said[step.t + 1] = out
        return out

    return choose, said


def _theorem2(step: ODTStep, X, y, w1) -> None:
    """Leaf outputs ½ ln(w⁺/w⁻) and exp loss Σ 2 sqrt(w⁺w⁻), one-class leaves apart."""
    tree = step.tree
    leaf = tree.apply(X)
    pure = 0.0
    for n in tree.leaves:
        here = leaf == n
        wp, wn = w1[here & (y > 0)].sum(), w1[here & (y < 0)].sum()
        assert (tree.w_pos[n], tree.w_neg[n]) == pytest.approx((wp, wn), abs=1e-12)
        if wp > 0 and wn > 0:
            assert tree.value[n] == pytest.approx(0.5 * math.log(wp / wn), abs=1e-9)
        else:
            pure += (wp + wn) * math.exp(-(1 if wp > 0 else -1) * tree.value[n])
    assert step.metrics.exp_loss - pure == pytest.approx(step.metrics.km_impurity, abs=1e-9)


@H
@given(
    sample=SAMPLES,
    weak=st.sampled_from(WEAK_LEARNERS),
    rule=st.sampled_from(LEAF_RULES),
    n_internal=st.integers(1, 6),
    seed=st.integers(0, 2**31 - 1),
    p_none=st.sampled_from([0.0, 0.5]),
)
def test_random_students_keep_the_protocol_and_theorems_1_and_2(
    sample, weak, rule, n_internal, seed, p_none
):
    X, y01, w = sample
    y = np.where(y01 == 1, 1, -1)
    w1 = _w1(w, len(y))
    choose, said = _random_policy(X, seed, p_none)
    kw = dict(n_stumps=3, weak=weak, sample_weight=w)
    run = list(boost_odt(X, y01, n_internal=n_internal, leaf_rule=rule, choose=choose, **kw))
    steps.check_run(run)
    for prev, s in zip(run, run[1:]):
        m = s.metrics
        # Theorem 1's chain: error ≤ ν(H, 0) ≤ max Π sqrt(1 − μ²), E e^{−yH} ≤ the same
        assert m.train_error <= m.margin_error_0 + 1e-12
        assert m.margin_error_0 <= m.bound_theorem1 + 1e-12
        assert m.exp_loss <= m.bound_theorem1 * (1 + 1e-9) + 1e-12
        assert np.all(m.margin_error <= m.bound_margin * (1 + 1e-9) + 1e-12)
        _theorem2(s, X, y, w1)
        if s.kind != STEP:
            continue
        assert m.n_leaves == s.t + 1
        line = said[s.t]
        assert s.by_policy == (line is not None)
        # the split is what the scoring of the same separator said it would be
        probe = line or ([1.0] * X.shape[1], 0.0)
        r = score_separator(X, y01, prev, s.node, *probe, **kw)
        assert r.algorithm.separator == s.algorithm_separator
        assert r.algorithm.inner == s.algorithm_inner
        if line is None:
            _same_split(r.algorithm, s)
        else:
            _same_split(r.yours, s)
            assert s.separator == line_separator(*line) and s.inner == ()
            np.testing.assert_allclose(s.separator.affine(X.shape[1])[0], line[0])
            assert "split by the policy's line" in s.message


def test_a_policy_that_always_defers_gives_the_default_run() -> None:
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=60) > 0).astype(int)
    for rule in LEAF_RULES:
        kw = dict(n_internal=5, n_stumps=4, weak="hyperplane", leaf_rule=rule)
        mine = list(boost_odt(X, y, choose=lambda step, node: None, **kw))
        default = list(boost_odt(X, y, **kw))
        assert [s.to_record() for s in mine] == [s.to_record() for s in default]
        assert [s.tree for s in mine] == [s.tree for s in default]


# --------------------------------------------------------------------------- (4) validation
@pytest.fixture(scope="module")
def odt_run():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    y[:3] = 1 - y[:3]
    run = list(boost_odt(X, y, n_internal=3, n_stumps=3))
    return X, y, run


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"node": 9}, "node must be between 0 and 4; got 9"),
        ({"node": 1.0}, "node must be an integer; got 1.0"),
        ({"node": 0}, "node must be a leaf of the snapshot's tree; node 0 is internal"),
        ({"direction": [1.0]}, "direction must be 2 numbers (one per feature); got shape (1,)"),
        ({"direction": [[1.0, 0.0]]}, "direction must be 2 numbers (one per feature); got shape"),
        ({"direction": [0.0, 0.0]}, "direction must not be the zero vector"),
        ({"direction": [1.0, float("nan")]}, "direction must be finite; got [1.0, nan]"),
        ({"direction": ["a", "b"]}, "direction must be 2 numbers (one per feature); got"),
        ({"offset": float("inf")}, "offset must be a finite number; got inf"),
        ({"n_stumps": 0}, "n_stumps must be between 1 and 200; got 0"),
        ({"weak": "tree"}, "weak must be one of 'stump', 'hyperplane'; got 'tree'"),
        ({"step": {"t": 1}}, "step must be an ODTStep snapshot of boost_odt; got dict"),
    ],
)
def test_score_separator_names_the_bad_parameter(odt_run, change, message) -> None:
    X, y, run = odt_run
    snap = run[2]  # leaves 1 and 4 are pure, leaf 3 holds both classes
    args = {"step": snap, "node": 3, "direction": [1.0, 1.0], "offset": 0.0, "n_stumps": 3}
    args.update(change)
    pos = [args.pop(k) for k in ("step", "node", "direction", "offset")]
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        score_separator(X, y, *pos, **args)


def test_score_separator_refuses_a_pure_leaf_and_a_snapshot_of_other_data(odt_run) -> None:
    X, y, run = odt_run
    last = run[2]
    pure = [n for n in last.tree.leaves if not (last.tree.w_pos[n] and last.tree.w_neg[n])]
    assert pure == [1, 4]
    with pytest.raises(ValueError, match=f"^node must hold both classes .*; node {pure[0]} holds"):
        score_separator(X, y, last, pure[0], [1.0, 0.0], 0.0)
    m = len(y)
    with pytest.raises(ValueError, match=f"its weights hold {m} examples, X has {m - 1} rows"):
        score_separator(X[:-1], y[:-1], last, 3, [1.0, 0.0], 0.0)
    other = np.linspace(1.0, 2.0, m)  # not the run's w_1
    with pytest.raises(ValueError, match="^step must be a snapshot of a run on these X, y and"):
        score_separator(X, y, last, 3, [1.0, 0.0], 0.0, sample_weight=other)


def test_boost_odt_checks_choose_up_front_and_what_it_returns(odt_run) -> None:
    X, y, _ = odt_run
    with pytest.raises(ValueError, match=r"^choose must be None or a callable .*; got 'line'$"):
        boost_odt(X, y, choose="line")  # at call time, before any step
    bad = [
        ("ab", "choose must return None or (direction, offset); for node 0 at step 1"),
        (([1.0, 0.0],), "choose must return None or (direction, offset); for node 0 at step 1"),
        (([1.0, 0.0, 2.0], 0.0), "the direction choose returned must be 2 numbers"),
        (([0.0, 0.0], 0.0), "the direction choose returned must not be the zero vector"),
        (([1.0, 0.0], "0"), "the offset choose returned must be a finite number; got '0'"),
        (
            ([1.0, 0.0], 100.0),
            "the separator choose returned for node 0 at step 1 must send the node's "
            "examples to both sides; it sends all 40 to the right",
        ),
    ]
    for out, message in bad:
        run = boost_odt(X, y, n_internal=2, n_stumps=2, choose=lambda s, n, out=out: out)
        assert next(run).kind == "start"
        with pytest.raises(ValueError, match="^" + re.escape(message)):
            next(run)


def test_line_separator_is_the_affine_function_of_the_line() -> None:
    rng = np.random.default_rng(0)
    for d in (1, 2, 3):
        for _ in range(20):
            direction = rng.normal(size=d) * (rng.random(d) < 0.8)
            if not direction.any():
                continue
            offset = float(rng.normal()) if rng.random() < 0.8 else 0.0
            ls = line_separator(direction, offset)
            X = rng.normal(size=(30, d))
            np.testing.assert_allclose(ls.decision_function(X), X @ direction + offset, atol=1e-12)
            coef, intercept = ls.affine(d)
            np.testing.assert_array_equal(coef, direction)
            assert intercept == offset
            assert all(a > 0 for a in ls.alphas)
