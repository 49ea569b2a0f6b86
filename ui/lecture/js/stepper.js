// boostlab lecture script, part 2 of 5: the round stepper. ui/lecture/assets.py joins
// the parts (its PARTS order) into one ES module: they share one scope; only main.js exports.

// ---------------------------------------------------------------------------------- stepper
// A control of the page (a Streamlit widget, a link, the Export menu) is about to be used:
// every stepper whose round the server does not know reports it first, so the rerun that
// the control causes sees the round shown (the Export menu's round, a new focus's round).
// Installed once per document; the stepper's own controls, the views and the quiz are not
// controls of the server.
const CONTROL = 'button, a[href], input, select, textarea, label, summary, [contenteditable], ' +
  '[role="button"], [role="option"], [role="tab"], [role="switch"], [role="checkbox"], ' +
  '[role="radio"], [role="slider"], [role="combobox"], [role="menuitem"]';

function syncBeforeControls() {
  if (BUS.syncInstalled) return;
  BUS.syncInstalled = true;
  const before = (ev) => {
    const control = ev.target instanceof Element ? ev.target.closest(CONTROL) : null;
    if (!control || control.closest(".bl-stepper, .bl-quiz, #bl-skip")) return;
    // inside a view only a small multiple is a control (a click focuses its run)
    if (control.closest(".bl-view") && !control.classList.contains("bl-focusable")) return;
    for (const sync of Object.values(BUS.syncers || {})) sync();
  };
  document.addEventListener("pointerdown", before, true);
  document.addEventListener("focusin", before, true);
}

function stepperMount(component) {
  const { data, parentElement, setStateValue } = component;
  const key = data.key;
  const lo = data.lo, hi = data.hi;
  // The stepper's state outlives a remount (new data after a rerun): kept per page and key.
  BUS.steppers = BUS.steppers || {};
  const sid = (data.page || "") + ":" + key;
  let st = BUS.steppers[sid];
  if (!st) {
    st = BUS.steppers[sid] = { t: null, sent: null, seqSent: 0, moved: null, timer: null,
                               speed: null };
  }
  if (st.timer) {
    clearInterval(st.timer);
    st.timer = null;
  }
  // Who moved the round last (issue 27, item 3). The server moved it itself (a preset, the
  // student's play) when its count of such moves changed: that round wins, and the server
  // knows it. Otherwise data.t is the round the browser reported last (data.seq), or an
  // older one when this rerun began before that report arrived (a late echo): the round the
  // user is on stays, unless the server has seen every report and the user has not stepped
  // since (then data.t is that report, or it clamped into a shorter run).
  if (st.t === null || data.moved !== st.moved) {
    st.t = data.t;
    st.sent = data.t;
  } else if (data.seq >= st.seqSent && st.t === st.sent) {
    st.t = data.t;
    st.sent = data.t;
  }
  // a class follower opens at the teacher's round, however this run was told (klass.js)
  // (followRound is null unless the page follows: klass.js clears it when the student
  // explores or the class ends; BUS.following may be briefly false while klass.js remounts)
  if (typeof BUS.followRound === "number") st.t = BUS.followRound;
  st.t = Math.min(Math.max(st.t, lo), hi);
  st.moved = data.moved;
  // the speed chosen last on this page, else 1 s (2 s for a reader who asked for less motion)
  st.speed = st.speed || (reducedMotion() ? "slow" : "normal");

  const root = document.createElement("div");
  root.className = "bl-stepper";
  root.id = "bl-stepper";
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "Round controls");
  root.innerHTML = `
    <div class="bl-row">
      <label class="bl-label"><span class="bl-name"></span> <b class="bl-value"></b>
        <span class="bl-of"></span></label>
      <input class="bl-range" type="range" aria-label="round">
      <div class="bl-buttons">
        <button class="bl-btn" data-act="first" title="First round (Home key)" aria-label="first round"><svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true"><path d="M6 6h2v12H6zm3.5 6 8.5 6V6z"/></svg></button>
        <button class="bl-btn" data-act="prev" title="Previous round (← key)" aria-label="previous round"><svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true"><path d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z"/></svg></button>
        <button class="bl-btn" data-act="next" title="Next round (→ key)" aria-label="next round"><svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true"><path d="M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z"/></svg></button>
        <button class="bl-btn" data-act="last" title="Last round (End key)" aria-label="last round"><svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true"><path d="M6 18l8.5-6L6 6v12zM16 6v12h2V6h-2z"/></svg></button>
        <button class="bl-btn bl-play" data-act="play" title="Play the rounds one after another (Space key)">Play</button>
        <select class="bl-speed" title="Time between rounds while playing" aria-label="speed">
          <option value="slow">slow · 2 s</option>
          <option value="normal">normal · 1 s</option>
          <option value="fast">fast · 0.5 s</option>
        </select>
      </div>
    </div>
    <div class="bl-caption"></div>
    <div class="bl-sr" aria-live="polite" aria-atomic="true"></div>`;
  parentElement.replaceChildren(root);
  const live = root.querySelector(".bl-sr");
  const range = root.querySelector(".bl-range");
  const value = root.querySelector(".bl-value");
  const playBtn = root.querySelector(".bl-play");
  const speedSel = root.querySelector(".bl-speed");
  root.querySelector(".bl-name").textContent = data.label || "Round";
  root.querySelector(".bl-of").textContent = `of ${lo}–${hi}`;
  const caption = root.querySelector(".bl-caption");
  // the page's line (its data), then the keys for a keyboard: hidden on a touch screen, a
  // narrow one and a class follower's page, whose stepper the teacher drives (ui/lecture)
  if (data.caption) {
    const words = document.createElement("span");
    rich(words, data.caption);
    const keys = document.createElement("span");
    keys.className = "bl-keys";
    keys.textContent = " · Keyboard: ← → step, Home and End jump, Space plays";
    caption.replaceChildren(words, keys);
  }
  // on a narrow screen the caption is one line: a tap opens it whole
  caption.addEventListener("click", () => caption.classList.toggle("bl-open"));
  range.min = lo;
  range.max = hi;
  range.step = 1;
  range.disabled = hi <= lo;
  speedSel.value = st.speed;
  const skip = skipLink(range);
  BUS.labels = BUS.labels || {};
  BUS.labels[key] = (data.label || "Round").toLowerCase();  // the views name their round

  function writeUrl(t) {
    try {
      const url = new URL(window.location.href);
      if (t === (data.start ?? lo)) url.searchParams.delete(key);  // the page's default round
      else url.searchParams.set(key, String(t));
      window.history.replaceState(window.history.state, "", url.toString());
    } catch (e) { /* a sandboxed page: the server writes the URL when it syncs */ }
  }

  // The server hears of the round only when it needs it: before another control of the
  // page is used (syncBeforeControls), never after a step (issue 27, item 3: a rerun per
  // step and student re-sent the page and, under load, lost key presses). Each report has a
  // sequence number, which the server sends back (StepperData.seq).
  function sync() {
    if (st.t === st.sent) return;
    BUS.seq = (BUS.seq || 0) + 1;
    st.seqSent = BUS.seq;
    st.sent = st.t;
    setStateValue("round", { t: st.t, seq: BUS.seq });
  }
  BUS.syncers = BUS.syncers || {};
  BUS.syncers[sid] = sync;
  syncBeforeControls();

  function show(t, source) {
    st.t = Math.min(Math.max(t, lo), hi);
    range.value = st.t;
    value.textContent = String(st.t);
    root.dataset.round = String(st.t);
    for (const b of root.querySelectorAll(".bl-btn")) {
      const act = b.dataset.act;
      if (act === "first" || act === "prev") b.disabled = st.t <= lo;
      if (act === "next" || act === "last") b.disabled = st.t >= hi;
    }
    playBtn.disabled = hi <= lo;
    playBtn.textContent = st.timer ? "Pause" : "Play";
    playBtn.classList.toggle("bl-playing", !!st.timer);
    emit(key, st.t, source);
    writeUrl(st.t);
    // a screen reader hears the new round (politely: after what it is reading)
    if (source !== "mount") live.textContent = `${data.label || "Round"} ${st.t} of ${hi}`;
  }

  function stopPlay() {
    if (st.timer) {
      clearInterval(st.timer);
      st.timer = null;
    }
  }

  function go(t) {
    stopPlay();
    show(t, "user");
  }

  function togglePlay() {
    if (st.timer) {
      stopPlay();
      show(st.t, "pause");
      return;
    }
    if (st.t >= hi) show(lo, "play");
    st.timer = setInterval(() => {
      if (st.t >= hi) {
        stopPlay();
        show(st.t, "pause");
        return;
      }
      show(st.t + 1, "play");
    }, SPEEDS[st.speed] || 1000);
    show(st.t, "play");
  }

  root.addEventListener("click", (ev) => {
    const b = ev.target.closest(".bl-btn");
    if (!b || b.disabled) return;
    const act = b.dataset.act;
    if (act === "first") go(lo);
    else if (act === "prev") go(st.t - 1);
    else if (act === "next") go(st.t + 1);
    else if (act === "last") go(hi);
    else if (act === "play") togglePlay();
  });
  range.addEventListener("input", () => go(parseInt(range.value, 10)));
  speedSel.addEventListener("change", () => {
    st.speed = speedSel.value;
    if (st.timer) {
      stopPlay();
      togglePlay();
    }
  });

  // The keys belong to the stepper mounted last that is still on the page. A single owner
  // ("the last mounted", cleared by its unmount) lost the keys for good about one class
  // opening in six (issue 39, item 3): a stepper mounted for a moment by a rerun and then
  // unmounted cleared the owner while the page's own stepper stayed.
  const owner = { onKey, root };
  BUS.keyOwners = (BUS.keyOwners || []).filter((o) => o.root.isConnected);
  BUS.keyOwners.push(owner);
  const ownsKeys = () => {
    const live = BUS.keyOwners.filter((o) => o.root.isConnected);
    return live.length > 0 && live[live.length - 1] === owner;
  };
  function onKey(ev) {
    if (!ownsKeys()) return;
    if (BUS.following) return;  // a class follower: the teacher drives (ui/classroom/js/follower.js)
    const el = document.activeElement;
    const tag = el && el.tagName;
    if (el && el !== range && (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" ||
        el.isContentEditable)) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    // Space belongs to the focused control (a quiz answer, Reveal, an expander, a toggle):
    // it plays only when nothing else has the focus, or the stepper itself has it
    const space = ev.key === " " || ev.key === "Spacebar";
    if (space && el && el !== document.body && !root.contains(el)) return;
    let handled = true;
    if (ev.key === "ArrowRight") go(st.t + 1);
    else if (ev.key === "ArrowLeft") go(st.t - 1);
    else if (ev.key === "Home") go(lo);
    else if (ev.key === "End") go(hi);
    else if (ev.key === " " || ev.key === "Spacebar") togglePlay();
    else handled = false;
    if (handled) {
      ev.preventDefault();
      ev.stopPropagation();
    }
  }
  document.addEventListener("keydown", onKey, true);
  // a class follower's page: the teacher's round, from the class's stream (klass.js)
  const onFollow = (ev) => {
    const t = ev.detail && ev.detail.t;
    if (typeof t !== "number") return;
    stopPlay();
    if (t !== st.t) show(t, "follow");
  };
  window.addEventListener("boostlab:follow", onFollow);

  show(st.t, "mount");
  return () => {
    if (BUS.syncers[sid] === sync) delete BUS.syncers[sid];
    document.removeEventListener("keydown", onKey, true);
    window.removeEventListener("boostlab:follow", onFollow);
    BUS.keyOwners = BUS.keyOwners.filter((o) => o !== owner);
    if (document.getElementById("bl-skip") === skip && !document.body.contains(root)) skip.remove();
    stopPlay();
  };
}
