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
step of the paper's proof (Lemma 9, §4.1): a ``k``-way split traded for binary splits;
:func:`lemma10_step` is Lemma 10, which does it to the last multi-way (or unequal) move of a whole
game and needs Proposition 6 (:func:`proposition6`: the max-weight player is never beaten by a
player who leaves the heaviest leaf once the adversary only splits in equal halves);
:func:`theorem5_chain` repeats it down to equal halves only, Theorem 5's proof.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from ._validation import RandomState, check_float, check_int, check_random_state
from .bounds import ceil_log2, phi_gamma
from .steps import START, STEP, STOP, Quantities, Step

#: Largest target size of a game (a page shows the whole tree).
MAX_SIZE = 64
#: Tolerance when checking that a distribution sums to 1.
SUM_TOL = 1e-9


@dataclass(frozen=True)
class Node:
    """A node of the game tree: its weight when it was created, depth and parent (−1: root).

    Attributes
    ----------
    id : int
        Position of the node in :attr:`GameState.nodes` (creation order).
    weight : float
        Its weight ``w ≥ 0`` when created.
    depth : int
        0 for the root.
    parent : int
        Parent id, or −1 for the root.
    """

    id: int
    weight: float
    depth: int
    parent: int


@dataclass(frozen=True)
class Move:
    """One expansion: the leaf, ``k``, the distribution, the new children and the total after.

    Attributes
    ----------
    leaf : int
        Id of the expanded leaf.
    k : int
        Number of children.
    distribution : tuple of float
        The adversary's shares ``d`` (``k`` values ``≥ 0`` summing to 1).
    children : tuple of int
        Ids of the new leaves.
    leaf_weight : float
        ``w_ℓ``, the expanded leaf's weight.
    total_after : float
        The tree's weight after the move.
    """

    leaf: int
    k: int
    distribution: tuple[float, ...]
    children: tuple[int, ...]
    leaf_weight: float
    total_after: float


@dataclass(frozen=True)
class GameMetrics(Quantities):
    """The game's numbers after a move (the step protocol's metrics; the game has no data, so
    no error: the tree's weight plays its part).

    Attributes
    ----------
    n_leaves : int
        ``|T|``.
    total_weight : float
        The tree's weight, the sum of its leaves' weights.
    equal_binary_weight : float
        ``w·φ_γ(|T|)``: what the equal-binary game weighs at ``|T|`` leaves — a reference
        curve, not a bound at each ``|T|`` (docs/theory.md §1.5).
    bound_theorem3 : float
        ``w·φ_γ(s)``: Hatano's Theorem 3 (Theorem 5 in the journal version) — against the
        max-weight player no adversary ends the game heavier.
    bound_power : float
        ``w·s^(−γ) ≥ w·φ_γ(s)`` — the closed form (Hatano's Theorem 4).
    s : int
        The target size.
    gamma : float
        The advantage ``γ``.
    """

    n_leaves: int
    total_weight: float
    equal_binary_weight: float
    bound_theorem3: float
    bound_power: float
    s: int
    gamma: float


def _game_metrics(s: int, gamma: float, w0: float, n: int, total: float) -> GameMetrics:
    return GameMetrics(
        n_leaves=n,
        total_weight=total,
        equal_binary_weight=w0 * float(phi_gamma(n, gamma)),
        bound_theorem3=w0 * float(phi_gamma(s, gamma)),
        bound_power=w0 * s ** (-gamma),
        s=s,
        gamma=gamma,
    )


@dataclass(frozen=True)
class GameState(Step):
    """An immutable position of the Weight Distribution Game (a snapshot of the step protocol,
    :mod:`boostcore.steps`: ``t`` = moves so far, ``kind`` "start" before the first move and
    "step" after each; :func:`play` and :func:`finish` add the "stop" snapshot).

    ``nodes`` holds every node ever created (ids are positions); ``leaves`` the ids of the
    current leaves; ``history`` the moves so far.

    Attributes
    ----------
    s : int
        Target size (the game ends at ``s`` leaves), 1 to ``MAX_SIZE``.
    gamma : float
        The advantage ``γ`` in [0, 1].
    w0 : float
        Weight of the initial leaf, in [0, 1].
    nodes : tuple of Node
        Every node ever created.
    leaves : tuple of int
        Ids of the current leaves.
    history : tuple of Move, default=()
        The moves so far.

    Examples
    --------
    >>> from boostcore.game import expand, new_game
    >>> g = expand(new_game(4, 0.25), 0, 3, (0.5, 0.25, 0.25))
    >>> g.leaves, g.total
    ((1, 2, 3), 0.5)
    """

    s: int
    gamma: float
    w0: float
    nodes: tuple[Node, ...]
    leaves: tuple[int, ...]
    history: tuple[Move, ...] = ()

    def details(self) -> dict[str, object]:
        """The last move: leaf, its weight, ``k``, the shares and the kept fraction.

        Returns
        -------
        dict of str to object
            ``None`` values before the first move.
        """
        m = self.history[-1] if self.history else None
        return {
            "leaf": None if m is None else m.leaf,
            "leaf_weight": None if m is None else m.leaf_weight,
            "k": None if m is None else m.k,
            "shares": None if m is None else ", ".join(f"{d:.4g}" for d in m.distribution),
            "kept": None if m is None else shrink(m.k, self.gamma),
        }

    @property
    def n_leaves(self) -> int:
        """``|T|``, the number of current leaves.

        Examples
        --------
        >>> from boostcore.game import expand, new_game
        >>> g = expand(new_game(4, 0.25), 0, 3, (0.5, 0.25, 0.25))
        >>> g.n_leaves
        3
        """
        return len(self.leaves)

    @property
    def total(self) -> float:
        """The tree's weight: the sum of its leaves' weights.

        Examples
        --------
        >>> from boostcore.game import expand, new_game
        >>> g = expand(new_game(4, 0.25), 0, 3, (0.5, 0.25, 0.25))
        >>> g.total  # (1 − 0.25·⌈log₂ 3⌉)·1
        0.5
        """
        return float(sum(self.nodes[i].weight for i in self.leaves))

    @property
    def done(self) -> bool:
        """The game ends when the tree has ``s`` leaves.

        Examples
        --------
        >>> from boostcore.game import expand, new_game
        >>> g = expand(new_game(4, 0.25), 0, 3, (0.5, 0.25, 0.25))
        >>> g.done, expand(g, 1, 2, (0.5, 0.5)).done
        (False, True)
        """
        return self.n_leaves >= self.s

    def weight(self, leaf: int) -> float:
        """Weight of a node.

        Parameters
        ----------
        leaf : int
            A node id (a current leaf or an expanded node).

        Returns
        -------
        float
            The node's weight when it was created.

        Examples
        --------
        >>> from boostcore.game import expand, new_game
        >>> g = expand(new_game(4, 0.25), 0, 3, (0.5, 0.25, 0.25))
        >>> [g.weight(i) for i in g.leaves]
        [0.25, 0.125, 0.125]
        """
        return self.nodes[leaf].weight

    def children(self, node: int) -> tuple[int, ...]:
        """Children of a node (empty for a leaf).

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        tuple of int
            The child ids in creation order.

        Examples
        --------
        >>> from boostcore.game import expand, new_game
        >>> g = expand(new_game(4, 0.25), 0, 3, (0.5, 0.25, 0.25))
        >>> g.children(0), g.children(1)
        ((1, 2, 3), ())
        """
        return tuple(n.id for n in self.nodes if n.parent == node)


def new_game(s: int, gamma: float, w: float = 1.0) -> GameState:
    """A game with target size ``s``, advantage ``γ`` and initial weight ``w`` (one leaf).

    Parameters
    ----------
    s : int
        Target size, 1 to ``MAX_SIZE`` (64).
    gamma : float in [0, 1]
        The advantage ``γ``.
    w : float in [0, 1], default 1.0
        Weight of the initial leaf.

    Returns
    -------
    GameState
        One leaf (node 0) of weight ``w``, no history.

    Raises
    ------
    ValueError
        If a parameter is out of range (the message names it).

    Examples
    --------
    >>> from boostcore.game import new_game
    >>> g = new_game(4, 0.25)
    >>> g.leaves, g.total, g.done
    ((0,), 1.0, False)
    >>> new_game(100, 0.25)
    Traceback (most recent call last):
        ...
    ValueError: s must be between 1 and 64; got 100
    """
    s = check_int("s", s, low=1, high=MAX_SIZE)
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    w = check_float("w", w, low=0.0, high=1.0)
    return GameState(
        t=0,
        kind=START,
        metrics=_game_metrics(s, gamma, w, 1, w),
        message=f"Start: one leaf of weight {w:.4g}; the game ends at s = {s} leaves.",
        s=s,
        gamma=gamma,
        w0=w,
        nodes=(Node(0, w, 0, -1),),
        leaves=(0,),
    )


def shrink(k: int, gamma: float) -> float:
    """``1 − γ⌈log₂ k⌉``: the fraction of a leaf's weight its ``k`` children keep.

    Parameters
    ----------
    k : int, ``≥ 1``
        Number of children.
    gamma : float in [0, 1]
        The advantage ``γ`` (not validated here).

    Returns
    -------
    float
        The fraction kept; negative when ``γ⌈log₂ k⌉ > 1`` (such ``k`` are not legal).

    Examples
    --------
    >>> from boostcore.game import shrink
    >>> shrink(2, 0.25), shrink(3, 0.25), shrink(5, 0.25)
    (0.75, 0.5, 0.25)
    """
    return 1.0 - gamma * int(ceil_log2(k))


def legal_arities(state: GameState) -> tuple[int, ...]:
    """Every ``k`` the adversary may choose now: ``k = 2`` or ``2 < k ≤ s/|T|``, with
    ``γ⌈log k⌉ ≤ 1`` (Hatano's acceptability; the tree never overshoots ``s``). At the root
    ``k`` runs up to ``s``.

    Parameters
    ----------
    state : GameState
        The current position.

    Returns
    -------
    tuple of int
        The legal arities in increasing order; empty when the game is over.

    Examples
    --------
    >>> from boostcore.game import expand, legal_arities, new_game
    >>> g = new_game(4, 0.25)
    >>> legal_arities(g)
    (2, 3, 4)
    >>> legal_arities(expand(g, 0, 2, (0.5, 0.5)))
    (2,)
    """
    if state.done:
        return ()
    ks = [
        k
        for k in range(2, max(state.s, 2) + 1)
        if (k == 2 or k * state.n_leaves <= state.s) and shrink(k, state.gamma) >= 0
    ]
    return tuple(ks)


def check_move(state: GameState, leaf: int, k: int, distribution) -> tuple[float, ...]:
    """Validate a move; return the distribution as a tuple or raise ``ValueError`` naming the
    rule that was broken.

    Parameters
    ----------
    state : GameState
        The current position (not over).
    leaf : int
        A current leaf.
    k : int, ``≥ 2``
        Number of children: ``k = 2`` or ``2 < k ≤ s/|T|``, with ``γ⌈log₂ k⌉ ≤ 1``.
    distribution : iterable of float
        ``k`` finite shares ``≥ 0`` summing to 1 (within ``SUM_TOL``).

    Returns
    -------
    tuple of float
        The distribution.

    Raises
    ------
    ValueError
        If the game is over or the move breaks one of the rules above.

    Examples
    --------
    >>> from boostcore.game import check_move, new_game
    >>> check_move(new_game(4, 0.25), 0, 2, [0.5, 0.5])
    (0.5, 0.5)
    >>> check_move(new_game(4, 0.25), 0, 2, [0.5, 0.6])
    Traceback (most recent call last):
        ...
    ValueError: distribution must sum to 1; got 1.1
    """
    if state.done:
        raise ValueError(f"the game is over: the tree already has s = {state.s} leaves")
    if isinstance(leaf, bool) or not isinstance(leaf, int | np.integer) or leaf not in state.leaves:
        raise ValueError(f"leaf must be a current leaf {list(state.leaves)}; got {leaf!r}")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 2:
        raise ValueError(f"k must be an integer ≥ 2; got {k!r}")
    if k > 2 and k * state.n_leaves > state.s:
        raise ValueError(
            f"k = {k} is not acceptable: a split with k > 2 needs k ≤ s/|T| = "
            f"{state.s}/{state.n_leaves} = {state.s / state.n_leaves:.3g}"
        )
    if shrink(k, state.gamma) < 0:
        raise ValueError(
            f"k = {k} is not acceptable: γ⌈log k⌉ = {state.gamma * ceil_log2(k):.3g} > 1"
        )
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
    child ``i`` gets ``d_i (1 − γ⌈log k⌉) w_ℓ`` (Hatano 2004, §4, rule 2(b)).

    Parameters
    ----------
    state : GameState
        The current position (left unchanged).
    leaf, k, distribution
        The move, as in :func:`check_move`.

    Returns
    -------
    GameState
        The new position, with the move appended to ``history``.

    Raises
    ------
    ValueError
        If the move is illegal (see :func:`check_move`).

    Examples
    --------
    >>> from boostcore.game import expand, new_game
    >>> g = expand(new_game(4, 0.25), 0, 3, (0.5, 0.25, 0.25))
    >>> g.leaves, [g.weight(i) for i in g.leaves]
    ((1, 2, 3), [0.25, 0.125, 0.125])
    """
    d = check_move(state, leaf, k, distribution)
    parent = state.nodes[leaf]
    keep = shrink(k, state.gamma) * parent.weight
    first = len(state.nodes)
    kids = tuple(Node(first + i, d[i] * keep, parent.depth + 1, leaf) for i in range(k))
    leaves = tuple(x for x in state.leaves if x != leaf) + tuple(c.id for c in kids)
    nodes = state.nodes + kids
    total = float(sum(nodes[i].weight for i in leaves))
    move = Move(
        leaf=int(leaf),
        k=int(k),
        distribution=d,
        children=tuple(c.id for c in kids),
        leaf_weight=parent.weight,
        total_after=total,
    )
    t = len(state.history) + 1
    shares = ", ".join(f"{v:.2f}" for v in d)
    return replace(
        state,
        t=t,
        kind=STEP,
        metrics=_game_metrics(state.s, state.gamma, state.w0, len(leaves), total),
        message=f"Move {t}: leaf #{leaf} (weight {parent.weight:.4g}) split {k}-way with shares "
        f"{shares}; the tree now weighs {total:.4g}.",
        nodes=nodes,
        leaves=leaves,
        history=state.history + (move,),
    )


def finish(state: GameState) -> GameState:
    """The stop snapshot of a finished game: ``state`` repeated with ``kind="stop"`` and why
    the game ended (the step protocol's last snapshot, :mod:`boostcore.steps`).

    Parameters
    ----------
    state : GameState
        A position with ``|T| = s`` (``state.done``).

    Returns
    -------
    GameState

    Raises
    ------
    ValueError
        If the game is not over yet.

    Examples
    --------
    >>> from boostcore.game import expand, finish, new_game
    >>> end = finish(expand(new_game(2, 0.25), 0, 2, (0.5, 0.5)))
    >>> end.kind, end.t, end.stop_reason
    ('stop', 1, 'The tree has s = 2 leaves: the game is over.')
    """
    if not state.done:
        raise ValueError(
            f"state must be a finished game (|T| = s = {state.s}); it has {state.n_leaves} leaves"
        )
    reason = f"The tree has s = {state.s} leaves: the game is over."
    return replace(state, kind=STOP, stop_reason=reason, message=f"{state.message} {reason}")


# --------------------------------------------------------------------------- strategies
Player = Callable[[GameState], int]
Adversary = Callable[[GameState, int], tuple[int, tuple[float, ...]]]


def max_weight_player(state: GameState) -> int:
    """TOPDOWN-M's rule: the leaf of maximum weight (ties: the oldest leaf).

    Parameters
    ----------
    state : GameState
        The current position.

    Returns
    -------
    int
        The id of the leaf to expand.

    Examples
    --------
    >>> from boostcore.game import expand, max_weight_player, new_game
    >>> max_weight_player(expand(new_game(4, 0.25), 0, 3, (0.25, 0.5, 0.25)))
    2
    """
    return max(state.leaves, key=lambda i: (state.weight(i), -i))


def equal_binary_adversary(state: GameState, leaf: int) -> tuple[int, tuple[float, ...]]:
    """Theorem 3's best adversary against the max-weight player: two equal children.

    Parameters
    ----------
    state : GameState
        The current position (unused).
    leaf : int
        The leaf the player chose (unused).

    Returns
    -------
    (int, tuple of float)
        Always ``(2, (0.5, 0.5))``.

    Examples
    --------
    >>> from boostcore.game import equal_binary_adversary, new_game
    >>> equal_binary_adversary(new_game(4, 0.25), 0)
    (2, (0.5, 0.5))
    """
    return 2, (0.5, 0.5)


def random_adversary(random_state: RandomState = 0) -> Adversary:
    """An adversary that picks a legal ``k`` and a Dirichlet(1) distribution at random.

    Parameters
    ----------
    random_state : None, int or numpy.random.Generator, default 0
        Its randomness (boostcore's convention, :func:`boostcore._validation.check_random_state`):
        reproducible by default; ``None`` for fresh entropy.

    Returns
    -------
    callable
        ``move(state, leaf) -> (k, distribution)`` with ``k`` in :func:`legal_arities`.

    Examples
    --------
    >>> from boostcore.game import legal_arities, new_game, random_adversary
    >>> g = new_game(4, 0.25)
    >>> k, d = random_adversary(random_state=0)(g, 0)
    >>> k in legal_arities(g), len(d) == k, round(sum(d), 9)
    (True, True, 1.0)
    """
    rng = check_random_state(random_state)

    def move(state: GameState, leaf: int) -> tuple[int, tuple[float, ...]]:
        ks = legal_arities(state)
        k = int(rng.choice(ks))
        d = rng.dirichlet(np.ones(k))
        d = d / d.sum()
        return k, tuple(float(v) for v in d)

    return move


def play(
    s: int,
    gamma: float,
    player: Player = max_weight_player,
    adversary: Adversary = equal_binary_adversary,
    w: float = 1.0,
) -> Iterator[GameState]:
    """Play a whole game.

    Parameters
    ----------
    s : int
        Target size, 1 to ``MAX_SIZE`` (64).
    gamma : float in [0, 1]
        The advantage ``γ``.
    player : callable, default :func:`max_weight_player`
        ``player(state) -> leaf``.
    adversary : callable, default :func:`equal_binary_adversary`
        ``adversary(state, leaf) -> (k, distribution)``.
    w : float in [0, 1], default 1.0
        Weight of the initial leaf.

    Yields
    ------
    GameState
        The start, then the state after every move until ``|T| = s``, then that final state
        again as the stop snapshot (:func:`finish`).

    Raises
    ------
    ValueError
        If a parameter is out of range or a strategy makes an illegal move.

    Examples
    --------
    >>> from boostcore.game import phi, play
    >>> states = list(play(4, 0.25))
    >>> len(states), states[-1].total, phi(4, 0.25)  # Theorem 3: the final weight is φ_γ(s)
    (5, 0.5625, 0.5625)
    >>> [s.kind for s in states]
    ['start', 'step', 'step', 'step', 'stop']
    """
    state = new_game(s, gamma, w)
    yield state
    while not state.done:
        leaf = player(state)
        k, d = adversary(state, leaf)
        state = expand(state, leaf, k, d)
        yield state
    yield finish(state)


# --------------------------------------------------------------------------- exhaustive search
#: Largest target size the exhaustive search accepts. Its number of distinct positions grows
#: about 3× per extra leaf (steps = 4, every legal k: s = 10 → ~35,000 positions, ~0.4 s;
#: s = 12 → ~340,000, 5–7 s on one core; s = 13 would take ~15–20 s).
SEARCH_MAX_SIZE = 12
#: Finest grid of shares the exhaustive search accepts (``steps = 8`` at ``s = 8``: ~1 s).
SEARCH_MAX_STEPS = 8


def grid_distributions(k: int, steps: int) -> list[tuple[float, ...]]:
    """Distributions on ``k`` children with shares in multiples of ``1/steps``, sorted
    decreasingly (children are interchangeable, so one order per multiset suffices).

    Parameters
    ----------
    k : int, ``≥ 1``
        Number of children.
    steps : int, ``≥ 1``
        Grid resolution: shares are multiples of ``1/steps``.

    Returns
    -------
    list of tuple of float
        Every such distribution, each with decreasing shares.

    Examples
    --------
    >>> from boostcore.game import grid_distributions
    >>> grid_distributions(3, 2)
    [(1.0, 0.0, 0.0), (0.5, 0.5, 0.0)]
    """
    out = []
    for parts in itertools.combinations_with_replacement(range(steps, -1, -1), k):
        if sum(parts) == steps:
            out.append(tuple(p / steps for p in parts))
    return out


def search_distributions(k: int, steps: int) -> list[tuple[float, ...]]:
    """The adversary's distributions on ``k`` children that the exhaustive search tries: the
    grid of :func:`grid_distributions` plus the equal split ``d_k* = (1/k, …, 1/k)`` (for
    ``k > steps`` the grid alone has at most ``steps`` non-zero shares), tried first.

    Parameters
    ----------
    k : int, ``≥ 1``
        Number of children.
    steps : int, ``≥ 1``
        Grid resolution: shares are multiples of ``1/steps``.

    Returns
    -------
    list of tuple of float
        The equal split, then the grid without it.

    Examples
    --------
    >>> from boostcore.game import search_distributions
    >>> [tuple(round(x, 3) for x in d) for d in search_distributions(3, 2)]
    [(0.333, 0.333, 0.333), (1.0, 0.0, 0.0), (0.5, 0.5, 0.0)]
    """
    equal = tuple([1.0 / k] * k)
    return [equal] + [
        d for d in grid_distributions(k, steps) if not np.allclose(d, equal, rtol=0, atol=1e-12)
    ]


@dataclass(frozen=True)
class SearchResult:
    """What :func:`exhaustive_search` found.

    Attributes
    ----------
    s, gamma, steps
        The search's parameters.
    value : float
        The largest final weight (``w = 1``).
    arities : tuple of int
        Every ``k`` the search tried somewhere (all legal ones).
    positions : int
        Distinct positions evaluated.
    strategy : tuple of (int, tuple of float)
        A best adversary's moves ``(k, d)`` in order, against the max-weight player.
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

    Parameters
    ----------
    s : int
        Target size, 1 to ``SEARCH_MAX_SIZE`` (12).
    gamma : float in [0, 1]
        The advantage ``γ``.
    steps : int, default 4
        Grid resolution of the shares, 1 to ``SEARCH_MAX_STEPS`` (8).

    Returns
    -------
    SearchResult
        The value, the arities tried, the positions evaluated and a best strategy.

    Raises
    ------
    ValueError
        If ``s > SEARCH_MAX_SIZE`` or ``steps > SEARCH_MAX_STEPS`` (the search would take too
        long), naming the parameter, the rule and the value received.

    Examples
    --------
    >>> from boostcore.game import exhaustive_search, phi
    >>> r = exhaustive_search(4, 0.25, steps=2)
    >>> r.value, phi(4, 0.25), r.arities
    (0.5625, 0.5625, (2, 3, 4))
    >>> r.strategy[0]
    (2, (0.5, 0.5))
    """
    s = check_int("s", s, low=1)
    if s > SEARCH_MAX_SIZE:
        raise ValueError(
            f"s must be ≤ {SEARCH_MAX_SIZE} for the exhaustive search (its number of "
            f"positions grows about 3× per leaf; s = {SEARCH_MAX_SIZE} takes 5–7 s); got {s}"
        )
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
    return SearchResult(
        s=s,
        gamma=gamma,
        steps=steps,
        value=float(v),
        arities=tuple(sorted(tried)),
        positions=value.cache_info().currsize,
        strategy=tuple(line),
    )


def best_adversary_value(s: int, gamma: float, *, steps: int = 4) -> float:
    """The largest final weight any adversary can force against the max-weight player, by
    :func:`exhaustive_search` (every legal ``k``; shares on a grid of ``1/steps`` plus the
    equal split). ``w = 1``. Theorem 3 says this is ``φ_γ(s)``.

    Parameters
    ----------
    s, gamma, steps
        As in :func:`exhaustive_search`.

    Returns
    -------
    float
        ``exhaustive_search(s, gamma, steps=steps).value``.

    Raises
    ------
    ValueError
        As :func:`exhaustive_search`.

    Examples
    --------
    >>> from boostcore.game import best_adversary_value
    >>> best_adversary_value(4, 0.25, steps=2)
    0.5625
    """
    return exhaustive_search(s, gamma, steps=steps).value


# --------------------------------------------------------------------------- Lemma 9
D2_STAR = (0.5, 0.5)


def sum_max(w: float, gamma: float, distributions) -> float:
    """Hatano's ``sum_max(w, d^(1), …, d^(t))`` (2004, §4.1): the weight of the tree grown
    from one leaf of weight ``w`` when the player always expands a heaviest leaf and the
    ``i``-th expansion splits it by ``d^(i)`` (``k_i = len(d^(i))`` children, which keep
    ``1 − γ⌈log₂ k_i⌉`` of its weight). As in the paper, the size rule is not applied; the
    app's rule ``γ⌈log₂ k⌉ ≤ 1`` is (weights stay non-negative).

    Parameters
    ----------
    w : float, ``≥ 0``
        Weight of the initial leaf.
    gamma : float in [0, 1]
        The advantage ``γ``.
    distributions : iterable of sequences of float
        ``d^(1), …, d^(t)``, each with ``k ≥ 2`` shares ``≥ 0`` summing to 1.

    Returns
    -------
    float
        The final tree's weight.

    Raises
    ------
    ValueError
        If ``w`` or ``gamma`` is out of range, or a distribution is invalid.

    Examples
    --------
    >>> from boostcore.game import sum_max
    >>> sum_max(1.0, 0.25, [(0.5, 0.5)] * 3)  # = φ_γ(4)
    0.5625
    >>> sum_max(1.0, 0.25, [(0.5, 0.25, 0.25), (0.5, 0.5)])
    0.4375
    """
    w = check_float("w", w, low=0.0)
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    heap = [-w]
    for i, d in enumerate(distributions, start=1):
        d = tuple(float(x) for x in d)
        k = len(d)
        if k < 2 or shrink(k, gamma) < 0:
            raise ValueError(
                f"distribution {i} must have k ≥ 2 shares with γ⌈log₂ k⌉ ≤ 1; "
                f"got k = {k} with γ = {gamma}"
            )
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

    Attributes
    ----------
    node, k, distribution : int, int, tuple of float
        The expanded node and its split.
    weight : float
        ``w``, the node's weight.
    leaves : int
        ``k + t``, the leaves of its subtree.
    before, after : float
        The subtree's weight as played and after the replacement.
    tree_before, tree_after : float
        The whole tree's weight without and with the replacement.
    curve : tuple of (int, float, float)
        ``(m, before, after)`` for ``m = k … s``.
    before_game, after_game : GameState
        The two subtrees as games.
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
        """The equal binary splits made below the ``k``-way split.

        Examples
        --------
        >>> from boostcore.game import lemma9_replacement, play
        >>> adv = lambda g, leaf: (3, (0.5, 0.25, 0.25)) if g.n_leaves == 1 else (2, (0.5, 0.5))
        >>> step = lemma9_replacement(list(play(6, 0.1, adversary=adv))[-1], 0)
        >>> step.k, step.leaves, step.t
        (3, 6, 3)
        """
        return self.leaves - self.k

    @property
    def gain(self) -> float:
        """``after − before``: Lemma 9 says it is ``≥ 0``.

        Examples
        --------
        >>> from boostcore.game import lemma9_replacement, play
        >>> adv = lambda g, leaf: (3, (0.5, 0.25, 0.25)) if g.n_leaves == 1 else (2, (0.5, 0.5))
        >>> step = lemma9_replacement(list(play(6, 0.1, adversary=adv))[-1], 0)
        >>> round(step.before, 4), round(step.after, 4), round(step.gain, 4)
        (0.72, 0.7695, 0.0495)
        """
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
        return f"node #{node} is a leaf: Lemma 9 replaces an expanded node (a k-way split)"
    inside = _subtree(state, node)
    after = state.history[state.history.index(own[0]) + 1 :]
    for i, m in enumerate(after, start=state.history.index(own[0]) + 2):
        if m.leaf in inside and (m.k != 2 or any(abs(x - 0.5) > 1e-9 for x in m.distribution)):
            shares = ", ".join(f"{x:.3g}" for x in m.distribution)
            return (
                f"node #{node} is not an instance of Lemma 9: below it, move {i} split "
                f"leaf #{m.leaf} into k = {m.k} with shares ({shares}); Lemma 9 covers a "
                f"k-way split followed only by equal binary splits (d₂* = (½, ½))"
            )
    return None


def lemma9_nodes(state: GameState, *, min_k: int = 3) -> tuple[int, ...]:
    """The expanded nodes with ``k ≥ min_k`` to which :func:`lemma9_replacement` applies (below
    them the game made only equal binary splits), deepest-created first.

    Parameters
    ----------
    state : GameState
        A position.
    min_k : int, default 3
        Smallest arity of a node to report.

    Returns
    -------
    tuple of int
        Node ids, most recently expanded first.

    Examples
    --------
    >>> from boostcore.game import lemma9_nodes, play
    >>> adv = lambda g, leaf: (3, (0.5, 0.25, 0.25)) if g.n_leaves == 1 else (2, (0.5, 0.5))
    >>> lemma9_nodes(list(play(6, 0.1, adversary=adv))[-1])
    (0,)
    """
    out = [m.leaf for m in state.history if m.k >= min_k and _lemma9_problem(state, m.leaf) is None]
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
    be one the max-weight player would grow (Proposition 6 handles that in Lemma 10:
    :func:`lemma10_step`).

    Parameters
    ----------
    state : GameState
        A position.
    node : int
        Id of an expanded node (see :func:`lemma9_nodes`).

    Returns
    -------
    Lemma9Step
        The weights before and after the replacement, for the subtree and the whole tree.

    Raises
    ------
    ValueError
        If ``node`` is not a node of the tree, is a leaf, or its subtree holds another split.

    Examples
    --------
    >>> from boostcore.game import lemma9_replacement, play
    >>> adv = lambda g, leaf: (3, (0.5, 0.25, 0.25)) if g.n_leaves == 1 else (2, (0.5, 0.5))
    >>> last = list(play(6, 0.1, adversary=adv))[-1]
    >>> step = lemma9_replacement(last, 0)
    >>> round(step.before, 4), round(step.after, 4), step.gain >= 0
    (0.72, 0.7695, True)
    >>> lemma9_replacement(last, 5)
    Traceback (most recent call last):
        ...
    ValueError: node #5 is a leaf: Lemma 9 replaces an expanded node (a k-way split)
    """
    if (
        isinstance(node, bool)
        or not isinstance(node, int | np.integer)
        or not 0 <= node < len(state.nodes)
    ):
        raise ValueError(
            f"node must be a node id of the tree (0 … {len(state.nodes) - 1}); got {node!r}"
        )
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
        raise ValueError(
            f"node #{node} is not an instance of Lemma 9: inside its subtree the "
            "player did not always expand the heaviest leaf"
        )
    after = sum_max(w, state.gamma, [D2_STAR] * (m - 1))
    curve = tuple(
        (
            size,
            sum_max(w, state.gamma, [d] + [D2_STAR] * (size - k)),
            sum_max(w, state.gamma, [D2_STAR] * (size - 1)),
        )
        for size in range(k, max(state.s, m) + 1)
    )
    w_game = min(w, 1.0)
    g = expand(new_game(m, state.gamma, w_game), 0, k, d)
    while not g.done:
        g = expand(g, max_weight_player(g), 2, D2_STAR)
    equal = list(play(m, state.gamma, max_weight_player, equal_binary_adversary, w=w_game))[-1]
    return Lemma9Step(
        node=node,
        k=k,
        distribution=d,
        weight=w,
        leaves=m,
        before=played,
        after=after,
        tree_before=state.total,
        tree_after=state.total - played + after,
        curve=curve,
        before_game=g,
        after_game=equal,
    )


# --------------------------------------------------------------------------- Lemma 10
def _equal_halves(move: Move) -> bool:
    """Whether a move is ``d₂* = (½, ½)``: two children whose shares are ½ up to 1e-9 (a
    share computed in floating point, e.g. a slider's, may miss ½ by a rounding)."""
    return move.k == 2 and all(abs(x - 0.5) <= 1e-9 for x in move.distribution)


def _heaviest_problem(state: GameState, upto: int) -> tuple[int, str] | None:
    """The first of the first ``upto`` moves whose leaf was not a heaviest leaf (``None`` if
    all were): its 1-based number and what happened, replayed from the start."""
    g = new_game(state.s, state.gamma, state.w0)
    for i, m in enumerate(state.history[:upto], start=1):
        top = max(g.leaves, key=lambda x: (g.weight(x), -x))
        if g.weight(m.leaf) < g.weight(top) - 1e-12 * max(1.0, g.weight(top)):
            return i, (
                f"move {i} expanded leaf #{m.leaf} (weight {g.weight(m.leaf):.4g}) while leaf "
                f"#{top} weighed {g.weight(top):.4g}"
            )
        g = expand(g, m.leaf, m.k, m.distribution)
    return None


@dataclass(frozen=True)
class Proposition6Step:
    """Hatano's Proposition 6 (2004, §4.1) for one played game: a ``u``-max player against the
    max-weight player on the same adversary's strategy.

    The game's strategy is ``d^(1), …, d^(u), d₂*, …, d₂*`` (``t`` equal halves after move
    ``u``, the last move that is not ``d₂*``), and its player took a heaviest leaf at each of
    the first ``u`` expansions (a *u-max player*; afterwards it may take any leaf).
    ``sum_u_max`` is the game's final weight; ``sum_max`` the weight the max-weight player
    gets from the same strategy (the same ``d^(i)`` in the same order). Proposition 6:
    ``sum_max ≤ sum_u_max``.

    Attributes
    ----------
    u : int
        The moves up to the last that is not an equal binary split (0 if there is none).
    t : int
        The equal binary splits after move ``u``.
    heaviest : int
        How many leading moves took a heaviest leaf (``≥ u``: the player is u-max).
    sum_u_max : float
        The game's weight (this player's).
    sum_max : float
        ``sum_max(w, d^(1), …, d^(u), d₂*^t)``: the max-weight player's weight.
    max_game : GameState
        The same strategy played by the max-weight player (:func:`max_weight_player`).
    """

    u: int
    t: int
    heaviest: int
    sum_u_max: float
    sum_max: float
    max_game: GameState

    @property
    def gap(self) -> float:
        """``sum_u_max − sum_max``: Proposition 6 says it is ``≥ 0``.

        Examples
        --------
        >>> from boostcore.game import expand, new_game, proposition6
        >>> g = expand(new_game(3, 0.2), 0, 2, (0.5, 0.5))
        >>> round(proposition6(expand(g, 2, 2, (0.5, 0.5))).gap, 12)  # ties: no loss
        0.0
        """
        return self.sum_u_max - self.sum_max


def proposition6(state: GameState) -> Proposition6Step:
    """Hatano's Proposition 6 (2004, §4.1) applied to a played game.

    **Proposition 6.** For any weight ``w ∈ [0, 1]``, any integers ``t, u``, any u-max player
    ``p_u`` (it chooses a heaviest leaf at each of the first ``u`` expansions) and any
    strategy ``d^(1), …, d^(u), d₂*, …, d₂*`` (``t`` equal halves at the end):
    ``sum_max(w, d^(1), …, d^(u), d₂*^t) ≤ sum_u-max(w, d^(1), …, d^(u), d₂*^t)``. Once the
    adversary only splits in equal halves, leaving the heaviest leaf never helps the player.

    ``u`` is the number of the last move that is not an equal binary split; the state's player
    must have taken a heaviest leaf at each of the moves ``1 … u`` (so in the "you are the
    player" game, where every move is ``d₂*``, any choice of leaves qualifies with ``u = 0``).
    Lemma 10 uses the proposition on its tree ``T̂`` (:func:`lemma10_step`).

    Parameters
    ----------
    state : GameState
        A position (finished or not).

    Returns
    -------
    Proposition6Step
        The game's weight, the max-weight player's on the same strategy, ``u`` and ``t``.

    Raises
    ------
    ValueError
        If ``state`` is not a :class:`GameState`, or its player left a heaviest leaf before
        the last move that is not an equal binary split (the message names the move).

    Examples
    --------
    >>> from boostcore.game import expand, new_game, proposition6
    >>> g = expand(new_game(4, 0.2), 0, 2, (0.75, 0.25))  # children 0.6 and 0.2
    >>> g = expand(expand(g, 2, 2, (0.5, 0.5)), 3, 2, (0.5, 0.5))  # light leaves after move 1
    >>> step = proposition6(g)
    >>> step.u, step.t, round(step.sum_max, 4), round(step.sum_u_max, 4), step.gap >= 0
    (1, 2, 0.632, 0.744, True)
    """
    if not isinstance(state, GameState):
        raise ValueError(f"state must be a GameState; got {type(state).__name__}")
    history = state.history
    u = max((i for i, m in enumerate(history, start=1) if not _equal_halves(m)), default=0)
    first = _heaviest_problem(state, len(history))
    heaviest = len(history) if first is None else first[0] - 1
    if heaviest < u:
        raise ValueError(
            f"state is not a u-max player's game for u = {u} (the last move that is not an "
            f"equal binary split): {first[1]}; Proposition 6 needs a heaviest leaf at each of "
            f"the first u moves"
        )
    g = new_game(state.s, state.gamma, state.w0)
    for m in history:
        g = expand(g, max_weight_player(g), m.k, m.distribution)
    return Proposition6Step(
        u=u,
        t=len(history) - u,
        heaviest=heaviest,
        sum_u_max=state.total,
        sum_max=g.total,
        max_game=g,
    )


@dataclass(frozen=True)
class Lemma10Step:
    """One application of Hatano's Lemma 10 (2004, §4.1) to a game of the max-weight player:
    its last move that is not an equal binary split, move ``u`` (``k`` children, shares
    ``distribution``), traded for ``k − 1`` equal binary splits.

    Three trees with the game's ``n`` leaves, all grown from weight ``w``:

    - the game as played, ``sum_max(w, d^(1), …, d^(u), d₂*^t)`` — ``played``;
    - ``T`` (``replaced_game``): the first ``u − 1`` moves, then equal halves of a heaviest
      leaf, ``sum_max(w, d^(1), …, d^(u−1), d₂*^(t+k−1))`` — ``replaced``;
    - ``T̂`` (``hat_game``): ``T`` with the subtree of ``ℓ*`` (the leaf move ``u`` expanded)
      grown instead by ``d^(u)`` then equal halves, as many leaves — ``hat``.

    ``frontier`` are the leaves ``L_{u−1}`` after ``u − 1`` moves; ``T``'s weight is the sum of
    their subtrees' (equation (4)), ``frontier_moves[j]`` the expansions ``t_ℓ`` inside the
    ``j``-th. Lemma 9 on ``ℓ*`` (``star_before ≥ star_after``) gives ``replaced ≥ hat``
    (inequality (5)); ``T̂`` is the tree of a u-max player, so Proposition 6
    (``proposition6``) gives ``hat ≥ played`` (inequality (6)). Lemma 10:
    ``played ≤ replaced``.

    Attributes
    ----------
    u, k, distribution : int, int, tuple of float
        The replaced move (1-based), its ``k`` and shares.
    t : int
        The equal binary splits after move ``u`` in the game.
    n : int
        The leaves of the game (the strategy is acceptable for ``n``).
    star : int
        ``ℓ*``: the leaf move ``u`` expanded, the heaviest of ``L_{u−1}``.
    frontier : tuple of int
        ``L_{u−1}``, heaviest first (``ℓ*`` first).
    frontier_weights : tuple of float
        Their weights.
    frontier_moves : tuple of int
        ``t_ℓ``: the expansions inside each one's subtree in ``T``.
    frontier_replaced, frontier_hat : tuple of float
        Each subtree's weight in ``T`` and in ``T̂`` (they differ at ``ℓ*`` only).
    played, hat, replaced : float
        The three trees' weights.
    star_before, star_after : float
        ``ℓ*``'s subtree in ``T`` (equal halves only) and in ``T̂`` (Lemma 9's two sides).
    proposition6 : Proposition6Step
        Proposition 6 on ``T̂`` (``sum_u_max = hat``, ``sum_max = played``).
    replaced_game, hat_game : GameState
        ``T`` and ``T̂`` as games of target ``n``.
    """

    u: int
    k: int
    distribution: tuple[float, ...]
    t: int
    n: int
    star: int
    frontier: tuple[int, ...]
    frontier_weights: tuple[float, ...]
    frontier_moves: tuple[int, ...]
    frontier_replaced: tuple[float, ...]
    frontier_hat: tuple[float, ...]
    played: float
    hat: float
    replaced: float
    star_before: float
    star_after: float
    proposition6: Proposition6Step
    replaced_game: GameState
    hat_game: GameState

    @property
    def gain(self) -> float:
        """``replaced − played``: Lemma 10 says it is ``≥ 0``.

        Examples
        --------
        >>> from boostcore.game import expand, lemma10_step, max_weight_player, new_game
        >>> g = expand(new_game(8, 0.1), 0, 4, (0.25,) * 4)
        >>> while not g.done:
        ...     g = expand(g, max_weight_player(g), 2, (0.5, 0.5))
        >>> round(lemma10_step(g).gain, 4)  # 0.729 − 0.72
        0.009
        """
        return self.replaced - self.played


def _subtree_weights(state: GameState, roots: tuple[int, ...]) -> tuple[float, ...]:
    """The weight of the current leaves below each of ``roots``."""
    out = []
    for r in roots:
        inside = _subtree(state, r)
        out.append(float(sum(state.weight(x) for x in state.leaves if x in inside)))
    return tuple(out)


def lemma10_step(state: GameState) -> Lemma10Step:
    """Hatano's Lemma 10 (2004, §4.1) applied to the last move of ``state`` that is not an
    equal binary split.

    **Lemma 10.** For any ``w ∈ [0, 1]``, any ``s ≥ 2`` and any strategy
    ``d^(1), …, d^(u), d₂*, …, d₂*`` (``t`` equal halves at the end) acceptable for ``s``:
    ``sum_max(w, d^(1), …, d^(u), d₂*^t) ≤ sum_max(w, d^(1), …, d^(u−1), d₂*^(t+k_u−1))``.

    The proof, computed: let ``T`` be the right side's tree and ``ℓ*`` the heaviest leaf after
    ``u − 1`` moves. Acceptability gives ``k_u ≤ s/|L_{u−1}| ≤ |T_ℓ*|``, so ``ℓ*``'s subtree
    can be regrown by ``d^(u)`` then equal halves with as many leaves; Lemma 9 says its weight
    does not rise (5). The new tree ``T̂`` is one a u-max player grows with the game's own
    strategy, so by Proposition 6 it weighs at least the game as played (6). Repeated on the
    last multi-way (or unequal) move until none is left, this is Theorem 5's proof
    (:func:`theorem5_chain`).

    Parameters
    ----------
    state : GameState
        A game of the max-weight player (a heaviest leaf at every move), with a move that is
        not an equal binary split, whose moves are acceptable for its ``n`` leaves (every
        finished legal game is; so ``n = s`` there).

    Returns
    -------
    Lemma10Step
        The three trees, the frontier ``L_{u−1}`` and the weights of the two inequalities.

    Raises
    ------
    ValueError
        If ``state`` is not a :class:`GameState`, has no move to replace, was not played by the
        max-weight player, or its moves are not acceptable for its ``n`` leaves (the message
        names the move and the rule).

    Examples
    --------
    >>> from boostcore.game import expand, lemma10_step, max_weight_player, new_game
    >>> g = expand(new_game(6, 0.1), 0, 2, (0.5, 0.5))
    >>> g = expand(g, 1, 3, (0.5, 0.25, 0.25))  # the last wide move: u = 2, k = 3
    >>> while not g.done:
    ...     g = expand(g, max_weight_player(g), 2, (0.5, 0.5))
    >>> step = lemma10_step(g)
    >>> step.u, step.k, step.star, step.frontier, step.frontier_moves
    (2, 3, 1, (1, 2), (3, 1))
    >>> [round(x, 4) for x in (step.played, step.hat, step.replaced)]  # (6) then (5)
    [0.7448, 0.747, 0.7695]
    >>> lemma10_step(new_game(6, 0.1))
    Traceback (most recent call last):
        ...
    ValueError: state has no move to replace: every move is an equal binary split (d₂*)
    """
    if not isinstance(state, GameState):
        raise ValueError(f"state must be a GameState; got {type(state).__name__}")
    history = state.history
    wide = [i for i, m in enumerate(history, start=1) if not _equal_halves(m)]
    if not wide:
        raise ValueError("state has no move to replace: every move is an equal binary split (d₂*)")
    bad = _heaviest_problem(state, len(history))
    if bad is not None:
        raise ValueError(
            f"state is not a game of the max-weight player: {bad[1]}; Lemma 10 compares "
            "sum_max, the weights the max-weight player gets"
        )
    n = state.n_leaves
    size = 1
    for i, m in enumerate(history, start=1):
        if m.k > 2 and m.k * size > n:
            raise ValueError(
                f"state's moves are not acceptable for its n = {n} leaves: move {i} split "
                f"{size} leaves' tree {m.k}-way, and k > 2 needs k ≤ n/|T| = {n}/{size}; "
                "finish the game (a finished legal game is acceptable for s)"
            )
        size += m.k - 1
    u = wide[-1]
    move = history[u - 1]
    g0 = new_game(n, state.gamma, state.w0)
    for m in history[: u - 1]:
        g0 = expand(g0, m.leaf, m.k, m.distribution)
    star = move.leaf
    frontier = tuple(sorted(g0.leaves, key=lambda x: (-g0.weight(x), x != star, x)))
    # T: equal halves of a heaviest leaf after the first u − 1 moves (the right side)
    tree = g0
    while not tree.done:
        tree = expand(tree, max_weight_player(tree), 2, D2_STAR)
    below = {r: _subtree(tree, r) for r in frontier}
    after = tree.history[u - 1 :]
    moves_in = tuple(sum(1 for m in after if m.leaf in below[r]) for r in frontier)
    t_star = moves_in[0]
    if move.k > t_star + 1:  # the paper derives k_u ≤ |T_ℓ*| from acceptability
        raise ValueError(
            f"state's move {u} splits leaf #{star} {move.k}-way, but its subtree in T has "
            f"only {t_star + 1} leaves; Lemma 10 needs k_u ≤ |T_ℓ*|"
        )
    # T̂: the game's first u moves, then, inside each frontier leaf's subtree, as many equal
    # halves as in T (ℓ*'s subtree k − 1 fewer), always of the subtree's heaviest leaf — a
    # u-max player (it may leave the tree's heaviest leaf once a subtree's quota is spent)
    quota = dict(zip(frontier, moves_in, strict=True))
    quota[star] -= move.k - 1
    root_of = {}
    hat = expand(g0, star, move.k, move.distribution)
    for r in frontier:
        for x in _subtree(hat, r):
            root_of[x] = r
    while not hat.done:
        open_leaves = [x for x in hat.leaves if quota[root_of[x]] > 0]
        leaf = max(open_leaves, key=lambda x: (hat.weight(x), -x))
        quota[root_of[leaf]] -= 1
        hat = expand(hat, leaf, 2, D2_STAR)
        root_of.update({c: root_of[leaf] for c in hat.history[-1].children})
    prop6 = proposition6(hat)
    frontier_replaced = _subtree_weights(tree, frontier)
    frontier_hat = _subtree_weights(hat, frontier)
    return Lemma10Step(
        u=u,
        k=move.k,
        distribution=move.distribution,
        t=len(history) - u,
        n=n,
        star=star,
        frontier=frontier,
        frontier_weights=tuple(g0.weight(r) for r in frontier),
        frontier_moves=moves_in,
        frontier_replaced=frontier_replaced,
        frontier_hat=frontier_hat,
        played=state.total,
        hat=hat.total,
        replaced=tree.total,
        star_before=frontier_replaced[0],
        star_after=frontier_hat[0],
        proposition6=prop6,
        replaced_game=tree,
        hat_game=hat,
    )


def theorem5_chain(state: GameState) -> tuple[Lemma10Step, ...]:
    """Hatano's proof of Theorem 5 (2004, §4.1) on a game of the max-weight player: Lemma 10
    on the last move that is not an equal binary split, then again on the tree it gives,
    until only equal halves are left — whose weight is ``w·φ_γ(n)``.

    Each step's ``replaced`` is the next step's ``played``; the weights never fall, so the
    game weighs at most ``w·φ_γ(n)`` (``n = s`` for a finished game).

    Parameters
    ----------
    state : GameState
        As in :func:`lemma10_step`; a game with only equal binary splits gives ``()``.

    Returns
    -------
    tuple of Lemma10Step
        One per move that is not an equal binary split, the last move first.

    Raises
    ------
    ValueError
        As :func:`lemma10_step` (except for a game of equal halves only).

    Examples
    --------
    >>> from boostcore.game import expand, max_weight_player, new_game, phi, theorem5_chain
    >>> g = expand(new_game(8, 0.1), 0, 4, (0.4, 0.3, 0.2, 0.1))
    >>> g = expand(g, max_weight_player(g), 2, (0.9, 0.1))
    >>> while not g.done:
    ...     g = expand(g, max_weight_player(g), 2, (0.5, 0.5))
    >>> chain = theorem5_chain(g)
    >>> [c.u for c in chain], round(chain[-1].replaced, 4) == round(phi(8, 0.1), 4)
    ([2, 1], True)
    """
    if not isinstance(state, GameState):
        raise ValueError(f"state must be a GameState; got {type(state).__name__}")
    out: list[Lemma10Step] = []
    while any(not _equal_halves(m) for m in state.history):
        step = lemma10_step(state)
        out.append(step)
        state = step.replaced_game
    return tuple(out)


def phi(s: int, gamma: float) -> float:
    """``φ_γ(s)`` (re-exported for the page; see :func:`boostcore.bounds.phi_gamma`).

    Parameters
    ----------
    s : int, ``≥ 1``
        Target size.
    gamma : float in [0, 1]
        The advantage ``γ``.

    Returns
    -------
    float
        The value of the game against the max-weight player (``w = 1``).

    Examples
    --------
    >>> from boostcore.game import phi
    >>> phi(4, 0.25)  # (1 − γ)²: two rounds of equal binary splits
    0.5625
    """
    return float(phi_gamma(s, gamma))
