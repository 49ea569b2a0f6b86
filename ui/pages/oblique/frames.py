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
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from html import escape

import numpy as np

from boostcore.datasets import Dataset
from boostcore.oblique import ObliqueTree
from boostcore.realboost import MU_CLIP, THETA_GRID, Additive, WeakHypothesis
from boostcore.steps import STEP, final, rounds
from ui import lecture, payload, theme
from ui.cache import shared
from ui.figures import curves_layout, data_extent, points_traces, regions_layout
from ui.proof import is_large
from ui.proof import proof_frames as proof_cards  # this module's proof_frames wraps it
from ui.svgtree import CHAR, tidy_layout
from ui.text import YOURS, notation, plural
from ui.text import spoken_number as unsigned_spoken

from . import runs as oblique_runs
from .figures import margin_frame, node_membership, zero_segments
from .proof import g1_chain
from .tables import inner_frame

#: Long run names (tables, help texts) and the short ones of the focus selector / URL.
ADA, KM, ODT = "AdaBoost (G1 on a path)", "KM tree (G1 on a tree)", "BoostODT"
SHORT = {ODT: "BoostODT", ADA: "AdaBoost", KM: "KM tree"}
ORDER = (ADA, KM, ODT)

GRID = 72  # heatmap cells along the longer side of the data box
LINE_GRID = 120  # marching-squares grid of the node boundaries
SMALL_GRID = 36
MINI_POINTS = 50  # examples drawn in a mini view
MINI_GRID = 26

FAINT = 0.28

#: Inner stepping draws one frame per AdaBoost_R round of every node. Measured on this
#: project's 2-core machine (issue 16): about 4.7 ms + 12.6 µs per training point per frame
#: (1,240 frames: 10.5 s at 300 points, 64 s at 3,750). Above this many seconds the page
#: steps node by node instead and says why.
INNER_SECONDS_LIMIT = 15.0


def inner_stepping_cost(n_train: int, n_internal: int, n_stumps: int) -> float:
    """Estimated seconds to prepare the inner-stepping lecture (:data:`INNER_SECONDS_LIMIT`).

    >>> round(inner_stepping_cost(3750, 31, 40))
    64
    """
    return n_internal * n_stumps * (4.7 + 0.0126 * n_train) / 1000.0


def inner_stepping_refusal(n_train: int, n_internal: int, n_stumps: int) -> str | None:
    """Why inner stepping is off for this size (plain text), or ``None`` when it is allowed."""
    cost = inner_stepping_cost(n_train, n_internal, n_stumps)
    if cost <= INNER_SECONDS_LIMIT:
        return None
    return (
        f"Stepping through the stumps inside each node is off for this size: "
        f"{n_internal * n_stumps:,} steps on {n_train:,} training points would take about "
        f"{cost:.0f} s to prepare (the limit is {INNER_SECONDS_LIMIT:.0f} s). Fewer stumps per "
        "node (T1), fewer nodes (T2) or fewer points allow it; the page steps node by node."
    )


# ------------------------------------------------------------------------------ positions
@dataclass
class Shown:
    """What one run shows at a stepper position."""

    idx: int  # index of the snapshot in the run (a round: 0 = the initial model)
    label: str  # "10 stumps", "3 splits", "node 4, stump 2/10"
    note: str  # one line under the views
    partial: Additive | None = None  # BoostODT: the separator being built
    partial_node: int | None = None
    j: int | None = None  # BoostODT: stumps of the node being built
    new: tuple[int, int] = (0, 0)  # AdaBoost: the stumps added at this step (lo, hi]


def said(text: str) -> str:
    """A core message or stop reason (its features are x1, x2, …) in the page's words: the
    notation typeset (``h_10``) and no parameter's name ("All n_internal = 7 splits are
    done." says "All 7 splits are done.")."""
    return notation(re.sub(r"\bn_internal = ", "", text))


def _ended(note: str, run, shown_last: bool) -> str:
    """``note`` (a core message), followed by why the run ended when its last round is
    shown, in the page's words (:func:`said`)."""
    reason = final(run).stop_reason if run else None
    return said(f"{note} {reason}" if shown_last and reason else note)


def shown_at(
    runs: dict, schedule: Sequence[tuple], k: int, names: Sequence[str] | None = None
) -> dict[str, Shown]:
    """Each run's snapshot at stepper position ``k`` (AdaBoost after as many stumps as
    BoostODT has used; the KM tree after as many splits as BoostODT's complete nodes);
    ``names`` are the feature names used in the notes.

    Every run shows one of its rounds (``t = 0 … T``, :func:`boostcore.steps.rounds`): the
    index is the same in the whole run. A run's last round adds why the run ended
    (:func:`boostcore.steps.final`) to its note.
    """
    i, j, used = schedule[k]
    prev_used = schedule[k - 1][2] if k > 0 else 0
    odt, ada, km = (rounds(runs[name]) for name in (ODT, ADA, KM))
    odt_step = odt[i]
    complete = j is None or j == len(odt_step.inner)
    out: dict[str, Shown] = {}

    t_ada = len(ada) - 1  # AdaBoost's last round
    a = min(used, t_ada)
    s = ada[a]
    if a == 0:
        note = "H = 0: no stump yet. " + (
            "AdaBoost's first stumps appear at step 1, as many as BoostODT's root uses."
            if t_ada
            else final(runs[ADA]).stop_reason
        )
    elif used > t_ada:
        note = said(f"Finished at round {s.t}. {final(runs[ADA]).stop_reason}")
    else:
        note = _ended(s.message, runs[ADA], a == t_ada)
    out[ADA] = Shown(a, f"{s.t} stumps", note, new=(min(prev_used, t_ada), a))

    k_km = i if complete else i - 1
    t_km = len(km) - 1
    a = min(k_km, t_km)
    if k_km > a:
        note = said(f"Finished after {km[a].t} splits. {final(runs[KM]).stop_reason}")
    else:
        note = _ended(km[a].message, runs[KM], a == t_km)
    out[KM] = Shown(a, f"{km[a].t} splits", note)

    if complete:
        out[ODT] = Shown(
            i, f"{i} nodes", _ended(odt_step.message, runs[ODT], k == len(schedule) - 1)
        )
    else:
        n_in = len(odt_step.inner)
        out[ODT] = Shown(
            i - 1,
            f"node {odt_step.node}, stump {j}/{n_in}",
            f"Building node {odt_step.node}: LS so far has {j} of {n_in} weak hypotheses "
            f"(newest: {_describe(odt_step.inner[j - 1].hyp, names)}, "
            f"α = {odt_step.inner[j - 1].alpha:.3f}).",
            partial=odt_step.separator.prefix(j),
            partial_node=odt_step.node,
            j=j,
        )
    return out


# ------------------------------------------------------------------------------ helpers
def _short(name: str, n: int = 12) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def _describe(h: WeakHypothesis, names: Sequence[str] | None) -> str:
    """A weak hypothesis with the data's feature names (plain text, escape before use)."""
    f = _short(names[h.feature]) if names is not None and h.feature >= 0 else f"x{h.feature + 1}"
    sign = "" if h.polarity > 0 else "−"
    if h.kind == "stump":
        return f"{sign}sgn({f} > {h.threshold:.3g})"
    if h.kind == "linear":
        return f"{sign}({f} − {h.threshold:.3g})"
    if h.kind == "constant":
        return f"{h.polarity:+g}"
    return type(h.estimator).__name__


def _polylines(xs, ys, fieldv, decimals: int) -> tuple[list, list]:
    """The line ``field = 0`` as joined polylines (``None`` between them): the segments of
    :func:`ui.pages.oblique.figures.zero_segments` chained at their shared end points."""
    sx, sy = zero_segments(xs, ys, fieldv)
    segs = [((sx[k], sy[k]), (sx[k + 1], sy[k + 1])) for k in range(0, len(sx) - 1, 3)]
    if not segs:
        return [], []
    ends: dict[tuple, list[int]] = defaultdict(list)
    for s, (a, b) in enumerate(segs):
        ends[a].append(s)
        ends[b].append(s)
    used = [False] * len(segs)
    out_x: list = []
    out_y: list = []

    def walk(s: int, start: tuple) -> None:
        line = [start]
        cur = start
        while True:
            used[s] = True
            a, b = segs[s]
            cur = b if a == cur else a
            line.append(cur)
            nxt = [t for t in ends[cur] if not used[t]]
            if not nxt:
                break
            s = nxt[0]
        if out_x:
            out_x.append(None)
            out_y.append(None)
        out_x.extend(round(p[0], decimals) for p in line)
        out_y.extend(round(p[1], decimals) for p in line)

    # open lines start at an end point used once; what is left are closed loops
    for p, ss in ends.items():
        if len(ss) == 1 and not used[ss[0]]:
            walk(ss[0], p)
    for s in range(len(segs)):
        if not used[s]:
            walk(s, segs[s][0])
    return out_x, out_y


def _decimals(lo, hi) -> int:
    span = float(max(hi[0] - lo[0], hi[1] - lo[1]))
    return int(max(0, np.ceil(-np.log10(span / 4000.0))))


def _rows_per_node(tree: ObliqueTree, X: np.ndarray) -> list[np.ndarray]:
    """Rows of ``X`` reaching each node (fixed once a node exists: compute on the last tree)."""
    node = np.zeros(X.shape[0], dtype=np.intp)
    rows = [np.zeros(0, dtype=np.intp)] * tree.n_nodes
    rows[0] = np.arange(X.shape[0])
    for n in tree.internal:
        here = np.flatnonzero(node == n)
        right = (
            tree.separator[n].decision_function(X[here]) >= 0
            if here.size
            else np.zeros(0, dtype=bool)
        )
        node[here] = np.where(right, tree.right[n], tree.left[n])
        rows[tree.left[n]] = here[~right]
        rows[tree.right[n]] = here[right]
    return rows


def _inner_weights(step, j: int, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """AdaBoost_R's weights inside the node split at ``step`` when its stump ``j`` (1-based)
    was trained: the class-balanced start, updated by G1 for stumps 1 … j − 1."""
    w = np.array(step.node_weights, dtype=float)
    if j <= 1:
        return w
    idx = step.node_index
    Xn, yn = X[idx], y[idx]
    for r in step.inner[: j - 1]:
        hv = r.hyp(Xn)
        mu = float(np.clip(r.mu, -(1.0 - MU_CLIP), 1.0 - MU_CLIP))
        w = w * (1.0 - mu * yn * hv / r.R) / (1.0 - mu * mu)
    return w


def _sizes(w: np.ndarray | None, n: int, scale: float, small: bool) -> np.ndarray:
    """Marker sizes (px, uint8): the area is proportional to the weight, an average weight
    of the weighted points gets the usual size; points of weight 0 (outside the node) are
    drawn smallest. Small pictures draw every point alike (their points trace is then the
    same at every step and sent once)."""
    base, lo, hi = 6.0, 2.5, 17.0
    if small:
        return np.full(n, round(3.5 * scale), dtype=np.uint8)
    if w is None or w.size != n or not np.any(w > 0):
        return np.full(n, round(base * scale), dtype=np.uint8)
    mean = w[w > 0].mean()
    s = np.clip(base * np.sqrt(np.clip(w, 0, None) / mean), lo, hi)
    return np.round(s * scale).astype(np.uint8)


def _encode(obj):
    """Numpy arrays inside dicts and lists of dicts become typed arrays, in place."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(value, np.ndarray):
                obj[key] = payload.typed_array(value, floats=None)
            elif isinstance(value, (dict, list)):
                _encode(value)
    elif isinstance(obj, list) and obj and isinstance(obj[0], (dict, list)):
        for value in obj:
            if isinstance(value, (dict, list)):
                _encode(value)


def _fig(data: list[dict], layout: dict) -> dict:
    """A figure as a plain dict (no plotly validation: the unit tests rebuild every frame
    with ``go.Figure``), numpy arrays as base64 typed arrays."""
    fig = {"data": data, "layout": layout}
    _encode(fig)
    return fig


def _compact_points(traces: list[dict]) -> list[dict]:
    """Coordinates as float32 (half the bytes of float64 in plotly's typed arrays)."""
    for tr in traces:
        tr["x"] = np.asarray(tr["x"], dtype=np.float32)
        tr["y"] = np.asarray(tr["y"], dtype=np.float32)
    return traces


# ------------------------------------------------------------------------------ regions
class _Grid:
    """The regions' grids over the data box (heatmap cells and boundary lines)."""

    def __init__(self, ds: Dataset, n: int, n_line: int):
        lo, hi = data_extent(ds)
        self.lo, self.hi = lo, hi
        span = hi - lo
        ratio = float(span[1] / span[0]) if span[0] > 0 else 1.0
        nx, ny = (n, max(8, round(n * ratio))) if ratio <= 1 else (max(8, round(n / ratio)), n)
        self.dx, self.dy = float(span[0] / nx), float(span[1] / ny)
        self.xc = lo[0] + self.dx * (np.arange(nx) + 0.5)
        self.yc = lo[1] + self.dy * (np.arange(ny) + 0.5)
        gx, gy = np.meshgrid(self.xc, self.yc)
        self.G = np.column_stack([gx.ravel(), gy.ravel()])
        self.shape = (ny, nx)
        lx, ly = (
            (n_line, max(8, round(n_line * ratio)))
            if ratio <= 1
            else (max(8, round(n_line / ratio)), n_line)
        )
        self.lx = np.linspace(lo[0], hi[0], lx)
        self.ly = np.linspace(lo[1], hi[1], ly)
        gx, gy = np.meshgrid(self.lx, self.ly)
        self.L = np.column_stack([gx.ravel(), gy.ravel()])
        self.decimals = _decimals(lo, hi)

    def heat(self, H: np.ndarray) -> dict:
        p = 1.0 / (1.0 + np.exp(-2.0 * np.clip(H, -50, 50)))
        z = np.round(p * 254).astype(np.uint8).reshape(self.shape)
        return dict(
            type="heatmap",
            z=z,
            x0=float(self.xc[0]),
            dx=self.dx,
            y0=float(self.yc[0]),
            dy=self.dy,
            zmin=0,
            zmax=254,
            colorscale=theme.REGION_SCALE,
            showscale=False,
            name="regions",
            hoverinfo="skip",
        )


def _line(x, y, colour: str, width: float, name: str, dash: str = "solid") -> dict:
    return dict(
        type="scatter",
        x=x,
        y=y,
        mode="lines",
        name=name,
        hoverinfo="skip",
        line=dict(color=colour, width=width, dash=dash),
        connectgaps=False,
        showlegend=False,
    )


class _TreeRegions:
    """Regions of one tree run, with each node's boundary computed once."""

    def __init__(self, steps, ds: Dataset, grid: _Grid):
        self.ds, self.grid = ds, grid
        last = steps[-1].tree  # the final tree (the stop snapshot repeats it)
        self.reach_line = self._reach(last, grid.L)
        self.lines: dict[tuple, tuple[list, list]] = {}
        # split order: the node each step split
        self.order = [s.node for s in steps if s.kind == STEP]

    _reach = staticmethod(node_membership)

    def boundary(self, n: int, sep: Additive, key) -> tuple[list, list]:
        if (n, key) not in self.lines:
            g = self.grid
            reach = (
                self.reach_line[n]
                if n < self.reach_line.shape[0]
                else np.ones(g.L.shape[0], dtype=bool)
            )
            f = np.where(reach, sep.decision_function(g.L), np.nan)
            self.lines[(n, key)] = _polylines(g.lx, g.ly, f, g.decimals)
        return self.lines[(n, key)]

    def figure(
        self,
        step,
        *,
        hot: int | None,
        partial: Additive | None = None,
        partial_node: int | None = None,
        weights: np.ndarray | None = None,
        font: float = 12,
        small: bool = False,
    ):
        ds, g = self.ds, self.grid
        tree = step.tree
        scale = font / 12
        data = [g.heat(tree.decision_function(g.G))]
        data += _compact_points(
            points_traces(ds, show_test=not small, size=_sizes(weights, ds.n_train, scale, small))
        )
        # this step's boundary (or the one being built), thick vermillion
        hx, hy = [], []
        if partial is not None and partial_node is not None and len(partial):
            hx, hy = self.boundary(partial_node, partial, ("partial", len(partial)))
        elif hot is not None and tree.separator[hot] is not None:
            hx, hy = self.boundary(hot, tree.separator[hot], "final")
        data.append(_line(hx, hy, theme.HIGHLIGHT, 2.5 if small else 4, "this step"))
        if not small:
            data.append(self._leaf_ids(tree, font))
        # every split node's boundary, thin grey, in split order (identical between steps)
        for n in self.order:
            if n < tree.n_nodes and tree.left[n] >= 0:
                # the hot node's slot is empty: its grey line would cover the vermillion one
                x, y = (
                    ([], [])
                    if n == hot and partial is None
                    else self.boundary(n, tree.separator[n], "final")
                )
                data.append(_line(x, y, "#555555", 1 if small else 1.5, f"node {n}"))
        layout = regions_layout(ds, g.lo, g.hi, font=font, small=small)
        return _fig(data, layout)

    def _leaf_ids(self, tree: ObliqueTree, font: float) -> dict:
        g = self.grid
        leaf = tree.apply(g.G)
        xs, ys, text = [], [], []
        if len(tree.leaves) <= 32:
            for n in tree.leaves:
                pts = g.G[leaf == n]
                if not len(pts):
                    continue
                c = pts.mean(axis=0)
                p = pts[np.argmin(((pts - c) ** 2).sum(axis=1))]
                xs.append(round(float(p[0]), g.decimals))
                ys.append(round(float(p[1]), g.decimals))
                text.append(f"#{n}")
        return dict(
            type="scatter",
            x=xs,
            y=ys,
            mode="text",
            text=text,
            name="leaf ids",
            textfont=dict(color="#333333", size=font - 1),
            hoverinfo="skip",
            showlegend=False,
        )


class _PathRegions:
    """Regions of AdaBoost (G1 on a path), ``H`` accumulated stump by stump."""

    def __init__(self, steps, ds: Dataset, grid: _Grid):
        self.ds, self.grid, self.steps = ds, grid, steps

    def figure(
        self,
        idx: int,
        new: tuple[int, int],
        *,
        font: float = 12,
        small: bool = False,
        n_first: int = 0,
    ):
        ds, g = self.ds, self.grid
        scale = font / 12
        step = self.steps[idx]
        H = step.model.decision_function(g.G)  # 0 everywhere for the initial model
        w = np.asarray(step.w)
        data = [g.heat(H)]
        data += _compact_points(
            points_traces(ds, show_test=not small, size=_sizes(w, ds.n_train, scale, small))
        )
        # the stumps added at this step (vermillion; the newest thickest)
        xs: list = []
        ys: list = []
        lo, hi = g.lo, g.hi
        newest: tuple[list, list] = ([], [])
        hyps = step.model.hyps
        for t in range(new[0], min(new[1], len(hyps))):
            seg = self._stump_line(hyps[t], lo, hi)
            if seg is None:
                continue
            if t == min(new[1], len(hyps)) - 1:
                newest = seg
            else:
                if xs:
                    xs.append(None)
                    ys.append(None)
                xs += seg[0]
                ys += seg[1]
        if small:  # the small picture shows the newest stump only
            xs, ys = [], []
        data.append(_line(xs, ys, theme.HIGHLIGHT, 1.8, "this step's stumps"))
        data.append(_line(*newest, theme.HIGHLIGHT, 2.5 if small else 4, "newest stump"))
        layout = regions_layout(ds, g.lo, g.hi, font=font, small=small)
        if step.t == 0 and not small:
            layout["annotations"] = [
                dict(
                    xref="paper",
                    yref="paper",
                    x=0.5,
                    y=0.5,
                    showarrow=False,
                    bgcolor="rgba(255,255,255,0.85)",
                    bordercolor="#999999",
                    borderpad=6,
                    font=dict(size=font),
                    text=(
                        "<b>Round 0: the initial model H = 0,</b><br>"
                        "before any stump (every point undecided).<br>"
                        f"At step 1: the first {n_first} stumps<br>"
                        "(as many as BoostODT's root<br>uses), the shading of H and<br>"
                        "the weights (marker size)."
                    ),
                )
            ]
        elif step.t == 0:
            layout["annotations"] = [
                dict(
                    xref="paper",
                    yref="paper",
                    x=0.5,
                    y=0.5,
                    showarrow=False,
                    font=dict(size=font),
                    text="from step 1",
                )
            ]
        return _fig(data, layout)

    def _stump_line(self, h: WeakHypothesis, lo, hi):
        if h.kind != "stump":
            return None
        th = round(float(h.threshold), self.grid.decimals)
        if h.feature == 0:
            return [th, th], [float(lo[1]), float(hi[1])]
        return [float(lo[0]), float(hi[0])], [th, th]


# ------------------------------------------------------------------------------ structure
@dataclass
class _Box:
    """One drawn node of a tree picture."""

    id: int
    kind: str  # "mini" (with a mini view), "text", "leaf", "collapsed"
    lines: list[str]
    parent: int | None
    children: list[int] = field(default_factory=list)
    fill: str = "#FFFFFF"
    hot: bool = False
    edge_label: str = ""
    edge_hot: bool = False
    mini: str = ""  # SVG of the mini view, drawn in a box of MINI_W × MINI_H at (0, 0)


def _mini_size(font: float) -> tuple[float, float]:
    return round(6.8 * font), round(5.0 * font)


def _box_size(b: _Box, font: float) -> tuple[float, float]:
    longest = max((len(s) for s in b.lines), default=1)
    w = longest * font * CHAR + 14
    h = len(b.lines) * font * 1.2 + 10
    if b.kind == "mini":
        mw, mh = _mini_size(font)
        w = max(w, mw + 10)
        h += mh + 4
    return max(w, 2.4 * font), h


def tree_svg(boxes: dict[int, _Box], root: int, *, font: float, title: str = "") -> str:
    """A tidy layered layout of ``boxes`` as SVG at its natural size (``width``/``height``
    attributes in pixels): leaves side by side, each parent centred over its children."""
    hgap, vgap = 8.0, font * 2.1
    sizes = {n: _box_size(b, font) for n, b in boxes.items()}
    room = {
        n: max(sizes[n][0], len(b.edge_label) * font * 0.96 * CHAR + 18) for n, b in boxes.items()
    }
    lay = tidy_layout(
        {n: b.children for n, b in boxes.items()},
        sizes,
        room,
        root,
        top=(font * 1.5 if title else 0) + 4,
        hgap=hgap,
        vgap=vgap,
    )
    x, y_top, depth, order, height = lay.x, lay.y_top, lay.depth, lay.order, lay.height
    width = max(lay.width, len(title) * font * CHAR + 12 if title else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="Helvetica, Arial, sans-serif" font-size="{font:.0f}">'
    ]
    if title:
        parts.append(f'<text x="4" y="{font * 1.05:.0f}" font-weight="600">{escape(title)}</text>')
    for n in order:
        b = boxes[n]
        if n == root or b.parent not in boxes:
            continue
        p = b.parent
        x0, y0 = x[p], y_top[depth[p]] + sizes[p][1]
        x1, y1 = x[n], y_top[depth[n]]
        colour = theme.HIGHLIGHT if b.edge_hot else "#777777"
        wdt = 2.2 if b.edge_hot else 1.1
        parts.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="{colour}" stroke-width="{wdt}"/>'
        )
        if b.edge_label:
            lx, ly = x0 + 0.72 * (x1 - x0), y0 + 0.72 * (y1 - y0) + font * 0.3
            lw = len(b.edge_label) * font * 0.96 * CHAR + 6
            parts.append(
                f'<rect x="{lx - lw / 2:.1f}" y="{ly - font * 0.9:.1f}" '
                f'width="{lw:.1f}" height="{font * 1.15:.1f}" fill="white" '
                f'opacity="0.9"/>'
            )
            # text on its 90 % white plate over the edge (#777777 alone was 4.48 : 1)
            ink = theme.ink(colour, theme.composite("rgba(255,255,255,0.9)", colour))
            parts.append(
                f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="middle" '
                f'font-size="{font * 0.96:.1f}" fill="{ink}">'
                f"{escape(b.edge_label)}</text>"
            )
    mw, mh = _mini_size(font)
    for n in order:
        b = boxes[n]
        w, h = sizes[n]
        cx, ty = x[n], y_top[depth[n]]
        stroke = theme.HIGHLIGHT if b.hot else "#555555"
        sw = 3 if b.hot else 1
        dash = ' stroke-dasharray="4 3"' if b.kind == "collapsed" else ""
        rx = 12 if b.kind == "leaf" else 5
        parts.append(
            f'<rect x="{cx - w / 2:.1f}" y="{ty:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="{rx}" fill="{b.fill}" stroke="{stroke}" '
            f'stroke-width="{sw}"{dash}/>'
        )
        yy = ty + 5 + font * 0.95
        for i, line in enumerate(b.lines[:1] if b.kind == "mini" else b.lines):
            weight = ' font-weight="600"' if i == 0 else ""
            parts.append(
                f'<text x="{cx:.1f}" y="{yy + font * 1.2 * i:.1f}" '
                f'text-anchor="middle"{weight}>{escape(line)}</text>'
            )
        if b.kind == "mini":
            my = ty + 5 + font * 1.2 + 2
            parts.append(f'<g transform="translate({cx - mw / 2:.1f},{my:.1f})">{b.mini}</g>')
            for i, line in enumerate(b.lines[1:]):
                parts.append(
                    f'<text x="{cx:.1f}" y="{my + mh + font * (1.0 + 1.2 * i):.1f}" '
                    f'text-anchor="middle">{escape(line)}</text>'
                )
    parts.append("</svg>")
    return "".join(parts)


def message_svg(lines: Sequence[str], *, font: float, title: str = "") -> str:
    """A panel that says what will appear (and when) before there is anything to draw."""
    width = max(len(s) for s in [title, *lines]) * font * CHAR + 28
    height = (len(lines) + (1.6 if title else 0)) * font * 1.35 + 24
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="Helvetica, Arial, sans-serif" font-size="{font:.0f}">',
        # the panel's outline is all there is of the picture to come: a graphic (3 : 1 on
        # the card and on its fill; #999999 was 2.85 and 2.66)
        f'<rect x="1" y="1" width="{width - 2:.0f}" height="{height - 2:.0f}" rx="8" '
        f'fill="#F7F7F9" stroke="{theme.NEUTRAL}" stroke-dasharray="5 4"/>',
    ]
    y = 12 + font
    if title:
        parts.append(f'<text x="14" y="{y:.0f}" font-weight="600">{escape(title)}</text>')
        y += font * 1.6
    for line in lines:
        parts.append(f'<text x="14" y="{y:.0f}">{escape(line)}</text>')
        y += font * 1.35
    parts.append("</svg>")
    return "".join(parts)


class _TreePictures:
    """The pictures of one tree run (BoostODT or the KM tree), mini views cached."""

    def __init__(self, steps, ds: Dataset, *, km: bool, font: float, whose: str = YOURS):
        self.ds, self.km, self.font, self.whose = ds, km, font, whose
        last = steps[-1].tree  # the final tree (the stop snapshot repeats it)
        self.rows = _rows_per_node(last, ds.X_train)
        self.minis: dict[tuple, str] = {}
        # the nodes a person's line split ("be the weak learner"): whose, for their captions
        self.yours = {s.node for s in steps if getattr(s, "by_policy", False)}

    def _mini(self, n: int, sep: Additive, key, hot: bool) -> str:
        ck = (n, key, hot)
        if ck in self.minis:
            return self.minis[ck]
        ds, font = self.ds, self.font
        mw, mh = _mini_size(font)
        rows = self.rows[n]
        X, y = ds.X_train[rows], ds.y_train[rows]
        parts = [
            f'<rect x="0" y="0" width="{mw}" height="{mh}" fill="white" '
            f'stroke="#BBBBBB" stroke-width="0.8"/>'
        ]
        if len(rows):
            lo, hi = X.min(axis=0), X.max(axis=0)
            span = np.where(hi > lo, hi - lo, 1.0)
            lo, hi = lo - 0.06 * span, hi + 0.06 * span
            span = hi - lo
            k = min((mw - 4) / span[0], (mh - 4) / span[1])  # one scale: angles are true
            ox = (mw - k * span[0]) / 2
            oy = (mh - k * span[1]) / 2

            def px(P):
                return ox + k * (P[:, 0] - lo[0]), mh - (oy + k * (P[:, 1] - lo[1]))

            keep = np.arange(len(rows))
            if keep.size > MINI_POINTS:
                keep = np.linspace(0, len(rows) - 1, MINI_POINTS).astype(int)
            qx, qy = px(X[keep])
            r = max(2.6, font * 0.24)
            for label, colour, cap in (
                (-1, theme.CLASS_NEG, "square"),
                (1, theme.CLASS_POS, "round"),
            ):
                m = y[keep] == label
                if m.any():
                    d = "".join(f"M{a:.0f} {b:.0f}h0" for a, b in zip(qx[m], qy[m]))
                    # each dot over its outline (theme.MARKER_LINE, as the plots' markers):
                    # class −1's orange is 2.25 : 1 on white, its dark rim what stands out
                    rim = theme.MARKER_LINE[label]
                    for stroke, width in ((rim["color"], r + 2 * rim["width"]), (colour, r)):
                        parts.append(
                            f'<path d="{d}" stroke="{stroke}" stroke-width="{width:.1f}" '
                            f'stroke-linecap="{cap}" fill="none"/>'
                        )
            gx = np.linspace(lo[0], hi[0], MINI_GRID)
            gy = np.linspace(lo[1], hi[1], MINI_GRID)
            GX, GY = np.meshgrid(gx, gy)
            P = np.column_stack([GX.ravel(), GY.ravel()])
            fv = sep.decision_function(P)
            sx, sy = _polylines(gx, gy, fv, 6)
            if sx:
                d, pen = [], "M"
                for a, b in zip(sx, sy):
                    if a is None:
                        pen = "M"
                        continue
                    qa, qb = px(np.array([[a, b]]))
                    d.append(f"{pen}{qa[0]:.0f} {qb[0]:.0f}")
                    pen = "L"
                colour = theme.HIGHLIGHT if hot else "#333333"
                parts.append(
                    f'<path d="{"".join(d)}" stroke="{colour}" stroke-width="2.2" '
                    f'fill="none" stroke-linejoin="round"/>'
                )
                # which side goes where: ◀ LS < 0 (left child), ▶ LS ≥ 0 (right child)
                for side, mark in ((fv < 0, "◀"), (fv >= 0, "▶")):
                    pts = P[side]
                    if len(pts):
                        c = pts.mean(axis=0)
                        p = pts[np.argmin(((pts - c) ** 2).sum(axis=1))]
                        qa, qb = px(p[None, :])
                        parts.append(
                            f'<text x="{qa[0]:.0f}" y="{qb[0] + font * 0.35:.0f}" '
                            f'text-anchor="middle" font-size="{font * 0.96:.1f}" '
                            f'fill="#555555" stroke="white" stroke-width="2.5" '
                            f'paint-order="stroke" opacity="0.65">{mark}</text>'
                        )
        out = "".join(parts)
        self.minis[ck] = out
        return out

    def _edge(self, tree: ObliqueTree, n: int, right: bool) -> str:
        if self.km:
            sep = tree.separator[n]
            h = sep.hyps[0]
            return f"> {h.threshold:.3g}" if right else f"≤ {h.threshold:.3g}"
        return "LS≥0" if right else "LS<0"

    def _caption(self, sep: Additive, building: int | None, total: int, n: int = -1) -> str:
        if building is not None:
            return f"building {building}/{total}"
        if n in self.yours:
            return f"LS: {self.whose} line"
        if self.km:
            return f"split on {_short(self.ds.feature_names[sep.hyps[0].feature], 10)}"
        if sep.affine(self.ds.X_train.shape[1]) is not None:
            return f"LS: a line ({len(sep)} terms)"
        return f"LS: {len(sep)} stump{'s' if len(sep) != 1 else ''}"

    def boxes(
        self,
        tree: ObliqueTree,
        *,
        hot: set[int],
        partial: Additive | None,
        partial_node: int | None,
        n_total: int,
    ) -> dict[int, _Box]:
        out: dict[int, _Box] = {}
        parent = {}
        for n in tree.internal:
            parent[tree.left[n]] = n
            parent[tree.right[n]] = n
        for n in range(tree.n_nodes):
            p = parent.get(n)
            label = ""
            if p is not None:
                label = self._edge(tree, p, tree.right[p] == n)
            count = len(self.rows[n]) if n < len(self.rows) else 0
            is_hot = n in hot or n == partial_node
            if tree.left[n] >= 0 or n == partial_node:
                building = n == partial_node and partial is not None
                sep = partial if building else tree.separator[n]
                b = _Box(
                    n,
                    "mini",
                    [
                        f"#{n} n={count}",
                        self._caption(sep, len(sep) if building else None, n_total, n),
                    ],
                    p,
                    [] if building else [tree.left[n], tree.right[n]],
                    "#FFFFFF",
                    is_hot,
                    label,
                    p is not None and p in hot,
                )
                b.mini = self._mini(n, sep, ("partial", len(sep)) if building else "final", is_hot)
            else:
                wp, wn = tree.w_pos[n], tree.w_neg[n]
                q = wp / (wp + wn) if wp + wn > 0 else 0.5
                b = _Box(
                    n,
                    "leaf",
                    [f"#{n} n={count}", f"H={tree.value[n]:+.2f}"],
                    p,
                    [],
                    theme.mix(q),
                    is_hot,
                    label,
                    p is not None and p in hot,
                )
            out[n] = b
        return out

    def pictures(
        self,
        step,
        *,
        hot_node: int | None,
        partial: Additive | None = None,
        partial_node: int | None = None,
        n_total: int = 0,
        lean: bool = False,
    ) -> list[str]:
        """From the most to the least detailed: the whole tree; the neighbourhood of this
        step's node with mini views on the path (left out when ``lean``: stepping through
        the stumps makes many frames); the same with a mini view only in this step's node;
        only this step's node, its parent and children."""
        tree = step.tree
        font = self.font
        focus = partial_node if partial_node is not None else hot_node
        hot = set()
        if hot_node is not None and partial_node is None:
            hot = {hot_node, tree.left[hot_node], tree.right[hot_node]}
        full = self.boxes(
            tree, hot=hot, partial=partial, partial_node=partial_node, n_total=n_total
        )
        pics = [tree_svg(full, 0, font=font)]
        if focus is None or len(tree.leaves) <= 3:
            if len(tree.leaves) > 3:  # no step node (a stop): the tree without mini views
                pics.append(
                    tree_svg(_texts(full, set()), 0, font=font, title="mini views left out")
                )
            return pics
        path = []
        n = focus
        while n is not None:
            path.append(n)
            n = full[n].parent
        path.reverse()
        near = _neighbourhood(full, path)
        if not lean:
            pics.append(
                tree_svg(near, 0, font=font, title="near this step's node (▸ = collapsed subtree)")
            )
        pics.append(
            tree_svg(
                _texts(near, {focus}),
                0,
                font=font,
                title="near this step's node (▸ = collapsed subtree)",
            )
        )
        if len(path) > 2:
            top = path[-2]
            sub = _texts(near, {focus})
            keep = {top, *sub[top].children, *sub[focus].children}
            local = {m: sub[m] for m in keep}
            local[top] = replace(local[top], parent=None, edge_label="", edge_hot=False)
            route = " → ".join(f"#{m}" for m in path[:-1])
            pics.append(tree_svg(local, top, font=font, title=f"path: {route} → #{focus}"))
        return pics


def _texts(boxes: dict[int, _Box], keep_mini: set[int]) -> dict[int, _Box]:
    """The same boxes with text instead of mini views (except ``keep_mini``)."""
    out = {}
    for n, b in boxes.items():
        out[n] = (
            replace(b, kind="text", mini="")
            if b.kind == "mini" and n not in keep_mini
            else replace(b)
        )
    return out


def _neighbourhood(boxes: dict[int, _Box], path: list[int]) -> dict[int, _Box]:
    """The path from the root to this step's node, the siblings along it (an internal
    sibling collapsed into a dashed box counting its leaves) and the node's children."""
    on_path = set(path)
    shown = set(path)
    for n in path:
        shown.update(boxes[n].children)

    def leaves(n: int) -> int:
        ch = boxes[n].children
        return 1 if not ch else sum(leaves(c) for c in ch)

    out = {}
    for n in shown:
        b = boxes[n]
        if n in on_path or not b.children:
            out[n] = replace(b, children=[c for c in b.children if c in shown])
        else:
            k = leaves(n)
            out[n] = _Box(
                n,
                "collapsed",
                [f"#{n}", f"▸ {k} leaves"],
                b.parent,
                [],
                "#F2F2F2",
                b.hot,
                b.edge_label,
                b.edge_hot,
            )
    return out


def path_pictures(
    steps, shown: Shown, *, names: Sequence[str], font: float, n_first: int
) -> list[str]:
    """AdaBoost as G1 on a path: one node per stump, every example goes through all of
    them; this step's stumps outlined in vermillion. Long paths show their last stumps."""
    if steps[shown.idx].t == 0:
        return [
            message_svg(
                [
                    "Round 0 is the initial model: no stump yet.",
                    "G1 on a path: every example passes through",
                    "every node, and H(x) = Σ αₜ hₜ(x).",
                    f"At step 1 the first {n_first} stumps appear here,",
                    "one node each, with their votes αₜ.",
                ],
                font=font,
                title="The path is empty: H = 0",
            )
        ]
    model = steps[shown.idx].model
    done = [s.round for s in steps[: shown.idx + 1] if s.round is not None]
    lo, hi = shown.new
    T = len(model)
    rows = [
        (t, f"h{t + 1} = {_describe(model.hyps[t], names)}   α {model.alphas[t]:.3f}", lo <= t < hi)
        for t in range(T)
    ]
    mus = {r.j - 1: r.mu for r in done}
    counts = [min(T, 16)] + [c for c in (8, 4) if c < T]
    return [_path_svg(rows[-c:], T, mus, font=font) for c in counts]


def _path_svg(rows, T: int, mus: dict, *, font: float) -> str:
    first = rows[0][0]
    lines = [("start", "all examples, H = 0", False, False)]
    if first > 0:
        lines.append(("collapsed", f"▸ h1 … h{first}: {first} earlier stumps", False, True))
    for t, text, hot in rows:
        mu = mus.get(t)
        lines.append(("stump", text + (f"   μ {mu:.2f}" if mu is not None else ""), hot, False))
    lines.append(("end", f"H(x) = Σ αₜ hₜ(x) over {T} stumps", False, False))
    longest = max(len(s) for _, s, _, _ in lines)
    bw = longest * font * CHAR + 18
    bh = font * 1.2 + 10
    gap = font * 0.9
    width = bw + 8
    height = len(lines) * (bh + gap) - gap + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="Helvetica, Arial, sans-serif" font-size="{font:.0f}">'
    ]
    cx = width / 2
    for k in range(len(lines) - 1):
        y0 = 4 + k * (bh + gap) + bh
        parts.append(
            f'<line x1="{cx:.1f}" y1="{y0:.1f}" x2="{cx:.1f}" y2="{y0 + gap:.1f}" '
            f'stroke="#777777" stroke-width="1.2"/>'
        )
    for k, (kind, text, hot, dashed) in enumerate(lines):
        y = 4 + k * (bh + gap)
        fill = {"start": "#F2F2F2", "end": "#F2F2F2", "collapsed": "#FAFAFA"}.get(kind, "#FFFFFF")
        stroke = theme.HIGHLIGHT if hot else "#555555"
        dash = ' stroke-dasharray="4 3"' if dashed else ""
        parts.append(
            f'<rect x="4" y="{y:.1f}" width="{bw:.1f}" height="{bh:.1f}" rx="5" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{3 if hot else 1}"{dash}/>'
        )
        weight = ' font-weight="600"' if kind in ("start", "end") else ""
        parts.append(
            f'<text x="{cx:.1f}" y="{y + 5 + font * 0.95:.1f}" text-anchor="middle"'
            f"{weight}>{escape(text)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


# ------------------------------------------------------------------------------ curves
_SERIES = (
    ("Thm 1 bound", theme.BOUND["e"], "dash", 2.2, lambda m: m.bound_theorem1),
    ("E e<sup>−yH</sup>", theme.MEASURED["index"], "dot", 2.2, lambda m: m.exp_loss),
    ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error),
    ("test error", theme.MEASURED["test"], "solid", 1.5, lambda m: m.test_error),
)


def g1_curves(
    steps, idx: int, *, xlabel: str, font: float = 12, small: bool = False, empty: str = ""
):
    """Training/test error, the exponential loss and Theorem 1's bound at θ = 0 (log y)
    against the run's own step ``t = 0 … T`` (its rounds, :func:`boostcore.steps.rounds`):
    the whole run faint, up to round ``idx`` solid, a marker at ``idx``; names written at the
    ends of the lines; ``empty`` is a note written over the plot."""
    done = rounds(steps)
    x_all = np.array([s.t for s in done])
    allm = [s.metrics for s in done]
    k = min(idx, len(done) - 1)
    series = [
        s
        for s in _SERIES
        if not (s[0] == "test error" and (small or not allm or allm[-1].test_error is None))
    ]
    if small:
        series = [s for s in series if s[0] in ("Thm 1 bound", "train error")]
    values = [v for m in allm for *_, get in series for v in [get(m)] if v is not None and v > 0]
    low = max(float(np.floor(np.log10(min(values)))) if values else -2.0, -6.0)
    data: list[dict] = []
    labels = []
    for name, colour, dash, width, get in series:
        y = np.array(
            [np.nan if get(m) is None or get(m) <= 0 else get(m) for m in allm], dtype=np.float32
        )  # half the bytes; plenty for a log plot
        line = dict(color=colour, dash=dash, width=width if not small else width * 0.8)
        data.append(
            dict(
                type="scatter",
                x=x_all,
                y=y,
                mode="lines",
                name=name,
                opacity=FAINT,
                hoverinfo="skip",
                line=line,
                showlegend=False,
            )
        )
        data.append(
            dict(
                type="scatter",
                x=x_all[: k + 1],
                y=y[: k + 1],
                mode="lines",
                name=name,
                line=line,
                showlegend=False,
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.4g}}<extra></extra>",
            )
        )
        data.append(
            dict(
                type="scatter",
                x=x_all[k : k + 1] if k >= 0 else [],
                y=y[k : k + 1] if k >= 0 else [],
                mode="markers",
                showlegend=False,
                hoverinfo="skip",
                marker=dict(
                    color=colour, size=6 if small else 9, line=dict(color="white", width=1)
                ),
            )
        )
        finite = y[np.isfinite(y)]
        if finite.size and not small:
            labels.append((name, colour, float(finite[-1])))
    notes = []
    if empty:
        notes.append(
            dict(
                xref="paper",
                yref="paper",
                x=0.5,
                y=0.3,
                showarrow=False,
                text=empty,
                font=dict(size=font),
                align="center",
                bgcolor="rgba(255,255,255,0.85)",
            )
        )
    n_max = int(x_all.max()) if x_all.size else 1
    shapes = []
    if k >= 0:
        shapes.append(
            dict(
                type="line",
                xref="x",
                yref="paper",
                x0=int(x_all[k]),
                x1=int(x_all[k]),
                y0=0,
                y1=1,
                line=dict(color="#888888", width=1, dash="dot"),
            )
        )
    layout = curves_layout(
        labels,
        font=font,
        small=small,
        x_range=(-0.5, n_max + 0.5),
        x_title=xlabel,
        y_range=(low, 0.05),
        y_title="value (log scale)",
        log=True,
        annotations=notes,
        shapes=shapes,
        yaxis=dict(exponentformat="power"),
    )
    return _fig(data, layout)


XLABEL = {ADA: "stumps t", KM: "splits", ODT: "internal nodes"}


# ------------------------------------------------------------------------------ tables
def inner_html(odt_steps, schedule, k: int, names: Sequence[str], whose: str = YOURS) -> str:
    """The AdaBoost_R rounds that built (or are building) the node of BoostODT's step (a
    node a person's line split: ``whose`` line it is, and what AdaBoost_R built instead)."""
    i, j, _ = schedule[k]
    step = odt_steps[i]
    if getattr(step, "by_policy", False):
        coef, b = step.separator.affine(len(names))
        terms = " ".join(
            f"{'−' if w < 0 else '+'} {abs(w):.3f}·{_short(name, 14)}"
            for w, name in zip(coef, names)
            if w != 0.0
        ) + (f" {'−' if b < 0 else '+'} {abs(b):.3g}" if b != 0.0 else "")
        terms = terms[2:] if terms.startswith("+ ") else "−" + terms[2:]
        head = (
            f"<p><b>Node {step.node}: {escape(whose)} line</b> {escape(terms)} = 0 — "
            f"{step.node_index.size} examples, no AdaBoost_R rounds. What AdaBoost_R built "
            "for this node instead (the run did not use it):</p>"
        )
        frame = inner_frame(replace(step, inner=step.algorithm_inner))
        frame["weak hypothesis s_j"] = [
            _describe(r.hyp, names) for r in step.algorithm_inner[: len(frame)]
        ]
        return head + lecture.table_html(frame, decimals=4)
    if not step.inner:
        return (
            "<p><b>Round 0: the root alone.</b> One constant node: H = ½ ln(w⁺/w⁻) "
            "everywhere. Step forward to watch AdaBoost_R build the root's separator LS.</p>"
        )
    building = j is not None and j < len(step.inner)
    frame = inner_frame(step, j if building else None)
    frame["weak hypothesis s_j"] = [_describe(r.hyp, names) for r in step.inner[: len(frame)]]
    head = (
        f"<p><b>AdaBoost_R inside node {step.node}</b> — {step.node_index.size} "
        "examples, class-balanced weights (each class has mass ½)"
        + (f"; {j} of {len(step.inner)} rounds so far" if building else "")
        + ".</p>"
    )
    return head + lecture.table_html(frame, decimals=4)


def metrics_frame(current: dict):
    """One row per G1 specialisation: the numbers of the shown round (``current`` maps a
    run's name to ``(snapshot, label)``); the columns of Theorems 1 and 2."""
    import pandas as pd

    rows = []
    for name, (s, label) in current.items():
        m = s.metrics
        rows.append(
            {
                "method": name,
                "step": label,
                "train error": m.train_error,
                "test error": m.test_error,
                "ν(H, 0)": m.margin_error_0,
                "E e⁻ʸᴴ": m.exp_loss,
                "Σ 2√(w⁺w⁻)": m.km_impurity,
                "Theorem 1 bound": m.bound_theorem1,
            }
        )
    return pd.DataFrame(rows)


def peers_html(rows: list[dict]) -> str:
    import pandas as pd

    frame = pd.DataFrame(rows, columns=["model", "leaves", "train error", "test error"])
    return (
        "<div class='bl-odt-peers'><style>.bl-odt-peers td:first-child{white-space:normal;"
        "min-width:11em}</style>" + lecture.table_html(frame, decimals=3) + "</div>"
    )


# ------------------------------------------------------------------------------ the proof
def proof_frames(run: Sequence, shown: Sequence[int], *, font: float = 12) -> list[str]:
    """The proof at each stepper position (:func:`.proof.g1_chain` drawn by
    :func:`ui.proof.proof_compact_html`): position ``k`` shows the chain of the run's round
    ``shown[k]`` (``shown_at(...)[name].idx``, the snapshot its regions and curves show; while
    BoostODT builds a node, the tree before it); not yet deduplicated.

    The run's last round is drawn from its stop snapshot (the same round and metrics) so that
    a run that stopped because no weak hypothesis has an edge (``μ = 0``) says so.

    Parameters
    ----------
    run : sequence of G1Step or ODTStep
        The whole run (G1 on a path needs its earlier rounds).
    shown : sequence of int
        The round shown at each position.
    font : float, default 12
        The figures' font (:func:`ui.proof.is_large`).

    Returns
    -------
    list of str
    """
    run = list(run)
    steps = rounds(run)
    last = final(run) if run and final(run).t == steps[-1].t else steps[-1]
    chains: dict[int, object] = {}
    for i in dict.fromkeys(shown):
        step = last if i == len(steps) - 1 else steps[i]
        chains[i] = g1_chain(step, history=run)
    return proof_cards([chains[i] for i in shown], large=is_large(font))


# --------------------------------------------------------------- text alternatives (issue 26)
#: The curves' line names (:data:`_SERIES`) as a screen reader should read them.
SPOKEN = {
    "Thm 1 bound": "Theorem 1's bound",
    "E e<sup>−yH</sup>": "exponential loss",
    "train error": "training error",
    "test error": "test error",
}
#: The trees' names in a sentence.
TREE_NAME = {KM: "Kearns–Mansour tree", ODT: "BoostODT tree"}
#: What each run's x axis counts (:data:`XLABEL`), in a sentence.
UNIT = {ADA: ("stump", "stumps"), KM: ("split", "splits"), ODT: ("internal node", "internal nodes")}


def spoken_number(x: float) -> str:
    """A number as the descriptions say it: two decimals, a small positive value with its
    first digit (two decimals would read a bound of 0.004 as 0), "minus" for a sign.

    Parameters
    ----------
    x : float

    Returns
    -------
    str
    """
    return "minus " + unsigned_spoken(-x) if x < 0 else unsigned_spoken(x)


def hypothesis_words(h: WeakHypothesis, names: Sequence[str]) -> str:
    """A weak hypothesis in words (:func:`_describe` without symbols a screen reader spells)."""
    f = str(names[h.feature]) if 0 <= h.feature < len(names) else f"x{h.feature + 1}"
    if h.kind == "stump":
        return f"{'+1' if h.polarity > 0 else '−1'} where {f} > {spoken_number(h.threshold)}"
    if h.kind == "linear":
        sign = "" if h.polarity > 0 else "minus "
        return f"{sign}({f} minus {spoken_number(h.threshold)})"
    if h.kind == "constant":
        return f"the constant {h.polarity:+g}"
    return type(h.estimator).__name__


def separator_words(sep: Additive, names: Sequence[str]) -> str:
    """A node's separator ``LS`` in words: the line ``LS = 0`` when it is affine (the
    hyperplane learner, a student's line), a single stump's test, or the sum it is."""
    aff = sep.affine(len(names))
    if aff is not None:
        coef, b = aff
        terms = [(float(c), f" times {names[i]}") for i, c in enumerate(coef) if c]
        terms += [(float(b), "")] if b or not terms else []
        said = ""
        for i, (v, tail) in enumerate(terms):  # "a times x1 minus b times x2 plus c"
            sign = ("minus " if v < 0 else "") if i == 0 else (" minus " if v < 0 else " plus ")
            said += f"{sign}{spoken_number(abs(v))}{tail}"
        return f"the line {said} = 0"
    if len(sep) == 1:
        return f"the stump {hypothesis_words(sep.hyps[0], names)}"
    return f"a sum of {len(sep)} weak hypotheses (a staircase boundary)"


def _depth(tree: ObliqueTree) -> int:
    return max(tree.depth[n] for n in tree.leaves)


def _points_key(ds: Dataset, weights: str) -> str:
    neg, pos = ds.class_names
    test = "; hollow: test" if ds.n_test else ""
    return (
        f"Blue circles: class {pos}, orange diamonds: class {neg}; filled: training, sized by "
        f"{weights}{test}."
    )


def describe_position(
    name: str, steps: Sequence, sh: Shown, ds: Dataset, *, node_size: int = 0
) -> dict[str, str]:
    """The three big views' sentences for a screen reader at one stepper position: what the
    regions, the structure and the curves draw of run ``name`` (snapshot ``sh``).

    Parameters
    ----------
    name : str
        ``ADA``, ``KM`` or ``ODT``.
    steps : sequence
        The run's rounds (:func:`boostcore.steps.rounds`).
    sh : Shown
        What the run shows here (:func:`shown_at`).
    ds : Dataset
        The run's data.
    node_size : int, default 0
        BoostODT building a node: the weak hypotheses its separator will have.

    Returns
    -------
    dict of str to str
        ``"regions"``, ``"structure"`` and ``"curves"``: plain text.
    """
    names = ds.feature_names
    step = steps[sh.idx]
    m = step.metrics
    err = f"training error {spoken_number(m.train_error)}"
    shade = "shaded by the vote H (blue: +1, orange: −1, white: undecided)"
    one, many = UNIT[name]
    if name == ADA:
        lo, hi = sh.new
        if sh.idx == 0:
            regions = f"Decision regions of AdaBoost at H = 0: no stump yet; {err}."
            structure = "AdaBoost as G1 on a path: no weak hypothesis yet (H = 0)."
        else:
            newest = steps[hi].round if hi and hi < len(steps) else None
            added = (
                f"; this step's {plural(hi - lo, 'stump', 'stumps')} in vermillion"
                if hi > lo
                else ""
            )
            h = (
                ""
                if newest is None
                else f"; the newest, h{hi}: {hypothesis_words(newest.hyp, names)}, alpha "
                f"{spoken_number(newest.alpha)}, mu {spoken_number(newest.mu)}"
            )
            regions = (
                f"Decision regions of AdaBoost after {plural(step.t, one, many)}, {shade}"
                f"{added}; {err}."
            )
            structure = (
                f"AdaBoost as G1 on a path of {plural(step.t, one, many)}: every point meets "
                f"all of them{h}."
            )
        regions += " " + _points_key(ds, "the weights w of the newest stump")
    else:
        tree = step.tree
        what = f"{TREE_NAME[name]} with {plural(len(tree.leaves), 'leaf', 'leaves')}"
        if sh.partial is not None:
            change = (
                f"building node #{sh.partial_node}: its separator so far has {sh.j} of "
                f"{node_size} weak hypotheses, {separator_words(sh.partial, names)}"
            )
        elif step.node is not None:
            change = (
                f"step {step.t} split leaf #{step.node} by "
                f"{separator_words(step.separator, names)} into leaves "
                f"#{step.children[0]} and #{step.children[1]}"
            )
        else:
            change = "no split yet: the root is the only leaf"
        drawn = (
            ""
            if step.node is None and sh.partial is None
            else ", drawn as the thick vermillion line (grey lines: earlier nodes' boundaries)"
        )
        regions = (
            f"Decision regions of the {what}, {shade}; {change}{drawn}; {err}. "
            + _points_key(ds, "the weights of the node being split")
        )
        structure = f"{what} and depth {_depth(tree)}; {change}."
    said = []
    for line, *_, get in _SERIES:
        value = get(m)
        if value is not None:
            said.append(f"{SPOKEN[line]} {spoken_number(float(value))}")
    curves = f"After {plural(step.t, one, many)}: " + ", ".join(said)
    if sh.idx > 0:
        before, now = steps[sh.idx - 1].metrics.train_error, m.train_error
        a, b = spoken_number(before), spoken_number(now)
        move = (
            "stayed at {} since"
            if a == b
            else "fell from {} at"
            if now < before
            else "rose from {} at"
        )
        curves += f". The training error {move.format(a)} {plural(steps[sh.idx - 1].t, one, many)}"
    return {"regions": regions, "structure": structure, "curves": curves + "."}


# ------------------------------------------------------------------------------ the page
@shared
def oblique_lecture(
    _ds: Dataset,
    ds_key: str,
    n_internal: int,
    n_stumps: int,
    learner: str,
    rule: str,
    inner: bool,
    font: float,
    choices: tuple = (),
    whose: str = YOURS,
) -> dict:
    """Every stepper position of the three runs, encoded for the lecture view (cached: a
    step in the browser needs nothing from the server).

    ``choices`` are a student's separators for BoostODT's steps 1, 2, … (``((cos θ, sin θ),
    b)`` or ``None`` for AdaBoost_R's, :func:`.runs.odt_run`): the BoostODT run is
    then continued from them (the later steps are AdaBoost_R's). The notes and pictures call
    those lines ``whose`` they are (:data:`ui.text.YOURS`, or :data:`ui.text.THE_CLASS` on a
    class follower's page).

    Returns ``n`` (positions), ``schedule`` and, per run (long name),
    ``regions``, ``structure``, ``curves``, ``small``, ``spark`` and ``proof`` frames
    (:func:`proof_frames`), ``notes`` and ``descriptions`` (the three big views' sentences
    for a screen reader, one per position: :func:`describe_position`);
    the round tables ``inner``, ``peers`` and ``metrics`` (HTML, one per position), and the
    margin-error curves of the three runs, ``margins`` (one figure per position).
    """
    runs = {
        ADA: oblique_runs.g1_path_run(_ds, ds_key, n_internal * n_stumps, "stump"),
        KM: oblique_runs.g1_tree_run(_ds, ds_key, n_internal, "max_decrease"),
        ODT: oblique_runs.odt_run(_ds, ds_key, n_internal, n_stumps, learner, rule, choices),
    }
    return build_lecture(
        _ds,
        runs,
        inner=inner,
        font=font,
        learner=learner,
        peers=lambda n: oblique_runs.axis_parallel_peers(_ds, ds_key, n),
        whose=whose,
    )


def schedule_of(odt_steps, inner: bool) -> list[tuple[int, int | None, int]]:
    """The stepper's positions (:func:`.runs.odt_schedule`); a node split by a student's
    line (``by_policy``, no AdaBoost_R rounds) counts the stumps AdaBoost_R built for it, so
    AdaBoost keeps its budget of T1 stumps per BoostODT node."""
    out = oblique_runs.odt_schedule(odt_steps, inner)
    steps = rounds(odt_steps)
    if not any(getattr(s, "by_policy", False) for s in steps):
        return out
    used = np.cumsum(
        [0]
        + [
            len(s.algorithm_inner) if getattr(s, "by_policy", False) else len(s.inner)
            for s in steps
        ]
    )
    return [
        (i, j, int(used[i] + (j if j is not None else used[i + 1] - used[i]))) for i, j, _ in out
    ]


def build_lecture(
    ds: Dataset,
    runs: dict,
    *,
    inner: bool,
    font: float,
    learner: str,
    peers: Callable[[int], list[dict]],
    whose: str = YOURS,
) -> dict:
    """The lecture dict of :func:`oblique_lecture` from runs already computed; ``peers``
    gives the axis-parallel trees' rows for a number of leaves; ``whose`` a person's lines
    are (:func:`oblique_lecture`)."""
    schedule = schedule_of(runs[ODT], inner)
    n = len(schedule)
    at = [shown_at(runs, schedule, k, ds.feature_names) for k in range(n)]
    grid = _Grid(ds, GRID, LINE_GRID)
    small_grid = _Grid(ds, SMALL_GRID, LINE_GRID // 2)
    names = ds.feature_names
    pic_font = round(font + 1)
    n_first = schedule[1][2] if n > 1 else 0

    out: dict = {"n": n, "schedule": [list(p) for p in schedule], "runs": {}}
    for name in ORDER:
        steps = rounds(runs[name])  # t = 0 … T: the stop snapshot repeats the last round
        regions, small, structure, curves, spark, notes = [], [], [], [], [], []
        said: dict[str, list[str]] = {"regions": [], "structure": [], "curves": []}
        if name == ADA:
            big_r, small_r = _PathRegions(steps, ds, grid), _PathRegions(steps, ds, small_grid)
        else:
            big_r, small_r = (_TreeRegions(steps, ds, grid), _TreeRegions(steps, ds, small_grid))
            pics = _TreePictures(steps, ds, km=name == KM, font=pic_font, whose=whose)
        for k in range(n):
            sh = at[k][name]
            notes.append(sh.note.replace("the policy's line", f"{whose} line"))
            if name == ADA:
                regions.append(big_r.figure(sh.idx, sh.new, font=font, n_first=n_first))
                small.append(small_r.figure(sh.idx, sh.new, font=font, small=True))
                structure.append(
                    path_pictures(steps, sh, names=names, font=pic_font, n_first=n_first)
                )
                empty = (
                    f"Round 0: H = 0<br>the first {n_first} stumps come at step 1"
                    if sh.idx == 0
                    else ""
                )
            else:
                step = steps[sh.idx]
                i, j, _ = schedule[k]
                if sh.partial is not None:  # BoostODT building a node
                    full = runs[ODT][i]
                    w_node = _inner_weights(full, sh.j, ds.X_train, ds.y_train)
                    hot = None
                else:
                    full = step
                    w_node = np.asarray(step.node_weights) if step.node is not None else None
                    hot = step.node
                w = None
                if w_node is not None and full.node_index.size:
                    w = np.zeros(ds.n_train)
                    w[full.node_index] = w_node
                kw = dict(hot=hot, partial=sh.partial, partial_node=sh.partial_node, weights=w)
                regions.append(big_r.figure(step, font=font, **kw))
                small.append(small_r.figure(step, font=font, small=True, **kw))
                structure.append(
                    pics.pictures(
                        step,
                        hot_node=hot,
                        partial=sh.partial,
                        partial_node=sh.partial_node,
                        n_total=len(runs[ODT][i].inner),
                        lean=inner,
                    )
                )
                empty = ""
            curves.append(g1_curves(steps, sh.idx, xlabel=XLABEL[name], font=font, empty=empty))
            node_size = len(runs[ODT][schedule[k][0]].inner) if sh.partial is not None else 0
            for view, text in describe_position(name, steps, sh, ds, node_size=node_size).items():
                said[view].append(text)
            spark.append(g1_curves(steps, sh.idx, xlabel=XLABEL[name], font=font, small=True))
        out["runs"][name] = {
            "regions": lecture.plotly_frames(regions),
            "small": lecture.plotly_frames(small),
            "structure": lecture.same_frames(structure),
            "curves": lecture.plotly_frames(curves),
            "spark": lecture.plotly_frames(spark),
            "notes": notes,
            "descriptions": said,
            "proof": lecture.same_frames(
                proof_frames(runs[name], [at[k][name].idx for k in range(n)], font=font)
            ),
        }

    inner_t, peers_t, metrics_t, margins, margin_said = [], [], [], [], []
    for k in range(n):
        now = {r: runs[r][at[k][r].idx] for r in ORDER}
        margins.append(margin_frame(now))
        margin_said.append(describe_margins(now))
        inner_t.append(inner_html(runs[ODT], schedule, k, names, whose))
        sh = at[k]
        odt_step = runs[ODT][sh[ODT].idx]
        n_leaves = odt_step.metrics.n_leaves
        rows = [
            {
                "model": f"BoostODT ({learner})",
                "leaves": n_leaves,
                "train error": odt_step.metrics.train_error,
                "test error": odt_step.metrics.test_error,
            }
        ]
        km_step = runs[KM][sh[KM].idx]
        rows.append(
            {
                "model": KM,
                "leaves": km_step.metrics.n_leaves,
                "train error": km_step.metrics.train_error,
                "test error": km_step.metrics.test_error,
            }
        )
        rows += peers(n_leaves)
        peers_t.append(peers_html(rows))
        current = {r: (runs[r][sh[r].idx], sh[r].label) for r in ORDER}
        metrics_t.append(lecture.table_html(metrics_frame(current), decimals=4))
    out["inner"] = lecture.same_frames(inner_t)
    out["peers"] = lecture.same_frames(peers_t)
    out["metrics"] = lecture.same_frames(metrics_t)
    out["margins"] = lecture.plotly_frames(margins)
    out["margin_descriptions"] = margin_said
    return out


def describe_margins(current: dict[str, object]) -> str:
    """What the margin chart shows at one position, for a screen reader: per run, the
    weight with margin at most 0 (``ν(H, 0)``, which bounds the training error) and
    Theorem 1's bound on it."""
    zero = int(np.argmin(np.abs(THETA_GRID)))
    parts = []
    for name, step in current.items():
        m = getattr(step, "metrics", None)
        if m is None:
            continue
        parts.append(
            f"{name}: {100 * float(m.margin_error[zero]):.0f} % of the weight has margin at "
            f"most 0, bound {float(min(m.bound_margin[zero], 1.05)):.2f}"
        )
    return "Margin-error curves ν(H, θ) and Theorem 1's bounds. " + "; ".join(parts) + "."
