// webr4 runtime: seeded Math.random and crypto, one stream per event, and a virtual Date and
// performance.now.

// ------------------------------------------------------------------ determinism shims
// Every event draws from a stream of its own, seeded by the run's seed (CONFIG.seed, `--seed`)
// and the event's identity, so that an event draws the same values whatever ran before it: a
// reversal no longer renames the ids a page draws. The identity is the exact part of the id
// (`EXACT~LOOSE`, events.js): it names the creator and the ordinal among the creator's like
// children, which reversing two events leaves alone, while the loose part counts like events
// across the whole page and so changes when two of them trade places. Code that runs outside
// any event (before the first one, between two) draws from the stream of the empty identity.
//
// Time is not made per event: Date.now() and performance.now() read the one virtual clock, as
// timers' due times do, so that the clock never runs backwards between two events and a delay
// computed from a reading stays in step with the timer it arms. A reversal may run an event
// later in virtual time; what follows the clock is masked as noise (webr4/sweep/explore.py,
// `_clock_noise`), and an id made from a reading and renamed consistently is no DOM difference
// (webr4/state/renaming.py).
const streams = newMap(); // exact part of an event id ("" outside any event) -> mulberry32 state
let streamEvent = null; // the event whose stream was last drawn from, and that stream's key
let streamKey = "";

function streamSeed(key) {
  // A 32-bit seed from the run's seed and an event's identity (murmur-style mixing).
  let h = (CONFIG.seed >>> 0) ^ 0x9e3779b9;
  for (let i = 0; i < key.length; i++) {
    h = Math.imul(h ^ key.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function random() {
  // mulberry32, on the stream of the event running now
  if (current !== streamEvent) {
    streamEvent = current;
    streamKey = current === null ? "" : exactPart(current);
  }
  const state = ((streams.has(streamKey) ? streams.get(streamKey) : streamSeed(streamKey)) + 0x6d2b79f5) >>> 0;
  streams.set(streamKey, state);
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
/** Puts the random numbers and the clock of `win` (the top frame's window, or a same-origin
 *  child frame's, see frames.js) on the run's streams and the one virtual clock; its own `Date`
 *  is the one virtual dates are made of, so that they are its realm's. */
function installDeterminism(win, NativeDate) {
  win.Math.random = random;
  const crypto = win.crypto;
  crypto.getRandomValues = function getRandomValues(array) {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    return array;
  };
  if (crypto.randomUUID) {
    crypto.randomUUID = function randomUUID() {
      const b = crypto.getRandomValues(new Uint8Array(16));
      b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
      const h = A.join(A.map([...b], (x) => x.toString(16).padStart(2, "0")), "");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    };
  }
  function VirtualDate(...args) {
    if (!new.target) return new NativeDate(baseTime + virtualNow).toString();
    return args.length ? new NativeDate(...args) : new NativeDate(baseTime + virtualNow);
  }
  VirtualDate.prototype = NativeDate.prototype;
  VirtualDate.now = () => baseTime + virtualNow;
  VirtualDate.parse = NativeDate.parse;
  VirtualDate.UTC = NativeDate.UTC;
  N.defineProperty(VirtualDate.prototype, "constructor", { value: VirtualDate, writable: true, configurable: true });
  win.Date = VirtualDate;
  win.performance.now = () => virtualNow;
}
// The virtual clock starts at one fixed instant; a replay that learns what follows the clock moves it.
const baseTime = 1700000000000 + (CONFIG.clockShiftMs || 0);
installDeterminism(window, N.Date);
