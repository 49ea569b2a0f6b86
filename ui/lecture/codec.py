"""The lecture's frame codec: the rounds of a view as JSON-ready frames, a repeat as a
reference and a small change as a delta (:func:`plotly_frames`, :func:`same_frames`), undone
by :func:`resolve_frames` (and by the lecture script's ``resolveFrames``); a round's table as
escaped HTML (:func:`table_html`). It draws nothing (no Streamlit call): an export or an
offline player encodes the same frames.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from .. import payload


def _canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def jsonable(obj: Any) -> Any:
    """Plain JSON values; numpy arrays of more than 16 numbers become plotly.js typed arrays
    (:func:`ui.payload.typed_array`: floats as float32, ample for drawing and half the bytes)."""
    import numpy as np

    if isinstance(obj, dict):
        return {k: jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "fiub" and obj.size > 16:
            return payload.typed_array(obj)
        return jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, float) and obj != obj:  # NaN: a gap in a line
        return None
    return obj


_MISSING = object()


def _changes(base: dict, new: dict, path: list, out: list) -> bool:
    """Append ``[path, value]`` for every part of ``new`` that differs from ``base`` (a dict
    whose keys all stay is walked into; anything else is replaced whole); ``False`` when
    ``new`` lacks a key of ``base`` (a change a list of settings cannot say)."""
    if any(k not in new for k in base):
        return False
    for k, v in new.items():
        b = base.get(k, _MISSING)
        if b is _MISSING:
            out.append([[*path, k], v])
        elif b == v:
            continue
        elif isinstance(v, dict) and isinstance(b, dict) and "bdata" not in v:
            if not _changes(b, v, [*path, k], out):
                out.append([[*path, k], v])
        else:
            out.append([[*path, k], v])
    return True


def _delta(base: dict, new: dict, size: int, t: int) -> dict | None:
    """``new`` as the previous round's ``base`` with some parts set — ``{"$d": t − 1,
    "$set": [[path, value], …]}`` — when that is under 90 % of its ``size`` in JSON."""
    sets: list = []
    if not _changes(base, new, [], sets):
        return None
    delta = {"$d": t - 1, "$set": sets}
    return delta if len(json.dumps(delta, separators=(",", ":"))) < 0.9 * size else None


def plotly_frames(figures: Sequence[Any]) -> list[dict]:
    """Plotly figures (one per round; a ``go.Figure`` or a ``{"data", "layout"}`` dict) as
    JSON-ready frames with repeats replaced by references and changes by deltas.

    A trace equal to the same trace of an earlier round, or a layout equal to an earlier
    layout, becomes ``{"$r": round}``. One that differs from the previous round's in a few
    parts only (the points' sizes, a line's end, a title) becomes ``{"$d": round − 1,
    "$set": [[path, value], …]}`` (issue 27, item 2: /branching at 5,000 points re-sent
    every point's coordinates each round for a change of their sizes). The browser
    (the lecture script) and :func:`resolve_frames` restore them.
    """
    out: list[dict] = []
    seen_traces: list[dict[str, int]] = []
    seen_layouts: dict[str, int] = {}
    prev_traces: list[dict] = []
    prev_layout: dict | None = None
    for t, fig in enumerate(figures):
        if not isinstance(fig, dict):
            fig = fig.to_plotly_json()
        spec = jsonable(fig)
        data = []
        traces = spec.get("data", [])
        for i, tr in enumerate(traces):
            if len(seen_traces) <= i:
                seen_traces.append({})
            c = _canon(tr)
            if c in seen_traces[i]:
                data.append({"$r": seen_traces[i][c]})
                continue
            seen_traces[i][c] = t
            delta = None
            if i < len(prev_traces) and isinstance(tr, dict):
                delta = _delta(prev_traces[i], tr, len(c), t)
            data.append(delta or tr)
        prev_traces = list(traces)
        lay = dict(spec.get("layout", {}))
        lay.pop("template", None)  # plotly.py's default template: plotly.js has its own
        full = lay
        c = _canon(lay)
        if c in seen_layouts:
            lay = {"$r": seen_layouts[c]}
        else:
            seen_layouts[c] = t
            if prev_layout is not None:
                lay = _delta(prev_layout, lay, len(c), t) or lay
        prev_layout = full
        out.append({"data": data, "layout": lay})
    return out


def _patched(base: dict, sets: list) -> dict:
    """``base`` with each ``[path, value]`` of ``sets`` set; the dicts along a path are
    copied, everything else is shared."""
    out = dict(base)
    for path, value in sets:
        node = out
        for k in path[:-1]:
            node[k] = dict(node[k])
            node = node[k]
        node[path[-1]] = value
    return out


def resolve_frames(frames: Sequence[Any]) -> list[Any]:
    """Undo the references and deltas of :func:`plotly_frames` and :func:`same_frames`
    (what the lecture script's ``resolveFrames`` does; tests and exports read frames with it)."""
    out: list[Any] = []

    def part(ref: Any, earlier) -> Any:
        if isinstance(ref, dict) and "$r" in ref:
            return earlier(ref["$r"])
        if isinstance(ref, dict) and "$d" in ref:
            return _patched(earlier(ref["$d"]), ref["$set"])
        return ref

    for f in frames:
        if isinstance(f, dict) and "$r" in f:
            out.append(out[f["$r"]])
        elif isinstance(f, dict) and isinstance(f.get("data"), list):
            data = [part(tr, lambda s, i=i: out[s]["data"][i]) for i, tr in enumerate(f["data"])]
            out.append({"data": data, "layout": part(f["layout"], lambda s: out[s]["layout"])})
        else:
            out.append(f)
    return out


def same_frames(items: Sequence[str]) -> list[Any]:
    """Strings (SVG pictures, HTML tables) or lists of them, one per round, with repeats as
    references."""
    out: list[Any] = []
    seen: dict[str, int] = {}
    for t, s in enumerate(items):
        c = s if isinstance(s, str) else _canon(s)
        if c in seen:
            out.append({"$r": seen[c]})
        else:
            seen[c] = t
            out.append(s)
    return out


def table_html(frame, *, decimals: int = 4) -> str:
    """A small table as escaped HTML (every cell is text: headers and values are escaped);
    missing values show as "—" and numbers with the same number of decimals. A header that
    the glossary of docs/theory.md explains gets that line as its tooltip."""
    import math

    def cell(v) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "—"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, float):
            return f"{v:.{decimals}f}"
        return str(v)

    from ..theory_doc import tip

    def th(c) -> str:
        text = tip(str(c))
        if text is None:
            return f"<th>{html.escape(str(c))}</th>"
        # the glossary line of docs/theory.md as a tooltip; dotted underline says "hover me"
        return (
            f'<th title="{html.escape(text)}" style="text-decoration: underline '
            f'dotted; cursor: help">{html.escape(str(c))}</th>'
        )

    head = "".join(th(c) for c in frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell(v))}</td>" for v in row) + "</tr>"
        for row in frame.astype(object).to_numpy().tolist()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
