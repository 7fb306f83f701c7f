// Like a Shadow DOM polyfill: DOM methods, Object.defineProperty and the DOM constructors are
// replaced by wrappers that count their calls and throw when `this` is not what the page
// expects. Every call counted is one the page made; the counts end up in the page.
(function () {
  var calls = window.polyfillCalls = {};
  function count(name) { calls[name] = (calls[name] || 0) + 1; }
  function wrap(proto, name, Expected) {
    var original = proto[name];
    proto[name] = function () {
      count(name);
      if (!(this instanceof Expected)) throw new TypeError("polyfill: " + name + " on a foreign object");
      return original.apply(this, arguments);
    };
  }
  wrap(Node.prototype, "appendChild", Node);
  wrap(Node.prototype, "insertBefore", Node);
  wrap(Node.prototype, "removeChild", Node);
  wrap(Element.prototype, "setAttribute", Element);
  wrap(Element.prototype, "getAttribute", Element);
  wrap(Element.prototype, "querySelectorAll", Element);
  wrap(Element.prototype, "hasAttribute", Element);
  wrap(EventTarget.prototype, "addEventListener", EventTarget);
  wrap(Event.prototype, "composedPath", Event);
  wrap(Document.prototype, "getElementById", Document);
  var nativeDescriptor = Object.getOwnPropertyDescriptor;
  var nativeDefine = Object.defineProperty;
  Object.defineProperty = function (object, key, descriptor) {
    count("defineProperty");
    return nativeDefine(object, key, descriptor);
  };
  Object.getOwnPropertyDescriptor = function (object, key) {
    count("getOwnPropertyDescriptor");
    return nativeDescriptor(object, key);
  };
  [["WeakMap", ["get", "set", "has"]]].forEach(function (pair) {
    var proto = window[pair[0]].prototype;
    pair[1].forEach(function (name) {
      var original = proto[name];
      proto[name] = function () { count(pair[0] + "." + name); return original.apply(this, arguments); };
    });
  });
  var nativeTest = RegExp.prototype.test;
  RegExp.prototype.test = function () { count("test"); return nativeTest.apply(this, arguments); };
  // The wrapper constructors take the place of the DOM's, as the polyfill's do.
  ["Node", "Element", "HTMLElement", "HTMLInputElement", "Document"].forEach(function (name) {
    var Native = window[name];
    var Wrapper = function () { throw new TypeError("Illegal constructor"); };
    Wrapper.prototype = Object.create(Native.prototype);
    window[name] = Wrapper;
  });
})();
