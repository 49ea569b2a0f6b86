"""URL parameters: one parser per type, and the page's notice of what a link asked for in vain.

Every parser is pure and never raises: it returns the value to use and, for a value it could
not use, an :class:`Ignored` record (the parameter, the reason, the value quoted to at most
:data:`QUOTE_LIMIT` characters). A missing parameter gives the default and no record.

    parse_int("s", "0", lo=2, hi=64, default=16)  # (16, Ignored("s", "must be 2–64", "0"))

A page runs inside :func:`page_run` (or calls :func:`begin` and :func:`finish` itself):
``begin`` keeps a place at the top of the page, the code that reads a parameter reports what it
ignored with :func:`note`, and ``finish`` compares the raw values of the widgets bound to the
URL (``bind="query-params"``) with the values the widgets took, since Streamlit drops an
invalid value (or clamps it) without a word, and shows ONE notice listing every ignored
parameter as plain text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st

from .text import md_plain

T = TypeVar("T")

#: The longest quote of a link's value in a notice (the quote ends with "…" when cut).
QUOTE_LIMIT = 40
#: The longest number a parser reads (longer text is refused before ``int``/``float``).
_MAX_NUMBER_CHARS = 32
#: The most moves a ``mv=`` value may hold (a game has at most 64 leaves, so far fewer).
MAX_MOVES = 256

#: The parameters read by the parsers here, never by a widget bound to the URL.
PARSED = frozenset({"preset", "round", "mv", "pts", "section"})
#: Parameters Streamlit itself reads (``?embed=true``): never reported as unknown.
STREAMLIT_PARAMS = frozenset({"embed", "embed_options"})

_NOTES = "_url_notes"  # session key: {param: Ignored} for the page being shown
_PAGE = "_url_page"  # session key: the page whose notes these are
_CHECK = "_url_check"  # session key: the link's raw values not checked yet
_HANDLED = "_url_handled"  # session key: parameters read by a parser (not by a widget)


@dataclass(frozen=True)
class Ignored:
    """A URL parameter the page could not use: its name, why, and its value (quoted)."""

    param: str
    reason: str
    value: str

    def text(self) -> str:
        """``round=²… (not a whole number)`` as plain text (to be escaped for markdown)."""
        return f"{self.param}={self.value} ({self.reason})"


def quote(raw: Any, limit: int = QUOTE_LIMIT) -> str:
    """The value as text of at most ``limit`` characters (cut ones end with "…"); a repeated
    parameter is shown as its values joined by commas, control characters as spaces."""
    if isinstance(raw, list | tuple):
        raw = ",".join(str(v) for v in raw)
    text = "".join(" " if not ch.isprintable() else ch for ch in str(raw))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bad(param: str, reason: str, raw: Any) -> Ignored:
    return Ignored(str(param), reason, quote(raw))


def _last(raw: str | Sequence[str]) -> str:
    """A repeated scalar parameter (``?s=3&s=4``): the last value, as Streamlit reads it."""
    if isinstance(raw, str):
        return raw
    return str(raw[-1]) if len(raw) else ""


def _int_text(text: str) -> int | None:
    """An ASCII whole number (optional sign), or None; never calls ``int`` on long text."""
    text = text.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or len(text) > _MAX_NUMBER_CHARS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def _float_text(text: str) -> float | None:
    """An ASCII decimal number (finite or not), or None."""
    text = text.strip()
    if not text or len(text) > _MAX_NUMBER_CHARS or not text.isascii() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _span(lo, hi) -> str:
    return f"{lo}–{hi}"


def parse_int(
    param: str, raw: str | Sequence[str] | None, *, lo: int, hi: int, default: int
) -> tuple[int, Ignored | None]:
    """A whole number in ``lo … hi``; anything else gives ``default`` and the reason."""
    if raw is None:
        return default, None
    value = _int_text(_last(raw))
    if value is None:
        return default, _bad(param, "not a whole number", raw)
    if not lo <= value <= hi:
        return default, _bad(param, f"must be {_span(lo, hi)}", raw)
    return value, None


def parse_float(
    param: str, raw: str | Sequence[str] | None, *, lo: float, hi: float, default: float
) -> tuple[float, Ignored | None]:
    """A finite number in ``lo … hi``; anything else (``nan``, ``inf``, text) gives
    ``default`` and the reason."""
    if raw is None:
        return default, None
    value = _float_text(_last(raw))
    if value is None:
        return default, _bad(param, "not a number", raw)
    if not math.isfinite(value):
        return default, _bad(param, "not a finite number", raw)
    if not lo <= value <= hi:
        return default, _bad(param, f"must be {_span(lo, hi)}", raw)
    return value, None


def parse_choice(
    param: str, raw: str | Sequence[str] | None, choices: Sequence[str], default: T
) -> tuple[str | T, Ignored | None]:
    """One of ``choices`` (exactly as written); anything else gives ``default``."""
    if raw is None:
        return default, None
    value = _last(raw)
    if value in choices:
        return value, None
    return default, _bad(param, "not one of the choices", raw)


def parse_choices(
    param: str,
    raw: str | Sequence[str] | None,
    choices: Sequence[str],
    default: Sequence[str],
) -> tuple[list[str], Ignored | None]:
    """Some of ``choices`` (a repeated parameter); unknown ones are left out with a reason,
    and if none is left, ``default``."""
    if raw is None:
        return list(default), None
    values = [raw] if isinstance(raw, str) else [str(v) for v in raw]
    kept = [v for v in dict.fromkeys(values) if v in choices]
    unknown = [v for v in values if v not in choices]
    if not unknown:
        return kept, None
    if not kept:
        return list(default), _bad(param, "none of them is a choice", raw)
    return kept, _bad(param, f"{len(unknown)} not a choice, left out", unknown)


def parse_round(
    param: str, raw: str | Sequence[str] | None, *, lo: int, hi: int, default: int
) -> tuple[int, Ignored | None]:
    """A round of ``lo … hi``: text gives ``default``; a number outside is clamped into the
    run (the nearest round is what the link most likely meant), both with a reason."""
    if raw is None:
        return default, None
    value = _int_text(_last(raw))
    if value is None:
        return default, _bad(param, f"not a whole number; showing round {default}", raw)
    if not lo <= value <= hi:
        shown = min(max(value, lo), hi)
        return shown, _bad(param, f"this run has rounds {_span(lo, hi)}; showing {shown}", raw)
    return value, None


#: One move of the dividing game: (leaf, k, the k weight shares).
Move = tuple[int, int, tuple[float, ...]]


def parse_moves(param: str, raw: str | Sequence[str] | None) -> tuple[list[Move], Ignored | None]:
    """The moves of a game, ``leaf-k-share_share…`` joined by ``;``.

    Reading stops at the first move that is not of that form (the moves before it are kept);
    whether a move is legal in its game is for the game to say (it reports with :func:`note`).
    """
    if raw is None:
        return [], None
    text = _last(raw)
    moves: list[Move] = []
    for i, part in enumerate(filter(None, text.split(";")), start=1):
        if len(moves) >= MAX_MOVES:
            return moves, _bad(param, f"more than {MAX_MOVES} moves; the rest left out", part)
        fields = part.split("-", 2)  # shares may hold "-" (1e-05)
        leaf = _int_text(fields[0]) if len(fields) == 3 else None
        k = _int_text(fields[1]) if len(fields) == 3 else None
        shares = (
            [_float_text(v) for v in fields[2].split("_")[: MAX_MOVES + 1]]
            if len(fields) == 3
            else []
        )
        if leaf is None or k is None or not shares or any(v is None for v in shares):
            return moves, _bad(param, f"move {i} is not leaf-k-shares; kept {i - 1}", part)
        moves.append((leaf, k, tuple(float(v) for v in shares)))
    return moves, None


def parse_points(param: str, raw: str | Sequence[str] | None) -> tuple[list, Ignored | None]:
    """The drawn points of a ``pts=`` value (see :func:`ui.draw.decode_points`): a damaged
    value keeps the points before the damage."""
    from .draw import decode_points  # ui.draw reads its link through this module

    if raw is None:
        return [], None
    text = _last(raw)
    points, message = decode_points(text)
    if message is None:
        return points, None
    return points, _bad(param, f"damaged; kept {len(points)} point(s)", text)


# ------------------------------------------------------------------------------ the notice
def _session_notes() -> dict[str, Ignored]:
    return st.session_state.setdefault(_NOTES, {})


def note(bad: Ignored | None, *, handled: str | None = None) -> None:
    """Report an ignored parameter (None: nothing to report) on this page's notice.

    ``handled`` names a parameter read by the page's own code rather than by a bound
    widget, so that :func:`finish` does not compare it with a widget's value.
    """
    if handled is not None:
        st.session_state.setdefault(_HANDLED, set()).add(handled)
    if bad is not None:
        _session_notes()[bad.param] = bad


def handled(*params: str) -> None:
    """Parameters the page set itself (a preset's widgets): not compared at :func:`finish`."""
    st.session_state.setdefault(_HANDLED, set()).update(params)


def _overflowing(raw: Sequence[str]) -> bool:
    """Text that Python reads as an infinite number (``inf``, ``1e999``, 400 digits)."""
    for text in raw:
        try:
            if math.isinf(float(text.strip())):
                return True
        except (ValueError, OverflowError):
            continue
    return False


def _drop_overflowing() -> None:
    """Remove from the link every value read as an infinite number, before any widget.

    Streamlit (1.67) seeds an integer ``number_input`` bound to the URL with
    ``int(float(text))``: ``?seed=1e999``, ``?seed=inf`` or 400 digits raise an
    ``OverflowError`` it does not catch, a traceback on the page. No parameter of this app
    accepts such a value, so it is dropped (from the values that seed the widgets too) and
    reported; the parameters in :data:`PARSED` are left to their parsers.
    """
    bad = {k: st.query_params.get_all(k) for k in st.query_params if k not in PARSED}
    bad = {k: v for k, v in bad.items() if _overflowing(v)}
    if not bad:
        return
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        with get_session_state().query_params() as qp:
            for key in bad:
                qp._initial_query_params.pop(key, None)
    except Exception:  # noqa: BLE001 — private API; the URL is still cleaned below
        pass
    for key, raw in bad.items():
        try:
            del st.query_params[key]
        except Exception:  # noqa: BLE001 — a parameter bound to a widget already drawn
            pass
        note(_bad(key, "not a finite number", raw))


def _drop_unknown(accepts: Collection[str]) -> None:
    """Report and remove every parameter the page does not read (``?foo=1``, or another
    page's ``?T2=5``), so that the notice names it and a copied link leaves it out."""
    for key in [k for k in st.query_params if k not in accepts and k not in STREAMLIT_PARAMS]:
        raw = st.query_params.get_all(key)
        try:
            del st.query_params[key]
        except Exception:  # noqa: BLE001 — still reported; the URL keeps it
            pass
        note(_bad(key, "not a parameter of this page", raw))


def begin(page: str, accepts: Collection[str]):
    """Start a page run: keep the notice's place at the top and, on the run that opens the
    page, remember the link's raw values. Returns the notice's container.

    ``accepts`` names every URL parameter the page reads (its bound widgets' keys and the
    parameters its parsers read); any other parameter of the link is reported as not a
    parameter of this page and removed from the address.
    """
    ss = st.session_state
    if ss.get(_PAGE) != page:  # the page is opened (a link, or from another page)
        ss[_PAGE] = page
        ss[_NOTES] = {}
        ss[_HANDLED] = set()
        _drop_unknown(frozenset(accepts))
        ss[_CHECK] = {k: st.query_params.get_all(k) for k in st.query_params}
    _drop_overflowing()
    return st.container()


def _bound_keys() -> set[str] | None:
    """The URL parameters bound to a widget on this run (None when Streamlit hides it)."""
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        with get_session_state().query_params() as qp:
            return set(qp._bindings_by_param)
    except Exception:  # noqa: BLE001 — private API: fall back to the session's keys
        return None


def _widget_range(key: str) -> tuple[float, float] | None:
    """The ``min``/``max`` of the slider or number input bound to ``key`` on this run (None
    if it has none, or if Streamlit's private state is not where 1.67 keeps it)."""
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        state = get_session_state()
        with state.query_params() as qp:
            widget_id = qp._bindings_by_param[key].widget_id
        meta = state._state._new_widget_state.widget_metadata[widget_id]
        serde = meta.deserializer.__self__
        lo, hi = float(serde.min_value), float(serde.max_value)
    except Exception:  # noqa: BLE001 — private API, or no range: the reason says less
        return None
    return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None


def _same(raw: str, value: Any) -> bool:
    """Whether a widget's value is what the raw URL text says."""
    if isinstance(value, bool):
        return raw.strip().lower() == str(value).lower()
    if isinstance(value, int):
        return _int_text(raw) == value
    if isinstance(value, float):
        got = _float_text(raw)
        return got is not None and math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-12)
    if value is None:
        return raw == ""
    return raw == str(value)


def widget_problem(
    param: str, raw: Sequence[str], value: Any, span: tuple[float, float] | None = None
) -> Ignored | None:
    """Why a bound widget's ``value`` is not the link's ``raw`` values (None if it is).

    Streamlit drops a value it cannot use (the widget keeps its default) and clamps a number
    outside the widget's range; the reason says which, with the widget's range ``span`` when
    known (``s=0 (must be 2–64)``).
    """
    if isinstance(value, list | tuple):
        if len(raw) == len(value) and all(_same(r, v) for r, v in zip(raw, value)):
            return None
        return _bad(param, "not all of them are choices", raw)
    text = _last(raw)
    if _same(text, value):
        return None
    if isinstance(value, bool):
        return _bad(param, "not true or false", raw)
    if isinstance(value, int):
        got = _int_text(text)
        if got is None:
            return _bad(param, "not a whole number", raw)
        if span is not None and not span[0] <= got <= span[1]:
            return _bad(param, f"must be {_span(int(span[0]), int(span[1]))}", raw)
        return _bad(param, f"not allowed; using {value}", raw)
    if isinstance(value, float):
        got = _float_text(text)
        if got is None:
            return _bad(param, "not a number", raw)
        if not math.isfinite(got):
            return _bad(param, "not a finite number", raw)
        if span is not None and not span[0] <= got <= span[1]:
            return _bad(param, f"must be {_span(f'{span[0]:g}', f'{span[1]:g}')}", raw)
        return _bad(param, f"not allowed; using {value:g}", raw)
    return _bad(param, "not one of the choices", raw)


def check_widgets() -> None:
    """Note every bound widget that did not take the link's value: on the run that opened
    the page, and for a widget drawn only later (another mode, another data source), on the
    run that draws it first."""
    ss = st.session_state
    pending: dict[str, list[str]] | None = ss.get(_CHECK)
    if not pending:
        return
    bound = _bound_keys()
    skip = ss.get(_HANDLED, set())
    for key in list(pending):
        if key in skip or key in _session_notes():
            pending.pop(key)
            continue
        if key not in ss or (bound is not None and key not in bound):
            continue  # not drawn yet: checked on the run that draws it
        raw = pending.pop(key)
        value = ss[key]
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        note(widget_problem(key, raw, value, _widget_range(key) if numeric else None))


def notice_text(notes: Sequence[Ignored]) -> str:
    """The notice as markdown-safe text: every value and reason escaped."""
    return "Ignored from the link: " + "; ".join(md_plain(b.text(), limit=200) for b in notes)


def finish(slot=None) -> None:
    """End a page run: check the bound widgets, then show the notice (in ``slot``)."""
    check_widgets()
    notes = list(_session_notes().values())
    if notes:
        (slot or st).warning(notice_text(notes), icon=":material/link_off:")


def page_run(page: str, render: Callable[[], None], *, accepts: Collection[str]) -> None:
    """``render()`` between :func:`begin` and :func:`finish` (``accepts``: see :func:`begin`)."""
    slot = begin(page, accepts)
    render()
    finish(slot)
