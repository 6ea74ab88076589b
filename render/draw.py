"""Draw an encounter as a PNG: the grid, terrain, tokens, a threat overlay and a ruling's path.

Pure: an encounter (and optionally a ruling and a set of threatened cells) in, PNG bytes out. No
I/O and no Discord, so the bot can run it in a worker thread.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from PIL import Image, ImageDraw

from render import legend, palette, sprites
from render.geometry import HEX_RADIUS, MAX_GRID_PX, SHARED_SIZES, SQRT3, SQUARE_CELL, Layout, space
from render.palette import RGB
from render.scene import (
    Marker,
    ap_boundaries,
    focus_names,
    footprint,
    initials,
    interest,
    is_hex,
    reaction_markers,
    ruling_path,
    stop_coord,
)
from rules.coords import Coord, column_letters
from rules.engine import Ruling
from rules.model import Encounter

Region = tuple[Coord, Coord]
"""Top-left and bottom-right cells (inclusive) of the part of the map to draw."""

MIN_VIEW = 16
"""Smallest cropped view, in cells per side."""
VIEW_MARGIN = 4
"""Cells shown around the region of interest when a big map is cropped."""
MIN_WIDTH = 520
"""Narrowest image, so the legend stays readable on small maps."""
PNG_LEVEL = 3
"""zlib level: flat colours compress well even at low levels, and encoding is most of the time."""

FACING_ANGLE = {"N": -90.0, "NE": -30.0, "SE": 30.0, "S": 90.0, "SW": 150.0, "NW": 210.0}
"""Screen angle (degrees, y down) of each hex side of a flat-topped hex."""


@dataclass
class Rendered:
    """A drawn map: the image, the grid geometry used, and what was numbered."""

    image: Image.Image
    layout: Layout
    markers: list[Marker] = field(default_factory=list)
    initials: dict[str, str] = field(default_factory=dict)
    colours: dict[str, RGB] = field(default_factory=dict)

    def png(self) -> bytes:
        """The image as PNG bytes."""
        out = io.BytesIO()
        self.image.save(out, format="PNG", compress_level=PNG_LEVEL)
        return out.getvalue()


# -- planning ------------------------------------------------------------------------------------


def _cell_size(hexes: bool, cols: int, rows: int) -> int:
    if hexes:
        lo, hi = HEX_RADIUS
        fit = min(MAX_GRID_PX / (1.5 * cols + 0.5), MAX_GRID_PX / (SQRT3 * (rows + 0.5)))
    else:
        lo, hi = SQUARE_CELL
        fit = MAX_GRID_PX / max(cols, rows)
    return int(max(lo, min(hi, fit)))


def _fits(hexes: bool, cols: int, rows: int) -> bool:
    cell = HEX_RADIUS[0] if hexes else SQUARE_CELL[0]
    w = (1.5 * cols + 0.5) * cell if hexes else cols * cell
    h = SQRT3 * (rows + 0.5) * cell if hexes else rows * cell
    return max(w, h) <= MAX_GRID_PX


def _auto_region(encounter: Encounter, cells: set[Coord]) -> Region | None:
    width, height = encounter.map.width, encounter.map.height
    if _fits(is_hex(encounter), width, height) or not cells:
        return None

    def span(lo: int, hi: int, size: int) -> tuple[int, int]:
        lo, hi = lo - VIEW_MARGIN, hi + VIEW_MARGIN
        short = MIN_VIEW - (hi - lo + 1)
        if short > 0:
            lo -= short // 2
            hi += short - short // 2
        if lo < 0:
            hi, lo = hi - lo, 0
        if hi >= size:
            lo, hi = max(0, lo - (hi - size + 1)), size - 1
        return lo, hi

    c0, c1 = span(min(c for c, _ in cells), max(c for c, _ in cells), width)
    r0, r1 = span(min(r for _, r in cells), max(r for _, r in cells), height)
    if (c1 - c0 + 1) > 0.7 * width and (r1 - r0 + 1) > 0.7 * height:
        return None  # most of the map anyway: show all of it
    return (c0, r0), (c1, r1)


def plan(
    encounter: Encounter,
    *,
    threatened: Iterable[Coord] = (),
    ruling: Ruling | None = None,
    focus: str | Coord | None = None,
    region: Region | Literal["full"] | None = None,
    cell: int | None = None,
) -> Layout:
    """The grid geometry `render` will use for these arguments.

    ``region``: None = the whole map if it fits at a readable size, else the region of interest
    (the ruling's path and reactors, the focus, the threatened cells) plus a margin; ``"full"`` =
    always the whole map; or explicit corners. ``cell`` overrides the automatic cell size.
    """
    hexes = is_hex(encounter)
    if region is None:
        region = _auto_region(encounter, interest(encounter, threatened, ruling, focus))
    if region is None or region == "full":
        first, cols, rows = (0, 0), encounter.map.width, encounter.map.height
    else:
        (c0, r0), (c1, r1) = region
        c0, c1 = sorted((max(0, c0), min(encounter.map.width - 1, c1)))
        r0, r1 = sorted((max(0, r0), min(encounter.map.height - 1, r1)))
        first, cols, rows = (c0, r0), c1 - c0 + 1, r1 - r0 + 1
    size = cell if cell is not None else _cell_size(hexes, cols, rows)
    return Layout(hexes=hexes, cell=size, first=first, cols=cols, rows=rows)


# -- drawing -------------------------------------------------------------------------------------


def _cells(layout: Layout) -> list[Coord]:
    c0, r0 = layout.first
    return [(c, r) for r in range(r0, r0 + layout.rows) for c in range(c0, c0 + layout.cols)]


def _terrain(
    pen: ImageDraw.ImageDraw, layout: Layout, encounter: Encounter, threatened: frozenset[Coord]
) -> None:
    blocked = encounter.map.blocked_set()
    difficult = encounter.map.difficult_set()

    def base(coord: Coord) -> RGB:
        colour = (
            palette.BLOCKED
            if coord in blocked
            else palette.DIFFICULT
            if coord in difficult
            else palette.FLOOR
        )
        return palette.tinted(colour) if coord in threatened else colour

    dot = max(1.5, layout.pitch * 0.05)
    if layout.hexes:
        for coord in _cells(layout):
            pen.polygon(layout.polygon(coord), fill=base(coord), outline=palette.GRID)
    else:
        w, h = layout.grid_size
        ox, oy = layout.origin
        pen.rectangle((ox, oy, ox + w - 1, oy + h - 1), fill=palette.FLOOR)
        for coord in blocked | difficult | threatened:
            if layout.contains(coord):
                x0, y0 = layout.polygon(coord)[0]
                pen.rectangle((x0, y0, x0 + layout.cell - 1, y0 + layout.cell - 1), fill=base(coord))
        for i in range(layout.cols + 1):
            x = ox + i * layout.cell
            pen.line((x, oy, x, oy + h), fill=palette.GRID)
        for j in range(layout.rows + 1):
            y = oy + j * layout.cell
            pen.line((ox, y, ox + w, y), fill=palette.GRID)
    # Difficult ground also gets dots near its corners, so it reads without colour too.
    for coord in difficult:
        if layout.contains(coord):
            for dx, dy in ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)):
                x, y = layout.corner_point(coord, dx, dy)
                pen.ellipse((x - dot, y - dot, x + dot, y + dot), fill=palette.DIFFICULT_MARK)


def _edge_labels(image: Image.Image, layout: Layout) -> None:
    size = max(10, min(14, round(layout.pitch * 0.42)))
    ox, oy = layout.origin
    w, h = layout.grid_size
    c0, r0 = layout.first
    for col in range(c0, c0 + layout.cols):
        x, _ = layout.centre((col, r0))
        name = column_letters(col)
        sprites.text(image, (x, oy / 2), name, size, palette.LABEL, centre=True)
        sprites.text(image, (x, oy + h + oy / 2), name, size, palette.LABEL, centre=True)
    # Row numbers sit level with the nearest column's hexes: an even (higher) one on each side.
    left_col = c0 + (1 if layout.hexes and c0 & 1 and layout.cols > 1 else 0)
    right_col = c0 + layout.cols - 1
    for row in range(r0, r0 + layout.rows):
        number = str(row + 1)
        _, y = layout.centre((left_col, row))
        sprites.text(image, (ox / 2, y), number, size, palette.LABEL, centre=True)
        _, y = layout.centre((right_col, row))
        sprites.text(image, (ox + w + ox / 2, y), number, size, palette.LABEL, centre=True)


def _path(pen: ImageDraw.ImageDraw, layout: Layout, ruling: Ruling, stop: Coord | None) -> None:
    path = ruling_path(ruling)
    if not path:
        return
    colour = palette.PATH if ruling.legal else palette.PATH_ILLEGAL
    points = [layout.centre(c) for c in path]
    cut = path.index(stop) if stop in path else len(path) - 1
    width = max(3, round(layout.pitch / 9))
    if cut < len(path) - 1:
        pen.line(points[cut:], fill=palette.PATH_FADED, width=width, joint="curve")
    if cut > 0:
        pen.line(points[: cut + 1], fill=colour, width=width, joint="curve")
    dot = max(3, layout.pitch * 0.09)
    for i, (x, y) in enumerate(points):
        fill = colour if i <= cut else palette.PATH_FADED
        pen.ellipse((x - dot, y - dot, x + dot, y + dot), fill=fill)
    # An arrowhead into the last square actually reached.
    if cut > 0:
        (ax, ay), (bx, by) = points[cut - 1], points[cut]
        angle = math.atan2(by - ay, bx - ax)
        size = layout.pitch * 0.3
        tip = (bx - math.cos(angle) * layout.pitch * 0.12, by - math.sin(angle) * layout.pitch * 0.12)
        back = [
            (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45)),
            (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45)),
        ]
        pen.polygon([tip, *back], fill=colour)


def _tokens(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    layout: Layout,
    encounter: Encounter,
    texts: dict[str, str],
    colours: dict[str, RGB],
    focus: set[str],
) -> None:
    # Big creatures first so small ones stay visible on top; the rest keep file order.
    order = sorted(encounter.combatants, key=lambda c: -space(getattr(c, "size", None)))
    shared: dict[Coord, list[Any]] = {}
    for c in order:
        if space(getattr(c, "size", None)) == 1:
            shared.setdefault(c.pos, []).append(c)
    pitch = layout.pitch
    for c in order:
        cells = footprint(c)
        if not any(layout.contains(cell) for cell in cells):
            continue
        n = space(getattr(c, "size", None))
        if n > 1:
            (x0, y0), (x1, y1) = layout.centre(cells[0]), layout.centre(cells[-1])
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            diameter = round(n * pitch - 0.16 * pitch)
        else:
            group = shared[c.pos]
            centre = layout.centre(c.pos)
            diameter = layout.token_diameter
            if getattr(c, "size", None) in SHARED_SIZES:
                diameter = round(diameter * 0.62)
            if len(group) > 1:
                k = group.index(c)
                turn = math.radians(-135 + 360 * k / len(group))
                spread = pitch * (0.25 if len(group) <= 4 else 0.3)
                centre = (centre[0] + spread * math.cos(turn), centre[1] + spread * math.sin(turn))
                diameter = round(layout.token_diameter * (0.5 if len(group) <= 4 else 0.36))
        facing = getattr(c, "facing", None)
        angle = FACING_ANGLE.get(facing) if isinstance(facing, str) and layout.hexes else None
        canvas = round(diameter * 1.45) if angle is not None else diameter + 2
        if c.name in focus:
            r = diameter / 2 + max(3, pitch * 0.08)
            ring = (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
            width = max(3, round(pitch / 12))
            if n > 1:
                pen.rounded_rectangle(ring, round(pitch * 0.3), outline=palette.FOCUS, width=width)
            else:
                pen.ellipse(ring, outline=palette.FOCUS, width=width)
        sprite = sprites.token(
            texts[c.name],
            colours[c.side],
            diameter,
            canvas,
            square=n > 1,
            invisible=c.has("invisible"),
            out=any(c.has(k) for k in palette.OUT_OF_ACTION),
            facing=angle,
            corner=round(pitch * 0.22) if n > 1 else 0,
            text_max=round(pitch * 0.6) if n > 1 else 0,
        )
        sprites.paste(image, sprite, centre)
        badges = [palette.CONDITION_BADGES[k] for k in c.conditions if k in palette.CONDITION_BADGES]
        size = max(11, round(min(diameter, layout.token_diameter) * 0.42))
        for i, (letter, colour) in enumerate(badges):
            bx = centre[0] + diameter * 0.36 - i * (size - 2)
            by = centre[1] - diameter * 0.36
            sprites.paste(image, sprites.badge(letter, colour, size), (bx, by))


def _overlays(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    layout: Layout,
    encounter: Encounter,
    ruling: Ruling,
    markers: list[Marker],
    stop: Coord | None,
) -> None:
    if stop is not None and layout.contains(stop):
        pen.polygon(layout.polygon(stop), outline=palette.STOP, width=max(3, round(layout.pitch / 10)))
        size = max(12, round(layout.pitch * 0.36))
        sprites.paste(image, sprites.octagon(palette.STOP, size), layout.corner_point(stop, 0.45, 0.45))
    ap_size = max(13, round(layout.pitch * 0.4))
    for k, coord in ap_boundaries(encounter, ruling):
        if layout.contains(coord):
            sprites.paste(
                image, sprites.diamond(str(k), palette.AP, ap_size), layout.corner_point(coord, -0.5, 0.45)
            )
    slots: dict[Coord, int] = {}
    for m in markers:
        if m.coord is None or not layout.contains(m.coord):
            continue
        slot = slots.get(m.coord, 0)
        slots[m.coord] = slot + 1
        sprites.paste(
            image, sprites.marker(str(m.number), layout.marker_diameter), layout.marker_centre(m.coord, slot)
        )


# -- entry points --------------------------------------------------------------------------------


def render(
    encounter: Encounter,
    *,
    threatened: Iterable[Coord] = (),
    ruling: Ruling | None = None,
    focus: str | Coord | None = None,
    region: Region | Literal["full"] | None = None,
    cell: int | None = None,
) -> Rendered:
    """Draw the map; `Rendered.png()` gives the bytes. Arguments as `draw`."""
    threat = frozenset(c for c in threatened if encounter.map.contains(c))
    layout = plan(encounter, threatened=threat, ruling=ruling, focus=focus, region=region, cell=cell)
    texts = initials([c.name for c in encounter.combatants])
    colours = palette.side_colours(c.side for c in encounter.combatants)
    markers = reaction_markers(encounter, ruling) if ruling is not None else []
    stop = stop_coord(ruling) if ruling is not None else None
    sections = legend.build(encounter, layout, threat, ruling, focus, markers, texts, colours)
    map_w, map_h = layout.image_size
    width = max(map_w, MIN_WIDTH)
    image = Image.new("RGB", (width, map_h + legend.height(sections, width)), palette.PAPER)
    pen = ImageDraw.Draw(image)
    _terrain(pen, layout, encounter, threat)
    _edge_labels(image, layout)
    if ruling is not None:
        _path(pen, layout, ruling, stop)
    focused = set(focus_names(encounter, focus)) if isinstance(focus, str) else set()
    _tokens(image, pen, layout, encounter, texts, colours, focused)
    if isinstance(focus, tuple) and layout.contains(focus):
        # A focused cell (`/threatens at C3`): a bold outline around it.
        pen.polygon(layout.polygon(focus), outline=palette.FOCUS, width=max(3, round(layout.pitch / 10)))
    if ruling is not None:
        _overlays(image, pen, layout, encounter, ruling, markers, stop)
    legend.draw(image, map_h, sections)
    return Rendered(image, layout, markers, texts, colours)


def draw(
    encounter: Encounter,
    *,
    threatened: Iterable[Coord] = (),
    ruling: Ruling | None = None,
    focus: str | Coord | None = None,
    region: Region | Literal["full"] | None = None,
    cell: int | None = None,
) -> bytes:
    """The encounter as PNG bytes.

    ``threatened``: cells to tint (see `threat_overlay`); ``ruling``: draw its path, numbered
    reaction markers (`reaction_markers`), dragonquest ``stop_at`` and aphex AP boundaries;
    ``focus``: a combatant or side to ring (and keep in view), or a cell to keep in view;
    ``region``/``cell``: see `plan`.
    """
    return render(
        encounter, threatened=threatened, ruling=ruling, focus=focus, region=region, cell=cell
    ).png()
