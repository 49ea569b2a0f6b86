"""The text alternatives of /branching's views (issue 26): one plain sentence per round for
a screen reader, of the regions, the program and the curves. Pure functions (no Streamlit)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from boostcore import steps as protocol
from boostcore.branching import BPStep
from boostcore.datasets import Dataset
from ui.text import YOURS, plural, spoken_number

from .curves import PROD_H, PROD_Z
from .program import layer_leaves, never, program_note, program_rounds

# --------------------------------------------------------------- text alternatives (issue 26)
#: The curves' line names (:func:`curves_figure`) as a screen reader should read them.
SPOKEN = {
    PROD_H: "product of H(Y given h)",
    PROD_Z: "product of Z",
    "train error": "training error",
    "test error": "test error",
}


def _stump_words(step: BPStep, feature_names: Sequence[str]) -> str:
    """``h_t`` in words: "h3 is +1 where x1 > 0.42"."""
    name = feature_names[step.feature]
    return f"h{step.t} is +1 where {name} > {spoken_number(float(step.threshold))}"


def regions_description(step: BPStep, ds: Dataset, *, scheme: str) -> str:
    """One plain sentence: what :func:`regions_figure` draws for ``step`` — the vote's
    shading, this round's stump and the training error — for a screen reader.

    Parameters
    ----------
    step : BPStep
        The round's snapshot.
    ds : Dataset
        The run's data (its class names and size).
    scheme : str
        The scheme's page name ("BP.InfoBoost").

    Returns
    -------
    str
        Plain text.
    """
    m = step.metrics
    n = int(ds.n_train)
    wrong = round(m.train_error * n)  # the error of sign F_t under the uniform weights
    if step.feature is None:
        stump = f"no stump yet, so F is 0: class {ds.class_names[0]} everywhere"
    else:
        drawn = "the vermillion line" if step.feature < 2 else "not drawn: another feature"
        stump = f"stump {_stump_words(step, ds.feature_names)} ({drawn})"
    neg, pos = ds.class_names
    test = "; hollow: test" if ds.n_test else ""
    return (
        f"Regions of sign F for {scheme} after round {step.t} (blue: vote for {pos}, orange: "
        f"{neg}, white: undecided); {stump}; training error {spoken_number(m.train_error)} "
        f"({wrong} of {n} training points misclassified). Blue circles: class {pos}, orange "
        f"diamonds: class {neg}; filled: training, sized by the weight D{test}."
    )


def structure_description(run: Sequence[BPStep], t: int, *, scheme: str, whose: str = YOURS) -> str:
    """One plain sentence: the program :func:`program_pictures` draws at round ``t`` — the
    nodes of every level and this round's divide and merge (:func:`program_note`'s numbers).

    Parameters
    ----------
    run : sequence of BPStep
        The whole run.
    t : int
        The round.
    scheme : str
        The scheme's page name.

    Returns
    -------
    str
    """
    rounds = program_rounds(run, t)
    levels = [layer_leaves(rounds, r)[0].shape[0] for r in range(len(rounds) + 1)]
    if not rounds:
        return (
            f"Branching program of {scheme} at round 0: the root alone, one leaf of weight 0; "
            "round 1's stump divides it." + never(run)
        )
    # without "Round t: " (said before), its h<sub>t</sub> read as "ht" (plain words)
    note = re.sub(r"</?su[bp]>", "", program_note(run, t, whose).split(": ", 1)[1])
    return (
        f"Branching program of {scheme} after round {t}, one level per round (older ones may "
        f"be collapsed); nodes per level: {', '.join(map(str, levels))}. In round {t}, {note}"
    )


def curves_description(run: Sequence[BPStep], t: int) -> str:
    """One plain sentence: the values :func:`curves_figure` marks at round ``t``, by its
    lines' names read aloud (:data:`SPOKEN`), and how the training error moved.

    Parameters
    ----------
    run : sequence of BPStep
        The whole run.
    t : int
        The round.

    Returns
    -------
    str
    """
    done = protocol.rounds(run)
    t = min(t, len(done) - 1)
    m = done[t].metrics
    said = [
        f"{SPOKEN['train error']} {spoken_number(m.train_error)}",
        f"{SPOKEN[PROD_Z]} {spoken_number(m.bound_prod_Z)}",
        f"{SPOKEN[PROD_H]} {spoken_number(m.prod_H_h)}",
    ]
    if m.test_error is not None:
        said.insert(1, f"{SPOKEN['test error']} {spoken_number(m.test_error)}")
    text = f"At round {t}: " + ", ".join(said) + f"; {plural(m.n_leaves, 'leaf', 'leaves')} reached"
    if t > 0:
        before, now = done[t - 1].metrics.train_error, m.train_error
        a, b = spoken_number(before), spoken_number(now)
        move = (
            "stayed at {} since"
            if a == b
            else "fell from {} at"
            if now < before
            else "rose from {} at"
        )
        text += f". The training error {move.format(a)} round {t - 1}"
    return text + "."
