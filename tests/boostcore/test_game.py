"""Hatano's Weight Distribution Game (docs/theory.md §1.5): Theorem 3/5 as property tests."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore import game, steps
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
        if not np.isfinite(d).all() or d.max() <= 0:
            d = np.ones(k)
        d = d / d.max()  # huge draws: scale first, so the sum cannot overflow
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
    assert final.kind == "stop" and final.t == len(final.history)
    moves = steps.rounds(states)  # the stop snapshot repeats the last position
    for a, b in zip(moves, moves[1:]):
        m = b.history[-1]
        assert m.leaf == max_weight_player(a)
        assert b.total == pytest.approx(
            a.total - gamma * (m.k - 1).bit_length() * m.leaf_weight, abs=1e-12
        )


@pytest.mark.parametrize("s", range(1, 41))
@pytest.mark.parametrize("gamma", [0.0, 0.05, 0.2, 0.45])
def test_equal_binary_adversary_attains_phi(s, gamma):
    final = list(play(s, gamma, max_weight_player, equal_binary_adversary))[-1]
    assert final.total == pytest.approx(phi_gamma(s, gamma), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("s", range(2, 9))
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.4])
def test_exhaustive_search_agrees_with_phi(s, gamma):
    assert best_adversary_value(s, gamma, steps=4) == pytest.approx(phi_gamma(s, gamma), rel=1e-9)


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


@pytest.mark.parametrize(
    "args, match",
    [
        ((9, 2, (0.5, 0.5)), "leaf must be a current leaf"),
        ((0, 1, (1.0,)), "k must be an integer ≥ 2"),
        ((0, 9, (1 / 9,) * 9), "k = 9 is not acceptable: a split with k > 2 needs k ≤ s/|T|"),
        ((0, 2, (0.5, 0.4)), "distribution must sum to 1"),
        ((0, 3, (0.5, 0.5)), "distribution must have k = 3 shares"),
        ((0, 2, (1.5, -0.5)), "finite and ≥ 0"),
    ],
)
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


# --------------------------------------------------------------------------- every legal k
def test_exhaustive_search_tries_every_legal_k(monkeypatch):
    """The search must try every arity the rules allow — k up to s/|T|, so up to s at the
    root — not only k ≤ 4 (issue 14, A.8). Observed from outside: the k's whose price
    1 − γ⌈log k⌉ the search asks for."""
    asked = set()
    real = game.shrink

    def spy(k, gamma):
        asked.add(int(k))
        return real(k, gamma)

    monkeypatch.setattr(game, "shrink", spy)
    assert game.best_adversary_value(8, 0.1) == pytest.approx(phi_gamma(8, 0.1), rel=1e-9)
    assert asked >= set(range(2, 9))  # k = 2 … 8 are all legal at the root (s = 8)


@pytest.mark.parametrize(
    "s, gamma, arities",
    [
        (8, 0.1, tuple(range(2, 9))),
        (10, 0.0, tuple(range(2, 11))),
        (9, 0.3, tuple(range(2, 9))),  # γ⌈log k⌉ ≤ 1 → ⌈log k⌉ ≤ 3 → k ≤ 8
        (10, 0.4, (2, 3, 4)),  # ⌈log k⌉ ≤ 2
    ],
)
def test_exhaustive_search_reports_the_arities_it_tried(s, gamma, arities):
    result = game.exhaustive_search(s, gamma)
    assert result.arities == arities
    assert result.value == pytest.approx(phi_gamma(s, gamma), rel=1e-9, abs=1e-12)
    assert result.strategy == ((2, (0.5, 0.5)),) * (s - 1)  # Theorem 3's adversary
    assert result.positions > 0


def _brute_force(s, gamma, steps):
    """An independent enumeration of every adversary on the same moves: real game states,
    every legal k from the rule itself, every *ordered* distribution with shares in
    multiples of 1/steps (stars and bars) plus the equal split; no memo, no sorting."""

    def shares(k):
        out = {tuple([1 / k] * k)}
        for cut in itertools.combinations(range(steps + k - 1), k - 1):
            parts = [b - a - 1 for a, b in zip((-1,) + cut, cut + (steps + k - 1,))]
            out.add(tuple(p / steps for p in parts))
        return out

    tried = set()

    def best(state):
        if state.done:
            return state.total
        n, leaf = state.n_leaves, max_weight_player(state)
        values = []
        for k in range(2, s + 1):
            if (k == 2 or k * n <= s) and gamma * (k - 1).bit_length() <= 1:
                tried.add(k)
                values += [best(expand(state, leaf, k, d)) for d in shares(k)]
        return max(values)

    return best(new_game(s, gamma)), tried


@pytest.mark.parametrize("s", range(2, 7))
@pytest.mark.parametrize("gamma, steps", [(0.1, 4), (0.3, 4), (0.2, 3), (0.45, 2)])
def test_exhaustive_search_equals_brute_force_over_every_k(s, gamma, steps):
    brute, tried = _brute_force(s, gamma, steps)
    assert max(tried) == (s if gamma * (s - 1).bit_length() <= 1 else 4 if gamma > 1 / 3 else 8)
    result = game.exhaustive_search(s, gamma, steps=steps)
    assert result.value == pytest.approx(brute, rel=1e-9, abs=1e-12)
    assert result.arities == tuple(sorted(tried))
    assert brute == pytest.approx(phi_gamma(s, gamma), rel=1e-9)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(s=13, gamma=0.1), r"s must be ≤ 12 for the exhaustive search .*; got 13"),
        (dict(s=0, gamma=0.1), r"s must be ≥ 1; got 0"),
        (dict(s=8, gamma=0.1, steps=9), r"steps must be between 1 and 8; got 9"),
        (dict(s=8, gamma=1.5), r"gamma must be ≥ 0.0 and ≤ 1.0; got 1.5"),
    ],
)
def test_exhaustive_search_bounds_are_checked_up_front(kwargs, match):
    with pytest.raises(ValueError, match=match):
        game.exhaustive_search(**kwargs)


def test_legal_arities_reach_s_at_the_root():
    """With γ < 0.2 a 32-way split is legal at the root of a game of target 32."""
    assert legal_arities(new_game(32, 0.1)) == tuple(range(2, 33))
    assert legal_arities(new_game(32, 0.25)) == tuple(range(2, 17))  # ⌈log k⌉ ≤ 4


# --------------------------------------------------------------------------- Lemma 9
def _lemma9_sides(w, gamma, d, t):
    k = len(d)
    return (
        game.sum_max(w, gamma, [d] + [game.D2_STAR] * t),
        game.sum_max(w, gamma, [game.D2_STAR] * (t + k - 1)),
    )


@st.composite
def distributions(draw, k):
    raw = draw(st.lists(st.one_of(st.just(0.0), st.floats(0.0, 1.0)), min_size=k, max_size=k))
    if sum(raw) <= 0:
        raw = [1.0] * k
    d = [x / sum(raw) for x in raw]
    d[-1] = max(0.0, 1.0 - sum(d[:-1]))
    return tuple(d)


@given(st.data(), st.floats(0.0, 1.0), st.floats(0.0, 0.5), st.integers(0, 40))
@settings(max_examples=300, deadline=None)
def test_lemma9_as_stated(data, w, gamma, t):
    """Hatano 2004, §4.1, Lemma 9: for any w ∈ [0, 1], t ≥ 1 and d_k,
    sum_max(w, d_k, d₂*^t) ≤ sum_max(w, d₂*^(t+k−1)) (= w·φ_γ(k + t)). t = 0 also holds
    (Propositions 7 and 8, which the lemma combines, are stated for any t)."""
    k = data.draw(st.integers(2, 16).filter(lambda k: shrink(k, gamma) >= 0))
    d = data.draw(distributions(k))
    left, right = _lemma9_sides(w, gamma, d, t)
    assert left <= right * (1 + 1e-12) + 1e-15
    assert right == pytest.approx(w * phi_gamma(k + t, gamma), rel=1e-9, abs=1e-15)


@st.composite
def lemma9_games(draw):
    """A legal game against the max-weight player: random legal moves, then one split of
    the heaviest leaf into any legal k with any shares, then some equal binary splits."""
    s = draw(st.integers(3, 40))
    gamma = draw(st.floats(0.0, 0.5))
    state = new_game(s, gamma, draw(st.floats(0.01, 1.0)))
    for _ in range(draw(st.integers(0, 4))):
        if state.n_leaves > s - 2:
            break
        k = draw(st.sampled_from([k for k in legal_arities(state) if state.n_leaves + k <= s]))
        state = expand(state, max_weight_player(state), k, draw(distributions(k)))
    if state.done:
        return state, None
    node = max_weight_player(state)
    k = draw(st.sampled_from(legal_arities(state)))
    state = expand(state, node, k, draw(distributions(k)))
    for _ in range(draw(st.integers(0, s))):
        if state.done:
            break
        state = expand(state, max_weight_player(state), 2, (0.5, 0.5))
    return state, node


@given(lemma9_games())
@settings(max_examples=200, deadline=None)
def test_lemma9_replacement_never_lowers_the_weight(game_and_node):
    state, node = game_and_node
    nodes = game.lemma9_nodes(state, min_k=2)
    if node is not None:
        assert node in nodes
    for n in nodes:
        step = game.lemma9_replacement(state, n)
        inside = [leaf for leaf in state.leaves if _below(state, leaf, n)]
        assert step.leaves == len(inside) and step.t == step.leaves - step.k
        assert step.before == pytest.approx(sum(state.weight(i) for i in inside), abs=1e-12)
        assert step.before == pytest.approx(
            _lemma9_sides(step.weight, state.gamma, step.distribution, step.t)[0], abs=1e-12
        )
        assert step.after == pytest.approx(
            step.weight * phi_gamma(step.leaves, state.gamma), rel=1e-9, abs=1e-15
        )
        assert step.gain >= -1e-12  # Lemma 9: the weight never falls
        assert step.tree_after - step.tree_before == pytest.approx(step.gain, abs=1e-12)
        assert all(after >= before - 1e-12 for _, before, after in step.curve)
        assert step.before_game.total == pytest.approx(step.before, abs=1e-9)
        assert step.after_game.total == pytest.approx(step.after, abs=1e-9)
        assert step.before_game.n_leaves == step.after_game.n_leaves == step.leaves


def _below(state, leaf, node):
    while leaf >= 0:
        if leaf == node:
            return True
        leaf = state.nodes[leaf].parent
    return False


def test_lemma9_a_4_way_split_replaced_by_binary_splits():
    """s = 8, γ = 0.1: a 4-way equal split then four equal halves end at 0.72; seven equal
    binary splits end at φ_0.1(8) = 0.729."""
    state = expand(new_game(8, 0.1), 0, 4, (0.25,) * 4)
    while not state.done:
        state = expand(state, max_weight_player(state), 2, (0.5, 0.5))
    assert game.lemma9_nodes(state) == (0,)
    step = game.lemma9_replacement(state, 0)
    assert (step.k, step.leaves, step.t) == (4, 8, 4)
    assert step.before == pytest.approx(0.72) and step.after == pytest.approx(0.729)
    assert step.tree_after == pytest.approx(0.729)
    assert [m for m, _, _ in step.curve] == list(range(4, 9))
    assert step.curve[0][1:] == pytest.approx((0.8, 0.81))  # t = 0: 1 − 2γ ≤ (1 − γ)²


def test_lemma9_rejects_nodes_outside_the_lemma():
    state = expand(new_game(12, 0.1), 0, 3, (0.5, 0.3, 0.2))
    state = expand(state, max_weight_player(state), 3, (0.4, 0.4, 0.2))
    state = expand(state, max_weight_player(state), 2, (0.5, 0.5))
    assert game.lemma9_nodes(state) == (1,)
    with pytest.raises(
        ValueError,
        match=r"node #0 is not an instance of Lemma 9: below it, "
        r"move 2 split leaf #1 into k = 3",
    ):
        game.lemma9_replacement(state, 0)
    with pytest.raises(ValueError, match="is a leaf"):
        game.lemma9_replacement(state, state.leaves[0])
    with pytest.raises(ValueError, match=r"node must be a node id of the tree \(0 … 8\); got 9"):
        game.lemma9_replacement(state, 9)
    # a player who does not take the subtree's heaviest leaf is outside the lemma
    odd = expand(new_game(8, 0.1), 0, 3, (0.6, 0.3, 0.1))
    odd = expand(odd, 3, 2, (0.5, 0.5))
    with pytest.raises(ValueError, match="did not always expand the heaviest leaf"):
        game.lemma9_replacement(odd, 0)
    with pytest.raises(ValueError, match="distribution 1 must have shares"):
        game.sum_max(1.0, 0.1, [(0.5, 0.6)])


# --------------------------------------------------------------------------- Lemma 10
# An independent model of the game for the checks below: plain lists of weights, no
# boostcore. A move pops a heaviest leaf (or the leaf a player names) and pushes its children.
#: How close to ½ both shares of a binary move are for the move to be d₂*: the game's rule
#: (boostcore.game, _equal_halves), restated here rather than imported.
HALVES_TOL = 1e-9


def _kept(k, gamma):
    return 1.0 - gamma * int(np.ceil(np.log2(k)) if k > 1 else 0)


def _sim_max(w, gamma, ds):
    """sum_max(w, d^(1), …): the max-weight player, on a list."""
    leaves = [w]
    for d in ds:
        top = leaves.pop(int(np.argmax(leaves)))
        leaves += [x * _kept(len(d), gamma) * top for x in d]
    return sum(leaves)


def _sim_frontier(w, gamma, ds, u):
    """After the first u − 1 moves (max-weight player), the leaves L_{u−1} and, in T (equal
    halves of a heaviest leaf until the strategy's size), each one's number of expansions."""
    leaves = [(w, 0)]  # (weight, root index)
    for d in ds[: u - 1]:
        i = max(range(len(leaves)), key=lambda j: leaves[j][0])
        top = leaves.pop(i)[0]
        leaves += [(x * _kept(len(d), gamma) * top, 0) for x in d]
    frontier = [x for x, _ in leaves]
    leaves = [(x, j) for j, x in enumerate(frontier)]
    counts = [0] * len(frontier)
    size = 1 + sum(len(d) - 1 for d in ds)
    while len(leaves) < size:
        i = max(range(len(leaves)), key=lambda j: leaves[j][0])
        x, r = leaves.pop(i)
        counts[r] += 1
        leaves += [(x * (1 - gamma) / 2, r)] * 2
    return frontier, counts


def _scripted(ds):
    """An adversary for boostcore.game.play that plays the distributions ds in order."""
    it = iter(ds)

    def move(state, leaf):
        d = next(it)
        return len(d), d

    return move


@given(
    st.integers(3, 24),
    st.floats(0.0, 0.45),
    st.floats(0.01, 1.0),
    adversary_strategies(),
    st.integers(0, 6),
)
@settings(max_examples=80, deadline=None)
def test_lemma10_and_proposition6_against_an_independent_model(s, gamma, w, adversary, tail):
    """Hatano 2004, §4.1, Lemma 10 and Proposition 6 on random acceptable games of the
    max-weight player (any legal k, lopsided or zero shares), optionally ended by equal halves:
    every quantity of lemma10_step recomputed on plain lists, the inequalities (5), (6) and
    Lemma 10, and the trees replayed through boostcore.game.play."""

    def then_halves(g, leaf):  # the last `tail` moves: equal halves (t > 0 in Lemma 10)
        return (2, (0.5, 0.5)) if s - g.n_leaves <= tail else adversary(g, leaf)

    state = list(play(s, gamma, max_weight_player, then_halves, w=w))[-1]
    ds = [m.distribution for m in state.history]
    # d₂* = (½, ½) up to 1e-9, as the game defines it (a lopsided draw can land within
    # rounding of ½: hypothesis found (0.4999999999…, 0.5000000000…), which the model
    # called wide and the game called halves)
    wide = [
        i
        for i, d in enumerate(ds, start=1)
        if not (len(d) == 2 and all(abs(x - 0.5) <= HALVES_TOL for x in d))
    ]
    if not wide:
        with pytest.raises(ValueError, match="state has no move to replace"):
            game.lemma10_step(state)
        return
    step = game.lemma10_step(state)
    u = wide[-1]
    k, d_u, t = len(ds[u - 1]), ds[u - 1], len(ds) - u
    assert (step.u, step.k, step.distribution, step.t, step.n) == (u, k, d_u, t, s)
    # the three sums, on lists
    assert step.played == pytest.approx(_sim_max(w, gamma, ds), rel=1e-9, abs=1e-14)
    right = _sim_max(w, gamma, ds[: u - 1] + [(0.5, 0.5)] * (t + k - 1))
    assert step.replaced == pytest.approx(right, rel=1e-9, abs=1e-14)
    frontier, counts = _sim_frontier(w, gamma, ds, u)
    assert sorted(step.frontier_weights, reverse=True) == pytest.approx(
        sorted(frontier, reverse=True), rel=1e-9, abs=1e-15
    )
    assert sorted(step.frontier_moves) == sorted(counts)
    j = int(np.argmax(frontier))  # ℓ*: the heaviest of L_{u−1} (its subtree is the largest)
    assert step.frontier_moves[0] == counts[j] and counts[j] == max(counts)
    assert k <= counts[j] + 1  # acceptability: k_u ≤ |T_ℓ*|
    # equation (4): T is the sum of its frontier subtrees
    subtrees = [_sim_max(x, gamma, [(0.5, 0.5)] * c) for x, c in zip(frontier, counts)]
    assert sum(subtrees) == pytest.approx(right, rel=1e-9, abs=1e-14)
    star_after = _sim_max(frontier[j], gamma, [d_u] + [(0.5, 0.5)] * (counts[j] - k + 1))
    assert step.star_before == pytest.approx(subtrees[j], rel=1e-9, abs=1e-14)
    assert step.star_after == pytest.approx(star_after, rel=1e-9, abs=1e-14)
    hat = right - subtrees[j] + star_after
    assert step.hat == pytest.approx(hat, rel=1e-9, abs=1e-14)
    # the inequalities: Lemma 9 on ℓ* gives (5), Proposition 6 gives (6), together Lemma 10
    tol = 1e-12 * max(w, 1e-3)
    assert step.star_after <= step.star_before + tol  # Lemma 9
    assert step.hat <= step.replaced + tol  # (5)
    assert step.played <= step.hat + tol  # (6)
    assert step.gain >= -tol
    # T̂ is a legal game of a u-max player with the game's own strategy, replayed by play()
    hat_game = step.hat_game
    assert [m.distribution for m in hat_game.history] == ds[:u] + [(0.5, 0.5)] * t
    picks = iter([m.leaf for m in hat_game.history])
    replay = list(play(s, gamma, lambda g: next(picks), _scripted(ds[:u] + [(0.5, 0.5)] * t), w))
    assert replay[-1].total == pytest.approx(step.hat, rel=1e-9, abs=1e-14)
    assert [m.leaf for m in hat_game.history[:u]] == [m.leaf for m in state.history[:u]]
    # … and, in each subtree of L_{u−1}, as many leaves as T (the paper's T̂_ℓ*: |T̂_ℓ*| = |T_ℓ*|)
    for r, c in zip(step.frontier, step.frontier_moves):
        inside = [x for x in hat_game.leaves if _below(hat_game, x, r)]
        assert len(inside) == c + 1
    p6 = step.proposition6
    assert (p6.u, p6.t) == (u, t) and p6.heaviest >= u
    assert p6.sum_u_max == pytest.approx(step.hat, abs=1e-14)
    assert p6.sum_max == pytest.approx(step.played, rel=1e-9, abs=1e-14)
    # T, replayed by play() with the max-weight player
    t_game = list(play(s, gamma, max_weight_player, _scripted(ds[: u - 1] + [(0.5, 0.5)] * 99), w))
    assert t_game[-1].total == pytest.approx(step.replaced, rel=1e-9, abs=1e-14)
    # Theorem 5's proof: Lemma 10 from the last wide move to the first, ending at w·φ_γ(s)
    chain = game.theorem5_chain(state)
    assert [c.u for c in chain] == wide[::-1]
    assert chain[0] == step
    for a, b in zip(chain, chain[1:]):
        assert b.played == pytest.approx(a.replaced, abs=1e-14)
    assert all(c.played <= c.replaced + tol for c in chain)
    assert chain[-1].replaced == pytest.approx(w * phi_gamma(s, gamma), rel=1e-9, abs=1e-14)


def _every_player(state, budget):
    """Every game reached by ``budget`` equal binary splits of any leaves (brute force)."""
    if budget == 0:
        yield state
        return
    for leaf in state.leaves:
        yield from _every_player(expand(state, leaf, 2, (0.5, 0.5)), budget - 1)


@pytest.mark.parametrize("s", range(2, 7))
@pytest.mark.parametrize("gamma", [0.1, 0.3])
def test_proposition6_brute_force_over_every_u_max_player(s, gamma):
    """Proposition 6 by brute force for s ≤ 6: after u moves of the max-weight player (a few
    wide and unequal ones), every way of choosing the remaining leaves for equal halves ends
    at least as heavy as the max-weight player, and proposition6 reports that player's sum."""
    rng = np.random.default_rng(s)
    for _ in range(3):
        g = new_game(s, gamma)
        u = int(rng.integers(0, 3))
        for _ in range(u):
            ks = [k for k in legal_arities(g) if g.n_leaves + k - 1 < s]
            if not ks:
                break
            k = int(rng.choice(ks))
            g = expand(g, max_weight_player(g), k, tuple(rng.dirichlet(np.ones(k))))
        budget = s - g.n_leaves
        finals = list(_every_player(g, budget))
        best = min(f.total for f in finals)
        for f in finals:
            p6 = game.proposition6(f)
            assert p6.sum_max == pytest.approx(best, rel=1e-12, abs=1e-15)
            assert p6.sum_u_max == f.total and p6.gap >= -1e-15
        assert best == pytest.approx(_sim_max(1.0, gamma, [m.distribution for m in f.history]))


def _splits(k, steps):
    """Shares in multiples of 1/steps, one order per multiset (children are interchangeable
    for the max-weight player's weights)."""
    for parts in itertools.combinations_with_replacement(range(steps, -1, -1), k):
        if sum(parts) == steps:
            yield tuple(p / steps for p in parts)


def _every_strategy(state):
    """Every finished game of the max-weight player with shares in thirds (brute force)."""
    if state.done:
        yield state
        return
    leaf = max_weight_player(state)
    for k in legal_arities(state):
        for d in _splits(k, 3):
            yield from _every_strategy(expand(state, leaf, k, d))


@pytest.mark.parametrize("s, gamma", [(4, 0.2), (5, 0.1), (6, 0.25)])
def test_lemma10_on_every_acceptable_strategy_of_a_small_game(s, gamma):
    """Lemma 10 and Theorem 5's chain on every acceptable strategy with shares in thirds
    (s ≤ 6): the step never lowers the weight and the chain ends at φ_γ(s)."""
    count = 0
    for state in _every_strategy(new_game(s, gamma)):
        chain = game.theorem5_chain(state)
        weights = [state.total] + [c.replaced for c in chain]
        assert all(b >= a - 1e-12 for a, b in zip(weights, weights[1:]))
        assert weights[-1] == pytest.approx(phi_gamma(s, gamma), rel=1e-12)
        for c in chain:
            assert c.played <= c.hat + 1e-12 and c.hat <= c.replaced + 1e-12
        count += 1
    assert count > s  # many strategies, not just equal halves


def test_lemma10_a_3_way_split_below_equal_halves_by_hand():
    """s = 6, γ = 0.1: halves (0.45, 0.45), then #1 split 3-way (½, ¼, ¼) into 0.18, 0.09,
    0.09, then the max-weight player halves #2 and its child: 0.81 − 0.045 − 0.02025 =
    0.74475. T: four more halves instead, φ_0.1(6) = 0.81·0.95 = 0.7695, in which #1's
    subtree holds 3 expansions (0.45·φ(4) = 0.3645) and #2's one. T̂: #1's subtree regrown as
    the 3-way split then one half of 0.18 (0.36 − 0.018 = 0.342), beside #2's 0.405: 0.747."""
    g = expand(new_game(6, 0.1), 0, 2, (0.5, 0.5))
    g = expand(g, 1, 3, (0.5, 0.25, 0.25))
    while not g.done:
        g = expand(g, max_weight_player(g), 2, (0.5, 0.5))
    step = game.lemma10_step(g)
    assert (step.u, step.k, step.star, step.frontier, step.frontier_moves) == (
        2,
        3,
        1,
        (1, 2),
        (3, 1),
    )
    assert step.played == pytest.approx(0.74475)
    assert step.replaced == pytest.approx(0.7695)
    assert step.star_before == pytest.approx(0.3645) and step.star_after == pytest.approx(0.342)
    assert step.frontier_replaced == pytest.approx((0.3645, 0.405))
    assert step.frontier_hat == pytest.approx((0.342, 0.405))
    assert step.hat == pytest.approx(0.747)
    assert step.proposition6.gap == pytest.approx(0.747 - 0.74475)
    # T̂'s u-max player halves #2 (0.45), then #3 (0.18), the heaviest of #1's subtree,
    # although #2's children weigh 0.2025: after move u it need not take the heaviest leaf
    hat = step.hat_game
    assert [m.leaf for m in hat.history] == [0, 1, 2, 3]
    assert hat.history[3].leaf_weight == pytest.approx(0.18)
    assert step.proposition6.heaviest == 3


def test_lemma10_and_proposition6_refusals_name_the_parameter_and_the_rule():
    with pytest.raises(ValueError, match=r"state must be a GameState; got int"):
        game.lemma10_step(3)
    with pytest.raises(ValueError, match=r"state must be a GameState; got tuple"):
        game.proposition6(())
    with pytest.raises(ValueError, match=r"state must be a GameState; got NoneType"):
        game.theorem5_chain(None)
    equal = list(play(5, 0.2))[-1]
    with pytest.raises(ValueError, match=r"state has no move to replace: every move is an equal"):
        game.lemma10_step(equal)
    assert game.theorem5_chain(equal) == ()
    # a player who leaves the heaviest leaf is not the max-weight player of Lemma 10
    odd = expand(new_game(12, 0.1), 0, 3, (0.6, 0.3, 0.1))
    odd = expand(odd, 3, 2, (0.5, 0.5))
    with pytest.raises(
        ValueError,
        match=r"state is not a game of the max-weight player: move 2 expanded leaf #3 "
        r"\(weight 0.08\) while leaf #1 weighed 0.48",
    ):
        game.lemma10_step(odd)
    # … nor, when a wide move comes after that, a u-max player of Proposition 6
    odd = expand(odd, 1, 3, (0.5, 0.25, 0.25))
    with pytest.raises(
        ValueError, match=r"state is not a u-max player's game for u = 3 .*: move 2 expanded"
    ):
        game.proposition6(odd)
    # a game stopped half-way is a strategy for its n leaves only if acceptable for n
    half = expand(new_game(8, 0.1), 0, 2, (0.5, 0.5))
    half = expand(half, 1, 3, (0.4, 0.3, 0.3))  # legal: 3 ≤ 8/2
    with pytest.raises(
        ValueError,
        match=r"state's moves are not acceptable for its n = 4 leaves: move 2 .* "
        r"k ≤ n/\|T\| = 4/2",
    ):
        game.lemma10_step(half)
