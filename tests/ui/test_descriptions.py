"""Text alternatives of the lesson pages' three big views (issue 26, item 5): one plain
sentence per round for the regions, the structure and the curves, which states the numbers the
frames draw. Top-down here; the other lessons' in tests/test_frames_<slug>.py. The views'
check (an AppTest run of each lesson page) is here for all four."""

from __future__ import annotations

import re

import numpy as np
import pytest

from boostcore import datasets
from tests import apptest_helpers as ah
from tests import lecture_helpers as lh
from ui import pages
from ui.pages.topdown import frames as topdown_frames
from ui.pages.topdown import runs as topdown_runs
from ui.params import Settings

#: What no description may hold: markup, LaTeX, carets.
NOT_PLAIN = re.compile(r"[<$^]")
PANELS = ("regions", "structure", "curves")


def assert_plain_and_one_per_round(descriptions: dict, n: int) -> None:
    """Every panel has one plain-text sentence per round."""
    assert set(descriptions) == set(PANELS)
    for panel in PANELS:
        said = descriptions[panel]
        assert len(said) == n, (panel, len(said), n)
        for text in said:
            assert isinstance(text, str) and text.strip(), (panel, text)
            assert not NOT_PLAIN.search(text), (panel, text)


def _dots(curves_frame: dict) -> dict[str, float]:
    """The curves' marker at this round of each line (the solid dot), by legend name."""
    return {
        tr["name"]: tr["y"][0]
        for tr in curves_frame["data"]
        if tr.get("mode") == "markers" and tr.get("showlegend") is False and len(tr["y"]) == 1
    }


# ------------------------------------------------------------------------------ top-down
@pytest.fixture(scope="module")
def topdown() -> tuple:
    """A 4-way budget-8 run of the three criteria on noisy stripes (the naive one ends first,
    so its descriptions are padded like its notes)."""
    ds = datasets.make_dataset("stripes", n=300, noise=0.05, random_state=1)
    settings = Settings(
        {
            "crit": ("hatano", "mansour_mcallester", "naive"),
            "size": 8,
            "max_arity": 4,
            "index": "km",
            "gamma": 0.1,
            "leaf_rule": "max_weight",
        }
    )
    out = topdown_frames.topdown_lecture.__wrapped__(ds, "stripes-desc", settings, 12)
    return ds, out


def test_topdown_descriptions_one_plain_sentence_per_round(topdown) -> None:
    _, out = topdown
    lengths = set()
    for c, run in out["runs"].items():
        assert_plain_and_one_per_round(run["descriptions"], len(run["notes"]))
        lengths.add(run["n"])
        # a run that ended early keeps describing its last picture
        for said in run["descriptions"].values():
            assert said[run["n"] :] == [said[run["n"] - 1]] * (out["n"] - run["n"]), c
    assert len(lengths) > 1, "the fixture has a run that ends early"


def test_topdown_descriptions_state_what_the_frames_draw(topdown) -> None:
    ds, out = topdown
    say = topdown_frames.spoken_number
    for c, run in out["runs"].items():
        steps = topdown_runs.topdown_run.__wrapped__(
            ds,
            "stripes-desc",
            8,
            "km",
            c,
            4,
            0.1 if c == "mansour_mcallester" else None,
            "max_weight",
            (),
        )
        steps = steps[:-2] + steps[-1:]
        regions = lh.resolve(run["regions"])
        curves = lh.resolve(run["curves"])
        d = run["descriptions"]
        for t, step in enumerate(steps):
            dots = _dots(curves[t])
            err = dots["train error"]
            # the regions' error is the curves' dot, and the count is the tree's mistakes
            wrong = int(np.sum(step.tree.predict(ds.X_train) != ds.y_train))
            assert f"training error {say(err)} ({wrong} of {ds.n_train} " in d["regions"][t]
            # the cells drawn are the leaves the structure sentence counts
            cells = sum(1 for s in regions[t]["layout"]["shapes"] if s.get("layer") == "below")
            assert cells == step.tree.n_leaves
            leaves = f"{cells} leaf " if cells == 1 else f"{cells} leaves "
            assert d["structure"][t].startswith(f"Tree with {leaves}"), d["structure"][t]
            if step.split is not None:
                assert f"split leaf #{step.split.leaf} on " in d["structure"][t]
                assert f"split leaf #{step.split.leaf} on " in d["regions"][t]
            # every line's dot at this round, by the legend's name read aloud
            for name, value in dots.items():
                if name in topdown_frames.SPOKEN:
                    assert f"{topdown_frames.SPOKEN[name]} {say(value)}" in d["curves"][t], (
                        name,
                        d["curves"][t],
                    )
            stars = [tr["y"][0] for tr in curves[t]["data"] if tr.get("name", "").startswith("★")]
            if stars:  # Theorem 4's s^−γ̂ and φ_γ̂(s), in the legend's order
                assert (
                    f"minus gamma hat is {say(stars[0])} and phi of s {say(stars[1])}"
                    in (d["curves"][t])
                )
            if t:
                before = _dots(curves[t - 1])["train error"]
                moved = "stayed at {} since" if say(before) == say(err) else "fell from {} at"
                assert f"{moved.format(say(before))} round {t - 1}." in d["curves"][t]


# ------------------------------------------------------------------ the views pass them
@pytest.mark.parametrize("slug", [p.slug for p in pages.with_feature("lecture")])
def test_lesson_views_get_a_description_per_round(slug: str) -> None:
    """The page hands each of its three big views one description per round, as many as its
    notes when they change with the round (else the stepper's rounds), the proof card none
    (its text is read as it is)."""
    at = ah.page(slug)
    ah.ok(at)
    n = lh.stepper(at)["hi"] + 1
    views = lh.views(at)
    # the focused run's tag ends its three views' keys; the structure's word is the page's own
    (tag,) = [k.removeprefix("lv_regions_") for k in views if k.startswith("lv_regions_")]
    others = [k for k in views if k.endswith(f"_{tag}") and k.startswith("lv_")]
    (structure,) = [
        k.removeprefix("lv_").removesuffix(f"_{tag}")
        for k in others
        if k not in (f"lv_regions_{tag}", f"lv_curves_{tag}", f"lv_proof_{tag}")
    ]
    for panel in ("regions", structure, "curves"):
        (key,) = [k for k in views if k.startswith(f"lv_{panel}_")]
        said, notes = views[key]["descriptions"], views[key]["notes"] or []
        rounds = len(notes) if len(notes) > 1 else n
        assert isinstance(said, list) and len(said) == rounds, (slug, panel, said)
        assert all(s and not NOT_PLAIN.search(s) for s in said), (slug, panel)
    (proof,) = [k for k in views if k.startswith("lv_proof_")]
    assert views[proof]["descriptions"] is None


def test_spoken_numbers_keep_a_small_bound_apart_from_zero() -> None:
    say = topdown_frames.spoken_number
    assert [say(v) for v in (0.1234, 0.004, 0.0, 1e-5, 1.0)] == [
        "0.12",
        "0.004",
        "0",
        "below 0.001",
        "1.00",
    ]
