// webr4 DOM log: element keys, the names of elements in locations.

var treeNumbers = sealed(new WeakMap());
var nextTree = 1;

function treeLabel(node) {
  var n = treeNumbers.get(node);
  if (n === undefined) treeNumbers.set(node, (n = nextTree++));
  return "~" + n;
}

function elementKey(element) {
  var path = "";
  for (var node = element; ;) {
    var id = call(elementId, node);
    if (id) return "#" + id + path;
    var name = call(localName, node);
    if (name === "html" || name === "head" || name === "body") return name + path;
    var index = 1;
    for (var s = call(previousElementSibling, node); s; s = call(previousElementSibling, s)) {
      if (call(localName, s) === name) index++;
    }
    path = ">" + (index === 1 ? name : name + ":nth-of-type(" + index + ")") + path;
    var parent = call(parentNode, node);
    if (!parent || call(nodeType, parent) !== 1) return treeLabel(parent || node) + path;
    node = parent;
  }
}

/* The key of an element, of a text node's parent element, or "document"; null otherwise. */
function keyOf(node) {
  switch (call(nodeType, node)) {
    case 1: return elementKey(node);
    case 3: {
      var parent = call(parentNode, node);
      return parent && call(nodeType, parent) === 1 ? elementKey(parent) : null;
    }
    case 9: return node === doc ? "document" : null;
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
