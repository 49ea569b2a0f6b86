"""The URL parameters every page shares, by group: the page header's (presenter mode, class
mode), a preset's, the dataset sidebar's and the lecture view's.

They live outside the page registry (:mod:`ui.pages`, which re-exports them) so that the
parts of ``ui`` that read them — the page header in :mod:`ui.header` — need not import the
registry, which sits above them (issue 42, item 1).
"""

from __future__ import annotations

from boostcore.datasets import GENERATORS

from .params import Param

#: Presenter mode: every page's header (``?present=true``).
HEADER_PARAMS: tuple[Param, ...] = (
    Param("present", "flag", default=False),
    # class mode (ui/classroom/teach.py): a follower's class code, a teacher link's key
    Param("class", "parsed"),
    Param("teach", "parsed"),
)
#: A page with presets: the preset's name and the round it opens at (read by parsers).
PRESET_PARAMS: tuple[Param, ...] = (Param("preset", "parsed"), Param("round", "parsed"))
#: The lecture view: the round (with the presets') and which run is shown large.
LECTURE_PARAMS: tuple[Param, ...] = (Param("focus", "choice"),)
#: The dataset sidebar (ui/widgets.py) and the drawing canvas (ui/draw.py).
DATASET_PARAMS: tuple[Param, ...] = (
    Param("src", "choice", default="Generated", options=("Generated", "Upload CSV", "Draw")),
    Param("data", "choice", default="moons", options=tuple(GENERATORS)),
    Param("n", "int", lo=40, hi=5000, default=400, step=20),
    Param("noise", "float", lo=0.0, hi=1.0, default=0.3, step=0.05),
    Param("pos", "float", lo=0.1, hi=0.9, default=0.5, step=0.05),
    Param("flip", "float", lo=0.0, hi=0.4, default=0.05, step=0.01),
    Param("test", "float", lo=0.0, hi=0.5, default=0.25, step=0.05),
    Param("seed", "int", lo=0, hi=1_000_000, default=0, step=1),
    Param("pts", "parsed"),
    Param("ptest", "float", lo=0.0, hi=0.5, default=0.0, step=0.05),
)
#: A lesson page: header, presets, data and the lecture view.
LESSON_PARAMS = (*HEADER_PARAMS, *PRESET_PARAMS, *DATASET_PARAMS, *LECTURE_PARAMS)
