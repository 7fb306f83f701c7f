"""Masks and rules from webr4.toml or [tool.webr4]; bad files are one clear error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from webr4.cli import main
from webr4.config import ConfigError, Settings, load_settings
from webr4.errors import Webr4Error

URL = "http://127.0.0.1:9/"  # never reached: each command below stops before any page loads


def test_no_file_means_no_settings(tmp_path):
    assert load_settings(tmp_path) == Settings()


def test_webr4_toml_gives_masks_and_rules(tmp_path):
    (tmp_path / "webr4.toml").write_text('rules = ["commute"]\n[mask]\nselectors = ["#clock"]\nheap = ["window.t"]\n')
    assert load_settings(tmp_path) == Settings(("#clock",), ("window.t",), ("commute",))


def test_pyproject_section_is_read_when_there_is_no_webr4_toml(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.webr4.mask]\nselectors = [".ad"]\n')
    assert load_settings(tmp_path).mask_selectors == (".ad",)


def test_a_malformed_file_is_one_clear_error(tmp_path):
    (tmp_path / "webr4.toml").write_text('[mask]\nselectors = "#clock"\n')
    with pytest.raises(ConfigError, match="must be a list of strings"):
        load_settings(tmp_path)


def test_option_defaults_come_from_the_file_and_unknown_ones_are_named(tmp_path):
    (tmp_path / "webr4.toml").write_text('[explore]\nbound = 2\nmax-sequences = 9\n[record]\nseed = 4\n')
    defaults = load_settings(tmp_path).default_map()
    assert defaults["explore"] == {"bound": 2, "max_sequences": 9}
    assert defaults["check"] == {"bound": 2, "max_sequences": 9, "seed": 4}
    (tmp_path / "webr4.toml").write_text('[explore]\nbonud = 2\n')
    with pytest.raises(ConfigError, match=r"unknown setting\(s\) bonud; known: bound,"):
        load_settings(tmp_path)


def test_the_command_line_shows_and_overrides_file_defaults(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from webr4.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text('[explore]\nstrategy = "wave"\n')
    assert "[default: wave]" in CliRunner().invoke(main, ["explore", "--help"]).output
    (tmp_path / "webr4.toml").write_text('[explore]\nstrategy = "nonsense"\n')
    result = CliRunner().invoke(main, ["explore", str(tmp_path), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "nonsense" in result.output


def test_the_parse_chunk_model_is_a_recording_setting(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from webr4.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text('[record]\nparse-chunks = "element"\nchunk-kb = 8\n')
    for command in ("record", "check", "run"):
        shown = CliRunner().invoke(main, [command, "--help"]).output
        assert "[default: element]" in shown and "[default: 8;" in shown, command


def test_letting_service_workers_run_is_a_recording_setting_and_a_switch(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from webr4.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text("[record]\nblock-service-workers = false\n")
    for command in ("record", "check", "run"):
        shown = " ".join(CliRunner().invoke(main, [command, "--help"], terminal_width=200).output.split())
        assert "[default: allow-service-workers]" in shown, command
    (tmp_path / "webr4.toml").write_text('[record]\nblock-service-workers = "no"\n')
    result = CliRunner().invoke(main, ["record", URL, "--out", str(tmp_path / "s")])
    assert (result.exit_code, result.stderr) == (2, 'Error: webr4.toml: block-service-workers = "no" is not true '
                                                    "or false\n")


def test_confirmation_and_the_exit_policy_are_exploring_settings(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from webr4.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text('[explore]\nconfirm = "all"\nfail-on = "confirmed"\n')
    for command in ("explore", "check"):
        shown = CliRunner().invoke(main, [command, "--help"]).output
        assert "[default: all]" in shown and "[default: confirmed]" in shown, command
    (tmp_path / "webr4.toml").write_text('[explore]\nconfirm = "sometimes"\n')
    result = CliRunner().invoke(main, ["explore", str(tmp_path), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "sometimes" in result.output


def test_a_budget_is_a_duration_with_its_unit(tmp_path, monkeypatch):
    from webr4.config import parse_duration

    assert [parse_duration(text) for text in ("90s", "5m", "1.5h")] == [90, 300, 5400]
    for bad in ("300", "5 minutes", "0s", "-1m", ""):
        with pytest.raises(ValueError, match="duration"):
            parse_duration(bad)
    (tmp_path / "webr4.toml").write_text('[explore]\nbudget = "5m"\nbound = 2\n')
    assert load_settings(tmp_path).default_map()["check"] == {"budget": "5m", "bound": 2}
    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text('[explore]\nbudget = 300\n')
    result = CliRunner().invoke(main, ["explore", str(tmp_path / "no-session"), "--out", str(tmp_path / "r")])
    assert (result.exit_code, result.stderr) == (2, "Error: webr4.toml: budget = 300 is not a duration; write a "
                                                    "number and a unit: 90s, 5m or 1h\n")


@pytest.mark.parametrize(("file", "args", "chosen"), [
    ('budget = "1m"', ["--time-limit", "30"], {"budget": None, "time_limit": 30.0, "strategy": "r4"}),
    ('budget = "1m"', ["--strategy", "delay"], {"budget": None, "time_limit": None, "strategy": "delay"}),
    ('strategy = "wave"\ntime-limit = 600', ["--budget", "5m"], {"budget": 300.0, "time_limit": None,
                                                                 "strategy": "r4"}),
])
def test_an_option_on_the_command_line_drops_the_file_values_it_conflicts_with(tmp_path, monkeypatch, file, args,
                                                                                 chosen):
    import webr4.cli.sweeping

    seen = []

    async def stop_before_any_browser(*args, options, **kwargs):
        seen.append(options.settings)
        raise Webr4Error("stopped before any browser")

    monkeypatch.setattr(webr4.cli.sweeping, "check", stop_before_any_browser)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text(f"[explore]\n{file}\n")
    result = CliRunner().invoke(main, ["check", URL, *args, "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, "Error: stopped before any browser\n")
    settings, = seen
    assert {name: getattr(settings, name) for name in chosen} == chosen


@pytest.mark.parametrize(("file", "error"), [
    ('budget = "1m"\ntime-limit = 30', "budget and time-limit both limit the sweep's time; give one of them"),
    ('budget = "1m"\nstrategy = "wave"', "budget orders R4's reversals by likely harm; drop strategy wave or budget"),
])
def test_two_conflicting_values_in_the_file_are_named_as_the_file_gives_them(tmp_path, monkeypatch, file, error):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text(f"[explore]\n{file}\n")
    result = CliRunner().invoke(main, ["check", URL, "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, f"Error: webr4.toml: {error}\n")


@pytest.mark.parametrize(("file", "error"), [
    ("[record]\nseed = 1.5", "seed = 1.5 is not a valid integer"),
    ("[record]\nmax-events = 0", "max-events = 0 is not in the range x>=1"),
    ("[explore]\nfail-on = true", "fail-on = true is not one of 'harmful', 'confirmed'"),
    ('[explore]\nstrategy = "R4"', "strategy = \"R4\" is not one of 'r4', 'delay', 'wave'"),
])
def test_the_file_is_checked_as_the_command_line_is_and_named_with_its_key(tmp_path, monkeypatch, file, error):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text(file + "\n")
    missing = tmp_path / "actions.json"  # stops the command before any browser, had the file's value passed
    result = CliRunner().invoke(main, ["check", URL, "--actions", str(missing), "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, f"Error: webr4.toml: {error}\n")
    assert not (tmp_path / "run").exists()


def test_a_fractional_seed_is_refused_on_the_command_line_as_in_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "actions.json"  # stops the command before any browser, had the seed passed
    result = CliRunner().invoke(main, ["check", URL, "--seed", "1.5", "--actions", str(missing),
                                       "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, "Error: Invalid value for '--seed': '1.5' is not a valid "
                                                    "integer.\n")
    assert not (tmp_path / "run").exists()


def test_a_number_too_large_for_the_file_is_one_line_naming_its_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text("[explore]\nmax-sequences = 1e400\n")  # TOML reads it as inf
    result = CliRunner().invoke(main, ["explore", str(tmp_path / "no-session"), "--out", str(tmp_path / "r")])
    assert (result.exit_code, result.stderr) == (2, "Error: webr4.toml: max-sequences = inf is not a valid "
                                                    "integer range\n")


@pytest.mark.parametrize(("file", "key"), [("[explore]\ntime-limit = nan", "time-limit = nan"),
                                           ("[explore]\ntime-limit = inf", "time-limit = inf"),
                                           ("[record]\nhorizon = inf", "horizon = inf"),
                                           ("[record]\nevent-timeout = nan", "event-timeout = nan"),
                                           ("[record]\nstep-wait = inf", "step-wait = inf")])
def test_a_number_that_is_not_finite_is_refused_in_the_file(tmp_path, monkeypatch, file, key):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text(file + "\n")
    missing = tmp_path / "actions.json"  # stops the command before any browser, had the file's value passed
    result = CliRunner().invoke(main, ["check", URL, "--actions", str(missing), "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, f"Error: webr4.toml: {key} is not a finite number\n")
