// webr4 runtime: the summary of one event's accesses, as the page ships it.

// ------------------------------------------------------------------ access summaries
/* The maps that find a location by key and group: a summary makes one per key its event
   touches, so their methods are the natives on a prototype of their own, which no change to
   Map.prototype reaches, rather than defined on each map as `newMap()` does. */
class LookupMap extends Map {}
for (const [name, property] of nativeMethods(Map)) N.defineProperty(LookupMap.prototype, name, property);

/* The summary of one event's accesses, built as they happen: per location, in order of first
   access, only the accesses that carry what race detection reads (first access, first read
   and write, first read and write with a site, first write of a different digest, last write;
   for an increment, the read/write pair around each). The schema and its proof of
   equivalence are in webr4/engine/summary.py; `entries()` equals its `summarise`, and `split`
   lets its caller hold locations back instead of listing them. */
class AccessSummary {
  constructor() { this.locations = newMap(); this.named = new LookupMap(); this.count = 0; }

  push(access) {
    this.add(access[0], access[1], access[2], access[3]);
  }

  /* `push([kind, location, site, value])` without the array. */
  add(kind, location, site, value) {
    let s = this.locations.get(location);
    if (s === undefined) s = this.state(location);
    this.access(s, kind, site, value);
  }

  /* `add(kind, nameOf(group, key), site, value)` where `nameOf` is a pure function of
     its two arguments (the access log's location names): the location is found by `key`, then
     by the number `group` (the object or scope it belongs to), and its name made only the first
     time the event touches it, not at every access. */
  addNamed(kind, group, key, site, value, nameOf) {
    let groups = this.named.get(key);
    if (groups === undefined) {
      groups = new LookupMap();
      this.named.set(key, groups);
    }
    let s = groups.get(group);
    if (s === undefined) {
      const location = nameOf(group, key);
      s = this.locations.get(location);
      if (s === undefined) s = this.state(location);
      groups.set(group, s);
    }
    this.access(s, kind, site, value);
  }

  /* The state of a location the event had not touched. */
  state(location) {
    const s = { location, n: 0, first: null, prevAt: null, prevCount: 0, prevKind: "", prevSite: null,
      prevValue: null, lastPrev: null, inc: true, read: null, readAt: null, readAtNext: null, write: null,
      writeAt: null, differ: null, last: null, pairs: [] };
    this.locations.set(location, s);
    return s;
  }

  /* One access to the location of state `s`. An access the summary keeps nothing of (the
     common repeated read) allocates nothing. A kept access is stored as `at = [its number,
     [kind, location, site, value]]`, one array however many positions keep it; the state
     remembers the previous access in scalars and makes its `at` only when a write keeps it
     (the read of an increment's pair). */
  access(s, kind, site, value) {
    const count = this.count++;
    let at = null;
    if (s.n === 0) {
      at = [count, [kind, s.location, site, value]];
      s.first = at;
    } else if (s.readAt !== null && s.readAtNext === null && s.prevCount === s.readAt[0]) {
      at = [count, [kind, s.location, site, value]];
      s.readAtNext = at;
    }
    if (s.inc) {
      s.inc = s.n % 2 === 0 ? kind === "r" : kind === "w" && typeof value === "string" && value.startsWith("n:");
    }
    if (kind === "r") {
      if (s.read === null) {
        if (at === null) at = [count, [kind, s.location, site, value]];
        s.read = at;
      }
      if (s.readAt === null && site) {
        if (at === null) at = [count, [kind, s.location, site, value]];
        s.readAt = at;
      }
    } else {
      // Each kept write remembers the access before it: the read of its pair in an increment.
      if (at === null) at = [count, [kind, s.location, site, value]];
      let prev = s.prevAt;
      if (prev === null && s.n > 0) {
        prev = s.prevAt = [s.prevCount, [s.prevKind, s.location, s.prevSite, s.prevValue]];
      }
      const pairs = s.pairs;
      if (s.write === null) { s.write = at; pairs[pairs.length] = prev; }
      if (s.writeAt === null && site) { s.writeAt = at; pairs[pairs.length] = prev; }
      if (s.differ === null && value !== s.write[1][3]) { s.differ = at; pairs[pairs.length] = prev; }
      s.last = at; s.lastPrev = prev;
    }
    s.prevAt = at;
    s.prevCount = count;
    s.prevKind = kind;
    s.prevSite = site;
    s.prevValue = value;
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
      if (!take(s.location, listed, rank, mine, s.write !== null)) {
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
  add(kind, location, site, value) { A.push(this.list, [kind, location, site, value]); }
  addNamed(kind, group, key, site, value, nameOf) { A.push(this.list, [kind, nameOf(group, key), site, value]); }
  entries() { return this.list; }
}
