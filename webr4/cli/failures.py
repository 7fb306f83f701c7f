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


LONGEST_WORD = 200
"""A word of an error line longer than this (a ``data:`` URL, a 20 KB selector) is cut in its
middle; a file's path is rarely this long, and stays whole."""
LONGEST_LINE = 800
"""An error line longer than this is cut at its end."""


def readable(message: str) -> str:
    """``message`` at a length a person reads: each overlong word cut in its middle, saying how long
    it was, and the whole cut at :data:`LONGEST_LINE`."""
    words = []
    for word in message.split(" "):
        if len(word) > LONGEST_WORD:
            word = f"{word[:120]}…{word[-40:]} ({len(word):,} characters)"
        words.append(word)
    line = " ".join(words)
    return line if len(line) <= LONGEST_LINE else line[:LONGEST_LINE - 1] + "…"


def one_line(error: BaseException) -> str:
    """The first line of an exception's message (empty when it has none)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else ""
