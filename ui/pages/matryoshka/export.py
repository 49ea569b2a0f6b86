"""The probabilistic-trees page's runs as a script (its template: ``export.py.tmpl`` next to
this module; the shared templating is :mod:`ui.exports`)."""

from __future__ import annotations

from collections.abc import Sequence

from ui import exports
from ui.dataset_code import check_choice, literal

#: The page as the script's header names it.
TITLE = "Probabilistic trees & matryoshka page"
#: The paper the page follows (the header's ``Paper:`` line).
PAPER = "E. Grossmann, A theory of probabilistic boosting, decision trees and matryoshki."

#: The structures a script can run (core names, the page's ``params["structures"]``).
STRUCTURES = ("chain", "tree", "matryoshka", "collapse")

#: The ``boostcore.probabilistic`` function each structure's run calls.
_FUNCTIONS = {
    "chain": "prob_adaboost",
    "tree": "prob_tree",
    "collapse": "collapse_tree",
    "matryoshka": "matryoshka",
}
#: Each structure's call, as the page's runs make it (samples: the chain and the tree only).
_CALLS = {
    "chain": "prob_adaboost(ds.X_train, ds.y_train, n_rounds=N_WEAK, samples=SAMPLES, **common)",
    "tree": "prob_tree(ds.X_train, ds.y_train, n_internal=N_WEAK, samples=SAMPLES, **common)",
    "collapse": "collapse_tree(ds.X_train, ds.y_train, n_internal=N_WEAK, **common)",
    "matryoshka": "matryoshka(ds.X_train, ds.y_train, levels=LEVELS, **common)",
}


def snippet(
    data_code: str,
    structures: Sequence[str],
    n_weak: int,
    softness: float,
    samples: int | None = None,
) -> str:
    """Script reproducing the probabilistic-trees page: one run per structure.

    Parameters
    ----------
    data_code : str
        The dataset lines (:func:`ui.dataset_code.dataset_code`).
    structures : sequence of str
        Core names among :data:`STRUCTURES` (the page's ``params["structures"]``).
    n_weak : int
        The soft stumps T.
    softness : float
        τ in q(+, x) = σ((x_j − θ) / τ).
    samples : int or None, default None
        ``params["samples"]`` (``None`` for exact q), used by the chain and the tree only,
        as on the page.

    Returns
    -------
    str
        The complete script.
    """
    structures = [check_choice("structures", s, STRUCTURES) for s in structures]
    if not structures:
        raise ValueError("structures must name at least one structure")
    runs = "".join(f"runs[{s!r}] = list({_CALLS[s]})\n" for s in structures)
    return exports.script(
        __package__,
        TITLE,
        PAPER,
        data_code=data_code,
        IMPORTS=", ".join(sorted({_FUNCTIONS[s] for s in structures})),
        N_WEAK=literal(int(n_weak)),
        SOFTNESS=literal(softness),
        SAMPLES=literal(None if samples is None else int(samples)),
        RUNS=runs,
    )
