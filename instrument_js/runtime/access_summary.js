// webr4 runtime: the summary of one event's accesses, as the page ships it.

// ------------------------------------------------------------------ access summaries
/* The maps that find a location by key and group: a summary makes one per key its event
   touches, so their methods are the natives on a prototype of their own, which no change to
   Map.prototype reaches, rather than defined on each map as `newMap()` does. */
class LookupMap extends Map {}
for (const [name, property] of nativeMethods(Map)) N.defineProperty(LookupMap.prototype, name, property);

/* A summary's number: a location's state belongs to the summary whose number it carries. */
let summaryCount = 0;

/* The summary of one event's accesses, built as they happen: per location, in order of first
   access, only the accesses that carry what race detection reads (first access, first read
   and write, first read and write with a site, first write of a different digest, last write;
   for an increment, the read/write pair around each). The schema and its proof of
   equivalence are in webr4/access_summary.py; `entries()` equals its `summarise`, and `split`
   lets its caller hold locations back instead of listing them.

   Locations come by name (`push`, `add`) or by key and group (`addNamed`); a location always
   comes the same way. Those by key and group are found in `index`, a LookupMap its caller may
   pass to summary after summary of one log: each location there has one state for good, with
   its name made once, reset when a new summary first touches it, and a `mark` the summary
   never reads, which the caller keeps from one summary to the next (see `split`). A summary
   on a shared index is read (`entries`, `split`) before the next one records anything. */
class AccessSummary {
  constructor(index) {
    this.index = index || new LookupMap();
    this.locations = newMap(); // name -> state, for the locations that come by name
    this.states = []; // every location's state, in order of first access
    this.count = 0;
    this.number = ++summaryCount;
  }

  /* How many locations the summary lists. */
  get size() { return this.states.length; }

  push(access) {
    this.add(access[0], access[1], access[2], access[3]);
  }

  /* `push([kind, location, site, value])` without the array. */
  add(kind, location, site, value) {
    let s = this.locations.get(location);
    if (s === undefined) {
      s = newState(location, "", false);
      this.locations.set(location, s);
    }
    if (s.summary !== this.number) this.begin(s);
    this.access(s, kind, site, value);
  }

  /* `add(kind, nameOf(group, key), site, value)` where `nameOf` is a pure function of
     its two arguments (the access log's location names): the location is found by `key`, then
     by the number `group` (the object or scope it belongs to), and its name made only the first
     time the index meets it, not at every access. */
  addNamed(kind, group, key, site, value, nameOf) {
    let groups = this.index.get(key);
    if (groups === undefined) {
      groups = new LookupMap();
      this.index.set(key, groups);
    }
    let s = groups.get(group);
    if (s === undefined) {
      s = newState(nameOf(group, key), key, true);
      groups.set(group, s);
    }
    if (s.summary !== this.number) this.begin(s);
    this.access(s, kind, site, value);
  }

  /* State `s` starts over as this summary's, listed after the locations touched before it. */
  begin(s) {
    s.summary = this.number;
    s.n = 0; s.first = null; s.prevAt = null; s.prevCount = 0; s.prevKind = ""; s.prevSite = null;
    s.prevValue = null; s.lastPrev = null; s.inc = true; s.read = null; s.readAt = null; s.readAtNext = null;
    s.write = null; s.writeAt = null; s.differ = null; s.last = null; s.pairs = null;
    const states = this.states;
    states[states.length] = s;
  }

  /* One access to the location of state `s`. An access the summary keeps nothing of (the
     common repeated read) allocates nothing. A kept access is stored as `at = [its number,
     kind, location, site, value]`, one array however many positions keep it (its entry is
     made when the summary is read); the state remembers the previous access in scalars and
     makes its `at` only when a write keeps it (the read of an increment's pair). */
  access(s, kind, site, value) {
    const count = this.count++;
    let at = null;
    if (s.n === 0) {
      at = [count, kind, s.location, site, value];
      s.first = at;
    } else if (s.readAt !== null && s.readAtNext === null && s.prevCount === s.readAt[0]) {
      at = [count, kind, s.location, site, value];
      s.readAtNext = at;
    }
    if (s.inc) {
      s.inc = s.n % 2 === 0 ? kind === "r" : kind === "w" && typeof value === "string" && value.startsWith("n:");
    }
    if (kind === "r") {
      if (s.read === null) {
        if (at === null) at = [count, kind, s.location, site, value];
        s.read = at;
      }
      if (s.readAt === null && site) {
        if (at === null) at = [count, kind, s.location, site, value];
        s.readAt = at;
      }
    } else {
      // Each kept write remembers the access before it: the read of its pair in an increment.
      if (at === null) at = [count, kind, s.location, site, value];
      let prev = s.prevAt;
      if (prev === null && s.n > 0) {
        prev = s.prevAt = [s.prevCount, s.prevKind, s.location, s.prevSite, s.prevValue];
      }
      let pairs = s.pairs;
      if (pairs === null) pairs = s.pairs = [];
      if (s.write === null) { s.write = at; pairs[pairs.length] = prev; }
      if (s.writeAt === null && site) { s.writeAt = at; pairs[pairs.length] = prev; }
      if (s.differ === null && value !== s.write[4]) { s.differ = at; pairs[pairs.length] = prev; }
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
    const states = this.states;
    for (let i = 0; i < states.length; i++) keptOf(states[i], out);
    return out;
  }

  /* `entries()` without the locations that `take(state, position, rank)` takes: it is offered
     every location's state once (its `location`, its `key` and `named` when it came by key and
     group, `write !== null` when the event wrote it, and the `mark` the caller keeps in it),
     with how many listed locations come before it (`position`) and its place among all
     locations (`rank`); it returns null to have the location listed, or, to take it, the list
     its entries are to be appended to instead. */
  split(take) {
    const out = [];
    const states = this.states;
    let listed = 0;
    for (let rank = 0; rank < states.length; rank++) {
      const into = take(states[rank], listed, rank);
      if (into === null) {
        keptOf(states[rank], out);
        listed++;
      } else {
        keptOf(states[rank], into);
      }
    }
    return out;
  }
}

/* The state of a location no summary has touched yet (see `AccessSummary.begin`). */
function newState(location, key, named) {
  return { location, key, named, mark: undefined, summary: 0, n: 0, first: null, prevAt: null, prevCount: 0,
    prevKind: "", prevSite: null, prevValue: null, lastPrev: null, inc: true, read: null, readAt: null,
    readAtNext: null, write: null, writeAt: null, differ: null, last: null, pairs: null };
}

/* Appends to `out` the accesses the summary keeps of one location's state `s` (see the class
   comment), and returns `out`. Plain loops over a handful of accesses: no callbacks, no
   array methods, nothing allocated but the entries. */
function keptOf(s, out) {
  if (s.write === null) { // reads only: the first, and the first with a site when that is later
    out[out.length] = entryOf(s.first);
    if (s.readAt !== null && s.readAt !== s.first) out[out.length] = entryOf(s.readAt);
    return out;
  }
  const increment = s.inc && s.n % 2 === 0;
  chosen.length = 0;
  keep(s.first); keep(s.read); keep(s.readAt); keep(s.write); keep(s.writeAt); keep(s.differ); keep(s.last);
  if (increment) {
    keep(s.readAtNext); keep(s.lastPrev);
    const pairs = s.pairs;
    for (let i = 0; i < pairs.length; i++) keep(pairs[i]);
  }
  const from = out.length;
  for (let i = 0; i < chosen.length; i++) out[from + i] = entryOf(chosen[i]);
  if (!increment && isIncrement(out, from)) {
    for (let i = out.length; i > from + 1; i--) out[i] = out[i - 1];
    out[from + 1] = out[from];
  }
  return out;
}

/* The entry [kind, location, site, value] of kept access `at`. */
function entryOf(at) {
  return [at[1], at[2], at[3], at[4]];
}

/* The kept accesses of the location `keptOf` is choosing, in order of access number. */
const chosen = [];

/* Adds kept access `at` (or nothing, for null or undefined) to `chosen`, each at most once. */
function keep(at) {
  if (at === null || at === undefined) return;
  let i = chosen.length;
  while (i > 0 && chosen[i - 1][0] >= at[0]) {
    if (chosen[i - 1] === at) return;
    i--;
  }
  for (let j = chosen.length; j > i; j--) chosen[j] = chosen[j - 1];
  chosen[i] = at;
}

/* Whether `list` from index `from` on is an increment's read/write pairs. */
function isIncrement(list, from) {
  const length = list.length - from;
  if (length === 0 || length % 2) return false;
  for (let i = from; i < list.length; i += 2) {
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
