"""Thumbnails of the region where two end screenshots differ, for the report's overview.

A whole page at thumbnail width shows nothing of a one-line change; :func:`changed_region` crops
both screenshots to the box of the pixels that differ, with a margin, so the overview shows what
changed at a readable scale.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

MARGIN = 24
"""Pixels of context kept around the changed box."""
MAX_SIZE = (360, 240)
"""The largest a thumbnail is (width, height), its proportions kept: twice the size the overview
shows it at, for sharp screens."""


def changed_box(parent: Image.Image, child: Image.Image) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of the pixels that differ, with :data:`MARGIN`, on a
    canvas as large as the larger screenshot; the top of the page when nothing differs."""
    width, height = max(parent.width, child.width), max(parent.height, child.height)
    canvas = [Image.new("RGB", (width, height), "white") for _ in range(2)]
    canvas[0].paste(parent.convert("RGB"))
    canvas[1].paste(child.convert("RGB"))
    box = ImageChops.difference(canvas[0], canvas[1]).getbbox()
    if box is None:
        return 0, 0, width, min(height, width // 2)
    left, top, right, bottom = box
    return (max(0, left - MARGIN), max(0, top - MARGIN), min(width, right + MARGIN), min(height, bottom + MARGIN))


def changed_region(parent: Path, child: Path, out: Path, stem: str) -> tuple[Path, Path] | None:
    """Crop both screenshots to their changed box and write them as ``<stem>-parent.png`` and
    ``<stem>-child.png`` in ``out``; ``None`` when either cannot be read."""
    try:
        with Image.open(parent) as before, Image.open(child) as after:
            box = changed_box(before, after)
            written = []
            for image, name in ((before, "parent"), (after, "child")):
                canvas = Image.new("RGB", (max(before.width, after.width), max(before.height, after.height)), "white")
                canvas.paste(image.convert("RGB"))
                crop = canvas.crop(box)
                crop.thumbnail(MAX_SIZE)
                path = out / f"{stem}-{name}.png"
                out.mkdir(parents=True, exist_ok=True)
                crop.save(path)
                written.append(path)
    except (OSError, ValueError):
        return None
    return written[0], written[1]
