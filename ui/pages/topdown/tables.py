"""The top-down page's round tables (pandas): the candidate splits of each arity and the
numbers of every criterion's run at the shown round (also the charts' text alternative)."""

from __future__ import annotations

import pandas as pd

from boostcore.topdown import TreeStep


def _thr(values: tuple[float, ...]) -> str:
    return ", ".join(f"{v:.3f}" for v in values)


def candidates_frame(
    steps: dict[str, TreeStep], feature_names: tuple[str, ...] = ("x1", "x2")
) -> pd.DataFrame:
    """The best split of each arity at the leaf each run expanded, with its score.

    One row per (run, arity): the gain ``Δ``, the criterion's price of ``k`` branches, the
    score ``Δ / price``, whether the split was acceptable (and why not) and which was chosen.
    """
    rows = []
    for run, step in steps.items():
        chosen = step.split
        for c in step.candidates:
            is_chosen = (
                chosen is not None
                and c.arity == chosen.arity
                and c.feature == chosen.feature
                and c.thresholds == chosen.thresholds
            )
            rows.append(
                {
                    "run": run,
                    "leaf": f"#{chosen.leaf}" if chosen is not None else "",
                    "k": c.arity,
                    "split": f"{feature_names[c.feature]} at {_thr(c.thresholds)}",
                    "gain Δ": c.gain,
                    "advantage Δ/I": c.advantage,
                    "price": c.cost,
                    "score Δ/price": c.score,
                    "acceptable": "yes" if c.acceptable else f"no: {c.note}",
                    "chosen": "✔" if is_chosen else "",
                }
            )
    return pd.DataFrame(rows)


def metrics_frame(steps: dict[str, TreeStep]) -> pd.DataFrame:
    """One row per run: the measured values and bounds at the shown round."""
    rows = []
    for name, s in steps.items():
        m = s.metrics
        rows.append(
            {
                "run": name,
                "round": s.t,
                "|T|": m.n_leaves,
                "train error": m.train_error,
                "test error": m.test_error,
                "I(T)": m.index_value,
                "γ̂": m.gamma_hat,
                "e_γ̂(|T|)": m.bound_e,
                "|T|⁻ᵞ̂": m.bound_power,
                "s⁻ᵞ̂": m.bound_final,
            }
        )
    return pd.DataFrame(rows)
