"""CSV upload and download of 2-feature datasets for boostlab.

A student's CSV file becomes a :class:`~boostcore.datasets.Dataset` through :func:`load_csv`
(all or nothing: the first bad row rejects the file) or :func:`load_csv_report` (bad rows are
left out and reported in a :class:`CsvReport`); :func:`dataset_to_csv` writes a dataset back
as CSV that :func:`load_csv` reads, and :func:`csv_template` is a small valid file to start
from. Messages are written for the student: they say what is wrong and on which line. Only
numpy and the standard library are used.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ._validation import RandomState, check_random_state
from .datasets import (
    MAX_ABS_VALUE,
    MAX_ROWS,
    Dataset,
    check_int_in_range,
    check_number_in_range,
    label_key,
    order_classes,
    stratified_split,
)

__all__ = [
    "REPORT_EXAMPLES",
    "CsvReport",
    "RowRejection",
    "csv_template",
    "csv_cell",
    "dataset_to_csv",
    "load_csv",
    "load_csv_report",
]

_LABEL_NAMES = ("label", "target", "class", "y")  # priority order if several are present
_MISSING = {"", "na", "n/a", "nan", "?"}
_NON_FINITE = {"inf", "infinity", "nan"}  # spellings float() reads, after a sign
_SHOWN_NAMES = 10  # header names listed in a message at most
_SHOWN_CHARS = 40  # characters of one header name shown in a message at most

#: First characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet runs as a formula: a leading ``'`` before text
    that starts with one of :data:`FORMULA_STARTS` (a feature named ``=HYPERLINK(…)`` in an
    uploaded file's header), unless the text is a number (``-1``, ``+1``: numbers, not
    formulas). :func:`load_csv` takes the ``'`` off again.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-1"), csv_cell("x1"), csv_cell("@me")
    ("'=HYPERLINK(1)", '-1', 'x1', "'@me")
    """
    if text.startswith(FORMULA_STARTS) and not _is_number(text):
        return "'" + text
    return text


def _uncell(text: str) -> str:
    """What :func:`csv_cell` wrote, back: ``'=x`` is ``=x`` (a cell that starts with ``'``
    and then a formula's first character; any other text is as it is)."""
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) and not _is_number(text[1:]):
        return text[1:]
    return text


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
    if not math.isfinite(value) and text.lstrip("+-").lower() in _NON_FINITE:
        raise _RowProblem(
            f"Line {line}, column {column!r} holds {text!r}: only finite numbers are allowed",
            f"{column} is not a finite number",
            repr(text),
        )
    if not abs(value) <= MAX_ABS_VALUE:  # also a finite spelling read as inf, e.g. 1e400
        raise _RowProblem(
            f"Line {line}, column {column!r} holds {text!r}: numbers must lie between "
            f"-{MAX_ABS_VALUE:.4g} and {MAX_ABS_VALUE:.4g} (float32's range)",
            f"{column} is out of range (beyond \u00b1{MAX_ABS_VALUE:.4g})",
            repr(text),
        )
    return value


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
    >>> from boostcore.csvdata import RowRejection
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
        >>> from boostcore.csvdata import RowRejection
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
    >>> from boostcore.csvdata import CsvReport, RowRejection
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
        >>> from boostcore.csvdata import CsvReport
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
        >>> from boostcore.csvdata import CsvReport
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
        >>> from boostcore.csvdata import CsvReport, RowRejection
        >>> report = CsvReport(9, 7, (RowRejection("x2 is not a number", 1, ((8, "'abc'"),)),
        ...                           RowRejection("x2 is missing", 1, ((9, "empty"),))))
        >>> report.reasons()
        "x2 is not a number: line 8 ('abc'); x2 is missing: line 9 (empty)"
        """
        return "; ".join(r.text() for r in self.rejections)


_NOT_UTF8 = (
    "The file is not UTF-8 text. In your spreadsheet program, "
    "save it as 'CSV UTF-8' and upload it again."
)


def _text_stream(data: bytes | str) -> io.TextIOBase:
    """The file as text read on demand (a BOM dropped), so that reading can stop early."""
    if isinstance(data, bytes | bytearray):
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    if isinstance(data, str):
        return io.StringIO(data.removeprefix("\ufeff"), newline="")
    raise ValueError(f"data must be bytes or str; got {type(data).__name__}")


def _names(header: list[str]) -> str:
    """Header names for a message: the first few, each cut short."""
    cut = [h if len(h) <= _SHOWN_CHARS else h[: _SHOWN_CHARS - 1] + "\u2026" for h in header]
    more = ", ..." if len(cut) > _SHOWN_NAMES else ""
    return ", ".join(cut[:_SHOWN_NAMES]) + more


def _check_header(header: list[str]) -> list[str]:
    if len(header) != 3:
        msg = (
            f"Expected 3 columns (two numeric features and one label), "
            f"found {len(header)}: {_names(header)}"
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
        raise ValueError(f"Column names must be distinct; got {_names(header)}")
    return header


def _read_table(data: bytes | str, max_rows: int) -> tuple[list[str], Iterator]:
    """The checked header, and the non-blank data rows ``(line, cells)`` read on demand.

    Reading stops at the first problem of the whole file (invalid UTF-8 or quoting, more
    than ``max_rows`` data rows), which raises ``ValueError``: the rest is never read.
    """
    reader = csv.reader(_text_stream(data), strict=True)  # strict: report bad quoting

    def rows() -> Iterator[tuple[int, list[str]]]:
        try:
            for row in reader:
                if any(cell.strip() for cell in row):  # blank lines (often trailing): no data
                    yield reader.line_num, row
        except csv.Error as exc:
            raise ValueError(f"Line {reader.line_num} is not valid CSV: {exc}") from None
        except UnicodeDecodeError:
            raise ValueError(_NOT_UTF8) from None

    lines = rows()
    first = next(lines, None)
    if first is None:
        raise ValueError(
            "The file is empty: it needs a header row (e.g. x1,x2,label) "
            "and at least four data rows."
        )
    header = _check_header([_uncell(cell.strip()) for cell in first[1]])

    def data_rows() -> Iterator[tuple[int, list[str]]]:
        count = 0
        for line, row in lines:
            count += 1
            if count > max_rows:
                raise ValueError(
                    f"The file has more than {max_rows} data rows; at most {max_rows} are allowed."
                )
            yield line, row
        if not count:
            raise ValueError("The file has a header but no data rows.")

    return header, data_rows()


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
    return a, b, _uncell(cells[label_col])


def _load_csv(data, name, test_fraction, random_state, max_rows, strict):
    test_fraction = check_number_in_range("test_fraction", test_fraction, 0.0, 0.9)
    rng = check_random_state(random_state)
    max_rows = check_int_in_range("max_rows", max_rows, 1, None)
    if not isinstance(name, str):
        raise ValueError(f"name must be a string; got {name!r}")
    header, rows = _read_table(data, max_rows)
    lowered = [h.lower() for h in header]
    label_col = next((lowered.index(c) for c in _LABEL_NAMES if c in lowered), 2)
    feat_cols = [i for i in range(3) if i != label_col]

    values, codes = [], []  # features and class index (first-met order) of the kept rows
    classes: dict[float | str, int] = {}  # label key (datasets.label_key) -> class index
    distinct: list[str] = []  # each class's first spelling, for names and messages
    rejected: dict[str, list] = {}  # reason -> [count, examples]; dicts keep first-met order
    n_rows = 0
    for line, row in rows:
        n_rows += 1
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
        code = classes.setdefault(label_key(label), len(classes))
        if code == len(distinct):
            distinct.append(label)
        codes.append(code)
    report = CsvReport(
        n_rows,
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
        raise fail(f"No usable rows: all {n_rows} data rows were rejected.")
    if len(distinct) == 1:
        raise fail(f"Only one class ({distinct[0]!r}) found: the algorithms need two classes.")
    if len(distinct) > 2:
        shown = ", ".join(repr(v) for v in distinct[:5]) + (", ..." if len(distinct) > 5 else "")
        raise fail(
            f"Found {len(distinct)} different labels ({shown}): the algorithms "
            "here are binary, so the label column must hold exactly two values."
        )
    neg, pos = order_classes(*distinct)
    y = np.where(np.array(codes) == distinct.index(pos), 1, -1).astype(np.int64)
    for label, c in ((neg, -1), (pos, 1)):
        count = int(np.sum(y == c))
        if count < 2:
            raise fail(
                f"Class {label!r} has only {count} row: at least 2 rows of each class are needed."
            )

    X = np.array(values, dtype=np.float64).reshape(-1, 2)
    X_tr, y_tr, X_te, y_te = stratified_split(X, y, test_fraction, rng)
    f1, f2 = (header[i] for i in feat_cols)
    kept = (
        f"{len(values)} rows"
        if strict or not report.n_rejected
        else (f"{len(values)} of {n_rows} rows ({report.n_rejected} rejected)")
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
    random_state: RandomState = 0,
    max_rows: int = MAX_ROWS,
) -> Dataset:
    """Read a 2-feature binary classification dataset from CSV text, all or nothing.

    The file must be comma-separated UTF-8 with a header row and exactly three
    columns: two numeric features and one label. The label is the column named
    "label", "target", "class" or "y" (case-insensitive, first match in that
    order), otherwise the last column. The label may hold any two distinct
    values; numbers map smaller -> -1 and larger -> +1, text maps in
    alphabetical order. Labels are compared after normalising: spaces around them
    are ignored and labels that spell a number compare as numbers (``1``, ``1.0``,
    ``01`` and `` 1 `` are one class), each class named by its first spelling in the
    file. Features must be numbers of magnitude at most
    :data:`~boostcore.datasets.MAX_ABS_VALUE` (float32's range, about 3.4e38: what
    scikit-learn and the charts can use). Blank lines are ignored. The first bad row
    rejects the whole file; :func:`load_csv_report` instead leaves bad rows out and
    reports them. Reading stops as soon as the file has more than ``max_rows`` data
    rows (the rest is not read).

    Parameters
    ----------
    data : bytes or str
        Raw file content (bytes from an upload, or already-decoded text).
    name : str, default "uploaded"
        Name for the resulting dataset.
    test_fraction : float, default 0.25
        Fraction held out for testing, 0 to 0.9.
    random_state : None, int or numpy.random.Generator, default 0
        The random train/test split's randomness (an int is a seed; boostcore's convention,
        :func:`boostcore._validation.check_random_state`).
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
    >>> from boostcore.csvdata import csv_template, load_csv
    >>> ds = load_csv(csv_template(), test_fraction=0.0)
    >>> ds, ds.class_names
    (Dataset(name='uploaded', n_train=6, n_test=0), ('-1', '+1'))
    >>> load_csv(csv_template() + "2.0,abc,+1\\n")
    Traceback (most recent call last):
        ...
    ValueError: Line 8, column 'x2' contains the text 'abc', but this column must hold numbers
    """
    return _load_csv(data, name, test_fraction, random_state, max_rows, strict=True)[0]


def load_csv_report(
    data: bytes | str,
    *,
    name: str = "uploaded",
    test_fraction: float = 0.25,
    random_state: RandomState = 0,
    max_rows: int = MAX_ROWS,
) -> tuple[Dataset, CsvReport]:
    """Like :func:`load_csv`, but a bad row is left out and reported instead of failing.

    Row-level problems (a missing value, a feature that is not a finite number or is beyond
    float32's range, a row with the wrong number of fields) reject that row only; the
    returned :class:`CsvReport` counts the rejected rows per reason with their first line
    numbers. Problems of the whole file (not UTF-8, header, number of columns, more than two
    classes, too many rows) still raise ``ValueError``, and so does a file with too few usable
    rows left (fewer than 2 of a class); that message ends with the rejection summary.

    Parameters
    ----------
    data : bytes or str
        Raw file content (bytes from an upload, or already-decoded text).
    name : str, default "uploaded"
        Name for the resulting dataset.
    test_fraction : float, default 0.25
        Fraction held out for testing, 0 to 0.9.
    random_state : None, int or numpy.random.Generator, default 0
        The random train/test split's randomness (an int is a seed; boostcore's convention,
        :func:`boostcore._validation.check_random_state`).
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
    >>> from boostcore.csvdata import csv_template, load_csv_report
    >>> text = csv_template() + "2.0,abc,+1\\n1.0,,-1\\n"
    >>> ds, report = load_csv_report(text, test_fraction=0.0)
    >>> ds.n_train, report.n_rows, report.n_rejected
    (6, 8, 2)
    >>> print(report.summary())
    2 rows rejected — x2 is not a number: line 8 ('abc'); x2 is missing: line 9 (empty)
    """
    return _load_csv(data, name, test_fraction, random_state, max_rows, strict=False)


def csv_template() -> str:
    """Return a small valid CSV file, as a model for students' own uploads.

    Returns
    -------
    str
        A header ``x1,x2,label`` and six rows, three of each class (``-1`` and ``+1``).

    Examples
    --------
    >>> from boostcore.csvdata import csv_template
    >>> print(csv_template().splitlines()[:2])
    ['x1,x2,label', '-1.2,0.4,-1']
    """
    return (
        "x1,x2,label\n-1.2,0.4,-1\n-0.8,-0.3,-1\n-0.5,0.9,-1\n0.6,-0.7,+1\n1.1,0.2,+1\n0.9,1.0,+1\n"
    )


def dataset_to_csv(ds: Dataset) -> str:
    """Write all rows (train, then test) as CSV that :func:`load_csv` reads back.

    The header is ``feature_names`` plus ``label``; labels use the original class names
    and numbers use ``repr`` so they round-trip exactly. A name or label that a spreadsheet
    would run as a formula is written with a leading ``'`` (:func:`csv_cell`), which
    :func:`load_csv` removes.

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
    >>> from boostcore.csvdata import dataset_to_csv
    >>> from boostcore.datasets import from_points
    >>> ds = from_points([[0, 0], [0, 1], [1, 0], [1, 1]], ["cat", "dog", "cat", "dog"])
    >>> text = dataset_to_csv(ds)
    >>> text.splitlines()[0], sorted(text.splitlines()[1:])
    ('x1,x2,label', ['0.0,0.0,cat', '0.0,1.0,dog', '1.0,0.0,cat', '1.0,1.0,dog'])
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([csv_cell(str(n)) for n in ds.feature_names] + ["label"])
    names = [csv_cell(str(c)) for c in ds.class_names]
    for X, y in ((ds.X_train, ds.y_train), (ds.X_test, ds.y_test)):
        for row, label in zip(X.tolist(), y.tolist(), strict=True):
            writer.writerow([repr(v) for v in row] + [names[label > 0]])
    return buf.getvalue()
