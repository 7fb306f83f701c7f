// webr4 DOM log: wrapping native methods and accessors so that they log.

function wrapMethod(proto, name, before) {
  var descriptor = describe(proto, name);
  if (!descriptor || typeof descriptor.value !== "function") return;
  var original = descriptor.value;
  // A method definition, like the native: not a constructor, no prototype property.
  descriptor.value = {
    [name]() {
      var after = active() ? observe(before, this, arguments) : null;
      var result = apply(original, this, arguments);
      if (after) after(result);
      return result;
    },
  }[name];
  define(descriptor.value, "length", { value: original.length });
  define(proto, name, descriptor);
  return descriptor.value;
}

/* Wraps a native accessor; spec: {key(self) -> key or null, reads: [prop], writes: [prop],
   writeKey (default key), prefix (default "dom:"), written(self) called after a logged write}.
   Entries are "<prefix><key>.<prop>"; a setter's are recorded once it has returned normally. */
function wrapAccessor(proto, name, spec) {
  var descriptor = describe(proto, name);
  if (!descriptor || !descriptor.get) return;
  var get = descriptor.get;
  var set = descriptor.set;
  var prefix = spec.prefix || "dom:";
  var reads = spec.reads || [];
  var writes = spec.writes || [];
  var writeKey = spec.writeKey || spec.key;
  var wrapped = describe({
    get [name]() {
      var value = call(get, this);
      if (reads.length && active()) {
        var key = observe(spec.key, this);
        if (key !== null) for (var i = 0; i < reads.length; i++) record("r", prefix + key + "." + reads[i], null);
      }
      return value;
    },
    set [name](value) {
      var key = writes.length && active() ? observe(writeKey, this) : null;
      call(set, this, value);
      if (key === null) return;
      for (var i = 0; i < writes.length; i++) {
        record("w", prefix + key + "." + writes[i], i === 0 ? digest(value) : null);
      }
      if (spec.written) spec.written(this);
    },
  }, name);
  descriptor.get = wrapped.get;
  if (set) descriptor.set = wrapped.set;
  define(proto, name, descriptor);
}

function wrapAccessors(protos, name, spec) {
  for (var i = 0; i < protos.length; i++) wrapAccessor(protos[i], name, spec);
}

/* A `before` for wrapMethod that records one entry at `location(self, args)` after the call. */
function once(kind, location) {
  return function (self, args) {
    var where = location(self, args);
    return where === null ? null : function () { record(kind, where, null); };
  };
}
