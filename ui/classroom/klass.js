// boostlab class mode (issue 28): the teacher's page tells the class its round, and every
// follower's page shows the teacher's page, parameters and round as they change.
//
// One Streamlit component (st.components.v2, in the page's own DOM), mounted once per page
// by ui/classroom/teach.py with `data` = ClassData (ui/classroom/teach.py), in one of two
// roles:
//
// * "teacher": each step of the page's stepper (the window event "boostlab:round" that
//   ui/lecture/js sends) is POSTed to /api/class/<code>/round with the teacher key; the
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
  /* the presets, challenges and Export belong to the teacher: on a phone they only pushed
     the regions half below the fold (issue 39, item 5) */
  body.bl-following [data-testid="stLayoutWrapper"]:has(> .st-key-preset_row),
  body.bl-following .st-key-preset_row,
  body.bl-following [data-testid="stLayoutWrapper"]:has(> .st-key-export_menu),
  body.bl-following .st-key-export_menu { display: none !important; }
}
.bl-class-lost { border-color: #D55E00; border-width: 2px; }
/* a follower's turn (the teacher's question, the class's splits) below or above the
   screen: a button at the bottom of the screen that scrolls to it */
.bl-class-cue { position: fixed; left: 50%; transform: translateX(-50%); bottom: 1rem;
  z-index: 995; min-height: 48px; padding: 0 1.3rem; border-radius: 24px; border: 0;
  background: #A52F3C; color: white; font: inherit; font-size: 1.05rem; font-weight: 600;
  box-shadow: 0 2px 10px rgba(0,0,0,0.3); cursor: pointer; max-width: calc(100vw - 2rem);
  white-space: nowrap; }
.bl-class-cue[hidden] { display: none; }
`;

const BUS = (window.__boostlab = window.__boostlab || { rounds: {} });

function styleOnce() {
  if (document.getElementById("bl-class-css")) return;
  const s = document.createElement("style");
  s.id = "bl-class-css";
  s.textContent = CSS;
  document.head.appendChild(s);
}

// A follower's id is given by the class when the page joins it (POST …/join: signed and
// bound to the class, issue 40, item 2; an id a page made up counts for nothing). One per
// browser and class (several tabs of one student count once), kept in localStorage; asked
// for once at a time.
function followerId(api, code) {
  const name = `boostlab-follower-${code}`;
  const ids = (BUS.followerIds = BUS.followerIds || {});
  try {
    const kept = localStorage.getItem(name);
    if (kept) return Promise.resolve(kept);
  } catch (e) { /* private mode: this tab keeps it (below) */ }
  if (typeof ids[code] === "string") return Promise.resolve(ids[code]);
  if (ids[code] instanceof Promise) return ids[code];
  const asked = (ids[code] = post(`${api}/join`, {}).then((out) => {
    try { localStorage.setItem(name, out.student); } catch (e) { /* private mode */ }
    ids[code] = out.student;
    return out.student;
  }, (err) => { delete ids[code]; throw err; }));
  return asked;
}

// an id the class does not know (another server's, a class opened again under its code)
function forgetFollowerId(code) {
  try { localStorage.removeItem(`boostlab-follower-${code}`); } catch (e) { /* nothing */ }
  if (BUS.followerIds) delete BUS.followerIds[code];
}

function post(path, body) {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    keepalive: true,
  }).then(async (r) => {
    const out = await r.json().catch(() => ({}));
    if (!r.ok) {
      const err = new Error(out.error || `HTTP ${r.status}`);
      err.status = r.status;
      throw err;
    }
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

// What happened on this page, the newest 60 (a test that fails prints it: what the page
// was told, what it asked for, when it mounted).
function trace(...what) {
  const counts = (BUS.classCounts = BUS.classCounts || {});
  counts[what[0]] = (counts[what[0]] || 0) + 1;
  const log = (BUS.classLog = BUS.classLog || []);
  log.push([Math.round(performance.now()), ...what]);
  if (log.length > 60) log.splice(0, log.length - 60);
}

// One event stream per address and tab, kept while the component is mounted again: a rerun
// that changes the component's data mounts it anew (see the end of this file), and a new
// stream each time was a leave and a join that told every other follower of the class too
// (issue 39, item 2: ten events per toggle of the teacher's). The newest mount listens;
// a stream no mount takes within 2 s is closed.
function classStream(key, urlOf) {
  const all = (BUS.classStreams = BUS.classStreams || {});
  let s = all[key];
  if (!s) {
    s = all[key] = { es: null, last: null, listener: null, closing: null, retry: null,
                     closed: false };
    // the address may have to be asked for first (a follower's id): the stream opens
    // once it is known, and a refusal goes to the listener's `refused`
    s.open = () => {
      if (s.es) s.es.close();
      s.es = null;
      Promise.resolve(urlOf()).then((url) => {
        if (s.closed) return;
        s.es = new EventSource(url);
        s.es.onmessage = (ev) => {
          s.last = JSON.parse(ev.data);
          if (s.listener) s.listener.message(s.last);
        };
        s.es.onerror = () => { if (s.listener && s.listener.error) s.listener.error(s); };
      }, (err) => {
        if (s.closed) return;
        if (s.listener && s.listener.refused) s.listener.refused(s, err);
        else s.retry = setTimeout(() => { s.retry = null; s.open(); }, 3000);
      });
    };
    s.close = () => {
      s.closed = true;
      clearTimeout(s.closing);
      clearTimeout(s.retry);
      if (s.es) s.es.close();
      if (all[key] === s) delete all[key];
    };
    s.open();
  }
  clearTimeout(s.closing);
  s.closing = null;
  return s;
}

function listen(s, listener) {
  s.listener = listener;
  // the newest mount starts from the class as the stream last told it
  if (s.last) {
    const last = s.last;
    queueMicrotask(() => { if (s.listener === listener) listener.message(last); });
  }
}

function release(s, listener) {
  if (s.listener !== listener) return;
  s.listener = null;
  s.closing = setTimeout(s.close, 2000);
}

// A student's answer is sent until the class acknowledges it: an answer in flight when a
// hall's process died got a 502 and was lost, unsaid (issue 40, item 9). The same answer
// sent twice is one answer (the store keeps one per student and question), so a try whose
// reply was lost is simply tried again. A refusal that trying again cannot change (the
// question closed, the answer revealed, the class ended) ends it; the page says in words
// where the answer stands (the quiz shows BUS.answerStatus). The job lives in the tab's
// record of the class (`mine`), not in one mount: a rerun of the page does not stop it.
const ANSWER_WAIT_MS = [300, 600, 1200, 2500, 5000];

function sendAnswer(mine, api, code, qid, choice) {
  if (mine.sending) clearTimeout(mine.sending.timer);
  const job = (mine.sending = { qid, choice, tries: 0, timer: null });
  const say = (state, words) => {
    BUS.answerStatus = { qid, choice, state, words: words || "" };
    document.body.dataset.blAnswer = state;
    trace("answer", state, job.tries);
    window.dispatchEvent(new CustomEvent("boostlab:answer-status", { detail: BUS.answerStatus }));
  };
  const attempt = () => {
    followerId(api, code)
      .then((me) => post(`${api}/answer`, { student: me, question: qid, choice }))
      .then(() => {
        if (mine.sending !== job) return;
        mine.sending = null;
        say("sent");
      })
      .catch((e) => {
        if (mine.sending !== job) return;
        const status = e.status || 0;
        if (status === 400 || status === 404 || status === 413 || status === 415) {
          mine.sending = null;
          say("refused", e.message);
          return;
        }
        // 403: the page's stream is reconnecting (or its id is unknown: it joins again);
        // 429, 502-504, the network: later
        if (status === 403 && /not given by the class/.test(e.message)) forgetFollowerId(code);
        const wait = ANSWER_WAIT_MS[Math.min(job.tries, ANSWER_WAIT_MS.length - 1)];
        job.tries += 1;
        say("retrying", status ? e.message : "the network did not answer");
        job.timer = setTimeout(attempt, wait);
      });
  };
  say("sending");
  attempt();
}

// The classes this browser opened, with their keys (localStorage, the newest 10): a page
// that no longer teaches one (its tab was closed) can still end it (taughtMount; issue 40,
// item 1). A class ended or gone is dropped.
const TAUGHT_KEY = "boostlab-taught";
// The teacher's page says it is there this often (a class whose teacher's page is gone ends
// after Limits.abandoned_minutes; a hidden tab's timers still run once a minute).
const ALIVE_MS = 30000;

function taught() {
  try {
    const list = JSON.parse(localStorage.getItem(TAUGHT_KEY) || "[]");
    return Array.isArray(list) ? list.filter((c) => c && typeof c.code === "string") : [];
  } catch (e) { return []; }
}

function setTaught(list) {
  try { localStorage.setItem(TAUGHT_KEY, JSON.stringify(list.slice(-10))); } catch (e) { /* */ }
}

function addTaught(code, key) {
  if (taught().some((c) => c.code === code)) return;
  setTaught([...taught(), { code, key, at: Date.now() }]);
}

function dropTaught(code) { setTaught(taught().filter((c) => c.code !== code)); }

// Under the refusal "this address already has N open classes": each class this browser
// opened, with a button that ends it for everyone.
function taughtMount(component) {
  const { parentElement } = component;
  styleOnce();
  const box = document.createElement("div");
  box.className = "bl-class bl-class-taught";
  const list = taught();
  const head = document.createElement("span");
  head.className = "bl-class-state";
  head.textContent = list.length
    ? "Classes this browser opened:"
    : "This browser has opened none of them (another device at this address did).";
  box.append(head);
  for (const c of list) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `End class ${c.code}`;
    b.addEventListener("click", () => {
      b.disabled = true;
      post(`/api/class/${encodeURIComponent(c.code)}/end`, { key: c.key })
        .then(() => true, (e) => (e.status === 404 ? true : Promise.reject(e)))
        .then(() => {
          dropTaught(c.code);
          const done = document.createElement("span");
          done.textContent = `Class ${c.code} has ended: press Teach a class again.`;
          b.replaceWith(done);
        }, (e) => {
          b.disabled = false;
          b.title = String(e.message || e);
          head.textContent = `Class ${c.code} could not be ended: ${e.message || e}`;
        });
    });
    box.append(b);
  }
  parentElement.replaceChildren(box);
  return () => {};
}

// sessionStorage: one tab's, kept across reloads; a browser that refuses it keeps nothing
const TEACHING_KEY = "boostlab-teaching";
// The teacher's address is looked at every WHERE_MS and told once it has held still for
// STEADY_MS with no run of the page going on (a page change passes through the old page
// without its parameters; a preset's run rewrites the address as it goes). Checked twice a
// second and told after one unchanged check, a change reached the class 0.5-1.5 s late.
const WHERE_MS = 150;
const STEADY_MS = 300;

function remember(name, value) {
  try {
    if (value === null) sessionStorage.removeItem(name);
    else sessionStorage.setItem(name, JSON.stringify(value));
  } catch (e) { /* private mode: nothing is kept */ }
}

function recall(name) {
  try { return JSON.parse(sessionStorage.getItem(name) || "null"); } catch (e) { return null; }
}

// A page that teaches no class (as far as its server session knows) and follows none: if
// this tab taught one before its session was lost (the server process that held it died,
// in a lecture hall; the page was reloaded), the class is asked for again, once a mount.
// The server checks the key and, if the class is still open, this session teaches it
// again (issue 39, item 4: the class card was gone and "Teach a class" back, while the
// students waited); if not, it names the class in data.code and the tab forgets it.
function resumeMount(component) {
  const { data, setTriggerValue } = component;
  const was = recall(TEACHING_KEY);
  if (!was || typeof was.code !== "string" || typeof was.key !== "string") return undefined;
  // data.code: a class not to ask for again (this session ended it, or the server said no)
  if (was.code === data.code) {
    remember(TEACHING_KEY, null);
    return undefined;
  }
  trace("resume", was.code);
  setTriggerValue("resume", `${was.code}:${was.key}`);
  return undefined;
}

function teacherMount(component) {
  const { data, parentElement, setTriggerValue } = component;
  const code = data.code;
  const api = `/api/class/${encodeURIComponent(code)}`;
  BUS.klass = { role: "teacher", code };
  document.body.classList.remove("bl-following");
  BUS.following = false;
  // What this tab has told the class, kept across the component's mounts (a rerun mounts
  // it again): a mount does not tell the same page, question or round twice.
  const all = (BUS.teacherOf = BUS.teacherOf || {});
  const T = (all[code] = all[code] || {
    asking: Promise.resolve(), queued: false, newest: null,
    told: null, seen: null, seenAt: 0, failedAt: 0, asked: undefined, ended: false,
  });
  // Every POST of the teacher's page goes in order, one at a time (a step must not arrive
  // before the page it belongs to, nor a question after the next round's); steps that pile
  // up while one is in flight are sent as one, the newest.
  const fail = (e) => {
    parentElement.dataset.error = String(e.message || e);
    // the class is gone (ended from another device, expired): nothing more is told
    if (e.status === 404) {
      T.ended = true;
      remember(TEACHING_KEY, null);
      dropTaught(code);
    }
  };
  addTaught(code, data.key);
  // the class is not abandoned while this page is open (once per mount is enough when the
  // last word is fresh: a rerun mounts the component again)
  const alive = () => {
    if (T.ended) return;
    T.aliveAt = Date.now();
    post(`${api}/alive`, { key: data.key }).catch(fail);
  };
  if (Date.now() - (T.aliveAt || 0) > ALIVE_MS / 2) alive();
  const heartbeat = setInterval(alive, ALIVE_MS);
  const send = (t) => {
    T.newest = t;
    if (T.queued || T.ended) return;
    T.queued = true;
    T.asking = T.asking.then(() => {
      T.queued = false;
      return post(`${api}/round`, { key: data.key, round: T.newest });
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
  // every WHERE_MS, told to the class when it changes
  const tellWhere = () => {
    // a refused or lost request is told again (2 s later): the class must not stay on the
    // old parameters because one POST failed
    if (T.ended || Date.now() - T.failedAt < 2000) return;
    const now = addressNow(data.notShared);
    // a preset named in the address is not applied yet (the page's run writes its values
    // and removes it): told once applied, not twice on the way
    if (now.query.some(([k]) => k === "preset")) return;
    const sig = JSON.stringify([now.page, now.query]);
    // told once the address has held still for a check and the page's run is over: a page
    // change passes through the old page without its parameters (a student's page opened
    // that on the way, then the new one)
    const app = document.querySelector('[data-testid="stApp"]');
    const running = app && app.dataset.testScriptState === "running";
    if (sig !== T.seen || running) {
      T.seen = sig;
      T.seenAt = Date.now();
    }
    const steady = Date.now() - T.seenAt >= STEADY_MS;
    if (sig === T.told || running || !steady) return;
    T.told = sig;
    // the round only where the page has a stepper (a page without one has no round)
    const stepper = document.querySelector(".bl-stepper");
    const round = stepper && stepper.dataset.round !== undefined ?
      parseInt(stepper.dataset.round, 10) : null;
    trace("show", now.page, now.query.length, round);
    T.asking = T.asking.then(() => post(`${api}/show`, { key: data.key, page: now.page,
                                                        query: now.query, round }))
      .catch((e) => {
        T.told = null;
        T.failedAt = Date.now();
        fail(e);
      });
  };
  const watcher = setInterval(tellWhere, WHERE_MS);
  // predict, then reveal: the quiz (ui/lecture/js) asks the round's question of the class
  // and reveals it; the class's answers come back on the stream ("boostlab:class")
  // one POST at a time, in order: two steps in quick succession must leave the class on the
  // question of the round shown, not on whichever request arrived last
  const ask = (q) => {
    const qid = q ? q.qid : null;
    if (qid === T.asked || T.ended) return;
    T.asked = qid;
    T.asking = T.asking.then(() => post(`${api}/ask`, { key: data.key, question: qid,
                                                       choices: q ? q.n : null }))
      .catch(fail);
  };
  const onAsk = (ev) => ask(ev.detail);
  const onReveal = (ev) => {
    const { qid, correct } = ev.detail || {};
    if (T.ended) return;
    T.asking = T.asking.then(() => post(`${api}/reveal`, { key: data.key, question: qid,
                                                          correct }))
      .catch(fail);
  };
  window.addEventListener("boostlab:ask", onAsk);
  window.addEventListener("boostlab:reveal", onReveal);
  if (data.predict && BUS.ask !== undefined) ask(BUS.ask);
  if (!data.predict) ask(null);
  // this tab teaches the class: a page that reconnects to another server process (its own
  // died, in a lecture hall) or is reloaded takes the class up again (resumeMount)
  remember(TEACHING_KEY, { code, key: data.key });
  // the live count of students (the class's own stream; the teacher is not counted)
  const stream = classStream(`${api}/events`, () => `${api}/events`);
  const listener = {
    message(state) {
      BUS.classState = state;
      if (state.ended) {
        T.ended = true;
        remember(TEACHING_KEY, null);
        dropTaught(code);
        stream.close();
      }
      window.dispatchEvent(new CustomEvent("boostlab:class", { detail: state }));
      const count = document.querySelector(".st-key-class-count [data-bl-count]");
      if (count) count.textContent = String(state.students);
      const answers = document.querySelector(".st-key-class-answers [data-bl-answers]");
      if (answers) answers.textContent = String(state.answers);
      parentElement.dataset.seq = String(state.seq);
    },
  };
  listen(stream, listener);
  tellWhere();
  // A page whose connection came back may be on a new server session (in a lecture hall,
  // its process died and HAProxy sent it to another), which knows nothing of the class and
  // would first run at the teacher's next control, without the class card: a run is asked
  // for at once, and that run takes the class up again (resumeMount).
  const app = document.querySelector('[data-testid="stApp"]');
  let lost = false;
  const connection = app ? new MutationObserver(() => {
    const now = app.dataset.testConnectionState;
    if (now && now !== "CONNECTED") lost = true;
    else if (now === "CONNECTED" && lost) {
      lost = false;
      trace("reconnected");
      setTriggerValue("sync", `reconnected:${Date.now()}`);
    }
  }) : null;
  if (connection) {
    connection.observe(app, { attributes: true, attributeFilter: ["data-test-connection-state"] });
  }
  return () => {
    if (connection) connection.disconnect();
    clearInterval(watcher);
    clearInterval(heartbeat);
    window.removeEventListener("boostlab:round", onRound);
    window.removeEventListener("boostlab:ask", onAsk);
    window.removeEventListener("boostlab:reveal", onReveal);
    release(stream, listener);
  };
}

function studentMount(component) {
  const { data, parentElement, setTriggerValue } = component;
  const code = data.code;
  const api = `/api/class/${encodeURIComponent(code)}`;
  const exploreKey = `boostlab-explore-${code}`;
  const id = () => followerId(api, code);
  BUS.klass = { role: "student", code };
  trace("mount", data.predict, data.mode.length);
  styleOnce();
  const box = document.createElement("div");
  box.className = "bl-class";
  box.setAttribute("role", "status");
  box.innerHTML = `<span class="bl-class-state"></span>
    <button type="button" class="bl-class-toggle"></button>`;
  parentElement.replaceChildren(box);
  const text = box.querySelector(".bl-class-state");
  const toggle = box.querySelector(".bl-class-toggle");
  let last = null, ended = false, lost = false, refusal = null;
  // What this tab asked of the server, kept across the component's mounts: the run that
  // takes the teacher's predict and mode is asked for once per change of theirs (asking
  // again at every event while a run was under way interrupted the runs, and a run cut
  // short before it drew the toggle left the page on the old mode for good: issue 39,
  // item 2); a run asked for 3 s ago that has not brought them is asked for again.
  const followers = (BUS.followerOf = BUS.followerOf || {});
  const mine = (followers[code] = followers[code] || { asked: null, askedAt: 0 });
  // the teacher's predict or mode differs from what this page's run was told: it runs again
  const wanted = (state) => JSON.stringify([!!state.predict, state.mode || ""]);
  const needsRun = (state) => wanted(state) !== JSON.stringify([!!data.predict, data.mode || ""]);
  // a page run under way, or one that ended less than a second ago, may still bring them:
  // a run is asked for again only after that (on a loaded machine one run can take seconds)
  const runIdleSince = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const state = app ? app.dataset.testScriptState : "notRunning";
    if (state !== "notRunning") { mine.runSeen = Date.now(); return 0; }
    return Date.now() - (mine.runSeen || 0);
  };
  const askRun = (state) => {
    const want = wanted(state);
    const idle = runIdleSince();
    if (mine.asked === want && (Date.now() - mine.askedAt < 3000 || idle < 1000)) return;
    mine.asked = want;
    mine.askedAt = Date.now();
    trace("ask", state.seq, want.length);
    // a value of its own each time (the server reads none of it: the run takes the class's
    // state from the store)
    setTriggerValue("sync", `${state.seq}:${mine.askedAt}`);
  };
  // a prediction picked on this page is the class's answer (one per student, changeable
  // until the teacher reveals), sent until the class acknowledges it (sendAnswer)
  let answered = null;
  const onAnswer = (ev) => {
    const { qid, choice } = ev.detail || {};
    if (exploring() || ended || typeof choice !== "number") return;
    answered = qid;
    sendAnswer(mine, api, code, qid, choice);
  };
  window.addEventListener("boostlab:answer", onAnswer);

  const exploring = () => {
    try { return sessionStorage.getItem(exploreKey) === "1"; } catch (e) { return !!BUS.exploring; }
  };
  const setExploring = (on) => {
    try { sessionStorage.setItem(exploreKey, on ? "1" : "0"); } catch (e) { BUS.exploring = on; }
  };
  // The teacher's page and parameters this tab last opened (sessionStorage: it outlives
  // the navigation): a page opened for them is never opened for them again, even when its
  // address writes the same values another way (a loop of reloads on every phone, issue 39,
  // item 1, came from two addresses that never compared equal). A navigation that did not
  // happen (the page was being redrawn) is tried again from the page that asked for it.
  const openedKey = `boostlab-opened-${code}`;
  const opened = {
    get() {
      try { return sessionStorage.getItem(openedKey); } catch (e) { return BUS.opened || null; }
    },
    set(v) {
      try {
        if (v === null) sessionStorage.removeItem(openedKey);
        else sessionStorage.setItem(openedKey, v);
      } catch (e) { BUS.opened = v; }
    },
  };
  const whereSig = (st) =>
    JSON.stringify([st.page, [...st.query].map(([k, v]) => `${k}=${v}`).sort()]);
  // open the teacher's page and parameters (this page's run is not the teacher's any more)
  const follow = (state) => {
    const sig = whereSig(state);
    const here = addressNow(data.notShared);
    if (state.page === here.page && sameQuery(state.query, here.query)) {
      BUS.navigating = null;
      return false;
    }
    const nav = BUS.navigating;
    if (sig === opened.get() && !(nav && nav.sig === sig)) {
      // opened for these already: the two addresses differ in how they write the same values
      parentElement.dataset.mismatch = JSON.stringify([here.page, here.query]);
      return false;
    }
    if (nav && nav.sig === sig && Date.now() - nav.at < 5000) return true;
    BUS.navigating = { sig, at: Date.now() };
    opened.set(sig);
    trace("open", state.page, state.query.length);
    window.location.assign(teacherLink(state, code));
    return true;
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
    box.classList.toggle("bl-class-lost", lost);
    if (lost) {
      // the page's server went away (in a hall its process died): it is reconnecting
      text.textContent = `Connection lost: reconnecting to class ${code}…`;
      toggle.hidden = true;
      return;
    }
    box.classList.toggle("bl-class-lost", !!refusal && following);
    if (refusal && following) {
      // the class refused this page a place (a budget): it tries again by itself
      text.textContent = `Not following class ${code} yet: ${refusal}`;
      return;
    }
    if (following) {
      // the round in the words the page's stepper uses ("Level 2", "Step 4")
      const name = document.querySelector(".bl-stepper .bl-name");
      const unit = ((name && name.textContent) || "Round").trim();
      const now = `Following class ${code}: the teacher drives` +
        (last && last.round !== null ? ` · ${unit} ${last.round}` : "");
      if (text.textContent !== now) text.textContent = now;
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
      stream.close();
      render();
      return;
    }
    if (exploring()) { render(); return; }
    if (follow(state)) return;
    // the teacher turned predict-then-reveal on or off, or played a split as the weak
    // learner: this page's run asks the class's state again (one rerun, not a reload)
    if (needsRun(state)) askRun(state);
    window.dispatchEvent(new CustomEvent("boostlab:class", { detail: state }));
    if (state.round !== null && state.round !== undefined) {
      BUS.followRound = state.round;
      window.dispatchEvent(new CustomEvent("boostlab:follow", { detail: { t: state.round } }));
    }
    render();
  }

  const stream = classStream(`${api}/events#follower`,
    () => id().then((me) => `${api}/events?student=${encodeURIComponent(me)}`));
  const again = (s, ms) => {
    s.retry = setTimeout(() => { s.retry = null; s.open(); }, ms);
  };
  const listener = {
    message(state) {
      trace("event", state.seq, state.students, !!state.predict);
      refusal = null;
      apply(state);
    },
    error(s) {
      // the browser gives up on a stream answered with an error: a 404 means the class has
      // ended (or the server was restarted); a 403, that the class does not know this
      // page's id (it joins again); anything else (503: the hall's Redis is restarting; a
      // 429: a budget; the network) is tried again in 3 s
      if (!s.es || s.es.readyState !== EventSource.CLOSED || ended || s.retry) return;
      // (the probe is answered with no stream and counts no follower: `check`)
      const probe = new AbortController();
      fetch(`${s.es.url}&check=1`, { signal: probe.signal, cache: "no-store" })
        .then(async (r) => {
          const out = r.ok ? {} : await r.json().catch(() => ({}));
          probe.abort();
          if (r.status === 404) { ended = true; render(); return; }
          if (r.status === 403) forgetFollowerId(code);
          if (r.status === 429 && out.error) { refusal = out.error; render(); }
          again(s, 3000);
        })
        .catch(() => again(s, 3000));
    },
    refused(s, err) {
      // the join was refused: the class has ended, or a budget is spent (said in words)
      if (err.status === 404) { ended = true; render(); return; }
      refusal = err.message || String(err);
      render();
      again(s, err.status === 429 ? 30000 : 3000);
    },
  };
  listen(stream, listener);

  toggle.addEventListener("click", () => {
    setExploring(!exploring());
    // a student exploring may change the parameters: the teacher's are opened again on rejoin
    if (exploring()) opened.set(null);
    if (!exploring() && last) apply(last);
    render();
  });
  render();
  // once a second the page's steppers are told the class's round again: a stepper that
  // was mounted by a rerun in the middle of an event (a split played changes the run and
  // the round at once) catches up within a second instead of staying behind
  // the page's connection to its server (Streamlit's own state on the app's element)
  const app = document.querySelector('[data-testid="stApp"]');
  const connection = app ? new MutationObserver(() => {
    const now = app.dataset.testConnectionState;
    const was = lost;
    lost = !!now && now !== "CONNECTED" && !ended;
    if (lost !== was) render();
  }) : null;
  if (connection) {
    connection.observe(app, { attributes: true, attributeFilter: ["data-test-connection-state"] });
  }
  // The follower's turn — the teacher's question, the class's splits — sits below the views
  // on a phone (1,700 px down on an 844-px screen, issue 39, item 5): while it is off the
  // screen, a button at the bottom of the screen says so and scrolls to it.
  const cue = document.createElement("button");
  cue.type = "button";
  cue.className = "bl-class-cue";
  cue.hidden = true;
  document.body.appendChild(cue);
  let target = null;
  cue.addEventListener("click", () => {
    // the turn as it is now: a rerun may have replaced the element the cue last saw (a
    // detached element does not scroll, and a tap did nothing: seen in a CI run)
    const now = turn();
    const to = now ? now[0] : target;
    if (to && to.isConnected) to.scrollIntoView({ block: "center", behavior: "smooth" });
    BUS.cueTap = Date.now();
  });
  // (until the student has answered the question, or sent a choice once on this page)
  let sent = false;
  const onSend = (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest("button") : null;
    if (b && b.closest('[class*="st-key-weak_"]') && /^Send my/.test(b.textContent.trim())) {
      sent = true;
    }
  };
  document.addEventListener("click", onSend, true);
  const turn = () => {
    if (ended || exploring() || !last) return null;
    const send = [...document.querySelectorAll('[class*="st-key-weak_"] button')]
      .find((b) => /^Send my/.test(b.textContent.trim()));
    if (send && !sent) return [send, "Send your choice ↓"];
    const quiz = document.querySelector(".bl-quiz");
    const q = last.question;
    if (quiz && q && !last.revealed && answered !== q.id) {
      return [quiz, "A question for you ↓"];
    }
    return null;
  };
  const showCue = () => {
    const now = turn();
    target = now ? now[0] : null;
    let off = false;
    if (target) {
      const r = target.getBoundingClientRect();
      off = r.top > window.innerHeight - 40 || r.bottom < 80;
      const label = r.bottom < 80 ? now[1].replace("↓", "↑") : now[1];
      if (cue.textContent !== label) cue.textContent = label;
      // a tap whose smooth scroll a rerun cut short (the page redrawn under it, this cue
      // mounted anew: seen in CI, the turn still 900 px down): scrolled once more, at once
      if (off && BUS.cueTap && Date.now() - BUS.cueTap < 4000) {
        BUS.cueTap = 0;
        target.scrollIntoView({ block: "center" });
        const again = target.getBoundingClientRect();
        off = again.top > window.innerHeight - 40 || again.bottom < 80;
      }
    }
    cue.hidden = !off;
  };
  // (and the banner again: the stepper whose words it uses may have mounted after it)
  const cueTimer = setInterval(() => { showCue(); if (!lost) render(); }, 400);
  const heal = setInterval(() => {
    if (ended || exploring() || !last) return;
    // the teacher's page or parameters and this page's differ though the event that said so
    // came (its navigation was lost: the page was being redrawn): opened again from here
    if (follow(last)) return;
    // a run asked for 3 s ago that has not brought the teacher's predict or mode (a request
    // made while another run was starting can be lost): asked again
    if (needsRun(last)) askRun(last);
    if (last.round === null || last.round === undefined) return;
    BUS.followRound = last.round;
    window.dispatchEvent(new CustomEvent("boostlab:follow", { detail: { t: last.round } }));
  }, 1000);
  return () => {
    trace("unmount");
    if (connection) connection.disconnect();
    clearInterval(cueTimer);
    document.removeEventListener("click", onSend, true);
    cue.remove();
    clearInterval(heal);
    release(stream, listener);
    window.removeEventListener("boostlab:answer", onAnswer);
    document.body.classList.remove("bl-following");
    const side = document.querySelector('[data-testid="stSidebar"]');
    if (side) side.inert = false;
    BUS.following = false;
  };
}

// Streamlit calls a component's function again when its data changes (a rerun: the
// teacher's predict, mode or round), on the same element, and keeps only the newest cleanup
// for the component's unmount: the mount before lived on beside the new one, with its own
// event stream, interval and listeners. After a few of the teacher's toggles a phone held
// several, each asking for a run of its own, and its page re-ran about once a second
// (issue 39, item 2). Each element's mount is cleaned up here, before the next one on it.
const MOUNTED = new WeakMap();

export default function (component) {
  const el = component.parentElement;
  const before = MOUNTED.get(el);
  if (before) before();
  const role = (component.data || {}).role;
  const off = role === "teacher" ? teacherMount(component) :
    role === "student" ? studentMount(component) :
    role === "resume" ? resumeMount(component) :
    role === "taught" ? taughtMount(component) : undefined;
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
