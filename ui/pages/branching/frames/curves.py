"""The curves view of /branching (``Π H(Y|h_t) ≥ Π Z_t ≥`` training error above ``|L_t|``,
with its note) and Theorem 3 per round (:func:`c_round_figure`, :func:`c_round_note`, and
:func:`c_round_frames`, cached with ``ui.cache.shared``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import numpy as np

from boostcore import steps as protocol
from boostcore.branching import STEP, BPStep, round_bands
from boostcore.datasets import Dataset
from ui import theme
from ui.cache import shared
from ui.figures import (
    FAINT,
    LABEL_GAP_PX,
    VIEW_MIN_PX,
    curves_layout,
    end_labels,
    end_leaders,
    plot_height,
)
from ui.text import notation

from .. import runs as branching_runs
from .program import never, program_rounds
from .regions import spec

#: The curves' names as drawn (plotly's sub/superscripts; issue 39, item 9: "Π Z_t" was raw).
PROD_H = notation("Π H(Y|h_t)")
PROD_Z = notation("Π Z_t")
LEAVES = notation("|L_t|")
#: The names of the Theorem 3 chart (:func:`c_round_figure`).
C_BOUND = notation("bound 1 − cγ_t")
C_LEAVES_H = notation("H(Y|ℓ_t)")


# ----------------------------------------------------------------------------- curves
def curves_figure(run: Sequence[BPStep], t: int, *, font: float = 12, small: bool = False) -> dict:
    """``Π H(Y|h_t) ≥ Π Z_t ≥`` training error (Theorem 1) and the test error against the
    round ``0 … T`` (log scale; at round 0 both products are 1 and the error is that of
    ``F_0 = 0``), above ``|L_t|``: the whole run faint, the rounds up to ``t`` solid, a
    marker at round ``t``. Lines are named at their right ends. Only traces change from
    round to round (the layout is sent once)."""
    done = protocol.rounds(run)
    cur = min(t, len(done) - 1)  # rounds are 0 … T: the index is the round
    x = np.array([s.t for s in done], dtype=float)
    ms = [s.metrics for s in done]
    n_max = max(int(x[-1]), 1)
    series = [
        (PROD_H, theme.BOUND["power"], "dot", 2.0, lambda m: m.prod_H_h),
        (PROD_Z, theme.BOUND["e"], "dash", 2.2, lambda m: m.bound_prod_Z),
        ("train error", theme.MEASURED["train"], "solid", 2.5, lambda m: m.train_error),
    ]
    if ms and ms[-1].test_error is not None and not small:
        series.append(("test error", theme.MEASURED["test"], "solid", 1.6, lambda m: m.test_error))
    if small:
        series = series[1:3]
    ys = {
        name: np.array(
            [np.nan if get(m) is None or get(m) <= 0 else get(m) for m in ms], dtype=float
        )
        for name, *_, get in series
    }
    finite = np.concatenate([y[np.isfinite(y)] for y in ys.values()] or [np.zeros(0)])
    low = max(float(np.floor(np.log10(finite.min()))) if finite.size else -2.0, -6.0)
    leaves = np.array([m.n_leaves for m in ms], dtype=float)
    top_leaves = float(np.log10(max(leaves.max() if leaves.size else 2, 2))) + 0.15
    panels = [(name, colour, dash, width, ys[name], "y") for name, colour, dash, width, _ in series]
    if not small:
        panels.append((LEAVES, theme.NEUTRAL, "solid", 2.0, leaves, "y2"))
    data: list[dict] = []
    for name, colour, dash, width, y, axis in panels:  # the whole run, faint: the same always
        data.append(
            dict(
                type="scatter",
                x=x,
                y=y,
                mode="lines",
                name=name,
                yaxis=axis,
                showlegend=False,
                opacity=FAINT,
                hoverinfo="skip",
                line=dict(color=colour, dash=dash, width=width),
            )
        )
    k = cur + 1
    for name, colour, dash, width, y, axis in panels:  # up to this round, solid
        data.append(
            dict(
                type="scatter",
                x0=float(x[0]) if k else 1.0,
                dx=1.0,
                y=y[:k].astype(np.float32),
                mode="lines",
                name=name,
                yaxis=axis,
                showlegend=False,
                line=dict(color=colour, dash=dash, width=width),
                hovertemplate=f"{name}<br>round %{{x}}: %{{y:.4g}}<extra></extra>",
            )
        )
    for axis in ("y", "y2") if not small else ("y",):  # this round: markers and a cursor
        here = [(colour, y) for _, colour, _, _, y, ax in panels if ax == axis]
        data.append(
            dict(
                type="scatter",
                mode="markers",
                yaxis=axis,
                showlegend=False,
                hoverinfo="skip",
                x=np.full(len(here), x[cur]) if cur >= 0 else [],
                y=np.array([y[cur] for _, y in here]) if cur >= 0 else [],
                marker=dict(
                    color=[c for c, _ in here],
                    size=6 if small else 9,
                    line=dict(color="white", width=1),
                ),
            )
        )
        span = [10.0**low, 10.0**0.05] if axis == "y" else [1.0, 10.0**top_leaves]
        data.append(
            dict(
                type="scatter",
                mode="lines",
                yaxis=axis,
                showlegend=False,
                hoverinfo="skip",
                x=[float(x[cur])] * 2 if cur >= 0 else [],
                y=span if cur >= 0 else [],
                line=dict(color="#888888", width=1, dash="dot"),
            )
        )
    labels = [
        (name, colour, float(y[np.isfinite(y)][-1]))
        for name, colour, _, _, y, axis in panels
        if axis == "y" and np.isfinite(y).any()
    ]
    notes = []
    if len(done) == 1:  # the run never got a round: say why
        notes.append(
            dict(
                xref="paper",
                yref="paper",
                x=0.5,
                y=0.6,
                showarrow=False,
                text="No round: " + escape(protocol.stop_reason(run) or ""),
                font=dict(size=font, color="#555555"),
            )
        )
    layout = curves_layout(
        [] if small else labels,
        font=font,
        small=small,
        x_range=(-0.5, n_max + 0.5),
        x_title="round t",
        y_range=(low, 0.05),
        # short: in the upper panel's height a title of 17 characters at 22 px ran out of
        # a 1080p projector's chart, "value (log scale" (issue 39, item 8)
        y_title="log scale",
        log=True,
        annotations=notes,
        xaxis=dict(anchor="y" if small else "y2"),
        # the upper panel holds four end labels, two with a subscript (drawn larger in
        # presenter mode: ui/figures.py, SUP_EM) at the smallest height; the leaves' below
        yaxis=dict(domain=[0.0, 1.0] if small else [0.31, 1.0]),
    )
    if not small:
        # ticks at 1, 2, 4, 8 … up to the most leaves (dtick=1 on a log axis gave '1' alone
        # below 10 leaves: issue 25, 8)
        most = max(leaves.max() if leaves.size else 2, 2)
        ticks = [2**k for k in range(int(math.log2(most)) + 1)]
        layout["yaxis2"] = dict(
            type="log",
            range=[0, top_leaves],
            gridcolor="#eeeeee",
            tickmode="array",
            tickvals=ticks,
            ticktext=[str(v) for v in ticks],
            domain=[0.0, 0.22],
            automargin=True,
            title=dict(text=LEAVES, standoff=4),
        )
    return spec(data, layout)


def curves_note(run: Sequence[BPStep], t: int) -> str:
    """The curves' note at round ``t``: what bounds what, and the smoothing of pure leaves so
    far."""
    if t == 0:
        return notation(
            "Round 0: no stump yet, so Π Z_t = Π H(Y|h_t) = 1 (empty products); F_0 = 0 "
            "predicts −1 everywhere."
        )
    smoothed = [s for s in program_rounds(run, t) if s.metrics.smoothing_excess > 0]
    if smoothed:
        total = sum(s.metrics.smoothing_excess for s in smoothed)
        # one line: the proof card under the curves says the rest (its ⚠ line)
        return notation(
            f"Pure leaves smoothed in {len(smoothed)} round(s) (Z_t +{total:.4f}): Π Z_t may "
            "pass Π H(Y|h_t), yet bounds the error."
        )
    return notation(
        "Theorem 1: train error ≤ Π Z_t ≤ Π H(Y|h_t). Faint: the whole run; solid: up to "
        "this round; below: the leaves |L_t| that training points reach."
    )


# ------------------------------------------------------------------- Theorem 3 per round
def _first_jump(cs: Sequence[float], values: Sequence[float], up: bool, tol: float):
    """The first neighbouring pair of ``cs`` where ``values`` rises (``up``) or falls."""
    for i in range(len(values) - 1):
        d = values[i + 1] - values[i]
        if (d > tol) if up else (d < -tol):
            return cs[i], cs[i + 1], values[i], values[i + 1]
    return None


def no_round(run: Sequence[BPStep]) -> str:
    """What a round-0 panel says where there is nothing to merge or plot yet (and, for a run
    that never got a round, why)."""
    return "Round 0: the initial model; no stump has divided the root yet." + never(run)


def c_round_figure(
    step: BPStep, bands: Sequence, c: float, *, font: float = 12, why: str = ""
) -> dict:
    """Theorem 3 at the round of ``step``: its ``D_t`` and divided children merged by the
    bands of every ``c`` (``bands``, from :func:`boostcore.branching.round_bands`).

    Top: ``H_{D_t}(Y|ℓ_t)`` against ``c`` (measured, solid) under the theorem's bound
    ``1 − cγ_t`` (dashed), between the divided leaves' ``1 − γ_t`` (no merging) and
    ``H(Y|h_t)`` (merge all). Below: ``|L_t|`` against the bound ``4K`` (log scale). The
    ``c`` of the run is marked. Round 0 (no children yet) shows ``why`` (default: the
    snapshot's message) instead."""
    if step.kind != STEP or not bands:
        return spec(
            [],
            dict(
                margin=dict(l=10, r=10, t=8, b=10),
                plot_bgcolor="white",
                font=dict(size=font),
                xaxis=dict(visible=False),
                yaxis=dict(visible=False),
                annotations=[
                    dict(
                        xref="paper",
                        yref="paper",
                        x=0.5,
                        y=0.5,
                        showarrow=False,
                        text=notation(escape(why or step.message)),
                        font=dict(size=font, color="#555555"),
                    )
                ],
            ),
        )
    m = step.metrics
    g = m.gamma
    cs = np.array([b.c for b in bands])
    H = np.array([b.H_leaves for b in bands])
    L = np.array([b.n_leaves for b in bands], dtype=float)
    K4 = np.array([b.max_leaves for b in bands], dtype=float)
    here = int(np.argmin(np.abs(cs - c)))
    # plain lists: 19 exact numbers each (a typed array would round them to float32)
    xs, Hs, Ls, K4s = cs.tolist(), H.tolist(), L.tolist(), K4.tolist()
    span = max(g, 1e-6)
    lo, hi = 1.0 - g - 0.08 * span, max(1.0, m.H_h) + 0.08 * span
    top_l = float(np.log10(max(K4.max(), L.max(), 2.0) * 1.6))
    bound, divided, merge_all = theme.BOUND["final"], theme.NEUTRAL, "#555555"
    data = [
        dict(
            type="scatter",
            mode="lines",
            x=[0.0, 1.0],
            y=[1.0, 1.0 - g],
            yaxis="y",
            name=C_BOUND,
            line=dict(color=bound, dash="dash", width=2),
            hovertemplate=notation("Theorem 3: H ≤ 1 − cγ_t<extra></extra>"),
        ),
        dict(
            type="scatter",
            mode="lines",
            x=[0.0, 1.0],
            y=[m.H_h, m.H_h],
            yaxis="y",
            name="merge all",
            line=dict(color=merge_all, dash="dot", width=1.5),
            hovertemplate=notation(f"merge all: H(Y|h_t) = {m.H_h:.4f}") + "<extra></extra>",
        ),
        dict(
            type="scatter",
            mode="lines",
            x=[0.0, 1.0],
            y=[1.0 - g, 1.0 - g],
            yaxis="y",
            name="no merging",
            line=dict(color=divided, dash="dashdot", width=1.5),
            hovertemplate=notation(f"no merging: H(Y|ℓ̃_t) = 1 − γ_t = {1 - g:.4f}")
            + "<extra></extra>",
        ),
        dict(
            type="scatter",
            mode="lines+markers",
            x=xs,
            y=Hs,
            yaxis="y",
            name=C_LEAVES_H,
            line=dict(color=theme.MEASURED["index"], width=2.5),
            marker=dict(size=6),
            hovertemplate=f"c = %{{x}}: {C_LEAVES_H} = %{{y:.5f}}<extra></extra>",
        ),
        dict(
            type="scatter",
            mode="lines",
            x=xs,
            y=K4s,
            yaxis="y2",
            name="4K",
            line=dict(color=bound, dash="dash", width=2),
            customdata=[k // 4 for k in K4s],
            hovertemplate="c = %{x}: at most 4K = %{y} leaves<br>K = %{customdata} entropy "
            + notation("bands (a leaf per band, sign and side of h_t)")
            + "<extra>Theorem 3</extra>",
        ),
        dict(
            type="scatter",
            mode="lines+markers",
            x=xs,
            y=Ls,
            yaxis="y2",
            name=LEAVES,
            line=dict(color=theme.MEASURED["train"], width=2),
            marker=dict(size=6),
            hovertemplate=f"c = %{{x}}: {LEAVES} = %{{y}}<extra></extra>",
        ),
    ]
    for axis, value in (("y", H[here]), ("y2", L[here])):  # the run's c: a ring on each panel
        data.append(
            dict(
                type="scatter",
                mode="markers",
                x=[float(cs[here])],
                y=[float(value)],
                yaxis=axis,
                showlegend=False,
                hoverinfo="skip",
                marker=dict(
                    size=13, color="rgba(0,0,0,0)", line=dict(color=theme.HIGHLIGHT, width=2.5)
                ),
            )
        )
    labels = [
        (C_BOUND, bound, 1.0 - g),
        ("merge all", merge_all, m.H_h),
        ("no merging", divided, 1.0 - g - 0.02 * span),
    ]
    right = int(len("bound 1 − cγ_t") * (font - 1) * 0.6) + LABEL_GAP_PX + 12
    margin = dict(l=10, r=right, t=8, b=10)
    top_px, low_px = (
        plot_height(VIEW_MIN_PX, font=font, margin=margin, domain=d)
        for d in ((0.36, 1.0), (0.0, 0.26))
    )
    top = dict(font=font - 1, y_range=(lo, hi), plot_px=top_px)
    # the leaves panel: the measured count first (kept if the panel holds one name only);
    # "4K" says what K is where it first appears (issue 25, item 10)
    leaves_labels = [
        (LEAVES, theme.MEASURED["train"], max(float(L[-1]), 1.0)),
        ("4K (K bands)", bound, float(K4[-1])),
    ]
    low = dict(font=font - 1, y_range=(0.0, top_l), plot_px=low_px, log=True, yref="y2")
    annotations = end_labels(labels, **top) + end_labels(leaves_labels, **low)
    leaders = end_leaders(labels, **top) + end_leaders(leaves_labels, **low)
    annotations.append(
        dict(
            xref="x",
            yref="y",
            x=float(cs[here]),
            y=float(H[here]),
            text=f"the run's c = {cs[here]:g}",
            showarrow=False,
            yshift=14,
            font=dict(size=font - 1, color=theme.HIGHLIGHT),
        )
    )
    layout = dict(
        margin=margin,
        plot_bgcolor="white",
        font=dict(size=font),
        showlegend=False,
        uirevision="c_round",
        annotations=annotations,
        shapes=leaders,
        xaxis=dict(
            range=[0, 1],
            dtick=0.1,
            gridcolor="#eeeeee",
            anchor="y2",
            automargin=True,
            title=dict(text=notation("c (the same D_t and h_t for every c)"), standoff=4),
        ),
        yaxis=dict(
            range=[lo, hi],
            gridcolor="#eeeeee",
            domain=[0.36, 1.0],
            automargin=True,
            tickformat=".3f",
            title=dict(text=notation("H(Y|ℓ_t) under D_t"), standoff=4),
        ),
        yaxis2=dict(
            type="log",
            range=[0, top_l],
            gridcolor="#eeeeee",
            dtick=1,
            domain=[0.0, 0.26],
            automargin=True,
            title=dict(text="leaves", standoff=4),
        ),
    )
    return spec(data, layout)


def c_round_note(step: BPStep, bands: Sequence, c: float, *, why: str = "") -> str:
    """What Theorem 3 says at this round, and what the re-merged children show (``why``, or
    the snapshot's message, at round 0)."""
    if step.kind != STEP or not bands:
        return notation(why or step.message)
    m = step.metrics
    cs = [b.c for b in bands]
    head = (
        f"Round {step.t} (D_t and h_t of the run with c = {c:g}; γ_t = {m.gamma:.4f}): "
        "for every c, 1 − γ_t ≤ H(Y|ℓ_t) ≤ 1 − cγ_t and |L_t| ≤ 4K, K the number of "
        "entropy bands of that c (Theorem 3). "
    )
    rise = _first_jump(cs, [b.H_leaves for b in bands], True, 1e-12)
    fall = _first_jump(cs, [b.n_leaves for b in bands], False, 0)
    found = []
    if rise:
        found.append(
            f"H(Y|ℓ_t) rises from c = {rise[0]:g} to {rise[1]:g} ({rise[2]:.4f} → {rise[3]:.4f})"
        )
    if fall:
        found.append(f"|L_t| falls from c = {fall[0]:g} to {fall[1]:g} ({fall[2]} → {fall[3]})")
    if found:
        return notation(
            head + "Here " + " and ".join(found) + ": the bands of different c are not nested."
        )
    return notation(
        head + "Here H(Y|ℓ_t) does not rise and |L_t| does not fall as c grows; the "
        "theorem does not promise that (the bands of different c are not nested)."
    )


@shared
def c_round_frames(
    _ds: Dataset,
    ds_key: str,
    n_rounds: int,
    c: float,
    weak_learner: str,
    font: float,
    choices: tuple = (),
) -> dict:
    """Theorem 3 per round for the BP.InfoBoost run with ``c`` (cached): ``{"frames",
    "notes", "n"}``, one per round ``t = 0 … T`` of that run (round 0 has no children).
    ``choices``: a student's stumps for the run's first rounds (:func:`.runs.bp_run`)."""
    from ui import lecture

    run = branching_runs.bp_run(_ds, ds_key, n_rounds, "bands", c, weak_learner, choices)
    per_snapshot = (
        tuple(round_bands(s, branching_runs.C_GRID) for s in run)
        if choices
        else branching_runs.bp_c_rounds(_ds, ds_key, n_rounds, c, weak_learner)
    )
    rounds = protocol.rounds(run)
    pairs = list(zip(rounds, per_snapshot))
    why = no_round(run) + " Theorem 3 speaks of a round's divided children: step to round 1."
    return {
        "frames": lecture.plotly_frames(
            [c_round_figure(s, b, c, font=font, why=why) for s, b in pairs]
        ),
        "notes": [c_round_note(s, b, c, why=why) for s, b in pairs],
        "n": len(rounds),
    }
