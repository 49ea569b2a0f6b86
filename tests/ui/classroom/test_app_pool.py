"""The class pools its weak learners (issue 28, item 4; ui/classroom/pool.py), in AppTest, on
the three pages with a "You are the weak learner" mode: the split on /topdown, the stump on
/branching, the separator on /oblique.

* A follower of a class whose teacher collects has *Send my … to the class* in place of its
  play buttons (no Undo either: the teacher plays), and sending puts its choice in the store.
* The teacher's panel counts the scored submissions, names the class's best, counts a hostile
  or stale submission as refused (it changes nothing), and draws the regions and the
  histogram.
* *Use the class's best split* plays the best submission (the teacher's choices end with it)
  and starts a new collection (the store's splits are dropped).
"""

from __future__ import annotations

import re

import pytest

import server.store as cs
from tests import apptest_helpers as ah
from tests import lecture_helpers as lh

#: page → (weak-learner key, the send button's word, hostile submissions)
PAGES = {
    "topdown": (
        "weak_topdown",
        "split",
        [{"leaf": "x"}, {"leaf": 0, "feature": 9, "thresholds": "0.1"}, {"thresholds": "nan"}],
    ),
    "branching": (
        "weak_branching",
        "stump",
        [{"round": 1, "feature": 7, "threshold": 0.0}, {"round": 99, "feature": 0, "threshold": 0}],
    ),
    "oblique": (
        "weak_oblique",
        "line",
        [
            {"step": 1, "cos": 0.0, "sin": 0.0, "b": 0.0},
            {"step": 1, "cos": 1.0, "sin": 0.0, "b": 1e6},
        ],
    ),
}
QUERY = {"topdown": {}, "branching": {"T": "6"}, "oblique": {}}


@pytest.fixture(autouse=True)
def fresh_store(monkeypatch):
    monkeypatch.setattr(cs, "STORE", cs.MemoryStore())


def _code(at) -> str:
    html = "\n".join(h.proto.body for h in at.get("html"))
    found = re.search(r"Class <b>([A-Z0-9]{6})</b>", html)
    assert found, html[:300]
    return found.group(1)


def _panel_text(at, key: str) -> str:
    return "\n".join(m.value for m in at.markdown if "Class splits" in m.value)


@pytest.mark.parametrize("page", list(PAGES))
def test_the_class_sends_its_choices_and_the_teacher_plays_the_best(page: str) -> None:
    key, what, hostile = PAGES[page]
    teacher = ah.page(page, **QUERY[page])
    teacher.button(key="teach_class").click().run()
    ah.ok(teacher)
    code = _code(teacher)
    teacher.toggle(key=f"{key}_on").set_value(True).run()
    teacher.toggle(key="class_collect").set_value(True).run()
    ah.ok(teacher)
    assert "waiting for the students' choices" in _panel_text(teacher, key)
    n_charts = len(teacher.get("plotly_chart"))
    assert '"collect": true' in cs.run(cs.STORE.state(code)).mode

    student = ah.page(page, **{**QUERY[page], "class": code})
    ah.ok(student)
    labels = [b.label for b in student.button]
    assert f"Send my {what} to the class" in labels, labels
    assert not {"Undo", "Start over"} & set(labels), labels  # the teacher plays
    student.button(key=f"{key}_send").click().run()
    ah.ok(student)
    assert any(i.value.startswith("Sent. 1 split(s)") for i in student.info), [
        i.value for i in student.info
    ]
    (sent,) = cs.run(cs.STORE.splits(code))

    for i, bad in enumerate(hostile):
        cs.run(cs.STORE.submit(code, f"hostile-{i}", bad))
    teacher.run()
    ah.ok(teacher)
    text = _panel_text(teacher, key)
    assert f"Class splits: 1** sent ({len(hostile)} refused" in text, text
    assert "The class's best:" in text, text
    # the submissions on the regions, and the histogram of their scores
    assert len(teacher.get("plotly_chart")) == n_charts + 2

    before = tuple(teacher.session_state[f"{key}_choices"])
    teacher.button(key=f"{key}_class_best").click().run()
    ah.ok(teacher)
    played = tuple(teacher.session_state[f"{key}_choices"])
    assert played[: len(before)] == before and len(played) == len(before) + 1
    last = played[-1]
    if page == "topdown":
        assert (last[0], last[1]) == (int(sent["leaf"]), int(sent["feature"]))
        assert tuple(last[2]) == tuple(float(x) for x in sent["thresholds"].split(","))
    elif page == "branching":
        assert last == (int(sent["feature"]), float(sent["threshold"]))
    else:
        assert last == ((sent["cos"], sent["sin"]), sent["b"])
    assert cs.run(cs.STORE.splits(code)) == []  # a new collection


# ---------------------------------------------------------------- a follower's page (issue 39)
#: page → the first column's entry of the student's own row in the panel's table, the
#: sentences that compare it with the algorithm's choice (they give the answer away while the
#: class chooses), and the words of the note that shows the algorithm's choice once played
FOLLOWER = {
    "topdown": ("yours", r"the algorithm's \d", r"The algorithm('s choice:| chose the same)"),
    "branching": (
        "yours",
        r"InfoBoost's (\d|divided leaves|does)",
        r"InfoBoost's: h1 =|as InfoBoost's does",
    ),
    "oblique": (
        "your line",
        r"AdaBoost_R's separator (lowers|\()|than AdaBoost_R's",
        "AdaBoost_R's separator:",
    ),
}


def _class(page: str):
    """A teacher who collects the class's choices, and a student following on their page."""
    key = PAGES[page][0]
    teacher = ah.page(page, **QUERY[page])
    teacher.button(key="teach_class").click().run()
    code = _code(teacher)
    teacher.toggle(key=f"{key}_on").set_value(True).run()
    teacher.toggle(key="class_collect").set_value(True).run()
    ah.ok(teacher)
    student = ah.page(page, **{**QUERY[page], "class": code})
    ah.ok(student)
    return teacher, student


def _rows(at) -> list[str]:
    """The first column of the student's table (one row per choice it shows)."""
    (table,) = [d for d in at.dataframe if d.value.columns[0] in ("split", "stump", "separator")]
    return table.value.iloc[:, 0].tolist()


def _texts(at) -> list[str]:
    return [e.value for kind in ("markdown", "caption", "info", "success") for e in at.get(kind)]


@pytest.mark.parametrize("page", list(PAGES))
def test_a_follower_sees_the_algorithms_choice_only_once_the_class_has_chosen(page: str) -> None:
    """While the class collects, a follower's panel shows the student's own choice and
    nothing of the algorithm's (issue 39, item 6); once the teacher has played the class's
    best, a note says how it compared with the algorithm's, in the class's name, not the
    student's (item 7); with *Class splits* off the algorithm's row is back."""
    key, what, _ = PAGES[page]
    own, compare, shown = FOLLOWER[page]
    teacher, student = _class(page)
    assert _rows(student) == [own]
    leaks = [t for t in _texts(student) if re.search(compare, t)]
    assert not leaks, leaks
    head = next(t for t in _texts(student) if t.startswith("**You are the weak learner**"))
    assert "send it to the class" in head and "the class's" in head, head

    student.button(key=f"{key}_send").click().run()
    teacher.run()
    teacher.button(key=f"{key}_class_best").click().run()
    ah.ok(teacher)
    student.run()
    ah.ok(student)
    (note,) = [i.value for i in student.info if "played by the teacher" in i.value]
    assert f"the class's {what}" in note and f"your {what}" not in note.lower(), note
    assert re.search(shown, note), note
    # the lecture's views say whose the round was too: the class's, on every view's note,
    # picture and table of the round played (they said "your split" on every phone)
    said = []
    for view in lh.views(student).values():
        said.append(lh.note_at(view, 1))
        frame = lh.frame_at(view, 1)
        said += [f for f in (frame if isinstance(frame, list) else [frame]) if isinstance(f, str)]
    mine = [t for t in said if re.search(rf"your {what}|played by you|You (expanded|forced)", t)]
    assert not mine, mine[:3]
    assert any(f"the class's {what}" in t for t in said), [t[:120] for t in said if t][:6]
    # the next round is being chosen: still nothing of the algorithm's beside the student's
    assert _rows(student) == [own]

    teacher.toggle(key="class_collect").set_value(False).run()
    student.run()
    ah.ok(student)
    assert len(_rows(student)) > 1, _rows(student)  # the algorithm's choice is shown again
