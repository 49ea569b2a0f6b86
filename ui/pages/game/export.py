"""The Weight Distribution Game page's game as a script, in its modes (templates next to this
module: ``export_watch.py.tmpl`` for app against app, ``export_played.py.tmpl`` for a game the
student played; the shared templating is :mod:`ui.exports`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from boostcore import game
from ui import exports
from ui.dataset_code import literal

#: The page as the script's header names it.
TITLE = "Weight Distribution Game page"
#: The paper the page follows (the header's ``Paper:`` line; continuation lines are comments).
PAPER = (
    "K. Hatano, A simple boosting algorithm using multi-way branching decision trees\n"
    "#   (Theory of Computing Systems, 2004), section 4: the Weight Distribution Game."
)

#: The modes a script reproduces (a page label is recognised by the word it contains).
MODES = ("adversary", "player", "watch")
#: The watch mode's adversaries (likewise).
ADVERSARIES = ("equal", "random")


def _norm_mode(mode: str) -> str:
    text = str(mode).lower()
    for m in MODES:
        if m in text:
            return m
    raise ValueError(f"mode must be one of {list(MODES)} (or the page's label); got {mode!r}")


def _norm_adversary(adversary: str) -> str:
    text = str(adversary).lower()
    for a in ADVERSARIES:
        if a in text:
            return a
    raise ValueError(
        f"adversary must be one of {list(ADVERSARIES)} (or the page's label); got {adversary!r}"
    )


def _moves_of(moves: Any) -> list[tuple[int, int, tuple[float, ...]]]:
    """``(leaf, k, shares)`` of every move of a ``GameState``, its ``Move``s or such tuples."""
    if isinstance(moves, game.GameState):
        moves = moves.history
    out = []
    for m in moves:
        if isinstance(m, game.Move):
            out.append((int(m.leaf), int(m.k), tuple(float(d) for d in m.distribution)))
        else:
            leaf, k, shares = m
            out.append((int(leaf), int(k), tuple(float(d) for d in shares)))
    return out


def snippet(
    s: int,
    gamma: float,
    mode: str = "watch",
    adversary: str = "equal",
    seed: int = 0,
    moves: game.GameState | Iterable[Any] = (),
) -> str:
    """Script reproducing the Weight Distribution Game page.

    Parameters
    ----------
    s : int
        The target size s.
    gamma : float
        γ: every k-way expansion keeps 1 − γ⌈log₂ k⌉ of the leaf's weight.
    mode : str, default "watch"
        ``"watch"`` (app against app), ``"adversary"`` or ``"player"`` (the student's
        game, replayed from ``moves``); the page's labels (its ``MODES``) are accepted too.
    adversary : str, default "equal"
        In watch mode, ``"equal"`` or ``"random"`` (with ``seed``), as
        ``ui.pages.game.rules.watch``; the page's labels are accepted too.
    seed : int, default 0
        The random adversary's seed.
    moves : GameState or iterable, default ()
        The played game: the current ``GameState``, its ``history`` of ``Move``, or
        ``(leaf, k, shares)`` tuples.

    Returns
    -------
    str
        The complete script.
    """
    mode = _norm_mode(mode)
    if mode == "watch":
        adv = _norm_adversary(adversary)
        if adv == "equal":
            imports = "equal_binary_adversary, max_weight_player, play"
            line = "adversary = equal_binary_adversary  # two equal children every time"
        else:
            imports = "equal_binary_adversary, max_weight_player, play, random_adversary"
            line = (
                f"SEED = {literal(int(seed))}\n"
                "adversary = random_adversary(SEED)  # a random legal k, Dirichlet shares"
            )
        return exports.script(
            __package__,
            TITLE,
            PAPER,
            name="export_watch",
            IMPORTS=imports,
            S=literal(int(s)),
            GAMMA=literal(gamma),
            ADVERSARY=line,
        )
    played = _moves_of(moves)
    who = (
        "You played the adversary; the app's player expanded the heaviest leaf."
        if mode == "adversary"
        else "You played the player; the app's adversary split in two, equally."
    )
    lines = "".join(f"    ({leaf}, {k}, {literal(shares)}),\n" for leaf, k, shares in played)
    return exports.script(
        __package__,
        TITLE,
        PAPER,
        name="export_played",
        S=literal(int(s)),
        GAMMA=literal(gamma),
        WHO=who,
        MOVES=lines,
    )
