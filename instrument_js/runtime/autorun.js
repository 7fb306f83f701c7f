// webr4 runtime: a stretch of events the page chooses and runs by itself, once no user action is left.

// ------------------------------------------------------------------ running a stretch by itself
// One Playwright round trip costs more than most events, so once no user action is left the
// harness lets the page choose and run events itself, exactly as the harness would: the plan
// follower's choice (replay.js), else the default policy (least [due, prio, seq]; none past the
// horizon). It stops at an event Python must actuate (without starting it), when nothing is
// left, at the horizon, after `max` steps or `sliceMs` of wall time. Steps that finished are kept
// in `stretch` so the harness can drain them when an event hangs and it has to terminate the
// script. The report hands the follower's state back (`consumed` plan entries, `waiting`,
// `skipped`, `diverged`, `matched`).
let stretch = null;

function defaultChoice() {
  let best = null;
  for (const ev of pending.values()) {
    if (best === null || ev.due < best.due || (ev.due === best.due && (ev.prio < best.prio
        || (ev.prio === best.prio && (ev.seq || 0) < (best.seq || 0))))) best = ev;
  }
  return best;
}

function stretchReport(s, extra) {
  // One JSON string: a stretch of a thousand steps is far cheaper to hand over that way.
  // No follower: a drain with no stretch left, which changes nothing of the plan's state.
  const f = s.follower || { cursor: 0, waiting: null, skipped: [], diverged: null, matched: [] };
  return N.stringify(N.assign({ steps: s.steps, consumed: f.cursor, waiting: f.waiting, skipped: f.skipped,
    diverged: f.diverged, matched: f.matched, before: s.before || null, next: null, running: null }, extra));
}

function isClockTimer(ev) {
  return ev.category === "timer" && typeof ev.params.delay === "number";
}

/** The pending setTimeout or setInterval firing a browser's clock fires first: the least by due
 *  time, then creation order (`first_timer` in webr4/browser/schedule.py). */
function firstTimer() {
  let first = null;
  for (const ev of pending.values()) {
    if (isClockTimer(ev) && (first === null || ev.due < first.due || (ev.due === first.due && (ev.seq || 0) < (first.seq || 0)))) first = ev;
  }
  return first;
}

/* The pending setTimeout and setInterval firings that another one, due earlier (or as early and
   created first), must precede: a browser's clock fires them by due time whatever the plan says
   (`timers_not_due` in webr4/browser/schedule.py, the same rule). */
function timersNotDue() {
  const first = firstTimer();
  const held = newEmptySet();
  for (const ev of pending.values()) if (isClockTimer(ev) && ev !== first) held.add(ev.id);
  return held;
}

/** Whether the plan's next event (the first waiting, else the one at the cursor) is one of the
 *  timers `held` back: the timer due first then runs before it, outside the plan, as
 *  `Scheduler._next_waits_for_clock` decides in Python. */
function nextWaitsForClock(follower, held) {
  const f = follower;
  const upcoming = f.waiting.length ? f.waiting[0] : (f.cursor < f.plan.length ? f.plan[f.cursor] : null);
  if (upcoming === null) return false;
  for (const id of held) if (exactPart(id) === exactPart(upcoming)) return true;
  return false;
}

/** What the plan follower is offered: [id, due, prio, seq] of each pending event but the timers
 *  `held` back. */
function offeredOrders(held) {
  const enabled = [];
  for (const ev of pending.values()) if (!held.has(ev.id)) A.push(enabled, [ev.id, ev.due, ev.prio, ev.seq || 0]);
  return enabled;
}

/* Native arrivals between two steps of a stretch (a worker's or a socket's message) are
   reported before the next choice, as the harness would learn of them: with the step that ran
   last, or in the stretch's `before` record when none has. */
function reportArrivals(s) {
  if (!created.length) return;
  const late = record();
  const last = s.steps.length ? s.steps[s.steps.length - 1][2] : null;
  if (last === null) { s.before = late; return; }
  for (const key of ["created", "gone", "errors", "uncontrolled", "unlisted_writes"]) last[key] = A.concat(last[key], late[key]);
  last.promoted = N.stringify(A.concat(N.parse(last.promoted), N.parse(late.promoted)));
  // Between steps only the runtime itself logs (creating or cancelling an event: writes of
  // digest null), so no increment straddles the two and summarising the two summaries
  // together is summarising everything the step and the arrivals logged.
  const merged = newAccessLog();
  const both = A.concat(N.parse(last.accesses), N.parse(late.accesses));
  for (let i = 0; i < both.length; i++) merged.push(both[i]);
  last.accesses = N.stringify(merged.entries());
  last.now = Math.max(last.now, late.now);
  if (last.leaving === null) last.leaving = late.leaving;
}

function runStretch(followerState, horizon, max, sliceMs) {
  const started = N.perfNow();
  stretch = { steps: [], follower: newPlanFollower(followerState), running: null, halted: false, idleUpdate: false };
  const mine = stretch;
  const stop = (why, extra) => stretchReport(mine, N.assign({ stop: why }, extra));
  return new NativePromise((resolve) => {
    const next = () => {
      if (mine.halted) return resolve(stop("halted"));
      if (mine.steps.length >= max || N.perfNow() - started > sliceMs) return resolve(stop("slice"));
      reportArrivals(mine);
      const held = timersNotDue();
      const clockFirst = nextWaitsForClock(mine.follower, held) ? firstTimer() : null;
      const choice = clockFirst === null ? mine.follower.choose(offeredOrders(held)) : null;
      let chosen = null;
      const planned = choice !== null && choice.planned !== null;
      if (clockFirst !== null) {
        chosen = clockFirst;
      } else if (choice !== null) {
        chosen = pending.get(choice.event);
      } else {
        chosen = defaultChoice();
        if (chosen === null && !mine.idleUpdate && observingSizes()) {
          mine.idleUpdate = true; // a rendering update may still bring a resize observation
          return N.requestAnimationFrame(() => nativeTick(next));
        }
        if (chosen === null) return resolve(stop("done"));
        if (chosen.due > horizon) return resolve(stop("horizon"));
      }
      if (chosen.actuate) return resolve(stop("actuate", { next: [chosen.id, planned] }));
      mine.running = [chosen.id, planned];
      then(begin(chosen.id), (out) => {
        mine.running = null;
        mine.idleUpdate = false;
        A.push(mine.steps, [chosen.id, planned, out]);
        if (out.leaving !== null) return resolve(stop("navigated"));
        next();
      });
    };
    next();
  });
}

/** Stops the current stretch and hands over (as JSON) what it finished and the event it was
 *  running. */
function drainStretch() {
  const drained = stretch || { steps: [], follower: null, running: null };
  drained.halted = true;
  stretch = null;
  return stretchReport(drained, { stop: "drained", running: drained.running });
}
