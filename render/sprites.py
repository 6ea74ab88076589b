"""Small cached pictures pasted onto the map: tokens, numbered markers, badges, symbols.

Each sprite is drawn once at 4x and box-reduced, which gives smooth edges at the cost of one
`lru_cache` lookup per later use. Every sprite is an RGBA image whose opaque interior is exactly
its fill colour, so tests can compare pixels with the palette.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import ParamSpec, TypeVar

from PIL import Image, ImageDraw, ImageFont

from render.palette import MARKER, MARKER_TEXT, RGB, blend, text_on

SUPER = 4

_P = ParamSpec("_P")
_T = TypeVar("_T")

# FreeType faces are not safe to rasterise from two threads at once, and the bot renders in worker
# threads; every cache miss that touches a font runs under this lock (hits never take it).
FONT_LOCK = threading.RLock()


def font_locked(fn: Callable[_P, _T]) -> Callable[_P, _T]:
    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        with FONT_LOCK:
            return fn(*args, **kwargs)

    return wrapper


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=128)
@font_locked
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans if the system has it, else Pillow's built-in font, at ``size`` pixels."""
    size = max(6, int(size))
    try:
        return ImageFont.truetype(_FONT_FILES[bold], size)
    except OSError:
        return ImageFont.load_default(size=size)


def _layers(
    size: int, background: RGB
) -> tuple[Image.Image, Image.Image, ImageDraw.ImageDraw, ImageDraw.ImageDraw]:
    big = size * SUPER
    colour = Image.new("RGB", (big, big), background)
    mask = Image.new("L", (big, big), 0)
    return colour, mask, ImageDraw.Draw(colour), ImageDraw.Draw(mask)


def _finish(colour: Image.Image, mask: Image.Image) -> Image.Image:
    small = colour.reduce(SUPER)
    small.putalpha(mask.reduce(SUPER))
    return small


def _fit_text(text: str, box: float, bold: bool = True, share: float = 0.42, cap: float = 0) -> Font:
    size = box * (share if len(text) <= 2 else share * 0.8)
    size = min(size, cap) if cap else size
    f = font(round(size), bold)
    while f.getlength(text) > box * 0.82 and size > 6:
        size *= 0.9
        f = font(round(size), bold)
    return f


def _dashed_ring(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: int | RGB, width: int
) -> None:
    for start in range(0, 360, 30):
        draw.arc(box, start, start + 18, fill=fill, width=width)


@lru_cache(maxsize=4096)
@font_locked
def token(
    text: str,
    colour: RGB,
    diameter: int,
    canvas: int,
    *,
    square: bool = False,
    invisible: bool = False,
    out: bool = False,
    facing: float | None = None,
    corner: int = 0,
    text_max: int = 0,
) -> Image.Image:
    """A token: a disc (or rounded square for multi-square creatures) of ``colour`` with ``text``.

    ``canvas`` is the sprite side (the token is centred in it); ``facing`` an angle in degrees
    (screen coordinates, 0 = east, 90 = south) for a wedge pointing out of the token; ``corner``
    the corner radius of a square token (default a quarter of its half-side); ``text_max`` caps the
    initials' font size (pixels) so a colossal token's letters stay the size of a cell.
    """
    fill = blend(colour, (255, 255, 255), 0.6) if invisible else colour
    edge = (25, 25, 30)
    img, mask, draw, mdraw = _layers(canvas, fill)
    c = canvas * SUPER / 2
    r = diameter * SUPER / 2
    box = (c - r, c - r, c + r, c + r)
    line = max(SUPER, min(3 * SUPER, round(diameter * SUPER / 22)))
    if square:
        radius = corner * SUPER if corner else r * 0.25
        draw.rounded_rectangle(box, radius, fill=edge)
        mdraw.rounded_rectangle(box, radius, fill=255)
        inner = (box[0] + line, box[1] + line, box[2] - line, box[3] - line)
        draw.rounded_rectangle(inner, max(0, radius - line), fill=fill)
    else:
        mdraw.ellipse(box, fill=255)
        if invisible:
            draw.ellipse(box, fill=fill)
            _dashed_ring(draw, box, edge, line)
        else:
            draw.ellipse(box, fill=edge)
            draw.ellipse((box[0] + line, box[1] + line, box[2] - line, box[3] - line), fill=fill)
    if facing is not None:
        # Drawn over the rim, pointing out across the faced side; the centre stays the side's colour.
        a = math.radians(facing)
        tip = min(canvas * SUPER / 2 - SUPER, r * 1.4)
        side = math.radians(34)
        points = [
            (c + tip * math.cos(a), c + tip * math.sin(a)),
            (c + r * 0.78 * math.cos(a + side), c + r * 0.78 * math.sin(a + side)),
            (c + r * 0.78 * math.cos(a - side), c + r * 0.78 * math.sin(a - side)),
        ]
        draw.polygon(points, fill=edge)
        mdraw.polygon(points, fill=255)
    f = _fit_text(text, diameter * SUPER if not square else diameter * SUPER * 0.8, cap=text_max * SUPER)
    draw.text((c, c), text, fill=text_on(fill), font=f, anchor="mm")
    if out:
        # Dead, unconscious, helpless, paralyzed, incapacitated: crossed out.
        k = r * 0.62
        w = max(SUPER, round(diameter * SUPER / 12))
        draw.line([(c - k, c - k), (c + k, c + k)], fill=edge, width=w)
        draw.line([(c - k, c + k), (c + k, c - k)], fill=edge, width=w)
    return _finish(img, mask)


@lru_cache(maxsize=512)
@font_locked
def marker(text: str, diameter: int) -> Image.Image:
    """A numbered reaction marker: a red disc with a white rim and a white number."""
    img, mask, draw, mdraw = _layers(diameter, MARKER)
    d = diameter * SUPER
    line = max(SUPER, d // 14)
    mdraw.ellipse((0, 0, d - 1, d - 1), fill=255)
    draw.ellipse((0, 0, d - 1, d - 1), fill=(255, 255, 255))
    draw.ellipse((line, line, d - 1 - line, d - 1 - line), fill=MARKER)
    draw.text((d / 2, d / 2), text, fill=MARKER_TEXT, font=_fit_text(text, d, share=0.58), anchor="mm")
    return _finish(img, mask)


@lru_cache(maxsize=256)
@font_locked
def badge(text: str, colour: RGB, diameter: int) -> Image.Image:
    """A small condition badge: a disc of ``colour`` with a letter."""
    img, mask, draw, mdraw = _layers(diameter, colour)
    d = diameter * SUPER
    mdraw.ellipse((0, 0, d - 1, d - 1), fill=255)
    draw.ellipse((0, 0, d - 1, d - 1), fill=(25, 25, 30))
    line = max(SUPER, d // 12)
    draw.ellipse((line, line, d - 1 - line, d - 1 - line), fill=colour)
    draw.text((d / 2, d / 2), text, fill=text_on(colour), font=_fit_text(text, d, share=0.62), anchor="mm")
    return _finish(img, mask)


@lru_cache(maxsize=256)
@font_locked
def diamond(text: str, colour: RGB, diameter: int) -> Image.Image:
    """A diamond with a number: an aphex action-point boundary."""
    img, mask, draw, mdraw = _layers(diameter, colour)
    d = diameter * SUPER
    pts = [(d / 2, 0), (d - 1, d / 2), (d / 2, d - 1), (0, d / 2)]
    mdraw.polygon(pts, fill=255)
    draw.polygon(pts, fill=(25, 25, 30))
    k = max(SUPER, d // 10)
    inner = [(d / 2, k * 1.5), (d - 1 - k * 1.5, d / 2), (d / 2, d - 1 - k * 1.5), (k * 1.5, d / 2)]
    draw.polygon(inner, fill=colour)
    draw.text((d / 2, d / 2), text, fill=text_on(colour), font=_fit_text(text, d, share=0.5), anchor="mm")
    return _finish(img, mask)


@lru_cache(maxsize=64)
def octagon(colour: RGB, diameter: int) -> Image.Image:
    """A stop sign: where dragonquest movement must stop."""
    img, mask, draw, mdraw = _layers(diameter, colour)
    d = diameter * SUPER
    c = d / 2
    pts = [
        (c + c * math.cos(math.radians(22.5 + 45 * i)), c + c * math.sin(math.radians(22.5 + 45 * i)))
        for i in range(8)
    ]
    mdraw.polygon(pts, fill=255)
    draw.polygon(pts, fill=(255, 255, 255))
    inner = [
        (
            c + c * 0.82 * math.cos(math.radians(22.5 + 45 * i)),
            c + c * 0.82 * math.sin(math.radians(22.5 + 45 * i)),
        )
        for i in range(8)
    ]
    draw.polygon(inner, fill=colour)
    bar = d * 0.12
    draw.rectangle((c - c * 0.55, c - bar, c + c * 0.55, c + bar), fill=(255, 255, 255))
    return _finish(img, mask)


@lru_cache(maxsize=8192)
@font_locked
def label(text: str, size: int, colour: RGB, bold: bool = False) -> tuple[Image.Image, tuple[int, int]]:
    """A line of text as an RGBA sprite, plus the offset of its top-left from the text's origin.

    Edge labels and legend lines repeat from one render to the next; pasting a cached sprite is
    several times cheaper than rasterising the glyphs again.
    """
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text, anchor="lm")
    width, height = max(1, math.ceil(right - left)), max(1, math.ceil(bottom - top))
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=f, anchor="lm")
    img = Image.new("RGBA", (width, height), (*colour, 0))
    img.putalpha(mask)
    return img, (math.floor(left), math.floor(top))


def text(
    canvas: Image.Image,
    xy: tuple[float, float],
    value: str,
    size: int,
    colour: RGB,
    *,
    bold: bool = False,
    centre: bool = False,
) -> None:
    """Draw text with its left edge (or, with ``centre``, its middle) at ``xy``, vertically centred."""
    if not value:
        return
    img, (dx, dy) = label(value, size, colour, bold)
    x = round(xy[0] - img.width / 2) if centre else round(xy[0]) + dx
    canvas.paste(img, (x, round(xy[1]) + dy), img)


def paste(canvas: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste a sprite centred on a pixel position."""
    w, h = sprite.size
    canvas.paste(sprite, sprite_box(centre, w, h)[:2], sprite)


def sprite_box(centre: tuple[float, float], width: int, height: int) -> tuple[int, int, int, int]:
    """Pixel box (left, top, right, bottom) of a ``width`` x ``height`` sprite centred on ``centre``."""
    left = round(centre[0]) - width // 2
    top = round(centre[1]) - height // 2
    return left, top, left + width, top + height
