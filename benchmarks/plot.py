"""A log–log line chart drawn with Pillow: several named series of positive (x, y) points."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
SIZE = (900, 560)
MARGIN = (90, 40, 40, 70)  # left, top, right, bottom


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default()


def _decades(low: float, high: float) -> list[int]:
    return list(range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1))


def log_log_chart(series: dict[str, list[tuple[float, float]]], path: Path, *, title: str, x_label: str,
                  y_label: str) -> None:
    """Draw ``series`` (name → points; points with a non-positive coordinate are left out) to ``path``."""
    points = {name: [(x, y) for x, y in pts if x > 0 and y > 0] for name, pts in series.items()}
    xs = [x for pts in points.values() for x, _ in pts] or [1.0]
    ys = [y for pts in points.values() for _, y in pts] or [1.0]
    x_dec, y_dec = _decades(min(xs), max(xs)), _decades(min(ys), max(ys))
    left, top, right, bottom = MARGIN
    width, height = SIZE[0] - left - right, SIZE[1] - top - bottom

    def at(x: float, y: float) -> tuple[float, float]:
        fx = (math.log10(x) - x_dec[0]) / max(x_dec[-1] - x_dec[0], 1)
        fy = (math.log10(y) - y_dec[0]) / max(y_dec[-1] - y_dec[0], 1)
        return left + fx * width, top + (1 - fy) * height

    image = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(image)
    small, big = _font(13), _font(16)
    for d in x_dec:
        px, _ = at(10.0 ** d, 10.0 ** y_dec[0])
        draw.line([(px, top), (px, top + height)], fill="#dddddd")
        draw.text((px, top + height + 6), f"{10.0 ** d:g}", fill="black", font=small, anchor="mt")
    for d in y_dec:
        _, py = at(10.0 ** x_dec[0], 10.0 ** d)
        draw.line([(left, py), (left + width, py)], fill="#dddddd")
        draw.text((left - 6, py), f"{10.0 ** d:g}", fill="black", font=small, anchor="rm")
    draw.rectangle([left, top, left + width, top + height], outline="black")
    draw.text((left + width / 2, 12), title, fill="black", font=big, anchor="mt")
    draw.text((left + width / 2, SIZE[1] - 20), x_label, fill="black", font=small, anchor="mm")
    label = Image.new("RGBA", (height, 20), (255, 255, 255, 0))
    ImageDraw.Draw(label).text((height / 2, 10), y_label, fill="black", font=small, anchor="mm")
    image.paste(label.rotate(90, expand=True), (8, top), label.rotate(90, expand=True))
    for n, (name, pts) in enumerate(points.items()):
        colour = COLOURS[n % len(COLOURS)]
        coords = [at(x, y) for x, y in sorted(pts)]
        if len(coords) > 1:
            draw.line(coords, fill=colour, width=3)
        for cx, cy in coords:
            draw.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill=colour)
        draw.line([(left + 14, top + 16 + 20 * n), (left + 40, top + 16 + 20 * n)], fill=colour, width=3)
        draw.text((left + 48, top + 16 + 20 * n), name, fill="black", font=small, anchor="lm")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
