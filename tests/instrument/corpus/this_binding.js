var o = { name: "o", f: function () { return this === o; }, g() { return this && this.name; } };
var k = "f";
console.log(o.f(), o[k](), (o.f)(), (o)["g"](), (0, o.f)());
function tag(strings, ...values) { return this === o && strings.raw.join("|") + values.join(","); }
o.tag = tag;
console.log(o.tag`a${1}b${2}c`, o["tag"]`x`);
var arr = [3, 1, 2];
console.log(arr.sort().join(), arr.map(function (x) { return this.m * x; }, { m: 2 }).join());
function plain() { "use strict"; return this; }
console.log(plain(), typeof plain.call(5));
var nested = { inner: { h() { return this === nested.inner; } } };
console.log(nested.inner.h(), nested["inner"]["h"]());
