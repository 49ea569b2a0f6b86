"""The Weight Distribution Game's rules and positions for the game page (views never import
boostcore: the page asks here, and this module asks :mod:`boostcore.game`)."""

from __future__ import annotations

import streamlit as st

from boostcore import steps
from boostcore.bounds import phi_gamma
from boostcore.game import (
    SEARCH_MAX_SIZE,
    GameState,
    expand,
    finish,
    legal_arities,
    lemma9_nodes,
    lemma9_replacement,
    lemma10_step,
    max_weight_player,
    new_game,
    proposition6,
    shrink,
    theorem5_chain,
)

__all__ = [
    "SEARCH_MAX_SIZE",
    "legal_arities",
    "lemma9_nodes",
    "lemma9_replacement",
    "lemma10_step",
    "proposition6",
    "theorem5_chain",
    "max_weight_player",
    "shrink",
    "phi",
    "start",
    "move",
    "watch",
    "run_of",
]


def phi(s: int, gamma: float) -> float:
    """``φ_γ(s)``: the final weight of equal binary splits against the max-weight player."""
    return float(phi_gamma(s, gamma))


def start(s: int, gamma: float) -> GameState:
    """A new game with initial weight 1."""
    return new_game(s, gamma)


def move(state: GameState, leaf: int, k: int, shares) -> GameState:
    """The state after a move (raises ``ValueError`` naming the broken rule)."""
    return expand(state, leaf, k, shares)


@st.cache_data(max_entries=64, show_spinner=False)
def watch(s: int, gamma: float, adversary: str, seed: int) -> tuple[GameState, ...]:
    """Every position of a game between the max-weight player and an app adversary
    (``"equal"``: two equal children each time; ``"random"``: random legal k and shares),
    the start first; one per move (the run's stop snapshot left out: it repeats the last)."""
    from boostcore.game import equal_binary_adversary, play, random_adversary

    adv = equal_binary_adversary if adversary == "equal" else random_adversary(seed)
    return tuple(steps.rounds(list(play(s, gamma, max_weight_player, adv))))


def run_of(positions) -> list[GameState]:
    """The positions of a game as a whole run of the step protocol (for export): the start,
    each move and — when the game is over — the stop snapshot."""
    run = list(positions)
    if run and run[-1].done:
        run.append(finish(run[-1]))
    return run
