// boostlab lecture script, part 5 of 5: the formula regions and the entry point. ui/lecture/assets.py joins
// the parts (its PARTS order) into one ES module: they share one scope; only main.js exports.

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

// data.role -> the function that mounts it (ComponentData.role in ui/lecture)
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
