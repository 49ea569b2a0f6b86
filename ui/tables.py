"""Snapshot → pandas tables: the numbers behind every chart (also a text alternative)."""

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
                "|T|^−γ̂": m.bound_power,
                "s^−γ̂": m.bound_final,
            }
        )
    return pd.DataFrame(rows)


def history_frame(steps) -> pd.DataFrame:
    """Every snapshot of one run, one row each: its record of the step protocol (``t``,
    ``kind``, what the step did and every scalar metric; ``to_record()``) — for CSV export."""
    return pd.DataFrame([s.to_record() for s in steps])


def groups_frame(step) -> pd.DataFrame:
    """This round's merged leaves of ``bands``: side, sign of q − 1/2, band, members, entropy."""
    rows = [
        {
            "leaf": g.leaf,
            "side a": "+1" if g.side > 0 else "−1",
            "q vs 1/2": "≥ ½" if g.sign > 0 else "< ½",
            "band j": g.band,
            "band [ε_{j−1}, ε_j)": f"[{step.eps[g.band - 1]:.3f}, {step.eps[g.band]:.3f})",
            "children merged": len(g.children),
            "mass under D_t": g.mass,
            "entropy G(q)": g.entropy,
        }
        for g in step.groups
    ]
    return pd.DataFrame(rows)


def bp_metrics_frame(steps: dict) -> pd.DataFrame:
    """One row per scheme (``run``): the numbers of the shown round."""
    rows = []
    for name, s in steps.items():
        m = s.metrics
        rows.append(
            {
                "run": name,
                "round": s.t,
                "|L_t|": m.n_leaves,
                "train error": m.train_error,
                "test error": m.test_error,
                "Z_t": m.Z,
                "H(Y|h_t)": m.H_h,
                "H(Y|ℓ̃_t)": m.H_divided,
                "H(Y|ℓ_t)": m.H_leaves,
                "γ_t": m.gamma,
                "Π Z": m.bound_prod_Z,
                "Π H(Y|h)": m.prod_H_h,
            }
        )
    # object columns keep integers as integers next to a stopped run's empty cells
    return pd.DataFrame(rows, dtype=object)


def inner_frame(step, upto: int | None = None) -> pd.DataFrame:
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


def game_history_frame(state) -> pd.DataFrame:
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
