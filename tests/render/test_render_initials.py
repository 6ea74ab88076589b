"""Token initials: short, upper-case, unique within an encounter, stable as combatants are added."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from render import initials

NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9 '\-]{0,20}[A-Za-z0-9]", fullmatch=True)


def test_readable_initials():
    got = initials(
        ["Ethan", "Ogre", "Goblin 1", "Goblin 2", "Orc Captain", "Big Bad Wolf", "Gorgon", "Goblin"]
    )
    assert got == {
        "Ethan": "ET",
        "Ogre": "OG",
        "Goblin 1": "G1",
        "Goblin 2": "G2",
        "Orc Captain": "OC",
        "Big Bad Wolf": "BBW",
        "Gorgon": "GO",
        "Goblin": "GB",
    }


def test_clashing_names_fall_back_to_a_number():
    names = ["Aa", "aA", "AA", "a-a", "A'a"]
    got = initials(names)
    assert len(set(got.values())) == len(names)
    assert got["Aa"] == "AA"


@settings(max_examples=60, deadline=None)
@given(st.lists(NAME, min_size=1, max_size=60, unique_by=str.casefold))
def test_initials_are_unique_short_and_stable(names):
    got = initials(names)
    assert len(set(got.values())) == len(names)
    assert all(1 <= len(v) <= 3 and v == v.upper() for v in got.values())
    # Adding a combatant at the end never changes anyone else's token.
    more = initials([*names, "Zz Newcomer"])
    assert all(more[n] == got[n] for n in names)
