// webr4 runtime: timers, animation frames and idle callbacks as events.

// ------------------------------------------------------------------ timers
// Timers carry no happens-before edges of their own: the trace orders them by their due times
// (webr4/timer_order.py), whatever task created them. The runtime only computes the delay a
// browser would use: HTML clamps a delay below 4 ms to 4 ms once timers nest more than 5 deep
// (a timer set by the callback of a timer set by the callback of …), intervals included.
let nextHandle = 1;
const timerByHandle = newMap(); // handle -> pending event (current firing)
const MAX_UNCLAMPED_NESTING = 5;
const NESTED_MIN_DELAY = 4;
let timerNesting = 0; // the HTML timer nesting level of the running timer callback, 0 outside one

function toDelay(raw) {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function invoke(cb, args) {
  if (typeof cb === "function") return apply(cb, window, args);
  return (0, eval)(String(cb)); // string handlers: indirect eval, as the browser does
}

function scheduleTimer(kind, cb, requested, args, handle, firing, seriesSite) {
  const site = seriesSite || creationSite();
  const nesting = timerNesting;
  const delay = nesting > MAX_UNCLAMPED_NESTING && requested < NESTED_MIN_DELAY ? NESTED_MIN_DELAY : requested;
  const ev = createEvent({
    category: "timer", type: kind,
    label: `${kind} ${delay}ms${site ? " at " + shortSite(site) : ""}${firing ? " #" + (firing + 1) : ""}`,
    params: { delay, site, firing: firing || 0 },
    due: virtualNow + delay, site,
    run: () => {
      timerNesting = nesting + 1;
      try {
        if (kind === "setTimeout") timerByHandle.delete(handle);
        else {
          // the next firing of an interval exists from the moment this one runs
          timerByHandle.set(handle, scheduleTimer(kind, cb, requested, args, handle, (firing || 0) + 1, site));
        }
        invoke(cb, args);
      } finally {
        timerNesting = 0;
      }
    },
  });
  timerByHandle.set(handle, ev);
  return ev;
}

window.setTimeout = function setTimeout(cb, delay, ...args) {
  const handle = nextHandle++;
  scheduleTimer("setTimeout", cb, toDelay(delay), args, handle, 0);
  return handle;
};
window.setInterval = function setInterval(cb, delay, ...args) {
  const handle = nextHandle++;
  scheduleTimer("setInterval", cb, Math.max(toDelay(delay), 1), args, handle, 0);
  return handle;
};
window.clearTimeout = window.clearInterval = function clearTimer(handle) {
  const ev = timerByHandle.get(handle);
  timerByHandle.delete(handle);
  cancelEvent(ev, creationSite());
};

const FRAME = 1000 / 60;
/** The virtual time of the next rendering update, strictly after now. */
const nextFrameDue = () => Math.ceil((virtualNow + 0.001) / FRAME) * FRAME;
let lastFrameEvent = null;
window.requestAnimationFrame = function requestAnimationFrame(cb) {
  const handle = nextHandle++;
  const due = nextFrameDue();
  const site = creationSite();
  const preds = lastFrameEvent && pending.has(lastFrameEvent) ? [lastFrameEvent] : [];
  const ev = createEvent({
    category: "timer", type: "requestAnimationFrame", label: `animation frame${site ? " at " + shortSite(site) : ""}`,
    params: { site }, due, preds, site,
    run: () => { timerByHandle.delete(handle); cb(due); },
  });
  lastFrameEvent = ev.id;
  timerByHandle.set(handle, ev);
  return handle;
};
window.cancelAnimationFrame = window.clearTimeout;
window.requestIdleCallback = function requestIdleCallback(cb, options) {
  const handle = nextHandle++;
  const site = creationSite();
  const timeout = options && options.timeout ? toDelay(options.timeout) : null;
  const ev = createEvent({
    category: "timer", type: "requestIdleCallback", label: `idle callback${site ? " at " + shortSite(site) : ""}`,
    params: { site, timeout }, due: virtualNow + 1, prio: 1, site,
    run: () => { timerByHandle.delete(handle); cb({ didTimeout: false, timeRemaining: () => 50 }); },
  });
  timerByHandle.set(handle, ev);
  return handle;
};
window.cancelIdleCallback = window.clearTimeout;
