"""Real boosting à la carte on a path: G1 on a path, i.e. AdaBoost_R.

See docs/theory.md §4.1. The oblique trees built from these pieces (G1 on a tree, BoostODT)
are in :mod:`boostcore.oblique` (docs/theory.md §4.2).

Henry, Nock & Nielsen, "Real Boosting a la Carte with an Application to Boosting Oblique
Decision Trees" (IJCAI 2007), Fig. 2 (the generic greedy induction G1) and Theorem 1; the
weight update is Nock & Nielsen's AdaBoost_R ("A Real Generalization of Discrete AdaBoost",
ECAI 2006). The OCR text of the paper lost most digits; the formulas below follow the
reconstruction in docs/theory.md §4.

G1 builds ``H(x) = Σ_{h_t on the path of x} α_t h_t(x)`` over a decision graph. At step ``t``
the new node's examples ``S_t`` and its current weights ``w_t`` give::

    R_t = max_{S_t} |h_t|,   μ_t = Σ_{S_t} w_t y h_t / (R_t Σ_{S_t} w_t),
    α_t = ln((1 + μ_t)/(1 − μ_t)) / (2 R_t),
    w_{t+1,i} = w_{t,i} (1 − μ_t y_i h_t(x_i)/R_t) / (1 − μ_t²)   on S_t (unchanged elsewhere).

On a single path (``S_t = S``) G1 is AdaBoost_R; with ±1 stumps, discrete AdaBoost. This
module holds:

* the weak hypotheses (:class:`WeakHypothesis`), their weighted sum (:class:`Additive`) and
  one AdaBoost_R round (:class:`InnerRound`), with the weak learners ``"stump"``,
  ``"hyperplane"`` (:data:`WEAK_LEARNERS`) or any scikit-learn classifier;
* the AdaBoost_R loop :func:`adaboost_r` that BoostODT runs inside every node
  (:func:`boostcore.oblique.boost_odt`);
* the metrics of any G1 run (:class:`G1Metrics`) with the margin-error curves
  (:func:`margin_curve`) and Theorem 1's bound (:func:`margin_bound`) on :data:`THETA_GRID`;
* :func:`g1_linear`, G1 on a path, a generator of frozen :class:`G1Step` snapshots that
  follow the step protocol of :mod:`boostcore.steps`: ``"start"`` at ``t = 0`` (``H = 0``),
  one ``"step"`` per weak hypothesis, and a ``"stop"`` that repeats the final model and says
  why it ended.

Why the bound holds (used by the tests, and worth a student's minute): for ``u ∈ [−1, 1]``,
``1 − μu ≥ sqrt(1 − μ²)·exp(−atanh(μ)·u)`` (the right side is convex in ``u`` and equal at
``u = ±1``), so ``w_{T+1,i} ≥ w_{1,i} e^{−y_i H(x_i)} / Π_{t on its path} sqrt(1 − μ_t²)``; since
every update keeps or shrinks the mass of ``S_t``,
``E_{w_1}[e^{−yH}] ≤ max_paths Π sqrt(1 − μ_t²)``, and Markov's inequality on ``e^{−yH}``
gives Theorem 1: ``ν(H, θ) ≤ ((1 + θ)/(1 − θ))·max_paths Π sqrt(1 − μ_t²)`` with
``ν(H, θ) = P_{w_1}[tanh(yH/2) ≤ θ]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import check_choice, check_int, check_test_set, check_xy, seed_of
from .splits import best_margin_stump, presort
from .steps import START, STEP, STOP, Metrics, Step

#: Weak learners by name, of :func:`g1_linear` and of BoostODT's nodes (:func:`adaboost_r`).
WEAK_LEARNERS = ("stump", "hyperplane")
#: ``|μ_t|`` is clipped to ``1 − MU_CLIP`` (docs/theory.md §4.1) so that ``α_t`` stays finite.
MU_CLIP = 1e-12
#: ``|μ_t|`` at most this counts as "no edge": G1 stops (docs/theory.md §4.1).
NO_EDGE = 1e-12
#: θ grid of the margin-error curves ``ν(H, θ)`` (θ = 1 is left out: the bound is infinite).
THETA_GRID = np.round(np.linspace(-1.0, 1.0, 101)[:-1], 12)
THETA_GRID.setflags(write=False)


def frozen_array(a, dtype=None) -> np.ndarray:
    """A read-only copy of ``a``: how the snapshots of G1 (:class:`G1Step`, :class:`G1Metrics`
    and the trees of :mod:`boostcore.oblique`) hold their arrays, so that no caller can change
    a recorded step.

    Parameters
    ----------
    a : array_like
        The values to copy.
    dtype : data-type, optional
        The copy's dtype; ``a``'s when None.

    Returns
    -------
    ndarray
        A new array with ``flags.writeable`` False.

    Examples
    --------
    >>> from boostcore.realboost import frozen_array
    >>> a = frozen_array([1, 2], float)
    >>> a.tolist(), a.flags.writeable
    ([1.0, 2.0], False)
    """
    out = np.array(a, dtype=dtype, copy=True)
    out.setflags(write=False)
    return out


def clip_mu(mu: float) -> float:
    """``μ`` clipped to ``[−1 + MU_CLIP, 1 − MU_CLIP]`` (docs/theory.md §4.1), so that
    ``α = ln((1 + μ)/(1 − μ)) / (2R)`` (G1, Henry–Nock–Nielsen 2007, Fig. 2) and the update
    ``1/(1 − μ²)`` stay finite after a perfect weak hypothesis.

    Parameters
    ----------
    mu : float
        The edge ``μ_t`` as :func:`margin_stats` computes it.

    Returns
    -------
    float
        ``μ_t`` clipped by :data:`MU_CLIP`.

    Examples
    --------
    >>> from boostcore.realboost import MU_CLIP, clip_mu
    >>> clip_mu(0.5), clip_mu(1.0) == 1.0 - MU_CLIP
    (0.5, True)
    """
    return float(np.clip(mu, -1.0 + MU_CLIP, 1.0 - MU_CLIP))


def alpha_of(mu: float, R: float = 1.0) -> float:
    """``α = ln((1 + μ)/(1 − μ)) / (2R)`` (G1, Fig. 2; ``μ`` clipped as in docs/theory.md §4.1).

    Parameters
    ----------
    mu : float in [−1, 1]
        The edge ``μ_t``; clipped to ``±(1 − MU_CLIP)``.
    R : float, default 1.0
        ``R_t = max |h_t| > 0``.

    Returns
    -------
    float
        ``atanh(μ)/R``, finite.

    Examples
    --------
    >>> from boostcore.realboost import alpha_of
    >>> round(alpha_of(0.5), 4), round(alpha_of(0.5, R=2.0), 4), round(alpha_of(1.0), 2)
    (0.5493, 0.2747, 14.16)
    """
    mu = clip_mu(mu)
    return float(np.arctanh(mu) / R)


# --------------------------------------------------------------------------- weak hypotheses
@dataclass(frozen=True)
class WeakHypothesis:
    """One weak hypothesis ``h_t`` of G1.

    ``kind``:

    * ``"stump"`` — ``polarity·(+1 if x_feature > threshold else −1)`` (``R = 1``);
    * ``"linear"`` — ``polarity·(x_feature − threshold)``, real-valued (the ``hyperplane``
      learner; a sum of these is affine, so the node boundary is a straight line);
    * ``"constant"`` — ``polarity`` everywhere;
    * ``"estimator"`` — a fitted scikit-learn classifier trained on labels ±1 (``predict``).

    Attributes
    ----------
    kind : {"stump", "linear", "constant", "estimator"}
        As above.
    feature : int, default=-1
        Column index (stump and linear).
    threshold : float, default=0.0
        ``θ`` (stump and linear).
    polarity : float, default=1.0
        ``π``: +1 or −1.
    estimator : object, default=None
        The fitted classifier (``"estimator"`` only).

    Examples
    --------
    >>> from boostcore.realboost import WeakHypothesis
    >>> h = WeakHypothesis("stump", feature=0, threshold=0.5)
    >>> h([[0.0], [1.0]]).tolist(), h.describe()
    ([-1.0, 1.0], 'sgn(x1 > 0.5)')
    """

    kind: str
    feature: int = -1
    threshold: float = 0.0
    polarity: float = 1.0
    estimator: Any = None

    def __call__(self, X: np.ndarray) -> np.ndarray:
        """``h(x)`` for every row of ``X``.

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points.

        Returns
        -------
        ndarray of float, shape (n,)
            ``h(x)``: ±1 for a stump or a constant, real for a linear hypothesis.

        Examples
        --------
        >>> from boostcore.realboost import WeakHypothesis
        >>> h = WeakHypothesis("linear", feature=1, threshold=2.0, polarity=-1.0)
        >>> h([[0.0, 1.0], [0.0, 3.0]]).tolist()
        [1.0, -1.0]
        """
        X = np.asarray(X, dtype=float)
        if self.kind == "stump":
            return np.where(X[:, self.feature] > self.threshold, self.polarity, -self.polarity)
        if self.kind == "linear":
            return self.polarity * (X[:, self.feature] - self.threshold)
        if self.kind == "constant":
            return np.full(X.shape[0], float(self.polarity))
        return np.asarray(self.estimator.predict(X), dtype=float)

    def describe(self) -> str:
        """A short formula for tables and diagrams (features numbered from 1).

        Returns
        -------
        str
            E.g. ``"sgn(x1 > 0.5)"``, ``"−(x2 − 2)"``, ``"-1"`` or the estimator's class name.

        Examples
        --------
        >>> from boostcore.realboost import WeakHypothesis
        >>> WeakHypothesis("linear", feature=1, threshold=2.0, polarity=-1.0).describe()
        '−(x2 − 2)'
        >>> WeakHypothesis("constant", polarity=-1.0).describe()
        '-1'
        """
        f = self.feature + 1
        sign = "" if self.polarity > 0 else "−"
        if self.kind == "stump":
            return f"{sign}sgn(x{f} > {self.threshold:.3g})"
        if self.kind == "linear":
            return f"{sign}(x{f} − {self.threshold:.3g})"
        if self.kind == "constant":
            return f"{self.polarity:+g}"
        return type(self.estimator).__name__


@dataclass(frozen=True)
class Additive:
    """``Σ_t α_t h_t(x)``: AdaBoost_R's combination, and BoostODT's node separator ``LS``.

    Attributes
    ----------
    hyps : tuple of WeakHypothesis
        ``h_1 … h_T``.
    alphas : tuple of float
        ``α_1 … α_T``.

    Examples
    --------
    >>> from boostcore.realboost import Additive, WeakHypothesis
    >>> h = WeakHypothesis("linear", feature=1, threshold=2.0, polarity=-1.0)
    >>> ls = Additive((h, WeakHypothesis("constant", polarity=-1.0)), (0.5, 0.25))
    >>> len(ls), ls.decision_function([[0.0, 1.0], [0.0, 3.0]]).tolist()
    (2, [0.25, -0.75])
    """

    hyps: tuple[WeakHypothesis, ...]
    alphas: tuple[float, ...]

    def __len__(self) -> int:
        return len(self.hyps)

    def prefix(self, n: int) -> Additive:
        """The combination of the first ``n`` weak hypotheses.

        Parameters
        ----------
        n : int, ``≥ 0``
            How many to keep.

        Returns
        -------
        Additive
            ``Σ_{t ≤ n} α_t h_t``.

        Examples
        --------
        >>> from boostcore.realboost import Additive, WeakHypothesis
        >>> h = WeakHypothesis("linear", feature=1, threshold=2.0, polarity=-1.0)
        >>> ls = Additive((h, WeakHypothesis("constant", polarity=-1.0)), (0.5, 0.25))
        >>> ls.prefix(1).decision_function([[0.0, 1.0], [0.0, 3.0]]).tolist()
        [0.5, -0.5]
        """
        return Additive(self.hyps[:n], self.alphas[:n])

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """``Σ_t α_t h_t(x)`` for every row of ``X``.

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points.

        Returns
        -------
        ndarray of float, shape (n,)
            The combination's value (0 without hypotheses).

        Examples
        --------
        >>> from boostcore.realboost import Additive, WeakHypothesis
        >>> h = WeakHypothesis("linear", feature=1, threshold=2.0, polarity=-1.0)
        >>> ls = Additive((h, WeakHypothesis("constant", polarity=-1.0)), (0.5, 0.25))
        >>> ls.decision_function([[0.0, 1.0], [0.0, 3.0]]).tolist()
        [0.25, -0.75]
        """
        X = np.asarray(X, dtype=float)
        out = np.zeros(X.shape[0])
        for h, a in zip(self.hyps, self.alphas):
            out += a * h(X)
        return out

    def staged_decision_function(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """Yield ``Σ_{s ≤ t} α_s h_s(x)`` after each ``t``.

        Parameters
        ----------
        X : array_like of float, shape (n_samples, d)
            Points.

        Yields
        ------
        ndarray of shape (n_samples,)
            The partial sum after ``t = 1, 2, …, T``.

        Examples
        --------
        >>> from boostcore.realboost import Additive, WeakHypothesis
        >>> h = WeakHypothesis("linear", feature=1, threshold=2.0, polarity=-1.0)
        >>> ls = Additive((h, WeakHypothesis("constant", polarity=-1.0)), (0.5, 0.25))
        >>> [f.tolist() for f in ls.staged_decision_function([[0.0, 1.0], [0.0, 3.0]])]
        [[0.5, -0.5], [0.25, -0.75]]
        """
        X = np.asarray(X, dtype=float)
        out = np.zeros(X.shape[0])
        for h, a in zip(self.hyps, self.alphas):
            out = out + a * h(X)
            yield out

    def affine(self, d: int) -> tuple[np.ndarray, float] | None:
        """``(coef, intercept)`` with ``Σ α h(x) = coef·x + intercept``, or ``None`` if some
        ``h`` is not linear or constant (e.g. a stump: then the boundary is a staircase).

        Parameters
        ----------
        d : int
            Number of features.

        Returns
        -------
        (ndarray of float, float) or None
            ``coef`` of shape (d,) and ``intercept``.

        Examples
        --------
        >>> from boostcore.realboost import Additive, WeakHypothesis
        >>> h = WeakHypothesis("linear", feature=1, threshold=2.0, polarity=-1.0)
        >>> ls = Additive((h, WeakHypothesis("constant", polarity=-1.0)), (0.5, 0.25))
        >>> coef, intercept = ls.affine(2)
        >>> coef.tolist(), intercept
        ([0.0, -0.5], 0.75)
        >>> print(Additive((WeakHypothesis("stump", feature=0),), (1.0,)).affine(2))
        None
        """
        coef = np.zeros(d)
        intercept = 0.0
        for h, a in zip(self.hyps, self.alphas):
            if h.kind == "linear":
                coef[h.feature] += a * h.polarity
                intercept -= a * h.polarity * h.threshold
            elif h.kind == "constant":
                intercept += a * h.polarity
            else:
                return None
        return coef, intercept


@dataclass(frozen=True)
class InnerRound:
    """One weak hypothesis of a G1 run on a path: AdaBoost_R round ``j`` (G1, Fig. 2).

    Attributes
    ----------
    j : int
        The round (1-based).
    hyp : WeakHypothesis
        ``h_j``.
    R : float
        ``R_j = max |h_j|`` on the sample.
    mu : float
        ``μ_j`` (unclipped).
    alpha : float
        ``α_j``.
    error : float
        Weighted error of ``sign(h_j)`` under the round's weights.
    """

    j: int
    hyp: WeakHypothesis
    R: float
    mu: float
    alpha: float
    error: float

    def as_dict(self) -> dict[str, object]:
        """A plain dict for tables.

        Returns
        -------
        dict of str to object
            ``j``, ``h`` (the formula of :meth:`WeakHypothesis.describe`), ``R``, ``mu``,
            ``alpha`` and ``weighted_error``.

        Examples
        --------
        >>> from boostcore.realboost import InnerRound, WeakHypothesis
        >>> r = InnerRound(1, WeakHypothesis("stump", feature=0), 1.0, 0.5, 0.5493, 0.25)
        >>> r.as_dict()["h"], r.as_dict()["weighted_error"]
        ('sgn(x1 > 0)', 0.25)
        """
        return {
            "j": self.j,
            "h": self.hyp.describe(),
            "R": self.R,
            "mu": self.mu,
            "alpha": self.alpha,
            "weighted_error": self.error,
        }


# --------------------------------------------------------------------------- weak learners
def _stump_learner(X, y, w, idx, order_t):
    """Discrete AdaBoost's weak learner: the ±1 stump of largest ``|μ|`` on ``idx``."""
    u = np.zeros(X.shape[0])
    u[idx] = w[idx] * y[idx]
    found = best_margin_stump(X, u, order_t)
    if found is None:
        return None
    f, theta, p, _ = found
    return WeakHypothesis("stump", feature=f, threshold=theta, polarity=float(p))


def _hyperplane_learner(X, y, w, idx):
    """Real-valued ``π(x_f − θ)`` of largest ``|μ|``, or a constant ``±1``.

    With ``R = max_{S}|x_f − θ|``, ``|μ(θ)| = |a − bθ|/R(θ)`` is a ratio of a linear function
    and a convex piecewise-linear one, so its maximum over θ is at the midrange (where ``R`` is
    smallest) or in the limit ``θ → ±∞``, where ``h`` becomes a constant. We therefore offer
    ``x_f − midrange`` for every feature and the constant ``±1`` (which gives ``LS`` its
    intercept) and keep the one of largest ``|μ|``. [our reading of the variant in
    docs/theory.md §4.2]
    """
    # an example of weight 0 is not in the sample: it must not move the midrange or R
    idx = idx[w[idx] > 0]
    wi, yi = w[idx], y[idx]
    W = wi.sum()
    u = wi * yi
    lo, hi = X[idx].min(axis=0), X[idx].max(axis=0)
    mid = (lo + hi) / 2.0
    R = (hi - lo) / 2.0
    usable = R > 0
    Z = (X[idx] - mid) / np.where(usable, R, 1.0)
    mu = np.where(usable, (u @ Z) / W, 0.0)
    mu_const = u.sum() / W
    j = int(np.argmax(np.abs(mu)))
    if abs(mu[j]) >= abs(mu_const) and usable[j]:
        p = 1.0 if mu[j] >= 0 else -1.0
        return WeakHypothesis("linear", feature=j, threshold=float(mid[j]), polarity=p)
    return WeakHypothesis("constant", polarity=1.0 if mu_const >= 0 else -1.0)


def _clone(est):
    """A fresh, unfitted deep copy of a scikit-learn estimator, as ``sklearn.base.clone``
    makes it: the constructor called again with every parameter cloned (estimators) or
    deep-copied (anything else), so nothing of the user's object is shared or changed."""
    import copy

    params = est.get_params(deep=False)
    return type(est)(
        **{
            k: _clone(v)
            if hasattr(v, "get_params") and not isinstance(v, type)
            else copy.deepcopy(v)
            for k, v in params.items()
        }
    )


def _fit_estimator(template, X, y, w, rng):
    """Fit a fresh copy of a scikit-learn classifier on labels ±1 with ``sample_weight``.

    Duck-typed (``get_params``/``set_params``/``fit``/``predict``) so that the core does not
    import scikit-learn. The copy is seeded as scikit-learn's AdaBoost seeds its copies
    (``sklearn.ensemble._base._set_random_states``): every ``random_state`` parameter, nested
    ones included, gets its own ``rng.randint(2**31 − 1)``, drawn in sorted key order.
    """
    est = _clone(template)
    keys = sorted(
        k for k in est.get_params(deep=True) if k == "random_state" or k.endswith("__random_state")
    )
    if keys:
        est.set_params(**{k: int(rng.randint(np.iinfo(np.int32).max)) for k in keys})
    est.fit(X, y, sample_weight=w)
    return WeakHypothesis("estimator", estimator=est)


def margin_stats(
    h_vals: np.ndarray, y: np.ndarray, w: np.ndarray, idx: np.ndarray
) -> tuple[float, float, float]:
    """``R_t``, ``μ_t`` (unclipped) and the weighted error of ``sign(h)`` on ``idx``.

    G1's quantities of a weak hypothesis on its node's examples ``S_t`` (Henry–Nock–Nielsen
    2007, Fig. 2; docs/theory.md §4.1): ``R_t = max_{S_t} |h_t|`` and
    ``μ_t = Σ_{S_t} w_t y h_t / (R_t Σ_{S_t} w_t)``. ``R_t`` is taken over the examples of
    positive weight (a weight-0 example is not in the sample, so fitting with it must equal
    fitting without it). Used by AdaBoost_R (:func:`adaboost_r`, :func:`g1_linear`) and by the
    G1 nodes of :mod:`boostcore.oblique`.

    Parameters
    ----------
    h_vals : ndarray of float, shape (m,)
        ``h_t(x_i)`` (only the entries in ``idx`` are read).
    y : ndarray, shape (m,)
        Labels in {−1, +1}.
    w : ndarray of float, shape (m,)
        The current weights ``w_t``.
    idx : ndarray of intp
        ``S_t``, the examples the node sees.

    Returns
    -------
    R : float
        ``R_t`` (0 when no example of positive weight is left).
    mu : float
        ``μ_t`` (0 when ``R_t`` or the weight is 0).
    error : float
        The ``w_t``-weighted error of ``sign(h_t)`` (``h = 0`` counts as −1) on ``S_t``;
        ½ when ``R_t`` or the weight is 0.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.realboost import margin_stats
    >>> h = np.array([2.0, -1.0, 1.0, 0.0])
    >>> margin_stats(h, np.array([1, -1, -1, 1]), np.full(4, 0.25), np.arange(3))
    (2.0, 0.3333333333333333, 0.3333333333333333)
    """
    idx = idx[w[idx] > 0]
    hv = h_vals[idx]
    R = float(np.max(np.abs(hv))) if hv.size else 0.0
    wi, yi = w[idx], y[idx]
    W = wi.sum()
    if R <= 0 or W <= 0:
        return R, 0.0, 0.5
    mu = float((wi * yi * hv).sum() / (R * W))
    err = float(wi[np.where(hv > 0, 1, -1) != yi].sum() / W)
    return R, mu, err


def g1_update(
    w: np.ndarray, y: np.ndarray, h_vals: np.ndarray, idx: np.ndarray, mu: float, R: float
) -> None:
    """``w_{t+1} = w_t (1 − μ y h/R)/(1 − μ²)`` on ``S_t`` (G1, Fig. 2) — in place.

    G1's weight update (Henry–Nock–Nielsen 2007, Fig. 2; Nock & Nielsen's AdaBoost_R), shared
    by AdaBoost_R (:func:`adaboost_r`, :func:`g1_linear`) and the G1 nodes of
    :mod:`boostcore.oblique`. Weights outside ``idx`` are unchanged; the mass of ``S_t`` is
    kept (docs/theory.md §4.1).

    Parameters
    ----------
    w : ndarray of float, shape (m,)
        ``w_t``; overwritten with ``w_{t+1}`` on ``idx``.
    y : ndarray, shape (m,)
        Labels in {−1, +1}.
    h_vals : ndarray of float, shape (m,)
        ``h_t(x_i)``.
    idx : ndarray of intp
        ``S_t``.
    mu : float
        ``μ_t``, clipped (:func:`clip_mu`).
    R : float
        ``R_t > 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.realboost import g1_update
    >>> w = np.full(4, 0.25)
    >>> g1_update(w, np.array([1, 1, -1, 1]), np.ones(4), np.arange(3), 1 / 3, 1.0)
    >>> w.round(4).tolist()  # the mass of S_t (0.75) is kept
    [0.1875, 0.1875, 0.375, 0.25]
    """
    w[idx] = w[idx] * (1.0 - mu * y[idx] * h_vals[idx] / R) / (1.0 - mu * mu)


# --------------------------------------------------------------------------- AdaBoost_R
def adaboost_r(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, idx: np.ndarray, weak: str, n_rounds: int
) -> tuple[Additive, tuple[InnerRound, ...]] | None:
    """AdaBoost_R on the examples ``idx`` (G1 on a path over ``S = idx``): ``LS = Σ_j α_j h_j``.

    BoostODT's node learner (Henry–Nock–Nielsen 2007, §4.3; docs/theory.md §4.2): at most
    ``n_rounds`` rounds of the weak learner ``weak`` (``"stump"`` or ``"hyperplane"``) from the
    weights ``w`` (zero outside ``idx``; updated in place by G1's rule). It stops early when a
    weak hypothesis is missing or has no edge, and after a perfect one (more rounds would
    repeat it).

    Parameters
    ----------
    X : ndarray of float, shape (m, d)
    y : ndarray, shape (m,)
        Labels in {−1, +1}.
    w : ndarray of float, shape (m,)
        Initial weights on ``idx`` (BoostODT: class-balanced); changed in place.
    idx : ndarray of intp
        The examples AdaBoost_R sees.
    weak : {"stump", "hyperplane"}
    n_rounds : int
        ``T1``, the largest number of rounds.

    Returns
    -------
    (Additive, tuple of InnerRound) or None
        ``LS`` and its rounds (``j`` from 1), or ``None`` if the first round found nothing.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.realboost import adaboost_r
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([-1, -1, 1, 1])
    >>> LS, rounds = adaboost_r(X, y, np.full(4, 0.25), np.arange(4), "stump", 5)
    >>> len(rounds), (LS.decision_function(X) > 0).tolist()  # one perfect stump: it stops
    (1, [False, False, True, True])
    """
    order_t = idx[presort(X[idx])] if weak == "stump" else None
    hyps, alphas, inner = [], [], []
    for j in range(1, n_rounds + 1):
        if weak == "stump":
            h = _stump_learner(X, y, w, idx, order_t)
        else:
            h = _hyperplane_learner(X, y, w, idx)
        if h is None:
            break
        hv = np.zeros(X.shape[0])
        hv[idx] = h(X[idx])
        R, mu, err = margin_stats(hv, y, w, idx)
        if abs(mu) <= NO_EDGE or R <= 0:
            break
        mu_c = clip_mu(mu)
        a = alpha_of(mu_c, R)
        g1_update(w, y, hv, idx, mu_c, R)
        hyps.append(h)
        alphas.append(a)
        inner.append(InnerRound(j=j, hyp=h, R=R, mu=mu, alpha=a, error=err))
        if abs(mu) >= 1.0 - MU_CLIP:
            break  # a perfect separator: more rounds would repeat it
    if not hyps:
        return None
    return Additive(tuple(hyps), tuple(alphas)), tuple(inner)


# --------------------------------------------------------------------------- margins
def margin_curve(H: np.ndarray, y: np.ndarray, w1: np.ndarray) -> np.ndarray:
    """``ν(H, θ) = P_{w_1}[tanh(yH/2) ≤ θ]`` on :data:`THETA_GRID` (Nock–Nielsen's margin error).

    Parameters
    ----------
    H : ndarray of float, shape (m,)
        ``H(x_i)``.
    y : ndarray, shape (m,)
        Labels in {−1, +1}.
    w1 : ndarray of float, shape (m,)
        Non-negative weights (normalised here).

    Returns
    -------
    ndarray of float, shape (100,)
        ``ν(H, θ)`` for every ``θ`` of :data:`THETA_GRID` (−1, −0.98, …, 0.98).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.realboost import THETA_GRID, margin_curve
    >>> nu = margin_curve(np.array([2.0, -1.0, 0.0]), np.array([1, 1, -1]), np.ones(3))
    >>> THETA_GRID[[0, 50, 99]].tolist(), nu[[0, 50, 99]].round(4).tolist()
    ([-1.0, 0.0, 0.98], [0.0, 0.6667, 1.0])
    """
    margins = np.tanh(y * H / 2.0)
    order = np.argsort(margins, kind="stable")
    cum = np.cumsum(w1[order])
    pos = np.searchsorted(margins[order], THETA_GRID, side="right")
    return np.where(pos > 0, cum[np.maximum(pos - 1, 0)], 0.0) / w1.sum()


def margin_bound(path_product: float) -> np.ndarray:
    """Theorem 1 ``[R]`` on :data:`THETA_GRID`: ``((1 + θ)/(1 − θ))·max_paths Π sqrt(1 − μ²)``.

    Parameters
    ----------
    path_product : float
        ``max_paths Π sqrt(1 − μ_t²)``.

    Returns
    -------
    ndarray of float, shape (100,)
        The bound for every ``θ`` of :data:`THETA_GRID`.

    Examples
    --------
    >>> from boostcore.realboost import margin_bound
    >>> margin_bound(0.5)[[0, 50, 99]].round(4).tolist()  # θ = −1, 0, 0.98
    [0.0, 0.5, 49.5]
    """
    return (1.0 + THETA_GRID) / (1.0 - THETA_GRID) * path_product


@dataclass(frozen=True, kw_only=True)
class G1Metrics(Metrics):
    """Errors, losses and Theorem 1 quantities of ``H`` as of one snapshot.

    Henry, Nock & Nielsen, "Real Boosting a la Carte with an Application to Boosting Oblique
    Decision Trees" (IJCAI 2007); docs/theory.md §4.1.

    Attributes
    ----------
    train_error : float
        ``ε(H, w_1)``, the ``w_1``-weighted training error (``H = 0`` counts as −1).
    test_error : float or None
        Test error, or ``None`` without a test set.
    exp_loss : float
        ``E_{w_1} e^{−yH}``.
    margin_error_0 : float
        ``ν(H, 0) = P_{w_1}[yH ≤ 0]`` (≥ the training error).
    bound_theorem1 : float
        Theorem 1 at ``θ = 0`` (Henry–Nock–Nielsen 2007): ``max_paths Π_t sqrt(1 − μ_t²)``
        over the G1 nodes on each path; it bounds ``ν(H, 0)`` and ``E_{w_1} e^{−yH}``.
        1 for the initial model (an empty product).
    km_impurity : float or None
        ``Σ_ℓ 2 sqrt(w⁺_ℓ w⁻_ℓ)`` over the leaves (the trees of :mod:`boostcore.oblique` only;
        Theorem 2 of the same paper says it equals the exponential loss); ``None`` for
        :func:`g1_linear`.
    n_leaves : int or None
        Number of leaves of the tree (:mod:`boostcore.oblique` only); ``None`` for
        :func:`g1_linear`, whose decision graph is a path.
    margin_error : ndarray of float, shape (100,)
        ``ν(H, θ) = P_{w_1}[tanh(yH/2) ≤ θ]`` on :data:`THETA_GRID`.
    bound_margin : ndarray of float, shape (100,)
        Theorem 1 on :data:`THETA_GRID`:
        ``((1 + θ)/(1 − θ))·max_paths Π sqrt(1 − μ_t²)`` (:func:`margin_bound`).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.realboost import g1_linear
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> m = list(g1_linear(ds.X_train, ds.y_train, n_rounds=5))[-1].metrics
    >>> list(m.as_dict())  # doctest: +NORMALIZE_WHITESPACE
    ['train_error', 'test_error', 'exp_loss', 'margin_error_0', 'bound_theorem1',
     'km_impurity', 'n_leaves']
    """

    exp_loss: float
    margin_error_0: float
    bound_theorem1: float
    km_impurity: float | None
    n_leaves: int | None
    margin_error: np.ndarray
    bound_margin: np.ndarray


def g1_metrics(
    H: np.ndarray,
    y: np.ndarray,
    w1: np.ndarray,
    bound: float,
    Ht: np.ndarray | None,
    yt: np.ndarray | None,
    km_imp: float | None = None,
    n_leaves: int | None = None,
) -> G1Metrics:
    """The :class:`G1Metrics` of a G1 model from its scores (Henry–Nock–Nielsen 2007,
    Theorem 1; docs/theory.md §4.1).

    One place for the metrics of every G1 run: :func:`g1_linear` (a path) and the trees of
    :mod:`boostcore.oblique` (G1 on a tree, BoostODT), which add ``km_imp`` and ``n_leaves``.

    Parameters
    ----------
    H : ndarray of float, shape (m,)
        ``H(x_i)`` on the training sample.
    y : ndarray, shape (m,)
        Labels in {−1, +1}.
    w1 : ndarray of float, shape (m,)
        The initial weights ``w_1``.
    bound : float
        ``max_paths Π sqrt(1 − μ_t²)`` (Theorem 1 at θ = 0).
    Ht, yt : ndarray or None
        Test scores and labels; ``test_error`` is None without them (or with no test rows).
    km_imp : float or None, default None
        ``Σ_ℓ 2 sqrt(w⁺_ℓ w⁻_ℓ)`` over a tree's leaves.
    n_leaves : int or None, default None
        A tree's number of leaves.

    Returns
    -------
    G1Metrics

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.realboost import g1_metrics
    >>> m = g1_metrics(np.array([1.0, -1.0]), np.array([1, 1]), np.full(2, 0.5), 0.8, None, None)
    >>> m.train_error, m.margin_error_0, m.bound_theorem1, m.test_error
    (0.5, 0.5, 0.8, None)
    """
    pred = np.where(H > 0, 1, -1)
    train = float(w1[pred != y].sum() / w1.sum())
    test = None
    if Ht is not None and yt.size:
        test = float(np.mean(np.where(Ht > 0, 1, -1) != yt))
    with np.errstate(over="ignore"):
        loss = float((w1 * np.exp(-y * H)).sum() / w1.sum())
    nu = margin_curve(H, y, w1)
    nu0 = float(w1[y * H <= 0].sum() / w1.sum())
    return G1Metrics(
        train_error=train,
        test_error=test,
        exp_loss=loss,
        margin_error_0=nu0,
        bound_theorem1=float(bound),
        km_impurity=km_imp,
        n_leaves=n_leaves,
        margin_error=frozen_array(nu),
        bound_margin=frozen_array(margin_bound(bound)),
    )


# --------------------------------------------------------------------------- G1 on a path
@dataclass(frozen=True, kw_only=True)
class G1Step(Step):
    """One frozen snapshot of G1 on a path (AdaBoost_R): the step protocol of
    :mod:`boostcore.steps` (``t``, ``kind``, ``metrics``, ``stop_reason``, ``message``) plus
    the model.

    ``t = 0`` (``"start"``) is ``H = 0`` before any weak hypothesis; step ``t`` (``"step"``)
    adds ``h_t`` with its ``R_t``, ``μ_t`` and ``α_t`` (``round``); the ``"stop"`` snapshot
    repeats the final model and says why the run ended. ``w`` is ``w_t`` (the weights
    ``h_t`` was trained on) and ``w_next`` is ``w_{t+1}`` (both the current weights at the
    start and at the stop).

    Attributes
    ----------
    model : Additive
        ``H_t``.
    round : InnerRound or None
        The weak hypothesis of this step (``None`` for ``"start"`` and ``"stop"``).
    w, w_next : ndarray of float, shape (m,)
        ``w_t`` and ``w_{t+1}``.
    """

    model: Additive
    round: InnerRound | None
    w: np.ndarray
    w_next: np.ndarray

    def details(self) -> dict[str, object]:
        """The weak hypothesis of this step: ``h`` (its formula), ``R``, ``mu``, ``alpha``,
        ``weighted_error`` (all ``None`` for the start and stop snapshots).

        Returns
        -------
        dict of str to object

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.realboost import g1_linear
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> run = list(g1_linear(ds.X_train, ds.y_train, n_rounds=2))
        >>> run[1].details()["h"], run[0].details()["h"]
        ('−sgn(x2 > 0.065)', None)
        """
        if self.round is None:
            return dict.fromkeys(("h", "R", "mu", "alpha", "weighted_error"))
        out = self.round.as_dict()
        out.pop("j")
        return out


def g1_linear(
    X: np.ndarray,
    y: np.ndarray,
    *,
    n_rounds: int,
    weak: Any = "stump",
    sample_weight: np.ndarray | None = None,
    random_state: int | np.random.RandomState | None = None,
    X_test: np.ndarray | None = None,
    y_test: np.ndarray | None = None,
) -> Iterator[G1Step]:
    """G1 on a single path, i.e. AdaBoost_R (Henry–Nock–Nielsen 2007, Fig. 2; docs/theory.md §4.1).

    Parameters
    ----------
    X : array_like of shape (m, d)
        Training features (numeric, finite).
    y : array_like of shape (m,)
        Two classes; the larger label (in sorted order) becomes +1.
    n_rounds : int
        Number of weak hypotheses ``T`` (1 … 2000).
    weak : {"stump", "hyperplane"} or a scikit-learn classifier, default "stump"
        ``"stump"``: the ±1 stump of largest ``|μ|`` (so G1 is discrete AdaBoost);
        ``"hyperplane"``: real-valued ``π(x_f − θ)`` or a constant (``H`` is then affine);
        a classifier that accepts ``sample_weight`` is refitted every round on labels ±1.
    sample_weight : array_like of shape (m,), optional
        ``w_1``, non-negative (normalised to sum 1; default uniform).
    random_state : None, int, numpy.random.Generator or numpy.random.RandomState, optional
        Seeds the copies of a scikit-learn weak learner exactly as scikit-learn's
        ``AdaBoostClassifier(random_state=…)`` seeds its copies: a deep clone per round, one
        draw per ``random_state`` parameter (nested ones included) in sorted key order; the
        user's estimator is never changed. boostcore's convention (None | int | Generator,
        :func:`boostcore._validation.check_random_state`); a legacy ``RandomState`` is also
        accepted because scikit-learn draws its copies' seeds from one (a Generator is turned
        into one through :func:`boostcore._validation.seed_of`).
    X_test, y_test : array_like, optional
        A test sample whose error is reported every round.

    Yields
    ------
    G1Step
        The step protocol (:mod:`boostcore.steps`): ``"start"`` at ``t = 0`` (``H = 0``),
        one ``"step"`` per weak hypothesis, and a last ``"stop"`` that repeats the final
        model and says why the run ended (all ``T`` rounds done, no edge, no stump, or a weak
        hypothesis that is already perfect).

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter (the message names it).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.realboost import g1_linear
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = list(g1_linear(ds.X_train, ds.y_train, n_rounds=5))
    >>> [(s.t, s.kind) for s in steps][:2], [(s.t, s.kind) for s in steps][-2:]
    ([(0, 'start'), (1, 'step')], [(5, 'step'), (5, 'stop')])
    >>> steps[0].metrics.exp_loss, steps[0].metrics.bound_theorem1  # H = 0
    (1.0, 1.0)
    >>> steps[-2].round.as_dict()["h"], steps[-1].stop_reason
    ('−sgn(x2 > 0.271)', 'All T = 5 rounds are done.')
    >>> m = steps[-1].metrics
    >>> # ε ≤ loss ≤ bound
    >>> round(m.train_error, 4), round(m.exp_loss, 4), round(m.bound_theorem1, 4)
    (0.0533, 0.2784, 0.2784)
    >>> next(g1_linear(ds.X_train, ds.y_train, n_rounds=5, weak="tree"))
    Traceback (most recent call last):
        ...
    ValueError: weak must be one of 'stump', 'hyperplane'; got 'tree'
    """
    Xv, yv, w1, classes = check_xy(X, y, sample_weight)
    n_rounds = check_int("n_rounds", n_rounds, low=1, high=2000)
    if isinstance(weak, str):
        weak = check_choice("weak", weak, WEAK_LEARNERS)
    elif not (hasattr(weak, "fit") and hasattr(weak, "predict") and hasattr(weak, "get_params")):
        raise ValueError(
            "weak must be 'stump', 'hyperplane' or a scikit-learn classifier "
            f"with fit(X, y, sample_weight) and predict; got {weak!r}"
        )
    if isinstance(random_state, np.random.Generator):
        random_state = np.random.RandomState(seed_of(random_state))
    elif random_state is not None and not isinstance(random_state, np.random.RandomState):
        random_state = seed_of(random_state)  # an int ≥ 0, or a ValueError naming the rule
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    return _g1_linear(Xv, yv, w1, n_rounds, weak, random_state, Xt, yt)


def _g1_linear(X, y, w1, n_rounds, weak, random_state, Xt, yt):
    m, d = X.shape
    idx = np.arange(m)
    w = w1.copy()
    H = np.zeros(m)
    Ht = None if Xt is None else np.zeros(Xt.shape[0])
    order_t = presort(X) if weak == "stump" else None
    rng = None
    if not isinstance(weak, str):
        rng = (
            random_state
            if isinstance(random_state, np.random.RandomState)
            else np.random.RandomState(random_state)
        )
    hyps: list[WeakHypothesis] = []
    alphas: list[float] = []
    product = 1.0
    metrics = g1_metrics(H, y, w1, product, Ht, yt)
    yield G1Step(
        t=0,
        kind=START,
        model=Additive((), ()),
        round=None,
        w=frozen_array(w),
        w_next=frozen_array(w),
        metrics=metrics,
        message=(
            "Round 0: the initial model H = 0, before any weak hypothesis "
            f"(training error {metrics.train_error:.4f}, every example at its weight w_1)."
        ),
    )
    reason = f"All T = {n_rounds} rounds are done."
    t_done = 0
    for t in range(1, n_rounds + 1):
        if weak == "stump":
            h = _stump_learner(X, y, w, idx, order_t)
        elif weak == "hyperplane":
            h = _hyperplane_learner(X, y, w, idx)
        else:
            h = _fit_estimator(weak, X, y, w, rng)
        if h is None:
            reason = (
                "No feature has two different values: no stump can split the sample, so "
                "there is no weak hypothesis."
            )
            break
        hv = h(X)
        R, mu, err = margin_stats(hv, y, w, idx)
        if abs(mu) <= NO_EDGE or R <= 0:
            reason = (
                f"The weak hypothesis of round {t} has no edge (μ = 0) on the current "
                "weights: G1 cannot make progress."
            )
            break
        mu_c = clip_mu(mu)
        a = alpha_of(mu_c, R)
        w_t = w.copy()
        g1_update(w, y, hv, idx, mu_c, R)
        H += a * hv
        if Ht is not None:
            Ht += a * h(Xt)
        hyps.append(h)
        alphas.append(a)
        product *= np.sqrt(1.0 - mu_c * mu_c)
        rnd = InnerRound(j=t, hyp=h, R=R, mu=mu, alpha=a, error=err)
        metrics = g1_metrics(H, y, w1, product, Ht, yt)
        t_done = t
        yield G1Step(
            t=t,
            kind=STEP,
            model=Additive(tuple(hyps), tuple(alphas)),
            round=rnd,
            w=frozen_array(w_t),
            w_next=frozen_array(w),
            metrics=metrics,
            message=(
                f"Round {t}: h_{t} = {h.describe()}, R = {R:.3g}, μ = {mu:.4f}, "
                f"α = {a:.4f}, weighted error {err:.4f}."
            ),
        )
        if abs(mu) >= 1.0 - MU_CLIP and t < n_rounds:
            reason = (
                f"h_{t} is perfect on the training sample (μ = 1): the training error is 0 "
                "and G1's weights would collapse, so the run ends here (as scikit-learn's "
                "AdaBoost does)."
            )
            break
    yield G1Step(
        t=t_done,
        kind=STOP,
        model=Additive(tuple(hyps), tuple(alphas)),
        round=None,
        w=frozen_array(w),
        w_next=frozen_array(w),
        metrics=metrics,
        stop_reason=reason,
        message=f"Round {t_done}: stopped. {reason}",
    )
