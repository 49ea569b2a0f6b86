"""The proof card's data model: a :class:`Chain` of :class:`Link` s with this round's values.

A link's status (one of :data:`STATUSES`; what each means is in :mod:`ui.proof`'s
docstring), :func:`link` and :func:`make_chain`, which every lesson's builder
(``ui/pages/<slug>/proof.py``) ends with, :func:`loosest_link`, and the two helpers the
builders read snapshots with, :func:`is_finite` and :func:`rounds_upto`. No drawing here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from boostcore.steps import STOP, Step

HOLDS = "holds"
ASSUMPTION = "assumption"
NOT_THEOREM = "not_theorem"
CLAIM = "claim"
ESTIMATE = "estimate"
STATUSES = (HOLDS, ASSUMPTION, NOT_THEOREM, CLAIM, ESTIMATE)
RELATIONS = ("≤", "=")

#: Two values closer than this (relative to 1 or the larger value) count as equal: the
#: float error of the products and sums the chains compare is far below it.
EQUAL_TOL = 1e-12


# ================================================================================== chain
@dataclass(frozen=True)
class Link:
    """One link ``left relation right`` of a chain, with this round's values.

    Attributes
    ----------
    left_label, relation, right_label : str
        The link in Unicode math, e.g. ``"ε̂(T)"``, ``"≤"``, ``"I(T)"``; ``relation`` is
        ``"≤"`` or ``"="``.
    left, right : float
        The two sides at this round (``nan`` where undefined).
    slack : float
        ``right − left``.
    holds : bool
        Whether the link is a theorem at this round (``status == "holds"``).
    note : str
        Why the link is not a theorem at this round (empty when it holds).
    status : str
        One of :data:`STATUSES` (see :mod:`ui.proof`'s docstring).
    reason : str
        The result that makes the link hold (shown for holding links; it may also say why a
        link is trivially true, e.g. at round 0).
    """

    left_label: str
    relation: str
    right_label: str
    left: float
    right: float
    slack: float
    holds: bool
    note: str = ""
    status: str = HOLDS
    reason: str = ""

    @property
    def observed(self) -> bool:
        """Whether this run's values satisfy the relation (equality to :data:`EQUAL_TOL`).

        Returns
        -------
        bool

        Examples
        --------
        >>> from ui.proof import link
        >>> link("a", "≤", "b", 0.2, 0.5).observed, link("a", "=", "b", 0.2, 0.5).observed
        (True, False)
        """
        tol = EQUAL_TOL * max(1.0, abs(self.left), abs(self.right))
        if not (math.isfinite(self.left) and math.isfinite(self.right)):
            return False
        if self.relation == "=":
            return abs(self.slack) <= tol
        return self.slack >= -tol


def link(
    left_label: str,
    relation: str,
    right_label: str,
    left: float,
    right: float,
    *,
    status: str = HOLDS,
    note: str = "",
    reason: str = "",
) -> Link:
    """A :class:`Link` with ``slack = right − left`` and ``holds = (status == "holds")``.

    Parameters
    ----------
    left_label, relation, right_label : str
        As in :class:`Link`.
    left, right : float
        The two values.
    status : str, default "holds"
        One of :data:`STATUSES`.
    note : str, default ""
        Why the link is not a theorem here (needed unless ``status == "holds"``).
    reason : str, default ""
        The result behind a holding link.

    Returns
    -------
    Link

    Raises
    ------
    ValueError
        For an unknown relation or status, or a link that does not hold without a note.

    Examples
    --------
    >>> from ui.proof import link
    >>> lk = link("ε̂(T)", "≤", "I(T)", 0.05, 0.2)
    >>> lk.holds, round(lk.slack, 2)
    (True, 0.15)
    """
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}; got {relation!r}")
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}; got {status!r}")
    if status != HOLDS and not note:
        raise ValueError("a link that does not hold needs a note saying why")
    left, right = _num(left), _num(right)
    return Link(
        left_label=left_label,
        relation=relation,
        right_label=right_label,
        left=left,
        right=right,
        slack=right - left,
        holds=status == HOLDS,
        note=note,
        status=status,
        reason=reason,
    )


@dataclass(frozen=True)
class Chain:
    """A page's chain of inequalities at one round.

    Attributes
    ----------
    title : str
        E.g. ``"The proof at round 3"``.
    links : tuple of Link
        The links in reading order; the first one's ``left`` is the training error the
        page shows.
    loosest : int or None
        Index of the holding link with the largest slack (the first on ties); ``None`` if
        no link holds.
    citation : str
        The papers and theorems, with the section of docs/theory.md.
    caption : str
        One line on what this round's chain says.
    t : int
        The round.
    """

    title: str
    links: tuple[Link, ...]
    loosest: int | None
    citation: str
    caption: str
    t: int = 0

    @property
    def leftmost(self) -> float:
        """The chain's first value: the training error the page shows.

        Returns
        -------
        float
        """
        return self.links[0].left


def loosest_link(links: Sequence[Link]) -> int | None:
    """Index of the holding link with the largest slack (the first on ties), or ``None``.

    Parameters
    ----------
    links : sequence of Link

    Returns
    -------
    int or None

    Examples
    --------
    >>> from ui.proof import link, loosest_link
    >>> loosest_link([link("a", "≤", "b", 0, 0.1), link("b", "≤", "c", 0.1, 0.5),
    ...               link("c", "≤", "d", 0.5, 2.0, status="claim", note="not a theorem")])
    1
    """
    best: int | None = None
    for i, lk in enumerate(links):
        if lk.holds and (best is None or lk.slack > links[best].slack):
            best = i
    return best


def make_chain(title: str, links: Sequence[Link], citation: str, caption: str, t: int) -> Chain:
    """A :class:`Chain` of ``links`` with its loosest link found (:func:`loosest_link`).

    Every lesson's builder ends with it, so that no chain can name a loosest link that is not
    the largest slack among the holding ones.

    Parameters
    ----------
    title : str
        E.g. ``"The proof at round 3 — Hatano's TOPDOWN-M"``.
    links : sequence of Link
        The links in reading order (the first one's ``left`` is the page's training error).
    citation, caption : str
        As in :class:`Chain`.
    t : int
        The round.

    Returns
    -------
    Chain

    Examples
    --------
    >>> from ui.proof import link, make_chain
    >>> c = make_chain("round 1", [link("a", "≤", "b", 0, 0.1), link("b", "≤", "c", 0.1, 0.5)],
    ...                "paper", "why", 1)
    >>> c.loosest, c.leftmost, c.t
    (1, 0.0, 1)
    """
    return Chain(
        title=title,
        links=tuple(links),
        loosest=loosest_link(links),
        citation=citation,
        caption=caption,
        t=int(t),
    )


def _num(v: float | None) -> float:
    return float("nan") if v is None else float(v)


def is_finite(v: float | None) -> bool:
    """Whether ``v`` is a finite number (``None``, ``nan`` and ``±inf`` are not).

    The builders test with it whether a metric is defined at this round (e.g. ``γ̂`` before the
    first split, ``ρ̂`` before the first weak classifier).

    Parameters
    ----------
    v : float or None

    Returns
    -------
    bool

    Examples
    --------
    >>> from ui.proof import is_finite
    >>> is_finite(0.5), is_finite(None), is_finite(float("nan"))
    (True, False, False)
    """
    return v is not None and math.isfinite(float(v))


def rounds_upto(history: Sequence[Step], t: int) -> list[Step]:
    """The snapshots of rounds ``1 … t`` of ``history``, one per round.

    The chains whose products run over earlier rounds (divide and merge, G1 on a path) read
    those rounds here; a stop snapshot may stand for its round (it repeats the round's metrics,
    and its reason is what the last frame shows), a round's other snapshot is kept otherwise.

    Parameters
    ----------
    history : sequence of Step
        The run's snapshots (e.g. the whole run), holding every round ``1 … t``.
    t : int
        The last round wanted.

    Returns
    -------
    list of Step
        The snapshot of round ``k`` at index ``k − 1``.

    Raises
    ------
    ValueError
        When ``history`` lacks one of the rounds.

    Examples
    --------
    >>> from boostcore.datasets import make_dataset
    >>> from boostcore.realboost import g1_linear
    >>> from ui.proof import rounds_upto
    >>> ds = make_dataset("moons", n=100, random_state=0)
    >>> run = list(g1_linear(ds.X_train, ds.y_train, n_rounds=3))
    >>> [s.t for s in rounds_upto(run, 3)]
    [1, 2, 3]
    >>> rounds_upto(run[:2], 3)
    Traceback (most recent call last):
    ...
    ValueError: history must hold every round 1 … 3 of the run; rounds [2, 3] are missing
    """
    by_t: dict[int, Step] = {}
    for s in history:
        if 1 <= s.t <= t and (s.t not in by_t or by_t[s.t].kind == STOP):
            by_t[s.t] = s
    missing = [k for k in range(1, t + 1) if k not in by_t]
    if missing:
        raise ValueError(
            f"history must hold every round 1 … {t} of the run; rounds {missing} are missing"
        )
    return [by_t[k] for k in range(1, t + 1)]
