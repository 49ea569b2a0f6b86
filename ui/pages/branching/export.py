"""The divide-and-merge page's runs as a script (its template: ``export.py.tmpl`` next to this
module; the shared templating is :mod:`ui.exports`)."""

from __future__ import annotations

from collections.abc import Sequence

from boostcore import branching
from ui import exports
from ui.dataset_code import check_choice, literal
from ui.labels import MERGE_SHORT

#: The page as the script's header names it.
TITLE = "Divide and merge (InfoBoost) page"
#: The paper the page follows (the header's ``Paper:`` line; continuation lines are comments).
PAPER = (
    "E. Takimoto, S. Koya and A. Maruoka, Boosting based on divide and merge\n"
    "#   (InfoBoost as a branching program; BP.InfoBoost)."
)


def _merge_of(scheme: str) -> str:
    """The core's merge (``"all"``, ``"bands"``, ``"none"``) of a merge or a page name."""
    if scheme in branching.MERGES:
        return scheme
    by_name = {v: k for k, v in MERGE_SHORT.items()}
    if scheme in by_name:
        return by_name[scheme]
    raise ValueError(
        f"schemes must be merges {list(branching.MERGES)} or names {list(by_name)}; got {scheme!r}"
    )


def snippet(
    data_code: str, schemes: Sequence[str], n_rounds: int, c: float, weak_learner: str
) -> str:
    """Script reproducing the divide-and-merge page: one ``bp_infoboost`` run per scheme.

    Parameters
    ----------
    data_code : str
        The dataset lines (:func:`ui.dataset_code.dataset_code`).
    schemes : sequence of str
        The page's names (``"InfoBoost"``, ``"BP.InfoBoost"``, ``"DT.InfoBoost"``, i.e.
        ``params["schemes"]``) or merges (``"all"``, ``"bands"``, ``"none"``).
    n_rounds : int
        The rounds T.
    c : float
        Theorem 3's trade-off (BP.InfoBoost's bands).
    weak_learner : str
        The core value (``params["wl"]``: ``"h"`` or ``"divided"``).

    Returns
    -------
    str
        The complete script.
    """
    merges = [_merge_of(s) for s in schemes]
    if not merges:
        raise ValueError("schemes must name at least one merging scheme")
    check_choice("weak_learner", weak_learner, branching.WEAK_LEARNERS)
    return exports.script(
        __package__,
        TITLE,
        PAPER,
        data_code=data_code,
        N_ROUNDS=literal(int(n_rounds)),
        C=literal(c),
        WEAK_LEARNER=literal(weak_learner),
        SCHEMES=literal({MERGE_SHORT[m]: m for m in merges}),
    )
