// webr4 DOM log: storage and cookies.

var areas = sealed(new Map());
[["localStorage", "local"], ["sessionStorage", "session"]].forEach(function (pair) {
  try {
    areas.set(root[pair[0]], "storage:" + pair[1] + ".");
  } catch (error) {
    // storage is unavailable on opaque origins
  }
});
function storageLocation(self, key) {
  var prefix = areas.get(unproxied(self));
  var name = text(key);
  return prefix === undefined || name === null ? null : prefix + name;
}
acceptProxies(Storage.prototype);
wrapMethod(Storage.prototype, "getItem", once("r", function (self, args) {
  return storageLocation(self, args[0]);
}));
wrapMethod(Storage.prototype, "setItem", function (self, args) {
  var location = storageLocation(self, args[0]);
  var value = digest(args[1]);
  return location === null ? null : function () { record("w", location, value); };
});
wrapMethod(Storage.prototype, "removeItem", function (self, args) {
  var location = storageLocation(self, args[0]);
  return location === null ? null : function () { record("w", location, "u"); };
});
// clear() writes every item there was.
wrapMethod(Storage.prototype, "clear", function (self) {
  var area = unproxied(self);
  var prefix = areas.get(area);
  if (prefix === undefined) return null;
  var locations = [];
  for (var i = call(storageLength, area) - 1; i >= 0; i--) locations.push(prefix + call(storageKey, area, i));
  return function () {
    for (var k = 0; k < locations.length; k++) record("w", locations[k], "u");
  };
});
areas.forEach(function (prefix, area) {
  var name = prefix === "storage:local." ? "localStorage" : "sessionStorage";
  proxyGetter(root, name, function (window, native) {
    return namedProxy(native, function (property) { return prefix + property; });
  });
});

(function () {
  var descriptor = describe(Document.prototype, "cookie");
  var get = descriptor.get;
  var set = descriptor.set;
  var wrapped = describe({
    get cookie() {
      var value = call(get, this);
      if (active()) record("r", "cookie:*", null);
      return value;
    },
    set cookie(value) {
      var assignment = active() ? text(value) : null;
      call(set, this, value);
      if (assignment === null) return;
      var pair = assignment.split(";")[0];
      var equals = pair.indexOf("=");
      record("w", "cookie:" + (equals < 0 ? "" : pair.slice(0, equals).trim()), digest(value));
    },
  }, "cookie");
  descriptor.get = wrapped.get;
  descriptor.set = wrapped.set;
  define(Document.prototype, "cookie", descriptor);
})();
