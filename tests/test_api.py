"""The public API: one import, one error root."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import click

import webr4
from webr4.errors import Webr4Error


def _modules() -> list[str]:
    skip = ("webr4._", "webr4.__main__")
    return [info.name for info in pkgutil.walk_packages(webr4.__path__, "webr4.") if not info.name.startswith(skip)]


def test_every_error_class_webr4_defines_derives_from_webr4error():
    """The command line's own exit carriers (click exceptions) are how it shows errors, not errors."""
    defined = {
        cls for name in _modules() for _, cls in inspect.getmembers(importlib.import_module(name), inspect.isclass)
        if issubclass(cls, Exception) and cls.__module__.startswith("webr4.")
        and not issubclass(cls, click.ClickException)
    }
    assert len(defined) >= 11
    assert {cls.__qualname__ for cls in defined if not issubclass(cls, Webr4Error)} == set()


def test_the_public_names_resolve_to_their_home_modules():
    for name in _modules():
        importlib.import_module(name)  # a subpackage must not shadow a public name once imported
    for name in webr4.__all__:
        assert getattr(webr4, name) is not None and not inspect.ismodule(getattr(webr4, name)), name
    assert webr4.check.__module__ == "webr4.checking"
    assert webr4.record_session.__module__ == "webr4.record.session"
    assert inspect.iscoroutinefunction(webr4.explore)
