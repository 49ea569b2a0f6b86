"""Guided presets and challenges: the shared type (each lesson's data is in its folder).

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo. Each page's own presets and challenges are ``PRESETS`` and
``CHALLENGES`` of ``ui/pages/<slug>/guides.py``, read by the page through its registry row
(:attr:`ui.pages.PageSpec.presets`, :attr:`ui.pages.PageSpec.challenges`). Every number quoted
in a comment is checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a
number fails a test.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Guide:
    """A prepared demo: widget state to load, and one or two lines on what to look at.

    For a challenge, ``title`` is the question a student tries to answer on their own and
    ``comment`` the answer that loading ``state`` shows.
    """

    title: str
    comment: str
    state: dict
