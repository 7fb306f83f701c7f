// webr4 DOM log: tree changes.

/* Writes the child list (and content) of `key`, and of the old parents of moved nodes. */
function treeChange(key, nodes) {
  var keys = key === null ? [] : [key];
  for (var i = 0; nodes && i < nodes.length; i++) {
    var node = nodes[i];
    if (node instanceof NativeNode && call(parentNode, node)) {
      var old = parentKey(node);
      if (old !== null && keys.indexOf(old) < 0) keys.push(old);
    }
  }
  return keys.length === 0 ? null : function () {
    for (var k = 0; k < keys.length; k++) {
      record("w", "dom:" + keys[k] + ".children", null);
      record("w", "dom:" + keys[k] + ".textContent", null);
    }
  };
}
function onSelf(self, args) {
  return treeChange(keyOf(self), args);
}
function onParent(self, args) {
  return treeChange(parentKey(self), args);
}
["appendChild", "insertBefore", "replaceChild", "removeChild"].forEach(function (name) {
  wrapMethod(Node.prototype, name, onSelf);
});
["append", "prepend", "replaceChildren"].forEach(function (name) {
  wrapMethod(Element.prototype, name, onSelf);
});
["before", "after", "replaceWith", "remove"].forEach(function (name) {
  wrapMethod(Element.prototype, name, onParent);
});
["insertAdjacentHTML", "insertAdjacentElement", "insertAdjacentText"].forEach(function (name) {
  wrapMethod(Element.prototype, name, function (self, args) {
    var position = text(args[0]);
    var outside = position !== null && call(testPattern, /^(beforebegin|afterend)$/i, position);
    return treeChange(outside ? parentKey(self) : keyOf(self), name === "insertAdjacentElement" ? [args[1]] : null);
  });
});
var CHILDREN = { key: keyOf, reads: ["children"] };
wrapAccessors([Element.prototype, Document.prototype, DocumentFragment.prototype], "children", CHILDREN);
wrapAccessor(Node.prototype, "childNodes", CHILDREN);
wrapAccessor(Node.prototype, "firstChild", CHILDREN);
