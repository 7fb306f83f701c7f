// webr4 runtime: running one event: settling its native completions, then reporting.

// ------------------------------------------------------------------ running events
function orderArrivals() {
  // Native arrivals within one settle get sequence numbers in a deterministic order
  // (request send order, then document order, then detached images in the order their source
  // was set), not in network arrival order.
  A.sort(arrived, (a, b) => a.origin[0] - b.origin[0] || a.origin[1] - b.origin[1]
    || (a.origin[2] || 0) - (b.origin[2] || 0));
  for (const ev of arrived) ev.seq = ++seqCounter;
  arrived.length = 0;
}

function imagesInFlight() {
  if (detachedImages.size) return true;
  for (const img of document.images) {
    // The native getAttribute: the harness's own reads are not the page's accesses.
    if (img.loading === "lazy" || !call(N.getAttribute, img, "src")) continue;
    if (!loadSeen.has(img)) return true;
  }
  return false;
}

function framesInFlight() {
  // An iframe's load comes once its document has loaded (Chromium's error page when its request
  // failed, which may come well after the failure), so it is waited for like an image's.
  const root = document.documentElement;
  if (!root) return false;
  for (const frame of call(N.querySelectorAll, root, "iframe[src]")) {
    if (frame.loading !== "lazy" && !loadSeen.has(frame)) return true;
  }
  return false;
}

function documentFinishing() {
  // Parsing is over and no held deferred script stands in the way, yet DOMContentLoaded has
  // not come: the browser is still running module scripts (and fetching their imports).
  if (!parse.done || lifecycle.domContentLoaded !== null) return false;
  return A.every(deferScripts, (r) => r.eventId && !pending.has(r.eventId));
}

function settle() {
  // Resolve once every native completion caused so far has arrived (so the pending set is
  // complete and the same in every run), or after the settle budget (a note is recorded).
  const budget = CONFIG.settleMs || 5000;
  const started = N.perfNow();
  return new NativePromise((resolve) => {
    let quiet = 0;
    const check = () => {
      const busy = inflight > 0 || imagesInFlight() || framesInFlight() || documentFinishing() || peersAnswering();
      quiet = busy ? 0 : quiet + 1;
      if (quiet >= 3) return resolve();
      if (N.perfNow() - started > budget) {
        A.push(errors, { kind: "harness", message: `native work still in flight after ${budget} ms (requests: ${inflight})`, site: null, event: current });
        return resolve();
      }
      if (busy) N.setTimeout(check, 2); else nativeTick(check);
    };
    nativeTick(check);
  });
}

function noteLocation() {
  const log = window.__webr4.log;
  if (log && typeof log.noteLocation === "function") log.noteLocation();
}

function collectLogged() {
  const log = window.__webr4.log;
  if (!log || typeof log.flush !== "function") return;
  // The log summarises its own entries; the runtime logs only event: locations, which the
  // log never touches, so the runtime's summary followed by the log's is the summary of both,
  // and the record lists them in that order (`record`). The log counts the positions of the
  // locations it holds back after the runtime's.
  const listed = accesses instanceof AccessSummary ? accesses.size : 0;
  const entries = log.flush(current, listed);
  if (accesses instanceof AccessSummary) {
    logged = A.concat(logged, entries);
  } else {
    for (let i = 0; i < entries.length; i++) accesses.push(entries[i]);
  }
  const held = log.takeHeld();
  promoted = A.concat(promoted, held.promoted);
  heldWrites = A.concat(heldWrites, held.written);
}

function begin(id) {
  const ev = pending.get(id);
  if (!ev) return resolved(record());
  pending.delete(id);
  A.push(gone, id);
  virtualNow = Math.max(virtualNow, ev.due);
  syncTransitions();
  passOverAnimations(false);
  current = id;
  logAccessesOf(id);
  accesses.push(["r", `event:${id}`, null, null]);
  if (ev.actuate) {
    return resolved({ actuate: ev.actuate, now: virtualNow });
  }
  return new NativePromise((resolve) => {
    nativeTick(() => {
      // Runs after the callback's task and its microtasks.
      noteAnimations();
      then(settle(), () => finishWith(resolve));
    });
    nativeTick(() => ev.run()); // an exception here reaches window.onerror like a native one
  });
}

/** Ends the running event once it has settled: what it started (transitions and animations,
 *  selection changes) and logged is added to its record, which is returned. */
function closeEvent() {
  noteAnimations();
  noteSelection();
  noteLocation();
  collectLogged();
  current = null;
  return record();
}

function finishWith(resolve) {
  resolve(closeEvent());
}

function finish(id, actuation) {
  // Python has actuated `id` (released a parse chunk or a held script, or performed a user
  // action); wait for its effect, settle, and report. A parse chunk that wrote a script first
  // asks for its release: Python releases it and calls again.
  return new NativePromise((resolve) => {
    const afterEffect = () => {
      noteAnimations();
      then(settle(), () => finishWith(resolve));
    };
    if (actuation && actuation.kind === "chunk") {
      const index = actuation.index;
      // No deadline here: Python gives the chunk the event's budget, less the time the harness
      // spends rewriting the scripts the parser waits for, and ends the run if it runs out.
      const waitChunk = () => {
        if (writtenScripts.length) return resolve(releaseRequest()); // released, then finish again
        if (parse.next > index) return afterEffect();
        whenParserMoves(waitChunk, 1);
      };
      waitChunk();
    } else if (actuation && actuation.kind === "script") {
      const el = scriptOfEvent.get(id);
      scriptOfEvent.delete(id);
      if (!el || scriptsDone.has(el)) return afterEffect();
      then(new NativePromise((r) => scriptWaiters.set(el, r)), afterEffect);
    } else {
      afterEffect();
    }
  });
}
