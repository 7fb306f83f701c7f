// webr4 DOM log: event handlers, dispatch, and the user's input and focus.

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
