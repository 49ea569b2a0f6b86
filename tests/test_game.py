"""Hatano's Weight Distribution Game (docs/theory.md §1.5): Theorem 3/5 as property tests."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore.bounds import phi_gamma
from boostcore.game import (
    best_adversary_value,
    equal_binary_adversary,
    expand,
    grid_distributions,
    legal_arities,
    max_weight_player,
    new_game,
    play,
    random_adversary,
    shrink,
)


@st.composite
def adversary_strategies(draw):
    """A legal adversary driven by hypothesis: any legal k, any distribution (lopsided,
    uniform or with zero shares), chosen by a hypothesis-controlled random source."""
    rnd = draw(st.randoms(use_true_random=False))
    concentration = draw(st.sampled_from([0.05, 0.3, 1.0, 5.0]))
    wide = draw(st.floats(0.0, 1.0))

    def move(state, leaf):
        ks = legal_arities(state)
        k = ks[-1] if rnd.random() < wide else rnd.choice(ks)
        d = np.array([rnd.gammavariate(concentration, 1.0) for _ in range(k)]) + 1e-12
        if rnd.random() < 0.2:
            d[rnd.randrange(k)] = 0.0
        if not np.isfinite(d).all() or d.sum() <= 0:
            d = np.ones(k)
        d = d / d.sum()
        d[-1] = 1.0 - d[:-1].sum()  # sums to 1 to the last bit
        return k, tuple(np.clip(d, 0.0, 1.0))

    return move


@given(st.integers(1, 40), st.floats(0.0, 0.5), st.floats(0.01, 1.0), adversary_strategies())
@settings(max_examples=150, deadline=None)
def test_any_adversary_against_max_weight_ends_below_phi(s, gamma, w, adversary):
    states = list(play(s, gamma, max_weight_player, adversary, w=w))
    final = states[-1]
    assert final.n_leaves == s  # never overshoots, always finishes
    assert final.total <= w * phi_gamma(s, gamma) * (1 + 1e-9) + 1e-12
    assert phi_gamma(s, gamma) <= s ** (-gamma) + 1e-12
    for a, b in zip(states, states[1:]):
        m = b.history[-1]
        assert m.leaf == max_weight_player(a)
        assert b.total == pytest.approx(a.total - gamma * (m.k - 1).bit_length() * m.leaf_weight,
                                        abs=1e-12)


@pytest.mark.parametrize("s", range(1, 41))
@pytest.mark.parametrize("gamma", [0.0, 0.05, 0.2, 0.45])
def test_equal_binary_adversary_attains_phi(s, gamma):
    final = list(play(s, gamma, max_weight_player, equal_binary_adversary))[-1]
    assert final.total == pytest.approx(phi_gamma(s, gamma), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("s", range(2, 9))
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.4])
def test_exhaustive_search_agrees_with_phi(s, gamma):
    assert best_adversary_value(s, gamma, steps=4, max_k=4) == pytest.approx(
        phi_gamma(s, gamma), rel=1e-9)


def test_exhaustive_search_finer_grid():
    assert best_adversary_value(8, 0.2, steps=8) == pytest.approx(phi_gamma(8, 0.2), rel=1e-9)


def test_random_adversary_many_games():
    adv = random_adversary(0)
    for s in (5, 12, 30):
        for gamma in (0.1, 0.3):
            for _ in range(30):
                final = list(play(s, gamma, max_weight_player, adv))[-1]
                assert final.n_leaves == s
                assert final.total <= phi_gamma(s, gamma) + 1e-12


def test_a_bad_player_can_lose_more_than_phi():
    """The theorem is about the max-weight player: a player that always takes the lightest
    leaf can end above φ_γ(s) against the same adversary."""
    def lightest(state):
        return min(state.leaves, key=lambda i: (state.weight(i), i))

    def lopsided(state, leaf):
        return 2, (0.9, 0.1)

    final = list(play(8, 0.3, lightest, lopsided))[-1]
    assert final.total > phi_gamma(8, 0.3)


def test_legal_arities_follow_the_acceptability_rule():
    g = new_game(8, 0.1)
    assert legal_arities(g) == (2, 3, 4, 5, 6, 7, 8)
    g = expand(g, 0, 4, (0.25,) * 4)
    assert legal_arities(g) == (2,)  # 4 leaves: k ≤ 8/4 = 2
    assert legal_arities(new_game(16, 0.4)) == (2, 3, 4)  # γ⌈log k⌉ ≤ 1 → ⌈log k⌉ ≤ 2
    assert shrink(5, 0.1) == pytest.approx(0.7)


@pytest.mark.parametrize("args, match", [
    ((9, 2, (0.5, 0.5)), "leaf must be a current leaf"),
    ((0, 1, (1.0,)), "k must be an integer ≥ 2"),
    ((0, 9, (1 / 9,) * 9), "k = 9 is not acceptable: a split with k > 2 needs k ≤ s/|T|"),
    ((0, 2, (0.5, 0.4)), "distribution must sum to 1"),
    ((0, 3, (0.5, 0.5)), "distribution must have k = 3 shares"),
    ((0, 2, (1.5, -0.5)), "finite and ≥ 0"),
])
def test_illegal_moves_are_rejected(args, match):
    with pytest.raises(ValueError, match=match):
        expand(new_game(8, 0.1), *args)


def test_gamma_price_rule_and_game_over():
    with pytest.raises(ValueError, match="γ⌈log k⌉"):
        expand(new_game(16, 0.4), 0, 5, (0.2,) * 5)
    done = list(play(3, 0.1))[-1]
    with pytest.raises(ValueError, match="the game is over"):
        expand(done, done.leaves[0], 2, (0.5, 0.5))
    with pytest.raises(ValueError, match="s must be between 1 and 64"):
        new_game(0, 0.1)


def test_states_are_immutable_and_history_is_kept():
    g0 = new_game(4, 0.2)
    g1 = expand(g0, 0, 2, (0.7, 0.3))
    assert g0.n_leaves == 1 and g1.n_leaves == 2 and len(g1.history) == 1
    with pytest.raises(AttributeError):
        g1.s = 5
    assert g1.children(0) == (1, 2)
    assert [g1.weight(i) for i in g1.leaves] == pytest.approx([0.8 * 0.7, 0.8 * 0.3])
    assert len(grid_distributions(3, 4)) == 4  # (4,0,0) (3,1,0) (2,2,0) (2,1,1)
