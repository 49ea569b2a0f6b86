"""Real binary classification datasets shipped with boostlab, and fold-safe preprocessing.

The datasets are small CSV files vendored in ``assets/data/`` (their sources,
citations, licence notes and cleaning are in ``assets/data/PROVENANCE.md``), so
everything here works offline and needs only numpy and the standard library.

* :data:`REAL_DATASETS` maps a name (``"diabetes"``, ``"credit_g"``, ...) to a
  :class:`RealInfo` with the documented shape and class balance.
* :func:`load_real` reads one dataset into a read-only :class:`RealDataset`:
  ``X`` is float64; a categorical column holds integer codes ``0..c-1`` (as
  floats) indexing ``categories[j]``; a missing value is ``NaN`` in either kind
  of column; ``y`` is int8 in {-1, +1} with +1 the documented positive class.
* :class:`Preprocessor` turns such an ``X`` into a NaN-free matrix a learner can
  use, either one-hot (``encode="onehot"``, for learners with binary splits) or
  with integer codes kept (``encode="codes"``, for native k-way value splits).

Missing values, and why the treatment is fold-safe
--------------------------------------------------
Several datasets have missing values (``labor`` has 326 of 912 cells missing,
``vote`` 392 abstentions, ``breast_cancer_ljubljana`` 9).  :class:`Preprocessor`
replaces them as follows:

* numeric column: the missing value becomes the column's *median over the
  training fold*; if the training fold had at least one missing value in that
  column, a 0/1 indicator column ``"<name>__missing"`` is added so a learner can
  still split on "was missing" (missingness is often informative, as in
  ``vote``, where "?" means "voted neither yea nor nay");
* categorical column: "missing" becomes a category of its own (one-hot column
  ``"<name>=missing"``, or the code after the seen categories) if the training
  fold had missing values in that column.

Every statistic (medians, which columns get indicators, which categories exist)
is computed by :meth:`Preprocessor.fit` from the training rows it is given and
nothing else; :meth:`Preprocessor.transform` only applies those frozen rules.
Fitting one preprocessor per cross-validation fold on that fold's training rows
therefore never lets a test row influence how the data are encoded -- unlike
imputing once on the whole dataset before splitting, which leaks the test rows'
values into the training features.  The output width is fixed at fit time, so
training and test matrices always have the same columns.

Edge cases (documented behaviour): a category never seen in the training fold
(and a missing value in a column whose training fold had none) becomes an
all-zero one-hot block, or the dedicated code ``n_codes_[j]`` (one past the last
code used in training) with ``encode="codes"``; a numeric missing value in a
column without an indicator is filled with the median and no indicator; a
numeric column that is entirely missing in the training fold is filled with 0.0.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

import numpy as np

__all__ = [
    "DATA_DIR",
    "REAL_DATASETS",
    "Preprocessor",
    "RealDataset",
    "RealInfo",
    "load_real",
]

#: Folder holding the vendored CSV files and PROVENANCE.md.
DATA_DIR = Path(__file__).resolve().parents[1] / "assets" / "data"

#: Name of the label column (always the last column of a vendored CSV).
LABEL_COLUMN = "label"


@dataclass(frozen=True)
class RealInfo:
    """What is documented about one vendored dataset (see ``PROVENANCE.md``).

    Attributes
    ----------
    name : str
        Key in :data:`REAL_DATASETS`, also the CSV file stem.
    n_samples, n_features : int
        Rows and feature columns (the label column not counted).
    n_categorical : int
        How many feature columns are categorical (``len(categorical_features)``).
    n_positive : int
        Rows of the positive class (label +1).
    positive_class : str
        Label text of the positive class in the CSV's ``label`` column.
    categorical_features : tuple of str
        Names of the categorical (nominal) feature columns.
    source : str
        Where the vendored copy came from.
    citation : str
        Short citation of the original data.
    description : str
        One line for students.

    Examples
    --------
    >>> from boostcore.real_datasets import REAL_DATASETS
    >>> info = REAL_DATASETS["vote"]
    >>> info.n_samples, info.n_features, info.n_positive, info.positive_class
    (435, 16, 168, 'republican')
    """

    name: str
    n_samples: int
    n_features: int
    n_categorical: int
    n_positive: int
    positive_class: str
    categorical_features: tuple[str, ...]
    source: str
    citation: str
    description: str

    @property
    def path(self) -> Path:
        """Path of the vendored CSV file (``DATA_DIR / f"{name}.csv"``).

        Examples
        --------
        >>> from boostcore.real_datasets import REAL_DATASETS
        >>> REAL_DATASETS["diabetes"].path.name
        'diabetes.csv'
        """
        return DATA_DIR / f"{self.name}.csv"


def _info(name, n, d, n_pos, positive, categorical, source, citation, description) -> RealInfo:
    categorical = tuple(categorical)
    return RealInfo(name, n, d, len(categorical), n_pos, positive, categorical,
                    source, citation, description)  # fmt: skip


_WEKA = "Debian weka 3.6.14-3, /usr/share/doc/weka/examples/"
_UCI = "UCI ML Repository"
_MONK_CITE = "Thrun et al. (1991), The MONK's Problems, CMU-CS-91-197"
_MONK_ATTRS = ("a1", "a2", "a3", "a4", "a5", "a6")

_CREDIT_CAT = (
    "checking_status", "credit_history", "purpose", "savings_status", "employment",
    "personal_status", "other_parties", "property_magnitude", "other_payment_plans",
    "housing", "job", "own_telephone", "foreign_worker",
)  # fmt: skip
_VOTE_COLS = (
    "handicapped-infants", "water-project-cost-sharing", "adoption-of-the-budget-resolution",
    "physician-fee-freeze", "el-salvador-aid", "religious-groups-in-schools",
    "anti-satellite-test-ban", "aid-to-nicaraguan-contras", "mx-missile", "immigration",
    "synfuels-corporation-cutback", "education-spending", "superfund-right-to-sue", "crime",
    "duty-free-exports", "export-administration-act-south-africa",
)  # fmt: skip
_LABOR_CAT = (
    "cost-of-living-adjustment", "pension", "education-allowance", "vacation",
    "longterm-disability-assistance", "contribution-to-dental-plan", "bereavement-assistance",
    "contribution-to-health-plan",
)  # fmt: skip
_LJUBLJANA_COLS = (
    "age", "menopause", "tumor-size", "inv-nodes", "node-caps", "deg-malig", "breast",
    "breast-quad", "irradiat",
)  # fmt: skip

#: Every vendored dataset, by name (see ``assets/data/PROVENANCE.md``).
REAL_DATASETS: dict[str, RealInfo] = {
    i.name: i
    for i in (
        _info("breast_cancer", 569, 30, 212, "malignant", (),
              "scikit-learn 1.9.1, sklearn/datasets/data/breast_cancer.csv",
              f"Street, Wolberg & Mangasarian (1993), WDBC; {_UCI}",
              "Wisconsin diagnostic breast cancer: 30 cell-nucleus measurements; "
              "malignant vs benign."),
        _info("diabetes", 768, 8, 268, "tested_positive", (),
              _WEKA + "diabetes.arff",
              f"Smith et al. (1988), Pima Indians Diabetes, NIDDK; {_UCI}",
              "Pima Indians diabetes: 8 clinical measurements of adult women; "
              "diabetes test positive vs negative."),
        _info("ionosphere", 351, 34, 225, "g", (),
              _WEKA + "ionosphere.arff",
              f"Sigillito et al. (1989), JHU APL Tech. Digest 10; {_UCI}",
              "Radar returns from the ionosphere: 34 signal features; "
              "good (structure) vs bad returns."),
        _info("credit_g", 1000, 20, 300, "bad", _CREDIT_CAT,
              _WEKA + "credit-g.arff",
              f"Hofmann (1994), Statlog German Credit; {_UCI}",
              "German credit: 20 applicant attributes, 13 categorical; "
              "bad vs good credit risk."),
        _info("vote", 435, 16, 168, "republican", _VOTE_COLS,
              _WEKA + "vote.arff",
              f"Schlimmer (1987), 1984 Congressional Voting Records; {_UCI}",
              "1984 US House votes on 16 key bills (y/n, missing = no position); "
              "republican vs democrat."),
        _info("labor", 57, 16, 37, "good", _LABOR_CAT,
              _WEKA + "labor.arff",
              f"Bergadano, Matwin, Michalski & Zhang (1988), Labor Relations; {_UCI}",
              "Canadian labour contracts 1987-88: 16 terms, many missing; "
              "good vs bad settlement."),
        _info("breast_cancer_ljubljana", 286, 9, 85, "recurrence-events", _LJUBLJANA_COLS,
              _WEKA + "breast-cancer.arff",
              f"Zwitter & Soklic (1988), Institute of Oncology, Ljubljana; {_UCI}",
              "Breast cancer (Ljubljana): 9 nominal patient and tumour attributes; "
              "recurrence vs no recurrence."),
        _info("sonar", 208, 60, 111, "M", (),
              "Debian r-cran-mlbench 2.1-3-1, mlbench/data/Sonar.rda",
              f"Gorman & Sejnowski (1988), Sonar, Mines vs. Rocks; {_UCI}",
              "Sonar returns: energy in 60 frequency bands; metal cylinder (M, mine) "
              "vs rock (R)."),
        _info("monk1", 432, 6, 216, "1", _MONK_ATTRS,
              "generated: all 432 attribute combinations, rule (a1 = a2) or (a5 = 1)",
              _MONK_CITE,
              "MONK-1: six nominal attributes; class 1 iff a1 = a2 or a5 = 1."),
        _info("monk2", 432, 6, 142, "1", _MONK_ATTRS,
              "generated: all 432 attribute combinations, rule: exactly two ai = 1",
              _MONK_CITE,
              "MONK-2: six nominal attributes; class 1 iff exactly two of them "
              "take their first value."),
        _info("monk3", 432, 6, 228, "1", _MONK_ATTRS,
              "generated: all 432 attribute combinations, noise-free rule "
              "(a5 = 3 and a4 = 1) or (a5 != 4 and a2 != 3)",
              _MONK_CITE,
              "MONK-3 (noise-free): class 1 iff (a5 = 3 and a4 = 1) or "
              "(a5 != 4 and a2 != 3)."),
        _info("parity", 1024, 10, 512, "odd", (),
              "generated: all 1024 vectors of 10 bits, label = parity of b1..b5",
              "Parity benchmark (cf. Minsky & Papert 1969, Perceptrons)",
              "Parity: 10 bits, odd vs even number of ones among b1..b5 "
              "(b6..b10 irrelevant)."),
    )
}  # fmt: skip


@dataclass(frozen=True, eq=False)  # eq=False: arrays make == ambiguous
class RealDataset:
    """One vendored dataset, loaded (see :func:`load_real`).

    Attributes
    ----------
    name : str
    X : numpy.ndarray
        float64, shape ``(n, d)``; categorical columns hold codes ``0..c-1``
        (as floats) into ``categories[j]``; missing values are ``NaN``.
    y : numpy.ndarray
        int8 labels in {-1, +1}; +1 is ``class_names[1]``.
    feature_names : tuple of str
    categorical : numpy.ndarray
        bool, shape ``(d,)``: which columns are categorical.
    categories : tuple of tuple of str
        Per column: the category strings (code order) if categorical, else ``()``.
    class_names : tuple of (str, str)
        Label text of class -1 and of class +1.
    info : RealInfo

    All arrays are read-only.

    Examples
    --------
    >>> from boostcore.real_datasets import load_real
    >>> ds = load_real("vote")
    >>> ds.X.shape, ds.class_names
    ((435, 16), ('democrat', 'republican'))
    >>> ds.categories[0], ds.X.flags.writeable
    (('n', 'y'), False)
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    categorical: np.ndarray
    categories: tuple[tuple[str, ...], ...]
    class_names: tuple[str, str]
    info: RealInfo

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                value = value.copy()
                value.setflags(write=False)
                object.__setattr__(self, f.name, value)


def _natural_key(text: str) -> tuple:
    """Sort key putting ``"5-9"`` before ``"10-14"`` (digit runs compared as numbers)."""
    return tuple(
        (0, int(tok), "") if tok.isdigit() else (1, 0, tok) for tok in re.split(r"(\d+)", text)
    )


def _lookup(name: object) -> RealInfo:
    if not isinstance(name, str) or name not in REAL_DATASETS:
        known = ", ".join(sorted(REAL_DATASETS))
        raise ValueError(f"unknown real dataset {name!r}; known datasets: {known}")
    return REAL_DATASETS[name]


def load_real(name: str) -> RealDataset:
    """Load the vendored dataset ``name`` (a key of :data:`REAL_DATASETS`).

    Categories of a categorical column are the distinct non-missing values in
    the file, in natural order (``"1" < "2"``, ``"5-9" < "10-14"``), coded
    ``0..c-1``.  The result is cached; its arrays are read-only.

    Parameters
    ----------
    name : str
        A key of :data:`REAL_DATASETS` (``"breast_cancer"``, ``"diabetes"``, ...).

    Returns
    -------
    RealDataset
        The dataset (the same cached object on every call).

    Raises
    ------
    ValueError
        If ``name`` is unknown (the message lists the known names), or if the
        vendored file does not match its documented shape or classes.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.real_datasets import load_real
    >>> ds = load_real("labor")
    >>> ds.X.shape, ds.class_names, int(np.isnan(ds.X).sum())
    ((57, 16), ('bad', 'good'), 326)
    >>> sorted(set(ds.y.tolist()))
    [-1, 1]
    """
    return _load(_lookup(name).name)


@cache
def _load(name: str) -> RealDataset:
    info = REAL_DATASETS[name]
    with open(info.path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    if not rows:
        raise ValueError(f"{info.path.name}: empty file")
    header, body = rows[0], rows[1:]
    if header[-1] != LABEL_COLUMN:
        raise ValueError(f"{info.path.name}: last column must be {LABEL_COLUMN!r}")
    names = tuple(header[:-1])
    if len(names) != info.n_features or len(body) != info.n_samples:
        raise ValueError(
            f"{info.path.name}: {len(body)} rows x {len(names)} features, documented "
            f"{info.n_samples} x {info.n_features}"
        )
    if any(len(r) != len(header) for r in body):
        raise ValueError(f"{info.path.name}: ragged rows")
    unknown = set(info.categorical_features) - set(names)
    if unknown:
        raise ValueError(f"{info.path.name}: no column(s) {sorted(unknown)}")

    n, d = len(body), len(names)
    X = np.empty((n, d), dtype=np.float64)
    categorical = np.array([c in info.categorical_features for c in names], dtype=bool)
    categories: list[tuple[str, ...]] = []
    for j in range(d):
        col = [r[j] for r in body]
        if categorical[j]:
            cats = tuple(sorted({v for v in col if v != ""}, key=_natural_key))
            code = {v: float(k) for k, v in enumerate(cats)}
            X[:, j] = [code[v] if v != "" else math.nan for v in col]
            categories.append(cats)
        else:
            try:
                X[:, j] = [float(v) if v != "" else math.nan for v in col]
            except ValueError as exc:
                raise ValueError(f"{info.path.name}: column {names[j]!r}: {exc}") from None
            categories.append(())

    labels = [r[-1] for r in body]
    others = sorted(set(labels) - {info.positive_class})
    if len(others) != 1:
        raise ValueError(
            f"{info.path.name}: expected the positive class {info.positive_class!r} and "
            f"one other class, found {sorted(set(labels))}"
        )
    y = np.where(np.array(labels) == info.positive_class, 1, -1).astype(np.int8)
    if int((y == 1).sum()) != info.n_positive:
        raise ValueError(
            f"{info.path.name}: {(y == 1).sum()} positive rows, documented {info.n_positive}"
        )
    return RealDataset(
        name=name,
        X=X,
        y=y,
        feature_names=names,
        categorical=categorical,
        categories=tuple(categories),
        class_names=(others[0], info.positive_class),
        info=info,
    )


class Preprocessor:
    """Fold-safe imputation and encoding of a :class:`RealDataset`-style matrix.

    Parameters
    ----------
    encode : {"onehot", "codes"}, default="onehot"
        ``"onehot"``: each categorical column becomes one 0/1 column per
        category seen in training (plus ``"=missing"`` if the training fold had
        missing values there) -- for learners with binary (threshold) splits.
        ``"codes"``: each categorical column stays one column of integer codes
        ``0..k-1`` for the ``k`` categories seen in training (in code order),
        ``k`` for "missing" if the training fold had missing values there --
        for learners with native k-way value splits.

    Notes
    -----
    Output columns keep the input order; a numeric column is followed by its
    missing indicator (if any), a categorical column is replaced by its block.
    See the module docstring for the missing-value rules and fold safety.
    After :meth:`fit`: ``medians_`` (per column, NaN for categorical),
    ``has_missing_`` (per column, training fold had NaN), ``levels_`` (per
    column, training codes seen, ``()`` for numeric), ``n_codes_`` (per
    column, codes used in training with ``encode="codes"``: ``k`` plus one for
    missing; the unseen code equals it), ``feature_names_out`` and
    ``categorical_out`` (per output column, True for a code column).

    Raises
    ------
    ValueError
        If ``encode`` is not one of ``ENCODINGS``.

    Examples
    --------
    A numeric column with a missing value, then a categorical column of codes 0, 1, 2 with
    one missing value:

    >>> import numpy as np
    >>> from boostcore.real_datasets import Preprocessor
    >>> X = np.array([[1.0, 0.0], [np.nan, 2.0], [3.0, np.nan], [5.0, 1.0]])
    >>> prep = Preprocessor(encode="onehot").fit(X, [False, True])
    >>> prep.feature_names_out
    ('x0', 'x0__missing', 'x1=0', 'x1=1', 'x1=2', 'x1=missing')
    >>> prep.transform(X)[1].tolist()  # the median 3.0 fills the gap
    [3.0, 1.0, 0.0, 0.0, 1.0, 0.0]
    >>> codes = Preprocessor(encode="codes").fit(X, [False, True])
    >>> codes.transform(X)[:, 2].tolist()  # missing is code 3, after the seen codes
    [0.0, 2.0, 3.0, 1.0]
    """

    ENCODINGS = ("onehot", "codes")

    def __init__(self, encode: str = "onehot") -> None:
        if encode not in self.ENCODINGS:
            raise ValueError(f"encode must be one of {self.ENCODINGS}, got {encode!r}")
        self.encode = encode
        self._fitted = False

    def __repr__(self) -> str:
        return f"Preprocessor(encode={self.encode!r})"

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _check_X(X, d: int | None = None) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {X.shape}")
        if d is not None and X.shape[1] != d:
            raise ValueError(f"X has {X.shape[1]} columns, the preprocessor was fitted on {d}")
        if np.isinf(X).any():
            raise ValueError("X contains infinite values")
        return X

    @staticmethod
    def _check_codes(col: np.ndarray, j: int) -> None:
        ok = np.isnan(col) | ((col >= 0) & (col == np.floor(col)))
        if not ok.all():
            raise ValueError(f"categorical column {j} holds values that are not codes 0, 1, 2, ...")

    def _require_fitted(self) -> None:
        if not self._fitted:
            raise RuntimeError("Preprocessor is not fitted; call fit(X_train, categorical) first")

    # ------------------------------------------------------------------ API
    def fit(self, X_train, categorical, *, feature_names=None, categories=None) -> Preprocessor:
        """Learn medians, indicator columns and category sets from the training rows only.

        Parameters
        ----------
        X_train : array-like, shape (m, d)
            Training fold (categorical columns as codes, missing as NaN).
        categorical : array-like of bool, shape (d,)
        feature_names : sequence of str, optional
            Used for ``feature_names_out`` (default ``"x0"``, ``"x1"``, ...).
        categories : sequence of sequences of str, optional
            Category strings per column (as :attr:`RealDataset.categories`),
            used only to name one-hot columns ``"<name>=<category>"``.

        Returns
        -------
        Preprocessor
            ``self``.

        Raises
        ------
        ValueError
            If ``X_train`` is not 2-D, has no rows or an infinite value, if a categorical
            column holds values that are not codes ``0, 1, 2, …``, or if ``categorical``,
            ``feature_names`` or ``categories`` do not have one entry per column.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.real_datasets import Preprocessor
        >>> X = np.array([[1.0, 0.0], [np.nan, 2.0], [3.0, 1.0]])
        >>> prep = Preprocessor().fit(X, [False, True], feature_names=["age", "colour"],
        ...                           categories=[(), ("red", "green", "blue")])
        >>> prep.feature_names_out
        ('age', 'age__missing', 'colour=red', 'colour=green', 'colour=blue')
        >>> prep.medians_.tolist()[0]
        2.0
        """
        X = self._check_X(X_train)
        m, d = X.shape
        if m == 0:
            raise ValueError("cannot fit on zero training rows")
        cat = np.asarray(categorical, dtype=bool).reshape(-1)
        if cat.shape != (d,):
            raise ValueError(f"categorical must have one flag per column ({d}), got {cat.shape}")
        names = [f"x{j}" for j in range(d)] if feature_names is None else list(feature_names)
        if len(names) != d:
            raise ValueError(f"feature_names must have {d} entries, got {len(names)}")
        if categories is not None and len(categories) != d:
            raise ValueError(f"categories must have {d} entries, got {len(categories)}")

        nan = np.isnan(X)
        self.n_features_in_ = d
        self.categorical_ = cat.copy()
        self.has_missing_ = nan.any(axis=0)
        self.medians_ = np.full(d, np.nan)
        levels: list[tuple[int, ...]] = []
        n_codes = np.zeros(d, dtype=np.int64)
        out_names: list[str] = []
        out_cat: list[bool] = []
        for j in range(d):
            col = X[:, j]
            if cat[j]:
                self._check_codes(col, j)
                lev = tuple(int(v) for v in np.unique(col[~nan[:, j]]))
                levels.append(lev)
                n_codes[j] = len(lev) + int(self.has_missing_[j])
                if self.encode == "codes":
                    out_names.append(names[j])
                    out_cat.append(True)
                else:
                    for c in lev:
                        label = categories[j][c] if categories is not None else str(c)
                        out_names.append(f"{names[j]}={label}")
                        out_cat.append(False)
                    if self.has_missing_[j]:
                        out_names.append(f"{names[j]}=missing")
                        out_cat.append(False)
            else:
                levels.append(())
                present = col[~nan[:, j]]
                self.medians_[j] = float(np.median(present)) if present.size else 0.0
                out_names.append(names[j])
                out_cat.append(False)
                if self.has_missing_[j]:
                    out_names.append(f"{names[j]}__missing")
                    out_cat.append(False)
        self.levels_ = tuple(levels)
        self.n_codes_ = n_codes
        self._names_out = tuple(out_names)
        self._cat_out = np.array(out_cat, dtype=bool)
        self._cat_out.setflags(write=False)
        for arr in (self.categorical_, self.has_missing_, self.medians_, self.n_codes_):
            arr.setflags(write=False)
        self._fitted = True
        return self

    @property
    def feature_names_out(self) -> tuple[str, ...]:
        """Names of the output columns of :meth:`transform`.

        Raises
        ------
        RuntimeError
            If the preprocessor is not fitted.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.real_datasets import Preprocessor
        >>> Preprocessor().fit(np.array([[0.0], [1.0]]), [True]).feature_names_out
        ('x0=0', 'x0=1')
        """
        self._require_fitted()
        return self._names_out

    @property
    def categorical_out(self) -> np.ndarray:
        """Per output column: True for a categorical code column (``encode="codes"``).

        Raises
        ------
        RuntimeError
            If the preprocessor is not fitted.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.real_datasets import Preprocessor
        >>> X = np.array([[1.0, 0.0], [2.0, 1.0]])
        >>> Preprocessor(encode="codes").fit(X, [False, True]).categorical_out.tolist()
        [False, True]
        """
        self._require_fitted()
        return self._cat_out

    def transform(self, X) -> np.ndarray:
        """Apply the fitted rules to any rows (training, test, or new data).

        Parameters
        ----------
        X : array-like, shape (n, d)
            Rows with the columns seen by :meth:`fit` (categorical columns as codes,
            missing as NaN).

        Returns
        -------
        numpy.ndarray
            float64, shape ``(n, len(feature_names_out))``, without NaN.

        Raises
        ------
        RuntimeError
            If the preprocessor is not fitted.
        ValueError
            If ``X`` is not 2-D, has another number of columns than at fit time, holds an
            infinite value, or a categorical column holds values that are not codes.

        Examples
        --------
        A category never seen in training gets the dedicated code ``n_codes_[j]``
        (``encode="codes"``) or an all-zero block (``encode="onehot"``):

        >>> import numpy as np
        >>> from boostcore.real_datasets import Preprocessor
        >>> X = np.array([[1.0, 0.0], [3.0, 1.0]])
        >>> Preprocessor(encode="codes").fit(X, [False, True]).transform([[2.0, 7.0]]).tolist()
        [[2.0, 2.0]]
        >>> Preprocessor().fit(X, [False, True]).transform([[2.0, 7.0]]).tolist()
        [[2.0, 0.0, 0.0]]
        """
        self._require_fitted()
        X = self._check_X(X, self.n_features_in_)
        blocks: list[np.ndarray] = []
        for j in range(self.n_features_in_):
            col = X[:, j]
            miss = np.isnan(col)
            if self.categorical_[j]:
                self._check_codes(col, j)
                lev = np.asarray(self.levels_[j], dtype=np.float64)
                if self.encode == "codes":
                    pos = np.searchsorted(lev, col)
                    seen = ~miss & (pos < lev.size)
                    seen[seen] = lev[pos[seen]] == col[seen]
                    out = np.full(col.shape, float(self.n_codes_[j]))  # unseen code
                    out[seen] = pos[seen]
                    if self.has_missing_[j]:
                        out[miss] = lev.size
                    blocks.append(out[:, None])
                else:
                    onehot = (col[:, None] == lev[None, :]).astype(np.float64)  # NaN -> 0
                    blocks.append(onehot)
                    if self.has_missing_[j]:
                        blocks.append(miss[:, None].astype(np.float64))
            else:
                blocks.append(np.where(miss, self.medians_[j], col)[:, None])
                if self.has_missing_[j]:
                    blocks.append(miss[:, None].astype(np.float64))
        if not blocks:
            return np.empty((X.shape[0], 0))
        return np.hstack(blocks)

    def fit_transform(self, X_train, categorical, **kwargs) -> np.ndarray:
        """``fit(X_train, categorical, **kwargs)`` then ``transform(X_train)``.

        Parameters
        ----------
        X_train : array-like, shape (m, d)
            Training fold (categorical columns as codes, missing as NaN).
        categorical : array-like of bool, shape (d,)
            Which columns are categorical.
        **kwargs
            ``feature_names`` and ``categories``, as for :meth:`fit`.

        Returns
        -------
        numpy.ndarray
            float64, shape ``(m, len(feature_names_out))``, without NaN.

        Raises
        ------
        ValueError
            As :meth:`fit` and :meth:`transform`.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.real_datasets import Preprocessor
        >>> X = np.array([[1.0, 0.0], [np.nan, 1.0], [3.0, 1.0]])
        >>> Preprocessor().fit_transform(X, [False, True]).tolist()
        [[1.0, 0.0, 1.0, 0.0], [2.0, 1.0, 0.0, 1.0], [3.0, 0.0, 0.0, 1.0]]
        """
        return self.fit(X_train, categorical, **kwargs).transform(X_train)
