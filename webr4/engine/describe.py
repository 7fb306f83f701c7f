"""Races in words: locations and racing accesses as people read them in reports.

Locations come from the JS access log (``global:``, ``scope:``, ``prop:``), the DOM API log
(``dom:``, ``handler:``, ``storage:``, ``cookie:``) and the shadow locations of events
(``event:``); see the headers of ``instrument_js/access_log.js`` and ``instrument_js/dom_log.js``.
A location of any other shape is returned unchanged, so describing never fails.
"""

from __future__ import annotations

import json
import re
from typing import Any

from webr4.engine.races import Race
from webr4.trace import AccessKind, Trace

_TAGGED_ID = re.compile(r"[a-z][a-z0-9-]*(#[^\s>]+)", re.IGNORECASE)
_STORAGE = {"local": "localStorage", "session": "sessionStorage"}


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


def _scope(rest: str) -> str:
    scope, colon, name = rest.partition(":")
    return f"variable {name} (closure {scope})" if colon else f"variable {rest}"


def _prop(rest: str) -> str:
    obj, dot, key = rest.partition(".")
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
    ``property textContent of object 9``; ``scope:4:count`` → ``variable count (closure 4)``;
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
    describe = {
        "dom": _dom,
        "handler": _handler,
        "scope": _scope,
        "prop": _prop,
        "storage": _storage,
        "cookie": _cookie,
    }.get(prefix)
    return describe(rest) if describe is not None else location


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
