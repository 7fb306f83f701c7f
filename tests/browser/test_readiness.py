"""A step's target state is the same whatever the harness guessed it would be: the guess only
orders the queries (:func:`webr4.browser.readiness.target_state`)."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from webr4.browser.actions import parse_actions
from webr4.browser.readiness import TargetState, target_state

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html><body>
<input id="field"> <input id="off" disabled> <input id="fixed" readonly> <input id="away" hidden>
<button id="button">go</button> <button id="inert" disabled>no</button>
</body></html>"""
EXPECTED = {  # (kind, target) -> the state, as Playwright's checks of that kind find it
    ("fill", "#field"): TargetState.READY, ("fill", "#off"): TargetState.DISABLED,
    ("fill", "#fixed"): TargetState.READ_ONLY, ("fill", "#away"): TargetState.HIDDEN,
    ("fill", "#button"): TargetState.READ_ONLY, ("fill", "#inert"): TargetState.DISABLED,
    ("fill", "#nowhere"): TargetState.MISSING,
    ("click", "#field"): TargetState.READY, ("click", "#off"): TargetState.DISABLED,
    ("click", "#fixed"): TargetState.READY, ("click", "#away"): TargetState.HIDDEN,
    ("click", "#button"): TargetState.READY, ("click", "#inert"): TargetState.DISABLED,
    ("click", "#nowhere"): TargetState.MISSING,
}


def test_the_state_found_does_not_depend_on_the_guess(driver):
    async def states(page: Page) -> dict[tuple[str, str, TargetState], TargetState]:
        await page.set_content(PAGE)
        found = {}
        for kind, selector in EXPECTED:
            step = {kind: selector, "value": "x"} if kind == "fill" else {kind: selector}
            action = parse_actions([step])[0]
            for guess in TargetState:
                found[(kind, selector, guess)] = await target_state(page, action, guess)
        return found

    found = driver.in_plain_chromium(states)
    assert found == {(kind, selector, guess): state for (kind, selector), state in EXPECTED.items()
                     for guess in TargetState}
