"""The structure view's pictures, drawn with :mod:`.drawing`: the chain as a grid of stump
boxes, the tree as a tidy tree, the matryoshka's dolls as boxes holding their own trees
(:func:`structure_pictures`, from the most to the least detailed picture)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boostcore.probabilistic import Chain, ProbStep, ProbTree, SoftStump
from ui import theme
from ui.svg import FIT_W, choose, fits

from .drawing import (
    GHOST_FILL,
    STUMP_FILL,
    Box,
    Pic,
    TNode,
    box_parts,
    box_size,
    layout,
    stump_label,
    svg,
)
from .regions import newest_stump

DOLL_FILL = ["#F6F3FA", "#ECE6F4", "#E2DAEE", "#D8CEE8", "#CEC2E2"]


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


def doll_depth(tree: ProbTree) -> int:
    """How deep dolls nest inside ``tree`` (0: only stumps)."""
    return max((1 + doll_depth(c) for c in tree.classifier if isinstance(c, ProbTree)), default=0)


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
    depth = doll_depth(model)
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
            if fits(pictures[-1]):  # fits every panel: nothing less detailed is needed
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
    size = [box_size(b, font) for b in boxes]
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
                fw, fh = box_size(folded, font)
                width = max(width, fw)
                parts += box_parts(folded, 0, 0, width, fh, font)
                y = fh + gap
            for k in range(start, T):
                r, c = divmod(k - start, cols)
                parts += box_parts(boxes[k], c * (bw + gap), y + r * (bh + gap), bw, bh, font)
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
            if fits(pictures[-1]):
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
