"""Divide-and-merge runs → the lecture view's frames (the /branching page).

Per round ``t = 0 … T`` of each merging scheme (``boostcore.steps.rounds``: round 0 is the
initial model ``F_0 = 0``, the program's root alone): the decision regions of ``sign F_t`` (a
heatmap on the grid of the stumps' thresholds, exact and small), the branching program as a
layered SVG picture (one layer per round, this round's layer in vermillion), the curves
``Π Z_t ≥ training error`` with ``Π H(Y|h_t)`` and ``|L_t|`` (the whole run faint, the rounds up
to this one solid), and the round tables. The run's last frame says why it stopped
(``boostcore.steps.final(run).stop_reason``). :func:`branching_lecture` builds them once
(cached), and :func:`program_frames` the program pictures of the focused scheme; the browser
steps through them.

Every figure builder here is a pure function (no Streamlit); only those two are cached with
``st.cache_data``.

The package, one module a job (issue 42, item 3; it was one 1,558-line ``frames.py``):
:mod:`~ui.pages.branching.frames.regions` (the regions of ``sign F_t``, the points, the
student's turn), :mod:`~ui.pages.branching.frames.program` (the program's SVG pictures, its
note and :func:`divide_words`), :mod:`~ui.pages.branching.frames.curves` (the curves, their
note and Theorem 3 per round, ``c_round_*``), :mod:`~ui.pages.branching.frames.words` (the
views' text alternatives), :mod:`~ui.pages.branching.frames.tables` (the round tables as
HTML) and :mod:`~ui.pages.branching.frames.lecture` (the notes, the proof cards and the cached
builders). Callers use the names below, from ``ui.pages.branching.frames``.
"""

from ui.labels import MERGE_SHORT
from ui.text import spoken_number

from .curves import (
    C_BOUND,
    C_LEAVES_H,
    LEAVES,
    PROD_H,
    PROD_Z,
    c_round_figure,
    c_round_frames,
    c_round_note,
    curves_figure,
    curves_note,
    no_round,
)
from .lecture import (
    SCHEMES,
    branching_lecture,
    first_merge,
    notes_for,
    program_frames,
    proof_frames,
)
from .program import (
    DETAIL,
    NO_POINT,
    WIDE,
    divide_words,
    program_note,
    program_pictures,
    program_rounds,
    program_svg,
)
from .regions import LEVELS, points, regions_figure, spec, turn_regions
from .tables import groups_html, lemma4_html, metrics_html
from .words import SPOKEN, curves_description, regions_description, structure_description

__all__ = [
    "C_BOUND",
    "C_LEAVES_H",
    "DETAIL",
    "LEAVES",
    "LEVELS",
    "MERGE_SHORT",
    "NO_POINT",
    "PROD_H",
    "PROD_Z",
    "SCHEMES",
    "SPOKEN",
    "WIDE",
    "branching_lecture",
    "c_round_figure",
    "c_round_frames",
    "c_round_note",
    "curves_description",
    "curves_figure",
    "curves_note",
    "divide_words",
    "first_merge",
    "groups_html",
    "lemma4_html",
    "metrics_html",
    "no_round",
    "notes_for",
    "points",
    "program_frames",
    "program_note",
    "program_pictures",
    "program_rounds",
    "program_svg",
    "proof_frames",
    "regions_description",
    "regions_figure",
    "spec",
    "spoken_number",
    "structure_description",
    "turn_regions",
]
