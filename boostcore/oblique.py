"""Real boosting à la carte: generic greedy induction G1, AdaBoost_R and BoostODT.

See docs/theory.md §4.

Henry, Nock & Nielsen, "Real Boosting a la Carte with an Application to Boosting Oblique
Decision Trees" (IJCAI 2007), Fig. 2 (G1) and §4.3 (BoostODT); the weight update is Nock &
Nielsen's AdaBoost_R ("A Real Generalization of Discrete AdaBoost", ECAI 2006). The OCR text
of the paper lost most digits; the formulas below follow the reconstruction in
docs/theory.md §4.

G1 builds ``H(x) = Σ_{h_t on the path of x} α_t h_t(x)`` over a decision graph. At step ``t``
the new node's examples ``S_t`` and its current weights ``w_t`` give::

    R_t = max_{S_t} |h_t|,   μ_t = Σ_{S_t} w_t y h_t / (R_t Σ_{S_t} w_t),
    α_t = ln((1 + μ_t)/(1 − μ_t)) / (2 R_t),
    w_{t+1,i} = w_{t,i} (1 − μ_t y_i h_t(x_i)/R_t) / (1 − μ_t²)   on S_t (unchanged elsewhere).

Three specialisations are generators of frozen snapshots:

* :func:`g1_linear` — one path (``S_t = S``): AdaBoost_R; with ±1 stumps, discrete AdaBoost;
* :func:`g1_tree` — constant nodes on a tree grown by Kearns–Mansour splits (Theorem 2: the
  leaf output is ``½ ln(w⁺_ℓ/w⁻_ℓ)`` and the exponential loss is ``Σ_ℓ 2 sqrt(w⁺_ℓ w⁻_ℓ)``);
* :func:`boost_odt` — BoostODT: the same tree, each node split by ``sign(LS_ℓ)`` with ``LS_ℓ``
  built by AdaBoost_R on the node's examples with class-balanced weights.

Their snapshots (:class:`G1Step` on the path, :class:`ODTStep` on the trees, metrics
:class:`G1Metrics`) follow the step protocol of :mod:`boostcore.steps`: ``"start"`` at
``t = 0`` (``H = 0`` on the path, the root alone on the trees), one ``"step"`` per weak
hypothesis or split, and a ``"stop"`` that repeats the final model and says why it ended.

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
from .impurity import km
from .splits import best_margin_stump, best_stump, presort
from .steps import START, STEP, STOP, Metrics, Step

WEAK_LEARNERS = ("stump", "hyperplane")
LEAF_RULES = ("breadth_first", "max_decrease")
#: ``|μ_t|`` is clipped to ``1 − MU_CLIP`` (docs/theory.md §4.1) so that ``α_t`` stays finite.
MU_CLIP = 1e-12
#: ``|μ_t|`` at most this counts as "no edge": G1 stops (docs/theory.md §4.1).
NO_EDGE = 1e-12
#: θ grid of the margin-error curves ``ν(H, θ)`` (θ = 1 is left out: the bound is infinite).
THETA_GRID = np.round(np.linspace(-1.0, 1.0, 101)[:-1], 12)
THETA_GRID.setflags(write=False)
MAX_INTERNAL = 255


def _frozen(a, dtype=None) -> np.ndarray:
    out = np.array(a, dtype=dtype, copy=True)
    out.setflags(write=False)
    return out


def _clip_mu(mu: float) -> float:
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
    >>> from boostcore.oblique import alpha_of
    >>> round(alpha_of(0.5), 4), round(alpha_of(0.5, R=2.0), 4), round(alpha_of(1.0), 2)
    (0.5493, 0.2747, 14.16)
    """
    mu = _clip_mu(mu)
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
    >>> from boostcore.oblique import WeakHypothesis
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
        >>> from boostcore.oblique import WeakHypothesis
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
        >>> from boostcore.oblique import WeakHypothesis
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
    >>> from boostcore.oblique import Additive, WeakHypothesis
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
        >>> from boostcore.oblique import Additive, WeakHypothesis
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
        >>> from boostcore.oblique import Additive, WeakHypothesis
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
        >>> from boostcore.oblique import Additive, WeakHypothesis
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
        >>> from boostcore.oblique import Additive, WeakHypothesis
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
        >>> from boostcore.oblique import InnerRound, WeakHypothesis
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


def _margin_stats(h_vals, y, w, idx):
    """``R_t``, ``μ_t`` (unclipped) and the weighted error of ``sign(h)`` on ``idx``.

    ``R_t`` is taken over the examples of positive weight (a weight-0 example is not in the
    sample, so fitting with it must equal fitting without it).
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


def _g1_update(w, y, h_vals, idx, mu, R):
    """``w_{t+1} = w_t (1 − μ y h/R)/(1 − μ²)`` on ``S_t`` (G1, Fig. 2) — in place."""
    w[idx] = w[idx] * (1.0 - mu * y[idx] * h_vals[idx] / R) / (1.0 - mu * mu)


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
    >>> from boostcore.oblique import THETA_GRID, margin_curve
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
    >>> from boostcore.oblique import margin_bound
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
        ``Σ_ℓ 2 sqrt(w⁺_ℓ w⁻_ℓ)`` over the leaves (trees only; Theorem 2 of the same paper says
        it equals the exponential loss); ``None`` for :func:`g1_linear`.
    n_leaves : int or None
        Number of leaves of the tree (trees only); ``None`` for :func:`g1_linear`, whose
        decision graph is a path.
    margin_error : ndarray of float, shape (100,)
        ``ν(H, θ) = P_{w_1}[tanh(yH/2) ≤ θ]`` on :data:`THETA_GRID`.
    bound_margin : ndarray of float, shape (100,)
        Theorem 1 on :data:`THETA_GRID`:
        ``((1 + θ)/(1 − θ))·max_paths Π sqrt(1 − μ_t²)`` (:func:`margin_bound`).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.oblique import g1_linear
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


def _metrics(H, y, w1, bound, Ht, yt, km_imp=None, n_leaves=None) -> G1Metrics:
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
        margin_error=_frozen(nu),
        bound_margin=_frozen(margin_bound(bound)),
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
        >>> from boostcore.oblique import g1_linear
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
    >>> from boostcore.oblique import g1_linear
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
    metrics = _metrics(H, y, w1, product, Ht, yt)
    yield G1Step(
        t=0,
        kind=START,
        model=Additive((), ()),
        round=None,
        w=_frozen(w),
        w_next=_frozen(w),
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
        R, mu, err = _margin_stats(hv, y, w, idx)
        if abs(mu) <= NO_EDGE or R <= 0:
            reason = (
                f"The weak hypothesis of round {t} has no edge (μ = 0) on the current "
                "weights: G1 cannot make progress."
            )
            break
        mu_c = _clip_mu(mu)
        a = alpha_of(mu_c, R)
        w_t = w.copy()
        _g1_update(w, y, hv, idx, mu_c, R)
        H += a * hv
        if Ht is not None:
            Ht += a * h(Xt)
        hyps.append(h)
        alphas.append(a)
        product *= np.sqrt(1.0 - mu_c * mu_c)
        rnd = InnerRound(j=t, hyp=h, R=R, mu=mu, alpha=a, error=err)
        metrics = _metrics(H, y, w1, product, Ht, yt)
        t_done = t
        yield G1Step(
            t=t,
            kind=STEP,
            model=Additive(tuple(hyps), tuple(alphas)),
            round=rnd,
            w=_frozen(w_t),
            w_next=_frozen(w),
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
        w=_frozen(w),
        w_next=_frozen(w),
        metrics=metrics,
        stop_reason=reason,
        message=f"Round {t_done}: stopped. {reason}",
    )


# --------------------------------------------------------------------------- trees
@dataclass(frozen=True)
class ObliqueTree:
    """A binary decision tree whose internal nodes split by ``sign(LS(x))`` (``≥ 0`` → right)
    and whose nodes all hold G1 constants (Assumption (B)).

    Node ``0`` is the root; ids increase in creation order, so parents come first.
    ``value[n] = Σ α`` over the constant nodes from the root to ``n`` (the output ``H`` of a
    leaf); ``mu[n]`` and ``alpha[n]`` are the G1 quantities of node ``n``'s constant;
    ``w_pos``/``w_neg`` the ``w_1`` mass of each class reaching ``n``.

    Attributes
    ----------
    left, right : tuple of int
        Children of every node (−1 at leaves).
    separator : tuple of (Additive or None)
        ``LS`` of every internal node (``None`` at leaves).
    depth : tuple of int
        0 for the root.
    value, mu, alpha, w_pos, w_neg : tuple of float
        As above.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.oblique import g1_tree
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> tree = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))[-1].tree
    >>> tree.left, tree.right
    ((1, 3, -1, -1, 5, -1, -1), (2, 4, -1, -1, 6, -1, -1))
    """

    left: tuple[int, ...]
    right: tuple[int, ...]
    separator: tuple[Additive | None, ...]
    depth: tuple[int, ...]
    value: tuple[float, ...]
    mu: tuple[float, ...]
    alpha: tuple[float, ...]
    w_pos: tuple[float, ...]
    w_neg: tuple[float, ...]

    @property
    def n_nodes(self) -> int:
        """Number of nodes.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.oblique import g1_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))[-1].tree
        >>> tree.n_nodes
        7
        """
        return len(self.left)

    @property
    def leaves(self) -> list[int]:
        """Ids of the leaves, increasing.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.oblique import g1_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))[-1].tree
        >>> tree.leaves
        [2, 3, 5, 6]
        """
        return [n for n in range(self.n_nodes) if self.left[n] < 0]

    @property
    def internal(self) -> list[int]:
        """Ids of the internal nodes, increasing (parents first).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.oblique import g1_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))[-1].tree
        >>> tree.internal
        [0, 1, 4]
        """
        return [n for n in range(self.n_nodes) if self.left[n] >= 0]

    def apply(self, X: np.ndarray) -> np.ndarray:
        """Id of the leaf every row of ``X`` reaches (vectorised per internal node).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to route.

        Returns
        -------
        ndarray of intp, shape (n,)
            Leaf ids.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.oblique import g1_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))[-1].tree
        >>> tree.apply(ds.X_train[:3]).tolist()
        [3, 5, 6]
        """
        X = np.asarray(X, dtype=float)
        node = np.zeros(X.shape[0], dtype=np.intp)
        for n in self.internal:
            here = np.flatnonzero(node == n)
            if here.size:
                go_right = self.separator[n].decision_function(X[here]) >= 0
                node[here] = np.where(go_right, self.right[n], self.left[n])
        return node

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """``H(x)``: the value of the reached leaf.

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to score.

        Returns
        -------
        ndarray of float, shape (n,)
            ``value`` of the leaf each row reaches.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.oblique import g1_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))[-1].tree
        >>> tree.decision_function(ds.X_train[:3]).round(3).tolist(), ds.y_train[:3].tolist()
        ([14.83, -13.959, 0.661], [1, -1, 1])
        """
        return np.asarray(self.value)[self.apply(X)]

    def path_products(self) -> dict[int, float]:
        """``Π sqrt(1 − μ²)`` over the constant nodes from the root to each leaf.

        Returns
        -------
        dict of int to float
            Leaf id → product; its maximum is Theorem 1's bound at ``θ = 0``.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.oblique import g1_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))[-1].tree
        >>> {leaf: round(p, 4) for leaf, p in tree.path_products().items()}
        {2: 0.0, 3: 0.0, 5: 0.0, 6: 0.6662}
        """
        prod = [0.0] * self.n_nodes
        for n in range(self.n_nodes):
            own = float(np.sqrt(1.0 - self.mu[n] ** 2))
            parent = self._parent(n)
            prod[n] = own * (1.0 if parent < 0 else prod[parent])
        return {n: prod[n] for n in self.leaves}

    def _parent(self, n: int) -> int:
        for p in range(n):
            if self.left[p] == n or self.right[p] == n:
                return p
        return -1


@dataclass(frozen=True, kw_only=True)
class ODTStep(Step):
    """One frozen snapshot of G1 on a tree (:func:`g1_tree`) or of BoostODT
    (:func:`boost_odt`): the step protocol of :mod:`boostcore.steps` (``t``, ``kind``,
    ``metrics``, ``stop_reason``, ``message``) plus the tree.

    ``t`` counts internal nodes: ``t = 0`` (``"start"``) is the root alone; step ``t``
    (``"step"``) splits the leaf ``node`` by ``separator`` (its ``LS``; for ``g1_tree`` a
    single stump), built by the AdaBoost_R rounds ``inner`` on the node's examples
    ``node_index`` with their class-balanced weights ``node_weights`` (the ``w`` of
    AdaBoost_R's first round); ``children`` are the two new leaves; ``w`` is G1's current
    weight vector after this step. The ``"stop"`` snapshot repeats the final tree and says
    why the run ended.

    Attributes
    ----------
    tree : ObliqueTree
        The tree as of this snapshot.
    node : int or None
        The leaf split (``"step"`` only).
    separator : Additive or None
        Its ``LS``.
    inner : tuple of InnerRound
        The AdaBoost_R rounds that built it (empty for ``g1_tree``).
    node_index : ndarray of intp
        The node's examples.
    node_weights : ndarray of float
        Their class-balanced weights.
    children : (int, int) or None
        The two new leaves (left, right).
    w : ndarray of float, shape (m,)
        G1's current weights.
    """

    tree: ObliqueTree
    node: int | None
    separator: Additive | None
    inner: tuple[InnerRound, ...]
    node_index: np.ndarray
    node_weights: np.ndarray
    children: tuple[int, int] | None
    w: np.ndarray

    def details(self) -> dict[str, object]:
        """What this step split: ``node``, ``left_child``, ``right_child``, ``n_examples``
        (the node's), ``n_weak`` (weak hypotheses in its ``LS``) and ``separator`` (``LS`` as
        text); all ``None`` for the start and stop snapshots.

        Returns
        -------
        dict of str to object

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.oblique import g1_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> d = list(g1_tree(ds.X_train, ds.y_train, n_internal=1))[1].details()
        >>> d["node"], d["left_child"], d["right_child"], d["n_weak"], d["separator"]
        (0, 1, 2, 1, '1·sgn(x2 > 0.271)')
        """
        keys = ("node", "left_child", "right_child", "n_examples", "n_weak", "separator")
        if self.node is None or self.separator is None:
            return dict.fromkeys(keys)
        sep = self.separator
        terms = [f"{a:.3g}·{h.describe()}" for h, a in zip(sep.hyps, sep.alphas)]
        text = " + ".join(terms[:4]) + (f" + … ({len(terms)} terms)" if len(terms) > 4 else "")
        left, right = self.children if self.children is not None else (None, None)
        return dict(zip(keys, (self.node, left, right, int(self.node_index.size), len(sep), text)))


@dataclass
class _Candidate:
    separator: Additive
    inner: tuple[InnerRound, ...]
    right: np.ndarray  # bool over the node's examples
    decrease: float
    weights: np.ndarray


class _TreeGrower:
    """G1 with constant nodes on a tree (Assumption (B)); ``splitter`` builds each node's LS."""

    def __init__(self, X, y, w1, splitter):
        self.X, self.y, self.w1 = X, y, w1
        self.splitter = splitter
        self.w = w1.copy()  # G1's current weights
        self.left: list[int] = []
        self.right: list[int] = []
        self.sep: list[Additive | None] = []
        self.depth: list[int] = []
        self.value: list[float] = []
        self.mu: list[float] = []
        self.alpha: list[float] = []
        self.wp: list[float] = []
        self.wn: list[float] = []
        self.index: list[np.ndarray] = []
        self.cand: dict[int, _Candidate | None] = {}
        self._new_node(np.arange(X.shape[0]), parent_value=0.0, depth=0)

    def _new_node(self, idx, parent_value, depth) -> int:
        """Add a G1 node with the constant ``h = +1`` on ``S_t = idx`` (R = 1)."""
        y, w = self.y, self.w
        hv = np.ones(self.X.shape[0])
        _, mu, _ = _margin_stats(hv, y, w, idx)
        mu_c = _clip_mu(mu)
        a = alpha_of(mu_c)
        _g1_update(w, y, hv, idx, mu_c, 1.0)
        self.left.append(-1)
        self.right.append(-1)
        self.sep.append(None)
        self.depth.append(depth)
        self.value.append(parent_value + a)
        self.mu.append(mu_c)
        self.alpha.append(a)
        pos = y[idx] > 0
        self.wp.append(float(self.w1[idx][pos].sum()))
        self.wn.append(float(self.w1[idx][~pos].sum()))
        self.index.append(idx)
        return len(self.left) - 1

    def splittable(self, n: int) -> bool:
        return self.left[n] < 0 and self.wp[n] > 0 and self.wn[n] > 0

    def candidate(self, n: int) -> _Candidate | None:
        """The node's separator and how much it would lower ``Σ 2 sqrt(w⁺w⁻)`` (cached)."""
        if n not in self.cand:
            self.cand[n] = self._build(n)
        return self.cand[n]

    def _build(self, n: int) -> _Candidate | None:
        idx = self.index[n]
        y, w1 = self.y[idx], self.w1[idx]
        pos = y > 0
        # BoostODT's node weights: class-balanced, w ∝ w_1/(2 w_1^{y}(ℓ)) (docs/theory.md §4.2 [R]);
        # for G1 on the tree these are exactly its current weights at the leaf, rescaled.
        bal = np.where(pos, w1 / (2.0 * self.wp[n]), w1 / (2.0 * self.wn[n]))
        built = self.splitter(self.X, self.y, idx, bal)
        if built is None:
            return None
        sep, inner = built
        right = sep.decision_function(self.X[idx]) >= 0
        if right.all() or not right.any():
            return None
        before = 2.0 * np.sqrt(self.wp[n] * self.wn[n])
        after = 0.0
        for side in (right, ~right):
            after += 2.0 * np.sqrt(w1[side & pos].sum() * w1[side & ~pos].sum())
        return _Candidate(sep, inner, right, before - after, bal)

    def split(self, n: int, c: _Candidate) -> tuple[int, int]:
        idx = self.index[n]
        lft = self._new_node(idx[~c.right], self.value[n], self.depth[n] + 1)
        rgt = self._new_node(idx[c.right], self.value[n], self.depth[n] + 1)
        self.left[n], self.right[n], self.sep[n] = lft, rgt, c.separator
        return lft, rgt

    def tree(self) -> ObliqueTree:
        return ObliqueTree(
            left=tuple(self.left),
            right=tuple(self.right),
            separator=tuple(self.sep),
            depth=tuple(self.depth),
            value=tuple(self.value),
            mu=tuple(self.mu),
            alpha=tuple(self.alpha),
            w_pos=tuple(self.wp),
            w_neg=tuple(self.wn),
        )


def _km_stump_splitter(X, y, idx, bal):
    """Kearns–Mansour: the stump of least ``Σ 2 sqrt(w⁺w⁻)`` at the node (one-stump ``LS``).

    The ``km`` index is homogeneous in each class's weight, so class-balancing does not change
    which stump wins.
    """
    order = idx[presort(X[idx])]  # (d, n_node)
    w = np.zeros(X.shape[0])
    w[idx] = bal
    s = best_stump(X, y, w, order.T, km)
    if s is None:
        return None
    h = WeakHypothesis("stump", feature=s.feature, threshold=s.thresholds[0], polarity=1.0)
    return Additive((h,), (1.0,)), ()


def _adaboost_r_splitter(learner: str, n_stumps: int):
    """BoostODT's node learner: ``n_stumps`` rounds of AdaBoost_R on the node's examples."""

    def split(X, y, idx, bal):
        w = np.zeros(X.shape[0])
        w[idx] = bal
        order_t = idx[presort(X[idx])] if learner == "stump" else None
        hyps, alphas, inner = [], [], []
        for j in range(1, n_stumps + 1):
            if learner == "stump":
                h = _stump_learner(X, y, w, idx, order_t)
            else:
                h = _hyperplane_learner(X, y, w, idx)
            if h is None:
                break
            hv = np.zeros(X.shape[0])
            hv[idx] = h(X[idx])
            R, mu, err = _margin_stats(hv, y, w, idx)
            if abs(mu) <= NO_EDGE or R <= 0:
                break
            mu_c = _clip_mu(mu)
            a = alpha_of(mu_c, R)
            _g1_update(w, y, hv, idx, mu_c, R)
            hyps.append(h)
            alphas.append(a)
            inner.append(InnerRound(j=j, hyp=h, R=R, mu=mu, alpha=a, error=err))
            if abs(mu) >= 1.0 - MU_CLIP:
                break  # a perfect separator: more rounds would repeat it
        if not hyps:
            return None
        return Additive(tuple(hyps), tuple(alphas)), tuple(inner)

    return split


def g1_tree(
    X: np.ndarray,
    y: np.ndarray,
    *,
    n_internal: int,
    leaf_rule: str = "max_decrease",
    sample_weight: np.ndarray | None = None,
    X_test: np.ndarray | None = None,
    y_test: np.ndarray | None = None,
) -> Iterator[ODTStep]:
    """G1 with constant nodes on a tree grown by Kearns–Mansour stumps (Theorem 2).

    See docs/theory.md §4.1.

    Every node holds the constant ``h = +1``; the split of a leaf is the axis stump of least
    ``Σ 2 sqrt(w⁺w⁻)``. Theorem 2: a leaf outputs ``½ ln(w⁺_ℓ/w⁻_ℓ)`` and the exponential loss
    is ``Σ_ℓ 2 sqrt(w⁺_ℓ w⁻_ℓ)`` — Kearns–Mansour's tree induction with ``f(z) = 2 sqrt(z(1−z))``.
    A one-class leaf's constant has ``μ = ±1``, clipped (docs/theory.md §4.1), so it outputs its
    parent's value ``± atanh(1 − 10⁻¹²) ≈ ±14.2`` instead of ``±∞``.

    Parameters
    ----------
    X : array_like of shape (m, d)
        Training features (numeric, finite).
    y : array_like of shape (m,)
        Two classes; the larger label (in sorted order) becomes +1.
    n_internal : int
        Number of splits (1 … 255).
    leaf_rule : {"max_decrease", "breadth_first"}, default "max_decrease"
        Split the leaf whose stump lowers ``Σ 2 sqrt(w⁺w⁻)`` most (Kearns–Mansour), or the
        oldest splittable leaf (towards a complete tree).
    sample_weight : array_like of shape (m,), optional
        ``w_1``, non-negative (normalised to sum 1; default uniform).
    X_test, y_test : array_like, optional
        A test sample whose error is reported every step.

    Yields
    ------
    ODTStep
        The step protocol (:mod:`boostcore.steps`): ``"start"`` at ``t = 0`` (the root
        alone), one ``"step"`` per split, and a last ``"stop"`` that repeats the final tree
        and says why the run ended (all ``n_internal`` splits done, or no leaf can be split).

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter (the message names it).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.oblique import g1_tree
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))
    >>> [(s.t, s.kind) for s in steps]
    [(0, 'start'), (1, 'step'), (2, 'step'), (3, 'step'), (3, 'stop')]
    >>> steps[-1].stop_reason
    'All n_internal = 3 splits are done.'
    >>> m = steps[-1].metrics
    >>> round(m.exp_loss, 4), round(m.km_impurity, 4), m.n_leaves  # Theorem 2: equal
    (0.2066, 0.2066, 4)
    """
    Xv, yv, w1, classes = check_xy(X, y, sample_weight)
    n_internal = check_int("n_internal", n_internal, low=1, high=MAX_INTERNAL)
    leaf_rule = check_choice("leaf_rule", leaf_rule, LEAF_RULES)
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    return _grow(
        Xv, yv, w1, n_internal, leaf_rule, _km_stump_splitter, Xt, yt, "G1 tree", "n_internal"
    )


def boost_odt(
    X: np.ndarray,
    y: np.ndarray,
    *,
    n_internal: int = 7,
    n_stumps: int = 10,
    weak: str = "stump",
    leaf_rule: str = "breadth_first",
    sample_weight: np.ndarray | None = None,
    X_test: np.ndarray | None = None,
    y_test: np.ndarray | None = None,
) -> Iterator[ODTStep]:
    """BoostODT (Henry–Nock–Nielsen 2007, §4.3; docs/theory.md §4.2): G1 on the tree shape,
    AdaBoost_R in the nodes.

    Each split leaf ``ℓ`` gets ``LS_ℓ = Σ_{j ≤ T1} α_j s_j`` from AdaBoost_R on its examples with
    class-balanced weights ``w ∝ w_1/(2 w_1^{y}(ℓ))``; a point goes right when ``LS_ℓ(x) ≥ 0``.
    The tree's own G1 nodes are constants, so leaves output ``½ ln(w⁺_ℓ/w⁻_ℓ)`` (Theorem 2).

    Parameters
    ----------
    X : array_like of shape (m, d)
        Training features (numeric, finite).
    y : array_like of shape (m,)
        Two classes; the larger label (in sorted order) becomes +1.
    n_internal : int, default 7
        ``T2``, the number of internal nodes (1 … 255; 7 is a complete tree of depth 3 under
        ``breadth_first``).
    n_stumps : int, default 10
        ``T1``, AdaBoost_R rounds per node (1 … 200).
    weak : {"stump", "hyperplane"}, default "stump"
        AdaBoost_R's weak learner in every node, as in :func:`g1_linear`: ±1 axis stumps
        (the paper: a node boundary is a staircase) or real-valued ``π(x_f − θ)`` (``LS`` is
        affine: a true oblique line).
    leaf_rule : {"breadth_first", "max_decrease"}, default "breadth_first"
        Which leaf with both classes to split next.
    sample_weight : array_like of shape (m,), optional
        ``w_1``, non-negative (normalised to sum 1; default uniform).
    X_test, y_test : array_like, optional
        A test sample whose error is reported every step.

    Yields
    ------
    ODTStep
        The step protocol (:mod:`boostcore.steps`): ``"start"`` at ``t = 0`` (the root
        alone), one ``"step"`` per internal node (``inner`` lists its AdaBoost_R rounds), and
        a last ``"stop"`` that repeats the final tree and says why the run ended (all ``T2``
        splits done, or no leaf can be split any more).

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter (the message names it).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.oblique import boost_odt
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = list(boost_odt(ds.X_train, ds.y_train, n_internal=3, n_stumps=5))
    >>> steps[1].node, steps[1].children, len(steps[1].inner)
    (0, (1, 2), 5)
    >>> steps[-1].kind, steps[-1].t, steps[-1].stop_reason
    ('stop', 3, 'All T2 = 3 splits are done.')
    >>> m = steps[-1].metrics
    >>> round(m.train_error, 4), round(m.exp_loss, 4)
    (0.04, 0.1222)
    """
    Xv, yv, w1, classes = check_xy(X, y, sample_weight)
    n_internal = check_int("n_internal", n_internal, low=1, high=MAX_INTERNAL)
    n_stumps = check_int("n_stumps", n_stumps, low=1, high=200)
    weak = check_choice("weak", weak, WEAK_LEARNERS)
    leaf_rule = check_choice("leaf_rule", leaf_rule, LEAF_RULES)
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    return _grow(
        Xv,
        yv,
        w1,
        n_internal,
        leaf_rule,
        _adaboost_r_splitter(weak, n_stumps),
        Xt,
        yt,
        "BoostODT",
        "T2",
    )


def _tree_metrics(tree: ObliqueTree, X, y, w1, Xt, yt) -> G1Metrics:
    H = tree.decision_function(X)
    Ht = None if Xt is None else tree.decision_function(Xt)
    bound = max(tree.path_products().values())
    km_imp = float(sum(2.0 * np.sqrt(tree.w_pos[n] * tree.w_neg[n]) for n in tree.leaves))
    return _metrics(H, y, w1, bound, Ht, yt, km_imp, n_leaves=len(tree.leaves))


def _grow(X, y, w1, n_internal, leaf_rule, splitter, Xt, yt, name, budget):
    g = _TreeGrower(X, y, w1, splitter)
    empty_i = _frozen(np.zeros(0, dtype=np.intp))
    empty_f = _frozen(np.zeros(0))
    tree = g.tree()
    metrics = _tree_metrics(tree, X, y, w1, Xt, yt)
    yield ODTStep(
        t=0,
        kind=START,
        tree=tree,
        node=None,
        separator=None,
        inner=(),
        node_index=empty_i,
        node_weights=empty_f,
        children=None,
        w=_frozen(g.w),
        metrics=metrics,
        message=f"{name}: the root alone, a constant node with output ½ ln(w⁺/w⁻) = "
        f"{tree.value[0]:.3f}.",
    )
    reason = f"All {budget} = {n_internal} splits are done."
    t_done = 0
    fifo = [0]
    for t in range(1, n_internal + 1):
        chosen = None
        if leaf_rule == "breadth_first":
            while fifo and chosen is None:
                n = fifo.pop(0)
                if g.splittable(n):
                    c = g.candidate(n)
                    if c is not None:
                        chosen = (n, c)
        else:
            best = None
            for n in range(len(g.left)):
                if g.splittable(n):
                    c = g.candidate(n)
                    # ties: the lowest node id (deterministic)
                    if c is not None and (best is None or c.decrease > best[1].decrease + 1e-15):
                        best = (n, c)
            chosen = best
        if chosen is None:
            reason = (
                "Every leaf is pure or its separator sends all its examples to one side: no "
                "leaf can be split."
            )
            break
        n, c = chosen
        kids = g.split(n, c)
        fifo.extend(kids)
        tree = g.tree()
        metrics = _tree_metrics(tree, X, y, w1, Xt, yt)
        t_done = t
        m_in = len(c.inner) or 1
        yield ODTStep(
            t=t,
            kind=STEP,
            tree=tree,
            node=n,
            separator=c.separator,
            inner=c.inner,
            node_index=_frozen(g.index[n]),
            node_weights=_frozen(c.weights),
            children=kids,
            w=_frozen(g.w),
            metrics=metrics,
            message=(
                f"Step {t}: node {n} ({g.index[n].size} examples) split by a separator of "
                f"{m_in} weak hypothes{'is' if m_in == 1 else 'es'}; Σ 2√(w⁺w⁻) drops by "
                f"{c.decrease:.4f}."
            ),
        )
    yield ODTStep(
        t=t_done,
        kind=STOP,
        tree=tree,
        node=None,
        separator=None,
        inner=(),
        node_index=empty_i,
        node_weights=empty_f,
        children=None,
        w=_frozen(g.w),
        metrics=metrics,
        stop_reason=reason,
        message=f"Step {t_done}: stopped. {reason}",
    )
