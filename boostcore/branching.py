"""InfoBoost as a divide-and-merge branching program: BP.InfoBoost (docs/theory.md §2).

Takimoto, Koya & Maruoka, "Boosting based on divide and merge" (Figs. 1, 3, 4; §§3–6):
each round a ±1 stump ``h_t`` *divides* every leaf ``l`` of the program into ``(l, −1)`` and
``(l, +1)``; the children of each side ``a`` are then *merged* into groups, and each group is
a leaf of ``L_t`` with weight ``w[l] = ½ ln(P_{D_t}(ℓ_t = l, y = +1) / P_{D_t}(ℓ_t = l, y = −1))``
(eq. (8)). The distribution is updated ``D_{t+1}(i) ∝ D_t(i) exp(−w[ℓ_t(x_i)] y_i)`` (eq. (9))
and the master hypothesis is ``sign(F_T(x))`` with ``F_T(x) = Σ_t w[ℓ_t(x)]`` (eq. (7)).

Merging schemes (``merge=``):

* ``"all"`` — one group per side: Aslam's InfoBoost (``|L_t| = 2``);
* ``"none"`` — no merging: DT.InfoBoost, a decision tree whose depth-``t`` nodes all use
  ``h_t``; children no training example reaches are dropped (their weight is 0, and new
  points that reach them keep adding 0), and the run stops before ``MAX_LEAVES`` leaves;
* ``"bands"`` — Theorem 3: a child ``z`` joins group ``(a, sign, j)`` with ``sign`` the side of
  ``q_z = P_{D_t}(y = +1 | z)`` with respect to 1/2 and ``ε_{j−1} ≤ 1 − G(q_z) < ε_j``, where
  ``1 − γ_t = H_{D_t}(Y|ℓ̃_t)``, ``a = 2c/(1−c)``, ``ε_j = ((1+a)/a)^(j−1)·cγ_t/a``. The paper
  prints ``p_z < 1/2`` in the definition of ``S_{−j}``; the proof needs ``q_z``
  (docs/theory.md §2, §6). A child with ``q_z = 1/2`` — exactly, or up to float rounding
  (:func:`child_q`) — is on the ``+`` side, as the rule ``q_z ≥ 1/2`` says; an empty child
  counts as ``q = 1/2``.

A run follows the step protocol (:mod:`boostcore.steps`): a ``"start"`` snapshot ``t = 0``
(the empty program, ``F_0 = 0``), one ``"step"`` snapshot per round ``t = 1 … T``, then a
``"stop"`` snapshot that repeats the last one and says why the run ended.

``|L_t|`` (``BPMetrics.n_leaves``) counts the same thing for every scheme: the leaves at least
one training point reaches. (``bands`` can hold a leaf only unseen points reach — a group of
empty children — which ``none`` drops; ``BPMetrics.n_unreached`` counts them.)

Be the weak learner: :func:`score_stump` scores any stump for the round after a snapshot
(``H(Y|h_t)``, the divided leaves, the merge, ``Z_t``, ``Π Z_t``) next to the weak learner's own
stump, with the round's own functions; ``bp_infoboost(..., choose=policy)`` lets a policy (a
student) pick some rounds' stumps and records what the weak learner would have picked.

Smoothing (docs/theory.md §0.3): a leaf with no positive (or no negative) weight would get an
infinite weight; only such leaves use ``½ ln((W⁺ + ε)/(W⁻ + ε))``. Every bound is computed with the
*actual* normaliser ``Z_t``, so ``training error ≤ Π Z_t`` stays exact; on those rounds
``Z_t`` exceeds ``H_{D_t}(Y|ℓ_t)`` by ``smoothing_excess`` (reported), so Lemma 2's equality
and ``Z_t ≤ H_{D_t}(Y|h_t)`` hold up to that excess.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from ._validation import check_choice, check_float, check_int, check_test_set, check_xy
from .impurity import km
from .splits import best_stump, best_stump_on_partition, partition_entropy, presort
from .steps import START, STEP, STOP, Metrics, Step

MERGES = ("bands", "all", "none")
WEAK_LEARNERS = ("h", "divided")
#: DT.InfoBoost stops before its program would hold more leaves than this.
MAX_LEAVES = 4096
#: ``H_{D_t}(Y|h_t)`` at least this close to 1 counts as "no information".
NO_INFO = 1e-12
#: A child whose positive and negative masses under ``D_t`` differ by at most this fraction
#: of its mass has ``q = 1/2`` exactly (see :func:`child_q`).
HALF_TOL = 1e-12

MERGE_LABELS = {
    "all": "InfoBoost (merge all)",
    "bands": "BP.InfoBoost (entropy bands)",
    "none": "DT.InfoBoost (merge none)",
}


def _frozen(a, dtype=None) -> np.ndarray:
    out = np.array(a, dtype=dtype, copy=True)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class Round:
    """What one round adds to the branching program (enough to route new points).

    Attributes
    ----------
    feature, threshold : the stump ``h_t(x) = +1 if x_feature > threshold else −1``.
    merge : int array (2·|L_{t−1}|,)
        New leaf of child ``2·l + (h_t = +1)`` of leaf ``l``; ``−1`` for a dropped child.
    weights : float array (|L_t|,)
        ``w[l]`` of every leaf of ``L_t``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.branching import bp_infoboost
    >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
    >>> program = list(bp_infoboost(X, y, n_rounds=1))[-1].program
    >>> r = program.rounds[0]
    >>> r.feature, r.threshold, r.merge.tolist(), r.weights.round(3).tolist()
    (0, 1.5, [0, 1], [-0.805, 0.805])
    """

    feature: int
    threshold: float
    merge: np.ndarray
    weights: np.ndarray

    @property
    def n_leaves(self) -> int:
        """Every leaf of ``L_t`` the program holds, including a ``bands`` leaf that no
        training point reaches (``BPMetrics.n_leaves`` counts only the reached ones).

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.branching import bp_infoboost
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> program = list(bp_infoboost(X, y, n_rounds=1))[-1].program
        >>> program.rounds[0].n_leaves
        2
        """
        return int(self.weights.shape[0])


@dataclass(frozen=True)
class BranchingProgram:
    """The rounds so far; ``decision_function`` routes points through every merge map.

    Attributes
    ----------
    rounds : tuple of Round
        One entry per round, in order.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.branching import bp_infoboost
    >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
    >>> program = list(bp_infoboost(X, y, n_rounds=1))[-1].program
    >>> len(program.rounds), program.predict([[0.5], [2.5]]).tolist()
    (1, [-1, 1])
    """

    rounds: tuple[Round, ...]

    def leaves(self, X: np.ndarray) -> np.ndarray:
        """Leaf of ``L_T`` reached by every row (``−1``: a child never seen in training).

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to route.

        Returns
        -------
        ndarray of intp, shape (n,)
            Leaf ids of the last round (all 0 for a program without rounds).

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.branching import bp_infoboost
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> program = list(bp_infoboost(X, y, n_rounds=1))[-1].program
        >>> program.leaves([[0.5], [2.5]]).tolist()
        [0, 1]
        """
        X = np.asarray(X, dtype=float)
        leaf = np.zeros(X.shape[0], dtype=np.intp)
        for r in self.rounds:
            leaf = _route(leaf, X[:, r.feature] > r.threshold, r.merge)
        return leaf

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """``F_T(x) = Σ_t w[ℓ_t(x)]`` (eq. (7)); a dropped child contributes 0.

        Parameters
        ----------
        X : array_like of float, shape (n, d)
            Points to score.

        Returns
        -------
        ndarray of float, shape (n,)
            ``F_T(x)`` of every row.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.branching import bp_infoboost
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> program = list(bp_infoboost(X, y, n_rounds=1))[-1].program
        >>> program.decision_function([[0.5], [2.5]]).round(3).tolist()
        [-0.805, 0.805]
        """
        X = np.asarray(X, dtype=float)
        leaf = np.zeros(X.shape[0], dtype=np.intp)
        F = np.zeros(X.shape[0])
        for r in self.rounds:
            leaf = _route(leaf, X[:, r.feature] > r.threshold, r.merge)
            F += np.where(leaf >= 0, r.weights[np.maximum(leaf, 0)], 0.0)
        return F

    def predict(self, X: np.ndarray) -> np.ndarray:
        """``sign(F_T(x))`` with ``F = 0`` predicted as −1.

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
        >>> from boostcore.branching import bp_infoboost
        >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
        >>> program = list(bp_infoboost(X, y, n_rounds=1))[-1].program
        >>> program.predict([[0.5], [2.5]]).tolist()
        [-1, 1]
        """
        return np.where(self.decision_function(X) > 0, 1, -1).astype(np.int8)


def _route(leaf: np.ndarray, right: np.ndarray, merge: np.ndarray) -> np.ndarray:
    """Next leaf: child ``2·leaf + right`` through the merge map; dead (−1) stays dead."""
    child = 2 * np.maximum(leaf, 0) + right
    return np.where(leaf >= 0, merge[child], -1)


@dataclass(frozen=True)
class BPMetrics(Metrics):
    """Measured entropies, normalisers and bounds as of round ``t`` (Takimoto, Koya & Maruoka;
    docs/theory.md §2).

    ``Z`` is the actual normaliser of eq. (9); ``H_h = H_{D_t}(Y|h_t)``, ``H_divided =
    H_{D_t}(Y|ℓ̃_t)``, ``H_leaves = H_{D_t}(Y|ℓ_t)``, ``H_next = H_{D_{t+1}}(Y|ℓ_t)`` (Lemma 3:
    1 without smoothing), ``H_uniform = H_U(Y|ℓ_t)`` (Theorem 2 for ``none``: ``= Π Z_t``),
    ``gamma = 1 − H_divided``; ``bound_prod_Z`` and ``prod_H_h`` are the products over the rounds
    so far; ``max_groups = 4K`` (Theorem 3, ``bands`` only).

    Theorem 2's floor, for every scheme: ``H_paths = H_U(Y|h_1…h_t)``, the entropy under the
    uniform distribution of the partition of the sample by the outcome sequences
    ``(h_1(x), …, h_t(x))`` (``n_paths`` cells reached), and ``H_paths_next =
    H_{D_{t+1}}(Y|h_1…h_t)``, the same partition under ``D_{t+1}``. A path of the program
    and an outcome sequence determine each other (a merge joins children of one side only),
    so Theorem 2 reads ``H_paths = Π Z_s · H_paths_next``. Its proof only uses Lemma 1, which
    holds for any leaf weights with the actual normalisers, so the identity holds with
    smoothing too; since ``H_paths_next ≤ 1``, ``Π Z_s ≥ H_paths`` for every scheme: no merging
    scheme's bound goes below the information floor of ``h_1 … h_t``. Equality needs every
    cell balanced under ``D_{t+1}``: Lemma 3 gives it when the leaves are the paths
    (``n_leaves == n_paths``: DT.InfoBoost, or any scheme at round 1) and no leaf of this
    round is smoothed. The paper's form with ``Π H_{D_s}(Y|ℓ_s)`` in place of ``Π Z_s`` needs
    no smoothing in any round: a smoothed round can put ``Π H(Y|ℓ_s)`` below the floor
    (docs/theory.md §2, "Theorem 2").

    The bounds, and where they come from:

    * ``bound_prod_Z = Π_{s≤t} Z_s`` bounds the training error of ``sign(F_t)``: Theorem 1 of
      Takimoto, Koya & Maruoka (docs/theory.md §2, "Theorem 1", through Lemma 1:
      ``Pr_U(sign F_t(x_i) ≠ y_i) ≤ Π Z_s``), for every merging scheme and also with smoothing,
      since the actual normalisers are used. ``prod_H_h = Π H_{D_s}(Y|h_s)`` is that
      theorem's last member (``≥ Π Z_s`` up to the smoothing excess, Lemma 2).
    * ``bound_theorem3 = 1 − c·γ_t`` bounds ``H_{D_t}(Y|ℓ_t)`` for the band merging, with at
      most ``max_groups = 4K`` leaves: Theorem 3 of the same paper (docs/theory.md §2,
      "Theorem 3 (the band merging scheme)"). ``None`` for ``all`` and ``none``.

    At ``t = 0`` (the initial model ``F_0 = 0``: one leaf, the root) the products are 1 (empty),
    ``H_next = H_uniform = H_U(Y)``, and what needs a round (``Z``, ``H_h``, ``H_divided``,
    ``H_leaves``, ``gamma``, ``smoothing_excess``, ``bound_theorem3``) is ``nan``;
    ``max_groups`` is ``None`` (no bands yet).

    ``n_leaves`` is ``|L_t|`` counted the same way for every scheme: the leaves at least one
    training point reaches. ``none`` drops a child no training point reaches; ``bands`` merges
    it into a band (its ``q`` counts as 1/2) and, when its group has no reached member, keeps a
    leaf of weight 0 that only unseen points can reach: ``n_unreached`` such leaves (0 for
    ``none`` and ``all``). ``n_divided`` counts the divided children reached the same way.

    Attributes
    ----------
    train_error : float
        Training error of ``sign(F_t)`` (``F = 0`` counts as −1).
    test_error : float or None
        Test error, or ``None`` without a test set.
    n_leaves, n_unreached, n_divided : int
        Leaf counts, as above.
    Z, H_h, H_divided, H_leaves, H_next, H_uniform, gamma : float
        As above.
    bound_prod_Z : float
        ``Π Z_s`` over the rounds so far: Theorem 1's bound on ``train_error``.
    prod_H_h : float
        ``Π H_{D_s}(Y|h_s)``.
    smoothing_excess : float
        What smoothing added to ``Z_t`` this round (0 without a pure leaf).
    bound_theorem3 : float or None
        ``1 − cγ_t``, Theorem 3's bound on ``H_leaves`` (``bands`` only).
    max_groups : int or None
        ``4K`` (``bands`` only, from round 1).
    H_paths, H_paths_next : float
        ``H_U(Y|h_1…h_t)`` and ``H_{D_{t+1}}(Y|h_1…h_t)`` (Theorem 2, above); at ``t = 0``
        (no stump: one cell) both are ``H_U(Y)``.
    n_paths : int
        Cells of the partition by ``(h_1(x), …, h_t(x))`` that training points reach.

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    >>> m = run[3].metrics
    >>> m.n_leaves, round(m.train_error, 4), round(m.bound_prod_Z, 4)  # error ≤ Π Z_t
    (4, 0.0533, 0.2329)
    >>> m0 = run[0].metrics  # t = 0: F_0 = 0 predicts −1 everywhere
    >>> m0.n_leaves, m0.bound_prod_Z, m0.Z, m0.as_dict()["Z"]
    (1, 1.0, nan, None)
    >>> round(m.H_paths, 4), m.n_paths  # Theorem 2's floor: Π Z_t ≥ H_U(Y|h_1…h_t)
    (0.2066, 5)
    >>> round(m.bound_prod_Z * m.H_paths_next, 4)  # Theorem 2: = H_U(Y|h_1…h_t)
    0.2066
    """

    n_leaves: int
    n_unreached: int
    n_divided: int
    Z: float
    H_h: float
    H_divided: float
    H_leaves: float
    H_next: float
    H_uniform: float
    gamma: float
    bound_prod_Z: float
    prod_H_h: float
    smoothing_excess: float
    bound_theorem3: float | None
    max_groups: int | None
    H_paths: float
    H_paths_next: float
    n_paths: int


@dataclass(frozen=True)
class Group:
    """One merged leaf of ``bands``: its key, members (child ids) and entropy under ``D_t``.

    Attributes
    ----------
    leaf : int
        Its id in ``L_t``.
    side : int
        ``a``: −1 or +1, the value of ``h_t`` on its members.
    sign : int
        −1 or +1: whether its members have ``q_z < 1/2`` or ``q_z ≥ 1/2``.
    band : int
        ``j ≥ 1``, the band of ``1 − G(q_z)``.
    children : tuple of int
        Ids of the divided children merged into it.
    mass : float
        Its weight under ``D_t``.
    entropy : float
        ``G(q)`` of the group under ``D_t`` (1 for an empty group).
    """

    leaf: int
    side: int
    sign: int
    band: int
    children: tuple[int, ...]
    mass: float
    entropy: float


@dataclass(frozen=True)
class BPStep(Step):
    """One frozen snapshot of a BP.InfoBoost run (the step protocol, :mod:`boostcore.steps`).

    ``program`` predicts as of this round; ``D`` is ``D_t`` (the weights the stump was chosen
    on) and ``D_next`` is ``D_{t+1}``; ``child_*`` describe the divided leaves ``ℓ̃_t``
    (mass and positive fraction under ``D_t``, the new leaf each went to); ``eps`` are the
    band edges ``ε_0 … ε_K`` and ``groups`` the merged leaves (``bands``).

    The ``"start"`` snapshot (``t = 0``) is the empty program (``F_0 = 0``): one leaf, the
    root, of weight 0 and mass 1; no stump, no children; ``D = D_next = D_1`` (uniform). The
    ``"stop"`` snapshot repeats the last snapshot (same ``t``, program and metrics) with
    ``stop_reason`` set.

    Attributes
    ----------
    t, kind, metrics, stop_reason, message
        As in :class:`boostcore.steps.Step`; ``metrics`` is a :class:`BPMetrics`.
    program : BranchingProgram
        The program as of this round.
    feature, threshold : int or None, float or None
        The stump ``h_t`` (``None`` at the start).
    D, D_next : ndarray of float, shape (m,)
        ``D_t`` and ``D_{t+1}``.
    child_mass, child_q : ndarray of float, shape (2·|L_{t−1}|,)
        Mass and ``q_z`` of every divided child under ``D_t`` (empty at the start).
    merge : ndarray of intp
        New leaf of every divided child (−1: dropped).
    weights, leaf_mass : ndarray of float, shape (|L_t|,)
        ``w[l]`` and the mass under ``D_t`` of every leaf.
    eps : tuple of float
        Band edges (``bands`` only).
    groups : tuple of Group
        The merged leaves (``bands`` only).
    by_policy : bool
        Whether ``h_t`` came from :func:`bp_infoboost`'s ``choose`` policy (a student) rather
        than from the weak learner (``False`` at the start and without a policy).
    algorithm_feature, algorithm_threshold : int or None, float or None
        The weak learner's stump this round — what the run plays without a policy (the same
        as ``feature, threshold`` unless ``by_policy``); ``None`` at the start, or when no
        feature has two different values.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.branching import bp_infoboost
    >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
    >>> run = list(bp_infoboost(X, y, n_rounds=1))
    >>> [(s.t, s.kind) for s in run]
    [(0, 'start'), (1, 'step'), (1, 'stop')]
    >>> run[1].details()
    {'feature': 0, 'threshold': 1.5, 'n_children': 2, 'n_bands': 5}
    >>> rec = run[1].to_record()
    >>> rec["t"], rec["kind"], rec["n_leaves"], round(rec["bound_prod_Z"], 4)
    (1, 'step', 2, 0.4472)
    >>> run[-1].stop_reason
    'All T = 1 round is done.'
    """

    program: BranchingProgram
    feature: int | None
    threshold: float | None
    D: np.ndarray
    D_next: np.ndarray
    child_mass: np.ndarray
    child_q: np.ndarray
    merge: np.ndarray
    weights: np.ndarray
    leaf_mass: np.ndarray
    eps: tuple[float, ...]
    groups: tuple[Group, ...]
    by_policy: bool = False
    algorithm_feature: int | None = None
    algorithm_threshold: float | None = None

    def details(self) -> dict[str, object]:
        """What this round did: the stump ``h_t`` (feature, threshold), the number of divided
        children and of bands ``K`` (``bands`` only).

        Returns
        -------
        dict of str to object
            ``None`` values where they do not apply (the start, another scheme).
        """
        n_child = int(self.merge.shape[0])
        return {
            "feature": self.feature,
            "threshold": self.threshold,
            "n_children": n_child if n_child else None,
            "n_bands": len(self.eps) - 1 if self.eps else None,
        }


def eps_bands(c: float, gamma: float) -> tuple[float, ...]:
    """Band edges ``ε_0 = 0, ε_1, …, ε_K`` of Theorem 3, ``K`` the first ``j`` with ``ε_j ≥ 1``.

    ``a = 2c/(1−c)`` and ``ε_j = ((1+a)/a)^(j−1) · cγ/a``. Without information (``γ ≤ 0``) a
    single band ``[0, 1]`` is returned: every child of a side and sign is merged.

    Parameters
    ----------
    c : float in (0, 1)
        Theorem 3's trade-off (not validated here).
    gamma : float
        ``γ_t = 1 − H_{D_t}(Y|ℓ̃_t)``.

    Returns
    -------
    tuple of float
        ``(ε_0, …, ε_K)``, increasing, ``ε_K ≥ 1``.

    Examples
    --------
    >>> from boostcore.branching import eps_bands
    >>> [round(e, 4) for e in eps_bands(0.5, 0.2)]
    [0.0, 0.05, 0.075, 0.1125, 0.1688, 0.2531, 0.3797, 0.5695, 0.8543, 1.2814]
    >>> eps_bands(0.5, 0.0)
    (0.0, 1.0)
    """
    if gamma <= NO_INFO:
        return (0.0, 1.0)
    a = 2.0 * c / (1.0 - c)
    eps = [0.0]
    j = 1
    while eps[-1] < 1.0:
        eps.append(((1.0 + a) / a) ** (j - 1) * c * gamma / a)
        j += 1
    return tuple(eps)


def child_q(wp: np.ndarray, wn: np.ndarray) -> np.ndarray:
    """``q_z = P_{D_t}(y = +1 | z)`` of every divided child from its masses ``W⁺_z, W⁻_z``.

    Exactly 1/2 for an empty child (Theorem 3's convention) and for a child whose ``W⁺`` and
    ``W⁻`` differ by float rounding only, ``|W⁺ − W⁻| ≤ HALF_TOL·(W⁺ + W⁻)``.

    Why: Theorem 3's rule puts ``z`` on the ``+`` side iff ``q_z ≥ 1/2`` (the paper's
    ``S_j``), so a child with ``q_z = 1/2`` is ``+``. Such children are common: Lemma 3
    balances every leaf of ``L_{t−1}`` under ``D_t``, so a leaf that ``h_t`` does not split
    has a child with ``q = 1/2``. Its ``W⁺`` and ``W⁻`` are sums of different floats and
    differ in the last bits, which sent it to ``(−, 1)`` or ``(+, 1)`` by chance (two such
    children could make two groups where the rule makes one). In the app's runs rounding
    moves ``q`` by at most ~1e−14 and genuine deviations from 1/2 are ≥ ~1e−9; the tolerance
    sits between them.

    Parameters
    ----------
    wp, wn : array_like of float
        ``W⁺_z`` and ``W⁻_z`` of every child (same shape, ``≥ 0``).

    Returns
    -------
    ndarray of float
        ``q_z`` in [0, 1], same shape.

    Examples
    --------
    >>> from boostcore.branching import child_q
    >>> child_q([0.3, 0.0, 0.2, 0.1], [0.1, 0.0, 0.2, 0.0]).round(4).tolist()
    [0.75, 0.5, 0.5, 1.0]
    """
    wp = np.asarray(wp, dtype=float)
    wn = np.asarray(wn, dtype=float)
    mass = wp + wn
    q = np.divide(wp, mass, out=np.full(mass.shape, 0.5), where=mass > 0)
    return np.where(np.abs(wp - wn) <= HALF_TOL * mass, 0.5, q)


def merge_bands(q: np.ndarray, side_of: np.ndarray, c: float, gamma: float):
    """Theorem 3's merging of the divided children: ``(new leaf of every child, band edges
    ε_0 … ε_K, the groups' keys (side 0/1, sign ±1, band j) one row per new leaf)``.

    A child ``z`` (``q`` from :func:`child_q`) joins group ``(side, sign, j)`` with ``sign =
    +1`` iff ``q_z ≥ 1/2`` and ``ε_{j−1} ≤ 1 − G(q_z) < ε_j``; ``γ = 1 − H_{D_t}(Y|ℓ̃_t)``.

    Parameters
    ----------
    q : array_like of float, shape (n,)
        ``q_z`` of every divided child.
    side_of : array_like of int, shape (n,)
        Side (0 or 1) of every child.
    c : float in (0, 1)
        Theorem 3's trade-off.
    gamma : float
        ``γ_t``.

    Returns
    -------
    merge : ndarray of intp, shape (n,)
        New leaf of every child (groups numbered in sorted key order).
    eps : tuple of float
        The band edges of :func:`eps_bands`.
    keys : ndarray of int, shape (n_groups, 3)
        ``(side, sign, band)`` of every group.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.branching import merge_bands
    >>> mmap, eps, keys = merge_bands(np.array([0.9, 0.5, 0.1, 0.6]), np.array([0, 1, 0, 1]),
    ...                               0.5, 0.2)
    >>> mmap.tolist(), keys.tolist()
    ([1, 2, 0, 2], [[0, -1, 7], [0, 1, 7], [1, 1, 1]])
    """
    q = np.asarray(q, dtype=float)
    eps = eps_bands(c, gamma)
    band = band_of(1.0 - km(q), eps)
    sign = np.where(q >= 0.5, 1, -1)
    keys = np.column_stack([np.asarray(side_of), sign, band])
    uniq, out = np.unique(keys, axis=0, return_inverse=True)
    return out.reshape(-1).astype(np.intp), eps, uniq


@dataclass(frozen=True)
class BandsAtC:
    """One round's divided children merged by Theorem 3's bands for one ``c`` (same ``D_t``,
    same ``h_t``): what the theorem bounds, and the bound.

    ``H_leaves = H_{D_t}(Y|ℓ_t)`` of the groups (``Z_t`` unless a leaf is pure and its
    weight smoothed), ``bound = 1 − cγ_t``, ``n_leaves`` the groups with positive mass under
    ``D_t`` (``|L_t|`` as the run counts it) and ``max_leaves = 4K``.

    Attributes
    ----------
    c : float
        The trade-off.
    H_leaves, bound : float
        As above; Theorem 3 says ``H_leaves ≤ bound``.
    n_leaves, max_leaves : int
        As above; Theorem 3 says ``n_leaves ≤ max_leaves``.
    """

    c: float
    H_leaves: float
    bound: float
    n_leaves: int
    max_leaves: int


def bands_for_c(child_mass: np.ndarray, q: np.ndarray, gamma: float, cs) -> tuple[BandsAtC, ...]:
    """Theorem 3 at one round for several ``c``: the divided children (mass under ``D_t``
    and ``q`` from :func:`child_q`; child ``z`` is on side ``z mod 2``) merged with each
    ``c``'s bands, with ``γ = 1 − H_{D_t}(Y|ℓ̃_t)``.

    Theorem 3 is a per-round statement: for the same ``D_t`` and children, every ``c`` gives
    ``1 − γ ≤ H_{D_t}(Y|ℓ_t) ≤ 1 − cγ`` with at most ``4K`` leaves (and ``H_{D_t}(Y|ℓ_t) ≤
    H_{D_t}(Y|h_t)``: the groups refine the sides). It says nothing of how ``H_{D_t}(Y|ℓ_t)``
    or the leaf count move with ``c``: the bands of different ``c`` are not nested, and
    either can go the "wrong" way (docs/theory.md §2).

    Parameters
    ----------
    child_mass : array_like of float, shape (n,)
        Mass of every divided child under ``D_t``.
    q : array_like of float, shape (n,)
        ``q_z`` of every child.
    gamma : float
        ``γ_t``.
    cs : iterable of float
        The values of ``c``, each in (0, 1).

    Returns
    -------
    tuple of BandsAtC
        One per ``c``, in order.

    Raises
    ------
    ValueError
        If some ``c`` is outside (0, 1).

    Examples
    --------
    >>> from boostcore.branching import bands_for_c
    >>> b = bands_for_c([0.25] * 4, [0.9, 0.5, 0.1, 0.6], 0.2, [0.25, 0.5])
    >>> [(r.c, round(r.H_leaves, 4), round(r.bound, 4), r.n_leaves, r.max_leaves) for r in b]
    [(0.25, 0.7975, 0.95, 3, 16), (0.5, 0.7975, 0.9, 3, 36)]
    """
    mass = np.asarray(child_mass, dtype=float)
    q = np.asarray(q, dtype=float)
    wp, wn = q * mass, (1.0 - q) * mass
    side_of = np.arange(mass.shape[0]) % 2
    out = []
    for c in cs:
        c = check_float("c", c, low=0.0, high=1.0, low_open=True, high_open=True)
        mmap, eps, keys = merge_bands(q, side_of, c, gamma)
        gp = np.bincount(mmap, weights=wp, minlength=keys.shape[0])
        gn = np.bincount(mmap, weights=wn, minlength=keys.shape[0])
        out.append(
            BandsAtC(
                c=c,
                H_leaves=float((2.0 * np.sqrt(gp * gn)).sum()),
                bound=1.0 - c * gamma,
                n_leaves=int(((gp + gn) > 0).sum()),
                max_leaves=4 * (len(eps) - 1),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class Lemma4Merging:
    """Mansour–McAllester's merging (Lemma 4 of Takimoto, Koya & Maruoka, their ref. [10])
    tuned to give Theorem 3's guarantee at one round, beside Theorem 3's band count.

    Lemma 4: for any ``f``, ``D`` and ``0 < λ, δ < 1`` there is a merging ``g`` with
    ``H_D(Y|g∘f) ≤ (1 + λ)H_D(Y|f) + δ`` and ``|M| = O((1/λ) log(1/δ))`` groups. With
    ``f = ℓ̃_t`` (``H = 1 − γ_t``), ``λ = (1−c)γ_t/(2(1−γ_t))`` and ``δ = (1−c)γ_t/2`` the
    bound is ``1 − cγ_t``, Theorem 3's, but with ``O((1/γ_t) ln(1/γ_t))`` groups against
    Theorem 3's ``O(ln(1/γ_t))`` (§6 of the paper). Lemma 4 is an existence statement whose
    constant the paper does not give: ``groups_order = (1/λ) ln(1/δ)`` is its group count
    *up to that constant*, not a count; Theorem 3's ``max_groups = 4K`` is a count (its
    bands are explicit), and ``theorem3_order = ln(1/((1−c)γ_t)) / ln((1+c)/(2c))`` is the
    same order-of-growth expression for it (docs/theory.md §2, "Lemma 4").

    Attributes
    ----------
    c, gamma : float
        Theorem 3's trade-off and ``γ_t = 1 − H_{D_t}(Y|ℓ̃_t)``.
    lam, delta : float
        ``λ`` and ``δ`` as above (``λ = inf`` when ``γ_t = 1``).
    bound : float
        ``(1 + λ)(1 − γ_t) + δ`` (``= 1 − cγ_t``; ``nan`` when ``λ = inf``).
    applies : bool
        ``0 < λ < 1`` (and ``0 < δ < 1``, always true here): §6's choice is in Lemma 4's
        range. ``λ < 1`` needs ``γ_t < 2/(3 − c)``. Where it is not, the lemma still gives
        the bound with other parameters: see ``delta_any``.
    delta_any : float
        ``(2 − c)γ_t − 1``: with *any* ``0 < λ < 1`` and ``0 < δ ≤ delta_any``,
        ``(1 + λ)(1 − γ_t) + δ < 2(1 − γ_t) + δ ≤ 1 − cγ_t``, so Lemma 4 gives Theorem 3's
        bound whenever ``γ_t > 1/(2 − c)`` (``delta_any > 0``) — in particular wherever §6's
        ``λ`` is ``≥ 1``, since ``2/(3 − c) > 1/(2 − c)``.
    groups_order : float
        ``(1/λ) ln(1/δ)`` (``nan`` when ``λ = inf``).
    theorem3_order : float
        ``ln(1/((1−c)γ_t)) / ln((1+c)/(2c))``.
    max_groups : int
        Theorem 3's ``4K`` at this ``c`` and ``γ_t`` (:func:`eps_bands`).
    """

    c: float
    gamma: float
    lam: float
    delta: float
    bound: float
    applies: bool
    groups_order: float
    theorem3_order: float
    max_groups: int
    delta_any: float = float("nan")


def lemma4_merging(c: float, gamma: float) -> Lemma4Merging | None:
    """Lemma 4 (Mansour–McAllester's merging) with the ``λ, δ`` of §6 of Takimoto, Koya &
    Maruoka, evaluated at one round: see :class:`Lemma4Merging`.

    Parameters
    ----------
    c : float in (0, 1)
        Theorem 3's trade-off.
    gamma : float in [0, 1]
        ``γ_t = 1 − H_{D_t}(Y|ℓ̃_t)`` (``BPMetrics.gamma``).

    Returns
    -------
    Lemma4Merging or None
        ``None`` without information (``γ_t ≤ NO_INFO``: ``λ = δ = 0``, outside the lemma).

    Raises
    ------
    ValueError
        If ``c`` is outside (0, 1) or ``gamma`` outside [0, 1] (or not a number).

    Examples
    --------
    >>> from boostcore.branching import lemma4_merging
    >>> r = lemma4_merging(0.5, 0.2)
    >>> round(r.lam, 4), round(r.delta, 4), round(r.bound, 4), r.applies  # bound = 1 − cγ
    (0.0625, 0.05, 0.9, True)
    >>> round(r.groups_order, 1), round(r.theorem3_order, 1), r.max_groups
    (47.9, 5.7, 36)
    >>> lemma4_merging(0.5, 0.0) is None
    True
    """
    c = check_float("c", c, low=0.0, high=1.0, low_open=True, high_open=True)
    gamma = check_float("gamma", gamma, low=0.0, high=1.0)
    if gamma <= NO_INFO:
        return None
    delta = (1.0 - c) * gamma / 2.0
    lam = (1.0 - c) * gamma / (2.0 * (1.0 - gamma)) if gamma < 1.0 else float("inf")
    finite = np.isfinite(lam)
    return Lemma4Merging(
        c=c,
        gamma=gamma,
        lam=lam,
        delta=delta,
        bound=(1.0 + lam) * (1.0 - gamma) + delta if finite else float("nan"),
        applies=bool(0.0 < lam < 1.0 and 0.0 < delta < 1.0),
        groups_order=float(np.log(1.0 / delta) / lam) if finite else float("nan"),
        theorem3_order=float(np.log(1.0 / ((1.0 - c) * gamma)) / np.log((1.0 + c) / (2.0 * c))),
        max_groups=4 * (len(eps_bands(c, gamma)) - 1),
        delta_any=(2.0 - c) * gamma - 1.0,
    )


def round_lemma4(metrics: BPMetrics) -> Lemma4Merging | None:
    """:func:`lemma4_merging` at a round of a ``bands`` run, from its metrics: ``γ_t`` and
    the run's ``c``, which the snapshot holds through Theorem 3's bound ``1 − cγ_t``
    (``c = (1 − bound_theorem3)/γ_t``).

    Parameters
    ----------
    metrics : BPMetrics
        A snapshot's metrics.

    Returns
    -------
    Lemma4Merging or None
        ``None`` for another scheme, round 0, or a round without information (``γ_t ≤ 0``).

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost, round_lemma4
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3, c=0.5))
    >>> r = round_lemma4(run[3].metrics)
    >>> round(r.c, 12), round(r.bound, 4), round(r.groups_order, 1), r.max_groups
    (0.5, 0.7839, 11.7, 28)
    """
    bound, gamma = metrics.bound_theorem3, metrics.gamma
    if bound is None or not (np.isfinite(bound) and np.isfinite(gamma)) or gamma <= NO_INFO:
        return None
    # float rounding of 1 − cγ must not push c out of (0, 1)
    c = min(max((1.0 - bound) / gamma, 1e-12), 1.0 - 1e-12)
    return lemma4_merging(c, min(gamma, 1.0))


def round_bands(step: BPStep, cs) -> tuple[BandsAtC, ...]:
    """:func:`bands_for_c` for the round of ``step`` (its ``D_t``, ``h_t`` and divided
    children; any merging scheme); ``()`` for the start and stop snapshots (no round).

    Parameters
    ----------
    step : BPStep
        A step of :func:`bp_infoboost`.
    cs : iterable of float
        The values of ``c``, each in (0, 1).

    Returns
    -------
    tuple of BandsAtC
        One per ``c``; empty for the ``"start"`` and ``"stop"`` snapshots.

    Raises
    ------
    ValueError
        If some ``c`` is outside (0, 1).

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost, round_bands
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    >>> [(round(b.H_leaves, 4), round(b.bound, 4), b.n_leaves) for b in round_bands(run[3], [0.5])]
    [(0.5678, 0.7839, 4)]
    >>> round_bands(run[0], [0.5]), round_bands(run[-1], [0.5])
    ((), ())
    """
    if step.kind != STEP:
        return ()
    return bands_for_c(step.child_mass, step.child_q, step.metrics.gamma, cs)


def band_of(one_minus_g: np.ndarray, eps: tuple[float, ...]) -> np.ndarray:
    """Band index ``j ≥ 1`` with ``ε_{j−1} ≤ 1 − G(q) < ε_j`` (the last band is closed at 1).

    Parameters
    ----------
    one_minus_g : array_like of float
        ``1 − G(q)`` of every child, in [0, 1].
    eps : tuple of float
        Band edges ``ε_0 … ε_K`` (from :func:`eps_bands`).

    Returns
    -------
    ndarray of int
        ``j`` in ``1 … K``, same shape.

    Examples
    --------
    >>> from boostcore.branching import band_of
    >>> band_of([0.0, 0.15, 0.5, 1.0], (0.0, 0.2, 0.6, 1.8)).tolist()
    [1, 1, 2, 3]
    """
    edges = np.asarray(eps)
    j = np.searchsorted(edges, one_minus_g, side="right")
    return np.clip(j, 1, len(eps) - 1)


#: A policy for :func:`bp_infoboost`'s ``choose``: the latest snapshot in, ``None`` (let the
#: weak learner pick) or ``(feature, threshold)`` out.
StumpPolicy = Callable[[BPStep], tuple[int, float] | None]


def bp_infoboost(
    X: np.ndarray,
    y: np.ndarray,
    *,
    n_rounds: int,
    merge: str = "bands",
    c: float = 0.5,
    weak: str = "h",
    smoothing: float | None = None,
    X_test: np.ndarray | None = None,
    y_test: np.ndarray | None = None,
    choose: StumpPolicy | None = None,
) -> Iterator[BPStep]:
    """Run BP.InfoBoost for ``n_rounds`` rounds (Takimoto–Koya–Maruoka, Fig. 4).

    Parameters
    ----------
    X : array_like of shape (m, d)
        Training features (numeric, finite).
    y : array_like of shape (m,)
        Two classes; the larger label (in sorted order) becomes +1.
    n_rounds : int
        Number of rounds ``T`` (1 … 500).
    merge : {"bands", "all", "none"}, default "bands"
        Merging scheme (see the module docstring).
    c : float in (0, 1), default 0.5
        Theorem 3's trade-off: ``H_{D_t}(Y|ℓ_t) ≤ 1 − cγ_t`` with
        ``O(log(1/((1−c)γ))/log((1+c)/(2c)))``
        groups. Used by ``bands`` only.
    weak : {"h", "divided"}, default "h"
        The stump minimising ``H_{D_t}(Y|h)`` (InfoBoost's weak learner) or the one
        minimising ``H_{D_t}(Y|ℓ̃)`` of the divided leaves (the paper's remark (1)).
    smoothing : float, optional
        ``ε`` added to both sides of a pure leaf's weight; default ``1/(2m)``.
    X_test, y_test : array_like, optional
        A test sample whose error is reported every round.
    choose : callable, optional
        A policy that may replace the weak learner ("be the weak learner"): called once per
        round ``t`` as ``choose(step)`` with the latest snapshot (round ``t − 1``: its
        ``D_next`` is ``D_t`` and its ``program`` routes to ``L_{t−1}``, exactly what
        :func:`score_stump` takes). It returns ``None`` (the weak learner picks, as without a
        policy) or ``(feature, threshold)``: the round then plays the stump
        ``h_t(x) = +1 if x_feature > threshold else −1``. The weak learner's own stump is
        still found every round and recorded (``BPStep.algorithm_feature``,
        ``algorithm_threshold``); ``BPStep.by_policy`` says whose stump was played. A
        policy's stump is played even when it brings no information (``H_{D_t}(Y|h_t) = 1``:
        ``Z_t ≤ 1`` still, Theorem 1 still holds); the run stops for "no information" only
        when the weak learner's stump has none. Default: no policy.

    Yields
    ------
    BPStep
        ``"start"`` (``t = 0``, ``F_0 = 0``), then one ``"step"`` per round ``t = 1 … T``,
        then ``"stop"``, which repeats the last snapshot and says why the run ended (all
        rounds done, or why no further round was possible).

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter (the message names it); during the
        run, if ``choose`` returns something other than ``None`` or a valid
        ``(feature, threshold)`` (the message says what it returned).

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    >>> [(s.t, s.kind) for s in run]
    [(0, 'start'), (1, 'step'), (2, 'step'), (3, 'step'), (3, 'stop')]
    >>> m = run[-1].metrics
    >>> m.n_leaves, round(m.train_error, 4), round(m.bound_prod_Z, 4)  # error ≤ Π Z_t
    (4, 0.0533, 0.2329)
    >>> run[-1].stop_reason
    'All T = 3 rounds are done.'
    >>> run[0].message[:40]
    'Round 0: the initial model F_0 = 0, befo'
    >>> next(bp_infoboost(ds.X_train, ds.y_train, n_rounds=0))
    Traceback (most recent call last):
        ...
    ValueError: n_rounds must be between 1 and 500; got 0

    A student plays round 2 (the stump ``x1 > 0``); the weak learner plays the others:

    >>> mine = {2: (0, 0.0)}
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3,
    ...                         choose=lambda step: mine.get(step.t + 1)))
    >>> [(s.feature, s.by_policy) for s in run[1:4]]
    [(1, False), (0, True), (1, False)]
    >>> run[2].algorithm_feature, round(run[2].algorithm_threshold, 3)  # InfoBoost's h_2
    (1, -0.356)
    >>> m = run[-1].metrics
    >>> round(m.train_error, 4), round(m.bound_prod_Z, 4)  # still error ≤ Π Z_t
    (0.1333, 0.352)
    """
    Xv, yv, _, classes = check_xy(X, y)
    n_rounds = check_int("n_rounds", n_rounds, low=1, high=500)
    merge, c, weak, eps_smooth = _check_settings(merge, c, weak, smoothing, Xv.shape[0])
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    if choose is not None and not callable(choose):
        raise ValueError(
            "choose must be None or a callable (step) -> None or (feature, threshold); "
            f"got {choose!r}"
        )
    return _run(Xv, yv, n_rounds, merge, c, weak, eps_smooth, Xt, yt, choose)


def _check_settings(merge, c, weak, smoothing, m: int) -> tuple[str, float, str, float]:
    """The run's settings, checked as :func:`bp_infoboost` checks them; ``ε`` of smoothing."""
    merge = check_choice("merge", merge, MERGES)
    c = check_float("c", c, low=0.0, high=1.0, low_open=True, high_open=True)
    weak = check_choice("weak", weak, WEAK_LEARNERS)
    eps_smooth = (
        1.0 / (2 * m)
        if smoothing is None
        else check_float("smoothing", smoothing, low=0.0, low_open=True)
    )
    return merge, c, weak, eps_smooth


def _merge_map(merge, reached, q, side_of, c, gamma):
    """New leaf of every divided child; band edges and groups for ``bands``."""
    n_child = reached.shape[0]
    if merge == "all":
        return side_of.astype(np.intp), (), None
    if merge == "none":
        out = np.full(n_child, -1, dtype=np.intp)
        out[reached] = np.arange(int(reached.sum()))
        return out, (), None
    return merge_bands(q, side_of, c, gamma)


# --------------------------------------------------------------------------- one round
# A round is split into the weak learner's choice, "divide" and "merge + update" (Fig. 4),
# each one function that both the run (_run) and the student's scoring (score_stump) call:
# the two can then never disagree on a number.


def _weak_choice(X, y, D, order, leaf, weak) -> tuple[int, float] | None:
    """The weak learner's stump ``(feature, threshold)`` under ``D_t``, or ``None`` when no
    feature has two different values (Fig. 4, ``h_t ← WL(S, D_t)``; remark (1) for
    ``divided``)."""
    if weak == "h":
        s = best_stump(X, y, D, order.T, km)
        return None if s is None else (s.feature, s.thresholds[0])
    r = best_stump_on_partition(X, y, D, order, leaf)
    return None if r is None else (r[0], r[1])


@dataclass(frozen=True)
class _Divided:
    """The stump ``h_t`` and the divided children ``ℓ̃_t`` of ``L_{t−1}`` under ``D_t``."""

    feature: int
    threshold: float
    H_h: float
    right: np.ndarray  # h_t(x_i) = +1 for every example
    child: np.ndarray  # child 2·ℓ_{t−1}(x_i) + [h_t(x_i) = +1] of every example
    cwp: np.ndarray
    cwn: np.ndarray
    creached: np.ndarray
    q: np.ndarray
    H_div: float

    @property
    def n_divided(self) -> int:
        return int(self.creached.sum())


def _divide(X, y, D, leaf, n_leaves, f, theta) -> _Divided:
    """Fig. 4's "divide": every leaf ``l`` of ``L_{t−1}`` gets the children ``(l, ±1)``."""
    pos = y > 0
    right = X[:, f] > theta
    H_h = partition_entropy(y, D, right.astype(np.intp), 2)
    child = 2 * leaf + right
    n_child = 2 * n_leaves
    cwp = np.bincount(child, weights=np.where(pos, D, 0.0), minlength=n_child)
    cwn = np.bincount(child, weights=np.where(pos, 0.0, D), minlength=n_child)
    # reached by a training point (not "positive mass": D_t may underflow to 0)
    creached = np.bincount(child, minlength=n_child) > 0
    return _Divided(
        feature=int(f),
        threshold=float(theta),
        H_h=H_h,
        right=right,
        child=child,
        cwp=cwp,
        cwn=cwn,
        creached=creached,
        q=child_q(cwp, cwn),
        H_div=float((2.0 * np.sqrt(cwp * cwn)).sum()),
    )


@dataclass(frozen=True)
class _Merged:
    """The merged leaves ``L_t``, their weights (eq. (8)) and the update (eq. (9))."""

    mmap: np.ndarray
    eps: tuple[float, ...]
    keys: np.ndarray | None
    new_leaf: np.ndarray
    n_new: int
    n_reached: int
    lwp: np.ndarray
    lwn: np.ndarray
    w: np.ndarray
    H_leaves: float
    excess: float
    Z: float
    D_next: np.ndarray


def _merge_update(div: _Divided, y, D, merge, c, eps_smooth) -> _Merged:
    """Fig. 4's "merge", the leaf weights ``w[l]`` (eq. (8), smoothed only where a leaf is
    pure) and ``D_{t+1}`` with the actual normaliser ``Z_t`` (eq. (9))."""
    pos = y > 0
    n_child = div.cwp.shape[0]
    side_of = np.arange(n_child) % 2
    mmap, eps, keys = _merge_map(merge, div.creached, div.q, side_of, c, 1.0 - div.H_div)
    new_leaf = mmap[div.child]
    n_new = int(mmap.max()) + 1
    # |L_t| counts the leaves a training point reaches, for every scheme (BPMetrics)
    n_reached = int((np.bincount(new_leaf, minlength=n_new) > 0).sum())
    lwp = np.bincount(new_leaf, weights=np.where(pos, D, 0.0), minlength=n_new)
    lwn = np.bincount(new_leaf, weights=np.where(pos, 0.0, D), minlength=n_new)
    smooth = (lwp <= 0) | (lwn <= 0)
    e = np.where(smooth, eps_smooth, 0.0)
    with np.errstate(divide="ignore"):
        w = 0.5 * np.log((lwp + e) / (lwn + e))
    w = np.where((lwp + lwn) > 0, w, 0.0)
    # what smoothing adds to Z: each smoothed leaf contributes W⁺e^{−w} + W⁻e^{w}
    # instead of its entropy share 2·sqrt(W⁺W⁻) (= 0 for a pure leaf)
    excess = float(
        np.sum(np.where(smooth, lwp * np.exp(-w) + lwn * np.exp(w) - 2.0 * np.sqrt(lwp * lwn), 0.0))
    )
    unnorm = D * np.exp(-w[new_leaf] * y)
    Z = float(unnorm.sum())
    return _Merged(
        mmap=mmap,
        eps=tuple(eps),
        keys=keys,
        new_leaf=new_leaf,
        n_new=n_new,
        n_reached=n_reached,
        lwp=lwp,
        lwn=lwn,
        w=w,
        H_leaves=float((2.0 * np.sqrt(lwp * lwn)).sum()),
        excess=excess,
        Z=Z,
        D_next=unnorm / Z,
    )


def _groups(merge: str, mer: _Merged) -> tuple[Group, ...]:
    """The merged leaves of ``bands`` with their keys (empty for the other schemes)."""
    if merge != "bands":
        return ()
    lwp, lwn, keys = mer.lwp, mer.lwn, mer.keys
    return tuple(
        Group(
            leaf=g,
            side=int(2 * keys[g, 0] - 1),
            sign=int(keys[g, 1]),
            band=int(keys[g, 2]),
            children=tuple(int(z) for z in np.flatnonzero(mer.mmap == g)),
            mass=float(lwp[g] + lwn[g]),
            entropy=float(km(lwp[g] / (lwp[g] + lwn[g]))) if lwp[g] + lwn[g] > 0 else 1.0,
        )
        for g in range(mer.n_new)
    )


def next_paths(path: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, int]:
    """The cell of every example in the partition by ``(h_1(x), …, h_t(x))``, from its cell by
    ``(h_1(x), …, h_{t−1}(x))`` and ``h_t(x)``; cells are numbered ``0 … n − 1`` in sorted
    order of ``2·path + [h_t = +1]``, and only the reached ones are kept.

    Theorem 2 of Takimoto, Koya & Maruoka compares ``Π Z_t`` with ``H_U(Y|h_1…h_t)``, the
    entropy of this partition (docs/theory.md §2): every scheme's program refines it by the
    same outcome sequences, whatever it merges.

    Parameters
    ----------
    path : ndarray of int, shape (m,)
        Cell ids ``≥ 0`` after round ``t − 1`` (all 0 before round 1).
    right : ndarray of bool, shape (m,)
        ``h_t(x_i) = +1``.

    Returns
    -------
    cells : ndarray of intp, shape (m,)
        Cell ids after round ``t``.
    n_cells : int
        Their number.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.branching import next_paths
    >>> cells, n = next_paths(np.array([0, 0, 1, 1]), np.array([False, True, True, True]))
    >>> cells.tolist(), n
    ([0, 1, 2, 2], 3)
    """
    ids, cells = np.unique(2 * np.asarray(path, dtype=np.intp) + right, return_inverse=True)
    return cells.reshape(-1).astype(np.intp), int(ids.shape[0])


def _paths_of(program: BranchingProgram, X: np.ndarray) -> tuple[np.ndarray, int]:
    """The cells of :func:`next_paths` after the program's last round (as the run numbers
    them)."""
    path, n = np.zeros(X.shape[0], dtype=np.intp), 1
    for r in program.rounds:
        path, n = next_paths(path, X[:, r.feature] > r.threshold)
    return path, n


def _round_metrics(
    y, U, div: _Divided, mer: _Merged, F, prod_Z, prod_H, merge, c, test_error, paths
) -> BPMetrics:
    """The snapshot's metrics after the round (``F`` is ``F_t``; the products include it;
    ``paths`` is :func:`next_paths` after this round)."""
    gamma = 1.0 - div.H_div
    path, n_paths = paths
    bands = merge == "bands"
    return BPMetrics(
        train_error=_error(F, y),
        test_error=test_error,
        n_leaves=mer.n_reached,
        n_unreached=mer.n_new - mer.n_reached,
        n_divided=div.n_divided,
        Z=mer.Z,
        H_h=div.H_h,
        H_divided=div.H_div,
        H_leaves=mer.H_leaves,
        H_next=partition_entropy(y, mer.D_next, mer.new_leaf, mer.n_new),
        H_uniform=partition_entropy(y, U, mer.new_leaf, mer.n_new),
        gamma=gamma,
        bound_prod_Z=prod_Z,
        prod_H_h=prod_H,
        smoothing_excess=mer.excess,
        bound_theorem3=1.0 - c * gamma if bands else None,
        max_groups=4 * (len(mer.eps) - 1) if bands else None,
        # Theorem 2's two sides (the floor H_U(Y|h_1…h_t) and H_{D_{t+1}} of the same cells)
        H_paths=partition_entropy(y, U, path, n_paths),
        H_paths_next=partition_entropy(y, mer.D_next, path, n_paths),
        n_paths=n_paths,
    )


def _ask_policy(choose, last: BPStep, d: int) -> tuple[int, float] | None:
    """The policy's stump for the round after ``last``, checked (``None``: the weak learner)."""
    out = choose(last)
    if out is None:
        return None
    if isinstance(out, str | bytes) or not hasattr(out, "__len__") or len(out) != 2:
        raise ValueError(
            f"choose must return None or (feature, threshold); for round {last.t + 1} it "
            f"returned {out!r}"
        )
    f, theta = out
    f = check_int("the feature choose returned", f, low=0, high=d - 1)
    theta = check_float("the threshold choose returned", theta)
    return f, theta


def _stump_text(f: int, theta: float) -> str:
    return f"[x{f + 1} > {theta:.3g}]"


def _none_reach(k: int, also: str = "") -> str:
    """The words a round's message (and the /branching page) name ``k`` leaves or children
    with that no training point reaches (``also`` added inside): ``""`` for none."""
    return f" (+{k} that no training point reaches{also})" if k else ""


def _run(X, y, n_rounds, merge, c, weak, eps_smooth, Xt, yt, choose=None):
    m, d = X.shape
    order = presort(X)
    D = np.full(m, 1.0 / m)
    U = D.copy()
    leaf = np.zeros(m, dtype=np.intp)
    paths = (np.zeros(m, dtype=np.intp), 1)  # the cells of (h_1(x), …, h_t(x)): Theorem 2
    n_leaves = prev_reached = 1
    F = np.zeros(m)
    leaf_t = None if Xt is None else np.zeros(Xt.shape[0], dtype=np.intp)
    F_t = None if Xt is None else np.zeros(Xt.shape[0])
    rounds: list[Round] = []
    prod_Z = prod_H = 1.0
    last = _start(y, yt, D, merge)
    yield last
    for t in range(1, n_rounds + 1):
        # -- weak learner (or the policy) ------------------------------------------------------
        found = _weak_choice(X, y, D, order, leaf, weak)
        picked = None if choose is None else _ask_policy(choose, last, d)
        if picked is None and found is None:
            yield _stop(
                last,
                "No feature has two different values: no stump can "
                "split the sample, so there is no weak hypothesis.",
            )
            return
        f, theta = found if picked is None else picked
        div = _divide(X, y, D, leaf, n_leaves, f, theta)
        # a policy's uninformative stump is still a legal round (Z_t ≤ 1); only the weak
        # learner's means that no stump can help, i.e. that boosting is stuck. The test is on
        # what the learner minimises: H(Y|h_t) for "h"; H(Y|ℓ̃_t) for "divided" (remark (1)),
        # whose stump may tell nothing alone (H(Y|h_t) = 1) yet divide the leaves into
        # informative children (an XOR), so that Z_t = H(Y|ℓ_t) < 1 still
        objective = div.H_h if weak == "h" else div.H_div
        if picked is None and objective >= 1.0 - NO_INFO:
            what = "H(Y|h)" if weak == "h" else "H(Y|ℓ̃), the divided leaves' entropy,"
            yield _stop(
                last,
                f"The best stump brings no information under D_{t} "
                f"({what} = {objective:.6f} = 1): boosting cannot make progress.",
            )
            return
        if merge == "none" and div.n_divided > MAX_LEAVES:
            yield _stop(
                last,
                f"DT.InfoBoost would hold more than {MAX_LEAVES} leaves "
                "after this round: the tree doubles every round, so it stops here.",
            )
            return
        # -- merge and update ------------------------------------------------------------------
        mer = _merge_update(div, y, D, merge, c, eps_smooth)
        F += mer.w[mer.new_leaf]
        prod_Z *= mer.Z
        prod_H *= div.H_h
        test_error = None
        mmap_f = _frozen(mer.mmap, np.intp)
        w_f = _frozen(mer.w)
        rounds.append(Round(feature=int(f), threshold=float(theta), merge=mmap_f, weights=w_f))
        if Xt is not None:
            leaf_t = _route(leaf_t, Xt[:, f] > theta, mer.mmap)
            F_t += np.where(leaf_t >= 0, mer.w[np.maximum(leaf_t, 0)], 0.0)
            test_error = float(np.mean(np.where(F_t > 0, 1, -1) != yt)) if yt.size else None
        paths = next_paths(paths[0], div.right)
        metrics = _round_metrics(y, U, div, mer, F, prod_Z, prod_H, merge, c, test_error, paths)
        n_new, n_reached, n_divided = mer.n_new, mer.n_reached, div.n_divided
        # one count per thing, named as the page's program note and quiz name it (issue 25,
        # 8): "N leaves" are those training points reach, the others are "(+k that no
        # training point reaches)"; children too (``none`` drops those, the others keep them)
        n_empty = 2 * n_leaves - n_divided
        dropped = ", dropped" if n_empty and int((mmap_f < 0).sum()) == n_empty else ""
        before = _none_reach(n_leaves - prev_reached)
        children = f" that training points reach{_none_reach(n_empty, dropped)}" if n_empty else ""
        unreached = _none_reach(n_new - n_reached)
        whose = ""
        if picked is not None:
            theirs = "has no stump" if found is None else f"would play {_stump_text(*found)}"
            whose = f" (chosen by the policy; the weak learner {theirs})"
        last = BPStep(
            t=t,
            kind=STEP,
            program=BranchingProgram(tuple(rounds)),
            feature=int(f),
            threshold=float(theta),
            D=_frozen(D),
            D_next=_frozen(mer.D_next),
            child_mass=_frozen(div.cwp + div.cwn),
            child_q=_frozen(div.q),
            merge=mmap_f,
            weights=w_f,
            leaf_mass=_frozen(mer.lwp + mer.lwn),
            eps=mer.eps,
            groups=_groups(merge, mer),
            by_policy=picked is not None,
            algorithm_feature=None if found is None else int(found[0]),
            algorithm_threshold=None if found is None else float(found[1]),
            metrics=metrics,
            message=(
                f"Round {t}: h_{t} = {_stump_text(f, theta)}{whose} divides {prev_reached} "
                f"{'leaf' if prev_reached == 1 else 'leaves'}{before} into {n_divided} "
                f"{'child' if n_divided == 1 else 'children'}{children}, merged into "
                f"{n_reached} {'leaf' if n_reached == 1 else 'leaves'}{unreached}; "
                f"Z = {mer.Z:.4f}, H(Y|h) = {div.H_h:.4f}, H(Y|ℓ̃) = {div.H_div:.4f}."
            ),
        )
        yield last
        D, leaf, n_leaves, prev_reached = mer.D_next, mer.new_leaf, n_new, n_reached
    rounds_done = "round is" if n_rounds == 1 else "rounds are"
    yield _stop(last, f"All T = {n_rounds} {rounds_done} done.")


# --------------------------------------------------------------------------- be the weak learner
@dataclass(frozen=True)
class StumpScore:
    """One stump ``h_t`` played at one round: what the round's snapshot would record.

    Computed by the same functions as :func:`bp_infoboost`'s rounds (Takimoto, Koya &
    Maruoka, Fig. 4: divide, merge, eq. (8) weights, eq. (9) update), so the algorithm's own
    stump scores exactly as its snapshot says. The divided children ``ℓ̃_t`` are numbered as
    in :class:`BPStep`: child ``z = 2·l + s`` of leaf ``l`` of ``L_{t−1}``, ``s = 1`` on the
    side ``h_t = +1`` (``x_feature > threshold``), ``s = 0`` on the side ``x ≤ threshold``.

    Attributes
    ----------
    feature, threshold : int, float
        The stump ``h_t(x) = +1 if x_feature > threshold else −1``.
    metrics : BPMetrics
        What the round's snapshot would record (``test_error`` is ``None``): ``H_h``,
        ``H_divided``, ``H_leaves``, ``Z``, ``bound_prod_Z = Π_{s≤t} Z_s``, ``train_error``
        of ``sign(F_t)``, ``gamma``, ``n_leaves``, ``bound_theorem3``, …
    child_mass, child_q : ndarray of float, shape (2·|L_{t−1}|,)
        Mass under ``D_t`` and positive fraction ``q_z`` of every divided child.
    child_reached : ndarray of bool, shape (2·|L_{t−1}|,)
        Whether a training point reaches the child.
    merge : ndarray of intp, shape (2·|L_{t−1}|,)
        The leaf of ``L_t`` every child is merged into (−1: dropped, ``none`` only).
    weights, leaf_mass : ndarray of float, shape (|L_t|,)
        ``w[l]`` (eq. (8)) and mass under ``D_t`` of every merged leaf.
    eps : tuple of float
        Band edges ``ε_0 … ε_K`` (``bands`` only).
    groups : tuple of Group
        The bands' merged leaves (``bands`` only).
    D_next : ndarray of float, shape (m,)
        ``D_{t+1}``.

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost, score_stump
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> start = next(bp_infoboost(ds.X_train, ds.y_train, n_rounds=1))
    >>> s = score_stump(ds.X_train, ds.y_train, start, 0, 0.0).yours
    >>> round(s.H_h, 4), round(s.Z, 4), s.merge.tolist()  # one leaf divided: 2 children
    (0.9105, 0.9105, [0, 1])
    >>> s.child_mass.round(3).tolist(), s.child_q.round(3).tolist()  # x1 ≤ 0, x1 > 0
    ([0.493, 0.507], [0.297, 0.711])
    """

    feature: int
    threshold: float
    metrics: BPMetrics
    child_mass: np.ndarray
    child_q: np.ndarray
    child_reached: np.ndarray
    merge: np.ndarray
    weights: np.ndarray
    leaf_mass: np.ndarray
    eps: tuple[float, ...]
    groups: tuple[Group, ...]
    D_next: np.ndarray

    @property
    def H_h(self) -> float:
        """``H_{D_t}(Y|h_t)``: the stump's conditional entropy, what InfoBoost's weak learner
        minimises (Lemma 2's right member)."""
        return self.metrics.H_h

    @property
    def H_divided(self) -> float:
        """``H_{D_t}(Y|ℓ̃_t)`` of the divided children (what ``weak="divided"`` minimises)."""
        return self.metrics.H_divided

    @property
    def H_leaves(self) -> float:
        """``H_{D_t}(Y|ℓ_t)`` of the merged leaves (Lemma 2: ``= Z_t`` without smoothing)."""
        return self.metrics.H_leaves

    @property
    def Z(self) -> float:
        """``Z_t``, the actual normaliser of eq. (9)."""
        return self.metrics.Z

    @property
    def prod_Z(self) -> float:
        """``Π_{s≤t} Z_s``: Theorem 1's bound on the training error after this round."""
        return self.metrics.bound_prod_Z

    @property
    def train_error(self) -> float:
        """Training error of ``sign(F_t)`` after this round."""
        return self.metrics.train_error

    @property
    def no_information(self) -> bool:
        """``H_{D_t}(Y|h_t) = 1`` (up to ``NO_INFO``): the stump says nothing about ``y``
        under ``D_t`` (a run stops when its weak learner's best stump is like this)."""
        return self.metrics.H_h >= 1.0 - NO_INFO

    def objective(self, weak: str) -> float:
        """What the weak learner ``weak`` minimises: ``H_h`` for ``"h"``, ``H_divided`` for
        ``"divided"``.

        Parameters
        ----------
        weak : {"h", "divided"}

        Returns
        -------
        float

        Raises
        ------
        ValueError
            If ``weak`` is not one of :data:`WEAK_LEARNERS`.
        """
        weak = check_choice("weak", weak, WEAK_LEARNERS)
        return self.metrics.H_h if weak == "h" else self.metrics.H_divided

    def divided_leaves(self) -> list[dict[str, object]]:
        """One row per divided child reached by a training point, for a table.

        Returns
        -------
        list of dict
            ``child`` (its id ``z``), ``leaf`` (its leaf of ``L_{t−1}``), ``side`` (``h_t``
            on it: −1 or +1), ``mass``, ``q`` and ``new_leaf`` (its leaf of ``L_t``).

        Examples
        --------
        >>> from boostcore.branching import bp_infoboost, score_stump
        >>> from boostcore.datasets import make_dataset
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> start = next(bp_infoboost(ds.X_train, ds.y_train, n_rounds=1))
        >>> row = score_stump(ds.X_train, ds.y_train, start, 0, 0.0).yours.divided_leaves()[1]
        >>> row["leaf"], row["side"], round(row["mass"], 3), round(row["q"], 3), row["new_leaf"]
        (0, 1, 0.507, 0.711, 1)
        """
        return [
            {
                "child": int(z),
                "leaf": int(z) // 2,
                "side": 1 if z % 2 else -1,
                "mass": float(self.child_mass[z]),
                "q": float(self.child_q[z]),
                "new_leaf": int(self.merge[z]),
            }
            for z in np.flatnonzero(self.child_reached)
        ]


@dataclass(frozen=True)
class RoundScore:
    """A student's stump for round ``t`` next to the weak learner's (:func:`score_stump`).

    Attributes
    ----------
    t : int
        The round scored (the snapshot's ``t`` + 1).
    weak : {"h", "divided"}
        The weak learner compared with (what it minimises: :meth:`StumpScore.objective`).
    yours : StumpScore
        The student's stump.
    algorithm : StumpScore or None
        The weak learner's stump at this round (what the run plays without a policy);
        ``None`` when no feature has two different values or with ``compare=False``.
    """

    t: int
    weak: str
    yours: StumpScore
    algorithm: StumpScore | None

    @property
    def same_partition(self) -> bool:
        """Whether both stumps split the training sample the same way (then every number
        agrees)."""
        a = self.algorithm
        return a is not None and np.array_equal(a.child_mass, self.yours.child_mass)


def score_stump(
    X: np.ndarray,
    y: np.ndarray,
    step: BPStep,
    feature: int,
    threshold: float,
    *,
    merge: str = "bands",
    c: float = 0.5,
    weak: str = "h",
    smoothing: float | None = None,
    compare: bool = True,
) -> RoundScore:
    """Score a stump ``h_t`` for the round after ``step`` exactly as :func:`bp_infoboost`
    would play it ("be the weak learner"; Takimoto, Koya & Maruoka, Fig. 4).

    ``step`` is a snapshot of a run of :func:`bp_infoboost` on ``X, y`` with the same
    ``merge``, ``c``, ``weak`` and ``smoothing`` (round ``t − 1``: its ``D_next`` is ``D_t``,
    its ``program`` routes to ``L_{t−1}``). The stump divides ``L_{t−1}``, the scheme merges
    the children, and the round's weights, ``Z_t`` and ``D_{t+1}`` follow — through the same
    functions as the run's rounds, so ``score_stump(X, y, run[t − 1], run[t].feature,
    run[t].threshold).yours.metrics`` is ``run[t].metrics`` (test error apart). The weak
    learner's own stump for that round is scored the same way (``algorithm``).

    Parameters
    ----------
    X : array_like of shape (m, d)
        The run's training features.
    y : array_like of shape (m,)
        The run's labels.
    step : BPStep
        A snapshot of the run: the round before the one scored (any kind; a ``"stop"``
        snapshot scores one round past the run's end).
    feature : int
        The stump's feature, ``0 ≤ feature < d``.
    threshold : float
        The stump's threshold: ``x_feature ≤ threshold`` is the side ``h_t = −1``. Any finite
        value (beyond the data, the stump is a constant).
    merge, c, weak, smoothing
        The run's settings, as in :func:`bp_infoboost`.
    compare : bool, default True
        Also find and score the weak learner's stump (``False`` skips it, for speed).

    Returns
    -------
    RoundScore
        ``yours`` and ``algorithm`` (:class:`StumpScore`).

    Raises
    ------
    ValueError
        If a parameter is invalid or ``step`` is not a snapshot of a run on ``X`` with this
        ``merge`` (the message names the parameter, the rule and the value).

    Examples
    --------
    >>> from boostcore.branching import bp_infoboost, score_stump
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    >>> r = score_stump(ds.X_train, ds.y_train, run[1], 0, 0.0)  # a student's h_2: x1 > 0
    >>> r.t, (r.algorithm.feature, round(r.algorithm.threshold, 3))
    (2, (1, -0.356))
    >>> round(r.yours.H_h, 4), round(r.algorithm.H_h, 4)  # InfoBoost's is the argmin
    (0.9391, 0.626)
    >>> round(r.yours.Z, 4), round(r.algorithm.Z, 4)  # Z_t = H(Y|ℓ_t)
    (0.8989, 0.6401)
    >>> round(r.yours.prod_Z, 4), round(r.algorithm.prod_Z, 4)  # Theorem 1's bound
    (0.5109, 0.3638)
    >>> r.algorithm.metrics == run[2].metrics
    True
    >>> score_stump(ds.X_train, ds.y_train, run[1], 2, 0.0)
    Traceback (most recent call last):
        ...
    ValueError: feature must be between 0 and 1; got 2
    """
    Xv, yv, _, _ = check_xy(X, y)
    m, d = Xv.shape
    merge, c, weak, eps_smooth = _check_settings(merge, c, weak, smoothing, m)
    _check_snapshot(step, Xv, merge)
    feature = check_int("feature", feature, low=0, high=d - 1)
    threshold = check_float("threshold", threshold)
    D = np.asarray(step.D_next)
    leaf = step.program.leaves(Xv)
    n_leaves = int(step.weights.shape[0])
    F = step.program.decision_function(Xv)
    path = _paths_of(step.program, Xv)[0]
    state = (D, leaf, n_leaves, F, step.metrics.bound_prod_Z, step.metrics.prod_H_h, path)
    yours = _score(Xv, yv, state, feature, threshold, merge, c, eps_smooth)
    algorithm = None
    if compare:
        found = _weak_choice(Xv, yv, D, presort(Xv), leaf, weak)
        if found is not None:
            algorithm = _score(Xv, yv, state, *found, merge, c, eps_smooth)
    return RoundScore(t=step.t + 1, weak=weak, yours=yours, algorithm=algorithm)


def _check_snapshot(step: object, X: np.ndarray, merge: str) -> None:
    """``step`` must be a :class:`BPStep` of a run on ``X`` with the scheme ``merge``."""
    if not isinstance(step, BPStep):
        raise ValueError(
            f"step must be a BPStep snapshot of bp_infoboost; got {type(step).__name__}"
        )
    m, d = X.shape
    if step.D_next.shape != (m,):
        raise ValueError(
            f"step must be a snapshot of a run on X: its D_t has {step.D_next.shape[0]} "
            f"weights, X has {m} rows"
        )
    used = [r.feature for r in step.program.rounds if r.feature >= d]
    if used:
        raise ValueError(
            f"step must be a snapshot of a run on X: its program uses feature {used[0]}, "
            f"X has {d} columns"
        )
    if step.kind != START and bool(step.eps) != (merge == "bands"):
        scheme = "'bands'" if step.eps else "'all' or 'none'"
        raise ValueError(
            f"merge must be the run's scheme: step comes from a {scheme} run; got {merge!r}"
        )


def _score(X, y, state, f, theta, merge, c, eps_smooth) -> StumpScore:
    """The round after the state ``(D_t, ℓ_{t−1}, |L_{t−1}|, F_{t−1}, Π Z, Π H, cells of
    h_1…h_{t−1})`` with the stump ``(f, θ)``: the run's own functions, without changing the
    state."""
    D, leaf, n_leaves, F, prod_Z, prod_H, path = state
    div = _divide(X, y, D, leaf, n_leaves, f, theta)
    mer = _merge_update(div, y, D, merge, c, eps_smooth)
    U = np.full(X.shape[0], 1.0 / X.shape[0])
    metrics = _round_metrics(
        y,
        U,
        div,
        mer,
        F + mer.w[mer.new_leaf],
        prod_Z * mer.Z,
        prod_H * div.H_h,
        merge,
        c,
        None,
        next_paths(path, div.right),
    )
    return StumpScore(
        feature=div.feature,
        threshold=div.threshold,
        metrics=metrics,
        child_mass=_frozen(div.cwp + div.cwn),
        child_q=_frozen(div.q),
        child_reached=_frozen(div.creached),
        merge=_frozen(mer.mmap, np.intp),
        weights=_frozen(mer.w),
        leaf_mass=_frozen(mer.lwp + mer.lwn),
        eps=mer.eps,
        groups=_groups(merge, mer),
        D_next=_frozen(mer.D_next),
    )


def _error(F: np.ndarray, y: np.ndarray) -> float:
    """Error of ``sign(F)`` (``F = 0`` counts as −1) on labels ``y`` in {−1, +1}."""
    return float(np.mean(np.where(F > 0, 1, -1) != y))


def _start(y: np.ndarray, yt: np.ndarray | None, D: np.ndarray, merge: str) -> BPStep:
    """The ``"start"`` snapshot: the empty program ``F_0 = 0`` (one leaf, the root)."""
    nan = float("nan")
    H_root = partition_entropy(y, D, np.zeros(y.shape[0], dtype=np.intp), 1)
    test_error = _error(np.zeros(yt.shape[0]), yt) if yt is not None and yt.size else None
    metrics = BPMetrics(
        train_error=_error(np.zeros(y.shape[0]), y),
        test_error=test_error,
        n_leaves=1,
        n_unreached=0,
        n_divided=0,
        Z=nan,
        H_h=nan,
        H_divided=nan,
        H_leaves=nan,
        H_next=H_root,
        H_uniform=H_root,
        gamma=nan,
        bound_prod_Z=1.0,
        prod_H_h=1.0,
        smoothing_excess=nan,
        bound_theorem3=nan if merge == "bands" else None,
        max_groups=None,
        H_paths=H_root,
        H_paths_next=H_root,
        n_paths=1,
    )
    empty = _frozen(np.zeros(0))
    return BPStep(
        t=0,
        kind=START,
        program=BranchingProgram(()),
        feature=None,
        threshold=None,
        D=_frozen(D),
        D_next=_frozen(D),
        child_mass=empty,
        child_q=empty,
        merge=_frozen(np.zeros(0, dtype=np.intp)),
        weights=_frozen(np.zeros(1)),
        leaf_mass=_frozen(np.ones(1)),
        eps=(),
        groups=(),
        metrics=metrics,
        message="Round 0: the initial model F_0 = 0, before any weak learner, predicts −1 "
        f"everywhere (training error {metrics.train_error:.3f}).",
    )


def _stop(last: BPStep, reason: str) -> BPStep:
    """The ``"stop"`` snapshot: ``last`` again (same round, program and metrics), and why."""
    return replace(
        last, kind=STOP, stop_reason=reason, message=f"The run ends after round {last.t}. {reason}"
    )
