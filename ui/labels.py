"""The core's names and display labels that pages show, so that a page imports only ``ui``.

* :data:`INDEX` — the index functions by name (``"km"``, ``"gini"``, …); a page lists its keys;
* :data:`INDEX_LABELS` — each index's formula as the page prints it;
* :data:`CRITERION_LABELS` — one phrase per top-down split criterion.

They are the core's own objects (``boostcore.impurity``, ``boostcore.topdown``), re-exported
unchanged: one definition each.
"""

from __future__ import annotations

from boostcore.impurity import INDEX, INDEX_LABELS
from boostcore.topdown import CRITERION_LABELS

__all__ = ["CRITERION_LABELS", "INDEX", "INDEX_LABELS"]
