// webr4 runtime: window and port messages, workers and WebSockets as events.

// ------------------------------------------------------------------ messages
const passThrough = newWeakSet(); // events the runtime dispatches itself

function redispatch(target, event) {
  passThrough.add(event);
  return call(N.dispatchEvent, target, event);
}

window.postMessage = function postMessage(message, targetOrigin, transfer) {
  const opts = typeof targetOrigin === "object" && targetOrigin !== null ? targetOrigin : { targetOrigin, transfer };
  const data = N.structuredClone(message);
  const site = creationSite();
  const lastOwn = lastMessageEvent && pending.has(lastMessageEvent) ? [lastMessageEvent] : [];
  const ev = createEvent({
    category: "message", type: "postMessage", label: `window message${site ? " from " + shortSite(site) : ""}`,
    params: { site }, preds: lastOwn, site,
    run: () => redispatch(window, new N.MessageEvent("message", { data, origin: location.origin, source: window, ports: opts.transfer || [] })),
  });
  lastMessageEvent = ev.id;
};
let lastMessageEvent = null;
call(N.addEventListener, window, "message", (e) => {
  if (passThrough.has(e)) return;
  // A message from another window (a frame, an opener): hold it like any native arrival.
  e.stopImmediatePropagation();
  const copy = new N.MessageEvent("message", { data: e.data, origin: e.origin, source: e.source, ports: [...e.ports] });
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
      call(N.addEventListener, this, "message", (e) => { if (typeof this._handler === "function") call(this._handler, this, e); });
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
      run: () => { if (!target._closed) call(N.dispatchEvent, target, new N.MessageEvent("message", { data })); },
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
const peerWaits = newSet(); // {peer, eventId: an event that must run first, or null; since}
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
      run: () => { A.splice(ids, A.indexOf(ids, ev.id), 1); redispatch(peer, copy); },
    });
    A.push(ids, ev.id);
  };
  for (const type of types) call(N.addEventListener, peer, type, hold, true);
  return ids;
}
function copyMessage(e) {
  return new N.MessageEvent("message", { data: e.data, origin: e.origin, ports: [...e.ports] });
}
if (typeof window.Worker === "function") {
  const NativeWorker = window.Worker;
  const workerPost = NativeWorker.prototype.postMessage;
  const workerTerminate = NativeWorker.prototype.terminate;
  const pendingOf = newWeakMap(); // worker -> ids of its messages not yet dispatched
  const Worker = function Worker(url, options) {
    if (!new.target) return apply(NativeWorker, this, arguments); // throws the native TypeError
    const worker = Reflect.construct(NativeWorker, arguments, new.target);
    const href = new URL(String(url), document.baseURI).href;
    A.push(uncontrolled, `worker ${shortUrl(href)}`);
    pendingOf.set(worker, holdPeerEvents(worker, ["message", "error"],
      { type: "worker", label: `worker ${shortUrl(href)}`, url: normalizeUrl(href) },
      (e) => e.type === "message" ? copyMessage(e) : new N.ErrorEvent("error", {
        message: e.message, filename: e.filename, lineno: e.lineno, colno: e.colno, error: e.error, cancelable: true })));
    let eventId = null;
    if (call(N.regexpTest, /^https?:/, href)) {
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
    const result = apply(workerPost, this, arguments);
    if (pendingOf.has(this)) awaitAnswer(this);
    return result;
  };
  NativeWorker.prototype.terminate = function terminate() {
    // Messages the worker sent that the page has not seen are never dispatched.
    for (const id of (pendingOf.get(this) || []).splice(0)) cancelEvent(pending.get(id), creationSite());
    answered(this);
    return apply(workerTerminate, this, arguments);
  };
  window.Worker = Worker;
}
if (typeof window.WebSocket === "function") {
  const NativeWebSocket = window.WebSocket;
  const socketSend = NativeWebSocket.prototype.send;
  const socketClose = NativeWebSocket.prototype.close;
  const sockets = newWeakSet();
  const WebSocket = function WebSocket(url, protocols) {
    if (!new.target) return apply(NativeWebSocket, this, arguments); // throws the native TypeError
    // readyState stays native: it reads OPEN once connected, even while `open` is pending.
    const socket = Reflect.construct(NativeWebSocket, arguments, new.target);
    sockets.add(socket);
    A.push(uncontrolled, `websocket ${socket.url}`);
    holdPeerEvents(socket, ["open", "message", "error", "close"],
      { type: "websocket", label: `websocket ${socket.url}`, url: normalizeUrl(socket.url) },
      (e) => e.type === "message" ? copyMessage(e)
        : e.type === "close" ? new N.CloseEvent("close", { code: e.code, reason: e.reason, wasClean: e.wasClean })
          : new N.Event(e.type));
    awaitAnswer(socket);
    return socket;
  };
  WebSocket.prototype = NativeWebSocket.prototype;
  for (const [k, v] of Object.entries({ CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 })) WebSocket[k] = v;
  N.defineProperty(WebSocket.prototype, "constructor", { value: WebSocket, writable: true, configurable: true });
  NativeWebSocket.prototype.send = function send() {
    const result = apply(socketSend, this, arguments);
    if (sockets.has(this)) awaitAnswer(this);
    return result;
  };
  NativeWebSocket.prototype.close = function close() {
    const result = apply(socketClose, this, arguments);
    if (sockets.has(this)) awaitAnswer(this); // the server's closing handshake
    return result;
  };
  window.WebSocket = WebSocket;
}
