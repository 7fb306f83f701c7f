"""``screenshot``: the full-page screenshot, PNG bytes or the path of a PNG file, ``None`` when
not taken.

Compared pixel by pixel with a :class:`~webr4.state.pixels.Tolerance`
(:class:`ScreenshotDiff`), only when both sides have one (``compared`` says whether they did).
Masked by boxes (``boxes``: 16-pixel tiles around what changed between two replays, painted
black). Items: ``963 pixels changed in 120×16 at (8, 40)``. Its section of the reversal page
shows both screenshots and the pixel difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Mapping

from webr4.state import pixels
from webr4.state.categories.base import StateCategory, MaskField

if TYPE_CHECKING:
    from webr4.execution import Execution

Screenshot = bytes | Path | None


@dataclass(frozen=True)
class ScreenshotDiff:
    """``image`` (PNG bytes, not in the JSON form) shows changed pixels in red."""

    compared: bool = False
    differs: bool = False
    changed_pixels: int = 0
    fraction: float = 0.0
    bbox: tuple[int, int, int, int] | None = None
    image: bytes | None = None

    def __bool__(self) -> bool:
        return self.differs


def png_of(screenshot: Screenshot) -> bytes | None:
    """The screenshot as PNG bytes, reading the file when it is stored as a path."""
    return screenshot.read_bytes() if isinstance(screenshot, Path) else screenshot


def diff_screenshots(before: bytes | None, after: bytes | None,
                     tolerance: pixels.Tolerance = pixels.Tolerance()) -> ScreenshotDiff:
    """Pixel diff; ``compared=False`` when either screenshot is missing."""
    if before is None or after is None:
        return ScreenshotDiff()
    result = pixels.compare(before, after, tolerance)
    return ScreenshotDiff(True, result.differs, result.changed_pixels, result.fraction, result.bbox, result.image)


class ScreenshotCategory(StateCategory[Screenshot, ScreenshotDiff]):
    """Screenshots compared with ``tolerance``."""

    name = "screenshot"
    title = "Screenshots"
    section = "screenshot"
    mask_fields = (MaskField("boxes", ordered=True, dump=list, load=tuple),)

    def __init__(self, tolerance: pixels.Tolerance = pixels.Tolerance()) -> None:
        self.tolerance = tolerance

    def empty(self) -> Screenshot:
        return None

    def capture(self, execution: Execution) -> Screenshot:
        return execution.screenshot

    def dump(self, value: Screenshot) -> str | None:
        """The file name; a screenshot held as bytes is left out (``StateSnapshot.save`` keeps it)."""
        return str(value) if isinstance(value, Path) else None

    def load(self, raw: Any, base: Path | None) -> Screenshot:
        return None if raw is None else Path(raw) if base is None else base / raw

    def no_difference(self) -> ScreenshotDiff:
        return ScreenshotDiff()

    def diff(self, before: Screenshot, after: Screenshot) -> ScreenshotDiff:
        return diff_screenshots(png_of(before), png_of(after), self.tolerance)

    def dump_diff(self, part: ScreenshotDiff) -> dict[str, Any]:
        return {"compared": part.compared, "differs": part.differs, "changed_pixels": part.changed_pixels,
                "fraction": part.fraction, "bbox": list(part.bbox) if part.bbox else None}

    def items(self, part: ScreenshotDiff) -> list[str]:
        if part.bbox is None:
            return [f"{part.changed_pixels} pixels changed"]
        left, top, right, bottom = part.bbox
        return [f"{part.changed_pixels} pixels changed in {right - left}×{bottom - top} at ({left}, {top})"]

    def noise(self, first: Screenshot, second: Screenshot) -> dict[str, Collection[Any]]:
        a, b = png_of(first), png_of(second)
        if a is None or b is None or a == b:  # the same bytes are the same pixels
            return {"boxes": ()}
        mask = pixels.changed_mask(pixels.load(a), pixels.load(b), self.tolerance.channel_tolerance)
        return {"boxes": tuple(pixels.tile_boxes(mask))}

    def mask(self, value: Screenshot, fields: Mapping[str, Collection[Any]]) -> Screenshot:
        png, boxes = png_of(value), list(fields["boxes"])
        return pixels.paint_boxes(png, boxes) if png is not None and boxes else png


SCREENSHOT = ScreenshotCategory()
