var log = [];
var a = { b: 1, get g() { log.push("get"); return this._g; }, set g(v) { log.push("set" + v); this._g = v; }, _g: 5 };
a.b += 1; a.b -= 3; a.b *= 4; a.b **= 2; a.b /= 8; a.b %= 3; a.b <<= 3; a.b >>= 1; a.b >>>= 0; a.b |= 9; a.b &= 12; a.b ^= 5;
a.g += 10;
var k = "b";
a[k] += 100;
a.s = "x"; a.s += "y";
a.n = null; a.n ??= "dflt"; a.n ??= "no"; a.z ||= 7; a.z &&= 8; a.f = 0; a.f &&= 9; a.f ||= 11;
a.big = 10n; a.big *= 3n; a.big++;
var x = 1; x += 2; x++; ++x; x--; var y = x++ + ++x; x **= 2;
var c = 0; c ||= 4; c &&= 5; c ??= 6;
console.log(JSON.stringify(a, (key, v) => typeof v === "bigint" ? v + "n" : v), log.join(), x, y, c);
var post = { v: "5" }; console.log(post.v++, post.v, ++post.v, post.v--, --post.v);
var u; u++; console.log(u);
function counter() { var n = 0; return { up: () => ++n, down: () => n--, get: () => n }; }
var cn = counter(); cn.up(); cn.up(); cn.down(); console.log(cn.get(), cn.up());
var arr = [1, 2]; arr[0] += arr[1] += 5; arr[arr.length - 1]++; console.log(arr.join());
var calls = 0; var obj = { p: 1 };
function key() { calls++; return "p"; }
obj[key()] += 1; obj[key()]++; console.log(obj.p, calls);
try { var nul = null; nul.p += f(); } catch (e) { console.log(e.name, e.message); }
function f() { console.log("rhs evaluated"); return 1; }
