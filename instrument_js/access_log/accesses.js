// webr4 access log: the calls rewritten code makes, for variables and properties.

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
    if (!isObject(object) || log.enabled === false) return key;
    key = propertyKey(key);
    currentSite = site;
    record("r", propertyGroup(object), keyName(key), site, null);
    return key;
  }
  return {
    pw: function (site, object, key, value) {
      if (isObject(object) && log.enabled !== false) {
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
      if (isObject(object) && log.enabled !== false) {
        record("w", propertyGroup(object), keyName(key), site, digest(value));
      }
      assign(object, rawKey, value);
      return value;
    },
    pu: function (site, object, rawKey, delta, prefix) {
      var key = readKey(site, object, rawKey);
      var value = object[key];
      var old = delta > 0 ? value++ : value--;
      if (isObject(object) && log.enabled !== false) record("w", propertyGroup(object), keyName(key), site, digest(value));
      assign(object, rawKey, value);
      return prefix ? value : old;
    },
    pd: function (site, object, key) {
      if (isObject(object) && log.enabled !== false) {
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
function unchanged(value) {
  return value;
}
/* While the log is off, each call below does what the rewritten code needs of it and nothing
   more: no object ids, locations or digests are made (a recording's run, the end state's). */
log.r = function (site, name, scopeId) {
  if (log.enabled === false) return unchanged;
  readGroup = scopedVariable(site, name, scopeId);
  readName = name;
  record("r", readGroup, name, site, null);
  return readValue;
};
log.w = function (site, name, scopeId, value) {
  if (log.enabled === false) return value;
  var group = scopedVariable(site, name, scopeId);
  record("w", group, name, site, stored(value, group, name));
  return value;
};
log.wn = function (site, name, scopeId, value) {
  return log.w(site, name, scopeId, nameAnonymous(value, name));
};
log.rw = function (site, name, scopeId, delta) {
  if (log.enabled === false) return unchanged;
  var group = scopedVariable(site, name, scopeId);
  record("r", group, name, site, null);
  return function (result) {
    var value = digest(delta === 0 ? result : plusDelta(result, delta));
    record("w", group, name, site, value);
    return result;
  };
};
log.dl = function (site, name, scopeId, result) {
  if (log.enabled === false) return result;
  record("w", scopedVariable(site, name, scopeId), name, site, "u");
  return result;
};
log.wm = function (site, value) {
  if (log.enabled === false) return value;
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
  if (!isObject(object) || log.enabled === false) return object[key];
  key = propertyKey(key);
  currentSite = site;
  var group = propertyGroup(object);
  var name = keyName(key);
  record("r", group, name, site, null);
  return reached(object[key], group, name);
};
log.m = function (site, object, key) {
  if (isObject(object) && log.enabled !== false) {
    currentSite = site;
    record("r", propertyGroup(object), keyName(key), site, null);
    arrayCall(site, object, key);
  }
  return object;
};
log.mk = function (site, object, key) {
  if (isObject(object)) {
    key = propertyKey(key);
    if (log.enabled !== false) {
      currentSite = site;
      record("r", propertyGroup(object), keyName(key), site, null);
      arrayCall(site, object, key);
    }
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

// Installed last, once every part has added its calls.
root.__webr4.log = log;
