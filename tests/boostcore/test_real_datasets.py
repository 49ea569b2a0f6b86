"""Tests of the vendored real datasets (assets/data/) and boostcore.real_datasets."""

from __future__ import annotations

import ast
import csv
import hashlib
import itertools
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from boostcore.real_datasets import (
    DATA_DIR,
    REAL_DATASETS,
    Preprocessor,
    RealDataset,
    load_real,
)

ROOT = Path(__file__).resolve().parents[2]

# From the table in assets/data/PROVENANCE.md:
# name -> (n_samples, n_features, n_categorical, n_positive, positive class label)
EXPECTED = {
    "breast_cancer": (569, 30, 0, 212, "malignant"),
    "diabetes": (768, 8, 0, 268, "tested_positive"),
    "ionosphere": (351, 34, 0, 225, "g"),
    "credit_g": (1000, 20, 13, 300, "bad"),
    "vote": (435, 16, 16, 168, "republican"),
    "labor": (57, 16, 8, 37, "good"),
    "breast_cancer_ljubljana": (286, 9, 9, 85, "recurrence-events"),
    "sonar": (208, 60, 0, 111, "M"),
    "monk1": (432, 6, 6, 216, "1"),
    "monk2": (432, 6, 6, 142, "1"),
    "monk3": (432, 6, 6, 228, "1"),
    "parity": (1024, 10, 0, 512, "odd"),
}

# Missing cells per dataset (empty CSV fields), also in PROVENANCE.md.
EXPECTED_MISSING = {"vote": 392, "labor": 326, "breast_cancer_ljubljana": 9}

# SHA-256 of each vendored CSV (line endings normalised to "\n"), as printed by
# assets/data/build_real_datasets.py and listed in PROVENANCE.md.
SHA256 = {
    "breast_cancer": "c532131b37bd15fb21764b707c488b4433211456bad75b6cfd7daa3eef4f07eb",
    "diabetes": "478f6e9f56fe715c847e98f67710365e4b4db2cc5ba2ee4b24c67de975c1ed35",
    "ionosphere": "cd54a0a9e5e1f425f26d1aa99103615672a65bcb9a93b0afaf544ceaa61d4d06",
    "credit_g": "8afbc7a4e6df2b813b686d743771bd755074720179dea9667b7ab3915244acfb",
    "vote": "364f0b67fad4fbcfce97f44a588ce16ac2edc052683657a25ec6062e9ee81f32",
    "labor": "ae01c69b2bd770cd38f0bd662504a03f4e13e76333a2ee84ef15df6f6a4aa34d",
    "breast_cancer_ljubljana": "f4ea10385f1c26601287ca04f62f6142db6ab166d4d4359b711e4b6e96539306",
    "sonar": "5e2c3ba6e5835d1b0a92356561180a322bf2392cd020eeb5b5a4d85589c1b3b2",
    "monk1": "935bde6bfc654fd418a696caaa9add06cf76a584a8ef04f9ee284287abe0e9af",
    "monk2": "2d54415b274d529dc4b08c60e8e2e0bfc14a78cd1463e7df1a96efa53cb6d902",
    "monk3": "635efab64f97f9cc48096a2d566548f841f6f127013dfc67574ee069a9da3db4",
    "parity": "bf68e5833eef6bc805f1679fb6d5a1c8469ca022f30bec90c7c83c6207fbbec4",
}

NAMES = sorted(EXPECTED)


def read_csv(name: str) -> tuple[list[str], list[list[str]]]:
    with open(DATA_DIR / f"{name}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


# --------------------------------------------------------------------------- registry
def test_registry_lists_exactly_the_documented_datasets():
    assert sorted(REAL_DATASETS) == NAMES
    assert len(REAL_DATASETS) >= 11
    for name, info in REAL_DATASETS.items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name)
        assert info.name == name
        n, d, n_cat, n_pos, positive = EXPECTED[name]
        assert (info.n_samples, info.n_features, info.n_categorical) == (n, d, n_cat)
        assert (info.n_positive, info.positive_class) == (n_pos, positive)
        assert len(info.categorical_features) == info.n_categorical
        assert info.source and info.citation and info.description
        assert "\n" not in info.description
        assert info.path.is_file()


def test_provenance_documents_every_dataset():
    text = (DATA_DIR / "PROVENANCE.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert re.search(rf"^## `?{name}`?\b", text, flags=re.M), name
        assert SHA256[name] in text, name


def test_assets_stay_small():
    total = sum(p.stat().st_size for p in DATA_DIR.iterdir() if p.is_file())
    assert total < 3_000_000


def test_core_module_imports_only_numpy_and_stdlib():
    tree = ast.parse((ROOT / "boostcore" / "real_datasets.py").read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots.add(node.module.split(".")[0])
    third_party = {r for r in roots if r not in sys.stdlib_module_names and r != "__future__"}
    assert third_party <= {"numpy", "scipy"}


# --------------------------------------------------------------------------- files
@pytest.mark.parametrize("name", NAMES)
def test_csv_file_matches_its_checksum(name):
    data = (DATA_DIR / f"{name}.csv").read_bytes().replace(b"\r\n", b"\n")
    assert hashlib.sha256(data).hexdigest() == SHA256[name]


@pytest.mark.parametrize("name", NAMES)
def test_loads_offline_with_documented_shape_and_balance(name):
    n, d, n_cat, n_pos, positive = EXPECTED[name]
    ds = load_real(name)
    assert isinstance(ds, RealDataset) and ds.name == name
    assert ds.info is REAL_DATASETS[name]
    assert ds.X.shape == (n, d) and ds.X.dtype == np.float64
    assert ds.y.shape == (n,) and ds.y.dtype == np.int8
    assert set(np.unique(ds.y).tolist()) == {-1, 1}
    assert int((ds.y == 1).sum()) == n_pos
    assert ds.class_names[1] == positive and ds.class_names[0] != positive
    assert ds.categorical.dtype == bool and int(ds.categorical.sum()) == n_cat
    assert len(ds.feature_names) == len(ds.categories) == d

    # The CSV itself: header = features + "label", one row per sample, labels as documented.
    header, rows = read_csv(name)
    assert header == [*ds.feature_names, "label"]
    assert len(rows) == n and all(len(r) == d + 1 for r in rows)
    labels = np.array([r[-1] for r in rows])
    assert set(labels.tolist()) == set(ds.class_names)
    np.testing.assert_array_equal(ds.y == 1, labels == positive)

    # Missing cells are exactly the empty fields.
    empty = np.array([[v == "" for v in r[:-1]] for r in rows])
    np.testing.assert_array_equal(np.isnan(ds.X), empty)
    assert int(empty.sum()) == EXPECTED_MISSING.get(name, 0)


@pytest.mark.parametrize("name", NAMES)
def test_columns_decode_back_to_the_csv(name):
    ds = load_real(name)
    _, rows = read_csv(name)
    for j in range(ds.X.shape[1]):
        col = ds.X[:, j]
        raw = [r[j] for r in rows]
        if ds.categorical[j]:
            cats = ds.categories[j]
            assert cats and len(set(cats)) == len(cats) and "" not in cats
            present = col[~np.isnan(col)]
            assert np.all(present == np.floor(present))
            assert np.all((present >= 0) & (present < len(cats)))
            assert set(present.astype(int).tolist()) == set(range(len(cats)))  # all used
            decoded = ["" if np.isnan(v) else cats[int(v)] for v in col]
            assert decoded == raw
        else:
            assert ds.categories[j] == ()
            expected = [float(v) if v else np.nan for v in raw]  # numeric columns parse
            np.testing.assert_array_equal(col, expected)


def test_arrays_are_read_only_and_loads_are_cached():
    ds = load_real("vote")
    for arr in (ds.X, ds.y, ds.categorical):
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[0] = 0
    assert load_real("vote") is ds


@pytest.mark.parametrize("bad", ["iris", "Diabetes", "credit-g", "", None, 3])
def test_unknown_name_lists_known_names(bad):
    with pytest.raises(ValueError) as err:
        load_real(bad)
    for name in NAMES:
        assert name in str(err.value)


# --------------------------------------------------------------------------- generated
# The rules as stated by Thrun et al. (1991), implemented independently of the builder.
MONK_DOMAINS = ((1, 2, 3), (1, 2, 3), (1, 2), (1, 2, 3), (1, 2, 3, 4), (1, 2))
MONK_RULES = {
    "monk1": lambda a1, a2, a3, a4, a5, a6: a1 == a2 or a5 == 1,
    "monk2": lambda *a: [a[i] == MONK_DOMAINS[i][0] for i in range(6)].count(True) == 2,
    "monk3": lambda a1, a2, a3, a4, a5, a6: (a5 == 3 and a4 == 1) or (a5 != 4 and a2 != 3),
}


@pytest.mark.parametrize("name", sorted(MONK_RULES))
def test_monk_rules_regenerate_the_vendored_rows(name):
    rule = MONK_RULES[name]
    expected = [[*map(str, a), "1" if rule(*a) else "0"] for a in itertools.product(*MONK_DOMAINS)]
    header, rows = read_csv(name)
    assert header == ["a1", "a2", "a3", "a4", "a5", "a6", "label"]
    assert rows == expected  # the full 432-example space, noise-free, in product order
    ds = load_real(name)
    assert ds.categories == tuple(tuple(map(str, dom)) for dom in MONK_DOMAINS)
    # Codes are value - 1, and the labels follow the rule.
    codes = ds.X.astype(int) + 1
    np.testing.assert_array_equal(ds.y == 1, [rule(*map(int, row)) for row in codes])


def test_parity_regenerates_the_vendored_rows():
    expected = [
        [*map(str, bits), "odd" if sum(bits[:5]) % 2 else "even"]
        for bits in itertools.product((0, 1), repeat=10)
    ]
    header, rows = read_csv("parity")
    assert header == [f"b{i}" for i in range(1, 11)] + ["label"]
    assert rows == expected
    ds = load_real("parity")
    np.testing.assert_array_equal(ds.y == 1, ds.X[:, :5].sum(axis=1) % 2 == 1)


# --------------------------------------------------------------------------- Preprocessor
def onehot_width(ds: RealDataset, rows) -> int:
    """Σ categories (+1 for missing where present) + numeric + indicators, on ``rows``."""
    X = ds.X[rows]
    width = 0
    for j in range(X.shape[1]):
        has_nan = bool(np.isnan(X[:, j]).any())
        if ds.categorical[j]:
            width += len(np.unique(X[~np.isnan(X[:, j]), j])) + has_nan
        else:
            width += 1 + has_nan
    return width


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("encode", ["onehot", "codes"])
def test_preprocessor_output_has_no_nan_and_documented_width(name, encode):
    ds = load_real(name)
    pp = Preprocessor(encode).fit(
        ds.X, ds.categorical, feature_names=ds.feature_names, categories=ds.categories
    )
    Z = pp.transform(ds.X)
    assert Z.dtype == np.float64 and not np.isnan(Z).any()
    n_indicators = int((np.isnan(ds.X).any(axis=0) & ~ds.categorical).sum())
    if encode == "onehot":
        # On the full data every category occurs, so Σ categories = Σ len(categories[j]).
        expected = sum(
            len(ds.categories[j]) + bool(np.isnan(ds.X[:, j]).any())
            for j in np.flatnonzero(ds.categorical)
        )
        expected += int((~ds.categorical).sum()) + n_indicators
        assert Z.shape[1] == expected == onehot_width(ds, slice(None))
        assert set(np.unique(Z[:, pp.categorical_out]).tolist()) <= {0.0, 1.0}
        assert not pp.categorical_out.any()
    else:
        assert Z.shape[1] == ds.X.shape[1] + n_indicators
        assert int(pp.categorical_out.sum()) == int(ds.categorical.sum())
        codes = Z[:, pp.categorical_out]
        assert np.all(codes == np.floor(codes)) and np.all(codes >= 0)
        assert np.all(codes < pp.n_codes_[ds.categorical])
    assert len(pp.feature_names_out) == Z.shape[1] == len(pp.categorical_out)
    assert len(set(pp.feature_names_out)) == Z.shape[1]


@pytest.mark.parametrize("name", ["labor", "vote", "breast_cancer_ljubljana", "credit_g"])
@pytest.mark.parametrize("encode", ["onehot", "codes"])
def test_preprocessor_is_fold_safe(name, encode):
    ds = load_real(name)
    rng = np.random.default_rng(0)
    perm = rng.permutation(len(ds.y))
    train, test = np.sort(perm[: len(perm) // 2]), np.sort(perm[len(perm) // 2 :])
    pp = Preprocessor(encode).fit(ds.X[train], ds.categorical)

    # Medians and indicators come from the training rows only.
    for j in np.flatnonzero(~ds.categorical):
        col = ds.X[train, j]
        present = col[~np.isnan(col)]
        assert pp.medians_[j] == (np.median(present) if present.size else 0.0)
    np.testing.assert_array_equal(pp.has_missing_, np.isnan(ds.X[train]).any(axis=0))
    for j in np.flatnonzero(ds.categorical):
        col = ds.X[train, j]
        assert pp.levels_[j] == tuple(np.unique(col[~np.isnan(col)]).astype(int).tolist())
    if encode == "onehot":
        assert len(pp.feature_names_out) == onehot_width(ds, train)

    # transform is row-wise: rows encode the same whether or not other rows come along.
    Z_all = pp.transform(ds.X)
    np.testing.assert_array_equal(Z_all[train], pp.transform(ds.X[train]))
    np.testing.assert_array_equal(Z_all[test], pp.transform(ds.X[test]))
    assert not np.isnan(Z_all).any()

    # Changing the held-out rows' values does not change what is learnt from training.
    X_other = ds.X.copy()
    X_other[test] = X_other[test[::-1]]
    pp2 = Preprocessor(encode).fit(X_other[train], ds.categorical)
    np.testing.assert_array_equal(pp2.medians_, pp.medians_)
    assert pp2.feature_names_out == pp.feature_names_out


def test_numeric_missing_uses_training_median_and_indicator():
    X_train = np.array([[1.0], [2.0], [np.nan], [10.0]])
    pp = Preprocessor().fit(X_train, [False], feature_names=["v"])
    assert pp.feature_names_out == ("v", "v__missing")
    assert pp.medians_[0] == 2.0  # median of 1, 2, 10 (not of any test data)
    Z = pp.transform(np.array([[np.nan], [100.0], [-3.0]]))
    np.testing.assert_array_equal(Z, [[2.0, 1.0], [100.0, 0.0], [-3.0, 0.0]])

    # Different training fold, different median; no NaN in training -> no indicator.
    pp = Preprocessor().fit(np.array([[100.0], [200.0], [300.0]]), [False])
    assert pp.feature_names_out == ("x0",)
    np.testing.assert_array_equal(pp.transform(np.array([[np.nan], [5.0]])), [[200.0], [5.0]])

    # A numeric column missing everywhere in training: filled with 0, with an indicator.
    pp = Preprocessor().fit(np.array([[np.nan], [np.nan]]), [False])
    np.testing.assert_array_equal(pp.transform(np.array([[np.nan], [7.0]])), [[0, 1], [7, 0]])


def test_categorical_missing_and_unseen_categories():
    # Codes 0, 2 and missing seen in training; code 1 never seen.
    X_train = np.array([[0.0], [2.0], [np.nan], [2.0]])
    X_new = np.array([[0.0], [1.0], [2.0], [np.nan], [5.0]])

    oh = Preprocessor("onehot").fit(
        X_train, [True], feature_names=["c"], categories=[("a", "b", "z")]
    )
    assert oh.feature_names_out == ("c=a", "c=z", "c=missing")
    np.testing.assert_array_equal(
        oh.transform(X_new),
        [[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]],  # unseen -> all zero
    )

    co = Preprocessor("codes").fit(X_train, [True], feature_names=["c"])
    assert co.feature_names_out == ("c",) and co.categorical_out.tolist() == [True]
    assert co.n_codes_.tolist() == [3]  # a, z, missing
    np.testing.assert_array_equal(co.transform(X_new)[:, 0], [0, 3, 1, 2, 3])  # unseen -> 3

    # No missing value in training: a missing value later is treated like an unseen one.
    oh = Preprocessor("onehot").fit(np.array([[0.0], [1.0]]), [True])
    np.testing.assert_array_equal(oh.transform(np.array([[np.nan]])), [[0, 0]])
    co = Preprocessor("codes").fit(np.array([[0.0], [1.0]]), [True])
    np.testing.assert_array_equal(co.transform(np.array([[np.nan], [1.0]]))[:, 0], [2, 1])


def test_preprocessor_rejects_bad_input():
    with pytest.raises(ValueError, match="encode"):
        Preprocessor("ordinal")
    pp = Preprocessor()
    with pytest.raises(RuntimeError, match="not fitted"):
        pp.transform(np.zeros((1, 1)))
    with pytest.raises(RuntimeError, match="not fitted"):
        _ = pp.feature_names_out
    with pytest.raises(ValueError, match="one flag per column"):
        pp.fit(np.zeros((3, 2)), [True])
    with pytest.raises(ValueError, match="codes"):
        pp.fit(np.array([[0.5], [1.0]]), [True])
    with pytest.raises(ValueError, match="codes"):
        pp.fit(np.array([[-1.0], [1.0]]), [True])
    with pytest.raises(ValueError, match="infinite"):
        pp.fit(np.array([[np.inf], [1.0]]), [False])
    with pytest.raises(ValueError, match="zero training rows"):
        pp.fit(np.zeros((0, 2)), [False, False])
    pp.fit(np.zeros((3, 2)), [False, True])
    with pytest.raises(ValueError, match="columns"):
        pp.transform(np.zeros((3, 3)))


def test_fit_transform_equals_fit_then_transform():
    ds = load_real("labor")
    a = Preprocessor().fit_transform(ds.X, ds.categorical)
    b = Preprocessor().fit(ds.X, ds.categorical).transform(ds.X)
    np.testing.assert_array_equal(a, b)
