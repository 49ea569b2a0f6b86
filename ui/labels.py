"""The core's names and display labels that pages show, so that a page imports only ``ui``.

* :data:`INDEX` — the index functions by name (``"km"``, ``"gini"``, …); a page lists its keys;
* :data:`INDEX_LABELS` — each index's formula as the page prints it;
* :data:`CRITERION_LABELS` — one phrase per top-down split criterion;
* :data:`CRITERION_SHORT` — its short name (and :data:`CRITERION_FROM_SHORT` back).

They are the core's own objects (``boostcore.impurity``, ``boostcore.topdown``), re-exported
unchanged: one definition each.
"""

from __future__ import annotations

from boostcore.impurity import INDEX, INDEX_LABELS
from boostcore.topdown import CRITERION_LABELS

__all__ = [
    "CRITERION_FROM_SHORT",
    "CRITERION_LABELS",
    "CRITERION_SHORT",
    "INDEX",
    "INDEX_LABELS",
    "MERGE_SHORT",
]

#: The short name of each top-down criterion on the page, in its tables, links and exports
#: (one map: the page's multiselect, the round tables and the scripts all use it).
CRITERION_SHORT = {"hatano": "Hatano", "mansour_mcallester": "Mansour-McAllester", "naive": "Naive"}
#: Short name → the core's criterion name.
CRITERION_FROM_SHORT = {v: k for k, v in CRITERION_SHORT.items()}
#: The name of each merging scheme of ``bp_infoboost`` (its ``merge``): the algorithm it runs.
MERGE_SHORT = {"all": "InfoBoost", "bands": "BP.InfoBoost", "none": "DT.InfoBoost"}
