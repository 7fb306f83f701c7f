// webr4 DOM log: lookups by id and selector, and elements entering or leaving the document.

function selectorLocation(selector) {
  var s = text(selector);
  if (s === null) return null;
  return call(testPattern, /^#[\w-]+$/, s) ? "dom:" + s : "dom:sel:" + s;
}

/* Whether the direct caller of `wrapper` is webr4's own code (a script whose name starts with
   __webr4_): the runtime runs querySelectorAll on inserted nodes, and those calls are not the
   page's. Reads one stack frame, formatted by V8's structured API so that a page's
   Error.prepareStackTrace is not called. */
function calledByWebr4(wrapper) {
  var limit = Error.stackTraceLimit;
  var prepare = Error.prepareStackTrace;
  Error.stackTraceLimit = 1;
  Error.prepareStackTrace = function (error, frames) {
    return frames.length ? String(frames[0].getScriptNameOrSourceURL()) : "";
  };
  try {
    var holder = {};
    Error.captureStackTrace(holder, wrapper);
    return holder.stack.indexOf("__webr4_") === 0;
  } finally {
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prepare;
  }
}

/* A querySelectorAll result also reads the child lists holding the elements found. */
function readParents(found) {
  var last = null;
  for (var i = 0; i < found.length; i++) {
    var parent = call(parentNode, found[i]);
    if (parent === last) continue;
    last = parent;
    var key = keyOf(parent);
    if (key !== null) record("r", "dom:" + key + ".children", null);
  }
}

wrapMethod(Document.prototype, "getElementById", once("r", function (self, args) {
  var id = text(args[0]);
  return id === null ? null : "dom:#" + id;
}));
[Document.prototype, Element.prototype, DocumentFragment.prototype].forEach(function (proto) {
  wrapMethod(proto, "querySelector", once("r", function (self, args) {
    return selectorLocation(args[0]);
  }));
  var wrapper = wrapMethod(proto, "querySelectorAll", function (self, args) {
    var location = calledByWebr4(wrapper) ? null : selectorLocation(args[0]);
    return location === null ? null : function (found) {
      record("r", location, null);
      observe(readParents, found);
    };
  });
});

// Elements entering or leaving the document, and id changes, write dom:#id.
function writeIds(node) {
  if (call(nodeType, node) !== 1) return;
  var id = call(elementId, node);
  if (id) record("w", "dom:#" + id, null);
  var inside = call(querySelectorAll, node, "[id]");
  for (var i = 0; i < inside.length; i++) record("w", "dom:#" + call(elementId, inside[i]), null);
}
new MutationObserver(function (mutations) {
  if (!active()) return;
  busy = true;
  try {
    for (var i = 0; i < mutations.length; i++) {
      var m = mutations[i];
      if (m.type === "attributes") {
        if (m.oldValue) record("w", "dom:#" + m.oldValue, null);
        var id = call(elementId, m.target);
        if (id) record("w", "dom:#" + id, null);
        continue;
      }
      for (var a = 0; a < m.addedNodes.length; a++) writeIds(m.addedNodes[a]);
      for (var r = 0; r < m.removedNodes.length; r++) writeIds(m.removedNodes[r]);
    }
  } finally {
    busy = false;
  }
}).observe(doc, {
  childList: true, subtree: true, attributes: true, attributeFilter: ["id"], attributeOldValue: true,
});
