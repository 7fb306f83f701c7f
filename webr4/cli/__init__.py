"""The ``webr4`` command line.

Every failure the user can fix (a bad file, an unreachable site, no browser) ends in one line
on stderr naming the problem and what to do — never a traceback.

Exit status: 0 when no harmful race was found, 1 when one was (``explore``, ``check``,
``campaign``; ``replay`` when the difference does not reproduce; ``deflake`` when an order fails
a test), 2 for bad input or a failure that stopped the command, 130 when interrupted (Ctrl-C,
SIGTERM; see :mod:`webr4.interrupts`, and :func:`webr4.__main__.main`, the program that runs
this command line). Nothing else: the group's guard turns any unexpected exception into status
2 and one line (the traceback too with ``--debug`` or ``WEBR4_DEBUG=1``).

Defaults for every option can come from ``webr4.toml`` (or ``[tool.webr4]`` in
``pyproject.toml``) in the working directory; see :mod:`webr4.config`.

This module holds the group alone and imports each command's module only when that command
runs, so that ``webr4 --version`` and ``webr4 --help`` start in a fraction of a second: the
commands need the browser, the sweep and the report, which take a second or more to import.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from importlib import import_module
from pathlib import Path
from typing import Any, NamedTuple

import click

from webr4 import interrupts
from webr4.version import __version__
from webr4.cli.failures import Failure, Interrupted, one_line, readable

_EXIT_STATUSES = (0, 1, 2, 130)


class CommandHome(NamedTuple):
    """Where a command is defined, and the first line of its help (shown by ``webr4 --help``
    without importing the command; a test keeps it equal to the command's own)."""

    module: str
    name: str
    summary: str


COMMANDS: dict[str, CommandHome] = {
    "campaign": CommandHome("webr4.cli.campaigning", "campaign_command", "Check every entry of SOURCE, each into a "
                                                                         "run of its own, and write one overview."),
    "check": CommandHome("webr4.cli.sweeping", "check_command", "Record URL, explore it and write the report, "
                                                                "in one command."),
    "deflake": CommandHome("webr4.cli.deflaking", "deflake_command", "Find the event orders that fail Playwright "
                                                                     "tests, and fixes proven to remove them."),
    "explore": CommandHome("webr4.cli.sweeping", "explore_command", "Explore the reversals of a recorded SESSION "
                                                                    "and classify each one."),
    "export": CommandHome("webr4.cli.reporting", "export_command", "Write the verdicts of RUN for CI; exit status 1 "
                                                                   "when RUN has a harmful race."),
    "record": CommandHome("webr4.cli.recording", "record_command", "Record a session of URL: the seed every "
                                                                  "exploration replays."),
    "replay": CommandHome("webr4.cli.replaying", "replay_command", "Re-execute both sequences of reversal ID and "
                                                                   "check that the difference reproduces."),
    "report": CommandHome("webr4.cli.reporting", "report_command", "Write the HTML report of the run directory RUN to "
                                                              "RUN/report/index.html."),
    "run": CommandHome("webr4.cli.executing", "run_command", "Execute URL once under control and write its trace "
                                                             "and final state to --out."),
    "sites": CommandHome("webr4.cli.sites", "sites", "The bundled sites with known races."),
    "witness": CommandHome("webr4.cli.replaying", "witness_command", "Keep reversal ID's race as plain Chromium "
                                                                     "shows it, without webr4: tests and traces."),
}
"""Every command of the group, by the name the user types."""


class CommandLine(click.Group):
    """The command group: its commands are imported on first use (:data:`COMMANDS`), and one
    guard around every command makes whatever escapes it end in one of the documented exit
    statuses and one line on stderr, never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        home = COMMANDS.get(cmd_name)
        if home is None:
            return None
        command = getattr(import_module(home.module), home.name)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """As click's, from :data:`COMMANDS`: listing the commands imports none of them."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=COMMANDS[name].summary).get_short_help_str(limit))
                for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """As click's, except that an interrupt before a command starts (click's "Aborted!",
        status 1) is status 130 like one inside a command."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        if sys.stdout is None:  # started with standard output closed (`>&-`): what it writes would be lost
            click.echo("Error: standard output is closed, and webr4 writes its results there; redirect it "
                       "instead (>/dev/null to discard them)", err=True)
            sys.exit(Failure.exit_code)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.Abort:
            click.echo("interrupted", err=True)
            sys.exit(Interrupted.exit_code)
        except click.UsageError as error:  # the message names the fix: no usage header before it
            click.echo(f"Error: {readable(error.format_message().strip().splitlines()[0])}", err=True)
            sys.exit(error.exit_code)
        except Interrupted as error:  # its line is a command to run again: kept whole
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            click.echo(f"Error: {readable(error.format_message())}", err=True)
            sys.exit(error.exit_code)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        previous = interrupts.install()
        try:
            if interrupts.requested():  # a signal came while webr4 started, where it could not stop it
                raise KeyboardInterrupt
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except SystemExit as exiting:
            if exiting.code is None or exiting.code in _EXIT_STATUSES:
                raise
            raise Failure(f"stopped with exit status {exiting.code!r}, which webr4 does not use") from None
        except KeyboardInterrupt:
            raise Interrupted("interrupted") from None
        except BrokenPipeError:
            _silence_stdout()
            raise Failure("standard output was closed before webr4 finished writing") from None
        except Exception as error:
            if ctx.params.get("debug"):
                traceback.print_exc()
            hint = "" if ctx.params.get("debug") else "; run with --debug (or WEBR4_DEBUG=1) for the traceback"
            raise Failure(f"unexpected {type(error).__name__}: {one_line(error)}{hint}") from None
        finally:
            interrupts.restore(previous)


def _silence_stdout() -> None:
    """Point standard output at the null device so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. captured by a test runner)
        pass


@click.group(cls=CommandLine, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="webr4")
@click.option("--browser", type=click.Path(path_type=Path, dir_okay=False), envvar="WEBR4_CHROMIUM",
              help="Chromium binary to drive (default: WEBR4_CHROMIUM, /usr/bin/chromium, then Playwright's).")
@click.option("--no-sandbox", is_flag=True,
              help="Run Chromium without its sandbox (also WEBR4_NO_SANDBOX=1); it is off anyway as root.")
@click.option("--debug", is_flag=True, envvar="WEBR4_DEBUG",
              help="Print the traceback of an unexpected error (also WEBR4_DEBUG=1).")
@click.pass_context
def main(ctx: click.Context, browser: Path | None, no_sandbox: bool, debug: bool) -> None:
    """Find the event races in a web app that hurt its users.

    Option defaults are read from webr4.toml (or [tool.webr4] in pyproject.toml) in the working
    directory; the command line overrides them.
    """
    from webr4.cli.file_defaults import file_defaults
    from webr4.config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        raise click.UsageError(str(error)) from None
    _check_temporary_directory()
    ctx.default_map = settings.default_map()
    group = ctx.command
    assert isinstance(group, CommandLine)
    command = group.get_command(ctx, ctx.invoked_subcommand or "")
    if command is not None and command.name in ctx.default_map:  # its values checked as its command line's are
        ctx.default_map[command.name] = file_defaults(settings, command)
    if browser is not None:
        from_environment = ctx.get_parameter_source("browser") == click.core.ParameterSource.ENVIRONMENT
        given = f"WEBR4_CHROMIUM={browser}" if from_environment else f"--browser {browser}"
    else:
        browser, given = settings.browser, f'browser = "{settings.browser}" in the settings file'
    if browser is not None:
        if not browser.is_file():  # named as the user gave it, before any launch
            raise Failure(f"{given} is not a file: point it at a Chromium binary")
        os.environ["WEBR4_CHROMIUM"] = str(browser)  # read by the launcher, here and in worker processes
    if no_sandbox:
        os.environ["WEBR4_NO_SANDBOX"] = "1"


def _check_temporary_directory() -> None:
    """Browsers and Playwright keep their profiles in the temporary directory: a ``TMPDIR`` that
    cannot hold them is named up front rather than failing deep in a browser launch."""
    chosen = os.environ.get("TMPDIR")
    if chosen and not (os.path.isdir(chosen) and os.access(chosen, os.W_OK | os.X_OK)):
        raise Failure(f"TMPDIR={chosen} is not a writable directory; point TMPDIR at one or unset it")
    try:
        with tempfile.TemporaryFile():
            pass
    except OSError as error:
        raise Failure(f"cannot create a temporary file in {tempfile.gettempdir()}: {error.strerror}") from None
