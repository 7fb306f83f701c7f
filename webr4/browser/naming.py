"""Names for the objects and closures behind ``prop:<id>`` and ``scope:<id>`` locations.

Object and scope ids are numbers the access log hands out in one execution; nobody can act on
them. At the end of an execution the page is asked (``__webr4.log.names`` in
``instrument_js/access_log/names.js``) how each racing object is reached, and the answer is written
in the user's terms:

* a DOM node by its element key: ``#log``, ``body>p:nth-of-type(2)``;
* an object by a path from where the page first stored or reached it: a global
  (``window.app.cart.items[2]``), a module's top-level variable (``module store.js › store``) or
  a closure variable (``closure at app.js:3:7 › counter``, with the site where that closure
  scope was first used);
* otherwise by the place it was first seen: ``(Cart object first seen at cart.js:40:15)``.

:func:`collect_names` returns ``Trace.names``: ``{"prop:<id>": name, "scope:<id>": name}``; a
scope's name is its qualifier (``module store.js``, ``closure at app.js:3:7``). Every object
name ends so that a property path can follow it (``.qty``, ``[2]``).
Only the locations that more than one event touched, one of them writing, are named: only
they can race.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

from playwright.async_api import Page

from webr4.browser.runtime import AS_JSON, parsed_answer
from webr4.places import member_path, short_site, short_url
from webr4.trace import AccessKind, Trace

SiteResolver = Callable[[str | None], str | None]
_ASK = ("([o, s]) => { const log = window.__webr4 && window.__webr4.log; "
        f"return log && log.names ? {AS_JSON}(log.names(o, s)) : null; }}")


def racing_ids(trace: Trace) -> tuple[list[int], list[str]]:
    """Object ids and scope ids of the ``prop:`` and ``scope:`` locations that two or more
    events access, one of them writing."""
    events: dict[str, set[str]] = defaultdict(set)
    written: set[str] = set()
    for step in trace.steps:
        for access in step.accesses:
            prefix = access.location.split(".", 1)[0] if access.location.startswith("prop:") \
                else access.location.rsplit(":", 1)[0] if access.location.startswith("scope:") else None
            if prefix is None:
                continue
            events[prefix].add(step.event)
            if access.kind is AccessKind.WRITE:
                written.add(prefix)
    shared = [prefix for prefix, who in events.items() if len(who) > 1 and prefix in written]
    objects = sorted(int(p[5:]) for p in shared if p.startswith("prop:") and p[5:].isdigit())
    scopes = sorted(p[6:] for p in shared if p.startswith("scope:"))
    return objects, scopes


class _Namer:
    """Formats the page's answer; ``resolve`` turns site ids into ``url:line:col``."""

    def __init__(self, resolve: SiteResolver, scripts: dict[str, str], scope_sites: dict[str, str | None]) -> None:
        self.resolve = resolve
        self.scripts = scripts
        self.scope_sites = scope_sites

    def variable(self, location: str) -> str:
        """A ``global:`` or ``scope:`` location as the start of a path."""
        prefix, _, rest = location.partition(":")
        if prefix == "global":
            return f"window{member_path([rest])}"
        scope, _, name = rest.partition(":")
        return f"{self.scope(scope)} › {name}"

    def scope(self, scope: str) -> str:
        if scope.startswith("m"):
            url = self.scripts.get(scope[1:])
            return f"module {short_url(url)}" if url else "module"
        return f"closure at {short_site(self.resolve(self.scope_sites.get(scope)))}"

    def object(self, raw: dict[str, Any]) -> str:
        keys = [str(k) for k in raw.get("keys") or ()]
        if raw.get("node"):
            return raw["node"] + member_path(keys)
        base = raw.get("base")
        if base:
            return self.variable(base) + member_path(keys)
        what = f"{raw['ctor']} object" if raw.get("ctor") else "object"
        return f"({what} first seen at {short_site(self.resolve(raw.get('site')))}){member_path(keys)}"


def format_names(answer: dict[str, Any], resolve: SiteResolver, scripts: dict[str, str]) -> dict[str, str]:
    """``Trace.names`` from the page's answer to ``__webr4.log.names``; ``scripts`` maps script
    ids to their URLs (for module scopes)."""
    namer = _Namer(resolve, scripts, answer.get("scopes") or {})
    names = {f"prop:{id_}": namer.object(raw) for id_, raw in (answer.get("objects") or {}).items()}
    names.update({f"scope:{scope}": namer.scope(scope) for scope in answer.get("scopes") or {}})
    return names


async def collect_names(page: Page, trace: Trace, resolve: SiteResolver, sites: dict[str, str]) -> dict[str, str]:
    """Ask the page how its racing objects and scopes are reached; ``sites`` maps site ids
    (``<script_id>:<n>``) to ``url:line:col``. Empty when nothing can race or the page has no
    access log."""
    objects, scopes = racing_ids(trace)
    if not objects and not scopes:
        return {}
    answer = parsed_answer(await page.evaluate(_ASK, [objects, scopes]))
    if not answer:
        return {}
    scripts: dict[str, str] = {}
    for site_id, where in sites.items():  # "<script_id>:<n>" -> "<url>:<line>:<col>"
        scripts.setdefault(site_id.rsplit(":", 1)[0], where.rsplit(":", 2)[0])
    return format_names(answer, resolve, scripts)
