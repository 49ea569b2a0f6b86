"""Boosted oblique decision trees: G1 on a tree (Theorem 2) and BoostODT.

See docs/theory.md §4.2 (and §4.1 for G1 itself).

Henry, Nock & Nielsen, "Real Boosting a la Carte with an Application to Boosting Oblique
Decision Trees" (IJCAI 2007), Theorem 2 and §4.3 (BoostODT). The generic greedy induction G1,
its weak hypotheses, its metrics and Theorem 1's bound, and G1 on a path (AdaBoost_R,
:func:`boostcore.realboost.g1_linear`) are in :mod:`boostcore.realboost`; this module grows
G1's decision graph as a tree whose nodes all hold G1 constants (Assumption (B)):

* :func:`g1_tree` — constant nodes on a tree grown by Kearns–Mansour splits (Theorem 2: the
  leaf output is ``½ ln(w⁺_ℓ/w⁻_ℓ)`` and the exponential loss is ``Σ_ℓ 2 sqrt(w⁺_ℓ w⁻_ℓ)``);
* :func:`boost_odt` — BoostODT: the same tree, each node split by ``sign(LS_ℓ)`` with ``LS_ℓ``
  built by AdaBoost_R (:mod:`boostcore.realboost`) on the node's examples with
  class-balanced weights.

Both are generators of frozen :class:`ODTStep` snapshots holding an :class:`ObliqueTree` and
:class:`boostcore.realboost.G1Metrics`; they follow the step protocol of
:mod:`boostcore.steps`: ``"start"`` at ``t = 0`` (the root alone), one ``"step"`` per split,
and a ``"stop"`` that repeats the final tree and says why it ended. Theorem 1's bound holds
on every path of the tree (its proof is in :mod:`boostcore.realboost`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ._validation import check_choice, check_int, check_test_set, check_xy
from .impurity import km
from .realboost import (
    WEAK_LEARNERS,
    Additive,
    G1Metrics,
    InnerRound,
    WeakHypothesis,
    _adaboost_r,
    _clip_mu,
    _frozen,
    _g1_update,
    _margin_stats,
    _metrics,
    alpha_of,
)
from .splits import best_stump, presort
from .steps import START, STEP, STOP, Step

#: Which leaf with both classes is split next (``leaf_rule`` of :func:`g1_tree`, :func:`boost_odt`).
LEAF_RULES = ("breadth_first", "max_decrease")
#: The largest number of internal nodes (``n_internal``).
MAX_INTERNAL = 255


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


def _adaboost_r_splitter(weak: str, n_stumps: int):
    """BoostODT's node learner: ``n_stumps`` rounds of AdaBoost_R on the node's examples
    (:mod:`boostcore.realboost`), from their class-balanced weights."""

    def split(X, y, idx, bal):
        w = np.zeros(X.shape[0])
        w[idx] = bal
        return _adaboost_r(X, y, w, idx, weak, n_stumps)

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
        AdaBoost_R's weak learner in every node, as in :func:`boostcore.realboost.g1_linear`:
        ±1 axis stumps (the paper: a node boundary is a staircase) or real-valued
        ``π(x_f − θ)`` (``LS`` is affine: a true oblique line).
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
