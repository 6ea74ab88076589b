"""The panel under the map: title, the ruling in one line, numbered reactions, sides, combatants
with full names, and a key to the symbols. Entries flow in columns across the image width."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

from render import palette, sprites
from render.palette import RGB

ROW = 20
COLUMN = 250
PAD = 10
TEXT_SIZE = 13
ICON = 14


@dataclass
class Entry:
    """One legend entry: an icon (a sprite, or None) and a line of text."""

    text: str
    icon: Image.Image | None = None
    colour: RGB = palette.TEXT


@dataclass
class Section:
    """A heading and its entries (laid out in columns), or a heading alone (a full-width line)."""

    heading: str
    entries: list[Entry] = field(default_factory=list)
    colour: RGB = palette.TEXT
    bold: bool = False
    wide: bool = False  # one entry per line (long texts such as the reactions)


def _per_row(section: Section, width: int) -> int:
    return 1 if section.wide else max(1, (width - 2 * PAD) // COLUMN)


def swatch(colour: RGB, size: int = ICON, outline: RGB = (60, 60, 60)) -> Image.Image:
    """A square swatch icon."""
    img = Image.new("RGBA", (size, size), (*outline, 255))
    img.paste((*colour, 255), (1, 1, size - 1, size - 1))
    return img


@lru_cache(maxsize=4096)
@sprites.font_locked
def _fit(text: str, width: float, bold: bool = False) -> str:
    f = sprites.font(TEXT_SIZE, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def height(sections: list[Section], width: int) -> int:
    """Pixels the legend needs at this image width."""
    rows = 0
    for s in sections:
        rows += 1 if s.heading else 0
        rows += -(-len(s.entries) // _per_row(s, width))
    return rows * ROW + 2 * PAD if rows else 0


def draw(image: Image.Image, top: int, sections: list[Section]) -> None:
    """Draw the legend on ``image`` starting at pixel row ``top``."""
    width = image.width
    y = top + PAD
    for s in sections:
        if s.heading:
            heading = _fit(s.heading, width - 2 * PAD, s.bold)
            sprites.text(image, (PAD, y + ROW // 2), heading, TEXT_SIZE, s.colour, bold=s.bold)
            y += ROW
        per_row = _per_row(s, width)
        column = width - 2 * PAD if s.wide else COLUMN
        for i, e in enumerate(s.entries):
            col, row = i % per_row, i // per_row
            x = PAD + col * column
            cy = y + row * ROW + ROW // 2
            if e.icon is not None:
                sprites.paste(image, e.icon, (x + ICON / 2, cy))
                x += ICON + 6
            room = column - (x - PAD - col * column) - 6
            sprites.text(image, (x, cy), _fit(e.text, room), TEXT_SIZE, e.colour)
        y += -(-len(s.entries) // per_row) * ROW
