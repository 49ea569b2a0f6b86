// boostlab class script, part 2 of 5: the transport: a follower's id, POSTs, the stream, answers.
// ui/classroom/teach.py joins the parts (SCRIPT_PARTS) into one ES module sharing one scope.

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
