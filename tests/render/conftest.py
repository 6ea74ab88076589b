"""Helpers for the map-image tests: build encounters, decode PNGs, read pixels.

Pixel positions are computed here from the published geometry (margins, cell size and the odd-q
formula), not taken from the renderer's own helpers, so a drawing bug cannot hide behind them.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from typing import Any

import pytest
from PIL import Image

from render.geometry import MARGIN_X, MARGIN_Y
from rules.coords import parse_coord
from rules.rulesets import encounter_model

CELL = 40  # square side (dnd35) or hex circumradius the tests ask for


class Pix:
    """Encounter builders and pixel readers."""

    cell = CELL

    @staticmethod
    def enc(
        ruleset: str, combatants: list[dict[str, Any]], width: int = 12, height: int = 10, **map_: Any
    ) -> Any:
        data = {
            "ruleset": ruleset,
            "map": {"width": width, "height": height, **map_},
            "combatants": combatants,
        }
        return encounter_model(ruleset).model_validate(data)

    @staticmethod
    def image(png: bytes) -> Image.Image:
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        img = Image.open(io.BytesIO(png))
        img.load()
        return img.convert("RGB")

    @staticmethod
    def square(label: str, cell: int = CELL, first: tuple[int, int] = (0, 0)) -> tuple[int, int]:
        """Pixel centre of a square: margins plus whole cells."""
        col, row = parse_coord(label)
        return MARGIN_X + (col - first[0]) * cell + cell // 2, MARGIN_Y + (row - first[1]) * cell + cell // 2

    @staticmethod
    def hex(label: str, radius: int = CELL, first: tuple[int, int] = (0, 0)) -> tuple[int, int]:
        """Pixel centre of a flat-topped odd-q hex, written out independently of render.geometry:
        columns 1.5 R apart; rows sqrt(3) R apart; odd columns (B, D, ...) half a row lower."""
        col, row = parse_coord(label)
        x = MARGIN_X + radius + 1.5 * radius * (col - first[0])
        y = (
            MARGIN_Y
            + math.sqrt(3) * radius * (row - first[1] + 0.5)
            + (math.sqrt(3) * radius / 2 if col % 2 else 0)
        )
        return round(x), round(y)

    @staticmethod
    def at(img: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
        return img.getpixel((round(xy[0]), round(xy[1])))  # type: ignore[return-value]

    @staticmethod
    def dominant(img: Image.Image, xy: tuple[float, float], r: int = 8) -> tuple[int, int, int]:
        """The most common colour in the (2r+1)^2 patch around a pixel: a token's colour, not the
        strokes of its initials."""
        x, y = round(xy[0]), round(xy[1])
        patch = img.crop((x - r, y - r, x + r + 1, y + r + 1))
        return Counter(_pixels(patch)).most_common(1)[0][0]

    @staticmethod
    def count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
        return sum(1 for p in _pixels(img.crop(box)) if p == colour)


def _pixels(img: Image.Image) -> Any:
    flat = getattr(img, "get_flattened_data", None)  # Pillow 13 deprecates getdata
    return flat() if flat is not None else img.getdata()


@pytest.fixture
def px() -> Pix:
    return Pix()
