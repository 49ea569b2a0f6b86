"""The contract between Python and the lecture script: what each role of the component is
mounted with (:class:`StepperData`, :class:`ViewData`, :class:`QuizData`,
:class:`RegionsData`, frozen dataclasses whose camelCased fields are the keys the script
reads) and the values it sends back (:data:`ROUND_STATE`, :data:`FOCUS_TRIGGER`).
``tests/ui/test_lecture_contract.py`` checks the script against them. Plain dataclasses: nothing
here calls Streamlit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@functools.cache  # a handful of field names, converted on every view of every run
def _camel(name: str) -> str:
    """``min_height`` → ``minHeight``: a Python field's name as the lecture script reads it."""
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


@dataclass(frozen=True)
class ComponentData:
    """What the lecture script (``ui/lecture/js/``) is mounted with, and what it sends back;
    one subclass per role.

    The component's ``data`` is built only by :meth:`to_js` from a subclass's fields (their
    names in camelCase, plus ``role``), and its callbacks only by :meth:`callbacks` from the
    names the subclass declares. ``tests/ui/test_lecture_contract.py`` parses the script and
    fails when the script reads a key that is not sent, a key is sent that the script never
    reads, or the script sends back a value whose name is not declared here.

    Attributes
    ----------
    role : str
        The ``data.role`` the lecture script dispatches on (class attribute).
    states : tuple of str
        Names of the values the script keeps with ``setStateValue(name, value)``; Streamlit
        calls ``on_{name}_change`` (class attribute).
    triggers : tuple of str
        Names of the events the script fires with ``setTriggerValue(name, value)``; Streamlit
        calls ``on_{name}_change`` (class attribute).
    """

    role: ClassVar[str] = ""
    states: ClassVar[tuple[str, ...]] = ()
    triggers: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def js_keys(cls) -> tuple[str, ...]:
        """The keys of :meth:`to_js`, as the lecture script reads them."""
        return ("role", *(_camel(f.name) for f in fields(cls)))

    def to_js(self) -> dict[str, Any]:
        """The component's ``data``: ``role`` and every field, camelCased (not copied: the
        frames can be megabytes)."""
        return {"role": self.role, **{_camel(f.name): getattr(self, f.name) for f in fields(self)}}

    @classmethod
    def callbacks(cls, **handlers: Callable[[], None]) -> dict[str, Callable[[], None]]:
        """Streamlit's ``on_{name}_change`` keyword arguments for declared names.

        Parameters
        ----------
        **handlers : callable
            One callback per declared state or trigger name (``round=…``, ``focus=…``).

        Returns
        -------
        dict of str to callable
            ``{"on_round_change": …}``, to unpack into the component call.

        Raises
        ------
        ValueError
            For a name the role does not declare (the script never sends it).
        """
        declared = (*cls.states, *cls.triggers)
        unknown = sorted(set(handlers) - set(declared))
        if unknown:
            raise ValueError(f"{cls.__name__} sends back only {declared}; got {unknown}")
        return {f"on_{name}_change": handler for name, handler in handlers.items()}


#: The browser stepper's state value: the round it shows (``setStateValue("round", t)``).
ROUND_STATE = "round"
#: A focusable view's trigger: a click on a small multiple (``setTriggerValue("focus", name)``).
FOCUS_TRIGGER = "focus"


@dataclass(frozen=True)
class StepperData(ComponentData):
    """The browser's round stepper (role ``"stepper"``); see :func:`stepper`.

    Attributes
    ----------
    key : str
        The round's session key and URL parameter (the stepper writes ``?{key}=``).
    page : str
        The page's name: the browser keeps one stepper state per page and key.
    lo, hi : int
        The run's first and last round.
    t : int
        The round the server shows (a change of it wins over the browser's round).
    label : str
        The slider's label.
    caption : str
        The line under the stepper (empty in presenter mode).
    start : int
        The page's default round: the address bar names every other round.
    seq : int
        The sequence number of the browser's last report the server applied (0: none); a
        rerun that began before a later report is a late echo, which does not move the
        round (:func:`ui.rounds.on_browser_round`).
    moved : int
        How many times the server moved the round itself (a preset, the student's play):
        a change of it wins over the browser's round.
    """

    role: ClassVar[str] = "stepper"
    states: ClassVar[tuple[str, ...]] = (ROUND_STATE,)

    key: str
    page: str
    lo: int
    hi: int
    t: int
    label: str
    caption: str
    start: int
    seq: int
    moved: int


@dataclass(frozen=True)
class ViewData(ComponentData):
    """One view of the lecture (role ``"view"``); see :func:`view` for the meaning of each.

    Attributes
    ----------
    kind : {"plotly", "svg", "html"}
    stepper : str
        The key of the stepper whose round the view draws.
    frames : list
        One encoded frame per round.
    title : str
    notes : list of str or None
    height : int or None
        A fixed height; ``None`` fits the window (``min_height``, ``max_height``,
        ``reserve``, ``reserve_from``) and the data's ``aspect``.
    min_height, max_height, reserve : int
    reserve_from : int or None
    config : dict
        plotly.js's config (the camera button's file name, responsive).
    focusable : str or None
        The ``focus`` trigger's value on a click; ``None``: not clickable.
    descriptions : list of str or None
        One plain sentence per round: what the drawing shows (its accessible description).
    aspect : float or None
        Height/width of the plotted data.
    presenter : bool
        Presenter mode: the frames were built for a 1920-px-wide screen; the browser scales
        their text and margins with the window's width, with a floor of 22 px at 1920
        (26 px for a label holding a sub/superscript).
    """

    role: ClassVar[str] = "view"
    triggers: ClassVar[tuple[str, ...]] = (FOCUS_TRIGGER,)

    kind: str
    stepper: str
    frames: Sequence[Any]
    title: str
    notes: Sequence[str] | None
    height: int | None
    min_height: int
    max_height: int
    reserve: int
    reserve_from: int | None
    config: dict[str, Any]
    focusable: str | None
    aspect: float | None
    presenter: bool
    descriptions: Sequence[str] | None = None


@dataclass(frozen=True)
class QuizData(ComponentData):
    """Predict, then reveal in the browser (role ``"quiz"``); see :func:`quiz`.

    Attributes
    ----------
    stepper : str
        The key of the stepper whose round the quiz follows.
    page : str
        The page's name: the browser keeps one score per page (sessionStorage).
    questions : list of dict or None
        One entry per round: the question asked before the next step (``id``, ``t``,
        ``text``, ``answers``, ``correct``, ``why``, ``kind``), or ``None`` (nothing to ask).
    presenting : bool
        Presenter mode: larger text, and the class's answer is optional.
    """

    role: ClassVar[str] = "quiz"

    stepper: str
    page: str
    questions: list[dict[str, Any] | None]
    presenting: bool


@dataclass(frozen=True)
class RegionsData(ComponentData):
    """Boxes that scroll sideways made keyboard regions (role ``"regions"``); see
    :func:`scroll_regions`.

    Attributes
    ----------
    selector : str
        CSS selector of the boxes (e.g. KaTeX's display formulas).
    label : str
        The accessible name of a box that scrolls (a Tab stop then).
    """

    role: ClassVar[str] = "regions"

    selector: str
    label: str
