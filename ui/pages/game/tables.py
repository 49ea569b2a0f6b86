"""The game page's table (pandas): the moves of a Weight Distribution Game."""

from __future__ import annotations

import pandas as pd

from boostcore.game import GameState


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
