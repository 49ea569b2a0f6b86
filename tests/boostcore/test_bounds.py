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


# --------------------------------------------------------------------------------------------
# φ_γ at real arguments (Hatano's Proposition 8 evaluates φ_γ(s/k)); φ_γ ≤ e_γ ≤ s^(−γ)
# (issue 14, A.7)


@H
@given(gamma=open_gamma, s=st.integers(1, 10**6))
def test_phi_gamma_below_power_law_property(gamma, s):
    assert phi_gamma(s, gamma) <= s ** (-gamma) * (1 + 1e-12)


@H
@given(gamma=open_gamma, s=st.floats(1.0, 1e12, allow_nan=False))
def test_phi_gamma_real_argument_is_the_papers_formula_and_below_power_law(gamma, s):
    """s = 2^i + s' with real s' (Prop. 8: s = k·2^i' + s'' gives φ_γ(s/k)); φ_γ(2s) =
    (1 − γ)φ_γ(s); still below s^(−γ)."""
    i = math.floor(math.log2(s))
    i = i - 1 if 2**i > s else (i + 1 if 2 ** (i + 1) <= s else i)
    expected = (1 - gamma) ** i * (1 - (s - 2**i) * gamma / 2**i)
    assert phi_gamma(s, gamma) == pytest.approx(expected, rel=1e-9)
    assert phi_gamma(2 * s, gamma) == pytest.approx((1 - gamma) * phi_gamma(s, gamma), rel=1e-9)
    assert phi_gamma(s, gamma) <= s ** (-gamma) * (1 + 1e-12)


@H
@given(gamma=open_gamma, s=st.integers(1, 2**40))
def test_phi_gamma_float_and_integer_inputs_agree(gamma, s):
    assert phi_gamma(float(s), gamma) == pytest.approx(phi_gamma(s, gamma), rel=1e-12)


@H
@given(gamma=open_gamma, s=st.integers(2, 600), k=st.integers(2, 16))
def test_phi_gamma_of_s_over_k_as_in_proposition_8(gamma, s, k):
    """φ_γ(s)/(1−γ)^⌈log k⌉ ≥ φ_γ(s/k), the step of Prop. 8 that makes wide moves no better."""
    if s < k:
        return
    lhs = phi_gamma(s / k, gamma)
    assert lhs <= phi_gamma(s, gamma) / (1 - gamma) ** ceil_log2(k) * (1 + 1e-9)


@H
@given(gamma=open_gamma)
def test_phi_gamma_tighter_than_e_gamma_at_every_size(gamma):
    """For binary max-weight runs φ_γ̂(|T|) is a bound at every round, tighter than e_γ̂."""
    ns = np.arange(1, 3000)
    assert np.all(phi_gamma(ns, gamma) <= e_gamma(ns, gamma) * (1 + 1e-9))


def test_phi_gamma_multiway_preset_numbers():
    """The top-down 'multiway' preset (stripes, s = 8): Hatano's run has γ̂ = 0.2579, so the
    page's s^(−γ̂) = 0.585 while his proof gives φ_γ̂(8) = (1 − γ̂)³ = 0.409."""
    g = 0.2578987518461691
    assert round(size_bound(8, g), 3) == 0.585
    assert round(phi_gamma(8, g), 3) == 0.409


def test_phi_gamma_rejects_non_numbers():
    with pytest.raises(ValueError, match="s must"):
        phi_gamma(np.array([True, False]), 0.2)
    with pytest.raises(ValueError, match="s must"):
        phi_gamma(float("inf"), 0.2)
    with pytest.raises(ValueError, match="s must be ≥ 1"):
        phi_gamma(0.5, 0.2)


# --------------------------------------------------------------------------------------------
# Where each criterion admits a k-way split (issue 14, A.6)

from boostcore import bounds as _b  # noqa: E402
from boostcore import datasets as _datasets  # noqa: E402
from boostcore import topdown as _topdown  # noqa: E402


def _topdown_max_k(criterion, n, s, gamma, cap):
    top = s if cap is None else cap
    ks = [k for k in range(2, top + 1) if _topdown.acceptable(criterion, k, n, s, gamma)[0]]
    return max(ks) if ks else 0


@pytest.mark.parametrize("criterion", _b.ARITY_CRITERIA)
@pytest.mark.parametrize("gamma", [0.01, 0.1, 0.11, 0.3, 0.42, 0.9, 1.0])
@pytest.mark.parametrize("s", [2, 3, 8, 31, 32, 64, 65, 71, 72, 150])
@pytest.mark.parametrize("cap", [None, 2, 4, 16])
def test_max_admissible_arity_equals_topdown_acceptable_on_a_grid(criterion, gamma, s, cap):
    n = np.arange(1, s + 3)
    got = _b.max_admissible_arity(n, s, criterion, gamma, cap)
    assert got.dtype.kind == "i" and got.shape == n.shape
    assert list(got) == [_topdown_max_k(criterion, int(m), s, gamma, cap) for m in n]


@pytest.mark.parametrize("s", [8, 72, 128])
def test_max_admissible_arity_matches_the_acceptable_flags_of_a_real_run(s):
    """On the 'multiway' stripes data: every candidate arity the MM and Hatano runs score is
    flagged acceptable exactly when k ≤ max_admissible_arity(|T|, s)."""
    ds = _datasets.make_dataset("stripes", n=400, noise=0.05, random_state=0)
    for criterion in ("mansour_mcallester", "hatano"):
        steps = list(
            _topdown.grow(
                ds.X_train, ds.y_train, size=s, criterion=criterion, max_arity=4, gamma=0.1
            )
        )
        leaves_before = 1
        checked = 0
        for step in steps[1:-1]:  # the steps (the stop snapshot repeats the last)
            kmax = _b.max_admissible_arity(leaves_before, s, criterion, 0.1, 4)
            for cand in step.candidates:
                assert cand.acceptable == (cand.arity <= kmax), (criterion, step.t, cand.arity)
                checked += 1
            if step.split is not None:
                assert 2 <= step.split.arity <= kmax
            leaves_before = step.metrics.n_leaves
        assert checked > 0
    # and the point of A.6: at s = 8 Mansour–McAllester never branches more than two ways
    mm = list(
        _topdown.grow(
            ds.X_train, ds.y_train, size=8, criterion="mansour_mcallester", max_arity=4, gamma=0.1
        )
    )
    assert all(st_.split.arity == 2 for st_ in mm if st_.split is not None)
    assert np.all(_b.max_admissible_arity(np.arange(1, 8), 8, "mansour_mcallester", 0.1) == 2)


def test_max_admissible_arity_values():
    np.testing.assert_array_equal(
        _b.max_admissible_arity(np.arange(1, 10), 8, "hatano"), [8, 4, 2, 2, 2, 2, 2, 0, 0]
    )
    assert _b.max_admissible_arity(1, 8, "hatano", max_arity=4) == 4
    assert isinstance(_b.max_admissible_arity(3, 100, "hatano"), int)
    # MM at γ = 0.1, s = 200: 1 < e(k)·200·0.1/(2k) for k ≤ 7 at |T| = 1
    assert _b.max_admissible_arity(1, 200, "mansour_mcallester", 0.1) == 7
    assert _b.max_admissible_arity(2, 200, "mansour_mcallester", 0.1) == 4
    np.testing.assert_array_equal(_b.max_admissible_arity([1, 5, 8], 8, "naive"), [8, 4, 0])


@H
@given(
    gamma=st.floats(0.001, 1.0),
    s=st.integers(2, 400),
    n=st.integers(1, 400),
    crit=st.sampled_from(_b.ARITY_CRITERIA),
)
def test_max_admissible_arity_monotone_in_s_and_in_tree_size(gamma, s, n, crit):
    """A larger budget never admits fewer branches; a larger tree never admits more (while the
    run is not over)."""
    k = _b.max_admissible_arity(n, s, crit, gamma)
    assert _b.max_admissible_arity(n, s + 1, crit, gamma) >= k
    if n + 1 < s:
        assert _b.max_admissible_arity(n + 1, s, crit, gamma) <= k
    if n < s:
        assert 2 <= k <= s - n + 1


@H
@given(gamma=st.floats(0.001, 0.999), s=st.integers(3, 2000), n=st.integers(1, 2000))
def test_mm_never_admits_more_than_hatano(gamma, s, n):
    """MM's size condition k ≤ (s/|T|)·γ·e_γ(k)/2 is stronger than Hatano's k ≤ s/|T|."""
    assert _b.max_admissible_arity(n, s, "mansour_mcallester", gamma) <= _b.max_admissible_arity(
        n, s, "hatano"
    )


def test_smallest_budget_for_a_three_way_split_the_issue_claim():
    """Issue 14 says MM admits k > 2 only when s ≥ 71 at γ ≤ 0.11: s = 71 at γ = 0.1, but at
    γ = 0.11 already s = 65; and never below 32 for any γ (docs/theory.md §1.3)."""
    mm = "mansour_mcallester"
    assert _b.smallest_budget_for_arity(3, mm, 0.1) == 71
    assert _b.smallest_budget_for_arity(3, mm, 0.11) == 65
    assert _b.smallest_budget_for_arity(4, mm, 0.1) == 97
    np.testing.assert_array_equal(
        _b.smallest_budget_for_arity(3, mm, np.array([0.1, 0.11])), [71, 65]
    )
    gs = np.linspace(0.01, 0.99, 981)
    assert _b.smallest_budget_for_arity(3, mm, gs).min() == 32
    assert _b.smallest_budget_for_arity(3, mm, 1.0) == math.inf
    assert _b.smallest_budget_for_arity(5, "hatano") == 5


@pytest.mark.parametrize("gamma", [0.02, 0.1, 0.11, 0.25, 0.42, 0.8])
@pytest.mark.parametrize("k", [3, 4, 7])
def test_smallest_budget_is_where_the_rule_first_admits_k(gamma, k):
    mm = "mansour_mcallester"
    s = int(_b.smallest_budget_for_arity(k, mm, gamma))
    assert _topdown.acceptable(mm, k, 1, s, gamma)[0]
    assert not _topdown.acceptable(mm, k, 1, s - 1, gamma)[0]
    assert (
        _b.max_admissible_arity(1, s, mm, gamma) >= k > _b.max_admissible_arity(1, s - 1, mm, gamma)
    )


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: _b.max_admissible_arity(1, 8, "mansour_mcallester"), "gamma is required"),
        (lambda: _b.max_admissible_arity(1, 8, "mansour_mcallester", 0.0), "gamma"),
        (lambda: _b.max_admissible_arity(1, 8, "greedy"), "criterion"),
        (lambda: _b.max_admissible_arity(0, 8, "hatano"), "n_leaves"),
        (lambda: _b.max_admissible_arity(1.5, 8, "hatano"), "n_leaves"),
        (lambda: _b.max_admissible_arity(1, 1, "hatano"), "size"),
        (lambda: _b.max_admissible_arity(1, 8, "hatano", max_arity=1), "max_arity"),
        (lambda: _b.smallest_budget_for_arity(1, "hatano"), "k"),
        (lambda: _b.smallest_budget_for_arity(3, "mansour_mcallester"), "gamma is required"),
        (lambda: _b.smallest_budget_for_arity(3, "mansour_mcallester", 1.5), "gamma"),
        (lambda: _b.weak_learning_advantage(0.6), "delta"),
        (lambda: _b.size_for_error(0.0, 0.1), "eps"),
        (lambda: _b.size_for_error(0.1, 0.1, "gini"), "bound"),
        (lambda: _b.log10_size_for_error(0.1, -0.1), "gamma"),
    ],
)
def test_new_functions_name_the_bad_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --------------------------------------------------------------------------------------------
# From weak learning to advantage and tree size (issue 14, A.7)


def test_weak_learning_advantage_is_delta_squared_over_16():
    assert _b.weak_learning_advantage(0.5) == 1 / 64
    assert _b.weak_learning_advantage(0.0) == 0.0
    np.testing.assert_allclose(
        _b.weak_learning_advantage(np.array([0.1, 0.2])), [0.01 / 16, 0.04 / 16]
    )


def _km_advantage(q, tau, sigma):
    """``Δ/I(q)`` of a binary split of a leaf with positive fraction ``q`` under the app's
    km index, computed from the children's masses and class fractions (not the closed form):
    ``tau = Pr(h = 1 | y = +1)``, ``sigma = Pr(h = 1 | y = −1)``."""
    from boostcore.impurity import km

    q, tau, sigma = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (q, tau, sigma)))
    children = 0.0
    for pos, neg in ((q * tau, (1 - q) * sigma), (q * (1 - tau), (1 - q) * (1 - sigma))):
        mass = pos + neg
        frac = np.divide(pos, mass, out=np.full_like(mass, 0.5), where=mass > 0)
        children = children + mass * km(frac)
    return 1.0 - children / km(q)


def _balanced_error(tau, sigma):
    """Error of ``h`` (predict + when ``h = 1``) under the leaf's class-balanced distribution,
    or of its complement, the same split: the smaller of the two."""
    err = 0.5 * (1 - tau) + 0.5 * sigma
    return np.minimum(err, 1 - err)


@settings(max_examples=25, deadline=None)
@given(delta=st.floats(0.01, 0.49))
def test_tight_weak_learning_advantage_is_the_minimum_over_leaves_and_splits(delta):
    """Issue 24, item 7: over every leaf q and every binary split whose balanced error is at
    most 1/2 − δ (Mansour–McAllester Lemma 3.1; Hatano Lemma 1, as Kearns–Mansour prove it),
    the smallest km-index advantage, found by a grid search polished by SLSQP, is
    1 − sqrt(1 − 4δ²); a symmetric split of the symmetric leaf attains it; it is ≥ 2δ² ≥ δ²/16.
    """
    from scipy.optimize import minimize

    tight = _b.weak_learning_advantage_tight(delta)
    grid = np.linspace(0.0, 1.0, 241)
    tau, sigma = np.meshgrid(grid, grid, indexing="ij")
    feasible = _balanced_error(tau, sigma) <= 0.5 - delta + 1e-12
    best = (np.inf, None)
    for q in (0.03, 0.2, 0.5, 0.77, 0.97):
        adv = np.where(feasible, _km_advantage(q, tau, sigma), np.inf)
        # the formula is a lower bound at every feasible point of the grid
        assert adv.min() >= tight - 1e-12
        i = np.unravel_index(np.argmin(adv), adv.shape)
        if adv[i] < best[0]:
            best = (float(adv[i]), (q, float(tau[i]), float(sigma[i])))
    q0, t0, s0 = best[1]
    sign = 1.0 if t0 >= s0 else -1.0  # which side of the diagonal the worst split is on
    res = minimize(
        lambda v: float(_km_advantage(*v)),
        x0=[q0, t0, s0],
        method="SLSQP",
        bounds=[(0.02, 0.98), (0.0, 1.0), (0.0, 1.0)],
        constraints=[{"type": "ineq", "fun": lambda v: sign * (v[1] - v[2]) - 2 * delta}],
        options={"ftol": 1e-14, "maxiter": 500},
    )
    assert res.success
    assert res.fun == pytest.approx(tight, abs=1e-7)
    assert min(best[0], res.fun) >= tight - 1e-9
    # the symmetric split (each class misrouted with probability 1/2 − δ) attains it, at the
    # symmetric leaf q = 1/2 and, since the advantage does not depend on q, at every leaf
    for q in (0.5, 0.1, 0.9):
        assert _km_advantage(q, 0.5 + delta, 0.5 - delta) == pytest.approx(tight, abs=1e-12)
    assert tight >= 2 * delta**2 >= _b.weak_learning_advantage(delta)


@pytest.mark.parametrize(("m", "r"), [(5, 2), (3, 1), (4, 1), (7, 3), (7, 2), (9, 4)])
def test_tight_advantage_is_attained_under_the_full_weak_learning_hypothesis(m, r):
    """The worst case is not an artefact of the balanced-distribution argument: a class of
    m binary splits, every point misclassified by exactly r of them, satisfies the δ-weak
    learning hypothesis for *every* distribution (δ = 1/2 − r/m: the splits' average error is
    r/m; m = 5, r = 2 is δ = 1/10), yet on the balanced sample of all point types its best
    split has advantage exactly 1 − sqrt(1 − 4δ²) (docs/theory.md §1.1, issue 41 item 8)."""
    from itertools import combinations

    from boostcore.impurity import km

    delta = 0.5 - r / m
    types = list(combinations(range(m), r))  # the splits that misclassify a point of this type
    wrong = np.array([[h in t for t in types] for h in range(m)])  # (split, point type)
    # the averaging argument behind "for every distribution": each point is missed r times
    assert np.all(wrong.sum(axis=0) == r)
    rng = np.random.default_rng(0)
    for _ in range(200):  # spot check on random distributions over the 2·C(m, r) points
        p = rng.dirichlet(np.ones(2 * len(types)))
        errors = np.concatenate([wrong, wrong], axis=1) @ p
        assert errors.min() <= 0.5 - delta + 1e-12
    # the balanced sample: every type once per class; split h sends a point to the + side
    # when it classifies the point as positive
    y = np.repeat([1, -1], len(types))
    miss = np.concatenate([wrong, wrong], axis=1)
    best = 0.0
    for h in range(m):
        plus = np.where(y > 0, ~miss[h], miss[h])
        parts = [(np.mean(y[side] > 0), side.mean()) for side in (plus, ~plus)]
        children = sum(mass * km(frac) for frac, mass in parts)
        best = max(best, 1 - children / km(0.5))
    assert best == pytest.approx(_b.weak_learning_advantage_tight(delta), abs=1e-12)


def test_tight_weak_learning_advantage_values_and_validation():
    np.testing.assert_allclose(
        _b.weak_learning_advantage_tight(np.array([0.0, 0.2, 0.5])),
        [0.0, 1 - math.sqrt(1 - 0.16), 1.0],
        atol=1e-15,
    )
    assert round(_b.weak_learning_advantage_tight(0.2), 4) == 0.0835
    # small δ: no cancellation, 2δ² to first order
    assert _b.weak_learning_advantage_tight(1e-9) == pytest.approx(2e-18, rel=1e-9)
    with pytest.raises(ValueError, match="delta"):
        _b.weak_learning_advantage_tight(0.6)


@pytest.mark.parametrize("bound", _b.SIZE_BOUNDS)
@pytest.mark.parametrize("gamma", [0.05, 0.1, 0.2578987518461691, 0.3, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("eps", [0.5, 0.1, 0.01, 1e-3])
def test_size_for_error_is_the_smallest_size_whose_bound_reaches_eps(bound, gamma, eps):
    s = _b.size_for_error(eps, gamma, bound)
    assert s == int(s) and s >= 1
    f = {"power": size_bound, "phi": phi_gamma, "e": e_gamma}[bound]
    if s < (5e6 if bound != "e" else 1e5):
        assert f(int(s), gamma) <= eps
        if s > 1:
            assert f(int(s) - 1, gamma) > eps
    assert _b.log10_size_for_error(eps, gamma, bound) == pytest.approx(math.log10(s))


@H
@given(gamma=st.floats(1e-4, 0.999), eps=st.floats(1e-6, 0.99))
def test_size_for_error_orders_the_bounds(gamma, eps):
    """φ_γ ≤ e_γ ≤ s^(−γ), so φ needs the fewest leaves and s^(−γ) the most."""
    lp = _b.log10_size_for_error(eps, gamma, "phi")
    le = _b.log10_size_for_error(eps, gamma, "e")
    lw = _b.log10_size_for_error(eps, gamma, "power")
    assert lp <= le + 1e-9 and le <= lw + 1e-9


@H
@given(delta=st.floats(0.01, 0.5), eps=st.floats(1e-4, 0.5))
def test_weak_learner_tree_size_is_one_over_eps_to_the_16_over_delta_squared(delta, eps):
    """(1/ε)^O(1/γ) made explicit: under s^(−γ), log₁₀ s = (16/δ²)·log₁₀(1/ε) (exact up to
    the rounding to an integer); finite in log form even when s overflows a float."""
    g = _b.weak_learning_advantage(delta)
    lg = _b.log10_size_for_error(eps, g, "power")
    assert math.isfinite(lg)
    assert lg == pytest.approx(16 / delta**2 * math.log10(1 / eps), rel=1e-9, abs=1e-6)
    # Hatano's φ_γ needs fewer: about (1/ε)^(1/log₂(1/(1−γ))) ≈ (1/ε)^(ln 2/γ)
    lp = _b.log10_size_for_error(eps, g, "phi")
    assert lp <= lg + 1e-9
    assert lp == pytest.approx(math.log10(1 / eps) / -math.log2(1 - g), rel=1e-6, abs=1.0)


def test_size_for_error_extremes():
    assert _b.size_for_error(0.1, 0.0) == math.inf
    assert _b.log10_size_for_error(0.1, 0.0, "phi") == math.inf
    assert _b.size_for_error(0.1, 1e-4) == math.inf  # 10^10000 overflows a float …
    assert _b.log10_size_for_error(0.1, 1e-4) == pytest.approx(1e4)  # … its log does not
    np.testing.assert_array_equal(_b.size_for_error(0.5, np.array([1.0, 0.5]), "power"), [2, 4])
    assert _b.size_for_error(0.1, 0.3, "power") == 2155  # ⌈10^(1/0.3)⌉
    assert _b.size_for_error(0.1, 0.3, "phi") == 97


from boostcore import bounds  # noqa: E402  (the module, for the two tests below)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: bounds.f_tree_dT(0, 0.8), "T"),
        (lambda: bounds.matryoshka_rate(0.5, 0), "T"),
        (lambda: bounds.matryoshka_rate(0.5, -3), "T"),
        (lambda: bounds.m2(1.7, 0.8), "levels"),
        (lambda: bounds.nested_equal(16, 1.5, 0.8), "levels"),
        (lambda: bounds.nested_equal(-4, 2, 0.5), "T"),
    ],
)
def test_grossmann_closed_forms_reject_what_they_used_to_accept(call, name) -> None:
    """A fractional level was cut down silently, T = 0 divided by zero, a negative T gave NaN
    (found while writing the docstrings' examples)."""
    with pytest.raises(ValueError, match=name):
        call()


def test_g_gamma_of_one_branch_is_plain_zero() -> None:
    out = bounds.g_gamma(np.array([1, 2]), 0.3)
    assert out[0] == 0.0 and not np.signbit(out[0])
