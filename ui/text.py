"""Small helpers for the words the pages write around numbers."""

from __future__ import annotations


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """``"1 leaf"``, ``"2 leaves"``: the number with the noun in the right form."""
    many = plural_form if plural_form is not None else singular + "s"
    return f"{n} {singular if n == 1 else many}"


def rounds_span(first: int, last: int) -> str:
    """``"round 3"`` or ``"rounds 1–4"``: a span of rounds, never ``"rounds 1–1"``."""
    return f"round {first}" if first == last else f"rounds {first}–{last}"


def md_plain(text: str, limit: int = 60) -> str:
    """User-supplied text made safe for Streamlit markdown: cut to ``limit`` characters and
    every markdown/HTML special character backslash-escaped, so it shows as typed and never
    becomes a link, an image or markup."""
    text = str(text)
    if len(text) > limit:
        text = text[:limit] + "…"
    return "".join("\\" + ch if ch in "\\`*_{}[]()<>#+-.!|~$:&" else ch for ch in text)
