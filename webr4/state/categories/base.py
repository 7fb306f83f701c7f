"""What every state category defines: :class:`StateCategory`, and the fields of a noise mask it owns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, Generic, Mapping, TypeVar, cast

if TYPE_CHECKING:
    from webr4.execution import Execution

V = TypeVar("V")  # what one execution left behind in this category
D = TypeVar("D")  # the difference between two of them


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class MaskField:
    """One field of a :class:`~webr4.state.noise.NoiseMask`, named as in ``noise.json``.

    ``ordered`` fields keep their entries in the order given (a tuple without repeats); the
    others are sets, written sorted. ``dump`` and ``load`` turn one entry into JSON and back.
    """

    name: str
    ordered: bool = False
    dump: Callable[[Any], Any] = _same
    load: Callable[[Any], Any] = _same

    def entries(self, values: Any) -> Collection[Any]:
        """``values`` as this field holds them."""
        return tuple(dict.fromkeys(values)) if self.ordered else frozenset(values)

    def to_json(self, entries: Collection[Any]) -> list[Any]:
        dumped = [self.dump(entry) for entry in entries]
        return dumped if self.ordered else sorted(dumped)

    def from_json(self, raw: Any) -> Collection[Any]:
        return self.entries(self.load(entry) for entry in raw)


class StateCategory(ABC, Generic[V, D]):
    """One part of an execution's final state, everything about it in one place.

    ``name`` keys the category in ``diff.json``, in ``differences`` of ``summary.json`` and in
    the noise summary; ``key`` is its attribute of :class:`~webr4.state.snapshot.StateSnapshot`
    and its key in the state JSON (the name, unless older files spell it otherwise). ``title``
    heads its section of the reversal page, drawn by ``reports/categories/<section>.html.j2``
    (the generic ``items`` section lists :meth:`items`).

    A category whose value must be read from the page at the end of a run gives the function
    expression that reads it as ``page_script``; the result arrives in
    ``Execution.captured[name]``. Its noise-mask fields are ``mask_fields``.

    Contract: :meth:`diff` of two equal values is falsy (:meth:`no_difference`), of two
    different values truthy; :meth:`load` inverts :meth:`dump`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    section: ClassVar[str] = "items"
    page_script: ClassVar[str | None] = None
    mask_fields: ClassVar[tuple[MaskField, ...]] = ()

    @property
    def key(self) -> str:
        return self.name

    @abstractmethod
    def empty(self) -> V:
        """The value when nothing was captured (and when an older state file lacks the key)."""

    @abstractmethod
    def capture(self, execution: Execution) -> V:
        """This category's value at the end of ``execution``."""

    def dump(self, value: V) -> Any:
        """``value`` as JSON."""
        return value

    def load(self, raw: Any, base: Path | None) -> V:
        """Inverse of :meth:`dump`; relative file names are taken relative to ``base``.

        The default serves a category whose value is its own JSON (what the default :meth:`dump`
        writes): ``raw`` is taken as the value unchanged.
        """
        return cast(V, raw)

    @abstractmethod
    def no_difference(self) -> D:
        """The (falsy) difference between two equal values."""

    @abstractmethod
    def diff(self, before: V, after: V) -> D:
        """How ``after`` (the child's) differs from ``before`` (the parent's)."""

    @abstractmethod
    def dump_diff(self, part: D) -> Any:
        """The difference as JSON, for ``diff.json``."""

    @abstractmethod
    def items(self, part: D) -> list[str]:
        """The difference as short items people can act on, one per changed thing."""

    def unlisted(self, part: D) -> int:
        """How many changed things ``part`` counts but does not list."""
        return 0

    def noise(self, first: V, second: V) -> dict[str, Collection[Any]]:
        """Mask entries (by field name) for what differs between two replays of one sequence."""
        return {}

    def mask(self, value: V, fields: Mapping[str, Collection[Any]]) -> V:
        """``value`` with what the mask's ``fields`` name blanked out."""
        return value
