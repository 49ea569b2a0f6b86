"""A page's run as data: one flat record per snapshot, and whole runs as JSON or CSV.

Pure Python (no Streamlit calls), so everything here is unit-testable; the pages only put
the strings into ``st.download_button`` (``ui.header.export_run``).

* ``run_records(steps)`` — one flat dict per snapshot for every snapshot type the pages use:
  the step protocol's ``to_record()`` (boostcore/steps.py) with ``chosen``, what the step
  did in words with the dataset's feature names;
* ``run_json`` and ``run_csv`` serialise whole runs (user text stays data: JSON strings, and
  CSV text cells that a spreadsheet would run as formulas get a leading ``'``, ``csv_cell``);
* ``plain(value)`` — JSON-able plain Python (numpy values converted, NaN/±inf as ``None``),
  also used for the literals of the reproduction scripts (``ui.dataset_code``, ``ui.exports``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from boostcore import branching, csvdata, game, oblique, probabilistic, realboost, topdown
from boostcore.steps import STEP, Step

from .text import plural


def plain(value: Any) -> Any:
    """JSON-able plain Python: numpy scalars/arrays converted, NaN and ±inf as ``None``.

    Parameters
    ----------
    value : Any
        A number, string, numpy scalar or array, mapping or collection (nested freely).

    Returns
    -------
    Any
        ``None``, ``str``, ``bool``, ``int``, ``float`` (finite), ``list`` or ``dict`` with
        string keys; anything else becomes its ``str``.
    """
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
        return [plain(v) for v in value.tolist()]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


# ------------------------------------------------------------------------------ chosen
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


def _chosen_g1(s: realboost.G1Step, names) -> str:
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
    (realboost.G1Step, _chosen_g1),
    (oblique.ODTStep, _chosen_odt),
    (game.GameState, _chosen_game),
)


# ------------------------------------------------------------------------------ records
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
            out.append(plain(dict(s)))
            continue
        if not isinstance(s, Step):
            raise TypeError(f"run_records does not know snapshots of type {type(s).__name__}")
        rec = s.to_record()
        chosen = ""
        if s.kind == STEP:
            describe = next((fn for cls, fn in _CHOSEN if isinstance(s, cls)), None)
            chosen = describe(s, feature_names) if describe else ""
        head = {"t": rec.pop("t"), "kind": rec.pop("kind"), "chosen": chosen}
        out.append(plain({**head, **rec}))
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
        "params": plain(dict(params)),
        "runs": {str(name): run_records(steps, feature_names) for name, steps in runs.items()},
    }
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)


#: First characters that make a spreadsheet read a cell as a formula (OWASP's list; the
#: core's, which neutralises a dataset's CSV the same way: boostcore.csvdata.csv_cell).
FORMULA_STARTS = csvdata.FORMULA_STARTS


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell that no spreadsheet runs as a formula.

    Text starting with one of :data:`FORMULA_STARTS` (a feature name such as
    ``=HYPERLINK(…)`` from an uploaded CSV's header, say) gets a leading ``'``, which
    spreadsheets show as text and do not evaluate; other text, and numbers (negative ones
    included: they are numbers, not formulas), are unchanged. ``None`` is an empty cell.
    """
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def run_csv(runs: Mapping[str, Iterable[Any]], feature_names: Sequence[str] | None = None) -> str:
    """One CSV row per run × round: ``run`` first, then the columns of :func:`run_records`
    (lists as JSON text, missing values empty).

    Text cells that a spreadsheet would read as a formula are neutralised by
    :func:`csv_cell` (a leading ``'``); the JSON export (:func:`run_json`) keeps every
    string exactly, as data."""
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
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return buf.getvalue()
