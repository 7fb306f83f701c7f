// webr4 runtime: the pending set, event identity (ids stable across runs), creation and
// cancellation of events, and the source locations that label them.

// ------------------------------------------------------------------ identity and bookkeeping
let virtualNow = 0; // virtual milliseconds since navigation start
let current = null; // id of the event whose code is running, or null
let seqCounter = 0;
const pending = newMap(); // id -> event (executable)
const created = []; // descriptors created since the last record
const gone = []; // ids that left the pending set since the last record (ran or cancelled)
const errors = [];
// CONFIG.fullAccessLog (diagnostics and tests only) ships every access instead of the summary.
// `index`: where the summaries of one log find their locations (see AccessSummary).
const newAccessLog = (index) => (CONFIG.fullAccessLog ? new FullAccessLog() : new AccessSummary(index));
let accesses = newAccessLog(); // the current event's accesses: [kind, location, site, digest]
// The only events whose accesses through the page's code and browser APIs the run logs from the
// first event after the head on, as `start` is told (null: every event's). The runtime's own
// accesses are logged for every event.
let loggedEvents = null;
/* Event `id` is starting: the access log is on for it when the run logs its accesses. */
function logAccessesOf(id) {
  const log = loggedEvents === null ? undefined : window.__webr4.log;
  if (log) log.enabled = loggedEvents.has(id);
}
// The entries of the access log's summary of the current event, listed after `accesses`'s own.
let logged = [];
// Locations the access log held back in earlier events that this one touched, and the names of
// the locations it held back of this one that were written (the access log's `takeHeld`, access_log/holding.js).
let promoted = [];
let heldWrites = [];
const uncontrolled = [];
const childOrdinals = newMap();
const looseOrdinals = newMap();
let inflight = 0; // native operations whose completion has not arrived yet
const arrived = []; // events created by native arrivals, ordered at settle time

function hash53(text) {
  // cyrb53: a fast, well-mixed 53-bit string hash, good enough for identities.
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function normalizeUrl(raw, base = document.baseURI) {
  // Identity ignores cache-busting query strings and fragments: keep origin+path only, and
  // the sorted query keys (not values). A relative URL is `base`'s (a frame's request, its own).
  try {
    const u = new URL(String(raw), base);
    const names = [...u.searchParams.keys()];
    const keys = A.sort(A.filter(names, (name, i) => A.indexOf(names, name) === i));
    return u.origin + u.pathname + (keys.length ? "?" + A.join(keys, "&") : "");
  } catch (e) {
    return String(raw);
  }
}

function shortUrl(raw, base = document.baseURI) {
  try {
    const u = new URL(String(raw), base);
    return u.origin === location.origin ? u.pathname + u.search : u.href;
  } catch (e) {
    return String(raw);
  }
}

const STACK_FRAMES = 30; // deep enough to get past a library's own frames to the app's call

function creationSite() {
  // url:line:col of the first app frame of the stack outside the runtime (see firstPageFrame),
  // query string removed.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_FRAMES;
  try {
    return firstPageFrame(new Error().stack || "");
  } finally {
    Error.stackTraceLimit = limit;
  }
}

// A library's script by its path (webr4/libraries.py defines it and sends it in the config).
const LIBRARY_PATH = new RegExp(CONFIG.libraryPath || "(?!)", "i");

function isLibraryScript(url) {
  // A script that is not the app's own: one from another origin, or a library's by its path.
  let parsed;
  try {
    parsed = new URL(url);
  } catch (e) {
    return false;
  }
  return parsed.origin !== location.origin || call(N.regexpTest, LIBRARY_PATH, parsed.pathname);
}

function firstPageFrame(stack) {
  // The first frame of `stack` in the app's own code; when every page frame is a library's,
  // the first of those.
  return pageFrame(stack, true) || pageFrame(stack, false);
}

function pageFrame(stack, appOnly) {
  // The first frame of `stack` in the page's code (never webr4's injected scripts), and with
  // `appOnly` not in a library's either.
  const lines = stack.split("\n");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.includes(RUNTIME_URL) || line.includes("__webr4_")) continue;
    const m = line.match(/\(?((?:https?|file):[^\s()]+):(\d+):(\d+)\)?\s*$/);
    if (!m) continue;
    const url = m[1].replace(/[?#][^:]*$/, "");
    if (!appOnly || !isLibraryScript(url)) return `${url}:${m[2]}:${m[3]}`;
  }
  return null;
}

function errorSite(e) {
  // Where an uncaught exception was thrown in the app's code: its own position, or, when that
  // is inside a DOM API webr4 wraps or a library (isLibraryScript), the first app frame of
  // its stack; without one, where the library threw it.
  const thrownAt = e.filename ? e.filename.replace(/[?#].*$/, "") : "";
  const thrown = thrownAt && !thrownAt.includes("__webr4_") ? `${thrownAt}:${e.lineno}:${e.colno}` : null;
  if (thrown && !isLibraryScript(thrownAt)) return thrown;
  let stack = "";
  try {
    stack = e.error instanceof Error ? String(e.error.stack) : "";
  } catch (error) {
    stack = "";
  }
  return pageFrame(stack, true) || thrown || pageFrame(stack, false);
}

function shortSite(site) {
  if (!site) return "";
  return site.startsWith(location.origin) ? site.slice(location.origin.length) : site;
}

/** Create a pending event. spec: {category, type, label, params, due, prio, run|actuate,
 *  creator?, preds?, origin?} — `origin` orders events that native arrivals create. */
function createEvent(spec) {
  const creator = spec.creator === undefined ? current : spec.creator;
  const params = spec.params || {};
  // EXACT~LOOSE: the exact part names the creator and the ordinal among its like children; the
  // loose part is the same without the creator, with the ordinal among all like events, so that a
  // replay can tell the event again when another event created it (webr4/browser/replay.py).
  // The exact part hashes the creator's exact part alone (exactPart, replay.js), so it is the
  // whole id of earlier versions of webr4, whose runs still replay.
  const loose = `${spec.category}|${spec.type}|${N.stringify(params)}`;
  const key = `${creator === null ? null : exactPart(creator)}|${loose}`;
  const ordinal = childOrdinals.get(key) || 0;
  childOrdinals.set(key, ordinal + 1);
  const nth = looseOrdinals.get(loose) || 0;
  looseOrdinals.set(loose, nth + 1);
  const id = `${spec.category[0]}${hash53(key + "#" + ordinal)}~${hash53(loose + "#" + nth)}`;
  const ev = {
    id,
    category: spec.category,
    type: spec.type,
    label: spec.label,
    creator,
    params: N.assign({ ordinal }, params),
    due: spec.due === undefined ? virtualNow : spec.due,
    prio: spec.prio || 0,
    seq: spec.origin === undefined ? ++seqCounter : null,
    origin: spec.origin,
    preds: spec.preds || [],
    run: spec.run || null,
    actuate: spec.actuate || null,
    onSettled: spec.onSettled || null,
  };
  pending.set(id, ev);
  if (ev.seq === null) A.push(arrived, ev);
  A.push(created, ev);
  accesses.push(["w", `event:${id}`, spec.site || null, null]);
  return ev;
}

function cancelEvent(ev, site) {
  if (!ev || !pending.has(ev.id)) return;
  pending.delete(ev.id);
  A.push(gone, ev.id);
  accesses.push(["w", `event:${ev.id}`, site || null, null]);
}

function describe(ev) {
  return {
    id: ev.id, category: ev.category, type: ev.type, label: ev.label, creator: ev.creator,
    params: ev.params, due: ev.due, prio: ev.prio, seq: ev.seq, preds: ev.preds,
  };
}
