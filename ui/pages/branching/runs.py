"""Cached runs of the divide-and-merge page: every run is computed once per parameter set and
shared by all sessions (:func:`ui.cache.shared`'s size-bounded store), so stepping through the
rounds only renders.

* :func:`bp_run` — the snapshots of one InfoBoost / DT.InfoBoost / BP.InfoBoost run;
* :func:`bp_c_rounds` — Theorem 3 per round: each round's children merged by the bands of every
  ``c`` in :data:`C_GRID`.
"""

from __future__ import annotations

from boostcore import datasets
from boostcore.branching import BandsAtC, BPStep, bp_infoboost, round_bands
from ui.cache import cancellable, shared


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
        cancellable(
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
        cancellable(
            round_bands(s, cs) for s in bp_run(_ds, ds_key, n_rounds, "bands", c, weak_learner)
        )
    )
