// webr4 runtime: same-origin child frames under the top frame's control.
//
// A child frame of the top frame's origin shares the top frame's event loop, so its events take
// turns with the top frame's. The init script, run in the frame's document before its scripts,
// hands the frame's window to the top frame's runtime (`adoptFrame`), which puts the frame's
// timers, `fetch` and `XMLHttpRequest` under control: their completions become events of the one
// pending set, made like the top frame's (their creator is the event running when they were
// asked for) and run when the harness chooses. Its clock is the virtual one, its random numbers
// the running event's stream, and its uncaught exceptions and rejections are recorded with the
// top frame's. The frame's `__webr4.log` is the top frame's access log, so the frame's rewritten
// scripts log into the same event's accesses, with the same object ids, and a race across the
// frame's boundary is found. Still native in a frame: messages, its parsing and its own element
// loads, and what the access log's DOM part (dom_log) sees of the top frame's DOM calls: it wraps
// the top frame's prototypes only.

const adoptedFrames = newWeakSet();
const frameApi = N.defineProperty({}, "log", { get: () => api.log, enumerable: true });

function adoptFrame(win) {
  // A frame's first document is the initial about:blank; the document that replaces it keeps
  // its window (and what was installed there) when it has the same origin.
  if (adoptedFrames.has(win)) return;
  adoptedFrames.add(win);
  const nativeFetch = win.fetch.bind(win);
  const NativeRequest = win.XMLHttpRequest;
  N.defineProperty(win, "__webr4", { value: frameApi, enumerable: false, configurable: false, writable: false });
  installDeterminism(win, win.Date);
  recordErrors(win);
  installTimers(win);
  installFetch(win, nativeFetch);
  win.XMLHttpRequest = frameXMLHttpRequest(win, NativeRequest);
}
