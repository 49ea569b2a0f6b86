"""Index (impurity) functions: the Kearns–Mansour axioms of docs/theory.md §0.1 and their shapes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore.impurity import INDEX, INDEX_LABELS, entropy, error, get_index, gini, km, tree_index

H = settings(deadline=None, database=None, max_examples=200)
NAMES = ["km", "gini", "entropy", "error"]
STRICT = ["km", "gini", "entropy"]  # strictly concave; 'error' is piecewise linear

# Closed forms written out independently of the module.
REFERENCE = {
    "km": lambda q: 2.0 * math.sqrt(q * (1.0 - q)),
    "gini": lambda q: 4.0 * q * (1.0 - q),
    "entropy": lambda q: (
        0.0 if q in (0.0, 1.0) else -q * math.log2(q) - (1.0 - q) * math.log2(1.0 - q)
    ),
    "error": lambda q: 2.0 * min(q, 1.0 - q),
}

unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def test_registry_lists_the_four_indices():
    assert set(INDEX) == set(NAMES)
    assert set(INDEX_LABELS) == set(NAMES)
    assert INDEX["km"] is km and INDEX["gini"] is gini
    assert INDEX["entropy"] is entropy and INDEX["error"] is error


@pytest.mark.parametrize("name", NAMES)
def test_endpoints_and_midpoint(name):
    f = get_index(name)
    assert float(f(0.0)) == 0.0
    assert float(f(1.0)) == 0.0
    assert float(f(0.5)) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("name", NAMES)
def test_matches_closed_form_on_grid(name):
    f = get_index(name)
    grid = np.linspace(0.0, 1.0, 1001)
    expected = np.array([REFERENCE[name](float(q)) for q in grid])
    np.testing.assert_allclose(f(grid), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", NAMES)
def test_dominates_min_q_on_grid(name):
    """I(q) ≥ min(q, 1−q): the property that makes ε̂(T) ≤ I(T)."""
    f = get_index(name)
    grid = np.linspace(0.0, 1.0, 10_001)
    values = f(grid)
    assert np.all(values >= np.minimum(grid, 1.0 - grid) - 1e-15)
    assert np.all(values <= 1.0 + 1e-15)
    assert np.all(values >= 0.0)


@H
@given(q=unit)
@pytest.mark.parametrize("name", NAMES)
def test_dominates_min_q_property(name, q):
    f = get_index(name)
    v = float(f(q))
    assert 0.0 <= v <= 1.0 + 1e-15
    assert v >= min(q, 1.0 - q) - 1e-15


@H
@given(k=st.integers(0, 2**30))
@pytest.mark.parametrize("name", NAMES)
def test_symmetry(name, k):
    # dyadic q so that 1 − q is exact (a tiny q would round 1 − q to 1.0)
    q = k / 2**30
    f = get_index(name)
    assert float(f(q)) == pytest.approx(float(f(1.0 - q)), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name", NAMES)
def test_scalar_and_array_agree(name):
    f = get_index(name)
    grid = np.linspace(0.0, 1.0, 37)
    arr = f(grid)
    assert arr.shape == grid.shape
    np.testing.assert_array_equal(arr, [float(f(float(q))) for q in grid])
    mat = f(grid.reshape(1, -1, 1))
    assert mat.shape == (1, 37, 1)


@H
@given(a=unit, b=unit)
@pytest.mark.parametrize("name", STRICT)
def test_midpoint_strict_concavity(name, a, b):
    """I((a+b)/2) > (I(a)+I(b))/2 for a ≠ b (by a margin once |a−b| is not tiny)."""
    f = get_index(name)
    mid = float(f((a + b) / 2.0))
    chord = (float(f(a)) + float(f(b))) / 2.0
    assert mid >= chord - 1e-12
    if abs(a - b) > 1e-3:
        assert mid > chord


@pytest.mark.parametrize("name", STRICT)
def test_concavity_on_random_pairs(name):
    rng = np.random.default_rng(1)
    f = get_index(name)
    a, b = rng.random(5000), rng.random(5000)
    gap = f((a + b) / 2) - (f(a) + f(b)) / 2
    far = np.abs(a - b) > 1e-3
    assert np.all(gap >= -1e-12)
    assert np.all(gap[far] > 0)


def test_error_index_is_concave_but_not_strictly():
    """The teaching counter-example: linear on each side of 1/2, so the chord touches it."""
    a, b = 0.1, 0.3
    assert float(error((a + b) / 2)) == pytest.approx((float(error(a)) + float(error(b))) / 2)
    rng = np.random.default_rng(2)
    a, b = rng.random(2000), rng.random(2000)
    assert np.all(error((a + b) / 2) >= (error(a) + error(b)) / 2 - 1e-12)


def test_strict_indices_reward_a_separating_split_but_error_does_not():
    """XOR-like: parent q = 1/2 split into children q = 1/4 and 3/4 of equal mass."""
    for name in STRICT:
        f = get_index(name)
        assert 0.5 * float(f(0.25)) + 0.5 * float(f(0.75)) < float(f(0.5)) - 1e-3
    # error: a split into 1/4 / 3/4 still reduces, but a same-side split gives zero gain
    assert 0.5 * float(error(0.2)) + 0.5 * float(error(0.4)) == pytest.approx(float(error(0.3)))


@pytest.mark.parametrize("bad", ["bad", "", "Gini", None, 3])
def test_get_index_rejects_unknown_names(bad):
    with pytest.raises(ValueError, match="index"):
        get_index(bad)


def test_get_index_message_lists_choices():
    with pytest.raises(ValueError) as info:
        get_index("bad")
    for name in NAMES:
        assert repr(name) in str(info.value)
    assert "'bad'" in str(info.value)


# --------------------------------------------------------------------------------------------
# tree_index


@pytest.mark.parametrize("name", NAMES)
def test_tree_index_single_leaf_is_index_of_q(name):
    f = get_index(name)
    for wp in (0.0, 0.2, 0.5, 0.9, 1.0):
        assert tree_index(f, [wp], [1.0 - wp]) == pytest.approx(float(f(wp)), abs=1e-15)


@H
@given(
    weights=st.lists(
        st.tuples(st.floats(0.0, 10.0, allow_nan=False), st.floats(0.0, 10.0, allow_nan=False)),
        min_size=1,
        max_size=12,
    ),
    name=st.sampled_from(NAMES),
)
def test_tree_index_matches_explicit_sum(weights, name):
    f = get_index(name)
    wp = np.array([a for a, _ in weights])
    wn = np.array([b for _, b in weights])
    total = wp.sum() + wn.sum()
    if total > 0:
        wp, wn = wp / total, wn / total
    expected = 0.0
    for a, b in zip(wp, wn):
        if a + b > 0:
            expected += (a + b) * REFERENCE[name](min(1.0, max(0.0, a / (a + b))))
    value = tree_index(f, wp, wn)
    assert value == pytest.approx(expected, rel=1e-9, abs=1e-12)
    # training error of the majority vote is never above I(T)
    assert float(np.sum(np.minimum(wp, wn))) <= value + 1e-12


def test_tree_index_ignores_empty_leaves_and_pure_leaves():
    assert tree_index(km, [0.0, 0.3, 0.0], [0.0, 0.0, 0.7]) == 0.0
    assert tree_index(gini, [0.25, 0.0], [0.25, 0.5]) == pytest.approx(0.5)


def test_tree_index_is_below_parent_for_a_refinement():
    """Splitting a leaf never increases I(T) for a concave index (Jensen)."""
    rng = np.random.default_rng(3)
    for name in NAMES:
        f = get_index(name)
        for _ in range(200):
            wp, wn = rng.random(4), rng.random(4)
            s = wp.sum() + wn.sum()
            wp, wn = wp / s, wn / s
            parent = tree_index(f, [wp.sum()], [wn.sum()])
            assert tree_index(f, wp, wn) <= parent + 1e-12
