"""Which frame a request comes from, and whether that frame joins the page's runtime.

A child frame of the page's origin shares the page's event loop, and the runtime takes its
timers and ``fetch`` under the one scheduler (``instrument_js/runtime/frames.js``): its document
and scripts are served rewritten to log their accesses. A frame of another origin runs natively,
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


def joins_page(request: Request, frame: Frame | None, page_url: str | None) -> bool:
    """Whether the document ``request`` navigates to, or comes from, has the origin of the page
    served from ``page_url`` (``None``: no page yet)."""
    where = request.url if request.is_navigation_request() or frame is None else frame.url
    return page_url is not None and _origin(where) == _origin(page_url)


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc
