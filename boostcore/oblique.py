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
  class-balanced weights;
* "be the weak learner": :func:`score_separator` scores a hand-drawn line
  (:func:`line_separator`) at a leaf of a BoostODT snapshot next to AdaBoost_R's separator
  there — its ``μ``, ``α``, ``sqrt(1 − μ²)``, the node's loss and the tree after the split —
  with the grower's own code, and ``boost_odt(..., choose=policy)`` continues a run from
  such lines.

Both are generators of frozen :class:`ODTStep` snapshots holding an :class:`ObliqueTree` and
:class:`boostcore.realboost.G1Metrics`; they follow the step protocol of
:mod:`boostcore.steps`: ``"start"`` at ``t = 0`` (the root alone), one ``"step"`` per split,
and a ``"stop"`` that repeats the final tree and says why it ended. Theorem 1's bound holds
on every path of the tree (its proof is in :mod:`boostcore.realboost`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ._validation import check_choice, check_float, check_int, check_test_set, check_xy
from .impurity import km
from .realboost import (
    WEAK_LEARNERS,
    Additive,
    G1Metrics,
    InnerRound,
    WeakHypothesis,
    adaboost_r,
    alpha_of,
    clip_mu,
    frozen_array,
    g1_metrics,
    g1_update,
    margin_stats,
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
        prod = _node_products(self)
        return {n: prod[n] for n in self.leaves}

    def _parent(self, n: int) -> int:
        for p in range(n):
            if self.left[p] == n or self.right[p] == n:
                return p
        return -1


def _node_products(tree: ObliqueTree) -> list[float]:
    """``Π sqrt(1 − μ²)`` over the constant nodes from the root to every node (Theorem 1)."""
    prod = [0.0] * tree.n_nodes
    for n in range(tree.n_nodes):  # parents come first
        own = float(np.sqrt(1.0 - tree.mu[n] ** 2))
        parent = tree._parent(n)
        prod[n] = own * (1.0 if parent < 0 else prod[parent])
    return prod


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
    by_policy : bool
        Whether ``separator`` came from :func:`boost_odt`'s ``choose`` policy (a student's
        line, ``inner`` then empty) rather than from the node learner (``False`` at the start,
        at the stop and without a policy).
    algorithm_separator : Additive or None
        The node learner's ``LS`` at this node — what the run plays without a policy (the
        same object as ``separator`` unless ``by_policy``); ``None`` at the start and stop.
    algorithm_inner : tuple of InnerRound
        The AdaBoost_R rounds that built ``algorithm_separator``.
    leaf_rule : str
        The run's leaf rule (``"breadth_first"`` or ``"max_decrease"``; ``""`` where unknown).
    rule_scores : tuple of (int, float)
        What ``max_decrease`` compared before this step: every leaf it could split with the
        drop of ``Σ 2√(w⁺w⁻)`` its node learner's separator makes (the largest is split, the
        lowest id on a tie); empty under ``breadth_first``, at the start and at the stop.
    """

    tree: ObliqueTree
    node: int | None
    separator: Additive | None
    inner: tuple[InnerRound, ...]
    node_index: np.ndarray
    node_weights: np.ndarray
    children: tuple[int, int] | None
    w: np.ndarray
    by_policy: bool = False
    algorithm_separator: Additive | None = None
    algorithm_inner: tuple[InnerRound, ...] = ()
    leaf_rule: str = ""
    rule_scores: tuple[tuple[int, float], ...] = ()

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
    before: float  # the node's 2 sqrt(w⁺w⁻) (w_1), and its two sides' sum after the split
    after: float

    @property
    def splits(self) -> bool:
        return bool(self.right.any()) and not bool(self.right.all())


#: The grower's per-node lists (what :meth:`_TreeGrower.clone` copies).
_NODE_LISTS = ("left", "right", "sep", "depth", "value", "mu", "alpha", "wp", "wn", "index")


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

    @classmethod
    def restore(cls, X, y, w1, splitter, tree: ObliqueTree, w: np.ndarray) -> _TreeGrower:
        """The grower as it was when it yielded ``tree`` with G1's weights ``w``.

        The node members are routed again with the tree's own separators, exactly as
        :meth:`split` routed them, so a split scored on the restored grower is the split the
        run would make (the "be the weak learner" scoring relies on this).
        """
        g = cls.__new__(cls)
        g.X, g.y, g.w1, g.splitter = X, y, w1, splitter
        g.w = np.array(w, dtype=float)
        g.left, g.right, g.sep = list(tree.left), list(tree.right), list(tree.separator)
        g.depth, g.value, g.mu, g.alpha = (
            list(tree.depth),
            list(tree.value),
            list(tree.mu),
            list(tree.alpha),
        )
        g.wp, g.wn = list(tree.w_pos), list(tree.w_neg)
        g.index = [np.arange(X.shape[0])] * tree.n_nodes
        for n in range(tree.n_nodes):  # parents come first
            if tree.left[n] >= 0:
                idx = g.index[n]
                right = tree.separator[n].decision_function(X[idx]) >= 0
                g.index[tree.left[n]], g.index[tree.right[n]] = idx[~right], idx[right]
        g.cand = {}
        return g

    def clone(self) -> _TreeGrower:
        """An independent copy (to split a node "what if" without touching this grower)."""
        g = copy.copy(self)
        g.w = self.w.copy()
        for name in _NODE_LISTS:
            setattr(g, name, list(getattr(self, name)))
        g.cand = dict(self.cand)
        return g

    def _new_node(self, idx, parent_value, depth) -> int:
        """Add a G1 node with the constant ``h = +1`` on ``S_t = idx`` (R = 1)."""
        y, w = self.y, self.w
        hv = np.ones(self.X.shape[0])
        _, mu, _ = margin_stats(hv, y, w, idx)
        mu_c = clip_mu(mu)
        a = alpha_of(mu_c)
        g1_update(w, y, hv, idx, mu_c, 1.0)
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

    def balanced(self, n: int) -> np.ndarray:
        """BoostODT's node weights on ``index[n]``: class-balanced, ``w ∝ w_1/(2 w_1^{y}(ℓ))``
        (docs/theory.md §4.2 [R]); for G1 on the tree these are exactly its current weights at
        the leaf, rescaled (the leaf's constant left no edge to ``h = +1``)."""
        idx = self.index[n]
        y, w1 = self.y[idx], self.w1[idx]
        pos = y > 0
        return np.where(pos, w1 / (2.0 * self.wp[n]), w1 / (2.0 * self.wn[n]))

    def _build(self, n: int) -> _Candidate | None:
        bal = self.balanced(n)
        built = self.splitter(self.X, self.y, self.index[n], bal)
        if built is None:
            return None
        c = self.candidate_of(n, *built, bal)
        return c if c.splits else None

    def candidate_of(self, n: int, sep: Additive, inner, bal: np.ndarray) -> _Candidate:
        """Leaf ``n`` split by ``sep`` (``LS ≥ 0`` → right): its sides and how much the split
        lowers the node's share ``2 sqrt(w⁺w⁻)`` of the exponential loss (Theorem 2); the
        grower's candidates and a student's separator both go through here."""
        idx = self.index[n]
        y, w1 = self.y[idx], self.w1[idx]
        pos = y > 0
        right = sep.decision_function(self.X[idx]) >= 0
        before = 2.0 * np.sqrt(self.wp[n] * self.wn[n])
        after = 0.0
        for side in (right, ~right):
            after += 2.0 * np.sqrt(w1[side & pos].sum() * w1[side & ~pos].sum())
        return _Candidate(sep, inner, right, before - after, bal, before, after)

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
        return adaboost_r(X, y, w, idx, weak, n_stumps)

    return split


#: A policy for :func:`boost_odt`'s ``choose``: the latest snapshot and the leaf to split in,
#: ``None`` (keep the node learner's separator) or ``(direction, offset)`` out.
SeparatorPolicy = Callable[[ODTStep, int], tuple[np.ndarray, float] | None]


def _check_direction(name: str, direction: object, d: int | None) -> np.ndarray:
    """``direction`` as ``d`` finite floats (any number ``≥ 1`` when ``d`` is ``None``), not
    all zero, or a ``ValueError`` naming ``name``, the rule and the value."""
    want = "numbers" if d is None else f"{d} numbers (one per feature)"
    try:
        v = np.array(direction, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {want}; got {direction!r}") from None
    if v.ndim != 1 or v.size == 0 or (d is not None and v.size != d):
        raise ValueError(f"{name} must be {want}; got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be finite; got {v.tolist()}")
    if not np.any(v != 0.0):
        raise ValueError(
            f"{name} must not be the zero vector (a line needs a normal); got {v.tolist()}"
        )
    return v


def line_separator(direction, offset: float) -> Additive:
    """The node separator ``LS(x) = direction·x + offset`` of a hand-drawn line.

    As an :class:`boostcore.realboost.Additive` of linear and constant weak hypotheses, so a
    tree routes by it as by AdaBoost_R's separators (``LS ≥ 0`` → right; Henry–Nock–Nielsen
    2007, §4.3, docs/theory.md §4.2), ``affine`` gives back ``(direction, offset)`` and
    ``describe`` works. Features with a zero coefficient (and a zero offset) get no term.

    Parameters
    ----------
    direction : array_like of float, shape (d,)
        The line's normal ``w`` (finite, not all zero); the side ``w·x + offset ≥ 0`` is
        "right".
    offset : float
        ``b``.

    Returns
    -------
    Additive
        ``Σ_f w_f·x_f + b``.

    Raises
    ------
    ValueError
        If ``direction`` is not a non-zero vector of finite numbers or ``offset`` is not finite.

    Examples
    --------
    >>> from boostcore.oblique import line_separator
    >>> ls = line_separator([1.0, -2.0], 0.5)
    >>> ls.decision_function([[0.0, 0.0], [1.0, 1.0]]).tolist()
    [0.5, -0.5]
    >>> coef, intercept = ls.affine(2)
    >>> coef.tolist(), intercept
    ([1.0, -2.0], 0.5)
    >>> line_separator([0.0, 0.0], 1.0)
    Traceback (most recent call last):
        ...
    ValueError: direction must not be the zero vector (a line needs a normal); got [0.0, 0.0]
    """
    v = _check_direction("direction", direction, None)
    offset = check_float("offset", offset)
    hyps, alphas = [], []
    for f in np.flatnonzero(v):
        hyps.append(WeakHypothesis("linear", feature=int(f), polarity=float(np.sign(v[f]))))
        alphas.append(float(abs(v[f])))
    if offset != 0.0:
        hyps.append(WeakHypothesis("constant", polarity=float(np.sign(offset))))
        alphas.append(abs(offset))
    return Additive(tuple(hyps), tuple(alphas))


def _line_text(direction: np.ndarray, offset: float) -> str:
    """``"−1·x2 + 0.25 = 0"`` (terms with a zero coefficient left out)."""
    terms = [(w, f"{abs(w):.3g}·x{f + 1}") for f, w in enumerate(direction) if w != 0.0]
    if offset != 0.0:
        terms.append((offset, f"{abs(offset):.3g}"))
    text = ("−" if terms[0][0] < 0 else "") + terms[0][1]
    text += "".join(f" {'−' if w < 0 else '+'} {t}" for w, t in terms[1:])
    return text + " = 0"


def _ask_policy(choose, last: ODTStep, node: int, d: int) -> tuple[np.ndarray, float] | None:
    """The policy's line for ``node`` at the step after ``last``, checked (``None``: keep the
    node learner's separator)."""
    out = choose(last, node)
    if out is None:
        return None
    if isinstance(out, str | bytes) or not hasattr(out, "__len__") or len(out) != 2:
        raise ValueError(
            f"choose must return None or (direction, offset); for node {node} at step "
            f"{last.t + 1} it returned {out!r}"
        )
    direction, offset = out
    direction = _check_direction("the direction choose returned", direction, d)
    offset = check_float("the offset choose returned", offset)
    return direction, offset


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
    choose: SeparatorPolicy | None = None,
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
    choose : callable, optional
        A policy that may replace a node's separator ("be the weak learner"): at every step,
        once the leaf rule has picked the leaf ``node`` to split (with the node learner's
        separator, as without a policy), ``choose(step, node)`` is called with the latest
        snapshot (step ``t − 1``, exactly what :func:`score_separator` takes). It returns
        ``None`` (keep the node learner's ``LS``) or ``(direction, offset)``: the node is then
        split by the line ``direction·x + offset = 0`` (:func:`line_separator`;
        ``direction·x + offset ≥ 0`` goes right), which must send the node's examples to
        both sides. The node learner's separator is recorded all the same
        (``ODTStep.algorithm_separator``); ``ODTStep.by_policy`` says whose split was made.
        Which leaf is split is still the leaf rule's choice (``max_decrease`` compares the
        node learner's separators). Default: no policy.

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
        Before the first step, for any invalid parameter (the message names it); during the
        run, if ``choose`` returns something other than ``None`` or a valid
        ``(direction, offset)`` that splits the node (the message says what it returned).

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

    A student splits the root by the line ``x2 = 0.25`` (``−x2 + 0.25 ≥ 0`` goes right);
    AdaBoost_R builds the other separators:

    >>> mine = {1: ([0.0, -1.0], 0.25)}
    >>> steps = list(boost_odt(ds.X_train, ds.y_train, n_internal=3, n_stumps=5,
    ...                        choose=lambda step, node: mine.get(step.t + 1)))
    >>> [s.by_policy for s in steps[1:4]], steps[1].separator.affine(2)[0].tolist()
    ([True, False, False], [0.0, -1.0])
    >>> len(steps[1].algorithm_separator)  # what AdaBoost_R built for the root
    5
    >>> m = steps[-1].metrics  # Theorem 1 still holds: error ≤ E e^{−yH} ≤ max Π sqrt(1 − μ²)
    >>> round(m.train_error, 4), round(m.exp_loss, 4), round(m.bound_theorem1, 4)
    (0.0133, 0.0267, 0.1488)
    """
    Xv, yv, w1, classes = check_xy(X, y, sample_weight)
    n_internal = check_int("n_internal", n_internal, low=1, high=MAX_INTERNAL)
    n_stumps = check_int("n_stumps", n_stumps, low=1, high=200)
    weak = check_choice("weak", weak, WEAK_LEARNERS)
    leaf_rule = check_choice("leaf_rule", leaf_rule, LEAF_RULES)
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    if choose is not None and not callable(choose):
        raise ValueError(
            "choose must be None or a callable (step, node) -> None or (direction, offset); "
            f"got {choose!r}"
        )
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
        choose,
    )


def _tree_metrics(tree: ObliqueTree, X, y, w1, Xt, yt) -> G1Metrics:
    H = tree.decision_function(X)
    Ht = None if Xt is None else tree.decision_function(Xt)
    bound = max(tree.path_products().values())
    km_imp = float(sum(2.0 * np.sqrt(tree.w_pos[n] * tree.w_neg[n]) for n in tree.leaves))
    return g1_metrics(H, y, w1, bound, Ht, yt, km_imp, n_leaves=len(tree.leaves))


def _grow(X, y, w1, n_internal, leaf_rule, splitter, Xt, yt, name, budget, choose=None):
    g = _TreeGrower(X, y, w1, splitter)
    empty_i = frozen_array(np.zeros(0, dtype=np.intp))
    empty_f = frozen_array(np.zeros(0))
    tree = g.tree()
    metrics = _tree_metrics(tree, X, y, w1, Xt, yt)
    last = ODTStep(
        t=0,
        kind=START,
        tree=tree,
        node=None,
        separator=None,
        inner=(),
        node_index=empty_i,
        node_weights=empty_f,
        children=None,
        w=frozen_array(g.w),
        metrics=metrics,
        message=f"{name}: the root alone, a constant node with output ½ ln(w⁺/w⁻) = "
        f"{tree.value[0]:.3f}.",
        leaf_rule=leaf_rule,
    )
    yield last
    reason = f"All {budget} = {n_internal} splits are done."
    t_done = 0
    fifo = [0]
    for t in range(1, n_internal + 1):
        chosen = None
        scores: list[tuple[int, float]] = []
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
                    if c is not None:
                        scores.append((n, float(c.decrease)))
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
        algo = c
        line = None if choose is None else _ask_policy(choose, last, n, X.shape[1])
        if line is not None:
            c = g.candidate_of(n, line_separator(*line), (), algo.weights)
            if not c.splits:
                side = "right (w·x + b ≥ 0)" if c.right.all() else "left (w·x + b < 0)"
                raise ValueError(
                    f"the separator choose returned for node {n} at step {t} must send the "
                    f"node's examples to both sides; it sends all {c.right.size} to the {side}"
                )
        kids = g.split(n, c)
        fifo.extend(kids)
        tree = g.tree()
        metrics = _tree_metrics(tree, X, y, w1, Xt, yt)
        t_done = t
        m_in = len(c.inner) or 1
        if line is None:
            message = (
                f"Step {t}: node {n} ({g.index[n].size} examples) split by a separator of "
                f"{m_in} weak hypothes{'is' if m_in == 1 else 'es'}; Σ 2√(w⁺w⁻) drops by "
                f"{c.decrease:.4f}."
            )
        else:
            message = (
                f"Step {t}: node {n} ({g.index[n].size} examples) split by the policy's line "
                f"{_line_text(*line)}; Σ 2√(w⁺w⁻) drops by {c.decrease:.4f} (the node "
                f"learner's separator would lower it by {algo.decrease:.4f})."
            )
        last = ODTStep(
            t=t,
            kind=STEP,
            tree=tree,
            node=n,
            separator=c.separator,
            inner=c.inner,
            node_index=frozen_array(g.index[n]),
            node_weights=frozen_array(c.weights),
            children=kids,
            w=frozen_array(g.w),
            by_policy=line is not None,
            algorithm_separator=algo.separator,
            algorithm_inner=algo.inner,
            metrics=metrics,
            message=message,
            leaf_rule=leaf_rule,
            rule_scores=tuple(scores),
        )
        yield last
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
        w=frozen_array(g.w),
        metrics=metrics,
        stop_reason=reason,
        message=f"Step {t_done}: stopped. {reason}",
        leaf_rule=leaf_rule,
    )


# --------------------------------------------------------------------------- be the weak learner
@dataclass(frozen=True)
class SeparatorScore:
    """One separator at one node of a BoostODT tree: its ±1 output as a weak hypothesis, and
    the split it makes (Henry–Nock–Nielsen 2007, Theorems 1 and 2, §4.3; docs/theory.md §4).

    The separator's output ``s(x) = +1 if LS(x) ≥ 0 else −1`` is scored as G1 scores a weak
    hypothesis (Fig. 2, ``R = 1``) under the node's class-balanced weights ``b``
    (``ODTStep.node_weights``, Σ b = 1: the weights G1 holds at the leaf, rescaled):
    ``μ = Σ_i b_i y_i s(x_i)``, ``α = atanh(μ)``, weighted error ``(1 − μ)/2``. A constant
    has ``μ = 0`` under these weights: only what the separator tells apart counts.

    What the split does to the bounds:

    * Theorem 2: the tree's exponential loss is ``Σ_ℓ 2 sqrt(w⁺_ℓ w⁻_ℓ)`` (``w_1`` masses);
      the split replaces the node's share ``loss_before`` by ``loss_after``, and
      ``loss_ratio = loss_after/loss_before = Σ_sides 2 sqrt(b⁺ b⁻) ≤ sqrt(1 − μ²)`` — the
      better the separator's edge, the smaller the node's loss (Kearns–Mansour's argument
      with balanced weights; checked in the tests).
    * Theorem 1: each new leaf is a G1 constant node with its own ``μ`` (``mu_children``),
      which multiplies the product ``Π sqrt(1 − μ²)`` of its path; with ``m_s`` the balanced
      mass of side ``s``, ``Σ_s m_s sqrt(1 − μ_s²) = loss_ratio``. ``metrics`` are the
      tree's after the split (its ``bound_theorem1`` is the new ``max_paths Π``).

    Attributes
    ----------
    separator : Additive
        ``LS`` (``LS ≥ 0`` → right).
    inner : tuple of InnerRound
        The AdaBoost_R rounds that built it (empty for a drawn line).
    right : ndarray of bool
        Which of the node's examples (``NodeScore.members``) go right.
    mu, alpha, error : float
        ``μ`` (unclipped), ``α = alpha_of(μ)`` and the weighted error of ``s``, under ``b``.
    factor : float
        ``sqrt(1 − μ²)``: what a G1 node with edge ``μ`` multiplies Theorem 1's product by,
        and a bound on ``loss_ratio``.
    loss_before, loss_after, decrease : float
        The node's ``2 sqrt(w⁺w⁻)``, its two sides' sum after the split, and the difference
        (what ``leaf_rule="max_decrease"`` compares).
    children : (int, int) or None
        The ids the two new leaves would get (left, right); ``None`` if the separator sends
        every example to one side (no split).
    mu_children : (float, float) or None
        ``μ`` of the two new leaves' constants (clipped, as the tree stores them).
    tree : ObliqueTree or None
        The tree after the split.
    metrics : G1Metrics or None
        Its metrics (``test_error`` is ``None``): what the run's next snapshot would record.
    """

    separator: Additive
    inner: tuple[InnerRound, ...]
    right: np.ndarray
    mu: float
    alpha: float
    error: float
    factor: float
    loss_before: float
    loss_after: float
    decrease: float
    children: tuple[int, int] | None
    mu_children: tuple[float, float] | None
    tree: ObliqueTree | None
    metrics: G1Metrics | None

    @property
    def splits(self) -> bool:
        """Whether both sides get examples (a separator that does not split is no split)."""
        return self.children is not None

    @property
    def n_left(self) -> int:
        """Examples of the node sent left (``LS < 0``)."""
        return int(self.right.size - self.right.sum())

    @property
    def n_right(self) -> int:
        """Examples of the node sent right (``LS ≥ 0``)."""
        return int(self.right.sum())

    @property
    def loss_ratio(self) -> float:
        """``loss_after / loss_before``, at most :attr:`factor` ``= sqrt(1 − μ²)``."""
        return self.loss_after / self.loss_before

    @property
    def factor_children(self) -> tuple[float, float] | None:
        """``sqrt(1 − μ²)`` of the two new leaves' constants (Theorem 1's path factors)."""
        if self.mu_children is None:
            return None
        return tuple(float(np.sqrt(1.0 - mu * mu)) for mu in self.mu_children)


@dataclass(frozen=True)
class NodeScore:
    """A student's separator at a node next to the node learner's (:func:`score_separator`).

    Attributes
    ----------
    t : int
        The step scored (the snapshot's ``t`` + 1).
    node : int
        The leaf split.
    members : ndarray of intp
        Its training examples (``ODTStep.node_index`` of the step that splits it).
    node_weights : ndarray of float
        Their class-balanced weights ``b`` (Σ b = 1, each class ½).
    path_product : float
        ``Π sqrt(1 − μ²)`` over the constant nodes from the root to ``node`` (Theorem 1's
        product on its path before the split).
    yours : SeparatorScore
        The student's line.
    algorithm : SeparatorScore or None
        AdaBoost_R's separator at this node, as :func:`boost_odt` builds it with the same
        ``n_stumps`` and ``weak``; ``None`` if that separator would not split the node (the
        run then leaves it alone) or with ``compare=False``.
    """

    t: int
    node: int
    members: np.ndarray
    node_weights: np.ndarray
    path_product: float
    yours: SeparatorScore
    algorithm: SeparatorScore | None


def score_separator(
    X: np.ndarray,
    y: np.ndarray,
    step: ODTStep,
    node: int,
    direction,
    offset: float,
    *,
    n_stumps: int = 10,
    weak: str = "stump",
    sample_weight: np.ndarray | None = None,
    compare: bool = True,
) -> NodeScore:
    """Score the line ``direction·x + offset = 0`` as the separator of leaf ``node`` exactly
    as :func:`boost_odt` would split by it ("be the weak learner"; Henry–Nock–Nielsen 2007,
    §4.3, Theorems 1 and 2; docs/theory.md §4.2).

    ``step`` is a snapshot of a run of :func:`boost_odt` on ``X, y`` (with this
    ``sample_weight``) before the split (step ``t − 1``); the grower is restored from it and
    the split is made on a copy by the run's own code, so with AdaBoost_R's separator the
    result is what the run's next snapshot records when it splits ``node``. AdaBoost_R's
    separator is built as the run builds it (``n_stumps`` rounds of ``weak`` from the
    class-balanced weights): pass the run's settings.

    Parameters
    ----------
    X : array_like of shape (m, d)
        The run's training features.
    y : array_like of shape (m,)
        The run's labels.
    step : ODTStep
        A snapshot of the run (any kind).
    node : int
        A leaf of ``step.tree`` holding both classes.
    direction : array_like of float, shape (d,)
        The line's normal ``w`` (finite, not all zero); ``w·x + offset ≥ 0`` goes right.
    offset : float
        ``b``.
    n_stumps, weak : int, str
        The run's ``n_stumps`` and ``weak``, as in :func:`boost_odt`.
    sample_weight : array_like of shape (m,), optional
        The run's ``sample_weight`` (``w_1``).
    compare : bool, default True
        Also build and score AdaBoost_R's separator (``False`` skips it, for speed).

    Returns
    -------
    NodeScore
        ``yours`` and ``algorithm`` (:class:`SeparatorScore`).

    Raises
    ------
    ValueError
        If a parameter is invalid, ``node`` is not a leaf with both classes, or ``step`` is
        not a snapshot of a run on ``X, y`` and ``sample_weight`` (the message names the
        parameter, the rule and the value).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.oblique import boost_odt, score_separator
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(boost_odt(ds.X_train, ds.y_train, n_internal=3, n_stumps=5))
    >>> r = score_separator(ds.X_train, ds.y_train, run[0], 0, [0.0, -1.0], 0.25, n_stumps=5)
    >>> round(r.yours.mu, 4), round(r.algorithm.mu, 4)  # edges of the ±1 outputs
    (0.7297, 0.8926)
    >>> round(r.yours.alpha, 4), round(r.yours.factor, 4)  # α = atanh(μ), sqrt(1 − μ²)
    (0.9281, 0.6837)
    >>> round(r.yours.loss_ratio, 4), round(r.algorithm.loss_ratio, 4)  # ≤ sqrt(1 − μ²)
    (0.5199, 0.4365)
    >>> r.algorithm.metrics.bound_theorem1 == run[1].metrics.bound_theorem1
    True
    >>> score_separator(ds.X_train, ds.y_train, run[0], 0, [0.0, 0.0, 1.0], 0.0)
    Traceback (most recent call last):
        ...
    ValueError: direction must be 2 numbers (one per feature); got shape (3,)
    """
    Xv, yv, w1, _ = check_xy(X, y, sample_weight)
    m, d = Xv.shape
    n_stumps = check_int("n_stumps", n_stumps, low=1, high=200)
    weak = check_choice("weak", weak, WEAK_LEARNERS)
    if not isinstance(step, ODTStep):
        raise ValueError(
            f"step must be an ODTStep snapshot of boost_odt; got {type(step).__name__}"
        )
    if step.w.shape != (m,):
        raise ValueError(
            f"step must be a snapshot of a run on X: its weights hold {step.w.shape[0]} "
            f"examples, X has {m} rows"
        )
    tree = step.tree
    node = check_int("node", node, low=0, high=tree.n_nodes - 1)
    if tree.left[node] >= 0:
        raise ValueError(
            f"node must be a leaf of the snapshot's tree; node {node} is internal (it was "
            "split at an earlier step)"
        )
    if not (tree.w_pos[node] > 0 and tree.w_neg[node] > 0):
        only = "+1" if tree.w_pos[node] > 0 else "−1"
        raise ValueError(
            f"node must hold both classes (BoostODT splits only such leaves); node {node} "
            f"holds only the {only} class"
        )
    direction = _check_direction("direction", direction, d)
    offset = check_float("offset", offset)
    g = _TreeGrower.restore(Xv, yv, w1, _adaboost_r_splitter(weak, n_stumps), tree, step.w)
    _check_restored(g, tree)
    yours = _score_split(g, node, line_separator(direction, offset), ())
    algorithm = None
    if compare:
        c = g.candidate(node)
        if c is not None:
            algorithm = _score_split(g, node, c.separator, c.inner)
    return NodeScore(
        t=step.t + 1,
        node=node,
        members=frozen_array(g.index[node]),
        node_weights=frozen_array(g.balanced(node)),
        path_product=_node_products(tree)[node],
        yours=yours,
        algorithm=algorithm,
    )


def _check_restored(g: _TreeGrower, tree: ObliqueTree) -> None:
    """The restored grower's class masses must be the snapshot's (same X, y and w_1)."""
    for n in range(tree.n_nodes):
        idx = g.index[n]
        pos = g.y[idx] > 0
        here = (float(g.w1[idx][pos].sum()), float(g.w1[idx][~pos].sum()))
        if not np.allclose(here, (tree.w_pos[n], tree.w_neg[n]), rtol=1e-9, atol=1e-15):
            raise ValueError(
                "step must be a snapshot of a run on these X, y and sample_weight: node "
                f"{n}'s class masses are {(tree.w_pos[n], tree.w_neg[n])} in the snapshot "
                f"and {here} here"
            )


def _score_split(g: _TreeGrower, n: int, sep: Additive, inner) -> SeparatorScore:
    """Leaf ``n`` split by ``sep``, through the grower's own candidate and split code (on a
    copy: ``g`` is left as it is)."""
    c = g.candidate_of(n, sep, inner, g.balanced(n))
    idx = g.index[n]
    m = g.X.shape[0]
    # the separator's ±1 output as a G1 weak hypothesis on the node (R = 1), scored by the
    # same function as every G1 node (Fig. 2's μ)
    hv = np.zeros(m)
    hv[idx] = np.where(c.right, 1.0, -1.0)
    w = np.zeros(m)
    w[idx] = c.weights
    _, mu, err = margin_stats(hv, g.y, w, idx)
    children = mu_children = tree = metrics = None
    if c.splits:
        h = g.clone()
        children = h.split(n, c)
        tree = h.tree()
        metrics = _tree_metrics(tree, g.X, g.y, g.w1, None, None)
        mu_children = (tree.mu[children[0]], tree.mu[children[1]])
    return SeparatorScore(
        separator=sep,
        inner=tuple(inner),
        right=frozen_array(c.right),
        mu=mu,
        alpha=alpha_of(mu),
        error=err,
        factor=float(np.sqrt(max(0.0, 1.0 - mu * mu))),
        loss_before=float(c.before),
        loss_after=float(c.after),
        decrease=float(c.decrease),
        children=children,
        mu_children=mu_children,
        tree=tree,
        metrics=metrics,
    )
