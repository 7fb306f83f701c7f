console.log(typeof notDeclaredAnywhere, typeof (alsoMissing), typeof typeof missing3);
console.log(typeof Math, typeof globalThis.nothing);
try { notDeclaredAnywhere; } catch (e) { console.log(e.name, e.message); }
try { missingFn(); } catch (e) { console.log(e.name, e.message); }
try { undeclaredTarget += 1; } catch (e) { console.log(e.name, e.message); }
if (typeof later === "undefined") console.log("later missing");
var later = 1;
