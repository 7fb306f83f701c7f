var seen = [];
class Temp {
  #c = 0;
  get f() { seen.push("get f"); return this.#c * 9 / 5 + 32; }
  set f(v) { seen.push("set f"); this.#c = (v - 32) * 5 / 9; }
  static get unit() { return "C"; }
}
var t = new Temp();
t.f = 212; t.f += 18;
console.log(t.f, Temp.unit, seen.join());
var target = { v: 1 };
var proxy = new Proxy(target, {
  get(obj, key, receiver) { seen.push("pget " + String(key) + (receiver === proxy)); return Reflect.get(obj, key, receiver); },
  set(obj, key, value, receiver) { seen.push("pset " + String(key)); return Reflect.set(obj, key, value, receiver); },
  deleteProperty(obj, key) { seen.push("pdel " + String(key)); return delete obj[key]; },
});
proxy.v = 2; proxy.v++; proxy["w"] = proxy.v; delete proxy.v;
console.log(JSON.stringify(target), seen.slice(-6).join());
var counter = 0;
Object.defineProperty(globalThis, "ticking", { get() { return ++counter; }, configurable: true });
console.log(ticking, ticking, counter);
var objKey = { toString() { counter += 100; return "kk"; } };
var holder = {}; holder[objKey] = 1; holder[objKey] += 1; holder[objKey]++; console.log(holder.kk, counter, holder[objKey]);
var sym = Symbol("s"); holder[sym] = 3; holder[sym] *= 2; console.log(holder[sym]);
