"""Cached runs: every algorithm run is computed once per parameter set and shared by all
sessions (``st.cache_data``), so stepping through rounds only renders."""

from __future__ import annotations

import numpy as np
import streamlit as st

from boostcore import datasets
from boostcore.branching import BPStep, bp_infoboost
from boostcore.probabilistic import (
    ProbStep,
    collapse_tree,
    matryoshka,
    prob_adaboost,
    prob_tree,
)
from boostcore.topdown import TreeStep, grow


@st.cache_data(max_entries=64, show_spinner=False)
def generated_dataset(
    name: str, n: int, noise: float, imbalance: float, label_noise: float, seed: int,
    test_fraction: float,
) -> datasets.Dataset:
    """A generated 2D dataset (cached)."""
    return datasets.make_dataset(
        name, n=n, noise=noise, imbalance=imbalance, label_noise=label_noise, seed=seed,
        test_fraction=test_fraction,
    )


@st.cache_data(max_entries=32, show_spinner=False)
def uploaded_dataset(
    data: bytes, filename: str, test_fraction: float, seed: int
) -> datasets.Dataset:
    """A dataset parsed from an uploaded CSV (raises ``ValueError`` with a readable message)."""
    return datasets.load_csv(data, name=filename, test_fraction=test_fraction, seed=seed)


@st.cache_data(max_entries=256, show_spinner=False)
def topdown_run(
    _ds: datasets.Dataset, ds_key: str, size: int, index: str, criterion: str, max_arity: int,
    gamma: float | None, leaf_rule: str,
) -> tuple[TreeStep, ...]:
    """All snapshots of one top-down run on a dataset identified by ``ds_key``."""
    return tuple(
        grow(
            _ds.X_train, _ds.y_train, size=size, index=index, criterion=criterion,
            max_arity=max_arity, gamma=gamma, leaf_rule=leaf_rule,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
        )
    )


@st.cache_data(max_entries=256, show_spinner=False)
def bp_run(
    _ds: datasets.Dataset, ds_key: str, n_rounds: int, merge: str, c: float, weak_learner: str,
) -> tuple[BPStep, ...]:
    """All snapshots of one BP.InfoBoost run on the dataset identified by ``ds_key``."""
    return tuple(
        bp_infoboost(
            _ds.X_train, _ds.y_train, n_rounds=n_rounds, merge=merge, c=c,
            weak_learner=weak_learner,
            X_test=_ds.X_test if _ds.n_test else None,
            y_test=_ds.y_test if _ds.n_test else None,
        )
    )


@st.cache_data(max_entries=64, show_spinner=False)
def bp_c_sweep(
    _ds: datasets.Dataset, ds_key: str, n_rounds: int, weak_learner: str,
    cs: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
) -> list[dict]:
    """BP.InfoBoost (bands) for several ``c``: mean ``|L_t|``, final ``Π Z_t`` and errors."""
    rows = []
    for c in cs:
        steps = [s for s in bp_run(_ds, ds_key, n_rounds, "bands", c, weak_learner)
                 if s.metrics is not None]
        if not steps:
            continue
        last = steps[-1].metrics
        rows.append({
            "c": c, "leaves": sum(s.metrics.n_leaves for s in steps) / len(steps),
            "prod_Z": last.prod_Z, "train_error": last.train_error,
            "test_error": last.test_error,
        })
    return rows


@st.cache_data(max_entries=128, show_spinner=False)
def prob_run(
    _ds: datasets.Dataset, ds_key: str, structure: str, n_weak: int, softness: float,
    samples: int | None = None,
) -> tuple[ProbStep, ...]:
    """All snapshots of one probabilistic-boosting run (chain, tree or matryoshka);
    ``samples`` = R trains the chain and the tree on MAP estimates of q."""
    kw = dict(softness=softness, X_test=_ds.X_test if _ds.n_test else None,
              y_test=_ds.y_test if _ds.n_test else None)
    if structure == "chain":
        return tuple(prob_adaboost(_ds.X_train, _ds.y_train, n_weak=n_weak, samples=samples,
                                   **kw))
    if structure == "tree":
        return tuple(prob_tree(_ds.X_train, _ds.y_train, n_weak=n_weak, samples=samples, **kw))
    if structure == "collapse":
        return tuple(collapse_tree(_ds.X_train, _ds.y_train, n_weak=n_weak, **kw))
    levels = max(1, int(np.floor(np.log2(n_weak))))
    return tuple(matryoshka(_ds.X_train, _ds.y_train, levels=levels, **kw))


@st.cache_data(max_entries=512, show_spinner=False)
def prob_grid(_step: ProbStep, step_key: str, lo: tuple, hi: tuple, n: int) -> np.ndarray:
    """``P(H(x) > 0)`` of a snapshot's model on an ``n × n`` grid (cached per step)."""
    xs = np.linspace(lo[0], hi[0], n)
    ys = np.linspace(lo[1], hi[1], n)
    gx, gy = np.meshgrid(xs, ys)
    return _step.model.q_pos(np.column_stack([gx.ravel(), gy.ravel()])).reshape(n, n)
