"""Up-front parameter checks whose messages name the parameter, the rule and the value."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np


def check_int(name: str, value: Any, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int or raise ``ValueError`` naming ``name`` and the rule."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}")
    value = int(value)
    if low is not None and value < low or high is not None and value > high:
        raise ValueError(f"{name} must be {_range_text(low, high)}; got {value}")
    return value


def check_float(
    name: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """Return ``value`` as a finite float inside the given range or raise ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    value = float(value)
    bad_low = low is not None and (value <= low if low_open else value < low)
    bad_high = high is not None and (value >= high if high_open else value > high)
    if bad_low or bad_high:
        lo = "" if low is None else f"{'>' if low_open else '≥'} {low}"
        hi = "" if high is None else f"{'<' if high_open else '≤'} {high}"
        rule = " and ".join(r for r in (lo, hi) if r)
        raise ValueError(f"{name} must be {rule}; got {value}")
    return value


def check_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices`` or raise ``ValueError`` listing them."""
    choices = tuple(choices)
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"between {low} and {high}"
    if low is not None:
        return f"≥ {low}"
    return f"≤ {high}"


def check_xy(
    X: Any, y: Any, sample_weight: Any = None, *, name_X: str = "X", name_y: str = "y"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[Any, Any]]:
    """Validate a binary training sample.

    Returns
    -------
    X : ndarray of float64, shape (m, d)
    y : ndarray of int8 in {-1, +1}
    w : ndarray of float64 summing to 1
    classes : the original labels mapped to -1 and +1 (sorted order)
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"{name_X} must be a 2-D array (samples × features); got shape {X.shape}")
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"{name_X} must have at least one sample and one feature; got {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name_X} must not contain NaN or infinity")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"{name_y} must be 1-D with one label per row of {name_X} ({X.shape[0]}); "
            f"got shape {y.shape}"
        )
    classes = np.unique(y)
    if classes.size > 2:
        raise ValueError(
            f"{name_y} has {classes.size} classes; these algorithms are binary (two classes)"
        )
    if classes.size == 1:
        # One class: map it to +1 unless it is clearly the negative label.
        only = classes[0]
        neg = isinstance(only, numbers.Number) and only <= 0
        y_pm = np.full(y.shape[0], -1 if neg else 1, dtype=np.int8)
        pair = (only, only)
    else:
        y_pm = np.where(y == classes[1], 1, -1).astype(np.int8)
        pair = (classes[0], classes[1])
    if sample_weight is None:
        w = np.full(X.shape[0], 1.0 / X.shape[0])
    else:
        w = np.asarray(sample_weight, dtype=float)
        if w.shape != (X.shape[0],):
            raise ValueError(
                f"sample_weight must have one weight per sample ({X.shape[0]}); got shape {w.shape}"
            )
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("sample_weight must be finite and non-negative")
        total = w.sum()
        if total <= 0:
            raise ValueError("sample_weight must have a positive sum; got all zeros")
        w = w / total
    return X, y_pm, w, pair
