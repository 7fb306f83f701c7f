var ns = { C: function C(v) { this.v = v; this.isNew = new.target === ns.C; }, D: class D { constructor() { this.k = "D"; } } };
var key = "C";
var a = new ns.C(1), b = new ns.C, c = new (ns.C)(3), d = new ns[key](4), e = new ns.D();
console.log(a.v, b.v, c.v, d.v, a.isNew, e.k, a instanceof ns.C);
function t(strings, ...vals) { return strings.join("_") + vals.join("+"); }
var obj = { t };
console.log(t`a${1}b${2}`, obj.t`x${3}`, String.raw`\n${a.v}`, `${a.v}${b.v}`);
var Make = ns.C;
console.log(new Make(9).v, new (function () { this.z = 1; })().z);
