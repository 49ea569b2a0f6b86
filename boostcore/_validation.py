"""Up-front parameter checks whose messages name the parameter, the rule and the value."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np


def check_int(name: str, value: Any, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int or raise ``ValueError`` naming ``name`` and the rule.

    Parameters
    ----------
    name : str
        Parameter name used in the message.
    value : object
        The value to check: an integral number (``bool`` is refused).
    low, high : int, optional
        Inclusive bounds; no bound when None.

    Returns
    -------
    int
        ``int(value)``.

    Raises
    ------
    ValueError
        If ``value`` is not an integer (or is a bool) or lies outside ``[low, high]``.

    Examples
    --------
    >>> from boostcore._validation import check_int
    >>> check_int("size", 3, low=2)
    3
    >>> check_int("size", 1, low=2, high=10)
    Traceback (most recent call last):
        ...
    ValueError: size must be between 2 and 10; got 1
    >>> check_int("size", 2.5)
    Traceback (most recent call last):
        ...
    ValueError: size must be an integer; got 2.5
    """
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
    """Return ``value`` as a finite float inside the given range or raise ``ValueError``.

    Parameters
    ----------
    name : str
        Parameter name used in the message.
    value : object
        The value to check: a finite real number (``bool`` is refused).
    low, high : float, optional
        Bounds; no bound when None.
    low_open, high_open : bool, default False
        Whether the bound itself is excluded.

    Returns
    -------
    float
        ``float(value)``.

    Raises
    ------
    ValueError
        If ``value`` is not a finite number or lies outside the range; the message names
        ``name``, the rule and the value.

    Examples
    --------
    >>> from boostcore._validation import check_float
    >>> check_float("gamma", 0.5, low=0.0, high=1.0)
    0.5
    >>> check_float("c", 1.0, low=0.0, high=1.0, low_open=True, high_open=True)
    Traceback (most recent call last):
        ...
    ValueError: c must be > 0.0 and < 1.0; got 1.0
    >>> check_float("gamma", float("nan"))
    Traceback (most recent call last):
        ...
    ValueError: gamma must be a finite number; got nan
    """
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
    """Return ``value`` if it is one of ``choices`` or raise ``ValueError`` listing them.

    Parameters
    ----------
    name : str
        Parameter name used in the message.
    value : object
        The value to check.
    choices : iterable of str
        The allowed values.

    Returns
    -------
    str
        ``value`` unchanged.

    Raises
    ------
    ValueError
        If ``value`` is not one of ``choices``.

    Examples
    --------
    >>> from boostcore._validation import check_choice
    >>> check_choice("index", "gini", ("km", "gini"))
    'gini'
    >>> check_choice("index", "ginni", ("km", "gini"))
    Traceback (most recent call last):
        ...
    ValueError: index must be one of 'km', 'gini'; got 'ginni'
    """
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


def _float_matrix(name: str, X: Any) -> np.ndarray:
    """``X`` as a float array, or ``ValueError`` naming ``name`` if it is not numeric."""
    try:
        return np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must hold numbers only; {exc}") from None


def _missing_label(v: Any) -> bool:
    return v is None or (isinstance(v, numbers.Real) and not np.isfinite(v))


def check_xy(
    X: Any, y: Any, sample_weight: Any = None, *, name_X: str = "X", name_y: str = "y"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[Any, Any]]:
    """Validate a binary training sample (the one validator of every generator and estimator).

    Rules (each failure is a ``ValueError`` whose message names the parameter and the rule;
    a ``TypeError`` never escapes, whatever the input):

    * ``X`` — numeric, 2-D, at least one row and one column, no NaN or infinity.
    * ``y`` — 1-D, one label per row of ``X``, no NaN or ``None``, labels of one comparable
      type (all numbers or all strings), at most two distinct labels.
    * Labels are mapped to ±1 by sorted order: the larger label becomes ``+1`` (so ``"spam"``
      is ``+1`` against ``"ham"``, ``1`` against ``0`` or ``-1``); strings and numbers are
      treated the same way.
    * One class only is *accepted here*: its points get ``-1`` if the label is a number
      ``≤ 0`` and ``+1`` otherwise (a positive number or any string), and ``classes`` is
      ``(label, label)``. Whether a generator can run on it is the generator's decision:
      the top-down tree, BP.InfoBoost, G1 (``g1_linear``), the G1 tree and BoostODT accept it
      (a single-leaf or empty model that predicts that class); the probabilistic generators
      (``prob_adaboost``, ``prob_tree``, ``matryoshka``, ``collapse_tree``) reject it with
      ``"y has a single class"``. The scikit-learn estimators all accept it.
    * ``sample_weight`` — optional; numeric, one weight per row, finite, ``≥ 0``, positive
      sum (negative, NaN, infinite or all-zero weights are rejected). It is normalised to
      sum 1. Zero weights are allowed (the top-down tree drops those points).

    Parameters
    ----------
    X : array_like of shape (m, d)
        Training features.
    y : array_like of shape (m,)
        Training labels.
    sample_weight : array_like of shape (m,), optional
        Weights; uniform when None.
    name_X, name_y : str, default "X", "y"
        Names used in the messages.

    Returns
    -------
    X : ndarray of float64, shape (m, d)
    y : ndarray of int8 in {-1, +1}
    w : ndarray of float64 summing to 1
    classes : the original labels mapped to -1 and +1 (sorted order)

    Raises
    ------
    ValueError
        If any rule above fails.

    Examples
    --------
    >>> from boostcore._validation import check_xy
    >>> X, y, w, classes = check_xy([[0.0], [1.0], [2.0]], ["ham", "spam", "ham"])
    >>> y.tolist(), w.round(4).tolist(), [str(c) for c in classes]
    ([-1, 1, -1], [0.3333, 0.3333, 0.3333], ['ham', 'spam'])
    >>> check_xy([[0.0], [1.0]], [1, 2], [1, 3])[2].tolist()
    [0.25, 0.75]
    >>> check_xy([[0.0], [1.0], [2.0]], [1, 2, 3])
    Traceback (most recent call last):
        ...
    ValueError: y has 3 classes; these algorithms are binary (two classes)
    """
    X = _float_matrix(name_X, X)
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
    missing = (y.dtype.kind in "fc" and not np.all(np.isfinite(y))) or (
        y.dtype.kind == "O" and any(_missing_label(v) for v in y.tolist())
    )
    if missing:
        raise ValueError(f"{name_y} must not contain missing labels (NaN, infinity or None)")
    try:
        classes = np.unique(y)
    except TypeError:
        raise ValueError(
            f"{name_y} labels must be of one comparable type (all numbers or all strings)"
        ) from None
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
        w = _float_matrix("sample_weight", sample_weight)
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


def check_test_set(
    X_test: Any, y_test: Any, n_features: int, classes: tuple[Any, Any], y_train_pm: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Validate the optional test sample of a generator against its training sample.

    ``n_features`` is the training ``X``'s number of columns, ``classes`` and ``y_train_pm``
    are what :func:`check_xy` returned for the training sample.

    Rules (each failure is a ``ValueError`` naming ``X_test`` or ``y_test``):

    * both or neither: ``"X_test and y_test must be given together"``;
    * ``X_test`` numeric, 2-D with ``n_features`` columns, no NaN or infinity (zero rows is
      allowed: there is then no test error to report);
    * ``y_test`` 1-D with one label per row of ``X_test``; every label must be one of the
      training labels (a NaN, ``None`` or any other label is rejected);
    * mapping: the training mapping (the larger training label is ``+1``); with a single
      training class its test points get that class's training ``±1``, so training and
      testing on the same one class gives test error 0.

    Parameters
    ----------
    X_test : array_like of shape (n, d) or None
        Test features.
    y_test : array_like of shape (n,) or None
        Test labels.
    n_features : int
        ``d``, the training ``X``'s number of columns.
    classes : (label, label)
        The training labels mapped to −1 and +1, as :func:`check_xy` returns them.
    y_train_pm : ndarray of int8
        The training labels as ±1, as :func:`check_xy` returns them.

    Returns
    -------
    Xt, yt : ``(None, None)`` without a test set, else float64 ``(n, d)`` and int8 ±1 ``(n,)``.

    Raises
    ------
    ValueError
        If any rule above fails.

    Examples
    --------
    >>> from boostcore._validation import check_test_set, check_xy
    >>> X, y, w, classes = check_xy([[0.0], [1.0]], ["ham", "spam"])
    >>> Xt, yt = check_test_set([[5.0]], ["spam"], 1, classes, y)
    >>> Xt.tolist(), yt.tolist()
    ([[5.0]], [1])
    >>> check_test_set(None, None, 1, classes, y)
    (None, None)
    >>> check_test_set([[5.0]], ["eggs"], 1, classes, y)
    Traceback (most recent call last):
        ...
    ValueError: y_test has labels ['eggs'] that are not in y (['ham', 'spam'])
    """
    if (X_test is None) != (y_test is None):
        raise ValueError("X_test and y_test must be given together")
    if X_test is None:
        return None, None
    Xt = _float_matrix("X_test", X_test)
    if Xt.ndim != 2 or Xt.shape[1] != n_features:
        raise ValueError(f"X_test must have {n_features} columns like X; got shape {Xt.shape}")
    if not np.all(np.isfinite(Xt)):
        raise ValueError("X_test must not contain NaN or infinity")
    yt_raw = np.asarray(y_test)
    if yt_raw.shape != (Xt.shape[0],):
        raise ValueError(
            f"y_test must have one label per row of X_test ({Xt.shape[0]}); "
            f"got shape {yt_raw.shape}"
        )
    known = np.asarray(classes[:1] if classes[0] == classes[1] else classes).tolist()
    try:
        seen = np.unique(yt_raw).tolist()
    except TypeError:
        seen = list(dict.fromkeys(yt_raw.tolist()))
    try:
        unknown = [v for v in seen if _missing_label(v) or v not in known]
    except TypeError:  # unhashable or incomparable objects
        unknown = [v for v in seen if not any(v is k for k in known)]
    if unknown:
        raise ValueError(f"y_test has labels {unknown[:5]} that are not in y ({known})")
    if classes[0] == classes[1]:
        return Xt, np.full(Xt.shape[0], y_train_pm[0], dtype=np.int8)
    return Xt, np.where(yt_raw == classes[1], 1, -1).astype(np.int8)


# --------------------------------------------------------------------------- randomness
#: The one randomness convention of boostcore: every function that draws takes
#: ``random_state``, one of ``None`` (fresh entropy: not reproducible), a non-negative ``int``
#: (a seed: the same int always gives the same draws) or a ``numpy.random.Generator`` (its
#: stream is used, and advanced). The helpers below normalise it (networkx's
#: ``@py_random_state`` idea, one place instead of one per module).
RandomState = None | int | np.integer | np.random.Generator


def check_random_state(random_state: Any, name: str = "random_state") -> np.random.Generator:
    """``random_state`` as a ``numpy.random.Generator`` (the convention above).

    Parameters
    ----------
    random_state : None, int or numpy.random.Generator
        ``None``: fresh entropy; an int ``≥ 0``: a seed; a Generator: used as is.
    name : str, default "random_state"
        Parameter name used in the message.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    ValueError
        For anything else (a float, a negative int, a bool, a legacy ``RandomState``…).

    Examples
    --------
    >>> from boostcore._validation import check_random_state
    >>> int(check_random_state(0).integers(100)) == int(check_random_state(0).integers(100))
    True
    >>> g = check_random_state(3)
    >>> check_random_state(g) is g
    True
    >>> check_random_state(-1)
    Traceback (most recent call last):
        ...
    ValueError: random_state must be None, an int ≥ 0 or a numpy.random.Generator; got -1
    """
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return random_state
    if (
        isinstance(random_state, numbers.Integral)
        and not isinstance(random_state, bool)
        and random_state >= 0
    ):
        return np.random.default_rng(int(random_state))
    raise ValueError(
        f"{name} must be None, an int ≥ 0 or a numpy.random.Generator; got {random_state!r}"
    )


def seed_of(random_state: Any, name: str = "random_state") -> int:
    """An int seed for ``random_state``: itself for an int, one draw for a Generator or for
    ``None`` (fresh entropy). For models that re-derive per-step streams from one seed (the
    probabilistic chain's Monte Carlo worlds) and for scikit-learn's legacy ``RandomState``.

    Parameters
    ----------
    random_state : None, int or numpy.random.Generator
    name : str, default "random_state"
        Parameter name used in the message.

    Returns
    -------
    int
        In ``[0, 2**32)`` when drawn.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore._validation import seed_of
    >>> seed_of(7)
    7
    >>> seed_of(np.random.default_rng(0)) == seed_of(np.random.default_rng(0))
    True
    """
    if (
        isinstance(random_state, numbers.Integral)
        and not isinstance(random_state, bool)
        and random_state >= 0
    ):
        return int(random_state)
    return int(check_random_state(random_state, name).integers(2**32))
