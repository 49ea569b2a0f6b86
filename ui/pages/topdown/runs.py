"""Cached runs of the top-down growth page: every run is computed once per parameter set and
shared by all sessions (:func:`ui.cache.shared`'s size-bounded store), so stepping through the
rounds only renders.

* :func:`topdown_run` — the snapshots of one criterion's run (a student's splits replayed first);
* :func:`topdown_state` — the state the student's next round starts from;
"""

from __future__ import annotations

import streamlit as st

from boostcore import datasets
from boostcore.topdown import (
    GrowState,
    TreeStep,
    grow,
    replay,
)
from ui.cache import cancellable, shared


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
        cancellable(
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
) -> GrowState | None:
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


# ------------------------------------------------------------------ lecture-view frames
