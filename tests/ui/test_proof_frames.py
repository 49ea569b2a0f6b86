"""The proof at this round on the lecture pages (issue 17, item 3): ``ui/proof/compact.py``'s
compact card and the ``proof`` frames of the four frame builders.

The card (:func:`ui.proof.proof_compact_html`) is one line per link with both values and the
slack, one loosest link, a footnote for the first link that does not hold, everything escaped,
no stylesheet of its own (ui/lecture draws ``proof.COMPACT_CSS``, scoped to ``bl-proof``
classes, once per page) and no script or external asset. Each builder gives every run one proof
frame per round (per stepper position on /oblique), frame ``t`` drawn from the snapshot the
other views show at ``t``: its first link starts with that snapshot's training error as the
chain formats it.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from boostcore import datasets
from boostcore import steps as protocol
from boostcore.realboost import g1_linear
from boostcore.topdown import grow
from tests import lecture_helpers as lh
from ui.pages.branching import frames as fb
from ui.pages.branching import runs as branching_runs
from ui.pages.matryoshka import frames as fm
from ui.pages.matryoshka import runs as matryoshka_runs
from ui.pages.oblique import frames as fo
from ui.pages.oblique import runs as oblique_runs
from ui.pages.oblique.proof import g1_chain
from ui.pages.topdown import frames as topdown_frames
from ui.pages.topdown.proof import topdown_chain
from ui.params import Settings
from ui.proof import (
    ASSUMPTION,
    CLAIM,
    COMPACT_CSS,
    HOLDS,
    NOT_THEOREM,
    fmt,
    fmt_slack,
    is_large,
    link,
    make_chain,
    math_html,
    proof_compact_html,
    proof_frames,
    proof_panel_html,
)

HOSTILE = '<script>alert("x")</script>&<b>'


def _text(fragment: str) -> str:
    """The visible text of a fragment (the ``<style>`` and tags dropped, entities decoded)."""
    fragment = re.sub(r"<style>.*?</style>", "", fragment, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _rows(fragment: str) -> list[str]:
    """The link rows of a compact card (each a ``<div class="bl-proof-link…">…</div>``)."""
    return re.findall(r'<div class="bl-proof-link[^"]*"[^>]*>.*?</span></div>', fragment)


def _large(fragment: str) -> bool:
    """Whether a card is drawn large (presenter mode)."""
    return fragment.startswith('<div class="bl-proof-c bl-proof-lg"')


def _first_values(fragment: str) -> str:
    """The values cell (``left rel right``) of a card's first link."""
    cells = re.findall(r"<span>(.*?)</span>", _rows(fragment)[0])
    assert len(cells) == 4, "glyph, relation, values, slack"
    return html.unescape(cells[2])


def check_card(chain, out: str) -> None:
    """Everything a compact card must show of ``chain``."""
    text = _text(out)
    rows = _rows(out)
    assert len(rows) == len(chain.links)
    for lk, row in zip(chain.links, rows):
        row_text = _text(row)
        assert fmt(lk.left) in row_text and fmt(lk.right) in row_text
        assert fmt_slack(lk) in row_text
        assert "slack" in row_text or fmt_slack(lk) == "equal up to rounding"
        assert _text(math_html(lk.left_label)) in row_text
        assert _text(math_html(lk.right_label)) in row_text
        assert f'data-status="{lk.status}"' in row
        assert ("bl-proof-fail" in row) == (not lk.holds)
        if not lk.holds:
            assert math_html(lk.note) in row  # its reason line says why (typeset)
        # focusable (Tab, a tap), with its reason in the DOM to show on focus (issue 25)
        assert 'tabindex="0"' in row and 'role="group"' in row
        why = re.search(r'<span class="bl-proof-why">(.*?)</span></div>$', row).group(1)
        assert math_html(lk.reason if lk.holds else lk.note) in why
    loose = [i for i, row in enumerate(rows) if 'data-loosest="true"' in row]
    assert loose == ([] if chain.loosest is None else [chain.loosest])
    assert out.count("data-loosest") == len(loose)
    failing = [lk for lk in chain.links if not lk.holds]
    assert out.count('class="bl-proof-foot"') == (1 if failing else 0)
    if failing:
        foot = re.search(r'<div class="bl-proof-foot"[^>]*>(.*?)</div>', out).group(1)
        # whole (the stylesheet clamps it to two lines), its notation typeset
        assert foot.split(": ", 1)[1] == math_html(failing[0].note)
    assert math_html(chain.citation) in out and chain.citation.split(" ")[0] in text
    # no stylesheet per frame (the page draws proof.COMPACT_CSS once), no script, nothing
    # loaded; the stylesheet is scoped to the card's classes
    assert "<style" not in out
    css = COMPACT_CSS
    # no @import, no @font-face (a phone's sizes: @media)
    assert set(re.findall(r"@[\w-]+", css)) <= {"@container", "@media"}
    for rule in re.findall(r"([^{}]+)\{[^{}]*\}", css):
        for selector in rule.split(","):
            assert selector.strip().startswith(".bl-proof"), selector
    for banned in ("<script", "url(", "@import", "http:", "https:", "javascript:"):
        assert banned not in out.lower(), banned
    for tag in re.findall(r"<[^>]*>", out):
        assert not re.search(r"\son\w+\s*=", tag), tag  # no event handler
    assert out.startswith('<div class="bl-proof-c') and out.endswith("</div>")


# ------------------------------------------------------------------------------- the card
def test_compact_card_escapes_hostile_text_and_shows_every_value() -> None:
    links = [
        link(HOSTILE, "≤", "I_" + HOSTILE, 0.125, 0.5, reason=HOSTILE),
        link("a^" + HOSTILE, "=", "b", 0.5, 0.25, status=CLAIM, note=HOSTILE),
        link("c", "≤", "d", 0.25, 0.75),
        link("d", "≤", "e", 0.75, 1.0, status=NOT_THEOREM, note="second failure"),
    ]
    chain = make_chain(HOSTILE, links, HOSTILE, HOSTILE, 4)
    for large in (False, True):
        out = proof_compact_html(chain, large=large)
        check_card(chain, out)
        assert "<script>" not in out and "<b>x" not in out
        assert "alert(&quot;x&quot;)" in out
        text = _text(out)
        for value in ("0.125", "0.5", "0.25", "0.75", "+0.375", "−0.25", "+0.5", "+0.25"):
            assert value in text
        assert "0.5 ≠ 0.25" in text  # the claim's numbers are not equal: shown so
        assert "+1 more" in text  # the footnote names the first failure, counts the rest
        assert (_large(out)) == large
    assert chain.loosest == 2


def test_compact_card_of_holding_and_empty_chains() -> None:
    chain = make_chain("t", [link("ε̂", "≤", "I", 0.0033, 0.0149)], "paper", "", 1)
    out = proof_compact_html(chain)
    check_card(chain, out)
    assert _first_values(out) == "0.0033 ≤ 0.0149"
    assert "slack +0.0116" in _text(out)
    none_hold = make_chain(
        "t", [link("a", "≤", "b", 0, 1, status=NOT_THEOREM, note="ref.")], "", "", 0
    )
    out = proof_compact_html(none_hold)
    check_card(none_hold, out)
    assert 'class="bl-proof-key"' not in out  # no loosest link: no key for its tint
    empty = proof_frames([None, chain])
    assert "No snapshot" in _text(empty[0]) and empty[1] == proof_compact_html(chain)


def test_the_full_panel_is_unchanged_by_the_compact_card() -> None:
    chain = make_chain("t", [link("ε̂", "≤", "I", 0.1, 0.25)], "paper", "why", 1)
    assert 'class="bl-proof"' in proof_panel_html(chain)
    assert "loosest link" in _text(proof_panel_html(chain))


def test_presenter_font_draws_the_large_card() -> None:
    assert not is_large(12) and is_large(12 * 1.3)


# ------------------------------------------------------------------------------ top-down
def _topdown_steps(run):
    """The page's steps (topdown_lecture in ui/pages/topdown/frames/lecture.py): the stop
    snapshot in the last round's place."""
    return run[:-2] + run[-1:] if len(run) > 1 else run


@pytest.mark.parametrize(
    "criterion, max_arity, leaf_rule",
    [
        ("hatano", 4, "max_weight"),
        ("mansour_mcallester", 2, "max_weight"),
        ("naive", 2, "max_gain"),
    ],
)
def test_topdown_proof_frames_follow_the_rounds(criterion, max_arity, leaf_rule) -> None:
    ds = datasets.make_dataset("stripes", n=400, noise=0.05, random_state=1)
    run = list(
        grow(
            ds.X_train,
            ds.y_train,
            size=8,
            criterion=criterion,
            max_arity=max_arity,
            gamma=0.1 if criterion == "mansour_mcallester" else None,
            leaf_rule=leaf_rule,
        )
    )
    steps = _topdown_steps(run)
    frames = topdown_frames.topdown_proof_frames(
        steps, criterion=criterion, leaf_rule=leaf_rule, font=12
    )
    assert len(frames) == len(steps)
    for s, frame in zip(steps, frames):
        chain = topdown_chain(s, criterion=criterion, leaf_rule=leaf_rule)
        check_card(chain, frame)
        assert _first_values(frame).startswith(fmt(s.metrics.train_error) + " ")
        assert f'data-round="{s.t}"' in frame
    large = topdown_frames.topdown_proof_frames(
        steps, criterion=criterion, leaf_rule=leaf_rule, font=15.6
    )
    assert all(_large(f) for f in large) and not any(_large(f) for f in frames)


@pytest.mark.parametrize(
    "data, kw, size, max_arity, is_theorem",
    [
        # issue 24, item 5's run: one 3-way root split, which k ≤ s/|T| = 3 allows
        ("moons", {}, 3, 3, True),
        # a 3-way split at |T| = 4 of s = 8: Hatano's rule forbids it
        ("stripes", {"noise": 0.05, "random_state": 1}, 8, 4, False),
    ],
)
def test_topdown_curves_label_the_final_bound_by_what_the_run_did(
    data, kw, size, max_arity, is_theorem
) -> None:
    """The curves' ★ labels agree with the proof card (issue 24, item 5): a naive run whose
    splits kept Hatano's rule draws Theorem 4's s^−γ̂ and φ_γ̂(s), not a reference."""
    import json

    ds = datasets.make_dataset(data, n=400, **kw)
    settings = Settings(
        {
            "crit": ("naive",),
            "size": size,
            "max_arity": max_arity,
            "index": "km",
            "gamma": 0.1,
            "leaf_rule": "max_weight",
        }
    )
    out = topdown_frames.topdown_lecture.__wrapped__(ds, f"{data}-{size}", settings, 12)
    # the frames as drawn (a later round may be sent as a delta of an earlier one)
    last = json.dumps(lh.resolve(out["runs"]["naive"]["curves"])[-1], ensure_ascii=False)
    stars = set(re.findall(r"★[^\"]*", last))
    assert stars, "the final-tree bounds are drawn"
    if is_theorem:
        assert stars == {"★ Thm 4: s<sup>−γ̂</sup>", "★ φ<sub>γ̂</sub>(s)"}
    else:
        assert stars == {"★ s<sup>−γ̂</sup> (ref.)", "★ φ<sub>γ̂</sub>(s) (ref.)"}


def test_topdown_failing_link_has_its_footnote() -> None:
    # leaf {x = 0} holds both classes at one point: no split divides it, γ̂ = 0 at the stop
    X = np.array([[0.0], [0.0], [1.0], [2.0]])
    y = np.array([-1, 1, 1, 1])
    steps = _topdown_steps(list(grow(X, y, size=4, max_arity=2)))
    frames = topdown_frames.topdown_proof_frames(steps, criterion="hatano", leaf_rule="max_weight")
    assert 'class="bl-proof-foot"' not in frames[0]
    last = _text(frames[-1])
    assert "⚠ I(T) ≤ φγ̂(|T|): γ̂ = 0" in last
    # after a multi-way split, φ_γ̂(s) is no theorem until the final tree: ✗ and why
    ds = datasets.make_dataset("stripes", n=400, noise=0.05, random_state=1)
    run = _topdown_steps(list(grow(ds.X_train, ds.y_train, size=8, max_arity=4)))
    frames = topdown_frames.topdown_proof_frames(run, criterion="hatano", leaf_rule="max_weight")
    assert "✗ I(T) ≤ φγ̂(s): after a multi-way split" in _text(frames[1])


# ----------------------------------------------------------------------------- branching
def test_branching_lecture_has_a_proof_frame_per_round() -> None:
    ds = datasets.make_dataset("moons", n=200, noise=0.3, random_state=0, test_fraction=0.25)
    schemes = tuple(fb.SCHEMES)
    lec = fb.branching_lecture.__wrapped__(ds, "test-proof", schemes, 6, 0.5, "h", 12.0)
    for name in schemes:
        run = branching_runs.bp_run.__wrapped__(ds, "test-proof", 6, fb.SCHEMES[name], 0.5, "h")
        shown = protocol.rounds(run)
        frames = lh.resolve(lec["runs"][name]["proof"])
        assert len(frames) == lec["runs"][name]["n"] == len(lec["runs"][name]["curves"])
        for s, frame in zip(shown, frames):
            assert _first_values(frame).startswith(fmt(s.metrics.train_error) + " ")
            assert f'data-round="{s.t}"' in frame
        if name == "BP.InfoBoost":  # pure leaves are smoothed: Lemma 2's "=" is marked
            assert any(
                "one-class leaf" in _text(f) and 'class="bl-proof-foot"' in f for f in frames
            )
    big = fb.branching_lecture.__wrapped__(ds, "test-proof", schemes[:1], 3, 0.5, "h", 15.6)
    assert all(_large(f) for f in lh.resolve(big["runs"][schemes[0]]["proof"]))


# ---------------------------------------------------------------------------- matryoshka
def test_matryoshka_lecture_has_a_proof_frame_per_round() -> None:
    ds = datasets.make_dataset("moons", n=200, noise=0.3, random_state=0, test_fraction=0.25)
    structures = ("chain", "tree", "matryoshka", "collapse")
    runs = {
        s: matryoshka_runs.prob_run.__wrapped__(ds, "test", s, 8, 0.9, None) for s in structures
    }
    lec = fm.build_lecture(runs, ds, n_weak=8, samples=None, font=12)
    for structure in structures:
        steps = protocol.rounds(runs[structure])
        frames = lh.resolve(lec["runs"][structure]["proof"])
        assert len(frames) == len(lh.resolve(lec["runs"][structure]["curves"])) == 9
        for t, frame in enumerate(frames):
            s = steps[fm.shown_index(steps, t)]
            assert _first_values(frame).startswith(fmt(s.metrics.train_error) + " ")
        if structure == "matryoshka":  # level 2 on: the nesting step is the paper's claim
            last = _text(frames[-1])
            assert "✗ C(T) ≤ M2(T, ρ̂): Grossmann's nesting step" in last
    # MAP estimates of q (R answers) for the chain and the tree: their first link is marked
    runs = {
        s: matryoshka_runs.prob_run.__wrapped__(ds, "test", s, 2, 0.9, 5) for s in ("chain", "tree")
    }
    lec = fm.build_lecture(runs, ds, n_weak=2, samples=5, font=15.6)
    for structure in runs:
        frame = lh.resolve(lec["runs"][structure]["proof"])[-1]
        assert "MAP estimates" in _text(frame) and _large(frame)


# ------------------------------------------------------------------------------- oblique
def _oblique(ds, *, inner: bool, T2: int = 3, T1: int = 4):
    runs = {
        fo.ADA: oblique_runs.g1_path_run.__wrapped__(ds, "k", T2 * T1, "stump"),
        fo.KM: oblique_runs.g1_tree_run.__wrapped__(ds, "k", T2, "max_decrease"),
        fo.ODT: oblique_runs.odt_run.__wrapped__(ds, "k", T2, T1, "stump", "breadth_first"),
    }
    lec = fo.build_lecture(
        ds,
        runs,
        inner=inner,
        font=12,
        learner="stump",
        peers=lambda n: oblique_runs.axis_parallel_peers.__wrapped__(ds, "k", n),
    )
    return runs, lec


@pytest.mark.parametrize("inner", [False, True])
def test_oblique_proof_frames_follow_the_schedule(inner) -> None:
    ds = datasets.make_dataset("moons", n=160, noise=0.3, random_state=0, test_fraction=0.25)
    runs, lec = _oblique(ds, inner=inner)
    schedule = [tuple(p) for p in lec["schedule"]]
    for name in fo.ORDER:
        frames = lh.resolve(lec["runs"][name]["proof"])
        assert len(frames) == lec["n"] == len(lec["runs"][name]["curves"])
        steps = protocol.rounds(runs[name])
        for k, frame in enumerate(frames):
            s = steps[fo.shown_at(runs, schedule, k)[name].idx]
            assert _first_values(frame).startswith(fmt(s.metrics.train_error) + " ")
            labels = "Π √(1 − μt²)" if name == fo.ADA else "Σℓ 2√(w⁺w⁻)"
            assert labels in _text(frame)


def test_oblique_last_round_says_when_no_weak_hypothesis_has_an_edge() -> None:
    # XOR: every stump has μ = 0 under the uniform weights, G1 stops at round 0
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([-1, -1, 1, 1])
    run = list(g1_linear(X, y, n_rounds=3))
    frames = fo.proof_frames(run, [0, 0], font=12)
    assert frames[0] == frames[1]
    check_card(g1_chain(run[-1], history=run), frames[0])
    assert "μ = 0" in _text(frames[0]) and 'data-status="assumption"' in frames[0]
    # a run that ran its rounds: every frame holds, the last one from the stop snapshot
    ds = datasets.make_dataset("moons", n=100, random_state=0)
    run = list(g1_linear(ds.X_train, ds.y_train, n_rounds=4))
    frames = fo.proof_frames(run, [0, 2, 4], font=12)
    statuses = re.findall(r'data-status="(\w+)"', "".join(frames))
    assert set(statuses) == {HOLDS} and ASSUMPTION not in statuses
