"""What a plain schedule needs to know of the session besides its traces (:class:`PageFacts`):
its URL and steps, which user event belongs to which step, where each parse chunk starts, and
which recorded responses are images, read from the session's HAR."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from webr4.errors import Webr4Error
from webr4.instrument.chunks import ChunkModel, split_into_chunks
from webr4.useractions import ACTIONS
from webr4.witness.plain import request_key


@dataclass(frozen=True)
class PageFacts:
    """What a schedule needs of the session besides the traces: its URL and steps, for each
    parse chunk the parser-blocking script it starts with (``None`` where it starts at a point
    where more of the document arrives), and ``images``: the request keys of the recorded
    responses that are images (an ``<img>``'s or a style sheet's background: the window's
    ``load`` waits for them, and they run no code and block no script), and ``service_workers``:
    whether the page's service workers ran in the session (``block`` or ``allow``, Playwright's
    context option), which the plain runs use too."""

    url: str
    steps: Sequence[Mapping[str, Any]]
    chunk_openers: Sequence[str | None] = ()
    user_steps: dict[int, int] = field(default_factory=dict)  # user event index -> session step number
    images: Sequence[str] = ()
    service_workers: str = "block"

    def __post_init__(self) -> None:
        if not self.user_steps:
            self.user_steps.update(_user_steps(self.steps))

    @classmethod
    def of_session(cls, url: str, steps: Sequence[Mapping[str, Any]], har: Path, model: ChunkModel,
                   service_workers: str = "block") -> PageFacts:
        """The facts of a session recorded from ``url`` with ``steps``, its responses in ``har``,
        its document split into parse chunks by ``model``, its service workers as it had them."""
        document, images = _recorded_responses(har, url)
        openers = split_into_chunks(document, url, "plain", model).openers if document is not None else []
        return cls(url, list(steps), openers, images=images, service_workers=service_workers)


class PageFactsError(Webr4Error):
    """The session's HAR, which the page's facts are read from, cannot be read (one line)."""


def _recorded_responses(har: Path, url: str) -> tuple[str | None, tuple[str, ...]]:
    """The text of the response to ``url`` in ``har`` (``None`` when it holds none), and the
    request keys of the image responses it holds."""
    document: str | None = None
    images: set[str] = set()
    try:
        for entry in json.loads(har.read_text(encoding="utf-8"))["log"]["entries"]:
            content = entry["response"].get("content", {})
            if str(content.get("mimeType", "")).lower().startswith("image/"):
                images.add(request_key(entry["request"]["url"]))
            elif document is None and entry["request"]["url"] == url:
                text = content.get("text", "")
                raw = base64.b64decode(text) if content.get("encoding") == "base64" else text.encode()
                document = raw.decode("utf-8", errors="replace")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PageFactsError(f"{har} is not a readable HAR file ({error}); record the session again") from None
    return document, tuple(sorted(images))


def _user_steps(steps: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """User event index → the number of the session step it belongs to (a ``press`` is two user
    events; a ``wait`` is none)."""
    out: dict[int, int] = {}
    index = 0
    for number, step in enumerate(steps):
        kind = next((k for k in step if k in ACTIONS), None)
        for _ in ACTIONS[kind].events if kind else ():
            out[index] = number
            index += 1
    return out
