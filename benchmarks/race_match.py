"""Deciding whether a harmful verdict is about the race a site's ``expected.json`` calls harmful.

An expected race names its two events either by their webr4 labels (``"events"``: ``"XHR GET
/two-xhr/price-list.json load"``), which a label matches by containing it, or in words
(``"between"``: ``"user click on #add"``), reduced to the tokens that also occur in webr4's
labels: file names, ``#id`` selectors and the words ``setTimeout``, ``setInterval``, ``parse`` and
``window load``; a label matches such a side when it contains one of its tokens. Entries naming
the same two events (one per racing location) are one race.

A harmful verdict is **on** an expected race when

* the two events the strategy names for it (R4: the reversed conflict; the sampling strategies:
  the events where child and parent first part) match the race's two sides, one each, or
* the child runs two events matching the two sides in the opposite order from its parent, both
  events executed in both runs (a run that reorders several pairs at once is credited with the
  race when one of them is it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_TOKEN = re.compile(r"[\w-]+\.(?:json|js|mjs|png|svg|gif|jpg|css|html)\b|#[A-Za-z][\w-]*|setTimeout|setInterval"
                    r"|\bparse\b|window load")


def side_tokens(words: str) -> frozenset[str]:
    """The label tokens named in one side of an expected race (may be empty)."""
    return frozenset(_TOKEN.findall(words))


@dataclass(frozen=True)
class ExpectedRace:
    """One harmful race of ``expected.json``: the tokens of its two sides and its location."""

    first: frozenset[str]
    second: frozenset[str]
    location: str

    def side_of(self, label: str) -> set[int]:
        """Which sides (0, 1) the event ``label`` matches."""
        return {n for n, tokens in enumerate((self.first, self.second)) if any(t in label for t in tokens)}

    def matches_pair(self, label_a: str, label_b: str) -> bool:
        """The two labels match the two sides, one each, in either order."""
        a, b = self.side_of(label_a), self.side_of(label_b)
        return (0 in a and 1 in b) or (1 in a and 0 in b)

    def reordered(self, parent: Sequence[str], child: Sequence[str], labels: Mapping[str, str]) -> bool:
        """``child`` runs a matching pair of events (both also in ``parent``) in the other order."""
        before, after = _first_positions(parent), _first_positions(child)
        common = [e for e in before if e in after and e in labels]
        sides = [[e for e in common if n in self.side_of(labels[e])] for n in (0, 1)]
        return any(a != b and (before[a] < before[b]) != (after[a] < after[b])
                   for a in sides[0] for b in sides[1])


def _first_positions(run: Sequence[str]) -> dict[str, int]:
    return {event: i for i, event in reversed(list(enumerate(run)))}


def expected_races(expected: Mapping[str, Any]) -> list[ExpectedRace]:
    """The harmful races of one ``expected.json`` whose both sides name something a label can show."""
    races: dict[frozenset[frozenset[str]], ExpectedRace] = {}
    for race in expected.get("races", []):
        if race.get("verdict") != "harmful":
            continue
        if len(race.get("events", [])) == 2:
            first, second = (frozenset({label}) for label in race["events"])
        elif len(race.get("between", [])) == 2:
            first, second = (side_tokens(words) for words in race["between"])
        else:
            continue
        if first and second:
            races.setdefault(frozenset({first, second}), ExpectedRace(first, second, race.get("location", "")))
    return list(races.values())


def race_of(verdict_labels: tuple[str, str], parent: Sequence[str], child: Sequence[str],
            labels: Mapping[str, str], races: Iterable[ExpectedRace]) -> int | None:
    """The index of the first expected race a harmful verdict is on (see the module docstring)."""
    for n, race in enumerate(races):
        if race.matches_pair(*verdict_labels) or race.reordered(parent, child, labels):
            return n
    return None
