"""Masks and rules from webr4.toml or [tool.webr4]; bad files are one clear error."""

from __future__ import annotations

import pytest

from webr4.config import ConfigError, Settings, load_settings


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
    with pytest.raises(ConfigError, match="block-service-workers must be true or false, not 'no'"):
        load_settings(tmp_path)


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


def test_a_budget_is_a_duration_with_its_unit(tmp_path):
    from webr4.config import parse_duration

    assert [parse_duration(text) for text in ("90s", "5m", "1.5h")] == [90, 300, 5400]
    for bad in ("300", "5 minutes", "0s", "-1m", ""):
        with pytest.raises(ValueError, match="duration"):
            parse_duration(bad)
    (tmp_path / "webr4.toml").write_text('[explore]\nbudget = "5m"\nbound = 2\n')
    assert load_settings(tmp_path).default_map()["check"] == {"budget": "5m", "bound": 2}
    (tmp_path / "webr4.toml").write_text('[explore]\nbudget = 300\n')
    with pytest.raises(ConfigError, match=r'budget must be a duration such as "90s", "5m" or "1h", not 300'):
        load_settings(tmp_path)
