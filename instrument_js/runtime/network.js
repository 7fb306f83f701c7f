// webr4 runtime: XMLHttpRequest and fetch completions as events.

// ------------------------------------------------------------------ XMLHttpRequest
let requestCounter = 0;
const XHR_EVENTS = ["readystatechange", "loadstart", "progress", "abort", "error", "load", "timeout", "loadend"];

/** The lengths of a progress event of the native request `x`, `e`, as Chromium gives them for the
 *  response as the server sent it: the body's length is known from its Content-Length alone, and
 *  not when it was encoded or chunked on the way. webr4 serves the body decoded and whole, with
 *  the headers as recorded (`webr4/browser/network.py`), and Chromium takes the length of the
 *  body it was handed instead: only the bytes loaded are the page's. */
function lengthsOf(x, e) {
  // CORS hides a cross-origin response's Content-Encoding unless the server exposes it: its body
  // then looks sent as it is, and its length is unknown only when the decoded bytes outnumber the
  // declared ones, as they do for all but tiny bodies.
  const declared = x.getResponseHeader("content-length");
  const framed = x.getResponseHeader("content-encoding") !== null || x.getResponseHeader("transfer-encoding") !== null;
  const length = declared === null || framed ? 0 : +declared;
  const lengthComputable = length > 0 && e.loaded <= length;
  return { lengthComputable, loaded: e.loaded, total: lengthComputable ? length : 0 };
}

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
          call(N.addEventListener, this, type, (e) => {
            const h = this._handlers[type];
            if (typeof h === "function") call(h, this, e);
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
    this._x = new this._Native();
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
  _fire(type, lengths) {
    const e = type === "readystatechange" ? new N.Event(type) : new N.ProgressEvent(type, lengths || {});
    call(N.dispatchEvent, this, e);
  }
  /** Keeps what the native request dispatches from now on, for `_redispatch`: its state changes
   *  and progress events, each with the state it saw, in order, in the list returned. Calls
   *  `settle(outcome, lengths)` when it ends in load, error or timeout, with that event's lengths. */
  _follow(settle) {
    const happened = [];
    const x = this._x;
    x.onreadystatechange = () => { A.push(happened, { type: "readystatechange", state: x.readyState }); };
    x.onprogress = (e) => { A.push(happened, { type: "progress", state: x.readyState, lengths: lengthsOf(x, e) }); };
    x.onload = (e) => settle("load", lengthsOf(x, e));
    x.onerror = (e) => settle("error", lengthsOf(x, e));
    x.ontimeout = (e) => settle("timeout", lengthsOf(x, e));
    return happened;
  }
  /** Dispatches to the page what the native request dispatched (`_follow`), as Chromium did:
   *  each state change and progress event with its lengths, then `outcome` and loadend. */
  _redispatch(happened, outcome, lengths) {
    for (let i = 0; i < happened.length; i++) {
      const event = happened[i];
      this._visible = event.state;
      this._fire(event.type, event.lengths);
    }
    this._fire(outcome, lengths);
    this._fire("loadend", lengths);
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
      const ended = {};
      const happened = this._follow((outcome, lengths) => { ended.outcome = outcome; ended.lengths = lengths; });
      this._x.send(body); // a network error throws here, before any event, as in Chromium
      this._redispatch(happened, ended.outcome, ended.lengths);
      return;
    }
    const creator = current;
    const origin = [0, ++requestCounter];
    const site = creationSite();
    const base = this._window.document.baseURI;
    const url = normalizeUrl(this._url, base);
    inflight++;
    const happened = this._follow((outcome, lengths) => {
      inflight--;
      this._event = createEvent({
        category: "network", type: "xhr", creator,
        label: `XHR ${this._method} ${shortUrl(this._url, base)} ${outcome}`,
        params: { method: this._method, url, site }, origin, site,
        run: () => {
          this._event = null;
          this._redispatch(happened, outcome, lengths);
        },
      });
    });
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
/** The window whose requests these are (its document's base URL resolves theirs), and the
 *  native constructor of the request each one drives. */
function requestsOf(Requests, win, Native) {
  N.defineProperty(Requests.prototype, "_window", { value: win });
  N.defineProperty(Requests.prototype, "_Native", { value: Native });
  return Requests;
}
window.XMLHttpRequest = requestsOf(RuntimeXMLHttpRequest, window, N.XMLHttpRequest);
/** `XMLHttpRequest` of a same-origin child frame's window `win` (frames.js), whose native
 *  constructor is `Native`: each completion an event of the one pending set. */
function frameXMLHttpRequest(win, Native) {
  const Requests = class XMLHttpRequest extends RuntimeXMLHttpRequest {};
  return requestsOf(Requests, win, Native);
}

// ------------------------------------------------------------------ fetch
const NULL_BODY = newSet([101, 103, 204, 205, 304]);

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
    if (used) return rejected(new TypeError("Failed to execute on 'Response': body stream already read"));
    used = true;
    try { return resolved(convert()); } catch (e) { return rejected(e); }
  };
  const text = () => new TextDecoder().decode(buffer);
  N.defineProperty(copy, "bodyUsed", { get: () => used });
  copy.text = body(text);
  copy.json = body(() => N.parse(text()));
  copy.arrayBuffer = body(() => buffer.slice(0));
  copy.blob = body(() => new Blob([buffer], { type: res.headers.get("content-type") || "" }));
  return copy;
}

/** Puts `fetch` of `win` (the top frame's window, or a same-origin child frame's, see
 *  frames.js), whose native is `nativeFetch`, under control: each response or failure becomes an
 *  event of the one pending set. */
function installFetch(win, nativeFetch) {
  win.fetch = function fetch(input, init) {
    const creator = current;
    const origin = [0, ++requestCounter];
    const site = creationSite();
    const request = input instanceof win.Request ? input : null;
    const method = String((init && init.method) || (request && request.method) || "GET").toUpperCase();
    const rawUrl = request ? request.url : String(input);
    const base = win.document.baseURI;
    const url = normalizeUrl(rawUrl, base);
    const signal = (init && init.signal) || (request && request.signal);
    return new NativePromise((resolve, reject) => {
      let ev = null;
      inflight++;
      const arrive = (outcome, run) => {
        inflight--;
        if (signal && signal.aborted) return; // the abort already rejected the promise
        ev = createEvent({
          category: "network", type: "fetch", creator,
          label: `fetch ${method} ${shortUrl(rawUrl, base)} ${outcome}`,
          params: { method, url, site }, origin, site, run,
        });
      };
      if (signal) {
        call(N.addEventListener, signal, "abort", () => {
          if (ev) cancelEvent(ev, creationSite());
          reject(signal.reason || new DOMException("The user aborted a request.", "AbortError"));
        });
      }
      // A fetch the page's Content Security Policy refuses is rejected before fetch() returns
      // (one blocked as mixed content fails a task later, like a failed request): its rejection
      // comes before any reaction queued after it, and the page sees it in the event that made the
      // request, as in Chromium, not in an event of its own.
      let atOnce = true;
      // No callback returns a promise: resolving with one would look up its `then`, the page's.
      then(nativeFetch(input, init),
        (res) => {
          then(res.arrayBuffer(),
            (buffer) => arrive("response", () => resolve(settledResponse(res, buffer))),
            (err) => arrive("error", () => reject(err)));
        },
        (err) => {
          if (!atOnce) return arrive("error", () => reject(err));
          inflight--;
          reject(err);
        },
      );
      then(resolved(), () => { atOnce = false; });
    });
  };
}
installFetch(window, N.fetch);
