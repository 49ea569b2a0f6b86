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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from . import bounds
from ._validation import check_choice, check_float, check_int, check_test_set, check_xy
from .impurity import INDEX
from .splits import Split, best_interval_splits, best_stump, branch_of, presort
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
#: partition) by default; O(K·m²) per feature keeps it under a second there.
EXACT_SEARCH_LIMIT = 2000
#: Weighted-quantile cut points per feature at larger leaves when ``max_cuts`` is not given.
LARGE_LEAF_CUTS = 256


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
        leaf could not be split, since the weak-hypothesis assumption fails there).
    bound_e : ``e_γ̂(|T|)`` — Mansour–McAllester's Theorem 3.2 for binary growth (Kearns–Mansour's
        analysis); guaranteed ``≥ I(T)`` when ``binary_guarantee`` holds.
    bound_power : ``|T|^(−γ̂) ≥ e_γ̂(|T|)`` — the same bound in Kearns–Mansour's power form.
    bound_final : ``s^(−γ̂)`` — Hatano's Theorem 4 for the final tree of size ``s``.
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
    candidates : the best split of each arity at the expanded leaf, with scores.
    metrics : :class:`TreeMetrics` at this round.
    stop_reason : why the run ended (the stop snapshot only), in plain words.
    message : a one-line summary of the round for the page.
    note : anything unusual this round (e.g. the heaviest leaf could not be split).
    size : the run's target number of leaves ``s``.
    """

    tree: Tree
    split: SplitRecord | None
    candidates: tuple[Candidate, ...]
    note: str = ""
    size: int = field(default=0)

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
            "note": self.note,
        }


def _criterion_cost(criterion: str, k: int, gamma: float | None) -> float:
    if criterion == "hatano":
        return float(bounds.ceil_log2(k))
    if criterion == "mansour_mcallester":
        return float(bounds.g_gamma(k, gamma))
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
        count steps (``n_rounds``, ``n_internal``; README "One word per concept").
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
        Before the first step, for any invalid parameter (the message names it).

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
    """
    Xv, yv, w, classes = check_xy(X, y, sample_weight)
    if sample_weight is not None and np.any(w == 0):
        # A zero weight means "ignore this point": dropping it keeps thresholds where the
        # weighted sample puts them (a weightless point must not move a midpoint).
        keep = w > 0
        Xv, yv, w = Xv[keep], yv[keep], w[keep]
    size = check_int("size", size, low=2, high=100_000)
    index_fn = INDEX[check_choice("index", index, INDEX)]
    criterion = check_choice("criterion", criterion, CRITERIA)
    max_arity = check_int("max_arity", max_arity, low=2, high=MAX_ARITY_LIMIT)
    leaf_rule = check_choice("leaf_rule", leaf_rule, LEAF_RULES)
    if max_cuts is not None:
        max_cuts = check_int("max_cuts", max_cuts, low=2, high=4096)
    cat = np.zeros(Xv.shape[1], dtype=bool)
    if categorical is not None:
        cat = np.asarray(categorical, dtype=bool).reshape(-1)
        if cat.shape != (Xv.shape[1],):
            raise ValueError(
                f"categorical must have one flag per column of X ({Xv.shape[1]}); "
                f"got shape {cat.shape}"
            )
        codes = Xv[:, cat]
        if codes.size and (np.any(codes < 0) or np.any(codes != np.round(codes))):
            raise ValueError("categorical columns must hold integer codes ≥ 0 (0, 1, 2, …)")
    if gamma is not None:
        gamma = check_float("gamma", gamma, low=0.0, high=1.0, low_open=True)
    elif criterion == "mansour_mcallester":
        raise ValueError(
            "gamma is required when criterion='mansour_mcallester' (its split price g_γ(k) "
            "depends on γ); got None"
        )
    Xt, yt = check_test_set(X_test, y_test, Xv.shape[1], classes, yv)
    return _grow(
        Xv,
        yv,
        w,
        size,
        index_fn,
        criterion,
        max_arity,
        gamma,
        leaf_rule,
        Xt,
        yt,
        max_cuts,
        cat,
    )


class _Grower:
    """Mutable state of one run; :func:`_grow` drives it and freezes snapshots."""

    def __init__(
        self, X, y, w, size, index_fn, criterion, max_arity, gamma, Xt, yt, max_cuts, cat=None
    ):
        self.X, self.y, self.w = X, y, w
        self.cat = np.zeros(X.shape[1], dtype=bool) if cat is None else cat
        # the interval searches see categorical columns as constants (no threshold is valid
        # there): those columns are split only by their value split
        self.X_num = X
        if self.cat.any():
            self.X_num = X.copy()
            self.X_num[:, self.cat] = 0.0
        self.size, self.I, self.criterion = size, index_fn, criterion
        self.max_arity, self.gamma, self.max_cuts = max_arity, gamma, max_cuts
        self.Xt, self.yt = Xt, yt
        self.parent, self.depth, self.feature = [-1], [0], [-1]
        self.thresholds: list[tuple[float, ...]] = [()]
        self.children: list[tuple[int, ...]] = [()]
        wp = float(np.sum(w[y > 0]))
        self.w_pos, self.w_neg = [wp], [float(np.sum(w)) - wp]
        self.n_samples, self.created_at = [X.shape[0]], [0]
        # Sort every feature once; nodes keep their slice of this order (feature-major rows).
        self.order = {0: presort(self.X_num)}
        self.cache: dict[int, tuple[Split | None, dict[int, Split]]] = {}
        self.exact: dict[int, bool] = {}  # per leaf: was its k-way search exact?
        # branch of each sample during an expansion (k ≤ MAX_ARITY_LIMIT = 16 fits in a byte;
        # a byte array keeps the gather scratch[order] cache-resident)
        self.scratch = np.zeros(X.shape[0], dtype=np.uint8)
        # the criterion's price of each arity (constant during a run)
        top = MAX_ARITY_LIMIT if self.cat.any() else max_arity
        self.costs = {k: _criterion_cost(criterion, k, gamma) for k in range(2, top + 1)}
        self.test_leaf = None if Xt is None else np.zeros(Xt.shape[0], dtype=np.intp)

    # -- leaves ---------------------------------------------------------------------------
    def leaves(self) -> np.ndarray:
        return np.flatnonzero(np.asarray(self.feature) < 0)

    def weight(self, node: int) -> float:
        mass = self.w_pos[node] + self.w_neg[node]
        return 0.0 if mass <= 0 else float(mass * self.I(self.w_pos[node] / mass))

    def splits_at(self, leaf: int) -> tuple[Split | None, dict[int, Split]]:
        """Best split per arity at ``leaf`` (computed once per leaf, lazily)."""
        if leaf not in self.cache:
            order = self.order.get(leaf)
            if order is None or order.shape[1] < 2:
                self.cache[leaf] = (None, {})
            else:
                o = order.T
                stump = best_stump(self.X_num, self.y, self.w, o, self.I)
                n_leaf = order.shape[1]
                cuts = self.max_cuts
                if cuts is None and n_leaf > EXACT_SEARCH_LIMIT:
                    cuts = LARGE_LEAF_CUTS
                multi = (
                    best_interval_splits(
                        self.X_num, self.y, self.w, o, self.I, self.max_arity, cuts
                    )
                    if self.max_arity > 2 and stump is not None
                    else {}
                )
                # a feature has at most n − 1 cut positions: B ≥ n − 1 tries them all
                self.exact[leaf] = self.max_arity <= 2 or cuts is None or n_leaf - 1 <= cuts
                if self.cat.any():
                    stump, multi = self._with_value_splits(order[0], stump, dict(multi))
                self.cache[leaf] = (stump, multi)
        return self.cache[leaf]

    def can_split(self, leaf: int) -> bool:
        stump, multi = self.splits_at(leaf)
        return stump is not None or bool(multi)

    def _with_value_splits(self, rows, stump, multi):
        """Add each categorical column's value split (one branch per value present) where it
        beats the interval split of the same arity (lowest column first on ties)."""
        y, w = self.y[rows], self.w[rows]
        total = float(w.sum())
        for f in np.flatnonzero(self.cat):
            xs = self.X[rows, f]
            vals = np.unique(xs)
            c = vals.size
            if c < 2 or c > MAX_ARITY_LIMIT or total <= 0:
                continue
            br = np.searchsorted(vals, xs)
            wp = np.bincount(br, weights=np.where(y > 0, w, 0.0), minlength=c)
            wall = np.bincount(br, weights=w, minlength=c)
            q = np.divide(wp, wall, out=np.full(c, 0.5), where=wall > 0)
            imp = float(np.sum(wall * self.I(q)) / total)
            cuts = tuple(float(v) for v in (vals[:-1] + vals[1:]) / 2)
            sp = Split(feature=int(f), thresholds=cuts, impurity=imp)
            if c == 2:
                if stump is None or imp < stump.impurity - 1e-12:
                    stump = sp
            elif c not in multi or imp < multi[c].impurity - 1e-12:
                multi[c] = sp
        return stump, dict(sorted(multi.items()))

    def candidates(self, leaf: int, n_leaves: int) -> tuple[list[Candidate], Candidate | None]:
        """Score the best split of each arity at ``leaf``; return them and the chosen one."""
        stump, multi = self.splits_at(leaf)
        mass = self.w_pos[leaf] + self.w_neg[leaf]
        i_leaf = float(self.I(self.w_pos[leaf] / mass)) if mass > 0 else 0.0
        out: list[Candidate] = []
        chosen: Candidate | None = None
        options = ([(2, stump)] if stump is not None else []) + sorted(multi.items())
        options = [(k, sp) for k, sp in options if k in self.costs]
        for k, sp in options:
            gain = i_leaf - sp.impurity
            cost = self.costs[k]
            ok, why = acceptable(self.criterion, k, n_leaves, self.size, self.gamma)
            cand = Candidate(
                arity=k,
                feature=sp.feature,
                thresholds=sp.thresholds,
                gain=gain,
                advantage=gain / i_leaf if i_leaf > 0 else 0.0,
                cost=cost,
                score=gain / cost,
                acceptable=ok,
                note=why,
            )
            out.append(cand)
            # strict '>' in increasing k: a tie goes to the smaller arity (spends less budget)
            if ok and (chosen is None or cand.score > chosen.score + 1e-15):
                chosen = cand
        return out, chosen

    # -- expansion ------------------------------------------------------------------------
    def expand(self, leaf: int, cand: Candidate, t: int) -> tuple[int, ...]:
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
        self.feature[leaf] = cand.feature
        self.thresholds[leaf] = cand.thresholds
        self.children[leaf] = tuple(kids)
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

    def metrics(self, gamma_hat: float, binary_ok: bool, mm_ok: bool | None) -> TreeMetrics:
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
            binary_guarantee=binary_ok,
            mm_gamma=self.gamma,
            mm_gamma_boosting=mm_ok,
        )


def _describe(rec: SplitRecord, t: int) -> str:
    thr = ", ".join(f"{v:.3g}" for v in rec.thresholds)
    return (
        f"Round {t}: leaf {rec.leaf} (weight p̂·I = {rec.leaf_weight:.3f}) split {rec.arity}-way "
        f"on x{rec.feature + 1} at {thr}; gain {rec.gain:.3f}, advantage {rec.advantage:.2f}, "
        f"score {rec.score:.3f}; I(T) drops by {rec.index_drop:.3f}."
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


def _grow(
    X, y, w, size, index_fn, criterion, max_arity, gamma, leaf_rule, Xt, yt, max_cuts, cat=None
):
    g = _Grower(X, y, w, size, index_fn, criterion, max_arity, gamma, Xt, yt, max_cuts, cat)
    gamma_hat = float("inf")
    binary_ok = leaf_rule == "max_weight"
    mm_ok: bool | None = None if gamma is None else True
    last = TreeStep(
        t=0,
        kind=START,
        tree=g.tree(),
        split=None,
        candidates=(),
        metrics=g.metrics(gamma_hat, binary_ok, mm_ok),
        message="Round 0: a single leaf predicting the weighted majority class.",
        size=size,
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
        note = ""
        chosen = None
        if splittable.any():
            if leaf_rule == "max_weight":
                heaviest = int(leaves[int(np.argmax(weights))])
                pos, broken = max_weight_choice(weights, splittable)
                leaf = int(leaves[pos])
                if broken:
                    gamma_hat = 0.0
                    note = (
                        f"The heaviest leaf {heaviest} cannot be split (its points share the "
                        f"same features but not the same label): the weak-hypothesis assumption "
                        f"fails there, so γ̂ = 0. Leaf {leaf} is expanded instead."
                    )
                cands, chosen = g.candidates(leaf, leaves.size)
            else:
                best_val = -np.inf
                for l in leaves[splittable]:
                    cs, ch = g.candidates(int(l), leaves.size)
                    if ch is None:
                        continue
                    mass = g.w_pos[l] + g.w_neg[l]
                    if mass * ch.score > best_val + 1e-15:
                        best_val, leaf, cands, chosen = mass * ch.score, int(l), cs, ch
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
                metrics=g.metrics(gamma_hat, binary_ok, mm_ok),
                stop_reason=reason,
                message=f"{last.message} Stopped at {leaves.size} of {size} leaves. {reason}",
            )
            return
        t += 1
        mass = g.w_pos[leaf] + g.w_neg[leaf]
        i_leaf = float(index_fn(g.w_pos[leaf] / mass))
        ratio = chosen.gain / (bounds.ceil_log2(chosen.arity) * i_leaf)
        gamma_hat = min(gamma_hat, ratio)
        if chosen.arity > 2:
            binary_ok = False
        boosting = None
        if gamma is not None:
            boosting = bool(
                chosen.gain / bounds.g_gamma(chosen.arity, gamma) >= gamma * i_leaf - 1e-12
            )
            mm_ok = mm_ok and boosting
        kids = g.expand(leaf, chosen, t)
        rec = SplitRecord(
            leaf=leaf,
            arity=chosen.arity,
            feature=chosen.feature,
            thresholds=chosen.thresholds,
            gain=chosen.gain,
            advantage=chosen.advantage,
            cost=chosen.cost,
            score=chosen.score,
            leaf_mass=float(mass),
            leaf_q=float(g.w_pos[leaf] / mass),
            leaf_weight=float(mass * i_leaf),
            index_drop=float(mass * chosen.gain),
            children=kids,
            gamma_boosting=boosting,
            exact_search=g.exact.get(leaf, True),
        )
        last = TreeStep(
            t=t,
            kind=STEP,
            tree=g.tree(),
            split=rec,
            candidates=tuple(cands),
            metrics=g.metrics(gamma_hat, binary_ok, mm_ok),
            message=_describe(rec, t),
            note=note,
            size=size,
        )
        yield last
