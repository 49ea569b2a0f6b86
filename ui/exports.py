"""Export a run as a runnable ``boostcore`` script that reproduces it.

Pure Python (no Streamlit calls), so everything here is unit-testable; the pages only put
the strings into ``st.code`` / ``st.download_button``.

* ``*_snippet(...)`` — one per page: a complete script (imports, dataset, the generator called
  as the lesson's ``runs.py`` calls it, a loop printing every round, then the numbers the page shows
  at its last round, one ``final <run> <name> = <value>`` line each, which the tests compare
  with the page's own cached runs).
* The scripts' text lives in ``ui/script_templates/<name>.py.tmpl``, exactly as the script
  reads, with ``<<NAME>>`` placeholders that the snippet functions fill (``header``,
  ``helpers`` and ``test_split`` are shared by every script). The ``.tmpl`` suffix keeps
  ruff and pytest from reading them as modules.
* The dataset lines come from :mod:`ui.dataset_code`; the run as JSON / CSV is in
  :mod:`ui.records`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from fractions import Fraction
from importlib import resources
from typing import Any

from boostcore import branching, game, oblique, realboost, topdown
from boostcore.impurity import INDEX

from .dataset_code import check_choice, literal
from .labels import CRITERION_FROM_SHORT, MERGE_SHORT

# ------------------------------------------------------------------------------ helpers
PAPERS = {
    "topdown": (
        "M. Kearns and Y. Mansour, On the boosting ability of top-down decision tree learning\n"
        "#   algorithms (STOC 1996); Y. Mansour and D. McAllester, Boosting with multi-way\n"
        "#   branching in decision trees (NIPS 2000); K. Hatano, A simple boosting algorithm\n"
        "#   using multi-way branching decision trees (Theory of Computing Systems, 2004)."
    ),
    "branching": (
        "E. Takimoto, S. Koya and A. Maruoka, Boosting based on divide and merge\n"
        "#   (InfoBoost as a branching program; BP.InfoBoost)."
    ),
    "matryoshka": (
        "E. Grossmann, A theory of probabilistic boosting, decision trees and matryoshki."
    ),
    "oblique": (
        "C. Henry, R. Nock and F. Nielsen, Real boosting a la carte with an application to\n"
        "#   boosting oblique decision trees (IJCAI 2007)."
    ),
    "game": (
        "K. Hatano, A simple boosting algorithm using multi-way branching decision trees\n"
        "#   (Theory of Computing Systems, 2004), section 4: the Weight Distribution Game."
    ),
    "bounds": (
        "E. Grossmann (probabilistic boosting, matryoshki); K. Hatano (2004); Y. Mansour and\n"
        "#   D. McAllester (NIPS 2000); E. Takimoto, S. Koya and A. Maruoka (divide and merge)."
    ),
}

STRUCTURES = ("chain", "tree", "matryoshka", "collapse")
GAME_MODES = ("adversary", "player", "watch")
GAME_ADVERSARIES = ("equal", "random")


@functools.cache
def _template(name: str) -> str:
    """The text of ``ui/script_templates/<name>.py.tmpl`` (read once per name).

    Parameters
    ----------
    name : str
        The template's name: a page (``"topdown"``, ``"branching"``, ``"matryoshka"``,
        ``"oblique"``, ``"game_watch"``, ``"game_played"``, ``"bounds"``) or a shared part
        (``"header"``, ``"helpers"``, ``"test_split"``).

    Returns
    -------
    str
        The file's text, newlines as ``"\\n"`` whatever the checkout's line endings.
    """
    path = resources.files(__package__) / "script_templates" / f"{name}.py.tmpl"
    return path.read_text(encoding="utf-8")


_PLACEHOLDER = re.compile(r"<<([A-Z_0-9]+)>>")


def _fill(template: str, **values: str) -> str:
    """Replace every ``<<NAME>>`` of ``template`` by ``values["NAME"]``, in one pass.

    One regular-expression substitution over the template: the inserted text is never
    scanned again, so a value that itself contains ``<<NAME>>`` (a file name such as
    ``data<<TEST>>.csv`` inside the dataset lines) stays as it is. Every placeholder of the
    template must be given and every value must have its placeholder, else
    ``AssertionError`` (a template and its snippet function out of step).

    User text never reaches a value as code: it enters the scripts only inside literals
    (:func:`ui.dataset_code.literal`, a ``repr``), so nothing in it can change the code.
    """
    wanted = set(_PLACEHOLDER.findall(template))
    missing, unused = sorted(wanted - set(values)), sorted(set(values) - wanted)
    if missing or unused:
        raise AssertionError(f"snippet template placeholders unfilled {missing}, unknown {unused}")
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def _header(page: str, title: str) -> str:
    return _fill(_template("header"), TITLE=title, PAPER=PAPERS[page])


# ------------------------------------------------------------------------------ snippets
def topdown_snippet(
    data_code: str,
    size: int,
    index: str,
    criteria: Sequence[str],
    max_arity: int,
    gamma: float | None,
    leaf_rule: str,
) -> str:
    """Script reproducing the top-down page: one ``grow`` run per criterion.

    ``criteria`` are core names (``"hatano"``, ``"mansour_mcallester"``, ``"naive"``), as in
    the page's ``params["crit"]`` (its short labels ``"Hatano"``… work too); ``gamma`` is
    the sidebar's γ (given to Mansour–McAllester only, as the page does).
    """
    criteria = [
        check_choice("criteria", CRITERION_FROM_SHORT.get(c, c), topdown.CRITERIA) for c in criteria
    ]
    if not criteria:
        raise ValueError("criteria must name at least one criterion")
    check_choice("index", index, INDEX)
    check_choice("leaf_rule", leaf_rule, topdown.LEAF_RULES)
    return _fill(
        _template("topdown"),
        HEADER=_header("topdown", "Top-down growth page"),
        SIZE=literal(int(size)),
        INDEX=literal(index),
        MAX_ARITY=literal(int(max_arity)),
        GAMMA=literal(gamma),
        LEAF_RULE=literal(leaf_rule),
        CRITERIA=literal(criteria),
        HELPERS=_template("helpers"),
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_template("test_split"),
    )


def _merge_of(scheme: str) -> str:
    if scheme in branching.MERGES:
        return scheme
    by_name = {v: k for k, v in MERGE_SHORT.items()}
    if scheme in by_name:
        return by_name[scheme]
    raise ValueError(
        f"schemes must be merges {list(branching.MERGES)} or names {list(by_name)}; got {scheme!r}"
    )


def branching_snippet(
    data_code: str, schemes: Sequence[str], n_rounds: int, c: float, weak_learner: str
) -> str:
    """Script reproducing the divide-and-merge page: one ``bp_infoboost`` run per scheme.

    ``schemes`` are the page's names (``"InfoBoost"``, ``"BP.InfoBoost"``, ``"DT.InfoBoost"``,
    i.e. ``params["schemes"]``) or merges (``"all"``, ``"bands"``, ``"none"``);
    ``weak_learner`` is the core value (``params["wl"]``: ``"h"`` or ``"divided"``).
    """
    merges = [_merge_of(s) for s in schemes]
    if not merges:
        raise ValueError("schemes must name at least one merging scheme")
    check_choice("weak_learner", weak_learner, branching.WEAK_LEARNERS)
    return _fill(
        _template("branching"),
        HEADER=_header("branching", "Divide and merge (InfoBoost) page"),
        N_ROUNDS=literal(int(n_rounds)),
        C=literal(c),
        WEAK_LEARNER=literal(weak_learner),
        SCHEMES=literal({MERGE_SHORT[m]: m for m in merges}),
        HELPERS=_template("helpers"),
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_template("test_split"),
    )


_PROB_CALLS = {
    "chain": "prob_adaboost(ds.X_train, ds.y_train, n_rounds=N_WEAK, samples=SAMPLES, **common)",
    "tree": "prob_tree(ds.X_train, ds.y_train, n_internal=N_WEAK, samples=SAMPLES, **common)",
    "collapse": "collapse_tree(ds.X_train, ds.y_train, n_internal=N_WEAK, **common)",
    "matryoshka": "matryoshka(ds.X_train, ds.y_train, levels=LEVELS, **common)",
}


def matryoshka_snippet(
    data_code: str,
    structures: Sequence[str],
    n_weak: int,
    softness: float,
    samples: int | None = None,
) -> str:
    """Script reproducing the probabilistic-trees page: one run per structure.

    ``structures`` are core names (``"chain"``, ``"tree"``, ``"matryoshka"``,
    ``"collapse"``: the page's ``params["structures"]``); ``samples`` is ``params["samples"]``
    (``None`` for exact q), used by the chain and the tree only, as on the page.
    """
    structures = [check_choice("structures", s, STRUCTURES) for s in structures]
    if not structures:
        raise ValueError("structures must name at least one structure")
    names = {
        "chain": "prob_adaboost",
        "tree": "prob_tree",
        "collapse": "collapse_tree",
        "matryoshka": "matryoshka",
    }
    runs = "".join(f"runs[{s!r}] = list({_PROB_CALLS[s]})\n" for s in structures)
    return _fill(
        _template("matryoshka"),
        HEADER=_header("matryoshka", "Probabilistic trees & matryoshka page"),
        IMPORTS=", ".join(sorted({names[s] for s in structures})),
        N_WEAK=literal(int(n_weak)),
        SOFTNESS=literal(softness),
        SAMPLES=literal(None if samples is None else int(samples)),
        HELPERS=_template("helpers"),
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_template("test_split"),
        RUNS=runs,
    )


def oblique_snippet(
    data_code: str, n_internal: int, n_stumps: int, node_learner: str, leaf_rule: str
) -> str:
    """Script reproducing the oblique-trees page: AdaBoost (G1 on a path), the KM tree and
    BoostODT, with the page's last-step alignment. Arguments are the page's ``params``
    (``n_internal``, ``n_stumps``, ``learner``, ``rule``)."""
    check_choice("node_learner", node_learner, realboost.WEAK_LEARNERS)
    check_choice("leaf_rule", leaf_rule, oblique.LEAF_RULES)
    return _fill(
        _template("oblique"),
        HEADER=_header("oblique", "Boosted oblique trees (G1) page"),
        N_INTERNAL=literal(int(n_internal)),
        N_STUMPS=literal(int(n_stumps)),
        NODE_LEARNER=literal(node_learner),
        LEAF_RULE=literal(leaf_rule),
        HELPERS=_template("helpers"),
        DATA=data_code.rstrip("\n") + "\n",
        TEST=_template("test_split"),
    )


def _norm_mode(mode: str) -> str:
    text = str(mode).lower()
    for m in GAME_MODES:
        if m in text:
            return m
    raise ValueError(f"mode must be one of {list(GAME_MODES)} (or the page's label); got {mode!r}")


def _norm_adversary(adversary: str) -> str:
    text = str(adversary).lower()
    for a in GAME_ADVERSARIES:
        if a in text:
            return a
    raise ValueError(
        f"adversary must be one of {list(GAME_ADVERSARIES)} (or the page's "
        f"label); got {adversary!r}"
    )


def _moves_of(moves: Any) -> list[tuple[int, int, tuple[float, ...]]]:
    if isinstance(moves, game.GameState):
        moves = moves.history
    out = []
    for m in moves:
        if isinstance(m, game.Move):
            out.append((int(m.leaf), int(m.k), tuple(float(d) for d in m.distribution)))
        else:
            leaf, k, shares = m
            out.append((int(leaf), int(k), tuple(float(d) for d in shares)))
    return out


def game_snippet(
    s: int,
    gamma: float,
    mode: str = "watch",
    adversary: str = "equal",
    seed: int = 0,
    moves: Any = (),
) -> str:
    """Script reproducing the Weight Distribution Game page.

    ``mode``: ``"watch"`` (app against app: ``adversary`` ``"equal"`` or ``"random"`` with
    ``seed``, as ``ui.compute.game_play``), ``"adversary"`` or ``"player"`` (replays
    ``moves``: the current ``GameState``, its ``history`` of ``Move``, or ``(leaf, k,
    shares)`` tuples). The page's labels (``MODES``, ``ADVERSARIES``) are accepted too.
    """
    mode = _norm_mode(mode)
    header = _header("game", "Weight Distribution Game page")
    if mode == "watch":
        adv = _norm_adversary(adversary)
        if adv == "equal":
            imports = "equal_binary_adversary, max_weight_player, play"
            line = "adversary = equal_binary_adversary  # two equal children every time"
        else:
            imports = "equal_binary_adversary, max_weight_player, play, random_adversary"
            line = (
                f"SEED = {literal(int(seed))}\n"
                "adversary = random_adversary(SEED)  # a random legal k, Dirichlet shares"
            )
        return _fill(
            _template("game_watch"),
            HEADER=header,
            IMPORTS=imports,
            S=literal(int(s)),
            GAMMA=literal(gamma),
            ADVERSARY=line,
            HELPERS=_template("helpers"),
        )
    played = _moves_of(moves)
    who = (
        "You played the adversary; the app's player expanded the heaviest leaf."
        if mode == "adversary"
        else "You played the player; the app's adversary split in two, equally."
    )
    lines = "".join(f"    ({leaf}, {k}, {literal(shares)}),\n" for leaf, k, shares in played)
    return _fill(
        _template("game_played"),
        HEADER=header,
        S=literal(int(s)),
        GAMMA=literal(gamma),
        WHO=who,
        MOVES=lines,
        HELPERS=_template("helpers"),
    )


def _rho(value: Any) -> float:
    if isinstance(value, str):
        return float(Fraction(value))
    return float(value)


def bounds_snippet(
    rhos: Sequence[Any], T: int, rho3: Any, C: float, Tn: int, gamma: float, eps: float
) -> str:
    """Script printing the bounds explorer's closed forms for the page's slider values.

    ``rhos`` and ``rho3`` are numbers or the page's labels (``"7/8"``); ``C``/``Tn`` are the
    collapse-rate sliders, ``gamma`` the top-down tab's γ, ``eps`` the InfoBoost tab's ε.
    """
    rhos = [_rho(r) for r in rhos] or [7 / 8]
    return _fill(
        _template("bounds"),
        HEADER=_header("bounds", "Bounds explorer page"),
        RHOS=literal(rhos),
        T=literal(int(T)),
        RHO3=literal(_rho(rho3)),
        C=literal(float(C)),
        TN=literal(int(Tn)),
        GAMMA=literal(float(gamma)),
        EPS=literal(float(eps)),
        HELPERS=_template("helpers"),
    )
