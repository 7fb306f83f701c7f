// webr4 DOM log: what a test's read of the page depends on.

/* A test that reads an element (its text, value, an attribute, whether it is visible or
   checked, how many elements match) depends on the element's whole subtree and on whatever
   hides it or removes it: the reads below are the locations page code writes for each of
   those, so that a page event writing any of them races with the read. The harness calls
   log.userReads(elements, idLocation) inside the test's read step, with the elements the
   read's selector matched; with none matched, the read depends on every child list in the
   document (an element may be inserted anywhere) and, for an #id selector, on that id. */

var MAX_OBSERVED = 2000; // nodes, so that a read of a whole page stays one step
var OWN = ["textContent", "children", "className", "style", "hidden", "disabled", "value", "checked",
  "open", "aria-hidden", "aria-disabled", "aria-checked", "aria-expanded", "aria-busy"];
var UP = ["children", "className", "style", "hidden", "open", "aria-hidden", "disabled"];
var attributeNames = Element.prototype.getAttributeNames;
var matchesNone = { length: 0 };

function readAll(key, names) {
  for (var i = 0; i < names.length; i++) record("r", "dom:" + key + "." + names[i], null);
}

function readSubtree(element, seen) {
  var inside = call(querySelectorAll, element, "*");
  var nodes = [element];
  for (var i = 0; i < inside.length && nodes.length < MAX_OBSERVED; i++) nodes[nodes.length] = inside[i];
  for (var n = 0; n < nodes.length; n++) {
    var key = keyOf(nodes[n]);
    if (key === null || seen[key]) continue;
    seen[key] = true;
    readAll(key, OWN);
    var names = call(attributeNames, nodes[n]);
    for (var a = 0; a < names.length; a++) {
      var where = attributeLocation(nodes[n], names[a]);
      if (where !== null) record("r", where, null);
    }
    if (nodes[n] instanceof NativeInput) record("r", checkedLocation(nodes[n]), null);
    if (nodes[n] instanceof NativeSelect) record("r", selectLocation(nodes[n]), null);
  }
}

function readAncestors(element, seen) {
  for (var up = call(parentNode, element); up && call(nodeType, up) === 1; up = call(parentNode, up)) {
    var key = keyOf(up);
    if (key === null || seen["^" + key]) continue;
    seen["^" + key] = true;
    readAll(key, UP);
  }
}

function readEveryChildList() {
  var all = call(querySelectorAll, doc.documentElement, "*");
  record("r", "dom:html.children", null);
  for (var i = 0; i < all.length && i < MAX_OBSERVED; i++) {
    var key = keyOf(all[i]);
    if (key !== null) record("r", "dom:" + key + ".children", null);
  }
}

log.userReads = function userReads(elements, idLocation) {
  if (!active()) return;
  busy = true;
  try {
    var found = elements || matchesNone;
    if (idLocation) record("r", idLocation, null);
    if (found.length === 0) {
      readEveryChildList();
      return;
    }
    var seen = createObject(null);
    for (var i = 0; i < found.length; i++) {
      if (!(found[i] instanceof NativeElement)) continue;
      readSubtree(found[i], seen);
      readAncestors(found[i], seen);
    }
  } finally {
    busy = false;
  }
};

/* The document's URL, as a test's read of page.url sees it (see log.noteLocation). */
var locationHref = describe(window.location, "href").get;
var windowLocation = window.location;
var URL_LOCATION = "dom:location";
var seenHref = call(locationHref, windowLocation);

/* Called by the runtime as each event ends: a URL that changed since the last call was written
   by that event (location.hash = ..., history.pushState, a link to #id). */
log.noteLocation = function noteLocation() {
  var now = call(locationHref, windowLocation);
  if (now === seenHref) return;
  seenHref = now;
  if (active()) record("w", URL_LOCATION, digest(now));
};

log.userReadsLocation = function userReadsLocation() {
  if (active()) record("r", URL_LOCATION, null);
};
