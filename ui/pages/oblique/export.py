"""The oblique-trees page's runs as a script (its template: ``export.py.tmpl`` next to this
module; the shared templating is :mod:`ui.exports`)."""

from __future__ import annotations

from boostcore import oblique, realboost
from ui import exports
from ui.dataset_code import check_choice, literal

#: The page as the script's header names it.
TITLE = "Boosted oblique trees (G1) page"
#: The paper the page follows (the header's ``Paper:`` line; continuation lines are comments).
PAPER = (
    "C. Henry, R. Nock and F. Nielsen, Real boosting a la carte with an application to\n"
    "#   boosting oblique decision trees (IJCAI 2007)."
)


def snippet(
    data_code: str, n_internal: int, n_stumps: int, node_learner: str, leaf_rule: str
) -> str:
    """Script reproducing the oblique-trees page: AdaBoost (G1 on a path), the KM tree and
    BoostODT, with the page's last-step alignment.

    Parameters
    ----------
    data_code : str
        The dataset lines (:func:`ui.dataset_code.dataset_code`).
    n_internal : int
        T2: the internal nodes of BoostODT and of the KM tree (``params["n_internal"]``).
    n_stumps : int
        T1: AdaBoost_R rounds inside each BoostODT node (``params["n_stumps"]``).
    node_learner : str
        BoostODT's node learner (``params["learner"]``: ``"stump"``, ``"hyperplane"``).
    leaf_rule : str
        BoostODT's leaf to split next (``params["rule"]``).

    Returns
    -------
    str
        The complete script.
    """
    check_choice("node_learner", node_learner, realboost.WEAK_LEARNERS)
    check_choice("leaf_rule", leaf_rule, oblique.LEAF_RULES)
    return exports.script(
        __package__,
        TITLE,
        PAPER,
        data_code=data_code,
        N_INTERNAL=literal(int(n_internal)),
        N_STUMPS=literal(int(n_stumps)),
        NODE_LEARNER=literal(node_learner),
        LEAF_RULE=literal(leaf_rule),
    )
