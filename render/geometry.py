"""Pixel geometry of a rendered map: where each square or hex sits in the image.

Square maps: cell ``(c, r)`` of a region starting at ``first`` spans ``cell`` pixels from
``origin + (c - first_c, r - first_r) * cell``. Hex maps (flat-topped, odd-q, SPEC §2): ``cell`` is
the circumradius R; columns are 1.5 R apart, rows sqrt(3) R apart, odd columns half a row lower.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.coords import Coord

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)

MARGIN_X = 32
"""Pixels left and right of the grid, where the row numbers go."""
MARGIN_Y = 22
"""Pixels above and below the grid, where the column letters go."""
ORIGIN: tuple[int, int] = (MARGIN_X, MARGIN_Y)
"""Top-left pixel of the grid area (the legend goes below the grid)."""

SQUARE_CELL = (24, 48)
"""Smallest and largest square side in pixels."""
HEX_RADIUS = (14, 28)
"""Smallest and largest hex circumradius in pixels."""
MAX_GRID_PX = 960
"""Largest grid side (pixels) before the cell size drops to its minimum."""

SIZE_SPACE: dict[str, int] = {"large": 2, "huge": 3, "gargantuan": 4, "colossal": 6}
"""dnd35 size -> squares per side of its space (SPEC §7.1); anything else takes one square."""
SHARED_SIZES = frozenset({"fine", "diminutive", "tiny"})
"""dnd35 sizes that share a square with others (drawn smaller)."""


def square_centre(coord: Coord, cell: int, origin: tuple[int, int] = ORIGIN, first: Coord = (0, 0)) -> Point:
    """Pixel centre of a square."""
    return (
        origin[0] + (coord[0] - first[0] + 0.5) * cell,
        origin[1] + (coord[1] - first[1] + 0.5) * cell,
    )


def hex_centre(coord: Coord, radius: int, origin: tuple[int, int] = ORIGIN, first: Coord = (0, 0)) -> Point:
    """Pixel centre of a flat-topped odd-q hex (odd columns half a hex lower)."""
    col, row = coord
    height = SQRT3 * radius
    return (
        origin[0] + radius + 1.5 * radius * (col - first[0]),
        origin[1] + height * (row - first[1] + 0.5 + 0.5 * (col & 1)),
    )


def space(size: str | None) -> int:
    """Squares per side of a dnd35 creature's space; 1 for every other ruleset."""
    return SIZE_SPACE.get(size or "", 1)


@dataclass(frozen=True)
class Layout:
    """Where the grid of one rendered image sits: cell size, the region shown and the origin."""

    hexes: bool
    cell: int  # square side, or hex circumradius
    first: Coord  # top-left coordinate of the region shown
    cols: int
    rows: int
    origin: tuple[int, int] = ORIGIN

    # -- cells -----------------------------------------------------------------------------------

    def centre(self, coord: Coord) -> Point:
        """Pixel centre of a square or hex."""
        if self.hexes:
            return hex_centre(coord, self.cell, self.origin, self.first)
        return square_centre(coord, self.cell, self.origin, self.first)

    def polygon(self, coord: Coord) -> list[Point]:
        """Corners of a square or hex (clockwise from the right-hand corner for hexes)."""
        x, y = self.centre(coord)
        if self.hexes:
            r = self.cell
            return [
                (x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
                for a in range(0, 360, 60)
            ]
        h = self.cell / 2
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]

    def contains(self, coord: Coord) -> bool:
        """True if the coordinate is inside the region shown."""
        return (
            self.first[0] <= coord[0] < self.first[0] + self.cols
            and self.first[1] <= coord[1] < self.first[1] + self.rows
        )

    @property
    def pitch(self) -> float:
        """Distance between the centres of two neighbouring cells in a row (squares) or column (hexes)."""
        return SQRT3 * self.cell if self.hexes else float(self.cell)

    @property
    def grid_size(self) -> tuple[int, int]:
        """Width and height of the grid area in pixels."""
        if self.hexes:
            r = self.cell
            width = 1.5 * r * (self.cols - 1) + 2 * r
            height = SQRT3 * r * (self.rows + (0.5 if self.cols > 1 or self.first[0] & 1 else 0))
            return math.ceil(width), math.ceil(height)
        return self.cell * self.cols, self.cell * self.rows

    @property
    def image_size(self) -> tuple[int, int]:
        """Width and height of the grid plus its label margins."""
        w, h = self.grid_size
        return w + 2 * self.origin[0], h + 2 * self.origin[1]

    # -- things drawn in a cell ------------------------------------------------------------------

    @property
    def token_diameter(self) -> int:
        """Diameter of a one-cell token."""
        return round(self.pitch * 0.84)

    @property
    def marker_diameter(self) -> int:
        """Diameter of a numbered reaction marker."""
        return max(14, round(self.pitch * 0.46))

    def marker_centre(self, coord: Coord, slot: int = 0) -> tuple[int, int]:
        """Integer pixel centre of the ``slot``-th reaction marker in a cell: the first sits in the
        upper-right part of the cell, the second below it, further pairs step left, so none hides
        another and they read top to bottom."""
        x, y = self.centre(coord)
        d = self.marker_diameter
        half = self.pitch / 2
        across, down = slot // 2, slot % 2
        mx = x + half - d / 2 - across * (d + 1) - (0.22 * self.cell if self.hexes else 0)
        my = y - half + d / 2 + down * (d + 1)
        return round(mx), round(my)

    def corner_point(self, coord: Coord, dx: float, dy: float) -> tuple[int, int]:
        """An integer pixel at a fraction (dx, dy) of the half-pitch from the cell centre."""
        x, y = self.centre(coord)
        half = self.pitch / 2
        return round(x + dx * half), round(y + dy * half)
