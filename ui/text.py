"""Small helpers for the words the pages write around numbers."""

from __future__ import annotations

import html


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """``"1 leaf"``, ``"2 leaves"``: the number with the noun in the right form."""
    many = plural_form if plural_form is not None else singular + "s"
    return f"{n} {singular if n == 1 else many}"


def rounds_span(first: int, last: int) -> str:
    """``"round 3"`` or ``"rounds 1–4"``: a span of rounds, never ``"rounds 1–1"``."""
    return f"round {first}" if first == last else f"rounds {first}–{last}"


#: Characters that start markdown, HTML, LaTeX or an autolink in Streamlit's markdown; a
#: backslash before each makes it literal (CommonMark allows one before any punctuation).
_MD_SPECIAL = frozenset("\\`*_{}[]<>#!|~$&@")


#: An invisible character that joins words (no line break): put inside ``http://``,
#: ``www.`` and ``a@b`` it keeps them from being autolinked.
_JOINER = "\u2060"


def md_plain(text: str, limit: int = 60) -> str:
    """User-supplied text made safe for Streamlit markdown (``st.markdown``, captions, alerts,
    toasts): cut to ``limit`` characters, line breaks and other control characters made
    spaces, and every character that could start markup backslash-escaped, so it shows as
    typed and never becomes a link or an image (``[``, ``!``), HTML (``<``), LaTeX (``$``)
    or an emoji or icon code (a ``:`` before a non-space). A ``.`` or ``)`` after leading
    digits and before a space is escaped too (``1. `` would start a list), a leading ``-``
    or ``+``, and a ``(`` after ``]``; other dots, dashes, colons and brackets stay as they
    are (``data.csv``, ``UTF-8``, ``line 3 (empty)``).

    Autolinks (``http://…``, ``www.…``, ``a@b.c``) are found by Streamlit's markdown in the
    text *after* escapes are read, so a backslash does not stop them: an invisible word
    joiner (U+2060) goes after the ``:`` of ``://``, before the ``.`` of ``www.`` and after
    every ``@``.
    """
    text = "".join(ch if ch.isprintable() else " " for ch in str(text))
    if len(text) > limit:
        text = text[:limit] + "…"
    out = []
    for i, ch in enumerate(text):
        special = ch in _MD_SPECIAL
        after = ""
        if ch in "-+" and i == 0:  # a list item or a rule at the start of a line
            special = True
        elif ch == "." and text[max(0, i - 3) : i].lower() == "www":
            out.append(_JOINER)
        elif ch in ".)" and text[:i].isdigit() and text[i + 1 : i + 2] in ("", " "):
            special = True
        elif ch == ":" and text[i + 1 : i + 2] not in ("", " "):  # http://, :smile:
            special = True
            after = _JOINER if text[i + 1 : i + 3] == "//" else ""
        elif ch == "(" and i and text[i - 1] == "]":  # never "](" in the source
            special = True
        elif ch == "@":
            after = _JOINER
        out.append(("\\" + ch if special else ch) + after)
    return "".join(out)


def plot_plain(text: str) -> str:
    """User-supplied text for a plotly title, label or hover text: plotly renders a subset
    of HTML there (``<a href>``, ``<b>``, ``<br>``), so ``&``, ``<`` and ``>`` are escaped."""
    return html.escape(str(text), quote=False)


def spoken_number(x: float) -> str:
    """A number as the descriptions say it: two decimals, a small positive value with its
    first digit (two decimals would read it as 0, and a bound of 0.004 is not 0).

    Parameters
    ----------
    x : float

    Returns
    -------
    str

    Examples
    --------
    >>> spoken_number(0.1234), spoken_number(0.004), spoken_number(0.0), spoken_number(1e-5)
    ('0.12', '0.004', '0', 'below 0.001')
    """
    if x == 0:
        return "0"
    if 0 < abs(x) < 0.001:
        return "below 0.001"
    if abs(x) < 0.01:
        return f"{x:.1g}"
    return f"{x:.2f}"
