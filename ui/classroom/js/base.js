// boostlab class script, part 1 of 5: the stylesheet and the page's shared bus.
// ui/classroom/teach.py joins the parts (SCRIPT_PARTS) into one ES module sharing one scope.

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
