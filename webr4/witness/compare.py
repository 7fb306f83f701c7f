"""The difference between two plain runs' end states, and when a plain item says what a reported one says.

The plain runs are compared as webr4 compares its own executions: the same categories, the noise
mask (:class:`~webr4.state.noise.NoiseMask`, its ids renamed alike everywhere are no difference:
:mod:`webr4.state.renaming`), and the same short items (:func:`~webr4.classify.differences.describe_differences`).
One thing more: a plain page runs no fixed clock and no fixed order of object creation, so
a name an app numbers as it creates things (Agility's ``class="agility_2"``, Ember's
``id="ember123"``) shifts between the two orders, and every element so named would differ. The
DOMs are therefore compared with their **counters abstracted**: a run of digits that ends a class
name after a letter, ``_`` or ``-`` is ``#`` (``agility_2`` → ``agility_#``; a text, and any other
attribute, is left as it is, so a count the page shows still differs), and a DOM item's element
path matches with the digits ending its ids abstracted alike (``#ember123 > li`` says what
``#ember125 > li`` says). A class that really changed from ``col-6`` to ``col-4`` is then no
difference: the witness only confirms what webr4 reported, and such a change is never the whole
of it.

Items match when they say the same thing of the same part of the page: an exception by its
message (a plain page shows an unhandled rejection as an uncaught error, and an inline handler's
column as the browser counts it), a DOM change by the element it changed, a screenshot change by
being one, any other item word for word.
"""

from __future__ import annotations

import re
from typing import Sequence

from webr4.classify.differences import describe_differences
from webr4.state.categories.dom import RENAMING_NOTE
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot

COUNTER = "#"
"""What a counter's digits become in a compared DOM."""

_CLASS = re.compile(r'( class=")([^"]*)(")')
_ENDING_DIGITS = re.compile(r"(?<=[A-Za-z_-])\d+$")
_ID_COUNTER = re.compile(r"(#[\w-]*?[A-Za-z_-])\d+(?=$|[\s>:.\[])")
_EXCEPTION = re.compile(r"^(new|gone) (?:Uncaught )?(?:\(in promise\) )?(?:[A-Za-z]*Error: )?(.*?)(?: at \S+)?$")


def abstract_counters(dom: str) -> str:
    """``dom`` (a serialisation of ``capture_dom.js``) with the counter ending each class name of
    an opening tag written :data:`COUNTER`; every other line and attribute as it was."""
    return "\n".join(_CLASS.sub(_classes, line) if line.lstrip(" ").startswith("<") else line
                     for line in dom.splitlines())


def _classes(match: re.Match[str]) -> str:
    names = " ".join(_ENDING_DIGITS.sub(COUNTER, name) for name in match.group(2).split(" "))
    return f"{match.group(1)}{names}{match.group(3)}"


def plain_difference(parent: StateSnapshot, child: StateSnapshot, again: StateSnapshot | None = None,
                     mask: NoiseMask = NoiseMask()) -> dict[str, list[str]]:
    """Category → the items in which ``child`` differs from ``parent``, counters abstracted,
    outside ``mask`` and outside what differs between ``parent`` and ``again`` (a second run of
    the parent's order: ``Date.now()`` and random ids, which nothing in a plain page fixes)."""
    parent, child = _abstracted(parent), _abstracted(child)
    if again is not None:
        mask = mask | NoiseMask.from_baselines(parent, _abstracted(again))
    return describe_differences(mask.diff(parent, child))


def _abstracted(state: StateSnapshot) -> StateSnapshot:
    return state.replace(dom=abstract_counters(state.dom))


def found(category: str, reported: Sequence[str], plain: Sequence[str]) -> list[str]:
    """The items of ``reported`` that the ``plain`` items of ``category`` say too (the closing
    "… n more" item and the note of ids renamed alike are never ones)."""
    keys = {item_key(category, item) for item in plain}
    return [item for item in reported
            if item_key(category, item) in keys and not item.startswith(("… ", RENAMING_NOTE))]


def item_key(category: str, item: str) -> str:
    """What an item says, as far as plain Chromium can say it (see the module docstring)."""
    if category == "exceptions":
        parsed = _EXCEPTION.match(item)
        return f"{parsed.group(1)} {parsed.group(2)}" if parsed else item
    if category == "dom":
        return _ID_COUNTER.sub(rf"\g<1>{COUNTER}", item.split(": ", 1)[0])
    if category == "screenshot":
        return "changed"
    return item
