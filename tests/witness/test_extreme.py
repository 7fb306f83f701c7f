"""A race plain Chromium shows only with a timer held past its due time is ``confirmed-extreme``.

The app clears its form in a ``setTimeout 0`` it sets while the page loads. Typed before that
timer, the name is lost: a harmful race, and plain Chromium shows it too, but only because its
paused clock keeps the timer from firing until the user has typed, long after it was due. No
person types within the task a page load ends with, so the confirmation says the forcing was
extreme, and ``--fail-on confirmed`` leaves it out.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webr4.browser.driver import Driver
from webr4.checking import SweepOptions, explore_session
from webr4.record.session import record
from webr4.rundir.summary import Summary
from webr4.sweep.settings import SweepSettings
from webr4.witness.realism import TIMER_HELD_PAST_DUE

from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>Sign up</title>
<input id="name"><p id="status">loading</p>
<script>
setTimeout(function () {
  document.getElementById('name').value = '';
  document.getElementById('status').textContent = 'ready';
}, 0);
</script>"""


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with route_server(lambda path: ("text/html", PAGE.encode()) if path == "/" else None) as base:
        yield base + "/"


def test_typing_before_a_zero_delay_timer_of_the_page_load_is_confirmed_only_as_extreme(driver, app_url,
                                                                                           tmp_path) -> None:
    async def sweep(shared: Driver) -> Summary:
        session = await record(shared, app_url, tmp_path / "session", [{"fill": "#name", "value": "Ann"}])
        return await explore_session(session, tmp_path, SweepOptions(SweepSettings(max_sequences=4)), driver=shared)

    summary = driver.run(sweep)
    early = [r for r in summary.harmful() if r.second.startswith("fill") and r.first.startswith("setTimeout 0ms")]
    assert len(early) == 1, summary.reversals
    confirmation = early[0].confirmation or {}
    assert confirmation.get("status") == "confirmed-extreme", confirmation
    assert confirmation["extreme"].startswith(TIMER_HELD_PAST_DUE) and not summary.confirmed()
