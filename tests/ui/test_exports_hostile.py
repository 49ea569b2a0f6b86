"""Hostile user text in the exports (issue 16): file names, dataset and feature names.

User strings enter the reproduction scripts only as literals (``repr``), and the templates'
``<<NAME>>`` placeholders are filled in one pass, so no file name can change the code:

* every snippet compiles and its syntax tree is the benign name's, up to string constants;
* a payload in a name (``PWNED = True``, ``os.system("touch PWNED")``) never runs: the
  script runs end to end on a real CSV written under that name, in-process and as
  ``python script.py``, and neither the flag nor the file ``PWNED`` appears;
* the CSV of a run neutralises text cells a spreadsheet would read as formulas, and the
  JSON keeps every string as it is.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from boostcore import csvdata, topdown
from tests.ui.test_exports import (
    EXAMPLES,
    assert_same_ds,
    example,
    exec_script,
    finals_of,
    gen_ds,
    lesson_slug,
    page_csv,
    takes_data,
)
from ui import dataset_code, exports, records
from ui.pages.game import export as game_export
from ui.pages.topdown import export as topdown_export

ROOT = Path(__file__).resolve().parents[2]
FLAG = "PWNED"  # every payload below sets this global or creates a file of this name
LONG = 300

HOSTILE = {
    "newline": "a\nPWNED = True\n.csv",
    "carriage return": "a\rPWNED = True\r.csv",
    "crlf comment break": "# \r\nPWNED = True\r\n# .csv",
    "os.system": '# \nimport os; os.system("touch PWNED")\n.csv',
    "single quotes": "q'; PWNED = True; '.csv",
    "double quotes": 'q"; PWNED = True; ".csv',
    "triple double": 'a"""\nPWNED = True\n""".csv',
    "triple single": "a'''\nPWNED = True\n'''.csv",
    "backslashes": "back\\slash\\'\\n\\.csv",
    "trailing backslash": "end\\",
    "header marker": "data<<HEADER>>.csv",
    "test marker": "data<<TEST>>.csv",
    "data marker": "data<<DATA>>.csv",
    "every marker": "<<HELPERS>><<FILENAME>><<S>><<MOVES>><<UNKNOWN>>.csv",
    "format markers": "{FILENAME}{0}%s{{x}}.csv",
    "unicode": "données Ω 😀 ŝ.csv",
    "unicode line breaks": "a\u2028PWNED = True\u2029\x0b\x0c\x85.csv",
    "bidi override": "evil\u202ev.csv",
    "path": "dir/sub\nPWNED = True\n.csv",
    "dots": "..",
    "empty": "",
    "nul": "a\x00b.csv",
    "255 bytes": "n" * 251 + ".csv",
    f"{LONG} characters": "\nPWNED = True\n" + "x" * (LONG - 18) + ".csv",
}
NAMES = list(HOSTILE.values())
IDS = list(HOSTILE)


def _snippets(data_code: str) -> dict[str, str]:
    """Every lesson's snippet that takes dataset lines (tests/ui/test_exports.py's small runs,
    which cover the registry), by the page's slug."""
    return {lesson_slug(m): example(m, data_code) for m in EXAMPLES if takes_data(m)}


def _csv_code(filename: str, tf: float = 0.25, seed: int = 0) -> str:
    return dataset_code.dataset_code("csv", dict(filename=filename, test_fraction=tf, seed=seed))


def _drawn_code(name: str) -> str:
    return dataset_code.dataset_code(
        "drawn",
        dict(
            X=[[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [2.0, 1.0]],
            y=[1, -1, 1, -1],
            name=name,
            test_fraction=0.0,
            seed=0,
        ),
    )


def _shape(code: str) -> str:
    """The script's syntax tree with every string constant blanked: its code, not its data."""
    tree = ast.parse(code)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = "S"
    return ast.dump(tree, include_attributes=False)


def _identifiers(code: str) -> set[str]:
    return {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(ast.parse(code))
        if isinstance(n, ast.Name | ast.Attribute)
    }


# ------------------------------------------------------------------------- the code is fixed
@pytest.mark.parametrize("name", NAMES, ids=IDS)
def test_a_hostile_file_name_does_not_change_any_snippet(name):
    benign = _snippets(_csv_code("data.csv"))
    for page, code in _snippets(_csv_code(name)).items():
        compile(code, f"<{page}>", "exec")
        assert _shape(code) == _shape(benign[page]), f"{page}: the name changed the code"
        assert FLAG not in _identifiers(code) and "system" not in _identifiers(code)
        assert "<<" not in code.replace(repr(dataset_code.csv_filename(name)), "")
        # The file name is one literal (FILENAME) and appears nowhere else.
        literal_line = f"FILENAME = {dataset_code.literal(dataset_code.csv_filename(name))}"
        assert literal_line in code.splitlines()
        for line in code.splitlines():
            if line.startswith("#"):
                assert FLAG not in line and "<<" not in line


@pytest.mark.parametrize("name", NAMES, ids=IDS)
def test_a_hostile_drawn_dataset_name_does_not_change_any_snippet(name):
    # (an empty name leaves the keyword out: from_points' default name)
    benign = _snippets(_drawn_code("drawn" if name else ""))
    for page, code in _snippets(_drawn_code(name)).items():
        compile(code, f"<{page}>", "exec")
        assert _shape(code) == _shape(benign[page]), f"{page}: the name changed the code"
        assert FLAG not in _identifiers(code)


@pytest.mark.parametrize("name", NAMES, ids=IDS)
def test_a_drawn_dataset_keeps_its_hostile_name_as_data(name):
    _, ns = exec_script("from boostcore import datasets\n" + _drawn_code(name))
    # (an empty name is left out: from_points' default name)
    assert FLAG not in ns and ns["ds"].name == (name or "drawn")


def test_hostile_drawn_labels_stay_data():
    """Class labels are inlined as literals too: text labels cannot change the code."""

    def code(labels):
        X = [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [2.0, 1.0]]
        spec = dict(X=X, y=labels * 2, name="drawn", test_fraction=0.0, seed=0)
        return _snippets(dataset_code.dataset_code("drawn", spec))

    benign = code(["a", "b"])
    for page, text in code([HOSTILE["triple double"], HOSTILE["os.system"]]).items():
        assert _shape(text) == _shape(benign[page]), page
        assert FLAG not in _identifiers(text) and "system" not in _identifiers(text)


def test_csv_file_name_fallbacks():
    assert dataset_code.csv_filename("/some/where/mine.csv") == "mine.csv"
    for bad in ("", ".", "..", "dir/", "/"):
        assert dataset_code.csv_filename(bad) == "data.csv"


# ---------------------------------------------------------------- the scripts run on a real CSV
HOSTILE_FEATURES = ['a"""\nPWNED = True\n""" b\'s', '=HYPERLINK("http://x") <<HEADER>>']


def _write_csv(path: Path, feature_names=None) -> bytes:
    """A real two-class CSV (the generated moons), optionally with other column names."""
    text = csvdata.dataset_to_csv(gen_ds())
    if feature_names is not None:
        rows = list(csv.reader(io.StringIO(text)))
        rows[0] = [*feature_names, rows[0][-1]]
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        text = buf.getvalue()
    data = text.encode("utf-8")
    path.write_bytes(data)
    return data


def _writable(name: str) -> bool:
    base = dataset_code.csv_filename(name)
    return "\x00" not in base and len(base.encode("utf-8")) <= 255


@pytest.mark.parametrize("name", NAMES, ids=IDS)
def test_the_csv_script_reads_a_file_of_that_name(name, tmp_path, monkeypatch):
    """Run in-process in a folder holding the CSV: the sidebar's dataset, no payload run."""
    monkeypatch.chdir(tmp_path)
    code = example(topdown_export, _csv_code(name, 0.2, 3))
    base = dataset_code.csv_filename(name)
    if not _writable(name):  # NUL or longer than a file name can be: the script stops at open
        with pytest.raises((OSError, ValueError)):
            exec_script(code)
        assert not (tmp_path / FLAG).exists()
        return
    data = _write_csv(tmp_path / base)
    out, ns = exec_script(code)
    assert FLAG not in ns and not (tmp_path / FLAG).exists()
    assert ns["FILENAME"] == base and ns["ds"].name == base
    assert_same_ds(ns["ds"], page_csv(data, base, 0.2, 3))
    assert set(finals_of(out)) == {"hatano", "naive"}


@pytest.mark.parametrize("features", [HOSTILE_FEATURES], ids=["hostile headers"])
@pytest.mark.parametrize(
    "name", [HOSTILE["os.system"], HOSTILE["test marker"]], ids=["os.system", "test marker"]
)
def test_every_csv_script_runs_as_python_script_py(name, features, tmp_path):
    """``python script.py`` for every page, hostile file name and hostile column names."""
    base = dataset_code.csv_filename(name)
    data = _write_csv(tmp_path / base, features)
    page_ds = page_csv(data, base, 0.25, 0)
    assert list(page_ds.feature_names) == features
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for page, code in _snippets(_csv_code(name)).items():
        script = tmp_path / f"boostlab_{page}.py"
        script.write_text(code, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(script)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, f"{page}: {done.stderr}"
        assert finals_of(done.stdout), page
        assert not (tmp_path / FLAG).exists(), f"{page}: the payload ran"


# --------------------------------------------------------------------------- the templates
def test_fill_is_one_pass_and_checks_every_placeholder():
    template = "A = <<A>>\nB = <<B>>\n"
    assert exports.fill(template, A="'<<B>>'", B="1") == "A = '<<B>>'\nB = 1\n"
    with pytest.raises(AssertionError, match="unfilled"):
        exports.fill(template, A="1")
    with pytest.raises(AssertionError, match="unknown"):
        exports.fill(template, A="1", B="2", C="3")


def test_no_other_snippet_takes_user_text():
    """The scripts not on a dataset (the game's, the bounds') take numbers only; their
    templates fill completely (the game in each of its modes)."""
    for code in (
        *(example(m) for m in EXAMPLES if not takes_data(m)),
        game_export.snippet(4, 0.1, "watch", "random", 3),
        game_export.snippet(3, 0.1, "adversary", moves=[(0, 2, (0.5, 0.5))]),
    ):
        compile(code, "<snippet>", "exec")
        assert "<<" not in code


# ------------------------------------------------------------------------- JSON and CSV runs
def _hostile_runs(tmp_path):
    data = _write_csv(tmp_path / "f.csv", HOSTILE_FEATURES)
    ds = page_csv(data, "f.csv", 0.25, 0)
    steps = list(topdown.grow(ds.X_train, ds.y_train, size=4, criterion="hatano"))
    return {"=cmd|' /C calc'!A0": steps, "@SUM(1)": steps}, list(ds.feature_names)


def test_run_json_keeps_hostile_text_as_data(tmp_path):
    runs, names = _hostile_runs(tmp_path)
    params = {"filename": HOSTILE["triple double"], "source": "csv"}
    doc = json.loads(records.run_json("topdown", params, runs, names))
    assert doc["params"] == params and set(doc["runs"]) == set(runs)
    chosen = " ".join(r["chosen"] for r in doc["runs"]["@SUM(1)"])
    assert any(f in chosen for f in names)


def test_run_csv_neutralises_formula_cells(tmp_path):
    runs, names = _hostile_runs(tmp_path)
    text = records.run_csv(runs, names)
    df = pd.read_csv(io.StringIO(text), keep_default_na=False)
    assert set(df["run"]) == {"'=cmd|' /C calc'!A0", "'@SUM(1)"}
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            if cell[:1] in records.FORMULA_STARTS:
                float(cell)  # only numbers (negative ones) may start with "-" or "+"
    assert df.select_dtypes("number").shape[1] > 3  # the metrics stay numbers


@pytest.mark.parametrize(
    "value,cell",
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-x", "'-x"),
        ("@A1", "'@A1"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("x=1", "x=1"),
        (-0.5, -0.5),
        (3, 3),
        (None, ""),
    ],
)
def test_csv_cell(value, cell):
    assert records.csv_cell(value) == cell
