"""Toy two-dimensional datasets and CSV upload for boostlab.

Every dataset is a :class:`Dataset`: a frozen bundle of read-only training and
test arrays with labels in {-1, +1}.  Datasets come either from one of the
shape generators in :data:`GENERATORS` (via :func:`make_dataset`), from a
user's CSV file (via :func:`load_csv`, or :func:`load_csv_report` which leaves bad rows out
and reports them) or from points given directly, e.g. drawn by hand (:func:`from_points`).
Only numpy and the standard library are used, so this module stays importable without the
UI stack.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable
from dataclasses import dataclass, fields

import numpy as np

__all__ = [
    "DATASET_DESCRIPTIONS",
    "GENERATORS",
    "MAX_ROWS",
    "Dataset",
    "csv_template",
    "CsvReport",
    "RowRejection",
    "dataset_to_csv",
    "from_points",
    "load_csv",
    "load_csv_report",
    "make_dataset",
]

#: Largest number of points a dataset may have (generated or uploaded).
MAX_ROWS = 50_000


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


def _check_int(name: str, value: object, lo: int, hi: int | None) -> int:
    ok = isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)
    if not ok or value < lo or (hi is not None and value > hi):
        rule = f"an integer between {lo} and {hi}" if hi is not None else f"an integer >= {lo}"
        raise ValueError(f"{name} must be {rule}; got {_plain(value)!r}")
    return int(value)


def _check_number(name: str, value: object, lo: float, hi: float) -> float:
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


def _split(X: np.ndarray, y: np.ndarray, test_fraction: float, rng: np.random.Generator):
    """Stratified random split keeping at least one point of each class for training."""
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


# --------------------------------------------------------------------------- public API
def make_dataset(
    name: str,
    *,
    n: int = 400,
    noise: float = 0.2,
    imbalance: float = 0.5,
    label_noise: float = 0.0,
    seed: int = 0,
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
    seed : int, default 0
        Non-negative seed; the same arguments always give the same dataset.
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
    >>> ds = make_dataset("moons", n=100, seed=1)
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
    n = _check_int("n", n, 10, MAX_ROWS)
    noise = _check_number("noise", noise, 0.0, 2.0)
    imbalance = _check_number("imbalance", imbalance, 0.05, 0.95)
    label_noise = _check_number("label_noise", label_noise, 0.0, 0.5)
    seed = _check_int("seed", seed, 0, None)
    test_fraction = _check_number("test_fraction", test_fraction, 0.0, 0.9)

    # Independent streams: changing label_noise or test_fraction leaves the point
    # positions unchanged, so a slider moves only what it is about.
    geo_rng, flip_rng, split_rng = np.random.default_rng(seed).spawn(3)
    n_pos = min(max(round(n * imbalance), 2), n - 2)
    X_pos, X_neg = GENERATORS[name](n_pos, n - n_pos, noise, geo_rng)
    X = np.vstack([X_pos, X_neg])
    y = np.concatenate([np.ones(n_pos, np.int64), -np.ones(n - n_pos, np.int64)])
    y = _flip_labels(y, round(label_noise * n), flip_rng)
    X_tr, y_tr, X_te, y_te = _split(X, y, test_fraction, split_rng)
    return Dataset(name, DATASET_DESCRIPTIONS[name], X_tr, y_tr, X_te, y_te)


_LABEL_NAMES = ("label", "target", "class", "y")  # priority order if several are present
_MISSING = {"", "na", "n/a", "nan", "?"}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class _RowProblem(Exception):
    """One data row that cannot be used; ``strict`` is the message of the all-or-nothing
    loader (:func:`load_csv`), ``reason``/``detail`` feed the rejection report."""

    def __init__(self, strict: str, reason: str, detail: str = "") -> None:
        super().__init__(strict)
        self.strict, self.reason, self.detail = strict, reason, detail


def _parse_number(text: str, line: int, column: str) -> float:
    try:
        value = float(text)
    except ValueError:
        hint = " (use a dot as the decimal separator)" if "," in text else ""
        raise _RowProblem(
            f"Line {line}, column {column!r} contains the text {text!r}, "
            f"but this column must hold numbers{hint}",
            f"{column} is not a number",
            repr(text) + (": use a dot as the decimal separator" if "," in text else ""),
        ) from None
    if not math.isfinite(value):
        raise _RowProblem(
            f"Line {line}, column {column!r} holds {text!r}: only finite numbers are allowed",
            f"{column} is not a finite number",
            repr(text),
        )
    return value


def _order_classes(a: str, b: str) -> tuple[str, str]:
    """Return (negative, positive): numeric order if both labels are numbers, else text order."""
    try:
        va, vb = float(a), float(b)
        if math.isfinite(va) and math.isfinite(vb) and va != vb:
            return (a, b) if va < vb else (b, a)
    except ValueError:
        pass
    return tuple(sorted((a, b)))


#: How many example lines a rejection report lists per reason.
REPORT_EXAMPLES = 3


@dataclass(frozen=True)
class RowRejection:
    """Rows of an uploaded CSV rejected for one reason.

    Attributes
    ----------
    reason : str
        A short phrase such as ``"x2 is missing"`` or ``"x1 is not a number"``.
    count : int
        The number of rows rejected for it.
    examples : tuple of (int, str)
        The first few (at most :data:`REPORT_EXAMPLES`) ``(line, detail)`` pairs: 1-based
        file line numbers; ``detail`` is e.g. the offending text, or "".

    Examples
    --------
    >>> from boostcore.datasets import RowRejection
    >>> RowRejection("x1 is missing", 1, ((3, "empty"),)).text()
    'x1 is missing: line 3 (empty)'
    """

    reason: str
    count: int
    examples: tuple[tuple[int, str], ...]

    def text(self) -> str:
        """The reason, its lines and how many more, e.g. ``"x2 is not a number: lines 4, 9"``.

        Returns
        -------
        str
            ``"<reason>: line(s) <line> (<detail>), …"``, ending with ``" and k more"`` when
            ``count`` exceeds the examples listed.

        Examples
        --------
        >>> from boostcore.datasets import RowRejection
        >>> r = RowRejection("x2 is not a number", 5, ((4, "'four'"), (9, "'abc'")))
        >>> r.text()
        "x2 is not a number: lines 4 ('four'), 9 ('abc') and 3 more"
        """
        shown = [f"{line} ({detail})" if detail else str(line) for line, detail in self.examples]
        word = "line" if self.count == 1 else "lines"
        more = self.count - len(shown)
        tail = f" and {more} more" if more > 0 else ""
        return f"{self.reason}: {word} {', '.join(shown)}{tail}"


@dataclass(frozen=True)
class CsvReport:
    """What :func:`load_csv_report` did with the rows of a file.

    ``n_rows`` data rows were read (blank lines and the header are not counted),
    ``n_loaded`` of them are in the dataset, and ``rejections`` says why each of the
    others was left out, one entry per reason, in the order first met.

    Attributes
    ----------
    n_rows : int
        Data rows read.
    n_loaded : int
        Rows kept in the dataset.
    rejections : tuple of RowRejection, default=()
        One entry per reason.

    Examples
    --------
    >>> from boostcore.datasets import CsvReport, RowRejection
    >>> report = CsvReport(8, 7, (RowRejection("x2 is missing", 1, ((9, "empty"),)),))
    >>> report.n_rejected
    1
    >>> report.summary()
    '1 row rejected — x2 is missing: line 9 (empty)'
    """

    n_rows: int
    n_loaded: int
    rejections: tuple[RowRejection, ...] = ()

    @property
    def n_rejected(self) -> int:
        """Number of rows left out, ``n_rows − n_loaded``.

        Examples
        --------
        >>> from boostcore.datasets import CsvReport
        >>> CsvReport(10, 7).n_rejected
        3
        """
        return self.n_rows - self.n_loaded

    def summary(self) -> str:
        """One sentence for the student, "" when nothing was rejected.

        Returns
        -------
        str
            ``"<k> row(s) rejected — "`` followed by :meth:`reasons`, or ``""``.

        Examples
        --------
        >>> from boostcore.datasets import CsvReport
        >>> CsvReport(6, 6).summary()
        ''
        """
        if not self.n_rejected:
            return ""
        rows = "1 row" if self.n_rejected == 1 else f"{self.n_rejected} rows"
        return f"{rows} rejected — " + self.reasons()

    def reasons(self) -> str:
        """Every reason with its count and first lines, joined by "; ".

        Returns
        -------
        str
            The :meth:`RowRejection.text` of every rejection, joined by ``"; "``.

        Examples
        --------
        >>> from boostcore.datasets import CsvReport, RowRejection
        >>> report = CsvReport(9, 7, (RowRejection("x2 is not a number", 1, ((8, "'abc'"),)),
        ...                           RowRejection("x2 is missing", 1, ((9, "empty"),))))
        >>> report.reasons()
        "x2 is not a number: line 8 ('abc'); x2 is missing: line 9 (empty)"
        """
        return "; ".join(r.text() for r in self.rejections)


def _decode_csv(data: bytes | str) -> str:
    if isinstance(data, bytes | bytearray):
        try:
            return bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(
                "The file is not UTF-8 text. In your spreadsheet program, "
                "save it as 'CSV UTF-8' and upload it again."
            ) from None
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    raise ValueError(f"data must be bytes or str; got {type(data).__name__}")


def _read_table(text: str, max_rows: int) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header and non-blank data rows (with their line numbers); file-level checks only."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)  # strict: report bad quoting
    header, rows = None, []
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue  # blank lines (often trailing) carry no data
            if header is None:
                header = [cell.strip() for cell in row]
            else:
                rows.append((reader.line_num, row))
    except csv.Error as exc:
        raise ValueError(f"Line {reader.line_num} is not valid CSV: {exc}") from None
    if header is None:
        raise ValueError(
            "The file is empty: it needs a header row (e.g. x1,x2,label) "
            "and at least four data rows."
        )

    if len(header) != 3:
        msg = (
            f"Expected 3 columns (two numeric features and one label), "
            f"found {len(header)}: {', '.join(header)}"
        )
        if len(header) == 1 and (";" in header[0] or "\t" in header[0]):
            msg += ". The columns seem to be separated by ';' or tabs: save the file with commas"
        raise ValueError(msg)
    if all(_is_number(h) for h in header):
        raise ValueError(
            "The first line looks like data, not column names: a header row "
            "is required (for example: x1,x2,label)."
        )
    for i, h in enumerate(header):
        if not h:
            raise ValueError(f"Column {i + 1} has no name in the header row; name every column.")
    if len(set(header)) != 3:
        raise ValueError(f"Column names must be distinct; got {', '.join(header)}")
    if not rows:
        raise ValueError("The file has a header but no data rows.")
    if len(rows) > max_rows:
        raise ValueError(f"The file has {len(rows)} data rows; at most {max_rows} are allowed.")
    return header, rows


def _parse_row(
    line: int, row: list[str], header: list[str], feat_cols: list[int], label_col: int
) -> tuple[float, float, str]:
    """The two features and the label of one row, or :class:`_RowProblem`."""
    if len(row) != 3:
        raise _RowProblem(
            f"Line {line} has {len(row)} fields, but the header has 3; "
            "every row needs exactly 3 values.",
            "wrong number of fields (the header has 3)",
            f"{len(row)} fields",
        )
    cells = [cell.strip() for cell in row]
    for i, cell in enumerate(cells):
        if cell.lower() in _MISSING:
            what = "is empty" if not cell else f"holds the missing-value marker {cell!r}"
            raise _RowProblem(
                f"Line {line}, column {header[i]!r} {what}: missing values "
                "are not allowed; remove or fill the row.",
                f"{header[i]} is missing",
                "empty" if not cell else repr(cell),
            )
    a, b = (_parse_number(cells[col], line, header[col]) for col in feat_cols)
    return a, b, cells[label_col]


def _load_csv(data, name, test_fraction, seed, max_rows, strict):
    test_fraction = _check_number("test_fraction", test_fraction, 0.0, 0.9)
    seed = _check_int("seed", seed, 0, None)
    max_rows = _check_int("max_rows", max_rows, 1, None)
    if not isinstance(name, str):
        raise ValueError(f"name must be a string; got {name!r}")
    header, rows = _read_table(_decode_csv(data), max_rows)
    lowered = [h.lower() for h in header]
    label_col = next((lowered.index(c) for c in _LABEL_NAMES if c in lowered), 2)
    feat_cols = [i for i in range(3) if i != label_col]

    values, labels = [], []
    rejected: dict[str, list] = {}  # reason -> [count, examples]; dicts keep first-met order
    for line, row in rows:
        try:
            a, b, label = _parse_row(line, row, header, feat_cols, label_col)
        except _RowProblem as problem:
            if strict:
                raise ValueError(problem.strict) from None
            entry = rejected.setdefault(problem.reason, [0, []])
            entry[0] += 1
            if len(entry[1]) < REPORT_EXAMPLES:
                entry[1].append((line, problem.detail))
            continue
        values.append((a, b))
        labels.append(label)
    report = CsvReport(
        len(rows),
        len(values),
        tuple(
            RowRejection(reason, count, tuple(examples))
            for reason, (count, examples) in rejected.items()
        ),
    )

    def fail(message: str) -> ValueError:
        if report.n_rejected:
            verb = "was" if report.n_rejected == 1 else "were"
            message += (
                f" {report.n_rejected} of the {report.n_rows} data rows {verb} left out "
                f"— {report.reasons()}."
            )
        return ValueError(message)

    if not values:
        raise fail(f"No usable rows: all {len(rows)} data rows were rejected.")
    distinct = list(dict.fromkeys(labels))  # first-seen order for messages
    if len(distinct) == 1:
        raise fail(f"Only one class ({distinct[0]!r}) found: the algorithms need two classes.")
    if len(distinct) > 2:
        shown = ", ".join(repr(v) for v in distinct[:5]) + (", ..." if len(distinct) > 5 else "")
        raise fail(
            f"Found {len(distinct)} different labels ({shown}): the algorithms "
            "here are binary, so the label column must hold exactly two values."
        )
    neg, pos = _order_classes(*distinct)
    y = np.where(np.array(labels) == pos, 1, -1).astype(np.int64)
    for label, c in ((neg, -1), (pos, 1)):
        count = int(np.sum(y == c))
        if count < 2:
            raise fail(
                f"Class {label!r} has only {count} row: at least 2 rows of each class are needed."
            )

    X = np.array(values, dtype=np.float64).reshape(-1, 2)
    X_tr, y_tr, X_te, y_te = _split(X, y, test_fraction, np.random.default_rng(seed))
    f1, f2 = (header[i] for i in feat_cols)
    kept = (
        f"{len(values)} rows"
        if strict or not report.n_rejected
        else (f"{len(values)} of {len(rows)} rows ({report.n_rejected} rejected)")
    )
    description = (
        f"Uploaded CSV: {kept}, features {f1!r} and {f2!r}, "
        f"classes {neg!r} (\u22121) and {pos!r} (+1)."
    )
    return Dataset(name, description, X_tr, y_tr, X_te, y_te, (f1, f2), (neg, pos)), report


def load_csv(
    data: bytes | str,
    *,
    name: str = "uploaded",
    test_fraction: float = 0.25,
    seed: int = 0,
    max_rows: int = MAX_ROWS,
) -> Dataset:
    """Read a 2-feature binary classification dataset from CSV text, all or nothing.

    The file must be comma-separated UTF-8 with a header row and exactly three
    columns: two numeric features and one label. The label is the column named
    "label", "target", "class" or "y" (case-insensitive, first match in that
    order), otherwise the last column. The label may hold any two distinct
    values; numbers map smaller -> -1 and larger -> +1, text maps in
    alphabetical order. Blank lines are ignored. The first bad row rejects the
    whole file; :func:`load_csv_report` instead leaves bad rows out and reports them.

    Parameters
    ----------
    data : bytes or str
        Raw file content (bytes from an upload, or already-decoded text).
    name : str, default "uploaded"
        Name for the resulting dataset.
    test_fraction : float, default 0.25
        Fraction held out for testing, 0 to 0.9.
    seed : int, default 0
        Seed of the random train/test split.
    max_rows : int, default 50 000
        Largest number of data rows accepted.

    Returns
    -------
    Dataset
        Features named after the header, classes in the order above.

    Raises
    ------
    ValueError
        With a message for the student saying what is wrong and where.

    Examples
    --------
    >>> from boostcore.datasets import csv_template, load_csv
    >>> ds = load_csv(csv_template(), test_fraction=0.0)
    >>> ds, ds.class_names
    (Dataset(name='uploaded', n_train=6, n_test=0), ('-1', '+1'))
    >>> load_csv(csv_template() + "2.0,abc,+1\\n")
    Traceback (most recent call last):
        ...
    ValueError: Line 8, column 'x2' contains the text 'abc', but this column must hold numbers
    """
    return _load_csv(data, name, test_fraction, seed, max_rows, strict=True)[0]


def load_csv_report(
    data: bytes | str,
    *,
    name: str = "uploaded",
    test_fraction: float = 0.25,
    seed: int = 0,
    max_rows: int = MAX_ROWS,
) -> tuple[Dataset, CsvReport]:
    """Like :func:`load_csv`, but a bad row is left out and reported instead of failing.

    Row-level problems (a missing value, a feature that is not a finite number, a row with
    the wrong number of fields) reject that row only; the returned :class:`CsvReport`
    counts the rejected rows per reason with their first line numbers. Problems of the
    whole file (not UTF-8, header, number of columns, more than two classes, too many
    rows) still raise ``ValueError``, and so does a file with too few usable rows left
    (fewer than 2 of a class); that message ends with the rejection summary.

    Parameters
    ----------
    data : bytes or str
        Raw file content (bytes from an upload, or already-decoded text).
    name : str, default "uploaded"
        Name for the resulting dataset.
    test_fraction : float, default 0.25
        Fraction held out for testing, 0 to 0.9.
    seed : int, default 0
        Seed of the random train/test split.
    max_rows : int, default 50 000
        Largest number of data rows accepted.

    Returns
    -------
    dataset : Dataset
        The usable rows.
    report : CsvReport
        How many rows were read and kept, and why the others were left out.

    Raises
    ------
    ValueError
        For a problem of the whole file, an invalid argument, or too few usable rows.

    Examples
    --------
    >>> from boostcore.datasets import csv_template, load_csv_report
    >>> text = csv_template() + "2.0,abc,+1\\n1.0,,-1\\n"
    >>> ds, report = load_csv_report(text, test_fraction=0.0)
    >>> ds.n_train, report.n_rows, report.n_rejected
    (6, 8, 2)
    >>> print(report.summary())
    2 rows rejected — x2 is not a number: line 8 ('abc'); x2 is missing: line 9 (empty)
    """
    return _load_csv(data, name, test_fraction, seed, max_rows, strict=False)


def from_points(X, y, *, name: str = "drawn", test_fraction: float = 0.0, seed: int = 0) -> Dataset:
    """A dataset from points given directly, e.g. drawn by clicking on a plot.

    Parameters
    ----------
    X : array-like, shape (m, 2)
        Finite coordinates, at most :data:`MAX_ROWS` rows.
    y : array-like, shape (m,)
        Exactly two distinct labels of any kind, at least 2 points of each. As in
        :func:`load_csv`, numbers map smaller -> -1 and larger -> +1 and text maps in
        alphabetical order (numeric order if both texts are numbers).
    name : str, default "drawn"
        Name for the resulting dataset.
    test_fraction : float, default 0.0
        Fraction held out for testing, 0 to 0.9 (stratified, training keeps both classes).
    seed : int, default 0
        Seed of the random train/test split.

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
    test_fraction = _check_number("test_fraction", test_fraction, 0.0, 0.9)
    seed = _check_int("seed", seed, 0, None)
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
        text = np.array([str(_plain(v)) for v in y.tolist()], dtype=object)
        values = np.array(list(dict.fromkeys(text.tolist())), dtype=object)
        if len(values) == 2:
            names = _order_classes(*values.tolist())
            y_pm = np.where(text == names[1], 1, -1)
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
    X_tr, y_tr, X_te, y_te = _split(
        X, y_pm.astype(np.int64), test_fraction, np.random.default_rng(seed)
    )
    description = (
        f"Your own points: {len(X)} in all, {counts[-1]} of class {names[0]!r} "
        f"(\u22121) and {counts[1]} of class {names[1]!r} (+1)."
    )
    return Dataset(name, description, X_tr, y_tr, X_te, y_te, ("x1", "x2"), names)


def csv_template() -> str:
    """Return a small valid CSV file, as a model for students' own uploads.

    Returns
    -------
    str
        A header ``x1,x2,label`` and six rows, three of each class (``-1`` and ``+1``).

    Examples
    --------
    >>> from boostcore.datasets import csv_template
    >>> print(csv_template().splitlines()[:2])
    ['x1,x2,label', '-1.2,0.4,-1']
    """
    return (
        "x1,x2,label\n-1.2,0.4,-1\n-0.8,-0.3,-1\n-0.5,0.9,-1\n0.6,-0.7,+1\n1.1,0.2,+1\n0.9,1.0,+1\n"
    )


def dataset_to_csv(ds: Dataset) -> str:
    """Write all rows (train, then test) as CSV that :func:`load_csv` reads back.

    The header is ``feature_names`` plus ``label``; labels use the original class names
    and numbers use ``repr`` so they round-trip exactly.

    Parameters
    ----------
    ds : Dataset
        Any dataset (with two features, for :func:`load_csv` to read it back).

    Returns
    -------
    str
        CSV text with ``"\\n"`` line endings.

    Examples
    --------
    >>> from boostcore.datasets import dataset_to_csv, from_points
    >>> ds = from_points([[0, 0], [0, 1], [1, 0], [1, 1]], ["cat", "dog", "cat", "dog"])
    >>> text = dataset_to_csv(ds)
    >>> text.splitlines()[0], sorted(text.splitlines()[1:])
    ('x1,x2,label', ['0.0,0.0,cat', '0.0,1.0,dog', '1.0,0.0,cat', '1.0,1.0,dog'])
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*ds.feature_names, "label"])
    for X, y in ((ds.X_train, ds.y_train), (ds.X_test, ds.y_test)):
        for row, label in zip(X.tolist(), y.tolist(), strict=True):
            writer.writerow([repr(v) for v in row] + [ds.class_names[label > 0]])
    return buf.getvalue()
