"""How a command of the command line ends when it cannot finish: one line, and its exit status."""

from __future__ import annotations

from typing import Any

import click

from webr4.places import short_words


class Failure(click.ClickException):
    """A one-line error that stopped the command (exit status 2, like a usage error)."""

    exit_code = 2


class Interrupted(click.ClickException):
    """The command was interrupted (Ctrl-C, SIGTERM): exit status 130 and how to go on."""

    exit_code = 130

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


LONGEST_WORD = 200
"""A word of an error line longer than this (a 20 KB selector) is cut in its middle, as
:func:`~webr4.places.short_name` cuts a name; a file's path is rarely this long, and stays whole.
A ``data:`` URL is written as its media type and size, however long."""
LONGEST_LINE = 800
"""An error line longer than this is cut at its end."""


def readable(message: str) -> str:
    """``message`` at a length a person reads: each overlong word and each ``data:`` URL written
    short (:func:`~webr4.places.short_words`), and the whole cut at :data:`LONGEST_LINE`."""
    line = short_words(message, LONGEST_WORD)
    return line if len(line) <= LONGEST_LINE else line[:LONGEST_LINE - 1] + "…"


def one_line(error: BaseException) -> str:
    """The first line of an exception's message (empty when it has none)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else ""
