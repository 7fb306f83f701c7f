"""Which frame a request comes from, and whether that frame joins the page's runtime.

A child frame of the page's origin shares the page's event loop, and the runtime takes its
timers, ``fetch`` and ``XMLHttpRequest`` under the one scheduler
(``instrument_js/runtime/frames.js``): its document and scripts are served rewritten to log
their accesses. A frame of another origin, or sandboxed away from the page's, runs natively,
its responses served as recorded, and the trace lists it as uncontrolled.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Request


def frame_of(request: Request) -> Frame | None:
    """The frame of ``request``; ``None`` for the first navigation of a window that is still
    being created (a popup), which has none yet."""
    try:
        return request.frame
    except PlaywrightError:
        return None


def is_top_level(frame: Frame | None) -> bool:
    return frame is None or frame.parent_frame is None


class JoiningFrames:
    """Which child frames join the runtime of the page: a frame whose document has the page's
    origin, which a ``sandbox`` attribute without ``allow-same-origin`` takes away (the frame's
    runtime then cannot reach the page's, and rewritten code would call a log it does not have).
    Learnt at each navigation of a frame, and for a frame first seen by another request."""

    def __init__(self) -> None:
        self._joins: dict[Frame, bool] = {}

    async def joins(self, request: Request, frame: Frame, page_url: str | None) -> bool:
        """Whether ``frame``, which ``request`` navigates or comes from, joins the runtime of the
        page served from ``page_url`` (``None``: no page yet)."""
        if request.is_navigation_request() or frame not in self._joins:
            where = request.url if request.is_navigation_request() else frame.url
            same_origin = page_url is not None and _origin(where) == _origin(page_url)
            self._joins[frame] = same_origin and not await _sandboxed(frame)
        return self._joins[frame]


async def _sandboxed(frame: Frame) -> bool:
    """Whether ``frame``'s element gives its documents an opaque origin."""
    try:
        sandbox = await (await frame.frame_element()).get_attribute("sandbox")
    except PlaywrightError:  # the frame or its parent went away: nothing of it will run
        return True
    return sandbox is not None and "allow-same-origin" not in sandbox.lower().split()


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc
