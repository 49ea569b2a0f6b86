"""Closed-form bound curves (bounds explorer): pure functions of parameters → plotly figures."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from boostcore import bounds

from .figures import _figure

#: One colour per ρ of Grossmann's Fig. 2 (Okabe–Ito), so a value keeps its colour everywhere.
RHO_COLOURS = ["#000000", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#E69F00", "#56B4E9"]


def _layout(xtitle: str, ytitle: str, *, xlog=False, ylog=False, height=420, **extra) -> dict:
    lay = dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.18, font=dict(size=11)),
        xaxis=dict(title=dict(text=xtitle), gridcolor="#eeeeee", type="log" if xlog else "linear"),
        yaxis=dict(title=dict(text=ytitle), gridcolor="#eeeeee", type="log" if ylog else "linear",
                   **({"dtick": 1} if ylog else {})),
    )
    lay.update(extra)
    return lay


def _line(x, y, name, colour, dash="solid", width=2.0, mode="lines") -> dict:
    return dict(type="scatter", x=np.asarray(x), y=np.asarray(y), name=name, mode=mode,
                line=dict(color=colour, dash=dash, width=width),
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.4g}}<extra></extra>")


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
        data.append(_line(T, rho**T, f"ρ^T = {rho:g}^T AdaBoost", c, "dot"))
    return _figure(data, _layout("T (weak classifiers)", "bound on expected error",
                                 xlog=True, ylog=True,
                                 yaxis=dict(type="log", range=[-6, 0.05], dtick=1,
                                            gridcolor="#eeeeee",
                                            title=dict(text="bound on expected error"))))


def grossmann_fig2_right(T: int, rhos: Sequence[float], show_valid: bool = True) -> go.Figure:
    """Fig. 2 right: ``F(T/T₁, F(T₁, ρ))`` against the sub-tree size ``T₁`` (the paper's tree of
    trees, solid), ``F(T, ρ)`` (dotted) and, dashed, the composition that does follow."""
    t1 = np.unique(np.geomspace(1, T, 60))
    data = []
    for i, rho in enumerate(rhos):
        c = RHO_COLOURS[i % len(RHO_COLOURS)]
        data.append(_line(t1, [bounds.nested_f([t, T / t], rho) for t in t1],
                          f"paper: F(T/T₁, F(T₁, {rho:g}))", c))
        data.append(_line([1, T], [bounds.f_tree(T, rho)] * 2, f"F(T, {rho:g})", c, "dot", 1.5))
        if show_valid:
            data.append(_line(t1, [bounds.valid_nested_f(t, T / t, rho) for t in t1],
                              f"valid: F(T/T₁, 2√(C₁(1−C₁))), ρ = {rho:g}", c, "dash", 1.5))
    return _figure(data, _layout("T₁ (size of each sub-tree)", "bound", xlog=True, ylog=True))


def grossmann_fig3(Ts: Sequence[int], rho: float, max_level: int = 20) -> go.Figure:
    """Fig. 3: Eq. (11), the bound with ``L`` equal nesting levels of size ``T^(1/L)``, with the
    plain tree's ``F(T, ρ)`` as a dotted line on top."""
    L = np.arange(1, max_level + 1)
    data = []
    for i, T in enumerate(Ts):
        c = RHO_COLOURS[(i + 1) % len(RHO_COLOURS)]
        data.append(_line(L, bounds.nested_equal(T, L, rho), f"T = {T}: nested, T^(1/L) each",
                          c, mode="lines+markers"))
        data.append(_line([1, max_level], [bounds.f_tree(T, rho)] * 2,
                          f"T = {T}: plain tree F(T, ρ)", c, "dot", 1.5))
    return _figure(data, _layout("nesting level L", "bound (paper's claim)", ylog=True))


def split_prices(gamma: float, k_max: int = 32) -> go.Figure:
    """The price of a ``k``-way split: Hatano's ``⌈log₂ k⌉``, Mansour–McAllester's ``g_γ(k)``
    and ``ln k``."""
    k = np.arange(2, k_max + 1)
    hatano = _line(k, bounds.ceil_log2(k), "Hatano ⌈log₂ k⌉", "#0072B2", mode="lines+markers")
    hatano["line"]["shape"] = "hv"  # a step function of k
    data = [
        hatano,
        _line(k, bounds.g_gamma(k, gamma), f"Mansour–McAllester g_γ(k), γ = {gamma:g}",
              "#D55E00", "dash"),
        _line(k, np.log(k), "ln k", "#999999", "dot"),
    ]
    return _figure(data, _layout("arity k", "price of a k-way split", height=360))


def size_bounds(gamma: float, n_max: int = 256) -> go.Figure:
    """``e_γ(n)`` (binary growth), ``φ_γ(n)`` (the Weight Distribution Game's value) and
    ``n^(−γ)`` against the number of leaves."""
    n = np.arange(1, n_max + 1)
    data = [
        _line(n, bounds.size_bound(n, gamma), "n^(−γ)", "#E69F00", "dot"),
        _line(n, bounds.e_gamma(n, gamma), "e_γ(n) = Π(1 − γ/i)", "#D55E00", "dash"),
        _line(n, bounds.phi_gamma(n, gamma), "φ_γ(n) (Hatano's game)", "#0072B2"),
    ]
    return _figure(data, _layout("leaves n", "bound on I(T)", xlog=True, height=360))


def infoboost_rounds_figure(eps: float) -> go.Figure:
    """InfoBoost's rounds ``T = (1/γ) ln(1/ε)`` against the information ``γ`` per round."""
    g = np.geomspace(1e-3, 1, 200)
    data = [_line(g, bounds.infoboost_rounds(g, eps), f"T for error ≤ {eps:g}", "#0072B2")]
    return _figure(data, _layout("γ  (H(Y|h_t) ≤ 1 − γ every round)", "rounds T",
                                 xlog=True, ylog=True, height=360))


def band_count_figure(cs: Sequence[float]) -> go.Figure:
    """Takimoto's Theorem 3: at most ``4K`` leaves after merging, ``K`` bands, against ``γ_t``."""
    g = np.geomspace(1e-4, 1, 200)
    data = [_line(g, 4 * bounds.band_count(c, g), f"4K, c = {c:g}",
                  RHO_COLOURS[i % len(RHO_COLOURS)], mode="lines")
            for i, c in enumerate(cs)]
    return _figure(data, _layout("γ_t = 1 − H(Y|ℓ̃_t)", "max leaves 4K", xlog=True, height=360))
