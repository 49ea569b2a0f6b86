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

Every parameter is declared once, as a :class:`Param` in the page registry (``ui/pages``): its
name, kind, range and default. The widgets take their range and default from it
(:meth:`Param.number`, :meth:`Param.select`, …), and the notice takes the range it quotes
(``s=0 (must be 2–64)``) from it too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import streamlit as st

from .text import md_plain

T = TypeVar("T")


class Page(Protocol):
    """What this module needs of a page's row of the registry (``ui.pages.PageSpec``)."""

    slug: str
    params: tuple[Param, ...]

    @property
    def url_params(self) -> tuple[str, ...]: ...


#: The longest quote of a link's value in a notice (the quote ends with "…" when cut).
QUOTE_LIMIT = 40
#: The longest number a parser reads (longer text is refused before ``int``/``float``).
_MAX_NUMBER_CHARS = 32
#: The most moves a ``mv=`` value may hold (a game has at most 64 leaves, so far fewer).
MAX_MOVES = 256

#: Parameters Streamlit itself reads (``?embed=true``): never reported as unknown.
STREAMLIT_PARAMS = frozenset({"embed", "embed_options"})

_NOTES = "_url_notes"  # session key: {param: Ignored} for the page being shown
_PAGE = "_url_page"  # session key: the page whose notes these are
_CHECK = "_url_check"  # session key: the link's raw values not checked yet
_HANDLED = "_url_handled"  # session key: parameters read by a parser (not by a widget)
_DECLARED = "_url_declared"  # session key: {name: Param} of the page being run


#: The kinds of URL parameter: a widget bound to the URL reads the first five; a
#: ``"parsed"`` one is read by the page's own code with a parser below.
KINDS = ("int", "float", "choice", "choices", "flag", "parsed")


@dataclass(frozen=True)
class Param:
    """One URL parameter of a page, declared once in the page registry (``ui/pages``).

    Attributes
    ----------
    name : str
        The parameter in the link, and the session key of the widget bound to it.
    kind : {"int", "float", "choice", "choices", "flag", "parsed"}
        A number (slider or number input), one or several of ``options`` (selectbox, radio,
        select slider, segmented control; multiselect), a checkbox or toggle, or a value
        the page reads with a parser of this module (``preset``, ``round``, ``mv``, …).
    lo, hi : float, optional
        The range of a number.
    default : optional
        The value without a link (a tuple for ``"choices"``).
    step : float, optional
        A number's step (Streamlit's own default when omitted).
    options : tuple, optional
        The choices, as the link spells them (None: the page supplies them at run time).
    field : str, optional
        The attribute of the lesson's :class:`Settings` this parameter fills (None: not a
        setting of the lesson, e.g. the header's or the dataset's parameters).
    values : mapping, optional
        What each choice means in code, declared with the choices (as tensorflow/playground's
        ``state.ts`` keeps a parameter's value map beside it): ``{"largest weight":
        "max_weight", …}``. Without it a setting is the widget's value itself. Kept as a
        tuple of pairs, so the declaration stays hashable.

    Examples
    --------
    >>> Param("s", "int", lo=2, hi=64, default=16).number()["max_value"]
    64
    >>> Param("s", "int", lo=2, hi=64, default=99)
    Traceback (most recent call last):
    ...
    ValueError: default of URL parameter 's' must be within 2–64; got 99
    >>> Param("leaf", "choice", default="a", options=("a", "b"), values={"a": 1, "b": 2}).value("b")
    2
    """

    name: str
    kind: str
    lo: float | None = None
    hi: float | None = None
    default: Any = None
    step: float | None = None
    options: tuple | None = None
    field: str | None = None
    values: Any = None

    def __post_init__(self) -> None:
        if isinstance(self.values, Mapping):
            object.__setattr__(self, "values", tuple(self.values.items()))
        if self.values is not None:
            if self.kind not in ("choice", "choices") or self.options is None:
                raise ValueError(
                    f"values of URL parameter {self.name!r} map declared choices: its kind must "
                    f"be 'choice' or 'choices' with options; got kind {self.kind!r}, options "
                    f"{self.options!r}"
                )
            keys = [k for k, _ in self.values]
            if sorted(map(str, keys)) != sorted(map(str, self.options)):
                raise ValueError(
                    f"values of URL parameter {self.name!r} must map exactly its options "
                    f"{self.options}; got {tuple(keys)}"
                )
        if self.kind not in KINDS:
            raise ValueError(
                f"kind of URL parameter {self.name!r} must be one of {KINDS}; got {self.kind!r}"
            )
        if self.kind in ("int", "float"):
            if self.lo is None or self.hi is None or self.default is None:
                raise ValueError(
                    f"URL parameter {self.name!r} is a number: lo, hi and default are needed; "
                    f"got lo={self.lo!r}, hi={self.hi!r}, default={self.default!r}"
                )
            if not self.lo <= self.default <= self.hi:
                raise ValueError(
                    f"default of URL parameter {self.name!r} must be within "
                    f"{_span(self.lo, self.hi)}; got {self.default!r}"
                )
        if self.options is not None and self.default is not None:
            wanted = self.default if self.kind == "choices" else (self.default,)
            missing = [v for v in wanted if v not in self.options]
            if missing:
                raise ValueError(
                    f"default of URL parameter {self.name!r} must be among its options "
                    f"{self.options}; got {missing}"
                )

    def value(self, shown: Any) -> Any:
        """What the widget's value ``shown`` means in code: its entry of :attr:`values` (each
        entry's, as a tuple, for several choices), or ``shown`` itself (a tuple for several
        choices) when the parameter declares no map."""
        mapping = dict(self.values) if self.values is not None else None
        if self.kind == "choices":
            return tuple(mapping[v] if mapping else v for v in (shown or ()))
        return mapping[shown] if mapping else shown

    @property
    def bound(self) -> bool:
        """Whether a widget bound to the URL reads it (every kind but ``"parsed"``)."""
        return self.kind != "parsed"

    @property
    def span(self) -> tuple[float, float] | None:
        """``(lo, hi)`` of a number, else None."""
        return (self.lo, self.hi) if self.kind in ("int", "float") else None

    def _bind(self) -> dict[str, Any]:
        """The widget's key and its binding to the address.

        Every keyword builder below gives the widget its declared default, also when
        Session State already holds the widget's value (a preset writes it there): Streamlit
        leaves a bound parameter out of the address while the value equals the widget's
        default, so every session must give a widget the same default. Drawn without one
        (issue 25, 12 left it out to quiet a log line), a widget took Streamlit's own (a
        slider's minimum): a preset's ``flip=0.0`` vanished from the teacher's address while
        a student's page opened from it took the declared 0.05, another dataset (issue 39,
        item 1). The log line is off in ``.streamlit/config.toml``."""
        return {"key": self.name, "bind": "query-params"}

    def number(self) -> dict[str, Any]:
        """Keyword arguments of ``st.slider`` / ``st.number_input`` for this number."""
        if self.kind not in ("int", "float"):
            raise TypeError(f"URL parameter {self.name!r} is a {self.kind}, not a number")
        out = dict(
            min_value=self.lo,
            max_value=self.hi,
            value=self.default,
            **self._bind(),
        )
        if self.step is not None:
            out["step"] = self.step
        return out

    def _options(self, options: Sequence[Any] | None) -> list[Any]:
        chosen = self.options if options is None else options
        if chosen is None:
            raise TypeError(f"URL parameter {self.name!r} declares no options: pass them")
        return list(chosen)

    def select(self, options: Sequence[Any] | None = None) -> dict[str, Any]:
        """Keyword arguments of ``st.selectbox`` / ``st.radio``: the options (the declared
        ones, or ``options`` for choices known only at run time) and the default's index."""
        opts = self._options(options)
        index = opts.index(self.default) if self.default in opts else 0
        return dict(options=opts, index=index, **self._bind())

    def segmented(self) -> dict[str, Any]:
        """Keyword arguments of ``st.segmented_control`` (one choice)."""
        opts = self._options(None)
        return dict(options=opts, default=self.default, **self._bind())

    def select_slider(self) -> dict[str, Any]:
        """Keyword arguments of ``st.select_slider``."""
        opts = self._options(None)
        return dict(options=opts, value=self.default, **self._bind())

    def multi(self, options: Sequence[Any] | None = None) -> dict[str, Any]:
        """Keyword arguments of ``st.multiselect`` (several choices)."""
        opts = self._options(options)
        default = [v for v in (self.default or ()) if v in opts]
        return dict(options=opts, default=default, **self._bind())

    def flag(self) -> dict[str, Any]:
        """Keyword arguments of ``st.checkbox`` / ``st.toggle``."""
        if self.kind != "flag":
            raise TypeError(f"URL parameter {self.name!r} is a {self.kind}, not a flag")
        return dict(value=bool(self.default), **self._bind())


class Settings:
    """A lesson's settings: one frozen, hashable record of what its sidebar chose, in code's
    terms (the :attr:`Param.values` of each choice applied), built by :func:`settings` from
    the page's declared parameters. Several choices are tuples.

    >>> s = Settings({"size": 16, "crit": ("hatano", "naive")})
    >>> s.size, s.as_dict()
    (16, {'size': 16, 'crit': ['hatano', 'naive']})
    >>> s.replace(size=8).size, s.size
    (8, 16)
    >>> s.size = 3
    Traceback (most recent call last):
    ...
    AttributeError: Settings are frozen: use replace(size=...)
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_items", tuple(items.items()))

    def __getattr__(self, name: str) -> Any:
        for key, value in object.__getattribute__(self, "_items"):
            if key == name:
                return value
        raise AttributeError(f"no setting {name!r}; the settings are {self.fields}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Settings are frozen: use replace({name}=...)")

    @property
    def fields(self) -> tuple[str, ...]:
        """The settings' names, in the order the page declares them."""
        return tuple(key for key, _ in self._items)

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (names it does not have are refused)."""
        unknown = sorted(set(changes) - set(self.fields))
        if unknown:
            raise AttributeError(f"no setting {unknown}; the settings are {self.fields}")
        return Settings({**dict(self._items), **changes})

    def as_dict(self) -> dict[str, Any]:
        """The settings as the run's record and scripts name them (tuples as lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self._items}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and self._items == other._items

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{k}={v!r}" for k, v in self._items) + ")"

    def __reduce__(self):  # pickled by value (Streamlit's cache hashes arguments so)
        return (Settings, (dict(self._items),))


def settings(declared: Iterable[Param], shown: Mapping[str, Any]) -> Settings:
    """The lesson's :class:`Settings` from its widgets' values ``shown`` (by parameter name):
    every declared parameter with a :attr:`Param.field`, in declaration order, through its
    value map.

    >>> p = (Param("s", "int", lo=2, hi=64, default=16, field="size"),
    ...      Param("leaf", "choice", default="w", options=("w", "g"), field="rule",
    ...            values={"w": "max_weight", "g": "max_gain"}))
    >>> settings(p, {"s": 8, "leaf": "g"})
    Settings(size=8, rule='max_gain')
    >>> settings(p, {"s": 8})
    Traceback (most recent call last):
    ...
    KeyError: "the widgets gave no value of URL parameter 'leaf' (setting 'rule'); got ['s']"
    """
    out = {}
    for p in declared:
        if p.field is None:
            continue
        if p.name not in shown:
            raise KeyError(
                f"the widgets gave no value of URL parameter {p.name!r} (setting {p.field!r}); "
                f"got {sorted(shown)}"
            )
        out[p.field] = p.value(shown[p.name])
    return Settings(out)


def named(group: Iterable[Param], name: str) -> Param:
    """The parameter called ``name`` in ``group``, a shared group of the registry
    (``named(pages.DATASET_PARAMS, "n").number()`` in the dataset sidebar).

    >>> named((Param("s", "int", lo=2, hi=64, default=16),), "s").default
    16
    """
    group = tuple(group)
    for p in group:
        if p.name == name:
            return p
    raise KeyError(f"no URL parameter {name!r} in {[p.name for p in group]}")


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


def ignored(param: str, reason: str, raw: Any) -> Ignored:
    """The record of a value the page could not use: ``param``, why, and the value quoted."""
    return Ignored(str(param), reason, quote(raw))


def last_value(raw: str | Sequence[str]) -> str:
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
    value = _int_text(last_value(raw))
    if value is None:
        return default, ignored(param, "not a whole number", raw)
    if not lo <= value <= hi:
        return default, ignored(param, f"must be {_span(lo, hi)}", raw)
    return value, None


def parse_float(
    param: str, raw: str | Sequence[str] | None, *, lo: float, hi: float, default: float
) -> tuple[float, Ignored | None]:
    """A finite number in ``lo … hi``; anything else (``nan``, ``inf``, text) gives
    ``default`` and the reason."""
    if raw is None:
        return default, None
    value = _float_text(last_value(raw))
    if value is None:
        return default, ignored(param, "not a number", raw)
    if not math.isfinite(value):
        return default, ignored(param, "not a finite number", raw)
    if not lo <= value <= hi:
        return default, ignored(param, f"must be {_span(lo, hi)}", raw)
    return value, None


def parse_choice(
    param: str, raw: str | Sequence[str] | None, choices: Sequence[str], default: T
) -> tuple[str | T, Ignored | None]:
    """One of ``choices`` (exactly as written); anything else gives ``default``."""
    if raw is None:
        return default, None
    value = last_value(raw)
    if value in choices:
        return value, None
    return default, ignored(param, "not one of the choices", raw)


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
        return list(default), ignored(param, "none of them is a choice", raw)
    return kept, ignored(param, f"{len(unknown)} not a choice, left out", unknown)


def parse_round(
    param: str, raw: str | Sequence[str] | None, *, lo: int, hi: int, default: int
) -> tuple[int, Ignored | None]:
    """A round of ``lo … hi``: text gives ``default``; a number outside is clamped into the
    run (the nearest round is what the link most likely meant), both with a reason."""
    if raw is None:
        return default, None
    value = _int_text(last_value(raw))
    if value is None:
        return default, ignored(param, f"not a whole number; showing round {default}", raw)
    if not lo <= value <= hi:
        shown = min(max(value, lo), hi)
        return shown, ignored(param, f"this run has rounds {_span(lo, hi)}; showing {shown}", raw)
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
    text = last_value(raw)
    moves: list[Move] = []
    for i, part in enumerate(filter(None, text.split(";")), start=1):
        if len(moves) >= MAX_MOVES:
            return moves, ignored(param, f"more than {MAX_MOVES} moves; the rest left out", part)
        fields = part.split("-", 2)  # shares may hold "-" (1e-05)
        leaf = _int_text(fields[0]) if len(fields) == 3 else None
        k = _int_text(fields[1]) if len(fields) == 3 else None
        shares = (
            [_float_text(v) for v in fields[2].split("_")[: MAX_MOVES + 1]]
            if len(fields) == 3
            else []
        )
        if leaf is None or k is None or not shares or any(v is None for v in shares):
            return moves, ignored(param, f"move {i} is not leaf-k-shares; kept {i - 1}", part)
        moves.append((leaf, k, tuple(float(v) for v in shares)))
    return moves, None


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
    reported; the page's ``"parsed"`` parameters are left to their parsers.
    """
    declared = _declared()
    parsed = {k for k, p in declared.items() if not p.bound}
    bad = {k: st.query_params.get_all(k) for k in st.query_params if k not in parsed}
    bad = {k: v for k, v in bad.items() if _overflowing(v)}
    if not bad:
        return
    for key, raw in bad.items():
        try:
            del st.query_params[key]
        except Exception:  # noqa: BLE001 — a parameter bound to a widget already drawn
            pass
        note(ignored(key, "not a finite number", raw))
    reseed_widgets_from_link()


def reseed_widgets_from_link() -> None:
    """Let the widgets bound to the URL be seeded from the link as it is now.

    The one place this app reaches into Streamlit's internals (``tests/ui/test_url_params.py``
    fails loudly when Streamlit moves them): Streamlit keeps the link's values at page load
    apart and seeds each bound widget from that copy, so a value deleted from
    ``st.query_params`` would still reach the widget. ``set_initial_query_params_from_current``
    is the method Streamlit calls itself after a page change for the same purpose.
    """
    from streamlit.runtime.state.session_state_proxy import get_session_state

    with get_session_state().query_params() as qp:
        qp.set_initial_query_params_from_current()


def _drop_unknown(accepts: Collection[str]) -> None:
    """Report and remove every parameter the page does not read (``?foo=1``, or another
    page's ``?T2=5``), so that the notice names it and a copied link leaves it out."""
    for key in [k for k in st.query_params if k not in accepts and k not in STREAMLIT_PARAMS]:
        raw = st.query_params.get_all(key)
        try:
            del st.query_params[key]
        except Exception:  # noqa: BLE001 — still reported; the URL keeps it
            pass
        note(ignored(key, "not a parameter of this page", raw))


def begin(page: Page):
    """Start a page run: keep the notice's place at the top and, on the run that opens the
    page, remember the link's raw values. Returns the notice's container.

    ``page`` is the page's row of the registry (``ui/pages``): every URL parameter it reads
    is declared there; any other parameter of the link is reported as not a parameter of
    this page and removed from the address.
    """
    ss = st.session_state
    slug = page.slug or "home"
    ss[_DECLARED] = {p.name: p for p in page.params}
    if ss.get(_PAGE) != slug:  # the page is opened (a link, or from another page)
        ss[_PAGE] = slug
        ss[_NOTES] = {}
        ss[_HANDLED] = set()
        _drop_unknown(frozenset(page.url_params))
        ss[_CHECK] = {k: st.query_params.get_all(k) for k in st.query_params}
    _drop_overflowing()
    return st.container()


def _declared() -> dict[str, Param]:
    """The URL parameters of the page being run (set by :func:`begin`)."""
    return st.session_state.get(_DECLARED, {})


def is_default(name: str, value: Any) -> bool:
    """Whether ``value`` is the declared default of the page's bound parameter ``name``: a
    widget leaves such a value out of the address, so code that writes the address itself
    (a preset) leaves it out too, and every session writes the same values the same way."""
    p = _declared().get(name)
    if p is None or not p.bound or p.default is None:
        return False
    if p.kind == "choices":
        return isinstance(value, list | tuple) and list(value) == list(p.default)
    if isinstance(value, bool) or isinstance(p.default, bool):  # True is not the number 1
        return value is p.default
    return value == p.default


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
        return ignored(param, "not all of them are choices", raw)
    text = last_value(raw)
    if _same(text, value):
        return None
    if isinstance(value, bool):
        return ignored(param, "not true or false", raw)
    if isinstance(value, int):
        got = _int_text(text)
        if got is None:
            return ignored(param, "not a whole number", raw)
        if span is not None and not span[0] <= got <= span[1]:
            return ignored(param, f"must be {_span(int(span[0]), int(span[1]))}", raw)
        return ignored(param, f"not allowed; using {value}", raw)
    if isinstance(value, float):
        got = _float_text(text)
        if got is None:
            return ignored(param, "not a number", raw)
        if not math.isfinite(got):
            return ignored(param, "not a finite number", raw)
        if span is not None and not span[0] <= got <= span[1]:
            return ignored(param, f"must be {_span(f'{span[0]:g}', f'{span[1]:g}')}", raw)
        return ignored(param, f"not allowed; using {value:g}", raw)
    return ignored(param, "not one of the choices", raw)


def check_widgets() -> None:
    """Note every bound widget that did not take the link's value: on the run that opened
    the page, and for a widget drawn only later (another mode, another data source), on the
    run that draws it first."""
    ss = st.session_state
    pending: dict[str, list[str]] | None = ss.get(_CHECK)
    if not pending:
        return
    declared = _declared()
    skip = ss.get(_HANDLED, set())
    for key in list(pending):
        if key in skip or key in _session_notes():
            pending.pop(key)
            continue
        if key not in ss or (key in declared and not declared[key].bound):
            continue  # not drawn yet: checked on the run that draws it
        raw = pending.pop(key)
        value = ss[key]
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        span = declared[key].span if key in declared else None
        note(widget_problem(key, raw, value, span if numeric else None))


def notice_text(notes: Sequence[Ignored]) -> str:
    """The notice as markdown-safe text: every value and reason escaped."""
    return "Ignored from the link: " + "; ".join(md_plain(b.text(), limit=200) for b in notes)


def finish(slot=None) -> None:
    """End a page run: check the bound widgets, then show the notice (in ``slot``)."""
    check_widgets()
    notes = list(_session_notes().values())
    if notes:
        (slot or st).warning(notice_text(notes), icon=":material/link_off:")


def page_run(page: Page, render: Callable[[], None]) -> None:
    """``render()`` between :func:`begin` and :func:`finish` (``page``: see :func:`begin`)."""
    slot = begin(page)
    render()
    finish(slot)
