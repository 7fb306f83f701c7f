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
 * This file must be evaluated as a classic (non-module) script for the sloppy variant to exist.
 */
(function (root, sloppyAssign, sloppyDelete) {
  "use strict";

  // Natives, captured before any page script runs: a page may replace them (a polyfill wrapping
  // Object.defineProperty or WeakMap.prototype.get), and its rewritten replacement would log,
  // calling back into this file without end.
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

  var objectIds = sealed(new WeakMap());
  /* Where this log's summaries find its locations, one event after another (the runtime's
     `AccessSummary`): each location's state there also keeps its holding-back mark. */
  var locationIndex = sealed(new Map());
  var nextObjectId = 1;
  var nextScopeId = 1;
  /* The runtime's log of the current event: the summary of its accesses (or, for diagnostics,
     every access); every access where there is no runtime. */
  function freshBuffer() {
    var make = root.__webr4 && root.__webr4.newAccessLog;
    return typeof make === "function" ? make(locationIndex) : everyAccess();
  }

  function everyAccess() {
    var list = [];
    return {
      push: function (entry) { list[list.length] = entry; },
      addNamed: function (kind, group, key, site, value) {
        list[list.length] = [kind, locationName(group, key), site, value];
      },
      entries: function () { return list; }
    };
  }
  var buffer = freshBuffer();
  var log = { enabled: true, k: undefined };

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

  /* Holding back what no other event sees. At an event's end, each location of its summary
     that no earlier event touched is held back here, with its summary, instead of being listed:
     most of what a framework's compiler or renderer touches, one event alone ever does. The
     first later event that touches a held location *promotes* it: the held summary is handed
     over with that event's record, tagged with the event that made it, where it takes its place
     among that event's locations again, and from then on the location is *shared* and listed
     directly. What is never promoted was touched by one event only. Each location's mark is
     read once per event, when the event ends; the accesses themselves do no more than before.
     Only the locations of this log's own accesses (variables and properties) are held: the
     runtime's `event:` locations (happens-before reads who wrote them) are not in this log, and
     those of the other logs that record here (DOM, storage, cookies: `append`) are listed.
     The mark is kept in the location's state in the summaries' index (`locationIndex`):
     undefined until an event's end finds the location, then its held record [event, position,
     rank, entries] while it is held, SHARED from its second event on. */
  var SHARED = 0;
  var promoted = []; // [event, position, rank, entries] for each location promoted since takeHeld
  var heldWrites = []; // the names of the locations held back since takeHeld that were written
  var heldWritten = sealed(new Set()); // the same, to list each once

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

  /* The location of property or variable `name` of `group`: a global for group 0, else of
     object `group` or, when it is negative, of closure scope `-group`; a string group is a
     module's scope id. The hot path passes the two along and the summary makes the name once
     per location and event. */
  function locationName(group, name) {
    if (typeof group === "string") return "scope:" + group + ":" + name;
    if (group > 0) return "prop:" + group + "." + name;
    return group === 0 ? "global:" + name : "scope:" + -group + ":" + name;
  }

  /* Records an access to location `group`, `name` (see `locationName`). */
  function record(kind, group, name, site, valueDigest) {
    if (log.enabled !== false) buffer.addNamed(kind, group, name, site, valueDigest, locationName);
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

  /* Holds back the locations of `event` no earlier event touched and promotes those one earlier
     event touched (see `AccessSummary.split`); without an event, every location is shared.
     Only this log's own locations (those it names: `named`) are held. */
  function holder(event, offset) {
    return function (state, position, rank) {
      if (!state.named) return null;
      var mark = state.mark;
      if (mark === SHARED) return null;
      if (mark !== undefined || event === null || event === undefined) {
        if (mark !== undefined) promoted[promoted.length] = mark;
        state.mark = SHARED;
        return null;
      }
      var entries = [];
      state.mark = [event, offset + position, rank, entries];
      if (state.write !== null) {
        var name = state.key;
        if (!heldWritten.has(name)) {
          heldWritten.add(name);
          heldWrites[heldWrites.length] = name;
        }
      }
      return entries;
    };
  }

  /* The property key `o[k]` uses, converted once (ToPropertyKey) when conversion can run code. */
  function propertyKey(key) {
    if (!isObject(key)) return key;
    var holder = {};
    holder[key] = 0;
    return ownKeys(holder)[0];
  }

  function nameAnonymous(value, name) {
    if (typeof value === "function") {
      var own = describe(value, "name");
      if (own && own.value === "" && own.configurable) {
        define(value, "name", { value: name, configurable: true });
      }
    }
    return value;
  }

  function plusDelta(value, delta) {
    return typeof value === "bigint" ? value + BigInt(delta) : value + delta;
  }

  function combine(operator, left, right) {
    switch (operator) {
      case "+=": return left + right;
      case "-=": return left - right;
      case "*=": return left * right;
      case "/=": return left / right;
      case "%=": return left % right;
      case "**=": return left ** right;
      case "<<=": return left << right;
      case ">>=": return left >> right;
      case ">>>=": return left >>> right;
      case "&=": return left & right;
      case "|=": return left | right;
      case "^=": return left ^ right;
    }
    throw new Error("webr4: unknown operator " + operator);
  }

  /* Writes and deletes whose failure mode depends on the caller's strictness. */
  function makePropertyWriters(assign, remove) {
    function readKey(site, object, key) {
      if (!isObject(object)) return key;
      key = propertyKey(key);
      currentSite = site;
      record("r", propertyGroup(object), keyName(key), site, null);
      return key;
    }
    return {
      pw: function (site, object, key, value) {
        if (isObject(object)) {
          key = propertyKey(key);
          currentSite = site;
          var group = propertyGroup(object);
          var name = keyName(key);
          record("w", group, name, site, stored(value, group, name));
        }
        assign(object, key, value);
        return value;
      },
      /* V8 converts an object key twice in `o[k] op= v` and `o[k]++` (once to read, once to
         write); the write below passes the unconverted key to do the same. */
      pc: function (site, object, rawKey, operator, right) {
        var key = readKey(site, object, rawKey);
        var old = object[key];
        var value;
        if (operator === "||=") {
          if (old) return old;
          value = right();
        } else if (operator === "&&=") {
          if (!old) return old;
          value = right();
        } else if (operator === "??=") {
          if (old !== null && old !== undefined) return old;
          value = right();
        } else {
          value = combine(operator, old, right());
        }
        if (isObject(object)) record("w", propertyGroup(object), keyName(key), site, digest(value));
        assign(object, rawKey, value);
        return value;
      },
      pu: function (site, object, rawKey, delta, prefix) {
        var key = readKey(site, object, rawKey);
        var value = object[key];
        var old = delta > 0 ? value++ : value--;
        if (isObject(object)) record("w", propertyGroup(object), keyName(key), site, digest(value));
        assign(object, rawKey, value);
        return prefix ? value : old;
      },
      pd: function (site, object, key) {
        if (isObject(object)) {
          key = propertyKey(key);
          record("w", propertyGroup(object), keyName(key), site, "u");
        }
        return remove(object, key);
      }
    };
  }

  var strictWriters = makePropertyWriters(
    function (object, key, value) { object[key] = value; },
    function (object, key) { return delete object[key]; }
  );
  var sloppyWriters = makePropertyWriters(sloppyAssign, sloppyDelete);

  /* Variables. */
  /* `log.r(...)(x)`: the function log.r returns receives the value read; one shared function
     and the location of the latest read, rather than a closure per read. */
  var readGroup = 0;
  var readName = "";
  function readValue(value) {
    return reached(value, readGroup, readName);
  }
  log.r = function (site, name, scopeId) {
    readGroup = scopedVariable(site, name, scopeId);
    readName = name;
    record("r", readGroup, name, site, null);
    return readValue;
  };
  log.w = function (site, name, scopeId, value) {
    var group = scopedVariable(site, name, scopeId);
    record("w", group, name, site, stored(value, group, name));
    return value;
  };
  log.wn = function (site, name, scopeId, value) {
    return log.w(site, name, scopeId, nameAnonymous(value, name));
  };
  log.rw = function (site, name, scopeId, delta) {
    var group = scopedVariable(site, name, scopeId);
    record("r", group, name, site, null);
    return function (result) {
      var value = digest(delta === 0 ? result : plusDelta(result, delta));
      record("w", group, name, site, value);
      return result;
    };
  };
  log.dl = function (site, name, scopeId, result) {
    record("w", scopedVariable(site, name, scopeId), name, site, "u");
    return result;
  };
  log.wm = function (site, value) {
    for (var i = 2; i < arguments.length; i += 2) {
      record("w", scopedVariable(site, arguments[i], arguments[i + 1]), arguments[i], site, null);
    }
    return value;
  };
  log.s = function () {
    scopeSites[nextScopeId] = null;
    return nextScopeId++;
  };

  /* Native array methods change or read the elements without any property access the rewriter
     sees; a method call on an array stands for an access to its `length`, the array's contents
     as a whole: a mutator reads and writes it, any other method reads it. */
  var ARRAY_MUTATORS = { push: 1, pop: 1, shift: 1, unshift: 1, splice: 1, sort: 1, reverse: 1, fill: 1,
    copyWithin: 1 };

  function arrayCall(site, object, key) {
    if (!isArray(object) || typeof arrayPrototype[key] !== "function") return;
    var group = objectId(object);
    record("r", group, "length", site, null);
    if (ARRAY_MUTATORS[key] === 1) record("w", group, "length", site, null);
  }

  /* Properties. */
  log.p = function (site, object, key) {
    if (!isObject(object)) return object[key];
    key = propertyKey(key);
    currentSite = site;
    var group = propertyGroup(object);
    var name = keyName(key);
    record("r", group, name, site, null);
    return reached(object[key], group, name);
  };
  log.m = function (site, object, key) {
    if (isObject(object)) {
      currentSite = site;
      record("r", propertyGroup(object), keyName(key), site, null);
      arrayCall(site, object, key);
    }
    return object;
  };
  log.mk = function (site, object, key) {
    if (isObject(object)) {
      key = propertyKey(key);
      currentSite = site;
      record("r", propertyGroup(object), keyName(key), site, null);
      arrayCall(site, object, key);
    }
    log.k = key;
    return object;
  };
  log.pw = sloppyWriters.pw;
  log.pc = sloppyWriters.pc;
  log.pu = sloppyWriters.pu;
  log.pd = sloppyWriters.pd;
  log.pws = strictWriters.pw;
  log.pcs = strictWriters.pc;
  log.pus = strictWriters.pu;
  log.pds = strictWriters.pd;

  /** The entries since the last flush; with `event` (the event they belong to), those of the
   *  locations no earlier event touched are held back, their positions counted after `offset`
   *  locations the event's record lists before this log's. */
  log.flush = function (event, offset) {
    var entries = buffer;
    buffer = freshBuffer();
    if (typeof entries.split !== "function") return entries.entries();
    return entries.split(holder(event, offset || 0));
  };

  /** What holding back changed since the last call: `promoted`, the held-back locations later
   *  events touched ([event, position, rank, entries], see `AccessSummary.split`), and `written`,
   *  the names (property or variable) of the locations flushes held back that were written. */
  log.takeHeld = function () {
    var out = { promoted: promoted, written: heldWrites };
    promoted = [];
    heldWrites = [];
    heldWritten.clear();
    return out;
  };

  /** Adds another log's entry (accesses through browser APIs) in order with this log's own. */
  log.append = function (entry) {
    buffer.push(entry);
  };

  /** The value digest of entries, for other logs that record into the same buffer. */
  log.digest = digest;

  /** `sealed(collection)`, for other logs that keep their own maps out of the page's reach. */
  log.sealed = sealed;

  /* How people can find the objects `ids`: {objects: {id: {base, keys, node, site, ctor}},
     scopes: {scopeId: siteId or null}}. Following first origins from the object outwards,
     `keys` are the property names from `base` down to it and `base` is where the chain starts:
     "global:<name>", "scope:<id>:<name>", or null when an object on the way was never stored
     anywhere logged. `node` is the element key (dom_log.js) when the chain starts at a DOM
     node that is still alive. `site` (a site id) is where the object at the start of the chain
     was first seen and `ctor` the name of its class; `scopes` gives the site id where each
     closure scope was first seen, for `scopeIds` and the scopes the chains start in. */
  log.names = function (ids, scopeIds) {
    var objects = {};
    var wanted = (scopeIds || []).slice();
    for (var i = 0; i < ids.length; i++) {
      var name = objects[ids[i]] = nameOf(ids[i]);
      var scoped = name.base === null ? null : /^scope:([^:]+):/.exec(name.base);
      if (scoped !== null) wanted.push(scoped[1]);
    }
    var scopes = {};
    for (var j = 0; j < wanted.length; j++) {
      scopes[wanted[j]] = scopeSiteOf(wanted[j]);
    }
    return { objects: objects, scopes: scopes };
  };

  /* `list[index]` where `list` holds it; null otherwise. */
  function entryOf(list, index) {
    var entry = index >= 0 && index < list.length ? list[index] : null;
    return entry === undefined ? null : entry;
  }

  function originOf(id) {
    var origin = entryOf(origins, id);
    return origin === null ? undefined : origin;
  }

  /* The site where the scope of id `scope` (the text of a number, or a module's id) was first
     seen, or null. */
  function scopeSiteOf(scope) {
    if (!/^\d+$/.test(scope)) return moduleScopeSites.has(scope) ? moduleScopeSites.get(scope) : null;
    return entryOf(scopeSites, Number(scope));
  }

  function nameOf(id) {
    var keys = [];
    var seen = sealed(new Set());
    for (var current = id; ; ) {
      var node = nodes.has(current) ? nodes.get(current).deref() : undefined;
      if (node !== undefined && log.nodeKey) {
        var key = log.nodeKey(node);
        if (key) return { base: null, keys: keys, node: key, site: null, ctor: null };
      }
      var origin = originOf(current);
      var parent = origin === undefined ? null : /^prop:(\d+)\.([\s\S]*)$/.exec(origin);
      if (parent === null || seen.has(current) || keys.length >= 12) {
        return { base: origin === undefined || parent !== null ? null : origin, keys: keys, node: null,
          site: entryOf(firstSites, current),
          ctor: classes.has(current) ? classes.get(current) : null };
      }
      seen.add(current);
      keys.unshift(parent[2]);
      current = Number(parent[1]);
    }
  }

  root.__webr4.log = log;
})(
  globalThis,
  /* Defined outside the strict function above: a failed write or delete is silently ignored. */
  function (object, key, value) { object[key] = value; },
  function (object, key) { return delete object[key]; }
);
