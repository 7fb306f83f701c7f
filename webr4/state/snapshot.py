"""The final state of one execution, in a form that can be compared, saved and loaded."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webr4.trace import Category, Trace

if TYPE_CHECKING:
    from webr4.browser.driver import Execution

EXCEPTION_KINDS = ("exception", "unhandledrejection")


@dataclass(frozen=True)
class StateSnapshot:
    """What an execution left behind.

    ``dom`` is the normalised serialisation of ``capture_dom.js``; ``heap`` the abstract heap of
    ``capture_heap.js`` (``None`` when not captured); ``exceptions`` the uncaught exceptions and
    unhandled rejections as ``(message, site)``; ``console`` the ``console.error`` messages;
    ``requests`` the sorted ``"METHOD url"`` of every request whose response the execution saw;
    ``pending`` the sorted labels of the events still pending at the end; ``navigation`` where
    the page tried to take the user (:attr:`~webr4.trace.Navigation.target`), ``None`` when it
    stayed; ``screenshot`` PNG bytes, a path to a PNG file, or ``None``.
    """

    dom: str
    heap: Any = None
    exceptions: list[tuple[str, str | None]] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    navigation: str | None = None
    screenshot: bytes | Path | None = None

    @classmethod
    def from_execution(cls, execution: Execution, heap: Any = None) -> StateSnapshot:
        """The snapshot of ``execution``; ``heap`` is what :func:`~webr4.state.heap.capture_heap`
        returned for it, if anything."""
        trace = execution.trace
        return cls(
            dom=execution.dom,
            heap=heap,
            exceptions=[(e.message, e.site) for e in trace.errors if e.kind in EXCEPTION_KINDS],
            console=[e.message for e in trace.errors if e.kind == "console"],
            requests=requests_of(trace),
            pending=sorted(trace.events[i].label if i in trace.events else i for i in trace.enabled_at_end),
            navigation=trace.navigation.target if trace.navigation else None,
            screenshot=execution.screenshot,
        )

    def screenshot_png(self) -> bytes | None:
        """The screenshot as PNG bytes, reading the file when it is stored as a path."""
        if isinstance(self.screenshot, Path):
            return self.screenshot.read_bytes()
        return self.screenshot

    def to_json(self) -> dict[str, Any]:
        """JSON-able form. A screenshot held as bytes is left out: use :meth:`save` to keep it."""
        return {
            "dom": self.dom,
            "heap": self.heap,
            "exceptions": [list(e) for e in self.exceptions],
            "console": list(self.console),
            "requests": list(self.requests),
            "pending": list(self.pending),
            "navigation": self.navigation,
            "screenshot": str(self.screenshot) if isinstance(self.screenshot, Path) else None,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any], base: Path | None = None) -> StateSnapshot:
        """Inverse of :meth:`to_json`; a relative screenshot path is taken relative to ``base``."""
        shot = raw.get("screenshot")
        path = None if shot is None else Path(shot) if base is None else base / shot
        return cls(
            dom=raw["dom"],
            heap=raw.get("heap"),
            exceptions=[(m, s) for m, s in raw.get("exceptions", ())],
            console=list(raw.get("console", ())),
            requests=list(raw.get("requests", ())),
            pending=list(raw.get("pending", ())),
            navigation=raw.get("navigation"),
            screenshot=path,
        )

    def save(self, directory: Path, name: str = "state") -> Path:
        """Write ``<name>.json`` (and ``<name>.png`` when there is a screenshot) into
        ``directory``; the JSON refers to the PNG by a path relative to ``directory``."""
        directory.mkdir(parents=True, exist_ok=True)
        png = self.screenshot_png()
        stored = self
        if png is not None:
            (directory / f"{name}.png").write_bytes(png)
            stored = replace(self, screenshot=Path(f"{name}.png"))
        target = directory / f"{name}.json"
        target.write_text(json.dumps(stored.to_json(), indent=1, sort_keys=True), encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: Path) -> StateSnapshot:
        """Read a snapshot written by :meth:`save`."""
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")), base=path.parent)


def requests_of(trace: Trace) -> list[str]:
    """Sorted ``"METHOD url"`` of the network events of ``trace`` (executed or pending): XHR and
    fetch carry ``method``/``url``, element and script loads a ``src`` fetched with GET."""
    out = []
    for event in trace.events.values():
        if event.category is not Category.NETWORK:
            continue
        url = event.params.get("url") or event.params.get("src")
        if url:
            out.append(f"{str(event.params.get('method') or 'GET').upper()} {url}")
    return sorted(out)
