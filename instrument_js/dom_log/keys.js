// webr4 DOM log: element keys, the names of elements in locations.

var treeNumbers = sealed(new WeakMap());
var nextTree = 1;

function treeLabel(node) {
  var n = treeNumbers.get(node);
  if (n === undefined) treeNumbers.set(node, (n = nextTree++));
  return "~" + n;
}

/* An element's key: from its nearest ancestor with an id (or html, head, body), as
   `#list>li:nth-of-type(2)`; an element of a shadow root is keyed through its host, the root a
   segment of its own, `#card>#shadow-root>ul>li` (an id names an element only within its
   tree: `#card>#shadow-root>#name`); one of a detached tree from a label of that tree, `~3>li`. */
function elementKey(element) {
  var path = "";
  for (var node = element; ;) {
    var id = call(elementId, node);
    if (id) return shadowScope(node) + "#" + id + path;
    var name = call(localName, node);
    if (name === "html" || name === "head" || name === "body") return name + path;
    var index = 1;
    for (var s = call(previousElementSibling, node); s; s = call(previousElementSibling, s)) {
      if (call(localName, s) === name) index++;
    }
    path = ">" + (index === 1 ? name : name + ":nth-of-type(" + index + ")") + path;
    var parent = call(parentNode, node);
    if (parent instanceof NativeShadowRoot) return shadowRootKey(parent) + path;
    if (!parent || call(nodeType, parent) !== 1) return treeLabel(parent || node) + path;
    node = parent;
  }
}

var SHADOW_ROOT = "#shadow-root";

/* A shadow root's key: its host's and the root, `#card>#shadow-root`. */
function shadowRootKey(shadowRoot) {
  return elementKey(call(shadowHost, shadowRoot)) + ">" + SHADOW_ROOT;
}

/* The key of the shadow root `node` is in, followed by ">", or "" for a node of a document or
   of a detached tree. */
function shadowScope(node) {
  var top = call(rootNode, node);
  return top instanceof NativeShadowRoot ? shadowRootKey(top) + ">" : "";
}

/* The key of an element, of a shadow root, of a text node's parent element or shadow root, or
   "document"; null otherwise. */
function keyOf(node) {
  switch (call(nodeType, node)) {
    case 1: return elementKey(node);
    case 3: {
      var parent = call(parentNode, node);
      return parent && (call(nodeType, parent) === 1 || parent instanceof NativeShadowRoot) ? keyOf(parent) : null;
    }
    case 9: return node === doc ? "document" : null;
    case 11: return node instanceof NativeShadowRoot ? shadowRootKey(node) : null;
    default: return null;
  }
}

/** The key of a node for naming the objects that the access log sees (null when it has none). */
log.nodeKey = function (node) {
  return observe(keyOf, node);
};

function parentKey(node) {
  var parent = call(parentNode, node);
  return parent ? keyOf(parent) : null;
}

function targetKey(target) {
  if (target === root) return "window";
  return target instanceof NativeNode ? keyOf(target) : null;
}
