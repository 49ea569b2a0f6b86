"""The oblique page's round table (pandas): the AdaBoost_R rounds inside a BoostODT node."""

from __future__ import annotations

import pandas as pd

from boostcore.oblique import ODTStep


def inner_frame(step: ODTStep, upto: int | None = None) -> pd.DataFrame:
    """AdaBoost_R rounds that built a BoostODT node's separator (up to ``upto`` if given)."""
    rows = [r.as_dict() for r in step.inner[: upto if upto is not None else None]]
    return pd.DataFrame(rows, columns=["j", "h", "R", "mu", "alpha", "weighted_error"]).rename(
        columns={
            "h": "weak hypothesis s_j",
            "mu": "μ_j",
            "alpha": "α_j",
            "weighted_error": "weighted error",
        }
    )
