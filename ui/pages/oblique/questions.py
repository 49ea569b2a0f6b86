"""Predict, then reveal on the oblique-trees page: the questions asked before a step.

:func:`all_questions` reads every question the page can ask before its next step off a G1
run — BoostODT or the Kearns–Mansour tree (which leaf is split) or AdaBoost on a path (which
weak hypothesis comes next), how far the exponential loss falls, whether the training error
goes down — and :func:`question` draws the one the page asks. The answers, draws and texts are
the shared machinery of :mod:`ui.quiz`; :mod:`ui.quiz_widget` asks the question.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.oblique import ODTStep
from boostcore.realboost import G1Step, WeakHypothesis
from ui.quiz import (
    Question,
    change,
    collect,
    draw,
    drop_question,
    error_question,
    feature_name,
    is_close,
    leaf_label,
    make_question,
    same_fraction,
    shuffled,
    sig,
    untied,
)
from ui.text import sub, sup

#: The page's slug in its questions: it seeds their draws, so it stays what it was when one
#: module asked every page's questions (the same run, round and seed ask the same question).
PAGE = "oblique"


def _hyp(h: WeakHypothesis, names: Sequence[str] | None) -> str:
    f = feature_name(names, h.feature)
    sign = "" if h.polarity > 0 else "−"
    if h.kind == "stump":
        return f"{sign}sgn({f} > {h.threshold:.3g})"
    if h.kind == "linear":
        return f"{sign}({f} − {h.threshold:.3g})"
    if h.kind == "constant":
        return f"{h.polarity:+g}"
    return h.describe()


def all_questions(
    run: Sequence[ODTStep] | Sequence[G1Step],
    t: int,
    *,
    seed: int = 0,
    to: int | None = None,
    feature_names: Sequence[str] | None = None,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
) -> tuple[Question, ...]:
    """Questions about a G1 run's next step: BoostODT or the Kearns–Mansour tree
    (:func:`~boostcore.oblique.boost_odt`, :func:`~boostcore.oblique.g1_tree`) or AdaBoost on
    a path (:func:`~boostcore.realboost.g1_linear`).

    ``t`` and ``to`` are snapshot indices of the run (its rounds): the one shown now and the
    one shown after the step (default ``t + 1``). On the oblique page one step moves AdaBoost
    by as many stumps as BoostODT's node used: pass the AdaBoost indices the page shows
    (``ui.pages.oblique.frames.shown_at(...)[run].idx`` at the position now and the next).

    Kinds, in order: trees — ``"node"`` (which leaf is split; leaves with both classes
    first), ``"loss_drop"`` (how far ``E e^(−yH) = Σ 2√(w⁺w⁻)`` falls), ``"error"`` (never
    rises); AdaBoost — ``"stump"`` (which stump; one step only; stumps of other rounds as
    distractors), ``"loss_drop"``, ``"error"`` (may go up).

    Parameters
    ----------
    run : sequence of ODTStep or of G1Step
        The whole run, e.g. ``ui.pages.oblique.runs.odt_run(...)``.
    t : int
        The snapshot shown now.
    seed : int, default 0
        The draws; the same seed gives the same questions.
    to : int, optional
        The snapshot shown after the step (``> t``); ``t + 1`` by default.
    feature_names : sequence of str, optional
        Names of the features.
    X, y : ndarray, optional
        The run's training sample (labels 0/1 or ±1: positive values are the class +1).
        AdaBoost's ``"stump"`` kind needs it (to leave out stumps tied with the right one on
        ``w_t``) and is not asked without it.

    Returns
    -------
    tuple of Question

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.oblique import boost_odt
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(boost_odt(ds.X_train, ds.y_train, n_internal=5, n_stumps=3))
    >>> [q.kind for q in all_questions(run, 2)]
    ['node', 'loss_drop', 'error']
    """
    r = protocol.rounds(run)
    to = t + 1 if to is None else int(to)
    if not 0 <= t < to < len(r):
        return ()
    now, nxt = r[t], r[to]
    m0, m1 = now.metrics, nxt.metrics
    path = isinstance(nxt, G1Step)
    when = f"after step {nxt.t}" if not path else f"by round {nxt.t}"
    if path and to == t + 1:
        when = f"in round {nxt.t}"

    def node(rng: np.random.Generator, kind: str) -> Question | None:
        if to != t + 1 or nxt.node is None:
            return None
        tree = now.tree
        scores = dict(nxt.rule_scores)
        by_rule = nxt.leaf_rule == "max_decrease" and not nxt.by_policy
        # a leaf whose separator lowers Σ 2√(w⁺w⁻) as much as the split one's would be right
        # too under max_decrease (only the lowest-id tie-break chose): never offered
        others = [
            l
            for l in tree.leaves
            if l != nxt.node
            and not (by_rule and l in scores and is_close(scores[l], scores[nxt.node]))
        ]
        both = [l for l in others if tree.w_pos[l] > 0 and tree.w_neg[l] > 0]
        one = [l for l in others if l not in both]
        # leaves with both classes first (one-class leaves are never split), in drawn order
        pool = [g[j] for g in (both, one) for j in rng.permutation(len(g))][:3]
        # in drawn order, not by id: breadth-first splits the lowest id that can be split,
        # so answers sorted by id would put the key on A most of the time
        made = shuffled(leaf_label(nxt.node), [leaf_label(l) for l in pool], rng)
        dec = float(m0.km_impurity - m1.km_impurity)
        if nxt.by_policy:
            rule = "picked by hand, as the weak learner"
        elif nxt.leaf_rule == "max_decrease":
            rule = "the largest drop the node learner finds at any leaf"
        elif nxt.leaf_rule == "breadth_first":
            rule = "breadth-first: the oldest leaf that can still be split"
        else:
            rule = ""
        why = (
            f"Step {nxt.t} splits leaf #{nxt.node} ({nxt.node_index.size} examples"
            f"{'; ' + rule if rule else ''}): Σ 2√(w⁺w⁻) drops by {sig(dec)}."
        )
        return make_question(PAGE, t, f"Which leaf does step {nxt.t} split?", made, why, kind)

    def stump(rng: np.random.Generator, kind: str) -> Question | None:
        if to != t + 1 or nxt.round is None:
            return None
        if X is None or y is None:
            return None  # without the sample a tie with the right stump could not be seen
        # labels as ±1 whatever the caller's coding (a 0/1 y would make μ count only positives)
        Xa, ya = np.asarray(X, dtype=float), np.where(np.asarray(y) > 0, 1.0, -1.0)
        w = np.asarray(nxt.w, dtype=float)

        def mu(h: WeakHypothesis) -> float:
            # the normalised margin μ of h on w_t (Nock & Nielsen, G1; docs/theory.md §4.1)
            out = np.asarray(h(Xa), dtype=float)
            R = float(np.max(np.abs(out)))
            return float(np.sum(w * ya * out) / (R * np.sum(w))) if R > 0 else 0.0

        right = _hyp(nxt.round.hyp, feature_names)
        hyps: dict[str, WeakHypothesis] = {}
        for s in r[1:]:
            if s.round is not None:
                hyps.setdefault(_hyp(s.round.hyp, feature_names), s.round.hyp)
        # a stump with the same μ on w_t would be right too (round 1's uniform weights make
        # such ties common): only the weak learner's tie-break chose; never offered
        pool = untied([p for p in hyps if p != right], lambda p: mu(hyps[p]), mu(nxt.round.hyp))
        made = shuffled(right, [pool[j] for j in rng.permutation(len(pool))], rng)
        why = (
            f"The weak learner's choice on w{sub(nxt.t)} is h{sub(nxt.t)} = {right}: edge "
            f"μ = {nxt.round.mu:.3f}, α = {nxt.round.alpha:.3f}."
        )
        return make_question(
            PAGE, t, f"Which weak hypothesis does round {nxt.t} add?", made, why, kind
        )

    def loss_drop(rng: np.random.Generator, kind: str) -> Question | None:
        a, b = float(m0.exp_loss), float(m1.exp_loss)
        loss = f"E e{sup('−yH')}"
        why = change(loss, a, b) + "."
        text = f"By how much does the exponential loss {loss} drop {when}? (now {a:.3f})"
        return drop_question(PAGE, t, kind, a, b, rng, text=text, why=why)

    def error(rng: np.random.Generator, kind: str) -> Question | None:
        return error_question(
            PAGE,
            t,
            kind,
            now,
            nxt,
            rng,
            when=when,
            can_rise=path,
            same_share=same_fraction([s.metrics.train_error for s in r]),
        )

    if path:
        kinds = (("stump", stump), ("loss_drop", loss_drop), ("error", error))
    else:
        kinds = (("node", node), ("loss_drop", loss_drop), ("error", error))
    return collect(PAGE, t, seed, kinds)


def question(
    run: Sequence[ODTStep] | Sequence[G1Step],
    t: int,
    *,
    seed: int = 0,
    to: int | None = None,
    feature_names: Sequence[str] | None = None,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
) -> Question | None:
    """The one question the page asks before its next step: drawn (by ``seed`` and ``t``)
    from :func:`all_questions`, so a class that shares a seed sees the same.

    Parameters
    ----------
    run, t, seed, to, feature_names, X, y
        As :func:`all_questions`'s.

    Returns
    -------
    Question or None
        ``None`` when there is no next step to ask about.

    Raises
    ------
    ValueError
        For a seed that is not an integer ≥ 0.
    """
    qs = all_questions(run, t, seed=seed, to=to, feature_names=feature_names, X=X, y=y)
    return draw(qs, seed=seed)
