"""The format pages' tables are rendered from the definitions: a key added to a definition shows
on its page, and each table lists exactly the keys that webr4 writes or reads."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest

from webr4 import config, docformats
from webr4.browser.limits import Limits
from webr4.cli.sweeping import explore_command
from webr4.config import ConfigError, Setting, load_settings
from webr4.keydocs import KeyTable, doc
from webr4.record import session as session_module
from webr4.record.session import Session
from webr4.rundir import summary as summary_module
from webr4.rundir.run import RunDir
from webr4.rundir.summary import ReversalReport, Summary

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {"summary": "reference/run-directory.md", "reversal": "reference/run-directory.md",
         "represented": "reference/run-directory.md", "group": "reference/run-directory.md",
         "session": "reference/recording.md", "limits": "reference/recording.md",
         "settings": "reference/settings.md"}


def _page(name: str) -> str:
    return (DOCS / PAGES[name]).read_text(encoding="utf-8")


def _first_column(table: str) -> list[str]:
    """The keys of a rendered table: its first column, less the header and the backticks."""
    return [line.split("|")[1].strip().strip("`") for line in table.splitlines()[2:]]


def test_every_table_is_asked_for_by_its_page_and_leaves_no_marker() -> None:
    assert set(PAGES) == set(docformats.FORMATS)
    for name, page in PAGES.items():
        assert f"<!-- webr4-format: {name} -->" in _page(name), f"{page} no longer shows the {name} table"
    for page in set(PAGES.values()):
        assert "webr4-format" not in docformats.on_page_markdown((DOCS / page).read_text(encoding="utf-8"))


def test_a_marker_naming_no_table_stops_the_build() -> None:
    with pytest.raises(docformats.FormatError, match="webr4-format: sumary --> names no table; known: group"):
        docformats.render("text\n<!-- webr4-format: sumary -->\n")


@dataclass
class _ScratchSummary(Summary):
    scratch_total: int | None = field(default=None, metadata=doc("a scratch key of the summary"))


@dataclass(frozen=True)
class _ScratchSession(Session):
    scratch_origin: list[str] = field(default_factory=list, metadata=doc("a scratch key of the session"))


@pytest.mark.parametrize(("name", "module", "attribute", "owner", "row"), [
    ("summary", summary_module, "SUMMARY_KEYS", _ScratchSummary,
     "| `scratch_total` | integer or null | a scratch key of the summary |"),
    ("session", session_module, "SESSION_KEYS", _ScratchSession,
     "| `scratch_origin` | list of strings | a scratch key of the session |"),
])
def test_a_field_added_to_a_definition_shows_on_its_page(monkeypatch: pytest.MonkeyPatch, name: str, module: object,
                                                         attribute: str, owner: type, row: str) -> None:
    assert row not in docformats.on_page_markdown(_page(name))
    monkeypatch.setattr(module, attribute, KeyTable.of(owner))
    assert row in docformats.on_page_markdown(_page(name))


def test_a_setting_added_to_the_reader_shows_with_its_options_words(monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = click.Option(["--scratch-limit"], type=click.IntRange(min=3), default=7, help="A scratch option.")
    monkeypatch.setattr(explore_command, "params", [*explore_command.params, scratch])
    monkeypatch.setattr(config, "SETTINGS", (*config.SETTINGS, Setting("explore", "scratch-limit"),
                                             Setting("", "scratch", "--scratch", "a string", "none", "a scratch key")))
    page = docformats.on_page_markdown(_page("settings"))
    assert "| `[explore] scratch-limit` | `--scratch-limit` | an integer ≥ 3 | `7` | A scratch option. |" in page
    assert "| `scratch` | `--scratch` | a string | none | a scratch key |" in page


def test_a_setting_no_option_stands_behind_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "SETTINGS", (*config.SETTINGS, Setting("record", "no-such-option")))
    with pytest.raises(docformats.FormatError, match="key no-such-option is the default of no option of webr4 record"):
        docformats.on_page_markdown(_page("settings"))


def test_the_summary_tables_list_exactly_the_keys_a_run_holds(tmp_path: Path) -> None:
    reversal = ReversalReport.from_json({"id": 1, "verdict": "harmless"})
    RunDir(tmp_path).write_summary(Summary("http://h/", 1, reversals=[reversal]))
    raw = json.loads(RunDir(tmp_path).summary.read_text(encoding="utf-8"))
    assert _first_column(docformats.FORMATS["summary"]()) == list(raw)
    assert _first_column(docformats.FORMATS["reversal"]()) == list(raw["reversals"][0])


def test_the_session_tables_list_exactly_the_keys_a_session_holds() -> None:
    manifest = Session("http://h/", [], limits=Limits().to_json()).to_json()
    assert _first_column(docformats.FORMATS["session"]()) == list(manifest)
    assert _first_column(docformats.FORMATS["limits"]()) == list(manifest["limits"])


def _known(tmp_path: Path, toml: str) -> set[str]:
    """The keys the settings reader says it knows where ``toml`` gave it an unknown one."""
    (tmp_path / "webr4.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_settings(tmp_path)
    known = re.search(r"known: (.*)$", str(refused.value))
    assert known, str(refused.value)
    return set(known.group(1).split(", "))


def test_the_settings_table_lists_exactly_the_keys_the_reader_accepts(tmp_path: Path) -> None:
    listed = _first_column(docformats.FORMATS["settings"]())
    by_section: dict[str, set[str]] = {}
    for key in listed:
        section, _, name = key.rpartition(" ")
        by_section.setdefault(section.strip("[]"), set()).add(name)
    sections = set(by_section) - {""}
    assert _known(tmp_path, "unknown-key = 1\n") == by_section[""] | sections
    for section in sections:
        assert _known(tmp_path, f"[{section}]\nunknown-key = 1\n") == by_section[section], section
