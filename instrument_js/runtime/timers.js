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
const FRAME = 1000 / 60;
/** The virtual time of the next rendering update, strictly after now. */
const nextFrameDue = () => Math.ceil((virtualNow + 0.001) / FRAME) * FRAME;
let timerNesting = 0; // the HTML timer nesting level of the running timer callback, 0 outside one

function toDelay(raw) {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function callbackIn(win, cb, args) {
  // The timer's callback as the browser calls it in `win`: with `win` as `this`, a string by
  // indirect eval in `win`'s realm. A child frame's exception goes to its own window's error
  // handlers, as it would in a task of its own (the runtime's tasks are the top frame's).
  const run = () => (typeof cb === "function" ? apply(cb, win, args) : (0, win.eval)(cb));
  if (win === window) return run;
  return () => { try { run(); } catch (e) { win.reportError(e); } };
}

// A handler that is no function is code, made a string once, when the timer is set, as the
// browser does. Where the page's policy forbids evaluating strings, Chromium refuses such a timer
// there and then: it reports the violation and returns 0. Asking the native setTimeout lets
// Chromium decide, and report, as it would; a timer it accepts is cleared before it can fire.
function refusesCode(code) {
  const probe = N.setTimeout(code, 2147483647);
  if (probe === 0) return true;
  N.clearTimeout(probe);
  return false;
}

function scheduleTimer(kind, callback, requested, handle, firing, seriesSite) {
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
          timerByHandle.set(handle, scheduleTimer(kind, callback, requested, handle, (firing || 0) + 1, site));
        }
        callback();
      } finally {
        timerNesting = 0;
      }
    },
  });
  timerByHandle.set(handle, ev);
  return ev;
}

/** Puts the timer functions of `win` (the top frame's window, or a same-origin child frame's,
 *  see frames.js) under control: their callbacks become events of the one pending set. */
function installTimers(win) {
  win.setTimeout = function setTimeout(cb, delay, ...args) {
    const handler = typeof cb === "function" ? cb : String(cb);
    if (typeof handler === "string" && refusesCode(handler)) return 0;
    const handle = nextHandle++;
    scheduleTimer("setTimeout", callbackIn(win, handler, args), toDelay(delay), handle, 0);
    return handle;
  };
  win.setInterval = function setInterval(cb, delay, ...args) {
    const handler = typeof cb === "function" ? cb : String(cb);
    if (typeof handler === "string" && refusesCode(handler)) return 0;
    const handle = nextHandle++;
    scheduleTimer("setInterval", callbackIn(win, handler, args), Math.max(toDelay(delay), 1), handle, 0);
    return handle;
  };
  win.clearTimeout = win.clearInterval = function clearTimer(handle) {
    const ev = timerByHandle.get(handle);
    timerByHandle.delete(handle);
    cancelEvent(ev, creationSite());
  };

  let lastFrameEvent = null; // animation frames of one window run in the order they were asked for
  win.requestAnimationFrame = function requestAnimationFrame(cb) {
    const handle = nextHandle++;
    const due = nextFrameDue();
    const site = creationSite();
    const preds = lastFrameEvent && pending.has(lastFrameEvent) ? [lastFrameEvent] : [];
    const ev = createEvent({
      category: "timer", type: "requestAnimationFrame", label: `animation frame${site ? " at " + shortSite(site) : ""}`,
      params: { site }, due, preds, site,
      run: callbackIn(win, () => { timerByHandle.delete(handle); cb(due); }, []),
    });
    lastFrameEvent = ev.id;
    timerByHandle.set(handle, ev);
    return handle;
  };
  win.cancelAnimationFrame = win.clearTimeout;
  win.requestIdleCallback = function requestIdleCallback(cb, options) {
    const handle = nextHandle++;
    const site = creationSite();
    const timeout = options && options.timeout ? toDelay(options.timeout) : null;
    const ev = createEvent({
      category: "timer", type: "requestIdleCallback", label: `idle callback${site ? " at " + shortSite(site) : ""}`,
      params: { site, timeout }, due: virtualNow + 1, prio: 1, site,
      run: callbackIn(win, () => { timerByHandle.delete(handle); cb({ didTimeout: false, timeRemaining: () => 50 }); }, []),
    });
    timerByHandle.set(handle, ev);
    return handle;
  };
  win.cancelIdleCallback = win.clearTimeout;
}
installTimers(window);
