"""Where a recording's user steps come from: a list given as it is (``--actions``), the actions a
Playwright script performs (``--script``), or the ones automatic exploration finds on the page
(``--auto``). :func:`user_steps` turns any of them into the checked steps a session records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from webr4.browser.actions import parse_actions
from webr4.places import short_name
from webr4.record.auto import auto_actions
from webr4.record.scripted import Steps, actions_from_script


@dataclass(frozen=True)
class Script:
    """The user actions that the script at ``path`` performs in its ``run(page)`` (see
    :mod:`webr4.record.scripted`), ``pace`` milliseconds apart (``None``: as far apart as they
    really were)."""

    path: Path
    pace: float | None = None


@dataclass(frozen=True)
class AutoExplore:
    """Up to ``actions`` user steps chosen from the page's event handlers, reproducibly for
    ``seed`` (see :mod:`webr4.record.auto`)."""

    actions: int
    seed: int = 0


StepSource = Sequence[Mapping[str, Any]] | Script | AutoExplore
"""Steps as ``--actions`` gives them (``{"click": "#add"}``, ``{"wait": 200}``, ...), or where to take them from."""


def web_url_problem(url: str) -> str | None:
    """Why ``url`` is no page webr4 can record (one clause naming the fix), or None for an
    ``http://`` or ``https://`` URL with a host: webr4 records and replays what the page fetches
    over HTTP, so a ``data:``, ``file:`` or host-less URL cannot be one."""
    shown = short_name(url)
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as error:
        return f"{shown} is not a valid URL ({error})"
    if parts.scheme not in ("http", "https") or not host:
        return (f"{shown} is not an http:// or https:// URL; webr4 loads pages from a web server "
                "(serve a local page with: python -m http.server)")
    return None


def user_steps(url: str, source: StepSource) -> Steps:
    """The user steps of ``source`` for the page at ``url``, checked.

    Raises :class:`~webr4.record.scripted.StepsError` when a script or the page fails (the
    script's own exception is the cause), and :class:`~webr4.browser.actions.ActionError` naming
    the first step webr4 cannot perform. A script and automatic exploration drive a synchronous
    Playwright page of their own, which refuses to run inside a running asyncio loop: call this
    before the loop starts, or on a thread of its own.
    """
    steps: Any
    if isinstance(source, Script):
        steps = actions_from_script(source.path, url, source.pace)
    elif isinstance(source, AutoExplore):
        steps = auto_actions(url, source.actions, source.seed)
    else:
        steps = [dict(step) if isinstance(step, Mapping) else step for step in source] \
            if isinstance(source, (list, tuple)) else source
    parse_actions(steps)
    return steps
