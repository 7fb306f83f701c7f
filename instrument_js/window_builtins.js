// The names of the own properties of a fresh about:blank window made by this page (an iframe
// added and removed at once): what capture_heap.js leaves out as the browser's, not the page's.
// They depend on the browser and the page's origin, not on what the page's scripts did to their
// own window, so the harness asks once per origin. Evaluated as a function expression: () => string[], or null when no
// frame can be made.
() => {
  try {
    const frame = document.createElement("iframe");
    frame.style.display = "none";
    (document.body || document.documentElement).appendChild(frame);
    const names = Object.getOwnPropertyNames(frame.contentWindow);
    frame.remove();
    return names;
  } catch (e) {
    return null;
  }
}
