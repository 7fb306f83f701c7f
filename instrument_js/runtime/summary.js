// webr4 runtime: the summary of one event's accesses, as the page ships it.

// ------------------------------------------------------------------ access summaries
/* The summary of one event's accesses, built as they happen: per location, in order of first
   access, only the accesses that carry what race detection reads (first access, first read
   and write, first read and write with a site, first write of a different digest, last write;
   for an increment, the read/write pair around each). The schema and its proof of
   equivalence are in webr4/engine/summary.py; `entries()` equals its `summarise`, and `split`
   lets its caller hold locations back instead of listing them. */
class AccessSummary {
  constructor() { this.locations = newMap(); this.count = 0; }

  push(access) {
    const at = [this.count++, access];
    const [kind, location, site, value] = access;
    let s = this.locations.get(location);
    if (s === undefined) {
      s = { n: 0, first: at, prev: null, lastPrev: null, inc: true, read: null, readAt: null, readAtNext: null,
        write: null, writeAt: null, differ: null, last: null, pairs: [] };
      this.locations.set(location, s);
    }
    if (s.readAt !== null && s.readAtNext === null && s.prev === s.readAt) s.readAtNext = at;
    s.inc = s.inc && (s.n % 2 === 0 ? kind === "r" : kind === "w" && typeof value === "string" && value.startsWith("n:"));
    if (kind === "r") {
      if (s.read === null) s.read = at;
      if (s.readAt === null && site) s.readAt = at;
    } else {
      // Each kept write remembers the access before it: the read of its pair in an increment.
      if (s.write === null) { s.write = at; A.push(s.pairs, s.prev); }
      if (s.writeAt === null && site) { s.writeAt = at; A.push(s.pairs, s.prev); }
      if (s.differ === null && value !== s.write[1][3]) { s.differ = at; A.push(s.pairs, s.prev); }
      s.last = at; s.lastPrev = s.prev;
    }
    s.prev = at;
    s.n++;
  }

  entries() {
    const out = [];
    for (const s of this.locations.values()) {
      const mine = keptOf(s);
      for (let i = 0; i < mine.length; i++) A.push(out, mine[i]);
    }
    return out;
  }

  /* `entries()` without the locations that `take(location, position, rank, entries, wrote)`
     takes: it is offered every location once, with its entries, how many listed locations come
     before it (`position`), its place among all locations (`rank`) and whether the event wrote
     it; a location it takes (it returns true) is left out. */
  split(take) {
    const out = [];
    let listed = 0;
    let rank = 0;
    for (const s of this.locations.values()) {
      const mine = keptOf(s);
      if (!take(s.first[1][1], listed, rank, mine, s.write !== null)) {
        for (let i = 0; i < mine.length; i++) A.push(out, mine[i]);
        listed++;
      }
      rank++;
    }
    return out;
  }
}

/* The accesses the summary keeps of one location's state `s` (see the class comment). */
function keptOf(s) {
  const increment = s.inc && s.n % 2 === 0;
  const kept = [s.first, s.read, s.readAt, s.write, s.writeAt, s.differ, s.last];
  if (increment) {
    A.push(kept, s.readAtNext, s.lastPrev);
    for (let i = 0; i < s.pairs.length; i++) A.push(kept, s.pairs[i]);
  }
  const chosen = A.sort(A.filter(kept, (at, i) => at !== null && at !== undefined && A.indexOf(kept, at) === i),
    (a, b) => a[0] - b[0]);
  const mine = A.map(chosen, (at) => at[1]);
  if (!increment && isIncrement(mine)) A.splice(mine, 1, 0, mine[0]);
  return mine;
}

function isIncrement(list) {
  if (list.length === 0 || list.length % 2) return false;
  for (let i = 0; i < list.length; i += 2) {
    const w = list[i + 1];
    if (list[i][0] !== "r" || w[0] !== "w" || typeof w[3] !== "string" || !w[3].startsWith("n:")) return false;
  }
  return true;
}

/** Every access, in order: the log of CONFIG.fullAccessLog (diagnostics and tests only). */
class FullAccessLog {
  constructor() { this.list = []; }
  push(access) { A.push(this.list, access); }
  entries() { return this.list; }
}
