// webr4 runtime: `selectionchange` as an event.

// ------------------------------------------------------------------ selection changes
// Chromium queues a `selectionchange` task when the selection of the document or of a text
// field changes, and runs it on its own time: a handler's work (an editor answers it with a
// timer) landed before or after the next step, or not at all. So the native events are stopped
// before any page listener sees them, and `noteSelection`, once an event has settled, compares
// the document's selection and the focused text field's with what they were after the last
// event: each that changed gets a `selectionchange` event, created by the event that changed it,
// due at once and ahead of the events due at the same time (Chromium queued its task when the
// selection changed, before the timers the changing event set could be due). Running it
// dispatches `selectionchange` where Chromium does: a bubbling one on the text field, a
// non-bubbling one on the document, none on the document while a text field has the focus. A text
// field that has not the focus when its selection changes (`setSelectionRange` on another field)
// gets none, and so does a page with no `selectionchange` listener or handler property (there the
// native events run as before, for an `onselectionchange` attribute in the markup, which goes
// unseen).
const SELECTION_PRIORITY = -1;
let selectionWatched = false; // the page added a selectionchange listener or set a handler

const pageAddListener = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function addEventListener(type, listener, options) {
  if (type === "selectionchange") selectionWatched = true;
  return call(pageAddListener, this, type, listener, options);
};
for (const proto of [Document.prototype, HTMLElement.prototype]) {
  const handler = Object.getOwnPropertyDescriptor(proto, "onselectionchange");
  if (!handler || !handler.set) continue;
  N.defineProperty(proto, "onselectionchange", N.assign({}, handler, {
    set(value) { selectionWatched = true; call(handler.set, this, value); },
  }));
}
const NativeEvent = window.Event;
const nativeGetSelection = Document.prototype.getSelection;
let lastSelection = [null, 0, null, 0];
let lastField = [null, null, null, null];

function documentSelection() {
  const selection = call(nativeGetSelection, document);
  if (!selection) return [null, 0, null, 0];
  return [selection.anchorNode, selection.anchorOffset, selection.focusNode, selection.focusOffset];
}

function fieldSelection() {
  const field = document.activeElement;
  let start = null;
  try {
    start = field ? field.selectionStart : null;
  } catch (e) {
    start = null; // an input whose type has no selection
  }
  if (typeof start !== "number") return [null, null, null, null];
  return [field, start, field.selectionEnd, field.selectionDirection];
}

const sameParts = (a, b) => A.every(a, (part, i) => part === b[i]);

function dispatchSelectionChange(target) {
  const words = target === document ? "document" : elementWords(target);
  createEvent({
    category: "other", type: "selectionchange", label: `selectionchange of ${words}`,
    params: { target: words }, prio: SELECTION_PRIORITY,
    run: () => call(N.dispatchEvent, target, new NativeEvent("selectionchange", { bubbles: target !== document })),
  });
}

/** Gives each selection the settled event changed a `selectionchange` event (see above), once
 *  the page listens for one: before, nothing could tell the event ran, and it would only add
 *  orders to explore. */
function noteSelection() {
  if (!selectionWatched) return;
  const selection = documentSelection();
  const field = fieldSelection();
  // While a text field has the focus, Chromium tells of its selection alone.
  if (field[0] !== null) {
    if (!sameParts(field, lastField)) dispatchSelectionChange(field[0]);
  } else if (!sameParts(selection, lastSelection)) {
    dispatchSelectionChange(document);
  }
  lastSelection = selection;
  lastField = field;
}

call(N.addEventListener, window, "selectionchange", (e) => {
  if (e.isTrusted && selectionWatched) e.stopImmediatePropagation();
}, true);
