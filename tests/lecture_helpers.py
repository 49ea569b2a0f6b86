"""AppTest helpers for pages with the lecture view (ui/lecture): read what the client-side
components were given, and step the way the browser does (it tells the server the round)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from ui import lecture, payload


def components(at: AppTest) -> dict[str, dict]:
    """Every lecture component on the page: its Streamlit key → the data it was mounted with."""
    out = {}
    for e in at.get("bidi_component"):
        if e.proto.component_name != "boostlab_lecture":
            continue
        key = e.proto.id.rsplit("-", 1)[-1]
        # a view's or quiz's data is packed bytes (ui/payload.py), the stepper's JSON
        data = e.proto.bytes
        out[key] = payload.unpack(data) if data else json.loads(e.proto.json)
    return out


def stepper(at: AppTest, key: str = "round") -> dict:
    """The stepper's data: ``lo``, ``hi`` and ``t`` (the round the server shows)."""
    return components(at)[f"{key}_ctl"]


def step_to(at: AppTest, t: int, key: str = "round") -> AppTest:
    """Do what the browser's stepper does after a step: report the round, which reruns."""
    at.session_state[f"{key}_ctl"] = {"round": t}
    at.session_state[key] = t
    at.session_state[f"{key}_keep"] = t
    return at.run()


def resolve(frames: list) -> list:
    """Undo the ``{"$r": s}`` references and ``{"$d": s, "$set": …}`` deltas of a view's
    frames (as the lecture script does)."""
    return lecture.resolve_frames(frames)


def views(at: AppTest, kind: str | None = None) -> dict[str, dict]:
    """The views (not the stepper), optionally of one kind ("plotly", "svg", "html")."""
    return {
        k: v
        for k, v in components(at).items()
        if v.get("role") == "view" and (kind is None or v["kind"] == kind)
    }


def frame_at(view: dict, t: int):
    """The frame a view draws at round ``t`` (clamped like the browser does)."""
    frames = resolve(view["frames"])
    i = min(max(t, 0), len(frames) - 1)
    return frames[i]


def note_at(view: dict, t: int) -> str:
    notes = view.get("notes") or [""]
    i = min(max(t, 0), len(notes) - 1)
    return notes[i]


def table(markup: str) -> list[dict[str, str]]:
    """Rows of an HTML table built by ``lecture.table_html`` (header → cell text)."""
    import html
    import re

    heads = [html.unescape(h) for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>", markup)]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", markup.split("</thead>", 1)[-1]):
        cells = [html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)]
        rows.append(dict(zip(heads, cells, strict=True)))
    return rows


def round_table(at: AppTest, key: str, t: int) -> dict[str, dict[str, str]]:
    """The HTML table view ``key`` at round ``t``, as run name → row."""
    return {r["run"]: r for r in table(frame_at(views(at)[key], t))}
