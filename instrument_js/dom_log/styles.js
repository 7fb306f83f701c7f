// webr4 DOM log: class lists, inline styles and data attributes (named properties through proxies).

// classList: a token list's element is remembered when the page obtains it.
var owners = sealed(new WeakMap()); // token list or style proxy -> element
function ownerLocation(object, prop) {
  var owner = owners.get(object);
  return owner === undefined ? null : "dom:" + elementKey(owner) + "." + prop;
}
(function () {
  var descriptor = describe(Element.prototype, "classList");
  var get = descriptor.get;
  var set = descriptor.set;
  var wrapped = describe({
    get classList() {
      var list = call(get, this);
      owners.set(list, this);
      return list;
    },
    set classList(value) {
      var key = active() ? observe(keyOf, this) : null;
      call(set, this, value);
      if (key !== null) record("w", "dom:" + key + ".className", digest(value));
    },
  }, "classList");
  descriptor.get = wrapped.get;
  descriptor.set = wrapped.set;
  define(Element.prototype, "classList", descriptor);
})();
function tokenListCall(kind) {
  return once(kind, function (self) { return ownerLocation(self, "className"); });
}
["add", "remove", "toggle", "replace"].forEach(function (name) {
  wrapMethod(DOMTokenList.prototype, name, tokenListCall("w"));
});
wrapMethod(DOMTokenList.prototype, "contains", tokenListCall("r"));

// Named properties (style.color, dataset.foo, localStorage.foo) are not on any prototype: the
// getters of those objects return a proxy, one per object, that logs them.
var proxyTargets = sealed(new WeakMap()); // proxy -> native object
function unproxied(self) {
  var target = proxyTargets.get(self);
  return target === undefined ? self : target;
}

/* Lets the methods and accessors of `proto` be called on a proxy: they receive the target. */
function acceptProxies(proto) {
  ownPropertyNames(proto).forEach(function (name) {
    var descriptor = describe(proto, name);
    if (name === "constructor" || !descriptor.configurable) return;
    if (typeof descriptor.value === "function") {
      var method = descriptor.value;
      descriptor.value = { [name]() { return apply(method, unproxied(this), arguments); } }[name];
      define(descriptor.value, "length", { value: method.length });
    } else if (descriptor.get) {
      var get = descriptor.get;
      var set = descriptor.set;
      var wrapped = describe({
        get [name]() { return call(get, unproxied(this)); },
        set [name](value) { call(set, unproxied(this), value); },
      }, name);
      descriptor.get = wrapped.get;
      if (set) descriptor.set = wrapped.set;
    } else {
      return;
    }
    define(proto, name, descriptor);
  });
}

/* A proxy logging the named properties of `target` (those its prototype chain lacks) at
   locate(property). */
function namedProxy(target, locate) {
  function where(property) {
    if (typeof property !== "string" || property in getPrototypeOf(target) || !active()) return null;
    return observe(locate, property);
  }
  var proxy = new NativeProxy(target, {
    get: function (object, property) {
      var value = reflectGet(object, property, object);
      var location = where(property);
      if (location !== null) record("r", location, null);
      return value;
    },
    set: function (object, property, value) {
      var location = where(property);
      var done = reflectSet(object, property, value, object);
      if (done && location !== null) record("w", location, digest(value));
      return done;
    },
    deleteProperty: function (object, property) {
      var location = where(property);
      var done = reflectDelete(object, property);
      if (done && location !== null) record("w", location, "u");
      return done;
    },
  });
  proxyTargets.set(proxy, target);
  return proxy;
}

/* Replaces getter `name` of `holder` by one returning a proxy from make(owner, native),
   created once per native object. */
function proxyGetter(holder, name, make) {
  var descriptor = describe(holder, name);
  if (!descriptor) return;
  var get = descriptor.get;
  var proxies = sealed(new WeakMap());
  descriptor.get = describe({
    get [name]() {
      var object = call(get, this);
      var proxy = proxies.get(object);
      if (proxy === undefined) proxies.set(object, (proxy = make(this, object)));
      return proxy;
    },
  }, name).get;
  define(holder, name, descriptor);
}

// style: every property of the declaration is the element's style.
acceptProxies(CSSStyleDeclaration.prototype);
function styleProxy(element, declaration) {
  var proxy = namedProxy(declaration, function () { return "dom:" + elementKey(element) + ".style"; });
  owners.set(proxy, element);
  return proxy;
}
[HTMLElement.prototype, SVGElement.prototype].forEach(function (proto) {
  proxyGetter(proto, "style", styleProxy);
  wrapAccessor(proto, "style", { key: keyOf, writes: ["style"] });
});
function styleCall(kind) {
  return once(kind, function (self) { return ownerLocation(self, "style"); });
}
wrapAccessor(CSSStyleDeclaration.prototype, "cssText",
  { key: function (self) { return owners.has(self) ? elementKey(owners.get(self)) : null; }, reads: ["style"], writes: ["style"] });
wrapMethod(CSSStyleDeclaration.prototype, "setProperty", styleCall("w"));
wrapMethod(CSSStyleDeclaration.prototype, "removeProperty", styleCall("w"));
wrapMethod(CSSStyleDeclaration.prototype, "getPropertyValue", styleCall("r"));

// dataset.fooBar is the attribute data-foo-bar.
proxyGetter(HTMLElement.prototype, "dataset", function (element, map) {
  return namedProxy(map, function (property) {
    return "dom:" + elementKey(element) + ".data-" + property.replace(/[A-Z]/g, function (c) {
      return "-" + c.toLowerCase();
    });
  });
});
