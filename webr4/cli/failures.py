"""How a command of the command line ends when it cannot finish: one line, and its exit status."""

from __future__ import annotations

from typing import Any

import click


class Failure(click.ClickException):
    """A one-line error that stopped the command (exit status 2, like a usage error)."""

    exit_code = 2


class Interrupted(click.ClickException):
    """The command was interrupted (Ctrl-C, SIGTERM): exit status 130 and how to go on."""

    exit_code = 130

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


def one_line(error: BaseException) -> str:
    """The first line of an exception's message (empty when it has none)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else ""
