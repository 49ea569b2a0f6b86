"""The round: the one module that reads and writes which round a page shows.

The round lives in ``st.session_state[key]`` (``key`` is ``"round"`` on every page), in the
address bar (``?round=…``) and, on the lecture pages, in the browser's stepper
(``ui/lecture.js``). This module owns it: the server-side stepper of the game, the round a
link or a preset names, and the clamping when a new run has other rounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from . import params

#: Seconds between two rounds when playing.
SPEEDS = {"slow": 2.0, "normal": 1.0, "fast": 0.5}


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
    current = int(st.session_state.get(key, lo))
    target = to if to is not None else current + by
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


def url_round(key: str, lo: int, hi: int, default: int | None = None) -> int:
    """The round asked for by the URL on the session's first run (``default``, else ``lo``,
    if absent or not a number; clamped into ``lo … hi``).

    Shared by both steppers (this one and ``ui.lecture.stepper``). A value it cannot use is
    reported on the page's notice (:mod:`ui.params`), quoted and escaped.
    """
    value, bad = params.parse_round(
        key, st.query_params.get(key), lo=lo, hi=hi, default=lo if default is None else default
    )
    params.note(bad, handled=key)
    return value


def link_round(key: str, lo: int, hi: int) -> None:
    """Show the round a preset link names (``?preset=…&round=…``, kept by
    ``classroom.preset_from_url`` before the run existed), now that the run's rounds
    ``lo … hi`` are known: a number outside is clamped, text keeps the preset's round, and
    either is reported on the page's notice. Shared by both steppers."""
    ss = st.session_state
    raw = ss.pop(f"{key}_from_link", None)
    if raw is None:
        return
    current = min(max(int(ss.get(key, lo)), lo), hi)
    value, bad = params.parse_round(key, raw, lo=lo, hi=hi, default=current)
    params.note(bad, handled=key)
    ss[key] = value


def stepper(
    n_steps: int,
    render: Callable[[int], None],
    *,
    key: str = "round",
    label: str = "Round",
    help: str = "Move through the rounds of the run; the whole run is computed once.",
    first: int = 0,
) -> None:
    """Round stepper (slider, ⏮ ◀ ▶ ⏭, Play/Pause with speed) around ``render(i)``.

    The run is cached, so a step only redraws. While playing, a small timer fragment advances
    the round every ``speed`` seconds (see :func:`_play_timer`). Keyboard: ← and →
    step, Home and End jump, Space plays or pauses (Streamlit button shortcuts; they work
    while the focus is not inside a text field). The round is written to the URL
    (``?round=…``) after every change, so a copied link shows the same round.

    ``first`` is the number shown for the first snapshot (0 when the run starts with the
    untrained model, 1 when its first snapshot is round 1): the slider and the URL show
    ``first … first + n_steps − 1`` and ``render`` receives the snapshot index
    ``0 … n_steps − 1``.
    """
    ss = st.session_state
    if n_steps < 1:
        st.warning("The run produced no rounds to show.")
        return
    lo, hi = first, first + n_steps - 1
    if f"{key}_init" not in ss:
        # The round is synced by hand rather than with bind="query-params": a bound widget
        # changed from Python (buttons, Play) reaches the URL only on the next interaction.
        ss[f"{key}_init"] = True
        if key not in ss:  # a preset loaded before the first stepper keeps its round
            ss[key] = url_round(key, lo, hi)
    link_round(key, lo, hi)
    # Streamlit identifies a slider by its range too: when a parameter changes the number of
    # rounds, the slider is a new widget that would start at its first round. Keep the round
    # shown before (clamped into the new run) instead.
    if ss.get(f"{key}_range") not in (None, (lo, hi)) and f"{key}_keep" in ss:
        ss[key] = min(max(int(ss[f"{key}_keep"]), lo), hi)
    ss[f"{key}_range"] = (lo, hi)
    _keep_played_round(key)
    current = int(ss.get(key, lo))
    if not lo <= current <= hi:
        # another page's round, or a new run with fewer rounds: clamp into this run
        ss[key] = min(max(current, lo), hi)
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
        ss[f"{key}_keep"] = t
        if t != lo:
            st.query_params[key] = str(t)
        elif key in st.query_params:
            del st.query_params[key]
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
        current = int(ss.get(key, lo))
        if current >= hi:
            ss[f"{key}_playing"] = False
        else:
            ss[key] = ss[f"{key}_shown"] = current + 1
            ss[f"{key}_advanced"] = True
        st.rerun(scope="app")

    _tick()
