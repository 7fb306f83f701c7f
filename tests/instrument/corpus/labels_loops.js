var out = [];
outer: for (var i = 0; i < 3; i++) {
  inner: for (let j = 0; j < 3; j++) {
    if (j === 1) continue outer;
    if (i === 2) break outer;
    out.push(i + "" + j);
  }
}
var fns = [];
for (let n = 0; n < 3; n++) { fns.push(() => n); }
for (var m = 0; m < 3; m++) { fns.push(() => m); }
var keys = []; var key;
for (key in { a: 1, b: 2 }) keys.push(key);
var o = {}; for (o.last of [1, 2, 3]);
switch (out.length) { case 2: { let s = "two"; fns.push(() => s); break; } default: fns.push(() => "other"); }
block: { out.push("b"); break block; }
var count = 0; do { count++ } while (count < 5)
console.log(out.join(), fns.map((f) => f()).join(), keys.join(), key, o.last, count);
