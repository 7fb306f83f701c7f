"""The harness, not the browser, decides the order: both orders of a race can be forced."""

from __future__ import annotations

import pytest

from webr4.browser.actions import parse_actions
from webr4.execution import Capture
from webr4.trace import Category

pytestmark = pytest.mark.browser  # every test here drives Chromium


def _text_of(dom: str, element_id: str) -> str:
    lines = dom.splitlines()
    start = next(i for i, line in enumerate(lines) if f'id="{element_id}"' in line)
    return lines[start + 1].strip()


def test_both_xhr_response_orders_are_executed(driver, sites_url):
    url = sites_url + "two-xhr/"
    seed = driver.execute(url, capture=Capture())
    xhrs = [e for e in seed.trace.sequence if seed.trace.events[e].type == "xhr"]
    assert len(xhrs) == 2
    first, second = seed.trace.sequence.index(xhrs[0]), seed.trace.sequence.index(xhrs[1])
    reversed_plan = seed.trace.sequence[:first] + [xhrs[1], xhrs[0]]
    flipped = driver.execute(url, reversed_plan, capture=Capture())
    assert flipped.trace.sequence[first:second + 1] == [xhrs[1], xhrs[0]]
    assert {_text_of(seed.dom, "price"), _text_of(flipped.dom, "price")} == {"$39.00", "$49.00"}


def test_click_between_parse_chunks_raises_reference_error(driver, sites_url):
    url = sites_url + "click-during-parse/"
    actions = parse_actions([{"click": "#add"}])
    seed = driver.execute(url, actions=actions, capture=Capture())
    assert not [e for e in seed.trace.errors if e.kind == "exception"]
    click = actions[0].event_id
    # The earliest state in which the click is enabled: the button exists, the script does not.
    early = next(i for i, step in enumerate(seed.trace.steps) if click in step.enabled)
    assert seed.trace.events[seed.trace.sequence[early]].category is Category.PARSE
    plan = seed.trace.sequence[:early] + [click]
    raced = driver.execute(url, plan, actions=actions, capture=Capture())
    assert raced.trace.sequence[early] == click
    errors = [e for e in raced.trace.errors if e.kind == "exception"]
    assert errors and "addToCart" in errors[0].message and errors[0].step == early
