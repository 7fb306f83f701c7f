"""Synthetic DOMs and screenshots for state tests."""

from __future__ import annotations

import io

from PIL import Image

DOM = """<html>
  <head>
  </head>
  <body>
    <p id="cart">
      Cart: 1 item
    </p>
    <span id="clock">
      12:00:01
    </span>
    <ul>
      <li>
        one
      </li>
      <li class="x">
        two
      </li>
    </ul>
  </body>
</html>"""


def png(size: tuple[int, int] = (200, 120), color: tuple[int, int, int] = (240, 240, 240),
        block: tuple[int, int, int, int] | None = None, block_color: tuple[int, int, int] = (0, 90, 200)) -> bytes:
    """A flat image, optionally with a filled ``block`` (left, top, right, bottom)."""
    image = Image.new("RGB", size, color)
    if block is not None:
        image.paste(block_color, block)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
