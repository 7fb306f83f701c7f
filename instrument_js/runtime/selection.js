// webr4 runtime: `selectionchange` as an event.

// ------------------------------------------------------------------ selection changes
// Chromium queues a `selectionchange` task when the selection of the document or of a text
// field changes (one per task that changed it), and runs it on its own time: a handler's work
// (an editor answers it with a timer) landed before or after the next step, or not at all. So
// each native `selectionchange` is stopped before any page listener sees it and becomes an event,
// created by the event during which Chromium dispatched it (the one that changed the selection:
// the event settles after its native completions), due at once and ahead of the events due at
// the same time, which the changing event created after Chromium had queued the task. Running it
// dispatches `selectionchange` on the same target, bubbling as Chromium's does: from a text
// field, not from the document.
const SELECTION_PRIORITY = -1;
const NativeEvent = window.Event;

function targetWords(target) {
  return target === document ? "document" : target.id ? `${target.localName}#${target.id}` : target.localName;
}

function holdSelectionChange(e) {
  if (!e.isTrusted) return; // the runtime's own dispatch
  e.stopImmediatePropagation();
  const target = e.target;
  createEvent({
    category: "other", type: "selectionchange", label: `selectionchange of ${targetWords(target)}`,
    params: { target: targetWords(target) }, prio: SELECTION_PRIORITY,
    run: () => {
      call(N.dispatchEvent, target, new NativeEvent("selectionchange", { bubbles: e.bubbles, cancelable: e.cancelable }));
    },
  });
}
call(N.addEventListener, window, "selectionchange", holdSelectionChange, true);
