var a = null, o = { b: { c: 1, f() { return this.c; } }, arr: [10, 20] }, k = "b", fnull;
console.log(a?.b, a?.b.c, a?.[k].c, o?.b.c, o?.[k]?.c, o.b?.f(), o.b.f?.(), o.missing?.f(), fnull?.());
console.log(o?.arr[1], (o?.b).c, a?.b.c.d.e, o.b?.["c"]);
var count = 0; function next() { count++; return "b"; }
a?.[next()]; o?.[next()]; console.log(count);
try { (a?.b).c; } catch (e) { console.log(e.name, e.message); }
console.log(delete a?.b, delete o?.arr, "arr" in o);
