// Injected before page scripts by `webr4 record --auto`: notes, per element, the event types
// listeners were added for, so the candidate finder (auto_candidates.js) can see them.
(() => {
  const kinds = new WeakMap();
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (this instanceof Element) {
      if (!kinds.has(this)) kinds.set(this, new Set());
      kinds.get(this).add(String(type).toLowerCase());
    }
    return add.call(this, type, listener, options);
  };
  Object.defineProperty(window, '__webr4ListenerKinds', {
    value: (element) => Array.from(kinds.get(element) || []),
  });
})();
