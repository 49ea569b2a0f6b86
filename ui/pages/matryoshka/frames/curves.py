"""The curves view: expected errors and bounds against ``T`` (:func:`curves_figure`; the
lines of each run: :func:`curve_series`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostcore import steps as protocol
from boostcore.bounds import f_tree
from boostcore.probabilistic import ProbStep
from ui import theme
from ui.figures import FAINT, curves_layout

from ..proof import is_collapsed
from .encoding import plain
from .steps import shown_index


# ================================================================================= curves
def curve_series(structure: str, steps: Sequence[ProbStep], small: bool):
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
    series = curve_series(structure, steps, small)
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
