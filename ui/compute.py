"""Cached runs: every algorithm run is computed once per parameter set and shared by all
sessions (the runs and lecture frames in :mod:`ui.cache`'s size-bounded store, datasets and
small tables with ``st.cache_data``), so stepping through rounds only renders."""

from __future__ import annotations

import html

import numpy as np
import streamlit as st

from boostcore import csvdata, datasets
from boostcore.branching import BandsAtC, BPStep, bp_infoboost, round_bands
from boostcore.probabilistic import (
    ProbStep,
    collapse_tree,
    matryoshka,
    prob_adaboost,
    prob_tree,
)
from boostcore.topdown import EXACT_SEARCH_LIMIT, LARGE_LEAF_CUTS, TreeStep, grow, replay

from .cache import shared


@st.cache_data(max_entries=64, show_spinner=False)
def generated_dataset(
    name: str,
    n: int,
    noise: float,
    imbalance: float,
    label_noise: float,
    seed: int,
    test_fraction: float,
) -> datasets.Dataset:
    """A generated 2D dataset (cached)."""
    return datasets.make_dataset(
        name,
        n=n,
        noise=noise,
        imbalance=imbalance,
        label_noise=label_noise,
        random_state=seed,
        test_fraction=test_fraction,
    )


@shared  # in the size-bounded store: an upload may be megabytes (its bytes are the key)
def uploaded_dataset(
    data: bytes, filename: str, test_fraction: float, seed: int
) -> datasets.Dataset:
    """A dataset parsed from an uploaded CSV (raises ``ValueError`` with a readable message)."""
    return csvdata.load_csv(data, name=filename, test_fraction=test_fraction, random_state=seed)


@shared
def uploaded_dataset_report(
    data: bytes, filename: str, test_fraction: float, seed: int
) -> tuple[datasets.Dataset, csvdata.CsvReport]:
    """An uploaded CSV with bad rows left out, and the report of what was left out (cached;
    file-level problems raise ``ValueError`` with a readable message)."""
    return csvdata.load_csv_report(
        data, name=filename, test_fraction=test_fraction, random_state=seed
    )


@shared
def topdown_run(
    _ds: datasets.Dataset,
    ds_key: str,
    size: int,
    index: str,
    criterion: str,
    max_arity: int,
    gamma: float | None,
    leaf_rule: str,
    choices: tuple = (),
) -> tuple[TreeStep, ...]:
    """All snapshots of one top-down run on a dataset identified by ``ds_key``.

    ``choices`` are a student's splits for rounds 1, 2, … (``(leaf, feature, thresholds,
    force)`` each, see :func:`boostcore.topdown.replay`); the rounds after them take the
    algorithm's own split.
    """
    return tuple(
        grow(
            _ds.X_train,
            _ds.y_train,
            size=size,
            index=index,
            criterion=criterion,
            max_arity=max_arity,
            gamma=gamma,
            leaf_rule=leaf_rule,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
            choose=replay(list(choices)) if choices else None,
        )
    )


# st.cache_resource, not the shared store: a GrowState holds mapping proxies (it cannot be
# pickled, so the store could not weigh it) and is small and read-only.
@st.cache_resource(max_entries=64, show_spinner=False)
def topdown_state(
    _ds: datasets.Dataset,
    ds_key: str,
    size: int,
    index: str,
    criterion: str,
    max_arity: int,
    gamma: float | None,
    leaf_rule: str,
    choices: tuple = (),
):
    """The state before the student's next round (``len(choices) + 1``): a
    :class:`boostcore.topdown.GrowState`, or ``None`` when the run is over by then.

    The run replays ``choices`` and stops at the policy call of the next round, so the
    state's ``members``, ``score`` and ``best`` answer for the student's tree exactly as
    :func:`boostcore.topdown.grow` would.
    """
    seen = []
    policy = replay(list(choices))

    def capture(state):
        if state.t == len(choices):
            seen.append(state)
            raise _Captured
        return policy(state)

    try:
        for _ in grow(
            _ds.X_train,
            _ds.y_train,
            size=size,
            index=index,
            criterion=criterion,
            max_arity=max_arity,
            gamma=gamma,
            leaf_rule=leaf_rule,
            choose=capture,
        ):
            pass
    except _Captured:
        pass
    return seen[0] if seen else None


class _Captured(Exception):
    """Stops a replayed run at the round the student plays next (see :func:`topdown_state`)."""


@shared
def bp_run(
    _ds: datasets.Dataset,
    ds_key: str,
    n_rounds: int,
    merge: str,
    c: float,
    weak_learner: str,
    choices: tuple = (),
) -> tuple[BPStep, ...]:
    """All snapshots of one BP.InfoBoost run on the dataset identified by ``ds_key`` (start
    ``t = 0``, one step per round, stop).

    ``choices`` are a student's stumps for rounds 1, 2, … (``(feature, threshold)`` each,
    played by :func:`boostcore.branching.bp_infoboost`'s ``choose``); the rounds after them
    are the weak learner's.
    """

    def replay(step: BPStep) -> tuple[int, float] | None:
        # called with the snapshot of round t − 1: its answer plays round t = step.t + 1
        return choices[step.t] if step.t < len(choices) else None

    return tuple(
        bp_infoboost(
            _ds.X_train,
            _ds.y_train,
            n_rounds=n_rounds,
            merge=merge,
            c=c,
            weak=weak_learner,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
            choose=replay if choices else None,
        )
    )


#: The values of ``c`` the per-round view of Theorem 3 re-merges with (the sidebar's grid).
C_GRID = tuple(round(0.05 * k, 2) for k in range(1, 20))


@shared
def bp_c_rounds(
    _ds: datasets.Dataset,
    ds_key: str,
    n_rounds: int,
    c: float,
    weak_learner: str,
    cs: tuple[float, ...] = C_GRID,
) -> tuple[tuple[BandsAtC, ...], ...]:
    """Theorem 3 per round: at every round of the BP.InfoBoost run with ``c``, that round's
    ``D_t`` and divided children merged by the bands of every ``c`` in ``cs`` (one tuple per
    snapshot of the run; empty for its start and stop snapshots, which have no round)."""
    return tuple(
        round_bands(s, cs) for s in bp_run(_ds, ds_key, n_rounds, "bands", c, weak_learner)
    )


@shared
def prob_run(
    _ds: datasets.Dataset,
    ds_key: str,
    structure: str,
    n_weak: int,
    softness: float,
    samples: int | None = None,
) -> tuple[ProbStep, ...]:
    """All snapshots of one probabilistic-boosting run (chain, tree or matryoshka);
    ``samples`` = R trains the chain and the tree on MAP estimates of q."""
    kw = dict(
        softness=softness,
        X_test=_ds.X_test if _ds.n_test else None,
        y_test=_ds.y_test if _ds.n_test else None,
    )
    if structure == "chain":
        return tuple(
            prob_adaboost(_ds.X_train, _ds.y_train, n_rounds=n_weak, samples=samples, **kw)
        )
    if structure == "tree":
        return tuple(prob_tree(_ds.X_train, _ds.y_train, n_internal=n_weak, samples=samples, **kw))
    if structure == "collapse":
        return tuple(collapse_tree(_ds.X_train, _ds.y_train, n_internal=n_weak, **kw))
    levels = max(1, int(np.floor(np.log2(n_weak))))
    return tuple(matryoshka(_ds.X_train, _ds.y_train, levels=levels, **kw))


@shared
def g1_path_run(_ds: datasets.Dataset, ds_key: str, n_rounds: int, weak: str) -> tuple:
    """All snapshots of G1 on a path (AdaBoost_R) with the built-in ``weak`` learner."""
    from boostcore.realboost import g1_linear

    return tuple(
        g1_linear(
            _ds.X_train,
            _ds.y_train,
            n_rounds=n_rounds,
            weak=weak,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
        )
    )


@shared
def g1_tree_run(_ds: datasets.Dataset, ds_key: str, n_internal: int, leaf_rule: str) -> tuple:
    """All snapshots of G1 with constant nodes on a Kearns–Mansour tree (Theorem 2)."""
    from boostcore.oblique import g1_tree

    return tuple(
        g1_tree(
            _ds.X_train,
            _ds.y_train,
            n_internal=n_internal,
            leaf_rule=leaf_rule,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
        )
    )


@shared
def odt_run(
    _ds: datasets.Dataset,
    ds_key: str,
    n_internal: int,
    n_stumps: int,
    node_learner: str,
    leaf_rule: str,
    choices: tuple = (),
) -> tuple:
    """All snapshots of one BoostODT run.

    ``choices`` are a student's separators for steps 1, 2, … (``((cos θ, sin θ), b)`` — the
    line ``cos θ·x₁ + sin θ·x₂ + b = 0`` splits the node the leaf rule picks — or ``None`` for
    AdaBoost_R's; ui/pages/oblique/student.py); the steps after them are AdaBoost_R's.
    """
    from boostcore.oblique import boost_odt

    def policy(step, node):
        return choices[step.t] if step.t < len(choices) else None

    return tuple(
        boost_odt(
            _ds.X_train,
            _ds.y_train,
            n_internal=n_internal,
            n_stumps=n_stumps,
            weak=node_learner,
            leaf_rule=leaf_rule,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
            choose=policy if choices else None,
        )
    )


def odt_schedule(odt_steps: tuple, inner: bool) -> list[tuple[int, int | None, int]]:
    """The stepper's positions over a BoostODT run: ``(snapshot, stump j or None, stumps
    used so far)``, one per round ``t = 0 … T`` (the stop snapshot repeats the last round: no
    position of its own). With ``inner`` every AdaBoost_R round inside a node is a position."""
    from boostcore.steps import rounds

    out = []
    used = 0
    for i, s in enumerate(rounds(odt_steps)):
        k = len(s.inner)
        if inner and k > 1:
            for j in range(1, k + 1):
                out.append((i, j, used + j))
        else:
            out.append((i, None, used + k))
        used += k
    return out


@st.cache_data(max_entries=64, show_spinner=False)
def axis_parallel_peers(_ds: datasets.Dataset, ds_key: str, n_leaves: int) -> list[dict]:
    """Axis-parallel trees with the same number of leaves: boostlab's binary Kearns–Mansour
    tree (``TopDownTreeClassifier``) and scikit-learn's best-first CART."""
    from sklearn.tree import DecisionTreeClassifier

    from boostcore.estimators import TopDownTreeClassifier

    rows = []
    models = {
        "TopDown, binary, km index (boostlab)": TopDownTreeClassifier(
            size=max(n_leaves, 2), max_arity=2, index="km", leaf_rule="max_gain"
        ),
        "scikit-learn DecisionTreeClassifier": DecisionTreeClassifier(
            max_leaf_nodes=max(n_leaves, 2), random_state=0
        ),
    }
    for name, model in models.items():
        model.fit(_ds.X_train, _ds.y_train)
        rows.append(
            {
                "model": name,
                "leaves": int(model.get_n_leaves())
                if hasattr(model, "get_n_leaves")
                else int(model.tree_.n_leaves),
                "train error": float(np.mean(model.predict(_ds.X_train) != _ds.y_train)),
                "test error": float(np.mean(model.predict(_ds.X_test) != _ds.y_test))
                if _ds.n_test
                else None,
            }
        )
    return rows


RESULTS_DIR = __import__("pathlib").Path(__file__).resolve().parents[1] / "benchmarks" / "results"


@st.cache_data(show_spinner=False)
def benchmark_results(mtime: float) -> list[dict]:
    """The committed per-fold benchmark rows (``benchmarks/results/folds.csv``); ``mtime``
    keys the cache so a re-run of the benchmark script is picked up."""
    from boostcore import evaluation

    return evaluation.read_folds(RESULTS_DIR / "folds.csv")


def results_mtime() -> float:
    """Modification time of the committed results (0 when there are none)."""
    path = RESULTS_DIR / "folds.csv"
    return path.stat().st_mtime if path.exists() else 0.0


def run_benchmark_now(dataset: str, names: list[str], n_folds: int, progress) -> list[dict]:
    """Cross-validate the chosen learners on one dataset now (not cached: the page asks)."""
    from boostcore import evaluation
    from boostcore.real_datasets import load_real

    ds = load_real(dataset)
    return evaluation.cross_validate(
        dataset,
        ds.X,
        ds.y,
        ds.categorical,
        evaluation.learners(names),
        n_folds=n_folds,
        progress=progress,
    )


@st.cache_data(show_spinner=False)
def budget_results(mtime: float) -> list[dict]:
    """The committed error-vs-budget rows (``benchmarks/results/budget.csv``; [] if none)."""
    import csv

    path = RESULTS_DIR / "budget.csv"
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r["budget"] = int(r["budget"])
        r["error_mean"] = float(r["error_mean"])
    return rows


# ------------------------------------------------------------------ lecture-view frames
@shared
def topdown_lecture(
    _ds: datasets.Dataset,
    ds_key: str,
    size: int,
    index: str,
    criteria: tuple[str, ...],
    max_arity: int,
    gamma: float,
    leaf_rule: str,
    font: float,
    choices: tuple = (),
    chooser: str | None = None,
) -> dict:
    """Every round of every criterion's run, encoded for the lecture view (cached: a step
    in the browser needs nothing from the server). ``choices`` (a student's splits, see
    :func:`topdown_run`) apply to the run of criterion ``chooser``.

    Returns a dict with, per criterion, ``regions``, ``structure``, ``curves``, ``notes``,
    ``small``, ``spark`` and ``proof`` frames and ``n`` (its number of snapshots), plus
    ``tables``: the round tables over all runs (HTML, one per round of the longest run).
    """
    from . import lecture, tables
    from .pages.topdown.frames import (
        topdown_curves,
        topdown_proof_frames,
        tree_cells_figure,
        tree_pictures,
    )

    runs = {
        c: topdown_run(
            _ds,
            ds_key,
            size,
            index,
            c,
            max_arity,
            gamma if c == "mansour_mcallester" else None,
            leaf_rule,
            choices if c == chooser else (),
        )
        for c in criteria
    }
    # one picture per round t = 0 … T: the stop snapshot repeats the last round with the final
    # metrics (γ̂ = 0 after an early stop at an impure leaf) and the reason, so it takes its place
    runs = {c: run[:-2] + run[-1:] if len(run) > 1 else run for c, run in runs.items()}
    out: dict = {"runs": {}}
    for c, steps in runs.items():
        # a student's lighter leaf or forced split ends the theorem (the run's metrics say so)
        final_is_theorem = (
            (c != "naive" or max_arity == 2)
            and leaf_rule == "max_weight"
            and bool(steps[-1].metrics.final_guarantee)
        )
        notes = []
        for s in steps:
            text = s.message
            if s.note:
                text = f"{text}  ⚠ {s.note}"
            notes.append(text)
        out["runs"][c] = {
            "n": len(steps),
            "regions": lecture.plotly_frames([tree_cells_figure(s, _ds, font=font) for s in steps]),
            "structure": lecture.same_frames(
                [
                    tree_pictures(
                        s, index=index, feature_names=_ds.feature_names, font=round(font + 1)
                    )
                    for s in steps
                ]
            ),
            "curves": lecture.plotly_frames(
                [
                    topdown_curves(
                        steps,
                        t,
                        size=size,
                        show_mm=c == "mansour_mcallester",
                        final_is_theorem=final_is_theorem,
                        font=font,
                    )
                    for t in range(len(steps))
                ]
            ),
            "small": lecture.plotly_frames(
                [tree_cells_figure(s, _ds, small=True, font=font) for s in steps]
            ),
            "spark": lecture.plotly_frames(
                [
                    topdown_curves(
                        steps,
                        t,
                        size=size,
                        show_mm=False,
                        final_is_theorem=False,
                        font=font,
                        small=True,
                    )
                    for t in range(len(steps))
                ]
            ),
            "notes": notes,
            "proof": lecture.same_frames(
                topdown_proof_frames(steps, criterion=c, leaf_rule=leaf_rule, font=font)
            ),
        }
    n = max(len(s) for s in runs.values())
    for c, steps in runs.items():  # a run that ended early says so while the others go on
        notes = out["runs"][c]["notes"]
        notes += [f"Finished at round {len(steps) - 1}. {notes[-1]}"] * (n - len(steps))
    from .labels import CRITERION_SHORT as names

    cand, metr = [], []
    for t in range(n):
        current = {names[c]: steps[min(t, len(steps) - 1)] for c, steps in runs.items()}
        frame = tables.candidates_frame(current, _ds.feature_names)
        restricted = "".join(
            f"<p>⚠ {html.escape(run)}: leaf #{s.split.leaf} holds "
            f"{int(s.tree.n_samples[s.split.leaf]):,} training points (more than "
            f"{EXACT_SEARCH_LIMIT:,}), so its k-way splits were searched over "
            f"{LARGE_LEAF_CUTS} weighted-quantile cut points per feature, not every "
            "partition: its rows are the best of those candidates.</p>"
            for run, s in current.items()
            if s.t == t and s.split is not None and not s.split.exact_search
        )
        cand.append(
            restricted + lecture.table_html(frame)
            if len(frame)
            else "<p>No split in this round (round 0 is the single-leaf tree).</p>"
        )
        metr.append(lecture.table_html(tables.metrics_frame(current)))
    out["candidates"] = lecture.same_frames(cand)
    out["metrics"] = lecture.same_frames(metr)
    out["n"] = n
    return out
