"""Reversals that race through the same code, explored through one of them.

A module loader makes a reversal of nearly every pair of the modules it fetches, and each races
on the loader's own queue through the same two lines of the loader: one race of the code, many
times over. A :class:`GroupKey` names that race: the two sites of the reversal's conflicting
accesses, the code each of its two events runs (:func:`~webr4.trace.event_code`: the site that
set a timer, "an async script", a user's step itself), whether it is the witness that holds a
response (which runs another order), and the location's kind:

* a location of the JavaScript heap counts by its kind alone (``prop:``, or a closure's
  variable by name): through one pair of sites, between events of the same two codes, one
  object's properties by computed keys (a loader's cache, ``cache[id]``, a key per module) and
  one property of many objects (each promise's handler queue) are the same race of the code; a
  site with a fixed name reaches one name only, so for it this changes nothing. The events'
  codes keep apart what one generic line of a framework does for different causes: Vue's
  batcher marks ``has[id]`` through the same two lines whichever step or timer queued the
  update, and a key press racing its flush can do harm where a click racing it did not;
* every other location (the DOM, storage, a handler, a global) counts whole;
* a side whose site is unknown (the browser's own access, such as a script element's run, or
  a disabled event's scheduling) counts by the code its event runs (:func:`~webr4.trace.event_code`:
  the site that set a timer, or "an async script").

:class:`ReversalGroups` decides, as a strategy hands the reversals out, which run:

* the first member of a group handed out, its **representative**, runs;
* another member runs once an explored member of its group disagreed with its parent (any
  verdict but harmless, or unrealised: an order the executor does not produce shows nothing):
  the group of a race that can do harm is explored in full;
* otherwise the representative stands for it (:class:`Represented`): the sweep withdraws it
  from the strategy (:meth:`~webr4.engine.plans.Strategy.withdraw`) unexecuted.

Only sequences at the bound are grouped: they add no reversal of their own, so withdrawing one
takes nothing deeper from the exploration. A reversal with a side that has neither a site nor
a code belongs to no group, and with ``exhaustive`` every reversal runs (the groups are still
kept, to be reported). The decisions depend only on the plans and verdicts in the order they
come, so a resumed sweep takes them again alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from webr4.engine.plans import PlannedSequence, Reversal


CODE = "code:"
"""How a side of a :class:`GroupKey` known by its event's code, not a site, begins."""


@dataclass(frozen=True)
class GroupKey:
    """One race of the code: the kind of ``location`` (:func:`location_kind`), the two
    ``sides`` in parent order, each the site of its access or, unknown, ``code:`` and the code
    its event runs, and the ``codes`` of the two events; ``held`` for the witness holding a
    response past a test's read."""

    location: str
    sides: tuple[str, str]
    codes: tuple[str | None, str | None] = (None, None)
    held: bool = False

    @classmethod
    def of(cls, reversal: Reversal | None) -> GroupKey | None:
        """The group of ``reversal``; ``None`` when it has none (no reversal, or a side with
        neither a site nor a code)."""
        if reversal is None:
            return None
        sides = []
        for site, code in zip(reversal.sites, reversal.codes):
            if site is None and code is None:
                return None
            sides.append(site if site is not None else f"{CODE}{code}")
        return cls(location_kind(reversal.location), (sides[0], sides[1]), reversal.codes, reversal.held)


AGREEING = frozenset({"harmless", "unrealised"})
"""The verdicts of a member that let the representative stand for the rest of its group."""


def location_kind(location: str) -> str:
    """What of ``location`` a group keeps: ``prop:`` for any property of any object, ``scope:``
    and the variable's name for a closure's variable (``scope:4:count`` → ``scope:count``),
    ``event:`` for any event's scheduling; any other location whole."""
    prefix, colon, rest = location.partition(":")
    if not colon:
        return location
    if prefix in ("prop", "event"):
        return f"{prefix}:"
    if prefix == "scope":
        return f"scope:{rest.partition(':')[2]}"
    return location


@dataclass(frozen=True)
class Represented:
    """A reversal not run: the sequence ``representative`` stood for ``planned``."""

    planned: PlannedSequence
    representative: int


@dataclass
class _Group:
    representative: int
    judged: int = 0  # explored members judged so far
    disagreed: bool = False


@dataclass
class ReversalGroups:
    """The groups of one sweep at conflict-reversal bound ``bound`` (``None``: nothing is
    grouped). Ask :meth:`admit` of each plan the strategy hands out, and tell :meth:`judged`
    the verdict of each that ran."""

    bound: int | None
    exhaustive: bool = False
    _groups: dict[GroupKey, _Group] = field(default_factory=dict)
    _members: dict[int, _Group] = field(default_factory=dict)  # sequence index -> its group

    def admit(self, planned: PlannedSequence) -> Represented | None:
        """``None`` when ``planned`` is to run, which makes it a member of its group (its
        representative, when first); else the representative that stands for it.

        A group whose representative is not judged yet runs its other members: only a verdict
        can stand for them."""
        key = GroupKey.of(planned.reversal)
        if key is None or planned.depth != self.bound:
            return None
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = _Group(planned.index)
        elif not (self.exhaustive or group.disagreed or group.judged == 0):
            return Represented(planned, group.representative)
        self._members[planned.index] = group
        return None

    def judged(self, index: int, *, agrees: bool) -> None:
        """The sequence ``index``, admitted to run, was judged: ``agrees`` when its verdict is
        that its end state does not differ from its parent's in any way that matters."""
        group = self._members.get(index)
        if group is not None:
            group.judged += 1
            group.disagreed = group.disagreed or not agrees

    def representative_of(self, index: int) -> int | None:
        """The representative of the group of the sequence ``index`` that ran (itself, when it
        is one); ``None`` when it belongs to no group."""
        group = self._members.get(index)
        return None if group is None else group.representative
