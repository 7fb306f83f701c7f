var a = 1, b = 2;
[a, b] = [b, a];
var o = { x: 1, y: [2, 3], z: { w: 4 } };
var x, z, w, rest;
({ x, y: [, z], z: { w } } = o);
var { p = function () {}, q: { r = 5 } = {}, ...others } = { s: 1, t: 2 };
let [first, , third = "d", ...tail] = "abcdef";
const target = {};
[target.one, target["two"]] = [1, 2];
({ a: target.three } = { a: 3 });
function params({ m, n = m * 2 } = { m: 3 }, [o1, o2] = [4, 5], ...more) { return [m, n, o1, o2, more.length]; }
console.log(a, b, x, z, w, p.name, r, JSON.stringify(others), first, third, tail.join(""), JSON.stringify(target), params().join());
for (var [i, j] of [[1, 2], [3, 4]]) console.log(i + j);
for (const { length } of ["ab", "cde"]) console.log(length);
var swap = [1, 2, 3]; [swap[0], swap[2]] = [swap[2], swap[0]]; console.log(swap.join());
console.log(([a, b] = [7, 8]).join(), a, b);
