// webr4 runtime: uncaught exceptions, rejections and console errors, and the page's attempts
// to leave.

// ------------------------------------------------------------------ errors
/** Records the uncaught exceptions and unhandled rejections of `win` (the top frame's window, or
 *  a same-origin child frame's, see frames.js). */
function recordErrors(win) {
  call(N.addEventListener, win, "error", (e) => {
    if (e.target !== win) return; // resource errors are element events (lifecycle.js)
    A.push(errors, { kind: "exception", message: String(e.message || e.error), site: errorSite(e), event: current });
  });
  call(N.addEventListener, win, "unhandledrejection", onUnhandledRejection);
}
recordErrors(window);

// Leaving the page ends an execution: the event that tried is reported once (`leaving` in
// its record) and a stretch stops after it. The harness refuses the navigation itself at the
// network, so the page stays as it was for the state capture. beforeunload fires, before the
// navigation starts, for link activation, form submission and location changes (HTML
// "navigate": prompt to unload); a new window never unloads this page, hence window.open.
let navigating; // the event that tried (undefined: none)
const noteNavigation = () => { if (navigating === undefined) navigating = current; };
call(N.addEventListener, window, "beforeunload", noteNavigation);
const nativeOpen = window.open;
window.open = function open(...args) {
  noteNavigation();
  return apply(nativeOpen, this, args);
};
function onUnhandledRejection(e) {
  // As Chromium's console prints it: "Uncaught (in promise)", then an error's type and message
  // (the head of its stack, which V8 wrote when the error was made), where it was made.
  const r = e.reason;
  let stack = "";
  let shown = "";
  try {
    stack = r !== null && typeof r === "object" && typeof r.stack === "string" ? r.stack : "";
    shown = stack ? stack.split("\n    at ")[0] : String(r);
  } catch (error) {
    shown = "(a value that cannot be shown)";
  }
  A.push(errors, { kind: "unhandledrejection", message: `Uncaught (in promise) ${shown}`,
                   site: stack ? errorSite({ error: r }) : null, event: current });
}
console.error = function error(...args) {
  A.push(errors, { kind: "console", message: A.join(A.map(args, String), " "), site: creationSite(), event: current });
  return N.consoleError(...args);
};
