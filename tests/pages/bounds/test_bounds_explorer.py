"""Closed-form bounds of Grossmann and Takimoto et al.; the paper figures' shapes.

See docs/theory.md §2, §3 and §5.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boostcore import bounds
from boostcore.branching import eps_bands

RHO = [31 / 32, 7 / 8, 3 / 4, 1 / 2, 1 / 4]
rhos = st.floats(0.01, 0.999)


@given(rho=rhos)
def test_f_small_cases(rho):
    assert bounds.f_tree(1, rho) == pytest.approx(rho)
    assert bounds.f_tree(2, rho) == pytest.approx(rho * (1 + rho) / 2)
    assert bounds.f_tree(37, 1.0) == pytest.approx(1.0)


@given(rho=rhos, T=st.integers(1, 300))
def test_f_is_the_product(rho, T):
    prod = math.prod((t + rho) / (t + 1) for t in range(T))
    assert bounds.f_tree(T, rho) == pytest.approx(prod, rel=1e-9)


def test_f_large_T_is_finite_and_matches_the_asymptote():
    T, rho = 1e6, 7 / 8
    assert bounds.f_tree(T, rho) == pytest.approx(T ** (rho - 1) / math.gamma(rho), rel=1e-5)


@given(rho=rhos, L=st.integers(1, 12))
def test_ordering_of_figure_2_left(rho, L):
    """ρ^T < M2(T, ρ) < F(T, ρ) for T = 2^L ≥ 2 (the paper's Fig. 2 left, bottom to top)."""
    T = 2**L
    assert rho**T <= bounds.m2(L, rho) + 1e-15
    assert bounds.m2(L, rho) <= bounds.f_tree(T, rho) + 1e-15
    if L >= 2:
        assert rho**T < bounds.m2(L, rho) < bounds.f_tree(T, rho)


@pytest.mark.parametrize("rho", RHO)
@pytest.mark.parametrize("T", [16, 256, 1024])
def test_figure_2_right_equals_f_at_both_ends_and_is_lower_between(rho, T):
    t1 = np.unique(np.round(np.geomspace(1, T, 25)))
    curve = np.array([bounds.nested_f([t, T / t], rho) for t in t1])
    f = bounds.f_tree(T, rho)
    assert curve[0] == pytest.approx(f, rel=1e-9) and curve[-1] == pytest.approx(f, rel=1e-9)
    assert np.all(curve[1:-1] < f)


@pytest.mark.parametrize("T", [1024, 65536])
def test_figure_3_deeper_nesting_lowers_the_bound(T):
    levels = np.arange(1, 21)
    values = bounds.nested_equal(T, levels, 31 / 32)
    assert values[0] == pytest.approx(bounds.f_tree(T, 31 / 32))
    assert np.all(np.diff(values) < 0)


def test_spec_numbers_for_the_nesting_caveat():
    rho, T = 7 / 8, 1024
    assert bounds.m2(10, rho) == pytest.approx(0.033, abs=5e-4)  # the paper's M2
    assert bounds.f_tree(T, rho) == pytest.approx(0.39, abs=0.01)  # the plain tree
    assert bounds.valid_nested_f(32, 32, rho) > 0.95  # the composition that does follow


@given(C=st.floats(0.01, 0.99), T=st.floats(2, 500))
def test_rate_of_eq_14_is_the_derivative(C, T):
    h = 1e-6 * T
    fd = (bounds.f_tree((T + h) / T, C) - bounds.f_tree((T - h) / T, C)) / (2 * h)
    assert bounds.matryoshka_rate(C, T) == pytest.approx(fd, rel=1e-5, abs=1e-12)


@given(T=st.floats(0.5, 500), rho=rhos)
def test_dF_dT_against_finite_difference(T, rho):
    # a wide step: gammaln of large T carries ~1e-13 absolute error, which a tiny step would
    # magnify; the central difference's own error is O(h²) and stays far below the tolerance
    h = 1e-3 * T
    fd = (bounds.f_tree(T + h, rho) - bounds.f_tree(T - h, rho)) / (2 * h)
    assert bounds.f_tree_dT(T, rho) == pytest.approx(fd, rel=1e-4, abs=1e-12)


@given(c=st.floats(0.02, 0.98), g=st.floats(1e-4, 1.0))
def test_band_count_matches_the_band_edges(c, g):
    assert bounds.band_count(c, g) == len(eps_bands(c, g)) - 1


def test_infoboost_rounds_and_rho_of_edge():
    assert bounds.infoboost_rounds(0.1, math.exp(-3)) == pytest.approx(30)
    assert (1 - 0.1) ** bounds.infoboost_rounds(0.1, 0.01) <= 0.01
    assert bounds.rho_of_edge(0.0) == 1.0
    assert bounds.rho_of_edge(np.array([0.12, 0.46])) == pytest.approx(
        [math.sqrt(1 - 4 * 0.12**2), math.sqrt(1 - 4 * 0.46**2)]
    )
    with pytest.raises(ValueError, match="edge"):
        bounds.rho_of_edge(0.6)
    with pytest.raises(ValueError, match="gamma"):
        bounds.infoboost_rounds(0.0, 0.1)


# --------------------------------------------------------------------------------------------
# The bounds explorer's new figures (issue 14, A.6 and A.7)

import plotly.graph_objects as go  # noqa: E402

from ui.pages.bounds import figures as bf  # noqa: E402


def _valid(fig):
    """Check the figure with plotly's validation (the module skips it for speed); return it
    unchanged (validation would re-encode the arrays)."""
    go.Figure(fig.to_plotly_json())
    return fig


@pytest.mark.parametrize("size, gamma", [(8, 0.1), (71, 0.1), (128, 0.3), (1024, 0.5)])
def test_admissible_arity_figure_draws_both_rules(size, gamma):
    fig = _valid(bf.admissible_arity_figure(size, gamma))
    by = {t.name: t for t in fig.data}
    n = np.arange(1, size)
    np.testing.assert_array_equal(
        by["Hatano: k ≤ s/|T|"].y, bounds.max_admissible_arity(n, size, "hatano")
    )
    np.testing.assert_array_equal(
        by[f"Mansour–McAllester, γ = {gamma:g}"].y,
        bounds.max_admissible_arity(n, size, "mansour_mcallester", gamma),
    )
    assert any(name.startswith("K = 4") for name in by)


def test_admissible_arity_figure_at_the_multiway_preset_shows_mm_binary():
    """s = 8, γ = 0.1 (the top-down 'multiway' preset): Hatano allows 8 and 4 branches at
    |T| = 1, 2; Mansour–McAllester never more than 2."""
    fig = bf.admissible_arity_figure(8, 0.1)
    by = {t.name: t for t in fig.data}
    assert list(by["Hatano: k ≤ s/|T|"].y[:2]) == [8, 4]
    assert set(by["Mansour–McAllester, γ = 0.1"].y) == {2}


def test_multiway_budget_figure_crosses_71_at_gamma_one_tenth():
    fig = _valid(bf.multiway_budget_figure(64, 0.1))
    mm3 = next(t for t in fig.data if t.name == "Mansour–McAllester, k = 3")
    i = int(np.argmin(np.abs(np.asarray(mm3.x) - 0.1)))
    assert mm3.x[i] == pytest.approx(0.1) and mm3.y[i] == 71
    assert min(mm3.y) == 32  # never below 32, whatever γ
    mark = next(t for t in fig.data if t.name == "s = 64")
    assert list(mark.x) == [0.1] and list(mark.y) == [64]


def test_size_bounds_at_marks_phi_below_e_below_power():
    fig = _valid(bf.size_bounds_at(0.2578987518461691, 8))
    marks = {t.name: t.y[0] for t in fig.data if t.name and "at s = 8" in t.name}
    assert round(marks["φ_γ(s) at s = 8"], 3) == 0.409
    assert round(marks["s<sup>−γ</sup> at s = 8"], 3) == 0.585
    assert marks["φ_γ(s) at s = 8"] < marks["e_γ(s) at s = 8"] < marks["s<sup>−γ</sup> at s = 8"]


def test_weak_learning_sizes_figure_orders_the_bounds():
    fig = _valid(bf.weak_learning_sizes_figure(0.1, 0.2))
    by = {t.name: np.asarray(t.y) for t in fig.data}
    assert np.all(by["φ_γ(s) ≤ ε"] <= by["e_γ(s) ≤ ε"] + 1e-9)
    assert np.all(by["e_γ(s) ≤ ε"] <= by["s<sup>−γ</sup> ≤ ε"] + 1e-9)
    d = np.asarray(next(t for t in fig.data if t.name == "s<sup>−γ</sup> ≤ ε").x)
    np.testing.assert_allclose(by["s<sup>−γ</sup> ≤ ε"], 16 / d**2, rtol=1e-9)  # log₁₀(1/0.1) = 1
