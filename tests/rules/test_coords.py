"""Coordinates as SPEC §2: letters for columns, numbers from 1 for rows, errors for bad or off-map labels."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.coords import column_index, column_letters, format_coord, parse_coord, parse_path
from rules.errors import InputError


@pytest.mark.parametrize(
    ("label", "coord"),
    [
        # SPEC §2: "`C4` is column index 2, row index 3"
        ("C4", (2, 3)),
        ("A1", (0, 0)),
        ("Z1", (25, 0)),
        ("AA1", (26, 0)),
        ("AB10", (27, 9)),
        ("CV100", (99, 99)),
        # SPEC §2: "Input is case-insensitive"
        ("c4", (2, 3)),
        (" aa12 ", (26, 11)),
    ],
)
def test_parse(label, coord):
    assert parse_coord(label) == coord


def test_output_is_upper_case():
    assert format_coord(parse_coord("ab7")) == "AB7"


@pytest.mark.parametrize("label", ["", "C", "4", "C0", "4C", "C-1", "C4.5", "ABCD1", "ÄB2"])
def test_malformed_labels_are_input_errors(label):
    with pytest.raises(InputError):
        parse_coord(label)


@pytest.mark.parametrize("label", ["F1", "A6", "CV100"])
def test_off_map_is_a_user_error_not_a_crash(label):
    # SPEC §2: "A coordinate off the map is a user error, not a crash."
    with pytest.raises(InputError, match="off the map"):
        parse_coord(label, 5, 5)


def test_parse_path():
    assert parse_path("C3 d4, E5") == [(2, 2), (3, 3), (4, 4)]
    with pytest.raises(InputError):
        parse_path("  ")


@given(st.integers(0, 99), st.integers(0, 99))
def test_round_trip(col, row):
    assert parse_coord(format_coord((col, row))) == (col, row)
    assert column_index(column_letters(col)) == col
