"""Closed-form bounds (docs/theory.md §1.1, §1.3, §1.5, §5): e_γ, g_γ, φ_γ, s^(−γ), ⌈log₂ k⌉."""

from __future__ import annotations

import heapq
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore.bounds import ceil_log2, e_gamma, g_gamma, phi_gamma, size_bound

H = settings(deadline=None, database=None, max_examples=150)
open_gamma = st.floats(min_value=1e-6, max_value=1.0 - 1e-6, allow_nan=False)
GAMMAS = [1e-4, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99]


def explicit_e(n: int, gamma: float) -> float:
    """Π_{i=1}^{n−1} (1 − γ/i), multiplied out (the corrected Mansour–McAllester formula)."""
    out = 1.0
    for i in range(1, n):
        out *= 1.0 - gamma / i
    return out


def harmonic(k: int) -> float:
    """H_{k−1} = Σ_{i=1}^{k−1} 1/i."""
    return sum(1.0 / i for i in range(1, k))


# --------------------------------------------------------------------------------------------
# e_γ


@pytest.mark.parametrize("gamma", [0.0, *GAMMAS, 1.0])
def test_e_gamma_at_one_is_one(gamma):
    assert e_gamma(1, gamma) == 1.0


@H
@given(gamma=open_gamma)
def test_e_gamma_matches_explicit_product(gamma):
    ns = np.arange(1, 201)
    values = e_gamma(ns, gamma)
    assert values.shape == ns.shape
    expected = np.array([explicit_e(int(n), gamma) for n in ns])
    np.testing.assert_allclose(values, expected, rtol=1e-9, atol=1e-300)
    # scalar path agrees with the vector path
    for n in (2, 3, 17, 200):
        assert e_gamma(n, gamma) == pytest.approx(expected[n - 1], rel=1e-9)


@H
@given(gamma=open_gamma)
def test_e_gamma_recursion(gamma):
    """e(n+1) = (1 − γ/n)·e(n): the identity the proof uses (the printed γ/n is a typo)."""
    ns = np.arange(1, 500)
    e_n = e_gamma(ns, gamma)
    e_next = e_gamma(ns + 1, gamma)
    np.testing.assert_allclose(e_next, (1.0 - gamma / ns) * e_n, rtol=1e-9)


@H
@given(gamma=open_gamma)
def test_e_gamma_below_power_law_and_decreasing(gamma):
    ns = np.arange(1, 5001)
    e = e_gamma(ns, gamma)
    assert np.all(e <= ns ** (-gamma) * (1 + 1e-12))
    assert np.all(e > 0)
    assert np.all(np.diff(e) < 0)


def test_e_gamma_limits():
    assert e_gamma(50, 0.0) == 1.0
    np.testing.assert_array_equal(e_gamma(np.array([1, 2, 10]), 1.0), [1.0, 0.0, 0.0])
    assert e_gamma(2, 0.3) == pytest.approx(0.7)
    assert e_gamma(3, 0.3) == pytest.approx(0.7 * 0.85)


def test_e_gamma_large_n_is_finite_and_matches_asymptotics():
    """e_γ(n) ~ n^(−γ)/Γ(1−γ) for large n (Γ-function form)."""
    for gamma in (0.1, 0.5, 0.9):
        n = 10**7
        assert e_gamma(n, gamma) == pytest.approx(n ** (-gamma) / math.gamma(1 - gamma), rel=1e-5)


# --------------------------------------------------------------------------------------------
# g_γ


@pytest.mark.parametrize("gamma", [0.0, *GAMMAS, 1.0])
def test_g_gamma_of_two_is_one(gamma):
    assert g_gamma(2, gamma) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("gamma", GAMMAS)
def test_g_gamma_definition(gamma):
    ks = np.arange(1, 60)
    expected = np.array([(1.0 - explicit_e(int(k), gamma)) / gamma for k in ks])
    np.testing.assert_allclose(g_gamma(ks, gamma), expected, rtol=1e-8, atol=1e-12)


def test_g_gamma_at_zero_is_harmonic_number():
    ks = np.arange(1, 100)
    np.testing.assert_allclose(g_gamma(ks, 0.0), [harmonic(int(k)) for k in ks], rtol=1e-12)


@H
@given(gamma=open_gamma, k=st.integers(2, 400))
def test_g_gamma_between_harmonic_bounds(gamma, k):
    """H − γH²/2 ≤ g_γ(k) ≤ H with H = H_{k−1} (from 1 − Σa ≤ Π(1−a) ≤ 1 − Σa + (Σa)²/2)."""
    h = harmonic(k)
    g = g_gamma(k, gamma)
    assert g <= h + 1e-9
    assert g >= h - gamma * h * h / 2 - 1e-9


@pytest.mark.parametrize("k", [2, 3, 4, 5, 8, 16, 64, 1000])
def test_g_gamma_tends_to_harmonic_number_and_that_is_close_to_ln_k(k):
    """g_γ(k) → H_{k−1} as γ → 0, and ln k ≤ H_{k−1} < ln k + 1.

    So "g_γ(k) ≈ ln k" (Mansour–McAllester) means: within Euler's constant-ish for small γ.
    g_γ(k) ≥ ln k does *not* hold for larger γ (e.g. γ = 0.5, k = 16), which is also checked.
    """
    h = harmonic(k)
    assert math.log(k) <= h < math.log(k) + 1
    for gamma in (1e-6, 1e-4, 1e-2):
        assert h - gamma * h * h / 2 - 1e-9 <= g_gamma(k, gamma) <= h + 1e-9
    gammas = np.array([1e-4, 1e-2, 0.1, 0.3, 0.6, 0.9, 1.0])
    values = np.array([g_gamma(k, float(g)) for g in gammas])
    assert np.all(np.diff(values) <= 1e-9)  # non-increasing in γ
    if k >= 16:
        assert g_gamma(k, 0.5) < math.log(k)


@pytest.mark.parametrize("gamma", [1e-12, 1e-9, 1e-6, 1e-3])
def test_g_gamma_accurate_for_small_gamma(gamma):
    """(1 − e_γ(k))/γ must not lose its digits to cancellation when γ is small.

    Reference: 1 − Π(1 − γ/i) = −expm1(Σ log1p(−γ/i)), which is accurate for any γ.
    """
    for k in (2, 3, 5, 16, 100):
        ref = -math.expm1(sum(math.log1p(-gamma / i) for i in range(1, k))) / gamma
        assert g_gamma(k, gamma) == pytest.approx(ref, rel=1e-6)


def test_g_gamma_vectorised():
    ks = np.array([2, 3, 4])
    out = g_gamma(ks, 0.25)
    assert isinstance(out, np.ndarray) and out.shape == (3,)
    assert isinstance(g_gamma(3, 0.25), float)


# --------------------------------------------------------------------------------------------
# s^(−γ)


def test_size_bound_values():
    assert size_bound(1, 0.7) == 1.0
    assert size_bound(16, 0.5) == pytest.approx(0.25)
    np.testing.assert_allclose(size_bound(np.array([2, 4]), 1.0), [0.5, 0.25])


# --------------------------------------------------------------------------------------------
# φ_γ (Hatano's weight distribution game)


def hatano_phi(s: int, gamma: float) -> float:
    i = s.bit_length() - 1  # 2^i ≤ s < 2^(i+1)
    s_rest = s - 2**i
    assert 0 <= s_rest < 2**i
    return (1.0 - gamma) ** i * (1.0 - s_rest * gamma / 2**i)


def simulate_equal_binary_game(s: int, gamma: float) -> float:
    """Max-weight player vs. the 'k = 2, equal split' adversary: total final weight."""
    heap = [-1.0]
    while len(heap) < s:
        w = -heapq.heappop(heap)
        child = (1.0 - gamma) * w / 2.0
        heapq.heappush(heap, -child)
        heapq.heappush(heap, -child)
    return -sum(heap)


@pytest.mark.parametrize("gamma", GAMMAS)
def test_phi_gamma_below_power_law(gamma):
    ss = np.arange(1, 5001)
    phi = phi_gamma(ss, gamma)
    assert np.all(phi <= ss ** (-gamma) * (1 + 1e-12))
    assert np.all(phi > 0)
    assert np.all(np.diff(phi) < 0)


@H
@given(gamma=open_gamma)
def test_phi_gamma_matches_hatano_formula(gamma):
    ss = np.arange(1, 1100)
    expected = [hatano_phi(int(s), gamma) for s in ss]
    np.testing.assert_allclose(phi_gamma(ss, gamma), expected, rtol=1e-12)


@pytest.mark.parametrize("gamma", [0.05, 0.3, 0.8])
def test_phi_gamma_exact_at_and_around_powers_of_two(gamma):
    for i in range(0, 40):
        s = 2**i
        assert phi_gamma(s, gamma) == pytest.approx((1 - gamma) ** i, rel=1e-12)
        if s > 1:
            assert phi_gamma(s - 1, gamma) == pytest.approx(hatano_phi(s - 1, gamma), rel=1e-12)
        assert phi_gamma(s + 1, gamma) == pytest.approx(hatano_phi(s + 1, gamma), rel=1e-12)


@H
@given(gamma=open_gamma, s=st.integers(1, 600))
def test_phi_gamma_equals_simulated_game(gamma, s):
    assert phi_gamma(s, gamma) == pytest.approx(simulate_equal_binary_game(s, gamma), rel=1e-9)


def test_phi_gamma_scalar_returns_float():
    assert isinstance(phi_gamma(5, 0.2), float)
    assert phi_gamma(5, 0.2) == pytest.approx(0.8**2 * (1 - 0.2 / 4))


# --------------------------------------------------------------------------------------------
# ⌈log₂ k⌉


def test_ceil_log2_small_values():
    assert [ceil_log2(k) for k in range(1, 10)] == [0, 1, 2, 2, 3, 3, 3, 3, 4]
    assert isinstance(ceil_log2(4), int)


def test_ceil_log2_exhaustive_range():
    ks = np.arange(1, 2**16 + 2)
    expected = np.array([(int(k) - 1).bit_length() for k in ks])
    np.testing.assert_array_equal(ceil_log2(ks), expected)


@H
@given(k=st.integers(1, 2**36))
def test_ceil_log2_matches_integer_arithmetic(k):
    assert ceil_log2(k) == (k - 1).bit_length()


@pytest.mark.parametrize("i", [40, 45, 50, 52])
def test_ceil_log2_exact_for_large_integers(i):
    """⌈log₂(2^i + 1)⌉ = i + 1 for every integer (float log2 rounds 2^i + 1 down to i)."""
    assert ceil_log2(2**i) == i
    assert ceil_log2(2**i + 1) == i + 1


# --------------------------------------------------------------------------------------------
# invalid arguments


@pytest.mark.parametrize(
    "call",
    [
        lambda: e_gamma(0, 0.5),
        lambda: e_gamma(np.array([3, 0]), 0.5),
        lambda: e_gamma(3, 1.5),
        lambda: e_gamma(3, -0.1),
        lambda: e_gamma(3, float("nan")),
        lambda: e_gamma(3, "0.5"),
        lambda: g_gamma(3, 2.0),
        lambda: g_gamma(3, -1e-9),
        lambda: g_gamma(3, float("inf")),
        lambda: size_bound(0, 0.5),
        lambda: size_bound(4, 1.01),
        lambda: phi_gamma(0, 0.5),
        lambda: phi_gamma(np.array([4, -1]), 0.5),
        lambda: phi_gamma(4, -0.5),
        lambda: phi_gamma(4, True),
        lambda: ceil_log2(0),
        lambda: ceil_log2(np.array([2, -3])),
    ],
)
def test_invalid_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_gamma_errors_name_gamma():
    for f in (e_gamma, g_gamma, size_bound, phi_gamma):
        with pytest.raises(ValueError, match="gamma"):
            f(3, 1.5)


@pytest.mark.parametrize("gamma", [0.0, 0.3])
def test_g_gamma_rejects_zero_branches_for_every_gamma(gamma):
    """k = 0 branches is invalid; g_γ must say so for γ = 0 too (not return −inf)."""
    with pytest.raises(ValueError):
        g_gamma(0, gamma)
