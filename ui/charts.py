"""Presenter mode and the chart wrappers that apply it: every plotly chart and Graphviz
structure of the app goes through :func:`chart` and :func:`structure`, which enlarge it on a
projector, keep it readable in the dark theme and give the camera button its format.

Presenter mode (``?present=true`` in the URL) hides the sidebar and the explanatory text,
enlarges fonts and plots for a projector and keeps the stepper pinned at the top; its toggle
is in the page header (:mod:`ui.header`). These wrappers sit below the header and the class's
pages so that both can use them.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

#: Session key (and URL parameter) of presenter mode.
PRESENT = "present"
#: Session key of the format of the plotly camera button.
FIG_FORMAT = "fig_format"
#: Figures grow by this factor in presenter mode (height and fonts).
PRESENTER_SCALE = 1.3
#: Presenter mode's figure font: the lecture views are built for a 1920-px-wide projector at
#: this size and scaled by the browser with the window's width (see ``ui.lecture.ViewData``).
PRESENTER_FONT = 22.0


def presenting() -> bool:
    """True while presenter mode is on (explanatory text is then left out)."""
    return bool(st.session_state.get(PRESENT, False))


def _dark() -> bool:
    try:
        return st.context.theme.type == "dark"
    except Exception:  # outside a browser session (AppTest): no theme is known
        return False


def chart_config(key: str) -> dict:
    """Plotly config: no logo, and a camera button that saves PNG (×2) or SVG."""
    fmt = "svg" if st.session_state.get(FIG_FORMAT) == "SVG" else "png"
    page = st.session_state.get("_page", "boostlab")
    return {
        "displaylogo": False,
        "toImageButtonOptions": {
            "format": fmt,
            "filename": f"boostlab_{page}_{key}",
            "scale": 2 if fmt == "png" else 1,
        },
    }


def _enlarge(fig) -> None:
    """Presenter mode: every font the figure sets (base, title, legend, axes, annotations)
    and its height grow by PRESENTER_SCALE."""
    k = PRESENTER_SCALE
    lay = fig.layout
    base = lay.font.size or 12
    fig.update_layout(
        font_size=round(base * k),
        title_font_size=round((lay.title.font.size or base * 1.17) * k),
        legend_font_size=round((lay.legend.font.size or base) * k),
    )
    if lay.height:
        fig.update_layout(height=round(lay.height * k))
    for name in [a for a in lay if a.startswith(("xaxis", "yaxis"))]:
        axis = lay[name]
        fig.update_layout(
            {
                name: dict(
                    tickfont_size=round((axis.tickfont.size or base) * k),
                    title_font_size=round((axis.title.font.size or base) * k),
                )
            }
        )
    for ann in lay.annotations or ():
        ann.font.size = round((ann.font.size or base) * k)


def chart(fig, *, key: str, config: dict | None = None, **kwargs) -> Any:
    """``st.plotly_chart`` with the export config, enlarged in presenter mode."""
    if presenting():
        _enlarge(fig)
    if _dark():
        # The palette (black training error, pale regions) is made for a white background:
        # in the dark theme every chart is drawn on a white card, like the structures.
        fig.update_layout(paper_bgcolor="white", plot_bgcolor="white", font_color="#31333F")
        kwargs.setdefault("theme", None)  # Streamlit's dark template would recolour the text
    merged = {**(config or {}), **chart_config(key)}
    return st.plotly_chart(fig, key=key, config=merged, **kwargs)


def structure(dot, *, label: str = "structure", **kwargs) -> Any:
    """``st.graphviz_chart`` on a white card (readable in the dark theme too).

    Each drawing is remembered in page order, so :func:`export_structures` can offer it as
    DOT and as SVG (the SVG button takes the i-th drawing from the page).
    """
    try:
        dot.graph_attr["bgcolor"] = "white"
        source = dot.source
    except AttributeError:  # DOT source as a string
        source = str(dot)
    st.session_state.setdefault("_drawn", []).append((label, source))
    return st.graphviz_chart(dot, **kwargs)


def figure_frame(fig):
    """The numbers a chart draws, as a table (a text alternative for the chart).

    Every trace with ``x`` and ``y`` values becomes a column (wide, when the traces share
    their x values) or rows of (series, x, y); traces without both are left out.
    """
    import pandas as pd

    series = []
    for i, tr in enumerate(fig.data):
        x, y = getattr(tr, "x", None), getattr(tr, "y", None)
        if x is None or y is None or len(x) != len(y):
            continue
        series.append((tr.name or f"series {i + 1}", list(x), list(y)))
    if not series:
        return pd.DataFrame()
    xs = series[0][1]
    if all(s[1] == xs for s in series):
        frame = pd.DataFrame({"x": xs})
        for name, _, y in series:
            col = name if name not in frame else f"{name} ({len(frame.columns)})"
            frame[col] = y
        return frame
    return pd.DataFrame(
        [{"series": name, "x": a, "y": b} for name, x, y in series for a, b in zip(x, y)]
    )


def chart_with_numbers(fig, *, key: str, **kwargs) -> None:
    """A chart followed by an expander with its numbers (for screen readers and exact
    values)."""
    frame = figure_frame(fig)
    chart(fig, key=key, **kwargs)
    if len(frame):
        with st.expander("The numbers in this chart"):
            st.dataframe(frame, hide_index=True, key=f"{key}_numbers")
