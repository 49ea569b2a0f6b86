"""The reproduction scripts (``ui/pages/<slug>/export.py`` on the shared templating of
ui/exports.py) give the page's numbers; JSON and CSV exports.

Every snippet is executed and its ``final <run> <name> = <value>`` lines are compared with
the page's own cached computations in ``ui/pages/<slug>/runs.py`` (through ``__wrapped__``, the
undecorated function), so a snippet that drifts from the page fails here.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import itertools
import json
import math
import re
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from boostcore import bounds, csvdata, datasets, game
from boostcore import steps as protocol
from ui import compute, dataset_code, exports, labels, records, tables
from ui.pages import PAGES, PageSpec, with_feature
from ui.pages.bounds import export as bounds_export
from ui.pages.branching import export as branching_export
from ui.pages.branching import runs as branching_runs
from ui.pages.game import export as game_export
from ui.pages.game import rules as game_rules
from ui.pages.game import tables as game_tables
from ui.pages.matryoshka import export as matryoshka_export
from ui.pages.matryoshka import runs as matryoshka_runs
from ui.pages.oblique import export as oblique_export
from ui.pages.oblique import runs as oblique_runs
from ui.pages.topdown import export as topdown_export
from ui.pages.topdown import runs as topdown_runs

ROOT = Path(__file__).resolve().parents[2]

GEN = dict(
    name="moons", n=80, noise=0.3, imbalance=0.5, label_noise=0.05, seed=0, test_fraction=0.25
)
FINAL = re.compile(r"^final (\S+) (\S+) = (.+)$")

# ------------------------------------------------------------------ the lessons' export modules
#: The registry's pages whose lesson folder has a reproduction script (``export.py``): the
#: pages with the export feature (the run as JSON/CSV beside its script) and the bounds
#: explorer, which exports its script only.
EXPORTED: tuple[PageSpec, ...] = tuple(
    p for p in PAGES if p.slug and (ROOT / "ui" / "pages" / p.slug / "export.py").exists()
)


def _export(page: PageSpec) -> types.ModuleType:
    """The page's ``ui/pages/<slug>/export.py``."""
    return importlib.import_module(f"ui.pages.{page.slug}.export")


def lesson_slug(module: types.ModuleType) -> str:
    """The lesson a module of ``ui/pages/<slug>/`` belongs to (its page's slug)."""
    return module.__name__.split(".")[2]


def takes_data(module: types.ModuleType) -> bool:
    """Whether the lesson's ``snippet`` runs on a dataset (its first argument the dataset
    lines) rather than on numbers alone."""
    return next(iter(inspect.signature(module.snippet).parameters)) == "data_code"


#: A small call of every lesson's ``snippet`` (after the dataset lines, for a page on a
#: dataset), small enough to run in a second; a test checks that it covers the registry.
EXAMPLES: dict[types.ModuleType, tuple] = {
    topdown_export: (4, "km", ["hatano", "naive"], 3, 0.1, "max_weight"),
    branching_export: (["InfoBoost", "BP.InfoBoost"], 3, 0.5, "h"),
    matryoshka_export: (["chain", "matryoshka"], 4, 0.3),
    oblique_export: (2, 2, "stump", "breadth_first"),
    game_export: (3, 0.1),
    bounds_export: (["7/8"], 64, "3/4", 2.0, 16, 0.1, 0.05),
}


def example(module: types.ModuleType, data_code: str | None = None) -> str:
    """The lesson's script for :data:`EXAMPLES`' arguments (on ``data_code`` if it takes data)."""
    args = EXAMPLES[module]
    return module.snippet(data_code, *args) if takes_data(module) else module.snippet(*args)


def test_every_page_with_an_export_menu_has_its_script() -> None:
    """A page the registry gives the export feature has ``ui/pages/<slug>/export.py``, and
    every such module is exercised here."""
    assert {p.slug for p in with_feature("export")} <= {p.slug for p in EXPORTED}
    assert {lesson_slug(m) for m in EXAMPLES} == {p.slug for p in EXPORTED}


@pytest.mark.parametrize("page", EXPORTED, ids=lambda p: p.slug)
def test_a_lessons_script_and_template_live_in_its_folder(page: PageSpec) -> None:
    """``snippet`` in the lesson's export.py, its template(s) next to it; the shared folder
    keeps only what every script shares."""
    module = _export(page)
    assert callable(module.snippet) and module.TITLE and module.PAPER
    assert sorted((ROOT / "ui" / "pages" / page.slug).glob("export*.py.tmpl"))
    shared = {p.name for p in (ROOT / "ui" / exports.SHARED_FOLDER).iterdir()}
    assert shared == {"header.py.tmpl", "helpers.py.tmpl", "test_split.py.tmpl"}


def gen_ds(p: dict = GEN) -> datasets.Dataset:
    """The dataset the sidebar generates from ``p`` (keys as :data:`GEN`), uncached.

    Used by tests/ui/test_exports_hostile.py too, hence public.
    """
    return compute.generated_dataset.__wrapped__(
        p["name"],
        p["n"],
        p["noise"],
        p["imbalance"],
        p["label_noise"],
        p["seed"],
        p["test_fraction"],
    )


def exec_script(code: str) -> tuple[str, dict]:
    """Run a script as ``python script.py`` would; return its stdout and its globals.

    Used by tests/ui/test_exports_hostile.py too, hence public.
    """
    ns = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), ns)
    return out.getvalue(), ns


def finals_of(stdout: str) -> dict[str, dict[str, float | None]]:
    """The ``final <run> <name> = <value>`` lines of a script's output, by run and name
    (``None`` for a value printed as ``None``).

    Used by tests/ui/test_exports_hostile.py too, hence public.
    """
    got: dict[str, dict] = {}
    for line in stdout.splitlines():
        m = FINAL.match(line)
        if m:
            run, name, value = m.groups()
            got.setdefault(run, {})[name] = None if value == "None" else float(value)
    return got


def _same(got: dict, want: dict) -> None:
    """Every expected number is printed, and equal (1e-12 relative: the same computation)."""
    assert set(got) == set(want), (sorted(got), sorted(want))
    for run, values in want.items():
        for name, value in values.items():
            assert name in got[run], f"{run}: {name} not printed"
            g = got[run][name]
            if value is None or (isinstance(value, float) and math.isnan(value)):
                assert g is None or math.isnan(g), f"{run} {name}: {g} != {value}"
            else:
                assert g == pytest.approx(float(value), rel=1e-12, abs=1e-15), (
                    f"{run} {name}: snippet {g} != page {value}"
                )


def _data_code(p=GEN) -> str:
    return dataset_code.dataset_code("generated", p)


# ----------------------------------------------------------------------------- datasets
def assert_same_ds(a: datasets.Dataset, b: datasets.Dataset) -> None:
    """Fail unless ``a`` and ``b`` hold the same train and test arrays.

    Used by tests/ui/test_exports_hostile.py too, hence public.
    """
    for part in ("X_train", "y_train", "X_test", "y_test"):
        np.testing.assert_array_equal(getattr(a, part), getattr(b, part))


def test_dataset_code_generated_builds_the_sidebar_dataset():
    p = dict(
        name="spirals",
        n=120,
        noise=0.25,
        imbalance=0.35,
        label_noise=0.07,
        seed=5,
        test_fraction=0.3,
    )
    code = "from boostcore import datasets\n" + dataset_code.dataset_code("Generated", p)
    _, ns = exec_script(code)
    assert_same_ds(ns["ds"], gen_ds(p))
    assert "make_dataset(" in code and "label_noise=0.07" in code


def page_csv(data: bytes, filename: str, tf: float, seed: int) -> datasets.Dataset:
    """The dataset the sidebar makes of an upload (rows it cannot use left out, if the
    sidebar does that).

    Used by tests/ui/test_exports_hostile.py too, hence public.
    """
    if hasattr(compute, "uploaded_dataset_report"):
        return compute.uploaded_dataset_report.__wrapped__(data, filename, tf, seed)[0]
    return compute.uploaded_dataset.__wrapped__(data, filename, tf, seed)


def test_dataset_code_csv_reads_the_file_next_to_the_script(tmp_path, monkeypatch):
    text = csvdata.dataset_to_csv(gen_ds())
    (tmp_path / "mine.csv").write_text(text, encoding="utf-8")
    code = dataset_code.dataset_code(
        "Upload CSV", dict(filename="/some/where/mine.csv", test_fraction=0.2, seed=3)
    )
    # The file name is a literal, once (not in a comment: issue 16).
    assert "next to this script" in code and "FILENAME = 'mine.csv'\n" in code
    assert code.count("mine.csv") == 1 and 'open(FILENAME, "rb")' in code
    monkeypatch.chdir(tmp_path)
    _, ns = exec_script("from boostcore import datasets\n" + code)
    assert_same_ds(ns["ds"], page_csv(text.encode(), "mine.csv", 0.2, 3))


def test_dataset_code_csv_with_a_bad_row_matches_the_sidebar(tmp_path, monkeypatch):
    lines = csvdata.dataset_to_csv(gen_ds()).splitlines()
    lines.insert(5, "1.0,oops,+1")
    text = "\n".join(lines) + "\n"
    (tmp_path / "bad.csv").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out, ns = exec_script(
        "from boostcore import datasets\n"
        + dataset_code.dataset_code("csv", dict(filename="bad.csv", test_fraction=0.25, seed=0))
    )
    assert "Left out" in out
    assert_same_ds(ns["ds"], page_csv(text.encode(), "bad.csv", 0.25, 0))


def test_dataset_code_drawn_inlines_the_points():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    y[:2] = (1, -1)
    code = dataset_code.dataset_code(
        "drawn", dict(X=X, y=y, name="drawn", test_fraction=0.2, seed=4)
    )
    _, ns = exec_script("from boostcore import datasets\n" + code)
    # as ui.draw.dataset builds the drawn dataset
    assert_same_ds(
        ns["ds"], datasets.from_points(X, y, name="drawn", test_fraction=0.2, random_state=4)
    )
    # and a whole page run on the drawn points gives the page's numbers
    out, _ = exec_script(topdown_export.snippet(code, 5, "km", ["Hatano"], 3, 0.1, "max_weight"))
    ds = datasets.from_points(X, y, name="drawn", test_fraction=0.2, random_state=4)
    _same(finals_of(out), _topdown_want(ds, 5, "km", ["hatano"], 3, 0.1, "max_weight"))


def test_dataset_code_drawn_text_and_errors():
    X = [[0.1, 0.2], [1 / 3, -2.5], [3.0, 4.0]]
    code = dataset_code.dataset_code("drawn", dict(X=X, y=[1, -1, 1], test_fraction=0.0, seed=0))
    assert "datasets.from_points(\n    X, y, test_fraction=0.0, random_state=0\n)" in code
    # with a stand-in for from_points: the call and the inlined points are exact
    stub = types.SimpleNamespace(from_points=lambda X, y, **kw: (X, y, kw))
    ns: dict = {"datasets": stub}
    exec(code, ns)
    assert ns["ds"] == (
        [[0.1, 0.2], [1 / 3, -2.5], [3.0, 4.0]],
        [1, -1, 1],
        {"test_fraction": 0.0, "random_state": 0},
    )
    with pytest.raises(ValueError, match="source"):
        dataset_code.dataset_code("excel", {})
    with pytest.raises(ValueError, match="name"):
        dataset_code.dataset_code("generated", dict(GEN, name="nope"))
    with pytest.raises(ValueError, match="shape"):
        dataset_code.dataset_code("drawn", dict(X=[1, 2, 3], y=[1, -1, 1]))


def test_dataset_spec_reads_the_datachoice_keys():
    p = GEN
    # the key format of ui.widgets.dataset_sidebar / dataset_from_upload
    key = (
        f"gen:{p['name']}:{p['n']}:{p['noise']}:{p['imbalance']}:{p['label_noise']}:"
        f"{p['seed']}:{p['test_fraction']}"
    )
    assert dataset_code.dataset_spec(key) == ("generated", p)
    assert dataset_code.dataset_spec("csv:0123abcd:0.25:7", "f.csv") == (
        "csv",
        dict(filename="f.csv", test_fraction=0.25, seed=7),
    )
    X, y = np.array([[0.0125, -2.0], [1.5, 0.25]]), np.array([1, -1])
    source, params = dataset_code.dataset_spec("draw:0123abcd:0.1:4", drawn_xy=(X, y))
    assert source == "drawn" and params["test_fraction"] == 0.1 and params["seed"] == 4
    np.testing.assert_array_equal(params["X"], X)
    assert "from_points" in dataset_code.dataset_code(source, params)
    with pytest.raises(ValueError, match="drawn_xy"):
        dataset_code.dataset_spec("draw:0123abcd:0.1:4")
    with pytest.raises(ValueError, match="key"):
        dataset_code.dataset_spec("excel:abc")


# ----------------------------------------------------------------------------- snippets
def _topdown_want(ds, size, index, crits, k, gamma, rule):
    want = {}
    for c in crits:
        steps = topdown_runs.topdown_run.__wrapped__(
            ds, "k", size, index, c, k, gamma if c == "mansour_mcallester" else None, rule
        )
        m = steps[-1].metrics
        want[c] = dict(
            round=steps[-1].t,
            n_leaves=m.n_leaves,
            train_error=m.train_error,
            test_error=m.test_error,
            index_value=m.index_value,
            gamma_hat=m.gamma_hat,
            bound_e=m.bound_e,
            bound_power=m.bound_power,
            bound_final=m.bound_final,
            bound_mm=m.bound_mm,
        )
    return want


@pytest.mark.parametrize(
    "index,rule,k", [("km", "max_weight", 4), ("gini", "max_gain", 3), ("entropy", "max_weight", 2)]
)
def test_topdown_snippet_gives_the_page_numbers(index, rule, k):
    crits = ["hatano", "mansour_mcallester", "naive"]
    code = topdown_export.snippet(_data_code(), 7, index, crits, k, 0.1, rule)
    out, _ = exec_script(code)
    _same(finals_of(out), _topdown_want(gen_ds(), 7, index, crits, k, 0.1, rule))
    assert "Hatano" in code and "grow(" in code and "round" in out


def test_topdown_snippet_without_test_set():
    p = dict(GEN, test_fraction=0.0)
    out, _ = exec_script(
        topdown_export.snippet(_data_code(p), 5, "km", ["hatano"], 4, 0.1, "max_weight")
    )
    got = finals_of(out)
    assert got["hatano"]["test_error"] is None
    _same(got, _topdown_want(gen_ds(p), 5, "km", ["hatano"], 4, 0.1, "max_weight"))


def test_a_drifted_snippet_fails_the_comparison():
    """The check is sharp: a script that grows binary trees instead of the page's 4-way
    ones (or drops the test set) does not pass as the page's run."""
    p = dict(GEN, name="stripes", noise=0.05, label_noise=0.0)
    code = topdown_export.snippet(_data_code(p), 8, "km", ["hatano"], 4, 0.1, "max_weight")
    want = _topdown_want(gen_ds(p), 8, "km", ["hatano"], 4, 0.1, "max_weight")
    _same(finals_of(exec_script(code)[0]), want)
    for drift in (
        code.replace("max_arity=MAX_ARITY", "max_arity=2"),
        code.replace("X_test=X_test, y_test=y_test,", ""),
    ):
        assert drift != code
        with pytest.raises(AssertionError):
            _same(finals_of(exec_script(drift)[0]), want)


def test_branching_snippet_gives_the_page_numbers():
    names = {"InfoBoost": "all", "BP.InfoBoost": "bands", "DT.InfoBoost": "none"}
    for wl in ("h", "divided"):
        code = branching_export.snippet(_data_code(), list(names), 5, 0.4, wl)
        out, _ = exec_script(code)
        ds = gen_ds()
        want = {}
        for name, merge in names.items():
            last = branching_runs.bp_run.__wrapped__(ds, "k", 5, merge, 0.4, wl)[-1]
            m = last.metrics
            want[name] = dict(
                round=last.t,
                n_leaves=m.n_leaves,
                train_error=m.train_error,
                test_error=m.test_error,
                Z=m.Z,
                H_h=m.H_h,
                H_divided=m.H_divided,
                H_leaves=m.H_leaves,
                gamma=m.gamma,
                prod_Z=m.bound_prod_Z,
                prod_H_h=m.prod_H_h,
            )
        _same(finals_of(out), want)
    # merges are accepted as well as the page's names
    assert branching_export.snippet(
        _data_code(), ["bands"], 3, 0.5, "h"
    ) == branching_export.snippet(_data_code(), ["BP.InfoBoost"], 3, 0.5, "h")


@pytest.mark.parametrize("samples", [None, 5])
def test_matryoshka_snippet_gives_the_page_numbers(samples):
    structures = ["chain", "tree", "matryoshka", "collapse"]
    n_weak = 6  # not a power of two: the matryoshka stops at 4 stumps, as on the page
    code = matryoshka_export.snippet(_data_code(), structures, n_weak, 0.3, samples)
    out, _ = exec_script(code)
    ds = gen_ds()
    want = {}
    for s in structures:
        steps = matryoshka_runs.prob_run.__wrapped__(
            ds, "k", s, n_weak, 0.3, samples if s in ("chain", "tree") else None
        )
        step = [x for x in steps if x.metrics.n_weak <= n_weak][-1]
        m = step.metrics
        want[s] = dict(
            n_weak=m.n_weak,
            train_error=m.train_error,
            mc_2se=None if m.mc_stderr is None else 2 * m.mc_stderr,
            test_error=m.test_error,
            bound_C=m.bound_C,
            rho_hat=m.rho_hat,
            bound_F=m.bound_F,
            bound_rho_T=m.bound_rho_T,
            bound_M2=m.bound_M2,
        )
    _same(finals_of(out), want)
    assert finals_of(out)["matryoshka"]["n_weak"] == 4


@pytest.mark.parametrize(
    "learner,rule", [("stump", "breadth_first"), ("hyperplane", "max_decrease")]
)
def test_oblique_snippet_gives_the_page_numbers(learner, rule):
    n_internal, n_stumps = 3, 4
    out, _ = exec_script(oblique_export.snippet(_data_code(), n_internal, n_stumps, learner, rule))
    ds = gen_ds()
    runs = {
        "adaboost": oblique_runs.g1_path_run.__wrapped__(ds, "k", n_internal * n_stumps, "stump"),
        "km_tree": oblique_runs.g1_tree_run.__wrapped__(ds, "k", n_internal, "max_decrease"),
        "boostodt": oblique_runs.odt_run.__wrapped__(ds, "k", n_internal, n_stumps, learner, rule),
    }
    # the page's last stepper position (views/oblique.py: _current at schedule[-1])
    i, _, used = oblique_runs.odt_schedule(runs["boostodt"], False)[-1]
    ada, km, odt = (protocol.rounds(runs[n]) for n in ("adaboost", "km_tree", "boostodt"))
    shown = {
        "adaboost": ada[min(used, len(ada) - 1)],
        "km_tree": km[min(i, len(km) - 1)],
        "boostodt": odt[i],
    }
    want = {}
    for name, step in shown.items():
        m = step.metrics
        want[name] = dict(
            step=step.t,
            train_error=m.train_error,
            test_error=m.test_error,
            margin_error_0=m.margin_error_0,
            exp_loss=m.exp_loss,
            km_impurity=m.km_impurity,
            bound_theorem1=m.bound_theorem1,
        )
    _same(finals_of(out), want)


@pytest.mark.parametrize(
    "adversary,seed", [("equal", 0), ("random", 3), ("random k and shares", 11)]
)
def test_game_watch_snippet_gives_the_page_numbers(adversary, seed):
    s, gamma = 9, 0.15
    out, _ = exec_script(game_export.snippet(s, gamma, "Watch", adversary, seed))
    adv = "equal" if "equal" in adversary else "random"
    states = game_rules.watch.__wrapped__(s, gamma, adv, seed)
    final = states[-1]
    _same(
        finals_of(out),
        {
            "game": dict(
                moves=len(final.history),
                final_weight=final.total,
                phi_gamma_s=float(bounds.phi_gamma(s, gamma)),
                s_pow_minus_gamma=s ** (-gamma),
                equal_binary_final=game_rules.watch.__wrapped__(s, gamma, "equal", 0)[-1].total,
            )
        },
    )


@pytest.mark.parametrize("mode", ["You are the adversary", "You are the player"])
def test_game_played_snippet_replays_the_moves(mode):
    s, gamma = 7, 0.1
    state = game_rules.start(s, gamma)
    stack = [state]
    shares = [(0.3, 0.7), (0.25, 0.25, 0.5), (1 / 3, 2 / 3), (0.5, 0.5), (0.1, 0.9)]
    for d in shares:
        if state.done:
            break
        k = len(d) if len(d) in game.legal_arities(state) else 2
        d = d if len(d) == k else (0.5, 0.5)
        leaf = game.max_weight_player(state) if "adversary" in mode else state.leaves[-1]
        state = game_rules.move(state, leaf, k, d)
        stack.append(state)
    want = {
        "game": dict(
            moves=len(state.history),
            final_weight=state.total,
            phi_gamma_s=float(bounds.phi_gamma(s, gamma)),
            s_pow_minus_gamma=s ** (-gamma),
        )
    }
    for moves in (state, state.history, [(m.leaf, m.k, m.distribution) for m in state.history]):
        out, _ = exec_script(game_export.snippet(s, gamma, mode, moves=moves))
        _same(finals_of(out), want)
    # an empty game is a valid script too
    out, _ = exec_script(game_export.snippet(s, gamma, mode, moves=()))
    assert finals_of(out)["game"]["final_weight"] == 1.0


def test_bounds_snippet_gives_the_page_numbers():
    out, _ = exec_script(
        bounds_export.snippet(["7/8", "1/4", 0.5], 1024, "31/32", 0.3, 64, 0.1, 0.01)
    )
    _same(
        finals_of(out),
        {
            "bounds": {
                "matryoshka_rate": bounds.matryoshka_rate(0.3, 64),
                "m2_10_7/8": float(bounds.m2(10, 7 / 8)),
                "f_tree_1024_7/8": float(bounds.f_tree(1024, 7 / 8)),
                "valid_nested_32_32_7/8": bounds.valid_nested_f(32, 32, 7 / 8),
            }
        },
    )
    assert f"M2={float(bounds.m2(4, 7 / 8)):.4g}" in out


@pytest.mark.parametrize("page", EXPORTED, ids=lambda p: p.slug)
def test_snippets_name_the_paper_and_import_what_they_use(page: PageSpec) -> None:
    """The header names the page and a paper by an author its home-page card names."""
    code = example(_export(page), _data_code())
    header = code.split("\n\n")[0]
    assert code.startswith("# boostlab, ") and "# Paper: " in header
    papers = header.split("# Paper: ")[1]
    authors = set(re.findall(r"[A-Z][a-z]{3,}", page.blurb))
    assert any(re.search(rf"\b{a}\b", papers) for a in authors), (page.slug, authors)
    assert _export(page).TITLE in header
    compile(code, "<snippet>", "exec")  # and it imports what it uses: run in the tests above


def test_snippet_parameters_are_validated():
    d = _data_code()
    with pytest.raises(ValueError, match="criteria"):
        topdown_export.snippet(d, 4, "km", ["greedy"], 2, 0.1, "max_weight")
    with pytest.raises(ValueError, match="index"):
        topdown_export.snippet(d, 4, "giny", ["hatano"], 2, 0.1, "max_weight")
    with pytest.raises(ValueError, match="schemes"):
        branching_export.snippet(d, ["merge some"], 2, 0.5, "h")
    with pytest.raises(ValueError, match="structures"):
        matryoshka_export.snippet(d, ["forest"], 2, 0.3)
    with pytest.raises(ValueError, match="node_learner"):
        oblique_export.snippet(d, 1, 1, "trees", "breadth_first")
    with pytest.raises(ValueError, match="mode"):
        game_export.snippet(3, 0.1, "spectator")


# ------------------------------------------------------------------- compile every option
SOURCES = [
    ("generated", GEN),
    ("csv", dict(filename="my data.csv", test_fraction=0.25, seed=0)),
    (
        "drawn",
        dict(
            X=[[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [2.0, 1.0]],
            y=[1, -1, 1, -1],
            test_fraction=0.0,
            seed=0,
        ),
    ),
] + [("generated", dict(GEN, name=n)) for n in datasets.GENERATORS]


def _compiles(code: str) -> None:
    compile(code, "<snippet>", "exec")


@pytest.mark.parametrize("source,params", SOURCES)
def test_every_data_source_compiles_in_every_snippet(source, params):
    d = dataset_code.dataset_code(source, params)
    _compiles("from boostcore import datasets\n" + d)
    for module in EXAMPLES:
        if takes_data(module):
            _compiles(example(module, d))


CRIT_SETS = [[c] for c in ("hatano", "mansour_mcallester", "naive")] + [
    ["hatano", "mansour_mcallester", "naive"]
]


@pytest.mark.parametrize(
    "crits,index,rule,k",
    list(
        itertools.product(
            CRIT_SETS, ["km", "gini", "entropy", "error"], ["max_weight", "max_gain"], [2, 4, 6]
        )
    ),
)
def test_topdown_snippet_compiles_for_every_option(crits, index, rule, k):
    _compiles(topdown_export.snippet(_data_code(), 16, index, crits, k, 0.37, rule))


@pytest.mark.parametrize(
    "schemes,wl,c",
    list(
        itertools.product(
            [
                ["InfoBoost"],
                ["BP.InfoBoost"],
                ["DT.InfoBoost"],
                ["InfoBoost", "BP.InfoBoost", "DT.InfoBoost"],
            ],
            ["h", "divided"],
            [0.05, 0.5, 0.95],
        )
    ),
)
def test_branching_snippet_compiles_for_every_option(schemes, wl, c):
    _compiles(branching_export.snippet(_data_code(), schemes, 20, c, wl))


@pytest.mark.parametrize(
    "structures,n_weak,samples",
    list(
        itertools.product(
            [["chain"], ["tree"], ["matryoshka"], ["collapse"], list(matryoshka_export.STRUCTURES)],
            [2, 4, 8, 16, 32, 64],
            [None, 100, 20, 5],
        )
    ),
)
def test_matryoshka_snippet_compiles_for_every_option(structures, n_weak, samples):
    _compiles(matryoshka_export.snippet(_data_code(), structures, n_weak, 0.3, samples))


@pytest.mark.parametrize(
    "learner,rule,n_internal,n_stumps",
    list(
        itertools.product(
            ["stump", "hyperplane"], ["breadth_first", "max_decrease"], [1, 7, 31], [1, 10, 40]
        )
    ),
)
def test_oblique_snippet_compiles_for_every_option(learner, rule, n_internal, n_stumps):
    _compiles(oblique_export.snippet(_data_code(), n_internal, n_stumps, learner, rule))


@pytest.mark.parametrize(
    "mode,adversary",
    list(
        itertools.product(
            [
                "You are the adversary",
                "You are the player",
                "Watch",
                "watch",
                "adversary",
                "player",
            ],
            [
                "equal binary splits (Theorem 3's worst case)",
                "random k and shares",
                "equal",
                "random",
            ],
        )
    ),
)
def test_game_snippet_compiles_for_every_option(mode, adversary):
    _compiles(game_export.snippet(8, 0.1, mode, adversary, 5, moves=[(0, 2, (0.5, 0.5))]))


@pytest.mark.parametrize("rhos", [["31/32"], ["7/8", "3/4", "1/2", "1/4"], [], [0.9]])
def test_bounds_snippet_compiles_for_every_option(rhos):
    _compiles(bounds_export.snippet(rhos, 65536, "1/4", 0.99, 2, 0.5, 1e-4))


# ----------------------------------------------------------------------------- records
def _page_runs() -> tuple[datasets.Dataset, dict[types.ModuleType, dict]]:
    """The dataset and some runs of every lesson, by the lesson's runs module."""
    ds = gen_ds()
    return ds, {
        topdown_runs: {
            c: topdown_runs.topdown_run.__wrapped__(
                ds, "k", 6, "km", c, 4, 0.1 if c == "mansour_mcallester" else None, "max_weight"
            )
            for c in ("hatano", "mansour_mcallester", "naive")
        },
        branching_runs: {
            n: branching_runs.bp_run.__wrapped__(ds, "k", 4, m, 0.5, "h")
            for m, n in labels.MERGE_SHORT.items()
        },
        matryoshka_runs: {
            s: matryoshka_runs.prob_run.__wrapped__(ds, "k", s, 4, 0.3, None)
            for s in matryoshka_export.STRUCTURES
        },
        oblique_runs: {
            "AdaBoost": oblique_runs.g1_path_run.__wrapped__(ds, "k", 6, "stump"),
            "KM tree": oblique_runs.g1_tree_run.__wrapped__(ds, "k", 3, "max_decrease"),
            "BoostODT": oblique_runs.odt_run.__wrapped__(
                ds, "k", 3, 2, "hyperplane", "breadth_first"
            ),
        },
        game_rules: {"watch": game_rules.run_of(game_rules.watch.__wrapped__(8, 0.1, "random", 2))},
    }


@pytest.fixture(scope="module")
def page_runs():
    return _page_runs()


def test_run_records_one_per_round_for_every_snapshot_type(page_runs):
    ds, lessons = page_runs
    for lesson, runs in lessons.items():
        for name, steps in runs.items():
            recs = records.run_records(steps, ds.feature_names)
            assert len(recs) == len(steps), (lesson_slug(lesson), name)
            assert list(recs[0])[:3] == ["t", "kind", "chosen"]
            assert [r["t"] for r in recs] == [s.t for s in steps]
            for rec, s in zip(recs, steps):
                assert {k: v for k, v in rec.items() if k != "chosen"} == s.to_record()
            for rec in recs:
                assert {"t", "kind", "chosen"} <= set(rec)
                assert isinstance(rec["chosen"], str)
                for value in rec.values():
                    assert value is None or type(value) in (int, float, str, bool, list)
                    if isinstance(value, float):
                        assert math.isfinite(value)
            # something was chosen in every step; nothing at the start and the stop
            assert all(r["chosen"] for r in recs if r["kind"] == "step"), name
            assert not any(r["chosen"] for r in recs if r["kind"] != "step"), name


def test_run_records_agree_with_the_tables_frames(page_runs):
    ds, lessons = page_runs
    steps = lessons[topdown_runs]["hatano"]
    odt = lessons[oblique_runs]["BoostODT"]
    for run in (steps, odt):
        frame = tables.history_frame(run)
        recs = records.run_records(run)
        assert len(frame) == len(recs)
        for rec, (_, row) in zip(recs, frame.iterrows()):
            for col, value in row.items():
                if value is None or (isinstance(value, float) and math.isnan(value)):
                    assert rec[col] is None, col
                else:
                    assert rec[col] == pytest.approx(value), col
    states = lessons[game_rules]["watch"]
    gframe = game_tables.game_history_frame(states[-1])
    grecs = [r for r in records.run_records(states) if r["kind"] == "step"]
    assert [r["leaf"] for r in grecs] == gframe["leaf"].tolist()
    assert [r["total_weight"] for r in grecs] == pytest.approx(gframe["tree weight after"].tolist())
    assert [r["kept"] for r in grecs] == pytest.approx(gframe["kept 1 − γ⌈log k⌉"].tolist())


def test_run_records_readable_choices(page_runs):
    ds, lessons = page_runs
    td = records.run_records(lessons[topdown_runs]["hatano"], ("width", "height"))
    assert td[0]["chosen"] == "" and td[0]["kind"] == "start"
    assert re.match(r"leaf #\d+: \d-way split on (width|height) at ", td[1]["chosen"])
    bp = records.run_records(lessons[branching_runs]["BP.InfoBoost"])
    assert bp[0]["chosen"] == "" and bp[0]["kind"] == "start"  # round 0: F_0 = 0
    assert bp[1]["chosen"].startswith("h_1 = [x") and bp[-1]["kind"] == "stop"
    chain = records.run_records(lessons[matryoshka_runs]["chain"])
    assert chain[1]["chosen"].startswith("soft stump σ(")
    mat = records.run_records(lessons[matryoshka_runs]["matryoshka"])
    assert mat[-2]["chosen"] == "level-2 doll (4 soft stumps)" and mat[-1]["kind"] == "stop"
    ada = records.run_records(lessons[oblique_runs]["AdaBoost"])
    assert "sgn(x" in ada[1]["chosen"] and "α =" in ada[1]["chosen"]
    odt = records.run_records(lessons[oblique_runs]["BoostODT"])
    assert odt[0]["chosen"] == "" and odt[1]["chosen"].startswith("node #0")
    g = records.run_records(lessons[game_rules]["watch"])
    assert g[0]["kind"] == "start" and g[-1]["kind"] == "stop"
    assert g[1]["chosen"].startswith("leaf #0 (weight 1)")
    assert "the game is over" in g[-1]["stop_reason"]
    with pytest.raises(TypeError, match="snapshots"):
        records.run_records([object()])


def test_run_json_round_trips(page_runs):
    ds, lessons = page_runs
    params = {
        "data": dict(GEN),
        "size": np.int64(6),
        "gamma": np.float64(0.1),
        "odd": float("nan"),
        "big": float("inf"),
        "arr": np.array([1.5, np.nan]),
        "crit": ("hatano", "naive"),
        "flag": np.bool_(True),
    }
    for lesson, runs in lessons.items():
        text = records.run_json(lesson_slug(lesson), params, runs)
        doc = json.loads(text)  # strict: would fail on NaN
        assert "NaN" not in text and "Infinity" not in text
        assert doc["page"] == lesson_slug(lesson)
        assert doc["params"]["size"] == 6 and doc["params"]["gamma"] == 0.1
        assert doc["params"]["odd"] is None and doc["params"]["big"] is None
        assert doc["params"]["arr"] == [1.5, None] and doc["params"]["flag"] is True
        assert doc["params"]["data"] == GEN
        assert set(doc["runs"]) == set(runs)
        for name, steps in runs.items():
            assert len(doc["runs"][name]) == len(steps)
            assert [r["t"] for r in doc["runs"][name]] == [s.t for s in steps]
    doc = json.loads(records.run_json(lesson_slug(topdown_runs), {}, lessons[topdown_runs]))
    first = doc["runs"]["hatano"][0]
    assert first["gamma_hat"] is None  # NaN before the first split
    last = doc["runs"]["hatano"][-1]
    m = lessons[topdown_runs]["hatano"][-1].metrics
    assert last["train_error"] == m.train_error and last["index_value"] == m.index_value


def test_run_csv_parses_with_the_expected_columns(page_runs):
    ds, lessons = page_runs
    expected = {
        topdown_runs: [
            "leaf",
            "k",
            "feature",
            "thresholds",
            "gain",
            "n_leaves",
            "train_error",
            "test_error",
            "index_value",
            "gamma_hat",
            "bound_e",
            "bound_final",
        ],
        branching_runs: [
            "feature",
            "threshold",
            "n_leaves",
            "Z",
            "H_h",
            "bound_prod_Z",
            "prod_H_h",
        ],
        matryoshka_runs: [
            "structure",
            "node",
            "theta",
            "train_error",
            "bound_C",
            "rho_hat",
            "bound_F",
            "bound_M2",
        ],
        oblique_runs: [
            "h",
            "alpha",
            "mu",
            "node",
            "n_weak",
            "train_error",
            "exp_loss",
            "bound_theorem1",
            "km_impurity",
        ],
        game_rules: [
            "leaf",
            "leaf_weight",
            "k",
            "shares",
            "kept",
            "n_leaves",
            "total_weight",
            "equal_binary_weight",
            "bound_theorem3",
            "bound_power",
        ],
    }
    for lesson, runs in lessons.items():
        df = pd.read_csv(io.StringIO(records.run_csv(runs)))
        assert list(df.columns[:4]) == ["run", "t", "kind", "chosen"]
        assert set(expected[lesson]) <= set(df.columns), lesson_slug(lesson)
        assert len(df) == sum(len(s) for s in runs.values())
        assert df.groupby("run", sort=False).size().to_dict() == {
            n: len(s) for n, s in runs.items()
        }
    df = pd.read_csv(io.StringIO(records.run_csv(lessons[topdown_runs])))
    hat = df[df["run"] == "hatano"]
    assert hat["train_error"].iloc[-1] == lessons[topdown_runs]["hatano"][-1].metrics.train_error
    assert [float(v) for v in hat["thresholds"].iloc[1].split(", ")] == list(
        lessons[topdown_runs]["hatano"][1].split.thresholds
    )


def test_a_snippet_runs_as_a_standalone_script(tmp_path):
    """``python script.py`` in another folder, boostlab on PYTHONPATH: the same numbers."""
    import os

    code = oblique_export.snippet(_data_code(), 2, 3, "stump", "breadth_first")
    script = tmp_path / "reproduce.py"
    script.write_text(code, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert finals_of(done.stdout) == finals_of(exec_script(code)[0])


#: Imports a module in a fresh interpreter and prints whether Streamlit came with it. The
#: registry (ui/pages/__init__.py, the lesson folders' parent) reads the URL parameters'
#: module, which is Streamlit's; it is stood in for by a bare package, so the question is
#: whether the export code itself needs Streamlit.
_NO_STREAMLIT = """
import sys, types
pages = types.ModuleType("ui.pages")
pages.__path__ = ["ui/pages"]
sys.modules["ui.pages"] = pages
import {module}
print("streamlit" in sys.modules)
"""


@pytest.mark.parametrize(
    "module",
    ["ui.exports", *(f"ui.pages.{p.slug}.export" for p in EXPORTED)],
)
def test_exports_module_does_not_import_streamlit(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _NO_STREAMLIT.format(module=module)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
