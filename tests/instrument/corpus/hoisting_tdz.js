console.log(early(), typeof hoistedVar, hoistedVar);
var hoistedVar = "set";
function early() { return "early" + typeof hoistedVar; }
try { tdz; } catch (e) { console.log(e.name, e.message); }
let tdz = 1;
function closureTdz() { try { return later; } catch (e) { return e.name + ": " + e.message; } }
console.log(closureTdz());
let later = 2;
console.log(closureTdz(), tdz);
if (true) { function blockFn() { return "block"; } }
console.log(blockFn());
class Late {}
console.log(typeof Late, new Late() instanceof Late);
