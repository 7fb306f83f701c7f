var state = { total: 0 };
function* gen() { var local = 0; while (local < 3) { state.total += yield local; local++; } return "done"; }
var g = gen(); g.next(); g.next(5); g.next(6);
console.log(state.total, JSON.stringify(g.next(7)));
async function work() {
  var o = { v: 1 };
  o.v += await Promise.resolve(2);
  o.w = await 3;
  for await (const x of [Promise.resolve(4), 5]) o.v += x;
  return o.v * o.w;
}
work().then((r) => console.log("async", r));
var shared = [];
async function producer(n) { for (var i = 0; i < n; i++) { await null; shared.push(i); } }
Promise.all([producer(2), producer(3)]).then(() => console.log("shared", shared.join()));
const agen = async function* () { yield 1; yield 2; };
(async () => { var s = 0; for await (const v of agen()) s += v; console.log("agen", s); })();
