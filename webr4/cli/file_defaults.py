"""The option defaults of the settings file (:mod:`webr4.config`), checked by the options they are
defaults of: a value the command line would refuse is refused in the file too, in one line that
names the file, the key and the value as TOML wrote it (``webr4.toml: seed = 1.5 is not a valid
integer``), never the option, which the user did not give."""

from __future__ import annotations

import json
from typing import Any

import click

from webr4.config import Settings


def file_defaults(settings: Settings, command: click.Command) -> dict[str, Any]:
    """The defaults ``settings`` give ``command`` (by parameter name, as in click's ``default_map``),
    each converted by the option of its name from the text the command line would hold for it.
    Raises :class:`click.UsageError` for the first one that option refuses."""
    options = {param.name: param for param in command.params}
    defaults = settings.default_map().get(command.name or "", {})
    return {name: _converted(options[name], value, settings) for name, value in defaults.items()}


def _converted(option: click.Parameter, value: Any, settings: Settings) -> Any:
    """``value``, given for ``option`` in the settings file, as the option's type converts it; a
    switch (``--x/--no-x``) takes ``true`` or ``false`` alone."""
    given = f"{settings.source}: {(option.name or '').replace('_', '-')} = {_toml(value)}"
    if isinstance(option, click.Option) and option.is_flag:
        if not isinstance(value, bool):
            raise click.UsageError(f"{given} is not true or false")
        return value
    text = value if isinstance(value, str) else _toml(value)
    try:
        return option.type.convert(text, option, None)
    except click.BadParameter as error:
        raise click.UsageError(f"{given} {_reason(error.message, text)}") from None


def _toml(value: Any) -> str:
    """``value`` as TOML writes it: a string quoted, ``true`` and ``false``, ``inf`` and ``nan``
    (which is also how TOML's reader gives back a number too large for a float, such as ``1e400``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return f"[{', '.join(_toml(item) for item in value)}]"
    if isinstance(value, dict):
        return f"{{{', '.join(f'{key} = {_toml(item)}' for key, item in value.items())}}}"
    return str(value)  # a number (Python writes inf and nan as TOML does), a date or a time


def _reason(message: str, text: str) -> str:
    """What click's ``message`` about the value ``text`` says of it, without the value it begins
    with (quoted, or as the number it was read as) and without its closing full stop."""
    quoted = repr(text)
    rest = message[len(quoted):] if message.startswith(quoted) else message.partition(" ")[2]
    return rest.strip().removesuffix(".")
