"""The curves view of /topdown: ``I(T)``, the errors and the bounds against ``|T|``, the whole
run faint and the rounds up to this one solid (:func:`topdown_curves`; the sparkline too), the
bounds that use γ̂ in pieces where γ̂ fell (:func:`gamma_falls`), and the curves' names as
plotly draws them. Pure functions (no Streamlit)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boostcore.bounds import e_gamma, phi_gamma, size_bound
from boostcore.topdown import TreeStep
from ui import theme
from ui.figures import FAINT, curves_layout, figure_dict

#: The curves' names as plotly draws them (<sup>/<sub>, not carets: issue 25, item 10).
POWER = "|T|<sup>−γ̂</sup>"
E_BOUND = "e<sub>γ̂</sub>(|T|)"
PHI_T = "φ<sub>γ̂</sub>(|T|)"
THM4 = "★ Thm 4: s<sup>−γ̂</sup>"
THM4_REF = "★ s<sup>−γ̂</sup> (ref.)"
PHI_S = "★ φ<sub>γ̂</sub>(s)"


def gamma(m) -> float:
    """The γ̂ a snapshot's bounds use: the measured one clipped to [0, 1], 0 before any split
    (as ``boostcore.topdown`` computes ``bound_e``, ``bound_power``, ``bound_phi``)."""
    g = m.gamma_hat
    return 0.0 if not np.isfinite(g) else min(max(float(g), 0.0), 1.0)


def gamma_falls(steps: Sequence[TreeStep]) -> list[int]:
    """The rounds at which γ̂ fell: ``γ̂_t < γ̂_{t−1}`` with both measured (round 0 has none).

    The curves ``e_γ̂(|T|)``, ``|T|^−γ̂`` and ``φ_γ̂(|T|)`` use the smallest advantage so far
    (Hatano 2004, Theorem 4; Mansour & McAllester 2002, Theorem 3.2; docs/theory.md §1.2), so
    at such a round they jump up: the bound of the grown tree is weaker, not the tree worse.
    """
    gs = [s.metrics.gamma_hat for s in steps]
    return [
        t
        for t in range(1, len(gs))
        if np.isfinite(gs[t - 1]) and np.isfinite(gs[t]) and gs[t] < gs[t - 1] - 1e-12
    ]


def _pieces(
    steps: Sequence[TreeStep], upto: int, bound: Callable[[int, float], float]
) -> tuple[list[float], list[float], list[float], list[float]]:
    """A γ̂-bound over rounds ``0 … upto`` drawn as what it is: each piece uses one γ̂. Where γ̂
    fell (round ``t``'s split had a smaller advantage), the line breaks at the tree it split
    (``|T_{t−1}|``) and goes on from that tree's bound with the new γ̂ — still a bound there,
    only weaker — so every point drawn bounds its tree. Returns the line's x, y (NaN at the
    breaks) and the vertical connectors' x, y (NaN-separated)."""
    x: list[float] = []
    y: list[float] = []
    cx: list[float] = []
    cy: list[float] = []
    falls = set(gamma_falls(steps[: upto + 1]))
    for t, s in enumerate(steps[: upto + 1]):
        n = int(s.metrics.n_leaves)
        g = gamma(s.metrics)
        if t in falls:
            n0 = int(steps[t - 1].metrics.n_leaves)
            before, after = (float(bound(n0, v)) for v in (gamma(steps[t - 1].metrics), g))
            x += [np.nan, n0]
            y += [np.nan, after]
            cx += [n0, n0, np.nan]
            cy += [before, after, np.nan]
        x.append(n)
        y.append(float(bound(n, g)))
    return x, y, cx, cy


def topdown_curves(
    steps: Sequence[TreeStep],
    t: int,
    *,
    size: int,
    show_mm: bool,
    final_is_theorem: bool,
    font: float = 12,
    small: bool = False,
):
    """``I(T)``, training/test error and the bounds against ``|T|``: the whole run faint, the
    rounds up to ``t`` solid, a marker at round ``t``. Lines are named at their right ends
    (:func:`ui.figures.end_labels`). The bounds that use γ̂ are drawn in pieces, one per value
    of γ̂, with a dotted connector where γ̂ fell and, at the last fall up to round ``t``, a
    note on the plot that says so (:func:`gamma_falls`).
    """
    t = min(t, len(steps) - 1)
    allm = [s.metrics for s in steps]
    n_all = np.array([m.n_leaves for m in allm])
    data: list[dict] = []
    # (name, colour, dash, width, value per snapshot, the bound as a function of (|T|, γ̂))
    series: list[tuple[str, str, str, float, Callable[[Any], Any], Any]] = [
        (POWER, theme.BOUND["power"], "dot", 2, lambda m: m.bound_power, size_bound),
        (E_BOUND, theme.BOUND["e"], "dash", 2, lambda m: m.bound_e, e_gamma),
    ]
    if allm[-1].binary_guarantee:
        # a binary max-weight run: Hatano's game value bounds I(T) at every round, tighter
        # than e_γ̂ (a multi-way or largest-gain run has no such per-round theorem)
        series.append((PHI_T, theme.BOUND["phi"], "dashdot", 2, lambda m: m.bound_phi, phi_gamma))
    series += [
        ("I(T)", theme.MEASURED["index"], "solid", 2.5, lambda m: m.index_value, None),
        ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error, None),
    ]
    if allm[-1].test_error is not None and not small:
        series.append(
            ("test error", theme.MEASURED["test"], "solid", 1.5, lambda m: m.test_error, None)
        )
    if small:
        series = [s for s in series if s[0] in ("I(T)", "train error", E_BOUND)]
    for name, colour, dash, width, get, bound in series:
        y = np.array([np.nan if get(m) is None else get(m) for m in allm], dtype=float)
        line = dict(color=colour, dash=dash, width=width)
        if bound is None:
            faint_xy = (n_all, y)
            solid_xy = (n_all[: t + 1], y[: t + 1])
        else:
            fx, fy, fcx, fcy = _pieces(steps, len(steps) - 1, bound)
            sx, sy, scx, scy = _pieces(steps, t, bound)
            faint_xy, solid_xy = (fx, fy), (sx, sy)
        data.append(
            dict(
                type="scatter",
                x=faint_xy[0],
                y=faint_xy[1],
                mode="lines",
                name=name,
                showlegend=False,
                opacity=FAINT,
                hoverinfo="skip",
                line=line,
            )
        )
        data.append(
            dict(
                type="scatter",
                x=solid_xy[0],
                y=solid_xy[1],
                mode="lines",
                name=name,
                legendgroup=name,
                line=line,
                hovertemplate=f"{name}<br>|T| = %{{x}}: %{{y:.4f}}<extra></extra>",
            )
        )
        data.append(
            dict(
                type="scatter",
                x=[n_all[t]],
                y=[y[t]],
                mode="markers",
                name=name,
                showlegend=False,
                legendgroup=name,
                hoverinfo="skip",
                marker=dict(
                    color=colour, size=9 if not small else 6, line=dict(color="white", width=1)
                ),
            )
        )
        if bound is not None:  # where γ̂ fell: a dotted step, faint for the whole run
            for cx, cy, opacity in ((fcx, fcy, FAINT), (scx, scy, 1.0)):
                data.append(
                    dict(
                        type="scatter",
                        x=cx,
                        y=cy,
                        mode="lines",
                        name=f"{name}: γ̂ fell",
                        showlegend=False,
                        opacity=opacity,
                        hoverinfo="skip",
                        line=dict(color=colour, dash="dot", width=1.5),
                    )
                )
    labels = []
    for name, colour, _dash, _width, get, _bound in [] if small else series:
        y_last = _last_finite([get(m) for m in allm])
        if y_last is not None:
            labels.append((name, colour, y_last))
    g = allm[t].gamma_hat
    if not small and np.isfinite(g):
        g = min(max(g, 0.0), 1.0)
        ref = "" if final_is_theorem else " (ref.)"
        # Theorem 4's s^−γ̂, and the tighter φ_γ̂(s) ≤ s^−γ̂ that Hatano's proof gives
        for name, value, colour, what in (
            (
                THM4 if final_is_theorem else THM4_REF,
                size_bound(size, g),
                theme.BOUND["final"],
                "s<sup>−γ̂</sup>|final-tree bound",
            ),
            (
                f"{PHI_S}{ref}",
                phi_gamma(size, g),
                theme.BOUND["phi"],
                "φ<sub>γ̂</sub>(s)|final-tree bound of Hatano's proof",
            ),
        ):
            label, extra = what.split("|")
            data.append(
                dict(
                    type="scatter",
                    x=[size],
                    y=[float(value)],
                    mode="markers",
                    name=name,
                    marker=dict(symbol="star", size=13, color=colour),
                    hovertemplate=f"{label} = %{{y:.4f}}<extra>{extra}</extra>",
                )
            )
            labels.append((name, colour, float(value)))
    final = allm[-1]
    if not small and show_mm and final.bound_mm is not None:
        # Mansour–McAllester's Theorem 4.1 bounds the *final* tree only (an intermediate
        # tree can lie above e_γ(|T|)): a marker at the run's last size, as Theorem 4's ★
        # short labels: they sit in the plot's right margin (the caption under the curves
        # says whether the run is γ-boosting, i.e. whether this is their theorem's bound)
        mm = "◆ MM e<sub>γ</sub>(|T|)" if final.mm_gamma_boosting else "◆ e<sub>γ</sub>(|T|) (ref.)"
        data.append(
            dict(
                type="scatter",
                x=[final.n_leaves],
                y=[final.bound_mm],
                mode="markers",
                name=mm,
                marker=dict(symbol="diamond", size=12, color=theme.BOUND["mm"]),
                hovertemplate="e<sub>γ</sub>(|T|) = %{y:.4f}"
                "<extra>Mansour–McAllester, final tree</extra>",
            )
        )
        labels.append((mm, theme.BOUND["mm"], float(final.bound_mm)))
    # the names kept first if a small plot cannot hold them all: the measured curves, then
    # Theorem 4's ★ and the bounds at every round (end_labels leaves out the last)
    first = ("I(T)", "train error", THM4, THM4_REF, E_BOUND, POWER, "test error")
    labels.sort(key=lambda lab: first.index(lab[0]) if lab[0] in first else len(first))
    notes = [] if small else _fall_note(steps, t, font=font, size=size)
    # room for the longest label, but never more than a third of a narrow (300 px) plot
    layout = curves_layout(
        labels,
        font=font,
        small=small,
        x_range=(0.5, size + 0.5),
        x_title="leaves |T|",
        most_right=110 * font / 12,
        annotations=notes,
        shapes=[
            dict(
                type="line",
                xref="x",
                yref="paper",
                x0=int(n_all[t]),
                x1=int(n_all[t]),
                y0=0,
                y1=1,
                line=dict(color="#888888", width=1, dash="dot"),
            )
        ],
    )
    return figure_dict(data, layout)


def _fall_note(steps: Sequence[TreeStep], t: int, *, font: float, size: int) -> list[dict]:
    """At the last round ``≤ t`` where γ̂ fell, a note on the plot, pointing at the foot of
    ``e_γ̂``'s step: "γ̂ fell to … here" (issue 25, item 9); nothing before the first fall."""
    falls = gamma_falls(steps[: t + 1])
    if not falls:
        return []
    r = falls[-1]
    m, before = steps[r].metrics, steps[r - 1].metrics
    n = int(before.n_leaves)  # the step is drawn at the tree round r split
    foot = float(e_gamma(n, gamma(before)))
    # two short lines beside the step, on the side of the plot with more room, so that they
    # stay inside it: the end labels are right of the plot (a note right of a step at 47 % ran
    # into e_γ̂(|T|)'s label on a projector beside the quiz; issue 39, item 8)
    right_half = n > (size + 1) / 2
    return [
        dict(
            xref="x",
            yref="y",
            x=n,
            y=foot,
            text=f"γ̂ fell<br>to {m.gamma_hat:.2g}",
            hovertext=(
                f"At round {r} γ̂ fell from {before.gamma_hat:.3g} to {m.gamma_hat:.3g}: the "
                "dashed bounds use γ̂, the smallest advantage of the splits so far (0 once a "
                "leaf that holds both classes cannot be split), so they step up here. The tree "
                "did not get worse; its guarantee did."
            ),
            showarrow=True,
            arrowhead=0,
            arrowwidth=1,
            arrowcolor=theme.BOUND["e"],
            ax=-18 if right_half else 18,
            ay=round(1.8 * font),
            xanchor="right" if right_half else "left",
            align="right" if right_half else "left",
            # text: e_γ's vermillion darkened to 4.5 : 1 (#D55E00 is 3.87 on white)
            font=dict(size=font - 1, color=theme.ink(theme.BOUND["e"])),
            bgcolor="rgba(255,255,255,0.85)",
        )
    ]


def _last_finite(values) -> float | None:
    for v in reversed(values):
        if v is not None and np.isfinite(v):
            return float(v)
    return None
