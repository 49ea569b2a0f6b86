"""Predict, then reveal: the shared machinery of the questions asked before a step.

Issue 17, item 2. Before a lesson page steps from round ``t`` to the next, it asks one
question whose answer is in the next snapshot — which leaf is expanded, how many branches, how
far ``I(T)``, ``Π Z_t`` or ``C(T)`` fall, which stump comes next, where the next doll grows —
with 3 or 4 answers, exactly one of them right. Nothing is a hand-written list of questions:
every question, answer and distractor is read off the snapshots, so the questions work on any
dataset, drawn points or an uploaded CSV.

Each page that asks questions (the registry's pages with the ``"quiz"`` feature) has its own
``ui/pages/<slug>/questions.py`` (issue 23): ``all_questions(run, t, *, seed, …)`` returns
every kind of question the page can ask before its next step (in the page's fixed order of
kinds, so the result is the same for the same run, round and seed) and ``question(run, t, *,
seed, …)`` the one the page asks, drawn by :func:`draw`. This module holds only what they
share (pure Python over the snapshots of :mod:`boostcore`, no Streamlit; :mod:`ui.quiz_widget`
draws a :class:`Question`):

* :class:`Question` and :data:`LETTERS`;
* the draws — :func:`collect` (every kind's question, each kind from a stream of its own) and
  :func:`draw` (one of them, the same for a class that shares a seed);
* the answers — :func:`ordered` (ids or counts in increasing order), :func:`shuffled` (texts in
  a drawn order), :func:`pick_others` and :func:`window` (plausible distractors),
  :func:`trend` (does it go down?) and the ranges of :func:`drop_question`;
* the texts — :func:`change`, :func:`sig`, :func:`feature_name`, :func:`leaf_label`;
* two questions several pages ask — :func:`error_question` and :func:`drop_question` — and
  :func:`make_question`.

Rules every question keeps (``tests/ui/test_quiz.py`` checks them on random runs, and
``tests/ui/test_quiz_audit.py`` on at least 1,000 questions of every kind, odd data included):

* 3 or 4 answers, all different as text, exactly one right;
* distractors are plausible — other leaves that exist, other legal arities, stumps the same
  run uses at other rounds, the neighbouring ranges of a bucketed number — and none is tied
  with the key under the rule the run used (the leaf rule's own score, the weak learner's
  objective on this round's weights, within the search's tolerance where the search is not
  exact): no key rests on the code's tie-break;
* ranges never overlap and the true value is never within 6 % of a range's edge (the edges
  come from two ladders of round numbers, chosen so that it is not), so the numbers in the
  one-line *why* cannot be read as the neighbouring answer; the value sits in one of at
  least two places the ranges allow, drawn (at most the top range may lie above the largest
  possible value);
* "does it go down?" answers are disjoint bands with a stated tolerance (:data:`SAME_TOL`:
  a smaller change "stays the same"), and a value is never asked about when it is within 6 %
  of a band's edge or, for a Monte Carlo estimate, within four standard errors of one;
* keys come from exact values (the probabilistic chain's expected error too, while its
  2^T answer patterns can be summed; beyond, the question names the estimate);
* no letter and no option is the key of more than half of a kind's questions with four
  answers (leaf ids in drawn order where the rule favours low or high ids; "stays the same"
  asked only now and then where a run rarely changes its error);
* a why says what happened: a split picked by hand (be the weak learner) is called so;
* the value "now" in a question is printed the same way whatever the next value is
  (:func:`now_value`), so its decimals do not give the answer away;
* a kind that cannot offer 3 distinct answers at this step is left out (the page then asks
  another kind).

The package, one module a job (issue 42; it was one 838-line ``quiz.py``); callers use the
names below, from ``ui.quiz``:

* :mod:`~ui.quiz.question`: :class:`Question` and :data:`LETTERS`;
* :mod:`~ui.quiz.draws`: :func:`collect` and :func:`draw`;
* :mod:`~ui.quiz.numbers`: the ranges (:func:`buckets`) and bands (:func:`trend`) of a number
  and the texts of a value or a change (:func:`sig`, :func:`change`, :func:`now_value`, …);
* :mod:`~ui.quiz.answers`: the distractors and the answers' order and texts
  (:func:`pick_others`, :func:`window`, :func:`untied`, :func:`shuffled`, :func:`ordered`,
  :func:`feature_name`, :func:`leaf_label`);
* :mod:`~ui.quiz.builders`: :func:`make_question`, :func:`error_question`,
  :func:`drop_question` and :func:`same_fraction`.
"""

from .answers import (
    TIE_REL,
    feature_name,
    leaf_label,
    ordered,
    pick_others,
    shuffled,
    untied,
    window,
)
from .builders import SAME_SKIP, drop_question, error_question, make_question, same_fraction
from .draws import collect, draw
from .numbers import (
    NEAR_EDGE,
    SAME_TOL,
    buckets,
    change,
    is_close,
    now_value,
    same_note,
    sig,
    trend,
)
from .question import LETTERS, Question

__all__ = [
    "LETTERS",
    "NEAR_EDGE",
    "Question",
    "SAME_SKIP",
    "SAME_TOL",
    "TIE_REL",
    "buckets",
    "change",
    "collect",
    "draw",
    "drop_question",
    "error_question",
    "feature_name",
    "is_close",
    "leaf_label",
    "make_question",
    "now_value",
    "ordered",
    "pick_others",
    "same_fraction",
    "same_note",
    "shuffled",
    "sig",
    "trend",
    "untied",
    "window",
]
