function makeQueue() {
  var queue = [];
  var size = 0;
  return {
    push(x) { queue.push(x); size++; },
    shift() { size--; return queue.shift(); },
    get size() { return size; },
  };
}
var q1 = makeQueue(), q2 = makeQueue();
q1.push(1); q1.push(2); q2.push(3); q1.shift();
console.log(q1.size, q2.size);
function counterWithCatch() { try { throw 1; } catch (err) { return () => err++; } }
var cc = counterWithCatch(); cc(); console.log(cc());
var fns = [];
for (let i = 0; i < 3; i++) { let j = i * 2; fns.push(() => i + j); }
console.log(fns.map((f) => f()).join());
const curry = (a) => (b) => (c) => a + b + c;
console.log(curry(1)(2)(3));
function shadow() { var v = 1; { let v = 2; var get2 = () => v; } return [get2(), (() => v)()]; }
console.log(shadow().join());
var objLit = (function () { var hidden = 7; return { hidden, __proto__: { inherited: true }, [hidden + "k"]: hidden }; })();
console.log(JSON.stringify(objLit), objLit.inherited);
var __proto__ = { viaShorthand: 1 };
var sh = { __proto__ };
console.log(Object.getPrototypeOf(sh) === Object.prototype, sh.__proto__ === __proto__);
