"""You are the weak learner on /oblique (issue 17, item 1): the student draws BoostODT's next
separator.

At the node BoostODT splits next (the leaf rule's choice, as in the algorithm's run), the
student sets the line ``cos θ·x₁ + sin θ·x₂ + b = 0`` — an angle θ and an offset from the
node's centre with sliders, or by dragging a box on the plot of the node's examples (the
diagonal from where the drag starts to where it ends becomes the line; ``LS ≥ 0``, the right
child, is on the right-hand side of that drag). The line is scored live by
:func:`boostcore.oblique.score_separator`, exactly as :func:`boostcore.oblique.boost_odt`
would split by it: μ, α, √(1 − μ²) of its ±1 output under the node's class-balanced weights,
the node's share of Σ 2√(w⁺w⁻) before and after, and Theorem 1's bound after the split —
next to AdaBoost_R's separator at the same node (its line drawn too). "Use my line" continues
the run from the student's separators (``boost_odt(choose=…)`` replays the student's lines for
steps 1 … m; later steps are AdaBoost_R's), so the lecture views (regions, tree, curves,
proof card) show the student's run.

The choices live in ``st.session_state["weak_oblique_choices"]``: one entry per step, either
``((cos θ, sin θ), b)`` (the student's line) or ``None`` (AdaBoost_R's separator), with the
signature of the run they belong to (data and parameters); a change of either starts the
student's run over, with a notice.

Its runs are :func:`ui.pages.oblique.runs.odt_run`'s: the page's BoostODT run, replayed from
the student's choices, in :mod:`ui.cache`'s shared store.

The package, one module a job; callers use the names below, from ``ui.pages.oblique.student``:

* :mod:`~ui.pages.oblique.student.session`: the mode's toggle, the played separators
  (:data:`TURN`, :func:`choices`, :func:`whose`) and the node split next (:func:`next_split`);
* :mod:`~ui.pages.oblique.student.line`: the line from a drag or from θ and an offset, clipped,
  turned to ``μ ≥ 0`` (:func:`with_edge`), and its equation;
* :mod:`~ui.pages.oblique.student.plot`: the plot of the node's examples and the lines;
* :mod:`~ui.pages.oblique.student.panel`: the student's panel (:func:`oblique_turn`);
* :mod:`~ui.pages.oblique.student.pooled`: the class's lines, scored (:func:`class_lines`),
  and the teacher's panel of them.
"""

from .line import clip, equation, fmt, line_from_points, line_of, with_edge
from .panel import oblique_turn
from .plot import CELL_GRID, LINE_GRID, figure, view_box
from .pooled import class_lines, class_panel
from .session import FOCUS, INNER_OFF, KEY, TURN, choices, next_split, toggle, whose

__all__ = [
    "CELL_GRID",
    "FOCUS",
    "INNER_OFF",
    "KEY",
    "LINE_GRID",
    "TURN",
    "choices",
    "class_lines",
    "class_panel",
    "clip",
    "equation",
    "figure",
    "fmt",
    "line_from_points",
    "line_of",
    "next_split",
    "oblique_turn",
    "toggle",
    "view_box",
    "whose",
    "with_edge",
]
