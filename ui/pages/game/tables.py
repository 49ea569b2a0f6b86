"""The game page's tables (pandas): the moves of a Weight Distribution Game, and the numbers
of Hatano's Lemma 10 and Theorem 5's proof (2004, §4.1)."""

from __future__ import annotations

import pandas as pd

from boostcore.game import GameState, Lemma10Step


def game_history_frame(state: GameState) -> pd.DataFrame:
    """One row per move of a Weight Distribution Game."""
    rows = [
        {
            "move": i + 1,
            "leaf": m.leaf,
            "leaf weight": m.leaf_weight,
            "k": m.k,
            "shares": ", ".join(f"{d:.2f}" for d in m.distribution),
            "kept 1 − γ⌈log k⌉": 1.0 - state.gamma * (m.k - 1).bit_length(),
            "tree weight after": m.total_after,
        }
        for i, m in enumerate(state.history)
    ]
    return pd.DataFrame(
        rows,
        columns=[
            "move",
            "leaf",
            "leaf weight",
            "k",
            "shares",
            "kept 1 − γ⌈log k⌉",
            "tree weight after",
        ],
    )


def lemma10_frontier_frame(step: Lemma10Step) -> pd.DataFrame:
    """Lemma 10's frontier ``L_{u−1}`` (Hatano 2004, §4.1, equations (4)–(5)): one row per leaf
    after the first ``u − 1`` moves, heaviest first — its weight, the expansions ``t_ℓ`` inside
    its subtree in ``T``, and the subtree's weight in ``T`` and in ``T̂`` (only ``ℓ*``'s,
    regrown by move ``u``'s split then equal halves, differs)."""
    rows = [
        {
            "leaf": f"#{leaf}" + (" = ℓ*" if leaf == step.star else ""),
            "weight": weight,
            "expansions t_ℓ in T": moves,
            "subtree in T": in_t,
            "subtree in T̂": in_hat,
        }
        for leaf, weight, moves, in_t, in_hat in zip(
            step.frontier,
            step.frontier_weights,
            step.frontier_moves,
            step.frontier_replaced,
            step.frontier_hat,
            strict=True,
        )
    ]
    return pd.DataFrame(
        rows, columns=["leaf", "weight", "expansions t_ℓ in T", "subtree in T", "subtree in T̂"]
    )


def theorem5_chain_frame(chain: tuple[Lemma10Step, ...], *, n: int) -> pd.DataFrame:
    """Theorem 5's proof as a table (Hatano 2004, §4.1): the game as played, then the tree after
    each application of Lemma 10, the last move that is not an equal binary split first —
    weights that never fall and end at ``w·φ_γ(n)``."""
    rows = []
    if chain:
        rows.append({"tree": "your game", "replaced move": "—", "weight": chain[0].played})
    for step in chain:
        shares = ", ".join(f"{d:.2f}" for d in step.distribution)
        halves = f"{step.k - 1} equal binary split" + ("s" if step.k > 2 else "")
        rows.append(
            {
                "tree": f"move {step.u} replaced",
                "replaced move": f"{step.k}-way ({shares}) → {halves}",
                "weight": step.replaced,
            }
        )
    if rows:
        rows[-1]["tree"] += f": equal halves only = w·φ_γ({n})"
    return pd.DataFrame(rows, columns=["tree", "replaced move", "weight"])
