"""The lines of a reproduction script that build its dataset ``ds`` as the page's sidebar does.

Pure Python (no Streamlit calls). ``ui.exports`` puts these lines into every page's script.

* ``dataset_code(source, params)`` — the lines that build ``ds`` exactly as the sidebar does
  (``ui.compute.generated_dataset`` / ``uploaded_dataset``, or ``datasets.from_points`` for
  drawn points);
* ``dataset_spec(choice.key, choice.dataset.name)`` recovers ``(source, params)`` from a
  :class:`ui.widgets.DataChoice` for generated, uploaded and drawn data;
* ``literal`` and ``check_choice`` — a parameter as a Python literal, and a parameter checked
  against its allowed values (shared with the snippets of ``ui.exports``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from boostcore import datasets

from .records import plain


def literal(value: Any) -> str:
    """A Python literal for a parameter (numpy scalars become plain numbers).

    Parameters
    ----------
    value : Any
        The parameter; converted by :func:`ui.records.plain` first (NaN/±inf become ``None``).

    Returns
    -------
    str
        Its ``repr``, ready to be written into a script.
    """
    return repr(plain(value))


def csv_filename(name: Any) -> str:
    """The file name a script opens for an upload named ``name``: its last path component
    (``"data.csv"`` when that is empty, ``"."`` or ``".."``). Any other text is kept as it is,
    newlines and quotes included: the scripts hold it only as a string literal."""
    base = os.path.basename(str(name))
    return "data.csv" if base in ("", ".", "..") else base


def check_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """``value`` if it is one of ``choices``, else a ``ValueError`` naming ``name``."""
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}; got {value!r}")
    return value


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
        check_choice("name", p["name"], datasets.GENERATORS)
        return (
            "# The sidebar's generated dataset (its generator is the first argument).\n"
            f"ds = datasets.make_dataset(\n"
            f"    {literal(p['name'])}, n={literal(int(p['n']))}, noise={literal(p['noise'])}, "
            f"imbalance={literal(p['imbalance'])},\n"
            f"    label_noise={literal(p['label_noise'])}, random_state={literal(int(p['seed']))}, "
            f"test_fraction={literal(p['test_fraction'])},\n"
            f")\n"
        )
    if kind == "csv":
        if "filename" not in p:
            raise ValueError("CSV data needs the parameter 'filename'")
        filename = csv_filename(p["filename"])
        tf, seed = p.get("test_fraction", 0.25), int(p.get("seed", 0))
        # The sidebar leaves out unusable rows and lists them (ui.compute's
        # uploaded_dataset_report); the script does the same. The file name is user text:
        # it appears once, as the literal FILENAME, and nowhere else (not in a comment).
        return (
            "from boostcore.csvdata import load_csv_report\n\n"
            "# Your uploaded CSV: put the file named in FILENAME below next to this script and\n"
            "# run the script from that folder.\n"
            f"FILENAME = {literal(filename)}\n"
            'with open(FILENAME, "rb") as csv_file:\n'
            "    ds, csv_report = load_csv_report(\n"
            "        csv_file.read(), name=FILENAME, "
            f"test_fraction={literal(tf)}, random_state={literal(seed)},\n"
            "    )\n"
            "if csv_report.n_rejected:\n"
            '    print("Left out:", csv_report.summary())\n'
        )
    X = np.asarray(p.get("X", ()), dtype=float)
    y = np.asarray(p.get("y", ()))
    if X.ndim != 2 or X.shape[1] != 2 or y.shape != (X.shape[0],):
        raise ValueError(
            f"drawn data needs X of shape (m, 2) and y of shape (m,); got {X.shape} and {y.shape}"
        )
    tf, seed = p.get("test_fraction", 0.0), int(p.get("seed", 0))
    rows = [f"[{literal(float(a))}, {literal(float(b))}]" for a, b in X]
    x_lines = "".join(f"    {', '.join(rows[i : i + 3])},\n" for i in range(0, len(rows), 3))
    labels = [literal(v) for v in y.tolist()]
    y_lines = "".join(f"    {', '.join(labels[i : i + 16])},\n" for i in range(0, len(labels), 16))
    name = f", name={literal(str(p['name']))}" if p.get("name") else ""
    return (
        f"# The {len(rows)} points drawn on the page.\n"
        f"X = [\n{x_lines}]\n"
        f"y = [\n{y_lines}]\n"
        f"ds = datasets.from_points(\n"
        f"    X, y{name}, test_fraction={literal(tf)}, random_state={literal(seed)}\n"
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
    ``drawn_xy=choice.drawn_xy``, which ``ui.widgets`` fills from ``ui.draw.drawn_xy()``).
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
