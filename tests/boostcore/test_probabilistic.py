"""Probabilistic boosting (docs/theory.md §3): the bounds as property tests on random data."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore import bounds
from boostcore.probabilistic import (
    ProbTree,
    SoftStump,
    best_soft_stump,
    matryoshka,
    prob_adaboost,
    prob_tree,
    soft_weights,
)
from tests.strategies import labelled_samples

H = settings(max_examples=25, deadline=None)


#: (X, y, τ): a sample and the softness τ of the soft stumps
SAMPLES = st.tuples(
    labelled_samples(min_n=10, max_d=2, ties=("none",), labels=("linear",), noise=(0.0, 1.5)),
    st.floats(0.05, 2.0),
).map(lambda s: (*s[0], s[1]))


@H
@given(data=SAMPLES, T=st.integers(1, 10))
def test_tree_expected_error_below_C_below_F(data, T):
    X, y, tau = data
    for s in prob_tree(X, y, n_internal=T, softness=tau):
        m = s.metrics
        tree = s.model
        assert m.train_error <= m.bound_C + 1e-12  # Eq. (8), exact q
        assert m.bound_C <= m.bound_F + 1e-12  # greedy growth: C(T) ≤ F(T, ρ̂)
        assert m.n_weak == s.t == tree.n_weak
        if s.t:
            assert m.rho_hat <= 1.0 + 1e-12  # Z₊ + Z₋ ≤ 1 at every node
        else:  # the initial model: one leaf, H = 0
            assert np.isnan(m.rho_hat) and m.train_error == 0.5 and m.bound_C == 1.0
        for ch in tree.children:
            if ch is not None:
                assert tree.Z[ch[0]] + tree.Z[ch[1]] <= 1.0 + 1e-12
        # E[exp(−yH)] over the leaves equals C(T) exactly (the telescoping behind Eq. (8))
        leaves, P = tree.leaf_probabilities(X)
        h = np.array([tree.leaf_value(l) for l in leaves])
        expo = np.mean(np.sum(P * np.exp(-np.outer(y, h)), axis=1))
        assert expo == pytest.approx(m.bound_C, rel=1e-9)
        assert np.allclose(P.sum(axis=1), 1.0)


@H
@given(data=SAMPLES, T=st.integers(1, 8))
def test_chain_expected_error_below_product_of_Z(data, T):
    X, y, tau = data
    for s in prob_adaboost(X, y, n_rounds=T, softness=tau, mc_samples=400):
        m = s.metrics
        if m.mc_stderr is None:  # exact (boostcore.exact_chain)
            assert m.train_error <= m.bound_C + 1e-12
        else:  # Monte Carlo: allow four standard errors (plus the 1/R resolution)
            assert m.train_error <= m.bound_C + 4 * m.mc_stderr + 1e-2
        assert m.n_weak == s.t == len(s.model.stumps)
        if s.t:
            assert m.bound_C <= m.rho_hat**m.n_weak + 1e-12  # Π Z ≤ (max Z)^T
        assert m.bound_C <= m.bound_rho_T + 1e-12


@H
@given(data=SAMPLES, L=st.integers(1, 3))
def test_matryoshka_expected_error_below_its_C(data, L):
    X, y, tau = data
    for s in matryoshka(X, y, levels=L, softness=tau):
        assert s.metrics.train_error <= s.metrics.bound_C + 1e-12
        assert s.model.n_weak == s.metrics.n_weak  # t counts levels, n_weak the stumps
        assert s.metrics.n_weak == (2**s.t if s.t else 0)
        assert (s.metrics.bound_M2 is not None) == (s.t > 0)


def test_softness_to_zero_is_a_deterministic_stump():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 1] > 0.1, 1, -1)
    D = np.full(80, 1 / 80)
    stump = SoftStump(feature=1, theta=0.05, polarity=1, tau=1e-6)
    hard = X[:, 1] > 0.05
    wpp, wpn, wmp, wmn = soft_weights(stump.q_pos(X), y, D)
    assert wpp == pytest.approx(D[hard & (y > 0)].sum(), abs=1e-8)
    assert wpn == pytest.approx(D[hard & (y < 0)].sum(), abs=1e-8)
    assert wmp == pytest.approx(D[~hard & (y > 0)].sum(), abs=1e-8)
    assert wmn == pytest.approx(D[~hard & (y < 0)].sum(), abs=1e-8)
    best = best_soft_stump(X, y, D, tau=1e-6)
    assert best.feature == 1


def test_weak_learner_minimises_Z_over_its_candidates():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 2))
    y = np.where(X[:, 0] - X[:, 1] > 0, 1, -1)
    D = rng.random(100)
    D /= D.sum()
    best = best_soft_stump(X, y, D, 0.3)

    def z(stump):
        wpp, wpn, wmp, wmn = soft_weights(stump.q_pos(X), y, D)
        return 2 * np.sqrt(wpp * wpn) + 2 * np.sqrt(wmp * wmn)

    zb = z(best)
    for j in range(2):
        for th in np.quantile(X[:, j], np.linspace(0.05, 0.95, 25)):
            assert zb <= z(SoftStump(j, th, 1, 0.3)) + 2e-3  # a grid near the candidates
        assert z(SoftStump(j, best.theta, -1, 0.3)) == pytest.approx(
            z(SoftStump(j, best.theta, 1, 0.3))
        )  # polarity does not change Z₊ + Z₋


def test_tree_model_pickles_and_is_frozen():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    steps = list(prob_tree(X, y, n_internal=4))
    tree = steps[-1].model
    assert isinstance(tree, ProbTree)
    back = pickle.loads(pickle.dumps(tree))
    assert np.allclose(back.q_pos(X), tree.q_pos(X))
    with pytest.raises(AttributeError):
        tree.alpha = ()
    assert steps[-1].metrics.bound_F == pytest.approx(bounds.f_tree(4, steps[-1].metrics.rho_hat))


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"n_internal": 0}, "n_internal"),
        ({"softness": 0.0}, "softness"),
        ({"random_state": -1}, "random_state"),
    ],
)
def test_invalid_parameters(kw, name):
    X = np.random.default_rng(0).normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    args = {"n_internal": 3, **kw}
    with pytest.raises(ValueError, match=name):
        prob_tree(X, y, **args)
    with pytest.raises(ValueError, match="single class"):
        prob_tree(X, np.ones(20), n_internal=2)
    with pytest.raises(ValueError, match="levels"):
        matryoshka(X, y, levels=0)


def test_chain_metrics_use_the_same_worlds_as_the_model():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1, -1)
    step = list(prob_adaboost(X, y, n_rounds=5, mc_samples=300, random_state=7))[-1]
    H = step.model.sample_H(X)
    world_loss = np.mean((H * y[None, :] < 0) + 0.5 * (H == 0), axis=1)
    # five stumps: the metrics hold the exact error, which the model's worlds estimate
    assert step.metrics.mc_stderr is None
    se = world_loss.std(ddof=1) / np.sqrt(world_loss.size)
    assert abs(step.metrics.train_error - world_loss.mean()) <= 4 * se
    # evaluating a subset gives the same per-point estimates (common random numbers)
    assert np.allclose(step.model.q_pos(X[:7]), step.model.q_pos(X)[:7])


def test_map_estimation_adds_noise_and_converges():
    from boostcore.probabilistic import map_estimate

    rng = np.random.default_rng(4)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 0] + 0.4 * rng.normal(size=80) > 0, 1, -1)
    exact = list(prob_tree(X, y, n_internal=4))[-1].metrics
    rough = list(prob_tree(X, y, n_internal=4, samples=3, random_state=1))[-1].metrics
    fine = list(prob_tree(X, y, n_internal=4, samples=100_000, random_state=1))[-1].metrics
    assert rough.bound_C != pytest.approx(
        exact.bound_C, abs=1e-6
    )  # three answers are a noisy estimate
    assert fine.bound_C == pytest.approx(exact.bound_C, abs=5e-3)  # many answers: the exact q again
    q = np.array([0.2, 0.9])
    assert map_estimate(q, 10, 0, 1).shape == (2,)
    assert np.all((map_estimate(q, 10, 0, 1) > 0) & (map_estimate(q, 10, 0, 1) < 1))
    chain = list(prob_adaboost(X, y, n_rounds=3, samples=5, mc_samples=100))[-1]
    assert np.isfinite(chain.metrics.bound_C)


@H
@given(data=SAMPLES, T=st.integers(2, 10))
def test_collapse_rule_keeps_a_valid_bound_and_every_stump(data, T):
    from boostcore.probabilistic import collapse_tree

    X, y, tau = data
    for s in collapse_tree(X, y, n_internal=T, softness=tau):
        assert s.metrics.train_error <= s.metrics.bound_C + 1e-12
        assert s.model.n_weak == s.t == s.metrics.n_weak  # a collapse never drops a stump
        if s.kind == "step":  # the stop snapshot repeats the last step with its own message
            assert s.collapsed == ("collapsed" in s.message)


# ------------------------------------------------------------------ the weak learner's search
def _Z(stump, X, y, D):
    wpp, wpn, wmp, wmn = soft_weights(stump.q_pos(X), y, D)
    return 2 * np.sqrt(wpp * wpn) + 2 * np.sqrt(wmp * wmn)


def test_weak_learner_finds_the_best_stump_when_the_weight_sits_on_two_points():
    """Issue 14, C.3: a node whose weight sits on two points 3.73 apart (τ = 0.3). Weighted
    quantiles only offer θ at the two points (Z = 0.709); the best soft stump sits between
    them, Z = 2/(e^{u/2} + e^{−u/2}) at u = 3.73/(2·0.3): 0.089."""
    rng = np.random.default_rng(0)
    X = np.r_[[0.0, 3.73], rng.uniform(-1, 5, 20)][:, None]
    y = np.r_[[-1, 1], np.where(rng.random(20) < 0.5, 1, -1)]
    D = np.r_[[0.5, 0.5], np.full(20, 1e-7)]
    D /= D.sum()
    best = best_soft_stump(X, y, D, 0.3)
    assert _Z(best, X, y, D) == pytest.approx(1 / np.cosh(3.73 / 0.3 / 4), abs=2e-3)
    assert round(_Z(best, X, y, D), 3) == 0.089
    assert 1.5 < best.theta < 2.2  # between the two heavy points, not on one of them


@st.composite
def weighted_nodes(draw):
    """A node's weights: random data, weights from uniform to concentrated on a few points."""
    m = draw(st.integers(4, 40))
    d = draw(st.integers(1, 2))
    rng = np.random.default_rng(draw(st.integers(0, 10_000)))
    X = np.round(rng.normal(size=(m, d)) * 2, draw(st.integers(1, 3)))  # ties happen
    y = np.where(rng.random(m) < 0.5, 1, -1)
    y[:2] = (-1, 1)
    D = rng.random(m) ** draw(st.floats(0.0, 30.0))  # large powers: weight on a few points
    D /= D.sum()
    return X, y, D, draw(st.sampled_from([0.02, 0.1, 0.3, 1.0]))


@H
@given(node=weighted_nodes())
def test_weak_learner_beats_every_stump_of_a_fine_grid(node):
    """Issue 14, C.3: the soft stump returned minimises Z₊ + Z₋ — no stump on a grid of
    spacing τ/50 over the data (and 4τ beyond it) on any feature does better."""
    X, y, D, tau = node
    zb = _Z(best_soft_stump(X, y, D, tau), X, y, D)
    pos = y > 0
    for j in range(X.shape[1]):
        lo, hi = X[:, j].min() - 4 * tau, X[:, j].max() + 4 * tau
        thetas = np.linspace(lo, hi, int(np.ceil((hi - lo) / (tau / 50))) + 1)
        # Z of every grid stump at once, written out independently of the learner's code
        q = np.clip(1 / (1 + np.exp(-(X[:, j, None] - thetas[None, :]) / tau)), 1e-9, 1 - 1e-9)
        wpp, wpn = (D * pos) @ q, (D * ~pos) @ q
        wmp, wmn = (D * pos) @ (1 - q), (D * ~pos) @ (1 - q)
        z = 2 * np.sqrt(wpp * wpn) + 2 * np.sqrt(wmp * wmn)
        k = int(np.argmin(z))
        assert zb <= z[k] + 1e-7, (j, thetas[k], tau, zb, z[k])


# ------------------------------------------------------------------ the doll check (§3.3)
def _stump_sums(tree):
    """Z₊ + Z₋ of every soft stump inside ``tree`` (nested dolls included), walked here."""
    out = []
    for n, ch in enumerate(tree.children):
        if ch is not None:
            clf = tree.classifier[n]
            out += (
                _stump_sums(clf) if isinstance(clf, ProbTree) else [tree.Z[ch[0]] + tree.Z[ch[1]]]
            )
    return out


@H
@given(data=SAMPLES, L=st.integers(2, 4))
def test_doll_checks_node_Z_never_below_C_and_the_papers_rho(data, L):
    """Issue 14, C.1 (docs/theory.md §3.3): a doll's Z₊ + Z₋ as a node is never below its own
    C, so Z₊ + Z₋ − C ≥ 0 always and says nothing about the paper; what the paper plugs in
    as the next level's ρ is the doll's bound M2(T₁, ρ̂) (F(2, ρ̂) for a level-1 doll), with
    ρ̂ its stumps' largest Z₊ + Z₋ — and the level-1 case of that bound is a valid one."""
    X, y, tau = data
    step = list(matryoshka(X, y, levels=L, softness=tau))[-1]
    assert len(step.dolls) == 2**L - 2  # every doll of level ≥ 1 is used as a node once
    for d in step.dolls:
        assert d.node_Z - d.C >= -1e-12  # merging leaves only raises Σ 2√(W⁺W⁻)
        assert d.n_weak == 2**d.level
        assert d.paper_bound == pytest.approx(bounds.m2(d.level, d.rho_hat), rel=1e-12)
        assert d.node_excess == pytest.approx(d.node_Z - d.paper_bound, abs=1e-15)
        if d.level == 1:  # a greedy two-node tree of stumps: C ≤ F(2, ρ̂) is a theorem
            assert d.paper_bound == pytest.approx(d.rho_hat * (1 + d.rho_hat) / 2)
            assert d.C <= d.paper_bound + 1e-12
    # ρ̂ of each doll, walked independently: the top level's root doll holds the first half
    root_doll = step.model.classifier[0]
    top_root = [d for d in step.dolls if d.level == L - 1][0]
    assert top_root.rho_hat == pytest.approx(max(_stump_sums(root_doll)), rel=1e-12)
    assert top_root.C == pytest.approx(root_doll.C(), rel=1e-12)
