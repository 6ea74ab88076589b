"""The panel under the map: title, the ruling in one line, numbered reactions, sides, combatants
with full names, and a key to the symbols. Entries flow in columns across the image width."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

from render import palette, sprites
from render.geometry import Layout
from render.palette import RGB
from render.scene import Marker, ap_boundaries, focus_names, footprint
from rules.coords import Coord, format_coord
from rules.engine import Ruling
from rules.model import Encounter

ROW = 20
COLUMN = 250
PAD = 10
TEXT_SIZE = 13
ICON = 14

TITLES = {"dnd35": "D&D 3.5", "aphex": "Action-point hex", "dragonquest": "DragonQuest"}
UNITS = {"dnd35": "ft", "aphex": "AP", "dragonquest": "hexes"}


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


def build(
    encounter: Encounter,
    layout: Layout,
    threatened: frozenset[Coord],
    ruling: Ruling | None,
    focus: str | Coord | None,
    markers: list[Marker],
    texts: dict[str, str],
    colours: dict[str, RGB],
) -> list[Section]:
    """The legend for one render: title, ruling line, overlay note, reactions, sides, combatants, key."""
    cell_word = "hexes" if layout.hexes else "squares"
    size = f"{encounter.map.width}×{encounter.map.height}"
    title = f"{TITLES.get(encounter.ruleset, encounter.ruleset)} · {size} · round {encounter.round}"
    if encounter.turn:
        title += f" · turn: {encounter.turn}"
    if (layout.cols, layout.rows) != (encounter.map.width, encounter.map.height):
        last = (layout.first[0] + layout.cols - 1, layout.first[1] + layout.rows - 1)
        title += f" · showing {format_coord(layout.first)}–{format_coord(last)}"
    out = [Section(title, bold=True)]
    if ruling is not None:
        what = ruling.act_name if ruling.action == "act" and ruling.act_name else ruling.action
        head = f"{ruling.who}: {what} ({ruling.mode})"
        if ruling.legal:
            head += f", cost {ruling.cost} {UNITS.get(encounter.ruleset, '')}".rstrip()
            if ruling.stop_at:
                head += f", must stop at {ruling.stop_at}"
            out.append(Section(head))
        else:
            out.append(Section(f"{head}: not allowed — {ruling.error or 'illegal'}", colour=palette.STOP))
    if threatened:
        names = focus_names(encounter, focus) if isinstance(focus, str) else []
        if len(names) == 1 and isinstance(focus, str) and names[0].casefold() == focus.strip().casefold():
            whose = f"the {cell_word} {names[0]} threatens"
        elif names:
            whose = f"the {cell_word} side {encounter.find(names[0]).side} threatens"
        else:
            whose = f"threatened {cell_word}"
        tint = swatch(palette.tinted(palette.FLOOR))
        out.append(Section("", [Entry(f"Tinted: {whose}", tint)], wide=True))
    if markers:
        entries = [Entry(m.label, sprites.marker(str(m.number), ICON + 2)) for m in markers]
        out.append(Section("Reactions, in order:", entries, wide=True))
    shown = [c for c in encounter.combatants if any(layout.contains(x) for x in footprint(c))]
    sides = Section(
        "Sides:",
        [Entry(s, sprites.token("", col, ICON, ICON + 2)) for s, col in colours.items()],
    )
    out.append(sides)
    entries = []
    for c in shown:
        text = f"{texts[c.name]}  {c.name}"
        if c.conditions:
            text += " · " + ", ".join(k.replace("_", " ") for k in c.conditions)
        entries.append(Entry(text, sprites.token("", colours[c.side], ICON, ICON + 2)))
    hidden = len(encounter.combatants) - len(shown)
    out.append(Section("Combatants:" + (f" ({hidden} more outside this view)" if hidden else ""), entries))
    key: list[Entry] = []
    if encounter.map.difficult:
        key.append(Entry("difficult", swatch(palette.DIFFICULT)))
    if encounter.map.blocked:
        key.append(Entry("blocked", swatch(palette.BLOCKED)))
    if ruling is not None and ruling.path:
        key.append(Entry("path", swatch(palette.PATH)))
    if ruling is not None and ruling.stop_at:
        key.append(Entry("must stop here", sprites.octagon(palette.STOP, ICON)))
    if ruling is not None and ap_boundaries(encounter, ruling):
        key.append(Entry("after AP n", sprites.diamond("n", palette.AP, ICON + 2)))
    for name, (letter, colour) in palette.CONDITION_BADGES.items():
        if any(c.has(name) for c in shown):
            key.append(Entry(name.replace("_", " "), sprites.badge(letter, colour, ICON)))
    grey = (150, 150, 150)
    if any(c.has("invisible") for c in shown):
        key.append(Entry("invisible", sprites.token("", grey, ICON, ICON + 2, invisible=True)))
    if any(c.has(k) for c in shown for k in palette.OUT_OF_ACTION):
        key.append(Entry("out of action", sprites.token("", grey, ICON, ICON + 2, out=True)))
    if key:
        out.append(Section("Key:", key))
    return out
