"""Hatano's Weight Distribution Game (Hatano 2004, §4) as pure, immutable states.

See docs/theory.md §1.5.

The game abstracts TOPDOWN-M's analysis: a leaf's *weight* is ``p̂_ℓ I(q̂_ℓ)``, the player is
the leaf-selection rule, and the adversary is the worst weak learner allowed by the weak
hypothesis assumption. A game starts from one leaf of weight ``w`` and a target size ``s``.
While ``|T| < s``:

1. the **player** chooses a leaf ``ℓ`` (TOPDOWN-M: the one of maximum weight);
2. the **adversary** chooses ``k`` with ``k = 2`` or ``2 < k ≤ s/|T|`` (and ``γ⌈log k⌉ ≤ 1``)
   and a distribution ``d`` on ``k`` children; child ``i`` gets ``d_i (1 − γ⌈log k⌉) w_ℓ``.

The player wants the final total weight small, the adversary large. **Theorem 3/5**: against
the max-weight player the adversary's best is to split in two, equally, every time, and the
final weight is then ``w·φ_γ(s) ≤ w·s^{−γ}`` (``φ_γ`` in :mod:`boostcore.bounds`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from ._validation import check_float, check_int
from .bounds import ceil_log2, phi_gamma

#: Largest target size of a game (a page shows the whole tree).
MAX_SIZE = 64
#: Tolerance when checking that a distribution sums to 1.
SUM_TOL = 1e-9


@dataclass(frozen=True)
class Node:
    """A node of the game tree: its weight when it was created, depth and parent (−1: root)."""

    id: int
    weight: float
    depth: int
    parent: int


@dataclass(frozen=True)
class Move:
    """One expansion: the leaf, ``k``, the distribution, the new children and the total after."""

    leaf: int
    k: int
    distribution: tuple[float, ...]
    children: tuple[int, ...]
    leaf_weight: float
    total_after: float


@dataclass(frozen=True)
class GameState:
    """An immutable position of the Weight Distribution Game.

    ``nodes`` holds every node ever created (ids are positions); ``leaves`` the ids of the
    current leaves; ``history`` the moves so far.
    """

    s: int
    gamma: float
    w0: float
    nodes: tuple[Node, ...]
    leaves: tuple[int, ...]
    history: tuple[Move, ...] = ()

    @property
    def n_leaves(self) -> int:
        """``|T|``."""
        return len(self.leaves)

    @property
    def total(self) -> float:
        """The tree's weight: the sum of its leaves' weights."""
        return float(sum(self.nodes[i].weight for i in self.leaves))

    @property
    def done(self) -> bool:
        """The game ends when the tree has ``s`` leaves."""
        return self.n_leaves >= self.s

    def weight(self, leaf: int) -> float:
        """Weight of a node."""
        return self.nodes[leaf].weight

    def children(self, node: int) -> tuple[int, ...]:
        """Children of a node (empty for a leaf)."""
        return tuple(n.id for n in self.nodes if n.parent == node)


def new_game(s: int, gamma: float, w: float = 1.0) -> GameState:
    """A game with target size ``s``, advantage ``γ`` and initial weight ``w`` (one leaf)."""
    s = check_int("s", s, low=1, high=MAX_SIZE)
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    w = check_float("w", w, low=0.0, high=1.0)
    return GameState(s=s, gamma=gamma, w0=w, nodes=(Node(0, w, 0, -1),), leaves=(0,))


def shrink(k: int, gamma: float) -> float:
    """``1 − γ⌈log₂ k⌉``: the fraction of a leaf's weight its ``k`` children keep."""
    return 1.0 - gamma * int(ceil_log2(k))


def legal_arities(state: GameState, max_k: int = 16) -> tuple[int, ...]:
    """Every ``k`` the adversary may choose now: ``k = 2`` or ``2 < k ≤ s/|T|``, with
    ``γ⌈log k⌉ ≤ 1`` (Hatano's acceptability; the tree never overshoots ``s``)."""
    if state.done:
        return ()
    ks = [k for k in range(2, max_k + 1)
          if (k == 2 or k * state.n_leaves <= state.s) and shrink(k, state.gamma) >= 0]
    return tuple(ks)


def check_move(state: GameState, leaf: int, k: int, distribution) -> tuple[float, ...]:
    """Validate a move; return the distribution as a tuple or raise ``ValueError`` naming the
    rule that was broken."""
    if state.done:
        raise ValueError(f"the game is over: the tree already has s = {state.s} leaves")
    if isinstance(leaf, bool) or not isinstance(leaf, int | np.integer) \
            or leaf not in state.leaves:
        raise ValueError(f"leaf must be a current leaf {list(state.leaves)}; got {leaf!r}")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 2:
        raise ValueError(f"k must be an integer ≥ 2; got {k!r}")
    if k > 2 and k * state.n_leaves > state.s:
        raise ValueError(f"k = {k} is not acceptable: a split with k > 2 needs k ≤ s/|T| = "
                         f"{state.s}/{state.n_leaves} = {state.s / state.n_leaves:.3g}")
    if shrink(k, state.gamma) < 0:
        raise ValueError(f"k = {k} is not acceptable: γ⌈log k⌉ = "
                         f"{state.gamma * ceil_log2(k):.3g} > 1")
    d = tuple(float(v) for v in distribution)
    if len(d) != k:
        raise ValueError(f"distribution must have k = {k} shares; got {len(d)}")
    if any(not np.isfinite(v) or v < 0 for v in d):
        raise ValueError(f"distribution shares must be finite and ≥ 0; got {d}")
    if abs(sum(d) - 1.0) > SUM_TOL:
        raise ValueError(f"distribution must sum to 1; got {sum(d):.6g}")
    return d


def expand(state: GameState, leaf: int, k: int, distribution) -> GameState:
    """The state after expanding ``leaf`` into ``k`` children with shares ``distribution``;
    child ``i`` gets ``d_i (1 − γ⌈log k⌉) w_ℓ`` (Hatano 2004, §4, rule 2(b))."""
    d = check_move(state, leaf, k, distribution)
    parent = state.nodes[leaf]
    keep = shrink(k, state.gamma) * parent.weight
    first = len(state.nodes)
    kids = tuple(Node(first + i, d[i] * keep, parent.depth + 1, leaf) for i in range(k))
    leaves = tuple(x for x in state.leaves if x != leaf) + tuple(c.id for c in kids)
    nodes = state.nodes + kids
    total = float(sum(nodes[i].weight for i in leaves))
    move = Move(leaf=int(leaf), k=int(k), distribution=d, children=tuple(c.id for c in kids),
                leaf_weight=parent.weight, total_after=total)
    return replace(state, nodes=nodes, leaves=leaves, history=state.history + (move,))


# --------------------------------------------------------------------------- strategies
Player = Callable[[GameState], int]
Adversary = Callable[[GameState, int], tuple[int, tuple[float, ...]]]


def max_weight_player(state: GameState) -> int:
    """TOPDOWN-M's rule: the leaf of maximum weight (ties: the oldest leaf)."""
    return max(state.leaves, key=lambda i: (state.weight(i), -i))


def equal_binary_adversary(state: GameState, leaf: int) -> tuple[int, tuple[float, ...]]:
    """Theorem 3's best adversary against the max-weight player: two equal children."""
    return 2, (0.5, 0.5)


def random_adversary(seed: int | None = None) -> Adversary:
    """An adversary that picks a legal ``k`` and a Dirichlet(1) distribution at random."""
    rng = np.random.default_rng(seed)

    def move(state: GameState, leaf: int) -> tuple[int, tuple[float, ...]]:
        ks = legal_arities(state)
        k = int(rng.choice(ks))
        d = rng.dirichlet(np.ones(k))
        d = d / d.sum()
        return k, tuple(float(v) for v in d)

    return move


def play(s: int, gamma: float, player: Player = max_weight_player,
         adversary: Adversary = equal_binary_adversary, w: float = 1.0) -> Iterator[GameState]:
    """Play a whole game.

    Yields
    ------
    GameState
        The start, then the state after every move, until ``|T| = s``.
    """
    state = new_game(s, gamma, w)
    yield state
    while not state.done:
        leaf = player(state)
        k, d = adversary(state, leaf)
        state = expand(state, leaf, k, d)
        yield state


# --------------------------------------------------------------------------- exhaustive search
def grid_distributions(k: int, steps: int) -> list[tuple[float, ...]]:
    """Distributions on ``k`` children with shares in multiples of ``1/steps``, sorted
    decreasingly (children are interchangeable, so one order per multiset suffices)."""
    out = []
    for parts in itertools.combinations_with_replacement(range(steps, -1, -1), k):
        if sum(parts) == steps:
            out.append(tuple(p / steps for p in parts))
    return out


def best_adversary_value(s: int, gamma: float, *, steps: int = 4, max_k: int = 4) -> float:
    """The largest final weight any adversary on the grid can force against the max-weight
    player, by exhaustive search over every legal ``k ≤ max_k`` and every distribution with
    shares in multiples of ``1/steps`` (memoised on the sorted leaf weights). ``w = 1``.

    Theorem 3 says this is ``φ_γ(s)``, reached by the equal split in two.
    """
    s = check_int("s", s, low=1, high=12)
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    dists = {k: grid_distributions(k, steps) for k in range(2, max_k + 1)}

    @cache
    def value(weights: tuple[float, ...]) -> float:
        n = len(weights)
        if n >= s:
            return sum(weights)
        top, rest = weights[0], weights[1:]  # sorted decreasingly: the player takes the max
        best = -1.0
        for k in range(2, max_k + 1):
            if (k > 2 and k * n > s) or shrink(k, gamma) < 0:
                continue
            keep = shrink(k, gamma) * top
            for d in dists[k]:
                kids = tuple(round(x * keep, 12) for x in d)
                best = max(best, value(tuple(sorted(rest + kids, reverse=True))))
        return best

    return value((1.0,))


def phi(s: int, gamma: float) -> float:
    """``φ_γ(s)`` (re-exported for the page)."""
    return float(phi_gamma(s, gamma))
