"""The round: the one module that reads and writes which round a page shows.

Where the round lives
---------------------
In ``st.session_state[key]`` (``key`` is :data:`KEY`, ``"round"``, on every page), in the
address bar (``?round=…``) and, on the lecture pages, in the browser's stepper
(``ui/lecture/js``, which reports the round back through :func:`on_browser_round`). Five
places used to write it (the lecture stepper, the game's stepper, loading a preset, a
preset link, the student's turn); a change to one of them — a key renamed, the kept round
forgotten — broke the others in ways only a browser test showed. So every module calls the
functions below, and ``tests/ui/test_rounds.py`` fails, naming the file and line, when any other
module of ``ui/`` or ``views/`` writes the round's session keys or ``st.query_params[key]``.

The API
-------
:func:`current`
    The round the session shows.
:func:`settle`
    The lecture stepper's round for a run of rounds ``lo … hi`` (link, preset, clamping).
:func:`show`
    Python moves the stepper (the student's play, undo, restart).
:func:`set_from_preset`
    A preset or challenge names the round, before its run exists.
:func:`from_link`
    A preset link's ``?round=``, kept until the stepper knows the run's rounds.
:func:`control_key`, :func:`on_browser_round`
    The browser stepper's component key and the callback of its ``round`` state.
:func:`stepper`
    The server-side stepper (slider, buttons, Play) of the dividing game.

Session keys
------------
All start with the stepper's ``key``; nobody outside this module reads or writes them.

==================  ==========================================================================
``key``             the round shown (on the game's page, the slider's value)
``{key}_init``      the session's first stepper has read the link's ``?round=``
``{key}_from_link`` a preset link's raw ``?round=`` (:func:`from_link`), applied once
``{key}_range``     the ``(lo, hi)`` of the run last shown
``{key}_keep``      the round to bring back when the run's rounds change (new parameters)
``{key}_ctl``       the browser stepper's component state (written by Streamlit)
``{key}_seq``       the sequence number of the browser's last report applied
``{key}_moves``     how many times Python moved the round itself (:func:`show`, a preset, a
                    preset link): the browser's stepper follows such a move
``{key}_moved_now`` Python moved it in this run's callbacks: a report of the browser's round
                    in the same run does not undo that move
``{key}_playing``,  the game's Play (see :func:`_keep_played_round`)
``{key}_shown``,
``{key}_locked``,
``{key}_last_tick``,
``{key}_advanced``,
``{key}_speed``
==================  ==========================================================================
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import streamlit as st

from . import params

#: The session key and URL parameter of the round on every page.
KEY = "round"

#: Seconds between two rounds when playing.
SPEEDS = {"slow": 2.0, "normal": 1.0, "fast": 0.5}


# ------------------------------------------------------------------------------- the API
def current(key: str = KEY, default: int | None = None) -> int | None:
    """The round the session shows.

    Parameters
    ----------
    key : str, default :data:`KEY`
        The stepper's key.
    default : int, optional
        Returned when no stepper has set a round yet.

    Returns
    -------
    int or None
        The round (the server's copy: on a lecture page the browser reports its round
        just before another control of the page is used, not after each step).
    """
    value = st.session_state.get(key)
    return default if value is None else int(value)


def reported(key: str = KEY) -> int:
    """The sequence number of the browser stepper's last report the session applied (0:
    none yet); sent back to the browser, which then tells a late echo from an answer."""
    return int(st.session_state.get(f"{key}_seq", 0))


def moves(key: str = KEY) -> int:
    """How many times Python moved the round itself (:func:`show`, a preset, a preset
    link's round): the browser's stepper follows a round when this count changed."""
    return int(st.session_state.get(f"{key}_moves", 0))


def _moved(key: str) -> None:
    ss = st.session_state
    ss[f"{key}_moves"] = int(ss.get(f"{key}_moves", 0)) + 1
    # a report of the browser's round handled later in the same run (its callback after a
    # control's: the browser reports just before a control is used) must not undo the move
    ss[f"{key}_moved_now"] = True


def show(t: int, *, key: str = KEY) -> None:
    """Move the stepper to round ``t`` from Python: the student's play, undo or restart
    (``ui/weak_common.py``), or the round the browser reports (:func:`on_browser_round`).

    The kept round is set as well: a student's split can change the run's number of rounds,
    and :func:`settle` then brings back the kept round, not the one in ``key``. On a lecture
    page the browser's stepper follows, because a round set by the server wins in
    the lecture script.

    Parameters
    ----------
    t : int
        The round (clamped into the run by the next :func:`settle`).
    key : str, default :data:`KEY`
        The stepper's key.
    """
    ss = st.session_state
    ss[key] = ss[f"{key}_keep"] = int(t)
    _moved(key)


def set_from_preset(t: int, *, key: str = KEY) -> None:
    """Show round ``t`` of a preset or challenge being loaded (``ui/header.py``), before
    its run is computed.

    Playing stops and the kept round is dropped: the next stepper clamps ``t`` into the
    preset's run (a large ``t`` is its last round) instead of bringing back the round shown
    before, and a ``?round=`` of the same link (:func:`from_link`) still wins over ``t``.

    Parameters
    ----------
    t : int
        The preset's round.
    key : str, default :data:`KEY`
        The stepper's key.
    """
    ss = st.session_state
    ss[key] = t
    ss[f"{key}_playing"] = False
    ss.pop(f"{key}_keep", None)
    _moved(key)


def from_link(key: str = KEY) -> None:
    """Keep the round a preset link names (``?preset=…&round=…``) for the stepper.

    ``ui.header.preset_from_url`` loads the preset before the run exists, so only the
    stepper (:func:`settle`, the game's :func:`stepper`) can check the round against the
    run's rounds: it shows it once, clamped, and says so on the page's notice if the value
    was not a round of the run. Nothing is kept when the link names no round.

    Parameters
    ----------
    key : str, default :data:`KEY`
        The stepper's key and URL parameter.
    """
    if key in st.query_params:
        params.handled(key)  # read here, not by a widget: not compared by params.finish
        st.session_state[f"{key}_from_link"] = st.query_params.get_all(key)


def settle(lo: int, hi: int, *, start: int | None = None, key: str = KEY) -> int:
    """The round a run of rounds ``lo … hi`` shows now; the lecture stepper's state.

    In order: on the session's first stepper, the link's ``?round=`` (else ``start``);
    a preset link's round (:func:`from_link`); when the run's rounds changed since the last
    run (new parameters), the round shown before; then clamped into ``lo … hi``. The result
    is kept (for the next change of rounds) and written to the address bar, unless it is
    ``start``: a link opens where it was made, and the page's default round needs no
    parameter.

    Parameters
    ----------
    lo, hi : int
        The run's first and last round.
    start : int, optional
        The page's default round (``lo`` if omitted), already inside ``lo … hi``.
    key : str, default :data:`KEY`
        The stepper's key and URL parameter.

    Returns
    -------
    int
        The round to show, in ``lo … hi``.
    """
    start = lo if start is None else start
    st.session_state.pop(f"{key}_moved_now", None)  # this run's callbacks are over
    _arrive(key, lo, hi, start)
    t = min(max(int(st.session_state.get(key, start)), lo), hi)
    st.session_state[key] = t
    _publish(key, t, start)
    return t


def control_key(key: str = KEY) -> str:
    """The Streamlit key of the browser stepper that steps ``key`` (its component state,
    which :func:`on_browser_round` reads)."""
    return f"{key}_ctl"


def on_browser_round(key: str = KEY, *, state: str = "round") -> None:
    """Callback of the browser's stepper: it reported the round it shows
    (``setStateValue(state, {t, seq})`` in the lecture script, before another control of the
    page is used), which the session now shows.

    A value that is not a round (a component state from an older page), or a report older
    than one applied already, is ignored. A bare number is a report without a sequence
    number (the tests' ``lecture_helpers.step_to``).

    Parameters
    ----------
    key : str, default :data:`KEY`
        The stepper's key.
    state : str, default "round"
        The name of the component's state value (``ui.lecture.StepperData.states``).
    """
    value = st.session_state.get(control_key(key))
    try:
        report = value[state]
        if isinstance(report, dict):
            t, seq = int(report["t"]), int(report["seq"])
        else:
            t, seq = int(report), reported(key)
    except (TypeError, KeyError, ValueError):
        return
    if seq < reported(key):
        return
    ss = st.session_state
    ss[f"{key}_seq"] = seq
    if ss.get(f"{key}_moved_now"):  # a control of this run moved the round: it wins
        return
    ss[key] = ss[f"{key}_keep"] = t


# ------------------------------------------------------------------- shared by both steppers
def _url_round(key: str, lo: int, hi: int, default: int) -> int:
    """The round asked for by the URL (``default`` if absent or not a number; clamped into
    ``lo … hi``). A value it cannot use is reported on the page's notice (:mod:`ui.params`),
    quoted and escaped."""
    value, bad = params.parse_round(key, st.query_params.get(key), lo=lo, hi=hi, default=default)
    params.note(bad, handled=key)
    return value


def _link_round(key: str, lo: int, hi: int) -> None:
    """Show the round a preset link named (:func:`from_link`), now that the run's rounds
    ``lo … hi`` are known: a number outside is clamped, text keeps the preset's round, and
    either is reported on the page's notice."""
    ss = st.session_state
    raw: Sequence[str] | None = ss.pop(f"{key}_from_link", None)
    if raw is None:
        return
    preset = min(max(int(ss.get(key, lo)), lo), hi)
    value, bad = params.parse_round(key, raw, lo=lo, hi=hi, default=preset)
    params.note(bad, handled=key)
    ss[key] = value
    _moved(key)


def _arrive(key: str, lo: int, hi: int, start: int) -> None:
    """The round before clamping, for a run of rounds ``lo … hi``: the link's on the
    session's first stepper, a preset link's, or the one kept when the rounds changed."""
    ss = st.session_state
    if f"{key}_init" not in ss:
        # The round is synced by hand rather than with bind="query-params": a bound widget
        # changed from Python (buttons, Play, a preset) reaches the URL only on the next
        # interaction.
        ss[f"{key}_init"] = True
        if key not in ss:  # a preset loaded before the first stepper keeps its round
            ss[key] = _url_round(key, lo, hi, default=start)
    _link_round(key, lo, hi)
    # Streamlit identifies a slider by its range too: when a parameter changes the number of
    # rounds, the slider is a new widget that would start at its first round. Keep the round
    # shown before (clamped into the new run) instead. The browser's stepper is keyed alike.
    if ss.get(f"{key}_range") not in (None, (lo, hi)) and f"{key}_keep" in ss:
        ss[key] = min(max(int(ss[f"{key}_keep"]), lo), hi)
    ss[f"{key}_range"] = (lo, hi)


def _publish(key: str, t: int, start: int) -> None:
    """Keep round ``t`` for the next change of rounds and write it to the address bar
    (removed when it is the page's default ``start``)."""
    st.session_state[f"{key}_keep"] = t
    if t != start:
        st.query_params[key] = str(t)
    elif key in st.query_params:
        del st.query_params[key]


# ------------------------------------------------------------------- the game's stepper
def _stop(key: str) -> None:
    st.session_state[f"{key}_playing"] = False


def _keep_played_round(key: str) -> bool:
    """While playing, undo the browser's stale copy of the round; True if there was one.

    The timer moves the round on the server before the browser has drawn it, and every
    request from the browser (the timer's own ticks too) carries the slider value the browser
    last drew. Streamlit writes that older value into ``st.session_state[key]`` and, for an
    enabled slider, calls its ``on_change`` as if it had been dragged: Play stopped by itself
    and stepped back. So the slider is disabled while playing (Streamlit then skips the
    callback, Pause first to drag it), and here the round the server last set is put back.
    """
    ss = st.session_state
    shown = ss.get(f"{key}_shown")
    if (
        ss.get(f"{key}_playing")
        and ss.get(f"{key}_locked")
        and shown is not None
        and ss.get(key) != shown
    ):
        ss[key] = shown
        return True
    return False


def _move(key: str, lo: int, hi: int, to: int | None = None, by: int = 0) -> None:
    """Button callback: runs before the rerun, so it may set the slider's state."""
    _keep_played_round(key)  # step from the round last drawn, not from a stale copy
    _stop(key)
    now = int(st.session_state.get(key, lo))
    target = to if to is not None else now + by
    st.session_state[key] = max(lo, min(hi, target))


def _toggle_play(key: str, lo: int, hi: int) -> None:
    # Pause keeps the round last drawn (and sets the slider to it), not the stale copy that
    # a browser still catching up sends with the click.
    _keep_played_round(key)
    playing = not st.session_state.get(f"{key}_playing", False)
    if playing and int(st.session_state.get(key, lo)) >= hi:
        st.session_state[key] = lo  # Play at the end starts over
    st.session_state[f"{key}_playing"] = playing
    st.session_state[f"{key}_last_tick"] = time.monotonic()
    st.session_state[f"{key}_advanced"] = False


def stepper(
    n_steps: int,
    render: Callable[[int], None],
    *,
    key: str = KEY,
    label: str = "Round",
    help: str = "Move through the rounds of the run; the whole run is computed once.",
    first: int = 0,
) -> None:
    """Round stepper on the server (slider, ⏮ ◀ ▶ ⏭, Play/Pause with speed) around
    ``render(i)``: the dividing game's (views/game.py), whose moves are few and cheap to
    draw; the lecture pages step in the browser (``ui.lecture.stepper``).

    The run is cached, so a step only redraws. While playing, a small timer fragment advances
    the round every ``speed`` seconds (see :func:`_play_timer`). Keyboard: ← and →
    step, Home and End jump, Space plays or pauses (Streamlit button shortcuts; they work
    while the focus is not inside a text field). The round is written to the URL
    (``?round=…``) after every change, so a copied link shows the same round. The link's
    round, a preset's and the round kept across a change of rounds are read as in
    :func:`settle`.

    Parameters
    ----------
    n_steps : int
        Number of snapshots.
    render : callable
        Draws snapshot ``i`` (``0 … n_steps − 1``).
    key : str, default :data:`KEY`
        Session key of the slider and URL parameter.
    label, help : str
        The slider's label and tooltip.
    first : int, default 0
        The number shown for the first snapshot (0 when the run starts with the untrained
        model, 1 when its first snapshot is round 1): the slider and the URL show
        ``first … first + n_steps − 1``.
    """
    ss = st.session_state
    if n_steps < 1:
        st.warning("The run produced no rounds to show.")
        return
    lo, hi = first, first + n_steps - 1
    _arrive(key, lo, hi, lo)
    _keep_played_round(key)
    now = int(ss.get(key, lo))
    if not lo <= now <= hi:
        # another page's round, or a new run with fewer rounds: clamp into this run
        ss[key] = min(max(now, lo), hi)
    playing = bool(ss.get(f"{key}_playing", False))
    if playing:
        _play_timer(key, lo, hi)
    # A keyed container: presenter mode pins it at the top of the page (CSS on .st-key-…).
    with st.container(key=f"{key}_bar"):
        cols = st.columns([8, 1, 1, 1, 1, 2, 2], vertical_alignment="bottom")
        # Disabled while playing: see _keep_played_round (Pause, then drag).
        ss[f"{key}_locked"] = playing
        ss[f"{key}_shown"] = int(ss.get(key, lo))
        with cols[0]:
            if hi > lo:
                st.slider(
                    label,
                    lo,
                    hi,
                    key=key,
                    help=help,
                    on_change=_stop,
                    args=(key,),
                    disabled=playing,
                )
            else:
                st.markdown(f"**{label} {lo}** — the run has a single round.")
        t = int(ss.get(key, lo))
        _publish(key, t, lo)
        nav = dict(on_click=_move, args=(key, lo, hi))
        cols[1].button(
            "",
            icon=":material/first_page:",
            key=f"{key}_first",
            help="First round (Home key)",
            shortcut="Home",
            kwargs={"to": lo},
            disabled=t <= lo,
            **nav,
        )
        cols[2].button(
            "",
            icon=":material/chevron_left:",
            key=f"{key}_prev",
            help="Previous round (← key)",
            shortcut="Left",
            kwargs={"by": -1},
            disabled=t <= lo,
            **nav,
        )
        cols[3].button(
            "",
            icon=":material/chevron_right:",
            key=f"{key}_next",
            help="Next round (→ key)",
            shortcut="Right",
            kwargs={"by": 1},
            disabled=t >= hi,
            **nav,
        )
        cols[4].button(
            "",
            icon=":material/last_page:",
            key=f"{key}_last",
            help="Last round (End key)",
            shortcut="End",
            kwargs={"to": hi},
            disabled=t >= hi,
            **nav,
        )
        cols[5].button(
            "Pause" if playing else "Play",
            key=f"{key}_play",
            shortcut="Space",
            icon=":material/pause:" if playing else ":material/play_arrow:",
            help="Play the rounds one after another (Space key)",
            type="primary",
            on_click=_toggle_play,
            args=(key, lo, hi),
            disabled=hi <= lo,
        )
        cols[6].selectbox(
            "Speed",
            list(SPEEDS),
            index=1,
            key=f"{key}_speed",
            label_visibility="collapsed",
            help="Time between rounds while playing.",
        )
    render(t - first)


def _play_timer(key: str, lo: int, hi: int) -> None:
    """While playing, a tiny fragment ticks every ``speed`` seconds and reruns the page.

    The panels are drawn by the page itself (not inside the fragment) so that every change
    of round is a full run: only full runs reliably write ``?round=`` to the address bar.
    """
    ss = st.session_state
    interval = SPEEDS.get(ss.get(f"{key}_speed", "normal"), 1.0)

    @st.fragment(run_every=interval)
    def _tick() -> None:
        if not ss.get(f"{key}_playing", False):
            return  # a tick that was already queued when Pause was pressed
        if _keep_played_round(key):
            # The browser has not drawn the last round yet (a slow machine): wait for it, so
            # that playing never runs ahead of the picture and Pause stops where one looks.
            return
        now = time.monotonic()
        # The fragment also runs once inside every full run; only a real timer tick, a full
        # interval after the last advance, moves on (otherwise rounds would be skipped). The
        # full run that an advance starts never advances again, even when the server is so
        # slow that it reaches this point an interval later: that run draws the new round
        # and writes it to the URL.
        if ss.get(f"{key}_advanced", False):
            ss[f"{key}_advanced"] = False
            return
        if now - ss.get(f"{key}_last_tick", 0.0) < 0.8 * interval:
            return
        ss[f"{key}_last_tick"] = now
        shown = int(ss.get(key, lo))
        if shown >= hi:
            ss[f"{key}_playing"] = False
        else:
            ss[key] = ss[f"{key}_shown"] = shown + 1
            ss[f"{key}_advanced"] = True
        st.rerun(scope="app")

    _tick()
