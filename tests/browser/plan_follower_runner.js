/*
 * Runs the page's plan follower (instrument_js/runtime/replay.js) through a list of choices, for
 * tests/browser/test_plan_follower.py.
 *
 * stdin: JSON list of cases {state: {plan, waiting, diverged}, calls: [[[id, due, prio, seq], ...],
 *   ...]}: a follower's starting state and, per call of `choose`, the enabled events.
 * stdout: JSON list, per case, of {choices: [[event, planned] or null, ...], cursor, waiting,
 *   skipped, diverged, matched}.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const runtime = path.join(__dirname, "..", "..", "instrument_js", "runtime");
const natives = fs.readFileSync(path.join(runtime, "natives.js"), "utf8");
// The natives from the captured `apply` up to the promises: the part before needs a window.
const prelude = "const N = { defineProperty: Object.defineProperty };\n"
  + natives.slice(natives.indexOf("const apply = Reflect.apply;"), natives.indexOf("const NativePromise"));
const context = vm.createContext({});
vm.runInContext(prelude + fs.readFileSync(path.join(runtime, "replay.js"), "utf8")
  + "\nthis.newPlanFollower = newPlanFollower;", context);

function follow(input) {
  const follower = context.newPlanFollower(input.state);
  const choices = input.calls.map((enabled) => {
    const choice = follower.choose(enabled);
    return choice === null ? null : [choice.event, choice.planned];
  });
  return { choices, cursor: follower.cursor, waiting: follower.waiting, skipped: follower.skipped,
    diverged: follower.diverged, matched: follower.matched };
}

process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(0, "utf8")).map(follow)));
