"use strict";
var frozen = Object.freeze({ a: 1 });
try { frozen.a = 2; } catch (e) { console.log(e.name, e.message); }
try { frozen.a += 2; } catch (e) { console.log(e.name, e.message); }
try { frozen.a++; } catch (e) { console.log(e.name, e.message); }
try { "str".prop = 1; } catch (e) { console.log(e.name, e.message); }
try { undeclaredInStrict = 1; } catch (e) { console.log(e.name, e.message); }
try { null.x = 1; } catch (e) { console.log(e.name, e.message); }
try { undefined.x; } catch (e) { console.log(e.name, e.message); }
function sloppyInside() { return this; }
console.log(sloppyInside(), frozen.a);
