"""The chain's exact expected error (boostcore/exact_chain.py; issue 41, item 1) against a sum
over every one of the 2^T answer patterns written here, and the chain's run that uses it."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from boostcore.exact_chain import EXACT_BUDGET, TIE_RTOL, exact_possible, expected_error
from boostcore.probabilistic import prob_adaboost
from tests.strategies import labelled_samples


def _brute(Q, y, a_plus, a_minus) -> float:
    """``mean_i Σ_patterns P(pattern | x_i) ([y_i H < 0] + ½[H = 0])``, pattern by pattern;
    ``H`` is a tie (``H = 0``) within ``TIE_RTOL·(Σα₊ + Σα₋)`` of 0, the documented rule (the
    integer-grid α's below make exact ties; a lone α of 1e-186 is no tie)."""
    n, T = np.shape(Q)
    if T == 0:
        return 0.5
    eps = TIE_RTOL * float(np.sum(np.abs(a_plus)) + np.sum(np.abs(a_minus)))
    total = 0.0
    for i in range(n):
        for bits in itertools.product((0, 1), repeat=T):
            p, H = 1.0, 0.0
            for t, b in enumerate(bits):
                p *= Q[i][t] if b else 1 - Q[i][t]
                H += a_plus[t] if b else -a_minus[t]
            tie = abs(H) <= eps
            total += p * ((not tie and y[i] * H < 0) + 0.5 * tie)
    return total / n


@st.composite
def chains(draw):
    n = draw(st.integers(1, 6))
    T = draw(st.integers(0, 9))
    probs = st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1e-9, 0.5, 1 - 1e-9, 1.0]))
    Q = [[draw(probs) for _ in range(T)] for _ in range(n)]
    y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    # small integers tie H = 0 often; floats almost never
    alpha = st.one_of(st.integers(0, 3).map(float), st.floats(0, 5))
    return Q, y, [draw(alpha) for _ in range(T)], [draw(alpha) for _ in range(T)]


@given(chains())
@example(([[0.0], [0.0], [0.0], [0.0]], [-1, -1, -1, -1], [0.0], [7.230463136088655e-186]))
@settings(max_examples=300, deadline=None)
def test_the_exact_error_is_the_sum_over_every_answer_pattern(case) -> None:
    Q, y, a_plus, a_minus = case
    assert expected_error(Q, y, a_plus, a_minus) == pytest.approx(
        _brute(Q, y, a_plus, a_minus), abs=1e-12
    )


def test_ties_count_half_and_the_budget_is_stated() -> None:
    # two fair stumps of α = 1 on a positive point: H ∈ {−2, 0, 0, 2}
    assert expected_error([[0.5, 0.5]], [1], [1, 1], [1, 1]) == pytest.approx(0.5)
    assert expected_error(np.zeros((3, 0)), [1, -1, 1], [], []) == 0.5
    assert exact_possible(28, 250) and not exact_possible(29, 250)
    assert exact_possible(20, EXACT_BUDGET // 2**10) and not exact_possible(
        20, EXACT_BUDGET // 2**10 + 1
    )
    with pytest.raises(ValueError, match="beyond the exact budget"):
        expected_error(np.full((300, 30), 0.5), np.ones(300), np.ones(30), np.ones(30))
    with pytest.raises(ValueError, match="one row per label"):
        expected_error([[0.5]], [1, 1], [1.0], [1.0])


@given(labelled_samples(min_n=4, max_n=12, max_d=2), st.sampled_from([0.02, 0.1, 0.5]))
@settings(max_examples=40, deadline=None)
def test_the_chain_reports_its_exact_error_below_the_product_of_z(sample, tau) -> None:
    X, y = sample
    run = list(prob_adaboost(X, y, n_rounds=5, softness=tau, mc_samples=100))
    for s in run:
        stumps = s.model.stumps
        Q = [[h.q_pos(X[i : i + 1])[0] for h in stumps] for i in range(len(y))]
        exact = _brute(Q, np.where(y > 0, 1, -1), s.model.alpha_pos, s.model.alpha_neg)
        assert s.metrics.mc_stderr is None
        assert s.metrics.train_error == pytest.approx(exact, abs=1e-12)
        assert s.metrics.train_error <= s.metrics.bound_C + 1e-12  # E(Loss) ≤ Π Z_t


def test_beyond_the_budget_the_estimate_says_its_floored_standard_error() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=600) > 0, 1, -1)
    run = list(prob_adaboost(X, y, n_rounds=26, softness=0.01, mc_samples=200))
    est = [s for s in run if s.metrics.mc_stderr is not None]
    assert [s.t for s in est] == [s.t for s in run if not exact_possible(s.t, 600)]
    assert {s.t for s in est} == {25, 26}
    # near-deterministic stumps: every world may lose the same, and the floor still holds
    for s in est:
        assert s.metrics.mc_stderr >= math.sqrt(3) / 200 - 1e-15
