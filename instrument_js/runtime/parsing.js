// webr4 runtime: parse chunks, held (async, defer, dynamic) scripts, dynamic imports, and the head event.

// ------------------------------------------------------------------ scripts and parsing
const parse = { chunks: 0, next: -1, lastChunk: null, done: false };
const deferScripts = []; // {el, eventId}
const scriptWaiters = newMap(); // element -> resolve
const heldScripts = newWeakSet();
const scriptOfEvent = newMap(); // event id -> held script element
const eventOfScript = newWeakMap(); // held script element -> its event id

const scriptsDone = newWeakSet(); // held scripts that ran (or failed) before anyone waited

/* A held script can run without its own release: Chromium asks the network once for a URL that
   several script elements want at once (and may serve a later one from its memory cache), and runs
   each of them when that one response comes. Such a script ran in the event that released the
   response (or inserted the element): its own event, still pending, then has nothing left to run
   and leaves the pending set there, as if that event had cancelled it. */
function scriptSettled(el, type) {
  const waiter = scriptWaiters.get(el);
  if (waiter) { scriptWaiters.delete(el); waiter(type); return; }
  scriptsDone.add(el);
  const ev = pending.get(eventOfScript.get(el));
  if (ev) {
    scriptOfEvent.delete(ev.id);
    cancelEvent(ev, null);
  }
}

/* Rewritten code hands the runtime each dynamic import (`import(u)` becomes
   `__webr4.importing(import(__webr4.importUrl(u, base)))`, `base` the URL `u` is relative to).
   The browser fetches the module graph by itself and runs its code when it has it all, so:
   - the harness must serve the graph at once: it knows a literal URL from the importing
     script's source, but not a computed one (`${root}/components/${name}.js`), which
     `importUrl` tells it with a request of its own (the harness takes the two requests in
     either order);
   - the importing event stays in flight until the import settles, as an event that sent a
     request waits for its response. The page gets a promise that settles as the import's does:
     one that rejects unhandled is reported as Chromium reports the import's own (a handler on
     the import's promise would mark that one handled). */
const MODULE_NOTICE = "/__webr4__/module?url="; // MODULE_NOTICE_PATH of webr4/instrument/modules.py
const URL_SPECIFIER = /^(\.{0,2}\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/; // bare ones belong to import maps

const noticedModules = newSet(); // URLs told once: the harness serves a known module at once

function importUrl(specifier, base) {
  if (typeof specifier !== "string" || !call(N.regexpTest, URL_SPECIFIER, specifier)) return specifier;
  let url;
  try { url = new N.URL(specifier, base).href; } catch (e) { return specifier; } // import() rejects it
  if (noticedModules.has(url)) return specifier;
  noticedModules.add(url);
  const notice = N.fetch(location.origin + MODULE_NOTICE + N.encodeURIComponent(url));
  then(notice, () => {}, () => {});
  return specifier;
}

function importing(promise) {
  inflight++;
  return then(promise,
    (namespace) => { inflight--; return namespace; },
    (reason) => { inflight--; throw reason; });
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

/* Scripts that document.write puts in the parser's way (a boot loader writing <script src>) block
   the parser as in Chromium: each loads and runs within the event that wrote it, before parsing
   goes on. The harness holds their responses like those of any script the document did not list,
   so the writing event hands each URL over to be released (`releaseRequest`) before it can end. */
const writtenScripts = []; // URLs, in the order the parser requests them
const writtenSeen = newWeakSet();
let writing = 0; // > 0 while document.write runs
let writtenCount = 0; // written scripts noticed so far

/* Chromium may leave what document.write gave it unparsed until the writing script returns (it
   does while a style sheet written before is loading, as a boot loader writing its <link> and
   <script> tags has it): the parser then inserts those scripts after the write, before anything
   of the document's own. `writtenAhead` counts them, so that they are released as written too. */
let writtenAhead = 0;
// DOMParser parses with scripting off: what a <noscript> holds is markup there, text for the page.
const BLOCKING_SCRIPT = "script[src]:not([async]):not([defer]):not([type=module]):not(noscript *)";

/** How many parser-blocking scripts `markup` (document.write's arguments) holds, parsed as in a
 *  body (in a head, a parser with scripting off lets a <noscript>'s script out of it). */
function blockingScriptsIn(markup) {
  const parsed = call(N.parseFromString, new N.DOMParser(), "<body>" + A.join(markup, ""), "text/html");
  return call(N.querySelectorAll, parsed.documentElement, BLOCKING_SCRIPT).length;
}

/* Who waits for the parser to move on (`start` for the head, `finish` for a parse chunk) looks
   again at once when it does — a chunk ended, a written script was met — rather than at its next
   poll; the poll stays, for what no hook sees (a document that is not split finishing). */
let parserWaiter = null;

/** Calls `check` in a task of its own when the parser next moves on, or after `ms` at the latest. */
function whenParserMoves(check, ms) {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    if (parserWaiter === once) parserWaiter = null;
    check();
  };
  parserWaiter = once;
  N.setTimeout(once, ms);
}

function parserMoved() {
  if (parserWaiter) nativeTick(parserWaiter);
}

function releaseRequest() {
  return { actuate: { kind: "script", url: A.shift(writtenScripts), worker: false }, now: virtualNow };
}

/* A script whose URL never reaches the network (data:, blob:) cannot be held there: the browser
   runs it as soon as it has read it, a task after its insertion. An async one runs as part of the
   event that inserted it, which stays in flight until the script has loaded (or failed), so no
   other event can come between them in one execution and not in another. An HTML-imports
   polyfill runs each module so, the next inserted from the last one's load. */
const UNHELD_URL = /^(data|blob):/i;
const CLASSIC_TYPE = /^\s*((text|application)\/(x-)?(java|ecma)script|text\/(jscript|livescript))?\s*$/i;
const scriptsInFlight = newWeakSet();

function runWithInserter(el) {
  scriptsInFlight.add(el);
  inflight++;
  const loaded = () => {
    call(N.removeEventListener, el, "load", loaded);
    call(N.removeEventListener, el, "error", loaded);
    inflight--;
  };
  call(N.addEventListener, el, "load", loaded);
  call(N.addEventListener, el, "error", loaded);
}

function noticeScript(el) {
  // Every script that does not block the parser is an event of its own, held by the harness
  // at the network until dispatched. Parser-blocking scripts run inside their parse chunk.
  // Module scripts fetch their imports themselves: the harness serves the module graph at
  // once and module code runs when the browser runs it.
  if (!el.src || heldScripts.has(el) || scriptsInFlight.has(el) || el.type === "module") return;
  const dynamic = dynamicScripts.has(el);
  if (dynamic && el.async && !el.noModule && call(N.regexpTest, UNHELD_URL, el.src)
      && call(N.regexpTest, CLASSIC_TYPE, el.type)) {
    runWithInserter(el);
    return;
  }
  const deferred = !dynamic && !el.async && el.defer;
  if (!deferred && !dynamic && !el.async) {
    if ((writing || writtenAhead > 0) && !writtenSeen.has(el)) {
      if (!writing) writtenAhead--;
      writtenSeen.add(el);
      writtenCount++;
      A.push(writtenScripts, el.src);
      parserMoved();
    }
    return;
  }
  heldScripts.add(el);
  // A script the page detaches while it loads (JSONP: container.innerHTML = … over it) still
  // runs and fires load at the element, out of the document's sight: listen on the element.
  call(N.addEventListener, el, "load", onHeldScriptEvent);
  call(N.addEventListener, el, "error", onHeldScriptEvent);
  const kind = deferred ? "defer" : "async";
  const record = { el, eventId: null, spec: null };
  const spec = {
    category: "network", type: "script", label: `${kind} script ${shortUrl(el.src)}`,
    params: { src: normalizeUrl(el.src), kind }, preds: [],
    actuate: { kind: "script", url: el.src, worker: false },
  };
  if (!deferred) { record.eventId = createScriptEvent(spec, el).id; return; }
  // A deferred script cannot run before parsing ends, and deferred scripts run in order:
  // their events appear when the last parse chunk has run.
  record.spec = spec;
  A.push(deferScripts, record);
  if (parse.done) releaseDeferredScripts();
}

function onHeldScriptEvent(e) {
  if (!passThrough.has(e) && e.target === this) scriptSettled(this, e.type);
}

function createScriptEvent(spec, el) {
  const ev = createEvent(spec);
  scriptOfEvent.set(ev.id, el);
  eventOfScript.set(el, ev.id);
  A.push(loadPreds, ev.id);
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
  if (el instanceof N.HTMLScriptElement) noticeScript(el);
}

function noticeMutations(records) {
  for (const r of records) {
    for (const node of r.addedNodes) {
      if (!(node instanceof N.Element)) continue;
      noticeElement(node);
      for (const child of call(N.querySelectorAll, node, "script,img,iframe,link,video,audio,object,embed")) noticeElement(child);
    }
  }
}
const observer = new N.MutationObserver(noticeMutations);
observer.observe(document, { childList: true, subtree: true });

// What document.write inserted is noticed before it returns, while it is known to be written.
for (const name of ["write", "writeln"]) {
  const native = Document.prototype[name];
  Document.prototype[name] = function (...markup) {
    writing++;
    const countBefore = writtenCount;
    try {
      const result = apply(native, this, markup);
      noticeMutations(call(N.takeRecords, observer));
      const unparsed = blockingScriptsIn(markup) - (writtenCount - countBefore);
      if (unparsed > 0) writtenAhead += unparsed;
      return result;
    } finally {
      writing--;
    }
  };
}

// Scripts inserted by page code: remember them, so they are told apart from parser-inserted.
function markDynamic(node) {
  if (node instanceof N.HTMLScriptElement) dynamicScripts.add(node);
  else if (node instanceof N.Element) for (const s of call(N.querySelectorAll, node, "script")) dynamicScripts.add(s);
}
for (const [proto, names] of [
  [Node.prototype, ["appendChild", "insertBefore", "replaceChild"]],
  [Element.prototype, ["append", "prepend", "before", "after", "replaceWith", "insertAdjacentElement"]],
]) {
  for (const name of names) {
    const original = proto[name];
    proto[name] = function (...nodes) {
      for (const n of nodes) markDynamic(n);
      return apply(original, this, nodes);
    };
  }
}

// Called by the inline marker at the end of the head (index -1) and of each parse chunk.
function chunkEnd(index, total) {
  const script = document.currentScript;
  if (script) script.remove();
  parse.chunks = total;
  parse.next = index + 1;
  if (index + 1 < parse.chunks) parseChunkEvent(index + 1);
  else { parse.done = true; releaseDeferredScripts(); }
  parserMoved();
}

// The head is parsed before the harness can act: it is the first event, already running.
const headEvent = createEvent({
  category: "parse", type: "parse", label: "parse head", creator: null, params: { index: -1 },
});
pending.delete(headEvent.id);
A.push(gone, headEvent.id);
current = headEvent.id;
parse.lastChunk = headEvent.id;
