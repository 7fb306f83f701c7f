// webr4 runtime: following a plan approximately, while the page runs a stretch by itself.

// ------------------------------------------------------------------ the plan follower
// The page's copy of webr4/browser/replay.py (PlanFollower): the same choices on the same state,
// checked against it on random cases. In short: a planned id runs when it, or a pending event
// with its creator-free part (`EXACT~LOOSE`) that the plan does not name, is pending; one that is
// not is skipped for now and waits, and runs as soon as it appears; once something waited, an event the plan does not
// name runs first when it comes first in the default order. `choose` returns
// {event, planned} (planned null for such an event), or null when the plan offers nothing.

function exactPart(id) {
  const at = id.indexOf("~");
  return at >= 0 ? id.slice(0, at) : id;
}

function loosePart(id) {
  const at = id.indexOf("~");
  return at >= 0 && at < id.length - 1 ? id.slice(at + 1) : null;
}

/** Enabled entry a ([id, due, prio, seq]) before b in the default order, ties by id. */
function orderBefore(a, b) {
  for (let i = 1; i < 4; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return a[0] < b[0];
}

/** state: {plan, waiting, diverged} as Python's `to_page` hands it over: the rest of the plan
 *  and the planned ids waiting before it. Positions: waiting ids -n..-1, the plan 0.. */
function newPlanFollower(state) {
  const waiting = A.slice(state.waiting);
  const follower = { plan: state.plan, cursor: 0, waiting, skipped: [], diverged: state.diverged, matched: [] };
  const position = newMap();
  const loosePositions = newMap();
  // Planned and pending events are found by their exact parts: a plan of an earlier version's
  // ids (no loose part) names the same events.
  const at = (id) => { const exact = exactPart(id); return position.has(exact) ? position.get(exact) : null; };
  const place = (id, p) => {
    const exact = exactPart(id);
    if (!position.has(exact)) position.set(exact, p);
    const loose = loosePart(id);
    if (loose === null) return;
    if (!loosePositions.has(loose)) loosePositions.set(loose, []);
    A.push(loosePositions.get(loose), p);
  };
  for (let i = 0; i < waiting.length; i++) place(waiting[i], i - waiting.length);
  for (let i = 0; i < state.plan.length; i++) place(state.plan[i], i);
  const done = newEmptySet();
  const idAt = (p) => (p < 0 ? state.waiting[p + state.waiting.length] : state.plan[p]);
  /** enabled: [id, due, prio, seq] of every pending event. */
  follower.choose = (enabled) => {
    const exact = newMap();
    const loosely = newMap();
    const unnamed = [];
    for (let i = 0; i < enabled.length; i++) {
      const entry = enabled[i];
      const p = at(entry[0]);
      if (p !== null && !done.has(p)) { exact.set(p, entry); continue; }
      const loose = loosePart(entry[0]);
      let open = null;
      const candidates = loose === null ? null : loosePositions.get(loose);
      if (candidates) for (let j = 0; j < candidates.length && open === null; j++) if (!done.has(candidates[j])) open = candidates[j];
      if (open === null) A.push(unnamed, entry);
      else if (!loosely.has(open)) loosely.set(open, entry);
    }
    let waited = null;
    let ahead = null;
    for (const p of [...exact.keys(), ...loosely.keys()]) {
      if (p < follower.cursor) { if (waited === null || p < waited) waited = p; }
      else if (ahead === null || p < ahead) ahead = p;
    }
    const chosenAt = waited !== null ? waited : ahead;
    const passed = chosenAt === null ? follower.plan.length - follower.cursor : Math.max(chosenAt - follower.cursor, 0);
    const pick = chosenAt === null ? null : (exact.has(chosenAt) ? exact.get(chosenAt) : loosely.get(chosenAt));
    const diverged = follower.diverged || passed > 0;
    let first = null;
    if (diverged) for (let i = 0; i < unnamed.length; i++) if (first === null || orderBefore(unnamed[i], first)) first = unnamed[i];
    if (pick !== null && first !== null && orderBefore(first, pick)) return { event: first[0], planned: null };
    follower.diverged = diverged;
    for (let i = 0; i < passed; i++) {
      A.push(follower.waiting, follower.plan[follower.cursor + i]);
      A.push(follower.skipped, follower.plan[follower.cursor + i]);
    }
    follower.cursor += passed;
    if (pick === null) return null;
    const planned = idAt(chosenAt);
    if (chosenAt < follower.cursor) A.splice(follower.waiting, A.indexOf(follower.waiting, planned), 1);
    else follower.cursor++;
    done.add(chosenAt);
    if (pick[0] !== planned) A.push(follower.matched, [planned, pick[0]]);
    return { event: pick[0], planned };
  };
  return follower;
}
