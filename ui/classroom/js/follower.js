// boostlab class script, part 4 of 5: the follower's side (a student's page).
// ui/classroom/teach.py joins the parts (SCRIPT_PARTS) into one ES module sharing one scope.

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
