"""Colours of the map: terrain, overlays and a stable colour per side."""

from __future__ import annotations

import colorsys
from collections.abc import Iterable

RGB = tuple[int, int, int]

PAPER: RGB = (250, 248, 242)  # image background, margins and legend
FLOOR: RGB = (255, 255, 255)
DIFFICULT: RGB = (222, 199, 150)  # tan: rough ground
DIFFICULT_MARK: RGB = (160, 128, 70)
BLOCKED: RGB = (70, 74, 82)  # dark slate: walls and pillars
GRID: RGB = (200, 200, 205)
LABEL: RGB = (90, 90, 100)
TEXT: RGB = (30, 30, 36)
MUTED: RGB = (110, 110, 120)

THREAT: RGB = (255, 60, 0)
THREAT_ALPHA = 0.32
PATH: RGB = (110, 30, 170)
PATH_FADED: RGB = (200, 170, 225)
PATH_ILLEGAL: RGB = (150, 150, 150)
MARKER: RGB = (30, 30, 34)  # numbered reaction points: dark, so they never read as a red token
MARKER_TEXT: RGB = (255, 225, 40)
STOP: RGB = (215, 0, 0)
AP: RGB = (245, 150, 0)  # aphex action-point boundaries
FOCUS: RGB = (255, 200, 0)
BADGE_TEXT: RGB = (20, 20, 20)

# Tableau 10, reordered so the first two sides (usually party and monsters) read as blue vs red.
SIDE_PALETTE: tuple[RGB, ...] = (
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (148, 103, 189),
    (255, 127, 14),
    (140, 86, 75),
    (227, 119, 194),
    (188, 189, 34),
    (23, 190, 207),
    (127, 127, 127),
)

CONDITION_BADGES: dict[str, tuple[str, RGB]] = {
    "stunned": ("S", (255, 221, 0)),
    "prone": ("P", (240, 160, 60)),
    "flat_footed": ("F", (180, 220, 255)),
    "grappling": ("G", (255, 170, 170)),
    "blinded": ("B", (200, 200, 200)),
    "engaged": ("E", (255, 170, 170)),
    "evading": ("V", (170, 240, 170)),
}
"""Condition -> (badge letter, colour). Invisible and out-of-action conditions are drawn otherwise."""

OUT_OF_ACTION = frozenset({"dead", "unconscious", "helpless", "paralyzed", "incapacitated"})


def blend(base: RGB, over: RGB, alpha: float) -> RGB:
    """``over`` laid on ``base`` with opacity ``alpha``."""
    return (
        round(base[0] * (1 - alpha) + over[0] * alpha),
        round(base[1] * (1 - alpha) + over[1] * alpha),
        round(base[2] * (1 - alpha) + over[2] * alpha),
    )


def tinted(base: RGB) -> RGB:
    """The colour of a threatened square/hex whose own colour is ``base``."""
    return blend(base, THREAT, THREAT_ALPHA)


def side_colour(index: int) -> RGB:
    """Colour number ``index``: the palette, then golden-angle hues once it runs out."""
    if index < len(SIDE_PALETTE):
        return SIDE_PALETTE[index]
    hue = (index * 0.618033988749895) % 1.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.75, 0.8)
    return round(r * 255), round(g * 255), round(b * 255)


def side_colours(sides: Iterable[str]) -> dict[str, RGB]:
    """Colour per side: the first side met gets colour 0, the next new one colour 1, and so on."""
    out: dict[str, RGB] = {}
    for side in sides:
        if side not in out:
            out[side] = side_colour(len(out))
    return out


def text_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    luminance = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return (20, 20, 20) if luminance > 150 else (255, 255, 255)
