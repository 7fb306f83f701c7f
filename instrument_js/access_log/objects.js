// webr4 access log: object ids, where each object was first stored or reached, value digests.

var objectIds = sealed(new WeakMap());
var nextObjectId = 1;
var nextScopeId = 1;

/* For naming objects: where each object id was first stored or reached ("global:app",
   "scope:<id>:store", "prop:<id>.items"), the site that first saw it, the DOM nodes (weakly:
   a weak reference per object would triple the cost of a new object), the class of class
   instances, and the site of each closure scope's first logged access. */
var origins = [null]; // object id -> its origin, or null
var firstSites = [null]; // object id -> the site that first saw it, or null
var nodes = sealed(new Map());
var classes = sealed(new Map());
var scopeSites = [null]; // closure scope id -> the site of its first logged access, or null
var moduleScopeSites = sealed(new Map()); // the same for module scopes (string ids)
var pendingValue;
var pendingGroup = 0;
var pendingName = "";
var currentSite = null;

function isObject(value) {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

function objectId(value) {
  var id = objectIds.get(value);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(value, id);
    firstSites[id] = currentSite;
    origins[id] = value === pendingValue ? locationName(pendingGroup, pendingName) : null;
    if (NativeNode !== null && value instanceof NativeNode) nodes.set(id, new NativeWeakRef(value));
    else noteClass(id, value);
  }
  return id;
}

/* The name of the class that made `value`, for plain objects, arrays and functions nothing. */
function noteClass(id, value) {
  try {
    if (typeof value === "function" || isArray(value)) return;
    var proto = getPrototypeOf(value);
    if (proto === null || proto === objectPrototype) return;
    var own = describe(proto, "constructor");
    if (own && typeof own.value === "function" && own.value.name) classes.set(id, own.value.name);
  } catch (error) {
    // a proxy that refuses inspection: no class name
  }
}

/* `value` was stored at or read from the location `group`, `name`: its first such place
   names it. */
function reached(value, group, name) {
  if (!isObject(value)) return value;
  var id = objectIds.get(value);
  if (id === undefined) {
    pendingValue = value;
    pendingGroup = group;
    pendingName = name;
  } else if (origins[id] === null) {
    origins[id] = locationName(group, name);
  }
  return value;
}

function stored(value, group, name) {
  reached(value, group, name);
  return digest(value);
}

function digest(value) {
  switch (typeof value) {
    case "number": return "n:" + value;
    case "string": return "s:" + value.slice(0, 32);
    case "boolean": return "b:" + value;
    case "undefined": return "u";
    case "bigint": return "i:" + value;
    case "symbol": return "y";
    default: return value === null ? "null" : "o:" + objectId(value);
  }
}

/* The group of a variable access (see `locationName`), noting the site where its scope was
   first seen. */
function scopedVariable(site, name, scopeId) {
  currentSite = site;
  if (scopeId === 0) return 0;
  if (typeof scopeId === "number") {
    var seen = scopeSites[scopeId];
    if (seen === null || seen === undefined) scopeSites[scopeId] = site;
    return -scopeId;
  }
  if (!moduleScopeSites.has(scopeId)) moduleScopeSites.set(scopeId, site);
  return scopeId;
}

/* The group of a property of `object` (see `locationName`). */
function propertyGroup(object) {
  return object === root ? 0 : objectId(object);
}

/* The name a property key has in a location. */
function keyName(key) {
  return typeof key === "string" ? key : String(key);
}

/* The property key `o[k]` uses, converted once (ToPropertyKey) when conversion can run code. */
function propertyKey(key) {
  if (!isObject(key)) return key;
  var holder = {};
  holder[key] = 0;
  return ownKeys(holder)[0];
}
