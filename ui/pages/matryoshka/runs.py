"""Cached runs of the probabilistic-trees page: every run is computed once per parameter set and
shared by all sessions (:func:`ui.cache.shared`'s size-bounded store), so stepping through the
rounds only renders.

* :func:`prob_run` — the snapshots of one chain, tree, matryoshka or greedy-collapse run.
"""

from __future__ import annotations

import numpy as np

from boostcore import datasets
from boostcore.probabilistic import (
    ProbStep,
    collapse_tree,
    matryoshka,
    prob_adaboost,
    prob_tree,
)
from ui.cache import cancellable, shared


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
            cancellable(
                prob_adaboost(_ds.X_train, _ds.y_train, n_rounds=n_weak, samples=samples, **kw)
            )
        )
    if structure == "tree":
        return tuple(
            cancellable(
                prob_tree(_ds.X_train, _ds.y_train, n_internal=n_weak, samples=samples, **kw)
            )
        )
    if structure == "collapse":
        return tuple(cancellable(collapse_tree(_ds.X_train, _ds.y_train, n_internal=n_weak, **kw)))
    levels = max(1, int(np.floor(np.log2(n_weak))))
    return tuple(cancellable(matryoshka(_ds.X_train, _ds.y_train, levels=levels, **kw)))
