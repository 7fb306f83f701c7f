/*
 * webr4 access log: the runtime that rewritten scripts call (see webr4/instrument/rewrite.py).
 *
 * Evaluated after the page runtime has created the global `__webr4`; installs `__webr4.log`.
 * Every access becomes an entry [kind, location, siteId, valueDigest]:
 *   kind      "r" or "w"
 *   location  "global:<name>"              global variable (or property of the global object)
 *             "scope:<scopeId>:<name>"     closure-captured variable of one scope instance
 *             "prop:<objectId>.<key>"      property of an object; ids in order of first access
 *                                          (a native method called on an array reads, and a
 *                                          mutator also writes, "prop:<arrayId>.length")
 *   siteId    "<scriptId>:<n>", resolved to url:line:col by the rewriter's site table
 *   digest    for writes: "n:3", "s:<first 32 chars>", "b:true", "u", "null", "i:<bigint>", "y"
 *             (symbol), "o:<objectId>"; null when unknown (reads, destructuring writes)
 * `flush()` returns the entries recorded since the last flush and starts a new buffer; in the
 * page the buffer is the runtime's summary of them (webr4/access_summary.py) and `flush()` its
 * entries. `append(entry)` records another log's entry in order with these.
 * `flush(event, offset)` holds back the locations no other event has touched yet (see "Holding
 * back" below); `takeHeld()` hands over what that changed.
 * `names(ids)` names objects for people, by where the page keeps them (see its comment below).
 * While `enabled === false` nothing is recorded. Property accesses on primitives are not shared
 * memory and are not recorded.
 *
 * The helpers evaluate the accesses themselves with ordinary JS operations, so getters, setters,
 * proxies and error messages behave as in the original code; the property writes and deletes
 * come in a sloppy and a strict ("s" suffix) variant that match the mode of the calling code.
 * The log must be evaluated as a classic (non-module) script for the sloppy variant to exist; its
 * parts are joined into one by webr4/browser/accesslogs.py.
 */

// Natives, captured before any page script runs: a page may replace them (a polyfill wrapping
// Object.defineProperty or WeakMap.prototype.get), and its rewritten replacement would log,
// calling back into this log without end.
var describe = Object.getOwnPropertyDescriptor;
var define = Object.defineProperty;
var getPrototypeOf = Object.getPrototypeOf;
var ownPropertyNames = Object.getOwnPropertyNames;
var ownKeys = Reflect.ownKeys;
var isArray = Array.isArray;
var objectPrototype = Object.prototype;
var arrayPrototype = Array.prototype;
var NativeNode = typeof Node === "function" ? Node : null;
var NativeWeakRef = WeakRef;

/* `collection` with its prototype's native methods as its own properties, which no later
   change to Map.prototype (or WeakMap's, Set's) reaches. */
function sealed(collection) {
  var proto = getPrototypeOf(collection);
  var names = ownPropertyNames(proto);
  for (var i = 0; i < names.length; i++) {
    var method = describe(proto, names[i]).value;
    if (typeof method === "function" && names[i] !== "constructor") define(collection, names[i], { value: method });
  }
  return collection;
}
