"""The oblique page (/oblique) as lecture-view frames: AdaBoost (G1 on a path), the
Kearns–Mansour tree (G1 on a tree) and BoostODT on one stepper (docs/theory.md §4).

Every stepper position (``runs.odt_schedule``) becomes, for each of the three runs, a
regions figure, a structure picture (SVG), a curves figure, a small regions figure and a
sparkline, plus the page's round tables. Frames are built for stepping in the browser:

* regions are a heatmap ``z`` of ``uint8`` at modest resolution (the shading
  ``1/(1+e^(−2H))``), the node boundaries ``LS = 0`` as joined marching-squares polylines
  (one trace per node, in split order, so an old boundary is byte-identical from step to
  step and sent once), points as SVG markers whose size is the weight the newest weak
  hypothesis was trained on (``uint8``);
* the trees are SVG pictures at a fixed text size with a *mini view* inside every internal
  node (its examples and its separator ``LS = 0``); when the whole tree does not fit, the
  neighbourhood of this step's node is shown instead (path from the root, siblings
  collapsed with a count); AdaBoost's path shows its last stumps when it is long.

Every text that reaches SVG or HTML is escaped (feature names come from user CSVs).

The package, one module a job; callers use the names below, from ``ui.pages.oblique.frames``:

* :mod:`~ui.pages.oblique.frames.positions`: the runs' names, what each run shows at a stepper
  position (:class:`Shown`, :func:`shown_at`) and what inner stepping costs;
* :mod:`~ui.pages.oblique.frames.regions`: the regions figures and the node boundaries;
* :mod:`~ui.pages.oblique.frames.structure`: the tree and path pictures (SVG);
* :mod:`~ui.pages.oblique.frames.curves`: the error, loss and bound curves;
* :mod:`~ui.pages.oblique.frames.words`: the text alternatives a screen reader says;
* :mod:`~ui.pages.oblique.frames.panels`: the round tables and the proof at each position;
* :mod:`~ui.pages.oblique.frames.lecture`: the page's lecture (:func:`oblique_lecture`,
  :func:`build_lecture`), built from all of the above.
"""

from .curves import FAINT, XLABEL, g1_curves
from .lecture import build_lecture, oblique_lecture, schedule_of
from .panels import inner_html, metrics_frame, peers_html, proof_frames
from .positions import (
    ADA,
    INNER_SECONDS_LIMIT,
    KM,
    ODT,
    ORDER,
    SHORT,
    Shown,
    inner_stepping_cost,
    inner_stepping_refusal,
    said,
    shown_at,
)
from .regions import GRID, LINE_GRID, SMALL_GRID, inner_weights, polylines
from .structure import MINI_GRID, MINI_POINTS, TreePictures, message_svg, path_pictures, tree_svg
from .words import (
    SPOKEN,
    TREE_NAME,
    UNIT,
    describe_margins,
    describe_position,
    hypothesis_words,
    separator_words,
    spoken_number,
)

__all__ = [
    "ADA",
    "FAINT",
    "GRID",
    "INNER_SECONDS_LIMIT",
    "KM",
    "LINE_GRID",
    "MINI_GRID",
    "MINI_POINTS",
    "ODT",
    "ORDER",
    "SHORT",
    "SMALL_GRID",
    "SPOKEN",
    "Shown",
    "TREE_NAME",
    "TreePictures",
    "UNIT",
    "XLABEL",
    "build_lecture",
    "describe_margins",
    "describe_position",
    "g1_curves",
    "hypothesis_words",
    "inner_html",
    "inner_stepping_cost",
    "inner_stepping_refusal",
    "inner_weights",
    "message_svg",
    "metrics_frame",
    "oblique_lecture",
    "path_pictures",
    "peers_html",
    "polylines",
    "proof_frames",
    "said",
    "schedule_of",
    "separator_words",
    "shown_at",
    "spoken_number",
    "tree_svg",
]
