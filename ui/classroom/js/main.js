// boostlab class script, part 5 of 5: the entry point (one mount per element).
// ui/classroom/teach.py joins the parts (SCRIPT_PARTS) into one ES module sharing one scope.

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
