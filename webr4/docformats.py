"""The tables of the documentation's format pages, rendered from the definitions webr4 writes and
reads those formats by, so that a page says what the code does.

A page asks for a table with a line of its own, ``<!-- webr4-format: NAME -->``, which
:func:`render` replaces by the table :data:`FORMATS` names (``summary``, ``reversal``,
``represented``, ``group``: ``summary.json``'s keys, from :mod:`webr4.rundir.summary`;
``session``, ``limits``: ``session.json``'s, from :mod:`webr4.record.session` and
:mod:`webr4.browser.limits`; ``settings``: the settings file's keys, from :data:`webr4.config.SETTINGS`
and the options that check them). The documentation's MkDocs hook (``docs/hooks/formats.py``)
calls :func:`on_page_markdown` on every page; an unknown name stops the build.

Each table is read from its definition when the page is rendered, never before: what a test
puts in place of a definition shows on the page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import click

from webr4 import config
from webr4.browser import limits
from webr4.cli import main
from webr4.cli.options import DURATION
from webr4.errors import Webr4Error
from webr4.keydocs import KeyTable
from webr4.record import session
from webr4.rundir import summary

MARKER = re.compile(r"^<!-- webr4-format: (?P<name>[\w-]+) -->[ \t]*$", re.MULTILINE)


class FormatError(Webr4Error, ValueError):
    """A page asks for a table there is none of, or a definition cannot be rendered."""


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table of ``rows`` under ``header``; a ``|`` in a cell is escaped."""
    lines = [header, ["---"] * len(header), *rows]
    return "\n".join("| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |" for line in lines)


def key_table(table: KeyTable) -> str:
    """The keys of ``table``, in their written order: the key, its value in JSON's words and
    what it holds."""
    return markdown_table(["key", "value", "what it holds"],
                          ([f"`{key.name}`", key.type, key.text] for key in table.keys))


def settings_table(settings: Sequence[config.Setting], commands: Mapping[str, click.Command]) -> str:
    """The keys of the settings file: each with the option it stands for, the value it takes, its
    default and what it is for. A key of ``[explore]`` or ``[record]`` says what the option of its
    name on ``commands[section]`` says; :class:`FormatError` when that command has no such option."""
    rows = []
    for setting in settings:
        where = f"[{setting.section}] " if setting.section else ""
        if setting.is_option_default:
            command = commands[setting.section]
            option = _option(command, setting.name)
            rows.append([f"`{where}{setting.name}`", f"`{'/'.join(option.opts + option.secondary_opts)}`",
                         _value_words(option), _default_words(option.get_default(click.Context(command))),
                         option.help or ""])
        else:
            rows.append([f"`{where}{setting.name}`", f"`{setting.option}`", setting.value, setting.default,
                         setting.doc])
    return markdown_table(["key", "option", "value", "default", "what it is for"], rows)


def _option(command: click.Command, key: str) -> click.Option:
    wanted = key.replace("-", "_")
    found = next((p for p in command.params if isinstance(p, click.Option) and p.name == wanted), None)
    if found is None:
        raise FormatError(f"the settings file's key {key} is the default of no option of webr4 {command.name}")
    return found


def _either(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def _value_words(option: click.Option) -> str:
    """What the settings file may give ``option``, as TOML writes it."""
    kind = option.type
    if option.is_flag:
        return "`true` or `false`"
    if kind is DURATION:
        return 'a duration: `"90s"`, `"5m"`, `"1h"`'
    if isinstance(kind, click.Choice):
        return _either([f"`{json.dumps(choice)}`" for choice in kind.choices])
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        number = "an integer" if isinstance(kind, click.IntRange) else "a number"
        low = "" if kind.min is None else f" {'>' if kind.min_open else '≥'} {kind.min:g}"
        high = "" if kind.max is None else f" {'<' if kind.max_open else '≤'} {kind.max:g}"
        return number + ",".join(part for part in (low, high) if part)
    return {"integer": "an integer", "float": "a number", "text": "a string"}.get(kind.name, kind.name)


def _default_words(value: Any) -> str:
    """A default as TOML writes it; none for an option that has none (``None``, or click's
    mark of a default not given)."""
    if not isinstance(value, (str, int, float)):
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, float):
        return f"`{value:g}`"
    return f"`{json.dumps(value)}`"


def _commands() -> dict[str, click.Command]:
    """The commands whose options the settings file's option sections give defaults to."""
    ctx = click.Context(main, info_name="webr4")
    found = {section: main.get_command(ctx, section) for section in config.OPTION_SECTIONS}
    return {section: command for section, command in found.items() if command is not None}


FORMATS: dict[str, Callable[[], str]] = {
    "summary": lambda: key_table(summary.SUMMARY_KEYS),
    "reversal": lambda: key_table(summary.REVERSAL_KEYS),
    "represented": lambda: key_table(summary.REPRESENTED_KEYS),
    "group": lambda: key_table(summary.GROUP_KEYS),
    "session": lambda: key_table(session.SESSION_KEYS),
    "limits": lambda: key_table(limits.LIMITS_KEYS),
    "settings": lambda: settings_table(config.SETTINGS, _commands()),
}
"""Every table a page may ask for, by the name its marker gives."""


def render(markdown: str) -> str:
    """``markdown`` with each marker line replaced by its table. Raises :class:`FormatError`
    for a marker naming no table of :data:`FORMATS`."""
    def table(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in FORMATS:
            raise FormatError(f"<!-- webr4-format: {name} --> names no table; known: {', '.join(sorted(FORMATS))}")
        return FORMATS[name]()

    return MARKER.sub(table, markdown)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs' hook on each page's Markdown, before it is converted: :func:`render`."""
    return render(markdown)
