// Replays a recorded stream of accesses through the access log and the runtime's summary, in Node,
// and prints the CPU milliseconds each round took and the digest of everything the log handed
// over (see benchmarks/profiling/log_cost.py).
//
// node log_replay.js JS_DIR ACCESS_LOG.js STREAM.json ROUNDS
//   JS_DIR       an instrument_js tree: its runtime/natives.js (from the captured natives on) and
//                runtime/access_summary.js are timed with the access log
//   ACCESS_LOG.js that tree's access log as one script (webr4/browser/accesslogs.py)
//   STREAM.json  [[event, [[kind, location, site, digest], ...]], ...]: every access of each
//                step, as the full access log records them
// Each round runs in a fresh context: every variable and property access of the stream becomes
// the access log call the rewritten code makes (`log.r`, `log.w`, `log.p`, `log.pws`), every
// other access the `append` of the DOM log; each event ends as the runtime ends it (`flush`,
// `takeHeld`, the record's JSON).
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const [jsDir, accessLogPath, streamPath, rounds] = process.argv.slice(2);
const natives = fs.readFileSync(path.join(jsDir, "runtime", "natives.js"), "utf8");
const from = natives.indexOf("const apply = Reflect.apply;");
const upTo = natives.indexOf("const newWeakMap");
const prelude = "const N = { defineProperty: Object.defineProperty, stringify: JSON.stringify };\n"
  + natives.slice(from, upTo);
const runtime = prelude + fs.readFileSync(path.join(jsDir, "runtime", "access_summary.js"), "utf8")
  + "\nglobalThis.__webr4 = { newAccessLog: (index) => new AccessSummary(index) };\n";
const accessLog = fs.readFileSync(accessLogPath, "utf8");
const stream = JSON.parse(fs.readFileSync(streamPath, "utf8"));

const driverSource = `(function (stream, require) {
  const log = globalThis.__webr4.log;
  const objects = new Map();
  const object = (id) => {
    let found = objects.get(id);
    if (found === undefined) { found = {}; objects.set(id, found); }
    return found;
  };
  const value = (digest) => {
    if (digest === null || digest === "u") return undefined;
    if (digest === "null") return null;
    if (digest === "y") return Symbol();
    const kind = digest.slice(0, 2);
    const rest = digest.slice(2);
    if (kind === "n:") return Number(rest);
    if (kind === "s:") return rest;
    if (kind === "b:") return rest === "true";
    if (kind === "i:") return BigInt(rest);
    if (kind === "o:") return object(rest);
    return undefined;
  };
  const scope = (text) => (/^\\d+$/.test(text) ? Number(text) : text);
  const hash = require("crypto").createHash("sha256");
  for (const [event, accesses] of stream) {
    for (const [kind, location, site, digest] of accesses) {
      if (location.startsWith("prop:")) {
        const dot = location.indexOf(".");
        const target = object(location.slice(5, dot));
        const key = location.slice(dot + 1);
        if (kind === "r") log.p(site, target, key); else log.pws(site, target, key, value(digest));
      } else if (location.startsWith("global:") || location.startsWith("scope:")) {
        let name, id;
        if (location.startsWith("global:")) { name = location.slice(7); id = 0; } else {
          const colon = location.indexOf(":", 6);
          id = scope(location.slice(6, colon));
          name = location.slice(colon + 1);
        }
        if (kind === "r") log.r(site, name, id)(undefined); else log.w(site, name, id, value(digest));
      } else if (!location.startsWith("event:")) {
        log.append([kind, location, site, digest]);
      }
    }
    hash.update(JSON.stringify(log.flush(event, 0)));
    hash.update(JSON.stringify(log.takeHeld()));
  }
  return hash.digest("hex");
})`;

const times = [];
const outputs = new Set();
for (let round = 0; round < Number(rounds); round++) {
  const context = vm.createContext({});
  vm.runInContext(runtime, context);
  vm.runInContext(accessLog, context);
  const replay = vm.runInContext(driverSource, context);
  const started = process.cpuUsage();
  outputs.add(replay(stream, require));
  const used = process.cpuUsage(started);
  times.push((used.user + used.system) / 1000);
}
process.stdout.write(JSON.stringify({ ms: times, output: [...outputs] }) + "\n");
