/*
 * Summarises lists of accesses with the page runtime's AccessSummary (instrument_js/runtime/
 * access_summary.js), for tests/instrument/test_summary_js.py.
 *
 * stdin: JSON {events: [[[kind, location, site, value], ...], ...], named: bool}: one list of
 *   accesses per event, all summarised in one context, one summary per event; with `named`, the
 *   variables and properties go in by key and group (`addNamed`, one index shared by the
 *   summaries, as the access log does) and every other location by name (`push`).
 * stdout: JSON list of each event's `entries()`.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const runtime = path.join(__dirname, "..", "..", "instrument_js", "runtime");
const natives = fs.readFileSync(path.join(runtime, "natives.js"), "utf8");
// The natives from the captured `apply` on: the part before needs a window.
const prelude = "const N = { defineProperty: Object.defineProperty };\n"
  + natives.slice(natives.indexOf("const apply = Reflect.apply;"), natives.indexOf("const newWeakMap"));
const context = vm.createContext({});
vm.runInContext(prelude + fs.readFileSync(path.join(runtime, "access_summary.js"), "utf8"), context);

/* The access log's names of its locations (access_log/buffer.js, `locationName`). */
function nameOf(group, key) {
  if (typeof group === "string") return "scope:" + group + ":" + key;
  if (group > 0) return "prop:" + group + "." + key;
  return group === 0 ? "global:" + key : "scope:" + -group + ":" + key;
}

/* [group, key] of a variable or property location, or null for any other. */
function groupAndKey(location) {
  let match = /^prop:(\d+)\.([\s\S]*)$/.exec(location);
  if (match) return [Number(match[1]), match[2]];
  match = /^global:([\s\S]*)$/.exec(location);
  if (match) return [0, match[1]];
  match = /^scope:([^:]+):([\s\S]*)$/.exec(location);
  if (match) return [/^\d+$/.test(match[1]) ? -Number(match[1]) : match[1], match[2]];
  return null;
}

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const summarise = vm.runInContext("(index) => new AccessSummary(index)", context);
let index;
const out = [];
for (const accesses of job.events) {
  const summary = summarise(index);
  index = summary.index;
  for (const access of accesses) {
    const named = job.named ? groupAndKey(access[1]) : null;
    if (named === null) summary.push(access);
    else summary.addNamed(access[0], named[0], named[1], access[2], access[3], nameOf);
  }
  out.push(summary.entries());
}
process.stdout.write(JSON.stringify(out));
