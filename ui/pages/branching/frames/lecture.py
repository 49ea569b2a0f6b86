"""The lecture of /branching, built once per setting: every round of every scheme's run
encoded for the lecture view (:func:`branching_lecture`, cached), the focused run's program
pictures (:func:`program_frames`, cached), the notes (:func:`notes_for`), the proof cards
(:func:`proof_frames`) and the round the page opens at (:func:`first_merge`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from boostcore import steps as protocol
from boostcore.branching import STEP, BPStep
from boostcore.datasets import Dataset
from ui.cache import shared
from ui.labels import MERGE_SHORT
from ui.proof import is_large
from ui.proof import proof_frames as proof_cards  # this module's proof_frames wraps it
from ui.text import YOURS, notation

from .. import runs as branching_runs
from ..proof import branching_chain
from .curves import curves_figure, curves_note
from .program import divide_words, played_infoboosts, program_note, program_pictures, whose_stump
from .regions import regions_figure
from .tables import groups_html, metrics_html
from .words import curves_description, regions_description, structure_description

#: The merging schemes of the page: shown name → ``merge=`` of ``bp_infoboost``.
SCHEMES = {name: merge for merge, name in MERGE_SHORT.items()}  # page name → merge


def first_merge(run: Sequence[BPStep]) -> int:
    """The round the page opens at when the link names none: the first in which the run
    merges children (the page's subject), round 2 for a run that never merges (the first
    round whose leaves are divided again)."""
    for s in run:
        if s.kind == STEP and s.t >= 2 and s.metrics.n_divided > s.metrics.n_leaves:
            return s.t
    return 2


# ------------------------------------------------------------------------------ lecture
def _message(step: BPStep, before: BPStep | None = None, whose: str = YOURS) -> str:
    """The snapshot's message in the page's words: a student's round named as such (the core
    says "chosen by the policy; the weak learner would play …"), the divide and merge in
    :func:`divide_words`' sentences (given the round before) and the notation typeset."""
    text = step.message
    if step.by_policy:
        if played_infoboosts(step):
            text = re.sub(r" \(chosen by the policy; [^()]*\)", whose_stump(step, whose), text)
        else:
            text = text.replace("chosen by the policy", f"{whose} stump")
    if step.kind == STEP and before is not None and " divides " in text and "; Z = " in text:
        head = text.split(" divides ", 1)[0]  # "Round t: h_t = [x2 > 0.4]" and who chose it
        tail = text.rsplit("; Z = ", 1)[1]
        subject = head.split(": ", 1)[1]
        return f"{notation(head.split(': ', 1)[0])}: " + (
            f"{divide_words(notation(subject), step, before.metrics)} Z = {notation(tail)}"
        )
    return notation(text)


def notes_for(run: Sequence[BPStep], n: int, whose: str = YOURS) -> list[str]:
    """One note per round ``0 … n − 1`` of the longest run: the round's message; the run's
    last round says first why it stopped (a note shows two lines), and a run that ended early
    says so while the others go on."""
    rounds = protocol.rounds(run)
    notes = [_message(s, rounds[i - 1] if i else None, whose) for i, s in enumerate(rounds)]
    reason = protocol.stop_reason(run)
    if reason:
        notes[-1] = f"{notation(reason)} {notes[-1]}"
    end = protocol.final(run).t
    notes += [f"Finished at round {end}. {notation(reason or '')}".rstrip()] * (n - len(notes))
    return notes


def proof_frames(run: Sequence[BPStep], merge: str, *, font: float = 12) -> list[str]:
    """The proof at each round ``t = 0 … T`` of ``run`` (:func:`.proof.branching_chain`
    drawn by :func:`ui.proof.proof_compact_html`, the large card at presenter mode's font):
    frame ``t`` is round ``t``'s snapshot, as the regions and curves; not yet deduplicated.

    Parameters
    ----------
    run : sequence of BPStep
        The whole run (its earlier rounds are the chain's history).
    merge : {"all", "none", "bands"}
        The run's merging scheme.
    font : float, default 12
        The figures' font (:func:`ui.proof.is_large`).

    Returns
    -------
    list of str
    """
    chains = [branching_chain(s, merge=merge, history=run) for s in protocol.rounds(run)]
    return proof_cards(chains, large=is_large(font))


def _padded(said: list[str], n: int) -> list[str]:
    """``said`` with its last sentence repeated up to ``n`` rounds."""
    return said + said[-1:] * (n - len(said))


@shared
def branching_lecture(
    _ds: Dataset,
    ds_key: str,
    schemes: tuple[str, ...],
    n_rounds: int,
    c: float,
    weak_learner: str,
    font: float,
    choices: tuple = (),
    chooser: str | None = None,
    whose: str = YOURS,
) -> dict:
    """Every round of every scheme's run, encoded for the lecture view (cached). ``choices``
    (a student's stumps, see :func:`.runs.bp_run`) apply to the run of the scheme
    ``chooser`` (the focused one); the other schemes' runs are the weak learner's. The notes
    call those stumps ``whose`` they are (:data:`ui.text.YOURS`, or :data:`ui.text.THE_CLASS`
    on a class follower's page).

    Returns ``{"runs": {name: {"n", "regions", "notes", "curves", "curve_notes", "small",
    "spark", "proof", "descriptions"}}, "metrics", "groups", "n"}``: frames one per round
    ``t = 0 … T`` (frame ``t`` is round ``t``; 0 is the initial model; ``proof`` is
    :func:`proof_frames`; ``descriptions`` the regions' and curves' sentences for a screen
    reader, one per round of the longest run like ``notes``), the
    tables one per round of the longest run
    (``groups`` is None without BP.InfoBoost). The program pictures are built for the focused
    run only (:func:`program_frames`): they are the largest frames, and only one is on the
    screen.
    """
    from ui import lecture

    runs = {
        name: branching_runs.bp_run(
            _ds,
            ds_key,
            n_rounds,
            SCHEMES[name],
            c,
            weak_learner,
            choices if name == chooser else (),
        )
        for name in schemes
    }
    rounds = {name: protocol.rounds(run) for name, run in runs.items()}
    n = max(len(r) for r in rounds.values())
    out: dict = {"runs": {}, "n": n}
    for name, run in runs.items():
        shown = rounds[name]
        k = len(shown)
        out["runs"][name] = {
            "n": k,
            "regions": lecture.plotly_frames([regions_figure(s, _ds, font=font) for s in shown]),
            "notes": notes_for(run, n, whose),
            "curves": lecture.plotly_frames([curves_figure(run, t, font=font) for t in range(k)]),
            "curve_notes": [curves_note(run, t) for t in range(k)],
            "small": lecture.plotly_frames(
                [regions_figure(s, _ds, font=font, small=True) for s in shown]
            ),
            "spark": lecture.plotly_frames(
                [curves_figure(run, t, font=font, small=True) for t in range(k)]
            ),
            "proof": lecture.same_frames(proof_frames(run, SCHEMES[name], font=font)),
            # one sentence per round like the notes (a run that ended early: its last again)
            "descriptions": {
                "regions": _padded([regions_description(s, _ds, scheme=name) for s in shown], n),
                "curves": _padded([curves_description(run, t) for t in range(k)], n),
            },
        }
    metrics, groups = [], []
    for t in range(n):
        # past the end of a run that stopped early: its stop snapshot (the last model)
        current = {
            name: rounds[name][t] if t < len(rounds[name]) else protocol.final(run)
            for name, run in runs.items()
        }
        metrics.append(metrics_html(current))
        if "BP.InfoBoost" in runs:
            groups.append(groups_html(current["BP.InfoBoost"]))
    out["metrics"] = lecture.same_frames(metrics)
    out["groups"] = lecture.same_frames(groups) if groups else None
    return out


@shared
def program_frames(
    _ds: Dataset,
    ds_key: str,
    scheme: str,
    n_rounds: int,
    c: float,
    weak_learner: str,
    font: float,
    choices: tuple = (),
    whose: str = YOURS,
) -> dict:
    """The program of one scheme's run at every round ``t = 0 … T``, for the structure view
    (cached): ``{"structure": [pictures per round], "notes": [one line per round],
    "descriptions": [one sentence per round for a screen reader]}``. Text is
    ``font + 1`` px (a little larger than the plots' tick labels). ``choices``: a student's
    stumps for the first rounds of this run (:func:`.runs.bp_run`), named ``whose`` they are
    in the notes (:func:`program_note`)."""
    from ui import lecture

    run = branching_runs.bp_run(_ds, ds_key, n_rounds, SCHEMES[scheme], c, weak_learner, choices)
    size = round(font + 1)
    k = len(protocol.rounds(run))
    return {
        "structure": lecture.same_frames(
            [program_pictures(run, t, feature_names=_ds.feature_names, font=size) for t in range(k)]
        ),
        "notes": [program_note(run, t, whose) for t in range(k)],
        "descriptions": [
            structure_description(run, t, scheme=scheme, whose=whose) for t in range(k)
        ],
    }
