"""The bookkeeping every "You are the weak learner" mode shares (ui/pages/topdown/student.py on
/topdown, ui/pages/branching/student.py on /branching, ui/pages/oblique/student/ on /oblique).

The student's choices for a page live in ``st.session_state[f"{key}_choices"]`` with the
signature of the run they belong to (data and parameters): a change of either starts the
turn over, with a notice. Playing, undoing or restarting moves the lecture stepper to the
round the student's choices made (:func:`ui.rounds.show`, which also keeps that round when
the student's split changes the run's number of rounds), and turning the mode on shows
round ``m`` — the structure the student changes next — rather than the algorithm's next
round, which would give the answer away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from . import rounds
from .text import THE_CLASS, YOURS


class Turn:
    """One page's store of the student's choices (a tuple, one entry per round played).

    Parameters
    ----------
    key : str
        Prefix of the session keys (``"weak_topdown"``); the mode's toggle is ``{key}_on``.
    restart_notice : str
        Shown once when a new signature (other data or parameters) drops the choices.
    on_show : callable, optional
        Called when the mode is turned on (after the stepper is moved), e.g. to focus a run.
    """

    def __init__(
        self, key: str, restart_notice: str, on_show: Callable[[], None] | None = None
    ) -> None:
        self.key = key
        self.restart_notice = restart_notice
        self.on_show = on_show

    @property
    def _choices_key(self) -> str:
        return f"{self.key}_choices"

    @property
    def class_key(self) -> str:
        """Session key of the teacher's choices on a class follower's page (set by
        ui/classroom/teach.py; None when not following): they replace the session's own."""
        return f"{self.key}_class"

    def following(self) -> bool:
        """Whether this page follows a class's weak learner (the teacher plays the splits)."""
        return st.session_state.get(self.class_key) is not None

    def whose(self) -> str:
        """Whose the played rounds are, for the views' words: the class's on a follower's
        page (the teacher played them), else the student's own (:data:`ui.text.YOURS`)."""
        return THE_CLASS if self.following() else YOURS

    def played(self) -> tuple:
        """The choices so far (any signature)."""
        forced = st.session_state.get(self.class_key)
        if forced is not None:
            return tuple(forced)
        return tuple(st.session_state.get(self._choices_key, ()))

    def choices(self, signature: tuple) -> tuple:
        """The choices for the run with this ``signature``; another signature starts over
        (and says so once, moving the stepper back to round 0)."""
        ss = st.session_state
        if self.following():
            return self.played()
        if ss.get(f"{self.key}_signature") != signature:
            if ss.get(self._choices_key):
                st.info(self.restart_notice)
                rounds.show(0)
            ss[f"{self.key}_signature"] = signature
            ss[self._choices_key] = ()
        return self.played()

    def shown(self) -> None:
        """The toggle's callback: turning the mode on shows round ``m``."""
        if st.session_state.get(f"{self.key}_on"):
            rounds.show(len(self.played()))
            if self.on_show is not None:
                self.on_show()

    def play(self, choice: Any) -> None:
        """Record ``choice`` as the next round and show the structure it made."""
        st.session_state[self._choices_key] = (*self.played(), choice)
        rounds.show(len(self.played()))

    def undo(self) -> None:
        st.session_state[self._choices_key] = self.played()[:-1]
        rounds.show(len(self.played()))

    def restart(self) -> None:
        st.session_state[self._choices_key] = ()
        rounds.show(0)
