// webr4 runtime, part 1: the configuration, the guards that keep the runtime to the top frame
// and to one copy, and the natives it uses, captured before any page script can replace them.

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
