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
:func:`exhaustive_search` checks this over every legal ``k``; :func:`lemma9_replacement` is the
step of the paper's proof (Lemma 9, §4.1): a ``k``-way split traded for binary splits.
"""

from __future__ import annotations

import heapq
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


def legal_arities(state: GameState) -> tuple[int, ...]:
    """Every ``k`` the adversary may choose now: ``k = 2`` or ``2 < k ≤ s/|T|``, with
    ``γ⌈log k⌉ ≤ 1`` (Hatano's acceptability; the tree never overshoots ``s``). At the root
    ``k`` runs up to ``s``."""
    if state.done:
        return ()
    ks = [k for k in range(2, max(state.s, 2) + 1)
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
#: Largest target size the exhaustive search accepts. Its number of distinct positions grows
#: about 3× per extra leaf (steps = 4, every legal k: s = 10 → ~35,000 positions, ~0.4 s;
#: s = 12 → ~340,000, 5–7 s on one core; s = 13 would take ~15–20 s).
SEARCH_MAX_SIZE = 12
#: Finest grid of shares the exhaustive search accepts (``steps = 8`` at ``s = 8``: ~1 s).
SEARCH_MAX_STEPS = 8


def grid_distributions(k: int, steps: int) -> list[tuple[float, ...]]:
    """Distributions on ``k`` children with shares in multiples of ``1/steps``, sorted
    decreasingly (children are interchangeable, so one order per multiset suffices)."""
    out = []
    for parts in itertools.combinations_with_replacement(range(steps, -1, -1), k):
        if sum(parts) == steps:
            out.append(tuple(p / steps for p in parts))
    return out


def search_distributions(k: int, steps: int) -> list[tuple[float, ...]]:
    """The adversary's distributions on ``k`` children that the exhaustive search tries: the
    grid of :func:`grid_distributions` plus the equal split ``d_k* = (1/k, …, 1/k)`` (for
    ``k > steps`` the grid alone has at most ``steps`` non-zero shares), tried first."""
    equal = tuple([1.0 / k] * k)
    return [equal] + [d for d in grid_distributions(k, steps)
                      if not np.allclose(d, equal, rtol=0, atol=1e-12)]


@dataclass(frozen=True)
class SearchResult:
    """What :func:`exhaustive_search` found.

    ``value``: the largest final weight (``w = 1``); ``arities``: every ``k`` the search
    tried somewhere (all legal ones); ``positions``: distinct positions evaluated;
    ``strategy``: a best adversary's moves ``(k, d)`` in order, against the max-weight player.
    """

    s: int
    gamma: float
    steps: int
    value: float
    arities: tuple[int, ...]
    positions: int
    strategy: tuple[tuple[int, tuple[float, ...]], ...]


def exhaustive_search(s: int, gamma: float, *, steps: int = 4) -> SearchResult:
    """Every adversary against the max-weight player, by dynamic programming over positions.

    At a position with ``n`` leaves the adversary may choose **every legal** ``k`` — ``k = 2``
    or ``2 < k ≤ s/n``, with ``γ⌈log₂ k⌉ ≤ 1`` (Hatano 2004, §4, rule 2(b)) — so ``k`` runs up
    to ``s`` at the root; for each ``k`` every distribution of :func:`search_distributions`
    (shares in multiples of ``1/steps``, zero shares allowed, and the equal split). A position
    is the multiset of leaf weights (the player takes the heaviest; children are
    interchangeable); the value is homogeneous in the weights, so positions are memoised
    scaled by their heaviest leaf. ``w = 1``.

    Theorem 3 says the value is ``φ_γ(s)``, reached by always splitting in two, equally.

    Raises
    ------
    ValueError
        If ``s > SEARCH_MAX_SIZE`` or ``steps > SEARCH_MAX_STEPS`` (the search would take too
        long), naming the parameter, the rule and the value received.
    """
    s = check_int("s", s, low=1)
    if s > SEARCH_MAX_SIZE:
        raise ValueError(
            f"s must be ≤ {SEARCH_MAX_SIZE} for the exhaustive search (its number of "
            f"positions grows about 3× per leaf; s = {SEARCH_MAX_SIZE} takes 5–7 s); got {s}")
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    steps = check_int("steps", steps, low=1, high=SEARCH_MAX_STEPS)
    ks = [k for k in range(2, max(s, 2) + 1) if shrink(k, gamma) >= 0]
    keeps = {k: shrink(k, gamma) for k in ks}
    dists = {k: search_distributions(k, steps) for k in ks}
    tried: set[int] = set()
    best_move: dict[tuple[float, ...], tuple[int, tuple[float, ...]]] = {}

    def scaled(weights: list[float]) -> tuple[float, tuple[float, ...]]:
        weights.sort(reverse=True)
        top = weights[0]
        if top <= 0:
            return 0.0, tuple(0.0 for _ in weights)
        return top, tuple(round(x / top, 14) for x in weights)

    @cache
    def value(key: tuple[float, ...]) -> float:
        """Best final weight from a position whose heaviest leaf weighs 1."""
        n = len(key)
        if n >= s:
            return sum(key)
        if key[0] <= 0:
            return 0.0
        rest = list(key[1:])  # the player expands key[0], the heaviest
        best, arg = -1.0, None
        for k in ks:
            if k > 2 and k * n > s:
                break
            tried.add(k)
            for d in dists[k]:
                top, child = scaled(rest + [x * keeps[k] for x in d])
                v = top * value(child) if top > 0 else 0.0
                if v > best + 1e-9:  # near-ties: keep the first (the equal split)
                    best, arg = v, (k, d)
        best_move[key] = arg
        return best

    root = (1.0,)
    v = value(root)
    line, key = [], root
    while len(key) < s and key[0] > 0:
        k, d = best_move[key]
        line.append((k, d))
        key = scaled(list(key[1:]) + [x * keeps[k] for x in d])[1]
    return SearchResult(s=s, gamma=gamma, steps=steps, value=float(v),
                        arities=tuple(sorted(tried)), positions=value.cache_info().currsize,
                        strategy=tuple(line))


def best_adversary_value(s: int, gamma: float, *, steps: int = 4) -> float:
    """The largest final weight any adversary can force against the max-weight player, by
    :func:`exhaustive_search` (every legal ``k``; shares on a grid of ``1/steps`` plus the
    equal split). ``w = 1``. Theorem 3 says this is ``φ_γ(s)``."""
    return exhaustive_search(s, gamma, steps=steps).value


# --------------------------------------------------------------------------- Lemma 9
D2_STAR = (0.5, 0.5)


def sum_max(w: float, gamma: float, distributions) -> float:
    """Hatano's ``sum_max(w, d^(1), …, d^(t))`` (2004, §4.1): the weight of the tree grown
    from one leaf of weight ``w`` when the player always expands a heaviest leaf and the
    ``i``-th expansion splits it by ``d^(i)`` (``k_i = len(d^(i))`` children, which keep
    ``1 − γ⌈log₂ k_i⌉`` of its weight). As in the paper, the size rule is not applied; the
    app's rule ``γ⌈log₂ k⌉ ≤ 1`` is (weights stay non-negative)."""
    w = check_float("w", w, low=0.0)
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    heap = [-w]
    for i, d in enumerate(distributions, start=1):
        d = tuple(float(x) for x in d)
        k = len(d)
        if k < 2 or shrink(k, gamma) < 0:
            raise ValueError(f"distribution {i} must have k ≥ 2 shares with γ⌈log₂ k⌉ ≤ 1; "
                             f"got k = {k} with γ = {gamma}")
        if any(not np.isfinite(x) or x < 0 for x in d) or abs(sum(d) - 1.0) > SUM_TOL:
            raise ValueError(f"distribution {i} must have shares ≥ 0 summing to 1; got {d}")
        keep = shrink(k, gamma) * -heapq.heappop(heap)
        for x in d:
            heapq.heappush(heap, -x * keep)
    return float(-sum(heap))


@dataclass(frozen=True)
class Lemma9Step:
    """One application of Hatano's Lemma 9 to an expanded node of a game tree.

    The node (weight ``w``) was split ``k`` ways by ``distribution``; its subtree now has
    ``leaves = k + t`` leaves, grown by ``t`` equal binary splits of its heaviest leaf.
    ``before = sum_max(w, d_k, d₂*, …, d₂*)`` (``t`` times) is the subtree's weight as
    played; ``after = sum_max(w, d₂*, …, d₂*)`` (``t + k − 1`` times) ``= w·φ_γ(k + t)`` is
    the weight of the binary subtree with the same number of leaves that replaces it.
    ``tree_before``/``tree_after``: the whole tree's weight without/with the replacement.
    ``curve``: ``(m, before, after)`` for every subtree size ``m = k … s`` (Lemma 9 for every
    ``t``). ``before_game``/``after_game``: the two subtrees drawn as games started at ``w``.
    """

    node: int
    k: int
    distribution: tuple[float, ...]
    weight: float
    leaves: int
    before: float
    after: float
    tree_before: float
    tree_after: float
    curve: tuple[tuple[int, float, float], ...]
    before_game: GameState
    after_game: GameState

    @property
    def t(self) -> int:
        """The equal binary splits made below the ``k``-way split."""
        return self.leaves - self.k

    @property
    def gain(self) -> float:
        """``after − before``: Lemma 9 says it is ``≥ 0``."""
        return self.after - self.before


def _subtree(state: GameState, node: int) -> set[int]:
    """The ids of ``node`` and all its descendants."""
    inside = {node}
    for n in state.nodes:  # ids are creation order: a parent comes before its children
        if n.parent in inside:
            inside.add(n.id)
    return inside


def _lemma9_problem(state: GameState, node: int) -> str | None:
    """Why ``node`` is not an instance of Lemma 9 (``None`` if it is)."""
    own = [m for m in state.history if m.leaf == node]
    if not own:
        return (f"node #{node} is a leaf: Lemma 9 replaces an expanded node (a k-way split)")
    inside = _subtree(state, node)
    after = state.history[state.history.index(own[0]) + 1:]
    for i, m in enumerate(after, start=state.history.index(own[0]) + 2):
        if m.leaf in inside and (m.k != 2 or any(abs(x - 0.5) > 1e-9 for x in m.distribution)):
            shares = ", ".join(f"{x:.3g}" for x in m.distribution)
            return (f"node #{node} is not an instance of Lemma 9: below it, move {i} split "
                    f"leaf #{m.leaf} into k = {m.k} with shares ({shares}); Lemma 9 covers a "
                    f"k-way split followed only by equal binary splits (d₂* = (½, ½))")
    return None


def lemma9_nodes(state: GameState, *, min_k: int = 3) -> tuple[int, ...]:
    """The expanded nodes with ``k ≥ min_k`` to which :func:`lemma9_replacement` applies (below
    them the game made only equal binary splits), deepest-created first."""
    out = [m.leaf for m in state.history
           if m.k >= min_k and _lemma9_problem(state, m.leaf) is None]
    return tuple(reversed(out))


def lemma9_replacement(state: GameState, node: int) -> Lemma9Step:
    """Hatano's Lemma 9 (2004, §4.1) applied to ``node``: replace its ``k``-way split (and the
    equal binary splits below it) by equal binary splits giving the same number of leaves.

    **Lemma 9.** For any weight ``w ∈ [0, 1]``, any integer ``t ≥ 1`` and any distribution
    ``d_k``: ``sum_max(w, d_k, d₂*, …, d₂*) ≤ sum_max(w, d₂*, …, d₂*)``, with ``t`` equal
    binary splits on the left and ``t + k − 1`` on the right (both trees have ``k + t``
    leaves; the right one weighs ``w·φ_γ(k + t)``). So the replacement never lowers the
    weight. (For ``t = 0`` the same holds by Propositions 7 and 8, which the lemma combines.)

    The node must be expanded, and below it the game must have made only equal binary splits
    of the subtree's heaviest leaf — Lemma 9's left side. The last multi-way split of a game
    in which the adversary then split in equal halves qualifies: that is how Lemma 10 and
    Theorem 5 use the lemma, from the bottom up. The tree with the replaced subtree need not
    be one the max-weight player would grow (Proposition 6 handles that in Lemma 10).

    Raises
    ------
    ValueError
        If ``node`` is not a node of the tree, is a leaf, or its subtree holds another split.
    """
    if isinstance(node, bool) or not isinstance(node, int | np.integer) \
            or not 0 <= node < len(state.nodes):
        raise ValueError(f"node must be a node id of the tree (0 … {len(state.nodes) - 1}); "
                         f"got {node!r}")
    node = int(node)
    problem = _lemma9_problem(state, node)
    if problem:
        raise ValueError(problem)
    move = next(m for m in state.history if m.leaf == node)
    inside = _subtree(state, node)
    w = state.weight(node)
    k, d = move.k, move.distribution
    m = sum(1 for leaf in state.leaves if leaf in inside)
    played = float(sum(state.weight(leaf) for leaf in state.leaves if leaf in inside))
    before = sum_max(w, state.gamma, [d] + [D2_STAR] * (m - k))
    if abs(before - played) > 1e-9 * max(1.0, w):
        raise ValueError(f"node #{node} is not an instance of Lemma 9: inside its subtree the "
                         "player did not always expand the heaviest leaf")
    after = sum_max(w, state.gamma, [D2_STAR] * (m - 1))
    curve = tuple((size, sum_max(w, state.gamma, [d] + [D2_STAR] * (size - k)),
                   sum_max(w, state.gamma, [D2_STAR] * (size - 1)))
                  for size in range(k, max(state.s, m) + 1))
    w_game = min(w, 1.0)
    g = expand(new_game(m, state.gamma, w_game), 0, k, d)
    while not g.done:
        g = expand(g, max_weight_player(g), 2, D2_STAR)
    equal = list(play(m, state.gamma, max_weight_player, equal_binary_adversary, w=w_game))[-1]
    return Lemma9Step(node=node, k=k, distribution=d, weight=w, leaves=m, before=played,
                      after=after, tree_before=state.total,
                      tree_after=state.total - played + after, curve=curve,
                      before_game=g, after_game=equal)


def phi(s: int, gamma: float) -> float:
    """``φ_γ(s)`` (re-exported for the page)."""
    return float(phi_gamma(s, gamma))
