"""Probabilistic boosting (chain, tree, matryoshka, collapse) → the lecture view's frames.

One frame per step of the page's stepper. A step is a count of weak classifiers used so far
(``counts[k]``, :func:`step_counts`; ``metrics.n_weak`` of the snapshot shown): every count at
which the focused run changes — every weak classifier for the chain, the tree and the collapse,
the levels ``0, 2, 4, 8, …`` for the matryoshka, whose step is a level of nesting
(:mod:`boostcore.steps`) — so that every step changes the focused run's picture; step 0 is every
run's start snapshot, the initial model ``H = 0``. The other runs are shown at the same counts:


* **regions** — ``P(H(x) > 0)`` as a heatmap of small integers (percent, ``uint8``) on a
  coarse grid, the points as SVG markers and the newest soft stump's threshold with its
  band ``θ ± 2τ``;
* **structure** — SVG pictures drawn here at a fixed text size: the chain as a grid of stump
  boxes, the tree as a tidy tree, the matryoshka's dolls as boxes holding their own trees
  (boxes inside boxes). Every frame is a list from the most to the least detailed picture;
  the browser shows the first that fits (``ui/lecture/js``), so text never shrinks: large
  structures fold the dolls and subtrees away from the newest change into boxes with counts;
* **curves** — expected errors and the bounds against ``T``: the whole run faint, the part up
  to this round solid, a marker at this round, names at the line ends;
* **proof** — the chain of inequalities of the snapshot shown (:func:`proof_frames`, a
  compact HTML card from ``ui/proof.py``);
* **tables** — this round's numbers of every run and the matryoshka's doll check (HTML).

The matryoshka only exists at ``T = 2, 4, 8, …`` (a level-ℓ doll uses ``2^ℓ`` stumps): when
another run is focused, between levels its small picture shows the last complete doll (before
the first one: what comes, and at which ``T``). The last round's note ends with
the run's ``stop_reason``. Builders are pure functions; :func:`matryoshka_lecture` (cached)
builds every frame of every run once.

Every text that reaches an SVG or HTML string is escaped here (feature names come from CSVs).

The package, one module a job: :mod:`~.steps` (which snapshot a step shows and what comes
next; the runs' :data:`NAMES`), :mod:`~.encoding` (numpy data as JSON), :mod:`~.regions` (the
soft regions), :mod:`~.curves` (errors and bounds against ``T``), :mod:`~.drawing` (boxes,
their layout and :func:`svg`, on the structure pictures' engine :mod:`ui.svg`), :mod:`~.structure`
(the chain's, the trees' and the dolls' pictures), :mod:`~.tables` (the metrics and doll
tables), :mod:`~.words` (the views' text alternatives) and :mod:`~.lecture` (the notes, the proof
cards and every frame). Callers use the names below, from ``ui.pages.matryoshka.frames``.
"""

from ui.figures import FAINT  # the curves' faint whole run (the tests read it here)

from .curves import curves_figure
from .drawing import (
    EDGE_LABEL,
    GHOST_FILL,
    GHOST_LINE,
    GHOST_TEXT,
    PAD,
    STUMP_FILL,
    Box,
    Pic,
    TNode,
    layout,
    stump_label,
    svg,
)
from .encoding import plain, typed
from .lecture import build_lecture, curve_note, matryoshka_lecture, notes_for, proof_frames
from .regions import (
    GRID,
    SMALL_GRID,
    grid_points,
    last_stump,
    newest_stump,
    points,
    q_grids,
    quantise,
    regions_figure,
    shrink,
)
from .steps import NAMES, next_event, shown_index, step_counts, step_of
from .structure import (
    DOLL_FILL,
    INITIAL_TITLE,
    chain_pictures,
    initial_picture,
    structure_pictures,
    tree_pictures,
    waiting_picture,
)
from .tables import DOLL_COLUMNS, DOLLS_CAPTION, dolls_table, metrics_table
from .words import (
    SPOKEN,
    curves_description,
    describe_run,
    regions_description,
    structure_description,
    stump_words,
)

__all__ = [
    "Box",
    "DOLLS_CAPTION",
    "DOLL_COLUMNS",
    "DOLL_FILL",
    "EDGE_LABEL",
    "FAINT",
    "GHOST_FILL",
    "GHOST_LINE",
    "GHOST_TEXT",
    "GRID",
    "INITIAL_TITLE",
    "NAMES",
    "PAD",
    "Pic",
    "SMALL_GRID",
    "SPOKEN",
    "STUMP_FILL",
    "TNode",
    "build_lecture",
    "chain_pictures",
    "curve_note",
    "curves_description",
    "curves_figure",
    "describe_run",
    "dolls_table",
    "grid_points",
    "initial_picture",
    "last_stump",
    "layout",
    "matryoshka_lecture",
    "metrics_table",
    "newest_stump",
    "next_event",
    "notes_for",
    "plain",
    "points",
    "proof_frames",
    "q_grids",
    "quantise",
    "regions_description",
    "regions_figure",
    "shown_index",
    "shrink",
    "step_counts",
    "step_of",
    "structure_description",
    "structure_pictures",
    "stump_label",
    "stump_words",
    "svg",
    "tree_pictures",
    "typed",
    "waiting_picture",
]
