"""Wall-clock time per stage of an execution, by wrapping the callables that make each stage.

Shared by the profilers (``floor_stages``, ``floor_spare``, ``real_apps_profile``): a stage is named by the
``(owner, attribute, stage)`` rows of the callables timed, and its figure is the sum over them.
"""

from __future__ import annotations

import inspect
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from webr4.browser.contexts import ContextSupply

CONTEXT_START: tuple[tuple[Any, str, str], ...] = (
    (ContextSupply, "take", "context start"),
)
"""What an execution waits for before it navigates, its first stage: a fresh context and page,
the one made ahead while the execution before ran or one made on the spot
(:mod:`webr4.browser.contexts`). The making ahead overlaps the execution before and is not
counted here."""


@dataclass
class Stage:
    seconds: float = 0.0
    calls: int = 0


@dataclass
class Timers:
    """Wall-clock seconds and calls per stage of ``timed`` while :meth:`installed` is active
    (nested stages overlap)."""

    timed: tuple[tuple[Any, str, str], ...]
    stages: dict[str, Stage] = field(default_factory=lambda: defaultdict(Stage))

    def _timed(self, original: Callable[..., Any], stage: str) -> Callable[..., Any]:
        record = self.stages[stage]
        if inspect.iscoroutinefunction(original):
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await original(*args, **kwargs)
                finally:
                    record.seconds += time.perf_counter() - started
                    record.calls += 1
            return timed_async

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                record.seconds += time.perf_counter() - started
                record.calls += 1
        return timed

    @contextmanager
    def installed(self) -> Iterator[None]:
        undo: list[tuple[Any, str, Any]] = []
        try:
            for owner, attribute, stage in self.timed:
                raw = inspect.getattr_static(owner, attribute)
                undo.append((owner, attribute, raw))
                timed = self._timed(getattr(owner, attribute), stage)
                setattr(owner, attribute, staticmethod(timed) if isinstance(raw, (staticmethod, classmethod))
                        else timed)
            yield
        finally:
            for owner, attribute, raw in reversed(undo):
                setattr(owner, attribute, raw)
