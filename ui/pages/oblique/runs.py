"""Cached runs of the boosted-oblique-trees page: every run is computed once per parameter set
and shared by all sessions (:func:`ui.cache.shared`'s size-bounded store; the small peers table
with ``st.cache_data``), so stepping through the rounds only renders.

* :func:`g1_path_run`, :func:`g1_tree_run`, :func:`odt_run` — the page's three runs: G1 on a
  path (AdaBoost_R), on a Kearns–Mansour tree, and BoostODT (a student's separators first);
* :func:`odt_schedule` — the stepper's positions over a BoostODT run;
* :func:`axis_parallel_peers` — axis-parallel trees with as many leaves, for comparison.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from boostcore import datasets
from ui.cache import cancellable, shared


@shared
def g1_path_run(_ds: datasets.Dataset, ds_key: str, n_rounds: int, weak: str) -> tuple:
    """All snapshots of G1 on a path (AdaBoost_R) with the built-in ``weak`` learner."""
    from boostcore.realboost import g1_linear

    return tuple(
        cancellable(
            g1_linear(
                _ds.X_train,
                _ds.y_train,
                n_rounds=n_rounds,
                weak=weak,
                X_test=_ds.X_test if _ds.n_test else None,
                y_test=_ds.y_test if _ds.n_test else None,
            )
        )
    )


@shared
def g1_tree_run(_ds: datasets.Dataset, ds_key: str, n_internal: int, leaf_rule: str) -> tuple:
    """All snapshots of G1 with constant nodes on a Kearns–Mansour tree (Theorem 2)."""
    from boostcore.oblique import g1_tree

    return tuple(
        cancellable(
            g1_tree(
                _ds.X_train,
                _ds.y_train,
                n_internal=n_internal,
                leaf_rule=leaf_rule,
                X_test=_ds.X_test if _ds.n_test else None,
                y_test=_ds.y_test if _ds.n_test else None,
            )
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
    AdaBoost_R's; ui/pages/oblique/student/); the steps after them are AdaBoost_R's.
    """
    from boostcore.oblique import boost_odt

    def policy(step, node):
        return choices[step.t] if step.t < len(choices) else None

    return tuple(
        cancellable(
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
