// boostlab lecture script, part 3 of 5: the views. ui/lecture/assets.py joins
// the parts (its PARTS order) into one ES module: they share one scope; only main.js exports.

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
      // Built by the server from escaped text (ui/svg.py, ui/lecture): no user
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
