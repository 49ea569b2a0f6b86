"""The multi-way decision tree that top-down growth builds (immutable; Hatano 2004, §2).

:func:`boostcore.topdown.grow` yields one :class:`Tree` per round; this module holds the
structure itself — routing, leaf statistics, prediction — and nothing about how it is grown.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .impurity import IndexFunction
from .splits import branch_of


@dataclass(frozen=True)
class Tree:
    """A multi-way decision tree over numeric features (immutable).

    Node 0 is the root; children always have larger ids than their parent, so routing in id
    order visits parents first. A node is a leaf when ``feature[node] == -1``.

    Attributes
    ----------
    parent, depth, feature : int arrays, one entry per node (``parent[0] = -1``).
    thresholds : tuple of tuples
        Increasing thresholds of each internal node (empty for leaves); a point goes to
        child ``#{θ : θ < x_feature}``.
    children : tuple of tuples
        Child ids of each internal node (empty for leaves).
    w_pos, w_neg : float arrays
        Training weight of positive and negative examples reaching each node (total 1).
    n_samples : int array
        Number of training examples reaching each node.
    created_at : int array
        Round at which the node was created (0 for the root).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.topdown import grow
    >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
    >>> tree = list(grow(X, y, size=2))[-1].tree
    >>> tree.feature.tolist(), tree.thresholds, tree.children
    ([0, -1, -1], ((1.5,), (), ()), ((1, 2), (), ()))
    >>> tree.predict([[0.5], [2.5]]).tolist()
    [-1, 1]
    """

    parent: np.ndarray
    depth: np.ndarray
    feature: np.ndarray
    thresholds: tuple[tuple[float, ...], ...]
    children: tuple[tuple[int, ...], ...]
    w_pos: np.ndarray
    w_neg: np.ndarray
    n_samples: np.ndarray
    created_at: np.ndarray

    @property
    def n_nodes(self) -> int:
        """Number of nodes (internal and leaves).

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.n_nodes
        3
        """
        return int(self.feature.shape[0])

    @property
    def leaves(self) -> np.ndarray:
        """Ids of the leaves, in increasing order.

        Returns
        -------
        ndarray of intp
            The nodes with ``feature == -1``.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.leaves.tolist()
        [1, 2]
        """
        return np.flatnonzero(self.feature < 0)

    @property
    def n_leaves(self) -> int:
        """``|T|``, the number of leaves.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.n_leaves
        2
        """
        return int(np.count_nonzero(self.feature < 0))

    @property
    def mass(self) -> np.ndarray:
        """``p̂`` of each node: the weight of the training sample reaching it.

        Returns
        -------
        ndarray of float, shape (n_nodes,)
            ``w_pos + w_neg``; 1 at the root.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.mass.tolist()
        [1.0, 0.5, 0.5]
        """
        return self.w_pos + self.w_neg

    @property
    def q(self) -> np.ndarray:
        """``q̂`` of each node: weighted fraction of positives there (1/2 at an empty node).

        Returns
        -------
        ndarray of float, shape (n_nodes,)
            ``w_pos / mass`` in [0, 1].

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.q.tolist()
        [0.5, 0.0, 1.0]
        """
        mass = self.mass
        return np.divide(self.w_pos, mass, out=np.full_like(mass, 0.5), where=mass > 0)

    def node_weight(self, index: IndexFunction) -> np.ndarray:
        """Hatano's node weight ``w_n = p̂_n I(q̂_n)`` of every node.

        Parameters
        ----------
        index : IndexFunction
            The index function ``I``, e.g. ``boostcore.impurity.INDEX["gini"]``.

        Returns
        -------
        ndarray of float, shape (n_nodes,)
            ``mass * index(q)``.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> from boostcore.impurity import INDEX
        >>> tree.node_weight(INDEX["gini"]).tolist()
        [1.0, 0.0, 0.0]
        """
        return self.mass * index(self.q)

    def apply(self, X: np.ndarray) -> np.ndarray:
        """Leaf id reached by each row of ``X`` (vectorised routing, parents first).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to route; ``d`` at least the largest feature index used plus one.

        Returns
        -------
        ndarray of intp, shape (n,)
            The id of the leaf each row reaches.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.apply([[0.5], [2.5]]).tolist()
        [1, 2]
        """
        X = np.asarray(X, dtype=float)
        node = np.zeros(X.shape[0], dtype=np.intp)
        for nid in np.flatnonzero(self.feature >= 0):
            idx = np.flatnonzero(node == nid)
            if idx.size:
                b = branch_of(X[idx, self.feature[nid]], self.thresholds[nid])
                node[idx] = np.asarray(self.children[nid])[b]
        return node

    def node_boxes(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        """Axis-aligned cell of every node inside the box ``[low, high]``.

        Parameters
        ----------
        low, high : array_like of float, shape (d,)
            Lower and upper corners of the root's box (e.g. the plot window).

        Returns
        -------
        ndarray of shape (n_nodes, d, 2)
            ``out[node, j] = (lower, upper)`` bounds of feature ``j`` in that node's cell.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.node_boxes([0.0], [3.0]).tolist()
        [[[0.0, 3.0]], [[0.0, 1.5]], [[1.5, 3.0]]]
        """
        low = np.asarray(low, dtype=float)
        high = np.asarray(high, dtype=float)
        out = np.empty((self.n_nodes, low.size, 2))
        out[0, :, 0], out[0, :, 1] = low, high
        for nid in np.flatnonzero(self.feature >= 0):
            f, thr = self.feature[nid], self.thresholds[nid]
            edges = (out[nid, f, 0], *thr, out[nid, f, 1])
            for b, child in enumerate(self.children[nid]):
                out[child] = out[nid]
                out[child, f] = (max(edges[b], out[nid, f, 0]), min(edges[b + 1], out[nid, f, 1]))
        return out

    def predict_proba_pos(self, X: np.ndarray) -> np.ndarray:
        """``q̂`` of the leaf each row reaches: the estimated probability of class +1.

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to score.

        Returns
        -------
        ndarray of float, shape (n,)
            Values in [0, 1].

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.predict_proba_pos([[0.5], [2.5]]).tolist()
        [0.0, 1.0]
        """
        return self.q[self.apply(X)]

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Majority label (±1) of the leaf each row reaches (ties go to −1, as scikit-learn).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to classify.

        Returns
        -------
        ndarray of int8, shape (n,)
            Labels in {−1, +1}.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> tree = list(grow(X, y, size=2))[-1].tree
        >>> tree.predict([[0.5], [2.5]]).tolist()
        [-1, 1]
        """
        return np.where(self.predict_proba_pos(X) > 0.5, 1, -1).astype(np.int8)
