"""Your own data: points given directly (``from_points``), drawn points in the URL
(``ui.draw``), and CSV uploads that leave bad rows out and report them (``load_csv_report``)."""

from __future__ import annotations

import functools

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from boostcore.csvdata import CsvReport, load_csv, load_csv_report
from boostcore.datasets import MAX_ROWS, from_points, make_dataset
from tests import apptest_helpers as ah
from ui import draw, pages

SQUARE = [[0, 0], [1, 0], [0, 1], [1, 1]]


def _captions(at) -> list[str]:
    """Captions on the page, with the lecture stepper's (which names the data's size)."""
    from tests import lecture_helpers as lh

    out = [c.value for c in at.caption]
    comps = lh.components(at)
    if "round_ctl" in comps:
        out.append(comps["round_ctl"].get("caption", ""))
    return out


def all_points(ds):
    X = np.vstack([ds.X_train, ds.X_test])
    y = np.concatenate([ds.y_train, ds.y_test])
    order = np.lexsort(X.T[::-1])
    return X[order], y[order]


# --------------------------------------------------------------------------- from_points
@pytest.mark.parametrize(
    "labels, names, signs",
    [
        ([-1, -1, 1, 1], ("-1", "+1"), [-1, -1, 1, 1]),
        ([0, 0, 1, 1], ("0", "1"), [-1, -1, 1, 1]),
        ([0.0, 0.0, 1.0, 1.0], ("0", "1"), [-1, -1, 1, 1]),
        ([2.5, 2.5, 7, 7], ("2.5", "7"), [-1, -1, 1, 1]),
        ([10, 10, 9, 9], ("9", "10"), [1, 1, -1, -1]),
        (["no", "no", "yes", "yes"], ("no", "yes"), [-1, -1, 1, 1]),
        (["10", "10", "9", "9"], ("9", "10"), [1, 1, -1, -1]),  # numeric order, like load_csv
        (["1", "1.0", "02", " 2 "], ("1", "02"), [-1, -1, 1, 1]),  # one class per number
        ([1, "1.0", 2, "2.0"], ("1", "2"), [-1, -1, 1, 1]),  # mixed objects: same rule
        ([" a", "a ", "b", "b"], ("a", "b"), [-1, -1, 1, 1]),  # text stripped
        ([False, False, True, True], ("False", "True"), [-1, -1, 1, 1]),
    ],
)
def test_from_points_maps_any_two_labels(labels, names, signs):
    ds = from_points(SQUARE, labels)
    assert ds.class_names == names
    assert ds.name == "drawn" and ds.feature_names == ("x1", "x2")
    assert (ds.n_train, ds.n_test) == (4, 0)  # test_fraction defaults to 0
    X, y = all_points(ds)
    got = {tuple(p): c for p, c in zip(X.tolist(), y.tolist(), strict=True)}
    assert got == {tuple(map(float, p)): c for p, c in zip(SQUARE, signs, strict=True)}


def test_from_points_split_seed_and_read_only():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (40, 2))
    y = np.r_[np.ones(30), -np.ones(10)]
    ds = from_points(X, y, test_fraction=0.25, random_state=3, name="mine")
    assert ds.name == "mine" and (ds.n_train, ds.n_test) == (30, 10)
    assert np.sum(ds.y_test == -1) in (2, 3)  # stratified: a quarter of each class
    again = from_points(X, y, test_fraction=0.25, random_state=3)
    np.testing.assert_array_equal(ds.X_train, again.X_train)
    with pytest.raises(ValueError):
        ds.X_train[0, 0] = 1.0
    assert "40 in all, 10 of class '-1'" in ds.description


def test_from_points_training_keeps_both_classes():
    ds = from_points(SQUARE, [1, -1, 1, -1], test_fraction=0.9)
    assert set(ds.y_train.tolist()) == {-1, 1}


@pytest.mark.parametrize(
    "X, y, kwargs, phrase",
    [
        ([0, 1, 2, 3], [1, 1, -1, -1], {}, "X must have shape (m, 2)"),
        ([[0, 0, 0]] * 4, [1, 1, -1, -1], {}, "got shape (4, 3)"),
        ([["a", "b"]] * 4, [1, 1, -1, -1], {}, "X must be an array of numbers"),
        ([[0, np.nan], [1, 1], [2, 2], [3, 3]], [1, 1, -1, -1], {}, "X must hold finite numbers"),
        ([[0, np.inf], [1, 1], [2, 2], [3, 3]], [1, 1, -1, -1], {}, "in row 0"),
        ([[0, 0], [1, 1], [2, 1e39], [3, 3]], [1, 1, -1, -1], {}, "float32's range); got"),
        (SQUARE, ["1", "1.0", "01", " 1 "], {}, "exactly two distinct labels"),
        (SQUARE, [1, 1, -1], {}, "y must be 1-D with one label per row of X (4); got shape (3,)"),
        (
            SQUARE,
            [1, 1, 1, 1],
            {},
            "exactly two distinct labels (the algorithms are binary); got 1",
        ),
        (SQUARE, ["a", "b", "c", "a"], {}, "got 3: 'a', 'b', 'c'"),
        (SQUARE, [1.0, np.nan, 0.0, 0.0], {}, "y must not contain NaN"),
        (SQUARE, [1, -1, -1, -1], {}, "at least 2 points of each class; class '+1' has 1"),
        (SQUARE, [1, 1, -1, -1], {"test_fraction": 0.95}, "test_fraction must be a number between"),
        (
            SQUARE,
            [1, 1, -1, -1],
            {"random_state": -1},
            "random_state must be None, an int ≥ 0 or a numpy.random.Generator; got -1",
        ),
        (SQUARE, [1, 1, -1, -1], {"name": 7}, "name must be a string; got 7"),
    ],
)
def test_from_points_rejects_bad_input_naming_the_parameter(X, y, kwargs, phrase):
    with pytest.raises(ValueError) as err:
        from_points(X, y, **kwargs)
    assert phrase in str(err.value)


def test_from_points_row_limit():
    X = np.zeros((MAX_ROWS + 1, 2))
    y = np.r_[np.ones(2), -np.ones(MAX_ROWS - 1)]
    with pytest.raises(ValueError, match=f"at most {MAX_ROWS} rows; got {MAX_ROWS + 1}"):
        from_points(X, y)


@settings(max_examples=60, deadline=None)
@given(
    n_neg=st.integers(2, 30),
    n_pos=st.integers(2, 30),
    test_fraction=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.9]),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_from_points_keeps_every_point_with_its_class(n_neg, n_pos, test_fraction, seed, data):
    coords = st.floats(-5, 5, allow_nan=False, allow_infinity=False)
    X = np.array(
        data.draw(
            st.lists(st.tuples(coords, coords), min_size=n_neg + n_pos, max_size=n_neg + n_pos)
        )
    )
    labels = np.array(["b"] * n_pos + ["a"] * n_neg)
    data.draw(st.randoms()).shuffle(order := list(range(len(labels))))
    X, labels = X[order], labels[order]
    ds = from_points(X, labels, test_fraction=test_fraction, random_state=seed)
    assert ds.class_names == ("a", "b")
    assert ds.n_train + ds.n_test == n_neg + n_pos
    assert ds.n_test == min(round((n_neg + n_pos) * test_fraction), n_neg + n_pos - 2)
    assert set(ds.y_train.tolist()) == {-1, 1}
    got = sorted(
        zip(
            map(tuple, np.vstack([ds.X_train, ds.X_test]).tolist()),
            np.concatenate([ds.y_train, ds.y_test]).tolist(),
        )
    )
    want = sorted(zip(map(tuple, X.tolist()), np.where(labels == "b", 1, -1).tolist()))
    assert got == want


# --------------------------------------------------------------------------- CSV report
GOOD_ROWS = ["1,2,a", "3,4,b", "5,6,a", "7,8,b"]


def test_report_of_a_clean_file_is_empty():
    ds, report = load_csv_report("x1,x2,label\n" + "\n".join(GOOD_ROWS) + "\n")
    assert report == CsvReport(4, 4, ())
    assert report.n_rejected == 0 and report.summary() == ""
    assert ds.n_train + ds.n_test == 4


def test_bad_rows_are_left_out_and_reported_by_reason_and_line():
    text = (
        "\n".join(
            [
                "x1,x2,label",  # line 1
                "1,2,a",  # 2
                "3,,b",  # 3: empty
                "5,6,a",  # 4
                "7,four,b",  # 5: not a number
                "",  # 6: blank, ignored
                "9,10",  # 7: two fields
                "11,12,b",  # 8
                "13,NA,a",  # 9: missing marker
                '"3,5",1,b',  # 10: decimal comma
                "15,inf,a",  # 11: not finite
                "17,18,b",  # 12
                "19,20,?",  # 13: label missing
            ]
        )
        + "\n"
    )
    ds, report = load_csv_report(text, test_fraction=0)
    assert (report.n_rows, report.n_loaded, report.n_rejected) == (11, 4, 7)
    by_reason = {r.reason: r for r in report.rejections}
    assert by_reason["x2 is missing"].count == 2
    assert by_reason["x2 is missing"].examples == ((3, "empty"), (9, "'NA'"))
    assert by_reason["x2 is not a number"].examples == ((5, "'four'"),)
    assert by_reason["x1 is not a number"].examples == (
        (10, "'3,5': use a dot as the decimal separator"),
    )
    assert by_reason["x2 is not a finite number"].examples == ((11, "'inf'"),)
    assert by_reason["wrong number of fields (the header has 3)"].examples == ((7, "2 fields"),)
    assert by_reason["label is missing"].examples == ((13, "'?'"),)
    summary = report.summary()
    assert summary.startswith("7 rows rejected — x2 is missing: lines 3 (empty), 9 ('NA');")
    assert "x2 is not a number: line 5 ('four')" in summary
    # the kept rows are exactly the good ones, and the strict loader agrees on them
    clean = "x1,x2,label\n1,2,a\n5,6,a\n11,12,b\n17,18,b\n"
    np.testing.assert_array_equal(all_points(ds)[0], all_points(load_csv(clean))[0])
    assert ds.n_train == 4 and "Uploaded CSV: 4 of 11 rows (7 rejected)" in ds.description
    # the strict loader still rejects the whole file at the first bad row
    with pytest.raises(ValueError, match="Line 3, column 'x2' is empty"):
        load_csv(text)


def test_report_lists_the_first_three_lines_of_a_reason_and_counts_the_rest():
    text = "x1,x2,label\n" + "\n".join(GOOD_ROWS) + "\n" + "9,,a\n" * 10
    _, report = load_csv_report(text)
    (rejection,) = report.rejections
    assert rejection.count == 10 and [line for line, _ in rejection.examples] == [6, 7, 8]
    assert report.summary() == (
        "10 rows rejected — x2 is missing: lines 6 (empty), 7 (empty), 8 (empty) and 7 more"
    )


@pytest.mark.parametrize(
    "data, phrase",
    [
        ("é,b,label\n1,2,a\n".encode("latin-1"), "not UTF-8"),
        (b"", "empty"),
        ("a,b,c,d\n1,2,3,x\n", "Expected 3 columns"),
        ("1,2,0\n3,4,1\n", "header row is required"),
        ("x1,x2,label\n", "header but no data rows"),
        ("x1,x2,label\n1,2,a\n3,4,b\n5,6,c\n7,8,a\n9,9,b\n", "binary"),
        ('x1,x2,label\n1,2,"a\n', "not valid CSV"),
    ],
)
def test_file_level_problems_stay_errors(data, phrase):
    with pytest.raises(ValueError, match=phrase):
        load_csv_report(data)


def test_too_many_rows_is_a_file_error():
    text = "x1,x2,label\n" + "".join(f"{i},{i},{i % 2}\n" for i in range(12))
    with pytest.raises(ValueError, match="more than 10 data rows; at most 10"):
        load_csv_report(text, max_rows=10)


@pytest.mark.parametrize(
    "text, phrase",
    [
        (
            "x1,x2,label\n1,,a\n3,x,b\n",
            "No usable rows: all 2 data rows were rejected. 2 of the 2 "
            "data rows were left out — x2 is missing: line 2 (empty); "
            "x2 is not a number: line 3 ('x').",
        ),
        (
            "x1,x2,label\n1,2,a\n3,,b\n5,6,a\n7,8,b\n",
            "Class 'b' has only 1 row: at least 2 rows of "
            "each class are needed. 1 of the 4 data rows "
            "was left out — x2 is missing: line 3 (empty).",
        ),
        ("x1,x2,label\n1,2,a\n3,4,a\n5,?,b\n", "Only one class ('a') found"),
    ],
)
def test_too_few_usable_rows_is_an_error_that_lists_the_rejected_rows(text, phrase):
    with pytest.raises(ValueError) as err:
        load_csv_report(text)
    assert phrase in str(err.value)


@settings(max_examples=60, deadline=None)
@given(
    good=st.lists(
        st.tuples(st.integers(-99, 99), st.integers(-99, 99), st.sampled_from("ab")),
        min_size=4,
        max_size=30,
    ).filter(lambda rows: min(sum(r[2] == c for r in rows) for c in "ab") >= 2),
    bad=st.lists(
        st.sampled_from(["1,,a", "x,2,b", "3,4", "5,6,b,7", "nan,1,a", "2,inf,b", "4,5,"]),
        max_size=12,
    ),
    data=st.data(),
)
def test_report_counts_every_bad_row_and_keeps_every_good_one(good, bad, data):
    rows = [f"{a},{b},{c}" for a, b, c in good] + list(bad)
    data.draw(st.randoms()).shuffle(rows)
    ds, report = load_csv_report("x1,x2,label\n" + "\n".join(rows) + "\n", test_fraction=0)
    assert (report.n_rows, report.n_loaded, report.n_rejected) == (len(rows), len(good), len(bad))
    assert sum(r.count for r in report.rejections) == len(bad)
    lines = [line for r in report.rejections for line, _ in r.examples]
    bad_lines = [
        i + 2
        for i, row in enumerate(rows)
        if row in bad and row not in {f"{a},{b},{c}" for a, b, c in good}
    ]
    assert set(lines) <= set(bad_lines) and len(set(lines)) == len(lines)
    X, y = all_points(ds)
    want = sorted((float(a), float(b), 1 if c == "b" else -1) for a, b, c in good)
    assert sorted(zip(X[:, 0].tolist(), X[:, 1].tolist(), y.tolist())) == want


# --------------------------------------------------------------------------- drawing helpers
point = st.tuples(
    st.integers(0, draw.LEVELS - 1), st.integers(0, draw.LEVELS - 1), st.sampled_from([-1, 1])
)


@settings(max_examples=100, deadline=None)
@given(st.lists(point, max_size=draw.MAX_POINTS))
def test_encode_decode_round_trip(points):
    code = draw.encode_points(points)
    assert len(code) == 3 * len(points)
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert draw.decode_points(code) == (points, None)


@pytest.mark.parametrize(
    "suffix, phrase",
    [
        ("Ab", "ends with 2 stray character(s) 'Ab'"),
        ("A!A", "point 3 ('A!A') contains '!'"),
        ("___", "point 3 ('___') lies outside the canvas"),
    ],
)
def test_damaged_link_keeps_the_points_before_the_damage(suffix, phrase):
    good = [(0, 0, -1), (320, 320, 1)]
    points, message = draw.decode_points(draw.encode_points(good) + suffix)
    assert points == good
    assert phrase in message and "the first 2 point(s) were kept" in message


def test_link_with_too_many_points_keeps_the_first_ones():
    many = [(i % draw.LEVELS, i // draw.LEVELS, 1) for i in range(draw.MAX_POINTS + 5)]
    points, message = draw.decode_points(draw.encode_points(many))
    assert points == many[: draw.MAX_POINTS]
    assert f"405 points, more than the {draw.MAX_POINTS} allowed" in message


def test_garbage_link_starts_empty():
    points, message = draw.decode_points("%%%")
    assert points == [] and "the drawing starts empty" in message


def test_levels_and_coordinates():
    assert draw.to_level(-2) == 0 and draw.to_level(2) == draw.LEVELS - 1
    assert draw.to_level(9.0) == draw.LEVELS - 1 and draw.to_level(-9.0) == 0  # clipped
    assert draw.to_coord(draw.to_level(0.35)) == 0.35
    X, y = draw.points_xy([(80, 240, -1), (200, 160, 1)])
    assert X.tolist() == [[-1.0, 1.0], [0.5, 0.0]] and y.tolist() == [-1, 1]


def test_problem_says_what_is_missing():
    assert "Add 2 more of class −1 and 2 more of class +1" in draw.problem([])
    assert "Add 1 more of class +1." in draw.problem([(0, 0, -1), (1, 1, -1), (2, 2, 1)])
    assert draw.problem([(0, 0, -1), (1, 1, -1), (2, 2, 1), (3, 3, 1)]) is None


def test_drawn_dataset_and_key():
    points = [(0, 0, -1), (10, 0, -1), (300, 300, 1), (310, 300, 1), (310, 300, 1)]
    ds = draw.dataset(points, 0.0, 0)
    assert ds.class_names == ("-1", "+1") and ds.n_train == 5
    assert draw.points_key(points) == draw.points_key(list(points))
    assert draw.points_key(points) != draw.points_key(points[:-1])
    with pytest.raises(ValueError, match="at least 2 points of each class"):
        draw.dataset(points[:3], 0.0, 0)


def test_start_from_a_generated_dataset():
    ds = make_dataset("blobs", n=600, noise=1.0, random_state=1)
    points, message = draw.from_dataset(ds, seed=1)
    assert len(points) == draw.MAX_POINTS
    assert "outside the canvas" in message and "beyond the limit of 400 points" in message
    small = make_dataset("moons", n=100, noise=0.0)
    points, message = draw.from_dataset(small)
    assert len(points) == 100 and message == "Took 100 points from the generated dataset."
    X, y = draw.points_xy(points)
    assert np.abs(X - np.vstack([small.X_train, small.X_test])).max() <= 0.5 / draw.QUANT
    assert y.tolist() == np.concatenate([small.y_train, small.y_test]).tolist()


def test_canvas_figure_is_valid_plotly_with_a_dense_clickable_grid():
    fig = draw.canvas_figure([(0, 0, -1), (320, 320, 1)])
    go.Figure(fig.to_dict())  # full plotly validation
    grid = fig.data[0]
    assert len(grid.x) == 81 * 81 and grid.hoverinfo == "none"
    assert min(grid.x) == -2.0 and max(grid.x) == 2.0
    assert list(fig.data[1].x) == [-2.0] and list(fig.data[2].y) == [2.0]


# --------------------------------------------------------------------------- AppTest
def _upload_app(data: bytes) -> None:
    from ui.widgets import dataset_from_upload

    dataset_from_upload(data, "students.csv")


def test_upload_with_bad_rows_warns_with_the_lines_and_loads_the_rest() -> None:
    data = b"x1,x2,label\n1,2,a\n3,,b\n5,6,a\n7,eight,b\n9,10,b\n11,12,a\n13,14,b\n"
    at = AppTest.from_function(_upload_app, args=(data,), default_timeout=ah.TIMEOUT).run()
    ah.ok(at)
    assert not at.error
    (warning,) = at.sidebar.warning
    assert warning.value.startswith("Loaded 5 rows of students.csv (")
    assert (
        "2 rows rejected — x2 is missing: line 3 (empty); x2 is not a number: line 5 ('eight')"
    ) in warning.value


def test_upload_with_too_few_good_rows_is_one_error_listing_them() -> None:
    data = b"x1,x2,label\n1,2,a\n3,,b\n5,6,a\n7,8,b\n"
    at = AppTest.from_function(_upload_app, args=(data,), default_timeout=ah.TIMEOUT).run()
    ah.ok(at)
    (error,) = at.error
    assert "Class 'b' has only 1 row" in error.value and "line 3 (empty)" in error.value


def test_clean_upload_says_loaded() -> None:
    data = b"x1,x2,label\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n"
    at = AppTest.from_function(_upload_app, args=(data,), default_timeout=ah.TIMEOUT).run()
    assert not at.exception and not at.warning
    assert at.sidebar.success[0].value.startswith("Loaded students.csv:")


_page = functools.partial(ah.page, "topdown")


DRAWN = [(80, 240, -1), (40, 120, -1), (120, 160, -1), (240, 80, 1), (280, 200, 1)]


def test_drawn_dataset_from_the_link_runs_the_page() -> None:
    code = draw.encode_points(DRAWN)
    at = _page(src="Draw", pts=code)
    ah.ok(at)
    assert at.segmented_control(key="src").value == "Draw"
    assert any("5 training and 0 test points" in c for c in _captions(at))
    assert any("The demo below runs on your 5 points" in s.value for s in at.success)
    labels = [e.label for e in at.expander]
    assert "Draw your points — 3 of class −1, 2 of class +1" in labels
    assert at.query_params["pts"] == code  # the link keeps the drawing
    from tests import lecture_helpers as lh

    lh.step_to(at, lh.stepper(at)["hi"])
    ah.ok(at)


def test_drawn_dataset_with_a_test_fraction() -> None:
    at = _page(src="Draw", pts=draw.encode_points(DRAWN * 4), ptest="0.25")
    ah.ok(at)
    assert any("15 training and 5 test points" in c for c in _captions(at))


def test_damaged_link_says_so_and_keeps_what_it_can() -> None:
    at = _page(src="Draw", pts=draw.encode_points(DRAWN) + "#!")
    ah.ok(at)
    assert any(
        "could not all be read" in i.value and "first 5 point(s) were kept" in i.value
        for i in at.info
    )
    assert any("5 training and 0 test points" in c for c in _captions(at))


def test_too_small_drawing_says_what_is_missing_and_shows_the_generated_data() -> None:
    at = _page(src="Draw", pts=draw.encode_points(DRAWN[:3]))
    ah.ok(at)
    assert any(
        "Too few points to run" in w.value and "Add 2 more of class +1" in w.value
        for w in at.warning
    )
    assert any("300 training and 100 test points" in c for c in _captions(at))


def test_start_from_generated_undo_and_clear() -> None:
    at = _page(src="Draw", n="100")
    ah.ok(at)
    at.button(key="draw_start").click().run()
    ah.ok(at)
    assert any("Took 100 points from the generated dataset" in i.value for i in at.info)
    assert len(draw.decode_points(at.query_params["pts"])[0]) == 100
    assert any("100 training and 0 test points" in c for c in _captions(at))
    at.button(key="draw_undo").click().run()  # undoes the whole start
    assert "pts" not in at.query_params
    at.button(key="draw_start").click().run()
    at.button(key="draw_clear").click().run()
    assert "pts" not in at.query_params
    assert at.button(key="draw_undo").label == "Undo Clear"
    at.button(key="draw_undo").click().run()  # undoes Clear
    assert len(draw.decode_points(at.query_params["pts"])[0]) == 100
    # another source: the points leave the link, and come back with Draw
    at.segmented_control(key="src").set_value("Generated").run()
    assert not at.exception and "pts" not in at.query_params
    at.segmented_control(key="src").set_value("Draw").run()
    assert len(draw.decode_points(at.query_params["pts"])[0]) == 100


def test_upload_source_says_the_file_is_not_in_the_link() -> None:
    at = _page(src="Upload CSV")
    ah.ok(at)
    assert any("not part of the page's link" in c.value for c in at.sidebar.caption)


#: The pages with the dataset sidebar (the registry's dataset parameters).
DATASET_PAGES = [p.slug for p in pages.PAGES if set(pages.DATASET_PARAMS) <= set(p.params)]


def test_the_dataset_pages_are_found() -> None:
    assert DATASET_PAGES and set(pages.LESSON_SLUGS) <= set(DATASET_PAGES)


@pytest.mark.parametrize("page", DATASET_PAGES)
def test_every_dataset_page_runs_on_a_drawn_dataset(page: str) -> None:
    at = ah.load(page)
    at.query_params["src"] = "Draw"
    at.query_params["pts"] = draw.encode_points(DRAWN * 3)
    at.run()
    ah.ok(at)
    assert any("The demo below runs on your 15 points" in s.value for s in at.success)


def test_the_export_of_a_drawing_rebuilds_its_points() -> None:
    """The Export menu's script rebuilds drawn data from the points the dataset choice
    carries (``DataChoice.drawn_xy``, issue 42: the page header no longer reads the canvas's
    session state); a draw key without them is refused, so a page that lost them would fail
    here."""
    from ui import widgets
    from ui.header import data_code

    at = ah.open_export(_page(src="Draw", pts=draw.encode_points(DRAWN * 2)))
    ah.ok(at)
    X, y = draw.points_xy(DRAWN * 2)
    ds = draw.dataset(DRAWN * 2, 0.0, 0)
    choice = widgets.DataChoice(ds, f"draw:{draw.points_key(DRAWN * 2)}:0.0:0", drawn_xy=(X, y))
    code, params = data_code(choice)
    assert params["source"] == "drawn" and len(params["X"]) == len(DRAWN) * 2
    assert str(round(float(X[0, 0]), 4))[:4] in code
