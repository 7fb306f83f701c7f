"""The documentation site builds with no warning, its command reference is the command line's own,
and the README stays a short page whose links lead into the site.

The site is built once, into a temporary directory, as ``make docs`` builds it (strict: a broken
link or anchor fails the build)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import markdown
import pytest
from bs4 import BeautifulSoup, Tag

from webr4.cli import COMMANDS, main
from webr4.cli.recording import record_command
from webr4.rundir.summary import SUMMARY_KEYS

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
README_MOST_LINES = 250


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(REPO / "mkdocs.yml"),
         "--site-dir", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=120, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stderr}"
    return out


def _page(site: Path, source: str) -> BeautifulSoup:
    """The built page of ``docs/<source>`` (``reference/cli.md`` → ``reference/cli/index.html``)."""
    path = Path(source).with_suffix("")
    folder = path.parent if path.name == "index" else path
    return BeautifulSoup((site / folder / "index.html").read_text(), "html.parser")


def _commands(group: click.Group, parent: click.Context) -> list[tuple[click.Context, click.Command]]:
    """Every command under ``group``, each with its context, as ``--help`` builds it."""
    found = []
    for name in group.list_commands(parent):
        command = group.get_command(parent, name)
        assert command is not None
        ctx = click.Context(command, info_name=name, parent=parent)
        found.append((ctx, command))
        if isinstance(command, click.Group):
            found += _commands(command, ctx)
    return found


def _options(ctx: click.Context) -> set[str]:
    """The options ``COMMAND --help`` lists: every name of every option it shows."""
    return {name for param in ctx.command.get_params(ctx)
            if isinstance(param, click.Option) and not param.hidden
            for name in (*param.opts, *param.secondary_opts)}


def _section(reference: BeautifulSoup, anchor: str) -> str:
    """The text of the command reference's section whose heading has the id ``anchor``, up to the
    next heading."""
    heading = reference.find(id=anchor)
    assert isinstance(heading, Tag), f"the command reference has no section #{anchor}"
    parts = []
    for sibling in heading.find_next_siblings():
        if sibling.name in {"h1", "h2", "h3", "h4", "h5", "h6"}:
            break
        parts.append(sibling.get_text())
    return "\n".join(parts)


def _root() -> click.Context:
    return click.Context(main, info_name="webr4")


def _anchor(ctx: click.Context) -> str:
    """The id of a command's heading in the reference: ``webr4 sites serve`` → ``webr4-sites-serve``."""
    return ctx.command_path.replace(" ", "-")


def _missing_options(reference: BeautifulSoup, ctx: click.Context) -> list[str]:
    """The options of ``ctx``'s command that its section of the reference does not show."""
    words = {word.rstrip(",") for word in _section(reference, _anchor(ctx)).split()}
    return sorted(_options(ctx) - words)


@pytest.mark.slow  # builds the documentation site
def test_the_reference_lists_every_command_including_the_lazily_loaded_ones(site: Path) -> None:
    reference = _page(site, "reference/cli.md")
    listed = {heading["id"] for heading in reference.find_all(["h2", "h3", "h4"]) if heading.get("id")}
    expected = {"webr4"} | {_anchor(ctx) for ctx, _ in _commands(main, _root())}
    assert {f"webr4-{name}" for name in COMMANDS} <= expected
    assert expected <= listed


@pytest.mark.slow  # builds the documentation site
def test_the_reference_shows_every_option_of_check_help(site: Path) -> None:
    check = next(ctx for ctx, _ in _commands(main, _root()) if ctx.command_path == "webr4 check")
    assert {"--out", "--budget", "--resume"} <= _options(check)
    missing = _missing_options(_page(site, "reference/cli.md"), check)
    assert not missing, f"the command reference lacks options of 'webr4 check --help': {missing}"


@pytest.mark.slow  # builds the documentation site
@pytest.mark.parametrize("name", ["", *sorted(COMMANDS)], ids=lambda name: f"webr4 {name}".strip())
def test_the_reference_shows_every_option_of_every_command(site: Path, name: str) -> None:
    reference = _page(site, "reference/cli.md")
    contexts = [_root()] if not name else [ctx for ctx, _ in _commands(main, _root())
                                           if ctx.command_path.split()[1] == name]
    assert contexts
    for ctx in contexts:
        missing = _missing_options(reference, ctx)
        assert not missing, f"the reference's section on '{ctx.command_path}' lacks {missing}"


def test_an_option_added_to_a_command_shows_in_the_command_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    page = (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")

    def rendered() -> str:  # the reference page as the site's markdown extension renders it, without the site
        return markdown.markdown(page, extensions=["attr_list", "tables", "mkdocs-click"])

    assert "--scratch-pause" not in rendered()
    scratch = click.Option(["--scratch-pause"], type=click.IntRange(min=0), help="A scratch option of record.")
    monkeypatch.setattr(record_command, "params", [*record_command.params, scratch])
    section = BeautifulSoup(rendered(), "html.parser")
    assert "--scratch-pause" in _section(section, "webr4-record")
    assert "A scratch option of record." in _section(section, "webr4-record")


@pytest.mark.slow  # builds the documentation site
def test_the_format_pages_show_their_generated_tables(site: Path) -> None:
    summary = _page(site, "reference/run-directory.md")
    keys = {cell.get_text() for table in summary.find_all("table") for cell in table.select("td:first-child code")}
    assert set(SUMMARY_KEYS.names) <= keys
    for source in ("reference/run-directory.md", "reference/recording.md", "reference/settings.md"):
        assert "webr4-format" not in str(_page(site, source)), f"{source} kept a format marker"


def test_the_readme_is_short() -> None:
    lines = len(README.read_text().splitlines())
    assert lines <= README_MOST_LINES, f"README.md has {lines} lines; move what is reference into docs/"


@pytest.mark.slow  # builds the documentation site
def test_the_readmes_links_lead_to_files_and_anchors_that_exist(site: Path) -> None:
    readme = BeautifulSoup(markdown.markdown(README.read_text(), extensions=["tables", "fenced_code"]),
                           "html.parser")
    targets = [str(link["href"]) for link in readme.find_all("a", href=True)]
    assert any(target.startswith("docs/") for target in targets), "the README links into the documentation"
    broken = []
    for target in targets:
        if "://" in target or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        if path and not (REPO / path).exists():
            broken.append(target)
        elif anchor and path.startswith("docs/") and path.endswith(".md"):
            if _page(site, path.removeprefix("docs/")).find(id=anchor) is None:
                broken.append(target)
    assert not broken, f"README.md links to what does not exist: {broken}"
