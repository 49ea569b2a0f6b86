"""Toy two-dimensional datasets for boostlab.

Every dataset is a :class:`Dataset`: a frozen bundle of read-only training and
test arrays with labels in {-1, +1}.  Datasets come either from one of the
shape generators in :data:`GENERATORS` (via :func:`make_dataset`) or from points given
directly, e.g. drawn by hand (:func:`from_points`); a user's CSV file is read into a
:class:`Dataset` by :mod:`boostcore.csvdata`. Only numpy and the standard library are used,
so this module stays importable without the UI stack.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, fields

import numpy as np

from ._validation import RandomState, check_random_state

__all__ = [
    "DATASET_DESCRIPTIONS",
    "GENERATORS",
    "MAX_ABS_VALUE",
    "MAX_ROWS",
    "Dataset",
    "check_int_in_range",
    "check_number_in_range",
    "from_points",
    "label_key",
    "make_dataset",
    "order_classes",
    "stratified_split",
]

#: Largest number of points a dataset may have (generated or uploaded).
MAX_ROWS = 50_000

#: Largest magnitude of a coordinate (given or uploaded): float32's largest finite value,
#: about 3.4e38. scikit-learn's trees work in float32, so a larger finite value becomes
#: infinity there ("Input X contains infinity"), and values near float64's limit (1e308)
#: overflow the charts' axis arithmetic; such values are refused up front.
MAX_ABS_VALUE = float(np.finfo(np.float32).max)


@dataclass(frozen=True, eq=False)  # eq=False: arrays make == ambiguous; identity eq/hash instead
class Dataset:
    """A binary classification dataset split into training and test parts.

    Parameters
    ----------
    name : str
        Short identifier, e.g. the generator key ``"moons"``.
    description : str
        One student-friendly sentence describing the data.
    X_train, X_test : numpy.ndarray
        Feature matrices, shape ``(m, len(feature_names))``, stored as float64.
        ``X_test`` may have zero rows.
    y_train, y_test : numpy.ndarray
        Labels in {-1, +1}, stored as int64.
    feature_names : tuple of str, default=("x1", "x2")
        Column names of the features.
    class_names : tuple of (str, str), default=("-1", "+1")
        Original label text for class -1 and for class +1.

    Notes
    -----
    The arrays are copied and made read-only on construction, so a dataset
    can be shared (cached, pickled, passed to several learners) without any
    caller mutating it by accident.

    Raises
    ------
    ValueError
        If ``class_names`` does not have 2 entries, an ``X`` is not of shape
        ``(m, len(feature_names))``, a ``y`` is not 1-D with one label per row, or a label is
        not -1 or +1.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.datasets import Dataset
    >>> ds = Dataset("tiny", "Two points.", [[0, 0], [1, 1]], [-1, 1], np.empty((0, 2)), [])
    >>> ds
    Dataset(name='tiny', n_train=2, n_test=0)
    >>> ds.y_train.dtype.name, ds.X_train.flags.writeable
    ('int64', False)
    """

    name: str
    description: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    feature_names: tuple[str, ...] = ("x1", "x2")
    class_names: tuple[str, str] = ("-1", "+1")

    def __post_init__(self) -> None:
        feature_names = tuple(str(f) for f in self.feature_names)
        class_names = tuple(str(c) for c in self.class_names)
        if len(class_names) != 2:
            raise ValueError(f"class_names must have exactly 2 entries; got {len(class_names)}")
        object.__setattr__(self, "feature_names", feature_names)
        object.__setattr__(self, "class_names", class_names)
        d = len(feature_names)
        for part in ("train", "test"):
            X = np.array(getattr(self, f"X_{part}"), dtype=np.float64)  # np.array copies
            y = np.array(getattr(self, f"y_{part}"))
            if X.shape == (0,):
                X = X.reshape(0, d)
            if X.ndim != 2 or X.shape[1] != d:
                raise ValueError(f"X_{part} must have shape (m, {d}); got {X.shape}")
            if y.ndim != 1 or len(y) != len(X):
                raise ValueError(f"y_{part} must be 1-D with {len(X)} entries; got {y.shape}")
            if not np.all((y == 1) | (y == -1)):
                raise ValueError(f"y_{part} must contain only -1 and +1")
            y = y.astype(np.int64)
            X.setflags(write=False)
            y.setflags(write=False)
            object.__setattr__(self, f"X_{part}", X)
            object.__setattr__(self, f"y_{part}", y)

    def __reduce__(self):
        # Rebuild through __init__ so unpickled arrays are read-only again
        # (numpy does not pickle the writeable flag).
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))

    def __repr__(self) -> str:
        return f"Dataset(name={self.name!r}, n_train={self.n_train}, n_test={self.n_test})"

    @property
    def n_train(self) -> int:
        """Number of training points.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> make_dataset("moons", n=100).n_train
        75
        """
        return len(self.y_train)

    @property
    def n_test(self) -> int:
        """Number of test points.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> make_dataset("moons", n=100).n_test
        25
        """
        return len(self.y_test)


# --------------------------------------------------------------------------- generators
#: Signature of a shape generator: ``(n_pos, n_neg, noise, rng) -> (X_pos, X_neg)``,
#: returning exactly ``n_pos`` positive and ``n_neg`` negative points of shape (k, 2).
ShapeGenerator = Callable[[int, int, float, np.random.Generator], tuple[np.ndarray, np.ndarray]]


def _jitter(X: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    # Half of `noise` as std keeps the default 0.2 mildly fuzzy at the ~[-1.5, 1.5] scale.
    return X + rng.normal(scale=0.5 * noise, size=X.shape)


def _moons(n_pos, n_neg, noise, rng):
    t_neg, t_pos = rng.uniform(0, np.pi, n_neg), rng.uniform(0, np.pi, n_pos)
    upper = np.column_stack([np.cos(t_neg), np.sin(t_neg)])
    lower = np.column_stack([1 - np.cos(t_pos), 0.5 - np.sin(t_pos)])
    centre = np.array([0.5, 0.25])  # centres the pair on the origin
    return _jitter(lower - centre, noise, rng), _jitter(upper - centre, noise, rng)


def _circles(n_pos, n_neg, noise, rng):
    def ring(k: int, radius: float) -> np.ndarray:
        t = rng.uniform(0, 2 * np.pi, k)
        return _jitter(radius * np.column_stack([np.cos(t), np.sin(t)]), noise, rng)

    return ring(n_pos, 0.6), ring(n_neg, 1.2)


def _blobs(n_pos, n_neg, noise, rng):
    spread = 0.15 + noise  # noise sets the spread; 0.15 keeps noise=0 from giving single points
    return (
        rng.normal((0.75, 0.75), spread, (n_pos, 2)),
        rng.normal((-0.75, -0.75), spread, (n_neg, 2)),
    )


def _xor(n_pos, n_neg, noise, rng):
    spread = 0.15 + noise

    def clusters(k: int, centres: list[tuple[float, float]]) -> np.ndarray:
        chosen = np.asarray(centres)[rng.integers(2, size=k)]
        return chosen + rng.normal(0, spread, (k, 2))

    return (
        clusters(n_pos, [(0.75, 0.75), (-0.75, -0.75)]),
        clusters(n_neg, [(0.75, -0.75), (-0.75, 0.75)]),
    )


def _spirals(n_pos, n_neg, noise, rng):
    def arm(k: int, phase: float) -> np.ndarray:
        t = np.sqrt(rng.uniform(0, 1, k))  # sqrt: roughly even density along the arm
        theta, r = 3 * np.pi * t + phase, 0.15 + 1.25 * t  # 1.5 turns out to radius 1.4
        return _jitter(r[:, None] * np.column_stack([np.cos(theta), np.sin(theta)]), noise, rng)

    return arm(n_pos, 0.0), arm(n_neg, np.pi)


def _by_region(is_pos: Callable[[np.ndarray], np.ndarray]) -> ShapeGenerator:
    """Generator for 'uniform square, label by region' shapes (rejection sampling)."""

    def generate(n_pos, n_neg, noise, rng):
        pos, neg = np.empty((0, 2)), np.empty((0, 2))
        while len(pos) < n_pos or len(neg) < n_neg:  # a region may be small: draw until enough
            P = rng.uniform(-1.5, 1.5, size=(2 * (n_pos + n_neg), 2))
            inside = is_pos(P)
            pos, neg = np.vstack([pos, P[inside]]), np.vstack([neg, P[~inside]])
        # Jitter after labelling so noise blurs the boundary instead of moving it.
        return _jitter(pos[:n_pos], noise, rng), _jitter(neg[:n_neg], noise, rng)

    return generate


def _checkerboard_pos(P: np.ndarray) -> np.ndarray:
    cells = np.clip(np.floor((P + 1.5) / 0.75), 0, 3).astype(np.int64)  # 4x4 cells of width 0.75
    return cells.sum(axis=1) % 2 == 0


def _band_pos(P: np.ndarray) -> np.ndarray:
    angle = np.deg2rad(30.0)
    normal = np.array([-np.sin(angle), np.cos(angle)])
    return np.abs(P @ normal) < 0.25  # band of width 0.5 around the 30-degree line


def _stripes_pos(P: np.ndarray) -> np.ndarray:
    # Four vertical stripes of width 0.75 alternating in class along x1; x2 is irrelevant.
    # One 4-way split on x1 is perfect, while no single binary split helps much (1-D XOR):
    # the showcase for multi-way branching (Hatano 2004; Mansour & McAllester).
    return np.clip(np.floor((P[:, 0] + 1.5) / 0.75), 0, 3).astype(np.int64) % 2 == 1


def _diagonal_xor_pos(P: np.ndarray) -> np.ndarray:
    # XOR turned by 45 degrees: the two diagonals x2 = x1 and x2 = -x1 separate the classes.
    # Two oblique lines are perfect; an axis-parallel tree needs a staircase along each one
    # (the showcase for oblique nodes, Henry-Nock-Nielsen 2007).
    return (P[:, 0] + P[:, 1]) * (P[:, 0] - P[:, 1]) > 0


GENERATORS: dict[str, ShapeGenerator] = {
    "moons": _moons,
    "circles": _circles,
    "blobs": _blobs,
    "xor": _xor,
    "spirals": _spirals,
    "checkerboard": _by_region(_checkerboard_pos),
    "band": _by_region(_band_pos),
    "stripes": _by_region(_stripes_pos),
    "diagonal_xor": _by_region(_diagonal_xor_pos),
}

DATASET_DESCRIPTIONS: dict[str, str] = {
    "moons": "Two interleaving half circles: a curved boundary that axis-parallel splits "
    "approximate with a staircase.",
    "circles": "A small ring inside a larger ring: no straight line separates them, "
    "but a few boxes around the centre do.",
    "blobs": "Two round clouds on the diagonal: an easy, almost linearly separable warm-up.",
    "xor": "Four clusters where opposite corners share a class: a sum of single-feature "
    "stumps cannot express it, trees of depth two can.",
    "spirals": "Two interleaved spirals: a winding boundary that needs many boosting rounds.",
    "checkerboard": "A 4x4 checkerboard: every boundary is axis-parallel, but the alternating "
    "pattern needs the two features to interact.",
    "band": "A thin band tilted at 30 degrees: an oblique boundary that axis-parallel splits "
    "can only approximate with a staircase.",
    "stripes": "Four vertical stripes of alternating class: one 4-way split on x1 is perfect, "
    "while any single binary split gains little.",
    "diagonal_xor": "XOR turned by 45 degrees: the two diagonals separate the classes, so two "
    "oblique splits are perfect while axis-parallel ones need staircases.",
}


# --------------------------------------------------------------------------- helpers
def _plain(value: object) -> object:
    return value.item() if isinstance(value, np.generic) else value  # nicer messages


# check_int_in_range/check_number_in_range (shared with boostcore.csvdata) are kept rather
# than boostcore._validation's check_int/check_float: their student-facing wording ("n must be
# an integer between 10 and 50000", "test_fraction must be a number between 0 and 0.9", numpy
# scalars shown as plain numbers) differs, and tests/boostcore/test_datasets.py and
# tests/ui/test_own_data.py pin it.
def check_int_in_range(name: str, value: object, lo: int, hi: int | None) -> int:
    """Return ``value`` as an int in ``[lo, hi]`` or raise a student-facing ``ValueError``.

    The check of the dataset parameters that count (``n`` of :func:`make_dataset`,
    ``max_rows`` of :func:`boostcore.csvdata.load_csv`). Its wording is the one the dataset
    sidebar shows ("n must be an integer between 10 and 50000; got 5"), with numpy scalars
    shown as plain numbers; :func:`boostcore._validation.check_int` is the algorithms' check.

    Parameters
    ----------
    name : str
        Parameter name used in the message.
    value : object
        The value to check: a Python or numpy integer (``bool`` is refused).
    lo : int
        Smallest allowed value.
    hi : int or None
        Largest allowed value; no upper bound when None.

    Returns
    -------
    int
        ``int(value)``.

    Raises
    ------
    ValueError
        If ``value`` is not an integer or lies outside ``[lo, hi]``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.datasets import check_int_in_range
    >>> check_int_in_range("n", np.int64(40), 10, 50_000)
    40
    >>> check_int_in_range("n", 5, 10, 50_000)
    Traceback (most recent call last):
        ...
    ValueError: n must be an integer between 10 and 50000; got 5
    >>> check_int_in_range("max_rows", 0, 1, None)
    Traceback (most recent call last):
        ...
    ValueError: max_rows must be an integer >= 1; got 0
    """
    ok = isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)
    if not ok or value < lo or (hi is not None and value > hi):
        rule = f"an integer between {lo} and {hi}" if hi is not None else f"an integer >= {lo}"
        raise ValueError(f"{name} must be {rule}; got {_plain(value)!r}")
    return int(value)


def check_number_in_range(name: str, value: object, lo: float, hi: float) -> float:
    """Return ``value`` as a float in ``[lo, hi]`` or raise a student-facing ``ValueError``.

    The check of the dataset parameters that are fractions or amounts (``noise``,
    ``imbalance``, ``label_noise``, ``test_fraction``), in the dataset sidebar's wording
    ("test_fraction must be a number between 0 and 0.9; got 1.5"); NaN is refused.

    Parameters
    ----------
    name : str
        Parameter name used in the message.
    value : object
        The value to check: a Python or numpy real number (``bool`` is refused).
    lo, hi : float
        Inclusive bounds.

    Returns
    -------
    float
        ``float(value)``.

    Raises
    ------
    ValueError
        If ``value`` is not a number or lies outside ``[lo, hi]``.

    Examples
    --------
    >>> from boostcore.datasets import check_number_in_range
    >>> check_number_in_range("noise", 1, 0.0, 2.0)
    1.0
    >>> check_number_in_range("test_fraction", float("nan"), 0.0, 0.9)
    Traceback (most recent call last):
        ...
    ValueError: test_fraction must be a number between 0 and 0.9; got nan
    """
    ok = isinstance(value, int | float | np.integer | np.floating)
    ok = ok and not isinstance(value, bool | np.bool_)
    if not ok or not lo <= float(value) <= hi:  # NaN fails the comparison too
        raise ValueError(
            f"{name} must be a number between {lo:g} and {hi:g}; got {_plain(value)!r}"
        )
    return float(value)


def _flip_labels(y: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Flip exactly ``k`` labels chosen at random, never emptying a class."""
    flipped = y.copy()
    idx = rng.choice(len(y), size=k, replace=False)
    flipped[idx] *= -1
    for c in (1, -1):
        if not np.any(flipped == c):
            # All of class c was flipped (k == its size): move one flip to the other
            # class so the count stays exact and both classes survive.
            flipped[rng.choice(idx)] = c
            flipped[rng.choice(np.flatnonzero(y == -c))] = c
    return flipped


def stratified_split(
    X: np.ndarray, y: np.ndarray, test_fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stratified random train/test split keeping at least one point of each class for training.

    The one split of every :class:`Dataset` (generated by :func:`make_dataset`, given by
    :func:`from_points` or read by :func:`boostcore.csvdata.load_csv`): ``round(m ·
    test_fraction)`` points are held out (capped at ``m − 2``), shared between the classes in
    proportion to their sizes, and both parts are shuffled.

    Parameters
    ----------
    X : ndarray, shape (m, d)
        Features.
    y : ndarray, shape (m,)
        Labels in {-1, +1}, at least one of each.
    test_fraction : float
        Fraction held out for testing, in ``[0, 1)``.
    rng : numpy.random.Generator
        The stream the permutations are drawn from (advanced).

    Returns
    -------
    X_train, y_train, X_test, y_test : ndarray
        Rows of ``X`` and ``y``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.datasets import stratified_split
    >>> X, y = np.arange(8.0)[:, None], np.array([-1, -1, -1, -1, 1, 1, 1, 1])
    >>> X_tr, y_tr, X_te, y_te = stratified_split(X, y, 0.25, np.random.default_rng(0))
    >>> sorted(y_tr.tolist()), sorted(y_te.tolist())
    ([-1, -1, -1, 1, 1, 1], [-1, 1])
    """
    n = len(y)
    n_test = min(round(n * test_fraction), n - 2)  # at least 2 training points
    members = [rng.permutation(np.flatnonzero(y == c)) for c in (-1, 1)]
    share = [n_test * len(m) / n for m in members]
    alloc = [min(int(s), len(m) - 1) for s, m in zip(share, members, strict=True)]
    # Hand out the rounding remainder, largest fractional share first; capacity suffices
    # because n_test <= n - 2 = sum(len(m) - 1).
    for k in sorted((0, 1), key=lambda k: alloc[k] - share[k]):
        extra = min(n_test - sum(alloc), len(members[k]) - 1 - alloc[k])
        alloc[k] += extra
    test = rng.permutation(np.concatenate([m[:a] for m, a in zip(members, alloc, strict=True)]))
    train = rng.permutation(np.concatenate([m[a:] for m, a in zip(members, alloc, strict=True)]))
    return X[train], y[train], X[test], y[test]


# A label that spells a number: ASCII digits, optional sign, point and exponent ("1", "1.0",
# "01", "+1", "1e0"); no "inf"/"nan", no "1_000", no non-ASCII digits (float() takes those).
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def _label_number(text: str) -> float | None:
    """The finite number a label spells (surrounding spaces ignored), else None."""
    text = text.strip()
    if _NUMBER.fullmatch(text):
        value = float(text)
        if math.isfinite(value):
            return value
    return None


def label_key(text: str) -> float | str:
    """What makes two labels one class: numbers compare as numbers (``"1"``, ``"1.0"``,
    ``"01"`` and ``" 1 "`` share the key ``1.0``), other text compares stripped.

    Used by :func:`from_points` and :func:`boostcore.csvdata.load_csv` to group a student's
    labels into the two classes.

    Parameters
    ----------
    text : str
        A label as typed or read from a file.

    Returns
    -------
    float or str
        The number the label spells (finite, ASCII digits), else the stripped text.

    Examples
    --------
    >>> from boostcore.datasets import label_key
    >>> label_key(" 01 "), label_key("1e0"), label_key(" spam ")
    (1.0, 1.0, 'spam')
    """
    text = text.strip()
    number = _label_number(text)
    return text if number is None else number


def order_classes(a: str, b: str) -> tuple[str, str]:
    """Return (negative, positive): numeric order if both labels are numbers, else text order.

    Which of a student's two labels becomes class −1 and which +1 (:func:`from_points`,
    :func:`boostcore.csvdata.load_csv`): the larger one is +1.

    Parameters
    ----------
    a, b : str
        The two labels, in any order.

    Returns
    -------
    (str, str)
        ``(negative, positive)``, the labels unchanged.

    Examples
    --------
    >>> from boostcore.datasets import order_classes
    >>> order_classes("10", "9"), order_classes("spam", "ham"), order_classes("1", "b")
    (('9', '10'), ('ham', 'spam'), ('1', 'b'))
    """
    va, vb = _label_number(a), _label_number(b)
    if va is not None and vb is not None and va != vb:
        return (a, b) if va < vb else (b, a)
    return tuple(sorted((a, b)))


# --------------------------------------------------------------------------- public API
def make_dataset(
    name: str,
    *,
    n: int = 400,
    noise: float = 0.2,
    imbalance: float = 0.5,
    label_noise: float = 0.0,
    random_state: RandomState = 0,
    test_fraction: float = 0.25,
) -> Dataset:
    """Generate one of the 2-D teaching datasets.

    Parameters
    ----------
    name : str
        A key of :data:`GENERATORS`.
    n : int, default 400
        Total number of points (10 to 50 000) before the train/test split.
    noise : float, default 0.2
        Geometric jitter, 0 to 2. For most shapes the points move by Gaussian noise
        with std ``noise / 2``; for "blobs" and "xor" the cluster std is ``0.15 + noise``.
    imbalance : float, default 0.5
        Fraction of positive points, 0.05 to 0.95. Exactly ``round(n * imbalance)``
        points are positive, clamped so each class has at least 2 points.
    label_noise : float, default 0.0
        Fraction of labels flipped at random, 0 to 0.5 (exactly ``round(label_noise * n)``).
    random_state : None, int or numpy.random.Generator, default 0
        boostcore's randomness convention (:func:`boostcore._validation.check_random_state`):
        an int ``≥ 0`` is a seed — the same arguments always give the same dataset.
    test_fraction : float, default 0.25
        Fraction held out for testing, 0 to 0.9 (``round(n * test_fraction)`` points,
        capped so that training keeps at least 2 points and both classes).

    Returns
    -------
    Dataset
        Named ``name``, described by ``DATASET_DESCRIPTIONS[name]``, with features
        ``("x1", "x2")`` and classes ``("-1", "+1")``.

    Raises
    ------
    ValueError
        If any argument is invalid; the message names the argument and the rule.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=100, random_state=1)
    >>> ds, ds.X_train.shape
    (Dataset(name='moons', n_train=75, n_test=25), (75, 2))
    >>> ds = make_dataset("stripes", n=40, imbalance=0.25, test_fraction=0.0)
    >>> int((ds.y_train == 1).sum())
    10
    >>> make_dataset("moons", n=5)
    Traceback (most recent call last):
        ...
    ValueError: n must be an integer between 10 and 50000; got 5
    """
    if not isinstance(name, str) or name not in GENERATORS:
        raise ValueError(
            f"Unknown dataset name {_plain(name)!r}; known names: {', '.join(GENERATORS)}"
        )
    n = check_int_in_range("n", n, 10, MAX_ROWS)
    noise = check_number_in_range("noise", noise, 0.0, 2.0)
    imbalance = check_number_in_range("imbalance", imbalance, 0.05, 0.95)
    label_noise = check_number_in_range("label_noise", label_noise, 0.0, 0.5)
    rng = check_random_state(random_state)
    test_fraction = check_number_in_range("test_fraction", test_fraction, 0.0, 0.9)

    # Independent streams: changing label_noise or test_fraction leaves the point
    # positions unchanged, so a slider moves only what it is about.
    geo_rng, flip_rng, split_rng = rng.spawn(3)
    n_pos = min(max(round(n * imbalance), 2), n - 2)
    X_pos, X_neg = GENERATORS[name](n_pos, n - n_pos, noise, geo_rng)
    X = np.vstack([X_pos, X_neg])
    y = np.concatenate([np.ones(n_pos, np.int64), -np.ones(n - n_pos, np.int64)])
    y = _flip_labels(y, round(label_noise * n), flip_rng)
    X_tr, y_tr, X_te, y_te = stratified_split(X, y, test_fraction, split_rng)
    return Dataset(name, DATASET_DESCRIPTIONS[name], X_tr, y_tr, X_te, y_te)


def from_points(
    X, y, *, name: str = "drawn", test_fraction: float = 0.0, random_state: RandomState = 0
) -> Dataset:
    """A dataset from points given directly, e.g. drawn by clicking on a plot.

    Parameters
    ----------
    X : array-like, shape (m, 2)
        Finite coordinates of magnitude at most :data:`MAX_ABS_VALUE` (float32's range),
        at most :data:`MAX_ROWS` rows.
    y : array-like, shape (m,)
        Exactly two distinct labels of any kind, at least 2 points of each. As in
        :func:`boostcore.csvdata.load_csv`, numbers map smaller -> -1 and larger -> +1
        and text maps in alphabetical order (numeric order if both texts are numbers).
        Labels given as text are compared after normalising, as in ``load_csv``: spaces
        around them are ignored and text that spells a number compares as that number
        (``"1"``, ``"1.0"``, ``"01"`` and ``" 1 "`` are one class, named by its first
        spelling); numeric arrays name their classes by the number (``1.0`` -> ``"1"``).
    name : str, default "drawn"
        Name for the resulting dataset.
    test_fraction : float, default 0.0
        Fraction held out for testing, 0 to 0.9 (stratified, training keeps both classes).
    random_state : None, int or numpy.random.Generator, default 0
        The random train/test split's randomness (an int is a seed).

    Returns
    -------
    Dataset
        Features ``("x1", "x2")``, classes named after the two labels.

    Raises
    ------
    ValueError
        If an argument is invalid; the message names the parameter, the rule and the value.

    Examples
    --------
    >>> from boostcore.datasets import from_points
    >>> ds = from_points([[0, 0], [0, 1], [1, 0], [1, 1]], ["cat", "dog", "cat", "dog"])
    >>> ds, ds.class_names
    (Dataset(name='drawn', n_train=4, n_test=0), ('cat', 'dog'))
    >>> print(ds.description)
    Your own points: 4 in all, 2 of class 'cat' (−1) and 2 of class 'dog' (+1).
    """
    if not isinstance(name, str):
        raise ValueError(f"name must be a string; got {_plain(name)!r}")
    test_fraction = check_number_in_range("test_fraction", test_fraction, 0.0, 0.9)
    rng = check_random_state(random_state)
    try:
        X = np.array(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            "X must be an array of numbers with shape (m, 2); got values that are not numbers"
        ) from None
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(
            f"X must have shape (m, 2): one row of two coordinates per point; got shape {X.shape}"
        )
    if len(X) > MAX_ROWS:
        raise ValueError(f"X must have at most {MAX_ROWS} rows; got {len(X)}")
    bad = np.flatnonzero(~np.isfinite(X).all(axis=1))
    if len(bad):
        raise ValueError(
            f"X must hold finite numbers only; got {X[bad[0]].tolist()} in row {int(bad[0])}"
        )
    big = np.flatnonzero((np.abs(X) > MAX_ABS_VALUE).any(axis=1))
    if len(big):
        raise ValueError(
            f"X must hold numbers between -{MAX_ABS_VALUE:.4g} and {MAX_ABS_VALUE:.4g} "
            f"(float32's range); got {X[big[0]].tolist()} in row {int(big[0])}"
        )
    y = np.asarray(y)
    if y.ndim != 1 or len(y) != len(X):
        raise ValueError(
            f"y must be 1-D with one label per row of X ({len(X)}); got shape {y.shape}"
        )
    if y.dtype.kind in "biuf":
        if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
            raise ValueError(
                f"y must not contain NaN or infinite labels; got {_plain(y[~np.isfinite(y)][0])!r}"
            )
        values = np.unique(y)
        if len(values) == 2:
            if y.dtype.kind == "b":
                names = ("False", "True")
            elif set(values.tolist()) == {-1, 1}:
                names = ("-1", "+1")
            else:
                # 0.0 and 1.0 read as "0" and "1", like the text of a CSV file
                names = tuple(
                    str(int(v)) if float(v).is_integer() else str(_plain(v)) for v in values
                )
            y_pm = np.where(y == values[1], 1, -1)
    else:
        text = [str(_plain(v)).strip() for v in y.tolist()]
        keys = [label_key(t) for t in text]
        first: dict[float | str, str] = {}  # one class per key, named by its first spelling
        for key, t in zip(keys, text, strict=True):
            first.setdefault(key, t)
        values = np.array(list(first.values()), dtype=object)
        if len(values) == 2:
            names = order_classes(*values.tolist())
            pos = label_key(names[1])
            y_pm = np.where(np.array([k == pos for k in keys], dtype=bool), 1, -1)
    if len(values) != 2:
        shown = ", ".join(repr(_plain(v)) for v in values[:5]) + (
            ", ..." if len(values) > 5 else ""
        )
        raise ValueError(
            f"y must hold exactly two distinct labels (the algorithms are "
            f"binary); got {len(values)}" + (f": {shown}" if len(values) else "")
        )
    counts = {c: int(np.sum(y_pm == c)) for c in (-1, 1)}
    for c, label in zip((-1, 1), names, strict=True):
        if counts[c] < 2:
            raise ValueError(
                f"y must have at least 2 points of each class; class {label!r} has {counts[c]}"
            )
    X_tr, y_tr, X_te, y_te = stratified_split(X, y_pm.astype(np.int64), test_fraction, rng)
    description = (
        f"Your own points: {len(X)} in all, {counts[-1]} of class {names[0]!r} "
        f"(\u22121) and {counts[1]} of class {names[1]!r} (+1)."
    )
    return Dataset(name, description, X_tr, y_tr, X_te, y_te, ("x1", "x2"), names)
