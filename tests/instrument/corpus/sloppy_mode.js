var frozen = Object.freeze({ a: 1 });
frozen.a = 2; frozen.a += 2; frozen.a++; frozen.b = 1;
"str".prop = 1;
implicitGlobal = 5;
console.log(frozen.a, frozen.b, implicitGlobal, globalThis.implicitGlobal, delete frozen.a);
function loose() { return typeof this; }
console.log(loose());
var x = 1; globalThis.x = 2; window_like = globalThis; console.log(x, window_like.x);
