"""Boosting probabilistic weak classifiers: chain, tree and 2-matryoshka (docs/theory.md §3).

E. Grossmann, "A theory of probabilistic boosting, decision trees and matryoshki".
A probabilistic weak classifier answers ``h(x) = +1`` with probability ``q(+, x)``; here a
*soft stump* ``q(+, x) = σ(π (x_j − θ)/τ)`` (softness ``τ``; ``τ → 0`` is a deterministic
stump), clipped to ``[1e−9, 1 − 1e−9]``.

* :func:`prob_adaboost` — probabilistic AdaBoost (§3, Eqs. (1)–(3)): ``E(Loss) ≤ Π Z_t ≤ ρ^T``;
  its expected error is exact while ``2^{⌈T/2⌉}·n`` is small (:mod:`boostcore.exact_chain`:
  ``H`` is a random sum over ``2^T`` answer patterns) and a seeded Monte Carlo estimate beyond.
* :func:`prob_tree` — the probabilistic boosting tree grown greedily by the largest leaf
  contribution ``Π Z`` (§4, Eqs. (4)–(9)): exact expected error ``≤ C(T) = Σ_l Π_{s≤l} Z_s``
  and ``C(T) ≤ F(T, ρ̂)`` with ``ρ̂ = max (Z_{s+} + Z_{s−})``.
* :func:`matryoshka` — the 2-matryoshka of level ``L`` (§5.3): a two-node tree whose nodes are
  level ``L−1`` matryoshkas used as probabilistic classifiers,
  ``q(+, x) = Pr(H(x) > 0) + ½ Pr(H(x) = 0)``. Its bound ``C`` uses the sub-trees' exact ``q``
  (valid); the paper's ``M2(T, ρ̂)`` is reported as the paper's claim (docs/theory.md §3.3).

Every weak learner here picks the soft stump minimising ``Z₊ + Z₋ = 2√(W⁺⁺W⁺⁻) + 2√(W⁻⁺W⁻⁻)``
under the node's weights.

Every generator follows the step protocol (:mod:`boostcore.steps`): a ``"start"`` snapshot at
``t = 0`` (the initial model ``H = 0``: expected error ½, bound 1), one ``"step"`` per step, and
a ``"stop"`` snapshot repeating the last one with its ``stop_reason``. A step is one weak
classifier for the chain, the tree and the collapsed tree, and one level of nesting for the
matryoshka; ``metrics.n_weak`` always counts the weak classifiers (the paper's ``T``), and the
bound values are named after their source (:class:`ProbMetrics`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from . import bounds
from ._validation import RandomState, check_float, check_int, check_test_set, check_xy, seed_of
from .exact_chain import exact_possible, expected_error
from .steps import START, STEP, STOP, Metrics, Step

QMIN = 1e-9


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # overflow-free logistic


@dataclass(frozen=True)
class SoftStump:
    """``q(+, x) = σ(π (x_feature − θ)/τ)``.

    Attributes
    ----------
    feature : int
        Column index ``j``.
    theta : float
        Threshold ``θ``: ``q(+, x) = 1/2`` at ``x_j = θ``.
    polarity : int
        ``π``: +1 (positive above ``θ``) or −1.
    tau : float
        Softness ``τ > 0``.

    Examples
    --------
    >>> from boostcore.probabilistic import SoftStump
    >>> stump = SoftStump(feature=0, theta=0.0, polarity=1, tau=1.0)
    >>> stump.q_pos([[-1.0], [0.0], [1.0]]).round(4).tolist()
    [0.2689, 0.5, 0.7311]
    """

    feature: int
    theta: float
    polarity: int
    tau: float

    def q_pos(self, X: np.ndarray) -> np.ndarray:
        """``Pr(h(x) = +1)`` for every row (clipped away from 0 and 1).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to score.

        Returns
        -------
        ndarray of float, shape (n,)
            Values in ``[1e−9, 1 − 1e−9]``.

        Examples
        --------
        >>> from boostcore.probabilistic import SoftStump
        >>> stump = SoftStump(feature=0, theta=0.0, polarity=-1, tau=1.0)
        >>> stump.q_pos([[-1.0], [0.0], [1.0]]).round(4).tolist()
        [0.7311, 0.5, 0.2689]
        """
        z = self.polarity * (np.asarray(X, dtype=float)[:, self.feature] - self.theta) / self.tau
        return np.clip(_sigmoid(z), QMIN, 1.0 - QMIN)


def soft_weights(
    q_pos: np.ndarray, y: np.ndarray, D: np.ndarray
) -> tuple[float, float, float, float]:
    """``W^{ab} = Σ_{n: y_n = b} D(n) q(a, x_n)`` for ``(a, b) = (+,+), (+,−), (−,+), (−,−)``."""
    pos = y > 0
    wpp = float(np.sum(D[pos] * q_pos[pos]))
    wpn = float(np.sum(D[~pos] * q_pos[~pos]))
    wmp = float(np.sum(D[pos] * (1 - q_pos[pos])))
    wmn = float(np.sum(D[~pos] * (1 - q_pos[~pos])))
    return wpp, wpn, wmp, wmn


def _w_at(
    x: np.ndarray, dp: np.ndarray, dn: np.ndarray, thetas: np.ndarray, tau: float
) -> np.ndarray:
    """``W^{++}, W^{+−}, W^{−+}, W^{−−}`` (rows) of the soft stumps ``σ((x − θ)/τ)`` for every
    ``θ`` in ``thetas`` (columns) at once; ``dp``, ``dn``: the weights of the positive and of
    the negative examples (zero elsewhere)."""
    q = np.clip(_sigmoid((x[:, None] - thetas[None, :]) / tau), QMIN, 1 - QMIN)
    wpp, wpn = dp @ q, dn @ q
    # W^{−b} = P_b − W^{+b} (1 − q ≥ 1e−9: the difference loses nothing that matters to Z),
    # clipped at 0 against rounding
    return np.array([wpp, wpn, np.maximum(dp.sum() - wpp, 0.0), np.maximum(dn.sum() - wpn, 0.0)])


def _z_of(wpp, wpn, wmp, wmn):
    """``Z₊ + Z₋ = 2√(W^{++}W^{+−}) + 2√(W^{−+}W^{−−})``."""
    return 2 * np.sqrt(wpp * wpn) + 2 * np.sqrt(wmp * wmn)


#: The search's guarantee: no soft stump beats the one returned by more than this fraction of
#: its ``Z₊ + Z₋`` (then the best point is polished by Brent's method).
SEARCH_RTOL = 1e-4
#: Midpoints evaluated first per feature (all of them up to this many distinct values).
N_START = 64


def _search_feature(
    x: np.ndarray, dp: np.ndarray, dn: np.ndarray, tau: float
) -> tuple[float, float]:
    """``(Z, θ)`` of the best soft stump on one feature (see :func:`best_soft_stump`)."""
    from scipy.optimize import minimize_scalar

    P = np.array([dp.sum(), dn.sum()])
    v = np.unique(x)
    mids = (v[:-1] + v[1:]) / 2
    if mids.size > N_START:  # evenly in rank: the branch and bound refines where it matters
        mids = mids[np.unique(np.linspace(0, mids.size - 1, N_START).round().astype(int))]
    cands = np.concatenate([[v[0] - 4 * tau], mids, [v[-1] + 4 * tau]])
    W = _w_at(x, dp, dn, cands, tau)
    z = _z_of(*W)
    k = int(np.argmin(z))
    best, theta = float(z[k]), float(cands[k])
    around = (cands[max(k - 1, 0)], cands[min(k + 1, cands.size - 1)])
    lo, hi, Wlo, Whi = cands[:-1], cands[1:], W[:, :-1], W[:, 1:]
    frac = np.arange(1, 4) / 4
    for _ in range(80):  # widths shrink fourfold per pass: 80 passes reach float resolution
        # Lower bound on each interval [lo, hi]: W^{++}, W^{+−} fall and W^{−±} = P_± − W^{+±}
        # rise with θ, and Z is concave in (W^{++}, W^{+−}), so on the interval Z is at least
        # its smallest value at a corner of the box [W(hi), W(lo)]; two corners are Z(lo) and
        # Z(hi) themselves, the other two mix the ends.
        lb = np.minimum(
            _z_of(Wlo[0], Whi[1], P[0] - Wlo[0], P[1] - Whi[1]),
            _z_of(Whi[0], Wlo[1], P[0] - Whi[0], P[1] - Wlo[1]),
        )
        keep = lb < best * (1 - SEARCH_RTOL)
        if not keep.any():
            break
        lo, hi, Wlo, Whi = lo[keep], hi[keep], Wlo[:, keep], Whi[:, keep]
        pts = lo[:, None] + (hi - lo)[:, None] * frac[None, :]  # three inner points each
        Wp = _w_at(x, dp, dn, pts.ravel(), tau).reshape(4, *pts.shape)
        zp = _z_of(*Wp)
        i, j = np.unravel_index(int(np.argmin(zp)), zp.shape)
        ends = np.concatenate([lo[:, None], pts, hi[:, None]], axis=1)
        if zp[i, j] < best:
            best, theta = float(zp[i, j]), float(pts[i, j])
            around = (ends[i, j], ends[i, j + 2])
        Wends = np.concatenate([Wlo[:, :, None], Wp, Whi[:, :, None]], axis=2)
        lo, hi = ends[:, :-1].ravel(), ends[:, 1:].ravel()
        Wlo, Whi = Wends[:, :, :-1].reshape(4, -1), Wends[:, :, 1:].reshape(4, -1)
    if around[1] > around[0]:  # polish inside the best point's stretch
        r = minimize_scalar(
            lambda t: float(_z_of(*_w_at(x, dp, dn, np.array([t]), tau))[0]),
            bounds=around,
            method="bounded",
            options={"xatol": 1e-9 * max(tau, around[1] - around[0])},
        )
        if r.fun < best:
            best, theta = float(r.fun), float(r.x)
    return best, theta


def z_sum(stump: SoftStump, X: np.ndarray, y: np.ndarray, D: np.ndarray) -> float:
    """``Z₊ + Z₋`` of a soft stump under the weights ``D`` (Grossmann Eq. (3)): what
    :func:`best_soft_stump` minimises, for any stump (a page compares other stumps with the
    weak learner's).

    Parameters
    ----------
    stump : SoftStump
    X : ndarray of float, shape (m, d)
    y : ndarray, shape (m,)
        Labels; positive values are the class +1.
    D : ndarray of float, shape (m,)
        Weights (not normalised here: ``Z₊ + Z₋`` scales with their sum).

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.array([[0.0], [1.0]]), np.array([-1, 1])
    >>> round(z_sum(SoftStump(0, 0.5, 1, 0.1), X, y, np.array([0.5, 0.5])), 4)
    0.1631
    """
    return float(_z_of(*soft_weights(stump.q_pos(X), np.where(np.asarray(y) > 0, 1, -1), D)))


def best_soft_stump(X: np.ndarray, y: np.ndarray, D: np.ndarray, tau: float) -> SoftStump:
    """The soft stump minimising ``Z₊ + Z₋`` under ``D`` (Grossmann Eq. (3); polarity does not
    change ``Z₊ + Z₋``: flipping it swaps the two branches), over every feature and every
    ``θ ∈ [min x − 4τ, max x + 4τ]``.

    ``Z₊ + Z₋`` is smooth in ``θ`` but not convex, so each feature is searched by branch and
    bound (docs/theory.md §3): candidates first (the midpoints between consecutive distinct
    values, at most ``N_START`` of them evenly in rank, and the two ends), all evaluated at once;
    then every stretch between evaluated thresholds whose lower bound — ``W^{+±}`` fall with
    ``θ``, ``W^{−±}`` rise, and ``Z`` is concave in ``(W^{++}, W^{+−})`` — is below the best ``Z``
    so far is cut in four and evaluated, until no stretch can beat the best by more than
    ``SEARCH_RTOL`` (a certified guarantee); finally the best threshold is polished by Brent's
    bounded method (``scipy.optimize.minimize_scalar``) between its neighbours. Ties go to the
    lowest feature.

    Parameters
    ----------
    X : ndarray of float, shape (m, d)
        Training features (not validated here).
    y : ndarray, shape (m,)
        Labels in {−1, +1}.
    D : ndarray of float, shape (m,)
        Weights (a distribution).
    tau : float, ``> 0``
        Softness ``τ``.

    Returns
    -------
    SoftStump
        With ``polarity = 1``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import best_soft_stump
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> m = ds.y_train.size
    >>> s = best_soft_stump(ds.X_train, ds.y_train, np.full(m, 1 / m), 0.3)
    >>> s.feature, round(s.theta, 2), s.tau
    (1, 0.04, 0.3)
    """
    best = (np.inf, 0, 0.0)
    pos = y > 0
    dp, dn = np.where(pos, D, 0.0), np.where(pos, 0.0, D)
    for j in range(X.shape[1]):
        z, theta = _search_feature(np.ascontiguousarray(X[:, j], dtype=float), dp, dn, tau)
        if z < best[0] * (1 - 1e-12):
            best = (z, j, theta)
    _, j, theta = best
    return SoftStump(feature=j, theta=theta, polarity=1, tau=tau)


# ------------------------------------------------------------------------------ the tree
@dataclass(frozen=True)
class ProbTree:
    """A probabilistic boosting tree (immutable). Node 0 is the root; ``side[n]`` is the
    branch (±1) leading to ``n``; internal nodes hold a classifier (a :class:`SoftStump` or a
    nested :class:`ProbTree`); every non-root node has ``α`` and ``Z`` (Eqs. (4)–(6)).

    Attributes
    ----------
    parent : tuple of int
        Parent of every node (−1 for the root).
    side : tuple of int
        Branch (±1) leading to every node (0 for the root).
    classifier : tuple of (SoftStump or ProbTree or None)
        The classifier of every internal node (``None`` at leaves).
    children : tuple of ((int, int) or None)
        ``(minus, plus)`` children of every internal node (``None`` at leaves).
    alpha, Z : tuple of float
        ``α`` and ``Z`` of every node (0 and 1 for the root).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import prob_tree
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
    >>> tree.parent, tree.side
    ((-1, 0, 0, 1, 1, 2, 2), (0, -1, 1, -1, 1, -1, 1))
    """

    parent: tuple[int, ...]
    side: tuple[int, ...]
    classifier: tuple[object | None, ...]
    children: tuple[tuple[int, int] | None, ...]
    alpha: tuple[float, ...]
    Z: tuple[float, ...]

    @property
    def leaves(self) -> list[int]:
        """Ids of the leaves, in increasing order.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> tree.leaves
        [3, 4, 5, 6]
        """
        return [n for n, c in enumerate(self.children) if c is None]

    @property
    def n_weak(self) -> int:
        """Number of weak classifiers (soft stumps) inside, nested ones included.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> tree.n_weak
        3
        """
        return sum(_n_weak(c) for c in self.classifier if c is not None)

    def path_product(self, node: int) -> float:
        """``Π_{s ≤ node} Z_s`` over the non-root nodes on the path to ``node``.

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        float
            The product (1 for the root).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> tree.path_product(0), round(tree.path_product(3), 3)
        (1.0, 0.061)
        """
        p = 1.0
        while node != 0:
            p *= self.Z[node]
            node = self.parent[node]
        return p

    def leaf_value(self, node: int) -> float:
        """``H_l = Σ_{∅ < s ≤ l} α_s ṡ``.

        Parameters
        ----------
        node : int
            A node id (usually a leaf).

        Returns
        -------
        float
            The vote of the path to ``node`` (0 for the root).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> round(tree.leaf_value(3), 3)
        -0.546
        """
        h = 0.0
        while node != 0:
            h += self.alpha[node] * self.side[node]
            node = self.parent[node]
        return h

    def C(self) -> float:
        """``C(T) = Σ_leaves Π_{s ≤ l} Z_s`` (Eq. (8)).

        Returns
        -------
        float
            The bound on the exact expected training error.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> round(tree.C(), 3), round(tree.expected_error(ds.X_train, ds.y_train), 3)
        (0.745, 0.168)
        """
        return float(sum(self.path_product(l) for l in self.leaves))

    def leaf_probabilities(self, X: np.ndarray) -> tuple[list[int], np.ndarray]:
        """Leaves and ``Pr(x reaches l)`` (nodes independent), shape (n, n_leaves).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points.

        Returns
        -------
        leaves : list of int
            The leaf ids (as :attr:`leaves`).
        P : ndarray of float, shape (n, n_leaves)
            ``P[i, l]``: probability that row ``i`` reaches leaf ``leaves[l]``; rows sum to 1.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> leaves, P = tree.leaf_probabilities(ds.X_train[:2])
        >>> leaves, P.shape, P.sum(axis=1).round(6).tolist()
        ([3, 4, 5, 6], (2, 4), [1.0, 1.0])
        """
        X = np.asarray(X, dtype=float)
        prob = {0: np.ones(X.shape[0])}
        for n, ch in enumerate(self.children):
            if ch is None:
                continue
            qp = _q_pos(self.classifier[n], X)
            minus, plus = ch
            prob[minus] = prob[n] * (1 - qp)
            prob[plus] = prob[n] * qp
        leaves = self.leaves
        return leaves, np.column_stack([prob[l] for l in leaves])

    def q_pos(self, X: np.ndarray) -> np.ndarray:
        """The tree as a probabilistic classifier: ``Pr(H > 0) + ½ Pr(H = 0)`` (§5).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to score.

        Returns
        -------
        ndarray of float, shape (n,)
            Exact ``q(+, x)``, clipped to ``[1e−9, 1 − 1e−9]``.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> tree.q_pos(ds.X_train[:3]).round(2).tolist(), ds.y_train[:3].tolist()
        ([0.97, 0.04, 0.91], [1, -1, 1])
        """
        leaves, P = self.leaf_probabilities(X)
        h = np.array([self.leaf_value(l) for l in leaves])
        vote = np.where(h > 0, 1.0, np.where(h < 0, 0.0, 0.5))
        return np.clip(P @ vote, QMIN, 1 - QMIN)

    def expected_error(self, X: np.ndarray, y: np.ndarray) -> float:
        """Exact ``E[loss]`` averaged over the rows: ``[H_l y < 0] + ½[H_l = 0]`` per leaf.

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points.
        y : array_like, shape (n,)
            Their labels in {−1, +1}.

        Returns
        -------
        float
            The expected error in [0, 1] (``≤ C(T)`` on the training sample).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].model
        >>> round(tree.expected_error(ds.X_train, ds.y_train), 3)
        0.168
        """
        leaves, P = self.leaf_probabilities(X)
        h = np.array([self.leaf_value(l) for l in leaves])
        loss = np.where(h[None, :] * np.asarray(y)[:, None] < 0, 1.0, 0.0)
        loss += np.where(h[None, :] == 0, 0.5, 0.0)
        return float(np.mean(np.sum(P * loss, axis=1)))


def _q_pos(clf, X) -> np.ndarray:
    return clf.q_pos(X)


def _n_weak(clf) -> int:
    return 1 if isinstance(clf, SoftStump) else clf.n_weak


def _children_of(q_pos: np.ndarray, y: np.ndarray, D: np.ndarray):
    """α, Z and the child distributions of a node (Grossmann Eqs. (4)–(6); docs/theory.md §3.2)."""
    wpp, wpn, wmp, wmn = soft_weights(q_pos, y, D)
    out = {}
    for a, (w_same, w_other, qa) in ((1, (wpp, wpn, q_pos)), (-1, (wmn, wmp, 1 - q_pos))):
        alpha = 0.5 * np.log(w_same / w_other)
        Z = 2.0 * np.sqrt(w_same * w_other)
        Dc = D * qa * np.exp(-a * alpha * y) / Z
        out[a] = (float(alpha), float(Z), Dc)
    return out


class _TreeBuilder:
    """Mutable tree under construction (frozen into :class:`ProbTree` for snapshots)."""

    def __init__(self, m: int):
        self.parent, self.side = [-1], [0]
        self.classifier: list[object | None] = [None]
        self.children: list[tuple[int, int] | None] = [None]
        self.alpha, self.Z, self.D = [0.0], [1.0], [np.full(m, 1.0 / m)]
        self.prod = [1.0]

    def expand(self, node: int, clf, q_pos: np.ndarray, y: np.ndarray) -> tuple[int, int]:
        kids = _children_of(q_pos, y, self.D[node])
        ids = []
        for a in (-1, 1):
            alpha, Z, Dc = kids[a]
            ids.append(len(self.parent))
            self.parent.append(node)
            self.side.append(a)
            self.classifier.append(None)
            self.children.append(None)
            self.alpha.append(alpha)
            self.Z.append(Z)
            self.D.append(Dc)
            self.prod.append(self.prod[node] * Z)
        self.classifier[node] = clf
        self.children[node] = (ids[0], ids[1])
        return ids[0], ids[1]

    def leaves(self) -> list[int]:
        return [n for n, c in enumerate(self.children) if c is None]

    def freeze(self) -> ProbTree:
        return ProbTree(
            tuple(self.parent),
            tuple(self.side),
            tuple(self.classifier),
            tuple(self.children),
            tuple(self.alpha),
            tuple(self.Z),
        )


# ------------------------------------------------------------------------------ snapshots
@dataclass(frozen=True, kw_only=True)
class ProbMetrics(Metrics):
    """Expected errors and bound values after ``n_weak`` weak classifiers (the paper's ``T``).

    Grossmann, "A theory of probabilistic boosting, decision trees and matryoshki" (docs/theory.md
    §3). ``nan`` marks a value not defined yet (``rho_hat`` of the initial model); ``None`` a
    value that does not apply (``mc_stderr`` of an exact error, ``bound_M2`` when ``T`` is not a
    power of two, ``test_error`` without a test set).

    Attributes
    ----------
    train_error : float
        The *expected* training error ``E(Loss)`` over the weak classifiers' random answers
        (``[H y < 0] + ½[H = 0]`` averaged over the examples): exact for the tree, the
        matryoshka and the collapsed tree, and for the chain while
        :func:`~boostcore.exact_chain.exact_possible` holds; beyond, the chain's is a seeded
        Monte Carlo estimate. ``½`` for
        the initial model ``H = 0``.
    test_error : float or None
        The same on the test set; ``None`` without one.
    n_weak : int
        Number of weak classifiers (soft stumps, nested ones included) in the model: the
        paper's ``T``.
    n_leaves : int or None
        Leaves of the tree (trees and the matryoshka: of the outer tree); ``None`` for the
        chain, which has no leaves.
    mc_stderr : float or None
        Standard error of the chain's Monte Carlo estimate; ``None`` for an exact error.
    rho_hat : float
        ``ρ̂``, the largest ``Z₊ + Z₋`` of a node (tree, matryoshka, collapse) or the largest
        ``Z_t`` (chain) so far; ``nan`` before the first weak classifier.
    bound_C : float
        The valid bound on ``train_error``: ``Π_t Z_t`` for the chain (§3, the bound
        ``E(Loss) ≤ Π Z_t`` after Eqs. (1)–(3)); ``C(T) = Σ_leaves Π_{s ≤ l} Z_s`` for the trees
        (§4, Eq. (8)), computed with every doll's exact ``q`` for the matryoshka and the
        collapsed tree. ``1`` for the initial model. (With ``samples = R`` it is computed from
        MAP estimates of ``q`` and is only an estimate of the bound.)
    bound_F : float
        ``F(T, ρ̂) = Γ(T + ρ̂)/(Γ(T + 1) Γ(ρ̂))`` (§4, Eq. (9)): ``C(T) ≤ F(T, ρ̂)`` for a
        greedily grown tree; ``F(0, ·) = 1``.
    bound_rho_T : float
        ``ρ̂^T`` (§3, Eq. (3)'s ``E(Loss) ≤ ρ^T``): the chain's bound under the weak-learning
        assumption ``Z_t ≤ ρ̂``; ``1`` at ``T = 0``.
    bound_M2 : float or None
        The paper's 2-matryoshka bound ``M2(T, ρ̂) = F(2, F(2, … F(2, ρ̂)))`` with ``log₂ T``
        nested ``F``'s (§5.3; the nested form of Eq. (10)). Reported as the paper's *claim*: its
        nesting step is not justified (docs/theory.md §3.3). ``None`` unless ``T ≥ 1`` is a
        power of two.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import prob_tree
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> d = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].metrics.as_dict()
    >>> d["n_weak"], round(d["bound_C"], 3), round(d["bound_F"], 3), d["bound_M2"]
    (3, 0.745, 0.8, None)
    """

    n_weak: int
    n_leaves: int | None
    mc_stderr: float | None
    rho_hat: float
    bound_C: float
    bound_F: float
    bound_rho_T: float
    bound_M2: float | None


@dataclass(frozen=True, kw_only=True)
class ProbStep(Step):
    """One snapshot of a probabilistic-boosting run (the protocol: :mod:`boostcore.steps`).

    ``t`` counts steps: for the chain, the tree and the collapsed tree a step is one weak
    classifier (so ``t = metrics.n_weak``); for the matryoshka a step is one level of nesting
    (``t = L``, ``metrics.n_weak = 2^L``). ``t = 0`` is the initial model ``H = 0`` (an empty
    chain or a tree that is a single leaf). ``model`` is a :class:`ProbTree` (tree, matryoshka,
    collapse) or a :class:`Chain`; ``node`` the node just expanded (tree, collapse) and
    ``stump`` the weak classifier just trained; ``D`` the weights it was trained on.

    Attributes
    ----------
    structure : str
        ``"chain"``, ``"tree"``, ``"matryoshka"`` or ``"collapse"``.
    model : ProbTree or Chain
        The model as of this step.
    node : int or None
        The node just expanded (tree, collapse).
    stump : SoftStump or None
        The weak classifier just trained (``None`` for the initial model and the matryoshka).
    D : ndarray of float or None
        The weights it was trained on (``None`` where ``stump`` is).
    dolls : tuple of DollCheck, default=()
        The dolls used as nodes (matryoshka only).
    collapsed : bool, default=False
        The tree was collapsed into one doll at this step (collapse only).
    metrics : ProbMetrics
        Expected errors and bounds.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(matryoshka(ds.X_train, ds.y_train, levels=2))
    >>> [(s.t, s.kind, s.metrics.n_weak) for s in run]
    [(0, 'start', 0), (1, 'step', 2), (2, 'step', 4), (2, 'stop', 4)]
    >>> rec = run[1].to_record()
    >>> rec["structure"], rec["level"], rec["n_weak"], round(rec["bound_C"], 3)
    ('matryoshka', 1, 2, 0.805)
    """

    structure: str
    model: object
    node: int | None = None
    stump: SoftStump | None = None
    D: np.ndarray | None = None
    dolls: tuple = ()
    collapsed: bool = False

    def details(self) -> dict[str, object]:
        """What this step did: the structure, the node expanded, the new soft stump
        (``feature``, ``theta``, ``polarity``, ``tau``), the matryoshka's ``level`` and whether
        the tree was ``collapsed`` (``None`` where not applicable).

        Returns
        -------
        dict of str to object

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_tree
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> run = list(prob_tree(ds.X_train, ds.y_train, n_internal=2))
        >>> d = run[1].details()
        >>> d["structure"], d["node"], d["feature"], round(d["theta"], 2), d["level"]
        ('tree', 0, 1, 0.04, None)
        >>> run[0].details()["feature"] is None
        True
        """
        h = self.stump
        return {
            "structure": self.structure,
            "node": self.node,
            "feature": None if h is None else h.feature,
            "theta": None if h is None else h.theta,
            "polarity": None if h is None else h.polarity,
            "tau": None if h is None else h.tau,
            "level": self.t if self.structure == "matryoshka" else None,
            "collapsed": self.collapsed if self.structure == "collapse" else None,
        }


def _start_step(structure: str, model, metrics: ProbMetrics) -> ProbStep:
    """The ``t = 0`` snapshot: the initial model ``H = 0`` (every answer a fair coin)."""
    return ProbStep(
        t=0,
        kind=START,
        structure=structure,
        model=model,
        metrics=metrics,
        message=(
            "Round 0: the initial model H = 0, before any weak learner — every point gets "
            f"+1 with probability ½ (expected training error {metrics.train_error:.4f})."
        ),
    )


def _stop_step(last: ProbStep, reason: str) -> ProbStep:
    """The stop snapshot: ``last`` repeated (same ``t``, model and metrics), with why."""
    m = last.metrics
    bound = "Π Z_t" if last.structure == "chain" else "C(T)"
    return replace(
        last,
        kind=STOP,
        stop_reason=reason,
        message=(
            f"Done with {m.n_weak} soft stumps: expected training error "
            f"{m.train_error:.4f}, valid bound {bound} = {m.bound_C:.4f}."
        ),
    )


@dataclass(frozen=True)
class Chain:
    """Probabilistic AdaBoost: stumps with ``α_{t,+}``, ``α_{t,−}`` (Eqs. (1)–(2)); ``H`` is a
    random sum, estimated over ``n_draws`` seeded Monte Carlo worlds.

    Attributes
    ----------
    stumps : tuple of SoftStump
        The weak classifiers in order.
    alpha_pos, alpha_neg : tuple of float
        ``α_{t,+}`` and ``α_{t,−}`` of every round.
    seed : int, default=0
        Seed of the Monte Carlo worlds.
    n_draws : int, default=1000
        Number of Monte Carlo worlds.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import prob_adaboost
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = prob_adaboost(ds.X_train, ds.y_train, n_rounds=3, mc_samples=200)
    >>> chain = list(steps)[-1].model
    >>> len(chain.stumps), chain.n_draws
    (3, 200)
    """

    stumps: tuple[SoftStump, ...]
    alpha_pos: tuple[float, ...]
    alpha_neg: tuple[float, ...]
    seed: int = 0
    n_draws: int = 1000

    def draws(self, t: int) -> np.ndarray:
        """The uniforms deciding weak classifier ``t``'s answers in the ``n_draws`` Monte Carlo
        worlds.

        Probabilistic AdaBoost's ``H`` is a random sum (Eqs. (1)–(2)): weak classifier ``t``
        answers ``+1`` in world ``k`` when ``u_k < q_t(x)`` for these uniforms ``u``. They are
        shared by every point (common random numbers), so an estimate for a point never
        depends on which other points are evaluated with it, and the estimated regions vary
        smoothly in ``x``. :meth:`sample_H`, :func:`prob_adaboost` and the lesson's region
        maps draw the same worlds from here.

        Parameters
        ----------
        t : int
            The round, from 1.

        Returns
        -------
        ndarray of float, shape (n_draws,)
            Uniforms in ``[0, 1)``, the same for the same ``seed`` and ``t``.

        Examples
        --------
        >>> from boostcore.probabilistic import Chain
        >>> chain = Chain((), (), (), seed=0, n_draws=4)
        >>> u = chain.draws(1)
        >>> u.shape, bool((u == chain.draws(1)).all()), bool((u == chain.draws(2)).any())
        ((4,), True, False)
        """
        return np.random.default_rng([self.seed, t]).random(self.n_draws)

    def sample_H(self, X: np.ndarray) -> np.ndarray:
        """``H(x) = Σ_t α_{t,s_t} s_t`` in every world, shape (n_draws, n).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points.

        Returns
        -------
        ndarray of float, shape (n_draws, n)
            One sample of ``H(x)`` per world and row (the same worlds for every row).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_adaboost
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> steps = prob_adaboost(ds.X_train, ds.y_train, n_rounds=3, mc_samples=200)
        >>> chain = list(steps)[-1].model
        >>> chain.sample_H(ds.X_train[:3]).shape
        (200, 3)
        """
        X = np.asarray(X, dtype=float)
        H = np.zeros((self.n_draws, X.shape[0]))
        for t, (stump, ap, an) in enumerate(zip(self.stumps, self.alpha_pos, self.alpha_neg), 1):
            u = self.draws(t)
            H += np.where(u[:, None] < stump.q_pos(X)[None, :], ap, -an)
        return H

    def q_pos(self, X: np.ndarray) -> np.ndarray:
        """Monte Carlo ``Pr(H(x) > 0) + ½ Pr(H(x) = 0)``.

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to score.

        Returns
        -------
        ndarray of float, shape (n,)
            Estimates of ``q(+, x)``, clipped to ``[1e−9, 1 − 1e−9]`` (1/2 without stumps).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import prob_adaboost
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> steps = prob_adaboost(ds.X_train, ds.y_train, n_rounds=3, mc_samples=200)
        >>> chain = list(steps)[-1].model
        >>> chain.q_pos(ds.X_train[:3]).round(2).tolist(), ds.y_train[:3].tolist()
        ([1.0, 0.2, 0.96], [1, -1, 1])
        """
        X = np.asarray(X, dtype=float)
        if not self.stumps:
            return np.full(X.shape[0], 0.5)
        H = self.sample_H(X)
        return np.clip(np.mean(H > 0, axis=0) + 0.5 * np.mean(H == 0, axis=0), QMIN, 1 - QMIN)


def _metrics(T, train_err, test_err, stderr, C, rho_hat, n_leaves=None) -> ProbMetrics:
    """:class:`ProbMetrics` after ``T`` weak classifiers (``T = 0``: the initial model, whose
    ``ρ̂`` is not defined yet and whose ``F`` and ``ρ̂^T`` are 1)."""
    if T == 0:
        return ProbMetrics(
            train_error=train_err,
            test_error=test_err,
            n_weak=0,
            n_leaves=n_leaves,
            mc_stderr=stderr,
            rho_hat=float("nan"),
            bound_C=C,
            bound_F=1.0,
            bound_rho_T=1.0,
            bound_M2=None,
        )
    rho = min(max(rho_hat, 0.0), 1.0)
    L = int(round(np.log2(T)))
    return ProbMetrics(
        train_error=train_err,
        test_error=test_err,
        n_weak=T,
        n_leaves=n_leaves,
        mc_stderr=stderr,
        rho_hat=rho_hat,
        bound_C=C,
        bound_F=float(bounds.f_tree(T, rho)),
        bound_rho_T=rho**T,
        bound_M2=float(bounds.m2(L, rho)) if 2**L == T else None,
    )


def _tree_metrics(T, tree: ProbTree, X, y, Xt, yt, rho_hat, C=None) -> ProbMetrics:
    """:func:`_metrics` of a tree: exact expected errors and ``C`` (``C(T)`` of ``tree``
    unless given)."""
    test = tree.expected_error(Xt, yt) if Xt is not None and yt.size else None
    C = tree.C() if C is None else C
    return _metrics(T, tree.expected_error(X, y), test, None, C, rho_hat, len(tree.leaves))


def _budget_reason(n_weak: int) -> str:
    return f"All T = {n_weak} weak classifiers are trained (the budget)."


#: Stream id of the MAP estimates' draws: weak classifier ``t`` of a run seeded ``seed`` draws
#: from ``default_rng([seed, MAP_STREAM, t])``, apart from the Monte Carlo worlds'
#: ``[seed, t]`` streams (any fixed value does; this one keeps the published numbers).
MAP_STREAM = 7919


def map_estimate(q_pos: np.ndarray, samples: int, random_state: RandomState, t: int) -> np.ndarray:
    """MAP estimate ``q̂ = (1 + #{+1})/(R + 2)`` of ``q(+, x)`` from ``R`` calls of the
    classifier (uniform prior; Grossmann §2), seeded per weak classifier ``t``.

    Parameters
    ----------
    q_pos : ndarray of float, shape (n,)
        True ``q(+, x)`` of every point, in [0, 1].
    samples : int, ``≥ 1``
        ``R``, the answers drawn per point.
    random_state : None, int or numpy.random.Generator
        The run's randomness (an int is the run's seed; see :data:`MAP_STREAM`).
    t : int
        Index of the weak classifier (a separate stream each).

    Returns
    -------
    ndarray of float, shape (n,)
        ``q̂`` in (0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.probabilistic import map_estimate
    >>> map_estimate(np.array([0.0, 1.0]), 10, random_state=0, t=1).round(3).tolist()
    [0.083, 0.917]
    """
    k = np.random.default_rng([seed_of(random_state), MAP_STREAM, t]).binomial(samples, q_pos)
    return (1.0 + k) / (samples + 2.0)


def _validate(X, y, n_weak, softness, X_test, y_test, name="n_weak", high=512):
    Xv, yv, _, classes = check_xy(X, y)
    if classes[0] == classes[1]:
        raise ValueError("y has a single class: there is nothing to boost (two classes needed)")
    n_weak = check_int(name, n_weak, low=1, high=high)
    tau = check_float("softness", softness, low=0.0, low_open=True, high=100.0)
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    return Xv, yv, n_weak, tau, Xt, yt


# ------------------------------------------------------------------------------ generators
def prob_adaboost(
    X,
    y,
    *,
    n_rounds: int,
    softness: float = 0.3,
    X_test=None,
    y_test=None,
    mc_samples: int = 1000,
    random_state: RandomState = 0,
    samples: int | None = None,
) -> Iterator[ProbStep]:
    """Probabilistic AdaBoost (Grossmann §3): one soft stump per round.

    ``samples = R`` trains on MAP estimates of ``q`` from ``R`` answers per point (§2) while
    the errors are measured with the true ``q``: then ``Π Z`` is computed from estimates and
    is no longer a guaranteed bound — the point is to show estimation noise.

    Parameters
    ----------
    X : array_like of shape (m, d)
        Training features (numeric, finite).
    y : array_like of shape (m,)
        Two classes; the larger label (in sorted order) becomes +1.
    n_rounds : int
        Number of rounds ``T`` (one soft stump each), 1 to 512.
    softness : float, default 0.3
        ``τ`` of the soft stumps, in (0, 100].
    X_test, y_test : array_like, optional
        A test sample whose expected error is estimated every round.
    mc_samples : int, default 1000
        Monte Carlo worlds, 10 to 100 000.
    random_state : None, int or numpy.random.Generator, default 0
        The randomness of the Monte Carlo worlds and of the MAP estimates (boostcore's
        convention, :func:`boostcore._validation.check_random_state`; the chain keeps one
        int seed, :func:`boostcore._validation.seed_of`, and derives a stream per round).
    samples : int, optional
        ``R``, 1 to 100 000: train on MAP estimates of ``q`` (see above).

    Yields
    ------
    ProbStep
        The protocol of :mod:`boostcore.steps`: ``"start"`` (``t = 0``, the empty chain
        ``H = 0``: expected error ½, ``Π Z = 1``), one ``"step"`` per round ``t = 1 … T``,
        then ``"stop"`` (the last round repeated, with ``stop_reason``).
        ``metrics.bound_C`` is ``Π Z_t`` (an exact bound on the expected error). The
        expected error is exact (``mc_stderr = None``) while
        :func:`~boostcore.exact_chain.exact_possible` holds for ``t`` and the points, and a
        seeded Monte Carlo estimate over ``mc_samples`` worlds beyond, with its standard error
        (floored at ``√3 / mc_samples``: see :func:`_floored_stderr`).

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter or a single-class ``y``.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import prob_adaboost
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = list(prob_adaboost(ds.X_train, ds.y_train, n_rounds=3, mc_samples=200))
    >>> [(s.t, s.kind) for s in steps]
    [(0, 'start'), (1, 'step'), (2, 'step'), (3, 'step'), (3, 'stop')]
    >>> m = steps[-1].metrics
    >>> round(m.train_error, 3), m.mc_stderr, round(m.bound_C, 3)
    (0.19, None, 0.7)
    >>> steps[0].metrics.train_error, steps[0].metrics.bound_C, steps[-1].stop_reason
    (0.5, 1.0, 'All T = 3 weak classifiers are trained (the budget).')
    """
    X, y, n_rounds, tau, Xt, yt = _validate(X, y, n_rounds, softness, X_test, y_test, "n_rounds")
    mc_samples = check_int("mc_samples", mc_samples, low=10, high=100_000)
    if samples is not None:
        samples = check_int("samples", samples, low=1, high=100_000)
    seed = seed_of(random_state)
    return _chain(X, y, n_rounds, tau, Xt, yt, mc_samples, seed, samples)


def _floored_stderr(world_loss: np.ndarray) -> float:
    """The standard error of the worlds' mean loss, its spread floored at ``√(3/N)``.

    When all ``N`` worlds lose the same, the sample spread is 0 although the expected error may
    still move: with no world seen to differ, the chance of a different world is below ``3/N``
    (the rule of three, 95 %), and a loss in ``[0, 1]`` has variance at most that chance. So the
    spread is taken as at least ``√(3/N)`` and the standard error as at least ``√3 / N``.
    """
    n = world_loss.size
    spread = max(float(world_loss.std(ddof=1)), float(np.sqrt(3.0 / n)))
    return spread / float(np.sqrt(n))


def _chain(X, y, n_weak, tau, Xt, yt, mc_samples, seed, samples=None):
    m = X.shape[0]
    D = np.full(m, 1.0 / m)
    stumps, ap, an = [], [], []
    prod_Z, rho_hat = 1.0, 0.0
    # Monte Carlo draws of H(x) kept across rounds: each round adds its own seeded term
    H = np.zeros((mc_samples, m))
    Ht = None if Xt is None else np.zeros((mc_samples, Xt.shape[0]))
    has_test = Xt is not None and yt.size > 0
    Q, Qt = [], []  # every stump's q at the training (test) points, for the exact errors
    # t = 0: H = 0, so every example costs ½, exactly
    last = _start_step(
        "chain",
        Chain((), (), (), seed=seed, n_draws=mc_samples),
        _metrics(0, 0.5, 0.5 if has_test else None, None, 1.0, 0.0),
    )
    yield last
    for t in range(1, n_weak + 1):
        stump = best_soft_stump(X, y, D, tau)
        qp = stump.q_pos(X)
        qt = qp if samples is None else map_estimate(qp, samples, seed, t)
        wpp, wpn, wmp, wmn = soft_weights(qt, y, D)
        a_plus, a_minus = 0.5 * np.log(wpp / wpn), 0.5 * np.log(wmn / wmp)
        unnorm = D * (qt * np.exp(-a_plus * y) + (1 - qt) * np.exp(a_minus * y))
        Z = float(unnorm.sum())
        D_prev, D = D, unnorm / Z
        prod_Z *= Z
        rho_hat = max(rho_hat, Z)
        stumps.append(stump)
        ap.append(float(a_plus))
        an.append(float(a_minus))
        chain = Chain(tuple(stumps), tuple(ap), tuple(an), seed=seed, n_draws=mc_samples)
        u = chain.draws(t)[:, None]
        H += np.where(u < qp[None, :], a_plus, -a_minus)
        # loss of every world averaged over the examples: the worlds are independent, so
        # their spread gives the standard error of the estimate
        world_loss = np.mean((H * y[None, :] < 0) + 0.5 * (H == 0), axis=1)
        Q.append(qp)
        if exact_possible(t, m):
            err, stderr = expected_error(np.column_stack(Q), y, ap, an), None
        else:
            err = float(world_loss.mean())
            stderr = _floored_stderr(world_loss)
        test = None
        if has_test:
            qt_test = stump.q_pos(Xt)
            Ht += np.where(u < qt_test[None, :], a_plus, -a_minus)
            Qt.append(qt_test)
            if exact_possible(t, Xt.shape[0]):
                test = expected_error(np.column_stack(Qt), yt, ap, an)
            else:
                test = float(np.mean((Ht * yt[None, :] < 0) + 0.5 * (Ht == 0)))
        D_frozen = np.array(D_prev)
        D_frozen.setflags(write=False)
        last = ProbStep(
            t=t,
            kind=STEP,
            structure="chain",
            model=chain,
            stump=stump,
            D=D_frozen,
            metrics=_metrics(t, err, test, stderr, prod_Z, rho_hat),
            message=(
                f"Weak classifier {t}: soft stump on x{stump.feature + 1} at "
                f"{stump.theta:.3g}; Z_t = {Z:.4f}, α₊ = {a_plus:.3f}, α₋ = {a_minus:.3f}."
            ),
        )
        yield last
    yield _stop_step(last, _budget_reason(n_weak))


def prob_tree(
    X,
    y,
    *,
    n_internal: int,
    softness: float = 0.3,
    X_test=None,
    y_test=None,
    samples: int | None = None,
    random_state: RandomState = 0,
) -> Iterator[ProbStep]:
    """The probabilistic boosting tree (Grossmann §4), grown greedily: each round expands the
    leaf with the largest ``Π_{s ≤ l} Z_s`` with a soft stump trained on that leaf's weights.

    Yields
    ------
    ProbStep
        ``"start"`` (``t = 0``: the tree is one leaf, ``H = 0``, ``C(0) = 1``), one ``"step"``
        per internal node ``t = 1 … T``, then ``"stop"`` (:mod:`boostcore.steps`); exact
        expected training error ``≤ C(T) ≤ F(T, ρ̂)``. With ``samples = R`` the tree is
        trained on MAP estimates of ``q`` (errors still use the true ``q``), and ``C(T)`` is
        then only an estimate of the bound.

    Parameters
    ----------
    X, y, softness, X_test, y_test
        As in :func:`prob_adaboost`.
    n_internal : int
        Number of internal nodes ``T`` (one soft stump each), 1 to 512.
    samples : int, optional
        ``R``, 1 to 100 000: train on MAP estimates of ``q``.
    random_state : None, int or numpy.random.Generator, default 0
        The randomness of the MAP estimates (as in :func:`prob_adaboost`).

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter or a single-class ``y``.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import prob_tree
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> m = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1].metrics
    >>> round(m.train_error, 3), round(m.bound_C, 3), round(m.bound_F, 3)  # error ≤ C(T) ≤ F
    (0.168, 0.745, 0.8)
    >>> next(prob_tree(ds.X_train, [1] * ds.y_train.size, n_internal=3))
    Traceback (most recent call last):
        ...
    ValueError: y has a single class: there is nothing to boost (two classes needed)
    """
    X, y, n_internal, tau, Xt, yt = _validate(
        X, y, n_internal, softness, X_test, y_test, "n_internal"
    )
    if samples is not None:
        samples = check_int("samples", samples, low=1, high=100_000)
    return _tree(X, y, n_internal, tau, Xt, yt, samples, seed_of(random_state))


def _tree(X, y, n_weak, tau, Xt, yt, samples=None, seed=0):
    b = _TreeBuilder(X.shape[0])
    rho_hat = 0.0
    last = _start_step("tree", b.freeze(), _tree_metrics(0, b.freeze(), X, y, Xt, yt, 0.0))
    yield last
    for t in range(1, n_weak + 1):
        leaves = b.leaves()
        node = max(leaves, key=lambda n: (b.prod[n], -n))
        D = b.D[node]
        Dn = D / D.sum()  # D_s is a distribution by construction; renormalise float drift
        stump = best_soft_stump(X, y, Dn, tau)
        qp = stump.q_pos(X)
        if samples is not None:
            qp = map_estimate(qp, samples, seed, t)
        minus, plus = b.expand(node, stump, qp, y)
        rho_hat = max(rho_hat, b.Z[minus] + b.Z[plus])
        tree = b.freeze()
        D_frozen = np.array(D)
        D_frozen.setflags(write=False)
        last = ProbStep(
            t=t,
            kind=STEP,
            structure="tree",
            model=tree,
            node=node,
            stump=stump,
            D=D_frozen,
            metrics=_tree_metrics(t, tree, X, y, Xt, yt, rho_hat),
            message=(
                f"Weak classifier {t}: leaf #{node} (Π Z = {b.prod[node]:.4f}) gets a soft "
                f"stump on x{stump.feature + 1} at {stump.theta:.3g}; "
                f"Z₊ + Z₋ = {b.Z[minus] + b.Z[plus]:.4f}."
            ),
        )
        yield last
    yield _stop_step(last, _budget_reason(n_weak))


@dataclass(frozen=True)
class DollCheck:
    """A doll used as one node of the next level, and the step of the paper's argument it tests.

    Grossmann §5.1 (Eq. (10)) and §5.3 plug a sub-tree's *error bound* in as the next level's
    ``ρ``; for a 2-matryoshka doll of level ``ℓ`` (``T₁ = 2^ℓ`` soft stumps) that bound is
    ``paper_bound = M2(T₁, ρ̂) = F(2, F(2, … F(2, ρ̂)))`` (``ℓ`` nested F's; ``F(2, ρ̂)`` for a
    level-1 doll), with ``rho_hat`` the largest ``Z₊ + Z₋`` of the doll's own soft stumps. The
    next level's tree bound needs ``ρ ≥ node_Z``, the ``Z₊ + Z₋`` the doll achieves as a node;
    ``node_excess = node_Z − paper_bound > 0`` means the paper's substitution fails on this run.
    ``node_Z ≥ C`` always (the doll's own valid bound): merging leaves that vote alike only raises
    ``Σ 2√(W⁺W⁻)`` (Cauchy–Schwarz; docs/theory.md §3.3), so ``node_Z − C`` is never negative.

    Attributes
    ----------
    level : int
        ``ℓ``, the doll's level.
    C : float
        The doll's own bound ``C``.
    node_Z : float
        Its ``Z₊ + Z₋`` as a node.
    rho_hat : float
        The largest ``Z₊ + Z₋`` of its soft stumps (capped at 1).
    paper_bound : float
        ``M2(T₁, ρ̂)``.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> doll = list(matryoshka(ds.X_train, ds.y_train, levels=2))[-1].dolls[0]
    >>> doll.level, round(doll.C, 3), round(doll.node_Z, 3), round(doll.paper_bound, 3)
    (1, 0.805, 0.805, 0.833)
    """

    level: int
    C: float
    node_Z: float
    rho_hat: float
    paper_bound: float

    @property
    def n_weak(self) -> int:
        """``T₁ = 2^level`` soft stumps inside.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import matryoshka
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> doll = list(matryoshka(ds.X_train, ds.y_train, levels=2))[-1].dolls[0]
        >>> doll.n_weak
        2
        """
        return 2**self.level

    @property
    def node_excess(self) -> float:
        """``Z₊ + Z₋`` as a node minus the ``ρ`` the paper plugs in for it.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.probabilistic import matryoshka
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> doll = list(matryoshka(ds.X_train, ds.y_train, levels=2))[-1].dolls[0]
        >>> round(doll.node_excess, 3)  # ≤ 0: the paper's substitution holds on this run
        -0.028
        """
        return self.node_Z - self.paper_bound


def stump_rho_hat(tree: ProbTree) -> float:
    """The largest ``Z₊ + Z₋`` of the soft stumps inside ``tree``, nested dolls included (each
    stump measured as a node of the tree that holds it): the ``ρ̂`` of the paper's
    weak-learning assumption for this doll.

    Parameters
    ----------
    tree : ProbTree
        A tree or doll.

    Returns
    -------
    float
        ``ρ̂`` (0 for a tree without internal nodes).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import prob_tree, stump_rho_hat
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> step = list(prob_tree(ds.X_train, ds.y_train, n_internal=3))[-1]
    >>> round(stump_rho_hat(step.model), 3), round(step.metrics.rho_hat, 3)
    (0.884, 0.884)
    """
    out = 0.0
    for n, ch in enumerate(tree.children):
        if ch is None:
            continue
        clf = tree.classifier[n]
        if isinstance(clf, ProbTree):
            out = max(out, stump_rho_hat(clf))
        else:
            out = max(out, tree.Z[ch[0]] + tree.Z[ch[1]])
    return out


def doll_check(doll: ProbTree, level: int, node_Z: float) -> DollCheck:
    """:class:`DollCheck` of ``doll`` (a level-``level`` matryoshka) used as a node with
    ``Z₊ + Z₋ = node_Z``.

    Parameters
    ----------
    doll : ProbTree
        The doll.
    level : int, ``≥ 1``
        Its level.
    node_Z : float
        Its ``Z₊ + Z₋`` as a node of the next level.

    Returns
    -------
    DollCheck
        With ``rho_hat = min(stump_rho_hat(doll), 1)`` and ``paper_bound = M2(2^level, ρ̂)``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import doll_check, fit_matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> m = ds.y_train.size
    >>> doll, _ = fit_matryoshka(ds.X_train, ds.y_train, np.full(m, 1 / m), 1, 0.3)
    >>> check = doll_check(doll, 1, node_Z=0.9)
    >>> round(check.paper_bound, 3), round(check.node_excess, 3)
    (0.833, 0.067)
    """
    rho = min(stump_rho_hat(doll), 1.0)
    return DollCheck(
        level=level,
        C=doll.C(),
        node_Z=float(node_Z),
        rho_hat=rho,
        paper_bound=float(bounds.m2(level, rho)),
    )


def fit_matryoshka(X, y, D, level: int, tau: float, on_weak=None, checks=None):
    """A 2-matryoshka of ``level`` trained on weights ``D`` (Grossmann §5.3; docs/theory.md §3.3).

    Level 0 is one soft stump; level ``L`` is a tree with exactly two internal nodes — the root
    and the child with the larger bound contribution — each a level ``L − 1`` matryoshka
    trained on that node's weights and used through its exact ``q``. ``on_weak`` is called
    after every soft stump with the partially built outer structure (for snapshots).
    Returns the classifier and its two-node tree's ``Z₊ + Z₋`` values (for ``ρ̂``); every
    doll used as a node is appended to ``checks`` as a :class:`DollCheck`.

    Parameters
    ----------
    X : ndarray of float, shape (m, d)
        Training features (not validated here).
    y : ndarray, shape (m,)
        Labels in {−1, +1}.
    D : ndarray of float, shape (m,)
        Non-negative weights (normalised here).
    level : int, ``≥ 0``
        The level ``L``.
    tau : float, ``> 0``
        Softness of the soft stumps.
    on_weak : callable, optional
        Called as ``on_weak(stump)`` after every soft stump.
    checks : list, optional
        Receives a :class:`DollCheck` per doll used as a node.

    Returns
    -------
    classifier : SoftStump or ProbTree
        A :class:`SoftStump` for level 0, a :class:`ProbTree` otherwise.
    sums : list of float
        ``Z₊ + Z₋`` of every node of every level inside (empty for level 0).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import fit_matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> m = ds.y_train.size
    >>> doll, sums = fit_matryoshka(ds.X_train, ds.y_train, np.full(m, 1 / m), 1, 0.3)
    >>> doll.n_weak, [round(s, 3) for s in sums]
    (2, [0.856, 0.884])
    """
    if level == 0:
        stump = best_soft_stump(X, y, D / D.sum(), tau)
        if on_weak is not None:
            on_weak(stump)
        return stump, []
    b = _TreeBuilder(X.shape[0])
    b.D[0] = D / D.sum()
    sums = []
    root, s1 = fit_matryoshka(X, y, b.D[0], level - 1, tau, on_weak, checks)
    minus, plus = b.expand(0, root, root.q_pos(X), y)
    sums += s1 + [b.Z[minus] + b.Z[plus]]
    if checks is not None and isinstance(root, ProbTree):
        checks.append(doll_check(root, level - 1, b.Z[minus] + b.Z[plus]))
    nxt = plus if b.prod[plus] > b.prod[minus] else minus
    sub, s2 = fit_matryoshka(X, y, b.D[nxt], level - 1, tau, on_weak, checks)
    m2_, p2 = b.expand(nxt, sub, sub.q_pos(X), y)
    sums += s2 + [b.Z[m2_] + b.Z[p2]]
    if checks is not None and isinstance(sub, ProbTree):
        checks.append(doll_check(sub, level - 1, b.Z[m2_] + b.Z[p2]))
    return b.freeze(), sums


def matryoshka(
    X,
    y,
    *,
    levels: int,
    softness: float = 0.3,
    X_test=None,
    y_test=None,
) -> Iterator[ProbStep]:
    """The 2-matryoshka of level ``L`` (``T = 2^L`` soft stumps), one step per level of
    nesting (a level-``ℓ`` doll is the first ``2^ℓ`` stumps' structure).

    Yields
    ------
    ProbStep
        ``"start"`` (``t = 0``: no doll yet, the initial model ``H = 0``), then for
        ``t = ℓ = 1 … L`` a ``"step"``: the level-``ℓ`` matryoshka trained on the uniform
        weights (``metrics.n_weak = 2^ℓ``), with its exact expected error, its exact ``C``
        (sub-trees used through their exact ``q``) and, as the paper's claim,
        ``M2(2^ℓ, ρ̂)``; then ``"stop"`` (level ``L`` repeated, :mod:`boostcore.steps`).

    Parameters
    ----------
    X, y, softness, X_test, y_test
        As in :func:`prob_adaboost`.
    levels : int
        ``L``, 1 to 10 — Grossmann's ``L``: the run's length is its nesting depth (a doll of
        level ``L`` holds ``2^L`` soft stumps), where the chain and the tree count
        ``n_rounds`` / ``n_internal``.

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter or a single-class ``y``.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = list(matryoshka(ds.X_train, ds.y_train, levels=2))
    >>> m = steps[-1].metrics
    >>> [s.t for s in steps], [s.metrics.n_weak for s in steps]
    ([0, 1, 2, 2], [0, 2, 4, 4])
    >>> round(m.train_error, 3), round(m.bound_C, 3), round(m.bound_M2, 3)
    (0.207, 0.724, 0.763)
    >>> steps[-1].stop_reason
    'All L = 2 levels are built: the doll holds 2^L = 4 soft stumps.'
    """
    X, y, levels, tau, Xt, yt = _validate(
        X, y, levels, softness, X_test, y_test, name="levels", high=10
    )
    return _matryoshka(X, y, levels, tau, Xt, yt)


def _matryoshka(X, y, levels, tau, Xt, yt):
    m = X.shape[0]
    empty = _TreeBuilder(m).freeze()
    last = _start_step("matryoshka", empty, _tree_metrics(0, empty, X, y, Xt, yt, 0.0))
    yield last
    for level in range(1, levels + 1):
        checks: list[DollCheck] = []
        model, sums = fit_matryoshka(X, y, np.full(m, 1.0 / m), level, tau, checks=checks)
        T = 2**level
        last = ProbStep(
            t=level,
            kind=STEP,
            structure="matryoshka",
            model=model,
            metrics=_tree_metrics(T, model, X, y, Xt, yt, max(sums)),
            message=f"Level {level}: a two-node tree of level-{level - 1} dolls, {T} soft stumps.",
            dolls=tuple(checks),
        )
        yield last
    yield _stop_step(
        last, f"All L = {levels} levels are built: the doll holds 2^L = {2**levels} soft stumps."
    )


def collapse_tree(
    X,
    y,
    *,
    n_internal: int,
    softness: float = 0.3,
    X_test=None,
    y_test=None,
) -> Iterator[ProbStep]:
    """Grow a probabilistic tree and collapse it into a doll when nesting pays (§5.4).

    Interpretation (the paper's rule is only sketched; docs/theory.md §3.3 records this reading):
    after each new soft stump the *outermost* tree, holding ``T`` weak classifiers and bound
    ``C(T)``, compares the rate of plain growth ``Ċ_simple = C(T) − C(T − 1)`` (the backward
    difference: ``C(T + 1)`` is not known yet) with the rate promised by collapsing it into
    one node of a new tree, Eq. (14): ``Ċ_matryoshka = (C/T)(γ_E + ψ(C) + 1/C − 1)``. If the
    latter is smaller (falls faster), the whole tree becomes the root classifier of a new
    outer tree, used through its exact ``q = P(H > 0) + ½ P(H = 0)``. Inner sub-trees are
    not revisited. Bounds reported are the outer tree's valid ``C(T)``.

    Parameters
    ----------
    X, y, n_internal, softness, X_test, y_test
        As in :func:`prob_tree`.

    Yields
    ------
    ProbStep
        ``"start"`` (``t = 0``: one leaf, ``H = 0``), one ``"step"`` per soft stump
        ``t = 1 … T`` (``message`` says when a collapse happened and both rates;
        ``collapsed`` is true then), then ``"stop"`` (:mod:`boostcore.steps`).

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter or a single-class ``y``.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import collapse_tree
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = list(collapse_tree(ds.X_train, ds.y_train, n_internal=3))
    >>> [s.collapsed for s in steps if s.kind == "step"]
    [False, True, False]
    >>> ["collapsed" in s.message for s in steps if s.kind == "step"]
    [False, True, False]
    """
    X, y, n_internal, tau, Xt, yt = _validate(
        X, y, n_internal, softness, X_test, y_test, "n_internal"
    )
    return _collapse(X, y, n_internal, tau, Xt, yt)


def _collapse(X, y, n_weak, tau, Xt, yt):
    m = X.shape[0]
    b = _TreeBuilder(m)
    c_prev = 1.0  # C of the empty tree: the single root leaf, Π Z = 1
    rho_hat = 0.0
    n_collapses = 0
    last = _start_step("collapse", b.freeze(), _tree_metrics(0, b.freeze(), X, y, Xt, yt, 0.0))
    yield last
    for t in range(1, n_weak + 1):
        leaves = b.leaves()
        node = max(leaves, key=lambda n: (b.prod[n], -n))
        D = b.D[node]
        stump = best_soft_stump(X, y, D / D.sum(), tau)
        minus, plus = b.expand(node, stump, stump.q_pos(X), y)
        rho_hat = max(rho_hat, b.Z[minus] + b.Z[plus])
        tree = b.freeze()
        C = tree.C()
        T_in = tree.n_weak
        simple = C - c_prev
        nested = bounds.matryoshka_rate(min(max(C, 1e-12), 1.0), T_in) if T_in >= 2 else 0.0
        note = f"Ċ_simple = {simple:+.4f}, Ċ_matryoshka = {nested:+.4f}"
        collapsed = T_in >= 2 and nested < simple
        if collapsed:
            n_collapses += 1
            b = _TreeBuilder(m)
            qd = tree.q_pos(X)
            m_, p_ = b.expand(0, tree, qd, y)
            rho_hat = max(rho_hat, b.Z[m_] + b.Z[p_])
            tree = b.freeze()
            C = tree.C()
            note += f" → collapsed into one doll (collapse #{n_collapses})"
        c_prev = C
        D_frozen = np.array(D)
        D_frozen.setflags(write=False)
        last = ProbStep(
            t=t,
            kind=STEP,
            structure="collapse",
            model=tree,
            node=node,
            stump=stump,
            D=D_frozen,
            metrics=_tree_metrics(t, tree, X, y, Xt, yt, rho_hat, C),
            message=f"Weak classifier {t}: soft stump on x{stump.feature + 1} at "
            f"{stump.theta:.3g} in leaf #{node}; {note}.",
            collapsed=collapsed,
        )
        yield last
    yield _stop_step(last, _budget_reason(n_weak))
