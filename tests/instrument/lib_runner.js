/*
 * Runs library files and a scenario in a jsdom window, for the rewriter's library tests.
 *
 * argv[2]: directory whose node_modules holds jsdom. stdin: JSON {files: [source], scenario,
 * log: bool, accessLog: the access log's source}. Each source is evaluated as a classic script
 * in the window (after __webr4 and the access log when `log`), then the scenario, whose
 * (possibly awaited) value is printed as JSON together with the number of accesses logged.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const { JSDOM, VirtualConsole } = require(path.join(process.argv[2], "node_modules", "jsdom"));

(async () => {
  const job = JSON.parse(fs.readFileSync(0, "utf8"));
  const dom = new JSDOM("<!doctype html><html><body><div id=root></div></body></html>", {
    runScripts: "outside-only",
    pretendToBeVisual: true,
    virtualConsole: new VirtualConsole(),
  });
  const window = dom.window;
  if (job.log) {
    window.eval("window.__webr4 = {};");
    window.eval(job.accessLog);
  }
  for (const source of job.files) window.eval(source);
  let result;
  try {
    result = await window.eval(job.scenario);
  } catch (error) {
    result = "THROWN " + error.name + ": " + error.message;
  }
  const accesses = job.log ? window.eval("__webr4.log.flush().length") : 0;
  process.stdout.write(JSON.stringify({ result, accesses }));
  window.close();
})();
