// webr4 runtime: a seeded Math.random and crypto, and a virtual Date and performance.now.

// ------------------------------------------------------------------ determinism shims
let rngState = (CONFIG.seed >>> 0) || 0x9e3779b9;
function random() {
  // mulberry32
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
Math.random = random;
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
// The virtual clock starts at one fixed instant; a replay that learns what follows the clock moves it.
const baseTime = 1700000000000 + (CONFIG.clockShiftMs || 0);
const NativeDate = N.Date;
function VirtualDate(...args) {
  if (!new.target) return new NativeDate(baseTime + virtualNow).toString();
  return args.length ? new NativeDate(...args) : new NativeDate(baseTime + virtualNow);
}
VirtualDate.prototype = NativeDate.prototype;
VirtualDate.now = () => baseTime + virtualNow;
VirtualDate.parse = NativeDate.parse;
VirtualDate.UTC = NativeDate.UTC;
N.defineProperty(VirtualDate.prototype, "constructor", { value: VirtualDate, writable: true, configurable: true });
window.Date = VirtualDate;
performance.now = () => virtualNow;
