"""webr4: find the event races in a web app that hurt its users.

The public API, for programs that drive webr4 themselves (all coroutines but ``write_report``)::

    import asyncio, webr4
    checked = asyncio.run(webr4.check("http://127.0.0.1:8000/", Path("run"), [{"click": "#add"}]))
    print(checked.summary.counts, checked.report)

``check`` records, explores and reports in one call, with the user steps given as a list, or
taken from a Playwright ``Script`` or by ``AutoExplore``; ``record_session``, ``explore`` (or
``explore_session``, which picks the backend) and ``write_report`` are its stages. Every failure a
user can act on raises :class:`Webr4Error`. The names are loaded on first use, so that importing
``webr4`` (as the pytest plugin does) starts nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from webr4.version import __version__

if TYPE_CHECKING:
    from webr4.browser.limits import Limits
    from webr4.checking import Checked, SweepOptions, check, explore_session
    from webr4.errors import Webr4Error
    from webr4.report.write import write_report
    from webr4.state.noise import NoiseMask
    from webr4.record.session import Session
    from webr4.record.session import record as record_session
    from webr4.record.steps import AutoExplore, Script
    from webr4.rundir.summary import ReversalReport, Summary
    from webr4.sweep.explore import explore
    from webr4.sweep.settings import SweepSettings

_HOMES: dict[str, str | tuple[str, str]] = {  # public name -> its module (and its name there, when that differs)
    "Limits": "webr4.browser.limits",
    "Checked": "webr4.checking",
    "SweepOptions": "webr4.checking",
    "check": "webr4.checking",
    "explore_session": "webr4.checking",
    "Webr4Error": "webr4.errors",
    "write_report": "webr4.report.write",
    "NoiseMask": "webr4.state.noise",
    "ReversalReport": "webr4.rundir.summary",
    "Summary": "webr4.rundir.summary",
    "explore": "webr4.sweep.explore",
    "SweepSettings": "webr4.sweep.settings",
    "Session": "webr4.record.session",
    "record_session": ("webr4.record.session", "record"),
    "AutoExplore": "webr4.record.steps",
    "Script": "webr4.record.steps",
}

__all__ = [
    "AutoExplore",
    "Checked",
    "Limits",
    "NoiseMask",
    "ReversalReport",
    "Script",
    "Session",
    "Summary",
    "SweepOptions",
    "SweepSettings",
    "Webr4Error",
    "__version__",
    "check",
    "explore",
    "explore_session",
    "record_session",
    "write_report",
]


def __getattr__(name: str) -> Any:
    """The public names, each imported from its home module when first asked for."""
    if name not in _HOMES:
        raise AttributeError(f"module 'webr4' has no attribute {name!r}")
    home = _HOMES[name]
    module, attribute = home if isinstance(home, tuple) else (home, name)
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
