/*
 * Runs JavaScript programs for the rewriter tests, each in a fresh V8 context.
 *
 * stdin: JSON {accessLog, jobs}: the access log's source (webr4/browser/accesslogs.py) and a list
 * of jobs {code, kind: "script" | "module" | "handler", log: bool, modules?}
 *   script   evaluated as a classic script
 *   module   evaluated as an ES module; `modules` maps specifiers to the source of dependencies
 *   handler  compiled as an inline event-handler body and called with a fake element and event
 * When `log` is set, the context gets `__webr4` and the access log first.
 * stdout: JSON list of {output: [lines], log: [entries] | null}; thrown errors and rejections
 * are printed as "THROWN <name>: <message>".
 */
"use strict";
const fs = require("fs");
const util = require("util");
const vm = require("vm");


function describe(error) {
  return error && typeof error === "object" ? `THROWN ${error.name}: ${error.message}` : `THROWN ${String(error)}`;
}

async function runJob(job, accessLog) {
  const output = [];
  const print = (...values) => output.push(values.map((v) => (typeof v === "string" ? v : util.inspect(v, { depth: 4 }))).join(" "));
  const context = vm.createContext({ console: { log: print }, setTimeout, clearTimeout, queueMicrotask });
  if (job.log) {
    vm.runInContext("globalThis.__webr4 = {};", context);
    vm.runInContext(accessLog, context, { filename: "access_log.js" });
  }
  const rejections = [];
  const onRejection = (reason) => rejections.push(reason);
  process.on("unhandledRejection", onRejection);
  try {
    if (job.kind === "module") {
      const cache = new Map();
      const link = (specifier) => {
        if (!cache.has(specifier)) {
          cache.set(specifier, new vm.SourceTextModule(job.modules[specifier], { context, identifier: specifier }));
        }
        return cache.get(specifier);
      };
      const main = new vm.SourceTextModule(job.code, { context, identifier: "main.mjs" });
      await main.link(link);
      await main.evaluate();
    } else if (job.kind === "handler") {
      const element = vm.runInContext("({ id: 'button1', value: 'v', clicks: 0 })", context);
      const event = vm.runInContext("({ type: 'click' })", context);
      const handler = vm.runInContext(`(function (event) {\n${job.code}\n})`, context);
      print(handler.call(element, event), element.clicks);
    } else {
      vm.runInContext(job.code, context, { filename: "program.js" });
    }
  } catch (error) {
    output.push(describe(error));
  }
  await new Promise((resolve) => setTimeout(resolve, 30));
  process.off("unhandledRejection", onRejection);
  for (const reason of rejections) output.push("REJECTED " + describe(reason));
  const log = job.log ? vm.runInContext("__webr4.log.flush()", context) : null;
  return { output, log: log && JSON.parse(JSON.stringify(log)) };
}

(async () => {
  const { accessLog, jobs } = JSON.parse(fs.readFileSync(0, "utf8"));
  const results = [];
  for (const job of jobs) results.push(await runJob(job, accessLog));
  process.stdout.write(JSON.stringify(results));
})();
