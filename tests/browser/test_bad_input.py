"""Bad pages and bad input end in a clean trace or one clear error: never a hang or a traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from webr4.browser.limits import Limits
from webr4.browser.network import NetworkError
from webr4.cli import main
from webr4.execution import Capture
from webr4.serve import serve
from webr4.trace import Category

PAGES = {
    "throws.html": ("<!DOCTYPE html><body><p id=a>before</p><script>undefinedFunction();</script>"
                    "<p id=b>after</p></body>"),
    "loops.html": (
        "<!DOCTYPE html><body><p id=a>x</p><script>"
        "setTimeout(function spin(){ for(;;){} }, 10); setTimeout(function(){}, 20);"
        "</script></body>"
    ),
    "loops-in-microtask.html": (
        "<!DOCTYPE html><body><p id=a>x</p><script>"
        "setTimeout(function(){ Promise.resolve().then(function spin(){ for(;;){} }); }, 10);"
        "setTimeout(function(){}, 20);"
        "</script></body>"
    ),
    "allocates.html": (
        "<!DOCTYPE html><body><script>"
        # 1.5 GB, then the loop spins on: a renderer that fills its heap to the limit crashes,
        # and how soon it does depends on the machine's speed, which the 5 s budget must not.
        "setTimeout(function fill(){ var kept = []; "
        "for(;;){ if (kept.length < 190) kept.push(new Array(1e6).fill(0.5)); } }, 10);"
        "</script></body>"
    ),
    "navigates.html": ("<!DOCTYPE html><body><p>bye</p>"
                       "<script>setTimeout(function(){ location.href = 'throws.html'; }, 5);</script></body>"),
    "data.json": '{"not": "html"}',
}


@pytest.fixture(scope="module")
def bad_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad")
    for name, text in PAGES.items():
        (root / name).write_text(text)
    with serve(root) as base:
        yield base


@pytest.mark.browser
def test_a_loop_that_fills_memory_is_said_to_allocate(driver, bad_site):
    trace = driver.execute(bad_site + "allocates.html", limits=Limits(event_timeout_s=5), capture=Capture()).trace
    assert trace.truncated == "endless-loop"
    [stopped] = [e.message for e in trace.errors if e.message.startswith("endless loop in ")]
    assert "ran for 5 s allocating memory all the while (the page's heap reached " in stopped
    assert stopped.endswith(" GB) and was stopped before memory ran out")


@pytest.mark.browser
def test_unreachable_url_is_one_clear_error(driver):
    with pytest.raises(NetworkError, match="cannot reach"):
        driver.execute("http://127.0.0.1:9/", capture=Capture())


@pytest.mark.browser
def test_non_html_url_is_one_clear_error(driver, bad_site):
    with pytest.raises(NetworkError, match="not an HTML page"):
        driver.execute(bad_site + "data.json", capture=Capture())


@pytest.mark.browser
def test_top_level_throw_is_recorded_and_parsing_goes_on(driver, bad_site):
    execution = driver.execute(bad_site + "throws.html", capture=Capture())
    errors = [e for e in execution.trace.errors if e.kind == "exception"]
    assert len(errors) == 1 and "undefinedFunction" in errors[0].message
    column = PAGES["throws.html"].index("undefinedFunction") + 1
    assert errors[0].site == f"{bad_site}throws.html:1:{column}"  # the original file's position
    assert 'id="b"' in execution.dom


@pytest.mark.browser
@pytest.mark.parametrize("page", ["loops.html", "loops-in-microtask.html"])
def test_endless_handler_is_cut_with_a_clear_error(driver, bad_site, page):
    trace = driver.execute(bad_site + page, limits=Limits(event_timeout_s=2), capture=Capture()).trace
    assert trace.truncated == "endless-loop"
    assert any(e.message.startswith("endless loop in ") and e.message.endswith("ran for 2 s and was stopped")
               for e in trace.errors)
    # the run ends with the spinning timer: the other timer never ran and is left pending
    timers = [step.event for step in trace.steps if trace.events[step.event].category is Category.TIMER]
    assert timers == [trace.steps[-1].event]
    assert any(trace.events[e].category is Category.TIMER for e in trace.enabled_at_end)
    # the browser is still usable afterwards
    assert driver.execute(bad_site + "throws.html", capture=Capture()).trace.steps


@pytest.mark.browser
def test_navigation_away_is_refused_and_ends_the_run_as_its_outcome(driver, bad_site):
    execution = driver.execute(bad_site + "navigates.html", capture=Capture())
    assert execution.trace.truncated is None and not execution.trace.errors
    assert execution.trace.navigation is not None and execution.trace.navigation.url.endswith("/throws.html")
    assert "bye" in execution.dom


def test_cli_rejects_a_malformed_sequence_file_in_one_line(tmp_path):
    bad = tmp_path / "seq.json"
    bad.write_text(json.dumps({"sequence": [1, 2]}))
    result = CliRunner().invoke(main, ["run", "http://127.0.0.1:9/", "--out", str(tmp_path / "o"),
                                       "--sequence", str(bad)])
    assert result.exit_code == 2
    assert "list of event ids" in result.output and "Traceback" not in result.output


@pytest.mark.browser
def test_cli_reports_an_unreachable_site_in_one_line(tmp_path):
    result = CliRunner().invoke(main, ["run", "http://127.0.0.1:9/", "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "cannot reach" in result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.browser
def test_cli_writes_trace_state_and_network(tmp_path, sites_url):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", sites_url + "two-xhr/", "--out", str(out)])
    assert result.exit_code == 0, result.output
    trace = json.loads((out / "trace.json").read_text())
    assert trace["sequence"] and trace["sequence"][0] == trace["steps"][0]["event"]
    assert (out / "screenshot.png").read_bytes()[:4] == b"\x89PNG"
    # the written sequence replays against the recorded network, offline
    again = CliRunner().invoke(main, ["run", sites_url + "two-xhr/", "--out", str(tmp_path / "again"),
                                      "--sequence", str(out / "trace.json"), "--network", str(out / "network.har")])
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "again" / "trace.json").read_text())["sequence"] == trace["sequence"]
