"""Rebuild the vendored real datasets in ``assets/data/`` (a one-off maintenance script).

The app never runs this file: it ships the CSV files this script wrote, and
``boostcore.real_datasets`` reads only those.  The script is kept so that every
row can be traced back to its source (see ``PROVENANCE.md``).

Sources it expects (all from package registries, no internet download):

* Debian package ``weka`` 3.6.14-3, extracted with ``dpkg-deb -x`` (ARFF examples);
* Debian package ``r-cran-mlbench`` 2.1-3-1, extracted likewise (``Sonar.rda``);
* scikit-learn (its bundled ``breast_cancer.csv``);
* the PyPI package ``rdata`` (pure-Python reader of ``.rda`` files), needed only here.

Usage::

    mkdir -p /tmp/debs && cd /tmp/debs && apt-get download weka r-cran-mlbench
    dpkg-deb -x weka_*.deb weka && dpkg-deb -x r-cran-mlbench_*.deb mlbench
    python -m venv /tmp/rdvenv && /tmp/rdvenv/bin/pip install rdata scikit-learn scipy
    /tmp/rdvenv/bin/python assets/data/build_real_datasets.py --debs /tmp/debs

The generated datasets (MONK's problems, parity) need no source at all; their rules
are repeated in ``tests/boostcore/test_real_datasets.py``, which regenerates them.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import itertools
import math
from pathlib import Path

OUT = Path(__file__).resolve().parent
WEKA_EXAMPLES = "weka/usr/share/doc/weka/examples"
MLBENCH_DATA = "mlbench/usr/lib/R/site-library/mlbench/data"


# --------------------------------------------------------------------------- ARFF
def _split_arff(line: str) -> list[str]:
    """Split one ARFF line on commas, honouring single/double quotes."""
    row = next(csv.reader([line], quotechar="'", skipinitialspace=True))
    out = []
    for tok in row:
        tok = tok.strip()
        if len(tok) >= 2 and tok[0] == tok[-1] == '"':
            tok = tok[1:-1]
        out.append(tok)
    return out


def read_arff(path: Path) -> tuple[list[tuple[str, list[str] | None]], list[list[str | None]]]:
    """Parse a dense ARFF file: ``[(name, nominal values or None)], rows``.

    Values stay strings (numeric ones verbatim); ``?`` becomes ``None``.
    """
    opener = gzip.open if path.read_bytes()[:2] == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="latin-1") as fh:
        lines = fh.read().splitlines()
    attrs: list[tuple[str, list[str] | None]] = []
    rows: list[list[str | None]] = []
    in_data = False
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        low = line.lower()
        if not in_data:
            if low.startswith("@attribute"):
                rest = line[len("@attribute") :].strip()
                if rest[0] in "'\"":
                    q = rest[0]
                    end = rest.index(q, 1)
                    name, spec = rest[1:end], rest[end + 1 :].strip()
                else:
                    name, spec = rest.split(None, 1)
                if spec.startswith("{"):
                    values = _split_arff(spec.strip()[1:-1])
                    attrs.append((name, values))
                else:
                    assert spec.lower() in {"numeric", "real", "integer"}, spec
                    attrs.append((name, None))
            elif low.startswith("@data"):
                in_data = True
            continue
        toks = _split_arff(line)
        assert len(toks) == len(attrs), (path, line)
        row: list[str | None] = []
        for tok, (name, values) in zip(toks, attrs):
            if tok == "?":
                row.append(None)
            elif values is None:
                float(tok)  # numeric: must parse; kept verbatim
                row.append(tok)
            else:
                assert tok in values, (path, name, tok)
                row.append(tok)
        rows.append(row)
    return attrs, rows


def check_against_scipy(path: Path, attrs, rows) -> None:
    """Cross-check our ARFF parse with ``scipy.io.arff`` (same values, same '?')."""
    from scipy.io import arff

    data, meta = arff.loadarff(str(path))
    assert list(meta.names()) == [a[0] for a in attrs]
    assert len(data) == len(rows)
    for j, (name, values) in enumerate(attrs):
        col = data[name]
        for i, v in enumerate(rows):
            got = col[i]
            if values is None:
                if v[j] is None:
                    assert math.isnan(got)
                else:
                    assert float(v[j]) == float(got)
            else:
                got = got.decode() if isinstance(got, bytes) else got
                assert (v[j] is None and got == "?") or got == v[j], (name, i, got, v[j])


# --------------------------------------------------------------------------- writing
def write_csv(name: str, feature_names, rows, labels) -> None:
    """Write ``<name>.csv``: header, features, ``label`` last; missing -> empty field."""
    path = OUT / f"{name}.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow([*feature_names, "label"])
        for row, lab in zip(rows, labels):
            w.writerow(["" if v is None else v for v in row] + [lab])
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    print(f"{name:26s} n={len(rows):5d} d={len(feature_names):3d} sha256={digest}")


def fmt_float(x: float) -> str:
    """Shortest round-trip text of a float (``17.99``, ``1001``)."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def build_weka(debs: Path) -> None:
    """The six weka ARFF examples; the class attribute is the last one."""
    mapping = {
        "diabetes": "diabetes",
        "ionosphere": "ionosphere",
        "credit-g": "credit_g",
        "vote": "vote",
        "labor": "labor",
        "breast-cancer": "breast_cancer_ljubljana",
    }
    for src, name in mapping.items():
        path = debs / WEKA_EXAMPLES / f"{src}.arff"
        attrs, rows = read_arff(path)
        check_against_scipy(path, attrs, rows)
        assert all(r[-1] is not None for r in rows), "missing class label"
        write_csv(name, [a[0] for a in attrs[:-1]], [r[:-1] for r in rows], [r[-1] for r in rows])


def build_sklearn_breast_cancer() -> None:
    """scikit-learn's copy of the Wisconsin Diagnostic Breast Cancer data."""
    from sklearn.datasets import load_breast_cancer

    ds = load_breast_cancer()
    names = [str(n) for n in ds.target_names]  # ['malignant', 'benign']; target 0 = malignant
    rows = [[fmt_float(v) for v in x] for x in ds.data]
    labels = [names[t] for t in ds.target]
    write_csv("breast_cancer", [str(f) for f in ds.feature_names], rows, labels)


def build_sonar(debs: Path) -> None:
    """mlbench's Sonar (Gorman & Sejnowski), read once from the .rda with ``rdata``."""
    import rdata

    df = rdata.read_rda(str(debs / MLBENCH_DATA / "Sonar.rda"))["Sonar"]
    feats = [c for c in df.columns if c != "Class"]
    assert len(feats) == 60 and not df[feats].isna().any().any()
    rows = [[fmt_float(v) for v in r] for r in df[feats].to_numpy(dtype=float)]
    write_csv("sonar", feats, rows, [str(c) for c in df["Class"]])


# --------------------------------------------------------------------------- generated
MONK_LEVELS = (3, 3, 2, 3, 4, 2)


def monk_label(problem: int, a: tuple[int, ...]) -> bool:
    a1, a2, a3, a4, a5, a6 = a
    if problem == 1:
        return a1 == a2 or a5 == 1
    if problem == 2:
        return sum(v == 1 for v in a) == 2
    return (a5 == 3 and a4 == 1) or (a5 != 4 and a2 != 3)


def build_generated() -> None:
    space = list(itertools.product(*(range(1, k + 1) for k in MONK_LEVELS)))
    assert len(space) == 432
    for p in (1, 2, 3):
        rows = [[str(v) for v in a] for a in space]
        labels = ["1" if monk_label(p, a) else "0" for a in space]
        write_csv(f"monk{p}", [f"a{i}" for i in range(1, 7)], rows, labels)
    bits = list(itertools.product((0, 1), repeat=10))
    rows = [[str(b) for b in x] for x in bits]
    labels = ["odd" if sum(x[:5]) % 2 else "even" for x in bits]
    write_csv("parity", [f"b{i}" for i in range(1, 11)], rows, labels)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--debs", type=Path, default=Path("/tmp/debs"))
    args = ap.parse_args()
    build_sklearn_breast_cancer()
    build_weka(args.debs)
    build_sonar(args.debs)
    build_generated()


if __name__ == "__main__":
    main()
