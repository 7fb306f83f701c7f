"""Races in words: events, locations and racing accesses as people read them in reports.

An event is its label, and for a parse chunk what the parser waits for before it
(:func:`event_words`: ``parse chunk 2/3, which waits for script /js/app.js``).

Locations come from the JS access log (``global:``, ``scope:``, ``prop:``), the DOM API log
(``dom:``, ``handler:``, ``storage:``, ``cookie:``) and the shadow locations of events
(``event:``); see the headers of ``instrument_js/access_log/natives.js`` and ``instrument_js/dom_log/natives.js``.
``prop:<id>`` and ``scope:<id>`` locations are named through ``Trace.names`` (how the page
reaches the object or closure: ``#log.textContent``, ``window.app.cart.items[2].qty``,
``module store.js › store.count``); without a name they fall back to the ids. A location of any
other shape is returned unchanged, so describing never fails.
"""

from __future__ import annotations

import json
import re
from typing import Any

from webr4.engine.races import Race
from webr4.places import member_path
from webr4.trace import AccessKind, Category, Event, Trace

_TAGGED_ID = re.compile(r"[a-z][a-z0-9-]*(#[^\s>]+)", re.IGNORECASE)
_STORAGE = {"local": "localStorage", "session": "sessionStorage"}


def event_words(event: Event) -> str:
    """``event`` as people read it: its label, followed for a parse chunk by what Chromium's
    parser waits for before it (its ``waits_for``, when the run knew the document's split)."""
    return waiting_words(event.label, event.params.get("waits_for") if event.category is Category.PARSE else None)


def waiting_words(label: str, waits_for: str | None) -> str:
    """An event's ``label`` and what it waits for, when anything: ``parse chunk 2/3, which waits
    for script /js/app.js``."""
    return f"{label}, which waits for {waits_for}" if waits_for else label


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _element(key: str) -> str:
    """An element key as people write it: ``img#banner`` becomes ``#banner``; paths stay."""
    tagged = _TAGGED_ID.fullmatch(key)
    return tagged.group(1) if tagged else key


def _split_member(rest: str) -> tuple[str, str] | None:
    """``<key>.<name>`` split at the last dot (names never contain dots); None without one."""
    key, dot, name = rest.rpartition(".")
    return (key, name) if dot and key and name else None


def _dom(rest: str) -> str:
    if rest.startswith("sel:"):
        return f"elements matching {rest[4:]}"
    owner, group, name = rest.partition(".radio:")
    if group and owner and name:  # a radio button group's name may contain dots
        return f"radio group {_quote(name)} of {_element(owner)}"
    member = _split_member(rest)
    if rest.startswith("#") and member is None:
        return f"existence of element {rest}"
    return f"{_element(member[0])}.{member[1]}" if member else rest


def _handler(rest: str) -> str:
    member = _split_member(rest)
    return f"{member[1]} handler of {_element(member[0])}" if member else f"handlers of {_element(rest)}"


def _scope(rest: str, names: dict[str, str]) -> str:
    scope, colon, name = rest.partition(":")
    if not colon:
        return f"variable {rest}"
    owner = names.get(f"scope:{scope}")
    return f"{owner} › {name}" if owner else f"variable {name} (closure {scope})"


def _prop(rest: str, names: dict[str, str]) -> str:
    obj, dot, key = rest.partition(".")
    owner = names.get(f"prop:{obj}")
    if owner:
        return owner + member_path([key]) if dot else owner
    return f"property {key} of object {obj}" if dot else f"object {rest}"


def _storage(rest: str) -> str:
    area, dot, key = rest.partition(".")
    return f"{_STORAGE[area]} {_quote(key)}" if dot and area in _STORAGE else f"storage {rest}"


def _cookie(rest: str) -> str:
    return "all cookies" if rest == "*" else f"cookie {_quote(rest)}"


def _event(rest: str, trace: Trace) -> str:
    event = trace.events.get(rest)
    return f"scheduling of {event.label if event is not None else 'event ' + rest}"


def describe_location(location: str, trace: Trace) -> str:
    """A location key in words.

    ``global:queue`` → ``global queue``; ``dom:#price.textContent`` → ``#price.textContent``;
    ``dom:#order.radio:plan`` → ``radio group "plan" of #order``;
    ``handler:img#banner.load`` → ``load handler of #banner``; ``prop:9.textContent`` →
    ``#log.textContent`` when ``trace.names`` calls object 9 ``#log`` (``property textContent of
    object 9`` when it has no name); ``scope:4:count`` → ``closure at app.js:3:7 › count``
    (``variable count (closure 4)``);
    ``storage:local.cart`` → ``localStorage "cart"``; ``cookie:sid`` → ``cookie "sid"``;
    ``event:<id>`` → ``scheduling of <the event's label>`` (the id when ``trace`` does not
    know the event). Unknown shapes are returned as given.
    """
    prefix, colon, rest = location.partition(":")
    if not colon:
        return location
    if prefix == "global":
        return f"global {rest}"
    if prefix == "event":
        return _event(rest, trace)
    if prefix in ("scope", "prop"):
        return (_scope if prefix == "scope" else _prop)(rest, trace.names)
    describe = {
        "dom": _dom,
        "handler": _handler,
        "storage": _storage,
        "cookie": _cookie,
    }.get(prefix)
    return describe(rest) if describe is not None else location


def visibility(location: str, trace: Trace) -> int:
    """How visible ``location`` is to the user: 0 for the DOM (and objects named as DOM nodes),
    1 for storage and cookies, 2 for the JS heap, 3 for event scheduling."""
    if location.startswith(("dom:", "handler:")):
        return 0
    if location.startswith(("storage:", "cookie:")):
        return 1
    if location.startswith("event:"):
        return 3
    if location.startswith("prop:"):
        owner = trace.names.get(location.partition(".")[0], "")
        return 0 if owner[:1] in ("#", "~") or owner.startswith(("html", "body", "head", "document")) else 2
    return 2


def conflict_locations(trace: Trace, first: str, second: str) -> list[str]:
    """The locations that events ``first`` and ``second`` both access in ``trace``, one of them
    writing, most visible to the user first (DOM, then storage and cookies, then the JS heap,
    then event scheduling), in order of first access within each group."""
    touched: dict[str, dict[str, set[AccessKind]]] = {first: {}, second: {}}
    for step in trace.steps:
        if step.event in touched:
            for access in step.accesses:
                touched[step.event].setdefault(access.location, set()).add(access.kind)
    a, b = touched[first], touched[second]
    shared = [loc for loc in a if loc in b and AccessKind.WRITE in (a[loc] | b[loc])]
    return sorted(shared, key=lambda loc: visibility(loc, trace))


def describe_locations(trace: Trace, first: str, second: str, key: str) -> list[tuple[str, str]]:
    """``(words, key)`` for every location the pair conflicts on (see :func:`conflict_locations`),
    once per wording; ``key`` (the location the pair was reversed for) is included even when
    the trace does not show the conflict."""
    keys = conflict_locations(trace, first, second)
    if key and key not in keys:
        keys = sorted([key, *keys], key=lambda loc: visibility(loc, trace))
    described: dict[str, str] = {}
    for location in keys:
        described.setdefault(describe_location(location, trace), location)
    return list(described.items())


def _side(step: int, kind: AccessKind, site: str | None, trace: Trace) -> dict[str, Any]:
    event_id = trace.steps[step].event
    event = trace.events.get(event_id)
    return {
        "step": step,
        "event": event_id,
        "label": event.label if event is not None else event_id,
        "access": "write" if kind is AccessKind.WRITE else "read",
        "site": site,
    }


def describe_race(race: Race, trace: Trace) -> dict[str, Any]:
    """A race as plain JSON-ready data.

    Returns ``{"location": words, "key": the raw location, "first": side, "second": side,
    "summary": one sentence}``, where each side is ``{"step", "event", "label", "access"
    ("read" or "write"), "site" (``url:line:col`` or None)}``.
    """
    first = _side(race.first, race.first_kind, race.first_site, trace)
    second = _side(race.second, race.second_kind, race.second_site, trace)
    words = describe_location(race.location, trace)

    def clause(side: dict[str, Any], what: str) -> str:
        where = f" at {side['site']}" if side["site"] else ""
        return f"{side['label']} {side['access']}s {what}{where}"

    return {
        "location": words,
        "key": race.location,
        "first": first,
        "second": second,
        "summary": f"{clause(first, words)}; {clause(second, 'it')}",
    }
