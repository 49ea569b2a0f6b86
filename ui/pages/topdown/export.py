"""The top-down growth page's run as a script (its template: ``export.py.tmpl`` next to this
module; the shared templating is :mod:`ui.exports`)."""

from __future__ import annotations

from collections.abc import Sequence

from boostcore import topdown
from boostcore.impurity import INDEX
from ui import exports
from ui.dataset_code import check_choice, literal
from ui.labels import CRITERION_FROM_SHORT

#: The page as the script's header names it.
TITLE = "Top-down growth page"
#: The papers the page follows (the header's ``Paper:`` line; continuation lines are comments).
PAPER = (
    "M. Kearns and Y. Mansour, On the boosting ability of top-down decision tree learning\n"
    "#   algorithms (STOC 1996); Y. Mansour and D. McAllester, Boosting with multi-way\n"
    "#   branching in decision trees (NIPS 2000); K. Hatano, A simple boosting algorithm\n"
    "#   using multi-way branching decision trees (Theory of Computing Systems, 2004)."
)


def snippet(
    data_code: str,
    size: int,
    index: str,
    criteria: Sequence[str],
    max_arity: int,
    gamma: float | None,
    leaf_rule: str,
) -> str:
    """Script reproducing the top-down page: one ``grow`` run per criterion.

    Parameters
    ----------
    data_code : str
        The dataset lines (:func:`ui.dataset_code.dataset_code`).
    size : int
        The leaf budget s.
    index : str
        The index function (``"km"``, ``"gini"``, ``"entropy"``, ``"error"``).
    criteria : sequence of str
        Core names (``"hatano"``, ``"mansour_mcallester"``, ``"naive"``), as in the page's
        ``params["crit"]`` (its short labels ``"Hatano"``… work too).
    max_arity : int
        The largest arity K.
    gamma : float or None
        The sidebar's γ (given to Mansour–McAllester only, as the page does).
    leaf_rule : str
        The leaf to expand next (``"max_weight"``, ``"max_gain"``).

    Returns
    -------
    str
        The complete script.
    """
    criteria = [
        check_choice("criteria", CRITERION_FROM_SHORT.get(c, c), topdown.CRITERIA) for c in criteria
    ]
    if not criteria:
        raise ValueError("criteria must name at least one criterion")
    check_choice("index", index, INDEX)
    check_choice("leaf_rule", leaf_rule, topdown.LEAF_RULES)
    return exports.script(
        __package__,
        TITLE,
        PAPER,
        data_code=data_code,
        SIZE=literal(int(size)),
        INDEX=literal(index),
        MAX_ARITY=literal(int(max_arity)),
        GAMMA=literal(gamma),
        LEAF_RULE=literal(leaf_rule),
        CRITERIA=literal(criteria),
    )
