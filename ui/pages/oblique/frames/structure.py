"""The oblique page's structure pictures (SVG at a fixed text size, on :mod:`ui.svg`): a tree
with a mini view inside every internal node (:class:`TreePictures`, drawn by :func:`tree_svg`;
the neighbourhood of this step's node when the whole tree does not fit), AdaBoost's path of
stumps (:func:`path_pictures`) and the panel shown before there is anything to draw
(:func:`message_svg`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from boostcore.datasets import Dataset
from boostcore.oblique import ObliqueTree
from boostcore.realboost import Additive
from ui import theme
from ui.svg import (
    EDGE,
    NODE_LINE,
    SMALL,
    baseline,
    document,
    plate_label,
    text_box,
    text_tag,
    text_width,
    tidy_layout,
    widest,
)
from ui.text import YOURS

from .positions import Shown, describe, short
from .regions import polylines

MINI_POINTS = 50  # examples drawn in a mini view
MINI_GRID = 26


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
    w, h = text_box(b.lines, font)
    if b.kind == "mini":
        mw, mh = _mini_size(font)
        w = max(w, mw + 10)
        h += mh + 4
    return w, h


def tree_svg(boxes: dict[int, _Box], root: int, *, font: float, title: str = "") -> str:
    """A tidy layered layout of ``boxes`` as SVG at its natural size (``width``/``height``
    attributes in pixels): leaves side by side, each parent centred over its children."""
    hgap, vgap = 8.0, font * 2.1
    sizes = {n: _box_size(b, font) for n, b in boxes.items()}
    room = {
        n: max(sizes[n][0], text_width(b.edge_label, font, size=SMALL, pad=18))
        for n, b in boxes.items()
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
    width = max(lay.width, text_width(title, font, pad=12) if title else 0)
    parts = []
    if title:
        parts.append(text_tag(title, 4, font * 1.05, attrs=' font-weight="600"'))
    for n in order:
        b = boxes[n]
        if n == root or b.parent not in boxes:
            continue
        p = b.parent
        x0, y0 = x[p], y_top[depth[p]] + sizes[p][1]
        x1, y1 = x[n], y_top[depth[n]]
        colour = theme.HIGHLIGHT if b.edge_hot else EDGE
        wdt = 2.2 if b.edge_hot else 1.1
        parts.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="{colour}" stroke-width="{wdt}"/>'
        )
        if b.edge_label:
            lx, ly = x0 + 0.72 * (x1 - x0), y0 + 0.72 * (y1 - y0) + font * 0.3
            # text on its 90 % white plate over the edge (#777777 alone was 4.48 : 1)
            ink = theme.ink(colour, theme.composite("rgba(255,255,255,0.9)", colour))
            parts.append(
                plate_label(
                    b.edge_label,
                    lx,
                    ly,
                    font,
                    size=SMALL,
                    top=0.9,
                    height=1.15,
                    digits=1,
                    plate=' fill="white" opacity="0.9"',
                    ink=f' text-anchor="middle" font-size="{font * SMALL:.1f}" fill="{ink}"',
                )
            )
    mw, mh = _mini_size(font)
    for n in order:
        b = boxes[n]
        w, h = sizes[n]
        cx, ty = x[n], y_top[depth[n]]
        stroke = theme.HIGHLIGHT if b.hot else NODE_LINE
        sw = 3 if b.hot else 1
        dash = ' stroke-dasharray="4 3"' if b.kind == "collapsed" else ""
        rx = 12 if b.kind == "leaf" else 5
        parts.append(
            f'<rect x="{cx - w / 2:.1f}" y="{ty:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="{rx}" fill="{b.fill}" stroke="{stroke}" '
            f'stroke-width="{sw}"{dash}/>'
        )
        # the lines below the first step from its baseline (not ui.svg.baseline(ty, i, …):
        # that sum rounds differently, and the pictures keep their bytes)
        yy = baseline(ty, 0, font)
        for i, line in enumerate(b.lines[:1] if b.kind == "mini" else b.lines):
            weight = ' font-weight="600"' if i == 0 else ""
            parts.append(
                text_tag(
                    line, cx, yy + font * 1.2 * i, attrs=f' text-anchor="middle"{weight}', digits=1
                )
            )
        if b.kind == "mini":
            my = ty + 5 + font * 1.2 + 2
            parts.append(f'<g transform="translate({cx - mw / 2:.1f},{my:.1f})">{b.mini}</g>')
            for i, line in enumerate(b.lines[1:]):
                parts.append(
                    text_tag(
                        line,
                        cx,
                        my + mh + font * (1.0 + 1.2 * i),
                        attrs=' text-anchor="middle"',
                        digits=1,
                    )
                )
    return document(width, height, font, parts)


def message_svg(lines: Sequence[str], *, font: float, title: str = "") -> str:
    """A panel that says what will appear (and when) before there is anything to draw."""
    width = widest([title, *lines], font) + 28
    height = (len(lines) + (1.6 if title else 0)) * font * 1.35 + 24
    parts = [
        # the panel's outline is all there is of the picture to come: a graphic (3 : 1 on
        # the card and on its fill; #999999 was 2.85 and 2.66)
        f'<rect x="1" y="1" width="{width - 2:.0f}" height="{height - 2:.0f}" rx="8" '
        f'fill="#F7F7F9" stroke="{theme.NEUTRAL}" stroke-dasharray="5 4"/>',
    ]
    y = 12 + font
    if title:
        parts.append(text_tag(title, 14, y, attrs=' font-weight="600"'))
        y += font * 1.6
    for line in lines:
        parts.append(text_tag(line, 14, y))
        y += font * 1.35
    return document(width, height, font, parts)


class TreePictures:
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
            sx, sy = polylines(gx, gy, fv, 6)
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
                            text_tag(
                                mark,
                                qa[0],
                                qb[0] + font * 0.35,
                                attrs=f' text-anchor="middle" font-size="{font * SMALL:.1f}" '
                                'fill="#555555" stroke="white" stroke-width="2.5" '
                                'paint-order="stroke" opacity="0.65"',
                            )
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
            return f"split on {short(self.ds.feature_names[sep.hyps[0].feature], 10)}"
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
        (t, f"h{t + 1} = {describe(model.hyps[t], names)}   α {model.alphas[t]:.3f}", lo <= t < hi)
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
    bw = widest((s for _, s, _, _ in lines), font) + 18
    bh = font * 1.2 + 10
    gap = font * 0.9
    width = bw + 8
    height = len(lines) * (bh + gap) - gap + 8
    parts = []
    cx = width / 2
    for k in range(len(lines) - 1):
        y0 = 4 + k * (bh + gap) + bh
        parts.append(
            f'<line x1="{cx:.1f}" y1="{y0:.1f}" x2="{cx:.1f}" y2="{y0 + gap:.1f}" '
            f'stroke="{EDGE}" stroke-width="1.2"/>'
        )
    for k, (kind, text, hot, dashed) in enumerate(lines):
        y = 4 + k * (bh + gap)
        fill = {"start": "#F2F2F2", "end": "#F2F2F2", "collapsed": "#FAFAFA"}.get(kind, "#FFFFFF")
        stroke = theme.HIGHLIGHT if hot else NODE_LINE
        dash = ' stroke-dasharray="4 3"' if dashed else ""
        parts.append(
            f'<rect x="4" y="{y:.1f}" width="{bw:.1f}" height="{bh:.1f}" rx="5" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{3 if hot else 1}"{dash}/>'
        )
        weight = ' font-weight="600"' if kind in ("start", "end") else ""
        parts.append(
            text_tag(
                text, cx, baseline(y, 0, font), attrs=f' text-anchor="middle"{weight}', digits=1
            )
        )
    return document(width, height, font, parts)
