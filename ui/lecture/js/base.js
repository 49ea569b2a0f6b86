// boostlab lecture view: the rounds of a run stepped inside the browser.
//
// This is the script's first part (ui/lecture/assets.py joins ui/lecture/js/ in its PARTS
// order into one ES module: base.js — shared state, sizes, notation, frames —, stepper.js,
// views.js, quiz.js, main.js — the regions and the component's entry point; the parts share
// one scope and only main.js exports).
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
// The contract with Python (ui/lecture/contract.py): `data` holds exactly the fields of StepperData
// (role "stepper") or ViewData (role "view"), camelCased, every one always sent; this script
// reads nothing else from it. What it sends back is declared there too: the stepper's state
// "round" (setStateValue) and a focusable view's trigger "focus" (setTriggerValue).
// tests/ui/test_lecture_contract.py parses the joined script and checks both directions, so read `data`
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
// row (ui/lecture), each about as wide as one view of the 1920-px design, so presenter mode's design
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
// value], …]} for frame s's entry with those parts set (ui/lecture, plotly_frames).
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
