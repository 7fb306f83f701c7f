"""Where a recording's steps come from: a list, a script or automatic exploration, one way in."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import webr4
from webr4.browser.actions import ActionError
from webr4.browser.driver import Driver
from webr4.record.auto import auto_actions
from webr4.record.steps import AutoExplore, Script, user_steps


def test_a_list_is_taken_as_it_is_once_checked() -> None:
    steps = ({"click": "#add"}, {"wait": 20})
    assert user_steps("http://127.0.0.1:9/", steps) == [{"click": "#add"}, {"wait": 20}]
    with pytest.raises(ActionError, match="action 2 is not an object"):
        user_steps("http://127.0.0.1:9/", [{"click": "#add"}, "#add"])  # type: ignore[list-item]  # bad on purpose


@pytest.mark.browser
def test_a_script_and_auto_explore_give_the_steps_their_options_give(tmp_path: Path, sites_url: str) -> None:
    script = tmp_path / "flow.py"
    script.write_text("def run(page):\n    page.click('#add'); page.wait_for_timeout(5); page.click('#add')\n")
    url = sites_url + "click-during-parse/"
    assert user_steps(url, Script(script, pace=100)) == [{"click": "#add"}, {"wait": 105}, {"click": "#add"}]
    assert user_steps(url, AutoExplore(2, seed=3)) == auto_actions(url, 2, 3)


@pytest.mark.browser
def test_the_api_records_a_session_from_a_script(tmp_path: Path, sites_url: str) -> None:
    script = tmp_path / "flow.py"
    script.write_text("def run(page):\n    page.click('#add')\n")

    async def go() -> webr4.Session:
        async with Driver() as driver:
            return await webr4.record_session(driver, sites_url + "click-during-parse/", tmp_path / "s",
                                              webr4.Script(script))

    session = asyncio.run(go())
    assert session.actions == [{"click": "#add"}]
