"""The step protocol: what every algorithm's generator yields (docs/theory.md §0.4).

Every algorithm in boostcore is one public generator (``grow``, ``bp_infoboost``,
``prob_adaboost``, ``prob_tree``, ``collapse_tree``, ``matryoshka``, ``g1_linear``, ``g1_tree``,
``boost_odt``, and the game's ``play``). Each yields frozen snapshots whose classes derive from
:class:`Step` and share these fields:

``t``
    0 for the initial model (before any weak learner or expansion), then +1 per step.
``kind``
    ``"start"`` for the first snapshot (``t = 0``), ``"step"`` for each step, ``"stop"`` for
    the last snapshot. The stop snapshot repeats the final model (same ``t`` as the last step,
    same metrics): it is not a step, it says that the run is over and why.
``metrics``
    Never ``None``. A :class:`Metrics` subclass; the same quantity has the same name in every
    algorithm (``train_error``, ``test_error``, ``n_leaves``), and a bound value's name says
    which theorem it comes from (``bound_…``, documented on each metrics class).
``stop_reason``
    ``None`` except on the stop snapshot, where it says in plain words why the run ended
    (its budget was reached, or nothing more could be done).
``message``
    One sentence for the page.
``to_record()``
    A flat dict of JSON-serialisable scalars that includes ``t`` and ``kind`` (for tables,
    CSV/JSON export and the stepper).

So a run of ``T`` steps is ``start (t=0), step (t=1) … step (t=T), stop (t=T)``; one picture per
round is :func:`rounds`, the verdict is :func:`final`.

Examples
--------
>>> from boostcore.datasets import make_dataset
>>> from boostcore.topdown import grow
>>> from boostcore import steps
>>> ds = make_dataset("moons", n=100, random_state=0)
>>> run = list(grow(ds.X_train, ds.y_train, size=3))
>>> [(s.t, s.kind) for s in run]
[(0, 'start'), (1, 'step'), (2, 'step'), (2, 'stop')]
>>> run[-1].stop_reason
'The tree has reached its budget of s = 3 leaves.'
>>> rec = run[1].to_record()
>>> rec["t"], rec["kind"], rec["n_leaves"]
(1, 'step', 2)
>>> steps.check_run(run)  # raises AssertionError naming the broken rule
>>> len(steps.rounds(run)), steps.final(run).metrics.n_leaves
(3, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

START, STEP, STOP = "start", "step", "stop"
KINDS = (START, STEP, STOP)


def _scalar(value: object) -> object:
    """``value`` as a JSON-serialisable scalar, or the marker ``_SKIP`` for non-scalars."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        v = float(value)
        return v if math.isfinite(v) else None  # JSON has no nan/inf: None = "undefined here"
    return _SKIP


_SKIP = object()


def scalars(obj: object) -> dict[str, object]:
    """The scalar fields of a dataclass as a flat dict (arrays, tuples and objects left out).

    Parameters
    ----------
    obj : dataclass instance

    Returns
    -------
    dict of str to object
        ``bool``, ``int``, ``float`` (``None`` for nan/inf) or ``str`` values, or ``None``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.steps import Metrics, scalars
    >>> scalars(Metrics(train_error=np.float64(0.25), test_error=float("nan")))
    {'train_error': 0.25, 'test_error': None}
    """
    out = {}
    for f in fields(obj):
        v = _scalar(getattr(obj, f.name))
        if v is not _SKIP:
            out[f.name] = v
    return out


@dataclass(frozen=True, kw_only=True)
class Quantities:
    """The base of every snapshot's ``metrics``: scalar fields, :meth:`as_dict`."""

    def as_dict(self) -> dict[str, object]:
        """The scalar metrics as a plain dict (tables, JSON): see :func:`scalars`.

        Returns
        -------
        dict of str to object

        Examples
        --------
        >>> from boostcore.steps import Metrics
        >>> Metrics(train_error=0.1, test_error=None).as_dict()
        {'train_error': 0.1, 'test_error': None}
        """
        return scalars(self)


@dataclass(frozen=True, kw_only=True)
class Metrics(Quantities):
    """What every algorithm that learns from data measures at every snapshot (subclasses add
    their own quantities; the Weight Distribution Game, which has no data, uses
    :class:`Quantities` directly).

    Attributes
    ----------
    train_error : float
        Training error of the model as of this snapshot (weighted when the run has weights;
        the expected error for a probabilistic model).
    test_error : float or None
        The same on the test set; ``None`` without one.
    """

    train_error: float
    test_error: float | None


@dataclass(frozen=True, kw_only=True)
class Step:
    """The base of every snapshot (the module docstring states the protocol).

    Attributes
    ----------
    t : int
        Steps so far (0 = the initial model).
    kind : {"start", "step", "stop"}
    metrics : Quantities
        Never ``None``: a :class:`Metrics` for every algorithm that learns from data.
    stop_reason : str or None
        Why the run ended (the stop snapshot only).
    message : str
        One sentence for the page.
    """

    t: int
    kind: str
    metrics: Quantities
    stop_reason: str | None = None
    message: str = ""

    def details(self) -> dict[str, object]:
        """What this step did, as flat scalars (overridden by each algorithm's snapshot).

        Returns
        -------
        dict of str to object
        """
        return {}

    def to_record(self) -> dict[str, object]:
        """A flat dict of JSON-serialisable scalars: ``t``, ``kind``, ``stop_reason``,
        ``message``, what the step did (:meth:`details`) and every scalar metric.

        Returns
        -------
        dict of str to object

        Examples
        --------
        >>> from boostcore.steps import Metrics, Step
        >>> m = Metrics(train_error=0.5, test_error=None)
        >>> rec = Step(t=0, kind="start", metrics=m, message="Round 0.").to_record()
        >>> list(rec.items())[:4]
        [('t', 0), ('kind', 'start'), ('stop_reason', None), ('message', 'Round 0.')]
        >>> rec["train_error"], rec["test_error"]
        (0.5, None)
        """
        rec: dict[str, object] = {
            "t": int(self.t),
            "kind": self.kind,
            "stop_reason": self.stop_reason,
            "message": self.message,
        }
        for k, v in self.details().items():
            v = _scalar(v)
            if v is not _SKIP:
                rec[k] = v
        for k, v in self.metrics.as_dict().items():
            rec.setdefault(k, v)
        return rec


def rounds(run: Sequence[Step]) -> list[Step]:
    """One snapshot per round, ``t = 0 … T`` (the run without its stop snapshot).

    Parameters
    ----------
    run : sequence of Step
        A whole run (start … stop).

    Returns
    -------
    list of Step
        ``run[:-1]`` when the run ends with its stop snapshot, else the run itself.

    Examples
    --------
    >>> from boostcore.steps import Metrics, Step, rounds
    >>> m = Metrics(train_error=0.0, test_error=None)
    >>> run = [Step(t=0, kind="start", metrics=m), Step(t=0, kind="stop", metrics=m)]
    >>> [s.kind for s in rounds(run)]
    ['start']
    """
    run = list(run)
    return run[:-1] if run and run[-1].kind == STOP else run


def final(run: Sequence[Step]) -> Step:
    """The stop snapshot (or the last snapshot of an unfinished run).

    Parameters
    ----------
    run : sequence of Step

    Returns
    -------
    Step
    """
    return run[-1]


def stop_reason(run: Sequence[Step]) -> str | None:
    """Why the run ended: the stop snapshot's reason (``None`` for an unfinished run).

    Parameters
    ----------
    run : sequence of Step

    Returns
    -------
    str or None
    """
    return run[-1].stop_reason if run and run[-1].kind == STOP else None


def check_run(run: Sequence[Step]) -> None:
    """Assert that ``run`` follows the protocol (used by the tests and by the exporters).

    Parameters
    ----------
    run : sequence of Step
        A whole run.

    Raises
    ------
    AssertionError
        Naming the first broken rule and the snapshot that breaks it.
    """
    run = list(run)
    assert len(run) >= 2, f"a run has a start and a stop snapshot; got {len(run)} snapshot(s)"
    assert run[0].kind == START and run[0].t == 0, f"the first snapshot is start at t=0: {run[0]}"
    assert run[-1].kind == STOP, f"the last snapshot is stop; got kind={run[-1].kind!r}"
    for i, s in enumerate(run):
        assert isinstance(s, Step), f"snapshot {i} is a {type(s).__name__}, not a Step"
        assert s.kind in KINDS, f"snapshot {i}: kind={s.kind!r} is not one of {KINDS}"
        assert isinstance(s.metrics, Quantities), f"snapshot {i} ({s.kind}): metrics={s.metrics!r}"
        assert isinstance(s.message, str) and s.message, f"snapshot {i} has no message"
        if i and s.kind == STEP:
            assert s.t == run[i - 1].t + 1, f"snapshot {i}: t={s.t} after t={run[i - 1].t}"
        if 0 < i < len(run) - 1:
            assert s.kind == STEP, f"snapshot {i} of {len(run)}: kind={s.kind!r} inside the run"
        if s.kind == STOP:
            assert s.t == run[i - 1].t, f"the stop snapshot repeats t={run[i - 1].t}; got {s.t}"
            assert s.stop_reason, "the stop snapshot says why the run ended"
        else:
            assert s.stop_reason is None, f"snapshot {i} ({s.kind}) has a stop_reason"
        rec = s.to_record()
        assert rec["t"] == s.t and rec["kind"] == s.kind
        bad = {k: v for k, v in rec.items() if not isinstance(v, bool | int | float | str | None)}
        assert not bad, f"snapshot {i}: to_record() has non-scalar values {bad}"
