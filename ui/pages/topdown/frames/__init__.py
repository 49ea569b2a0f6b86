"""Runs → the lecture view's frames: one regions figure, structure picture, curves figure and
round table per snapshot (pure functions: no Streamlit, unit-testable).

Figures here are drawn for stepping in the browser: the decision regions of an axis-parallel
tree are one rectangle per leaf cell (not a heatmap), points are SVG markers, and the curves
draw the whole run faintly with the part up to this round solid and a marker at this round,
so the class sees where the bound is going before the run gets there.

The package, one module a view (issue 42, item 3; it was one 932-line ``frames.py``); callers
use the names below, from ``ui.pages.topdown.frames``:

* :mod:`~ui.pages.topdown.frames.regions`: the regions figure, one rectangle per leaf cell;
* :mod:`~ui.pages.topdown.frames.structure`: the tree's nodes and SVG pictures;
* :mod:`~ui.pages.topdown.frames.curves`: ``I(T)``, the errors and the bounds against ``|T|``;
* :mod:`~ui.pages.topdown.frames.words`: the text alternatives a screen reader says;
* :mod:`~ui.pages.topdown.frames.lecture`: the proof cards and the page's lecture
  (:func:`topdown_lecture`), built from all of the above.
"""

from ui.text import spoken_number

from .curves import E_BOUND, PHI_S, PHI_T, POWER, THM4, THM4_REF, gamma_falls, topdown_curves
from .lecture import topdown_lecture, topdown_proof_frames
from .regions import tree_cells_figure
from .structure import tree_nodes, tree_pictures
from .words import (
    SPOKEN,
    curves_description,
    regions_description,
    structure_description,
    topdown_descriptions,
)

__all__ = [
    "E_BOUND",
    "PHI_S",
    "PHI_T",
    "POWER",
    "SPOKEN",
    "THM4",
    "THM4_REF",
    "curves_description",
    "gamma_falls",
    "regions_description",
    "spoken_number",
    "structure_description",
    "topdown_curves",
    "topdown_descriptions",
    "topdown_lecture",
    "topdown_proof_frames",
    "tree_cells_figure",
    "tree_nodes",
    "tree_pictures",
]
