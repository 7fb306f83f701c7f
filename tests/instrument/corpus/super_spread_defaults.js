class Base { constructor() { this.x = 1; } greet() { return "base" + this.x; } static s() { return "S"; } }
class Child extends Base {
  constructor() { super(); super.x = 5; }
  greet() { return "child+" + super.greet() + super.x; }
  static s() { return super.s() + "!"; }
}
var proto = { hi() { return "proto"; } };
var lit = { __proto__: proto, hi() { return "lit>" + super.hi(); } };
console.log(new Child().greet(), Child.s(), lit.hi(), new Child().x);
function sum(...n) { return n.reduce((a, b) => a + b, 0); }
var parts = [1, 2, 3];
console.log(sum(...parts, ...[4]), Math.max(...parts), [...parts, ..."ab"].join());
var base = 10;
function dflt(a, b = a + base, c = () => a + b) { a = 100; return c(); }
console.log(dflt(1), dflt(1, 2), JSON.stringify({ ...{ a: 1 }, b: 2 }));
var seq = (parts.push(4), parts.length);
var i = 0, j = (i++, i++, i);
console.log(seq, i, j, (0, parts.pop)?.name);
