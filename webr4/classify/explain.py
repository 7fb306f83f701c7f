"""Which of a racing pair's locations explains the difference seen: that one leads.

A pair often conflicts on several locations, and :func:`~webr4.engine.describe.describe_locations`
orders them by how visible their kind is (the DOM first). The one a developer needs first is the
one the difference is about: the element whose content changed, the global or property whose
value did, the storage key that was written, the name an exception reports. A location is said
to explain the difference when one of its subjects (an element id, a heap path, a storage key,
a variable's name) appears in the difference: in the items every output shows, and in the full
paths of the changed DOM elements. Those lead, in their order; then the others; last the focus
(``document.activeElement``), which every click and key press moves whatever the page does.
"""

from __future__ import annotations

import re

from webr4.classify.rules import FOCUS_LOCATION
from webr4.state.categories import CATEGORIES
from webr4.state.diff import StateDiff

INCIDENTAL = frozenset({FOCUS_LOCATION})
"""Locations a racing pair shares whatever the page does: never the lead while another exists."""

_ID = re.compile(r"#[A-Za-z_][\w-]*")
_STORAGE = {"local": "localStorage", "session": "sessionStorage"}


def explaining_first(named: list[tuple[str, str]], difference: StateDiff) -> list[tuple[str, str]]:
    """``named`` — (words, key) pairs, most visible first — with the locations that explain
    ``difference`` first and the incidental ones last; the order is kept within each group."""
    seen = _difference_text(difference)

    def rank(location: tuple[str, str]) -> int:
        words, key = location
        if key in INCIDENTAL:
            return 2
        return 0 if any(_mentioned(subject, seen) for subject in subjects(words, key)) else 1

    return sorted(named, key=rank)


def subjects(words: str, key: str) -> list[str]:
    """What a location is about, as a difference would name it: element ids (``#todo-list``)
    and paths (``body>p>span``), heap paths (``window.todos``, ``window.app.cart``), storage
    keys (``localStorage.todos``) and variable names (``handlerQueue``)."""
    found = _ID.findall(words)
    element = words.rpartition(".")[0]
    if ">" in element:  # an element without an id, by its path
        found.append(element.replace(" ", ""))
    prefix, _, rest = key.partition(":")
    if prefix == "global":
        found += [f"window.{rest}", rest]
    elif prefix == "scope":
        found.append(rest.rpartition(":")[2])
    elif prefix == "storage":
        area, _, name = rest.partition(".")
        found.append(f"{_STORAGE.get(area, area)}.{name}")
    elif prefix == "prop" and words.startswith("window."):
        found.append(words)
    return [subject for subject in found if subject]


def _difference_text(difference: StateDiff) -> str:
    """Every item of every differing category, and the paths of the changed DOM elements; the
    paths once more without the blanks around ``>``, as locations write them."""
    lines = [item for category in CATEGORIES if difference[category.name]
             for item in category.items(difference[category.name])]
    paths = difference.dom.paths
    return "\n".join(lines + paths + [path.replace(" > ", ">") for path in paths])


def _mentioned(subject: str, text: str) -> bool:
    """Whether ``subject`` appears in ``text`` as a whole name (an id may follow its tag name)."""
    before = "" if subject.startswith("#") else r"(?<![\w$#-])"
    return re.search(before + re.escape(subject) + r"(?![\w$-])", text) is not None
