// webr4 runtime: following a plan approximately, while the page runs a stretch by itself.

// ------------------------------------------------------------------ the plan follower
// The page's copy of webr4/browser/replay.py (PlanFollower): the same choices on the same state,
// checked against it on random cases. In short: a planned id runs when it, or a pending event
// with its creator-free part (`EXACT~LOOSE`) that the plan does not name, is pending; one that is
// not is skipped for now and waits, and runs as soon as it appears; once something waited, an event the plan does not
// name runs first when it comes first in the default order. `choose` returns
// {event, planned} (planned null for such an event), or null when the plan offers nothing.

function loosePart(id) {
  const at = id.indexOf("~");
  return at >= 0 && at < id.length - 1 ? id.slice(at + 1) : null;
}

/** Enabled entry a ([id, due, prio, seq]) before b in the default order, ties by id. */
function orderBefore(a, b) {
  for (let i = 1; i < 4; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return a[0] < b[0];
}

/** state: {plan, waiting, diverged} as Python's `to_page` hands it over. */
function newPlanFollower(state) {
  const follower = { plan: state.plan, cursor: 0, waiting: A.slice(state.waiting), skipped: [], diverged: state.diverged,
    matched: [] };
  /** enabled: [id, due, prio, seq] of every pending event. */
  follower.choose = (enabled) => {
    const plan = follower.plan;
    const claimed = newSet(follower.waiting);
    for (let i = follower.cursor; i < plan.length; i++) claimed.add(plan[i]);
    const claimedLoose = newEmptySet();
    for (const id of claimed) { const loose = loosePart(id); if (loose !== null) claimedLoose.add(loose); }
    const byId = newMap();
    const byLoose = newMap();
    const unnamed = [];
    for (let i = 0; i < enabled.length; i++) {
      const entry = enabled[i];
      byId.set(entry[0], entry);
      if (claimed.has(entry[0])) continue;
      const loose = loosePart(entry[0]);
      if (loose === null || !claimedLoose.has(loose)) A.push(unnamed, entry);
      else if (!byLoose.has(loose)) byLoose.set(loose, entry);
    }
    const pendingFor = (planned) => {
      if (byId.has(planned)) return byId.get(planned);
      const loose = loosePart(planned);
      return loose !== null && byLoose.has(loose) ? byLoose.get(loose) : null;
    };
    let pick = null;
    let pickedPlanned = null;
    let at = -1;
    let passed = 0;
    for (let i = 0; i < follower.waiting.length && pick === null; i++) {
      pick = pendingFor(follower.waiting[i]);
      if (pick !== null) { at = i; pickedPlanned = follower.waiting[i]; }
    }
    if (pick === null) {
      while (follower.cursor + passed < plan.length) {
        const planned = plan[follower.cursor + passed];
        pick = pendingFor(planned);
        if (pick !== null) { pickedPlanned = planned; break; }
        passed++;
      }
    }
    const diverged = follower.diverged || passed > 0;
    let first = null;
    if (diverged) for (let i = 0; i < unnamed.length; i++) if (first === null || orderBefore(unnamed[i], first)) first = unnamed[i];
    if (pick !== null && first !== null && orderBefore(first, pick)) return { event: first[0], planned: null };
    follower.diverged = diverged;
    for (let i = 0; i < passed; i++) {
      A.push(follower.waiting, plan[follower.cursor + i]);
      A.push(follower.skipped, plan[follower.cursor + i]);
    }
    follower.cursor += passed;
    if (pick === null) return null;
    if (at >= 0) A.splice(follower.waiting, at, 1);
    else follower.cursor++;
    if (pick[0] !== pickedPlanned) A.push(follower.matched, [pickedPlanned, pick[0]]);
    return { event: pick[0], planned: pickedPlanned };
  };
  return follower;
}
