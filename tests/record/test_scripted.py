"""--script: a Playwright flow, run once on a recording page, becomes a session's user actions."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from webr4.cli import main
from webr4.record.scripted import actions_from_script, load_run


def _script(tmp_path, body: str):
    path = tmp_path / "flow.py"
    path.write_text(f"def run(page):\n    {body}\n")
    return path


@pytest.mark.browser
def test_a_page_click_is_recorded(tmp_path, sites_url):
    script = _script(tmp_path, "page.click('#add')")
    assert actions_from_script(script, sites_url + "click-during-parse/") == [{"click": "#add"}]


@pytest.mark.browser
def test_locator_chains_and_waits_are_recorded(tmp_path, sites_url):
    script = _script(tmp_path, "page.locator('#currency').select_option('EUR'); page.wait_for_timeout(10); "
                               "page.locator('select').first.select_option('GBP'); "
                               "assert page.title().startswith('Converter')")
    assert actions_from_script(script, sites_url + "stale-select/", pace=0) == [
        {"select": "#currency", "value": "EUR"}, {"wait": 10}, {"select": "select >> nth=0", "value": "GBP"}]


@pytest.mark.browser
def test_the_real_time_between_actions_is_kept_unless_a_pace_is_given(tmp_path, sites_url):
    script = _script(tmp_path, "page.click('#add'); page.wait_for_timeout(40); page.click('#add')")
    url = sites_url + "click-during-parse/"
    first, gap, second = actions_from_script(script, url)
    assert first == second == {"click": "#add"} and list(gap) == ["wait"] and gap["wait"] >= 40
    assert actions_from_script(script, url, pace=250) == [{"click": "#add"}, {"wait": 290}, {"click": "#add"}]


@pytest.mark.browser
def test_a_script_that_raises_names_the_error(tmp_path, sites_url):
    script = _script(tmp_path, "raise RuntimeError('flow broke')")
    with pytest.raises(ValueError, match="raised RuntimeError: flow broke"):
        actions_from_script(script, sites_url + "stale-select/")


def test_a_missing_script_or_run_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        load_run(tmp_path / "absent.py")
    (tmp_path / "empty.py").write_text("x = 1\n")
    with pytest.raises(ValueError, match=r"does not define run\(page\)"):
        load_run(tmp_path / "empty.py")


@pytest.mark.browser
def test_record_with_a_script_writes_its_actions(tmp_path, sites_url):
    script = _script(tmp_path, "page.get_by_role('button', name='Add to cart').click()")
    session = tmp_path / "session"
    result = CliRunner().invoke(main, ["record", sites_url + "click-during-parse/", "--script", str(script),
                                       "--out", str(session)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((session / "session.json").read_text())
    assert manifest["actions"] == [{"click": 'internal:role=button[name="Add to cart"i]'}]


def test_record_rejects_two_sources_of_actions(tmp_path, sites_url):
    result = CliRunner().invoke(main, ["record", sites_url + "stale-select/", "--script", "flow.py", "--auto", "3",
                                       "--out", str(tmp_path / "s")])
    assert result.exit_code == 2 and "at most one of --actions, --script and --auto" in result.output


def test_pace_needs_a_script(tmp_path, sites_url):
    result = CliRunner().invoke(main, ["record", sites_url + "stale-select/", "--pace", "100",
                                       "--out", str(tmp_path / "s")])
    assert result.exit_code == 2 and "--pace sets the time between the actions of a --script" in result.output


@pytest.mark.browser
def test_every_get_by_locator_and_typing_a_key_at_a_time_are_recorded_as_playwright_finds_them(tmp_path):
    from webr4.record.scripted import plain_page

    from ..route_server import page_server

    html = ('<!DOCTYPE html><input placeholder="Your name" title="Name" data-testid="name">'
            '<img alt="Logo" src="data:," title="Logo">')
    script = _script(tmp_path, "page.get_by_placeholder('Your name').fill('Ada'); "
                               "page.get_by_test_id('name').press_sequentially('ab', delay=5); "
                               "page.get_by_title('Name').click(); page.get_by_alt_text('Logo').hover()")
    with page_server(html) as url:
        steps = actions_from_script(script, url, pace=0)
        with plain_page(url) as page:
            for step in (step for step in steps if "wait" not in step):
                selector = next(value for key, value in step.items() if key in ("fill", "press", "click", "hover"))
                assert page.locator(selector).count() == 1, selector
    assert steps == [{"fill": 'internal:attr=[placeholder="Your name"i]', "value": "Ada"},
                     {"press": 'internal:testid=[data-testid="name"s]', "key": "a"}, {"wait": 5},
                     {"press": 'internal:testid=[data-testid="name"s]', "key": "b"},
                     {"click": 'internal:attr=[title="Name"i]'}, {"hover": 'internal:attr=[alt="Logo"i]'}]


@pytest.mark.browser
def test_a_key_pressed_on_the_keyboard_is_a_press_on_the_focused_steps_target(tmp_path, sites_url):
    script = _script(tmp_path, "page.fill('#name', 'Ada'); page.keyboard.press('Enter')")
    html = '<!DOCTYPE html><input id="name"><button id="other">other</button>'
    from ..route_server import page_server

    with page_server(html) as url:
        assert actions_from_script(script, url, pace=0) == [{"fill": "#name", "value": "Ada"},
                                                            {"press": "#name", "key": "Enter"}]
