// boostlab class script, part 3 of 5: the teacher's side (its classes, resuming one, teaching).
// ui/classroom/teach.py joins the parts (SCRIPT_PARTS) into one ES module sharing one scope.

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
