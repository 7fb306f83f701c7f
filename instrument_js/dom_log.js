/*
 * webr4 DOM access log: accesses made through browser APIs, recorded next to the JS accesses of
 * access_log.js (evaluate this file after it). Entries have the same shape,
 * [kind, location, siteId, valueDigest], with siteId always null. Locations:
 *
 *   dom:#x                  existence of the element with id x: read by getElementById('x') and
 *                           querySelector('#x'), written when such an element enters or leaves
 *                           the document or its id changes (seen by a MutationObserver, so parser
 *                           insertions count; these writes arrive at the next microtask checkpoint)
 *   dom:sel:<selector>      any other querySelector / querySelectorAll (read only)
 *   dom:<key>.<prop>        state of one element; <key> is "#id" when it has one, else a path from
 *                           the nearest ancestor with an id (or html/head/body):
 *                           "#list>li:nth-of-type(3)>span", where a bare tag is the first of its
 *                           type; a tree outside the document starts with "~<n>", numbered in
 *                           order of first sight; the document itself is "document".
 *                           <prop> names the state, not the API, so that aliases conflict:
 *                             textContent  textContent, innerText, innerHTML, outerHTML (read)
 *                             children     the child list: tree methods on the parent, reads of
 *                                          children / childNodes / firstChild; content writes
 *                                          and tree changes write both textContent and children
 *                             className    className, classList.*, the class attribute
 *                             style        style.*, style = ..., the style attribute
 *                             data-foo-bar dataset.fooBar and the attribute
 *                             value       an input's or textarea's value; a select's choice
 *                                         (value, selectedIndex, its options' selected)
 *                             checked     a checkbox's checkedness
 *                             radio:<n>   the checked radio of group <n>, on the key of its form
 *                                         owner (or "document"); checking one radio unchecks
 *                                         the others
 *                             src, href, and any other attribute name
 *                           The user typing writes value; a click on a checkbox or radio reads
 *                           and writes its checkedness (or its group).
 *   dom:document.activeElement  the focused element: written whenever focus moves (a click
 *                           into a control, focus(), blur(), autofocus), read by
 *                           document.activeElement and by the user typing
 *   handler:<key>.<type>    event handlers of an element, "window" or "document": written by
 *                           add/removeEventListener, on<type> = ..., on<type> attributes; read
 *                           when an event of that type is dispatched through the target
 *   storage:local.<k>       localStorage / sessionStorage items (methods and named properties)
 *   storage:session.<k>
 *   cookie:<name> / cookie:*  document.cookie set / get (the get reads every cookie)
 *
 * API wrappers keep the originals' results, exceptions, `this`, names and lengths, and replace
 * prototype properties with descriptors of the same shape. The wrappers' own work uses the
 * native functions captured below, and a reentrancy flag keeps it from being logged.
 */
(function (root) {
  "use strict";

  var call = Function.prototype.call.bind(Function.prototype.call); // call(fn, self, ...args)
  var apply = Reflect.apply;
  var describe = Object.getOwnPropertyDescriptor;
  var define = Object.defineProperty;
  var getPrototypeOf = Object.getPrototypeOf;
  var ownPropertyNames = Object.getOwnPropertyNames;
  var createObject = Object.create;
  var reflectGet = Reflect.get;
  var reflectSet = Reflect.set;
  var reflectDelete = Reflect.deleteProperty;
  var NativeProxy = Proxy;
  var testPattern = RegExp.prototype.test; // call(testPattern, pattern, text)
  var doc = document;
  // The page may replace these globals (a Shadow DOM polyfill puts its own constructors there).
  var NativeNode = Node;
  var NativeElement = Element;
  var NativeInput = HTMLInputElement;
  var NativeTextArea = HTMLTextAreaElement;
  var NativeSelect = HTMLSelectElement;

  var log = root.__webr4 && root.__webr4.log;
  var installed = Symbol.for("webr4.domLog");
  if (!log || log[installed]) return; // a frame the runtime does not control, or a second run
  define(log, installed, { value: true });
  var sealed = log.sealed;


  function getterOf(proto, name) {
    return describe(proto, name).get;
  }
  var nodeType = getterOf(Node.prototype, "nodeType");
  var parentNode = getterOf(Node.prototype, "parentNode");
  var elementId = getterOf(Element.prototype, "id");
  var localName = getterOf(Element.prototype, "localName");
  var previousElementSibling = getterOf(Element.prototype, "previousElementSibling");
  var querySelectorAll = Element.prototype.querySelectorAll;
  var hasAttribute = Element.prototype.hasAttribute;
  var addEventListener = EventTarget.prototype.addEventListener;
  var composedPath = Event.prototype.composedPath;
  var storageKey = Storage.prototype.key;
  var storageLength = getterOf(Storage.prototype, "length");
  var inputType = getterOf(HTMLInputElement.prototype, "type");
  var inputValue = getterOf(HTMLInputElement.prototype, "value");
  var inputChecked = getterOf(HTMLInputElement.prototype, "checked");
  var textAreaValue = getterOf(HTMLTextAreaElement.prototype, "value");
  var selectValue = getterOf(HTMLSelectElement.prototype, "value");

  // ------------------------------------------------------------------ the buffer
  // Entries go into access_log.js's buffer, in order with the JS entries.
  var busy = false; // set while this file's own code runs

  function active() {
    return !busy && log.enabled !== false;
  }

  function record(kind, location, valueDigest) {
    log.append([kind, location, null, valueDigest]);
  }

  var digest = log.digest; // one notion of "the same value" across both logs

  /* A string argument as the API will see it, without running user code (null if it would). */
  function text(value) {
    var type = typeof value;
    if (type === "string") return value;
    return type === "number" || type === "boolean" || type === "undefined" || value === null
      ? String(value) : null;
  }

  /* Runs this file's bookkeeping for an API call. Errors are swallowed: a bad receiver or argument
     must surface as the API's own error, raised by the original that runs next. */
  function observe(fn, self, arg) {
    busy = true;
    try {
      return fn(self, arg);
    } catch (error) {
      return null;
    } finally {
      busy = false;
    }
  }

  // ------------------------------------------------------------------ element keys
  var treeNumbers = sealed(new WeakMap());
  var nextTree = 1;

  function treeLabel(node) {
    var n = treeNumbers.get(node);
    if (n === undefined) treeNumbers.set(node, (n = nextTree++));
    return "~" + n;
  }

  function elementKey(element) {
    var path = "";
    for (var node = element; ;) {
      var id = call(elementId, node);
      if (id) return "#" + id + path;
      var name = call(localName, node);
      if (name === "html" || name === "head" || name === "body") return name + path;
      var index = 1;
      for (var s = call(previousElementSibling, node); s; s = call(previousElementSibling, s)) {
        if (call(localName, s) === name) index++;
      }
      path = ">" + (index === 1 ? name : name + ":nth-of-type(" + index + ")") + path;
      var parent = call(parentNode, node);
      if (!parent || call(nodeType, parent) !== 1) return treeLabel(parent || node) + path;
      node = parent;
    }
  }

  /* The key of an element, of a text node's parent element, or "document"; null otherwise. */
  function keyOf(node) {
    switch (call(nodeType, node)) {
      case 1: return elementKey(node);
      case 3: {
        var parent = call(parentNode, node);
        return parent && call(nodeType, parent) === 1 ? elementKey(parent) : null;
      }
      case 9: return node === doc ? "document" : null;
      default: return null;
    }
  }

  /** The key of a node for naming the objects that access_log.js sees (null when it has none). */
  log.nodeKey = function (node) {
    return observe(keyOf, node);
  };

  function parentKey(node) {
    var parent = call(parentNode, node);
    return parent ? keyOf(parent) : null;
  }

  function targetKey(target) {
    if (target === root) return "window";
    return target instanceof NativeNode ? keyOf(target) : null;
  }

  // ------------------------------------------------------------------ wrapping
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

  // ------------------------------------------------------------------ lookups by id and selector
  function selectorLocation(selector) {
    var s = text(selector);
    if (s === null) return null;
    return call(testPattern, /^#[\w-]+$/, s) ? "dom:" + s : "dom:sel:" + s;
  }

  /* Whether the direct caller of `wrapper` is webr4's own code (a script whose name starts with
     __webr4_): the runtime runs querySelectorAll on inserted nodes, and those calls are not the
     page's. Reads one stack frame, formatted by V8's structured API so that a page's
     Error.prepareStackTrace is not called. */
  function calledByWebr4(wrapper) {
    var limit = Error.stackTraceLimit;
    var prepare = Error.prepareStackTrace;
    Error.stackTraceLimit = 1;
    Error.prepareStackTrace = function (error, frames) {
      return frames.length ? String(frames[0].getScriptNameOrSourceURL()) : "";
    };
    try {
      var holder = {};
      Error.captureStackTrace(holder, wrapper);
      return holder.stack.indexOf("__webr4_") === 0;
    } finally {
      Error.stackTraceLimit = limit;
      Error.prepareStackTrace = prepare;
    }
  }

  /* A querySelectorAll result also reads the child lists holding the elements found. */
  function readParents(found) {
    var last = null;
    for (var i = 0; i < found.length; i++) {
      var parent = call(parentNode, found[i]);
      if (parent === last) continue;
      last = parent;
      var key = keyOf(parent);
      if (key !== null) record("r", "dom:" + key + ".children", null);
    }
  }

  wrapMethod(Document.prototype, "getElementById", once("r", function (self, args) {
    var id = text(args[0]);
    return id === null ? null : "dom:#" + id;
  }));
  [Document.prototype, Element.prototype, DocumentFragment.prototype].forEach(function (proto) {
    wrapMethod(proto, "querySelector", once("r", function (self, args) {
      return selectorLocation(args[0]);
    }));
    var wrapper = wrapMethod(proto, "querySelectorAll", function (self, args) {
      var location = calledByWebr4(wrapper) ? null : selectorLocation(args[0]);
      return location === null ? null : function (found) {
        record("r", location, null);
        observe(readParents, found);
      };
    });
  });

  // Elements entering or leaving the document, and id changes, write dom:#id.
  function writeIds(node) {
    if (call(nodeType, node) !== 1) return;
    var id = call(elementId, node);
    if (id) record("w", "dom:#" + id, null);
    var inside = call(querySelectorAll, node, "[id]");
    for (var i = 0; i < inside.length; i++) record("w", "dom:#" + call(elementId, inside[i]), null);
  }
  new MutationObserver(function (mutations) {
    if (!active()) return;
    busy = true;
    try {
      for (var i = 0; i < mutations.length; i++) {
        var m = mutations[i];
        if (m.type === "attributes") {
          if (m.oldValue) record("w", "dom:#" + m.oldValue, null);
          var id = call(elementId, m.target);
          if (id) record("w", "dom:#" + id, null);
          continue;
        }
        for (var a = 0; a < m.addedNodes.length; a++) writeIds(m.addedNodes[a]);
        for (var r = 0; r < m.removedNodes.length; r++) writeIds(m.removedNodes[r]);
      }
    } finally {
      busy = false;
    }
  }).observe(doc, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["id"], attributeOldValue: true,
  });

  // ------------------------------------------------------------------ element content and state
  var CONTENT = { key: keyOf, reads: ["textContent"], writes: ["textContent", "children"] };
  wrapAccessor(Node.prototype, "textContent", CONTENT);
  wrapAccessor(HTMLElement.prototype, "innerText", CONTENT);
  wrapAccessor(Element.prototype, "innerHTML", CONTENT);
  wrapAccessor(Element.prototype, "outerHTML",
    { key: keyOf, reads: ["textContent"], writeKey: parentKey, writes: ["children", "textContent"] });
  wrapAccessor(Element.prototype, "className", { key: keyOf, reads: ["className"], writes: ["className"] });

  function formState(prop) {
    return { key: keyOf, reads: [prop], writes: [prop] };
  }
  wrapAccessors([HTMLInputElement.prototype, HTMLTextAreaElement.prototype,
    HTMLOptionElement.prototype, HTMLButtonElement.prototype, HTMLOutputElement.prototype], "value", formState("value"));

  // The state a user changes and a script may change too is one location per control, whatever
  // API names it: a select's choice (value, selectedIndex, option.selected), a checkbox's
  // checkedness, and the checked radio button of a group.
  var inputForm = getterOf(HTMLInputElement.prototype, "form");
  var inputName = getterOf(HTMLInputElement.prototype, "name");
  var optionSelect = (function () {
    var parentElement = getterOf(Node.prototype, "parentElement");
    return function (option) {
      var parent = call(parentElement, option);
      if (parent && call(localName, parent) === "optgroup") parent = call(parentElement, parent);
      return parent && call(localName, parent) === "select" ? parent : null;
    };
  })();

  /* Where the checkedness of an input lives. HTML's radio button group
     (https://html.spec.whatwg.org/multipage/input.html#radio-button-group): radios with the same
     form owner, in the same tree, with the same non-empty name; checking one unchecks the
     others, so the group is one location: "<form owner key, or the tree's root key>.radio:<name>".
     Any other input (a checkbox, a radio without a name) is "<key>.checked". */
  function checkedLocation(input) {
    var name = call(inputType, input) === "radio" ? call(inputName, input) : "";
    if (!name) return "dom:" + elementKey(input) + ".checked";
    var owner = call(inputForm, input);
    var scope;
    if (owner) {
      scope = elementKey(owner);
    } else {
      var top = input;
      for (var up = call(parentNode, top); up; up = call(parentNode, top)) top = up;
      scope = top === doc ? "document" : treeLabel(top);
    }
    return "dom:" + scope + ".radio:" + name;
  }
  function selectLocation(select) {
    return "dom:" + elementKey(select) + ".value";
  }
  function optionLocation(option) {
    var select = optionSelect(option);
    return select ? selectLocation(select) : "dom:" + elementKey(option) + ".selected";
  }

  /* The digest of the state at checkedLocation(input): its checkedness, or for a radio group the
     key of the radio checked ("null": none). */
  function checkedState(input) {
    var checked = call(inputChecked, input);
    if (call(inputType, input) !== "radio" || !call(inputName, input)) return digest(checked);
    return checked ? digest(elementKey(input)) : "null";
  }
  /* The digest of a select's choice: its value. */
  function selectState(select) {
    return digest(call(selectValue, select));
  }
  function optionState(option) {
    var select = optionSelect(option);
    return select ? selectState(select) : null;
  }

  /* Wraps a native accessor whose reads and writes are one location, locate(self) (null: none);
     a write stores state(self), read once the native setter has run, or the value set when
     `state` is absent, so that every API writing the location names its value alike. */
  function wrapState(proto, name, locate, state) {
    var descriptor = describe(proto, name);
    if (!descriptor || !descriptor.get) return;
    var get = descriptor.get;
    var set = descriptor.set;
    var wrapped = describe({
      get [name]() {
        var value = call(get, this);
        var where = active() ? observe(locate, this) : null;
        if (where !== null) record("r", where, null);
        return value;
      },
      set [name](value) {
        var where = active() ? observe(locate, this) : null;
        call(set, this, value);
        if (where !== null) record("w", where, state ? observe(state, this) : digest(value));
      },
    }, name);
    descriptor.get = wrapped.get;
    if (set) descriptor.set = wrapped.set;
    define(proto, name, descriptor);
  }
  wrapState(HTMLInputElement.prototype, "checked", checkedLocation, checkedState);
  wrapState(HTMLSelectElement.prototype, "value", selectLocation, selectState);
  wrapState(HTMLSelectElement.prototype, "selectedIndex", selectLocation, selectState);
  wrapState(HTMLOptionElement.prototype, "selected", optionLocation, optionState);

  /* Focus is document state: "document.activeElement", read through document.activeElement and
     by the user typing, written whenever focus moves. Focus moves fire focusin and focusout
     (https://html.spec.whatwg.org/multipage/interaction.html#focus-update-steps) whatever moved
     it: a click or tap into a control, el.focus(), el.blur(), autofocus. The written value is the
     key of the element focused ("body" once focus leaves an element for none). */
  var FOCUS = "dom:document.activeElement";
  wrapState(Document.prototype, "activeElement", function (self) { return self === doc ? FOCUS : null; });
  function onFocusMove(event) {
    if (!active()) return;
    busy = true;
    try {
      var into = event.type === "focusin" ? event.target : event.relatedTarget;
      record("w", FOCUS, digest(into instanceof NativeElement ? elementKey(into) : "body"));
    } finally {
      busy = false;
    }
  }
  function onTyping(event) {
    if (event.isTrusted && active()) record("r", FOCUS, null);
  }
  // Only writes: the runtime reads src and href itself when resources load.
  wrapAccessors([HTMLImageElement.prototype, HTMLScriptElement.prototype, HTMLIFrameElement.prototype,
    HTMLMediaElement.prototype, HTMLSourceElement.prototype, HTMLEmbedElement.prototype,
    HTMLInputElement.prototype, HTMLTrackElement.prototype], "src", { key: keyOf, writes: ["src"] });
  wrapAccessors([HTMLAnchorElement.prototype, HTMLLinkElement.prototype, HTMLAreaElement.prototype,
    HTMLBaseElement.prototype], "href", { key: keyOf, writes: ["href"] });

  /* The location an attribute name maps to; on<type> attributes are handlers. */
  function attributeLocation(element, name) {
    var attribute = text(name);
    if (attribute === null) return null;
    attribute = attribute.toLowerCase();
    if (attribute.slice(0, 2) === "on") return "handler:" + elementKey(element) + "." + attribute.slice(2);
    return "dom:" + elementKey(element) + "." + (attribute === "class" ? "className" : attribute);
  }
  wrapMethod(Element.prototype, "getAttribute", once("r", function (self, args) {
    return attributeLocation(self, args[0]);
  }));
  wrapMethod(Element.prototype, "setAttribute", function (self, args) {
    var where = attributeLocation(self, args[0]);
    if (where === null) return null;
    var value = digest(args[1]);
    if (where.slice(0, 8) === "handler:") noteHandler(self, where.slice(where.lastIndexOf(".") + 1));
    return function () { record("w", where, value); };
  });
  wrapMethod(Element.prototype, "removeAttribute", function (self, args) {
    var where = attributeLocation(self, args[0]);
    return where === null ? null : function () { record("w", where, "u"); };
  });
  wrapMethod(Element.prototype, "toggleAttribute", function (self, args) {
    var where = attributeLocation(self, args[0]);
    return where === null ? null : function (present) { record("w", where, "b:" + present); };
  });

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

  // ------------------------------------------------------------------ tree changes
  /* Writes the child list (and content) of `key`, and of the old parents of moved nodes. */
  function treeChange(key, nodes) {
    var keys = key === null ? [] : [key];
    for (var i = 0; nodes && i < nodes.length; i++) {
      var node = nodes[i];
      if (node instanceof NativeNode && call(parentNode, node)) {
        var old = parentKey(node);
        if (old !== null && keys.indexOf(old) < 0) keys.push(old);
      }
    }
    return keys.length === 0 ? null : function () {
      for (var k = 0; k < keys.length; k++) {
        record("w", "dom:" + keys[k] + ".children", null);
        record("w", "dom:" + keys[k] + ".textContent", null);
      }
    };
  }
  function onSelf(self, args) {
    return treeChange(keyOf(self), args);
  }
  function onParent(self, args) {
    return treeChange(parentKey(self), args);
  }
  ["appendChild", "insertBefore", "replaceChild", "removeChild"].forEach(function (name) {
    wrapMethod(Node.prototype, name, onSelf);
  });
  ["append", "prepend"].forEach(function (name) {
    wrapMethod(Element.prototype, name, onSelf);
  });
  ["before", "after", "replaceWith", "remove"].forEach(function (name) {
    wrapMethod(Element.prototype, name, onParent);
  });
  ["insertAdjacentHTML", "insertAdjacentElement", "insertAdjacentText"].forEach(function (name) {
    wrapMethod(Element.prototype, name, function (self, args) {
      var position = text(args[0]);
      var outside = position !== null && call(testPattern, /^(beforebegin|afterend)$/i, position);
      return treeChange(outside ? parentKey(self) : keyOf(self), name === "insertAdjacentElement" ? [args[1]] : null);
    });
  });
  var CHILDREN = { key: keyOf, reads: ["children"] };
  wrapAccessors([Element.prototype, Document.prototype, DocumentFragment.prototype], "children", CHILDREN);
  wrapAccessor(Node.prototype, "childNodes", CHILDREN);
  wrapAccessor(Node.prototype, "firstChild", CHILDREN);

  // ------------------------------------------------------------------ event handlers
  var handled = sealed(new WeakMap()); // target -> {type: true} for targets given a handler by the page
  function noteHandler(target, type) {
    var types = handled.get(target);
    if (!types) handled.set(target, (types = createObject(null)));
    types[type] = true;
  }
  function handlerChange(adds) {
    return function (self, args) {
      var type = text(args[0]);
      var key = type === null ? null : targetKey(self);
      if (key === null) return null;
      return function () {
        if (adds) noteHandler(self, type);
        record("w", "handler:" + key + "." + type, null);
      };
    };
  }
  wrapMethod(EventTarget.prototype, "addEventListener", handlerChange(true));
  wrapMethod(EventTarget.prototype, "removeEventListener", handlerChange(false));

  var HANDLER_TYPES = ["click", "dblclick", "mousedown", "mouseup", "input", "change", "submit",
    "keydown", "keyup", "keypress", "focus", "blur", "load", "error", "message", "scroll", "resize"];
  HANDLER_TYPES.forEach(function (type) {
    var spec = {
      prefix: "handler:", key: targetKey, reads: [type], writes: [type],
      written: function (target) { noteHandler(target, type); },
    };
    // Elements and the document inherit on<type>; the window has its own.
    [HTMLElement.prototype, Document.prototype, root].forEach(function (target) {
      wrapAccessor(target, "on" + type, spec);
    });
  });

  /* Dispatch: a read of the event's own target (whether or not a handler is there yet: an event
   * that arrives before its handler is attached races with the attaching), and of every other
   * target on the path that has a handler for its type. */
  function onDispatch(event) {
    if (!active()) return;
    busy = true;
    try {
      var type = event.type;
      var path = call(composedPath, event);
      for (var i = 0; i < path.length; i++) {
        var target = path[i];
        var types = handled.get(target);
        var inline = target instanceof NativeElement && call(hasAttribute, target, "on" + type);
        if (i === 0 || (types && types[type]) || inline) {
          var key = targetKey(target);
          if (key !== null) record("r", "handler:" + key + "." + type, null);
        }
      }
    } finally {
      busy = false;
    }
  }
  // The runtime holds native load, error, DOMContentLoaded and message events (stopping them in
  // its own listeners, which come first) and dispatches them again when their event runs; these
  // listeners are placed so that they see only that second dispatch.
  ["click", "dblclick", "mousedown", "mouseup", "input", "change", "submit", "keydown", "keyup",
    "keypress", "DOMContentLoaded"].forEach(function (type) {
    call(addEventListener, root, type, onDispatch, true);
  });
  ["load", "error"].forEach(function (type) {
    call(addEventListener, root, type, function (event) {
      if (event.target === root) onDispatch(event);
    }, true);
    call(addEventListener, doc, type, onDispatch, true);
  });
  call(addEventListener, root, "message", onDispatch);

  // The user typing or choosing writes the form control (user events are trusted). The browser
  // fires no input event at a control the user cannot change (disabled, readonly), so those
  // produce no write. A click toggles a checkbox or radio: it reads the checkedness it flips, so
  // the write is never taken for a blind store of the same value.
  var chosenByUser = null; // the select a user action is choosing in (see log.userChooses)
  function onUserInput(event) {
    var target = event.target;
    if (!(event.isTrusted || target === chosenByUser) || !active()) return;
    busy = true;
    try {
      var where;
      var value;
      if (target instanceof NativeInput) {
        if (call(testPattern, /^(checkbox|radio)$/, call(inputType, target))) {
          if (event.type === "change") return; // the input event before it logged the toggle
          where = checkedLocation(target);
          record("r", where, null);
          record("w", where, checkedState(target));
          return;
        }
        where = "dom:" + elementKey(target) + ".value";
        value = call(inputValue, target);
      } else if (target instanceof NativeTextArea) {
        where = "dom:" + elementKey(target) + ".value";
        value = call(textAreaValue, target);
      } else if (target instanceof NativeSelect) {
        if (event.type === "change") return; // the input event before it logged the choice
        where = selectLocation(target);
        value = call(selectValue, target);
      } else {
        return;
      }
      record("w", where, digest(value));
    } finally {
      busy = false;
    }
  }
  call(addEventListener, doc, "input", onUserInput, true);
  call(addEventListener, doc, "change", onUserInput, true);
  /* The harness chooses options the way Playwright does, from script, so the input and change
     events of the choice are not trusted: it names the select before choosing (null after). */
  log.userChooses = function userChooses(select) {
    chosenByUser = select instanceof NativeSelect ? select : null;
  };
  call(addEventListener, root, "focusin", onFocusMove, true);
  call(addEventListener, root, "focusout", function (event) {
    if (!event.relatedTarget) onFocusMove(event); // else the focusin that follows writes it
  }, true);
  call(addEventListener, root, "keydown", onTyping, true);
  call(addEventListener, root, "beforeinput", onTyping, true);

  // ------------------------------------------------------------------ storage and cookies
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
})(globalThis);
//# sourceURL=__webr4_dom_log__.js
