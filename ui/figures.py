"""Snapshot → plotly figure builders (pure functions: no Streamlit, unit-testable)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from boostcore.datasets import Dataset


def data_extent(ds: Dataset, pad: float = 0.08) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper corner of a box around all points, padded by ``pad`` of the range."""
    X = np.vstack([ds.X_train, ds.X_test]) if ds.n_test else ds.X_train
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return lo - pad * span, hi + pad * span


def _figure(data: list[dict], layout: dict) -> go.Figure:
    """A figure from plain dicts, skipping plotly's per-property validation.

    Validation costs ~60 % of a step's drawing time; the dicts here are fixed by this module,
    and the unit tests rebuild every figure *with* validation to keep them honest.
    """
    return go.Figure({"data": data, "layout": layout}, _validate=False)
