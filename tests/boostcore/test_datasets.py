"""Tests for boostcore.datasets: generators, the Dataset container and CSV upload."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore.csvdata import csv_template, dataset_to_csv, load_csv
from boostcore.datasets import (
    DATASET_DESCRIPTIONS,
    GENERATORS,
    Dataset,
    make_dataset,
)

NAMES = sorted(GENERATORS)


def all_points(ds: Dataset) -> tuple[np.ndarray, np.ndarray]:
    """Train and test rows together, sorted so that different splits compare equal."""
    X = np.vstack([ds.X_train, ds.X_test])
    y = np.concatenate([ds.y_train, ds.y_test])
    order = np.lexsort(X.T[::-1])
    return X[order], y[order]


# --------------------------------------------------------------------------- generators
def test_generator_names():
    assert set(GENERATORS) == {
        "moons",
        "circles",
        "blobs",
        "xor",
        "spirals",
        "checkerboard",
        "band",
        "stripes",
        "diagonal_xor",
    }
    assert set(DATASET_DESCRIPTIONS) == set(GENERATORS)
    assert all(d.strip().endswith(".") for d in DATASET_DESCRIPTIONS.values())


@pytest.mark.parametrize("name", NAMES)
def test_generator_shapes_dtypes_labels(name):
    ds = make_dataset(name, n=200, random_state=3)
    assert ds.name == name
    assert ds.description == DATASET_DESCRIPTIONS[name]
    assert ds.feature_names == ("x1", "x2")
    assert ds.class_names == ("-1", "+1")
    assert ds.X_train.shape == (150, 2) and ds.X_test.shape == (50, 2)
    assert ds.n_train == 150 and ds.n_test == 50
    for X, y in ((ds.X_train, ds.y_train), (ds.X_test, ds.y_test)):
        assert X.dtype == np.float64 and y.dtype == np.int64
        assert np.all(np.isfinite(X))
        assert set(np.unique(y)) == {-1, 1}
    # Comparable feature ranges, roughly [-1.5, 1.5] plus jitter.
    assert np.abs(ds.X_train).max() < 4


@pytest.mark.parametrize("name", NAMES)
def test_arrays_are_read_only(name):
    ds = make_dataset(name, n=40)
    for arr in (ds.X_train, ds.y_train, ds.X_test, ds.y_test):
        with pytest.raises(ValueError):
            arr[0] = 0
    with pytest.raises(AttributeError):  # frozen dataclass
        ds.name = "other"


def test_dataset_copies_its_input():
    X, y = np.zeros((2, 2)), np.array([-1, 1])
    ds = Dataset("d", "desc", X, y, np.empty((0, 2)), np.empty(0, dtype=np.int8))
    X[0, 0] = 5.0
    assert ds.X_train[0, 0] == 0.0
    assert X.flags.writeable  # the caller's array is left alone
    assert ds.X_test.shape == (0, 2) and ds.y_test.dtype == np.int64


def test_dataset_rejects_bad_labels_and_shapes():
    with pytest.raises(ValueError, match="-1 and \\+1"):
        Dataset("d", "", np.zeros((2, 2)), np.array([0, 1]), np.zeros((0, 2)), [])
    with pytest.raises(ValueError, match="X_train"):
        Dataset("d", "", np.zeros((2, 3)), np.array([-1, 1]), np.zeros((0, 2)), [])
    with pytest.raises(ValueError, match="y_test"):
        Dataset("d", "", np.zeros((2, 2)), [-1, 1], np.zeros((1, 2)), [])


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_given_seed(name):
    a, b = make_dataset(name, random_state=7), make_dataset(name, random_state=7)
    for field in ("X_train", "y_train", "X_test", "y_test"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    c = make_dataset(name, random_state=8)
    assert not np.array_equal(a.X_train, c.X_train)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("imbalance", [0.05, 0.2, 0.5, 0.73, 0.95])
def test_exact_class_balance(name, imbalance):
    ds = make_dataset(name, n=300, imbalance=imbalance)
    _, y = all_points(ds)
    assert np.sum(y == 1) == round(300 * imbalance)
    assert np.sum(y == -1) == 300 - round(300 * imbalance)


def test_tiny_class_is_clamped_to_two_points():
    _, y = all_points(make_dataset("moons", n=10, imbalance=0.05))
    assert np.sum(y == 1) == 2


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("label_noise", [0.0, 0.1, 0.37, 0.5])
def test_label_noise_flips_exact_count(name, label_noise):
    clean = make_dataset(name, n=250, random_state=5)
    noisy = make_dataset(name, n=250, random_state=5, label_noise=label_noise)
    X_clean, y_clean = all_points(clean)
    X_noisy, y_noisy = all_points(noisy)
    # Label noise uses its own random stream, so the positions are unchanged.
    np.testing.assert_array_equal(X_clean, X_noisy)
    assert np.sum(y_clean != y_noisy) == round(250 * label_noise)


def test_label_noise_never_removes_a_class():
    # 2 positives and 5 flips: some seeds would flip both positives and no negative.
    for seed in range(60):
        ds = make_dataset("blobs", n=10, imbalance=0.05, label_noise=0.5, random_state=seed)
        assert set(ds.y_train) == {-1, 1}


@pytest.mark.parametrize("n,test_fraction", [(400, 0.25), (101, 0.3), (50, 0.0), (1000, 0.9)])
def test_test_fraction_sizes(n, test_fraction):
    ds = make_dataset("circles", n=n, test_fraction=test_fraction)
    assert ds.n_test == round(n * test_fraction)
    assert ds.n_train + ds.n_test == n
    assert set(ds.y_train) == {-1, 1}
    if test_fraction == 0:
        assert ds.X_test.shape == (0, 2) and ds.y_test.shape == (0,)


def test_split_keeps_both_classes_in_training_at_extremes():
    ds = make_dataset("moons", n=10, test_fraction=0.9, imbalance=0.05)
    assert ds.n_train == 2 and ds.n_test == 8  # capped so training keeps two points
    assert set(ds.y_train) == {-1, 1}


def test_split_is_stratified():
    ds = make_dataset("moons", n=1000, imbalance=0.2, test_fraction=0.5)
    assert np.sum(ds.y_test == 1) == 100


@pytest.mark.parametrize("name", NAMES)
def test_pickle_round_trip(name):
    ds = make_dataset(name, n=60)
    back = pickle.loads(pickle.dumps(ds))
    assert isinstance(back, Dataset)
    assert (back.name, back.description, back.feature_names, back.class_names) == (
        ds.name,
        ds.description,
        ds.feature_names,
        ds.class_names,
    )
    for field in ("X_train", "y_train", "X_test", "y_test"):
        np.testing.assert_array_equal(getattr(back, field), getattr(ds, field))
        assert not getattr(back, field).flags.writeable


@pytest.mark.parametrize(
    "kwargs,param",
    [
        ({"n": 5}, "n"),
        ({"n": 50_001}, "n"),
        ({"n": 100.0}, "n"),
        ({"n": True}, "n"),
        ({"n": "400"}, "n"),
        ({"noise": -0.1}, "noise"),
        ({"noise": 2.5}, "noise"),
        ({"noise": float("nan")}, "noise"),
        ({"noise": "0.2"}, "noise"),
        ({"imbalance": 0.0}, "imbalance"),
        ({"imbalance": 0.99}, "imbalance"),
        ({"imbalance": 0.01}, "imbalance"),
        ({"label_noise": -0.01}, "label_noise"),
        ({"label_noise": 0.6}, "label_noise"),
        ({"random_state": -1}, "random_state"),
        ({"random_state": 1.5}, "random_state"),
        ({"random_state": "3"}, "random_state"),
        ({"random_state": np.random.RandomState(0)}, "random_state"),
        ({"test_fraction": -0.1}, "test_fraction"),
        ({"test_fraction": 0.95}, "test_fraction"),
    ],
)
def test_invalid_parameters(kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param} must be .*; got "):
        make_dataset("moons", **kwargs)


def test_error_message_format():
    with pytest.raises(ValueError) as err:
        make_dataset("moons", n=5)
    assert str(err.value) == "n must be an integer between 10 and 50000; got 5"


def test_numpy_scalars_accepted():
    ds = make_dataset("xor", n=np.int64(40), noise=np.float32(0.1), random_state=np.int32(2))
    assert ds.n_train + ds.n_test == 40


def test_unknown_name_lists_known_names():
    with pytest.raises(ValueError, match="name") as err:
        make_dataset("banana")
    for name in GENERATORS:
        assert name in str(err.value)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    n=st.integers(10, 2000),
    noise=st.floats(0, 2),
    imbalance=st.floats(0.05, 0.95),
    label_noise=st.floats(0, 0.5),
    seed=st.integers(0, 2**32),
    test_fraction=st.floats(0, 0.9),
)
def test_property_sizes_and_classes(name, n, noise, imbalance, label_noise, seed, test_fraction):
    ds = make_dataset(
        name,
        n=n,
        noise=noise,
        imbalance=imbalance,
        label_noise=label_noise,
        random_state=seed,
        test_fraction=test_fraction,
    )
    assert ds.n_train + ds.n_test == n
    assert set(np.unique(ds.y_train)) == {-1, 1}
    assert ds.X_train.shape == (ds.n_train, 2) and ds.X_test.shape == (ds.n_test, 2)
    assert np.all(np.isfinite(ds.X_train)) and np.all(np.isfinite(ds.X_test))


# --------------------------------------------------------------------------- CSV
GOOD = "a,b,outcome\n0.5,1,yes\n-1,2.5,no\n3,0,yes\n1e-1,-2,no\n4,4,no\n"


def test_load_csv_str_and_bytes_agree():
    from_str = load_csv(GOOD)
    from_bytes = load_csv(GOOD.encode("utf-8"))
    from_bom = load_csv(b"\xef\xbb\xbf" + GOOD.encode("utf-8"))
    for ds in (from_str, from_bytes, from_bom):
        assert ds.feature_names == ("a", "b")
        assert ds.class_names == ("no", "yes")
        assert ds.n_train + ds.n_test == 5
        X, y = all_points(ds)
        np.testing.assert_array_equal(X, all_points(from_str)[0])
        assert np.sum(y == 1) == 2
    assert from_str.name == "uploaded"
    assert from_str.description == (
        "Uploaded CSV: 5 rows, features 'a' and 'b', classes 'no' (\u22121) and 'yes' (+1)."
    )


def test_load_csv_label_values_follow_rows():
    ds = load_csv(GOOD, test_fraction=0)
    X, y = all_points(ds)
    expected = {(0.5, 1.0): 1, (-1.0, 2.5): -1, (3.0, 0.0): 1, (0.1, -2.0): -1, (4.0, 4.0): -1}
    got = {tuple(row): label for row, label in zip(X.tolist(), y.tolist(), strict=True)}
    assert got == expected


def test_load_csv_named_label_column_in_the_middle():
    text = "x1,Class,x2\n1,cat,2\n3,dog,4\n5,cat,6\n7,dog,8\n"
    ds = load_csv(text, test_fraction=0, name="pets")
    assert ds.name == "pets"
    assert ds.feature_names == ("x1", "x2")
    assert ds.class_names == ("cat", "dog")
    X, y = all_points(ds)
    np.testing.assert_array_equal(X, [[1, 2], [3, 4], [5, 6], [7, 8]])
    np.testing.assert_array_equal(y, [-1, 1, -1, 1])


def test_load_csv_label_priority_over_y_feature():
    ds = load_csv("x,y,label\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n")
    assert ds.feature_names == ("x", "y")


@pytest.mark.parametrize(
    "labels,expected",
    [
        (("0", "1"), ("0", "1")),
        (("1", "0"), ("0", "1")),
        (("+1", "-1"), ("-1", "+1")),
        (("10", "9"), ("9", "10")),  # numeric, not text, order
        (("yes", "no"), ("no", "yes")),
    ],
)
def test_label_mapping(labels, expected):
    first, second = labels
    rows = "".join(f"{i},{i},{lab}\n" for i, lab in enumerate([first, second] * 3))
    ds = load_csv("u,v,t\n" + rows, test_fraction=0)
    assert ds.class_names == expected
    X, y = all_points(ds)
    for value, label in zip(X[:, 0].tolist(), y.tolist(), strict=True):
        original = [first, second][int(value) % 2]
        assert ds.class_names[label > 0] == original


def test_load_csv_tolerates_whitespace_crlf_and_blank_lines():
    text = " x1 , x2 , label \r\n 1 , 2 , a \r\n\r\n3,4,b\r\n5,6, a\r\n7,8,b \r\n\r\n"
    ds = load_csv(text, test_fraction=0)
    assert ds.feature_names == ("x1", "x2") and ds.class_names == ("a", "b")
    assert ds.n_train == 4


def test_load_csv_split_and_seed():
    text = "x1,x2,label\n" + "".join(f"{i},{i % 7},{i % 2}\n" for i in range(100))
    ds = load_csv(text, test_fraction=0.3, random_state=4)
    assert (ds.n_train, ds.n_test) == (70, 30)
    assert set(ds.y_train) == {-1, 1}
    again = load_csv(text, test_fraction=0.3, random_state=4)
    np.testing.assert_array_equal(ds.X_train, again.X_train)


@pytest.mark.parametrize(
    "data,phrase",
    [
        ("é,b,label\n1,2,a\n".encode("latin-1"), "not UTF-8"),
        (b"", "empty"),
        ("   \n\n  \t\n", "empty"),
        (
            "a,b,c,d\n1,2,3,x\n",
            "Expected 3 columns (two numeric features and one label), found 4: a, b, c, d",
        ),
        ("a,label\n1,x\n", "found 2"),
        ("a;b;label\n1;2;x\n", "separated by ';'"),
        ("1,2,0\n3,4,1\n", "header row is required"),
        ("x1,,label\n1,2,a\n", "Column 2 has no name"),
        ("x1,x1,label\n1,2,a\n", "distinct"),
        ("x1,x2,label\n", "header but no data rows"),
        ("x1,x2,label\n1,2,a\n3,4,b,5\n", "Line 3 has 4 fields"),
        ("x1,x2,label\n1,2,a\n3,4\n", "Line 3 has 2 fields"),
        ("x1,x2,label\n1,2,a\n3,4,b\n\n5,,a\n", "Line 5, column 'x2' is empty: missing values"),
        ("x1,x2,label\n1,2,a\nNA,4,b\n", "Line 3, column 'x1' holds the missing-value marker 'NA'"),
        ("x1,x2,label\n1,2,a\n3,?,b\n", "missing-value marker '?'"),
        ("x1,x2,label\n1,2,a\n3,nan,b\n", "missing-value marker 'nan'"),
        ("x1,x2,label\n1,2,a\n3,NaN,b\n", "missing-value marker 'NaN'"),
        ("x1,x2,label\n1,2,\n3,4,b\n", "column 'label' is empty"),
        ("x1,x2,label\n1,2,a\n3,four,b\n", "Line 3, column 'x2' contains the text 'four'"),
        ('x1,x2,label\n1,2,a\n"3,5",4,b\n', "decimal separator"),
        ("x1,x2,label\n1,inf,a\n3,4,b\n", "finite"),
        ("x1,x2,label\n1,-Infinity,a\n3,4,b\n", "finite"),
        (
            "x1,x2,label\n1,2,a\n3,4,a\n",
            "Only one class ('a') found: the algorithms need two classes",
        ),
        ("x1,x2,label\n1,2,a\n3,4,b\n5,6,c\n", "binary"),
        ("x1,x2,label\n1,2,a\n3,4,a\n5,6,b\n", "Class 'b' has only 1 row"),
        ('x1,x2,label\n1,2,"a\n', "not valid CSV"),
    ],
)
def test_load_csv_rejects_bad_files(data, phrase):
    with pytest.raises(ValueError) as err:
        load_csv(data)
    assert phrase in str(err.value)


def test_load_csv_lists_several_labels():
    text = "x1,x2,label\n" + "".join(f"{i},{i},c{i}\n" for i in range(8))
    with pytest.raises(ValueError) as err:
        load_csv(text)
    message = str(err.value)
    assert "Found 8 different labels" in message and "'c0'" in message and "..." in message


def test_load_csv_max_rows():
    text = "x1,x2,label\n" + "".join(f"{i},{i},{i % 2}\n" for i in range(12))
    assert load_csv(text, max_rows=12).n_train + load_csv(text, max_rows=12).n_test == 12
    with pytest.raises(ValueError, match="more than 10 data rows; at most 10"):
        load_csv(text, max_rows=10)


@pytest.mark.parametrize(
    "kwargs,param",
    [
        ({"test_fraction": 1.0}, "test_fraction"),
        ({"random_state": -3}, "random_state"),
        ({"max_rows": 0}, "max_rows"),
        ({"name": 3}, "name"),
    ],
)
def test_load_csv_invalid_parameters(kwargs, param):
    with pytest.raises(ValueError, match=param):
        load_csv(GOOD, **kwargs)


def test_load_csv_rejects_other_types():
    with pytest.raises(ValueError, match="bytes or str"):
        load_csv(123)


def test_csv_template_loads():
    text = csv_template()
    assert text.splitlines()[0] == "x1,x2,label"
    ds = load_csv(text)
    assert ds.class_names == ("-1", "+1")
    assert ds.n_train + ds.n_test == len(text.splitlines()) - 1


@pytest.mark.parametrize("name", NAMES)
def test_dataset_to_csv_round_trip(name):
    ds = make_dataset(name, n=80, label_noise=0.1, random_state=2)
    back = load_csv(dataset_to_csv(ds), name=name)
    assert back.feature_names == ds.feature_names and back.class_names == ds.class_names
    X, y = all_points(ds)
    X_back, y_back = all_points(back)
    np.testing.assert_array_equal(X_back, X)  # repr() round-trips floats exactly
    np.testing.assert_array_equal(y_back, y)


def test_dataset_to_csv_round_trip_of_uploaded_text_labels():
    ds = load_csv("x1,Class,x2\n1,cat,2\n3,dog,4\n5,cat,6\n7,dog,8\n")
    text = dataset_to_csv(ds)
    assert text.splitlines()[0] == "x1,x2,label"
    back = load_csv(text)
    assert back.class_names == ("cat", "dog")
    np.testing.assert_array_equal(all_points(back)[1], all_points(ds)[1])


@pytest.mark.parametrize(
    "names, labels",
    [
        (['=HYPERLINK("http://x")', "@SUM(1)"], ["+cmd", "-x"]),
        (["+a", "-b"], ["=1+1", "dog"]),
        (["x1", "x2"], ["-1", "+1"]),
    ],
)
def test_dataset_to_csv_writes_no_formula_and_reads_back_the_same(names, labels):
    """A feature name or label from an uploaded file that a spreadsheet would run as a
    formula is written with a leading ' (issue 40, item 10: dataset_to_csv wrote "=", "+",
    "@" cells raw); numbers (the labels -1, +1) are not formulas and stay as they are; and
    load_csv reads the file back to the same dataset."""
    import csv
    import io

    rows = [[0.0, 0.0, labels[0]], [0.0, 1.0, labels[1]], [1.0, 0.0, labels[0]], [1, 1, labels[1]]]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([[*names, "label"], *rows])
    ds = load_csv(buf.getvalue(), test_fraction=0.0)
    out = dataset_to_csv(ds)
    for row in csv.reader(io.StringIO(out)):
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                float(cell)  # only a number may start so
    back = load_csv(out, test_fraction=0.0)
    assert back.feature_names == ds.feature_names == tuple(names)
    assert back.class_names == ds.class_names

    def points(d):  # the rows, in any order (load_csv shuffles them)
        return sorted(zip(map(tuple, d.X_train.tolist()), d.y_train.tolist()))

    assert points(back) == points(ds)
