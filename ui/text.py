"""Small helpers for the words the pages write around numbers."""

from __future__ import annotations

import html
import re


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


#: Whose choices a run's rounds are when a person made them ("be the weak learner"): the
#: student's own, or on a class follower's page the class's, which the teacher played
#: (issue 39, item 7: every phone called the class's split "your split").
YOURS = "your"
THE_CLASS = "the class's"


def who_chose(whose: str, *, capital: bool = False) -> str:
    """Who chose, for ``whose`` (:data:`YOURS` or :data:`THE_CLASS`): "you" or "the class".

    >>> who_chose(THE_CLASS, capital=True), who_chose(YOURS)
    ('The class', 'you')
    """
    if whose not in (YOURS, THE_CLASS):
        raise ValueError(f"whose must be {YOURS!r} or {THE_CLASS!r}, got {whose!r}")
    who = "you" if whose == YOURS else "the class"
    return capitalized(who) if capital else who


def capitalized(text: str) -> str:
    """``text`` with its first letter upper-case, the rest as it is ("the class's" → "The
    class's"; ``str.capitalize`` would lower the rest).

    >>> capitalized(THE_CLASS), capitalized("")
    ("The class's", '')
    """
    return text[:1].upper() + text[1:]


def sub_digits(n: int) -> str:
    """``n`` in Unicode subscript digits, for plain and markdown text (``"D" + sub_digits(12)``
    is ``"D₁₂"``): Streamlit's markdown has no ``<sub>``.

    >>> sub_digits(12), sub_digits(-3)
    ('₁₂', '₋₃')
    """
    return str(int(n)).translate(str.maketrans("0123456789-", "₀₁₂₃₄₅₆₇₈₉₋"))


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


# ------------------------------------------------------------------ notation (issue 39, item 9)
#: Characters a subscript or superscript is drawn with in plain text (a tooltip, an accessible
#: name, a screen reader's description): Unicode has them for these only.
_SUB_CHARS = dict(
    zip("0123456789+−-=()aehijklmnoprstuvxβγρφχℓ", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪₗ")
)
_SUP_CHARS = dict(zip("0123456789+−-=()inLT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿᴸᵀ"))
#: What ends a superscript written without braces or parentheses (``e^−yH and``, ``s^−γ:``).
_SUP_END = frozenset(" \t\n),;:]}|")
#: Combining marks (a hat, a tilde) belong to the letter before them.
_COMBINING = range(0x0300, 0x0370)


def sub(text: object) -> str:
    """``text`` as a subscript in the pages' markup: ``Z`` + ``sub("t")`` is ``Z<sub>t</sub>``.

    The lecture's texts (notes, titles, questions, the proof card) may hold ``<sub>…</sub>``
    and ``<sup>…</sup>``, and no other markup: the browser draws them (``ui/lecture/js``,
    ``rich``), the proof card keeps them (:func:`rich_html`) and a plain-text place gets
    Unicode (:func:`plain`)."""
    return f"<sub>{text}</sub>"


def sup(text: object) -> str:
    """``text`` as a superscript in the pages' markup (see :func:`sub`)."""
    return f"<sup>{text}</sup>"


def _is_base(ch: str) -> bool:
    """Whether ``ch`` can carry a sub- or superscript (``Z_t``, ``|T|^−γ̂``, ``(1 − γ)^i``)."""
    return ch.isalnum() or ord(ch) in _COMBINING or ch in ")|]̂"


def _script(text: str, k: int, marker: str) -> tuple[str, int]:
    """The sub- or superscript that starts at ``text[k]`` (after ``_`` or ``^``) and the index
    after it: ``{…}`` (and ``(…)`` after ``^``) whole, without its brackets; after ``_`` a run of
    digits or one letter with its accents; after ``^`` everything up to a space, a comma, a
    closing bracket or a sentence's full stop (brackets opened inside are kept whole). A
    letter followed by another is a name's underscore (``n_internal``): no subscript."""
    n = len(text)
    if k >= n:
        return "", k
    pairs = {"{": "}", "(": ")"} if marker == "^" else {"{": "}"}
    if text[k] in pairs:
        opening, closing, depth = text[k], pairs[text[k]], 0
        for j in range(k, n):
            depth += (text[j] == opening) - (text[j] == closing)
            if depth == 0:
                return text[k + 1 : j], j + 1
        return "", k
    if marker == "_":
        j = k
        if text[j].isdigit():
            while j < n and text[j].isdigit():
                j += 1
            return text[k:j], j
        if not text[j].isalpha():
            return "", k
        j += 1
        while j < n and ord(text[j]) in _COMBINING:
            j += 1
        if j < n and text[j].isalpha():  # a name (``n_internal``), not an index
            return "", k
        return text[k:j], j
    j, depth = k, 0
    while j < n:
        ch = text[j]
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif ch in _SUP_END or (ch == "." and (j + 1 == n or text[j + 1].isspace())):
            break
        j += 1
    return text[k:j], j


def notation(text: str) -> str:
    """The pages' ASCII notation set in the markup of :func:`sub` and :func:`sup`:
    ``Z_t``, ``h_11``, ``D_{t+1}``, ``Σ_{i<n}``, ``e^−yH``, ``e^(−2F_t)``, ``2^L``.

    For the pages' own formulas only, never for text that holds a user's words (a CSV's
    column ``petal_width`` would become ``petal<sub>w</sub>idth``): a sentence that names a
    feature is written with :func:`sub` and :func:`sup` instead.

    Examples
    --------
    >>> notation("Π Z_t ≤ Π H(Y|h_t)")
    'Π Z<sub>t</sub> ≤ Π H(Y|h<sub>t</sub>)'
    >>> notation("h_11 under D_{t+1}; Σ_{i<n} 1/i")
    'h<sub>11</sub> under D<sub>t+1</sub>; Σ<sub>i<n</sub> 1/i'
    >>> notation("1/(1+e^(−2F_t)), E[e^−yH] and s^−γ̂: 2^L.")
    '1/(1+e<sup>−2F<sub>t</sub></sup>), E[e<sup>−yH</sup>] and s<sup>−γ̂</sup>: 2<sup>L</sup>.'
    >>> notation("φ_γ̂(s) ≤ |T|^−γ̂, e^−γ̂²T/2")
    'φ<sub>γ̂</sub>(s) ≤ |T|<sup>−γ̂</sup>, e<sup>−γ̂²T/2</sup>'
    >>> notation("All n_internal = 3 splits; μ_t² ≤ 1")
    'All n_internal = 3 splits; μ<sub>t</sub>² ≤ 1'
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "_^" and i and _is_base(text[i - 1]):
            body, j = _script(text, i + 1, ch)
            if body:
                tag = "sub" if ch == "_" else "sup"
                out.append(f"<{tag}>{notation(body)}</{tag}>")
                i = j
                continue
        out.append(ch)
        i += 1
    return "".join(out)


_ESCAPED_PAIR = re.compile(r"&lt;(sub|sup)&gt;((?:(?!&lt;/?su[bp]&gt;).)*?)&lt;/\1&gt;", re.S)
_PAIR = re.compile(r"<(sub|sup)>((?:(?!</?su[bp]>).)*?)</\1>", re.S)


def rich_html(text: str) -> str:
    """Text in the pages' markup (:func:`sub`, :func:`sup`) as HTML: every character escaped
    but the ``<sub>``/``<sup>`` pairs, which stay (nested ones too; a tag without its pair is
    text).

    Examples
    --------
    >>> rich_html("Z<sub>t</sub> < 1 & <b>")
    'Z<sub>t</sub> &lt; 1 &amp; &lt;b&gt;'
    >>> rich_html("H<sub>D<sub>t+1</sub></sub>, <sub>x")
    'H<sub>D<sub>t+1</sub></sub>, &lt;sub&gt;x'
    """
    out = html.escape(str(text))
    while True:
        new = _ESCAPED_PAIR.sub(r"<\1>\2</\1>", out)
        if new == out:
            return out
        out = new


def plain(text: str) -> str:
    """Text in the pages' markup as plain text (a tooltip, an accessible name, a table):
    a sub- or superscript in Unicode where Unicode has every one of its characters
    (``Zₜ``, ``2ᴸ``), else after ``_`` or ``^`` (``H_U``, ``Σ_(i<n)``).

    Examples
    --------
    >>> plain("Π Z<sub>t</sub>, D<sub>t+1</sub>, H<sub>U</sub>, e<sup>−yH</sup>, 2<sup>L</sup>")
    'Π Zₜ, Dₜ₊₁, H_U, e^(−yH), 2ᴸ'
    """
    out = str(text)
    while True:
        new = _PAIR.sub(_plain_pair, out)
        if new == out:
            return out
        out = new


def _plain_pair(m: re.Match) -> str:
    table = _SUB_CHARS if m.group(1) == "sub" else _SUP_CHARS
    body = m.group(2)
    if body and all(ch in table for ch in body):
        return "".join(table[ch] for ch in body)
    marker = "_" if m.group(1) == "sub" else "^"
    return marker + (body if len(body) == 1 else f"({body})")
