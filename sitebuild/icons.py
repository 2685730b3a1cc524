"""The app's icons (web/manifest.webmanifest names them), drawn by the build: a card with a
heart on felt, as PNG files of ICON_SIZES px."""

from __future__ import annotations

import struct
import zlib

#: Icon sizes in px, written to web/icons/icon-SIZE.png.
ICON_SIZES = (192, 512)
ICON_FELT = (0x0B, 0x21, 0x16)     # the page's background (style.css --bg), to the edges
ICON_CARD = (0xF7, 0xF3, 0xE8)
ICON_HEART = (0xC6, 0x28, 0x28)


def icon_paint(x: float, y: float) -> tuple[int, int, int]:
    """The icon's colour at (x, y) in 0..1: a card with a heart on felt. Everything but
    the felt lies within the centre circle of radius 0.4 that a maskable icon keeps."""
    dx, dy = abs(x - 0.5) - 0.21, abs(y - 0.5) - 0.3            # a card 0.42 x 0.6, radius 0.05
    if max(dx, dy) > 0 or (dx > -0.05 and dy > -0.05 and (dx + 0.05) ** 2 + (dy + 0.05) ** 2 > 0.05 ** 2):
        return ICON_FELT
    # The heart: two lobes and the lines from its point that touch them, the space between filled.
    hx, hy = abs(x - 0.5), y - 0.5
    if (hx - 0.069) ** 2 + (hy + 0.05) ** 2 < 0.0775 ** 2 or (
            -0.05 <= hy < 0.1625 and hx < 0.787 * (0.1625 - hy) and (hy > -0.0025 or hx < 0.069)):
        return ICON_HEART
    return ICON_CARD


def icon_png(size: int, samples: int = 2) -> bytes:
    """The icon as a PNG of `size` px, each pixel the mean of samples² points (smooth edges)."""
    rows = bytearray()
    step = 1 / (size * samples)
    for row in range(size):
        rows.append(0)                                            # PNG filter: none
        for column in range(size):
            total = [0, 0, 0]
            for i in range(samples):
                for j in range(samples):
                    colour = icon_paint((column * samples + j + 0.5) * step, (row * samples + i + 0.5) * step)
                    for k in range(3):
                        total[k] += colour[k]
            rows.extend(round(t / samples ** 2) for t in total)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) \
        + chunk(b"IEND", b"")
