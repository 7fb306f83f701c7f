"""Pixel comparison of two screenshots, and the boxes a noise mask paints out.

Two PNGs *differ* when at least ``min_pixels`` pixels have some channel that differs by more
than ``channel_tolerance`` (0–255). The threshold is absolute, not a share of the page: a
changed price on a long page is a handful of pixels however tall the page is. Regions that vary
on their own are handled by noise masks, not by a looser threshold. Images of different sizes are compared on the larger
canvas; the area only one of them covers counts as changed.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import cast

from PIL import Image, ImageChops, ImageDraw, ImageEnhance

Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive), pixels


@dataclass(frozen=True)
class Tolerance:
    """How different two pixels, and how many pixels, make two screenshots different."""

    channel_tolerance: int = 16
    min_pixels: int = 8


@dataclass(frozen=True)
class PixelDiff:
    """The outcome of :func:`compare`.

    ``mask`` is a mode ``"L"`` image, 255 where pixels changed; ``image`` is the diff image (PNG
    bytes): the first screenshot dimmed, changed pixels in red.
    """

    differs: bool
    changed_pixels: int
    fraction: float
    bbox: Box | None
    mask: Image.Image
    image: bytes


def load(png: bytes) -> Image.Image:
    """Decode PNG bytes to an RGB image."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def encode(image: Image.Image, level: int = 3) -> bytes:
    """Encode an image as PNG bytes, with zlib's compression ``level``: 3 makes a page's picture
    about 15 % larger than PIL's default 6, in 60 % of the time (an image is encoded for every
    comparison); an image that is decoded again at once and never kept may take 1."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=level)
    return out.getvalue()


def _on_canvas(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    if image.size == size:
        return image
    canvas = Image.new("RGB", size, (0, 0, 0))
    canvas.paste(image, (0, 0))
    return canvas


def changed_mask(a: Image.Image, b: Image.Image, channel_tolerance: int) -> Image.Image:
    """Mode ``"L"`` image on the larger canvas: 255 where some channel differs by more than
    ``channel_tolerance`` or where only one image has pixels."""
    size = (max(a.width, b.width), max(a.height, b.height))
    difference = ImageChops.difference(_on_canvas(a, size), _on_canvas(b, size))
    bands = [band.point(lambda v: 255 if v > channel_tolerance else 0) for band in difference.split()]
    mask = bands[0]
    for band in bands[1:]:
        mask = ImageChops.lighter(mask, band)
    if a.size != b.size:
        outside = Image.new("L", size, 255)
        outside.paste(0, (0, 0, min(a.width, b.width), min(a.height, b.height)))
        mask = ImageChops.lighter(mask, outside)
    return mask


def compare(a_png: bytes, b_png: bytes, tolerance: Tolerance = Tolerance()) -> PixelDiff:
    """Compare two screenshots; the diff image highlights changed pixels in red over ``a`` dimmed.
    Two PNGs with the same bytes have the same pixels: only one is decoded."""
    a = load(a_png)
    mask = Image.new("L", a.size, 0) if a_png == b_png else changed_mask(a, load(b_png), tolerance.channel_tolerance)
    changed = mask.histogram()[255]
    total = mask.width * mask.height
    fraction = changed / total if total else 0.0
    base = ImageEnhance.Brightness(_on_canvas(a, mask.size)).enhance(0.35)
    base.paste((255, 0, 0), (0, 0), mask)
    return PixelDiff(changed >= tolerance.min_pixels, changed, fraction, mask.getbbox(), mask, encode(base))


def tile_boxes(mask: Image.Image, tile: int = 16) -> list[Box]:
    """Cover the changed pixels of ``mask`` with ``tile``-pixel squares, merged into horizontal
    runs: a coarse, slightly generous region that also hides neighbouring changes (the next
    digit of a clock)."""
    columns, rows = -(-mask.width // tile), -(-mask.height // tile)
    padded = Image.new("L", (columns * tile, rows * tile), 0)
    padded.paste(mask, (0, 0))
    occupied = padded.reduce(tile)  # mean per tile: non-zero when any pixel changed
    boxes: list[Box] = []
    for row in range(rows):
        start = None
        for column in range(columns + 1):
            on = column < columns and cast(int, occupied.getpixel((column, row))) > 0  # one band: a number
            if on and start is None:
                start = column
            elif not on and start is not None:
                boxes.append((start * tile, row * tile, min(column * tile, mask.width),
                              min((row + 1) * tile, mask.height)))
                start = None
    return boxes


def paint_boxes(png: bytes, boxes: list[Box]) -> bytes:
    """``png`` with every box filled black (to be compared, not kept: quickly encoded)."""
    image = load(png)
    draw = ImageDraw.Draw(image)
    for left, top, right, bottom in boxes:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=(0, 0, 0))
    return encode(image, level=1)
