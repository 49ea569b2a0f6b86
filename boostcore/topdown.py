"""Top-down decision-tree growth as boosting: TOPDOWN, TOPDOWN-M and Mansour–McAllester.

One generator, :func:`grow`, runs the three algorithms of docs/theory.md §1:

* Kearns–Mansour's TOPDOWN (binary splits; Hatano 2004, Fig. 1) — ``max_arity=2``;
* Hatano's TOPDOWN-M (multi-way; Hatano 2004, Fig. 2) — ``criterion="hatano"``: the split
  maximising gain / ``⌈log₂ k⌉`` among splits *acceptable* for the tree and the target size;
* Mansour & McAllester's procedure (§4 of their paper) — ``criterion="mansour_mcallester"``:
  gain / ``g_γ(k)`` with their acceptability rule (needs ``γ``);
* a naive criterion (raw gain, every arity that fits) as a teaching contrast (docs/theory.md §1.4).

Each round expands one leaf and yields a frozen :class:`TreeStep` snapshot holding the whole
tree, what was chosen and why (the best candidate of each arity with its score), and the
metrics the theory bounds: ``ε̂(T) ≤ I(T) ≤ e_γ̂(|T|) ≤ |T|^(−γ̂)`` for binary max-weight runs
(Kearns–Mansour; Mansour–McAllester Thm 3.2) and ``I(T) ≤ s^(−γ̂)`` for TOPDOWN-M's final tree
(Hatano, Thm 4).

Being the weak learner (issue 17): :func:`score_split` scores any split of any leaf exactly as
:func:`grow` scores its own candidates (one implementation, :func:`_judge`, serves both);
:func:`best_splits` is the algorithm's own search at a leaf; ``grow(..., choose=policy)`` lets a
policy (a student, a test) pick the leaf and the split at every round, and the run's ``γ̂`` and
bounds then follow the chosen splits. :func:`replay` turns a list of choices into such a policy.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from . import bounds
from ._validation import check_choice, check_float, check_int, check_test_set, check_xy
from .impurity import INDEX, IndexFunction
from .splits import (
    Split,
    best_interval_splits,
    best_stump,
    branch_of,
    children_impurity,
    presort,
)
from .steps import START, STEP, STOP, Metrics, Step
from .tree import Tree

CRITERIA = ("hatano", "mansour_mcallester", "naive")
LEAF_RULES = ("max_weight", "max_gain")

CRITERION_LABELS = {
    "hatano": "Hatano: gain / ⌈log₂ k⌉",
    "mansour_mcallester": "Mansour–McAllester: gain / g_γ(k)",
    "naive": "Naive: raw gain",
}

#: Largest number of branches a split may have.
MAX_ARITY_LIMIT = 16
#: Leaves with at most this many training points get the exact k-way search (every interval
#: partition) by default. With the cuts between runs and functional pruning (docs/theory.md
#: §0.2) it takes 2.5–7.3× the 256-cut search at 2,000 points on the app's datasets (K ≤ 6),
#: but xor takes 17× at 3,000 points, so the limit stays (benchmarks/bench_exact_search.py).
EXACT_SEARCH_LIMIT = 2000
#: Weighted-quantile cut points per feature at larger leaves when ``max_cuts`` is not given.
LARGE_LEAF_CUTS = 256
#: Relative tolerance of the max-weight rule: a leaf this close to the heaviest *is* heaviest
#: (the same rounding slack :func:`max_weight_choice` allows).
_WEIGHT_TOL = 1e-12
#: A gain within this fraction of ``I(q̂_ℓ)`` of zero is rounding and counts as exactly 0.
_GAIN_ROUNDING = 64 * float(np.finfo(float).eps)


def _frozen(a: np.ndarray, dtype=None) -> np.ndarray:
    out = np.array(a, dtype=dtype, copy=True)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class Candidate:
    """The best split of one arity at the expanded leaf, scored by the run's criterion.

    ``gain`` is ``Δ = I(q̂_ℓ) − I_{S_ℓ}(T_h)``, ``advantage`` is ``Δ / I(q̂_ℓ)``, ``cost`` the
    criterion's price of ``k`` branches (``⌈log₂ k⌉``, ``g_γ(k)`` or 1) and ``score = Δ / cost``.

    Attributes
    ----------
    arity : int
        Number of branches ``k``.
    feature : int
        Column index split on.
    thresholds : tuple of float
        Increasing thresholds; a point goes to branch ``#{θ : θ < x_feature}``.
    gain : float
        ``Δ``, the drop of the index at the leaf (relative to the leaf's mass).
    advantage : float
        ``Δ / I(q̂_ℓ)`` (0 at a pure leaf).
    cost : float
        The criterion's price of ``k`` branches.
    score : float
        ``gain / cost``; the acceptable candidate of highest score is chosen.
    acceptable : bool
        Whether :func:`acceptable` allows this arity now.
    note : str
        Why it is not acceptable, in words ("" when it is).
    """

    arity: int
    feature: int
    thresholds: tuple[float, ...]
    gain: float
    advantage: float
    cost: float
    score: float
    acceptable: bool
    note: str


@dataclass(frozen=True)
class SplitScore:
    """One split of one leaf, scored exactly as :func:`grow` scores its candidates.

    The gain and the advantage are those of docs/theory.md §0.1 (Kearns–Mansour; Hatano 2004, §2.3);
    the price and the acceptability rule are the criterion's: Hatano 2004, Fig. 2
    (``⌈log₂ k⌉``, ``k ≤ s/|T|``), Mansour & McAllester §4 (``g_γ(k)``,
    ``|T| < e_γ(k)·s·γ/(2k)``) or the naive criterion (price 1, every arity that fits). Built
    by :func:`score_split`, :func:`best_splits`, :meth:`GrowState.score` and by :func:`grow`
    itself for every candidate it compares (one implementation for all of them).

    Attributes
    ----------
    feature : int
        Column split on.
    thresholds : tuple of float
        Strictly increasing; a point with ``x ≤ θ_1`` goes to branch 0, and so on (branch
        ``#{θ : θ < x}``, as :func:`boostcore.splits.branch_of`).
    k : int
        Number of branches, ``len(thresholds) + 1``.
    gain : float
        ``Δ = I(q̂_ℓ) − Σ_b (W_b/W) I(q̂_b)``, the drop of the index at the leaf relative to
        the leaf's mass (``≥ 0`` for a concave index).
    price : float
        The criterion's price of ``k`` branches: ``⌈log₂ k⌉`` (hatano), ``g_γ(k)``
        (mansour_mcallester), ``1`` (naive).
    score : float
        ``gain / price``: the quantity the criterion maximises over acceptable splits.
    advantage : float
        ``Δ / I(q̂_ℓ)``, the weak learner's advantage at this leaf (docs/theory.md §0.1).
    advantage_per_level : float
        ``Δ / (⌈log₂ k⌉·I(q̂_ℓ))``: this split's term in the run's ``γ̂`` (the minimum of these
        over the chosen splits; Hatano's Fact 1(2)). Equal to ``advantage`` for ``k = 2``.
    acceptable : bool
        Whether :func:`acceptable` allows a ``k``-way split at ``|T| = n_leaves`` of ``size``.
    reason : str
        Why it is not acceptable, in words (``""`` when it is).
    gamma_boosting : bool or None
        Whether ``Δ / g_γ(k) ≥ γ·I(q̂_ℓ)`` (Mansour–McAllester's γ-boosting condition) for the
        ``gamma`` given; ``None`` without one.
    leaf_mass : float
        ``p̂_ℓ``: the training weight reaching the leaf (the whole sample weighs 1).
    leaf_q : float
        ``q̂_ℓ``: its weighted fraction of positives.
    leaf_index : float
        ``I(q̂_ℓ)``.
    child_mass : tuple of float
        ``p̂`` of each branch (they sum to ``leaf_mass``).
    child_q : tuple of float
        ``q̂`` of each branch.
    child_n : tuple of int
        Number of the leaf's training points in each branch (all ``≥ 1``).
    criterion : str
        The criterion that judged the split.
    n_leaves : int
        ``|T|`` when it was judged.
    size : int
        The target number of leaves ``s``.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.topdown import score_split
    >>> X = np.arange(6.0).reshape(-1, 1)
    >>> y = np.array([-1, -1, 1, 1, -1, -1])
    >>> sc = score_split(X, y, range(6), 0, (1.5, 3.5), index="gini", criterion="hatano",
    ...                  size=4, n_leaves=1)
    >>> sc.k, round(sc.gain, 4), sc.price, round(sc.score, 4), sc.acceptable
    (3, 0.8889, 2.0, 0.4444, True)
    >>> sc.child_n, round(sc.advantage, 4), round(sc.advantage_per_level, 4)
    ((2, 2, 2), 1.0, 0.5)
    """

    feature: int
    thresholds: tuple[float, ...]
    k: int
    gain: float
    price: float
    score: float
    advantage: float
    advantage_per_level: float
    acceptable: bool
    reason: str
    gamma_boosting: bool | None
    leaf_mass: float
    leaf_q: float
    leaf_index: float
    child_mass: tuple[float, ...]
    child_q: tuple[float, ...]
    child_n: tuple[int, ...]
    criterion: str
    n_leaves: int
    size: int

    @property
    def arity(self) -> int:
        """``k``, under the name :class:`Candidate` and :class:`SplitRecord` use.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import score_split
        >>> X, y = np.arange(4.0).reshape(-1, 1), np.array([-1, -1, 1, 1])
        >>> score_split(X, y, [0, 1, 2, 3], 0, [1.5], index="km", criterion="naive",
        ...             size=2, n_leaves=1).arity
        2
        """
        return self.k

    @property
    def cost(self) -> float:
        """``price``, under the name :class:`Candidate` and :class:`SplitRecord` use.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import score_split
        >>> X, y = np.arange(4.0).reshape(-1, 1), np.array([-1, 1, -1, 1])
        >>> score_split(X, y, [0, 1, 2, 3], 0, [0.5, 1.5, 2.5], index="km",
        ...             criterion="hatano", size=4, n_leaves=1).cost
        2.0
        """
        return self.price

    @property
    def leaf_weight(self) -> float:
        """Hatano's leaf weight ``p̂_ℓ I(q̂_ℓ)`` (the max-weight rule compares these).

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import score_split
        >>> X, y = np.arange(4.0).reshape(-1, 1), np.array([-1, -1, 1, 1])
        >>> score_split(X, y, [0, 1, 2, 3], 0, [1.5], index="km", criterion="naive",
        ...             size=2, n_leaves=1).leaf_weight
        1.0
        """
        return self.leaf_mass * self.leaf_index

    @property
    def index_drop(self) -> float:
        """``p̂_ℓ Δ``: how much this split would lower ``I(T)``.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import score_split
        >>> X, y = np.arange(4.0).reshape(-1, 1), np.array([-1, -1, 1, 1])
        >>> score_split(X, y, [2, 3, 1], 0, [1.5], index="km", criterion="naive",
        ...             size=2, n_leaves=1).index_drop  # p̂ = 3/4, Δ = I(2/3)
        0.7071067811865475
        """
        return self.leaf_mass * self.gain


@dataclass(frozen=True)
class SplitChoice:
    """A policy's choice for one round of :func:`grow`: split ``leaf`` on ``feature``.

    ``choose`` may also return a plain ``(leaf, feature, thresholds)`` tuple or a mapping with
    those keys (and ``force``), e.g. read back from JSON; :func:`replay` accepts the same forms.

    Attributes
    ----------
    leaf : int
        Id of a current leaf (the ids of :attr:`GrowState.leaves`); it need not be the leaf the
        max-weight rule picks — overriding the rule is allowed and recorded, and the theorems'
        guarantees end there (:class:`TreeMetrics` ``binary_guarantee``, ``final_guarantee``,
        ``mm_guarantee``).
    feature : int
        Column to split on.
    thresholds : tuple of float
        ``k − 1`` strictly increasing thresholds; ``x ≤ θ_1`` goes to branch 0.
    force : bool, default False
        Use the split even if the criterion's acceptability rule (:func:`acceptable`) refuses
        it. Hatano's Theorem 4 and Mansour–McAllester's Theorem 4.1 assume acceptable splits,
        so a forced split is recorded (``SplitRecord.acceptable = False``) and ends the
        guarantee of the theorem whose rule it breaks. The budget ``|T| + k − 1 ≤ s`` can never
        be forced.

    Examples
    --------
    >>> from boostcore.topdown import SplitChoice
    >>> SplitChoice(leaf=0, feature=1, thresholds=(0.5,))
    SplitChoice(leaf=0, feature=1, thresholds=(0.5,), force=False)
    """

    leaf: int
    feature: int
    thresholds: tuple[float, ...]
    force: bool = False


@dataclass(frozen=True)
class SplitRecord:
    """What happened in one round: which leaf was expanded, how, and why.

    Attributes
    ----------
    leaf : int
        Id of the expanded leaf (now an internal node).
    arity, feature, thresholds, gain, advantage, cost, score
        Those of the chosen :class:`Candidate`.
    leaf_mass : float
        ``p̂_ℓ``, the weight reaching the leaf.
    leaf_q : float
        ``q̂_ℓ``, its weighted fraction of positives.
    leaf_weight : float
        Hatano's leaf weight ``p̂_ℓ I(q̂_ℓ)``.
    index_drop : float
        ``p̂_ℓ Δ``, the drop of ``I(T)`` this round.
    children : tuple of int
        Ids of the new leaves.
    gamma_boosting : bool or None
        Whether ``Δ / g_γ(k) ≥ γ I(q̂_ℓ)`` for the run's ``γ`` (``None`` without one).
    exact_search : bool, default=True
        Whether the k-way search at this leaf tried every interval partition.
    by_policy : bool, default=False
        Whether ``grow``'s ``choose`` policy picked this split (``False``: the criterion's
        argmax at the leaf the run's leaf rule picked).
    acceptable : bool, default=True
        Whether the split is acceptable under the run's criterion (:func:`acceptable`);
        ``False`` only for a split a policy forced (:class:`SplitChoice` ``force=True``).
    max_weight_leaf : bool, default=True
        Whether the expanded leaf had the largest weight ``p̂ I(q̂)`` of all leaves (up to
        rounding), as Hatano's and Mansour–McAllester's leaf rule asks.
    algorithm_leaf : int or None, default=None
        The leaf the run's leaf rule would have expanded (``None``: it had no split to offer).
    algorithm_split : Candidate or None, default=None
        The split the criterion would have chosen there: what the algorithm would have done
        this round (the same as this record's split when ``by_policy`` is ``False``).
    advantage_per_level : float, default=nan
        ``Δ / (⌈log₂ k⌉ I(q̂_ℓ))``, this round's term in ``γ̂``.
    """

    leaf: int
    arity: int
    feature: int
    thresholds: tuple[float, ...]
    gain: float
    advantage: float
    cost: float
    score: float
    leaf_mass: float
    leaf_q: float
    leaf_weight: float
    index_drop: float
    children: tuple[int, ...]
    gamma_boosting: bool | None
    #: whether the k-way search at this leaf tried every interval partition (``False``: a
    #: restricted search over weighted-quantile cut points; binary stumps are always exact)
    exact_search: bool = True
    by_policy: bool = False
    acceptable: bool = True
    max_weight_leaf: bool = True
    algorithm_leaf: int | None = None
    algorithm_split: Candidate | None = None
    advantage_per_level: float = float("nan")


@dataclass(frozen=True)
class TreeMetrics(Metrics):
    """Measured quantities and bound values at one round (the step protocol's metrics).

    Attributes
    ----------
    n_leaves : ``|T|``.
    train_error : weighted training error ``ε̂(T)`` of the majority-vote leaves.
    test_error : error on the test set, or ``None`` without one.
    index_value : ``I(T) = Σ_ℓ p̂_ℓ I(q̂_ℓ)`` (always ``≥ ε̂(T)``).
    gamma_hat : ``γ̂ = min`` over the expansions so far of ``Δ_t / (⌈log₂ k_t⌉ I(q̂_{ℓ_t}))``
        (the advantage for binary splits; ``nan`` before the first split; 0 when the heaviest
        leaf could not be split, since the weak-hypothesis assumption fails there). The
        splits are the ones the run *chose* — a ``choose`` policy's included — so a weak
        chosen split lowers ``γ̂`` and loosens every bound below.
    bound_e : ``e_γ̂(|T|)`` — Mansour–McAllester's Theorem 3.2 for binary growth (Kearns–Mansour's
        analysis); guaranteed ``≥ I(T)`` when ``binary_guarantee`` holds.
    bound_power : ``|T|^(−γ̂) ≥ e_γ̂(|T|)`` — the same bound in Kearns–Mansour's power form.
    bound_final : ``s^(−γ̂)`` — Hatano's Theorem 4 for the final tree of size ``s``
        (guaranteed when ``final_guarantee`` holds and ``|T| = s``).
    bound_phi : ``φ_γ̂(|T|) ≤ e_γ̂(|T|)`` — the value of Hatano's Weight Distribution Game
        (docs/theory.md §1.5); ``≥ I(T)`` at every round when ``binary_guarantee`` holds, since a
        binary max-weight run is TOPDOWN-M for every target size.
    bound_phi_final : ``φ_γ̂(s) ≤ s^(−γ̂)`` — the bound Hatano's proof of Theorem 4 gives
        for the final tree (tighter than the theorem's statement).
    bound_mm : ``e_γ(|T|)`` with the run's ``γ`` — Mansour–McAllester's Theorem 4.1; ``None``
        without a ``γ``.
    binary_guarantee : the max-weight leaf rule was used and every split so far was binary,
        so ``I(T) ≤ e_γ̂(|T|)`` is a theorem at this round.
    mm_gamma : the ``γ`` given to the run (``None`` if none).
    mm_gamma_boosting : every chosen split so far had ``Δ / g_γ(k) ≥ γ I(q̂_ℓ)``.
    final_guarantee : the assumptions of Hatano's Theorem 4 held at every expansion so far
        (``leaf_rule="max_weight"``, a leaf of largest weight expanded, every split acceptable
        by Hatano's rule ``k = 2`` or ``k ≤ s/|T|``), so ``I(T) ≤ φ_γ̂(s) ≤ s^(−γ̂)`` is a
        theorem once ``|T| = s``. Any selection criterion qualifies: the proof uses only these
        and ``γ̂``. ``False`` after a policy overrides the max-weight rule or forces a split
        Hatano's rule refuses (and for naive runs whose wide splits break that rule).
    mm_guarantee : the assumptions of Mansour–McAllester's Theorem 4.1 held so far
        (max-weight leaves, splits acceptable by *their* rule, γ-boosting), so
        ``I(T) ≤ e_γ(s)`` is a theorem once ``|T| = s``; ``None`` without a ``γ``.
    policy_rounds : how many expansions so far a ``choose`` policy picked.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.topdown import grow
    >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1, -1, 1, 1])
    >>> d = list(grow(X, y, size=2))[-1].metrics.as_dict()
    >>> d["n_leaves"], d["train_error"], d["index_value"]
    (2, 0.0, 0.0)
    """

    n_leaves: int
    index_value: float
    gamma_hat: float
    bound_e: float
    bound_power: float
    bound_final: float
    bound_phi: float
    bound_phi_final: float
    bound_mm: float | None
    binary_guarantee: bool
    mm_gamma: float | None
    mm_gamma_boosting: bool | None
    final_guarantee: bool = True
    mm_guarantee: bool | None = None
    policy_rounds: int = 0


@dataclass(frozen=True)
class TreeStep(Step):
    """One frozen snapshot of a top-down run (the step protocol: :mod:`boostcore.steps`).

    Attributes
    ----------
    t : number of expansions so far (0 = the single-leaf tree).
    kind : ``"start"``, ``"step"`` or ``"stop"``. The stop snapshot repeats the last round
        (its tree, split and candidates) with the final metrics and says why the run ended.
    tree : the tree as of this round (enough to predict).
    split : what this round did, or ``None`` at the start.
    candidates : the best split of each arity at the expanded leaf, with scores (the
        algorithm's own search, also when a policy chose this round's split).
    metrics : :class:`TreeMetrics` at this round.
    stop_reason : why the run ended (the stop snapshot only), in plain words.
    message : a one-line summary of the round for the page.
    note : anything unusual this round (e.g. the heaviest leaf could not be split, or a
        policy overrode the max-weight rule or forced a split).
    size : the run's target number of leaves ``s``.
    rule_scores : what the run's leaf rule compared before this round's expansion, as
        ``(leaf, score)`` pairs of every leaf it could expand: the weight ``p̂·I(q̂)``
        (``max_weight``) or ``p̂·Δ/price`` of the leaf's best split (``max_gain``, the
        criterion's score times the leaf's mass). The rule expands the largest, the lowest id
        on a tie. Empty at the start.
    leaf_rule : the run's leaf rule, ``"max_weight"`` or ``"max_gain"``.
    """

    tree: Tree
    split: SplitRecord | None
    candidates: tuple[Candidate, ...]
    note: str = ""
    size: int = field(default=0)
    rule_scores: tuple[tuple[int, float], ...] = ()
    leaf_rule: str = "max_weight"

    def details(self) -> dict[str, object]:
        """What this round's split was: leaf, arity ``k``, feature, thresholds, gain, score.

        Returns
        -------
        dict of str to object
            ``None`` values at the start (no split yet).
        """
        sp = self.split
        return {
            "leaf": None if sp is None else sp.leaf,
            "k": None if sp is None else sp.arity,
            "feature": None if sp is None else sp.feature,
            # exact (shortest round-trip) text: a record holds scalars only
            "thresholds": None if sp is None else ", ".join(str(float(v)) for v in sp.thresholds),
            "gain": None if sp is None else sp.gain,
            "advantage": None if sp is None else sp.advantage,
            "score": None if sp is None else sp.score,
            "exact_search": None if sp is None else sp.exact_search,
            "by_policy": None if sp is None else sp.by_policy,
            "acceptable": None if sp is None else sp.acceptable,
            "max_weight_leaf": None if sp is None else sp.max_weight_leaf,
            "note": self.note,
        }


@dataclass(frozen=True, eq=False)
class _Context:
    """The fixed inputs of one run (or of one :func:`best_splits` call), already validated."""

    X: np.ndarray  # the sample, zero-weight rows dropped
    X_num: np.ndarray  # X with categorical columns zeroed: what the interval searches see
    y: np.ndarray  # ±1
    w: np.ndarray  # > 0, the whole (original) sample summing to 1
    rows: np.ndarray  # row of the caller's X behind each row of X
    cat: np.ndarray  # bool per column
    index: str
    index_fn: IndexFunction
    criterion: str
    size: int
    max_arity: int
    gamma: float | None
    max_cuts: int | None


@dataclass(frozen=True, eq=False)
class GrowState:
    """What a ``choose`` policy of :func:`grow` sees before round ``t + 1`` (read-only).

    Everything is frozen at the moment the policy is called and stays valid afterwards, so a
    page may keep the state of the round it shows (stop iterating the generator there) and
    query it later: :meth:`members`, :meth:`candidates`, :meth:`best` and :meth:`score` use
    the run's own data (zero-weight points dropped, as :func:`grow` does) and give bit for bit
    what :func:`grow`, :func:`best_splits` and :func:`score_split` give.

    Attributes
    ----------
    t : int
        Expansions so far; the policy's choice makes round ``t + 1``.
    step : TreeStep
        The latest snapshot (``step.tree``, ``step.metrics``: ``γ̂`` and the bounds so far).
    leaves : tuple of int
        Ids of the current leaves, increasing.
    weights : mapping of int to float
        Hatano's weight ``p̂_ℓ I(q̂_ℓ)`` of each leaf (the max-weight rule compares these).
    splittable : mapping of int to bool
        Whether the algorithm can split each leaf (impure and two distinct values somewhere).
    heaviest_leaf : int
        The first leaf of largest weight.
    max_weight_leaf : int or None
        The leaf Hatano's max-weight rule expands (the heaviest splittable one; see
        :func:`max_weight_choice`).
    algorithm_leaf : int or None
        The leaf the run's ``leaf_rule`` would expand (``None``: it has no split to offer).
    algorithm_split : SplitScore or None
        The criterion's choice there: what the algorithm would do this round.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.topdown import grow
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> seen = []
    >>> def policy(state):
    ...     seen.append(state)
    ...     return None  # the algorithm's own choice
    >>> steps = list(grow(ds.X_train, ds.y_train, size=3, choose=policy))
    >>> s = seen[1]
    >>> s.t, s.leaves, s.algorithm_leaf == s.max_weight_leaf
    (1, (1, 2), True)
    >>> s.best(s.algorithm_leaf) == s.algorithm_split
    True
    >>> steps[2].split.score == s.algorithm_split.score
    True
    >>> len(s.members(1)) + len(s.members(2)) == len(ds.y_train)
    True
    """

    t: int
    step: TreeStep
    leaves: tuple[int, ...]
    weights: Mapping[int, float]
    splittable: Mapping[int, bool]
    heaviest_leaf: int
    max_weight_leaf: int | None
    algorithm_leaf: int | None
    algorithm_split: SplitScore | None
    _ctx: _Context = field(repr=False)
    _leaf_of: np.ndarray = field(repr=False)
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def tree(self) -> Tree:
        """The current tree (``step.tree``)."""
        return self.step.tree

    @property
    def n_leaves(self) -> int:
        """``|T|``."""
        return len(self.leaves)

    @property
    def size(self) -> int:
        """The run's target number of leaves ``s``."""
        return self._ctx.size

    @property
    def criterion(self) -> str:
        """The run's criterion."""
        return self._ctx.criterion

    @property
    def index(self) -> str:
        """The run's index function's name."""
        return self._ctx.index

    @property
    def gamma(self) -> float | None:
        """The run's ``γ`` (``None`` if none)."""
        return self._ctx.gamma

    @property
    def max_arity(self) -> int:
        """The run's largest arity ``K`` for interval splits."""
        return self._ctx.max_arity

    def is_max_weight(self, leaf: int) -> bool:
        """Whether ``leaf`` has the largest weight ``p̂ I(q̂)`` (up to rounding).

        Parameters
        ----------
        leaf : int
            A current leaf.

        Returns
        -------
        bool

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.arange(8.0).reshape(-1, 1), np.array([-1, -1, 1, 1, -1, -1, 1, 1])
        >>> states = []
        >>> _ = list(grow(X, y, size=3, max_arity=2, choose=lambda s: states.append(s)))
        >>> s = states[1]  # before round 2: leaf 1 is pure, leaf 2 holds the rest
        >>> s.is_max_weight(1), s.is_max_weight(2), s.max_weight_leaf
        (False, True, 2)
        """
        self._check_leaf(leaf, "leaf")
        top = max(self.weights.values())
        return self.weights[int(leaf)] >= top - _WEIGHT_TOL * max(top, 1.0)

    def _check_leaf(self, leaf: Any, name: str) -> int:
        return _check_leaf(leaf, self.leaves, self.tree, name)

    def _rows(self, leaf: int) -> np.ndarray:
        return np.flatnonzero(self._leaf_of == leaf)

    def members(self, leaf: int) -> np.ndarray:
        """The training points at ``leaf``: row indices of the ``X`` given to :func:`grow`.

        Zero-weight points are left out (the run ignores them). Pass the result to
        :func:`score_split` with that ``X``, ``y`` and ``sample_weight``.

        Parameters
        ----------
        leaf : int
            A current leaf.

        Returns
        -------
        ndarray of intp
            Increasing row indices (read-only).

        Raises
        ------
        ValueError
            If ``leaf`` is not a current leaf.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.arange(8.0).reshape(-1, 1), np.array([-1, -1, 1, 1, -1, -1, 1, 1])
        >>> states = []
        >>> _ = list(grow(X, y, size=3, max_arity=2, choose=lambda s: states.append(s)))
        >>> states[1].members(1).tolist(), states[1].members(2).tolist()
        ([0, 1], [2, 3, 4, 5, 6, 7])
        """
        leaf = self._check_leaf(leaf, "leaf")
        out = self._ctx.rows[self._rows(leaf)]
        out.setflags(write=False)
        return out

    def candidates(self, leaf: int) -> tuple[SplitScore, ...]:
        """The algorithm's best split of each arity at ``leaf``, judged at this ``|T|``.

        The search :func:`grow` runs at a leaf (Hatano 2004, Fig. 2's argmax per arity; exact
        up to ``EXACT_SEARCH_LIMIT`` points), whichever leaf it is.

        Parameters
        ----------
        leaf : int
            A current leaf.

        Returns
        -------
        tuple of SplitScore
            Increasing arity; empty at a leaf the algorithm cannot split.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.arange(8.0).reshape(-1, 1), np.array([-1, -1, 1, 1, -1, -1, 1, 1])
        >>> states = []
        >>> _ = list(grow(X, y, size=3, max_arity=2, choose=lambda s: states.append(s)))
        >>> [(c.k, c.thresholds, round(c.score, 4)) for c in states[1].candidates(2)]
        [(2, (3.5,), 0.2761)]
        >>> states[1].candidates(1)  # pure: never expanded
        ()
        """
        leaf = self._check_leaf(leaf, "leaf")
        if leaf not in self._cache:
            self._cache[leaf] = _leaf_partitions(self._ctx, self._rows(leaf))[0]
        n, ctx = self.n_leaves, self._ctx
        return tuple(_judge(p, ctx.criterion, n, ctx.size, ctx.gamma) for p in self._cache[leaf])

    def best(self, leaf: int) -> SplitScore | None:
        """The criterion's choice at ``leaf``: the acceptable candidate of highest score.

        Parameters
        ----------
        leaf : int
            A current leaf.

        Returns
        -------
        SplitScore or None
            ``None`` when the algorithm has no acceptable split there.

        Examples
        --------
        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.arange(8.0).reshape(-1, 1), np.array([-1, -1, 1, 1, -1, -1, 1, 1])
        >>> states = []
        >>> _ = list(grow(X, y, size=3, max_arity=2, choose=lambda s: states.append(s)))
        >>> states[1].best(2) == states[1].algorithm_split
        True
        """
        return _pick(self.candidates(leaf))

    def score(self, leaf: int, feature: int, thresholds: Sequence[float] | float) -> SplitScore:
        """Score a split of ``leaf`` as :func:`score_split` does (the run's data and rules).

        Parameters
        ----------
        leaf : int
            A current leaf.
        feature : int
            Column to split on.
        thresholds : sequence of float, or a float
            Strictly increasing thresholds (``k − 1`` for a ``k``-way split).

        Returns
        -------
        SplitScore

        Raises
        ------
        ValueError
            For an unknown leaf, a pure leaf, bad thresholds or a branch left empty.

        Examples
        --------
        A split that leaves both sides with the leaf's class mix gains nothing:

        >>> import numpy as np
        >>> from boostcore.topdown import grow
        >>> X, y = np.arange(8.0).reshape(-1, 1), np.array([-1, -1, 1, 1, -1, -1, 1, 1])
        >>> states = []
        >>> _ = list(grow(X, y, size=3, max_arity=2, choose=lambda s: states.append(s)))
        >>> sc = states[1].score(2, 0, 4.5)
        >>> sc.gain, sc.child_n, sc.child_q == (2 / 3, 2 / 3)
        (0.0, (3, 3), True)
        """
        leaf = self._check_leaf(leaf, "leaf")
        ctx = self._ctx
        feature = check_int("feature", feature, low=0, high=ctx.X.shape[1] - 1)
        thr = _check_thresholds("thresholds", thresholds, MAX_ARITY_LIMIT)
        return _score_rows(
            ctx.X,
            ctx.y,
            ctx.w,
            self._rows(leaf),
            feature,
            thr,
            ctx.index_fn,
            ctx.criterion,
            self.n_leaves,
            ctx.size,
            ctx.gamma,
            f"leaf {leaf}",
        )


# cached: a max-gain run prices every leaf's candidates at every round, and these are pure
# functions of a few small arguments
@functools.lru_cache(maxsize=512)
def _levels(k: int) -> float:
    """``⌈log₂ k⌉``: the binary levels a ``k``-way split stands for (Hatano 2004, Fig. 2)."""
    return float(bounds.ceil_log2(k))


@functools.lru_cache(maxsize=4096)
def _g_gamma(k: int, gamma: float) -> float:
    """``g_γ(k)``: Mansour–McAllester's price of ``k`` branches (their §4)."""
    return float(bounds.g_gamma(k, gamma))


def _criterion_cost(criterion: str, k: int, gamma: float | None) -> float:
    if criterion == "hatano":
        return _levels(k)
    if criterion == "mansour_mcallester":
        return _g_gamma(k, gamma)
    return 1.0


def acceptable(
    criterion: str, k: int, n_leaves: int, size: int, gamma: float | None = None
) -> tuple[bool, str]:
    """Whether a ``k``-way split may be used when the tree has ``n_leaves`` of ``size``.

    * Hatano (Fig. 2): ``k = 2`` or ``2 < k ≤ s/|T|``;
    * Mansour–McAllester (§4): ``k = 2`` or ``|T| < e_γ(k)·s·γ/(2k)``;
    * naive: the ``k − 1`` new leaves fit the budget, ``|T| + k − 1 ≤ s``.

    Parameters
    ----------
    criterion : {"hatano", "mansour_mcallester", "naive"}
        The run's criterion.
    k : int, ``≥ 2``
        Arity of the split.
    n_leaves : int, ``≥ 1``
        ``|T|``, the current number of leaves.
    size : int, ``≥ 2``
        The target number of leaves ``s``.
    gamma : float in (0, 1], optional
        Mansour–McAllester's ``γ``; needed by that criterion for ``k > 2`` only.

    Returns
    -------
    (bool, str) : the verdict and, when it is no, the rule that fails in words.

    Examples
    --------
    >>> from boostcore.topdown import acceptable
    >>> acceptable("hatano", 3, 1, 4)
    (True, '')
    >>> acceptable("hatano", 3, 2, 4)
    (False, 'needs k ≤ s/|T| = 4/2 = 2.00')
    >>> acceptable("mansour_mcallester", 3, 1, 20, gamma=0.5)
    (False, 'needs |T| < e_γ(k)·s·γ/(2k) = 0.63')
    """
    if n_leaves + k - 1 > size:
        return False, f"{k} leaves would overshoot the budget s = {size}"
    if k == 2 or criterion == "naive":
        return True, ""
    if criterion == "hatano":
        if k <= size / n_leaves:
            return True, ""
        return False, f"needs k ≤ s/|T| = {size}/{n_leaves} = {size / n_leaves:.2f}"
    limit = bounds.e_gamma(k, gamma) * size * gamma / (2 * k)
    if n_leaves < limit:
        return True, ""
    return False, f"needs |T| < e_γ(k)·s·γ/(2k) = {limit:.2f}"


# --------------------------------------------------------------------------------------------
# Scoring one split: the single implementation behind grow's candidates and score_split


@dataclass(frozen=True)
class _Partition:
    """What a split does to a leaf's sample, before any criterion judges it."""

    feature: int
    thresholds: tuple[float, ...]
    gain: float
    leaf_mass: float
    leaf_q: float
    leaf_index: float
    child_mass: tuple[float, ...]
    child_q: tuple[float, ...]
    child_n: tuple[int, ...]


def _branch_text(feature: int, thresholds: tuple[float, ...], b: int) -> str:
    x = f"x{feature + 1}"
    if b == 0:
        return f"{x} ≤ {thresholds[0]:.6g}"
    if b == len(thresholds):
        return f"{x} > {thresholds[-1]:.6g}"
    return f"{thresholds[b - 1]:.6g} < {x} ≤ {thresholds[b]:.6g}"


def _partition(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    rows: np.ndarray,
    feature: int,
    thresholds: tuple[float, ...],
    index_fn: IndexFunction,
    name: str = "thresholds",
) -> _Partition:
    """Branch statistics and gain ``Δ`` of one split of the leaf holding ``rows``.

    ``rows`` are increasing, with positive weights, at an impure leaf. Every caller passes the
    leaf's rows in that one order, so the sums below run in the same order whoever asks:
    :func:`grow`'s candidates, :func:`score_split` and :meth:`GrowState.score` agree to the
    last bit on the same split (the split *search* ranks partitions with its own cumulative
    sums; its winners are re-scored here).
    """
    x = X[rows, feature]
    k = len(thresholds) + 1
    br = branch_of(x, thresholds)
    counts = np.bincount(br, minlength=k)
    if not counts.all():
        b = int(np.argmin(counts > 0))
        raise ValueError(
            f"{name} must leave at least one of the leaf's training points in every branch; "
            f"branch {b} ({_branch_text(feature, thresholds, b)}) is empty (the leaf's "
            f"{rows.size} points have x{feature + 1} from {x.min():.6g} to {x.max():.6g}); "
            f"got {name} = {thresholds}"
        )
    wr = w[rows]
    pos = y[rows] > 0
    # positive and negative weight summed separately (never total − positives): a pure branch
    # must come out exactly 0, as in the split search (boostcore.splits.sorted_stats)
    wp = np.where(pos, wr, 0.0)
    wn = np.where(pos, 0.0, wr)
    lp, ln = float(np.sum(wp)), float(np.sum(wn))
    mass = lp + ln
    cp = np.bincount(br, weights=wp, minlength=k)
    cn = np.bincount(br, weights=wn, minlength=k)
    leaf_index = float(index_fn(lp / mass))
    impurity = float(np.sum(children_impurity(index_fn, cp, cn, mass)))
    cm = cp + cn
    gain = leaf_index - impurity
    if abs(gain) <= _GAIN_ROUNDING * leaf_index:
        # Δ is the difference of two sums of a few terms: within a few ulps of 0 it is
        # rounding, and a split that changes nothing (the error index stalls,
        # docs/theory.md §0.1) must score exactly 0 — not ±1e−17, which would rank such
        # splits by noise
        gain = 0.0
    return _Partition(
        feature=int(feature),
        thresholds=tuple(float(t) for t in thresholds),
        gain=gain,
        leaf_mass=mass,
        leaf_q=lp / mass,
        leaf_index=leaf_index,
        child_mass=tuple(float(v) for v in cm),
        child_q=tuple(float(v) for v in cp / cm),
        child_n=tuple(int(c) for c in counts),
    )


def _judge(
    part: _Partition, criterion: str, n_leaves: int, size: int, gamma: float | None
) -> SplitScore:
    """Price, score, advantage and acceptability of a split at ``|T| = n_leaves``.

    The one place where these are computed, for :func:`grow`'s candidates (the argmax of
    Hatano 2004, Fig. 2, or of Mansour–McAllester's §4 procedure) and for :func:`score_split`.
    """
    k = len(part.thresholds) + 1
    price, score, ok, why = _rank(part, criterion, n_leaves, size, gamma)
    gain, i_leaf = part.gain, part.leaf_index
    boosting = None
    if gamma is not None:
        # the 1e−12 slack: a split exactly at γ·I must not fail on rounding (it is γ-boosting)
        boosting = bool(gain / _g_gamma(k, gamma) >= gamma * i_leaf - 1e-12)
    return SplitScore(
        feature=part.feature,
        thresholds=part.thresholds,
        k=k,
        gain=gain,
        price=price,
        score=score,
        advantage=gain / i_leaf if i_leaf > 0 else 0.0,
        advantage_per_level=gain / (_levels(k) * i_leaf) if i_leaf > 0 else 0.0,
        acceptable=ok,
        reason=why,
        gamma_boosting=boosting,
        leaf_mass=part.leaf_mass,
        leaf_q=part.leaf_q,
        leaf_index=i_leaf,
        child_mass=part.child_mass,
        child_q=part.child_q,
        child_n=part.child_n,
        criterion=criterion,
        n_leaves=n_leaves,
        size=size,
    )


def _rank(
    part: _Partition, criterion: str, n_leaves: int, size: int, gamma: float | None
) -> tuple[float, float, bool, str]:
    """``(price, score, acceptable, reason)`` of a split: what the criterion compares."""
    k = len(part.thresholds) + 1
    price = _criterion_cost(criterion, k, gamma)
    ok, why = acceptable(criterion, k, n_leaves, size, gamma)
    return price, part.gain / price, ok, why


def _argmax(ranked: Sequence[tuple[bool, float]]) -> int | None:
    """Position of the criterion's choice among ``(acceptable, score)`` by increasing arity."""
    best: int | None = None
    for i, (ok, score) in enumerate(ranked):
        # strict '>' in increasing k: a tie goes to the smaller arity (spends less budget)
        if ok and (best is None or score > ranked[best][1] + 1e-15):
            best = i
    return best


def _pick(scores: Sequence[SplitScore]) -> SplitScore | None:
    """The criterion's choice among ``scores`` (increasing arity): the best acceptable score."""
    i = _argmax([(sc.acceptable, sc.score) for sc in scores])
    return None if i is None else scores[i]


def _candidate(sc: SplitScore) -> Candidate:
    return Candidate(
        arity=sc.k,
        feature=sc.feature,
        thresholds=sc.thresholds,
        gain=sc.gain,
        advantage=sc.advantage,
        cost=sc.price,
        score=sc.score,
        acceptable=sc.acceptable,
        note=sc.reason,
    )


def _score_rows(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    rows: np.ndarray,
    feature: int,
    thresholds: tuple[float, ...],
    index_fn: IndexFunction,
    criterion: str,
    n_leaves: int,
    size: int,
    gamma: float | None,
    where: str,
    name: str = "thresholds",
) -> SplitScore:
    """:func:`_partition` then :func:`_judge`, refusing leaves the algorithm never expands."""
    if rows.size == 0:
        raise ValueError(
            f"{where} must hold at least one training point of positive weight (zero-weight "
            "points are ignored, as in grow); got none"
        )
    pos = y[rows] > 0
    if pos.all() or not pos.any():
        cls = "+1" if pos.all() else "−1"
        raise ValueError(
            f"{where} must be impure to be split; all its {rows.size} training points are of "
            f"class {cls}, so I(q̂) = 0, no split has an advantage and the algorithm never "
            "expands such a leaf (docs/theory.md §0.3)"
        )
    part = _partition(X, y, w, rows, feature, thresholds, index_fn, name)
    return _judge(part, criterion, n_leaves, size, gamma)


# --------------------------------------------------------------------------------------------
# Validation shared by score_split, best_splits and grow's choose


def _check_gamma(gamma: Any, criterion: str) -> float | None:
    if gamma is not None:
        return check_float("gamma", gamma, low=0.0, high=1.0, low_open=True)
    if criterion == "mansour_mcallester":
        raise ValueError(
            "gamma is required when criterion='mansour_mcallester' (its split price g_γ(k) "
            "depends on γ); got None"
        )
    return None


def _check_members(members: Any, m: int) -> np.ndarray:
    """``members`` as increasing unique row indices of a sample of ``m`` rows."""
    arr = np.asarray(members)
    if arr.dtype == bool:
        raise ValueError(
            "members must be integer row indices of X, not a boolean mask (use "
            "np.flatnonzero(mask)); got a boolean array"
        )
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"members must be a non-empty 1-D sequence of row indices of X; got shape {arr.shape}"
        )
    if arr.dtype.kind not in "iu":
        raise ValueError(f"members must be integers (row indices of X); got dtype {arr.dtype}")
    bad = arr[(arr < 0) | (arr >= m)]
    if bad.size:
        raise ValueError(f"members must be row indices of X, in [0, {m - 1}]; got {int(bad[0])}")
    s = np.sort(arr).astype(np.intp)
    dup = s[1:][s[1:] == s[:-1]]
    if dup.size:
        raise ValueError(f"members must be unique; row {int(dup[0])} appears more than once")
    return s


def _check_thresholds(name: str, thresholds: Any, max_k: int, limit: str = "") -> tuple[float, ...]:
    """``thresholds`` as a tuple of finite, strictly increasing floats (``k ≤ max_k``)."""
    if isinstance(thresholds, numbers.Real) and not isinstance(thresholds, bool):
        thresholds = (thresholds,)
    if isinstance(thresholds, str | bytes):
        raise ValueError(f"{name} must be a sequence of numbers; got {thresholds!r}")
    try:
        arr = np.asarray(thresholds, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a sequence of numbers; got {thresholds!r}") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"{name} must be a non-empty 1-D sequence (k − 1 thresholds for a k-way split); "
            f"got {thresholds!r}"
        )
    if arr.size > max_k - 1:
        raise ValueError(
            f"{name} must hold at most {max_k - 1} thresholds (k ≤ {max_k}{limit}); "
            f"got {arr.size} (k = {arr.size + 1})"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite numbers; got {thresholds!r}")
    steps = np.flatnonzero(np.diff(arr) <= 0)
    if steps.size:
        i = int(steps[0])
        raise ValueError(
            f"{name} must be strictly increasing; got {float(arr[i])!r} then "
            f"{float(arr[i + 1])!r} at positions {i} and {i + 1}"
        )
    return tuple(float(v) for v in arr)


def _check_leaf(leaf: Any, leaves: tuple[int, ...], n_nodes: int | Tree, name: str) -> int:
    if isinstance(leaf, bool) or not isinstance(leaf, numbers.Integral):
        raise ValueError(f"{name} must be an integer (a leaf id); got {leaf!r}")
    leaf = int(leaf)
    if leaf not in leaves:
        n = n_nodes.n_nodes if isinstance(n_nodes, Tree) else n_nodes
        what = "an internal node" if 0 <= leaf < n else "not a node of the tree"
        raise ValueError(
            f"{name} must be one of the current leaves {list(leaves)}; got {leaf} ({what})"
        )
    return leaf


def _check_categorical(categorical: Any, X: np.ndarray) -> np.ndarray:
    cat = np.zeros(X.shape[1], dtype=bool)
    if categorical is None:
        return cat
    cat = np.asarray(categorical, dtype=bool).reshape(-1)
    if cat.shape != (X.shape[1],):
        raise ValueError(
            f"categorical must have one flag per column of X ({X.shape[1]}); got shape {cat.shape}"
        )
    codes = X[:, cat]
    if codes.size and (np.any(codes < 0) or np.any(codes != np.round(codes))):
        raise ValueError("categorical columns must hold integer codes ≥ 0 (0, 1, 2, …)")
    return cat


def _as_choice(pick: Any, name: str) -> SplitChoice:
    """A policy's answer as a :class:`SplitChoice` (types only; :func:`_resolve` checks it)."""
    if isinstance(pick, SplitChoice):
        choice = pick
    elif isinstance(pick, Mapping):
        keys = set(pick)
        missing = sorted({"leaf", "feature", "thresholds"} - keys)
        extra = sorted(keys - {"leaf", "feature", "thresholds", "force"}, key=str)
        if missing or extra:
            raise ValueError(
                f"{name} must have the keys leaf, feature, thresholds (and optionally force); "
                f"missing {missing}, unknown {extra}"
            )
        choice = SplitChoice(
            pick["leaf"], pick["feature"], pick["thresholds"], pick.get("force", False)
        )
    elif isinstance(pick, tuple | list) and len(pick) in (3, 4):
        choice = SplitChoice(*pick)
    else:
        raise ValueError(
            f"{name} must be None, a SplitChoice, a (leaf, feature, thresholds) tuple or a "
            f"mapping with those keys; got {pick!r}"
        )
    if not isinstance(choice.force, bool | np.bool_):
        raise ValueError(f"{name}: force must be True or False; got {choice.force!r}")
    return choice


# --------------------------------------------------------------------------------------------
# The algorithm's own search at one leaf (shared by grow, best_splits and GrowState)


def _with_value_splits(X, y, w, cat, index_fn, rows, stump, multi):
    """Add each categorical column's value split (one branch per value present) where it
    beats the interval split of the same arity (lowest column first on ties)."""
    y, w = y[rows], w[rows]
    total = float(w.sum())
    for f in np.flatnonzero(cat):
        xs = X[rows, f]
        vals = np.unique(xs)
        c = vals.size
        if c < 2 or c > MAX_ARITY_LIMIT or total <= 0:
            continue
        br = np.searchsorted(vals, xs)
        wp = np.bincount(br, weights=np.where(y > 0, w, 0.0), minlength=c)
        wall = np.bincount(br, weights=w, minlength=c)
        q = np.divide(wp, wall, out=np.full(c, 0.5), where=wall > 0)
        imp = float(np.sum(wall * index_fn(q)) / total)
        cuts = tuple(float(v) for v in (vals[:-1] + vals[1:]) / 2)
        sp = Split(feature=int(f), thresholds=cuts, impurity=imp)
        if c == 2:
            if stump is None or imp < stump.impurity - 1e-12:
                stump = sp
        elif c not in multi or imp < multi[c].impurity - 1e-12:
            multi[c] = sp
    return stump, dict(sorted(multi.items()))


def _search_leaf(ctx: _Context, order: np.ndarray) -> tuple[Split | None, dict[int, Split], bool]:
    """Best split of each arity at a leaf (the argmax of Hatano 2004, Fig. 2, per arity).

    ``order`` is the leaf's ``(d, n)`` presorted index matrix. Returns the exact best stump,
    the best ``k``-way interval splits (exact up to ``EXACT_SEARCH_LIMIT`` points,
    docs/theory.md §0.2),
    categorical value splits where they win, and whether the k-way search was exact.
    """
    o = order.T
    n_leaf = order.shape[1]
    stump = best_stump(ctx.X_num, ctx.y, ctx.w, o, ctx.index_fn)
    cuts = ctx.max_cuts
    if cuts is None and n_leaf > EXACT_SEARCH_LIMIT:
        cuts = LARGE_LEAF_CUTS
    multi = (
        best_interval_splits(ctx.X_num, ctx.y, ctx.w, o, ctx.index_fn, ctx.max_arity, cuts)
        if ctx.max_arity > 2 and stump is not None
        else {}
    )
    # a feature has at most n − 1 cut positions: B ≥ n − 1 tries them all
    exact = ctx.max_arity <= 2 or cuts is None or n_leaf - 1 <= cuts
    if ctx.cat.any():
        stump, multi = _with_value_splits(
            ctx.X, ctx.y, ctx.w, ctx.cat, ctx.index_fn, order[0], stump, dict(multi)
        )
    return stump, multi, exact


def _partitions_of(
    ctx: _Context, rows: np.ndarray, stump: Split | None, multi: dict[int, Split]
) -> list[_Partition]:
    """The search's winners re-scored on the leaf's rows (increasing), by increasing arity."""
    top = MAX_ARITY_LIMIT if ctx.cat.any() else ctx.max_arity
    options = ([(2, stump)] if stump is not None else []) + sorted(multi.items())
    return [
        _partition(ctx.X, ctx.y, ctx.w, rows, sp.feature, sp.thresholds, ctx.index_fn)
        for k, sp in options
        if k <= top
    ]


def _leaf_partitions(ctx: _Context, rows: np.ndarray) -> tuple[list[_Partition], bool]:
    """The search at the leaf holding ``rows`` (increasing), from scratch.

    Presorting the leaf's own rows gives the matrix :func:`grow` derives from its root
    presort (values increasing, ties by row), so the results are the run's, bit for bit.
    """
    if rows.size < 2:
        return [], True
    pos = ctx.y[rows] > 0
    if pos.all() or not pos.any():  # pure: never expanded (docs/theory.md §0.3)
        return [], True
    order = rows[presort(ctx.X_num[rows])]
    stump, multi, exact = _search_leaf(ctx, order)
    return _partitions_of(ctx, rows, stump, multi), exact


def score_split(
    X: np.ndarray,
    y: np.ndarray,
    members: Sequence[int] | np.ndarray,
    feature: int,
    thresholds: Sequence[float] | float,
    *,
    index: str,
    criterion: str,
    size: int,
    n_leaves: int,
    gamma: float | None = None,
    sample_weight: np.ndarray | None = None,
) -> SplitScore:
    """Score one split of one leaf exactly as :func:`grow` scores its candidates.

    The weak learner's move in the top-down boosting game (Hatano 2004, Fig. 2; Mansour &
    McAllester §4; docs/theory.md §1.2–1.4): the leaf holding ``members`` is split on
    ``feature`` at ``thresholds``, and the split gets the gain ``Δ``, the criterion's price
    and score, the advantage, its term in ``γ̂`` and the acceptability verdict — from the
    same code that scores :func:`grow`'s candidates, so the split :func:`grow` records at a
    leaf gets the same numbers here, to the last bit.

    Parameters
    ----------
    X : array of shape (m, d)
        The whole training sample (as given to :func:`grow`).
    y : array of shape (m,)
        Two classes; the larger label becomes +1, as in :func:`grow`.
    members : sequence of int
        Row indices of the leaf's training points (any order, no repeats), e.g.
        :meth:`GrowState.members` or ``np.flatnonzero(tree.apply(X) == leaf)``.
        Zero-weight points are ignored, as :func:`grow` ignores them.
    feature : int
        Column to split on.
    thresholds : sequence of float, or a float
        ``k − 1`` strictly increasing finite thresholds (``k ≤ 16``): a point with
        ``x ≤ θ_1`` goes to branch 0, ``θ_1 < x ≤ θ_2`` to branch 1, and so on.
    index : {"km", "gini", "entropy", "error"}
        The index function ``I``.
    criterion : {"hatano", "mansour_mcallester", "naive"}
        How the split is priced and which acceptability rule applies.
    size : int
        The run's target number of leaves ``s ≥ 2``.
    n_leaves : int
        ``|T|``, the number of leaves of the tree the leaf belongs to (``1 ≤ |T| ≤ s``).
    gamma : float in (0, 1], optional
        Mansour–McAllester's ``γ``: required by that criterion; with any criterion it also
        decides :attr:`SplitScore.gamma_boosting`.
    sample_weight : array of shape (m,), optional
        The run's weights (normalised over the whole sample, so ``leaf_mass`` is ``p̂_ℓ``).

    Returns
    -------
    SplitScore
        ``gain``, ``price``, ``score``, ``advantage``, ``advantage_per_level``,
        ``acceptable`` (and ``reason``), ``gamma_boosting``, the leaf's and each branch's
        mass, class fraction and count.

    Raises
    ------
    ValueError
        For any invalid argument (the message names it, the rule and the value): members
        out of range, repeated, empty or a boolean mask; a feature out of range; thresholds
        not finite or not strictly increasing; an unknown index or criterion; ``gamma``
        missing for Mansour–McAllester; a pure leaf (``I(q̂) = 0``: never expanded); a branch
        that receives none of the leaf's points.

    See Also
    --------
    best_splits : the algorithm's own best split of each arity at the same leaf.
    grow : ``choose=`` plays such splits in a run.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.topdown import score_split
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    >>> y = np.array([-1, -1, 1, 1, -1, -1])
    >>> args = dict(index="km", criterion="hatano", size=8, n_leaves=1)
    >>> two = score_split(X, y, np.arange(6), 0, 1.5, **args)
    >>> three = score_split(X, y, np.arange(6), 0, (1.5, 3.5), **args)
    >>> round(two.gain, 4), two.price, round(two.score, 4)
    (0.2761, 1.0, 0.2761)
    >>> round(three.gain, 4), three.price, round(three.score, 4), three.acceptable
    (0.9428, 2.0, 0.4714, True)

    The 3-way split pays for two binary levels; at ``|T| = 3`` of ``s = 8`` Hatano's rule
    ``k ≤ s/|T|`` refuses it:

    >>> late = score_split(X, y, np.arange(6), 0, (1.5, 3.5), index="km",
    ...                    criterion="hatano", size=8, n_leaves=3)
    >>> late.acceptable, late.reason
    (False, 'needs k ≤ s/|T| = 8/3 = 2.67')
    >>> score_split(X, y, np.arange(6), 0, (3.5, 1.5), **args)
    Traceback (most recent call last):
        ...
    ValueError: thresholds must be strictly increasing; got 3.5 then 1.5 at positions 0 and 1
    """
    Xv, yv, w, _ = check_xy(X, y, sample_weight)
    rows = _check_members(members, Xv.shape[0])
    feature = check_int("feature", feature, low=0, high=Xv.shape[1] - 1)
    thr = _check_thresholds("thresholds", thresholds, MAX_ARITY_LIMIT)
    index_fn = INDEX[check_choice("index", index, INDEX)]
    criterion = check_choice("criterion", criterion, CRITERIA)
    size = check_int("size", size, low=2, high=100_000)
    n_leaves = check_int("n_leaves", n_leaves, low=1, high=size)
    gamma = _check_gamma(gamma, criterion)
    rows = rows[w[rows] > 0]  # a zero weight means "ignore this point", as in grow
    return _score_rows(
        Xv, yv, w, rows, feature, thr, index_fn, criterion, n_leaves, size, gamma, "members"
    )


def best_splits(
    X: np.ndarray,
    y: np.ndarray,
    members: Sequence[int] | np.ndarray,
    *,
    index: str,
    criterion: str,
    size: int,
    n_leaves: int,
    max_arity: int = 4,
    gamma: float | None = None,
    sample_weight: np.ndarray | None = None,
    max_cuts: int | None = None,
    categorical: np.ndarray | None = None,
) -> tuple[SplitScore, ...]:
    """The algorithm's best split of each arity at the leaf holding ``members``.

    The search :func:`grow` runs at a leaf (Hatano 2004, Fig. 2's argmax per arity: the exact
    best stump and, for ``k = 3 … max_arity``, the best interval split, exact up to
    ``EXACT_SEARCH_LIMIT`` points; docs/theory.md §0.2), each scored by :func:`score_split`'s
    code. The
    criterion's choice among them is the acceptable one of highest score (ties: the smaller
    ``k``) — :meth:`GrowState.best` — so a page can show it next to a student's split.

    Parameters
    ----------
    X, y, members, index, criterion, size, n_leaves, gamma, sample_weight
        As in :func:`score_split`.
    max_arity, max_cuts, categorical
        As in :func:`grow`.

    Returns
    -------
    tuple of SplitScore
        By increasing arity; empty when the leaf is pure or no feature has two distinct
        values there.

    Raises
    ------
    ValueError
        For any invalid argument (the message names it).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.topdown import best_splits
    >>> X = np.arange(6.0).reshape(-1, 1)
    >>> y = np.array([-1, -1, 1, 1, -1, -1])
    >>> found = best_splits(X, y, range(6), index="gini", criterion="hatano", size=8,
    ...                     n_leaves=1, max_arity=3)
    >>> [(s.k, s.thresholds, round(s.score, 4)) for s in found]
    [(2, (1.5,), 0.2222), (3, (1.5, 3.5), 0.4444)]
    """
    Xv, yv, w, _ = check_xy(X, y, sample_weight)
    rows = _check_members(members, Xv.shape[0])
    index = check_choice("index", index, INDEX)
    criterion = check_choice("criterion", criterion, CRITERIA)
    size = check_int("size", size, low=2, high=100_000)
    n_leaves = check_int("n_leaves", n_leaves, low=1, high=size)
    max_arity = check_int("max_arity", max_arity, low=2, high=MAX_ARITY_LIMIT)
    gamma = _check_gamma(gamma, criterion)
    if max_cuts is not None:
        max_cuts = check_int("max_cuts", max_cuts, low=2, high=4096)
    cat = _check_categorical(categorical, Xv)
    ctx = _context(
        Xv, yv, w, np.arange(Xv.shape[0]), cat, index, criterion, size, max_arity, gamma, max_cuts
    )
    parts, _ = _leaf_partitions(ctx, rows[w[rows] > 0])
    return tuple(_judge(p, criterion, n_leaves, size, gamma) for p in parts)


def _context(X, y, w, rows, cat, index, criterion, size, max_arity, gamma, max_cuts) -> _Context:
    # the interval searches see categorical columns as constants (no threshold is valid
    # there): those columns are split only by their value split
    X_num = X
    if cat.any():
        X_num = X.copy()
        X_num[:, cat] = 0.0
    return _Context(
        X=X,
        X_num=X_num,
        y=y,
        w=w,
        rows=rows,
        cat=cat,
        index=index,
        index_fn=INDEX[index],
        criterion=criterion,
        size=size,
        max_arity=max_arity,
        gamma=gamma,
        max_cuts=max_cuts,
    )


def replay(
    choices: Mapping[int, Any] | Sequence[Any],
) -> Callable[[GrowState], SplitChoice | None]:
    """A ``choose`` policy for :func:`grow` that plays recorded choices.

    A page stores a student's choices (leaf, feature, thresholds per round — leaf ids are
    deterministic, so the same choices rebuild the same tree) and reruns
    ``grow(..., choose=replay(choices))`` to continue the run from the student's tree: the
    rounds without a choice take the algorithm's own split.

    Parameters
    ----------
    choices : mapping of int to choice, or sequence of choice
        A mapping from the round ``r ≥ 1`` a split makes to that split, or a sequence whose
        ``i``-th entry is round ``i + 1``'s. Each choice is a :class:`SplitChoice`, a
        ``(leaf, feature, thresholds)`` tuple or a mapping with those keys (and ``force``),
        or ``None`` for the algorithm's own choice.

    Returns
    -------
    callable
        ``policy(state)``: the choice recorded for round ``state.t + 1``, or ``None``.

    Raises
    ------
    ValueError
        If a round is not an integer ``≥ 1`` or a choice has the wrong shape (the leaf,
        feature and thresholds themselves are checked by :func:`grow` at their round).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.topdown import grow, replay
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    >>> y = np.array([-1, -1, 1, 1, -1, -1])
    >>> own = list(grow(X, y, size=3, max_arity=2))
    >>> [(s.split.leaf, s.split.thresholds) for s in own[1:-1]]
    [(0, (1.5,)), (2, (3.5,))]
    >>> mine = list(grow(X, y, size=3, max_arity=2, choose=replay([(0, 0, 0.5)])))
    >>> [(s.split.leaf, s.split.thresholds, s.split.by_policy) for s in mine[1:-1]]
    [(0, (0.5,), True), (2, (3.5,), False)]
    >>> round(own[-1].metrics.gamma_hat, 3), round(mine[-1].metrics.gamma_hat, 3)
    (0.293, 0.134)
    """
    if isinstance(choices, Mapping):
        table: dict[int, SplitChoice | None] = {}
        for r, c in choices.items():
            if isinstance(r, bool) or not isinstance(r, numbers.Integral) or r < 1:
                raise ValueError(f"choices must be keyed by rounds r ≥ 1 (integers); got {r!r}")
            table[int(r)] = None if c is None else _as_choice(c, f"choices[{r}]")
    elif isinstance(choices, Sequence) and not isinstance(choices, str | bytes):
        table = {
            i + 1: None if c is None else _as_choice(c, f"choices[{i}]")
            for i, c in enumerate(choices)
        }
    else:
        raise ValueError(
            f"choices must be a mapping round → choice or a sequence of choices; got {choices!r}"
        )

    def policy(state: GrowState) -> SplitChoice | None:
        return table.get(state.t + 1)

    return policy


def grow(
    X: np.ndarray,
    y: np.ndarray,
    *,
    size: int,
    index: str = "km",
    criterion: str = "hatano",
    max_arity: int = 4,
    gamma: float | None = None,
    leaf_rule: str = "max_weight",
    sample_weight: np.ndarray | None = None,
    X_test: np.ndarray | None = None,
    y_test: np.ndarray | None = None,
    max_cuts: int | None = None,
    categorical: np.ndarray | None = None,
    choose: Callable[[GrowState], Any] | None = None,
) -> Iterator[TreeStep]:
    """Grow a decision tree top-down, one expansion per step (Hatano 2004, Figs. 1–2).

    Parameters
    ----------
    X : array of shape (m, d)
        Training features (numeric).
    y : array of shape (m,)
        Two classes; the larger label (in sorted order) becomes +1.
    size : int
        Target number of leaves ``s ≥ 2`` — Hatano's ``s``: the theorems bound ``I(T)`` in
        terms of the tree's size, so the budget is in leaves here, where the other generators
        count steps (``n_rounds``, ``n_internal``; docs/development.md, "One word per concept").
    index : {"km", "gini", "entropy", "error"}
        The index function ``I`` (docs/theory.md §0.1).
    criterion : {"hatano", "mansour_mcallester", "naive"}
        How splits of different arities are compared (docs/theory.md §1.2–1.4).
    max_arity : int
        Largest arity ``K`` tried (2 = binary TOPDOWN).
    gamma : float in (0, 1], optional
        Mansour–McAllester's ``γ``; required for that criterion, used by the others only for
        the reference curve ``e_γ(|T|)``.
    leaf_rule : {"max_weight", "max_gain"}
        Expand the leaf of largest ``p̂ I(q̂)`` (the theorems' rule) or the leaf whose chosen
        split scores highest weighted by its mass (scikit-learn's best-first growth).
    sample_weight : array of shape (m,), optional
        Non-negative weights (normalised to sum to 1); uniform by default.
    X_test, y_test : optional
        A test set whose error is reported at every step.
    max_cuts : int, optional
        How ``k ≥ 3``-way splits are searched (docs/theory.md §0.2). ``None`` (default): the
        exact search over every interval partition at every leaf with at most
        ``EXACT_SEARCH_LIMIT = 2000`` training points, and ``LARGE_LEAF_CUTS = 256``
        weighted-quantile cut points per feature at larger leaves. An integer ``B``: at most
        ``B`` weighted-quantile cut points per feature at every leaf (faster on large data;
        not the argmax of Hatano's Fig. 2). Each :class:`SplitRecord` says whether its leaf's
        search was exact.
    categorical : bool array of shape (d,), optional
        Columns holding category codes (integers ``0…c−1``). Such a column is split only by
        its **value split** — one branch per value present at the node, C4.5-style, the
        case multi-way branching was invented for — with arity ``c`` (up to 16, subject to
        the acceptability rule; ``max_arity`` limits interval splits of numeric columns
        only). The split is stored as thresholds between consecutive codes, so a code the
        node never saw in training follows its nearest lower neighbour's branch.
    choose : callable, optional
        A policy that may pick each round's split — the student as weak learner (issue 17).
        Before every expansion it gets a read-only :class:`GrowState` (the tree, the leaves,
        their weights and training points, the leaf the max-weight rule picks, the
        algorithm's own choice ``algorithm_split`` and, through :meth:`GrowState.best`, its
        best split at any leaf) and returns ``None`` (the algorithm's choice) or a
        :class:`SplitChoice` / ``(leaf, feature, thresholds)``. The chosen split is scored by
        :func:`score_split`'s code, recorded like the algorithm's own (``SplitRecord`` with
        ``by_policy=True``, and ``algorithm_leaf`` / ``algorithm_split`` what the algorithm would
        have done), and ``γ̂`` and every bound use its advantage, so a weak split visibly
        weakens the guarantee. The policy may expand any splittable leaf, not only the
        heaviest: the snapshot then records ``max_weight_leaf=False`` and the metrics'
        ``binary_guarantee``, ``final_guarantee`` and ``mm_guarantee`` turn ``False`` (the
        theorems assume the max-weight rule). A split the criterion does not accept raises
        ``ValueError`` unless chosen with ``SplitChoice(..., force=True)``; a forced split is
        recorded (``acceptable=False``) and ends the guarantee of the theorem whose rule it
        breaks (Hatano's ``k ≤ s/|T|``: ``final_guarantee``; Mansour–McAllester's:
        ``mm_guarantee``). A split that would exceed the budget ``s``, leave a branch without
        training points, exceed ``max_arity`` (on a numeric column) or split a pure leaf is
        always refused. The default, ``None``, is the criterion's argmax at every round.

    Yields
    ------
    TreeStep
        The step protocol (:mod:`boostcore.steps`): first the single-leaf tree (``"start"``,
        ``t = 0``), then one ``"step"`` per expansion until ``|T| = size`` or nothing can be
        split, then a ``"stop"`` snapshot that repeats the last round with the final metrics and
        ``stop_reason`` says why.

    Raises
    ------
    ValueError
        Before the first step, for any invalid parameter (the message names it); during the
        run, when ``choose`` returns an illegal choice (the message names the field — leaf,
        feature or thresholds — and what is wrong).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.topdown import grow
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> steps = list(grow(ds.X_train, ds.y_train, size=4))
    >>> [s.kind for s in steps]
    ['start', 'step', 'step', 'step', 'stop']
    >>> steps[1].split.arity, steps[1].split.feature
    (2, 1)
    >>> last = steps[-1].metrics
    >>> last.n_leaves, round(last.train_error, 4), round(last.index_value, 4)
    (4, 0.0533, 0.2066)
    >>> next(grow(ds.X_train, ds.y_train, size=1))
    Traceback (most recent call last):
        ...
    ValueError: size must be between 2 and 100000; got 1

    A policy that splits the root at a weak threshold and lets the algorithm play the rest:
    ``γ̂`` falls to that split's advantage, and every bound follows it.

    >>> from boostcore.topdown import SplitChoice
    >>> def weak_root(state):
    ...     return SplitChoice(leaf=0, feature=0, thresholds=(0.0,)) if state.t == 0 else None
    >>> mine = list(grow(ds.X_train, ds.y_train, size=4, choose=weak_root))
    >>> mine[1].split.by_policy, mine[1].split.algorithm_split.feature  # the algorithm: x2
    (True, 1)
    >>> round(mine[1].split.advantage, 3), round(steps[1].split.advantage, 3)
    (0.089, 0.48)
    >>> round(mine[-1].metrics.gamma_hat, 3), round(last.gamma_hat, 3)
    (0.089, 0.368)
    >>> round(mine[-1].metrics.bound_phi_final, 3), round(last.bound_phi_final, 3)
    (0.829, 0.4)
    >>> mine[-1].metrics.final_guarantee  # a weak split is legal: the theorem holds, weaker
    True
    """
    Xv, yv, w, classes = check_xy(X, y, sample_weight)
    rows = np.arange(Xv.shape[0])
    if sample_weight is not None and np.any(w == 0):
        # A zero weight means "ignore this point": dropping it keeps thresholds where the
        # weighted sample puts them (a weightless point must not move a midpoint).
        keep = w > 0
        Xv, yv, w, rows = Xv[keep], yv[keep], w[keep], rows[keep]
    size = check_int("size", size, low=2, high=100_000)
    index = check_choice("index", index, INDEX)
    criterion = check_choice("criterion", criterion, CRITERIA)
    max_arity = check_int("max_arity", max_arity, low=2, high=MAX_ARITY_LIMIT)
    leaf_rule = check_choice("leaf_rule", leaf_rule, LEAF_RULES)
    if max_cuts is not None:
        max_cuts = check_int("max_cuts", max_cuts, low=2, high=4096)
    cat = _check_categorical(categorical, Xv)
    gamma = _check_gamma(gamma, criterion)
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    if choose is not None and not callable(choose):
        raise ValueError(
            f"choose must be None or a callable (GrowState → SplitChoice or None); got {choose!r}"
        )
    ctx = _context(Xv, yv, w, rows, cat, index, criterion, size, max_arity, gamma, max_cuts)
    return _grow(ctx, leaf_rule, Xt, yt, choose)


class _Grower:
    """Mutable state of one run; :func:`_grow` drives it and freezes snapshots."""

    def __init__(self, ctx: _Context, Xt, yt):
        self.ctx = ctx
        X, y, w = ctx.X, ctx.y, ctx.w
        self.X, self.y, self.w = X, y, w
        self.size, self.I, self.criterion = ctx.size, ctx.index_fn, ctx.criterion
        self.gamma = ctx.gamma
        self.Xt, self.yt = Xt, yt
        self.parent, self.depth, self.feature = [-1], [0], [-1]
        self.thresholds: list[tuple[float, ...]] = [()]
        self.children: list[tuple[int, ...]] = [()]
        wp = float(np.sum(w[y > 0]))
        self.w_pos, self.w_neg = [wp], [float(np.sum(w)) - wp]
        self.n_samples, self.created_at = [X.shape[0]], [0]
        # Sort every feature once; nodes keep their slice of this order (feature-major rows).
        self.order = {0: presort(ctx.X_num)}
        # per leaf: the search's winner of each arity re-scored on the leaf (computed once)
        self.cache: dict[int, list[_Partition]] = {}
        self.exact: dict[int, bool] = {}  # per leaf: was its k-way search exact?
        # branch of each sample during an expansion (k ≤ MAX_ARITY_LIMIT = 16 fits in a byte;
        # a byte array keeps the gather scratch[order] cache-resident)
        self.scratch = np.zeros(X.shape[0], dtype=np.uint8)
        # the leaf of every training row (what a choose policy's GrowState.members reads)
        self.leaf_of = np.zeros(X.shape[0], dtype=np.intp)
        # each splittable leaf's rows in increasing order: the order every score sums in
        # (children filter their parent's, so nothing is ever re-sorted)
        self.sorted_rows = {0: np.arange(X.shape[0])}
        self.test_leaf = None if Xt is None else np.zeros(Xt.shape[0], dtype=np.intp)

    # -- leaves ---------------------------------------------------------------------------
    def leaves(self) -> np.ndarray:
        return np.flatnonzero(np.asarray(self.feature) < 0)

    def weight(self, node: int) -> float:
        mass = self.w_pos[node] + self.w_neg[node]
        return 0.0 if mass <= 0 else float(mass * self.I(self.w_pos[node] / mass))

    def rows_of(self, leaf: int) -> np.ndarray:
        """The leaf's training rows, increasing (the order every score is summed in)."""
        rows = self.sorted_rows.get(leaf)
        return np.flatnonzero(self.leaf_of == leaf) if rows is None else rows

    def splits_at(self, leaf: int) -> list[_Partition]:
        """Best split per arity at ``leaf`` (computed once per leaf, lazily)."""
        if leaf not in self.cache:
            order = self.order.get(leaf)
            if order is None or order.shape[1] < 2:
                self.cache[leaf] = []
            else:
                stump, multi, self.exact[leaf] = _search_leaf(self.ctx, order)
                self.cache[leaf] = _partitions_of(self.ctx, self.rows_of(leaf), stump, multi)
        return self.cache[leaf]

    def can_split(self, leaf: int) -> bool:
        return bool(self.splits_at(leaf))

    def candidates(self, leaf: int, n_leaves: int) -> tuple[list[SplitScore], SplitScore | None]:
        """Score the best split of each arity at ``leaf``; return them and the chosen one."""
        out = [
            _judge(p, self.criterion, n_leaves, self.size, self.gamma) for p in self.splits_at(leaf)
        ]
        return out, _pick(out)

    def best_score(self, leaf: int, n_leaves: int) -> float | None:
        """The score of :meth:`candidates`' choice, cheaply (the largest-gain rule compares
        every leaf at every round)."""
        parts = self.splits_at(leaf)
        ranked = [_rank(p, self.criterion, n_leaves, self.size, self.gamma) for p in parts]
        i = _argmax([(ok, score) for _, score, ok, _ in ranked])
        return None if i is None else ranked[i][1]

    def resolve(
        self, pick: Any, leaves: tuple[int, ...], n_leaves: int
    ) -> tuple[int, SplitScore, bool]:
        """Check a policy's choice; return its leaf, its score and whether it was forced."""
        ctx = self.ctx
        c = _as_choice(pick, "the choose policy's result")
        leaf = _check_leaf(c.leaf, leaves, len(self.feature), "choice.leaf")
        feature = check_int("choice.feature", c.feature, low=0, high=self.X.shape[1] - 1)
        if ctx.cat[feature]:
            thr = _check_thresholds("choice.thresholds", c.thresholds, MAX_ARITY_LIMIT)
        else:
            limit = f", the run's max_arity = {ctx.max_arity}"
            thr = _check_thresholds("choice.thresholds", c.thresholds, ctx.max_arity, limit)
        k = len(thr) + 1
        if n_leaves + k - 1 > self.size:
            raise ValueError(
                f"choice.thresholds must keep the tree within its budget s = {self.size}: a "
                f"{k}-way split at |T| = {n_leaves} makes {n_leaves + k - 1} leaves (a budget "
                "cannot be forced)"
            )
        sc = _score_rows(
            self.X,
            self.y,
            self.w,
            self.rows_of(leaf),
            feature,
            thr,
            self.I,
            self.criterion,
            n_leaves,
            self.size,
            self.gamma,
            f"choice.leaf = {leaf}",
            "choice.thresholds",
        )
        if not sc.acceptable and not c.force:
            raise ValueError(
                f"choice: the {k}-way split must be acceptable for criterion="
                f"{self.criterion!r} at |T| = {n_leaves}, s = {self.size}: it {sc.reason}. "
                "Return SplitChoice(..., force=True) to use it anyway; the run then records "
                "that the theorem's acceptability assumption is broken"
            )
        return leaf, sc, not sc.acceptable

    # -- expansion ------------------------------------------------------------------------
    def expand(self, leaf: int, cand: SplitScore, t: int) -> tuple[int, ...]:
        """Replace ``leaf`` by an internal node with ``cand``'s split; return the children."""
        X, y, w = self.X, self.y, self.w
        order = self.order.pop(leaf)
        rows = order[0]
        br = branch_of(X[rows, cand.feature], cand.thresholds)
        k = cand.arity
        wr = w[rows]
        wp = np.bincount(br, weights=np.where(y[rows] > 0, wr, 0.0), minlength=k)
        wall = np.bincount(br, weights=wr, minlength=k)
        counts = np.bincount(br, minlength=k)
        self.scratch[rows] = br
        bmat = self.scratch[order].ravel()  # branch of every entry of the node's order matrix
        srows = self.sorted_rows.pop(leaf)
        bsorted = self.scratch[srows]
        flat = order.ravel()  # order is C-contiguous: a view
        kids = []
        for c in range(k):
            nid = len(self.feature)
            kids.append(nid)
            self.parent.append(leaf)
            self.depth.append(self.depth[leaf] + 1)
            self.feature.append(-1)
            self.thresholds.append(())
            self.children.append(())
            self.w_pos.append(float(wp[c]))
            self.w_neg.append(float(wall[c] - wp[c]))
            self.n_samples.append(int(counts[c]))
            self.created_at.append(t)
            pure = wp[c] <= 0 or wall[c] - wp[c] <= 0
            if counts[c] >= 2 and not pure:
                # np.compress on the flat arrays: same row-major result as order[bmat == c]
                # (2-D boolean indexing), several times faster
                self.order[nid] = np.compress(bmat == c, flat).reshape(order.shape[0], counts[c])
                self.sorted_rows[nid] = np.compress(bsorted == c, srows)
        self.feature[leaf] = cand.feature
        self.thresholds[leaf] = cand.thresholds
        self.children[leaf] = tuple(kids)
        self.leaf_of[rows] = np.asarray(kids)[br]
        self.cache.pop(leaf, None)
        if self.test_leaf is not None:
            idx = np.flatnonzero(self.test_leaf == leaf)
            if idx.size:
                b = branch_of(self.Xt[idx, cand.feature], cand.thresholds)
                self.test_leaf[idx] = np.asarray(kids)[b]
        return tuple(kids)

    # -- snapshots ------------------------------------------------------------------------
    def tree(self) -> Tree:
        return Tree(
            parent=_frozen(self.parent, np.intp),
            depth=_frozen(self.depth, np.intp),
            feature=_frozen(self.feature, np.intp),
            thresholds=tuple(self.thresholds),
            children=tuple(self.children),
            w_pos=_frozen(self.w_pos, float),
            w_neg=_frozen(self.w_neg, float),
            n_samples=_frozen(self.n_samples, np.intp),
            created_at=_frozen(self.created_at, np.intp),
        )

    def metrics(self, gamma_hat: float, flags: _Flags) -> TreeMetrics:
        leaves = self.leaves()
        wp = np.asarray(self.w_pos)[leaves]
        wn = np.asarray(self.w_neg)[leaves]
        mass = wp + wn
        q = np.divide(wp, mass, out=np.full_like(mass, 0.5), where=mass > 0)
        index_value = float(np.sum(mass * self.I(q)))
        train_error = float(np.sum(np.minimum(wp, wn)))
        test_error = None
        if self.test_leaf is not None and self.yt.size:
            pred = np.full(len(self.feature), -1, dtype=np.int8)
            pred[leaves] = np.where(q > 0.5, 1, -1)
            test_error = float(np.mean(pred[self.test_leaf] != self.yt))
        n = leaves.size
        g = 0.0 if not np.isfinite(gamma_hat) else min(max(gamma_hat, 0.0), 1.0)
        return TreeMetrics(
            n_leaves=int(n),
            train_error=train_error,
            test_error=test_error,
            index_value=index_value,
            gamma_hat=float(gamma_hat) if np.isfinite(gamma_hat) else float("nan"),
            bound_e=float(bounds.e_gamma(n, g)),
            bound_power=float(bounds.size_bound(n, g)),
            bound_final=float(bounds.size_bound(self.size, g)),
            bound_phi=float(bounds.phi_gamma(int(n), g)),
            bound_phi_final=float(bounds.phi_gamma(int(self.size), g)),
            bound_mm=None if self.gamma is None else float(bounds.e_gamma(n, self.gamma)),
            binary_guarantee=flags.binary,
            mm_gamma=self.gamma,
            mm_gamma_boosting=flags.mm_boosting,
            final_guarantee=flags.final,
            mm_guarantee=flags.mm,
            policy_rounds=flags.policy_rounds,
        )


def _describe(rec: SplitRecord, t: int) -> str:
    thr = ", ".join(f"{v:.3g}" for v in rec.thresholds)
    who = " (the policy's choice)" if rec.by_policy else ""
    return (
        f"Round {t}{who}: leaf {rec.leaf} (weight p̂·I = {rec.leaf_weight:.3f}) split "
        f"{rec.arity}-way on x{rec.feature + 1} at {thr}; gain {rec.gain:.3f}, "
        f"advantage {rec.advantage:.2f}, score {rec.score:.3f}; I(T) drops by {rec.index_drop:.3f}."
    )


def max_weight_choice(weights: np.ndarray, splittable: np.ndarray) -> tuple[int, bool]:
    """Hatano's leaf rule (2004, Fig. 2): expand a leaf of largest weight ``p̂ I(q̂)``.

    Returns the index (into ``weights``) of the leaf to expand — the first of the heaviest
    splittable leaves — and whether the rule was broken: ``True`` when every leaf of largest weight
    is unsplittable, so a lighter leaf is expanded and the weak-hypothesis assumption has
    failed at the heaviest one. A splittable leaf tied with the heaviest *is* a leaf of
    largest weight: expanding it keeps the rule.

    Parameters
    ----------
    weights : ndarray of float, shape (n,)
        ``p̂ I(q̂)`` of every current leaf.
    splittable : ndarray of bool, shape (n,)
        Which leaves some split can divide; at least one must be ``True``.

    Returns
    -------
    (int, bool)
        The index into ``weights`` of the leaf to expand, and whether the rule was broken.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.topdown import max_weight_choice
    >>> w = np.array([0.3, 0.5, 0.2])
    >>> max_weight_choice(w, np.array([True, True, True]))
    (1, False)
    >>> max_weight_choice(w, np.array([True, False, True]))
    (0, True)
    """
    cand = np.flatnonzero(splittable)
    i = int(cand[np.argmax(weights[cand])])
    top = float(weights.max())
    return i, bool(weights[i] < top - 1e-12 * max(top, 1.0))


@dataclass
class _Flags:
    """Which theorems still cover the run (their assumptions held at every expansion so far)."""

    binary: bool  # Kearns–Mansour at every round: max-weight leaves, binary splits
    final: bool  # Hatano's Theorem 4: max-weight leaves, splits Hatano-acceptable
    mm_boosting: bool | None  # every chosen split γ-boosting (None without γ)
    mm: bool | None  # Mansour–McAllester's Theorem 4.1: + their acceptability, max-weight
    policy_rounds: int = 0


def _grow(ctx: _Context, leaf_rule: str, Xt, yt, choose) -> Iterator[TreeStep]:
    g = _Grower(ctx, Xt, yt)
    size, gamma, criterion = ctx.size, ctx.gamma, ctx.criterion
    gamma_hat = float("inf")
    max_weight_rule = leaf_rule == "max_weight"
    flags = _Flags(
        binary=max_weight_rule,
        final=max_weight_rule,
        mm_boosting=None if gamma is None else True,
        mm=None if gamma is None else max_weight_rule,
    )
    last = TreeStep(
        t=0,
        kind=START,
        tree=g.tree(),
        split=None,
        candidates=(),
        metrics=g.metrics(gamma_hat, flags),
        message="Round 0: a single leaf predicting the weighted majority class.",
        size=size,
        leaf_rule=leaf_rule,
    )
    yield last
    t = 0
    while True:
        leaves = g.leaves()
        if leaves.size >= size:
            reason = f"The tree has reached its budget of s = {size} leaves."
            yield replace(last, kind=STOP, stop_reason=reason, message=f"{last.message} {reason}")
            return
        weights = np.array([g.weight(int(l)) for l in leaves])
        splittable = np.array([wt > 0 and g.can_split(int(l)) for l, wt in zip(leaves, weights)])
        chosen: SplitScore | None = None
        cands: list[SplitScore] = []
        leaf = mw_leaf = None
        broken = False
        rule_scores: list[tuple[int, float]] = []
        if splittable.any():
            pos, broken = max_weight_choice(weights, splittable)
            mw_leaf = int(leaves[pos])
            if max_weight_rule:
                rule_scores = [
                    (int(l), float(wt)) for l, wt, ok in zip(leaves, weights, splittable) if ok
                ]
                leaf = mw_leaf
                if broken:
                    # the heaviest leaf cannot be split: the weak-hypothesis assumption fails
                    # there whatever is expanded instead
                    gamma_hat = 0.0
                cands, chosen = g.candidates(leaf, leaves.size)
            else:
                best_val = -np.inf
                for l in leaves[splittable]:
                    score = g.best_score(int(l), leaves.size)
                    if score is None:
                        continue
                    mass = g.w_pos[l] + g.w_neg[l]
                    rule_scores.append((int(l), float(mass * score)))
                    if mass * score > best_val + 1e-15:
                        best_val, leaf = mass * score, int(l)
                if leaf is not None:
                    cands, chosen = g.candidates(leaf, leaves.size)
        algorithm_leaf = leaf if chosen is not None else None
        default = chosen
        by_policy = forced = False
        if choose is not None and splittable.any():
            state = GrowState(
                t=t,
                step=last,
                leaves=tuple(int(l) for l in leaves),
                weights=MappingProxyType({int(l): float(v) for l, v in zip(leaves, weights)}),
                splittable=MappingProxyType({int(l): bool(v) for l, v in zip(leaves, splittable)}),
                heaviest_leaf=int(leaves[int(np.argmax(weights))]),
                max_weight_leaf=mw_leaf,
                algorithm_leaf=algorithm_leaf,
                algorithm_split=default,
                _ctx=ctx,
                _leaf_of=_frozen(g.leaf_of),
            )
            pick = choose(state)
            if pick is not None:
                leaf, chosen, forced = g.resolve(pick, state.leaves, leaves.size)
                cands, _ = g.candidates(leaf, leaves.size)
                by_policy = True
                flags.policy_rounds += 1
        if chosen is None:
            all_pure = not np.any(weights > 0)
            if not all_pure:
                # an impure leaf no split can divide: the weak-hypothesis assumption fails
                # there, as when the heaviest leaf cannot be split above, so γ̂ = 0 and the
                # final-tree bound s^−γ̂ is the trivial 1 (never a value below I(T))
                gamma_hat = 0.0
            reason = (
                "Every leaf is pure: the tree classifies each training point correctly, so "
                "there is nothing left to split."
                if all_pure
                else "No impure leaf can be split: its points have identical features but "
                "different labels, so no threshold separates them. The weak-hypothesis "
                "assumption fails there, so γ̂ = 0."
            )
            yield replace(
                last,
                kind=STOP,
                metrics=g.metrics(gamma_hat, flags),
                stop_reason=reason,
                message=f"{last.message} Stopped at {leaves.size} of {size} leaves. {reason}",
            )
            return
        t += 1
        n = int(leaves.size)
        at = int(np.flatnonzero(leaves == leaf)[0])
        top = float(weights.max())
        heaviest = int(leaves[int(np.argmax(weights))])
        is_max = bool(weights[at] >= top - _WEIGHT_TOL * max(top, 1.0))
        notes = []
        if max_weight_rule and broken:
            notes.append(
                f"The heaviest leaf {heaviest} cannot be split (its points share the "
                f"same features but not the same label): the weak-hypothesis assumption "
                f"fails there, so γ̂ = 0. Leaf {leaf} is expanded instead."
            )
        # with the heaviest leaf unsplittable γ̂ = 0 already makes every bound the trivial 1,
        # so only a lighter leaf picked while a heaviest one could be split breaks the rule
        rule_kept = max_weight_rule and (is_max or broken)
        if max_weight_rule and not rule_kept:
            notes.append(
                f"The policy expanded leaf {leaf} (weight p̂·I = {weights[at]:.3f}), not a leaf "
                f"of largest weight (leaf {heaviest}: {top:.3f}): the theorems assume the "
                "max-weight rule, so from this round on their bounds are a reference, not a "
                "guarantee."
            )
        hatano_ok = acceptable("hatano", chosen.k, n, size)[0]
        mm_acc = gamma is not None and acceptable("mansour_mcallester", chosen.k, n, size, gamma)[0]
        if forced:
            broken_rules = []
            if flags.final and not hatano_ok:
                broken_rules.append("Hatano's Theorem 4 (k ≤ s/|T|)")
            if flags.mm and not mm_acc:
                broken_rules.append("Mansour–McAllester's Theorem 4.1 (their acceptability)")
            verb = "covers" if len(broken_rules) == 1 else "cover"
            ends = (
                f"; {' and '.join(broken_rules)} no longer {verb} this run" if broken_rules else ""
            )
            notes.append(
                f"The policy forced a {chosen.k}-way split that criterion={criterion!r} does not "
                f"accept (it {chosen.reason}){ends}."
            )
        gamma_hat = min(gamma_hat, chosen.advantage_per_level)
        flags.binary = flags.binary and rule_kept and chosen.k == 2
        flags.final = flags.final and rule_kept and hatano_ok
        if gamma is not None:
            flags.mm_boosting = flags.mm_boosting and chosen.gamma_boosting
            flags.mm = flags.mm and rule_kept and mm_acc and chosen.gamma_boosting
        kids = g.expand(leaf, chosen, t)
        mass = g.w_pos[leaf] + g.w_neg[leaf]
        i_leaf = float(ctx.index_fn(g.w_pos[leaf] / mass))
        rec = SplitRecord(
            leaf=leaf,
            arity=chosen.k,
            feature=chosen.feature,
            thresholds=chosen.thresholds,
            gain=chosen.gain,
            advantage=chosen.advantage,
            cost=chosen.price,
            score=chosen.score,
            leaf_mass=float(mass),
            leaf_q=float(g.w_pos[leaf] / mass),
            leaf_weight=float(mass * i_leaf),
            index_drop=float(mass * chosen.gain),
            children=kids,
            gamma_boosting=chosen.gamma_boosting,
            exact_search=g.exact.get(leaf, True),
            by_policy=by_policy,
            acceptable=chosen.acceptable,
            max_weight_leaf=is_max,
            algorithm_leaf=algorithm_leaf,
            algorithm_split=None if default is None else _candidate(default),
            advantage_per_level=chosen.advantage_per_level,
        )
        last = TreeStep(
            t=t,
            kind=STEP,
            tree=g.tree(),
            split=rec,
            candidates=tuple(_candidate(c) for c in cands),
            metrics=g.metrics(gamma_hat, flags),
            message=_describe(rec, t),
            note=" ".join(notes),
            size=size,
            rule_scores=tuple(rule_scores),
            leaf_rule=leaf_rule,
        )
        yield last
