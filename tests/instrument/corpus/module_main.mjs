import defaultValue, { counter, bump as increment } from "dep";
import * as ns from "dep";
export let local = 1;
export function readLocal() { return local; }
const captured = { hits: 0 };
function hit() { captured.hits++; local++; return captured.hits; }
hit(); hit();
increment(); increment();
console.log(defaultValue, counter, ns.counter, readLocal(), captured.hits, typeof import.meta);
const awaited = await Promise.resolve("tla");
console.log(awaited, this === undefined);
