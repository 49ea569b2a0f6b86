"""Cross-validated comparison of every algorithm with scikit-learn peers (issue 7).

Like :mod:`boostcore.estimators`, this module is an adapter: it imports scikit-learn (for the
peers and the stratified folds) and scipy.stats, never Streamlit. The benchmark script
``benchmarks/run_benchmark.py`` and the benchmark page both use it.

Protocol: stratified k-fold cross-validation with one fixed seed, the *same* folds for every
learner; missing values and categorical attributes are prepared per fold by
:class:`boostcore.real_datasets.Preprocessor` fitted on the training fold only (fold-safe).
Budgets are matched the way the papers match them and stated in :data:`LEARNERS`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._validation import RandomState, seed_of

#: Leaves of every tree learner (and internal nodes + 1 of BoostODT's default shape).
TREE_LEAVES = 16
#: Rounds of the boosting learners that add one stump per round.
ROUNDS = 30
#: BoostODT's shape: an observation visits depth × T1 = 3 × 10 = 30 stumps, the budget the
#: paper gives AdaBoost (Henry–Nock–Nielsen §5: rounds = nodes an observation visits).
ODT_NODES, ODT_STUMPS = 7, 10


@dataclass(frozen=True)
class Learner:
    """A named learner: a factory of a fresh scikit-learn-style classifier and its budget.

    Attributes
    ----------
    name : str
        Unique display name (the key :func:`learners` and :func:`compare` use).
    family : str
        ``"tree"``, ``"branching"``, ``"probabilistic"``, ``"boosting"`` or ``"oblique"``.
    budget : str
        The size budget, in words (e.g. ``"16 leaves"``).
    make : callable
        Returns a fresh, unfitted classifier with ``fit`` and ``predict``.
    ours : bool, default=True
        False for the scikit-learn and optional PyPI peers.
    native_categorical : bool, default=False
        True when the learner is fed integer category codes and told which columns they are.

    Examples
    --------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from boostcore.evaluation import Learner
    >>> lrn = Learner("stump", "tree", "2 leaves",
    ...               lambda: DecisionTreeClassifier(max_depth=1), ours=False)
    >>> lrn.make().get_params()["max_depth"], lrn.native_categorical
    (1, False)
    """

    name: str
    family: str
    budget: str
    make: Callable[[], object]
    ours: bool = True
    #: fed integer category codes and told which columns they are (native value splits)
    native_categorical: bool = False


def _ours() -> list[Learner]:
    from .estimators import (
        BoostODTClassifier,
        BPInfoBoostClassifier,
        ProbabilisticBoostClassifier,
        RealAdaBoostClassifier,
        TopDownTreeClassifier,
    )

    return [
        Learner(
            "TopDown-M (Hatano, k ≤ 4)",
            "tree",
            f"{TREE_LEAVES} leaves",
            lambda: TopDownTreeClassifier(size=TREE_LEAVES, max_arity=4),
        ),
        Learner(
            "TopDown-M, native value splits",
            "tree",
            f"{TREE_LEAVES} leaves",
            lambda: TopDownTreeClassifier(size=TREE_LEAVES, max_arity=4),
            native_categorical=True,
        ),
        Learner(
            "TopDown binary (Kearns–Mansour)",
            "tree",
            f"{TREE_LEAVES} leaves",
            lambda: TopDownTreeClassifier(size=TREE_LEAVES, max_arity=2),
        ),
        Learner(
            "InfoBoost (merge all)",
            "branching",
            f"{ROUNDS} rounds",
            lambda: BPInfoBoostClassifier(n_rounds=ROUNDS, merge="all"),
        ),
        Learner(
            "BP.InfoBoost (bands)",
            "branching",
            f"{ROUNDS} rounds",
            lambda: BPInfoBoostClassifier(n_rounds=ROUNDS, merge="bands"),
        ),
        Learner(
            "DT.InfoBoost (merge none)",
            "branching",
            f"{ROUNDS} rounds",
            lambda: BPInfoBoostClassifier(n_rounds=ROUNDS, merge="none"),
        ),
        Learner(
            "probabilistic tree",
            "probabilistic",
            f"{TREE_LEAVES} soft stumps",
            lambda: ProbabilisticBoostClassifier(structure="tree", n_weak=TREE_LEAVES),
        ),
        Learner(
            "matryoshka",
            "probabilistic",
            f"{TREE_LEAVES} soft stumps",
            lambda: ProbabilisticBoostClassifier(structure="matryoshka", n_weak=TREE_LEAVES),
        ),
        Learner(
            "RealAdaBoost (stumps)",
            "boosting",
            f"{ROUNDS} stumps",
            lambda: RealAdaBoostClassifier(n_estimators=ROUNDS),
        ),
        Learner(
            "BoostODT (stumps)",
            "oblique",
            f"{ODT_NODES} nodes × {ODT_STUMPS} stumps",
            lambda: BoostODTClassifier(n_internal=ODT_NODES, n_stumps=ODT_STUMPS),
        ),
        Learner(
            "BoostODT (hyperplane)",
            "oblique",
            f"{ODT_NODES} nodes × {ODT_STUMPS}",
            lambda: BoostODTClassifier(
                n_internal=ODT_NODES, n_stumps=ODT_STUMPS, weak="hyperplane"
            ),
        ),
    ]


def _peers() -> list[Learner]:
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    out = [
        Learner(
            "sklearn DecisionTree",
            "tree",
            f"{TREE_LEAVES} leaves",
            lambda: DecisionTreeClassifier(max_leaf_nodes=TREE_LEAVES, random_state=0),
            ours=False,
        ),
        Learner(
            "sklearn AdaBoost (stumps)",
            "boosting",
            f"{ROUNDS} stumps",
            lambda: AdaBoostClassifier(
                DecisionTreeClassifier(max_depth=1), n_estimators=ROUNDS, random_state=0
            ),
            ours=False,
        ),
        # the paper's AdaBoost + C4.5 stand-in: unpruned trees, as many rounds as BoostODT
        # has internal nodes on a path (its depth) — the evaluation cost of one observation
        Learner(
            "sklearn AdaBoost (unpruned trees)",
            "boosting",
            "3 unpruned trees",
            lambda: AdaBoostClassifier(
                DecisionTreeClassifier(random_state=0), n_estimators=3, random_state=0
            ),
            ours=False,
        ),
    ]
    return out + _optional_peers()


#: Optional oblique-tree peers from PyPI (``requirements-peers.txt``): used when they import.
OPTIONAL_PEERS = {
    "obliquetree": "obliquetree (oblique CART, depth 3)",
    "oc1": "OC1 (oblique-classifier-1, depth 3)",
    "treeple": "treeple ObliqueDecisionTree (16 leaves)",
}


class _LabelsAsInts:
    """Wraps a classifier that wants labels 0…c−1 (OC1, obliquetree) so it takes any labels."""

    def __init__(self, model) -> None:
        self.model = model

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.model.fit(np.asarray(X, dtype=float), np.searchsorted(self.classes_, y))
        return self

    def predict(self, X):
        return self.classes_[np.asarray(self.model.predict(np.asarray(X, dtype=float)), int)]


def peer_status() -> dict[str, str]:
    """Which optional peers import here, and why not when they do not.

    Returns
    -------
    dict of str to str
        For each module of :data:`OPTIONAL_PEERS`: ``"available"`` or
        ``"unavailable: <error type>: <message>"``.

    Examples
    --------
    >>> from boostcore.evaluation import OPTIONAL_PEERS, peer_status
    >>> status = peer_status()
    >>> sorted(status) == sorted(OPTIONAL_PEERS)
    True
    >>> all(v == "available" or v.startswith("unavailable: ") for v in status.values())
    True
    """
    out = {}
    for mod in OPTIONAL_PEERS:
        try:
            __import__(mod)
            out[mod] = "available"
        except Exception as err:  # noqa: BLE001 — an import of a compiled package can raise anything
            out[mod] = f"unavailable: {type(err).__name__}: {str(err)[:120]}"
    return out


def _optional_peers() -> list[Learner]:
    status = peer_status()
    out = []
    if status["obliquetree"] == "available":
        from obliquetree import Classifier

        out.append(
            Learner(
                OPTIONAL_PEERS["obliquetree"],
                "oblique",
                "depth 3 (8 leaves)",
                lambda: _LabelsAsInts(Classifier(use_oblique=True, max_depth=3, random_state=0)),
                ours=False,
            )
        )
    if status["oc1"] == "available":
        from oc1 import ObliqueDecisionTree

        # one restart and 20 hill-climbing steps: the pure-Python OC1 takes seconds per fit
        out.append(
            Learner(
                OPTIONAL_PEERS["oc1"],
                "oblique",
                "depth 3 (8 leaves)",
                lambda: _LabelsAsInts(
                    ObliqueDecisionTree(
                        max_depth=3, n_restarts=1, max_iterations=20, random_state=0
                    )
                ),
                ours=False,
            )
        )
    if status["treeple"] == "available":
        from treeple import ObliqueDecisionTreeClassifier

        out.append(
            Learner(
                OPTIONAL_PEERS["treeple"],
                "oblique",
                f"{TREE_LEAVES} leaves",
                lambda: ObliqueDecisionTreeClassifier(max_leaf_nodes=TREE_LEAVES, random_state=0),
                ours=False,
            )
        )
    return out


def learners(names: Iterable[str] | None = None) -> list[Learner]:
    """Every learner (ours, then the peers), or those named (unknown names: ``ValueError``).

    Parameters
    ----------
    names : iterable of str, optional
        Names of :class:`Learner`; ``None`` (default) gives every learner, including the
        optional peers of :data:`OPTIONAL_PEERS` that import here.

    Returns
    -------
    list of Learner
        In the order of ``names`` when given.

    Raises
    ------
    ValueError
        If a name is unknown (the message lists the known ones).

    Examples
    --------
    >>> from boostcore.evaluation import learners
    >>> [lrn.budget for lrn in learners(["sklearn DecisionTree", "RealAdaBoost (stumps)"])]
    ['16 leaves', '30 stumps']
    >>> learners()[0].name
    'TopDown-M (Hatano, k ≤ 4)'
    """
    every = _ours() + _peers()
    if names is None:
        return every
    names = list(names)
    known = {lrn.name: lrn for lrn in every}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown learners {unknown}; known: {list(known)}")
    return [known[n] for n in names]


def stratified_folds(
    y: np.ndarray, n_folds: int, random_state: RandomState = 0
) -> list[np.ndarray]:
    """Test indices of each fold (scikit-learn's ``StratifiedKFold`` with shuffling).

    Parameters
    ----------
    y : ndarray, shape (m,)
        Class labels.
    n_folds : int ``≥ 2``
        Number of folds (at most the size of the smallest class).
    random_state : None, int or numpy.random.Generator, default=0
        The shuffle's randomness (boostcore's convention; an int is a seed: the same seed
        gives the same folds; scikit-learn's splitter gets :func:`~boostcore._validation.seed_of`).

    Returns
    -------
    list of ndarray of int
        The test indices of each fold; together they cover ``0 … m − 1`` once.

    Raises
    ------
    ValueError
        From scikit-learn, if ``n_folds < 2`` or exceeds the number of samples.

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.evaluation import stratified_folds
    >>> folds = stratified_folds(np.array([1, -1] * 5), n_folds=5)
    >>> [len(test) for test in folds]
    [2, 2, 2, 2, 2]
    >>> sorted(np.concatenate(folds).tolist()) == list(range(10))
    True
    """
    from sklearn.model_selection import StratifiedKFold

    skf = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed_of(random_state))
    return [test for _, test in skf.split(np.zeros(len(y)), y)]


def model_size(model) -> int:
    """Leaves, weak hypotheses or nodes: a rough size of a fitted model.

    Parameters
    ----------
    model : object
        A fitted classifier.

    Returns
    -------
    int
        ``tree_.n_leaves`` (or ``tree_.node_count``, or the number of ``tree_.leaves``), else
        the length of ``estimators_`` or ``steps_``; ``-1`` when the model has none of these.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from boostcore.evaluation import model_size
    >>> X = np.arange(8.0).reshape(-1, 1)
    >>> y = np.array([0, 0, 1, 1, 0, 0, 1, 1])
    >>> model_size(DecisionTreeClassifier(max_leaf_nodes=3).fit(X, y))
    3
    >>> model_size(object())
    -1
    """
    for attr in ("tree_",):
        tree = getattr(model, attr, None)
        if tree is not None:
            for name in ("n_leaves", "node_count"):
                value = getattr(tree, name, None)
                if value is not None:
                    return int(value)
            if hasattr(tree, "leaves"):
                return len(tree.leaves)
    for attr in ("estimators_", "steps_"):
        seq = getattr(model, attr, None)
        if seq is not None:
            return len(seq)
    return -1


def cross_validate(
    name: str,
    X: np.ndarray,
    y: np.ndarray,
    categorical: np.ndarray,
    chosen: Sequence[Learner],
    *,
    n_folds: int = 10,
    random_state: RandomState = 0,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[dict]:
    """One row per (learner, fold): test error, fit time, model size.

    ``progress(done, total, text)`` is called after every fit, so a caller can show a bar.

    Parameters
    ----------
    name : str
        Dataset name, copied into every row.
    X : ndarray of float, shape (m, d)
        Features as :func:`boostcore.real_datasets.load_real` gives them (categorical columns
        as codes, missing as NaN); a :class:`~boostcore.real_datasets.Preprocessor` is fitted
        on each training fold.
    y : ndarray, shape (m,)
        Labels.
    categorical : ndarray of bool, shape (d,)
        Which columns are categorical.
    chosen : sequence of Learner
        The learners, e.g. ``learners([...])``.
    n_folds : int ``≥ 2``, default=10
        Number of stratified folds.
    random_state : None, int or numpy.random.Generator, default=0
        The folds' randomness (every learner sees the same folds).
    progress : callable, optional
        ``progress(done, total, text)``, called after every fit.

    Returns
    -------
    list of dict
        Keys ``dataset``, ``learner``, ``family``, ``budget``, ``ours``, ``fold``,
        ``test_error``, ``fit_seconds`` and ``size`` (:func:`model_size`).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.evaluation import cross_validate, learners
    >>> X = np.arange(20.0).reshape(-1, 1)
    >>> y = np.where(X[:, 0] < 10, -1, 1)
    >>> rows = cross_validate("line", X, y, np.array([False]),
    ...                       learners(["sklearn DecisionTree"]), n_folds=2)
    >>> [(r["fold"], r["size"]) for r in rows]
    [(0, 2), (1, 2)]
    >>> all(0.0 <= r["test_error"] <= 1.0 for r in rows)
    True
    """
    from .real_datasets import Preprocessor

    folds = stratified_folds(y, n_folds, random_state)
    total = len(folds) * len(chosen)
    rows = []
    done = 0
    for f, test in enumerate(folds):
        train = np.setdiff1d(np.arange(len(y)), test)
        prep = Preprocessor(encode="onehot").fit(X[train], categorical)
        Xtr, Xte = prep.transform(X[train]), prep.transform(X[test])
        codes = Preprocessor(encode="codes").fit(X[train], categorical)
        Ctr, Cte = codes.transform(X[train]), codes.transform(X[test])
        for lrn in chosen:
            model = lrn.make()
            A, B = Xtr, Xte
            if lrn.native_categorical:
                model.set_params(categorical=codes.categorical_out)
                A, B = Ctr, Cte
            t0 = time.perf_counter()
            model.fit(A, y[train])
            fit = time.perf_counter() - t0
            err = float(np.mean(model.predict(B) != y[test]))
            rows.append(
                {
                    "dataset": name,
                    "learner": lrn.name,
                    "family": lrn.family,
                    "budget": lrn.budget,
                    "ours": lrn.ours,
                    "fold": f,
                    "test_error": err,
                    "fit_seconds": fit,
                    "size": model_size(model),
                }
            )
            done += 1
            if progress is not None:
                progress(done, total, f"{name}: {lrn.name}, fold {f + 1}/{len(folds)}")
    return rows


def read_folds(path) -> list[dict]:
    """The per-fold rows :func:`cross_validate` wrote to a CSV file (``folds.csv``).

    Their numbers and flags come back in their types (``fold`` int; ``test_error``,
    ``fit_seconds`` and ``size`` float; ``ours`` bool); other columns stay strings.

    Parameters
    ----------
    path : str or path-like
        A UTF-8 CSV file with a header row holding at least ``fold``, ``test_error``,
        ``fit_seconds``, ``size`` and ``ours``.

    Returns
    -------
    list of dict
        One dict per data row.

    Examples
    --------
    >>> import csv, os, tempfile
    >>> from boostcore.evaluation import read_folds
    >>> fd, path = tempfile.mkstemp(suffix=".csv")
    >>> with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
    ...     csv.writer(fh).writerows([["learner", "ours", "fold", "test_error",
    ...                                "fit_seconds", "size"], ["A", True, 0, 0.25, 0.5, 4]])
    >>> row = read_folds(path)[0]
    >>> row["learner"], row["ours"], row["fold"], row["test_error"], row["size"]
    ('A', True, 0, 0.25, 4.0)
    >>> os.remove(path)
    """
    import csv

    with open(path, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r["fold"] = int(r["fold"])
        r["test_error"] = float(r["test_error"])
        r["fit_seconds"] = float(r["fit_seconds"])
        r["size"] = float(r["size"])
        r["ours"] = r["ours"] == "True"
    return rows


def summarise(rows: Sequence[dict]) -> list[dict]:
    """Mean ± sd of test error, mean fit time and size per (dataset, learner).

    Parameters
    ----------
    rows : sequence of dict
        Rows of :func:`cross_validate` (or :func:`read_folds`).

    Returns
    -------
    list of dict
        Sorted by (dataset, learner); keys ``dataset``, ``learner``, ``folds``,
        ``error_mean``, ``error_sd`` (sample sd, 0 for one fold), ``fit_seconds`` and ``size``.

    Examples
    --------
    >>> from boostcore.evaluation import summarise
    >>> rows = [{"dataset": ds, "learner": lrn, "fold": f, "test_error": e,
    ...          "fit_seconds": 0.1, "size": 4}
    ...         for ds, ea, eb in [("d1", [0.1, 0.2, 0.1, 0.2], [0.3, 0.4, 0.3, 0.5]),
    ...                            ("d2", [0.2, 0.2, 0.3, 0.3], [0.2, 0.3, 0.3, 0.3])]
    ...         for lrn, es in (("A", ea), ("B", eb)) for f, e in enumerate(es)]
    >>> first = summarise(rows)[0]
    >>> first["dataset"], first["learner"], first["folds"]
    ('d1', 'A', 4)
    >>> round(first["error_mean"], 4), round(first["error_sd"], 4)
    (0.15, 0.0577)
    """
    keys = sorted({(r["dataset"], r["learner"]) for r in rows})
    out = []
    for ds, lrn in keys:
        sel = [r for r in rows if r["dataset"] == ds and r["learner"] == lrn]
        errs = np.array([r["test_error"] for r in sel])
        out.append(
            {
                "dataset": ds,
                "learner": lrn,
                "folds": len(sel),
                "error_mean": float(errs.mean()),
                "error_sd": float(errs.std(ddof=1)) if len(errs) > 1 else 0.0,
                "fit_seconds": float(np.mean([r["fit_seconds"] for r in sel])),
                "size": float(np.mean([r["size"] for r in sel])),
            }
        )
    return out


def compare(rows: Sequence[dict], a: str, b: str, *, tie: float = 1e-9) -> dict:
    """``a`` against ``b`` over every (dataset, fold) they share and over datasets.

    Per dataset: the paired t-test on the fold errors (``p_t``) decides win/tie/loss at 5 %;
    across datasets: wins/ties/losses of the mean errors and a two-sided sign test.

    Parameters
    ----------
    rows : sequence of dict
        Rows with ``dataset``, ``learner``, ``fold`` and ``test_error``.
    a, b : str
        The two learner names.
    tie : float ``≥ 0``, default=1e-9
        Mean error differences at most ``tie`` count as ties (and fold differences that small
        everywhere skip the t-test: ``p_t = 1``).

    Returns
    -------
    dict
        ``a``, ``b``, ``wins``, ``ties``, ``losses`` (a's mean error lower / equal / higher),
        ``sign_p`` (two-sided sign test, ties left out; 1 when there is no win or loss) and
        ``details``: per shared dataset, ``dataset``, ``a`` and ``b`` (mean errors), ``diff``
        (a − b), ``p_t`` and ``significant`` (``p_t < 0.05``).

    Examples
    --------
    >>> from boostcore.evaluation import compare
    >>> rows = [{"dataset": ds, "learner": lrn, "fold": f, "test_error": e,
    ...          "fit_seconds": 0.1, "size": 4}
    ...         for ds, ea, eb in [("d1", [0.1, 0.2, 0.1, 0.2], [0.3, 0.4, 0.3, 0.5]),
    ...                            ("d2", [0.2, 0.2, 0.3, 0.3], [0.2, 0.3, 0.3, 0.3])]
    ...         for lrn, es in (("A", ea), ("B", eb)) for f, e in enumerate(es)]
    >>> res = compare(rows, "A", "B")
    >>> res["wins"], res["ties"], res["losses"], res["sign_p"]
    (2, 0, 0, 0.5)
    >>> [(d["dataset"], round(d["diff"], 4), d["significant"]) for d in res["details"]]
    [('d1', -0.225, True), ('d2', -0.025, False)]
    """
    per = {}
    for r in rows:
        if r["learner"] in (a, b):
            per.setdefault(r["dataset"], {}).setdefault(r["learner"], {})[r["fold"]] = r[
                "test_error"
            ]
    wins = ties = losses = 0
    details = []
    for ds, d in sorted(per.items()):
        if a not in d or b not in d:
            continue
        folds = sorted(set(d[a]) & set(d[b]))
        ea = np.array([d[a][f] for f in folds])
        eb = np.array([d[b][f] for f in folds])
        diff = ea - eb
        if len(folds) > 1 and np.any(np.abs(diff) > tie):
            p = float(stats.ttest_rel(ea, eb).pvalue)
        else:
            p = 1.0
        mean = float(diff.mean())
        if abs(mean) <= tie:
            ties += 1
        elif mean < 0:
            wins += 1
        else:
            losses += 1
        details.append(
            {
                "dataset": ds,
                "a": float(ea.mean()),
                "b": float(eb.mean()),
                "diff": mean,
                "p_t": p,
                "significant": bool(p < 0.05),
            }
        )
    n = wins + losses
    sign_p = float(stats.binomtest(wins, n).pvalue) if n else 1.0
    return {
        "a": a,
        "b": b,
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "sign_p": sign_p,
        "details": details,
    }


#: The papers' claims: (title, learner a, learner b); each says that a is at least as accurate
#: as b (or better), judged by :func:`verdict`.
CLAIMS = [
    (
        "Takimoto et al.: BP.InfoBoost's merging is at least as accurate as InfoBoost",
        "BP.InfoBoost (bands)",
        "InfoBoost (merge all)",
    ),
    (
        "Takimoto et al.: BP.InfoBoost avoids DT.InfoBoost's overfitting",
        "BP.InfoBoost (bands)",
        "DT.InfoBoost (merge none)",
    ),
    (
        "Henry–Nock–Nielsen: BoostODT is at least as accurate as AdaBoost + trees",
        "BoostODT (stumps)",
        "sklearn AdaBoost (unpruned trees)",
    ),
    (
        "Henry–Nock–Nielsen: BoostODT is at least as accurate as OC1",
        "BoostODT (stumps)",
        "OC1 (oblique-classifier-1, depth 3)",
    ),
    (
        "Hatano: multi-way TOPDOWN-M vs binary at equal size",
        "TopDown-M (Hatano, k ≤ 4)",
        "TopDown binary (Kearns–Mansour)",
    ),
    (
        "Hatano: native multi-way value splits vs binary splits on one-hot attributes",
        "TopDown-M, native value splits",
        "TopDown binary (Kearns–Mansour)",
    ),
]


#: The verdicts :func:`verdict` can return: how learner a compares with learner b.
VERDICTS = ("better", "worse", "mixed", "no significant difference", "not compared")

#: :func:`verdict`'s rule in one plain sentence (shown on the benchmark page and in claims.md).
VERDICT_RULE = (
    "Verdict rule: a is called better than b when it wins on significantly more datasets "
    "than it loses (two-sided sign test, 5 %), or else when it is significantly better "
    "(paired t-test over the folds, 5 %) on at least one dataset and significantly worse on "
    "none; worse is the mirror image; mixed when it is significantly better on some datasets "
    "and significantly worse on others; otherwise no significant difference."
)


def significant_counts(result: dict, *, alpha: float = 0.05) -> tuple[int, int]:
    """Datasets on which a is significantly better and significantly worse than b.

    Parameters
    ----------
    result : dict
        The output of :func:`compare`.
    alpha : float, default 0.05
        Level of the per-dataset paired t-test (``p_t < alpha`` is significant).

    Returns
    -------
    tuple of (int, int)
        Significant wins (a's mean error lower) and significant losses.

    Examples
    --------
    >>> from boostcore.evaluation import significant_counts
    >>> result = {"details": [{"p_t": 0.01, "diff": -0.2}, {"p_t": 0.3, "diff": 0.1},
    ...                       {"p_t": 0.04, "diff": 0.05}]}
    >>> significant_counts(result)
    (1, 1)
    >>> significant_counts(result, alpha=0.02)
    (1, 0)
    """
    wins = sum(1 for d in result["details"] if d["p_t"] < alpha and d["diff"] < 0)
    losses = sum(1 for d in result["details"] if d["p_t"] < alpha and d["diff"] > 0)
    return wins, losses


def verdict(result: dict, *, alpha: float = 0.05) -> str:
    """How learner a compares with learner b over the datasets: one phrase of :data:`VERDICTS`.

    The one rule behind every verdict the app states: the benchmark page and
    ``benchmarks/run_benchmark.py`` (which writes ``claims.md``, the source of the table in
    docs/benchmarks.md) both call it. In order:

    1. no shared dataset: ``"not compared"``;
    2. the two-sided sign test on the datasets' wins and losses (ties left out) has
       ``p < alpha``: ``"better"`` if wins > losses, else ``"worse"``;
    3. otherwise, counting datasets whose paired t-test over the folds has ``p < alpha``:
       significant wins and no significant loss: ``"better"``; significant losses and no
       significant win: ``"worse"``; both: ``"mixed"``; neither:
       ``"no significant difference"``.

    Every claim checked states that a is at least as accurate as b (or better): ``"better"``
    supports it, ``"worse"`` contradicts it, ``"mixed"`` and ``"no significant difference"``
    neither. The rule does not correct for testing many datasets: with twelve datasets at
    5 %, one significant dataset can happen by chance, which step 3 accepts.

    Parameters
    ----------
    result : dict
        The output of :func:`compare` (``wins``, ``losses``, ``sign_p`` and ``details`` with
        each dataset's ``diff`` = a − b mean error and paired t ``p_t``).
    alpha : float, default 0.05
        Level of both tests.

    Returns
    -------
    str
        One of :data:`VERDICTS`.

    Examples
    --------
    One win, eight ties and three losses, none significant (sign test p = 0.62):
    ``"no significant difference"``. Seven wins, two ties, three losses with three
    significant wins and no significant loss: ``"better"``.

    >>> from boostcore.evaluation import compare, verdict
    >>> rows = [{"dataset": ds, "learner": lrn, "fold": f, "test_error": e,
    ...          "fit_seconds": 0.1, "size": 4}
    ...         for ds, ea, eb in [("d1", [0.1, 0.2, 0.1, 0.2], [0.3, 0.4, 0.3, 0.5]),
    ...                            ("d2", [0.2, 0.2, 0.3, 0.3], [0.2, 0.3, 0.3, 0.3])]
    ...         for lrn, es in (("A", ea), ("B", eb)) for f, e in enumerate(es)]
    >>> verdict(compare(rows, "A", "B"))  # sign test p = 0.5, one significant win
    'better'
    >>> verdict(compare(rows, "B", "A"))
    'worse'
    >>> verdict(compare(rows, "A", "no such learner"))
    'not compared'
    """
    if not result["details"]:
        return "not compared"
    w, lo = result["wins"], result["losses"]
    if w + lo and result["sign_p"] < alpha and w != lo:
        return "better" if w > lo else "worse"
    sig_win, sig_loss = significant_counts(result, alpha=alpha)
    if sig_win and sig_loss:
        return "mixed"
    if sig_win:
        return "better"
    if sig_loss:
        return "worse"
    return "no significant difference"


def describe(result: dict, *, alpha: float = 0.05) -> str:
    """The counts behind :func:`verdict`, in one sentence.

    Parameters
    ----------
    result : dict
        The output of :func:`compare`.
    alpha : float, default 0.05
        Level of the per-dataset paired t-test.

    Returns
    -------
    str
        Wins, ties and losses with the sign test's p, then the significant wins and losses.

    Examples
    --------
    >>> from boostcore.evaluation import compare, describe
    >>> rows = [{"dataset": ds, "learner": lrn, "fold": f, "test_error": e,
    ...          "fit_seconds": 0.1, "size": 4}
    ...         for ds, ea, eb in [("d1", [0.1, 0.2, 0.1, 0.2], [0.3, 0.4, 0.3, 0.5]),
    ...                            ("d2", [0.2, 0.2, 0.3, 0.3], [0.2, 0.3, 0.3, 0.3])]
    ...         for lrn, es in (("A", ea), ("B", eb)) for f, e in enumerate(es)]
    >>> print(describe(compare(rows, "A", "B")))
    2 wins, 0 ties, 0 losses (sign test p = 0.50); significant at 5 % (paired t): 1 win, 0 losses.
    """
    sig_win, sig_loss = significant_counts(result, alpha=alpha)
    return (
        f"{_n(result['wins'], 'win')}, {_n(result['ties'], 'tie')}, "
        f"{_n(result['losses'], 'loss')} (sign test p = {result['sign_p']:.2f}); "
        f"significant at {alpha * 100:g} % (paired t): {_n(sig_win, 'win')}, "
        f"{_n(sig_loss, 'loss')}."
    )


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "es" if word.endswith("s") else "s")


#: Learners whose error can be followed as the budget grows: (name, budget axis).
STAGED = {
    "TopDown binary (Kearns–Mansour)": "leaves",
    "TopDown-M (Hatano, k ≤ 4)": "leaves",
    "sklearn DecisionTree": "leaves",
    "InfoBoost (merge all)": "rounds",
    "BP.InfoBoost (bands)": "rounds",
    "DT.InfoBoost (merge none)": "rounds",
    "RealAdaBoost (stumps)": "rounds",
    "sklearn AdaBoost (stumps)": "rounds",
    "BoostODT (stumps)": "internal nodes",
}


def _staged_errors(name: str, model, Xte: np.ndarray, yte: np.ndarray, Xtr, ytr):
    """``(budget, test error)`` after every stage of a fitted model."""
    if name == "sklearn DecisionTree":
        from sklearn.tree import DecisionTreeClassifier

        out = []
        for leaves in range(2, TREE_LEAVES + 1):
            m = DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=0).fit(Xtr, ytr)
            out.append((leaves, float(np.mean(m.predict(Xte) != yte))))
        return out
    if name.startswith("sklearn AdaBoost"):
        return [(i + 1, float(np.mean(p != yte))) for i, p in enumerate(model.staged_predict(Xte))]
    classes = model.classes_
    preds = [classes[(np.asarray(f) > 0).astype(int)] for f in model.staged_decision_function(Xte)]
    if name.startswith("TopDown"):  # staged over the rounds: the start, then every step
        budgets = [s.tree.n_leaves for s in model.steps_ if s.kind != "stop"]
    elif name.startswith("BoostODT"):  # staged over the steps (one per internal node)
        budgets = [s.t for s in model.steps_ if s.kind == "step"]
    else:
        budgets = [i + 1 for i in range(len(preds))]
    return [(b, float(np.mean(p != yte))) for b, p in zip(budgets, preds)]


def budget_curves(
    name: str,
    X: np.ndarray,
    y: np.ndarray,
    categorical: np.ndarray,
    names: Sequence[str] | None = None,
    *,
    n_folds: int = 10,
    random_state: RandomState = 0,
) -> list[dict]:
    """Cross-validated test error as the budget grows: one row per (learner, budget, fold).

    The folds are those of :func:`cross_validate` (same ``n_folds`` and ``random_state``); each
    training fold is one-hot encoded by a :class:`~boostcore.real_datasets.Preprocessor`.

    Parameters
    ----------
    name : str
        Dataset name, copied into every row.
    X : ndarray of float, shape (m, d)
        Features (categorical columns as codes, missing as NaN).
    y : ndarray, shape (m,)
        Labels.
    categorical : ndarray of bool, shape (d,)
        Which columns are categorical.
    names : sequence of str, optional
        Learner names; those not in :data:`STAGED` are skipped. Default: every key of
        :data:`STAGED`.
    n_folds : int ``≥ 2``, default=10
        Number of stratified folds.
    random_state : None, int or numpy.random.Generator, default=0
        The folds' randomness.

    Returns
    -------
    list of dict
        Keys ``dataset``, ``learner``, ``axis`` (``STAGED[learner]``), ``budget`` (int),
        ``fold`` and ``test_error``.

    Raises
    ------
    ValueError
        If a name in :data:`STAGED` is not a known learner (cannot happen with the shipped
        tables).

    Examples
    --------
    >>> import numpy as np
    >>> from boostcore.evaluation import budget_curves
    >>> X = np.arange(20.0).reshape(-1, 1)
    >>> y = np.where(X[:, 0] < 10, -1, 1)
    >>> rows = budget_curves("line", X, y, np.array([False]), ["sklearn DecisionTree"],
    ...                      n_folds=2)
    >>> sorted({(r["axis"], r["budget"]) for r in rows})[:3]
    [('leaves', 2), ('leaves', 3), ('leaves', 4)]
    >>> len(rows)  # budgets 2 … 16, two folds
    30
    """
    from .real_datasets import Preprocessor

    chosen = learners([n for n in (names or STAGED) if n in STAGED])
    rows = []
    for f, test in enumerate(stratified_folds(y, n_folds, random_state)):
        train = np.setdiff1d(np.arange(len(y)), test)
        prep = Preprocessor(encode="onehot").fit(X[train], categorical)
        Xtr, Xte = prep.transform(X[train]), prep.transform(X[test])
        for lrn in chosen:
            model = lrn.make().fit(Xtr, y[train])
            for budget, err in _staged_errors(lrn.name, model, Xte, y[test], Xtr, y[train]):
                rows.append(
                    {
                        "dataset": name,
                        "learner": lrn.name,
                        "axis": STAGED[lrn.name],
                        "budget": int(budget),
                        "fold": f,
                        "test_error": err,
                    }
                )
    return rows


def summarise_budget(rows: Sequence[dict]) -> list[dict]:
    """Mean and sd over folds of :func:`budget_curves` rows, per (dataset, learner, budget).

    Parameters
    ----------
    rows : sequence of dict
        Rows of :func:`budget_curves`.

    Returns
    -------
    list of dict
        Sorted by (dataset, learner, axis, budget); keys ``dataset``, ``learner``, ``axis``,
        ``budget``, ``folds``, ``error_mean`` and ``error_sd`` (sample sd, 0 for one fold),
        both rounded to 6 decimals.

    Examples
    --------
    >>> from boostcore.evaluation import summarise_budget
    >>> rows = [{"dataset": "d", "learner": "A", "axis": "rounds", "budget": 1, "fold": f,
    ...          "test_error": e} for f, e in enumerate([0.1, 0.0])]
    >>> out = summarise_budget(rows)
    >>> len(out), out[0]["folds"], out[0]["error_mean"], out[0]["error_sd"]
    (1, 2, 0.05, 0.070711)
    """
    groups: dict[tuple, list[float]] = {}
    for r in rows:
        groups.setdefault((r["dataset"], r["learner"], r["axis"], r["budget"]), []).append(
            r["test_error"]
        )
    return [
        {
            "dataset": d,
            "learner": lrn,
            "axis": ax,
            "budget": b,
            "folds": len(v),
            "error_mean": round(float(np.mean(v)), 6),
            "error_sd": round(float(np.std(v, ddof=1)), 6) if len(v) > 1 else 0.0,
        }
        for (d, lrn, ax, b), v in sorted(groups.items())
    ]
