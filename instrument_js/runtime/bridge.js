// webr4 page runtime: holds every asynchronous event of the page in a pending set until the
// harness (Python, through Playwright) dispatches it. Injected as an init script, so it runs in
// every document before any page script. The top frame is controlled, and what frames.js takes
// of a same-origin child frame; the other child frames are reported as uncontrolled and left to
// run natively.
//
// Contract with the harness (webr4/browser/controller.py):
//   __webr4.begin(id)  -> starts event `id`; resolves to a step record once the event, its
//                          microtasks and every native completion it caused have settled.
//                          Events that Python must actuate (parse chunks, held scripts, user
//                          actions) resolve at once with {actuate: …}; Python acts, then calls
//                          __webr4.finish(id), which settles and resolves to the step record.
//   __webr4.runStretch(plan, horizon, max, sliceMs) -> chooses and runs events by itself, as
//                          the harness would, until one needs the harness; resolves to the JSON
//                          of a stretch report.
//   __webr4.drainStretch() -> stops a stretch whose event hung; what it finished, and `running`.
// Every message sent to Python (step record, actuation request, opening, stretch report) follows
// the schema written in webr4/browser/records.py, which Python checks each one against: a field
// added or renamed here must be added or renamed there.

function record() {
  orderArrivals();
  const out = {
    // The pending set changes by `created` (each with its due, prio and seq) and `gone`: a
    // page with 10^3 pending timers would otherwise send them all at every step.
    created: A.map(created, describe),
    gone: A.slice(gone),
    errors: A.slice(errors),
    // one string: cheaper to hand to Python than many small arrays
    accesses: N.stringify(logged.length ? A.concat(accesses.entries(), logged) : accesses.entries()),
    promoted: N.stringify(promoted),
    unlisted_writes: heldWrites,
    uncontrolled: A.slice(uncontrolled),
    now: virtualNow,
    leaving: navigating === undefined ? null : { event: navigating },
  };
  created.length = 0; gone.length = 0; errors.length = 0; accesses = newAccessLog(); logged = [];
  uncontrolled.length = 0;
  promoted = []; heldWrites = [];
  navigating = undefined;
  return out;
}

/** Called by the harness after navigation; `chunks` is the number of parse chunks after the
 *  head (0 when the document was not split), `logged` the ids of the only events whose accesses
 *  the run logs from here on (null: every event's). Resolves, once the head is parsed and has settled,
 *  to the head event's id and its record; before that, to a request to release a script the
 *  head wrote (the harness releases it and calls again). */
function start(chunks, logged) {
  parse.chunks = chunks || 0;
  loggedEvents = logged ? newSet(logged) : null;
  const headDone = () => (parse.chunks === 0 ? document.readyState !== "loading" : parse.next >= 0);
  return new NativePromise((resolve) => {
    const wait = () => {
      if (writtenScripts.length) return resolve(releaseRequest()); // released, then start again
      if (!headDone()) return whenParserMoves(wait, 1);
      if (parse.chunks === 0) { parse.done = true; releaseDeferredScripts(); }
      then(settle(), () => resolve({ head: headEvent.id, record: closeEvent() }));
    };
    wait();
  });
}

const api = {
  start,
  begin,
  finish,
  runStretch,
  drainStretch,
  chunkEnd,
  importing,
  importUrl,
  /** Called by a same-origin child frame's init script with its window (frames.js). */
  adoptFrame,
  /** A fresh log for one event's accesses (the access log records into it). */
  newAccessLog,
  /** Whether `element` still moves until an end event here runs (animations.js). */
  movesElement,
  /** Whether anything is moved so (asked first: finding the target injects Playwright's script). */
  movesAnything,
  /** `value` (plain objects, arrays, strings, finite numbers, booleans, null) as JSON text, which
   *  reaches Python many times faster than a large object as Playwright serializes it. */
  asJson: (value) => N.stringify(value),
  /** Marks the start of a user action performed by the harness at virtual time `due`. */
  userBegin(id, due) {
    current = id;
    virtualNow = Math.max(virtualNow, due || 0);
    syncTransitions();
    passOverAnimations(true);
    logAccessesOf(id);
    accesses.push(["r", `event:${id}`, null, null]);
  },
};
N.defineProperty(window, "__webr4", { value: api, enumerable: false, configurable: false, writable: false });
