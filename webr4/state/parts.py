"""Immutable records with one value per state category, read as attributes or by name."""

from __future__ import annotations

from typing import Any, Iterable, Mapping


class Parts:
    """An immutable record of named values: ``record.dom`` and ``record["dom"]`` are the same.

    Subclasses decide the names (those of :data:`~webr4.state.categories.CATEGORIES`) and fill
    the record once, in ``__init__``, with :meth:`_fill`. Records are equal when their type and
    values are, hash like frozen dataclasses, and pickle and copy like plain objects.
    """

    _parts: dict[str, Any]

    def _fill(self, names: Iterable[str], given: Mapping[str, Any], default: Any) -> None:
        """Set every one of ``names`` from ``given``, the others to ``default(name)``; raise
        ``TypeError`` when ``given`` names something else."""
        names = list(names)
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no part {', '.join(unknown)}; it has {', '.join(names)}")
        object.__setattr__(self, "_parts", {name: given[name] if name in given else default(name) for name in names})

    def __getattr__(self, name: str) -> Any:
        parts = self.__dict__.get("_parts")
        if parts is None or name not in parts:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return parts[name]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __getitem__(self, name: str) -> Any:
        return self._parts[name]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Parts) and other._parts == self._parts

    def __hash__(self) -> int:
        """As a frozen dataclass's: a ``TypeError`` when a value is unhashable (a list)."""
        return hash((type(self), tuple(self._parts.items())))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._parts.items())})"
