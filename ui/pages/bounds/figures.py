"""Closed-form bound curves (bounds explorer): pure functions of parameters → plotly figures."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from boostcore import bounds
from ui import theme
from ui.figures import chart_text, plotly_figure

#: One colour per ρ of Grossmann's Fig. 2 (Okabe–Ito, each a line on white: ui.theme.LINES),
#: so a value keeps its colour everywhere.
RHO_COLOURS = theme.LINES


def _layout(xtitle: str, ytitle: str, *, xlog=False, ylog=False, height=420, **extra) -> dict:
    lay = dict(
        height=height,
        margin=dict(l=10, r=10, t=10, b=10),
        plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.18, font=dict(size=11)),
        xaxis=dict(title=dict(text=xtitle), gridcolor="#eeeeee", type="log" if xlog else "linear"),
        yaxis=dict(
            title=dict(text=ytitle),
            gridcolor="#eeeeee",
            type="log" if ylog else "linear",
            **({"dtick": 1} if ylog else {}),
        ),
    )
    lay.update(extra)
    return chart_text(lay)  # Streamlit's template would draw the ticks in a faded grey


def _line(x, y, name, colour, dash="solid", width=2.0, mode="lines") -> dict:
    return dict(
        type="scatter",
        x=np.asarray(x),
        y=np.asarray(y),
        name=name,
        mode=mode,
        line=dict(color=colour, dash=dash, width=width),
        hovertemplate=f"{name}<br>%{{x}}: %{{y:.4g}}<extra></extra>",
    )


def grossmann_fig2_left(rhos: Sequence[float], max_level: int = 16) -> go.Figure:
    """Fig. 2 left: ``ρ^T`` (dotted, lowest), ``M2(T, ρ)`` (dashed) and ``F(T, ρ)`` (solid,
    highest) against ``T = 2^L`` weak classifiers, one colour per ``ρ``."""
    levels = np.arange(0, max_level + 1)
    T = 2.0**levels
    data = []
    for i, rho in enumerate(rhos):
        c = RHO_COLOURS[i % len(RHO_COLOURS)]
        data.append(_line(T, bounds.f_tree(T, rho), f"F(T, {rho:g}) tree", c))
        data.append(_line(T, bounds.m2(levels, rho), f"M2(T, {rho:g}) matryoshka", c, "dash"))
        data.append(_line(T, rho**T, f"ρ<sup>T</sup> = {rho:g}<sup>T</sup> AdaBoost", c, "dot"))
    return plotly_figure(
        data,
        _layout(
            "T (weak classifiers)",
            "bound on expected error",
            xlog=True,
            ylog=True,
            yaxis=dict(
                type="log",
                range=[-6, 0.05],
                dtick=1,
                gridcolor="#eeeeee",
                title=dict(text="bound on expected error"),
            ),
        ),
    )


def grossmann_fig2_right(T: int, rhos: Sequence[float], show_valid: bool = True) -> go.Figure:
    """Fig. 2 right: ``F(T/T₁, F(T₁, ρ))`` against the sub-tree size ``T₁`` (the paper's tree of
    trees, solid), ``F(T, ρ)`` (dotted) and, dashed, the composition that does follow."""
    t1 = np.unique(np.geomspace(1, T, 60))
    data = []
    for i, rho in enumerate(rhos):
        c = RHO_COLOURS[i % len(RHO_COLOURS)]
        data.append(
            _line(
                t1,
                [bounds.nested_f([t, T / t], rho) for t in t1],
                f"paper: F(T/T₁, F(T₁, {rho:g}))",
                c,
            )
        )
        data.append(_line([1, T], [bounds.f_tree(T, rho)] * 2, f"F(T, {rho:g})", c, "dot", 1.5))
        if show_valid:
            data.append(
                _line(
                    t1,
                    [bounds.valid_nested_f(t, T / t, rho) for t in t1],
                    f"valid: F(T/T₁, 2√(C₁(1−C₁))), ρ = {rho:g}",
                    c,
                    "dash",
                    1.5,
                )
            )
    return plotly_figure(data, _layout("T₁ (size of each sub-tree)", "bound", xlog=True, ylog=True))


def grossmann_fig3(Ts: Sequence[int], rho: float, max_level: int = 20) -> go.Figure:
    """Fig. 3: Eq. (11), the bound with ``L`` equal nesting levels of size ``T^(1/L)``, with the
    plain tree's ``F(T, ρ)`` as a dotted line on top."""
    L = np.arange(1, max_level + 1)
    data = []
    for i, T in enumerate(Ts):
        c = RHO_COLOURS[(i + 1) % len(RHO_COLOURS)]
        data.append(
            _line(
                L,
                bounds.nested_equal(T, L, rho),
                f"T = {T}: nested, T<sup>1/L</sup> each",
                c,
                mode="lines+markers",
            )
        )
        data.append(
            _line(
                [1, max_level],
                [bounds.f_tree(T, rho)] * 2,
                f"T = {T}: plain tree F(T, ρ)",
                c,
                "dot",
                1.5,
            )
        )
    return plotly_figure(data, _layout("nesting level L", "bound (paper's claim)", ylog=True))


def split_prices(gamma: float, k_max: int = 32) -> go.Figure:
    """The price of a ``k``-way split: Hatano's ``⌈log₂ k⌉``, Mansour–McAllester's ``g_γ(k)``
    and ``ln k``."""
    k = np.arange(2, k_max + 1)
    hatano = _line(k, bounds.ceil_log2(k), "Hatano ⌈log₂ k⌉", theme.CLASS_POS, mode="lines+markers")
    hatano["line"]["shape"] = "hv"  # a step function of k
    data = [
        hatano,
        _line(
            k,
            bounds.g_gamma(k, gamma),
            f"Mansour–McAllester g_γ(k), γ = {gamma:g}",
            theme.BOUND["e"],
            "dash",
        ),
        _line(k, np.log(k), "ln k", theme.NEUTRAL, "dot"),
    ]
    return plotly_figure(data, _layout("arity k", "price of a k-way split", height=360))


def size_bounds(gamma: float, n_max: int = 256) -> go.Figure:
    """``e_γ(n)`` (binary growth), ``φ_γ(n)`` (the Weight Distribution Game's value) and
    ``n^(−γ)`` against the number of leaves."""
    n = np.arange(1, n_max + 1)
    data = [
        _line(n, bounds.size_bound(n, gamma), "n<sup>−γ</sup>", theme.BOUND["power"], "dot"),
        _line(n, bounds.e_gamma(n, gamma), "e_γ(n) = Π(1 − γ/i)", theme.BOUND["e"], "dash"),
        _line(
            n,
            bounds.phi_gamma(n, gamma),
            "φ_γ(n) (Hatano's bound, his game's value)",
            theme.CLASS_POS,
        ),
    ]
    return plotly_figure(data, _layout("leaves n", "bound on I(T)", xlog=True, height=360))


def infoboost_rounds_figure(eps: float) -> go.Figure:
    """InfoBoost's rounds ``T = (1/γ) ln(1/ε)`` against the information ``γ`` per round."""
    g = np.geomspace(1e-3, 1, 200)
    data = [_line(g, bounds.infoboost_rounds(g, eps), f"T for error ≤ {eps:g}", theme.CLASS_POS)]
    return plotly_figure(
        data,
        _layout("γ  (H(Y|h_t) ≤ 1 − γ every round)", "rounds T", xlog=True, ylog=True, height=360),
    )


def band_count_figure(cs: Sequence[float]) -> go.Figure:
    """Takimoto's Theorem 3: at most ``4K`` leaves after merging, ``K`` bands, against ``γ_t``."""
    g = np.geomspace(1e-4, 1, 200)
    data = [
        _line(
            g,
            4 * bounds.band_count(c, g),
            f"4K, c = {c:g}",
            RHO_COLOURS[i % len(RHO_COLOURS)],
            mode="lines",
        )
        for i, c in enumerate(cs)
    ]
    return plotly_figure(
        data,
        _layout("γ_t = 1 − H(Y|ℓ̃_t)", "max leaves 4K (K entropy bands)", xlog=True, height=360),
    )


HATANO_COLOUR, MM_COLOUR, POWER_COLOUR = theme.CLASS_POS, theme.BOUND["e"], theme.BOUND["power"]


def admissible_arity_figure(size: int, gamma: float, max_arity: int | None = 4) -> go.Figure:
    """Where each criterion admits a ``k``-way split: the largest acceptable ``k`` against the
    current number of leaves ``|T|`` for target size ``s`` — Hatano's ``k ≤ s/|T|`` and
    Mansour–McAllester's ``|T| < e_γ(k)·s·γ/(2k)`` (the rule alone, log–log), with the cap
    ``K`` the top-down page tries as a dotted line."""
    n = np.arange(1, size)
    data = []
    for crit, name, colour, dash in (
        ("hatano", "Hatano: k ≤ s/|T|", HATANO_COLOUR, "solid"),
        ("mansour_mcallester", f"Mansour–McAllester, γ = {gamma:g}", MM_COLOUR, "dash"),
    ):
        k = bounds.max_admissible_arity(n, size, crit, gamma)
        line = _line(n, k, name, colour, dash, mode="lines")
        line["line"]["shape"] = "hv"
        line["hovertemplate"] = f"{name}<br>|T| = %{{x}}: k ≤ %{{y}}<extra></extra>"
        data.append(line)
    if max_arity is not None:
        data.append(
            _line(
                [1, max(size - 1, 2)],
                [max_arity] * 2,
                f"K = {max_arity} (top-down page's default largest arity)",
                theme.NEUTRAL,
                "dot",
                1.5,
            )
        )
    top = max(size, 4)
    return plotly_figure(
        data,
        _layout(
            "leaves so far |T|",
            "largest admissible k",
            xlog=True,
            height=330,
            yaxis=dict(
                type="log",
                title=dict(text="largest admissible k"),
                gridcolor="#eeeeee",
                range=[np.log10(1.8), np.log10(top * 1.15)],
                tickvals=[
                    v for v in (2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024) if v <= top * 1.15
                ],
            ),
        ),
    )


def multiway_budget_figure(size: int, gamma: float) -> go.Figure:
    """The smallest budget ``s`` at which each criterion ever admits a 3- or 4-way split,
    against ``γ``: Hatano needs ``s ≥ k`` whatever ``γ``; Mansour–McAllester needs
    ``s > 2k/(γ e_γ(k))`` (71 for k = 3 at γ = 0.1). The chosen ``(γ, s)`` is marked."""
    g = np.round(np.linspace(0.01, 0.99, 197), 4)
    data = []
    for k, dash in ((3, "solid"), (4, "dash")):
        s_mm = bounds.smallest_budget_for_arity(k, "mansour_mcallester", g)
        data.append(_line(g, s_mm, f"Mansour–McAllester, k = {k}", MM_COLOUR, dash))
        data.append(_line([g[0], g[-1]], [k, k], f"Hatano, k = {k}", HATANO_COLOUR, dash, 1.5))
    data.append(
        dict(
            type="scatter",
            x=[gamma],
            y=[size],
            mode="markers",
            name=f"s = {size}",
            marker=dict(color="#000000", size=10, symbol="x"),
            hovertemplate="chosen γ = %{x}, s = %{y}<extra></extra>",
        )
    )
    return plotly_figure(
        data, _layout("γ", "smallest s that ever allows k branches", ylog=True, height=330)
    )


def size_bounds_at(gamma: float, size: int, n_max: int = 1024) -> go.Figure:
    """:func:`size_bounds` with the chosen size ``s`` marked on each curve: Hatano's
    ``φ_γ(s)`` lies below ``e_γ(s)`` and ``s^(−γ)``."""
    fig = size_bounds(gamma, n_max=max(n_max, size))
    for name, f, colour in (
        ("s<sup>−γ</sup>", bounds.size_bound, POWER_COLOUR),
        ("e_γ(s)", bounds.e_gamma, MM_COLOUR),
        ("φ_γ(s)", bounds.phi_gamma, HATANO_COLOUR),
    ):
        fig.add_trace(
            dict(
                type="scatter",
                x=[size],
                y=[float(f(size, gamma))],
                mode="markers",
                name=f"{name} at s = {size}",
                showlegend=False,
                marker=dict(color=colour, size=9),
                hovertemplate=f"{name}<br>s = %{{x}}: %{{y:.4f}}<extra></extra>",
            )
        )
    return fig


def weak_learning_sizes_figure(eps: float, delta: float) -> go.Figure:
    """Digits of the tree size a classical weak learner of edge ``δ`` needs for error ``ε``:
    ``log₁₀ s`` under ``s^(−γ)``, ``e_γ`` and ``φ_γ`` with the papers' constant ``γ = δ²/16``
    (Hatano, Lemma 1; Mansour–McAllester, Lemma 3.1), and under ``s^(−γ*)`` with the exact
    worst case ``γ* = 1 − √(1 − 4δ²)`` (our derivation, docs/theory.md §0.1), ``δ`` marked."""
    d = np.round(np.linspace(0.05, 0.5, 91), 4)
    g = bounds.weak_learning_advantage(d)
    data = []
    for bound, name, colour, dash in (
        ("power", "s<sup>−γ</sup> ≤ ε", POWER_COLOUR, "dot"),
        ("e", "e_γ(s) ≤ ε", MM_COLOUR, "dash"),
        ("phi", "φ_γ(s) ≤ ε", HATANO_COLOUR, "solid"),
    ):
        data.append(_line(d, bounds.log10_size_for_error(eps, g, bound), name, colour, dash))
    tight = bounds.log10_size_for_error(eps, bounds.weak_learning_advantage_tight(d), "power")
    data.append(
        _line(
            d,
            tight,
            "s<sup>−γ*</sup> ≤ ε, γ* = 1 − √(1 − 4δ²) (exact worst case)",
            "#000000",
            "dot",
        )
    )
    here = float(bounds.log10_size_for_error(eps, bounds.weak_learning_advantage(delta), "phi"))
    data.append(
        dict(
            type="scatter",
            x=[delta],
            y=[here],
            mode="markers",
            name=f"δ = {delta:g}",
            marker=dict(color="#000000", size=9),
            hovertemplate="δ = %{x}: 10^%{y:.1f} leaves under φ_γ<extra></extra>",
        )
    )
    return plotly_figure(
        data,
        _layout(
            "weak learner's edge δ (error ≤ ½ − δ)",
            "log₁₀ of the leaves needed",
            ylog=True,
            height=300,
        ),
    )
