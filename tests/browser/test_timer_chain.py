"""A timer due later reversed against the end of a chain of short timers that a click starts
(a view-model's 500 ms save throttle against a router's chain of 1 and 4 ms timers): webr4's
verdict agrees with plain Chromium's.

A clock fires timers by due time, so the throttle fires before the router's last timer only when
the click that starts the router's chain comes after the throttle. The chain's first timer loads
the stored todos and its last one shows them beside what is stored then: webr4's reversal must
hold the click back as the witness does, not run the chain on time and hold back only its last
timer (that order shows the todos loaded before the save beside the ones saved, which no browser
shows). Every harmful verdict is confirmed in plain Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from webr4.checking import SweepOptions, explore_session
from webr4.record.session import record
from webr4.serve import serve
from webr4.rundir.runfiles import RunFiles
from webr4.sweep.settings import SweepSettings

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><body><input id="new"><button id="completed">completed</button><p id="view"></p>
<script>
var todos = [], stored = "[]", loaded = null, throttle = null;
document.getElementById("new").addEventListener("keyup", function (event) {
  if (event.key !== "Enter") return;
  todos.push(this.value);
  clearTimeout(throttle);
  throttle = setTimeout(function () { stored = JSON.stringify(todos); }, 500);
});
document.getElementById("completed").addEventListener("click", function () {
  setTimeout(function () {
    loaded = stored;
    setTimeout(function () { view.textContent = "shown " + loaded + ", stored " + stored; }, 4);
  }, 1);
});
</script></body>"""
STEPS = [{"fill": "#new", "value": "milk"}, {"press": "#new", "key": "Enter"}, {"click": "#completed"}]


def test_a_throttle_before_a_clicks_chain_of_timers_is_run_as_plain_chromium_runs_it(driver, tmp_path: Path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text(PAGE)
    with serve(tmp_path / "site") as base:
        async def check(d):
            session = await record(d, base, tmp_path / "session", STEPS)
            options = SweepOptions(SweepSettings(bound=1, max_sequences=6), confirm="harmful")
            return await explore_session(session, tmp_path / "run", options, driver=d)

        summary = driver.run(check)
    show = next(r for r in summary.reversals
                if r.second.startswith("setTimeout 500ms") and r.first.startswith("setTimeout 4ms"))
    assert show.verdict == "harmful" and show.unrealised is None
    with RunFiles(tmp_path / "run") as files:
        child = files.trace(show.index)
    assert child is not None
    order = [child.events[step.event].label.split(" at ")[0] for step in child.steps]
    assert order.index("setTimeout 500ms") < order.index("click on #completed")  # the click waited
    assert summary.harmful() and all(r.confirmation_status == "confirmed" for r in summary.harmful()), \
        [r.confirmation for r in summary.harmful()]
