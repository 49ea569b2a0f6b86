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
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import numpy as np
import pandas as pd

from boostcore import steps as protocol
from boostcore.bounds import f_tree
from boostcore.datasets import Dataset
from boostcore.probabilistic import Chain, ProbStep, ProbTree, SoftStump
from ui import payload, theme
from ui.cache import shared
from ui.figures import FAINT, curves_layout, data_extent, points_traces, regions_layout
from ui.proof import is_large
from ui.proof import proof_frames as proof_cards  # this module's proof_frames wraps it
from ui.svgtree import svg_size
from ui.text import notation, plural, spoken_number

from . import runs as matryoshka_runs
from .proof import grossmann_chain, is_collapsed

NAMES = {"chain": "Chain", "tree": "Tree", "matryoshka": "Matryoshka", "collapse": "Collapse"}
GRID = 60  # regions heatmap resolution (GRID × GRID percent values, uint8)
SMALL_GRID = 30  # the small multiples' heatmap
CHAR = 0.58  # average character width as a fraction of the font size (Helvetica-like)
PAD = 7  # inside a doll's box
#: A picture at most this large fits every panel: less detailed ones after it are not needed.
FIT_W, FIT_H = 320, 280
#: Structure panels (width, height in px) of the layouts the page is made for — 1440×900 with
#: the sidebar, 1920×1080 without, presenter mode at 1280×720 and 1920×1080 — and a large
#: window: every frame keeps the most detailed picture that fits each of them.
PANELS = ((960, 1000), (666, 716), (520, 750), (432, 356), (347, 580), (FIT_W, FIT_H))
DOLL_FILL = ["#F6F3FA", "#ECE6F4", "#E2DAEE", "#D8CEE8", "#CEC2E2"]
STUMP_FILL = "#FFFFFF"
#: The structures' edges (a graphic on white) and their labels, text on a white patch
#: (#777777 is 4.48 : 1: its ink, issue 26 item 4).
EDGE = "#777777"
EDGE_LABEL = theme.ink(EDGE)
#: The ghosts of the waiting picture: the shape of the level-1 doll before there is one. They
#: are all that picture shows (no solid copy is on screen), so their outlines are graphics and
#: their text is text: dashed NEUTRAL grey (#999999 and #AAAAAA were 2.73 and 2.32 : 1 on
#: GHOST_FILL) and a grey that reads on their fill (#777777 was 4.29).
GHOST_FILL = "#FAFAFA"
GHOST_LINE = theme.NEUTRAL
GHOST_TEXT = theme.ink(EDGE, GHOST_FILL, theme.PLOT_BG)


# ============================================================================== encoding
def typed(a) -> dict:
    """A numpy array as a plotly.js typed array (:func:`ui.payload.typed_array`, floats as
    float32), as :func:`ui.lecture.plotly_frames` writes them."""
    return payload.typed_array(a)


def plain(obj):
    """``obj`` with numpy arrays as typed-array specs and numpy scalars as Python numbers
    (JSON-ready, and accepted by ``plotly.graph_objects.Figure``). The points are encoded so
    once per run instead of once per frame."""
    if isinstance(obj, np.ndarray):
        return typed(obj)
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


# =============================================================================== schedule
def shown_index(steps: Sequence[ProbStep], t: int) -> int | None:
    """Index of the snapshot shown at round ``t``: the last one of the run's rounds
    (:func:`boostcore.steps.rounds`, the stop snapshot left out) using at most ``t`` weak
    classifiers (``metrics.n_weak``); ``None`` only for a run without snapshots."""
    idx = None
    for i, s in enumerate(protocol.rounds(steps)):
        if s.metrics.n_weak <= t:
            idx = i
        else:
            break
    return idx


def step_counts(runs: dict[str, Sequence[ProbStep]], focus: str) -> tuple[int, ...]:
    """The weak-classifier counts the page steps through: one step per change of the picture.

    The counts at which the focused run has a snapshot (:func:`boostcore.steps.rounds`; the
    chain, the tree and the collapse add one soft stump a snapshot, the matryoshka one level,
    ``2^ℓ`` stumps: Grossmann §5.3), then — if the focused run stopped before the others —
    every later count at which another run changes. Counts in between would change nothing
    of the focused run (issue 25, 7: the matryoshka's regions and dolls stood still at
    5–7 and 9–15 weak classifiers).

    Parameters
    ----------
    runs : dict of str to sequence of ProbStep
        The runs shown (structure → snapshots).
    focus : str
        The focused run's structure (a key of ``runs``).

    Returns
    -------
    tuple of int
        Increasing counts, starting at 0 (the initial model).

    Raises
    ------
    ValueError
        If ``focus`` is not one of ``runs``.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.probabilistic import matryoshka, prob_adaboost
    >>> ds = make_dataset("moons", n=60, random_state=0)
    >>> runs = {"matryoshka": list(matryoshka(ds.X_train, ds.y_train, levels=2)),
    ...         "chain": list(prob_adaboost(ds.X_train, ds.y_train, n_rounds=4))}
    >>> step_counts(runs, "matryoshka"), step_counts(runs, "chain")
    ((0, 2, 4), (0, 1, 2, 3, 4))
    """
    if focus not in runs:
        raise ValueError(f"focus must be one of the runs {sorted(runs)}; got {focus!r}")
    own = {int(s.metrics.n_weak) for s in protocol.rounds(runs[focus])} | {0}
    last = max(own)
    later = {
        int(s.metrics.n_weak)
        for name, run in runs.items()
        if name != focus
        for s in protocol.rounds(run)
        if s.metrics.n_weak > last
    }
    return tuple(sorted(own | later))


def step_of(counts: Sequence[int], n_weak: int) -> int:
    """The step showing ``n_weak`` weak classifiers: the last step whose count is at most
    ``n_weak`` (0 below the first count), e.g. the level holding that many stumps.

    Examples
    --------
    >>> step_of((0, 2, 4, 8, 16), 5), step_of((0, 2, 4, 8, 16), 99), step_of((0, 2), -1)
    (2, 4, 0)
    """
    k = 0
    for i, c in enumerate(counts):
        if c <= n_weak:
            k = i
    return k


def next_event(structure: str, steps: Sequence[ProbStep], t: int) -> str:
    """What the matryoshka shows next and when (empty for the other runs / the last level)."""
    if structure != "matryoshka":
        return ""
    later = [s.metrics.n_weak for s in protocol.rounds(steps) if s.metrics.n_weak > t]
    if not later:
        return ""
    nxt = later[0]
    level = int(round(math.log2(nxt)))
    if level == 1:
        return f"The first doll appears at T = {nxt}: a two-node tree of 2 soft stumps (level 1)."
    return (
        f"T = {nxt} brings level {level}: this doll becomes the root of a two-node tree "
        f"and a new level-{level - 1} doll ({nxt // 2} stumps) grows in its heavier child."
    )


# ================================================================================ regions
def grid_points(lo, hi, n: int) -> np.ndarray:
    """The ``n × n`` grid's centres, row by row (y outer), as an (n², 2) array."""
    xs = np.linspace(lo[0], hi[0], n)
    ys = np.linspace(lo[1], hi[1], n)
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


def q_grids(steps: Sequence[ProbStep], lo, hi, n: int = GRID) -> list[np.ndarray]:
    """``P(H(x) > 0) + ½ P(H(x) = 0)`` of every snapshot on the ``n × n`` grid (rows: the
    second feature, columns: the first).

    The chain's Monte Carlo worlds (the same seeded draws as :meth:`Chain.q_pos`, so the
    result equals it up to float32 rounding) are accumulated round by round and separately
    per feature: a stump on the first feature adds the same term to a whole grid column, so
    ``H = H_x(column) + H_y(row)`` in every world. The trees are exact.
    """
    G = grid_points(lo, hi, n)
    axes = (np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n))
    out: list[np.ndarray] = []
    parts: list[np.ndarray] | None = None
    H = flag = None
    done = 0
    for s in steps:
        model = s.model
        if isinstance(model, Chain):
            if parts is None:
                parts = [np.zeros((model.n_draws, n), dtype=np.float32) for _ in axes]
                H = np.empty((model.n_draws, n, n), dtype=np.float32)
                flag = np.empty((model.n_draws, n, n), dtype=bool)
            for k in range(done, len(model.stumps)):
                stump = model.stumps[k]
                j = stump.feature
                pts = np.zeros((n, 2))
                pts[:, j] = axes[j]
                u = model.draws(k + 1)
                parts[j] += np.where(
                    u[:, None] < stump.q_pos(pts)[None, :], model.alpha_pos[k], -model.alpha_neg[k]
                )
            done = len(model.stumps)
            np.add(parts[1][:, :, None], parts[0][:, None, :], out=H)  # worlds × rows × cols
            q = np.count_nonzero(np.greater(H, 0, out=flag), axis=0).astype(float)
            q += 0.5 * np.count_nonzero(np.equal(H, 0, out=flag), axis=0)
            q /= model.n_draws
        else:
            q = model.q_pos(G).reshape(n, n)
        out.append(np.asarray(q, dtype=float))
    return out


def quantise(q: np.ndarray) -> np.ndarray:
    """Probabilities as whole percent (``uint8`` 0…100): a few KB per frame, enough for the
    eye and the hover text."""
    return np.clip(np.rint(np.asarray(q, dtype=float) * 100), 0, 100).astype(np.uint8)


def shrink(q: np.ndarray, factor: int = 2) -> np.ndarray:
    """Average ``factor × factor`` blocks (the small multiples' coarser grid)."""
    n = q.shape[0] - q.shape[0] % factor
    q = q[:n, :n]
    return q.reshape(n // factor, factor, n // factor, factor).mean(axis=(1, 3))


def last_stump(model) -> SoftStump | None:
    """The soft stump trained last: a matryoshka trains its root doll first, then the doll
    in the heavier child (the internal node with the larger id)."""
    if isinstance(model, SoftStump):
        return model
    if isinstance(model, Chain):
        return model.stumps[-1] if model.stumps else None
    if isinstance(model, ProbTree):
        inner = [n for n, c in enumerate(model.children) if c is not None]
        return last_stump(model.classifier[max(inner)]) if inner else None
    return None


def newest_stump(step: ProbStep | None) -> SoftStump | None:
    """This round's new soft stump (the matryoshka's: the last one of its new doll)."""
    if step is None:
        return None
    return step.stump if step.stump is not None else last_stump(step.model)


def points(ds: Dataset, *, small: bool = False) -> list[dict]:
    """The training (filled) and test (hollow, not on small multiples) points, JSON-ready."""
    return plain(points_traces(ds, show_test=not small))


def regions_figure(
    q8: np.ndarray,
    ds: Dataset,
    lo,
    hi,
    *,
    stump: SoftStump | None = None,
    font: float = 12,
    small: bool = False,
    empty: str = "",
    pts: list[dict] | None = None,
) -> dict:
    """Soft regions of one round: ``q8`` (percent, uint8) as a heatmap over the data box,
    the points, and the newest stump's threshold (vermillion) with its band ``θ ± 2τ``.
    ``empty``: a message written over the plot when the run has no model yet; ``pts``: the
    points from :func:`points` (built once per run). Returns a JSON-ready figure dict."""
    n = q8.shape[0]
    dx = float(hi[0] - lo[0]) / (n - 1)
    dy = float(hi[1] - lo[1]) / (n - 1)
    data: list[dict] = [
        dict(
            type="heatmap",
            z=q8,
            x0=float(lo[0]),
            dx=dx,
            y0=float(lo[1]),
            dy=dy,
            zmin=0,
            zmax=100,
            colorscale=theme.REGION_SCALE,
            showscale=False,
            name="P(H>0)",
            hoverinfo="skip" if small else None,
            hovertemplate=None if small else "P(H(x) > 0) = %{z}%<extra></extra>",
        )
    ]
    data = plain(data) + (pts if pts is not None else points(ds, small=small))
    shapes = []
    if stump is not None:
        th, band = float(stump.theta), 2 * float(stump.tau)
        if stump.feature == 0:
            shapes += [
                dict(
                    type="rect",
                    x0=th - band,
                    x1=th + band,
                    y0=float(lo[1]),
                    y1=float(hi[1]),
                    fillcolor=theme.HIGHLIGHT,
                    opacity=0.12,
                    line=dict(width=0),
                    layer="below",
                ),
                dict(
                    type="line",
                    x0=th,
                    x1=th,
                    y0=float(lo[1]),
                    y1=float(hi[1]),
                    line=dict(color=theme.HIGHLIGHT, width=2 if small else 3),
                ),
            ]
        else:
            shapes += [
                dict(
                    type="rect",
                    y0=th - band,
                    y1=th + band,
                    x0=float(lo[0]),
                    x1=float(hi[0]),
                    fillcolor=theme.HIGHLIGHT,
                    opacity=0.12,
                    line=dict(width=0),
                    layer="below",
                ),
                dict(
                    type="line",
                    y0=th,
                    y1=th,
                    x0=float(lo[0]),
                    x1=float(hi[0]),
                    line=dict(color=theme.HIGHLIGHT, width=2 if small else 3),
                ),
            ]
    layout = regions_layout(ds, lo, hi, shapes=shapes, font=font, small=small)
    for axis in ("xaxis", "yaxis"):  # keep the data box; the plot area shrinks to the aspect
        layout[axis]["constrain"] = "domain"
    if not small:  # axis titles are feature names (from a CSV): escaped for plotly's markup
        layout["xaxis"]["title"] = dict(text=escape(str(ds.feature_names[0])))
        layout["yaxis"]["title"] = dict(text=escape(str(ds.feature_names[1])))
    if empty:
        layout["annotations"] = [
            dict(
                xref="paper",
                yref="paper",
                x=0.5,
                y=0.5,
                showarrow=False,
                text="<br>".join(escape(part) for part in empty.split("\n")),
                font=dict(size=font + 1 if not small else font - 2, color="#333333"),
                bgcolor="rgba(255,255,255,0.85)",
                bordercolor="#999999",
                borderwidth=1,
                borderpad=6,
            )
        ]
    return {"data": data, "layout": plain(layout)}


# ================================================================================= curves
def _series(structure: str, steps: Sequence[ProbStep], small: bool):
    """(name, colour, dash, width, getter) of the lines drawn for a run. Names are plotly
    text: exponents and indices are ``<sup>``/``<sub>`` (issue 25, 10), T is the weak
    classifiers used (the x axis)."""
    bound = "Π Z<sub>t</sub> (valid)" if structure == "chain" else "C(T) (valid)"
    if structure == "matryoshka":
        # the bound that holds for the matryoshka is its outer two-node tree's, Eq. (9) at two
        # nodes: ρ̂ is the largest Z₊ + Z₋ of every node at every level (the outer nodes too),
        # so C(T) ≤ F(2, ρ̂) — the proof card's line (.proof.grossmann_chain). F(T, ρ̂) of T
        # stumps would need Grossmann's nesting step (docs/theory.md §3.3): not drawn here,
        # the paper's claim is M2. At T = 0 there is no ρ̂ (no weak classifier): no point.
        f_line = (
            "F(2, ρ̂) (valid)",
            lambda m: None if m.n_weak == 0 else float(f_tree(2, min(max(m.rho_hat, 0.0), 1.0))),
        )
    else:
        # F(T, ρ̂) is Bound (9) for a greedy tree of T stumps (and lies above the chain's
        # ρ̂^T); once the collapsing tree has collapsed it needs Grossmann's nesting step,
        # which does not follow (docs/theory.md §3.3): from there on it is the paper's claim,
        # as on the proof card — one line in two named parts
        f_line = ("F(T, ρ̂)", lambda m: m.bound_F)
    out = [(f_line[0], theme.BOUND["power"], "dot", 2, f_line[1])]
    if structure == "collapse":
        out = _collapse_f_lines(steps)
    out.append(("ρ̂<sup>T</sup>", "#777777", "dot", 1.5, lambda m: m.bound_rho_T))
    if structure == "matryoshka":
        out.append(("M2 (paper)", theme.BOUND["final"], "dashdot", 2, lambda m: m.bound_M2))
    out.append((bound, theme.BOUND["e"], "dash", 2, lambda m: m.bound_C))
    out.append(("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error))
    if steps and steps[-1].metrics.test_error is not None:
        out.append(("test error", theme.MEASURED["test"], "solid", 1.5, lambda m: m.test_error))
    if small:
        out = [s for s in out if s[0] in (bound, "train error")]
    return out


def _collapse_f_lines(steps: Sequence[ProbStep]) -> list:
    """The collapsing tree's ``F(T, ρ̂)``: "F(T, ρ̂)" (Bound (9)) up to the last snapshot
    before the first collapse, "F(T, ρ̂) (paper's claim)" from there on (the two parts share
    that snapshot, so the line is unbroken)."""
    done = {id(s.metrics): is_collapsed(s.model) for s in steps}
    first = next((i for i, s in enumerate(steps) if done[id(s.metrics)]), None)
    if first is None:
        return [("F(T, ρ̂)", theme.BOUND["power"], "dot", 2, lambda m: m.bound_F)]
    joint = id(steps[first - 1].metrics) if first > 0 else None
    return [
        (
            "F(T, ρ̂)",
            theme.BOUND["power"],
            "dot",
            2,
            lambda m: None if done.get(id(m), False) else m.bound_F,
        ),
        (
            "F(T, ρ̂) (paper's claim)",
            theme.BOUND["power"],
            "dot",
            2,
            lambda m: m.bound_F if done.get(id(m), False) or id(m) == joint else None,
        ),
    ]


def curves_figure(
    steps: Sequence[ProbStep],
    t: int,
    *,
    structure: str,
    n_weak: int,
    font: float = 12,
    small: bool = False,
) -> dict:
    """Expected errors and bounds against ``T`` (``metrics.n_weak``, from 0: the initial model)
    at round ``t``: the whole run faint, the snapshots up to round ``t`` solid (the chain's
    training error with ±2 standard errors), a marker at the snapshot shown, a dotted line at
    ``t``; names at the line ends."""
    steps = protocol.rounds(steps)
    i = shown_index(steps, t)
    x = np.array([s.metrics.n_weak for s in steps], dtype=np.uint16)
    allm = [s.metrics for s in steps]
    # the round as a trace, not a layout shape: the layout then is the same every round
    data: list[dict] = [
        dict(
            type="scatter",
            x=[t, t],
            y=[0, 1.05],
            mode="lines",
            name="this round",
            showlegend=False,
            hoverinfo="skip",
            line=dict(color="#888888", width=1, dash="dot"),
        )
    ]
    series = _series(structure, steps, small)
    for name, colour, dash, width, get in series:
        y = np.array([np.nan if get(m) is None else get(m) for m in allm], dtype=np.float32)
        line = dict(color=colour, dash=dash, width=width)
        data.append(
            dict(
                type="scatter",
                x=x,
                y=y,
                mode="lines+markers" if len(x) < 9 else "lines",
                name=name,
                showlegend=False,
                opacity=FAINT,
                hoverinfo="skip",
                line=line,
                marker=dict(size=4, color=colour),
            )
        )
        k = 0 if i is None else i + 1
        solid = dict(
            type="scatter",
            x=x[:k],
            y=y[:k],
            mode="lines",
            name=name,
            showlegend=False,
            line=line,
            hovertemplate=f"{name}<br>T = %{{x}}: %{{y:.4f}}<extra></extra>",
        )
        if name == "train error" and not small and any(m.mc_stderr is not None for m in allm):
            solid["error_y"] = dict(
                type="data",
                visible=True,
                thickness=1,
                width=2,
                # exact rounds have no spread
                array=np.array([2 * (m.mc_stderr or 0.0) for m in allm[:k]], dtype=np.float32),
            )
        data.append(solid)
        data.append(
            dict(
                type="scatter",
                x=x[k - 1 : k] if k else x[:0],
                y=y[k - 1 : k] if k else y[:0],
                mode="markers",
                name=name,
                showlegend=False,
                hoverinfo="skip",
                marker=dict(
                    color=colour, size=6 if small else 9, line=dict(color="white", width=1)
                ),
            )
        )
    labels = []
    for name, colour, _d, _w, get in [] if small else series:
        vals = [get(m) for m in allm]
        last = next((float(v) for v in reversed(vals) if v is not None and np.isfinite(v)), None)
        # a line's name stands at the right edge: only a line that reaches the last snapshot
        # gets one (the collapse's F(T, ρ̂) before its first collapse does not: its hover says)
        if last is not None and vals and vals[-1] is not None and np.isfinite(vals[-1]):
            labels.append((name, colour, min(max(last, 0.0), 1.05)))
    layout = curves_layout(
        labels, font=font, small=small, x_range=(-0.5, n_weak + 0.5), x_title="weak classifiers T"
    )
    return {"data": plain(data), "layout": plain(layout)}


# ======================================================================= SVG: the engine
def _tw(text: str, font: float) -> float:
    return len(text) * font * CHAR


def _name(names: Sequence[str], j: int) -> str:
    s = str(names[j]) if j < len(names) else f"x{j + 1}"
    return s if len(s) <= 14 else s[:13] + "…"


def stump_label(s: SoftStump, names: Sequence[str]) -> str:
    """``x1 > 0.23``: the side on which the soft stump leans to +1 (polarity −1: ``<``)."""
    op = ">" if s.polarity >= 0 else "<"
    return f"{_name(names, s.feature)} {op} {s.theta:.2f}"


@dataclass
class Box:
    """One drawn box: a soft stump, a leaf (ellipse), a doll holding its own picture, a
    folded doll or subtree (dashed, with a count), or a ghost of what is still to come."""

    lines: Sequence[str]
    kind: str = "stump"  # stump | leaf | doll | folded | ghost
    fill: str = STUMP_FILL
    hot: bool = False
    inner: Pic | None = None


@dataclass
class Pic:
    """A laid-out picture: size, SVG fragments in its own coordinates, and the anchor of its
    root box (top centre when laid out downwards, left middle when laid out rightwards)."""

    w: float
    h: float
    parts: list[str]
    ax: float
    ay: float


@dataclass
class TNode:
    box: Box
    kids: list[tuple[str, bool, TNode]] = field(default_factory=list)


def _box_size(box: Box, font: float) -> tuple[float, float]:
    if box.kind == "doll" and box.inner is not None:
        head = len(box.lines) * font * 1.2 + 2
        w = max(max(_tw(s, font) for s in box.lines) + 2 * PAD, box.inner.w + 2 * PAD)
        return w, PAD + head + box.inner.h + PAD
    longest = max((_tw(s, font) for s in box.lines), default=font)
    w = longest + (22 if box.kind == "leaf" else 14)
    return max(w, 2.4 * font), len(box.lines) * font * 1.2 + 10


def _box_parts(box: Box, x: float, y: float, w: float, h: float, font: float) -> list[str]:
    hot = box.hot
    stroke = theme.HIGHLIGHT if hot else (GHOST_LINE if box.kind == "ghost" else "#555555")
    sw = 3 if hot and box.kind in ("stump", "leaf") else (2.5 if hot else 1)
    dash = (
        ' stroke-dasharray="4 3"'
        if box.kind in ("folded", "ghost") or (box.kind == "doll" and not hot)
        else ""
    )
    parts = []
    if box.kind == "leaf":
        parts.append(
            f'<ellipse cx="{x + w / 2:.0f}" cy="{y + h / 2:.0f}" rx="{w / 2:.0f}" '
            f'ry="{h / 2:.0f}" fill="{box.fill}" stroke="{stroke}" '
            f'stroke-width="{sw}"{dash}/>'
        )
    else:
        at = (f' x="{x:.0f}"' if round(x) else "") + (f' y="{y:.0f}"' if round(y) else "")
        parts.append(
            f'<rect{at} width="{w:.0f}" height="{h:.0f}" '
            f'rx="{8 if box.kind == "doll" else 5}" fill="{box.fill}" '
            f'stroke="{stroke}" stroke-width="{sw}"{dash}/>'
        )
    colour = f' fill="{GHOST_TEXT}"' if box.kind == "ghost" else ""
    if box.kind == "doll" and box.inner is not None:
        for i, line in enumerate(box.lines):
            yy = y + PAD + font * (1.2 * i + 0.9)
            weight = ' font-weight="600"' if i == 0 else ""
            parts.append(
                f'<text x="{x + PAD:.0f}" y="{yy:.0f}" text-anchor="start"{weight}>'
                f"{escape(line)}</text>"
            )
        head = len(box.lines) * font * 1.2 + 2
        ix = x + (w - box.inner.w) / 2
        iy = y + PAD + head
        parts.append(f'<g transform="translate({ix:.0f},{iy:.0f})">')
        parts.extend(box.inner.parts)
        parts.append("</g>")
        return parts
    for i, line in enumerate(box.lines):
        yy = y + 5 + font * (1.2 * i + 0.95)
        weight = ' font-weight="600"' if i == 0 and box.kind != "ghost" else ""
        parts.append(
            f'<text x="{x + w / 2:.0f}" y="{yy:.0f}"{weight}{colour}>{escape(line)}</text>'
        )
    return parts


def _edge(
    x0, y0, x1, y1, label: str, hot: bool, font: float, *, ghost: bool = False
) -> tuple[str, list[str]]:
    """An edge (its line, and its label on a white patch): plain edges take their stroke
    and the labels their colour from the groups :func:`_edges` puts them in."""
    colour = theme.HIGHLIGHT if hot else (GHOST_LINE if ghost else "")
    style = f' stroke="{colour}"' if colour else ""
    style += ' stroke-width="2.2"' if hot else ""
    style += ' stroke-dasharray="4 3"' if ghost else ""
    line = f'<line x1="{x0:.0f}" y1="{y0:.0f}" x2="{x1:.0f}" y2="{y1:.0f}"{style}/>'
    marks = []
    if label:
        lx, ly = (x0 + x1) / 2, (y0 + y1) / 2
        lw = _tw(label, font) + 6
        fill = f' fill="{theme.ink(colour)}"' if colour else ""  # text: 4.5 : 1
        marks.append(
            f'<rect x="{lx - lw / 2:.0f}" y="{ly - font * 0.6:.0f}" width="{lw:.0f}" '
            f'height="{font * 1.2:.0f}" rx="3" fill="white"/>'
        )
        marks.append(f'<text x="{lx:.0f}" y="{ly + font * 0.35:.0f}"{fill}>{escape(label)}</text>')
    return line, marks


def _edges(edges: list[tuple[str, list[str]]]) -> list[str]:
    lines = "".join(e[0] for e in edges)
    marks = "".join("".join(e[1]) for e in edges)
    out = [f'<g stroke="{EDGE}" stroke-width="1.1">{lines}</g>']
    if marks:
        out.append(f'<g font-weight="600" fill="{EDGE_LABEL}">{marks}</g>')
    return out


def layout(node: TNode, orient: str, font: float) -> Pic:
    """Lay a tree out downwards (``"down"``: children side by side under their parent) or
    rightwards (``"right"``: children stacked to the right), parents centred on their
    children, every box at its natural size."""
    bw, bh = _box_size(node.box, font)
    me = _box_parts(node.box, 0, 0, bw, bh, font)
    if not node.kids:
        return Pic(
            bw, bh, me, bw / 2 if orient == "down" else 0.0, 0.0 if orient == "down" else bh / 2
        )
    pics = [layout(k, orient, font) for _, _, k in node.kids]
    parts: list[str] = []
    if orient == "down":
        gap, vgap = font * 0.8, font * 2.0
        xs, cur = [], 0.0
        for p in pics:
            xs.append(cur)
            cur += p.w + gap
        anchors = [x + p.ax for x, p in zip(xs, pics)]
        centre = (anchors[0] + anchors[-1]) / 2
        shift = max(0.0, bw / 2 - centre)
        xs = [x + shift for x in xs]
        centre += shift
        top = bh + vgap
        left = centre - bw / 2
        width = max(left + bw, xs[-1] + pics[-1].w)
        height = top + max(p.h for p in pics)
        parts += _edges(
            [
                _edge(
                    centre,
                    bh,
                    x + p.ax,
                    top + p.ay,
                    label,
                    hot,
                    font,
                    ghost=kid.box.kind == "ghost",
                )
                for (label, hot, kid), x, p in zip(node.kids, xs, pics)
            ]
        )
        for x, p in zip(xs, pics):
            parts.append(f'<g transform="translate({x:.0f},{top:.0f})">')
            parts += p.parts
            parts.append("</g>")
        parts.append(f'<g transform="translate({left:.0f},0)">')
        parts += me
        parts.append("</g>")
        return Pic(width, height, parts, centre, 0.0)
    gap, hgap = font * 0.8, font * 2.6
    ys, cur = [], 0.0
    for p in pics:
        ys.append(cur)
        cur += p.h + gap
    anchors = [y + p.ay for y, p in zip(ys, pics)]
    middle = (anchors[0] + anchors[-1]) / 2
    shift = max(0.0, bh / 2 - middle)
    ys = [y + shift for y in ys]
    middle += shift
    left = bw + hgap
    top = middle - bh / 2
    width = left + max(p.w for p in pics)
    height = max(top + bh, ys[-1] + pics[-1].h)
    parts += _edges(
        [
            _edge(
                bw, middle, left + p.ax, y + p.ay, label, hot, font, ghost=kid.box.kind == "ghost"
            )
            for (label, hot, kid), y, p in zip(node.kids, ys, pics)
        ]
    )
    for y, p in zip(ys, pics):
        parts.append(f'<g transform="translate({left:.0f},{y:.0f})">')
        parts += p.parts
        parts.append("</g>")
    parts.append(f'<g transform="translate(0,{top:.0f})">')
    parts += me
    parts.append("</g>")
    return Pic(width, height, parts, 0.0, middle)


def wrap(text: str, width: int) -> list[str]:
    """Words of ``text`` in lines of at most ``width`` characters."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def svg(pic: Pic | None, font: float, *, title: str = "", footer: str = "") -> str:
    """The picture with an optional bold title line above and a plain footer text below
    (wrapped to the picture's width, at least :data:`FIT_W`), as an SVG string whose
    ``width``/``height`` are its natural size in pixels."""
    line_h = font * 1.3
    pw, ph = (pic.w, pic.h) if pic is not None else (0.0, 0.0)
    # a title wider than the picture wraps before its parenthesis (one line set the
    # picture's width: at presenter mode's 22 px "near this round's change (▸ = folded)"
    # made the least detailed picture too wide for a panel beside the student's quiz)
    heads = [title] if title else []
    if title and _tw(title, font) > max(pw, FIT_W) and " (" in title:
        first, rest = title.split(" (", 1)
        heads = [first, "(" + rest]
    top = len(heads) * line_h + (2 if heads else 0) + 4
    lines = wrap(footer, max(16, int((max(pw, FIT_W) - 10) / (font * CHAR)))) if footer else []
    texts = heads + lines
    width = max([pw] + [_tw(s, font) for s in texts]) + 10
    height = top + ph + (len(lines) * line_h + 6 if lines else 0) + 6
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{font:.0f}" text-anchor="middle">'
    ]
    for i, head in enumerate(heads):
        out.append(
            f'<text x="5" y="{font + 2 + i * line_h:.0f}" text-anchor="start" '
            f'font-weight="600">{escape(head)}</text>'
        )
    if pic is not None:
        out.append(f'<g transform="translate({(width - pw) / 2:.0f},{top:.0f})">')
        out += pic.parts
        out.append("</g>")
    y = top + ph + 6
    for line in lines:
        y += line_h
        out.append(
            f'<text x="5" y="{y - font * 0.3:.0f}" text-anchor="start" '
            f'fill="#333333">{escape(line)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def choose(pictures: Sequence[str]) -> list[str]:
    """Pictures from the most to the least detailed, cut down to what the browser may pick:
    for every typical panel size (:data:`PANELS`) the first picture that fits it, and the
    last picture (shown scaled down when nothing fits), in their order, without repeats."""
    sizes = [svg_size(p) for p in pictures]
    keep = {len(pictures) - 1}
    for W, H in PANELS:
        for i, (w, h) in enumerate(sizes):
            if w <= W and h <= H:
                keep.add(i)
                break
    out: list[str] = []
    for i in sorted(keep):
        if pictures[i] not in out:
            out.append(pictures[i])
    return out


# =================================================================== SVG: the structures
@functools.lru_cache(maxsize=256)
def _mix(q: float) -> str:
    return theme.mix(q)


def _contains(clf, target) -> bool:
    if target is None:
        return False
    if clf is target:
        return True
    if isinstance(clf, ProbTree):
        return any(c is not None and _contains(c, target) for c in clf.classifier)
    return False


def _doll_level(tree: ProbTree) -> int:
    return 1 + max((_doll_level(c) for c in tree.classifier if isinstance(c, ProbTree)), default=0)


def _doll_depth(tree: ProbTree) -> int:
    """How deep dolls nest inside ``tree`` (0: only stumps)."""
    return max((1 + _doll_depth(c) for c in tree.classifier if isinstance(c, ProbTree)), default=0)


def _n_leaves(tree: ProbTree, n: int) -> int:
    ch = tree.children[n]
    return 1 if ch is None else _n_leaves(tree, ch[0]) + _n_leaves(tree, ch[1])


@dataclass
class _Opts:
    names: Sequence[str]
    font: float
    hot: Any = None  # the newest soft stump (outlined)
    new_doll: Any = None  # the matryoshka's new doll (outlined)
    dolls: str = "all"  # "all" or "path": only dolls holding the newest change open
    max_open: int = 99  # … and at most this deep
    leaves: str = "full"  # "full" (H and Π Z) or "brief" (Π Z)
    focus: int | None = None  # outer tree: show the neighbourhood of this node
    window: int = 99  # … at most this many levels above it
    outline: bool = True  # outline the newest change (else it only decides what is open)
    stack: bool = False  # dolls' trees laid out downwards too (tall and narrow)


def _clf_box(clf, depth: int, orient: str, o: _Opts) -> Box:
    if isinstance(clf, SoftStump):
        return Box([stump_label(clf, o.names)], "stump", STUMP_FILL, hot=o.outline and clf is o.hot)
    level, n = _doll_level(clf), clf.n_weak
    on_path = _contains(clf, o.hot) or _contains(clf, o.new_doll)
    opened = (o.dolls == "all" or on_path) and depth <= o.max_open
    hot = o.outline and clf is o.new_doll
    if not opened:
        return Box(
            [f"L{level} doll", f"▸ {n} stumps"],
            "folded",
            DOLL_FILL[min(depth - 1, len(DOLL_FILL) - 1)],
            hot=hot or (o.outline and on_path),
        )
    inner_orient = "down" if o.stack or orient == "right" else "right"
    inner = layout(_tree_node(clf, depth, inner_orient, o), inner_orient, o.font)
    return Box(
        [f"L{level} doll · {n} stumps"],
        "doll",
        DOLL_FILL[min(depth - 1, len(DOLL_FILL) - 1)],
        hot=hot,
        inner=inner,
    )


def _tree_node(tree: ProbTree, depth: int, orient: str, o: _Opts) -> TNode:
    """The drawable tree of ``tree`` (a doll at nesting ``depth``; 0 = the outer tree).
    Inside a doll only its classifiers are drawn (its leaves are summed into the doll's
    P(H > 0)); the outer tree's leaves show their vote H and the Π Z of their path."""
    focus = o.focus if depth == 0 else None
    path: set[int] = set()
    if focus is not None:
        n = focus
        while n != 0:
            path.add(n)
            n = tree.parent[n]
        path.add(0)

    def leaf(n: int) -> Box:
        h, pz = tree.leaf_value(n), tree.path_product(n)
        fill = _mix(round(float((1 + np.tanh(h)) / 2), 2))
        lines = [f"H {h:+.2f}", f"ΠZ {pz:.3f}"] if o.leaves == "full" else [f"{pz:.3f}"]
        return Box(lines, "leaf", fill)

    def node(n: int) -> TNode:
        ch = tree.children[n]
        if ch is None:
            return TNode(leaf(n))
        clf = tree.classifier[n]
        if focus is not None and n not in path:  # off the path to the change: fold it
            first = (
                stump_label(clf, o.names)
                if isinstance(clf, SoftStump)
                else f"L{_doll_level(clf)} doll"
            )
            return TNode(Box([first, f"▸ {_n_leaves(tree, n)} leaves"], "folded", "#F2F2F2"))
        box = _clf_box(clf, depth + 1 if isinstance(clf, ProbTree) else depth, orient, o)
        kids = []
        hot_edge = o.outline and clf is o.hot
        for side, c in (("−", ch[0]), ("+", ch[1])):
            if depth > 0 and tree.children[c] is None:
                continue
            kids.append((side, hot_edge, node(c)))
        return TNode(box, kids)

    root = 0
    above = 0
    if focus is not None:
        chain = []
        n = focus
        while True:
            chain.append(n)
            if n == 0:
                break
            n = tree.parent[n]
        if len(chain) - 1 > o.window:
            root = chain[o.window]
            above = len(chain) - 1 - o.window
    top = node(root)
    if above:
        side = "+" if tree.side[root] > 0 else "−"
        levels = "1 level" if above == 1 else f"{above} levels"
        return TNode(
            Box(["root ⋯", f"▴ {levels} above"], "folded", "#F2F2F2"), [(side, False, top)]
        )
    return top


def _focus_node(tree: ProbTree, o: _Opts) -> int | None:
    """The outer node whose classifier is or holds the newest change."""
    for n, clf in enumerate(tree.classifier):
        if clf is not None and (_contains(clf, o.hot) or _contains(clf, o.new_doll)):
            return n
    return None


def tree_pictures(
    model: ProbTree,
    *,
    names: Sequence[str],
    font: float,
    hot=None,
    new_doll=None,
    dolls_first: bool = False,
    footer: str = "",
    outline: bool = True,
) -> list[str]:
    """A probabilistic tree (or matryoshka / collapsed tree) from the most to the least
    detailed picture: every doll open; only the dolls holding this round's change open (the
    others folded into a box with their number of stumps), less and less deep; the outer
    tree whole, with brief leaves, then only the neighbourhood of the change (subtrees off
    its path folded with their number of leaves), fewer and fewer levels of it."""
    depth = _doll_depth(model)
    doll_modes = [("all", 99)]
    if depth:
        doll_modes += [("path", k) for k in sorted({depth, 3, 2, 1, 0}, reverse=True) if k <= depth]
    focus = None
    big = len(model.leaves) > 3
    outer_modes = [("full", None, 99)]
    if big:
        outer_modes.append(("brief", None, 99))
        probe = _Opts(names, font, hot, new_doll)
        focus = _focus_node(model, probe)
        if focus is not None:
            outer_modes += [
                ("full", focus, 99),
                ("brief", focus, 99),
                ("brief", focus, 4),
                ("brief", focus, 2),
            ]
    combos = (
        [(d, m) for d in doll_modes for m in outer_modes]
        if dolls_first
        else [(d, m) for m in outer_modes for d in doll_modes]
    )
    pictures = []
    for (dolls, max_open), (leaves, foc, window) in combos:
        for stack in (False, True) if depth else (False,):
            o = _Opts(
                names, font, hot, new_doll, dolls, max_open, leaves, foc, window, outline, stack
            )
            pic = layout(_tree_node(model, 0, "down", o), "down", font)
            folded = dolls != "all" and depth > 0
            near = "near this round's change" if outline else "near the last change"
            title = f"{near} (▸ = folded)" if foc is not None or folded else ""
            if leaves == "brief" and foc is None:
                title = "leaves: Π Z of their path"
            pictures.append(svg(pic, font, title=title, footer=footer))
            w, h = svg_size(pictures[-1])
            if w <= FIT_W and h <= FIT_H:
                return choose(pictures)
    return choose(pictures)


def chain_pictures(
    chain: Chain, *, names: Sequence[str], font: float, hot=None, footer: str = ""
) -> list[str]:
    """The chain as a grid of stump boxes in reading order (``h_t``, its test and its two
    weights α₊, α₋), widest grid first; a long chain then shows only its latest stumps after
    one folded box counting the earlier ones."""
    items = list(zip(chain.stumps, chain.alpha_pos, chain.alpha_neg))
    T = len(items)
    boxes = [
        Box(
            [f"h{t} {stump_label(s, names)}", f"α₊ {ap:.2f}  α₋ {an:.2f}"],
            "stump",
            STUMP_FILL,
            hot=s is hot,
        )
        for t, (s, ap, an) in enumerate(items, 1)
    ]
    size = [_box_size(b, font) for b in boxes]
    bw = max(w for w, _ in size) if size else 4 * font
    bh = max(h for _, h in size) if size else 2 * font
    gap = font * 0.7
    title = "every point meets all stumps: H = Σ ±α"
    pictures = []
    c_min = max([c for c in (4, 3, 2, 1) if c * bw + (c - 1) * gap + 10 <= FIT_W] or [1])
    counts = ([T] if T <= 12 else []) + [k for k in (12, 6) if k < T]
    for shown in counts:
        widest = min(4, max(shown, 1))
        for cols in range(widest, min(c_min, widest) - 1, -1):
            start = T - shown
            parts: list[str] = []
            y = 0.0
            width = cols * bw + (cols - 1) * gap
            if start:
                folded = Box([f"h1 … h{start}", f"▸ {start} earlier stumps"], "folded", "#F2F2F2")
                fw, fh = _box_size(folded, font)
                width = max(width, fw)
                parts += _box_parts(folded, 0, 0, width, fh, font)
                y = fh + gap
            for k in range(start, T):
                r, c = divmod(k - start, cols)
                parts += _box_parts(boxes[k], c * (bw + gap), y + r * (bh + gap), bw, bh, font)
            rows_used = math.ceil(shown / cols) if shown else 0
            height = y + rows_used * (bh + gap) - (gap if rows_used else 0)
            pic = Pic(width, height, parts, width / 2, 0)
            pictures.append(
                svg(
                    pic,
                    font,
                    title=title if not start else "the latest stumps (▸ = folded)",
                    footer=footer,
                )
            )
            w, h = svg_size(pictures[-1])
            if w <= FIT_W and h <= FIT_H:
                return choose(pictures)
    return choose(pictures)


def waiting_picture(text: str, *, font: float, levels: Sequence[int]) -> list[str]:
    """The matryoshka before its first doll: the shape of the level-1 doll as ghosts (two
    soft stumps in a two-node tree) and, in words, what comes and at which round."""
    ghost = TNode(
        Box(["1st stump"], "ghost", GHOST_FILL),
        [
            ("−", False, TNode(Box(["leaf"], "ghost", GHOST_FILL))),
            (
                "+",
                False,
                TNode(
                    Box(["2nd stump"], "ghost", GHOST_FILL),
                    [
                        ("−", False, TNode(Box(["leaf"], "ghost", GHOST_FILL))),
                        ("+", False, TNode(Box(["leaf"], "ghost", GHOST_FILL))),
                    ],
                ),
            ),
        ],
    )
    pic = layout(ghost, "down", font)
    schedule = ", ".join(f"L{int(round(math.log2(t)))} at T = {t}" for t in levels)
    return [svg(pic, font, title="No doll yet", footer=f"{text} Dolls: {schedule}.")]


INITIAL_TITLE = "Round 0: the initial model"


def initial_picture(*, font: float, footer: str = "") -> list[str]:
    """Round 0, before any weak learner: one leaf with ``H = 0`` (every point gets +1 with
    probability ½) and ``Π Z = 1`` (the bound starts at 1)."""
    leaf = TNode(Box(["H +0.00", "ΠZ 1.000"], "leaf", _mix(0.5)))
    text = "No weak classifier yet: H(x) = 0, so P(H(x) > 0) = ½ everywhere."
    return [
        svg(
            layout(leaf, "down", font),
            font,
            title=INITIAL_TITLE,
            footer=f"{text} {footer}".strip(),
        )
    ]


def structure_pictures(
    step: ProbStep | None,
    structure: str,
    *,
    names: Sequence[str],
    font: float,
    footer_text: str = "",
    levels: Sequence[int] = (),
    fresh: bool = True,
) -> list[str]:
    """The structure panel's pictures for one round (see :func:`tree_pictures`); ``fresh``:
    the snapshot is this round's (else nothing is outlined as new). The start snapshot is
    drawn as the initial model at round 0 (:func:`initial_picture`); the matryoshka's, shown
    again at later rounds before its first doll, as the doll to come
    (:func:`waiting_picture`)."""
    if step is None or (step.metrics.n_weak == 0 and structure == "matryoshka" and not fresh):
        return waiting_picture(footer_text, font=font, levels=levels)
    if step.metrics.n_weak == 0:
        return initial_picture(font=font, footer=footer_text)
    model = step.model
    if isinstance(model, Chain):
        return chain_pictures(model, names=names, font=font, hot=step.stump, footer=footer_text)
    if structure == "matryoshka":
        inner = [n for n, c in enumerate(model.children) if c is not None]
        new = model.classifier[max(inner)] if inner else None
        new_doll = new if isinstance(new, ProbTree) else None
        return tree_pictures(
            model,
            names=names,
            font=font,
            hot=newest_stump(step),
            new_doll=new_doll,
            dolls_first=True,
            footer=footer_text,
            outline=fresh,
        )
    return tree_pictures(model, names=names, font=font, hot=step.stump, footer=footer_text)


# ================================================================================= tables
def metrics_table(current: dict[str, ProbStep | None]) -> str:
    """This round's numbers of every run (HTML, "—" where a run has no value)."""
    from ui.lecture import table_html

    rows = []
    for name, step in current.items():
        if step is None:
            rows.append({"run": name, "T": "none yet"})
            continue
        m = step.metrics
        rows.append(
            {
                "run": name,
                "T": str(m.n_weak),
                "train error": m.train_error,
                "± 2 s.e.": None if m.mc_stderr is None else 2 * m.mc_stderr,
                "test error": m.test_error,
                "C(T) / Π Z (valid)": m.bound_C,
                "ρ̂": m.rho_hat,
                "F(T, ρ̂)": m.bound_F,
                "ρ̂ᵀ": m.bound_rho_T,
                "M2 (paper)": m.bound_M2,
            }
        )
    cols = [
        "run",
        "T",
        "train error",
        "± 2 s.e.",
        "test error",
        "C(T) / Π Z (valid)",
        "ρ̂",
        "F(T, ρ̂)",
        "ρ̂ᵀ",
        "M2 (paper)",
    ]
    return table_html(pd.DataFrame(rows, columns=cols))


#: Columns of the doll table (see :func:`dolls_table`).
#: Short headers so that the table fits a 1280 px screen; each has a glossary tooltip
#: (docs/theory.md, Glossary) and the caption below spells them out.
DOLL_COLUMNS = (
    "level",
    "T₁",
    "ρ̂ of its stumps",
    "paper's ρ = M2(T₁, ρ̂)",
    "valid C",
    "node Z₊+Z₋ (≥ C)",
    "node − paper's ρ",
    "paper's step",
)

#: Shown under the doll table: where the nesting argument breaks (docs/theory.md §3.3).
DOLLS_CAPTION = (
    "Grossmann's M2 plugs each doll's error bound into the next level as its ρ: M2(T₁, ρ̂) = "
    "F(2, …F(2, ρ̂)), Eq. (10)'s F(T₁, ρ) for a doll that is itself a matryoshka (F(2, ρ̂) for "
    "a level-1 doll), with ρ̂ the largest Z₊ + Z₋ of the doll's own soft stumps. This is where "
    "the nesting argument breaks: the next level's tree bound needs ρ to bound the node's "
    "Z₊ + Z₋, not its error, and an error e only guarantees Z₊ + Z₋ ≤ 2√(e(1 − e)), which is "
    "larger than e. A doll's Z₊ + Z₋ as a node is never below its own valid bound C (merging "
    "leaves that vote alike only raises Σ 2√(W⁺W⁻)). The last columns compare the node's "
    "Z₊ + Z₋ with the ρ the paper gives it: where it is larger, this run's node does worse than "
    "the paper assumes; where it is smaller, the step happens to hold on this run, which does "
    "not prove it in general. See the theory notes (§3.3)."
)


def dolls_table(step: ProbStep | None, nxt: str) -> str:
    """Each doll used as a node: the ``ρ`` the paper plugs in for it (its bound
    ``M2(T₁, ρ̂)``) against the ``Z₊ + Z₋`` it achieves as a node, with its own valid ``C``
    (``boostcore.probabilistic.DollCheck``)."""
    from ui.lecture import table_html

    if step is None or not step.dolls:
        when = (
            ""
            if step is None or step.metrics.n_weak >= 4
            else " Level 2 (T = 4) is the first to use dolls as its nodes."
        )
        return f"<p>No doll is used as a node yet.{escape(when)} {escape(nxt)}</p>"
    rows = [
        (
            str(d.level),
            str(d.n_weak),
            d.rho_hat,
            d.paper_bound,
            d.C,
            d.node_Z,
            d.node_excess,
            "fails (node above ρ)" if d.node_excess > 0 else "holds here",
        )
        for d in step.dolls
    ]
    return table_html(pd.DataFrame(rows, columns=list(DOLL_COLUMNS)))


# ========================================================================== the lecture
def notes_for(
    structure: str,
    steps: Sequence[ProbStep],
    n_weak: int,
    counts: Sequence[int] | None = None,
) -> list[str]:
    """A one-line note per step under the regions (``counts``: the weak classifiers of each
    step, :func:`step_counts`; ``0 … n_weak`` if omitted); the last one ends with why the
    run stopped (the stop snapshot's ``stop_reason``)."""
    run = list(steps)
    steps = protocol.rounds(run)
    notes = []
    for t in range(n_weak + 1) if counts is None else counts:
        i = shown_index(steps, t)
        if i is None:
            notes.append(next_event(structure, steps, t))
            continue
        s = steps[i]
        n = s.metrics.n_weak
        text = s.message
        if n < t:
            nxt = next_event(structure, steps, t)
            if n == 0:  # the matryoshka before its first doll
                text = nxt
            elif structure == "matryoshka":
                text = f"Showing the level-{int(round(math.log2(n)))} doll ({n} stumps). " + (
                    nxt or "This is the last level."
                )
            else:
                text = f"Finished at {n} stumps. {s.message}"
        # the core's messages name features x1, x2, …: their notation can be typeset
        notes.append(notation(text))
    reason = protocol.stop_reason(run)
    if reason and notes:
        notes[-1] = f"{notes[-1]} Stopped: {notation(reason)}".strip()
    return notes


def curve_note(structure: str, samples: int | None) -> str:
    note = "Faint: the whole run; solid: up to this round; dot: this round."
    if structure == "matryoshka":
        note = "M2 is the paper's claim (not proven, see below); C(T) is the valid bound. " + note
    elif structure == "chain":
        note = "Training error: exact; Monte Carlo ± 2 s.e. (bars) for long chains. " + note
    elif structure == "collapse":
        note = "C(T) jumps up at a collapse, and F(T, ρ̂) is the paper's claim from there. " + note
    if samples and structure in ("chain", "tree"):
        note = f"⚠ q estimated from {samples} answers: the bounds are estimates. " + note
    return note


def proof_frames(
    structure: str,
    steps: Sequence[ProbStep],
    *,
    n_weak: int,
    samples: int | None = None,
    font: float = 12,
    counts: Sequence[int] | None = None,
) -> list[str]:
    """The proof at each step (:func:`.proof.grossmann_chain` drawn by
    :func:`ui.proof.proof_compact_html`): frame ``k`` is the chain of the snapshot shown with
    ``counts[k]`` weak classifiers (:func:`shown_index`, as the regions and curves: between
    the matryoshka's levels, its last complete doll); not yet deduplicated.

    Parameters
    ----------
    structure : {"chain", "tree", "matryoshka", "collapse"}
        The run's structure (its name in the frames).
    steps : sequence of ProbStep
        The run.
    n_weak : int
        The last round.
    samples : int, optional
        The page's ``samples`` (``R``): only the chain and the tree train on MAP estimates.
    font : float, default 12
        The figures' font (:func:`ui.proof.is_large`).
    counts : sequence of int, optional
        The weak classifiers of each step (:func:`step_counts`); ``0 … n_weak`` if omitted.

    Returns
    -------
    list of str
    """
    rounds = protocol.rounds(steps)
    r = samples if structure in ("chain", "tree") else None
    chains: dict[int, Any] = {}
    shown = []
    for t in range(n_weak + 1) if counts is None else counts:
        i = shown_index(rounds, t)
        if i is not None and i not in chains:
            chains[i] = grossmann_chain(rounds[i], samples=r)
        shown.append(None if i is None else chains[i])
    return proof_cards(shown, large=is_large(font))


def build_lecture(
    runs: dict[str, Sequence[ProbStep]],
    ds: Dataset,
    *,
    n_weak: int,
    samples: int | None,
    font: float,
    counts: Sequence[int] | None = None,
) -> dict:
    """Every frame of every run (see the module docstring); plain JSON-ready data.

    ``counts`` are the weak classifiers of each step (:func:`step_counts`), one frame of
    every view and table per step; every count ``0 … n_weak`` if omitted. ``out["counts"]``
    holds them. Each run's ``descriptions`` are its three big views' sentences for a screen
    reader, one per step like its ``notes`` (:func:`describe_run`)."""
    from ui import lecture

    counts = tuple(range(n_weak + 1) if counts is None else (int(c) for c in counts))
    lo, hi = data_extent(ds)
    names = ds.feature_names
    out: dict = {"runs": {}, "n": n_weak, "counts": counts}
    for structure, run in runs.items():
        run = list(run)
        steps = protocol.rounds(run)
        grids = [quantise(q) for q in q_grids(steps, lo, hi, GRID)]
        small_grids = [quantise(shrink(q.astype(float) / 100.0)) for q in grids]
        blank = np.full((GRID, GRID), 50, dtype=np.uint8)
        blank_small = np.full((SMALL_GRID, SMALL_GRID), 50, dtype=np.uint8)
        levels = [s.metrics.n_weak for s in steps if s.metrics.n_weak]
        pts, pts_small = points(ds), points(ds, small=True)
        regions, small, pictures, curves, spark = [], [], [], [], []
        for t in counts:
            i = shown_index(steps, t)
            step = None if i is None else steps[i]
            fresh = step is not None and step.metrics.n_weak == t
            stump = newest_stump(step) if fresh else None
            waiting = step is None or (step.metrics.n_weak == 0 and t > 0)
            empty, note = "", ""
            if t == 0:
                # three short lines: the regions' column is narrower beside the quiz on a
                # projector (its curves widen, ui/lecture) and two long ones ran out of it
                empty = "Round 0: the initial model\nH = 0: P(H(x) > 0) = ½\neverywhere"
                note = "round 0:\nH = 0"
            elif waiting:
                empty = (
                    f"No doll yet:\nthe first one comes at T = {levels[0]}"
                    if levels
                    else "Nothing to show yet"
                )
                note = f"first doll:\nT = {levels[0]}" if levels else ""
            regions.append(
                regions_figure(
                    blank if i is None else grids[i],
                    ds,
                    lo,
                    hi,
                    stump=stump,
                    font=font,
                    empty=empty,
                    pts=pts,
                )
            )
            small.append(
                regions_figure(
                    blank_small if i is None else small_grids[i],
                    ds,
                    lo,
                    hi,
                    stump=stump,
                    font=font,
                    small=True,
                    empty=note,
                    pts=pts_small,
                )
            )
            pictures.append(
                structure_pictures(
                    step,
                    structure,
                    names=names,
                    font=round(font + 1),
                    footer_text=_structure_footer(structure, steps, t, step),
                    levels=levels,
                    fresh=fresh,
                )
            )
            curves.append(curves_figure(steps, t, structure=structure, n_weak=n_weak, font=font))
            spark.append(
                curves_figure(steps, t, structure=structure, n_weak=n_weak, font=font, small=True)
            )
        out["runs"][structure] = {
            "n": len(steps),  # snapshots shown (start and steps; the stop repeats the last)
            "regions": lecture.plotly_frames(regions),
            "small": lecture.plotly_frames(small),
            "structure": lecture.same_frames(pictures),
            "curves": lecture.plotly_frames(curves),
            "spark": lecture.plotly_frames(spark),
            "notes": notes_for(structure, run, n_weak, counts),
            "descriptions": describe_run(
                run, ds, structure=structure, n_weak=n_weak, counts=counts
            ),
            "curve_note": curve_note(structure, samples),
            "proof": lecture.same_frames(
                proof_frames(
                    structure, steps, n_weak=n_weak, samples=samples, font=font, counts=counts
                )
            ),
        }
    metrics, dolls = [], []
    for t in counts:
        current = {}
        for structure, steps in runs.items():
            i = shown_index(steps, t)
            current[NAMES[structure]] = None if i is None else steps[i]
        metrics.append(metrics_table(current))
        if "matryoshka" in runs:
            steps = runs["matryoshka"]
            i = shown_index(steps, t)
            dolls.append(
                dolls_table(None if i is None else steps[i], next_event("matryoshka", steps, t))
            )
    out["metrics"] = lecture.same_frames(metrics)
    out["dolls"] = lecture.same_frames(dolls) if dolls else None
    return out


def _structure_footer(structure: str, steps, t: int, step: ProbStep | None) -> str:
    """The matryoshka's footer: what is new at this level, and when the next one comes."""
    if structure != "matryoshka":
        return ""
    later = [s.metrics.n_weak for s in protocol.rounds(steps) if s.metrics.n_weak > t]
    if step is None or step.metrics.n_weak == 0:
        return next_event(structure, steps, t)
    n = step.metrics.n_weak
    level = int(round(math.log2(n)))
    nxt = (
        f"Next: level {level + 1} at T = {later[0]}."
        if later
        else f"Level {level} is the last (T = {n})."
    )
    if n != t:
        return (
            f"Next: level {level + 1} at T = {later[0]}, with this doll as its root."
            if later
            else nxt
        )
    if level == 1:
        return f"Level 1 (T = {n}): a two-node tree of soft stumps. {nxt}"
    return (
        f"Level {level} (T = {n}). New: the L{level - 1} doll in the heavier child "
        f"(vermillion). Root: the level-{level - 1} doll of T = {n // 2}. {nxt}"
    )


# ======================================================== text alternatives (issue 26)
#: The curves' line names (:func:`_series`) as a screen reader should read them.
SPOKEN = {
    "F(T, ρ̂)": "F of T and rho hat",
    "F(T, ρ̂) (paper's claim)": "F of T and rho hat (the paper's claim)",
    "F(2, ρ̂) (valid)": "F of 2 and rho hat (valid)",
    "ρ̂<sup>T</sup>": "rho hat to the power T",
    "M2 (paper)": "the paper's M2",
    "Π Z<sub>t</sub> (valid)": "product of Z (valid)",
    "C(T) (valid)": "C(T) (valid)",
    "train error": "expected training error",
    "test error": "expected test error",
}


def stump_words(s: SoftStump, names: Sequence[str]) -> str:
    """A soft stump in words (:func:`stump_label` without its ``<``): the feature, the side
    that leans to +1, the threshold θ and the softness τ."""
    side = "above" if s.polarity >= 0 else "below"
    return (
        f"leans to +1 where {_name(names, s.feature)} is {side} {spoken_number(float(s.theta))}"
        f", softness tau {spoken_number(float(s.tau))}"
    )


def _error(m) -> str:
    """The expected training error in words (the chain's with its Monte Carlo spread)."""
    said = spoken_number(m.train_error)
    if m.mc_stderr is not None:
        said += f" (Monte Carlo, plus or minus {spoken_number(2 * m.mc_stderr)})"
    return said


def _shown(steps: Sequence[ProbStep], t: int) -> tuple[ProbStep | None, bool]:
    """The snapshot drawn with ``t`` weak classifiers and whether it is this step's own
    (as :func:`build_lecture` decides)."""
    i = shown_index(steps, t)
    step = None if i is None else steps[i]
    return step, step is not None and step.metrics.n_weak == t


def regions_description(steps: Sequence[ProbStep], t: int, ds: Dataset, *, structure: str) -> str:
    """One plain sentence: what :func:`regions_figure` draws with ``t`` weak classifiers —
    the shading, the newest soft stump and the expected training error.

    Parameters
    ----------
    steps : sequence of ProbStep
        The run's rounds (:func:`boostcore.steps.rounds`).
    t : int
        The weak classifiers of this step (:func:`step_counts`).
    ds : Dataset
        The run's data (its class names).
    structure : str
        ``"chain"``, ``"tree"``, ``"matryoshka"`` or ``"collapse"``.

    Returns
    -------
    str
        Plain text.
    """
    step, fresh = _shown(steps, t)
    neg, pos = ds.class_names
    test = ", hollow ones test points" if ds.n_test else ""
    key = (
        f"Blue circles are class {pos} and orange diamonds class {neg} (filled markers are "
        f"training points{test}; all one size)."
    )
    head = f"Chance that the vote H(x) is positive for the {NAMES[structure]}"
    if t == 0 or step is None or step.metrics.n_weak == 0:
        levels = [s.metrics.n_weak for s in steps if s.metrics.n_weak]
        what = (
            "the initial model H = 0"
            if t == 0
            else f"no doll yet (the first comes at T = {levels[0]})"
            if levels
            else "nothing yet"
        )
        err = "" if step is None else f"; expected training error {_error(step.metrics)}"
        return f"{head}: {what}, so one half everywhere (white){err}. {key}"
    m = step.metrics
    err = f"expected training error {_error(m)}"
    stump = newest_stump(step) if fresh else None
    new = (
        f"; the newest soft stump {stump_words(stump, ds.feature_names)} (the vermillion line "
        "and its pale band of two tau either side)"
        if stump is not None and stump.feature < 2
        else ""
    )
    return (
        f"{head} after T = {m.n_weak} soft stumps, shaded from orange (0) through white (one "
        f"half) to blue (1){new}; {err}. {key}"
    )


def _tree_depth(tree: ProbTree) -> int:
    """Edges from the root to the deepest leaf of the outer tree."""
    deepest = 0
    for n in tree.leaves:
        d = 0
        while tree.parent[n] >= 0:
            n, d = tree.parent[n], d + 1
        deepest = max(deepest, d)
    return deepest


def structure_description(
    steps: Sequence[ProbStep], t: int, *, structure: str, names: Sequence[str]
) -> str:
    """One plain sentence: the structure :func:`structure_pictures` draws with ``t`` weak
    classifiers — the chain's stumps, the tree's leaves and depth, the matryoshka's dolls —
    and this step's change.

    Parameters
    ----------
    steps : sequence of ProbStep
        The run's rounds.
    t : int
        The weak classifiers of this step.
    structure : str
    names : sequence of str
        The feature names.

    Returns
    -------
    str
    """
    step, fresh = _shown(steps, t)
    footer = _structure_footer(structure, steps, t, step)
    if step is None or step.metrics.n_weak == 0:
        if t == 0:
            return (
                "The initial model: one leaf with H = 0 and product of Z 1, so every point is "
                "+1 with chance one half."
            )
        return f"No doll yet. {footer}".strip()
    model, m = step.model, step.metrics
    stump = newest_stump(step) if fresh else None
    newest = "" if stump is None else f" The newest soft stump {stump_words(stump, names)}."
    if isinstance(model, Chain):
        return (
            f"Chain of {plural(len(model.stumps), 'soft stump', 'soft stumps')}: every point "
            f"meets all of them and H adds their weighted answers.{newest}"
        )
    leaves = plural(len(model.leaves), "leaf", "leaves")
    depth = _tree_depth(model)
    if structure == "matryoshka":
        nested = _doll_depth(model)
        dolls = f", dolls nested {nested} deep" if nested else ", no doll inside yet"
        return (
            f"Matryoshka of {m.n_weak} soft stumps: an outer two-node tree with {leaves}"
            f"{dolls}. {footer}"
        )
    dolls = sum(isinstance(c, ProbTree) for c in model.classifier)
    folded = (f", {plural(dolls, 'doll', 'dolls')} among its nodes" if dolls else "") + (
        " (collapsed into one doll at this step)" if step.collapsed and fresh else ""
    )
    return (
        f"Probabilistic tree of {m.n_weak} soft stumps with {leaves} and depth {depth}"
        f"{folded}; each leaf shows its vote H and the product of Z on its path.{newest}"
    )


def curves_description(steps: Sequence[ProbStep], t: int, *, structure: str, n_weak: int) -> str:
    """One plain sentence: the values :func:`curves_figure` marks at the snapshot shown with
    ``t`` weak classifiers, by its lines' names read aloud (:data:`SPOKEN`), and how the
    expected training error moved since the snapshot before.

    Parameters
    ----------
    steps : sequence of ProbStep
        The run's rounds.
    t : int
        The weak classifiers of this step.
    structure : str
    n_weak : int
        The run's budget of weak classifiers.

    Returns
    -------
    str
    """
    i = shown_index(steps, t)
    if i is None:
        return f"Nothing drawn yet: the curves start at the first doll (of {n_weak} stumps)."
    m = steps[i].metrics
    said = []
    for name, *_, get in _series(structure, steps, False):
        value = get(m)
        if value is not None and np.isfinite(value):
            said.append(f"{SPOKEN[name]} {spoken_number(float(value))}")
    rho = "" if not np.isfinite(m.rho_hat) else f", with rho hat {spoken_number(m.rho_hat)}"
    text = f"At T = {m.n_weak} weak classifiers: " + ", ".join(said) + rho
    if i > 0:
        before, now = steps[i - 1].metrics, m.train_error
        a, b = spoken_number(before.train_error), spoken_number(now)
        move = (
            "stayed at {} since"
            if a == b
            else "fell from {} at"
            if now < before.train_error
            else "rose from {} at"
        )
        text += f". The expected training error {move.format(a)} T = {before.n_weak}"
    return text + "."


def describe_run(
    run: Sequence[ProbStep], ds: Dataset, *, structure: str, n_weak: int, counts: Sequence[int]
) -> dict[str, list[str]]:
    """The three big views' descriptions for a screen reader, one per step (``counts``).

    Parameters
    ----------
    run : sequence of ProbStep
        The whole run.
    ds : Dataset
    structure : str
    n_weak : int
    counts : sequence of int
        The weak classifiers of each step (:func:`step_counts`).

    Returns
    -------
    dict of str to list of str
        ``"regions"``, ``"structure"`` and ``"curves"``.
    """
    steps = protocol.rounds(list(run))
    return {
        "regions": [regions_description(steps, t, ds, structure=structure) for t in counts],
        "structure": [
            structure_description(steps, t, structure=structure, names=ds.feature_names)
            for t in counts
        ],
        "curves": [
            curves_description(steps, t, structure=structure, n_weak=n_weak) for t in counts
        ],
    }


@shared
def matryoshka_lecture(
    _ds: Dataset,
    ds_key: str,
    structures: tuple[str, ...],
    n_weak: int,
    softness: float,
    samples: int | None,
    font: float,
    focus: str | None = None,
) -> dict:
    """Every step of every structure's run encoded for the lecture view (cached: a step in
    the browser needs nothing from the server), stepped by what changes the ``focus`` run
    (:func:`step_counts`; every count ``0 … n_weak`` without a focus). See
    :func:`build_lecture`."""
    runs = {
        s: matryoshka_runs.prob_run(
            _ds, ds_key, s, n_weak, softness, samples if s in ("chain", "tree") else None
        )
        for s in structures
    }
    counts = None if focus is None else step_counts(runs, focus)
    return build_lecture(runs, _ds, n_weak=n_weak, samples=samples, font=font, counts=counts)
