"""The keys of the JSON objects webr4 writes (``summary.json``, ``session.json``), each described
where it is defined, so that no key is written without its description.

An object is a dataclass whose fields carry their description in their metadata
(``field(…, metadata=doc("…"))``), or say they are not written (``metadata=UNWRITTEN``), plus
the keys it derives from its properties (:class:`Derived`). :meth:`KeyTable.of` refuses a
dataclass with a field that does neither, and the object's writer is :meth:`KeyTable.to_json`:
it writes the described keys and nothing else. The documentation's tables of these files are
rendered from the same :class:`KeyTable` (:mod:`webr4.docformats`).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from pathlib import PurePath
from typing import Any, Literal, get_args, get_origin

_DOC = "doc"
_WRITTEN = "written"

UNWRITTEN: Mapping[str, Any] = types.MappingProxyType({_WRITTEN: False})
"""The metadata of a field that is kept in memory only, never written."""


def doc(text: str) -> Mapping[str, Any]:
    """The metadata of a written field: ``text`` says what its key holds (Markdown: backticks
    for values, no links, which change with the pages that show it)."""
    return types.MappingProxyType({_DOC: text})


@dataclass(frozen=True)
class Derived:
    """A key written from the property (or field) ``source`` of the object, under ``name``
    (``source`` defaults to ``name``), placed after the key ``after`` (``None``: at the end)."""

    name: str
    text: str
    source: str = ""
    after: str | None = None

    @property
    def attribute(self) -> str:
        return self.source or self.name


@dataclass(frozen=True)
class Key:
    """One written key: its ``name``, its value's ``type`` in JSON's words (``string or null``),
    its description ``text``, and the attribute of the object it is written from."""

    name: str
    type: str
    text: str
    attribute: str


@dataclass(frozen=True)
class KeyTable:
    """The keys of the JSON object a dataclass ``owner`` is written as, in their written order."""

    owner: type
    keys: tuple[Key, ...]

    @classmethod
    def of(cls, owner: type, *derived: Derived) -> KeyTable:
        """The table of ``owner``'s described fields and the keys ``derived`` from it. Raises
        :class:`TypeError` naming a field that neither has a description nor is unwritten."""
        if not is_dataclass(owner):
            raise TypeError(f"{owner.__name__} is not a dataclass")
        hints = typing.get_type_hints(owner)
        keys: list[Key] = []
        for item in fields(owner):
            if item.metadata.get(_WRITTEN, True) is False:
                continue
            if _DOC not in item.metadata:
                raise TypeError(f"{owner.__name__}.{item.name} is written without a description: give it "
                                "metadata=doc('…'), or metadata=UNWRITTEN")
            keys.append(Key(item.name, json_type(hints[item.name]), item.metadata[_DOC], item.name))
        for extra in derived:
            key = Key(extra.name, json_type(_attribute_type(owner, extra.attribute, hints)), extra.text,
                      extra.attribute)
            at = next(i + 1 for i, k in enumerate(keys) if k.name == extra.after) if extra.after else len(keys)
            keys.insert(at, key)
        return cls(owner, tuple(keys))

    @property
    def names(self) -> list[str]:
        return [key.name for key in self.keys]

    def to_json(self, value: Any) -> dict[str, Any]:
        """``value`` (an ``owner``) as its JSON object: each key from its attribute, nested
        dataclasses by their own ``to_json``."""
        if not isinstance(value, self.owner):
            raise TypeError(f"{type(value).__name__} is not a {self.owner.__name__}")
        return {key.name: _plain(getattr(value, key.attribute)) for key in self.keys}


def _attribute_type(owner: type, attribute: str, hints: dict[str, Any]) -> Any:
    """The type of ``owner``'s field ``attribute``, or its property's return type."""
    if attribute in hints:
        return hints[attribute]
    found = getattr(owner, attribute, None)
    if not isinstance(found, property) or found.fget is None:
        raise TypeError(f"{owner.__name__} has no field or property {attribute}")
    return typing.get_type_hints(found.fget)["return"]


def _plain(value: Any) -> Any:
    """``value`` with every dataclass in it written by its ``to_json``, lists and dicts copied."""
    if is_dataclass(value) and not isinstance(value, type):
        written = getattr(value, "to_json", None)
        if written is None:
            raise TypeError(f"{type(value).__name__} has no to_json: it cannot be written")
        return written()
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


_WORDS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null",
                          Any: "any"}


def json_type(hint: Any) -> str:
    """The JSON value a Python type is written as, in words: ``str | None`` is ``string or null``
    (``object of integers, or null`` when a part has parts),
    ``list[str]`` ``list of strings``, ``dict[str, int]`` ``object of integers`` (``dict[str, Any]``
    and a dataclass ``object``), a ``Literal`` its values."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (types.UnionType, typing.Union):
        words = [json_type(arg) for arg in args]
        return (", or " if any(" of " in part for part in words) else " or ").join(words)
    if origin is Literal:
        return " or ".join(f'`"{arg}"`' if isinstance(arg, str) else f"`{arg}`" for arg in args)
    if origin in (list, tuple, frozenset, set):
        return f"list of {_plural(json_type(args[0]))}" if args else "list"
    if origin is dict:
        return f"object of {_plural(json_type(args[1]))}" if args and args[1] is not Any else "object"
    if hint in _WORDS:
        return _WORDS[hint]
    if isinstance(hint, type) and issubclass(hint, (str, PurePath)):  # a StrEnum, a path
        return "string"
    if isinstance(hint, type) and (is_dataclass(hint) or issubclass(hint, dict)):
        return "object"
    raise TypeError(f"no JSON type for {hint!r}")


def _plural(words: str) -> str:
    """``string`` → ``strings``, ``string or null`` → ``strings or nulls``, ``list of strings`` →
    ``lists of strings``, ``any`` → ``values``; a literal value stays as it is."""
    if words == "any":
        return "values"
    if words.startswith(("list of ", "object of ")):
        head, _, rest = words.partition(" of ")
        return f"{head}s of {rest}"
    return " or ".join(part if part.startswith("`") else part + "s" for part in words.split(" or "))
