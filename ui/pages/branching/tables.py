"""The divide-and-merge page's round tables (pandas): BP.InfoBoost's merged leaves (Theorem 3's
groups) and every scheme's numbers at the shown round."""

from __future__ import annotations

import pandas as pd

from boostcore.branching import BPStep


def groups_frame(step: BPStep) -> pd.DataFrame:
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


def bp_metrics_frame(steps: dict[str, BPStep]) -> pd.DataFrame:
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
