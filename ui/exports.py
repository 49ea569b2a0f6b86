"""Export a run: a runnable ``boostcore`` script that reproduces it, and the run as JSON / CSV.

Pure Python (no Streamlit calls), so everything here is unit-testable; the pages only put
the strings into ``st.code`` / ``st.download_button``.

* ``dataset_code(source, params)`` — the lines that build ``ds`` exactly as the sidebar does
  (``ui.compute.generated_dataset`` / ``uploaded_dataset``, or ``datasets.from_points`` for
  drawn points); ``dataset_spec(choice.key, choice.dataset.name)`` recovers ``(source,
  params)`` from a :class:`ui.widgets.DataChoice` for generated and uploaded data.
* ``*_snippet(...)`` — one per page: a complete script (imports, dataset, the generator called
  as ``ui/compute.py`` calls it, a loop printing every round, then the numbers the page shows
  at its last round, one ``final <run> <name> = <value>`` line each, which the tests compare
  with the page's own cached runs).
* ``run_records(steps)`` — one flat dict per round for every snapshot type the pages use;
  ``run_json`` and ``run_csv`` serialise whole runs.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from boostcore import branching, datasets, game, oblique, probabilistic, topdown
from boostcore.impurity import INDEX
from boostcore.steps import STEP, Step

from .labels import CRITERION_FROM_SHORT, MERGE_SHORT
from .text import plural

# ------------------------------------------------------------------------------ helpers
PAPERS = {
    "topdown": (
        "M. Kearns and Y. Mansour, On the boosting ability of top-down decision tree learning\n"
        "#   algorithms (STOC 1996); Y. Mansour and D. McAllester, Boosting with multi-way\n"
        "#   branching in decision trees (NIPS 2000); K. Hatano, A simple boosting algorithm\n"
        "#   using multi-way branching decision trees (Theory of Computing Systems, 2004)."
    ),
    "branching": (
        "E. Takimoto, S. Koya and A. Maruoka, Boosting based on divide and merge\n"
        "#   (InfoBoost as a branching program; BP.InfoBoost)."
    ),
    "matryoshka": (
        "E. Grossmann, A theory of probabilistic boosting, decision trees and matryoshki."
    ),
    "oblique": (
        "C. Henry, R. Nock and F. Nielsen, Real boosting a la carte with an application to\n"
        "#   boosting oblique decision trees (IJCAI 2007)."
    ),
    "game": (
        "K. Hatano, A simple boosting algorithm using multi-way branching decision trees\n"
        "#   (Theory of Computing Systems, 2004), section 4: the Weight Distribution Game."
    ),
    "bounds": (
        "E. Grossmann (probabilistic boosting, matryoshki); K. Hatano (2004); Y. Mansour and\n"
        "#   D. McAllester (NIPS 2000); E. Takimoto, S. Koya and A. Maruoka (divide and merge)."
    ),
}

STRUCTURES = ("chain", "tree", "matryoshka", "collapse")
GAME_MODES = ("adversary", "player", "watch")
GAME_ADVERSARIES = ("equal", "random")

# Shared by every snippet: fixed-width numbers, and the machine-readable last lines.
_HELPERS = '''

def fmt(value):
    """A number in a fixed width ("n/a" when the page shows none)."""
    return "   n/a" if value is None else f"{value:.4f}"


def report(run, values):
    """The numbers the page shows at its last round, one line each."""
    for name, value in values.items():
        print(f"final {run} {name} = {None if value is None else float(value)!r}")
'''

_TEST_SPLIT = """X_test = ds.X_test if ds.n_test else None  # the page passes no test set when empty
y_test = ds.y_test if ds.n_test else None
print(f"{ds.n_train} training and {ds.n_test} test points")
"""


def _lit(value: Any) -> str:
    """A Python literal for a parameter (numpy scalars become plain numbers)."""
    return repr(_plain(value))


def _plain(value: Any) -> Any:
    """JSON-able plain Python: numpy scalars/arrays converted, NaN and ±inf as ``None``."""
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


def _fill(template: str, **values: str) -> str:
    """Replace every ``<<NAME>>`` of ``template``."""
    for key, value in values.items():
        template = template.replace(f"<<{key}>>", value)
    left = re.findall(r"<<[A-Z_0-9]+>>", template)
    if left:
        raise AssertionError(f"unfilled placeholders {left} in a snippet template")
    return template


def _choice(name: str, value: Any, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}; got {value!r}")
    return value


def _header(page: str, title: str) -> str:
    return (
        f"# boostlab, {title}: the page's run reproduced with boostcore alone.\n"
        f"# Paper: {PAPERS[page]}\n"
        "# Run it from the boostlab folder (or with boostlab on PYTHONPATH):\n"
        "#   python this_script.py\n"
    )


# ------------------------------------------------------------------------------ dataset
_SOURCES = {
    "generated": "generated",
    "csv": "csv",
    "upload csv": "csv",
    "upload": "csv",
    "drawn": "drawn",
    "draw": "drawn",
    "draw points": "drawn",
}


def dataset_code(source: str, params: Mapping[str, Any]) -> str:
    """The lines of a script that build ``ds`` as the page's sidebar does.

    ``source`` (case-insensitive; the sidebar's labels work too):

    * ``"generated"`` — ``params``: ``name, n, noise, imbalance, label_noise, seed,
      test_fraction`` (exactly the arguments of ``ui.compute.generated_dataset``);
    * ``"csv"`` — ``params``: ``filename, test_fraction, seed``; the script reads the file
      from its working folder (a comment says to put it next to the script);
    * ``"drawn"`` — ``params``: ``X`` (points, shape (m, 2)), ``y`` (labels), ``test_fraction``,
      ``seed`` and optionally ``name``; the points are written into the script.

    The lines assume ``from boostcore import datasets`` (every snippet imports it); the CSV
    lines import the CSV reader themselves.
    """
    kind = _SOURCES.get(str(source).strip().lower())
    if kind is None:
        raise ValueError(f"source must be 'generated', 'csv' or 'drawn'; got {source!r}")
    p = dict(params)
    if kind == "generated":
        missing = [
            k
            for k in ("name", "n", "noise", "imbalance", "label_noise", "seed", "test_fraction")
            if k not in p
        ]
        if missing:
            raise ValueError(f"generated data needs the parameters {missing}")
        _choice("name", p["name"], datasets.GENERATORS)
        return (
            f"# The generated dataset of the sidebar ({p['name']}).\n"
            f"ds = datasets.make_dataset(\n"
            f"    {_lit(p['name'])}, n={_lit(int(p['n']))}, noise={_lit(p['noise'])}, "
            f"imbalance={_lit(p['imbalance'])},\n"
            f"    label_noise={_lit(p['label_noise'])}, random_state={_lit(int(p['seed']))}, "
            f"test_fraction={_lit(p['test_fraction'])},\n"
            f")\n"
        )
    if kind == "csv":
        if "filename" not in p:
            raise ValueError("CSV data needs the parameter 'filename'")
        filename = os.path.basename(str(p["filename"])) or "data.csv"
        tf, seed = p.get("test_fraction", 0.25), int(p.get("seed", 0))
        head = f"# Your uploaded CSV: put {filename} next to this script and run it from there.\n"
        # The sidebar leaves out unusable rows and lists them (ui.compute's
        # uploaded_dataset_report); the script does the same.
        return head + (
            "from boostcore.csvdata import load_csv_report\n\n"
            f"ds, csv_report = load_csv_report(\n"
            f'    open({_lit(filename)}, "rb").read(), name={_lit(filename)}, '
            f"test_fraction={_lit(tf)}, random_state={_lit(seed)},\n"
            f")\n"
            f"if csv_report.n_rejected:\n"
            f'    print("Left out:", csv_report.summary())\n'
        )
    X = np.asarray(p.get("X", ()), dtype=float)
    y = np.asarray(p.get("y", ()))
    if X.ndim != 2 or X.shape[1] != 2 or y.shape != (X.shape[0],):
        raise ValueError(
            f"drawn data needs X of shape (m, 2) and y of shape (m,); got {X.shape} and {y.shape}"
        )
    tf, seed = p.get("test_fraction", 0.0), int(p.get("seed", 0))
    rows = [f"[{_lit(float(a))}, {_lit(float(b))}]" for a, b in X]
    x_lines = "".join(f"    {', '.join(rows[i : i + 3])},\n" for i in range(0, len(rows), 3))
    labels = [_lit(v) for v in y.tolist()]
    y_lines = "".join(f"    {', '.join(labels[i : i + 16])},\n" for i in range(0, len(labels), 16))
    name = f", name={_lit(str(p['name']))}" if p.get("name") else ""
    return (
        f"# The {len(rows)} points drawn on the page.\n"
        f"X = [\n{x_lines}]\n"
        f"y = [\n{y_lines}]\n"
        f"ds = datasets.from_points(\n"
        f"    X, y{name}, test_fraction={_lit(tf)}, random_state={_lit(seed)}\n"
        f")\n"
    )


def dataset_spec(
    choice_key: str, dataset_name: str | None = None, drawn_xy: tuple[Any, Any] | None = None
) -> tuple[str, dict]:
    """``(source, params)`` for :func:`dataset_code` from a ``DataChoice`` key.

    Understood keys (``ui.widgets`` / ``ui.draw``): ``gen:name:n:noise:imbalance:label_noise:
    seed:test_fraction`` (generated), ``csv:digest:test_fraction:seed`` (uploaded; the file
    name is ``choice.dataset.name``, pass it as ``dataset_name``) and
    ``draw:hash:test_fraction:seed`` (drawn; the points are not in the key: pass
    ``drawn_xy=draw.points_xy(st.session_state["draw_pts"])``).
    """
    parts = str(choice_key).split(":")
    if parts[0] == "gen" and len(parts) == 8:
        _, name, n, noise, imbalance, label_noise, seed, tf = parts
        return "generated", dict(
            name=name,
            n=int(n),
            noise=float(noise),
            imbalance=float(imbalance),
            label_noise=float(label_noise),
            seed=int(seed),
            test_fraction=float(tf),
        )
    if parts[0] == "csv" and len(parts) == 4:
        return "csv", dict(
            filename=dataset_name or "data.csv", test_fraction=float(parts[2]), seed=int(parts[3])
        )
    if parts[0] == "draw" and len(parts) == 4:
        if drawn_xy is None:
            raise ValueError("drawn data: pass the points as drawn_xy=(X, y)")
        X, y = drawn_xy
        return "drawn", dict(
            X=np.asarray(X, dtype=float),
            y=np.asarray(y),
            name=dataset_name or "drawn",
            test_fraction=float(parts[2]),
            seed=int(parts[3]),
        )
    raise ValueError(f"cannot read the dataset parameters from the key {choice_key!r}")


# ------------------------------------------------------------------------------ snippets
_TOPDOWN = """<<HEADER>>
from boostcore import datasets
from boostcore.topdown import grow

# The page's parameters.
SIZE = <<SIZE>>  # leaf budget s
INDEX = <<INDEX>>  # index function I
MAX_ARITY = <<MAX_ARITY>>  # largest arity K
GAMMA = <<GAMMA>>  # gamma given to Mansour-McAllester only (the others get None)
LEAF_RULE = <<LEAF_RULE>>
CRITERIA = <<CRITERIA>>
<<HELPERS>>

<<DATA>>
<<TEST>>
runs = {}
for criterion in CRITERIA:
    steps = list(grow(
        ds.X_train, ds.y_train, size=SIZE, index=INDEX, criterion=criterion,
        max_arity=MAX_ARITY, gamma=GAMMA if criterion == "mansour_mcallester" else None,
        leaf_rule=LEAF_RULE, X_test=X_test, y_test=y_test,
    ))
    runs[criterion] = steps
    print(f"\\n== {criterion} ==")
    print("round  |T|  train    test    I(T)    gamma^  e_g^(|T|)  s^-g^   this round")
    for step in steps:  # round 0 (one leaf), one step per expansion, then the stop
        m = step.metrics
        print(f"{step.t:5d} {m.n_leaves:4d} {fmt(m.train_error)} {fmt(m.test_error)} "
              f"{fmt(m.index_value)} {fmt(m.gamma_hat)} {fmt(m.bound_e):>9} "
              f"{fmt(m.bound_final)}  {step.stop_reason or step.message}")

print("\\nThe last round, as on the page:")
for criterion, steps in runs.items():
    m = steps[-1].metrics
    report(criterion, {
        "round": steps[-1].t, "n_leaves": m.n_leaves, "train_error": m.train_error,
        "test_error": m.test_error, "index_value": m.index_value, "gamma_hat": m.gamma_hat,
        "bound_e": m.bound_e, "bound_power": m.bound_power, "bound_final": m.bound_final,
        "bound_mm": m.bound_mm,
    })
"""


def topdown_snippet(
    data_code: str,
    size: int,
    index: str,
    criteria: Sequence[str],
    max_arity: int,
    gamma: float | None,
    leaf_rule: str,
) -> str:
    """Script reproducing the top-down page: one ``grow`` run per criterion.

    ``criteria`` are core names (``"hatano"``, ``"mansour_mcallester"``, ``"naive"``), as in
    the page's ``params["crit"]`` (its short labels ``"Hatano"``… work too); ``gamma`` is
    the sidebar's γ (given to Mansour–McAllester only, as the page does).
    """
    criteria = [
        _choice("criteria", CRITERION_FROM_SHORT.get(c, c), topdown.CRITERIA) for c in criteria
    ]
    if not criteria:
        raise ValueError("criteria must name at least one criterion")
    _choice("index", index, INDEX)
    _choice("leaf_rule", leaf_rule, topdown.LEAF_RULES)
    return _fill(
        _TOPDOWN,
        HEADER=_header("topdown", "Top-down growth page"),
        SIZE=_lit(int(size)),
        INDEX=_lit(index),
        MAX_ARITY=_lit(int(max_arity)),
        GAMMA=_lit(gamma),
        LEAF_RULE=_lit(leaf_rule),
        CRITERIA=_lit(criteria),
        HELPERS=_HELPERS,
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_TEST_SPLIT,
    )


_BRANCHING = """<<HEADER>>
from boostcore import datasets
from boostcore.branching import bp_infoboost

# The page's parameters.
N_ROUNDS = <<N_ROUNDS>>  # rounds T
C = <<C>>  # Theorem 3's trade-off (BP.InfoBoost's bands)
WEAK_LEARNER = <<WEAK_LEARNER>>  # "h": min H(Y|h); "divided": min H(Y|divided leaves)
SCHEMES = <<SCHEMES>>  # name -> merge
<<HELPERS>>

<<DATA>>
<<TEST>>
runs = {}
for name, merge in SCHEMES.items():
    steps = list(bp_infoboost(
        ds.X_train, ds.y_train, n_rounds=N_ROUNDS, merge=merge, c=C,
        weak=WEAK_LEARNER, X_test=X_test, y_test=y_test,
    ))
    runs[name] = steps
    print(f"\\n== {name} (merge={merge!r}) ==")
    print("round |L_t|  train    test    Z_t     H(Y|h)  prod Z  prod H(Y|h)  this round")
    for step in steps:  # round 0 (F_0 = 0), one step per round, then the stop
        m = step.metrics
        if step.kind == "stop":
            print(f"{step.t:5d}  {step.stop_reason}")
            continue
        print(f"{step.t:5d} {m.n_leaves:5d} {fmt(m.train_error)} {fmt(m.test_error)} "
              f"{fmt(m.Z)} {fmt(m.H_h)} {fmt(m.bound_prod_Z)} {fmt(m.prod_H_h):>11}  "
              f"{step.message}")

print("\\nThe last round, as on the page:")
for name, steps in runs.items():
    last = steps[-1]  # the stop snapshot: the final program and metrics, and why it ended
    m = last.metrics
    report(name, {
        "round": last.t, "n_leaves": m.n_leaves, "train_error": m.train_error,
        "test_error": m.test_error, "Z": m.Z, "H_h": m.H_h, "H_divided": m.H_divided,
        "H_leaves": m.H_leaves, "gamma": m.gamma, "prod_Z": m.bound_prod_Z, "prod_H_h": m.prod_H_h,
    })
"""


def _merge_of(scheme: str) -> str:
    if scheme in branching.MERGES:
        return scheme
    by_name = {v: k for k, v in MERGE_SHORT.items()}
    if scheme in by_name:
        return by_name[scheme]
    raise ValueError(
        f"schemes must be merges {list(branching.MERGES)} or names {list(by_name)}; got {scheme!r}"
    )


def branching_snippet(
    data_code: str, schemes: Sequence[str], n_rounds: int, c: float, weak_learner: str
) -> str:
    """Script reproducing the divide-and-merge page: one ``bp_infoboost`` run per scheme.

    ``schemes`` are the page's names (``"InfoBoost"``, ``"BP.InfoBoost"``, ``"DT.InfoBoost"``,
    i.e. ``params["schemes"]``) or merges (``"all"``, ``"bands"``, ``"none"``);
    ``weak_learner`` is the core value (``params["wl"]``: ``"h"`` or ``"divided"``).
    """
    merges = [_merge_of(s) for s in schemes]
    if not merges:
        raise ValueError("schemes must name at least one merging scheme")
    _choice("weak_learner", weak_learner, branching.WEAK_LEARNERS)
    return _fill(
        _BRANCHING,
        HEADER=_header("branching", "Divide and merge (InfoBoost) page"),
        N_ROUNDS=_lit(int(n_rounds)),
        C=_lit(c),
        WEAK_LEARNER=_lit(weak_learner),
        SCHEMES=_lit({MERGE_SHORT[m]: m for m in merges}),
        HELPERS=_HELPERS,
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_TEST_SPLIT,
    )


_PROB_CALLS = {
    "chain": "prob_adaboost(ds.X_train, ds.y_train, n_rounds=N_WEAK, samples=SAMPLES, **common)",
    "tree": "prob_tree(ds.X_train, ds.y_train, n_internal=N_WEAK, samples=SAMPLES, **common)",
    "collapse": "collapse_tree(ds.X_train, ds.y_train, n_internal=N_WEAK, **common)",
    "matryoshka": "matryoshka(ds.X_train, ds.y_train, levels=LEVELS, **common)",
}

_MATRYOSHKA = """<<HEADER>>
import math

from boostcore import datasets
from boostcore.probabilistic import <<IMPORTS>>

# The page's parameters.
N_WEAK = <<N_WEAK>>  # soft stumps T
SOFTNESS = <<SOFTNESS>>  # tau in q(+, x) = sigmoid((x_j - theta) / tau)
SAMPLES = <<SAMPLES>>  # None: exact q; R: chain and tree train on MAP estimates from R answers
LEVELS = max(1, int(math.floor(math.log2(N_WEAK))))  # the matryoshka uses T = 2^L stumps
<<HELPERS>>

<<DATA>>
<<TEST>>
common = dict(softness=SOFTNESS, X_test=X_test, y_test=y_test)
runs = {}
<<RUNS>>
for structure, steps in runs.items():
    print(f"\\n== {structure} ==")
    print("    T  E[train]  E[test]  C(T)/prod Z  rho^    F(T,rho^)  this round")
    for step in steps:  # T = 0 (H = 0), one step per weak classifier (per level), then the stop
        m = step.metrics
        print(f"{m.n_weak:5d} {fmt(m.train_error):>8} {fmt(m.test_error):>8} "
              f"{fmt(m.bound_C):>11} {fmt(m.rho_hat)} {fmt(m.bound_F):>9}  {step.message}")

print("\\nThe last round, as on the page (T = N_WEAK weak classifiers used):")
for structure, steps in runs.items():
    step = [s for s in steps if s.metrics.n_weak <= N_WEAK][-1]
    m = step.metrics
    report(structure, {
        "n_weak": m.n_weak, "train_error": m.train_error,
        "mc_2se": None if m.mc_stderr is None else 2 * m.mc_stderr,
        "test_error": m.test_error, "bound_C": m.bound_C, "rho_hat": m.rho_hat,
        "bound_F": m.bound_F, "bound_rho_T": m.bound_rho_T, "bound_M2": m.bound_M2,
    })
"""


def matryoshka_snippet(
    data_code: str,
    structures: Sequence[str],
    n_weak: int,
    softness: float,
    samples: int | None = None,
) -> str:
    """Script reproducing the probabilistic-trees page: one run per structure.

    ``structures`` are core names (``"chain"``, ``"tree"``, ``"matryoshka"``,
    ``"collapse"``: the page's ``params["structures"]``); ``samples`` is ``params["samples"]``
    (``None`` for exact q), used by the chain and the tree only, as on the page.
    """
    structures = [_choice("structures", s, STRUCTURES) for s in structures]
    if not structures:
        raise ValueError("structures must name at least one structure")
    names = {
        "chain": "prob_adaboost",
        "tree": "prob_tree",
        "collapse": "collapse_tree",
        "matryoshka": "matryoshka",
    }
    runs = "".join(f"runs[{s!r}] = list({_PROB_CALLS[s]})\n" for s in structures)
    return _fill(
        _MATRYOSHKA,
        HEADER=_header("matryoshka", "Probabilistic trees & matryoshka page"),
        IMPORTS=", ".join(sorted({names[s] for s in structures})),
        N_WEAK=_lit(int(n_weak)),
        SOFTNESS=_lit(softness),
        SAMPLES=_lit(None if samples is None else int(samples)),
        HELPERS=_HELPERS,
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_TEST_SPLIT,
        RUNS=runs,
    )


_OBLIQUE = """<<HEADER>>
from boostcore import datasets
from boostcore.oblique import boost_odt, g1_linear, g1_tree

# The page's parameters.
N_INTERNAL = <<N_INTERNAL>>  # T2: internal nodes of BoostODT and of the KM tree
N_STUMPS = <<N_STUMPS>>  # T1: AdaBoost_R rounds inside each BoostODT node
NODE_LEARNER = <<NODE_LEARNER>>  # BoostODT's node learner
LEAF_RULE = <<LEAF_RULE>>  # BoostODT's leaf to split next (the KM tree uses "max_decrease")
<<HELPERS>>

<<DATA>>
<<TEST>>
runs = {
    # G1 on a path = discrete AdaBoost, with as many stumps as BoostODT may use in total
    "adaboost": list(g1_linear(ds.X_train, ds.y_train, n_rounds=N_INTERNAL * N_STUMPS,
                               weak="stump", X_test=X_test, y_test=y_test)),
    # G1 with constant nodes on a Kearns-Mansour tree (Theorem 2)
    "km_tree": list(g1_tree(ds.X_train, ds.y_train, n_internal=N_INTERNAL,
                            leaf_rule="max_decrease", X_test=X_test, y_test=y_test)),
    # BoostODT: AdaBoost_R builds every node's separator LS
    "boostodt": list(boost_odt(ds.X_train, ds.y_train, n_internal=N_INTERNAL,
                               n_stumps=N_STUMPS, weak=NODE_LEARNER,
                               leaf_rule=LEAF_RULE, X_test=X_test, y_test=y_test)),
}
for name, steps in runs.items():
    print(f"\\n== {name} ==")
    print("step  train    test    nu(H,0)  E e^-yH  Theorem 1  this step")
    for step in steps:  # step 0 (H = 0 / the root alone), one per step, then the stop
        m = step.metrics
        if step.kind == "stop":
            print(f"{step.t:4d}  {step.stop_reason}")
            continue
        print(f"{step.t:4d} {fmt(m.train_error)} {fmt(m.test_error)} {fmt(m.margin_error_0):>8} "
              f"{fmt(m.exp_loss):>8} {fmt(m.bound_theorem1):>9}  {step.message}")

# The page's last step: BoostODT's last round, the KM tree with as many splits, and
# AdaBoost after as many stumps as BoostODT used in all its nodes (round t of a run is
# its t-th snapshot once the stop snapshot, which repeats the last round, is left out).
rounds = {name: [s for s in steps if s.kind != "stop"] for name, steps in runs.items()}
odt, km, ada = rounds["boostodt"], rounds["km_tree"], rounds["adaboost"]
used = sum(len(step.inner) for step in odt)
shown = {
    "adaboost": ada[min(used, len(ada) - 1)],
    "km_tree": km[min(len(odt) - 1, len(km) - 1)],
    "boostodt": odt[-1],
}
print(f"\\nThe last step, as on the page ({used} stumps used by BoostODT):")
for name, step in shown.items():
    m = step.metrics
    report(name, {
        "step": step.t, "train_error": m.train_error, "test_error": m.test_error,
        "margin_error_0": m.margin_error_0, "exp_loss": m.exp_loss,
        "km_impurity": m.km_impurity, "bound_theorem1": m.bound_theorem1,
    })
"""


def oblique_snippet(
    data_code: str, n_internal: int, n_stumps: int, node_learner: str, leaf_rule: str
) -> str:
    """Script reproducing the oblique-trees page: AdaBoost (G1 on a path), the KM tree and
    BoostODT, with the page's last-step alignment. Arguments are the page's ``params``
    (``n_internal``, ``n_stumps``, ``learner``, ``rule``)."""
    _choice("node_learner", node_learner, oblique.WEAK_LEARNERS)
    _choice("leaf_rule", leaf_rule, oblique.LEAF_RULES)
    return _fill(
        _OBLIQUE,
        HEADER=_header("oblique", "Boosted oblique trees (G1) page"),
        N_INTERNAL=_lit(int(n_internal)),
        N_STUMPS=_lit(int(n_stumps)),
        NODE_LEARNER=_lit(node_learner),
        LEAF_RULE=_lit(leaf_rule),
        HELPERS=_HELPERS,
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_TEST_SPLIT,
    )


_GAME_WATCH = """<<HEADER>>
from boostcore.bounds import phi_gamma
from boostcore.game import <<IMPORTS>>

S = <<S>>  # target size s
GAMMA = <<GAMMA>>  # every k-way expansion keeps 1 - gamma * ceil(log2 k) of the leaf's weight
<<ADVERSARY>>
<<HELPERS>>

# The player is TOPDOWN-M's: it always expands the heaviest leaf.
states = list(play(S, GAMMA, max_weight_player, adversary))
print("move  leaf  leaf weight  k  shares                 tree weight after")
for state in states[1:]:
    if state.kind == "stop":  # the last snapshot repeats the final position
        break
    m = state.history[-1]
    shares = ", ".join(f"{d:.2f}" for d in m.distribution)
    print(f"{len(state.history):4d} {m.leaf:5d} {fmt(m.leaf_weight):>12} {m.k:2d}  "
          f"{shares:<22} {fmt(m.total_after)}")

final = states[-1]
equal = list(play(S, GAMMA, max_weight_player, equal_binary_adversary))[-1]
report("game", {
    "moves": len(final.history), "final_weight": final.total, "phi_gamma_s": phi_gamma(S, GAMMA),
    "s_pow_minus_gamma": S ** (-GAMMA), "equal_binary_final": equal.total,
})
"""

_GAME_PLAYED = """<<HEADER>>
from boostcore.bounds import phi_gamma
from boostcore.game import expand, max_weight_player, new_game

S = <<S>>  # target size s
GAMMA = <<GAMMA>>  # every k-way expansion keeps 1 - gamma * ceil(log2 k) of the leaf's weight
# <<WHO>>
MOVES = [  # (leaf, k, shares) of every move, in the order they were played
<<MOVES>>]
<<HELPERS>>

state = new_game(S, GAMMA)
print("move  leaf  heaviest?  leaf weight  k  shares                 tree weight after")
for leaf, k, shares in MOVES:
    heaviest = "yes" if leaf == max_weight_player(state) else "no"
    state = expand(state, leaf, k, shares)
    m = state.history[-1]
    print(f"{len(state.history):4d} {leaf:5d} {heaviest:>10} {fmt(m.leaf_weight):>12} {k:2d}  "
          f"{', '.join(f'{d:.2f}' for d in shares):<22} {fmt(m.total_after)}")

print("game over" if state.done else f"game not finished: {state.n_leaves} of {S} leaves")
report("game", {
    "moves": len(state.history), "final_weight": state.total, "phi_gamma_s": phi_gamma(S, GAMMA),
    "s_pow_minus_gamma": S ** (-GAMMA),
})
"""


def _norm_mode(mode: str) -> str:
    text = str(mode).lower()
    for m in GAME_MODES:
        if m in text:
            return m
    raise ValueError(f"mode must be one of {list(GAME_MODES)} (or the page's label); got {mode!r}")


def _norm_adversary(adversary: str) -> str:
    text = str(adversary).lower()
    for a in GAME_ADVERSARIES:
        if a in text:
            return a
    raise ValueError(
        f"adversary must be one of {list(GAME_ADVERSARIES)} (or the page's "
        f"label); got {adversary!r}"
    )


def _moves_of(moves: Any) -> list[tuple[int, int, tuple[float, ...]]]:
    if isinstance(moves, game.GameState):
        moves = moves.history
    out = []
    for m in moves:
        if isinstance(m, game.Move):
            out.append((int(m.leaf), int(m.k), tuple(float(d) for d in m.distribution)))
        else:
            leaf, k, shares = m
            out.append((int(leaf), int(k), tuple(float(d) for d in shares)))
    return out


def game_snippet(
    s: int,
    gamma: float,
    mode: str = "watch",
    adversary: str = "equal",
    seed: int = 0,
    moves: Any = (),
) -> str:
    """Script reproducing the Weight Distribution Game page.

    ``mode``: ``"watch"`` (app against app: ``adversary`` ``"equal"`` or ``"random"`` with
    ``seed``, as ``ui.compute.game_play``), ``"adversary"`` or ``"player"`` (replays
    ``moves``: the current ``GameState``, its ``history`` of ``Move``, or ``(leaf, k,
    shares)`` tuples). The page's labels (``MODES``, ``ADVERSARIES``) are accepted too.
    """
    mode = _norm_mode(mode)
    header = _header("game", "Weight Distribution Game page")
    if mode == "watch":
        adv = _norm_adversary(adversary)
        if adv == "equal":
            imports = "equal_binary_adversary, max_weight_player, play"
            line = "adversary = equal_binary_adversary  # two equal children every time"
        else:
            imports = "equal_binary_adversary, max_weight_player, play, random_adversary"
            line = (
                f"SEED = {_lit(int(seed))}\n"
                "adversary = random_adversary(SEED)  # a random legal k, Dirichlet shares"
            )
        return _fill(
            _GAME_WATCH,
            HEADER=header,
            IMPORTS=imports,
            S=_lit(int(s)),
            GAMMA=_lit(gamma),
            ADVERSARY=line,
            HELPERS=_HELPERS,
        )
    played = _moves_of(moves)
    who = (
        "You played the adversary; the app's player expanded the heaviest leaf."
        if mode == "adversary"
        else "You played the player; the app's adversary split in two, equally."
    )
    lines = "".join(f"    ({leaf}, {k}, {_lit(shares)}),\n" for leaf, k, shares in played)
    return _fill(
        _GAME_PLAYED,
        HEADER=header,
        S=_lit(int(s)),
        GAMMA=_lit(gamma),
        WHO=who,
        MOVES=lines,
        HELPERS=_HELPERS,
    )


_BOUNDS = """<<HEADER>>
import math

from boostcore import bounds

# The page's parameters.
RHOS = <<RHOS>>  # per-node bound rho = sqrt(1 - 4 eps^2)
T = <<T>>  # weak classifiers (Figure 2, right)
RHO3 = <<RHO3>>  # rho of Figure 3
C, TN = <<C>>, <<TN>>  # collapse rate (section 5.4)
GAMMA = <<GAMMA>>  # advantage (top-down tab)
EPS = <<EPS>>  # target error (InfoBoost tab)
<<HELPERS>>

print("Figure 2, left: T = 2^L weak classifiers")
for rho in RHOS:
    for L in range(0, 17, 4):
        print(f"  rho={rho:.4f} T={2 ** L:6d}  rho^T={rho ** (2 ** L):.4g}  "
              f"M2={float(bounds.m2(L, rho)):.4g}  F={float(bounds.f_tree(2 ** L, rho)):.4g}")

print(f"Figure 2, right: T = {T}, sub-trees of T1 weak classifiers")
for rho in RHOS:
    T1 = 1
    while T1 <= T:
        print(f"  rho={rho:.4f} T1={T1:6d}  paper F(T/T1, F(T1, rho))="
              f"{bounds.nested_f([T1, T / T1], rho):.4g}  valid="
              f"{bounds.valid_nested_f(T1, T / T1, rho):.4g}")
        T1 *= 4

print(f"Figure 3: L equal nesting levels, rho = {RHO3}")
for T3 in (1024, 65536):
    for L in (1, 2, 5, 10, 20):
        print(f"  T={T3:6d} L={L:2d}  nested={float(bounds.nested_equal(T3, L, RHO3)):.4g}  "
              f"plain F={float(bounds.f_tree(T3, RHO3)):.4g}")

print("Split prices: ceil(log2 k), g_gamma(k), ln k")
for k in (2, 3, 4, 8, 16, 32):
    print(f"  k={k:2d}  {int(bounds.ceil_log2(k))}  {float(bounds.g_gamma(k, GAMMA)):.4f}  "
          f"{math.log(k):.4f}")

print("Size bounds: e_gamma(n), phi_gamma(n), n^-gamma")
for n in (2, 4, 8, 16, 64, 256):
    print(f"  n={n:3d}  {float(bounds.e_gamma(n, GAMMA)):.4f}  "
          f"{float(bounds.phi_gamma(n, GAMMA)):.4f}  {float(bounds.size_bound(n, GAMMA)):.4f}")

print(f"InfoBoost's rounds for error <= {EPS}: T = (1/gamma) ln(1/eps)")
for g in (0.001, 0.01, 0.1, 0.5, 1.0):
    print(f"  gamma={g:<6} T={float(bounds.infoboost_rounds(g, EPS)):.1f}")

print("Takimoto's band count: at most 4K leaves")
for c in (0.25, 0.5, 0.75, 0.9):
    print(f"  c={c}  " + "  ".join(f"gamma={g:g}: 4K={4 * int(bounds.band_count(c, g))}"
                                   for g in (1e-4, 1e-2, 1.0)))

report("bounds", {
    "matryoshka_rate": bounds.matryoshka_rate(C, TN),
    "m2_10_7/8": bounds.m2(10, 7 / 8), "f_tree_1024_7/8": bounds.f_tree(1024, 7 / 8),
    "valid_nested_32_32_7/8": bounds.valid_nested_f(32, 32, 7 / 8),
})
"""


def _rho(value: Any) -> float:
    if isinstance(value, str):
        return float(Fraction(value))
    return float(value)


def bounds_snippet(
    rhos: Sequence[Any], T: int, rho3: Any, C: float, Tn: int, gamma: float, eps: float
) -> str:
    """Script printing the bounds explorer's closed forms for the page's slider values.

    ``rhos`` and ``rho3`` are numbers or the page's labels (``"7/8"``); ``C``/``Tn`` are the
    collapse-rate sliders, ``gamma`` the top-down tab's γ, ``eps`` the InfoBoost tab's ε.
    """
    rhos = [_rho(r) for r in rhos] or [7 / 8]
    return _fill(
        _BOUNDS,
        HEADER=_header("bounds", "Bounds explorer page"),
        RHOS=_lit(rhos),
        T=_lit(int(T)),
        RHO3=_lit(_rho(rho3)),
        C=_lit(float(C)),
        TN=_lit(int(Tn)),
        GAMMA=_lit(float(gamma)),
        EPS=_lit(float(eps)),
        HELPERS=_HELPERS,
    )


# ------------------------------------------------------------------------------ records
def _fname(feature: int | None, names: Sequence[str] | None) -> str:
    if feature is None or feature < 0:
        return "?"
    if names is not None and feature < len(names):
        return str(names[feature])
    return f"x{feature + 1}"


def _chosen_topdown(s: topdown.TreeStep, names) -> str:
    sp = s.split
    thr = ", ".join(f"{v:.4g}" for v in sp.thresholds)
    return (
        f"leaf #{sp.leaf}: {sp.arity}-way split on {_fname(sp.feature, names)} at {thr} "
        f"(gain {sp.gain:.4g})"
    )


def _chosen_bp(s: branching.BPStep, names) -> str:
    return (
        f"h_{s.t} = [{_fname(s.feature, names)} > {s.threshold:.4g}], "
        f"{plural(s.metrics.n_leaves, 'leaf', 'leaves')} after merging"
    )


def _chosen_prob(s: probabilistic.ProbStep, names) -> str:
    h = s.stump
    if h is None:  # the matryoshka: a step is one level of nesting
        return f"level-{s.t} doll ({s.metrics.n_weak} soft stumps)"
    sign = "" if h.polarity > 0 else "−"
    where = f" at leaf #{s.node}" if s.node is not None else ""
    return f"soft stump σ({sign}({_fname(h.feature, names)} − {h.theta:.4g})/{h.tau:g}){where}"


def _chosen_g1(s: oblique.G1Step, names) -> str:
    return f"h_{s.t} = {s.round.hyp.describe()}, α = {s.round.alpha:.4g}"


def _chosen_odt(s: oblique.ODTStep, names) -> str:
    terms = [f"{a:.3g}·{h.describe()}" for h, a in zip(s.separator.hyps, s.separator.alphas)]
    text = " + ".join(terms[:4]) + (f" + … ({len(terms)} terms)" if len(terms) > 4 else "")
    kids = "" if s.children is None else f" → leaves #{s.children[0]}, #{s.children[1]}"
    return f"node #{s.node} split by LS = {text}{kids}"


def _chosen_game(s: game.GameState, names) -> str:
    m = s.history[-1]
    shares = ", ".join(f"{d:.2f}" for d in m.distribution)
    return f"leaf #{m.leaf} (weight {m.leaf_weight:.4g}) split {m.k}-way, shares {shares}"


#: What a step did, in words with the dataset's feature names (the "chosen" column).
_CHOSEN = (
    (topdown.TreeStep, _chosen_topdown),
    (branching.BPStep, _chosen_bp),
    (probabilistic.ProbStep, _chosen_prob),
    (oblique.G1Step, _chosen_g1),
    (oblique.ODTStep, _chosen_odt),
    (game.GameState, _chosen_game),
)


def run_records(steps: Iterable[Any], feature_names: Sequence[str] | None = None) -> list[dict]:
    """One flat dict per snapshot of a run: the snapshot's own record (``to_record()`` of the
    step protocol, boostcore/steps.py: ``t``, ``kind``, ``stop_reason``, ``message``, what the
    step did and every scalar metric) with ``chosen`` — what the step did, in words with the
    dataset's feature names — after ``t`` and ``kind``. Values are plain Python, NaN/±inf as
    ``None``.

    Works for the snapshots of every page (top-down ``TreeStep``, ``BPStep``, ``ProbStep``,
    ``G1Step``, ``ODTStep``, game states); ``chosen`` is empty for the start and the stop
    snapshot (which repeats the last round). Records already given as dicts are passed
    through (cleaned).
    """
    out = []
    for s in steps:
        if isinstance(s, Mapping):
            out.append(_plain(dict(s)))
            continue
        if not isinstance(s, Step):
            raise TypeError(f"run_records does not know snapshots of type {type(s).__name__}")
        rec = s.to_record()
        chosen = ""
        if s.kind == STEP:
            describe = next((fn for cls, fn in _CHOSEN if isinstance(s, cls)), None)
            chosen = describe(s, feature_names) if describe else ""
        head = {"t": rec.pop("t"), "kind": rec.pop("kind"), "chosen": chosen}
        out.append(_plain({**head, **rec}))
    return out


def run_json(
    page: str,
    params: Mapping[str, Any],
    runs: Mapping[str, Iterable[Any]],
    feature_names: Sequence[str] | None = None,
) -> str:
    """The whole run as JSON: ``{"page", "params", "runs": {name: [record per round]}}``.

    Numbers stay JSON numbers; NaN/±inf become ``null``; numpy values become plain ones.
    """
    doc = {
        "page": page,
        "params": _plain(dict(params)),
        "runs": {str(name): run_records(steps, feature_names) for name, steps in runs.items()},
    }
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)


def run_csv(runs: Mapping[str, Iterable[Any]], feature_names: Sequence[str] | None = None) -> str:
    """One CSV row per run × round: ``run`` first, then the columns of :func:`run_records`
    (lists as JSON text, missing values empty)."""
    import csv
    import io

    rows, columns = [], ["run", "t", "kind", "chosen"]
    for name, steps in runs.items():
        for rec in run_records(steps, feature_names):
            row = {"run": str(name)}
            for key, value in rec.items():
                if key not in columns:
                    columns.append(key)
                row[key] = json.dumps(value) if isinstance(value, list | dict) else value
            rows.append(row)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, restval="", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buf.getvalue()
