"""Numpy data as JSON: the typed arrays and plain values the matryoshka page's figures are
sent as (:func:`typed`, :func:`plain`)."""

from __future__ import annotations

import math

import numpy as np

from ui import payload


# ============================================================================== encoding
def typed(a) -> dict:
    """A numpy array as a plotly.js typed array (:func:`ui.payload.typed_array`, floats as
    float32), as :func:`ui.lecture.plotly_frames` writes them."""
    return payload.typed_array(a)


def plain(obj):
    """``obj`` with numpy arrays as typed-array specs and numpy scalars as Python numbers
    (JSON-ready, and accepted by ``plotly.graph_objects.Figure``). The points are encoded so
    once per run instead of once per frame."""
    if isinstance(obj, np.ndarray):
        return typed(obj)
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj
