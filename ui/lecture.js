// boostlab lecture view: the rounds of a run stepped inside the browser.
//
// One module serves two Streamlit components (st.components.v2, mounted in the page's own
// DOM, not in an iframe): the *stepper* (slider, first/prev/next/last, Play with speed,
// keyboard) and the *views* (regions, structure, curves, small multiples, round tables).
// Every view receives all rounds of its run once; a step only swaps what is drawn, so it
// needs no round trip to the server. The stepper tells the views through a window event,
// writes ?round= into the address bar itself, and tells the server the round only when
// another control of the page is about to be used (the Export menu, a new focus): a step
// causes no rerun. The views draw a step at the next animation frame, and only those in
// sight.
//
// Why not Streamlit's own widgets: a rerun per round re-sends and redraws every chart, about
// 2 s per step on a 2-core machine (see benchmarks/bench_browser_step.py).
//
// The contract with Python (ui/lecture.py): `data` holds exactly the fields of StepperData
// (role "stepper") or ViewData (role "view"), camelCased, every one always sent; this script
// reads nothing else from it. What it sends back is declared there too: the stepper's state
// "round" (setStateValue) and a focusable view's trigger "focus" (setTriggerValue).
// tests/test_lecture_contract.py parses this file and checks both directions, so read `data`
// as `data.name`, `data["name"]` or `const { name } = data`, and pass it on only as `data`.

const BUS = (window.__boostlab = window.__boostlab || {
  rounds: {}, // stepper key -> round shown now
  plotly: null, // promise of window.Plotly
  keyOwners: [], // the steppers mounted, in order: the last still on the page owns the keys
});

const SPEEDS = { slow: 2000, normal: 1000, fast: 500 };
// Pixels a plot with the data's aspect ratio adds to width × aspect (its margins and title).
const ASPECT_PAD = 70;
// Pixels left under a view in a window too short for its reservation (see fitHeight).
const SHORT_RESERVE = 16;

// Presenter mode is drawn for a 1920-px-wide projector and scaled with the window's width
// (ui/classroom/ sizes the page's text the same way), so a 1280×720 projector shows the
// 1920×1080 picture at 2/3. On it no chart text is smaller than MIN_LABEL px, and a label
// holding a sub/superscript (plotly draws it at 70 %) is at least MIN_SUP_PARENT px, so the
// small part reads at 18 px (issue 25, item 2: text a lecture hall's back row can read).
const DESIGN_WIDTH = 1920;
const MIN_LABEL = 22;
const MIN_SUP_PARENT = 26;
// On a phone (a window at most PHONE px wide) a chart's label holding a sub/superscript is
// at least PHONE_SUP_PARENT px, so the small part reads at 10.5 px (issue 39, item 9: it was
// 7.7 px, 70 % of an 11-px label).
const PHONE = 700;
const PHONE_SUP_PARENT = 15;

// Below NARROW px (a phone, a tablet, a laptop at 200 % zoom) the views stack or go two in a
// row (ui/lecture.py), each about as wide as one view of the 1920-px design, so presenter mode's design
// is drawn at NARROW_SCALE instead of shrinking with the window (issue 26, item 1).
const NARROW = 1100;
const NARROW_SCALE = 0.6;

// Drawings a chart keeps of its rounds: the one shown and one step either way (viewMount).
const SLOTS = 3;
// Milliseconds after a step before the next rounds are drawn ahead (viewMount).
const IDLE_AFTER = 150;

function narrow() {
  return window.innerWidth < NARROW;
}

function phone() {
  return window.innerWidth <= PHONE;
}

function presenterScale() {
  if (narrow()) return NARROW_SCALE;
  return Math.min(Math.max(window.innerWidth / DESIGN_WIDTH, 0.4), 2);
}

// A touch screen: a one-finger swipe over a chart scrolls the page (the chart's pan and zoom
// wait behind an explicit "Zoom" button; issue 26, item 3).
function touchScreen() {
  return !!(window.matchMedia && (window.matchMedia("(hover: none)").matches ||
                                  window.matchMedia("(pointer: coarse)").matches));
}

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// A skip link, the page's first Tab stop: Enter moves the focus to the round slider (issue
// 26, item 10: 49 Tab stops before the stepper). One per document, owned by the stepper
// mounted last.
function skipLink(target) {
  let a = document.getElementById("bl-skip");
  if (!a) {
    a = document.createElement("a");
    a.id = "bl-skip";
    a.className = "bl-skip";
    a.href = "#bl-stepper";
    a.textContent = "Skip to the round controls";
    document.body.prepend(a);
  }
  a.onclick = (ev) => {
    ev.preventDefault();
    target.scrollIntoView({ block: "nearest" });
    target.focus();
  };
  return a;
}

// A copy of a plotly trace or layout with every font size (in any "…font" object) times k
// and raised to the floor (to supFloor for a text holding a sub/superscript), and the margins
// and pixel offsets times k. Data arrays are not copied (only objects and arrays of objects
// are walked).
function scaledPlotly(obj, k, floor, supFloor) {
  if (!obj || typeof obj !== "object" || ArrayBuffer.isView(obj) || "bdata" in obj) return obj;
  if (Array.isArray(obj)) {
    return obj.length && obj[0] && typeof obj[0] === "object" && !Array.isArray(obj[0]) &&
      !ArrayBuffer.isView(obj[0]) ? obj.map((o) => scaledPlotly(o, k, floor, supFloor)) : obj;
  }
  const text = `${typeof obj.text === "string" ? obj.text : ""}${typeof obj.name === "string" ? obj.name : ""}`;
  const least = /<su[bp]>/i.test(text) ? Math.max(supFloor, floor) : floor;
  const out = {};
  for (const [name, v] of Object.entries(obj)) {
    if (/font$/.test(name) && v && typeof v === "object" && !Array.isArray(v)) {
      const f = Object.assign({}, v);
      const size = (x) => Math.max(x * k, least);
      if (typeof v.size === "number") f.size = size(v.size);
      else if (Array.isArray(v.size)) f.size = v.size.map(size);
      else if (least > 0) f.size = least;  // the layout's default font: at least the floor
      out[name] = f;
    } else if (name === "margin" && v && typeof v === "object") {
      out[name] = {};
      for (const [m, x] of Object.entries(v)) out[name][m] = typeof x === "number" ? x * k : x;
    } else if ((name === "xshift" || name === "yshift" || name === "ax" || name === "ay" ||
                name === "standoff") && typeof v === "number") {
      out[name] = v * k;
    } else {
      out[name] = scaledPlotly(v, k, floor, supFloor);
    }
  }
  // a title or label with a sub/superscript but no font of its own: the floor still holds
  if (least > floor && typeof obj.text === "string" && !("font" in obj)) out.font = { size: least };
  return out;
}

// plotly.py sends a numpy array as {dtype, bdata[, shape]} (base64). Plotly.react compares
// data arrays by identity and takes such a spec for a new array on every call, so a step that
// moved one shape recalculated and redrew every trace of the chart (35 ms instead of 5 on
// /topdown's regions, measured in Chromium): each spec is decoded once into a typed array
// (the layout plotly.js itself gives it: rows of one buffer for a 2-D shape), and a frame's
// unchanged traces, shared between rounds, keep the same arrays.
const DTYPES = {
  f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array, i2: Int16Array,
  u2: Uint16Array, i1: Int8Array, u1: Uint8Array, u1c: Uint8ClampedArray,
};
const DECODED = new WeakMap();

function isSpec(v) {
  return v && typeof v === "object" && !Array.isArray(v) && typeof v.bdata === "string" &&
    typeof v.dtype === "string" && v.dtype in DTYPES;
}

function decodeSpec(v) {
  const Type = DTYPES[v.dtype];
  const bin = atob(v.bdata);
  const bytes = new Uint8Array(bin.length);
  for (let j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
  const shape = v.shape === undefined ? [] : String(v.shape).split(",").map(Number);
  if (shape.length < 2) return new Type(bytes.buffer);
  const [rows, cols] = shape;
  const out = [];
  for (let r = 0; r < rows; r++) out.push(new Type(bytes.buffer, r * cols * Type.BYTES_PER_ELEMENT, cols));
  return out;
}

// The object with every array spec inside it decoded (the same object when it holds none),
// remembered for as long as the object lives.
function decoded(obj) {
  if (!obj || typeof obj !== "object" || Array.isArray(obj) || ArrayBuffer.isView(obj)) return obj;
  if (DECODED.has(obj)) return DECODED.get(obj);
  let out = obj;
  for (const [name, v] of Object.entries(obj)) {
    const w = isSpec(v) ? decodeSpec(v) : decoded(v);
    if (w === v) continue;
    if (out === obj) out = Object.assign({}, obj);
    out[name] = w;
  }
  DECODED.set(obj, out);
  return out;
}

function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!BUS.plotly) {
    BUS.plotly = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = new URL("app/static/plotly.min.js", document.baseURI).href;
      s.onload = () => resolve(window.Plotly);
      s.onerror = () => {
        BUS.plotly = null;
        reject(new Error("plotly.js could not be loaded from app/static/plotly.min.js"));
      };
      document.head.appendChild(s);
    });
  }
  return BUS.plotly;
}

function emit(key, t, source) {
  BUS.rounds[key] = t;
  window.dispatchEvent(new CustomEvent("boostlab:round", { detail: { key, t, source } }));
}

// ------------------------------------------------------------------------------- notation
// The views' titles and notes, the stepper's caption and the quiz's texts may hold
// <sub>…</sub> and <sup>…</sup> (ui/text.py: sub, sup, notation), and no other markup: they
// are drawn as sub- and superscripts, every other character as text (a feature's name from a
// CSV can hold "<"). A tag without its pair leaves the whole text as it is (issue 39, item 9:
// "Π Z_t", "h_11" and "e^(−2F_t)" were shown raw).
const MARKUP = /<(\/?)(sub|sup)>/g;

function rich(el, text) {
  text = text == null ? "" : String(text);
  const root = document.createDocumentFragment();
  const open = [root];
  let at = 0;
  for (const m of text.matchAll(MARKUP)) {
    if (m.index > at) open[open.length - 1].append(text.slice(at, m.index));
    at = m.index + m[0].length;
    if (!m[1]) {
      const e = document.createElement(m[2]);
      open[open.length - 1].append(e);
      open.push(e);
    } else if (open.length > 1 && open[open.length - 1].localName === m[2]) {
      open.pop();
    } else {
      el.textContent = text;  // a closing tag without its opening one: the text as it is
      return;
    }
  }
  if (open.length > 1) {
    el.textContent = text;
    return;
  }
  if (at < text.length) root.append(text.slice(at));
  el.replaceChildren(root);
}

// The same text for a place that holds plain text (a tooltip, an accessible name, a screen
// reader's description): a sub- or superscript in Unicode where it has every character,
// else after "_" or "^" (ui/text.py, plain).
const SUB_CHARS = "0123456789+−-=()aehijklmnoprstuvxβγρφχℓ";
const SUB_UNI = "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪₗ";
const SUP_CHARS = "0123456789+−-=()inLT";
const SUP_UNI = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿᴸᵀ";
const PAIR = /<(sub|sup)>((?:(?!<\/?su[bp]>)[^])*?)<\/\1>/g;

function plainText(text) {
  let out = text == null ? "" : String(text);
  for (;;) {
    const next = out.replace(PAIR, (_, tag, body) => {
      const [from, to] = tag === "sub" ? [SUB_CHARS, SUB_UNI] : [SUP_CHARS, SUP_UNI];
      const chars = [...body];
      if (chars.length && chars.every((c) => from.includes(c))) {
        return chars.map((c) => [...to][[...from].indexOf(c)]).join("");
      }
      return (tag === "sub" ? "_" : "^") + (chars.length === 1 ? body : `(${body})`);
    });
    if (next === out) return out;
    out = next;
  }
}

// ---------------------------------------------------------------------------------- frames
// A run's frames arrive deduplicated: an entry {"$r": s} stands for the same entry of frame
// s (unchanged traces, layouts and pictures are sent once), and {"$d": s, "$set": [[path,
// value], …]} for frame s's entry with those parts set (ui/lecture.py, plotly_frames).
function patched(base, sets) {
  const out = Object.assign({}, base);
  for (const [path, value] of sets) {
    let node = out;
    for (let i = 0; i < path.length - 1; i++) {
      node[path[i]] = Object.assign({}, node[path[i]]);
      node = node[path[i]];
    }
    node[path[path.length - 1]] = value;
  }
  return out;
}

function resolvePart(part, earlier) {
  if (part && typeof part === "object" && "$r" in part) return earlier(part["$r"]);
  if (part && typeof part === "object" && "$d" in part) {
    return patched(earlier(part["$d"]), part["$set"]);
  }
  return part;
}

function resolveFrames(frames) {
  const out = [];
  for (let t = 0; t < frames.length; t++) {
    const f = frames[t];
    if (f && typeof f === "object" && "$r" in f) {
      out.push(out[f["$r"]]);
      continue;
    }
    if (f && typeof f === "object" && Array.isArray(f.data)) {
      const traces = f.data.map((tr, i) => resolvePart(tr, (s) => out[s].data[i]));
      out.push({ data: traces, layout: resolvePart(f.layout, (s) => out[s].layout) });
    } else {
      out.push(f);
    }
  }
  return out;
}

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
  // narrow one and a class follower's page, whose stepper the teacher drives (ui/lecture.py)
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
    if (BUS.following) return;  // a class follower: the teacher drives (ui/classroom/klass.js)
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

// ------------------------------------------------------------------------------------ views
// An element's top on the page, not on the screen: Streamlit scrolls an inner container
// (window.scrollY stays 0), so the viewport's top is summed with every scrolling ancestor's
// scrollTop (the root element's is window.scrollY). A view fitted from its place on the
// screen grew to its largest size whenever the page changed while scrolled down (its top
// above the screen; seen in CI: a phone's question, tapped into view, then 658 px above it).
function pageTop(el) {
  let top = el.getBoundingClientRect().top;
  for (let e = el.parentElement; e; e = e.parentElement) top += e.scrollTop || 0;
  return top;
}

function fitHeight(el, data, above) {
  // The height of a view's body, at mount and on every refit (one rule for both, so a view
  // that settles keeps the size it was mounted with). The views own the rest of the screen:
  // from their top to the bottom of the window, within [minHeight, maxHeight]; a fixed
  // height when the page asks for one. ``above`` is what the view draws besides its body
  // (title, two lines of notes).
  if (data.height) return data.height;
  const box = el.getBoundingClientRect();
  // a reservation for a panel below (the proof) only where the window is tall enough to
  // hold both; on a shorter one the view keeps its height and the panel sits below the fold
  // presenter mode is one design scaled with the width: its reservation scales too and is
  // kept on every window (a 1280×720 projector shows the 1920×1080 page at 2/3)
  const k = data.presenter ? presenterScale() : 1;
  const short = !data.presenter && data.reserveFrom && window.innerHeight < data.reserveFrom;
  const room = window.innerHeight - pageTop(el) - above -
    (short ? SHORT_RESERVE : data.reserve * k);
  const height = Math.round(Math.min(Math.max(room, data.minHeight), data.maxHeight));
  if (!data.aspect) return height;
  // a plot with the data's aspect ratio needs no more height than its width gives it
  const w = box.width || 400;
  return Math.max(Math.min(height, Math.round(w * data.aspect + ASPECT_PAD)),
                  Math.min(height, data.minHeight));
}

// A line of an HTML view cut with an ellipsis (the proof card's key, footnote and citation, whose
// whole text was only a tooltip) becomes a control: a tap, a click, Enter or Space opens it
// whole and closes it again (issue 26, item 6).
const CUT_LINES = ".bl-proof-foot, .bl-proof-cite, .bl-proof-key";

// A proof card whose relations would be cut (an ellipsis) drops its "slack" words and narrows
// its cells' padding first: the names are the proof, the words only name a column (issue 39,
// item 8: the branching and oblique cards beside the quiz on a projector lost their names).
// It runs before the card is marked drawn, so no round shows its card cut for a frame, and
// a card that needed it stays terse for the rest of the mount at that width (its columns do
// not jump between rounds); `terse` says whether one did, and is returned updated.
function fitProof(body, terse) {
  for (const card of body.querySelectorAll(".bl-proof-c")) {
    if (terse) {
      card.classList.add("bl-proof-terse");
      continue;
    }
    card.classList.remove("bl-proof-terse");
    const cut = [...card.querySelectorAll(".bl-proof-link > :nth-child(2)")]
      .some((e) => e.scrollWidth > e.clientWidth + 1);
    if (cut) card.classList.add("bl-proof-terse");
    terse = terse || cut;
  }
  return terse;
}

function openable(body) {
  for (const e of body.querySelectorAll(CUT_LINES)) {
    const open = e.classList.contains("bl-open");
    if (!open && e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1) continue;
    e.classList.add("bl-cut");
    e.tabIndex = 0;
    e.setAttribute("role", "button");
    e.setAttribute("aria-expanded", String(open));
  }
  if (body.dataset.openable) return;
  body.dataset.openable = "1";
  const toggle = (e) => {
    const open = e.classList.toggle("bl-open");
    e.setAttribute("aria-expanded", String(open));
  };
  body.addEventListener("click", (ev) => {
    const e = ev.target.closest(".bl-cut");
    if (e && body.contains(e)) toggle(e);
  });
  body.addEventListener("keydown", (ev) => {
    const e = ev.target.closest(".bl-cut");
    if (!e || (ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();
    ev.stopPropagation();
    toggle(e);
  });
}

function viewMount(component) {
  const { data, parentElement, setTriggerValue } = component;
  const key = data.stepper || "round";
  const frames = resolveFrames(data.frames || []);
  const box = document.createElement("div");
  box.className = "bl-view bl-view-" + data.kind + (data.presenter ? " bl-present" : "");
  if (data.title) {
    const h = document.createElement("div");
    h.className = "bl-title";
    // the words in a span of their own: on a touch screen the title is a flex row with the
    // Zoom button, which would lay out each text and sub/superscript apart
    const words = document.createElement("span");
    rich(words, data.title);
    h.appendChild(words);
    box.appendChild(h);
  }
  const body = document.createElement("div");
  body.className = "bl-body";
  box.appendChild(body);
  const note = document.createElement("div");
  note.className = "bl-note";
  box.appendChild(note);
  parentElement.replaceChildren(box);
  // A chart or a picture is one image to a screen reader: named by its title and the round,
  // described by the round's sentence (or note); the round tables and the proof card (HTML)
  // are read as they are (issue 26, item 5).
  const picture = data.kind !== "html" && !data.focusable;  // a small multiple is a button
  const uid = "bl-" + Math.random().toString(36).slice(2, 10);
  let desc = null;
  if (picture) {
    // a picture is an image; a chart a figure (its mode bar's buttons stay reachable)
    body.setAttribute("role", data.kind === "svg" ? "img" : "figure");
    desc = document.createElement("div");
    desc.className = "bl-sr";
    desc.id = uid + "-desc";
    box.appendChild(desc);
    body.setAttribute("aria-describedby", desc.id);
  }
  if (data.focusable) {
    // a small multiple: a click, a tap, Enter or Space focuses its run
    box.classList.add("bl-focusable");
    box.title = "Click to focus this run";
    box.tabIndex = 0;
    box.setAttribute("role", "button");
    box.setAttribute("aria-label", `Focus the run ${data.focusable}`);
    box.addEventListener("click", () => setTriggerValue("focus", data.focusable));
    box.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      ev.stopPropagation();
      setTriggerValue("focus", data.focusable);
    });
  }
  // A note cut to two lines opens whole on a tap, a click, Enter or Space (the tooltip alone
  // was out of reach of touch and keyboard; issue 26, item 6).
  note.addEventListener("click", () => {
    if (!note.classList.contains("bl-cut")) return;
    note.classList.toggle("bl-open");
    markCut();
  });
  note.addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && note.hasAttribute("tabindex")) {
      ev.preventDefault();
      ev.stopPropagation();
      note.click();
    }
  });
  function markCut() {
    // only a note that is cut (or opened) is a control, so the page has no idle Tab stops
    const open = note.classList.contains("bl-open");
    const cut = open || note.scrollHeight > note.clientHeight + 1;
    note.classList.toggle("bl-cut", cut);
    if (cut) {
      note.tabIndex = 0;
      note.setAttribute("role", "button");
      note.setAttribute("aria-expanded", String(open));
    } else {
      note.removeAttribute("tabindex");
      note.removeAttribute("role");
      note.removeAttribute("aria-expanded");
    }
  }
  // On a touch screen a chart lets the page scroll under a finger; "Zoom" hands it the
  // gestures (pan, zoom, the mode bar) until pressed again (issue 26, item 3).
  const touch = data.kind === "plotly" && touchScreen() && !data.focusable;
  let unlocked = false;
  if (touch) {
    box.classList.add("bl-touch-locked");
    const zoom = document.createElement("button");
    zoom.type = "button";
    zoom.className = "bl-zoom";
    zoom.textContent = "Zoom";
    zoom.setAttribute("aria-pressed", "false");
    zoom.title = "Let this chart take pan and zoom gestures (the page scrolls again when off)";
    const head = box.querySelector(".bl-title") || box;
    if (head === box) box.prepend(zoom);
    else head.appendChild(zoom);
    zoom.addEventListener("click", () => {
      unlocked = !unlocked;
      zoom.setAttribute("aria-pressed", String(unlocked));
      box.classList.toggle("bl-touch-locked", !unlocked);
      const gd = shownSlot();
      if (window.Plotly && gd && gd.el.data) {
        forgetHidden();
        window.Plotly.relayout(gd.el, { dragmode: unlocked ? "zoom" : false });
        window.Plotly.react(gd.el, gd.el.data, gd.el.layout, chartConfig());
      }
    });
  }
  // A table wider than its panel scrolls sideways: the keyboard must reach it too (a Tab
  // stop named by the view's title), checked after each draw and when the window changes.
  function scrollable() {
    if (body.scrollWidth > body.clientWidth + 1) {
      body.tabIndex = 0;
      body.setAttribute("role", "region");
      body.setAttribute("aria-label", (plainText(data.title) || "Table") + " (scrolls sideways)");
    } else {
      body.removeAttribute("tabindex");
      body.removeAttribute("role");
      body.removeAttribute("aria-label");
    }
  }
  function chartConfig() {
    const base = data.config || { displaylogo: false, responsive: true };
    // a small multiple is one button: a chart inside it takes no gestures and has no mode bar
    if (data.focusable) return Object.assign({}, base, { staticPlot: true });
    if (!touch) return base;
    return Object.assign({}, base, { displayModeBar: unlocked, scrollZoom: false });
  }
  let shown = -1;
  let terse = false;  // the proof card's words dropped (fitProof)
  let drawnWidth = null;  // the body's width when the picture was chosen
  // The body's [width, height], measured when first needed and again after a refit: read at
  // every step, it forced the browser to lay out the page in the middle of the step's frame.
  let panel = null;
  const panelSize = () => (panel = panel || [body.clientWidth || 1e9, body.clientHeight || 1e9]);
  const fs = parseFloat(getComputedStyle(box).fontSize) || 16;
  if (data.notes) note.style.minHeight = "2.4em";
  // the title as drawn (two lines in a narrow column, e.g. beside the student's panel) and
  // the notes' two lines: what the view needs besides its body
  const titleEl = box.querySelector(".bl-title");
  const above = () => (titleEl ? Math.max(titleEl.getBoundingClientRect().height, 1.5 * fs) : 0) +
    (data.notes ? 2.6 * fs : 0) + 6;
  let height = fitHeight(parentElement, data, above());
  if (data.kind !== "html") body.style.height = height + "px";

  // ------------------------------------------------------------------ a chart's drawings
  // A chart keeps up to SLOTS drawings of its rounds, stacked in its body: the round shown
  // and, drawn while the page is idle, the rounds one step either way. A step to a round
  // already drawn only swaps which drawing is visible (Plotly.react of a changed chart costs
  // 30-50 ms on a 2-core machine, ten of them a step on /topdown; issue 27, item 4). The
  // drawing shown is the slot without .bl-slot-off; the others are invisible, out of the
  // accessibility tree and take no pointer (their order in the body is not kept: moving a
  // drawing restyles all of it, ~10 ms a chart). Once the reader pans or zooms a chart, its
  // other drawings are dropped and each step is drawn into the one shown.
  const slots = [];
  let ahead = 1;  // the direction of the last step: the next round that way is drawn first
  let userView = false;
  let idleJob = null;
  function newSlot() {
    const el = document.createElement("div");
    el.className = "bl-slot";
    const s = { el, i: -1, ready: false, stamp: 0, chain: Promise.resolve(), heard: false };
    if (slots.length) {
      el.classList.add("bl-slot-off");
      el.setAttribute("aria-hidden", "true");
    }
    body.appendChild(el);
    slots.push(s);
    return s;
  }
  function shownSlot() {
    return slots.find((s) => !s.el.classList.contains("bl-slot-off")) || null;
  }
  function reveal(s) {
    const old = shownSlot();
    if (old === s) return;
    s.el.classList.remove("bl-slot-off");
    s.el.removeAttribute("aria-hidden");
    if (old) {
      old.el.classList.add("bl-slot-off");
      old.el.setAttribute("aria-hidden", "true");
    }
  }
  function forgetHidden() {
    const cur = shownSlot();
    for (const s of slots) {
      if (s === cur) continue;
      s.i = -1;
      s.ready = false;
      s.stamp += 1;
      delete s.el.dataset.frame;
    }
  }
  function listen(s) {
    // a pan, a zoom or a double-click reset made by the reader on the chart shown
    if (s.heard || !s.el.on) return;
    s.heard = true;
    s.el.on("plotly_relayout", (ev) => {
      if (!ev || !Object.keys(ev).some((name) => /^[xy]axis[0-9]*\.(range|autorange)/.test(name))) return;
      if (s !== shownSlot()) return;
      userView = true;
      forgetHidden();
    });
  }
  // Draws frame j into slot s; resolves once drawn (or once a newer request replaced it).
  function drawInto(s, j) {
    s.i = j;
    s.ready = false;
    delete s.el.dataset.frame;  // the frame a slot holds, once drawn (for the tests)
    const stamp = (s.stamp += 1);
    s.chain = s.chain.then(loadPlotly).then((Plotly) => {
      // asked to draw another round meanwhile, or unmounted (a rerun sent new data: this
      // drawing, made with the old config, must not come back after the purge)
      if (gone || s.stamp !== stamp) return false;
      const f = frames[j];
      // presenter mode's design scaled with the window; on a phone, sub/superscripts raised
      const small = !data.presenter && phone();
      const k = data.presenter ? presenterScale() : 1;
      const floor = data.presenter ? MIN_LABEL * k : 0;
      const supFloor = data.presenter ? MIN_SUP_PARENT * k : small ? PHONE_SUP_PARENT : 0;
      const scale = data.presenter || small;
      const plain = f.data.map(decoded);
      const base = scale ? scaledPlotly(f.layout, k, floor, supFloor) : f.layout;
      const traces = scale ? plain.map((tr) => scaledPlotly(tr, k, floor, supFloor)) : plain;
      const layout = Object.assign({}, base, { height, autosize: true });
      if (touch && !unlocked) layout.dragmode = false;
      return Plotly.react(s.el, traces, layout, chartConfig()).then(() => {
        // the figure's name and description say what it shows; its axis text alone is noise
        for (const svg of s.el.querySelectorAll("svg.main-svg")) svg.setAttribute("aria-hidden", "true");
        listen(s);
        if (s.stamp !== stamp) return false;
        s.ready = true;
        s.el.dataset.frame = String(j);
        return true;
      });
    });
    return s.chain;
  }
  function prefetchSoon() {
    if (idleJob !== null || gone || userView || !frames.length) return;
    box.dataset.ahead = "busy";  // "done" once the rounds either way are drawn (for the tests)
    const run = () => {
      idleJob = null;
      prefetch();
    };
    // not in the frames right after a step: they belong to the step's own drawing
    const job = (idleJob = { timer: null, idle: null });
    job.timer = setTimeout(() => {
      job.timer = null;
      if (window.requestIdleCallback) job.idle = requestIdleCallback(run, { timeout: 1000 });
      else job.timer = setTimeout(run, 0);
    }, IDLE_AFTER);
  }
  function prefetch() {
    const cur = shownSlot();
    if (gone || userView || !onScreen || !cur || !cur.ready) {
      box.dataset.ahead = "done";
      return;
    }
    const i = cur.i;
    const want = [i + ahead, i - ahead].filter((j) => j >= 0 && j < frames.length &&
                                                     frames[j] !== frames[i]);
    const same = (s, j) => s.i >= 0 && frames[s.i] === frames[j];  // the same picture
    const keeps = (s) => want.some((w) => same(s, w));  // a slot holding a round either way
    const j = want.find((w) => !slots.some((s) => same(s, w)));
    if (j === undefined) {
      // every round either way is drawn: a drawing of any other round goes (the page keeps
      // at most the picture shown and its two neighbours, whatever the way it came)
      for (const s of slots.slice()) {
        if (s === cur || keeps(s)) continue;
        s.stamp += 1;
        try { window.Plotly.purge(s.el); } catch (e) { /* never drawn */ }
        s.el.remove();
        slots.splice(slots.indexOf(s), 1);
      }
      box.dataset.ahead = "done";
      return;
    }
    const free = slots.find((s) => s !== cur && !keeps(s)) ||
      (slots.length < SLOTS ? newSlot() : null);
    if (!free) return;
    drawInto(free, j).then(prefetchSoon, () => { free.i = -1; });
  }

  function frameAt(t) {
    const i = Math.min(Math.max(t, 0), frames.length - 1);
    // notes follow the round, not the frame: a run that ended early keeps its last picture
    // while its note says so ("Finished at round …")
    const k = Math.min(Math.max(t, 0), (data.notes || []).length - 1);
    return { i, f: frames[i], notes: data.notes ? data.notes[k] : null };
  }

  function draw(t) {
    describe(t);
    paint(t);
  }

  // what the view says at round t (its note, its name and description for a screen reader):
  // cheap, so it follows every step at once, on screen or not
  function describe(t) {
    if (!frames.length) return;
    const { notes } = frameAt(t);
    if (note.dataset.text !== (notes || "")) {
      note.dataset.text = notes || "";
      rich(note, notes);
      note.title = plainText(notes);
      note.classList.remove("bl-open");
      // after the frame is drawn: a layout read inside it made the browser lay out twice
      requestAnimationFrame(() => setTimeout(markCut, 0));
    }
    if (picture) {
      const ds = data.descriptions || [];
      const d = ds.length ? ds[Math.min(Math.max(t, 0), ds.length - 1)] : (notes || "");
      const label = (BUS.labels && BUS.labels[key]) || "round";
      body.setAttribute("aria-label", `${plainText(data.title) || "Chart"}, ${label} ${t}`);
      desc.textContent = plainText(d);
    }
  }

  // the drawing of round t
  function paint(t) {
    if (!frames.length) return;
    const { i, f } = frameAt(t);
    if (i === shown) return;
    shown = i;
    box.dataset.frame = String(i);
    if (data.kind === "svg" || data.kind === "html") {
      // Built by the server from escaped text (ui/svgtree.py, ui/lecture.py): no user
      // markup reaches this string. A list holds pictures from the most to the least
      // detailed: the first that fits the panel at full text size is shown.
      const options = Array.isArray(f) ? f : [f];
      let chosen = options.length - 1;
      const k = data.presenter ? presenterScale() : 1;  // pictures drawn for 1920 px
      for (let j = 0; j < options.length; j++) {
        const m = /width="([0-9.]+)" height="([0-9.]+)"/.exec(options[j]);
        if (!m || options.length === 1) { chosen = j; break; }
        const [W, H] = panelSize();
        if (+m[1] * k <= W + 1 && +m[2] * k <= H + 1) { chosen = j; break; }
      }
      body.innerHTML = options[chosen];
      const svg = body.querySelector("svg");
      const m = /width="([0-9.]+)" height="([0-9.]+)"/.exec(options[chosen]);
      if (svg && m && k !== 1) {
        svg.style.width = +m[1] * k + "px";
        svg.style.height = +m[2] * k + "px";
      }
      box.dataset.detail = String(chosen);
      if (data.kind === "html") terse = fitProof(body, terse);
      box.dataset.drawn = String(i);
      if (data.kind === "svg") drawnWidth = panelSize()[0];
      if (data.kind === "html") requestAnimationFrame(() => {
        openable(body);
        scrollable();
      });
      return;
    }
    const ready = slots.find((x) => x.ready && frames[x.i] === f);
    if (ready) {
      reveal(ready);
      box.dataset.ms = "0";  // for the benchmark: drawn before it was asked for
      box.dataset.drawn = String(i);
      prefetchSoon();
      return;
    }
    const s = shownSlot() || newSlot();
    const t0 = performance.now();
    drawInto(s, i).then((done) => {
      if (!done || shown !== i) return;
      box.dataset.ms = String(Math.round(performance.now() - t0)); // for the benchmark
      box.dataset.drawn = String(i);
      prefetchSoon();
    }).catch((e) => {
      slots.length = 0;
      body.textContent = "This view could not be drawn: " + e.message;
      box.dataset.drawn = String(i);
    });
  }

  function refit() {
    // Elements above may still be growing when the view mounts (fonts, widgets): fit again
    // once the page has settled and whenever the window changes size.
    panel = null;
    const h = fitHeight(parentElement, data, above());
    // a picture is chosen for its panel's width too: a column that narrowed after the draw
    // (the student's panel appearing beside the views) must not shrink its text
    const w = body.clientWidth;
    const narrower = data.kind === "svg" && drawnWidth !== null && Math.abs(w - drawnWidth) >= 4;
    if (Math.abs(h - height) < 4 && !narrower) return;
    height = h;
    if (data.kind === "svg") {
      body.style.height = height + "px";
      const i = shown;
      shown = -1;
      draw(BUS.rounds[key] ?? 0);
      if (shown === -1) shown = i;
    } else if (data.kind === "plotly") {
      body.style.height = height + "px";
      const gd = shownSlot();
      forgetHidden();
      if (window.Plotly && gd && gd.el.data) window.Plotly.relayout(gd.el, { height });
    }
  }
  const timers = [60, 400, 1200].map((ms) => setTimeout(refit, ms));
  window.addEventListener("resize", refit);
  // presenter mode sizes a chart's text with the window, a phone its sub/superscripts:
  // drawings made for another width go
  let wasPhone = phone();
  const rescale = () => {
    if (data.presenter || phone() !== wasPhone) forgetHidden();
    wasPhone = phone();
  };
  if (data.kind === "plotly") window.addEventListener("resize", rescale);
  const refitHtml = () => {
    terse = fitProof(body, false);
    scrollable();
  };
  if (data.kind === "html") window.addEventListener("resize", refitHtml);
  // a picture's column can narrow without the window changing (a panel appearing beside it)
  let seenWidth = parentElement.clientWidth;
  const watcher = data.kind === "svg" && window.ResizeObserver ? new ResizeObserver(() => {
    const w = parentElement.clientWidth;
    if (Math.abs(w - seenWidth) < 4) return;
    seenWidth = w;
    refit();
  }) : null;
  if (watcher) watcher.observe(parentElement);
  // An element above that grows after the last timed refit (a loaded machine draws the
  // header's widgets and the presets row late) moves the view down without a resize of the
  // window: seen in CI as the matryoshka's structure view 26 px below a 1080 px projector's
  // edge. The page's main block changes size then, so a refit follows whenever it does and
  // the view's top has moved (refit itself returns early when the height stays).
  const mainBlock = parentElement.closest('[data-testid="stMainBlockContainer"]') || document.body;
  let seenTop = pageTop(parentElement);
  const mover = window.ResizeObserver ? new ResizeObserver(() => {
    const top = pageTop(parentElement);
    if (Math.abs(top - seenTop) < 4) return;
    seenTop = top;
    refit();
  }) : null;
  if (mover) mover.observe(mainBlock);

  // A step is drawn at the next animation frame, not inside the key press: presses (or Play's
  // ticks) faster than the page can draw coalesce into one draw of the latest round, and a
  // key is never kept waiting behind a drawing (issue 27, items 3-4). data-frame names the
  // frame asked for at once; data-drawn follows when it is on screen.
  // A view out of sight (a small multiple below the fold, a table further down) is not drawn
  // at all: it is drawn when it comes within 300 px of the window (data-frame and data-drawn
  // keep naming what it shows until then).
  let pending = null;
  let gone = false;
  let onScreen = true;
  let stale = null;
  function schedule(t) {
    if (frames.length) box.dataset.frame = String(frameAt(t).i);
    if (pending === null) {
      requestAnimationFrame(() => {
        const r = pending;
        pending = null;
        if (!gone) paint(r);
      });
    }
    pending = t;
  }
  let asked = null;
  function onRound(ev) {
    if (ev.detail.key !== key) return;
    if (asked !== null && ev.detail.t !== asked) ahead = ev.detail.t > asked ? 1 : -1;
    asked = ev.detail.t;
    describe(ev.detail.t);
    if (onScreen) schedule(ev.detail.t);
    else stale = ev.detail.t;
  }
  const sight = window.IntersectionObserver ? new IntersectionObserver((entries) => {
    onScreen = entries[entries.length - 1].isIntersecting;
    if (onScreen && stale !== null) {
      schedule(stale);
      stale = null;
    }
  }, { rootMargin: "300px 0px" }) : null;
  if (sight) sight.observe(box);
  window.addEventListener("boostlab:round", onRound);
  // the stepper, mounted above, has already said which round is shown
  draw(BUS.rounds[key] ?? 0);
  return () => {
    gone = true;
    if (sight) sight.disconnect();
    timers.forEach(clearTimeout);
    window.removeEventListener("resize", refit);
    window.removeEventListener("resize", rescale);
    window.removeEventListener("resize", refitHtml);
    if (watcher) watcher.disconnect();
    if (mover) mover.disconnect();
    window.removeEventListener("boostlab:round", onRound);
    if (idleJob !== null) {
      if (idleJob.timer !== null) clearTimeout(idleJob.timer);
      if (idleJob.idle !== null) window.cancelIdleCallback(idleJob.idle);
    }
    if (data.kind === "plotly" && window.Plotly) {
      for (const s of slots) {
        s.stamp += 1;
        try { window.Plotly.purge(s.el); } catch (e) { /* already gone */ }
      }
    }
  };
}

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
  // In a class (ui/classroom/klass.js): the teacher's quiz asks each round's question of
  // the class and reveals it for everyone; a following student's pick is their answer and
  // the teacher's reveal is theirs. The class's answers arrive as "boostlab:class" events.
  const role = () => (BUS.klass ? BUS.klass.role : null);
  const studentFollowing = () => role() === "student" && !!BUS.following;

  // where a following student's answer stands (ui/classroom/klass.js, sendAnswer): sent
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

// ---------------------------------------------------------------------------------- regions
// Boxes wider than the screen that scroll sideways (a long formula on a phone) become named
// Tab stops, so a keyboard can scroll them too; checked again when the page changes.
function regionsMount(component) {
  const { data } = component;
  const mine = "blRegion";
  function mark() {
    for (const e of document.querySelectorAll(data.selector)) {
      const wide = e.scrollWidth > e.clientWidth + 1;
      if (wide && !e.hasAttribute("tabindex")) {
        e.tabIndex = 0;
        e.setAttribute("role", "region");
        e.setAttribute("aria-label", data.label);
        e.dataset[mine] = "1";
      } else if (!wide && e.dataset[mine]) {
        e.removeAttribute("tabindex");
        e.removeAttribute("role");
        e.removeAttribute("aria-label");
        delete e.dataset[mine];
      }
    }
  }
  let timer = null;
  const later = () => { clearTimeout(timer); timer = setTimeout(mark, 150); };
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const watcher = new MutationObserver(later);
  watcher.observe(main, { childList: true, subtree: true });
  window.addEventListener("resize", later);
  mark();
  return () => {
    clearTimeout(timer);
    watcher.disconnect();
    window.removeEventListener("resize", later);
  };
}

// data.role -> the function that mounts it (ComponentData.role in ui/lecture.py)
const MOUNT = { stepper: stepperMount, view: viewMount, quiz: quizMount, regions: regionsMount };

// A view's or quiz's data comes packed as bytes (ui/payload.py): "BLP1", then the header and
// each part named in its "$parts" (frames, notes, descriptions), each a 4-byte length and a
// gzip'd JSON value; a part takes the place of the header's null under its name. The
// stepper's data is a plain object.
async function gunzipJSON(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

async function unpack(buf) {
  const magic = String.fromCharCode(buf[0], buf[1], buf[2], buf[3]);
  if (magic !== "BLP1") throw new Error(`packed data must start with BLP1; got ${magic}`);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 4;
  const chunk = () => {
    const n = view.getUint32(at);
    at += 4 + n;
    return gunzipJSON(buf.subarray(at - n, at));
  };
  const out = await chunk();
  const names = out["$parts"] || [];
  delete out["$parts"];
  const values = await Promise.all(names.map(() => chunk()));
  names.forEach((name, i) => { out[name] = values[i]; });
  return out;
}

// Streamlit calls a component's function again when its data changes (a rerun with new
// values), on the same element, and keeps only the newest cleanup for the component's
// unmount: the mount before would live on (its listeners, its timers, a class's event
// stream) beside the new one. Each element's mount is therefore cleaned up here, before the
// next one on that element (klass.js does the same).
const MOUNTED = new WeakMap();

function mountOnce(component, mount) {
  const el = component.parentElement;
  const before = MOUNTED.get(el);
  if (before) before();
  const off = mount();
  let done = false;
  const cleanup = () => {
    if (done) return;
    done = true;
    if (MOUNTED.get(el) === cleanup) MOUNTED.delete(el);
    if (typeof off === "function") off();
  };
  MOUNTED.set(el, cleanup);
  return cleanup;
}

export default function (component) {
  return mountOnce(component, () => {
    if (!ArrayBuffer.isView(component.data)) {
      const data = component.data || {};
      return (MOUNT[data.role] || viewMount)(component);
    }
    if (typeof DecompressionStream === "undefined") {
      component.parentElement.textContent = "This browser cannot unpack the lecture's rounds " +
        "(it needs DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or later).";
      return undefined;
    }
    let off = null, gone = false;
    unpack(component.data).then((unpacked) => {
      if (gone) return;
      off = (MOUNT[unpacked.role] || viewMount)(Object.assign({}, component, { data: unpacked }));
    }).catch((err) => {
      if (!gone) component.parentElement.textContent = `This view could not be drawn: ${err}`;
    });
    return () => { gone = true; if (typeof off === "function") off(); };
  });
}
