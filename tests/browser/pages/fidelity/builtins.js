// Like a logging or compatibility library: the builtins a script leans on most (array methods,
// Map, Set, JSON, Function.prototype.call/apply/bind, Promise.prototype.then, Object.assign) are
// replaced by wrappers that count their calls, and the Map and Set globals by counting
// constructors. Every call counted is one the page made; the counts end up in the page.
(function () {
  var calls = window.builtinCalls = {};
  var reflectApply = Reflect.apply;
  function wrap(owner, name, label) {
    var original = owner[name];
    owner[name] = function () {
      calls[label] = (calls[label] || 0) + 1;
      return reflectApply(original, this, arguments);
    };
  }
  var arrayMethods = ["push", "pop", "shift", "splice", "slice", "indexOf", "includes", "map", "filter", "forEach",
    "every", "some", "sort", "concat", "join"];
  for (var i = 0; i < arrayMethods.length; i++) wrap(Array.prototype, arrayMethods[i], "Array." + arrayMethods[i]);
  var collections = [[Map, ["get", "set", "has", "delete"]], [Set, ["add", "has", "delete"]],
    [WeakSet, ["add", "has", "delete"]]];
  for (var c = 0; c < collections.length; c++) {
    for (var m = 0; m < collections[c][1].length; m++) {
      wrap(collections[c][0].prototype, collections[c][1][m], collections[c][0].name + "." + collections[c][1][m]);
    }
  }
  wrap(JSON, "stringify", "JSON.stringify");
  wrap(JSON, "parse", "JSON.parse");
  wrap(Object, "assign", "Object.assign");
  wrap(Promise.prototype, "then", "Promise.then");
  wrap(Function.prototype, "bind", "Function.bind");
  wrap(Function.prototype, "apply", "Function.apply");
  wrap(Function.prototype, "call", "Function.call");
  // The constructors themselves give way to counting ones, as a collections polyfill's do.
  [Map, Set].forEach(function (Native) {
    var label = "new " + Native.name;
    var Counting = function (items) {
      calls[label] = (calls[label] || 0) + 1;
      return new Native(items);
    };
    Counting.prototype = Native.prototype;
    window[Native.name] = Counting;
  });
})();
