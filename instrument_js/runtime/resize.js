// webr4 runtime: ResizeObserver callbacks as events of the rendering update.

// ------------------------------------------------------------------ resize observations
// Chromium runs a rendering update's animation frame callbacks, then style and layout, then the
// ResizeObserver callbacks with the sizes that layout gave. Animation frames here are events
// on the virtual clock while Chromium's own rendering updates come on the real one, so a native
// observation came before the frame's callbacks had run, with the sizes from before them. So an
// observer's callback runs in an event of its own, due at the next rendering update after the
// native observation, after that update's animation frames (a higher prio). The native
// observations are kept, the latest per element; the event waits for a real rendering update of
// its own (its native observations come in it, sized by everything that ran before) and then
// hands the page's callback what is kept, in the order the elements were first observed.
//
// A native observation comes only with a real rendering update, so a page whose events have all
// run may still have one to come, sized by the last of them: `observingSizes` tells the stretch
// to wait for one more rendering update before it ends (autorun.js).
const RESIZE_PRIORITY = 1;
const observerState = newWeakMap(); // the page's observer -> { native, kept, targets }
let observersWatching = 0; // observers with at least one target

/** Whether some ResizeObserver of the page observes an element. */
function observingSizes() {
  return observersWatching > 0;
}

/** Keeps `observersWatching` as `targets` (an observer's) changes by `change`. */
function watchTargets(targets, change) {
  const before = targets.size;
  change();
  observersWatching += (targets.size > 0) - (before > 0);
}

function observationEvent(observer, callback, kept, site) {
  return createEvent({
    category: "timer", type: "ResizeObserver", label: `resize observation${site ? " of " + shortSite(site) : ""}`,
    params: { site }, due: nextFrameDue(), prio: RESIZE_PRIORITY, site,
    run: () => {
      inflight++; // settled once the page's callback has run, after a real rendering update
      N.requestAnimationFrame(() => nativeTick(() => {
        inflight--;
        const entries = [...kept.values()];
        kept.clear();
        if (entries.length) apply(callback, observer, [entries, observer]);
      }));
    },
  });
}

if (N.ResizeObserver) {
  window.ResizeObserver = class ResizeObserver {
    constructor(callback) {
      const site = creationSite();
      const kept = newMap(); // element -> its latest native entry not yet handed over
      let waiting = null; // the pending event that hands them over
      const native = new N.ResizeObserver((entries) => {
        for (const entry of entries) kept.set(entry.target, entry);
        if (waiting === null || !pending.has(waiting.id)) waiting = observationEvent(this, callback, kept, site);
      });
      observerState.set(this, { native, kept, targets: newSet() });
    }
    observe(target, options) {
      const state = observerState.get(this);
      state.native.observe(target, options);
      watchTargets(state.targets, () => state.targets.add(target));
    }
    unobserve(target) {
      const state = observerState.get(this);
      state.kept.delete(target);
      state.native.unobserve(target);
      watchTargets(state.targets, () => state.targets.delete(target));
    }
    disconnect() {
      const state = observerState.get(this);
      state.kept.clear();
      state.native.disconnect();
      watchTargets(state.targets, () => state.targets.clear());
    }
  };
}
