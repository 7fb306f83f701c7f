// webr4 page runtime: holds every asynchronous event of the page in a pending set until the
// harness (Python, through Playwright) dispatches it. Injected as an init script, so it runs in
// every document before any page script. Only the top frame is controlled; child frames are
// reported as uncontrolled and left to run natively.
//
// Contract with the harness (webr4/browser/controller.py):
//   __webr4.begin(id)  -> starts event `id`; resolves to a step record once the event, its
//                          microtasks and every native completion it caused have settled.
//                          Events that Python must actuate (parse chunks, held scripts, user
//                          actions) resolve at once with {actuate: …}; Python acts, then calls
//                          __webr4.finish(id), which settles and resolves to the step record.
//   __webr4.runStretch(plan, horizon, max, sliceMs) -> chooses and runs events by itself, as
//                          the harness would, until one needs the harness; resolves to the JSON
//                          of {steps: [[id, planned, record]], skipped, consumed, stop, id?, planned?}.
//   __webr4.drainStretch() -> stops a stretch whose event hung; what it finished, and `running`.
// A step record is {created: [descriptor], gone: [id], errors: [error], accesses: JSON of [access],
// actuate?: {...}, uncontrolled: [text]}: the pending set gains `created` and loses `gone`.
// Descriptors carry the event's stable identity and its due time, priority and sequence number.
(function installWebr4Runtime() {
  "use strict";
  const CONFIG = typeof __WEBR4_CONFIG__ === "object" ? __WEBR4_CONFIG__ : {};
  if (window !== window.top) {
    // Child frames run natively; the top frame reports them as uncontrolled.
    return;
  }
  if (window.__webr4) return;

  // ------------------------------------------------------------------ natives, captured first
  const N = {
    setTimeout: window.setTimeout.bind(window),
    clearTimeout: window.clearTimeout.bind(window),
    XMLHttpRequest: window.XMLHttpRequest,
    fetch: window.fetch.bind(window),
    MessageChannel: window.MessageChannel,
    postMessage: window.postMessage.bind(window),
    Date: window.Date,
    dateNow: window.Date.now,
    perfNow: performance.now.bind(performance),
    getRandomValues: crypto.getRandomValues.bind(crypto),
    consoleError: console.error.bind(console),
    addEventListener: EventTarget.prototype.addEventListener,
    removeEventListener: EventTarget.prototype.removeEventListener,
    dispatchEvent: EventTarget.prototype.dispatchEvent,
    structuredClone: window.structuredClone.bind(window),
    stringify: JSON.stringify.bind(JSON),
    Response: window.Response,
    MutationObserver: window.MutationObserver,
    defineProperty: Object.defineProperty,
    getAttribute: Element.prototype.getAttribute,
    querySelectorAll: Element.prototype.querySelectorAll,
    Element: window.Element, // a polyfill may put its own constructor in the global
  };
  /* A WeakMap whose methods are the natives, as own properties: a page that replaces
     WeakMap.prototype.get (a polyfill, say) never sees the runtime's lookups. */
  const nativeWeakMap = (() => {
    const { get, set, has, delete: remove } = WeakMap.prototype;
    return () => N.defineProperty(N.defineProperty(N.defineProperty(N.defineProperty(new WeakMap(),
      "get", { value: get }), "set", { value: set }), "has", { value: has }), "delete", { value: remove });
  })();
  const nativeTick = (() => {
    // A native macrotask with no clamping: one MessageChannel owned by the runtime.
    const channel = new N.MessageChannel();
    const queue = [];
    channel.port1.onmessage = () => { const fn = queue.shift(); if (fn) fn(); };
    return (fn) => { queue.push(fn); channel.port2.postMessage(0); };
  })();
  const RUNTIME_URL = "__webr4_runtime__.js";

  // ------------------------------------------------------------------ access summaries
  /* The summary of one event's accesses, built as they happen: per location, in order of first
     access, only the accesses that carry what race detection reads (first access, first read
     and write, first read and write with a site, first write of a different digest, last write;
     for an increment, the read/write pair around each). The schema and its proof of
     equivalence are in webr4/engine/summary.py; `entries()` equals its `summarise`. */
  class AccessSummary {
    constructor() { this.locations = new Map(); this.count = 0; }

    push(access) {
      const at = [this.count++, access];
      const [kind, location, site, value] = access;
      let s = this.locations.get(location);
      if (s === undefined) {
        s = { n: 0, first: at, prev: null, lastPrev: null, inc: true, read: null, readAt: null, readAtNext: null,
          write: null, writeAt: null, differ: null, last: null, pairs: [] };
        this.locations.set(location, s);
      }
      if (s.readAt !== null && s.readAtNext === null && s.prev === s.readAt) s.readAtNext = at;
      s.inc = s.inc && (s.n % 2 === 0 ? kind === "r" : kind === "w" && typeof value === "string" && value.startsWith("n:"));
      if (kind === "r") {
        if (s.read === null) s.read = at;
        if (s.readAt === null && site) s.readAt = at;
      } else {
        // Each kept write remembers the access before it: the read of its pair in an increment.
        if (s.write === null) { s.write = at; s.pairs.push(s.prev); }
        if (s.writeAt === null && site) { s.writeAt = at; s.pairs.push(s.prev); }
        if (s.differ === null && value !== s.write[1][3]) { s.differ = at; s.pairs.push(s.prev); }
        s.last = at; s.lastPrev = s.prev;
      }
      s.prev = at;
      s.n++;
    }

    entries() {
      const out = [];
      for (const s of this.locations.values()) {
        const increment = s.inc && s.n % 2 === 0;
        const kept = [s.first, s.read, s.readAt, s.write, s.writeAt, s.differ, s.last];
        if (increment) kept.push(s.readAtNext, s.lastPrev, ...s.pairs);
        const chosen = [...new Set(kept.filter((at) => at !== null && at !== undefined))].sort((a, b) => a[0] - b[0]);
        const mine = chosen.map((at) => at[1]);
        if (!increment && isIncrement(mine)) mine.splice(1, 0, mine[0]);
        for (const access of mine) out.push(access);
      }
      return out;
    }
  }

  function isIncrement(list) {
    if (list.length === 0 || list.length % 2) return false;
    for (let i = 0; i < list.length; i += 2) {
      const w = list[i + 1];
      if (list[i][0] !== "r" || w[0] !== "w" || typeof w[3] !== "string" || !w[3].startsWith("n:")) return false;
    }
    return true;
  }

  const entriesOf = (log) => (Array.isArray(log) ? log : log.entries());

  // ------------------------------------------------------------------ identity and bookkeeping
  let virtualNow = 0; // virtual milliseconds since navigation start
  let current = null; // id of the event whose code is running, or null
  let seqCounter = 0;
  const pending = new Map(); // id -> event (executable)
  const created = []; // descriptors created since the last record
  const gone = []; // ids that left the pending set since the last record (ran or cancelled)
  const errors = [];
  // CONFIG.fullAccessLog (diagnostics and tests only) ships every access instead of the summary.
  const newAccessLog = () => (CONFIG.fullAccessLog ? [] : new AccessSummary());
  let accesses = newAccessLog(); // the current event's accesses: [kind, location, site, digest]
  const uncontrolled = [];
  const childOrdinals = new Map();
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

  function normalizeUrl(raw) {
    // Identity ignores cache-busting query strings and fragments: keep origin+path only, and
    // the sorted query keys (not values).
    try {
      const u = new URL(String(raw), document.baseURI);
      const keys = [...new Set([...u.searchParams.keys()])].sort();
      return u.origin + u.pathname + (keys.length ? "?" + keys.join("&") : "");
    } catch (e) {
      return String(raw);
    }
  }

  function shortUrl(raw) {
    try {
      const u = new URL(String(raw), document.baseURI);
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
    return parsed.origin !== location.origin || LIBRARY_PATH.test(parsed.pathname);
  }

  function firstPageFrame(stack) {
    // The first frame of `stack` in the app's own code; when every page frame is a library's,
    // the first of those.
    return pageFrame(stack, true) || pageFrame(stack, false);
  }

  function pageFrame(stack, appOnly) {
    // The first frame of `stack` in the page's code (never webr4's injected scripts), and with
    // `appOnly` not in a library's either.
    for (const line of stack.split("\n").slice(1)) {
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
    const key = `${creator}|${spec.category}|${spec.type}|${N.stringify(params)}`;
    const ordinal = childOrdinals.get(key) || 0;
    childOrdinals.set(key, ordinal + 1);
    const id = `${spec.category[0]}${hash53(key + "#" + ordinal)}`;
    const ev = {
      id,
      category: spec.category,
      type: spec.type,
      label: spec.label,
      creator,
      params: Object.assign({ ordinal }, params),
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
    if (ev.seq === null) arrived.push(ev);
    created.push(ev);
    accesses.push(["w", `event:${id}`, spec.site || null, null]);
    return ev;
  }

  function cancelEvent(ev, site) {
    if (!ev || !pending.has(ev.id)) return;
    pending.delete(ev.id);
    gone.push(ev.id);
    accesses.push(["w", `event:${ev.id}`, site || null, null]);
  }

  function describe(ev) {
    return {
      id: ev.id, category: ev.category, type: ev.type, label: ev.label, creator: ev.creator,
      params: ev.params, due: ev.due, prio: ev.prio, seq: ev.seq, preds: ev.preds,
    };
  }

  // ------------------------------------------------------------------ determinism shims
  let rngState = (CONFIG.seed >>> 0) || 0x9e3779b9;
  function random() {
    // mulberry32
    rngState = (rngState + 0x6d2b79f5) >>> 0;
    let t = rngState;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  Math.random = random;
  crypto.getRandomValues = function getRandomValues(array) {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    return array;
  };
  if (crypto.randomUUID) {
    crypto.randomUUID = function randomUUID() {
      const b = crypto.getRandomValues(new Uint8Array(16));
      b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
      const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    };
  }
  const baseTime = CONFIG.baseTime || 1700000000000;
  const NativeDate = N.Date;
  function VirtualDate(...args) {
    if (!new.target) return new NativeDate(baseTime + virtualNow).toString();
    return args.length ? new NativeDate(...args) : new NativeDate(baseTime + virtualNow);
  }
  VirtualDate.prototype = NativeDate.prototype;
  VirtualDate.now = () => baseTime + virtualNow;
  VirtualDate.parse = NativeDate.parse;
  VirtualDate.UTC = NativeDate.UTC;
  N.defineProperty(VirtualDate.prototype, "constructor", { value: VirtualDate, writable: true, configurable: true });
  window.Date = VirtualDate;
  performance.now = () => virtualNow;

  // ------------------------------------------------------------------ errors
  N.addEventListener.call(window, "error", (e) => {
    if (e.target !== window) return; // resource errors are element events, handled below
    errors.push({ kind: "exception", message: String(e.message || e.error), site: errorSite(e), event: current });
  });
  // Leaving the page ends an execution: the event that tried is reported once (`navigating` in
  // its record) and a stretch stops after it. The harness refuses the navigation itself at the
  // network, so the page stays as it was for the state capture. beforeunload fires, before the
  // navigation starts, for link activation, form submission and location changes (HTML
  // "navigate": prompt to unload); a new window never unloads this page, hence window.open.
  let navigating; // the event that tried (undefined: none)
  const noteNavigation = () => { if (navigating === undefined) navigating = current; };
  N.addEventListener.call(window, "beforeunload", noteNavigation);
  const nativeOpen = window.open;
  window.open = function open(...args) {
    noteNavigation();
    return nativeOpen.apply(this, args);
  };
  N.addEventListener.call(window, "unhandledrejection", (e) => {
    const r = e.reason;
    errors.push({ kind: "unhandledrejection", message: String(r && r.stack ? r.message : r), site: null, event: current });
  });
  console.error = function error(...args) {
    errors.push({ kind: "console", message: args.map(String).join(" "), site: creationSite(), event: current });
    return N.consoleError(...args);
  };

  // ------------------------------------------------------------------ timers
  // Timers carry no happens-before edges of their own: the engine orders them by their delays
  // (webr4/engine/timers.py), whatever task created them. The runtime only computes the delay a
  // browser would use: HTML clamps a delay below 4 ms to 4 ms once timers nest more than 5 deep
  // (a timer set by the callback of a timer set by the callback of …), intervals included.
  let nextHandle = 1;
  const timerByHandle = new Map(); // handle -> pending event (current firing)
  const MAX_UNCLAMPED_NESTING = 5;
  const NESTED_MIN_DELAY = 4;
  let timerNesting = 0; // the HTML timer nesting level of the running timer callback, 0 outside one

  function toDelay(raw) {
    const n = Number(raw);
    return Number.isFinite(n) && n > 0 ? n : 0;
  }

  function invoke(cb, args) {
    if (typeof cb === "function") return cb.apply(window, args);
    return (0, eval)(String(cb)); // string handlers: indirect eval, as the browser does
  }

  function scheduleTimer(kind, cb, requested, args, handle, firing, seriesSite) {
    const site = seriesSite || creationSite();
    const nesting = timerNesting;
    const delay = nesting > MAX_UNCLAMPED_NESTING && requested < NESTED_MIN_DELAY ? NESTED_MIN_DELAY : requested;
    const ev = createEvent({
      category: "timer", type: kind,
      label: `${kind} ${delay}ms${site ? " at " + shortSite(site) : ""}${firing ? " #" + (firing + 1) : ""}`,
      params: { delay, site, firing: firing || 0 },
      due: virtualNow + delay, site,
      run: () => {
        timerNesting = nesting + 1;
        try {
          if (kind === "setTimeout") timerByHandle.delete(handle);
          else {
            // the next firing of an interval exists from the moment this one runs
            timerByHandle.set(handle, scheduleTimer(kind, cb, requested, args, handle, (firing || 0) + 1, site));
          }
          invoke(cb, args);
        } finally {
          timerNesting = 0;
        }
      },
    });
    timerByHandle.set(handle, ev);
    return ev;
  }

  window.setTimeout = function setTimeout(cb, delay, ...args) {
    const handle = nextHandle++;
    scheduleTimer("setTimeout", cb, toDelay(delay), args, handle, 0);
    return handle;
  };
  window.setInterval = function setInterval(cb, delay, ...args) {
    const handle = nextHandle++;
    scheduleTimer("setInterval", cb, Math.max(toDelay(delay), 1), args, handle, 0);
    return handle;
  };
  window.clearTimeout = window.clearInterval = function clearTimer(handle) {
    const ev = timerByHandle.get(handle);
    timerByHandle.delete(handle);
    cancelEvent(ev, creationSite());
  };

  const FRAME = 1000 / 60;
  let lastFrameEvent = null;
  window.requestAnimationFrame = function requestAnimationFrame(cb) {
    const handle = nextHandle++;
    const due = Math.ceil((virtualNow + 0.001) / FRAME) * FRAME;
    const site = creationSite();
    const preds = lastFrameEvent && pending.has(lastFrameEvent) ? [lastFrameEvent] : [];
    const ev = createEvent({
      category: "timer", type: "requestAnimationFrame", label: `animation frame${site ? " at " + shortSite(site) : ""}`,
      params: { site }, due, preds, site,
      run: () => { timerByHandle.delete(handle); cb(due); },
    });
    lastFrameEvent = ev.id;
    timerByHandle.set(handle, ev);
    return handle;
  };
  window.cancelAnimationFrame = window.clearTimeout;
  window.requestIdleCallback = function requestIdleCallback(cb, options) {
    const handle = nextHandle++;
    const site = creationSite();
    const timeout = options && options.timeout ? toDelay(options.timeout) : null;
    const ev = createEvent({
      category: "timer", type: "requestIdleCallback", label: `idle callback${site ? " at " + shortSite(site) : ""}`,
      params: { site, timeout }, due: virtualNow + 1, prio: 1, site,
      run: () => { timerByHandle.delete(handle); cb({ didTimeout: false, timeRemaining: () => 50 }); },
    });
    timerByHandle.set(handle, ev);
    return handle;
  };
  window.cancelIdleCallback = window.clearTimeout;

  // ------------------------------------------------------------------ messages
  const passThrough = new WeakSet(); // events the runtime dispatches itself

  function redispatch(target, event) {
    passThrough.add(event);
    return N.dispatchEvent.call(target, event);
  }

  window.postMessage = function postMessage(message, targetOrigin, transfer) {
    const opts = typeof targetOrigin === "object" && targetOrigin !== null ? targetOrigin : { targetOrigin, transfer };
    const data = N.structuredClone(message);
    const site = creationSite();
    const lastOwn = lastMessageEvent && pending.has(lastMessageEvent) ? [lastMessageEvent] : [];
    const ev = createEvent({
      category: "message", type: "postMessage", label: `window message${site ? " from " + shortSite(site) : ""}`,
      params: { site }, preds: lastOwn, site,
      run: () => redispatch(window, new MessageEvent("message", { data, origin: location.origin, source: window, ports: opts.transfer || [] })),
    });
    lastMessageEvent = ev.id;
  };
  let lastMessageEvent = null;
  N.addEventListener.call(window, "message", (e) => {
    if (passThrough.has(e)) return;
    // A message from another window (a frame, an opener): hold it like any native arrival.
    e.stopImmediatePropagation();
    const copy = new MessageEvent("message", { data: e.data, origin: e.origin, source: e.source, ports: [...e.ports] });
    createEvent({
      category: "message", type: "postMessage", label: `message from ${e.origin}`, creator: null,
      params: { origin: e.origin }, origin: [2, seqCounter],
      run: () => redispatch(window, copy),
    });
  }, true);

  class RuntimePort extends EventTarget {
    constructor() { super(); this._other = null; this._handler = null; this._closed = false; this._last = null; }
    get onmessage() { return this._handler; }
    set onmessage(fn) {
      if (!this._handlerRegistered) {
        this._handlerRegistered = true;
        this.addEventListener("message", (e) => { if (typeof this._handler === "function") this._handler.call(this, e); });
      }
      this._handler = fn;
    }
    start() {}
    close() { this._closed = true; }
    postMessage(message) {
      const target = this._other;
      if (this._closed || !target || target._closed) return;
      const data = N.structuredClone(message);
      const site = creationSite();
      const preds = this._last && pending.has(this._last) ? [this._last] : [];
      const ev = createEvent({
        category: "message", type: "MessagePort", label: `port message${site ? " from " + shortSite(site) : ""}`,
        params: { site }, preds, site,
        run: () => { if (!target._closed) target.dispatchEvent(new MessageEvent("message", { data })); },
      });
      this._last = ev.id;
    }
  }
  window.MessageChannel = function MessageChannel() {
    const port1 = new RuntimePort(), port2 = new RuntimePort();
    port1._other = port2; port2._other = port1;
    return { port1, port2 };
  };

  // ------------------------------------------------------------------ workers and sockets
  // A dedicated worker's own code runs natively (init scripts never reach workers), and a
  // WebSocket talks to a live server, so the trace lists both as uncontrolled; what the page
  // sees of them is controlled: each message (or open, error, close) they deliver is an event,
  // after their previous one, so its order against the page's events is explored. settle()
  // waits a little for such a peer to answer once it was started or sent something, so that
  // its answer is usually pending at the same step in every run.
  const PEER_ANSWER_MS = 250;
  const peerWaits = new Set(); // {peer, eventId: an event that must run first, or null; since}
  function peersAnswering() {
    const now = N.perfNow();
    for (const wait of peerWaits) {
      if (wait.eventId !== null) {
        if (pending.has(wait.eventId)) continue;
        wait.eventId = null;
        wait.since = now;
      }
      if (now - wait.since < PEER_ANSWER_MS) return true;
      peerWaits.delete(wait);
    }
    return false;
  }
  function answered(peer) {
    for (const wait of peerWaits) if (wait.peer === peer) peerWaits.delete(wait);
  }
  function awaitAnswer(peer, eventId) {
    peerWaits.add({ peer, eventId: eventId || null, since: N.perfNow() });
  }

  /* Holds the native events `types` of `peer` (listening first, in the capture phase) and turns
     each into an event that dispatches a copy; returns the ids of those not yet run. */
  function holdPeerEvents(peer, types, describePeer, copyOf) {
    const ids = [];
    const creator = current;
    const site = creationSite();
    const hold = (e) => {
      if (passThrough.has(e) || e.target !== peer) return;
      e.stopImmediatePropagation();
      answered(peer);
      const copy = copyOf(e);
      const ev = createEvent({
        category: "message", type: describePeer.type, creator, label: `${e.type} from ${describePeer.label}`,
        params: { url: describePeer.url, kind: e.type, site }, preds: ids.length ? [ids[ids.length - 1]] : [],
        origin: [2, seqCounter],
        run: () => { ids.splice(ids.indexOf(ev.id), 1); redispatch(peer, copy); },
      });
      ids.push(ev.id);
    };
    for (const type of types) N.addEventListener.call(peer, type, hold, true);
    return ids;
  }
  function copyMessage(e) {
    return new MessageEvent("message", { data: e.data, origin: e.origin, ports: [...e.ports] });
  }
  if (typeof window.Worker === "function") {
    const NativeWorker = window.Worker;
    const workerPost = NativeWorker.prototype.postMessage;
    const workerTerminate = NativeWorker.prototype.terminate;
    const pendingOf = nativeWeakMap(); // worker -> ids of its messages not yet dispatched
    const Worker = function Worker(url, options) {
      if (!new.target) return NativeWorker.apply(this, arguments); // throws the native TypeError
      const worker = Reflect.construct(NativeWorker, arguments, new.target);
      const href = new URL(String(url), document.baseURI).href;
      uncontrolled.push(`worker ${shortUrl(href)}`);
      pendingOf.set(worker, holdPeerEvents(worker, ["message", "error"],
        { type: "worker", label: `worker ${shortUrl(href)}`, url: normalizeUrl(href) },
        (e) => e.type === "message" ? copyMessage(e) : new ErrorEvent("error", {
          message: e.message, filename: e.filename, lineno: e.lineno, colno: e.colno, error: e.error, cancelable: true })));
      let eventId = null;
      if (/^https?:/.test(href)) {
        // The script is held at the network like an async script, and served uninstrumented.
        eventId = createEvent({
          category: "network", type: "script", label: `worker script ${shortUrl(href)}`,
          params: { src: normalizeUrl(href), kind: "worker" }, site: creationSite(),
          actuate: { kind: "script", url: href, worker: true },
        }).id;
      }
      awaitAnswer(worker, eventId);
      return worker;
    };
    Worker.prototype = NativeWorker.prototype;
    N.defineProperty(Worker.prototype, "constructor", { value: Worker, writable: true, configurable: true });
    NativeWorker.prototype.postMessage = function postMessage() {
      const result = workerPost.apply(this, arguments);
      if (pendingOf.has(this)) awaitAnswer(this);
      return result;
    };
    NativeWorker.prototype.terminate = function terminate() {
      // Messages the worker sent that the page has not seen are never dispatched.
      for (const id of (pendingOf.get(this) || []).splice(0)) cancelEvent(pending.get(id), creationSite());
      answered(this);
      return workerTerminate.apply(this, arguments);
    };
    window.Worker = Worker;
  }
  if (typeof window.WebSocket === "function") {
    const NativeWebSocket = window.WebSocket;
    const socketSend = NativeWebSocket.prototype.send;
    const socketClose = NativeWebSocket.prototype.close;
    const sockets = new WeakSet();
    const WebSocket = function WebSocket(url, protocols) {
      if (!new.target) return NativeWebSocket.apply(this, arguments); // throws the native TypeError
      // readyState stays native: it reads OPEN once connected, even while `open` is pending.
      const socket = Reflect.construct(NativeWebSocket, arguments, new.target);
      sockets.add(socket);
      uncontrolled.push(`websocket ${socket.url}`);
      holdPeerEvents(socket, ["open", "message", "error", "close"],
        { type: "websocket", label: `websocket ${socket.url}`, url: normalizeUrl(socket.url) },
        (e) => e.type === "message" ? copyMessage(e)
          : e.type === "close" ? new CloseEvent("close", { code: e.code, reason: e.reason, wasClean: e.wasClean })
            : new Event(e.type));
      awaitAnswer(socket);
      return socket;
    };
    WebSocket.prototype = NativeWebSocket.prototype;
    for (const [k, v] of Object.entries({ CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 })) WebSocket[k] = v;
    N.defineProperty(WebSocket.prototype, "constructor", { value: WebSocket, writable: true, configurable: true });
    NativeWebSocket.prototype.send = function send() {
      const result = socketSend.apply(this, arguments);
      if (sockets.has(this)) awaitAnswer(this);
      return result;
    };
    NativeWebSocket.prototype.close = function close() {
      const result = socketClose.apply(this, arguments);
      if (sockets.has(this)) awaitAnswer(this); // the server's closing handshake
      return result;
    };
    window.WebSocket = WebSocket;
  }

  // ------------------------------------------------------------------ XMLHttpRequest
  let requestCounter = 0;
  const XHR_EVENTS = ["readystatechange", "loadstart", "progress", "abort", "error", "load", "timeout", "loadend"];

  function defineHandlerProperties(proto, types) {
    // on<type> properties with the browser's semantics: the handler takes its place among the
    // listeners when it is first set.
    for (const type of types) {
      N.defineProperty(proto, "on" + type, {
        configurable: true, enumerable: true,
        get() { return (this._handlers || {})[type] || null; },
        set(fn) {
          this._handlers = this._handlers || {};
          if (!(type in this._handlers)) {
            N.addEventListener.call(this, type, (e) => {
              const h = this._handlers[type];
              if (typeof h === "function") h.call(this, e);
            });
          }
          this._handlers[type] = typeof fn === "function" ? fn : null;
        },
      });
    }
  }

  class RuntimeXMLHttpRequest extends EventTarget {
    constructor() {
      super();
      this._x = new N.XMLHttpRequest();
      this._visible = 0; // readyState the page sees
      this._async = true;
      this._event = null;
    }
    get readyState() { return this._visible; }
    get status() { return this._visible >= 2 ? this._x.status : 0; }
    get statusText() { return this._visible >= 2 ? this._x.statusText : ""; }
    get responseURL() { return this._visible >= 2 ? this._x.responseURL : ""; }
    get response() { return this._visible === 4 ? this._x.response : (this.responseType === "" || this.responseType === "text" ? "" : null); }
    get responseText() { return this._visible === 4 ? this._x.responseText : ""; }
    get responseXML() { return this._visible === 4 ? this._x.responseXML : null; }
    get responseType() { return this._x.responseType; }
    set responseType(v) { this._x.responseType = v; }
    get timeout() { return this._x.timeout; }
    set timeout(v) { this._x.timeout = v; }
    get withCredentials() { return this._x.withCredentials; }
    set withCredentials(v) { this._x.withCredentials = v; }
    get upload() { return this._x.upload; }
    getResponseHeader(name) { return this._visible >= 2 ? this._x.getResponseHeader(name) : null; }
    getAllResponseHeaders() { return this._visible >= 2 ? this._x.getAllResponseHeaders() : ""; }
    setRequestHeader(name, value) { this._x.setRequestHeader(name, value); }
    overrideMimeType(type) { this._x.overrideMimeType(type); }
    _fire(type, init) {
      const e = type === "readystatechange" ? new Event(type) : new ProgressEvent(type, init || {});
      N.dispatchEvent.call(this, e);
    }
    open(method, url, async) {
      this._async = arguments.length < 3 || !!async;
      this._method = String(method).toUpperCase();
      this._url = String(url);
      this._x.open(...arguments);
      this._visible = 1;
      this._fire("readystatechange");
    }
    send(body) {
      if (!this._async) {
        this._x.send(body);
        for (const s of [2, 3, 4]) { this._visible = s; this._fire("readystatechange"); }
        this._fire(this._x.status ? "load" : "error");
        this._fire("loadend");
        return;
      }
      const creator = current;
      const origin = [0, ++requestCounter];
      const site = creationSite();
      const url = normalizeUrl(this._url);
      inflight++;
      const done = (outcome) => {
        inflight--;
        this._event = createEvent({
          category: "network", type: "xhr", creator,
          label: `XHR ${this._method} ${shortUrl(this._url)} ${outcome}`,
          params: { method: this._method, url, site }, origin, site,
          run: () => {
            this._event = null;
            for (const s of [2, 3, 4]) { this._visible = s; this._fire("readystatechange"); }
            this._fire(outcome, { lengthComputable: false });
            this._fire("loadend");
          },
        });
      };
      this._x.onload = () => done("load");
      this._x.onerror = () => done("error");
      this._x.ontimeout = () => done("timeout");
      this._x.onabort = () => { inflight--; };
      this._fire("loadstart");
      this._x.send(body);
    }
    abort() {
      if (this._event) { cancelEvent(this._event, creationSite()); this._event = null; }
      else if (this._x.readyState !== 4 && this._x.readyState !== 0) this._x.abort();
      if (this._visible >= 1 && this._visible < 4) {
        this._visible = 4;
        this._fire("readystatechange");
        this._fire("abort");
        this._fire("loadend");
      }
      this._visible = 0;
    }
  }
  defineHandlerProperties(RuntimeXMLHttpRequest.prototype, XHR_EVENTS);
  for (const [k, v] of Object.entries({ UNSENT: 0, OPENED: 1, HEADERS_RECEIVED: 2, LOADING: 3, DONE: 4 })) {
    RuntimeXMLHttpRequest[k] = v;
    RuntimeXMLHttpRequest.prototype[k] = v;
  }
  N.defineProperty(RuntimeXMLHttpRequest, "name", { value: "XMLHttpRequest" });
  window.XMLHttpRequest = RuntimeXMLHttpRequest;

  // ------------------------------------------------------------------ fetch
  const NULL_BODY = new Set([101, 103, 204, 205, 304]);

  function settledResponse(res, buffer) {
    let copy;
    try {
      copy = new N.Response(NULL_BODY.has(res.status) ? null : buffer, { status: res.status, statusText: res.statusText, headers: res.headers });
    } catch (e) {
      return res; // opaque responses (status 0) cannot be rebuilt; hand over the original
    }
    for (const key of ["url", "redirected", "type"]) N.defineProperty(copy, key, { value: res[key] });
    let used = false;
    const body = (convert) => function () {
      if (used) return Promise.reject(new TypeError("Failed to execute on 'Response': body stream already read"));
      used = true;
      try { return Promise.resolve(convert()); } catch (e) { return Promise.reject(e); }
    };
    const text = () => new TextDecoder().decode(buffer);
    N.defineProperty(copy, "bodyUsed", { get: () => used });
    copy.text = body(text);
    copy.json = body(() => JSON.parse(text()));
    copy.arrayBuffer = body(() => buffer.slice(0));
    copy.blob = body(() => new Blob([buffer], { type: res.headers.get("content-type") || "" }));
    return copy;
  }

  window.fetch = function fetch(input, init) {
    const creator = current;
    const origin = [0, ++requestCounter];
    const site = creationSite();
    const request = input instanceof Request ? input : null;
    const method = String((init && init.method) || (request && request.method) || "GET").toUpperCase();
    const rawUrl = request ? request.url : String(input);
    const url = normalizeUrl(rawUrl);
    const signal = (init && init.signal) || (request && request.signal);
    return new Promise((resolve, reject) => {
      let ev = null;
      inflight++;
      const arrive = (outcome, run) => {
        inflight--;
        if (signal && signal.aborted) return; // the abort already rejected the promise
        ev = createEvent({
          category: "network", type: "fetch", creator,
          label: `fetch ${method} ${shortUrl(rawUrl)} ${outcome}`,
          params: { method, url, site }, origin, site, run,
        });
      };
      if (signal) {
        N.addEventListener.call(signal, "abort", () => {
          if (ev) cancelEvent(ev, creationSite());
          reject(signal.reason || new DOMException("The user aborted a request.", "AbortError"));
        });
      }
      N.fetch(input, init).then(
        (res) => res.arrayBuffer().then(
          (buffer) => arrive("response", () => resolve(settledResponse(res, buffer))),
          (err) => arrive("error", () => reject(err)),
        ),
        (err) => arrive("error", () => reject(err)),
      );
    });
  };

  // ------------------------------------------------------------------ element loads, lifecycle
  const elementCreator = nativeWeakMap(); // element -> event that inserted it
  const loadSeen = new WeakSet();
  const dynamicScripts = new WeakSet();
  let loadsBuffered = false;

  function elementKey(el) {
    const src = el.currentSrc || el.src || el.href || el.data || "";
    return { tag: el.tagName.toLowerCase(), src: src ? normalizeUrl(src) : "", id: el.id || "" };
  }
  function elementText(el) {
    const k = elementKey(el);
    return `${k.tag}${k.id ? "#" + k.id : ""}${k.src ? " " + shortUrl(el.currentSrc || el.src || el.href) : ""}`;
  }

  // Images outside the document (new Image(), preloading) get their load and error events at the
  // element only: the runtime listens on the element itself from the moment a source is set.
  const detachedImages = new Set(); // detached images whose load has not arrived yet
  const hookedImages = new WeakSet();
  const sourceOrder = nativeWeakMap(); // detached image -> when its source was last set
  let sourcesSet = 0;
  function hookDetachedImage(img) {
    if (img.isConnected) return;
    sourceOrder.set(img, ++sourcesSet);
    if (!hookedImages.has(img)) {
      hookedImages.add(img);
      N.addEventListener.call(img, "load", onElementEvent, true);
      N.addEventListener.call(img, "error", onElementEvent, true);
    }
    if (!elementCreator.has(img)) elementCreator.set(img, current);
    loadSeen.delete(img);
    detachedImages.add(img);
  }
  const srcProperty = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  N.defineProperty(HTMLImageElement.prototype, "src", Object.assign({}, srcProperty, {
    set(value) { srcProperty.set.call(this, value); hookDetachedImage(this); },
  }));
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    const result = setAttribute.call(this, name, value);
    if (this instanceof HTMLImageElement && String(name).toLowerCase() === "src") hookDetachedImage(this);
    return result;
  };

  N.addEventListener.call(document, "load", onElementEvent, true);
  N.addEventListener.call(document, "error", onElementEvent, true);
  function onElementEvent(e) {
    const el = e.target;
    if (passThrough.has(e) || !(el instanceof N.Element) || el instanceof HTMLStyleElement) return;
    if (el instanceof HTMLScriptElement) {
      if (!heldScripts.has(el)) scriptSettled(el, e.type); // held ones: see onHeldScriptEvent
      return;
    }
    loadSeen.add(el);
    detachedImages.delete(el);
    if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) {
      try { if (el.contentWindow) uncontrolled.push(`frame ${elementText(el)}`); } catch (err) { /* cross-origin */ }
    }
    e.stopImmediatePropagation();
    const type = e.type;
    const creator = elementCreator.has(el) ? elementCreator.get(el) : null;
    const ev = createEvent({
      category: "network", type: `${type}`, creator,
      label: `${type} of ${elementText(el)}`,
      params: elementKey(el), origin: [1, documentOrder(el), sourceOrder.get(el) || 0],
      run: () => redispatch(el, new Event(type)),
    });
    loadPreds.push(ev.id);
  }
  function documentOrder(el) {
    // position in document order, for ordering simultaneous arrivals deterministically
    if (!el.isConnected) return Number.MAX_SAFE_INTEGER;
    let i = 0;
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
    while (walker.nextNode()) { if (walker.currentNode === el) return i; i++; }
    return i;
  }

  const lifecycle = { domContentLoaded: null, load: null };
  N.addEventListener.call(window, "DOMContentLoaded", (e) => {
    if (passThrough.has(e)) return;
    e.stopImmediatePropagation();
    const preds = [parse.lastChunk, ...deferScripts.map((s) => s.eventId)].filter(Boolean);
    lifecycle.domContentLoaded = createEvent({
      category: "lifecycle", type: "DOMContentLoaded", label: "DOMContentLoaded", creator: null,
      params: {}, preds, origin: [3, 0],
      run: () => redispatch(document, new Event("DOMContentLoaded", { bubbles: true })),
    }).id;
  }, true);
  N.addEventListener.call(window, "load", (e) => {
    if (passThrough.has(e) || e.target !== document) return;
    e.stopImmediatePropagation();
    const preds = [lifecycle.domContentLoaded, ...loadPreds].filter(Boolean);
    createEvent({
      category: "lifecycle", type: "load", label: "window load", creator: null,
      params: {}, preds, origin: [4, 0],
      run: () => redispatch(window, new Event("load")),
    });
  }, true);
  const loadPreds = []; // every resource-load event happens before window load

  // ------------------------------------------------------------------ scripts and parsing
  const parse = { chunks: 0, next: -1, lastChunk: null, done: false };
  const deferScripts = []; // {el, eventId}
  const scriptWaiters = new Map(); // element -> resolve
  const heldScripts = new WeakSet();
  const scriptOfEvent = new Map(); // event id -> held script element

  const scriptsDone = new WeakSet(); // held scripts that ran (or failed) before anyone waited

  function scriptSettled(el, type) {
    const waiter = scriptWaiters.get(el);
    if (waiter) { scriptWaiters.delete(el); waiter(type); } else scriptsDone.add(el);
  }

  function parseChunkEvent(index) {
    const ev = createEvent({
      category: "parse", type: "parse", label: `parse chunk ${index + 1}/${parse.chunks}`,
      creator: null, params: { index }, preds: parse.lastChunk ? [parse.lastChunk] : [],
      actuate: { kind: "chunk", index },
    });
    parse.lastChunk = ev.id;
    return ev;
  }

  function noticeScript(el) {
    // Every script that does not block the parser is an event of its own, held by the harness
    // at the network until dispatched. Parser-blocking scripts run inside their parse chunk.
    // Module scripts fetch their imports themselves: the harness serves the module graph at
    // once and module code runs when the browser runs it.
    if (!el.src || heldScripts.has(el) || el.type === "module") return;
    const dynamic = dynamicScripts.has(el);
    const deferred = !dynamic && !el.async && el.defer;
    if (!deferred && !dynamic && !el.async) return;
    heldScripts.add(el);
    // A script the page detaches while it loads (JSONP: container.innerHTML = … over it) still
    // runs and fires load at the element, out of the document's sight: listen on the element.
    N.addEventListener.call(el, "load", onHeldScriptEvent);
    N.addEventListener.call(el, "error", onHeldScriptEvent);
    const kind = deferred ? "defer" : "async";
    const record = { el, eventId: null, spec: null };
    const spec = {
      category: "network", type: "script", label: `${kind} script ${shortUrl(el.src)}`,
      params: { src: normalizeUrl(el.src), kind }, preds: [],
      actuate: { kind: "script", url: el.src },
    };
    if (!deferred) { record.eventId = createScriptEvent(spec, el).id; return; }
    // A deferred script cannot run before parsing ends, and deferred scripts run in order:
    // their events appear when the last parse chunk has run.
    record.spec = spec;
    deferScripts.push(record);
    if (parse.done) releaseDeferredScripts();
  }

  function onHeldScriptEvent(e) {
    if (!passThrough.has(e) && e.target === this) scriptSettled(this, e.type);
  }

  function createScriptEvent(spec, el) {
    const ev = createEvent(spec);
    scriptOfEvent.set(ev.id, el);
    loadPreds.push(ev.id);
    return ev;
  }

  function releaseDeferredScripts() {
    let prev = null;
    for (const record of deferScripts) {
      if (!record.eventId) {
        record.spec.preds = prev ? [prev] : [];
        record.eventId = createScriptEvent(record.spec, record.el).id;
      }
      prev = record.eventId;
    }
  }

  function noticeElement(el) {
    if (!elementCreator.has(el)) elementCreator.set(el, current);
    if (el instanceof HTMLScriptElement) noticeScript(el);
  }

  const observer = new N.MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (!(node instanceof N.Element)) continue;
        noticeElement(node);
        for (const child of N.querySelectorAll.call(node, "script,img,iframe,link,video,audio,object,embed")) noticeElement(child);
      }
    }
  });
  observer.observe(document, { childList: true, subtree: true });

  // Scripts inserted by page code: remember them, so they are told apart from parser-inserted.
  function markDynamic(node) {
    if (node instanceof HTMLScriptElement) dynamicScripts.add(node);
    else if (node instanceof N.Element) for (const s of N.querySelectorAll.call(node, "script")) dynamicScripts.add(s);
  }
  for (const [proto, names] of [
    [Node.prototype, ["appendChild", "insertBefore", "replaceChild"]],
    [Element.prototype, ["append", "prepend", "before", "after", "replaceWith", "insertAdjacentElement"]],
  ]) {
    for (const name of names) {
      const original = proto[name];
      proto[name] = function (...nodes) {
        for (const n of nodes) markDynamic(n);
        return original.apply(this, nodes);
      };
    }
  }

  // ------------------------------------------------------------------ running events
  function orderArrivals() {
    // Native arrivals within one settle get sequence numbers in a deterministic order
    // (request send order, then document order, then detached images in the order their source
    // was set), not in network arrival order.
    arrived.sort((a, b) => a.origin[0] - b.origin[0] || a.origin[1] - b.origin[1]
      || (a.origin[2] || 0) - (b.origin[2] || 0));
    for (const ev of arrived) ev.seq = ++seqCounter;
    arrived.length = 0;
  }

  function imagesInFlight() {
    if (detachedImages.size) return true;
    for (const img of document.images) {
      // The native getAttribute: the harness's own reads are not the page's accesses.
      if (img.loading === "lazy" || !N.getAttribute.call(img, "src")) continue;
      if (!loadSeen.has(img)) return true;
    }
    return false;
  }

  function documentFinishing() {
    // Parsing is over and no held deferred script stands in the way, yet DOMContentLoaded has
    // not come: the browser is still running module scripts (and fetching their imports).
    if (!parse.done || lifecycle.domContentLoaded !== null) return false;
    return deferScripts.every((r) => r.eventId && !pending.has(r.eventId));
  }

  function settle() {
    // Resolve once every native completion caused so far has arrived (so the pending set is
    // complete and the same in every run), or after the settle budget (a note is recorded).
    const budget = CONFIG.settleMs || 5000;
    const started = N.perfNow();
    return new Promise((resolve) => {
      let quiet = 0;
      const check = () => {
        const busy = inflight > 0 || imagesInFlight() || documentFinishing() || peersAnswering();
        quiet = busy ? 0 : quiet + 1;
        if (quiet >= 3) return resolve();
        if (N.perfNow() - started > budget) {
          errors.push({ kind: "harness", message: `native work still in flight after ${budget} ms (requests: ${inflight})`, site: null, event: current });
          return resolve();
        }
        if (busy) N.setTimeout(check, 2); else nativeTick(check);
      };
      nativeTick(check);
    });
  }

  function record(extra) {
    orderArrivals();
    const out = Object.assign({
      // The pending set changes by `created` (each with its due, prio and seq) and `gone`: a
      // page with 10^3 pending timers would otherwise send them all at every step.
      created: created.map(describe),
      gone: gone.slice(),
      errors: errors.slice(),
      accesses: N.stringify(entriesOf(accesses)), // one string: cheaper to hand to Python than many small arrays
      uncontrolled: uncontrolled.slice(),
      now: virtualNow,
    }, extra || {});
    created.length = 0; gone.length = 0; errors.length = 0; accesses = newAccessLog(); uncontrolled.length = 0;
    if (navigating !== undefined) { out.navigating = navigating; navigating = undefined; }
    return out;
  }

  function collectLogged() {
    const log = window.__webr4.log;
    // The log summarises its own entries; the runtime logs only event: locations, which the
    // log never touches, so adding the log's summary to the runtime's is summarising both.
    if (log && typeof log.flush === "function") for (const a of log.flush()) accesses.push(a);
  }

  function begin(id) {
    const ev = pending.get(id);
    if (!ev) return Promise.resolve(record({}));
    pending.delete(id);
    gone.push(id);
    virtualNow = Math.max(virtualNow, ev.due);
    current = id;
    accesses.push(["r", `event:${id}`, null, null]);
    if (ev.actuate) {
      return Promise.resolve({ actuate: ev.actuate, now: virtualNow });
    }
    return new Promise((resolve) => {
      nativeTick(() => {
        // Runs after the callback's task and its microtasks.
        settle().then(() => finishWith(resolve));
      });
      nativeTick(() => ev.run()); // an exception here reaches window.onerror like a native one
    }).then((out) => out);
  }

  function finishWith(resolve) {
    collectLogged();
    current = null;
    resolve(record());
  }

  function finish(id, actuation) {
    // Python has actuated `id` (released a parse chunk or a held script, or performed a user
    // action); wait for its effect, settle, and report.
    return new Promise((resolve) => {
      const afterEffect = () => settle().then(() => finishWith(resolve));
      if (actuation && actuation.kind === "chunk") {
        const index = actuation.index;
        const waitChunk = () => {
          if (parse.next > index) return afterEffect();
          if (N.perfNow() - startedAt > (CONFIG.eventMs || 10000)) {
            errors.push({ kind: "harness", message: `parse chunk ${index + 1} did not finish`, site: null, event: current });
            return afterEffect();
          }
          N.setTimeout(waitChunk, 1);
        };
        const startedAt = N.perfNow();
        waitChunk();
      } else if (actuation && actuation.kind === "script") {
        const el = scriptOfEvent.get(id);
        scriptOfEvent.delete(id);
        if (!el || scriptsDone.has(el)) return afterEffect();
        new Promise((r) => scriptWaiters.set(el, r)).then(afterEffect);
      } else {
        afterEffect();
      }
    });
  }

  // ------------------------------------------------------------------ running a stretch by itself
  // One Playwright round trip costs more than most events, so once no user action is left the
  // harness lets the page choose and run events itself, exactly as the harness would: the plan's
  // next pending id (ids that are not pending are skipped), else the default policy (least
  // [due, prio, seq]; none past the horizon). It stops at an event Python must actuate (without
  // starting it), when nothing is left, at the horizon, after `max` steps or `sliceMs` of wall
  // time. Steps that finished are kept in `stretch` so the harness can drain them when an event
  // hangs and it has to terminate the script.
  let stretch = null;

  function defaultChoice() {
    let best = null;
    for (const ev of pending.values()) {
      if (best === null || ev.due < best.due || (ev.due === best.due && (ev.prio < best.prio
          || (ev.prio === best.prio && (ev.seq || 0) < (best.seq || 0))))) best = ev;
    }
    return best;
  }

  function stretchReport(s, extra) {
    // One JSON string: a stretch of a thousand steps is far cheaper to hand over that way.
    return N.stringify(Object.assign({ steps: s.steps, skipped: s.skipped, consumed: s.consumed, before: s.before || null }, extra));
  }

  /* Native arrivals between two steps of a stretch (a worker's or a socket's message) are
     reported before the next choice, as the harness would learn of them: with the step that ran
     last, or in the stretch's `before` record when none has. */
  function reportArrivals(s) {
    if (!created.length) return;
    const late = record();
    const last = s.steps.length ? s.steps[s.steps.length - 1][2] : null;
    if (last === null) { s.before = late; return; }
    for (const key of ["created", "gone", "errors", "uncontrolled"]) last[key] = last[key].concat(late[key]);
    // Between steps only the runtime itself logs (creating or cancelling an event: writes of
    // digest null), so no increment straddles the two and summarising the two summaries
    // together is summarising everything the step and the arrivals logged.
    const merged = newAccessLog();
    for (const a of JSON.parse(last.accesses).concat(JSON.parse(late.accesses))) merged.push(a);
    last.accesses = N.stringify(entriesOf(merged));
    last.now = Math.max(last.now, late.now);
  }

  function runStretch(plan, horizon, max, sliceMs) {
    const started = N.perfNow();
    stretch = { steps: [], skipped: [], consumed: 0, running: null, halted: false };
    const mine = stretch;
    const stop = (why, extra) => stretchReport(mine, Object.assign({ stop: why }, extra));
    return new Promise((resolve) => {
      const next = () => {
        if (mine.halted) return resolve(stop("halted"));
        if (mine.steps.length >= max || N.perfNow() - started > sliceMs) return resolve(stop("slice"));
        reportArrivals(mine);
        let chosen = null;
        let planned = false;
        while (mine.consumed < plan.length && chosen === null) {
          const id = plan[mine.consumed++];
          if (pending.has(id)) { chosen = pending.get(id); planned = true; } else mine.skipped.push(id);
        }
        if (chosen === null) {
          chosen = defaultChoice();
          if (chosen === null) return resolve(stop("done"));
          if (chosen.due > horizon) return resolve(stop("horizon"));
        }
        if (chosen.actuate) return resolve(stop("actuate", { id: chosen.id, planned }));
        mine.running = [chosen.id, planned];
        begin(chosen.id).then((out) => {
          mine.running = null;
          mine.steps.push([chosen.id, planned, out]);
          if (out.navigating !== undefined) return resolve(stop("navigated"));
          next();
        });
      };
      next();
    });
  }

  /** Stops the current stretch and hands over (as JSON) what it finished and the event it was
   *  running. */
  function drainStretch() {
    const drained = stretch || { steps: [], skipped: [], consumed: 0, running: null };
    drained.halted = true;
    stretch = null;
    return stretchReport(drained, { running: drained.running });
  }

  // Called by the inline marker at the end of the head (index -1) and of each parse chunk.
  function chunkEnd(index, total) {
    const script = document.currentScript;
    if (script) script.remove();
    parse.chunks = total;
    parse.next = index + 1;
    if (index + 1 < parse.chunks) parseChunkEvent(index + 1);
    else { parse.done = true; releaseDeferredScripts(); }
  }

  // The head is parsed before the harness can act: it is the first event, already running.
  const headEvent = createEvent({
    category: "parse", type: "parse", label: "parse head", creator: null, params: { index: -1 },
  });
  pending.delete(headEvent.id);
  gone.push(headEvent.id);
  current = headEvent.id;
  parse.lastChunk = headEvent.id;

  /** Called once by the harness after navigation; `chunks` is the number of parse chunks after
   *  the head (0 when the document was not split). Resolves, once the head is parsed and has
   *  settled, to a record whose `ran` names the head event. */
  function start(chunks) {
    parse.chunks = chunks || 0;
    const headDone = () => (parse.chunks === 0 ? document.readyState !== "loading" : parse.next >= 0);
    return new Promise((resolve) => {
      const wait = () => {
        if (!headDone()) return N.setTimeout(wait, 1);
        if (parse.chunks === 0) { parse.done = true; releaseDeferredScripts(); }
        settle().then(() => { collectLogged(); current = null; resolve(record({ ran: headEvent.id })); });
      };
      wait();
    });
  }

  const api = {
    start,
    begin,
    finish,
    runStretch,
    drainStretch,
    chunkEnd,
    /** A fresh log for one event's accesses (access_log.js records into it). */
    newAccessLog,
    /** Marks the start of a user action performed by the harness at virtual time `due`. */
    userBegin(id, due) {
      current = id;
      virtualNow = Math.max(virtualNow, due || 0);
      accesses.push(["r", `event:${id}`, null, null]);
    },
  };
  N.defineProperty(window, "__webr4", { value: api, enumerable: false, configurable: false, writable: false });
})();
//# sourceURL=__webr4_runtime__.js
