"""Map labels as SPEC §2: columns are letters (A..Z, AA..), rows are numbers from 1 at the top."""

from __future__ import annotations

import re

from rules.errors import InputError

Coord = tuple[int, int]
"""(column index, row index), both from 0: ``C4`` is ``(2, 3)``."""

MAX_SIDE = 100

_LABEL = re.compile(r"^\s*([A-Za-z]{1,3})\s*([0-9]{1,4})\s*$")


def column_letters(index: int) -> str:
    """Spreadsheet-style column name of a 0-based column index (0 -> A, 26 -> AA)."""
    letters = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """0-based column index of a column name (case-insensitive)."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def format_coord(coord: Coord) -> str:
    """Upper-case label of a coordinate: ``(2, 3)`` -> ``C4``."""
    return f"{column_letters(coord[0])}{coord[1] + 1}"


def parse_coord(label: str, width: int | None = None, height: int | None = None) -> Coord:
    """Parse a label like ``c4``; with a map size, a label off the map is an `InputError`."""
    match = _LABEL.match(label) if isinstance(label, str) else None
    if match is None:
        shown = str(label)[:20]
        raise InputError(f"`{shown}` is not a square: use a column letter and a row number, like `C4`.")
    col = column_index(match.group(1))
    row = int(match.group(2)) - 1
    if row < 0:
        raise InputError(f"`{match.group(0).strip()}` has row 0: rows start at 1.")
    coord = (col, row)
    if width is not None and height is not None and not (col < width and row < height):
        raise InputError(
            f"`{format_coord(coord)}` is off the map: it runs from A1 to "
            f"{format_coord((width - 1, height - 1))}."
        )
    return coord


def parse_path(text: str, width: int | None = None, height: int | None = None) -> list[Coord]:
    """Parse squares separated by spaces or commas: ``C3 D4, E5``."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        raise InputError("Give at least one square, like `C3 D4`.")
    return [parse_coord(p, width, height) for p in parts]
