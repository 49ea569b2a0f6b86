"""docs/theory.md inside the app: its sections, its glossary, and links to them.

The theory notes are the one place the app's statements are written out in full; the pages
link to their sections (``/theory?section=1.2``) and take their tooltips from the notes'
glossary, so a page and the notes cannot drift apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import streamlit as st

DOC = Path(__file__).resolve().parents[1] / "docs" / "theory.md"

_HEADER = re.compile(r"^(#{2,3}) (?:§(\d+(?:\.\d+)?) )?(.*)$")


@dataclass(frozen=True)
class Section:
    """One ``##``/``###`` section of the notes: ``number`` is ``"1.2"``, ``"1"`` or a slug
    such as ``"glossary"`` for unnumbered ones; ``text`` includes its own header line."""

    number: str
    title: str
    level: int
    text: str

    @property
    def label(self) -> str:
        return f"§{self.number} {self.title}" if self.number[0].isdigit() else self.title


@lru_cache(maxsize=1)
def sections() -> tuple[Section, ...]:
    """The notes split at every ``##``/``###`` header, in order (the text before the first
    one is the ``"intro"`` section). A ``##`` section's text runs to the next ``##``."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    starts: list[tuple[int, int, str, str]] = []
    in_code = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else _HEADER.match(line)
        if m:
            level = len(m.group(1))
            number = m.group(2) or re.sub(r"[^a-z0-9]+", "-", m.group(3).lower()).strip("-")
            starts.append((i, level, number, m.group(3).strip()))
    out = [
        Section(
            "intro",
            "About these notes",
            1,
            "\n".join(lines[1 : starts[0][0] if starts else len(lines)]).strip(),
        )
    ]
    for n, (i, level, number, title) in enumerate(starts):
        end = len(lines)
        for j, lvl, _, _ in starts[n + 1 :]:
            if lvl <= level:
                end = j
                break
        text = "\n".join(lines[i:end]).rstrip().rstrip("-").rstrip()
        out.append(Section(number, title, level, text))
    return tuple(out)


def section(number: str) -> Section:
    """The section numbered ``number`` (e.g. ``"1.2"``, ``"glossary"``)."""
    for s in sections():
        if s.number == number:
            return s
    raise KeyError(f"docs/theory.md has no section {number!r}")


def _plain(cell: str) -> str:
    return cell.strip().replace("\\|", "|").strip("`")


@lru_cache(maxsize=1)
def glossary() -> dict[str, str]:
    """Term → one-line meaning, read from the notes' glossary table."""
    out: dict[str, str] = {}
    for line in section("glossary").text.splitlines():
        if not line.startswith("| `"):
            continue
        cells = re.split(r"(?<!\\)\|", line)[1:-1]
        if len(cells) != 2:
            continue
        meaning = _plain(cells[1]).replace("`", "")
        for term in re.findall(r"`([^`]*)`", cells[0]):  # `T1`, `T2`: one line, two terms
            out[term.replace("\\|", "|")] = meaning
    return out


def tip(term: str) -> str | None:
    """The glossary line for ``term`` (a column header or symbol), if there is one."""
    return glossary().get(term)


def link(number: str, label: str | None = None) -> None:
    """A link to the theory page opened at section ``number``."""
    from streamlit.errors import StreamlitAPIException

    sec = section(number)
    text = label or f"Read more: docs/theory.md {sec.label}"
    try:
        st.page_link(
            "views/theory.py",
            label=text,
            icon=":material/menu_book:",
            query_params={"section": number},
        )
    except StreamlitAPIException:  # a page file run on its own (tests) knows no pages
        st.markdown(f"[{text}](/theory?section={number})")


def words(terms: tuple[str, ...]) -> None:
    """A caption explaining the page's jargon, one glossary line per term (left out in
    presenter mode, where the teacher explains)."""
    from .charts import presenting

    if presenting():
        return
    g = glossary()
    parts = [f"**{term}**: {g[term]}" for term in terms]
    st.caption(
        "Words on this page — " + "; ".join(parts) + ". More in the glossary of the theory notes."
    )
