"""User input and page scripts meet on form state and focus, as the browser keeps them.

Each page has a timer that changes a control (or focus) while the user acts on it; the seed
execution's conflicts (after the default filters) must pair the user's event with that timer on
the control's location. Look-alikes that touch other state must not. Two pages are also
explored: reversing a toggle with the script that checks the box changes the page; a field filled
only while untouched ends the same either way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from webr4.browser.actions import parse_actions
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture
from webr4.serve import serve
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.record.session import record

from .test_site_races import conflicts

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent / "pages" / "forms"


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base


def located(driver, url: str, steps: list[dict]) -> dict[str, set[tuple[str, str]]]:
    """The seed's conflicts by location in words: location -> {pair of event labels}."""
    execution = driver.execute(url, actions=parse_actions(steps), store=ResponseStore(), live_network=True,
                               capture=Capture())
    found: dict[str, set[tuple[str, str]]] = {}
    for pair, location in conflicts(execution.trace):
        found.setdefault(location, set()).add(pair)
    return found


def with_user(found: dict[str, set[tuple[str, str]]], location: str, user: str) -> list[tuple[str, str]]:
    return [pair for pair in found.get(location, ()) if user in pair]


def test_a_click_on_a_checkbox_races_with_a_script_checking_it(driver, pages_url):
    # The click checks the box and the timer checks it too: one value, but the click's value
    # depends on what it read, so the same-value filter keeps the race.
    found = located(driver, pages_url + "checkbox.html", [{"click": "#agree"}])
    pairs = with_user(found, "#agree.checked", "click on #agree")
    assert len(pairs) == 1 and any(label.startswith("setTimeout 500ms") for label in pairs[0])


def test_a_radio_group_is_one_location(driver, pages_url):
    found = located(driver, pages_url + "radio.html", [{"click": "#basic"}])
    pairs = with_user(found, 'radio group "plan" of #order', "click on #basic")
    assert len(pairs) == 1 and any(label.startswith("setTimeout 500ms") for label in pairs[0])
    assert not with_user(found, 'radio group "plan" of #gift', "click on #basic")


def test_a_user_choice_races_with_a_script_selecting_an_option(driver, pages_url):
    found = located(driver, pages_url + "select.html", [{"select": "#currency", "value": "EUR"}])
    pairs = with_user(found, "#currency.value", "select on #currency ('EUR')")
    assert len(pairs) == 1 and any(label.startswith("setTimeout 500ms") for label in pairs[0])


def test_a_timer_stealing_focus_races_with_a_click_into_a_field(driver, pages_url):
    found = located(driver, pages_url + "focus.html", [{"click": "#name"}])
    pairs = with_user(found, "document.activeElement", "click on #name")
    assert len(pairs) == 1 and any(label.startswith("setTimeout 500ms") for label in pairs[0])


def test_typing_races_with_nothing_that_touches_other_state(driver, pages_url):
    found = located(driver, pages_url + "untouched.html", [{"fill": "#name", "value": " Ada "}])
    assert not [pair for pairs in found.values() for pair in pairs if "fill on #name (' Ada ')" in pair], found


def _verdicts(driver, url: str, steps: list[dict], out: Path) -> list:
    async def run(shared: Driver):
        session = await record(shared, url, out / "session", steps)
        return await explore(shared, session, out / "run", SweepSettings(bound=1, max_sequences=10))

    return driver.run(run).reversals


def test_a_toggle_reversed_with_the_script_checking_the_box_is_harmful(driver, pages_url, tmp_path):
    reversals = _verdicts(driver, pages_url + "checkbox.html", [{"click": "#agree"}], tmp_path)
    on_box = [r for r in reversals if r.location == "#agree.checked"]
    assert on_box and all(r.verdict == "harmful" for r in on_box), reversals


def test_a_field_filled_only_when_untouched_is_harmless(driver, pages_url, tmp_path):
    reversals = _verdicts(driver, pages_url + "untouched-draft.html", [{"fill": "#field", "value": "Ada"}], tmp_path)
    assert any(r.location == "#field.value" for r in reversals)
    assert not [r for r in reversals if r.verdict in ("harmful", "error")], reversals
