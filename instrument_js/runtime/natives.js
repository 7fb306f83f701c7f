// webr4 runtime, part 1: the configuration, the guards that keep the runtime to the top frame
// and to one copy, and the natives it uses, captured before any page script can replace them.

const CONFIG = typeof __WEBR4_CONFIG__ === "object" ? __WEBR4_CONFIG__ : {};
if (window !== window.top) {
  // A child frame of the top frame's origin joins the top frame's runtime (frames.js); one of
  // another origin (a sandboxed one's is opaque) runs natively, and the top frame reports it as
  // uncontrolled.
  let host = null;
  try { host = window.top.__webr4; } catch (e) { /* another origin */ }
  if (host) host.adoptFrame(window);
  return;
}
if (window.__webr4) return;

// ------------------------------------------------------------------ natives, captured first
const N = {
  setTimeout: window.setTimeout.bind(window),
  clearTimeout: window.clearTimeout.bind(window),
  requestAnimationFrame: window.requestAnimationFrame.bind(window),
  ResizeObserver: window.ResizeObserver,
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
  parse: JSON.parse.bind(JSON),
  assign: Object.assign,
  Response: window.Response,
  URL: window.URL,
  encodeURIComponent: window.encodeURIComponent,
  MutationObserver: window.MutationObserver,
  takeRecords: MutationObserver.prototype.takeRecords,
  PerformanceObserver: window.PerformanceObserver,
  takeEntries: PerformanceObserver.prototype.takeRecords,
  listedEntries: PerformanceObserverEntryList.prototype.getEntries,
  defineProperty: Object.defineProperty,
  getAttribute: Element.prototype.getAttribute,
  querySelectorAll: Element.prototype.querySelectorAll,
  fragmentQuerySelectorAll: DocumentFragment.prototype.querySelectorAll,
  DOMParser: window.DOMParser,
  parseFromString: DOMParser.prototype.parseFromString,
  regexpTest: RegExp.prototype.test,
  // A polyfill may put its own constructors in these globals (a Shadow DOM polyfill puts wrappers
  // there, of which no element the browser made is an instance).
  Element: window.Element,
  HTMLScriptElement: window.HTMLScriptElement,
  HTMLStyleElement: window.HTMLStyleElement,
  HTMLLinkElement: window.HTMLLinkElement,
  HTMLImageElement: window.HTMLImageElement,
  HTMLIFrameElement: window.HTMLIFrameElement,
  HTMLFrameElement: window.HTMLFrameElement,
  // Events the runtime dispatches: the native dispatchEvent refuses a polyfill's wrapper ("parameter
  // 1 is not of type 'Event'").
  Event: window.Event,
  ProgressEvent: window.ProgressEvent,
  MessageEvent: window.MessageEvent,
  ErrorEvent: window.ErrorEvent,
  CloseEvent: window.CloseEvent,
};

// The page's builtins are the page's: a polyfill or a logger may replace Array.prototype.push,
// Map.prototype.set, JSON.stringify, Promise or Function.prototype.call, and must neither see the
// runtime's own calls nor break it. So the runtime calls functions through the captured
// Reflect.apply (`apply`, `call`), array methods through `A` (`A.push(list, item)`), and keeps its
// maps and sets in collections whose methods are the natives, as own properties (`newMap()`).
// What it still reaches through the page's prototypes: iteration (for…of, spread) and String
// methods.
// `call` and the uncurried methods are the native `Function.prototype.call` bound now: they
// allocate no argument array per call, and no later change to `call` or `bind` reaches them.
const apply = Reflect.apply;
const nativeCall = Function.prototype.call;
const nativeBind = Function.prototype.bind;
const call = apply(nativeBind, nativeCall, [nativeCall]);
const uncurry = (fn) => apply(nativeBind, nativeCall, [fn]);

// JSON of the runtime's own plain values as JSON writes them with the builtins untouched. A page
// may give a builtin prototype a `toJSON` (Prototype.js gives arrays one), which JSON calls on
// every value before the replacer; the replacer then hands back the value it was called on.
const nativeStringify = JSON.stringify;
const nativeHasOwn = Object.hasOwn;
const JSON_PROTOTYPES = [Object.prototype, Array.prototype, String.prototype, Number.prototype, Boolean.prototype];
function valueBeforeToJson(key) {
  return this[key];
}
N.stringify = (value) => {
  for (let i = 0; i < JSON_PROTOTYPES.length; i++) {
    if (nativeHasOwn(JSON_PROTOTYPES[i], "toJSON")) return apply(nativeStringify, JSON, [value, valueBeforeToJson]);
  }
  return apply(nativeStringify, JSON, [value]);
};
const A = {};
for (const name of ["concat", "every", "filter", "includes", "indexOf", "join", "map", "push", "shift", "slice",
  "sort", "splice"]) A[name] = uncurry(Array.prototype[name]);

/** The native methods of `Ctor`'s prototype (and its `size` getter), read now. */
function nativeMethods(Ctor) {
  const table = [];
  for (const name of Object.getOwnPropertyNames(Ctor.prototype)) {
    const property = Object.getOwnPropertyDescriptor(Ctor.prototype, name);
    if (name === "size") table.push([name, { get: property.get }]);
    else if (name !== "constructor" && typeof property.value === "function") table.push([name, { value: property.value }]);
  }
  return table;
}
/** A maker of new `Ctor`s whose methods are the natives, as own properties: no later change to
 *  the global or its prototype reaches them. */
function sealedMaker(Ctor) {
  const table = nativeMethods(Ctor);
  return () => {
    const collection = new Ctor();
    for (let i = 0; i < table.length; i++) N.defineProperty(collection, table[i][0], table[i][1]);
    return collection;
  };
}
const newMap = sealedMaker(Map);
const newWeakMap = sealedMaker(WeakMap);
const newWeakSet = sealedMaker(WeakSet);
const newEmptySet = sealedMaker(Set);
const newSet = (items) => {
  const set = newEmptySet();
  if (items) for (let i = 0; i < items.length; i++) set.add(items[i]);
  return set;
};
const NativePromise = Promise;
const then = uncurry(Promise.prototype.then);
const resolved = (value) => new NativePromise((resolve) => resolve(value));
const rejected = (reason) => new NativePromise((resolve, reject) => reject(reason));
const nativeTick = (() => {
  // A native macrotask with no clamping: one MessageChannel owned by the runtime.
  const channel = new N.MessageChannel();
  const queue = [];
  channel.port1.onmessage = () => { const fn = A.shift(queue); if (fn) fn(); };
  const post = MessagePort.prototype.postMessage;
  return (fn) => { A.push(queue, fn); call(post, channel.port2, 0); };
})();
const RUNTIME_URL = "__webr4_runtime__.js";
