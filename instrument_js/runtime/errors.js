// webr4 runtime: uncaught exceptions, rejections and console errors, and the page's attempts
// to leave.

// ------------------------------------------------------------------ errors
call(N.addEventListener, window, "error", (e) => {
  if (e.target !== window) return; // resource errors are element events, handled below
  A.push(errors, { kind: "exception", message: String(e.message || e.error), site: errorSite(e), event: current });
});
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
call(N.addEventListener, window, "unhandledrejection", (e) => {
  const r = e.reason;
  A.push(errors, { kind: "unhandledrejection", message: String(r && r.stack ? r.message : r), site: null, event: current });
});
console.error = function error(...args) {
  A.push(errors, { kind: "console", message: A.join(A.map(args, String), " "), site: creationSite(), event: current });
  return N.consoleError(...args);
};
