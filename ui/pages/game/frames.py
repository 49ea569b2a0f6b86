"""The watched game as lecture frames: every position drawn once, stepped in the browser.

Watch mode used to step on the server (ui/rounds.stepper): every move was a rerun that
re-laid the tree out with graphviz in the browser, 3.8–4.0× a trivial page's step (issue 27,
item 6). A watched game is a fixed sequence of positions (``rules.watch``), so each one is
drawn here once — the tree as SVG (``ui/svgtree.py``, the layout graphviz did), the weight's
trajectory as a plotly frame, the numbers and the moves as HTML — cached for every session,
and the lecture stepper swaps them (``ui/lecture``).
"""

from __future__ import annotations

from collections.abc import Sequence

from boostcore.bounds import phi_gamma
from boostcore.game import GameState, max_weight_player
from ui import lecture, svgtree, theme
from ui.cache import shared

from . import questions
from .figures import trajectory_figure
from .rules import watch
from .tables import game_history_frame


def game_svg(state: GameState, *, chosen: int | None = None, font: float = svgtree.FONT) -> str:
    """The game's tree as SVG, as :func:`ui.pages.game.diagrams.game_digraph` draws it: every
    node with the weight it was given, the current leaves as ellipses filled by weight
    (darker = heavier), expanded nodes as grey boxes, the ``chosen`` leaf outlined in
    vermillion."""
    leaves = set(state.leaves)
    top = max((state.weight(i) for i in leaves), default=1.0) or 1.0
    nodes: dict[int, svgtree.Node] = {}
    for node in state.nodes:
        leaf = node.id in leaves
        nodes[node.id] = svgtree.Node(
            id=node.id,
            lines=(f"#{node.id}", f"{node.weight:.4f}"),
            parent=node.parent if node.parent >= 0 else None,
            fill=theme.mix(0.5 + 0.5 * node.weight / top) if leaf else "#F2F2F2",
            shape="ellipse" if leaf else "box",
            hot=node.id == chosen,
        )
    for node in nodes.values():
        if node.parent is not None:
            nodes[node.parent].children.append(node.id)
    return svgtree.tree_svg(nodes, 0, font=font)


def numbers_html(state: GameState, phi: float, equal_final: float) -> str:
    """The tree's weight now and, at the end, how it compares with the bound (escaped
    HTML: numbers only)."""
    text = f'<p>Tree weight now: <b style="font-size:1.5em">{state.total:.4f}</b></p>'
    if state.done:
        text += (
            f"<p>Final {state.total:.4f} against φ<sub>γ</sub>(s) = {phi:.4f} (equal binary "
            f"splits end at {equal_final:.4f}).</p>"
        )
    return text


def move_note(state: GameState) -> str:
    """One line under the tree: what the last move did (plain text)."""
    if not state.history:
        return f"Move 0: one leaf of weight {state.total:.4f}; the player expands it first."
    m = state.history[-1]
    shares = ", ".join(f"{d:.2f}" for d in m.distribution)
    head = (
        f"Move {len(state.history)}: leaf #{m.leaf} (weight {m.leaf_weight:.4f}) split "
        f"{m.k} ways, shares {shares}; tree weight {m.total_after:.4f}."
    )
    return head + (" Game over." if state.done else "")


def description(state: GameState, chosen: int | None) -> str:
    """The tree at this move in one sentence, for a screen reader."""
    leaves = sorted(state.leaves, key=lambda i: -state.weight(i))
    heavy = (
        f" The heaviest leaf is #{leaves[0]}, weight {state.weight(leaves[0]):.4f}."
        if leaves
        else ""
    )
    nxt = f" The player expands #{chosen} next." if chosen is not None else ""
    return (
        f"A tree of {len(state.nodes)} nodes, {len(leaves)} of them leaves, total weight "
        f"{state.total:.4f}.{heavy}{nxt}"
    )


@shared
def watch_lecture(s: int, gamma: float, adversary: str, seed: int, mark_next: bool) -> dict:
    """Every position of a watched game as frames (cached for every session).

    Parameters
    ----------
    s, gamma, adversary, seed
        The game (``rules.watch``).
    mark_next : bool
        Outline the leaf the player expands next (off while Predict, then reveal asks it).

    Returns
    -------
    dict
        ``n`` (positions), ``structure`` (SVG frames), ``notes``, ``descriptions``,
        ``curves`` (plotly frames), ``numbers`` and ``moves`` (HTML frames) and
        ``questions`` (one per position, ``None`` where nothing is asked).
    """
    states: Sequence[GameState] = watch(s, gamma, adversary, seed)
    phi = float(phi_gamma(s, gamma))
    equal_final = watch(s, gamma, "equal", 0)[-1].total
    chosen = [
        None if (state.done or not mark_next) else max_weight_player(state) for state in states
    ]
    return {
        "n": len(states),
        "structure": lecture.same_frames(
            [game_svg(state, chosen=c) for state, c in zip(states, chosen, strict=True)]
        ),
        "notes": [move_note(state) for state in states],
        "descriptions": [description(state, c) for state, c in zip(states, chosen, strict=True)],
        "curves": lecture.plotly_frames([trajectory_figure(state) for state in states]),
        "numbers": lecture.same_frames([numbers_html(state, phi, equal_final) for state in states]),
        "moves": lecture.same_frames(
            [lecture.table_html(game_history_frame(state)) for state in states]
        ),
        "questions": [questions.question(states, i) for i in range(len(states))],
    }
