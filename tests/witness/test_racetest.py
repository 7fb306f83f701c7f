"""A race laid out as a test (pure): the levers in the order the plain run saw their signs, the
reads that tell two ends apart, and the text of both forms (valid, and formatted as ruff format
and Prettier write it)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from webr4.witness.levers import ClockRun, Hold, Sign, StepTiming
from webr4.witness.asserted_outcome import Check, Read, checks_of, css_selector, reads_of
from webr4.witness.plain import CLOCK, DOM_READY, LOAD, RESPONSE, STEP
from webr4.witness.racetest import RaceTest, Unwritable, race_test
from webr4.witness.schedule import PlainSchedule
from webr4.witness.writers import python_test, typescript_test

ORIGIN = "http://127.0.0.1:8000"
PAGE = f"{ORIGIN}/shop/"


def _key(url: str) -> str:
    return f"{url}?"


def _click_before_script() -> PlainSchedule:
    """A click acting while ``cart.js`` is held, which goes once the click is done."""
    return PlainSchedule(url=PAGE, steps=({"click": "#add"},), order="click on #add before parse chunk 1/1",
                         holds=(Hold(_key(f"{ORIGIN}/shop/cart.js"), Sign(STEP, "0")),),
                         timings=(StepTiming(0, None),), step_times=(0.0,))


def _signs(*keys: tuple[str, str]) -> list[str]:
    return [f"{kind}:{target}" for kind, target in keys]


def test_an_early_click_acts_before_the_held_script_and_lets_it_go_after():
    test = race_test(_click_before_script(), _signs((RESPONSE, _key(PAGE)), (STEP, "0"), (DOM_READY, ""), (LOAD, "")),
                     [], "add")
    assert [(h.name, h.path) for h in test.held] == [("cart_js", "/shop/cart.js")]
    assert [(s.kind, s.early or s.name) for s in test.steps] == [("act", ("cart_js",)), ("release", "cart_js")]
    assert test.title == "the click on #add before cart.js"
    assert (test.origin, test.path) == (ORIGIN, "/shop/")


def test_a_response_held_until_another_arrives_waits_for_that_one():
    list_price, member = f"{ORIGIN}/shop/list.json", f"{ORIGIN}/shop/member.json"
    schedule = PlainSchedule(url=PAGE, steps=(), order="member before list",
                             holds=(Hold(_key(list_price), Sign(RESPONSE, _key(member))),))
    test = race_test(schedule, _signs((RESPONSE, _key(PAGE)), (DOM_READY, ""), (RESPONSE, _key(member)),
                                      (RESPONSE, _key(list_price))), [], "price")
    assert [(s.kind, s.path or s.name) for s in test.steps] == [("arrived", "/shop/member.json"),
                                                                ("release", "list_json")]


def test_a_timer_forced_first_runs_the_paused_clock_once_the_document_has_set_it():
    status = f"{ORIGIN}/shop/status.json"
    schedule = PlainSchedule(url=PAGE, steps=(), order="timer before status", clock=True,
                             holds=(Hold(_key(status), Sign(CLOCK, "1500")),),
                             clock_runs=(ClockRun(1500.0, Sign(RESPONSE, _key(PAGE)), Sign(RESPONSE, _key(PAGE)),
                                                  1500.0),))
    test = race_test(schedule, _signs((RESPONSE, _key(PAGE)), (DOM_READY, ""), (CLOCK, "1500"),
                                      (RESPONSE, _key(status))), [], "status")
    assert test.clock
    assert [(s.kind, s.state or s.ms or s.name) for s in test.steps] == [
        ("wait-load", DOM_READY), ("run-clock", 1500.0), ("release", "status_json")]


def test_a_step_the_plain_run_never_took_has_no_test():
    with pytest.raises(Unwritable, match="step 1"):
        race_test(_click_before_script(), _signs((RESPONSE, _key(PAGE)),), [], "add")


PARENT_DOM = """<html>
  <body>
    <ul id="todo-list">
      <li class="done">
        Buy milk
      </li>
      <li>
        Walk
      </li>
    </ul>
    <input id="name" (value)="Ada">
    <p id="3d">
      ok
    </p>
  </body>
</html>"""
CHILD_DOM = """<html>
  <body>
    <ul id="todo-list">
      <li>
        Buy bread
      </li>
    </ul>
    <input id="name" (value)="Guest">
    <p id="3d">
      lost
    </p>
  </body>
</html>"""


def test_the_reads_are_where_the_ends_differ_counts_first():
    reads = reads_of(PARENT_DOM, CHILD_DOM)
    assert reads[0] == Read("count", "#todo-list > li")
    assert Read("value", "#name") in reads
    assert Read("text", '[id="3d"]') in reads  # an id that is no CSS identifier
    assert Read("text", "ul#todo-list > li") in reads


def test_a_check_is_kept_only_where_the_plain_runs_differ():
    reads = [Read("count", "#todo-list > li"), Read("value", "#name"), Read("text", "#title")]
    checks = checks_of(reads, [2, "Ada", "Shop"], [1, "Guest", "Shop"],
                       {"exceptions": [], "navigation": None},
                       {"exceptions": [["Uncaught ReferenceError: f is not defined", None]],
                        "navigation": f"{ORIGIN}/away"})
    assert [(c.kind, c.expected) for c in checks] == [("url", None), ("count", 2), ("value", "Ada"), ("errors", [])]


def test_no_selector_reaches_into_a_shadow_root():
    assert css_selector("html > body > user-card#card > #shadow-root > p") == ""
    assert css_selector("html > body > div > p:nth-of-type(2)") == "body > div > p:nth-of-type(2)"


def _race(checks: list[Check], title: str = "the click on #add before cart.js") -> RaceTest:
    test = race_test(_click_before_script(), _signs((RESPONSE, _key(PAGE)), (STEP, "0")), checks, "add")
    return RaceTest(test.name, title, test.origin, test.path, test.held, test.clock, test.steps,
                    test.checks)


CHECKS = [Check("url", None, f"{ORIGIN}/away"),
          Check("text", 'He said "hello" to the whole wide world, twice over', "x", Read("text", "#greeting")),
          Check("attribute", "member", "list", Read("attribute", "#price", "data-source")),
          Check("visible", True, False, Read("visible", "#panel")), Check("errors", [], ["ReferenceError: f"])]


def _keyup_before_timer(checks: list[Check]) -> RaceTest:
    """A keyup before the timer the fill before it sets (vue's debounce), on a paused clock."""
    steps = ({"fill": "#new", "value": "a"}, {"press": "#new", "key": "Enter"}, {"fill": "#new", "value": "b"},
             {"press": "#new", "key": "Enter"})
    schedule = PlainSchedule(url=PAGE, steps=steps, order="keyup before timer", clock=True,
                             timings=(StepTiming(3, Sign(DOM_READY)),), step_times=(0.0, 1.0, 3.0, 4.0),
                             clock_runs=(ClockRun(3.0, Sign(STEP, "3"), Sign(STEP, "2"), 0.0, forward=False),))
    return race_test(schedule, _signs((RESPONSE, _key(PAGE)), (DOM_READY, ""), (LOAD, ""), (STEP, "0"), (STEP, "1"),
                                      (STEP, "2"), (STEP, "3")), checks, "keyup")


RACES = {"held": lambda: _race(CHECKS), "clock": lambda: _keyup_before_timer(CHECKS[:1])}
"""A race of each lever the helper has: a held script and an early click (every check), and a
paused clock alone (a text check: no errors to collect)."""


def test_the_python_form_uses_only_the_helper_it_needs():
    held, clock = (python_test(race(), "test_add.py") for race in RACES.values())
    assert 'expect(page.locator("#panel")).to_be_visible()' in held
    assert "assert race.errors == []" in held
    assert "def early" in held and "def arrived" in held and "pause_clock" not in held
    assert "def pause_clock" in clock and "errors" not in clock and "def hold" not in clock


@pytest.mark.parametrize("race", RACES)
def test_the_python_form_is_formatted_as_ruff_format_writes_it(tmp_path, race):
    source = python_test(RACES[race](), "test_add.py")
    compile(source, "test_add.py", "exec")
    path = tmp_path / "test_add.py"
    path.write_text(source)
    formatted = subprocess.run([sys.executable, "-m", "ruff", "format", "--isolated", "--diff", str(path)],
                               capture_output=True, text=True, check=False)
    assert formatted.returncode == 0, formatted.stdout
    linted = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", str(path)],
                            capture_output=True, text=True, check=False)
    assert linted.returncode == 0, linted.stdout


def test_the_typescript_form_states_the_same_race():
    source = typescript_test(_race(CHECKS, title="a title long enough to make Prettier break the test's line"),
                             "add.spec.ts")
    assert 'const cartJs = await race.hold("/shop/cart.js");' in source
    assert 'await race.early((o) => page.locator("#add").click(o), cartJs);' in source
    assert "await expect(page).toHaveURL(url);" in source
    assert "test(\"a title long enough to make Prettier break the test's line\", async ({\n  page," in source
    assert all(len(line) <= 80 for line in source.splitlines())


@pytest.mark.skipif(shutil.which("node") is None, reason="Prettier needs Node")
def test_the_typescript_form_is_formatted_as_prettier_writes_it(tmp_path, npm_dir):
    prettier = npm_dir / "node_modules" / ".bin" / "prettier"
    if not prettier.exists():
        pytest.skip("prettier is not in the test session's npm packages")
    for name, race in RACES.items():
        (tmp_path / f"{name}.spec.ts").write_text(typescript_test(race(), f"{name}.spec.ts"))
    checked = subprocess.run([str(prettier), "--check", str(tmp_path)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_paused_clock_runs_to_each_step_but_never_past_a_racing_timer():
    """A keyup before the timer the fill before it sets (vue's debounce): the clock runs to each
    step's time in webr4's order, but not past the timer until the keyup is done."""
    test = _keyup_before_timer([])
    laid = [(s.kind, s.ms if s.kind == "run-clock" else s.call.args[0] if s.call and s.call.args else "")
            for s in test.steps if s.kind in ("act", "run-clock")]
    assert laid == [("run-clock", 0.0), ("act", "a"), ("run-clock", 1.0), ("act", "Enter"), ("run-clock", 3.0),
                    ("act", "b"), ("act", "Enter")]
    assert [s.shows for s in test.steps if s.kind == "run-clock"] == ["#new"] * 3  # each runs on until it shows
