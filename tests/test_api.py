"""The public API: one import, one error root."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import Any, Callable

import click
import pytest

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


def _check(tmp_path: Path, actions: Any = (), **settings: Any) -> None:
    """``webr4.check`` of a page that is never loaded, with sweep ``settings``: each call below
    fails before a browser starts."""
    options = webr4.SweepOptions(webr4.SweepSettings(**settings))
    asyncio.run(webr4.check("http://127.0.0.1:9/", tmp_path / "run", actions, options=options))


@pytest.mark.parametrize(("call", "words"), [
    (lambda tmp: _check(tmp, [{"clik": "#add"}]), "must have exactly one of"),
    (lambda tmp: _check(tmp, {"click": "#add"}), "a JSON list of steps"),
    (lambda tmp: _check(tmp, [{"wait": -1}]), "non-negative number"),
    (lambda tmp: _check(tmp, webr4.Script(tmp / "missing.py")), "does not exist"),
    (lambda tmp: _check(tmp, strategy="r5"), "unknown strategy 'r5'"),
    (lambda tmp: _check(tmp, rules=["no-such-rule"]), "unknown rule"),
    (lambda tmp: _check(tmp, budget=60.0, strategy="delay"), "cannot drive the delay strategy"),
    (lambda tmp: webr4.Limits(parse_chunks="paragraph"), "unknown parse-chunk model"),
    (lambda tmp: webr4.Limits(chunk_kb=0), "at least 1 KB"),
    (lambda tmp: webr4.NoiseMask.from_options(["div > p"]), "unsupported selector"),
    (lambda tmp: webr4.NoiseMask.from_options((), ["window..a"]), "not a heap path"),
    (lambda tmp: webr4.SweepOptions(confirm="harmfull"), "unknown confirm 'harmfull'"),
], ids=["misspelt-action", "not-a-list", "negative-wait", "missing-script", "strategy", "rule",
        "budget-strategy", "chunk-model", "chunk-kb", "mask-selector", "mask-heap-path", "confirm"])
def test_what_a_user_gives_wrong_raises_webr4error(tmp_path: Path, call: Callable[[Path], object],
                                                   words: str) -> None:
    """Every public entry point refuses bad input with a one-line Webr4Error, which stays a
    ValueError for callers that catch that."""
    with pytest.raises(Webr4Error, match=re.escape(words)) as raised:
        call(tmp_path)
    assert isinstance(raised.value, ValueError)
    assert "\n" not in str(raised.value)
