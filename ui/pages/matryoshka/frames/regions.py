"""The regions view: ``P(H(x) > 0)`` of every snapshot on a coarse grid (:func:`q_grids`,
:func:`quantise`, :func:`shrink`), the points and the newest soft stump drawn over it
(:func:`regions_figure`)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np

from boostcore.datasets import Dataset
from boostcore.probabilistic import Chain, ProbStep, ProbTree, SoftStump
from ui import theme
from ui.figures import points_traces, regions_layout

from .encoding import plain

GRID = 60  # regions heatmap resolution (GRID × GRID percent values, uint8)
SMALL_GRID = 30  # the small multiples' heatmap


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
