var f1 = function () {};
let f2 = () => {};
const C1 = class {};
var f3 = (function () {});
globalAssigned = function () {};
var captureMe;
function host() { var inner = function () {}; captureMe = inner; return () => inner; }
host();
var o = {}; o.m = function () {};
class S { static name() { return "custom"; } }
var Named = class Inner { static who() { return Inner.name; } };
var s2 = class { static name = "field"; };
var gen = function* () {};
var asyncArrow = async () => {};
var fdecl; fdecl = function () {};
var n1 = 1, f4 = function () {}, n2;
console.log(f1.name, f2.name, C1.name, f3.name, globalAssigned.name, captureMe.name, o.m.name, typeof S.name, Named.name, Named.who(), s2.name, gen.name, asyncArrow.name, fdecl.name, f4.name);
