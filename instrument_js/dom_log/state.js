// webr4 DOM log: element content, form state, focus and attributes.

var CONTENT = { key: keyOf, reads: ["textContent"], writes: ["textContent", "children"] };
wrapAccessor(Node.prototype, "textContent", CONTENT);
wrapAccessor(HTMLElement.prototype, "innerText", CONTENT);
wrapAccessor(Element.prototype, "innerHTML", CONTENT);
wrapAccessor(ShadowRoot.prototype, "innerHTML", CONTENT);
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

/* Attributes a script sets through their reflecting property (el.hidden = false,
   button.disabled = true, details.open = true) are the attribute's location, as setAttribute
   names it; a dialog's show(), showModal() and close() set its open attribute too. */
function reflected(attribute) {
  return { key: keyOf, reads: [attribute], writes: [attribute] };
}
wrapAccessor(HTMLElement.prototype, "hidden", reflected("hidden"));
wrapAccessors([HTMLButtonElement.prototype, HTMLInputElement.prototype, HTMLSelectElement.prototype,
  HTMLTextAreaElement.prototype, HTMLFieldSetElement.prototype, HTMLOptGroupElement.prototype,
  HTMLOptionElement.prototype], "disabled", reflected("disabled"));
wrapAccessors([HTMLInputElement.prototype, HTMLTextAreaElement.prototype], "readOnly", reflected("readonly"));
wrapAccessors([HTMLDetailsElement.prototype, HTMLDialogElement.prototype], "open", reflected("open"));
["show", "showModal", "close"].forEach(function (name) {
  wrapMethod(HTMLDialogElement.prototype, name, function (self) {
    var key = keyOf(self);
    return key === null ? null : function () { record("w", "dom:" + key + ".open", null); };
  });
});

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
