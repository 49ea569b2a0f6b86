// boostlab lecture script, part 4 of 5: the quiz. ui/lecture/assets.py joins
// the parts (its PARTS order) into one ES module: they share one scope; only main.js exports.

// ------------------------------------------------------------------------------------- quiz
// Predict, then reveal (ui/quiz_widget.py): the question of every round arrives with the
// frames, so the question on screen always belongs to the round drawn, and picking,
// revealing and scoring happen here without a round trip. The score and the marks are kept
// per page in the tab's sessionStorage (they survive a rerun, a remount and a reload).
const LETTERS = ["A", "B", "C", "D"];

function quizStore(page) {
  const name = "boostlab-quiz:" + page;
  let s = null;
  try { s = JSON.parse(window.sessionStorage.getItem(name) || "null"); } catch (e) { s = null; }
  if (!s || typeof s !== "object") s = {};
  s.log = s.log || {};      // question id -> the pick it was revealed with (null: none)
  s.picks = s.picks || {};  // question id -> the pick of a question not revealed yet
  s.right = s.right || 0;
  s.answered = s.answered || 0;
  s.save = () => {
    try {
      window.sessionStorage.setItem(name, JSON.stringify(
        { log: s.log, picks: s.picks, right: s.right, answered: s.answered }));
    } catch (e) { /* storage refused (private mode): the score lives until a reload */ }
  };
  return s;
}

function quizMount(component) {
  const { data, parentElement } = component;
  const key = data.stepper || "round";
  const qs = data.questions || [];
  const store = quizStore(data.page || "");
  const root = document.createElement("div");
  root.className = "bl-quiz" + (data.presenting ? " bl-quiz-present" : "");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "Predict, then reveal");
  root.innerHTML = `
    <div class="bl-quiz-last" aria-live="polite"></div>
    <div class="bl-quiz-q"></div>
    <div class="bl-quiz-grid" role="radiogroup"></div>
    <div class="bl-quiz-actions"><button type="button" class="bl-quiz-reveal">Reveal</button></div>
    <div class="bl-quiz-why" aria-live="polite"></div>
    <div class="bl-quiz-class" aria-live="polite"></div>
    <div class="bl-quiz-score"></div>`;
  parentElement.replaceChildren(root);
  const lastEl = root.querySelector(".bl-quiz-last");
  const qEl = root.querySelector(".bl-quiz-q");
  const grid = root.querySelector(".bl-quiz-grid");
  const revealBtn = root.querySelector(".bl-quiz-reveal");
  const whyEl = root.querySelector(".bl-quiz-why");
  const scoreEl = root.querySelector(".bl-quiz-score");
  const classEl = root.querySelector(".bl-quiz-class");
  let shownT = null;
  let current = null;
  // In a class (ui/classroom/js/): the teacher's quiz asks each round's question of
  // the class and reveals it for everyone; a following student's pick is their answer and
  // the teacher's reveal is theirs. The class's answers arrive as "boostlab:class" events.
  const role = () => (BUS.klass ? BUS.klass.role : null);
  const studentFollowing = () => role() === "student" && !!BUS.following;

  // where a following student's answer stands (ui/classroom/js/transport.js, sendAnswer): sent
  // until the class has it, and said in words when it has not
  const ANSWER_WORDS = {
    sending: (l) => `Sending your answer ${l}…`,
    sent: (l) => `Your answer ${l} reached the class.`,
    retrying: (l, why) => `Your answer ${l} has not reached the class yet (${why}): trying again…`,
    refused: (l, why) => `Your answer ${l} was not counted: ${why}`,
  };

  function classLine() {
    const cls = BUS.classState;
    const q = current;
    classEl.replaceChildren();
    classEl.dataset.answer = "";
    const sent = BUS.answerStatus;
    if (q && studentFollowing() && sent && sent.qid === q.id && ANSWER_WORDS[sent.state]) {
      classEl.textContent = ANSWER_WORDS[sent.state](LETTERS[sent.choice] || "?", sent.words);
      classEl.dataset.answer = sent.state;
      return;
    }
    if (!cls || !q || role() !== "teacher") return;
    const mine = cls.question && cls.question.id === q.id;
    if (!mine) return;
    if (!cls.revealed) {
      classEl.textContent = `${cls.answers} of ${cls.students} students answered`;
      return;
    }
    // the class's answers per letter, the right one marked (no one's answer is shown)
    const total = cls.histogram.reduce((a, b) => a + b, 0) || 1;
    const rows = cls.histogram.map((n, i) => {
      const row = document.createElement("div");
      row.className = "bl-quiz-bar" + (i === cls.question.correct ? " bl-quiz-bar-right" : "");
      const label = document.createElement("b");
      label.textContent = LETTERS[i] + (i === cls.question.correct ? " ✓" : "");
      const bar = document.createElement("span");
      bar.style.width = `${Math.round((100 * n) / total)}%`;
      const count = document.createElement("i");
      count.textContent = String(n);
      row.append(label, bar, count);
      return row;
    });
    const head = document.createElement("div");
    head.textContent = `The class: ${cls.answers} answer${cls.answers === 1 ? "" : "s"}`;
    classEl.append(head, ...rows);
  }

  function questionAt(t) {
    if (!qs.length) return null;
    return qs[Math.min(Math.max(t, 0), qs.length - 1)] || null;
  }

  function verdict(q, pick) {
    const answer = `${LETTERS[q.correct]}. ${q.answers[q.correct]}`;
    if (pick === null || pick === undefined) return ["shown", `The answer is ${answer}. ${q.why}`];
    if (pick === q.correct) return ["right", `Right: ${answer}. ${q.why}`];
    return ["wrong", `Not this time — the answer is ${answer}. ${q.why}`];
  }

  function mark(q, pick) {
    if (q.id in store.log) return;
    store.log[q.id] = pick ?? null;
    delete store.picks[q.id];
    if (pick !== null && pick !== undefined) {
      store.answered += 1;
      if (pick === q.correct) store.right += 1;
    }
    store.save();
  }

  function scoreText() {
    const s = store.answered ? `${store.right} of ${store.answered} right`
                             : "No prediction marked yet";
    return "Score this session: " + s;
  }

  function render() {
    const q = current;
    root.dataset.round = String(shownT);
    if (!q) {
      root.dataset.qid = "";
      root.dataset.revealed = "";
      qEl.textContent = "Nothing left to predict: this is the run's last round.";
      grid.replaceChildren();
      revealBtn.hidden = true;
      whyEl.textContent = "";
      whyEl.className = "bl-quiz-why";
      scoreEl.textContent = scoreText();
      classLine();
      return;
    }
    const revealed = q.id in store.log;
    const pick = revealed ? store.log[q.id] : store.picks[q.id];
    root.dataset.qid = q.id;
    root.dataset.revealed = revealed ? "1" : "";
    rich(qEl, "Predict: " + q.text);
    const buttons = q.answers.map((text, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "bl-quiz-a";
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", pick === i ? "true" : "false");
      b.dataset.i = String(i);
      const letter = document.createElement("b");
      letter.textContent = LETTERS[i];
      const span = document.createElement("span");
      rich(span, text);
      b.append(letter, span);
      if (pick === i) b.classList.add("bl-quiz-picked");
      if (revealed) {
        b.disabled = true;
        const m = document.createElement("i");
        if (i === q.correct) { b.classList.add("bl-quiz-right"); m.textContent = " ✓"; }
        else if (i === pick) { b.classList.add("bl-quiz-wrong"); m.textContent = " ✗"; }
        else b.classList.add("bl-quiz-dim");
        if (m.textContent) b.append(m);
      }
      return b;
    });
    grid.replaceChildren(...buttons);
    revealBtn.hidden = revealed || studentFollowing();
    if (revealed) {
      const [kind, text] = verdict(q, pick);
      rich(whyEl, text);
      whyEl.className = "bl-quiz-why bl-quiz-" + kind;
    } else {
      whyEl.textContent = studentFollowing() ? "Your answer counts for the class: the " +
        "teacher reveals it." : data.presenting ? "The class's answer (optional), then Reveal." : "";
      whyEl.className = "bl-quiz-why";
    }
    scoreEl.textContent = scoreText();
    classLine();
  }

  function onRound(t) {
    const q = questionAt(t);
    const before = current;
    const beforeT = shownT;
    shownT = t;
    current = q;
    if (role() === "teacher") {
      BUS.ask = q ? { qid: q.id, n: q.answers.length } : null;
      window.dispatchEvent(new CustomEvent("boostlab:ask", { detail: BUS.ask }));
    }
    if (before && (!q || q.id !== before.id)) {
      // a step forward past a pending pick reveals it (marked once, shown on the next round)
      const pick = store.picks[before.id];
      if (pick !== undefined && !(before.id in store.log) && t > beforeT) {
        mark(before, pick);
        const [kind, text] = verdict(before, pick);
        rich(lastEl, ({ right: "✓ ", wrong: "✗ " }[kind] || "") +
          `Round ${before.t}'s prediction: ${text}`);
        lastEl.className = "bl-quiz-last bl-quiz-" + kind;
      } else {
        lastEl.textContent = "";
        lastEl.className = "bl-quiz-last";
      }
    }
    render();
  }

  grid.addEventListener("click", (ev) => {
    const b = ev.target.closest(".bl-quiz-a");
    if (!b || b.disabled || !current || current.id in store.log) return;
    const i = parseInt(b.dataset.i, 10);
    if (studentFollowing()) {
      store.picks[current.id] = i;  // a class answer is changed, not taken back
      window.dispatchEvent(new CustomEvent("boostlab:answer",
                                           { detail: { qid: current.id, choice: i } }));
    } else if (store.picks[current.id] === i) delete store.picks[current.id];  // a second tap unpicks
    else store.picks[current.id] = i;
    store.save();
    render();
  });
  revealBtn.addEventListener("click", () => {
    if (!current) return;
    mark(current, store.picks[current.id]);
    if (role() === "teacher") {
      window.dispatchEvent(new CustomEvent("boostlab:reveal",
                                           { detail: { qid: current.id, correct: current.correct } }));
    }
    render();
  });
  // the class's state: the count of answers, and the teacher's reveal
  function onClass(ev) {
    const cls = ev.detail;
    if (current && studentFollowing() && cls.revealed && cls.question &&
        cls.question.id === current.id && !(current.id in store.log)) {
      mark(current, store.picks[current.id]);
    }
    render();
  }
  window.addEventListener("boostlab:class", onClass);
  window.addEventListener("boostlab:answer-status", render);

  function onRoundEvent(ev) {
    if (ev.detail.key === key) onRound(ev.detail.t);
  }
  window.addEventListener("boostlab:round", onRoundEvent);
  onRound(BUS.rounds[key] ?? 0);
  return () => {
    window.removeEventListener("boostlab:round", onRoundEvent);
    window.removeEventListener("boostlab:class", onClass);
    window.removeEventListener("boostlab:answer-status", render);
  };
}
