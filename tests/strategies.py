"""Hypothesis strategies shared by the property tests.

``labelled_samples`` is the one generator of small labelled training sets (X, y[, w]) for the
generators and estimators of ``boostcore``. Each test file asks for the data it needs with
parameters; the calls that replaced the files' own ``samples()`` strategies (issue 15, item 7)
draw the same kinds of data as before, each parameter below keeping one old choice:

================================  ==========================================================
old strategy                      call that replaces it
================================  ==========================================================
``test_branching.samples``        ``labelled_samples()`` (the defaults: n 6–60, d 1–3,
                                  normal features rounded to 0.1 or not, labels random /
                                  linear (noise 0.5) / xor (noise 0.3), ±1, y[0] flipped when
                                  one class)
``test_oblique.samples``          ``labelled_samples(levels=(3, 8, 1000), labels=("random",),
                                  classes=(0, 1), both="first_two", weights=True)``
``test_probabilistic.samples``    ``labelled_samples(min_n=10, max_d=2, ties=("none",),
                                  labels=("linear",), noise=(0.0, 1.5))``, with τ drawn at
                                  the call site
``test_steps_branching.samples``  ``labelled_samples(max_n=40, min_n=4, ties=("none",
                                  "coarse"), labels=("random",), p_positive=(0.1, 0.9))``
``test_steps_oblique._samples``   ``labelled_samples(max_n=40, levels=(2, 4, 1000),
                                  labels=("random",), classes=(0, 1), both="first_two",
                                  weights=True)``
``test_steps`` (inline: seed, n)  ``labelled_samples(min_n=12, min_d=2, max_d=2,
                                  ties=("fine",), labels=("random",), classes=(0, 1),
                                  both="first_two")``
``test_steps_probabilistic``      ``labelled_samples(max_n=40, min_d=2, max_d=2,
(inline: seed, m)                 ties=("fine",), labels=("random",), both="first_two")``
================================  ==========================================================

The one difference from the old strategies: the seed of the data's random generator is drawn
from [0, 2**31 − 1] everywhere (some files drew it from [0, 10 000]), a superset. Labels drawn
"at random" use ``rng.random(n) < p`` where two files used ``rng.integers(0, 2, n)``: the same
distribution (independent fair coins for p = 0.5).

Strategies that generate something specific stay in their files: ``divided_children``
(test_branching), ``weighted_nodes`` (test_probabilistic), ``configs`` (test_topdown, whose
datasets come with the parameters of ``grow``), ``node_data`` (test_splits: a node inside a
sample, weights with zeros) and the game's strategies.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

#: The label noise of the "linear" and "xor" kinds when ``noise`` is not given.
DEFAULT_NOISE = {"linear": 0.5, "xor": 0.3}


@st.composite
def labelled_samples(
    draw: st.DrawFn,
    *,
    min_n: int = 6,
    max_n: int = 60,
    min_d: int = 1,
    max_d: int = 3,
    ties: Sequence[str] = ("none", "fine"),
    levels: Sequence[int] | None = None,
    labels: Sequence[str] = ("random", "linear", "xor"),
    p_positive: tuple[float, float] = (0.5, 0.5),
    noise: tuple[float, float] | None = None,
    classes: tuple = (-1, 1),
    both: str = "flip",
    weights: bool = False,
):
    """A small labelled sample ``(X, y)``, or ``(X, y, w)`` with ``weights=True``.

    Parameters
    ----------
    min_n, max_n, min_d, max_d : int
        The number of rows n and of features d are drawn from these closed ranges.
    ties : sequence of {"none", "fine", "coarse"}
        Standard normal features, then one of these roundings (drawn): none, to one decimal
        ("fine": ties and duplicated rows) or to integers ("coarse": many ties, sometimes a
        constant feature). Ignored when ``levels`` is given.
    levels : sequence of int, optional
        Integer features instead: each value in ``range(L)`` with L drawn from ``levels``
        (few levels: ties, pure leaves, early stops).
    labels : sequence of {"random", "linear", "xor"}
        The label kinds to draw from: independent coins with P(positive) = p; the sign of
        ``x_0 + noise·N(0, 1)``; the sign of ``x_0·x_{d−1} + noise·N(0, 1)``.
    p_positive : (float, float)
        p for "random" labels: drawn from this range (fixed when both ends are equal).
    noise : (float, float), optional
        The noise of "linear" and "xor" labels, drawn from this range; by default 0.5 for
        "linear" and 0.3 for "xor".
    classes : (negative, positive)
        The two label values.
    both : {"flip", "first_two"}
        How both classes are made present: flip y[0] when y has one class, or set
        ``y[0], y[1] = classes`` always.
    weights : bool
        Also return sample weights: ``None`` or uniform on [0.1, 2.0] (drawn).
    """
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(min_d, max_d))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    if levels is not None:
        X = rng.integers(0, draw(st.sampled_from(levels)), size=(n, d)).astype(float)
    else:
        X = rng.normal(size=(n, d))
        tie = draw(st.sampled_from(ties))
        if tie == "fine":
            X = np.round(X, 1)
        elif tie == "coarse":
            X = np.round(X)
    kind = draw(st.sampled_from(labels))
    if kind == "random":
        lo, hi = p_positive
        p = lo if lo == hi else draw(st.floats(lo, hi))
        positive = rng.random(n) < p
    else:
        s = DEFAULT_NOISE[kind] if noise is None else draw(st.floats(*noise))
        score = X[:, 0] if kind == "linear" else X[:, 0] * X[:, -1]
        positive = score + s * rng.normal(size=n) > 0
    neg, pos = classes
    y = np.where(positive, pos, neg)
    if both == "first_two":
        y[0], y[1] = neg, pos
    elif len(np.unique(y)) < 2:
        y[0] = pos if y[0] == neg else neg
    if not weights:
        return X, y
    w = rng.uniform(0.1, 2.0, size=n) if draw(st.booleans()) else None
    return X, y, w
