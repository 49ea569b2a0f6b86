"""The oblique page's decision regions as plotly figures (plain dicts): the heatmap grid
(:class:`Grid`), the node boundaries ``LS = 0`` as joined polylines (:func:`polylines`), a tree
run's regions (:class:`TreeRegions`) and AdaBoost's (:class:`PathRegions`), the points sized by
the weights (:func:`inner_weights`: AdaBoost_R's inside a node); :func:`fig` is the figure dict
the curves share."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from boostcore.datasets import Dataset
from boostcore.oblique import ObliqueTree
from boostcore.realboost import MU_CLIP, Additive, WeakHypothesis
from boostcore.steps import STEP
from ui import payload, theme
from ui.figures import data_extent, points_traces, regions_layout

from ..figures import node_membership, zero_segments

GRID = 72  # heatmap cells along the longer side of the data box
LINE_GRID = 120  # marching-squares grid of the node boundaries
SMALL_GRID = 36


def polylines(xs, ys, fieldv, decimals: int) -> tuple[list, list]:
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


def inner_weights(step, j: int, X: np.ndarray, y: np.ndarray) -> np.ndarray:
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


def fig(data: list[dict], layout: dict) -> dict:
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
class Grid:
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


class TreeRegions:
    """Regions of one tree run, with each node's boundary computed once."""

    def __init__(self, steps, ds: Dataset, grid: Grid):
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
            self.lines[(n, key)] = polylines(g.lx, g.ly, f, g.decimals)
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
        return fig(data, layout)

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


class PathRegions:
    """Regions of AdaBoost (G1 on a path), ``H`` accumulated stump by stump."""

    def __init__(self, steps, ds: Dataset, grid: Grid):
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
        return fig(data, layout)

    def _stump_line(self, h: WeakHypothesis, lo, hi):
        if h.kind != "stump":
            return None
        th = round(float(h.threshold), self.grid.decimals)
        if h.feature == 0:
            return [th, th], [float(lo[1]), float(hi[1])]
        return [float(lo[0]), float(hi[0])], [th, th]
