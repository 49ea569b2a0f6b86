"""scikit-learn classifiers that run boostcore's step generators to the end.

This is the one module of ``boostcore`` that imports scikit-learn: it only adapts the
generators to scikit-learn's estimator API (``fit``/``predict``/…, fitted attributes ending in
``_``), so the algorithms can be cross-validated and benchmarked like any other classifier.
The fitted snapshots stay available as ``steps_``.

The plumbing the five estimators share (validation, ``classes_``, ``predict``,
``predict_proba``, the staged methods, the tags) is :class:`BaseStepwiseClassifier`, as
scikit-learn's ``BaseWeightBoosting`` holds AdaBoost's loop and plumbing; each estimator adds
its parameters, how ``fit`` runs its generator and how one snapshot scores ``X``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import steps
from ._validation import check_xy
from .steps import Step
from .topdown import TreeStep, grow


class BaseStepwiseClassifier(ClassifierMixin, BaseEstimator):
    """Base class of boostcore's classifiers: ``fit`` runs one of boostcore's step generators
    to the end and keeps its snapshots, every prediction scores a snapshot.

    As scikit-learn's ``BaseWeightBoosting`` (``sklearn/ensemble/_weight_boosting.py``) holds
    the boosting loop and its plumbing and leaves the model-specific step to
    ``AdaBoostClassifier``, this class holds what every estimator here shares:

    * fit's data validation and ``classes_`` (:meth:`_fit_data`), the check of ``X`` at
      predict time (:meth:`_check`) and the tags (binary classification only);
    * :meth:`decision_function` (the last snapshot's score), :meth:`predict_proba`,
      :meth:`predict` (``classes_[1]`` where the decision function is positive),
      :meth:`staged_decision_function` and :meth:`staged_predict`.

    ``fit`` is here once: a subclass keeps its parameters (``__init__``), its step
    (:meth:`_run`, the generator on the validated data, and :meth:`_keep`, the fitted model
    from the snapshots; :meth:`_check_params` for checks the generator cannot make) and how
    one snapshot scores ``X``: it
    overrides :meth:`_decision` (a margin ``F(x)``; the probability of ``classes_[1]`` is then
    Friedman et al.'s logistic link ``1/(1 + exp(−2F))``) or :meth:`_proba_pos` (that
    probability ``q(x)``; the decision function is then ``2q − 1``). It may also override
    :meth:`_stages` (the snapshots the staged methods report) and :attr:`_one_class_score`.

    A fit on a single class is accepted; when the generator cannot run on it ``steps_`` is
    empty, and the estimator predicts that class everywhere with probability 1 (one column).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels seen by ``fit`` (one or two); ``classes_[1]``, the larger, is positive.
    n_features_in_ : int
    steps_ : tuple of Step
        Every snapshot of the run (:mod:`boostcore.steps`).

    Examples
    --------
    >>> from boostcore import estimators as e
    >>> ours = (e.TopDownTreeClassifier, e.BPInfoBoostClassifier, e.ProbabilisticBoostClassifier,
    ...         e.RealAdaBoostClassifier, e.BoostODTClassifier)
    >>> all(issubclass(c, e.BaseStepwiseClassifier) for c in ours)
    True
    >>> [c.predict is e.BaseStepwiseClassifier.predict for c in ours]
    [True, True, True, True, True]
    >>> [c._run is not e.BaseStepwiseClassifier._run for c in ours]  # each gives its step
    [True, True, True, True, True]
    """

    #: ``decision_function`` of a fit that ran nothing (``steps_`` empty: a single class).
    _one_class_score = 1.0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        base = BaseStepwiseClassifier
        if cls._decision is base._decision and cls._proba_pos is base._proba_pos:
            raise TypeError(f"{cls.__name__} must override _decision or _proba_pos")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    # ------------------------------------------------------------------ for the subclasses
    def _fit_data(self, X, y, sample_weight=None) -> tuple[np.ndarray, np.ndarray]:
        """The validation shared by every ``fit``: scikit-learn's checks of ``X`` (NaN/infinity,
        sparse, dtype, ``n_features_in_``) and of the labels, then boostcore's own rules for
        ``y`` and ``sample_weight`` (:func:`boostcore._validation.check_xy`: one label per row,
        at most two classes, weights finite, ``≥ 0`` and not all zero). Every failure is a
        ``ValueError``.

        Sets ``classes_`` and returns ``X`` (float64) and ``y_pm`` (``+1`` for
        ``classes_[-1]``, the larger label; a single class is accepted and is ``+1``).
        """
        try:
            X, y = validate_data(self, X, y, dtype=np.float64)
        except ValueError as exc:
            if "inconsistent numbers of samples" not in str(exc):
                raise
            raise ValueError(f"y must have one label per row of X; {exc}") from None
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size > 2:
            raise ValueError(
                "Only binary classification is supported. "
                f"{type(self).__name__} got {self.classes_.size} classes "
                f"({self.classes_[:5].tolist()}…); these boosting algorithms need two"
            )
        check_xy(X, y, sample_weight)  # the generators' rules, also when fit stops early
        y_pm = np.where(y == self.classes_[-1], 1, -1)
        if self.classes_.size == 1:
            y_pm = np.ones_like(y_pm)
        return X, y_pm

    def _check(self, X) -> np.ndarray:
        """``X`` at predict time: fitted, numeric, ``n_features_in_`` columns (float64)."""
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _decision(self, step: Step, X: np.ndarray) -> np.ndarray:
        """The decision function of one snapshot (positive means ``classes_[1]``).

        Default ``2q − 1`` with ``q`` of :meth:`_proba_pos`; override one of the two.
        """
        return 2.0 * self._proba_pos(step, X) - 1.0

    def _proba_pos(self, step: Step, X: np.ndarray) -> np.ndarray:
        """``P(classes_[1] | x)`` of one snapshot.

        Default the logistic link of the exponential loss, ``1/(1 + exp(−2F))`` with ``F`` of
        :meth:`_decision` (Friedman, Hastie & Tibshirani 2000); override one of the two.
        """
        F = self._decision(step, X)
        return 1.0 / (1.0 + np.exp(-2.0 * np.clip(F, -350, 350)))

    # the fit loop, once (as scikit-learn's BaseWeightBoosting.fit): validate, run the
    # subclass's generator to its end, keep its model
    def fit(self, X, y, sample_weight=None):
        """Run the algorithm on ``(X, y)`` to its end; ``y`` must have at most two classes.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Training features (finite numbers).
        y : array_like of shape (n_samples,)
            Labels: at most two classes; ``classes_[1]`` (the larger) is the positive one.
        sample_weight : array_like of shape (n_samples,), default=None
            Non-negative weights, not all zero; uniform when None (only the estimators whose
            ``fit`` names it: the others' algorithms have no weighted form here).

        Returns
        -------
        self
            The fitted classifier.

        Raises
        ------
        ValueError
            If ``X``, ``y``, ``sample_weight`` or a parameter is invalid, or ``y`` has more
            than two classes (the message names the rule).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import TopDownTreeClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> TopDownTreeClassifier(size=4).fit(ds.X_train, [0, 1, 2] * 25)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        ValueError: Only binary classification is supported. TopDownTreeClassifier got 3 ...
        """
        X, y_pm = self._fit_data(X, y, sample_weight)
        self._check_params()
        if self.classes_.size == 1 and not self._runs_on_one_class:
            self.steps_ = ()  # nothing to boost: the model predicts the only class
        else:
            self.steps_ = tuple(self._run(X, y_pm, sample_weight))
        self._keep(self.steps_)
        return self

    #: Whether the generator runs on a single class (else ``fit`` keeps no snapshot then).
    _runs_on_one_class = False

    def _check_params(self) -> None:
        """Checks of parameters the generator cannot make itself (before a one-class fit)."""

    def _run(self, X: np.ndarray, y_pm: np.ndarray, sample_weight) -> Iterator[Step]:
        """The subclass's step generator on the validated data (labels ±1)."""
        raise NotImplementedError

    def _keep(self, steps_: tuple) -> None:
        """Set the fitted model's attributes from the run's snapshots (``()``: one class)."""
        raise NotImplementedError

    def _stages(self) -> Sequence[Step]:
        """The snapshots the staged methods report: the ``"step"`` snapshots, one per round
        (as scikit-learn's staged methods; the start and stop snapshots yield nothing)."""
        return [s for s in self.steps_ if s.kind == steps.STEP]

    def _labels(self, F: np.ndarray) -> np.ndarray:
        """``classes_[1]`` where ``F > 0``, else ``classes_[0]`` (the only class if one)."""
        return self.classes_[np.where(F > 0, self.classes_.size - 1, 0)]

    # ------------------------------------------------------------------ the shared API
    def decision_function(self, X) -> np.ndarray:
        """The score of the fitted model: positive means ``classes_[1]``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Samples (as in ``fit``).

        Returns
        -------
        ndarray of float, shape (n_samples,)
            The last snapshot's score (each estimator's Notes say which).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import BoostODTClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = BoostODTClassifier(n_internal=3, n_stumps=5).fit(ds.X_train, ds.y_train)
        >>> clf.decision_function(ds.X_test[:3]).round(3).tolist()
        [-15.925, 15.418, -15.925]
        """
        X = self._check(X)
        if not self.steps_:  # a single class and nothing run
            return np.full(X.shape[0], self._one_class_score)
        return self._decision(self.steps_[-1], X)

    def predict(self, X) -> np.ndarray:
        """The class of the sign of :meth:`decision_function` (0 goes to ``classes_[0]``).

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Samples (as in ``fit``).

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_`` (its dtype).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import BoostODTClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = BoostODTClassifier(n_internal=3, n_stumps=5).fit(ds.X_train, ds.y_train)
        >>> clf.predict(ds.X_test[:3]).tolist(), ds.y_test[:3].tolist()
        ([-1, 1, -1], [-1, 1, -1])
        """
        return self._labels(self.decision_function(X))

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the fitted model, columns ordered as ``classes_``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Samples (as in ``fit``).

        Returns
        -------
        ndarray of float, shape (n_samples, n_classes)
            ``[1 − q, q]`` with ``q = P(classes_[1] | x)`` of the last snapshot; rows sum to
            1 (one column of ones when ``y`` had a single class).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import BoostODTClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = BoostODTClassifier(n_internal=3, n_stumps=5).fit(ds.X_train, ds.y_train)
        >>> clf.predict_proba(ds.X_test[:3]).round(3).tolist()
        [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]
        """
        X = self._check(X)
        if self.classes_.size == 1:
            return np.ones((X.shape[0], 1))
        p = self._proba_pos(self.steps_[-1], X)
        return np.column_stack([1.0 - p, p])

    def staged_decision_function(self, X) -> Iterator[np.ndarray]:
        """Yield the decision function after each stage of the run.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Samples (as in ``fit``).

        Yields
        ------
        ndarray of shape (n_samples,)
            The score of every stage: by default one per ``"step"`` snapshot (round, weak
            hypothesis or split), as scikit-learn's staged methods; the last one is
            :meth:`decision_function`.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import BoostODTClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = BoostODTClassifier(n_internal=3, n_stumps=5).fit(ds.X_train, ds.y_train)
        >>> [f.round(2).tolist() for f in clf.staged_decision_function(ds.X_test[:2])]
        [[-1.76, 1.26], [-15.93, 1.26], [-15.93, 15.42]]
        """
        X = self._check(X)
        for step in self._stages():
            yield self._decision(step, X)

    def staged_predict(self, X) -> Iterator[np.ndarray]:
        """Yield the predicted labels after each stage of the run.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Samples (as in ``fit``).

        Yields
        ------
        ndarray of shape (n_samples,)
            Labels from ``classes_``, one array per stage of :meth:`staged_decision_function`.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import BoostODTClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = BoostODTClassifier(n_internal=3, n_stumps=5).fit(ds.X_train, ds.y_train)
        >>> [p.tolist() for p in clf.staged_predict(ds.X_test[:2])]
        [[-1, 1], [-1, 1], [-1, 1]]
        """
        for F in self.staged_decision_function(X):
            yield self._labels(F)


class TopDownTreeClassifier(BaseStepwiseClassifier):
    """Top-down decision tree grown as a boosting algorithm (Kearns–Mansour, Hatano, MM).

    Parameters
    ----------
    size : int, default=16
        Target number of leaves ``s``.
    index : {"km", "gini", "entropy", "error"}, default="km"
        Index (impurity) function.
    criterion : {"hatano", "mansour_mcallester", "naive"}, default="hatano"
        How splits of different arities are compared.
    max_arity : int, default=4
        Largest number of branches per split (2 = binary trees).
    gamma : float or None, default=None
        Mansour–McAllester's ``γ`` (required for that criterion).
    leaf_rule : {"max_weight", "max_gain"}, default="max_weight"
        Which leaf to expand next.
    categorical : array-like of bool or None, default=None
        Columns holding integer category codes: split by native value splits (one branch
        per value, C4.5-style) instead of thresholds.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    steps_ : tuple of TreeStep
        Every snapshot of the run, the last one holding the fitted tree.
    tree_ : boostcore.tree.Tree
        The fitted tree.

    Notes
    -----
    A tree scores ``x`` by the leaf it reaches: ``predict_proba`` is the leaf's (weighted)
    class frequencies ``[1 − q̂, q̂]`` (one column of ones when ``y`` had a single class),
    ``decision_function`` is ``2q̂ − 1`` in [−1, 1] and ``predict`` the leaf's majority class
    (a tie goes to ``classes_[0]``). The staged methods follow every round of growth, the
    single-leaf tree first (the stop snapshot repeats the last round).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=200, label_noise=0.1, random_state=0)
    >>> clf = TopDownTreeClassifier(size=8).fit(ds.X_train, ds.y_train)
    >>> clf.tree_.n_leaves
    8

    A tree of four leaves, its scores and its rounds:

    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> clf = TopDownTreeClassifier(size=4).fit(ds.X_train, ds.y_train)
    >>> clf.decision_function(ds.X_test[:3]).round(3).tolist()
    [-1.0, 0.579, -1.0]
    >>> clf.predict_proba(ds.X_test[:3]).round(3).tolist()
    [[1.0, 0.0], [0.211, 0.789], [1.0, 0.0]]
    >>> clf.predict(ds.X_test[:3]).tolist(), ds.y_test[:3].tolist()
    ([-1, 1, -1], [-1, 1, -1])
    >>> [f.round(2).tolist() for f in clf.staged_decision_function(ds.X_test[:2])]
    [[0.01, 0.01], [-1.0, 0.58], [-1.0, 0.2], [-1.0, 0.58]]
    >>> [p.tolist() for p in clf.staged_predict(ds.X_test[:2])]
    [[1, 1], [-1, 1], [-1, 1], [-1, 1]]
    """

    def __init__(
        self,
        size: int = 16,
        index: str = "km",
        criterion: str = "hatano",
        max_arity: int = 4,
        gamma: float | None = None,
        leaf_rule: str = "max_weight",
        categorical=None,
    ) -> None:
        self.size = size
        self.index = index
        self.criterion = criterion
        self.max_arity = max_arity
        self.gamma = gamma
        self.leaf_rule = leaf_rule
        self.categorical = categorical

    _runs_on_one_class = True  # grow's single leaf predicts the only class

    def _run(self, X, y_pm, sample_weight) -> Iterator[TreeStep]:
        return grow(
            X,
            y_pm,
            size=self.size,
            index=self.index,
            criterion=self.criterion,
            max_arity=self.max_arity,
            gamma=self.gamma,
            leaf_rule=self.leaf_rule,
            sample_weight=sample_weight,
            categorical=self.categorical,
        )

    def _keep(self, steps_: tuple) -> None:
        self.tree_ = steps_[-1].tree

    def _proba_pos(self, step: TreeStep, X: np.ndarray) -> np.ndarray:
        return step.tree.predict_proba_pos(X)

    def _stages(self) -> list[TreeStep]:
        return steps.rounds(self.steps_)  # the stop snapshot repeats the last round

    def apply(self, X) -> np.ndarray:
        """Index of the leaf (node id of the tree) that each sample reaches.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Samples (as in ``fit``).

        Returns
        -------
        ndarray of intp, shape (n_samples,)
            Node ids of ``tree_``.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import TopDownTreeClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = TopDownTreeClassifier(size=4).fit(ds.X_train, ds.y_train)
        >>> clf.apply(ds.X_test[:3]).tolist()
        [2, 6, 2]
        """
        X = self._check(X)
        return self.tree_.apply(X)

    @property
    def final_step(self) -> TreeStep:
        """The last snapshot of the fitted run.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import TopDownTreeClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = TopDownTreeClassifier(size=4).fit(ds.X_train, ds.y_train)
        >>> clf.final_step.kind, clf.final_step.t, clf.final_step.stop_reason
        ('stop', 3, 'The tree has reached its budget of s = 4 leaves.')
        """
        check_is_fitted(self)
        return self.steps_[-1]


class BPInfoBoostClassifier(BaseStepwiseClassifier):
    """BP.InfoBoost: InfoBoost as a divide-and-merge branching program (Takimoto et al.).

    Parameters
    ----------
    n_rounds : int, default=20
        Number of rounds ``T``.
    merge : {"bands", "all", "none"}, default="bands"
        ``all`` is Aslam's InfoBoost, ``none`` DT.InfoBoost, ``bands`` Theorem 3's merging.
    c : float in (0, 1), default=0.5
        Theorem 3's trade-off between leaves and progress (``bands`` only).
    weak : {"h", "divided"}, default="h"
        Stump minimising ``H(Y|h)`` or the entropy of the divided leaves.
    smoothing : float or None, default=None
        ``ε`` for pure leaves' weights (``1/(2m)`` when None).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    steps_ : tuple of BPStep
        Every snapshot of the run: start (``t = 0``), one step per round, stop (empty when
        ``y`` had a single class).
    program_ : boostcore.branching.BranchingProgram
        The fitted program.

    Notes
    -----
    ``decision_function`` is the program's ``F_T(x)`` (all 0 when ``y`` had a single class:
    the empty program), ``predict`` its sign as class labels (``F = 0`` goes to
    ``classes_[0]``) and ``predict_proba`` ``P(+1|x) = 1/(1 + exp(−2F))``, the logistic link
    of the exponential loss. The staged methods yield ``F_t(x)`` for ``t = 1, 2, …``: one
    per ``"step"`` snapshot (round), none for the start and stop snapshots.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.estimators import BPInfoBoostClassifier
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> clf = BPInfoBoostClassifier(n_rounds=5).fit(ds.X_train, ds.y_train)
    >>> len(clf.program_.rounds), round(clf.score(ds.X_test, ds.y_test), 2)
    (5, 0.92)
    >>> clf.decision_function(ds.X_test[:3]).round(3).tolist()
    [-6.143, 3.646, -6.143]
    >>> clf.predict(ds.X_test[:3]).tolist(), ds.y_test[:3].tolist()
    ([-1, 1, -1], [-1, 1, -1])
    >>> clf.predict_proba(ds.X_test[:3]).round(3).tolist()
    [[1.0, 0.0], [0.001, 0.999], [1.0, 0.0]]
    >>> [f.round(2).tolist() for f in clf.staged_decision_function(ds.X_test[:1])]
    [[-2.0], [-3.32], [-3.96], [-5.25], [-6.14]]
    """

    _one_class_score = 0.0  # F = 0: the empty program

    def __init__(
        self,
        n_rounds: int = 20,
        merge: str = "bands",
        c: float = 0.5,
        weak: str = "h",
        smoothing: float | None = None,
    ) -> None:
        self.n_rounds = n_rounds
        self.merge = merge
        self.c = c
        self.weak = weak
        self.smoothing = smoothing

    def fit(self, X, y) -> BPInfoBoostClassifier:
        """Run BP.InfoBoost on ``(X, y)``: :meth:`BaseStepwiseClassifier.fit` without
        ``sample_weight`` (BP.InfoBoost has no weighted form here).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import BPInfoBoostClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = BPInfoBoostClassifier(n_rounds=5).fit(ds.X_train, ds.y_train)
        >>> len(clf.steps_), clf.steps_[-1].kind, clf.steps_[-1].t
        (7, 'stop', 5)
        """
        return super().fit(X, y)

    def _run(self, X, y_pm, sample_weight) -> Iterator[Step]:
        from .branching import bp_infoboost

        return bp_infoboost(
            X,
            y_pm,
            n_rounds=self.n_rounds,
            merge=self.merge,
            c=self.c,
            weak=self.weak,
            smoothing=self.smoothing,
        )

    def _keep(self, steps_: tuple) -> None:
        from .branching import BranchingProgram

        # one class: the program is empty and predicts the only class
        self.program_ = steps_[-1].program if steps_ else BranchingProgram(())

    def _decision(self, step: Step, X: np.ndarray) -> np.ndarray:
        return step.program.decision_function(X)


class ProbabilisticBoostClassifier(BaseStepwiseClassifier):
    """Boosted probabilistic (soft-stump) classifiers, after Grossmann.

    Parameters
    ----------
    structure : {"chain", "tree", "matryoshka"}, default="tree"
        Probabilistic AdaBoost, the greedy probabilistic tree, or the 2-matryoshka.
    n_weak : int, default=16
        Number of soft stumps: the chain's rounds (``n_rounds`` of
        :func:`~boostcore.probabilistic.prob_adaboost`), the tree's internal nodes
        (``n_internal`` of :func:`~boostcore.probabilistic.prob_tree`), the matryoshka's
        ``2^levels``. One name here because one estimator spans the three structures.
    softness : float, default=0.3
        ``τ`` of the soft stumps ``σ((x_j − θ)/τ)``.
    levels : int or None, default=None
        Matryoshka level ``L``; ``None`` means ``⌊log₂ n_weak⌋``.
    random_state : None, int or numpy.random.Generator, default=0
        The chain's Monte Carlo worlds (boostcore's convention,
        :func:`boostcore._validation.check_random_state`; the trees draw nothing).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    steps_ : tuple of ProbStep
        Every snapshot of the run: start (``t = 0``), one step per weak classifier (per level
        for the matryoshka) and stop (:mod:`boostcore.steps`); empty when ``y`` had a single
        class.
    model_ : ProbTree or Chain or None
        The fitted model (``None`` when ``y`` had a single class).

    Notes
    -----
    ``predict_proba`` is ``P(H(x) > 0) + ½ P(H(x) = 0)`` (exact for trees, a seeded Monte
    Carlo estimate for the chain); ``decision_function`` is ``2·predict_proba − 1`` (all 1
    when ``y`` had a single class) and ``predict`` the more probable class (ties to
    ``classes_[0]``).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.estimators import ProbabilisticBoostClassifier
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> clf = ProbabilisticBoostClassifier(n_weak=4).fit(ds.X_train, ds.y_train)
    >>> clf.model_.n_weak, round(clf.score(ds.X_test, ds.y_test), 2)
    (4, 0.84)
    >>> clf.predict_proba(ds.X_test[:3]).round(3).tolist()
    [[0.915, 0.085], [0.078, 0.922], [0.895, 0.105]]
    >>> clf.decision_function(ds.X_test[:3]).round(3).tolist()
    [-0.83, 0.845, -0.789]
    >>> clf.predict(ds.X_test[:3]).tolist()
    [-1, 1, -1]
    """

    def __init__(
        self,
        structure: str = "tree",
        n_weak: int = 16,
        softness: float = 0.3,
        levels: int | None = None,
        random_state=0,
    ) -> None:
        self.structure = structure
        self.n_weak = n_weak
        self.softness = softness
        self.levels = levels
        self.random_state = random_state

    def fit(self, X, y) -> ProbabilisticBoostClassifier:
        """Boost soft stumps on ``(X, y)``: :meth:`BaseStepwiseClassifier.fit` without
        ``sample_weight`` (Grossmann's boosting has no weighted form here).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import ProbabilisticBoostClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = ProbabilisticBoostClassifier(n_weak=4).fit(ds.X_train, ds.y_train)
        >>> [(s.t, s.kind) for s in clf.steps_]
        [(0, 'start'), (1, 'step'), (2, 'step'), (3, 'step'), (4, 'step'), (4, 'stop')]
        >>> ProbabilisticBoostClassifier(structure="forest").fit(ds.X_train, ds.y_train)
        Traceback (most recent call last):
            ...
        ValueError: structure must be one of 'chain', 'tree', 'matryoshka'; got 'forest'
        """
        return super().fit(X, y)

    def _check_params(self) -> None:
        from ._validation import check_choice

        check_choice("structure", self.structure, ("chain", "tree", "matryoshka"))

    def _run(self, X, y_pm, sample_weight) -> Iterator[Step]:
        from .probabilistic import matryoshka, prob_adaboost, prob_tree

        if self.structure == "chain":
            return prob_adaboost(
                X,
                y_pm,
                n_rounds=self.n_weak,
                softness=self.softness,
                random_state=self.random_state,
            )
        if self.structure == "tree":
            return prob_tree(X, y_pm, n_internal=self.n_weak, softness=self.softness)
        levels = self.levels
        if levels is None:
            if (
                isinstance(self.n_weak, bool)
                or not isinstance(self.n_weak, int | np.integer)
                or self.n_weak < 2
            ):
                raise ValueError(f"n_weak must be an integer ≥ 2; got {self.n_weak!r}")
            levels = int(np.floor(np.log2(self.n_weak)))
        return matryoshka(X, y_pm, levels=levels, softness=self.softness)

    def _keep(self, steps_: tuple) -> None:
        self.model_ = steps_[-1].model if steps_ else None

    def _proba_pos(self, step: Step, X: np.ndarray) -> np.ndarray:
        return step.model.q_pos(X)


class RealAdaBoostClassifier(BaseStepwiseClassifier):
    """AdaBoost_R: G1 on a single path (Nock & Nielsen 2006; Henry–Nock–Nielsen 2007).

    Parameters
    ----------
    n_estimators : int, default=50
        Number of weak hypotheses ``T``.
    weak : {"stump", "hyperplane"} or scikit-learn classifier, default="stump"
        ``"stump"`` (±1 stump of largest ``|μ|``: discrete AdaBoost), ``"hyperplane"``
        (real-valued ``π(x_f − θ)``: ``H`` is affine), or any classifier that takes
        ``sample_weight`` (refitted every round, as in scikit-learn's AdaBoost). It is
        never fitted or changed itself: every round fits a fresh deep ``clone``.
    random_state : int, RandomState instance or None, default=None
        Used only with a scikit-learn weak learner, exactly as
        ``AdaBoostClassifier(random_state=…)`` uses it: one generator
        ``check_random_state(random_state)`` (``None``: numpy's global one) for the whole
        fit, and every round's clone gets one ``randint(2**31 − 1)`` from it per parameter
        named ``random_state`` or ``…__random_state``, in sorted order (so
        ``BaggingClassifier(DecisionTreeClassifier())`` takes two draws per round).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    steps_ : tuple of boostcore.realboost.G1Step
        The G1 snapshots, start (``H = 0``) and stop included (empty when ``y`` had a
        single class).
    model_ : boostcore.realboost.Additive
        The fitted ``Σ α_t h_t``; with a scikit-learn weak learner,
        ``model_.hyps[t].estimator`` is round ``t``'s copy.

    Notes
    -----
    ``decision_function`` is ``H(x) = Σ α_t h_t(x)`` (all 1 when ``y`` had a single class),
    ``predict`` its sign as class labels (``H = 0`` goes to ``classes_[0]``) and
    ``predict_proba`` ``P(classes_[1] | x) = 1/(1 + exp(−2H))`` (Friedman et al.'s logistic
    link). The staged methods yield ``H`` after every ``"step"`` snapshot: one per weak
    hypothesis, as scikit-learn's staged methods (the start and stop snapshots yield nothing).

    With ±1 weak hypotheses and the same ``weak`` and ``random_state``, the run equals
    ``AdaBoostClassifier(weak, random_state=…)`` (SAMME) round by round: the fitted copies,
    the weighted errors ``ε_t`` and the weights, SAMME's ``ln((1 − ε_t)/ε_t) = 2 α_t``.
    SAMME's binary ``decision_function`` is ``2 Σ w_t h_t / Σ w_t``, so it equals
    ``2 H(x) / Σ_t α_t`` here, and the predictions agree. The runs part when a round has
    ``ε_t ≥ ½`` (scikit-learn drops that estimator and stops; G1 keeps it with ``α_t ≤ 0``)
    and where scikit-learn's floor of ``float64`` eps on the weights acts.

    A perfect weak hypothesis (``ε_t = 0``, e.g. a stump that separates the data) ends both
    runs, but with different weights. G1 clips ``μ_t = 1`` to ``1 − 10⁻¹²``
    (docs/theory.md §4.1), so ``α_t = atanh(1 − 10⁻¹²) ≈ 14.16``; scikit-learn stores the
    placeholder weight ``1.0`` (its formula would give ``+∞``). If it is round 1 the model
    has one term and ``2 H / Σ α`` still equals scikit-learn's ``decision_function``
    (``H = ±14.16`` against ``±2``; ``4 H / Σ w_t`` does *not* hold), the predictions agree,
    and only ``predict_proba`` differs (``1/(1 + e^{−2H}) ≈ 1 − 5·10⁻¹³`` against
    scikit-learn's ``1/(1 + e^{−2}) ≈ 0.88``). If earlier rounds precede it, scikit-learn
    weighs it ``1.0`` against their ``2 α_t`` — as if ``α = ½`` — while G1 weighs it 14.16, so
    the decision functions are no longer proportional and predictions may differ.
    (We keep the clip rather than copy the ``1.0``: it is not derived from SAMME's formula
    and would let earlier rounds outvote a perfect hypothesis, and G1's weights and
    Theorem 1 bound are computed with the clipped ``μ``.)

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> ds = make_dataset("moons", n=200, random_state=0)
    >>> clf = RealAdaBoostClassifier(n_estimators=20).fit(ds.X_train, ds.y_train)
    >>> len(clf.model_)
    20

    Ten stumps, their scores and their rounds:

    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> clf = RealAdaBoostClassifier(n_estimators=10).fit(ds.X_train, ds.y_train)
    >>> clf.decision_function(ds.X_test[:3]).round(3).tolist()
    [-1.744, 1.019, -1.744]
    >>> clf.predict(ds.X_test[:3]).tolist(), ds.y_test[:3].tolist()
    ([-1, 1, -1], [-1, 1, -1])
    >>> clf.predict_proba(ds.X_test[:3]).round(3).tolist()
    [[0.97, 0.03], [0.115, 0.885], [0.97, 0.03]]
    >>> len(list(clf.staged_decision_function(ds.X_test)))
    10
    >>> [p.tolist() for p in clf.staged_predict(ds.X_test[:2])][:3]
    [[-1, -1], [-1, -1], [-1, 1]]
    """

    def __init__(self, n_estimators: int = 50, weak="stump", random_state=None) -> None:
        self.n_estimators = n_estimators
        self.weak = weak
        self.random_state = random_state

    def _run(self, X, y_pm, sample_weight) -> Iterator[Step]:
        from .realboost import g1_linear

        # as AdaBoostClassifier.fit: one generator for the whole fit (None: numpy's global);
        # g1_linear clones and seeds a scikit-learn weak learner as AdaBoostClassifier's
        # _make_estimator does (clone, then _set_random_states with this generator)
        return g1_linear(
            X,
            y_pm,
            n_rounds=self.n_estimators,
            weak=self.weak,
            sample_weight=sample_weight,
            random_state=check_random_state(self.random_state),
        )

    def _keep(self, steps_: tuple) -> None:
        from .realboost import Additive

        self.model_ = steps_[-1].model if steps_ else Additive((), ())

    def _decision(self, step: Step, X: np.ndarray) -> np.ndarray:
        return step.model.decision_function(X)


class BoostODTClassifier(BaseStepwiseClassifier):
    """BoostODT: boosted oblique decision trees (Henry–Nock–Nielsen 2007, §4.3).

    Parameters
    ----------
    n_internal : int, default=7
        ``T2``, internal nodes of the tree.
    n_stumps : int, default=10
        ``T1``, AdaBoost_R rounds inside each node.
    weak : {"stump", "hyperplane"}, default="stump"
        Axis stumps (staircase boundaries) or real-valued linear hypotheses (oblique lines).
    leaf_rule : {"breadth_first", "max_decrease"}, default="breadth_first"
        Which leaf to split next.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    steps_ : tuple of boostcore.oblique.ODTStep
        Every snapshot of the run, start and stop included (empty when ``y`` had a single
        class).
    tree_ : boostcore.oblique.ObliqueTree or None
        The fitted tree (``None`` when ``y`` had a single class).

    Notes
    -----
    ``decision_function`` is ``H(x) = Σ α_t h_t(x)`` along the path of ``x`` in the tree (all
    1 when ``y`` had a single class), ``predict`` its sign as class labels (``H = 0`` goes to
    ``classes_[0]``) and ``predict_proba`` ``1/(1 + exp(−2H))`` (Friedman et al.'s logistic
    link). The staged methods yield ``H`` after every split (``"step"`` snapshot), as
    scikit-learn's staged methods (the start and stop snapshots yield nothing).

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.estimators import BoostODTClassifier
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> clf = BoostODTClassifier(n_internal=3, n_stumps=5).fit(ds.X_train, ds.y_train)
    >>> clf.tree_.n_nodes, round(clf.score(ds.X_test, ds.y_test), 2)
    (7, 0.88)
    """

    def __init__(
        self,
        n_internal: int = 7,
        n_stumps: int = 10,
        weak: str = "stump",
        leaf_rule: str = "breadth_first",
    ) -> None:
        self.n_internal = n_internal
        self.n_stumps = n_stumps
        self.weak = weak
        self.leaf_rule = leaf_rule

    def _run(self, X, y_pm, sample_weight) -> Iterator[Step]:
        from .oblique import boost_odt

        return boost_odt(
            X,
            y_pm,
            n_internal=self.n_internal,
            n_stumps=self.n_stumps,
            weak=self.weak,
            leaf_rule=self.leaf_rule,
            sample_weight=sample_weight,
        )

    def _keep(self, steps_: tuple) -> None:
        self.tree_ = steps_[-1].tree if steps_ else None

    def _decision(self, step: Step, X: np.ndarray) -> np.ndarray:
        return step.tree.decision_function(X)

    def apply(self, X) -> np.ndarray:
        """Id of the leaf of ``tree_`` that each sample reaches.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Samples (as in ``fit``).

        Returns
        -------
        ndarray of intp, shape (n_samples,)
            Node ids of ``tree_`` (all 0 when ``y`` had a single class).

        Examples
        --------
        >>> from boostcore.datasets import make_dataset
        >>> from boostcore.estimators import BoostODTClassifier
        >>> ds = make_dataset("moons", n=100, random_state=0)
        >>> clf = BoostODTClassifier(n_internal=3, n_stumps=5).fit(ds.X_train, ds.y_train)
        >>> clf.apply(ds.X_test[:3]).tolist()
        [3, 6, 3]
        """
        X = self._check(X)
        if self.tree_ is None:
            return np.zeros(X.shape[0], dtype=np.intp)
        return self.tree_.apply(X)
