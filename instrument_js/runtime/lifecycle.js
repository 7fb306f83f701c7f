// webr4 runtime: load and error events of elements, DOMContentLoaded and window load.

// ------------------------------------------------------------------ element loads, lifecycle
const elementCreator = newWeakMap(); // element -> event that inserted it
const loadSeen = newWeakSet();
const dynamicScripts = newWeakSet();
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
const detachedImages = newSet(); // images detached, or listened on and maybe soon detached, whose load has not arrived yet
const hookedImages = newWeakSet();
const sourceOrder = newWeakMap(); // detached image -> when its source was last set
let sourcesSet = 0;
function hookDetachedImage(img) {
  // A new source is a new load to wait for, in the document too (settle, imagesInFlight): an
  // image whose first load or error was seen would otherwise load its next source on its own time.
  loadSeen.delete(img);
  if (img.isConnected) {
    // The page may take it out of the document before the new source has loaded (Leaflet blanks
    // a tile, then removes it): its load is waited for as a detached image's, once the runtime
    // listens on the element itself and so sees that load wherever the image is.
    if (hookedImages.has(img) && img.loading !== "lazy") detachedImages.add(img);
    return;
  }
  sourceOrder.set(img, ++sourcesSet);
  if (!hookedImages.has(img)) {
    hookedImages.add(img);
    call(N.addEventListener, img, "load", onElementEvent, true);
    call(N.addEventListener, img, "error", onElementEvent, true);
  }
  if (!elementCreator.has(img)) elementCreator.set(img, current);
  detachedImages.add(img);
}
const srcProperty = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
N.defineProperty(HTMLImageElement.prototype, "src", N.assign({}, srcProperty, {
  set(value) { call(srcProperty.set, this, value); hookDetachedImage(this); },
}));
const setAttribute = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (name, value) {
  const result = call(setAttribute, this, name, value);
  if (this instanceof N.HTMLImageElement && String(name).toLowerCase() === "src") hookDetachedImage(this);
  return result;
};

// A load the page's policy blocks never reaches the network: Chromium reports the violation and
// fires the element's error event at once, in the tasks right after, which no other event's
// timing decides. That error reaches the page as Chromium fires it, not as an event of its own;
// so do the violation events, and the trace lists both as uncontrolled.
// The URLs are compared without their scheme: an https: page asks for an http: image over https:
// (mixed content is upgraded), and the violation names the URL it asked for.
const blockedUrls = newSet(); // what the page's policy refused to load (it only ever tightens)
const schemeless = (url) => url.replace(/^https?:/, "");
call(N.addEventListener, window, "securitypolicyviolation", (e) => {
  A.push(uncontrolled, `securitypolicyviolation ${e.effectiveDirective} ${e.blockedURI}`);
  if (e.disposition === "enforce" && e.blockedURI) blockedUrls.add(schemeless(normalizeUrl(e.blockedURI)));
}, true);

// In the capture phase, before any listener of the page's on the way: an element's error passes
// the window, where a page's error reporter listens, and would reach it natively too; its load
// stops at the document, as the DOM's event path has it.
call(N.addEventListener, document, "load", onElementEvent, true);
call(N.addEventListener, window, "error", onElementEvent, true);
function onElementEvent(e) {
  const el = e.target;
  if (passThrough.has(e) || !(el instanceof N.Element) || el instanceof N.HTMLStyleElement) return;
  if (el instanceof N.HTMLScriptElement) {
    if (!heldScripts.has(el)) scriptSettled(el, e.type); // held ones: see onHeldScriptEvent
    return;
  }
  loadSeen.add(el);
  detachedImages.delete(el);
  if (e.type === "error" && blockedUrls.has(schemeless(elementKey(el).src))) {
    A.push(uncontrolled, `error of ${elementText(el)}, refused by the page's policy`);
    return;
  }
  if (!(el instanceof N.HTMLLinkElement)) unwaitedLoads++;
  if (el instanceof N.HTMLIFrameElement || el instanceof N.HTMLFrameElement) {
    // a frame the runtime did not adopt (frames.js): another origin's, or a sandboxed one
    if (el.contentWindow && !adoptedFrames.has(el.contentWindow)) A.push(uncontrolled, `frame ${elementText(el)}`);
  }
  e.stopImmediatePropagation();
  const type = e.type;
  const creator = elementCreator.has(el) ? elementCreator.get(el) : null;
  const ev = createEvent({
    category: "network", type: `${type}`, creator,
    label: `${type} of ${elementText(el)}`,
    params: elementKey(el), origin: [1, documentOrder(el), sourceOrder.get(el) || 0],
    run: () => redispatch(el, new N.Event(type)),
  });
  A.push(loadPreds, ev.id);
}
function documentOrder(el) {
  // position in document order, for ordering simultaneous arrivals deterministically
  if (!el.isConnected) return Number.MAX_SAFE_INTEGER;
  let i = 0;
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
  while (walker.nextNode()) { if (walker.currentNode === el) return i; i++; }
  return i;
}

const lifecycle = { domContentLoaded: null, domReadyRan: false, loadArrived: false };
call(N.addEventListener, window, "DOMContentLoaded", (e) => {
  if (passThrough.has(e)) return;
  e.stopImmediatePropagation();
  const preds = A.filter(A.concat([parse.lastChunk], A.map(deferScripts, (s) => s.eventId)), Boolean);
  lifecycle.domContentLoaded = createEvent({
    category: "lifecycle", type: "DOMContentLoaded", label: "DOMContentLoaded", creator: null,
    params: {}, preds, origin: [3, 0],
    run: () => {
      lifecycle.domReadyRan = true;
      // Made before what the handlers make, so that it keeps its place in the default order.
      const load = lifecycle.loadArrived ? createLoadEvent(undefined) : null;
      redispatch(document, new N.Event("DOMContentLoaded", { bubbles: true }));
      if (load) nativeTick(() => loadAfterDomReady(load)); // once the handlers' microtasks have run
    },
  }).id;
}, true);
call(N.addEventListener, window, "load", (e) => {
  if (passThrough.has(e) || e.target !== document) return;
  e.stopImmediatePropagation();
  lifecycle.loadArrived = true;
  if (lifecycle.domReadyRan || lifecycle.domContentLoaded === null) createLoadEvent([4, 0]);
}, true);
const loadPreds = []; // every resource-load event happens before window load
const loadEventPreds = () => A.filter(A.concat([lifecycle.domContentLoaded], loadPreds), Boolean);
let unwaitedLoads = 0; // loads (and errors) of elements nothing waits for: all but style sheets

/** The window's load event, after DOMContentLoaded and every resource-load event so far;
 *  `origin` as createEvent's (undefined: it takes its place in the default order now). */
function createLoadEvent(origin) {
  return createEvent({
    category: "lifecycle", type: "load", label: "window load", creator: null,
    params: {}, preds: loadEventPreds(), origin,
    run: () => redispatch(window, new N.Event("load")),
  });
}

/* With nothing left to load once DOMContentLoaded has been dispatched, Chromium fires the window's
   load in that same task: no other event, no user step, comes between the two. So the window's
   load, when it arrived before DOMContentLoaded ran, becomes an event only then: run within
   DOMContentLoaded's step when nothing is left (as the load event, which names itself the creator
   of what its handlers create, as when it runs alone; it leaves the pending set in the step that
   made it, so it is never enabled on its own), else pending after what is left, as before.
   Left to load is what a slower network would still be loading, whatever this run's timing:
   - an event load waits for that is pending (a held script, a style sheet's load, an element
     load DOMContentLoaded's handlers began), an image or a frame still loading;
   - any image, frame or media the page loaded (`unwaitedLoads`), and any resource a style sheet
     asked for (a background image, a font): nothing the parser or a script waits for, so they can
     always come after parsing ends, and a plain page shows it when one of them is held. A style
     sheet and a script are not of these: the scripts after them wait for them, and webr4's
     order of their events already says whether they were done. */
function loadAfterDomReady(ev) {
  const left = unwaitedLoads > 0 || styleResourcesLoaded() || imagesInFlight() || framesInFlight()
    || !A.every(loadPreds, (id) => !pending.has(id));
  if (left) {
    ev.preds = loadEventPreds(); // with what the handlers began
    return;
  }
  const domReady = current;
  pending.delete(ev.id);
  A.push(gone, ev.id);
  current = ev.id;
  ev.run();
  nativeTick(() => { current = domReady; }); // after the load handlers' microtasks
}

// Resources that style sheets asked for (initiator "css": background images, fonts, imports), seen
// through Resource Timing from before any page script: an entry is listed once its resource loaded.
let styleResources = false;
const resourceObserver = new N.PerformanceObserver((list) => noteResources(call(N.listedEntries, list)));
resourceObserver.observe({ type: "resource", buffered: true });
function noteResources(entries) {
  for (const entry of entries) if (entry.initiatorType === "css") styleResources = true;
}
function styleResourcesLoaded() {
  noteResources(call(N.takeEntries, resourceObserver));
  return styleResources;
}
