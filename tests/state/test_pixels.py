"""Comparing a screenshot with itself gives what comparing it with the same pixels encoded
otherwise gives, though only one of them is decoded."""

from __future__ import annotations

from PIL import Image, ImageDraw

from webr4.state.pixels import compare, encode


def test_the_same_bytes_compare_as_the_same_pixels_do() -> None:
    image = Image.new("RGB", (120, 90), (250, 250, 250))
    ImageDraw.Draw(image).rectangle((10, 10, 60, 30), fill=(200, 30, 30))
    png, same_pixels = encode(image, level=6), encode(image, level=1)
    assert png != same_pixels
    by_bytes, by_pixels = compare(png, png), compare(png, same_pixels)
    assert (by_bytes.differs, by_bytes.changed_pixels, by_bytes.bbox, by_bytes.image) == (
        by_pixels.differs, by_pixels.changed_pixels, by_pixels.bbox, by_pixels.image)
    assert by_bytes.mask.tobytes() == by_pixels.mask.tobytes()
