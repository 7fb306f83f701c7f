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
const detachedImages = newSet(); // detached images whose load has not arrived yet
const hookedImages = newWeakSet();
const sourceOrder = newWeakMap(); // detached image -> when its source was last set
let sourcesSet = 0;
function hookDetachedImage(img) {
  if (img.isConnected) return;
  sourceOrder.set(img, ++sourcesSet);
  if (!hookedImages.has(img)) {
    hookedImages.add(img);
    call(N.addEventListener, img, "load", onElementEvent, true);
    call(N.addEventListener, img, "error", onElementEvent, true);
  }
  if (!elementCreator.has(img)) elementCreator.set(img, current);
  loadSeen.delete(img);
  detachedImages.add(img);
}
const srcProperty = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
N.defineProperty(HTMLImageElement.prototype, "src", N.assign({}, srcProperty, {
  set(value) { call(srcProperty.set, this, value); hookDetachedImage(this); },
}));
const setAttribute = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (name, value) {
  const result = call(setAttribute, this, name, value);
  if (this instanceof HTMLImageElement && String(name).toLowerCase() === "src") hookDetachedImage(this);
  return result;
};

call(N.addEventListener, document, "load", onElementEvent, true);
call(N.addEventListener, document, "error", onElementEvent, true);
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
    try { if (el.contentWindow) A.push(uncontrolled, `frame ${elementText(el)}`); } catch (err) { /* cross-origin */ }
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

const lifecycle = { domContentLoaded: null, load: null };
call(N.addEventListener, window, "DOMContentLoaded", (e) => {
  if (passThrough.has(e)) return;
  e.stopImmediatePropagation();
  const preds = A.filter(A.concat([parse.lastChunk], A.map(deferScripts, (s) => s.eventId)), Boolean);
  lifecycle.domContentLoaded = createEvent({
    category: "lifecycle", type: "DOMContentLoaded", label: "DOMContentLoaded", creator: null,
    params: {}, preds, origin: [3, 0],
    run: () => redispatch(document, new Event("DOMContentLoaded", { bubbles: true })),
  }).id;
}, true);
call(N.addEventListener, window, "load", (e) => {
  if (passThrough.has(e) || e.target !== document) return;
  e.stopImmediatePropagation();
  const preds = A.filter(A.concat([lifecycle.domContentLoaded], loadPreds), Boolean);
  createEvent({
    category: "lifecycle", type: "load", label: "window load", creator: null,
    params: {}, preds, origin: [4, 0],
    run: () => redispatch(window, new Event("load")),
  });
}, true);
const loadPreds = []; // every resource-load event happens before window load
