"""The server's limits on classes (issue 40: budgets that a whole class behind one school
address still fits, and that one student's script cannot spend): :class:`Limits` and the
``BOOSTLAB_*`` environment variables that set them (docs/classroom-server.md, "Limits").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limits:
    """The server's limits on classes (settings; see docs/classroom-server.md).

    Parameters
    ----------
    classes : int
        Open classes per server (each teacher opens one).
    students : int
        Students following one class at once.
    idle_hours : float
        A class nobody has changed or joined for this long is closed.
    submissions : int
        Submitted splits kept per class (the newest per student; one per student).
    classes_per_address : int
        Open classes per client address (a teacher opens one; a few teachers behind one
        school address still fit): one address could hold all :attr:`classes` and every
        real teacher then read "This server already has 50 open classes" for hours
        (issue 40, item 1).
    joins_per_address : int
        Followers' ids one client address may take from a class (:meth:`ClassStore.admit`):
        a class of 500 behind one school address fits, with rejoins from private tabs.
    joins_per_class : int
        Followers' ids a class gives in all (four per seat of :attr:`students`).
    abandoned_minutes : float
        A class whose teacher's page has not been heard of for this long ends: the page
        checks in every 30 s (``POST …/alive``; a hidden tab's timers run at least once a
        minute), so a class opened by a script, or whose teacher closed the tab, no longer
        holds its place for :attr:`idle_hours` (issue 40, item 1).
    """

    classes: int = 50
    students: int = 500
    idle_hours: float = 4.0
    submissions: int = 500
    classes_per_address: int = 3
    joins_per_address: int = 600
    joins_per_class: int = 2000
    abandoned_minutes: float = 10.0

    def __post_init__(self) -> None:
        for name in (
            "classes",
            "students",
            "submissions",
            "classes_per_address",
            "joins_per_address",
            "joins_per_class",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"Limits.{name} must be an integer ≥ 1; got {value!r}")
        for name in ("idle_hours", "abandoned_minutes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not (isinstance(value, (int, float)) and value > 0):
                raise ValueError(f"Limits.{name} must be a number > 0; got {value!r}")


def limits_from_env(env: Mapping[str, str] | None = None) -> Limits:
    """The limits set by ``BOOSTLAB_MAX_CLASSES``, ``BOOSTLAB_MAX_STUDENTS``,
    ``BOOSTLAB_MAX_CLASSES_PER_ADDRESS``, ``BOOSTLAB_MAX_JOINS_PER_ADDRESS``,
    ``BOOSTLAB_MAX_JOINS_PER_CLASS``, ``BOOSTLAB_CLASS_ABANDONED_MINUTES`` and
    ``BOOSTLAB_CLASS_IDLE_HOURS`` (the defaults of :class:`Limits` where unset); a bad value
    stops the server with a message naming the variable."""
    import os

    env = os.environ if env is None else env
    given: dict[str, Any] = {}
    for var, name, kind in (
        ("BOOSTLAB_MAX_CLASSES", "classes", int),
        ("BOOSTLAB_MAX_STUDENTS", "students", int),
        ("BOOSTLAB_MAX_CLASSES_PER_ADDRESS", "classes_per_address", int),
        ("BOOSTLAB_MAX_JOINS_PER_ADDRESS", "joins_per_address", int),
        ("BOOSTLAB_MAX_JOINS_PER_CLASS", "joins_per_class", int),
        ("BOOSTLAB_CLASS_IDLE_HOURS", "idle_hours", float),
        ("BOOSTLAB_CLASS_ABANDONED_MINUTES", "abandoned_minutes", float),
    ):
        if env.get(var, "").strip():
            try:
                given[name] = kind(env[var])
            except ValueError:
                raise ValueError(
                    f"{var} must be {'an integer' if kind is int else 'a number'}; got {env[var]!r}"
                ) from None
    try:
        return Limits(**given)
    except ValueError as e:
        raise ValueError(f"{e} (from the BOOSTLAB_* environment variables)") from None
