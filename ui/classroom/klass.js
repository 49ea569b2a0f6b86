// boostlab class mode (issue 28): the teacher's page tells the class its round, and every
// follower's page shows the teacher's page, parameters and round as they change.
//
// One Streamlit component (st.components.v2, in the page's own DOM), mounted once per page
// by ui/classroom/teach.py with `data` = ClassData (ui/classroom/teach.py), in one of two
// roles:
//
// * "teacher": each step of the page's stepper (the window event "boostlab:round" that
//   ui/lecture.js sends) is POSTed to /api/class/<code>/round with the teacher key; the
//   count of students is kept live from the class's event stream.
// * "student": the page subscribes to /api/class/<code>/events (server-sent events; the
//   browser reconnects by itself after a phone sleeps, and each connection starts with the
//   state now). A new round is shown by the page's steppers (the window event
//   "boostlab:follow"); another page or other parameters open the teacher's link. While
//   following, the page's controls are locked; "Explore on my own" stops following (the
//   choice is kept per class in sessionStorage) and "Rejoin the class" follows again.
//
// A step is one small event per follower on a stream already open: no Streamlit rerun per
// follower per step.

const CSS = `
.bl-class { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 0.9rem;
  border: 1px solid rgba(128,128,128,0.45); border-radius: 0.6rem; padding: 0.35rem 0.7rem;
  font-size: 1rem; line-height: 1.3; }
.bl-class-state { flex: 1 1 14rem; min-width: 0; overflow-wrap: anywhere; }
.bl-class button { font: inherit; min-height: 44px; padding: 0 1rem; border-radius: 0.5rem;
  border: 1px solid #A52F3C; background: transparent; color: inherit; cursor: pointer; }
.bl-class button.bl-class-primary { background: #A52F3C; color: white; font-weight: 600; }
.bl-class-ended { border-color: #D55E00; }
body.bl-following [data-testid="stSidebar"] { opacity: 0.55; pointer-events: none; }
/* the page's controls are locked, except a student's own turn as the weak learner (its
   split is sent to the class from there) */
body.bl-following [data-testid="stMain"] :is([data-testid="stSelectbox"],
  [data-testid="stMultiSelect"], [data-testid="stCheckbox"], [data-testid="stPopover"],
  [data-testid="stButton"], [data-testid="stSlider"], [data-testid="stRadio"],
  [data-testid="stNumberInput"], [data-testid="stTextInput"], [data-testid="stButtonGroup"],
  [data-testid="stDownloadButton"]):not([class*="st-key-weak_"] *) {
  pointer-events: none; opacity: 0.5; }
body.bl-following .bl-stepper :is(button, input, select) { pointer-events: none; opacity: 0.45; }
/* what a follower still uses (its turn as the weak learner, sent to the class) is a touch
   target of at least 44 px */
body.bl-following [class*="st-key-weak_"] [data-testid="stButton"] button { min-height: 44px; }
body.bl-following [class*="st-key-weak_"] [data-testid="stRadio"] label {
  min-height: 44px; align-items: center; }
/* on a phone a follower's locked controls only push the picture down: they are hidden */
@media (max-width: 700px) {
  body.bl-following [data-testid="stMain"] [data-testid="stElementContainer"]:has(:is(
    [data-testid="stSelectbox"], [data-testid="stMultiSelect"], [data-testid="stCheckbox"],
    [data-testid="stPopover"], [data-testid="stButton"], [data-testid="stRadio"],
    [data-testid="stSlider"], [data-testid="stNumberInput"], [data-testid="stButtonGroup"])):not(
    [class*="st-key-weak_"] *) {
    display: none; }
  body.bl-following .bl-stepper .bl-buttons { display: none; }
}
`;

const BUS = (window.__boostlab = window.__boostlab || { rounds: {} });

function styleOnce() {
  if (document.getElementById("bl-class-css")) return;
  const s = document.createElement("style");
  s.id = "bl-class-css";
  s.textContent = CSS;
  document.head.appendChild(s);
}

function studentId() {
  // one id per browser (several tabs of one student count once), random, never a name
  try {
    let id = localStorage.getItem("boostlab-student");
    if (!id) {
      id = "s-" + crypto.randomUUID().replace(/-/g, "");
      localStorage.setItem("boostlab-student", id);
    }
    return id;
  } catch (e) {
    BUS.studentId = BUS.studentId || "s-" + Math.random().toString(36).slice(2, 14);
    return BUS.studentId;
  }
}

function post(path, body) {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    keepalive: true,
  }).then(async (r) => {
    const out = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(out.error || `HTTP ${r.status}`);
    return out;
  });
}

// The page and the parameters the address bar holds now (the browser writes a changed
// widget's value there), without the ones a follower does not take (data.notShared).
function addressNow(notShared) {
  const hidden = new Set(notShared || []);
  const url = new URL(window.location.href);
  const page = url.pathname.replace(/^\/+|\/+$/g, "");
  const query = [...url.searchParams.entries()].filter(([k]) => !hidden.has(k));
  return { page, query };
}

function sameQuery(a, b) {
  const norm = (q) => q.map(([k, v]) => `${k}=${v}`).sort().join("&");
  return norm(a) === norm(b);
}

function teacherLink(state, code) {
  const url = new URL(window.location.origin + "/" + (state.page || ""));
  for (const [k, v] of state.query) url.searchParams.append(k, v);
  if (state.round !== null && state.round !== undefined) url.searchParams.set("round", state.round);
  url.searchParams.set("class", code);
  return url.toString();
}

function teacherMount(component) {
  const { data, parentElement } = component;
  const code = data.code;
  const api = `/api/class/${encodeURIComponent(code)}`;
  BUS.klass = { role: "teacher", code };
  BUS.classState = null;
  document.body.classList.remove("bl-following");
  // Every POST of the teacher's page goes in order, one at a time (a step must not arrive
  // before the page it belongs to, nor a question after the next round's); steps that pile
  // up while one is in flight are sent as one, the newest.
  let asking = Promise.resolve(), queued = false, newest = null;
  const fail = (e) => { parentElement.dataset.error = String(e.message || e); };
  const send = (t) => {
    newest = t;
    if (queued) return;
    queued = true;
    asking = asking.then(() => {
      queued = false;
      return post(`${api}/round`, { key: data.key, round: newest });
    }).catch(fail);
  };
  const onRound = (ev) => {
    const { t, source } = ev.detail || {};
    if (source === "follow") return;
    // data.round is the class's round as the server last knew it: a page that opens at
    // another one (a split played, a preset) tells the class
    if (source === "mount" && t === data.round) return;
    send(t);
  };
  window.addEventListener("boostlab:round", onRound);
  // the page and its parameters as the address bar holds them (Streamlit's browser side
  // writes a changed widget's value there, after the server's run has begun): checked
  // twice a second, told to the class when it changes
  let told = null, failedAt = 0, ended = false;
  const tellWhere = () => {
    // a refused or lost request is told again (2 s later): the class must not stay on the
    // old parameters because one POST failed
    if (ended || Date.now() - failedAt < 2000) return;
    const now = addressNow(data.notShared);
    const sig = JSON.stringify([now.page, now.query]);
    if (sig === told) return;
    told = sig;
    // the round only where the page has a stepper (a page without one has no round)
    const stepper = document.querySelector(".bl-stepper");
    const round = stepper && stepper.dataset.round !== undefined ?
      parseInt(stepper.dataset.round, 10) : null;
    asking = asking.then(() => post(`${api}/show`, { key: data.key, page: now.page,
                                                    query: now.query, round }))
      .catch((e) => {
        told = null;
        failedAt = Date.now();
        parentElement.dataset.error = String(e.message || e);
      });
  };
  const watcher = setInterval(tellWhere, 500);
  // predict, then reveal: the quiz (ui/lecture.js) asks the round's question of the class
  // and reveals it; the class's answers come back on the stream ("boostlab:class")
  // one POST at a time, in order: two steps in quick succession must leave the class on the
  // question of the round shown, not on whichever request arrived last
  let asked = undefined;
  const ask = (q) => {
    const qid = q ? q.qid : null;
    if (qid === asked) return;
    asked = qid;
    asking = asking.then(() => post(`${api}/ask`, { key: data.key, question: qid,
                                                   choices: q ? q.n : null }))
      .catch((e) => { parentElement.dataset.error = String(e.message || e); });
  };
  const onAsk = (ev) => ask(ev.detail);
  const onReveal = (ev) => {
    const { qid, correct } = ev.detail || {};
    asking = asking.then(() => post(`${api}/reveal`, { key: data.key, question: qid, correct }))
      .catch((e) => { parentElement.dataset.error = String(e.message || e); });
  };
  window.addEventListener("boostlab:ask", onAsk);
  window.addEventListener("boostlab:reveal", onReveal);
  if (data.predict && BUS.ask !== undefined) ask(BUS.ask);
  if (!data.predict) ask(null);
  // the live count of students (the class's own stream; the teacher is not counted)
  const events = new EventSource(`${api}/events`);
  events.onmessage = (ev) => {
    const state = JSON.parse(ev.data);
    BUS.classState = state;
    if (state.ended) { ended = true; events.close(); }
    window.dispatchEvent(new CustomEvent("boostlab:class", { detail: state }));
    const count = document.querySelector(".st-key-class-count [data-bl-count]");
    if (count) count.textContent = String(state.students);
    const answers = document.querySelector(".st-key-class-answers [data-bl-answers]");
    if (answers) answers.textContent = String(state.answers);
    parentElement.dataset.seq = String(state.seq);
  };
  tellWhere();
  return () => {
    clearInterval(watcher);
    window.removeEventListener("boostlab:round", onRound);
    window.removeEventListener("boostlab:ask", onAsk);
    window.removeEventListener("boostlab:reveal", onReveal);
    events.close();
  };
}

function studentMount(component) {
  const { data, parentElement, setTriggerValue } = component;
  const code = data.code;
  const api = `/api/class/${encodeURIComponent(code)}`;
  const exploreKey = `boostlab-explore-${code}`;
  const me = studentId();
  BUS.klass = { role: "student", code };
  styleOnce();
  const box = document.createElement("div");
  box.className = "bl-class";
  box.setAttribute("role", "status");
  box.innerHTML = `<span class="bl-class-state"></span>
    <button type="button" class="bl-class-toggle"></button>`;
  parentElement.replaceChildren(box);
  const text = box.querySelector(".bl-class-state");
  const toggle = box.querySelector(".bl-class-toggle");
  let events = null, last = null, ended = false, asked = null, askedAt = 0;
  // the teacher's predict or mode differs from what this page's run was told: it runs again
  const needsRun = (state) =>
    !!state.predict !== !!data.predict || (state.mode || "") !== (data.mode || "");
  // a prediction picked on this page is the class's answer (one per student, changeable
  // until the teacher reveals)
  const onAnswer = (ev) => {
    const { qid, choice } = ev.detail || {};
    if (exploring() || ended || typeof choice !== "number") return;
    post(`${api}/answer`, { student: me, question: qid, choice })
      .catch((e) => { parentElement.dataset.error = String(e.message || e); });
  };
  window.addEventListener("boostlab:answer", onAnswer);

  const exploring = () => {
    try { return sessionStorage.getItem(exploreKey) === "1"; } catch (e) { return !!BUS.exploring; }
  };
  const setExploring = (on) => {
    try { sessionStorage.setItem(exploreKey, on ? "1" : "0"); } catch (e) { BUS.exploring = on; }
  };

  function render() {
    const following = !ended && !exploring();
    document.body.classList.toggle("bl-following", following);
    // the sidebar's controls (data, parameters, other pages) out of reach of keys too
    const side = document.querySelector('[data-testid="stSidebar"]');
    if (side) side.inert = following;
    BUS.following = following;
    if (!following) BUS.followRound = null;
    parentElement.dataset.following = String(following);
    box.classList.toggle("bl-class-ended", ended);
    if (ended) {
      text.textContent = `Class ${code} has ended. The page is yours to explore.`;
      toggle.hidden = true;
      return;
    }
    toggle.hidden = false;
    if (following) {
      text.textContent = `Following class ${code}: the teacher drives` +
        (last && last.round !== null ? ` · round ${last.round}` : "");
      toggle.textContent = "Explore on my own";
      toggle.classList.remove("bl-class-primary");
    } else {
      text.textContent = `Exploring on your own (class ${code})`;
      toggle.textContent = "Rejoin the class";
      toggle.classList.add("bl-class-primary");
    }
  }

  function apply(state) {
    last = state;
    BUS.classState = state;
    parentElement.dataset.seq = String(state.seq);
    if (state.ended) {
      ended = true;
      if (events) events.close();
      render();
      return;
    }
    if (exploring()) { render(); return; }
    const here = addressNow(data.notShared);
    if (state.page !== here.page || !sameQuery(state.query, here.query)) {
      // another page or other parameters: open the teacher's link (this page's run is not
      // the teacher's any more)
      window.location.assign(teacherLink(state, code));
      return;
    }
    if (needsRun(state) && asked !== state.seq) {
      // the teacher turned predict-then-reveal on or off, or played a split as the weak
      // learner: this page's run asks the class's state again (one rerun, not a reload)
      asked = state.seq;
      askedAt = Date.now();
      setTriggerValue("sync", state.seq);
    }
    window.dispatchEvent(new CustomEvent("boostlab:class", { detail: state }));
    if (state.round !== null && state.round !== undefined) {
      BUS.followRound = state.round;
      window.dispatchEvent(new CustomEvent("boostlab:follow", { detail: { t: state.round } }));
    }
    render();
  }

  let retry = null;
  function connect() {
    if (events) events.close();
    events = new EventSource(`${api}/events?student=${encodeURIComponent(me)}`);
    events.onmessage = (ev) => apply(JSON.parse(ev.data));
    events.onerror = () => {
      // the browser gives up on a stream answered with an error: a 404 means the class has
      // ended (or the server was restarted); anything else (503: the hall's Redis is
      // restarting; the network) is tried again in 3 s
      if (events.readyState !== EventSource.CLOSED || ended || retry) return;
      const probe = new AbortController();
      fetch(`${api}/events`, { signal: probe.signal, cache: "no-store" })
        .then((r) => {
          probe.abort();
          if (r.status === 404) { ended = true; render(); return; }
          retry = setTimeout(() => { retry = null; connect(); }, 3000);
        })
        .catch(() => { retry = setTimeout(() => { retry = null; connect(); }, 3000); });
    };
  }

  toggle.addEventListener("click", () => {
    setExploring(!exploring());
    if (!exploring() && last) apply(last);
    render();
  });
  connect();
  render();
  // once a second the page's steppers are told the class's round again: a stepper that
  // was mounted by a rerun in the middle of an event (a split played changes the run and
  // the round at once) catches up within a second instead of staying behind
  let healed = false;
  const heal = setInterval(() => {
    if (ended || exploring() || !last) return;
    // the teacher's page or parameters and this page's differ though the event that said so
    // came (its navigation was lost: the page was being redrawn): opened once from here
    const here = addressNow(data.notShared);
    if (!healed && (last.page !== here.page || !sameQuery(last.query, here.query))) {
      healed = true;
      window.location.assign(teacherLink(last, code));
      return;
    }
    // a run asked for 3 s ago that has not brought the teacher's predict or mode (a request
    // made while another run was starting can be lost): asked again
    if (needsRun(last) && Date.now() - askedAt > 3000) {
      askedAt = Date.now();
      // a value of its own each time: a repeat of the lost request's value might be taken
      // for the same request (the server reads none of it)
      setTriggerValue("sync", `${last.seq}:${askedAt}`);
    }
    if (last.round === null || last.round === undefined) return;
    BUS.followRound = last.round;
    window.dispatchEvent(new CustomEvent("boostlab:follow", { detail: { t: last.round } }));
  }, 1000);
  return () => {
    clearInterval(heal);
    if (retry) clearTimeout(retry);
    if (events) events.close();
    window.removeEventListener("boostlab:answer", onAnswer);
    document.body.classList.remove("bl-following");
    const side = document.querySelector('[data-testid="stSidebar"]');
    if (side) side.inert = false;
    BUS.following = false;
  };
}

export default function (component) {
  const role = (component.data || {}).role;
  if (role === "teacher") return teacherMount(component);
  if (role === "student") return studentMount(component);
  return undefined;
}
