var a = 1
var b = a
var c = { p: 2 }
a
++b
c.p
;[a, b].forEach(function (v) { console.log(v) })
var d = c
.p
var e = a
/2/1
var s = `t${a}`
function r() {
  return
  a
}
let g = a
const h = c
  ?.p
label: for (;;) { break label }
console.log(a, b, d, e, s, r(), g, h)
