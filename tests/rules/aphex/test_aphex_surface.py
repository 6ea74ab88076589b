"""The `aphex` ruleset's other surface: registration, `threatened`, the `/provokes` catalogue, purity."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from aphex_support import SEED, archer, encounter, traveller

from rules import catalogue, hexgrid
from rules.aphex import RULESET
from rules.aphex.model import AphexCombatant, AphexEncounter
from rules.coords import format_coord, parse_coord
from rules.rulesets import get_ruleset


def test_registered():
    assert get_ruleset("aphex") is RULESET
    assert RULESET.name == "aphex"
    assert RULESET.modes == ("normal",)
    assert RULESET.encounter_model is AphexEncounter
    assert RULESET.combatant_model is AphexCombatant


def labels(hexes):
    return sorted(format_coord(h) for h in hexes)


def test_threatened_is_the_range_on_an_open_map():
    enc = encounter(archer("Orc", "E5", range=2), traveller("A1"))
    hexes = RULESET.threatened(enc, "Orc")
    assert len(hexes) == 18  # the 19 hexes within 2, less its own
    assert hexes == {h for h in hexgrid.within(parse_coord("E5"), 2)} - {parse_coord("E5")}


def test_threatened_uses_the_polearm_reach_and_the_map_edge():
    enc = encounter({"name": "Orc", "at": "A1", "weapon": "polearm", "reach": 1, "range": 9})
    assert labels(RULESET.threatened(enc, "Orc")) == ["A2", "B1"]


def test_threatened_respects_line_of_effect():
    # SPEC §3: blocked hexes "also block line of effect (cover)". From E5 the wall at E4 hides E3 and E2.
    enc = encounter(archer("Orc", "E5", range=3), blocked=("E4",))
    hexes = labels(RULESET.threatened(enc, "Orc"))
    assert "E4" not in hexes and "E3" not in hexes and "E2" not in hexes
    assert "E6" in hexes and "D4" in hexes


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"weapon": "melee"}, id="melee"),
        pytest.param({"loaded": False}, id="unloaded"),
        pytest.param({"in_hand": False}, id="not-in-hand"),
        pytest.param({"conditions": ["stunned"]}, id="stunned"),
        pytest.param({"conditions": ["engaged"]}, id="engaged"),
        pytest.param({"weapon": "natural", "natural_barred": True}, id="natural-barred"),
    ],
)
def test_threatened_empty_when_it_cannot_interrupt(fields):
    enc = encounter(archer("Orc", "E5", **fields))
    assert RULESET.threatened(enc, "Orc") == frozenset()


def test_threatened_with_foes_adjacent():
    # Next to one foe it can still interrupt that foe; next to two it is engaged whoever travels.
    one = encounter(archer("Orc", "E5"), traveller("E6"))
    assert RULESET.threatened(one, "Orc")
    two = encounter(archer("Orc", "E5"), traveller("E6"), {"name": "Pal", "side": "party", "at": "E4"})
    assert RULESET.threatened(two, "Orc") == frozenset()


@pytest.mark.parametrize(
    ("asked", "action", "provokes"),
    [
        ("move", "move", "sometimes"),
        ("Interrupted movement", "move", "sometimes"),
        ("shoot", "fire-missile", "no"),
        ("cast spell", "cast-spell", "no"),
        ("use wand", "use-wand", "no"),
        ("natural ability", "use-natural-ability", "no"),
        ("reload", "reload", "no"),
        ("melee attack", "melee-attack", "no"),
    ],
)
def test_catalogue_lookup(asked, action, provokes):
    entry = catalogue.lookup("aphex", asked)
    assert (entry.action, entry.provokes) == (action, provokes)


def test_catalogue_entries_quote_the_seed():
    names = [e.action for e in RULESET.catalogue]
    assert len(names) == len(set(names))
    seed_file = Path("/work/shared/seeds") / SEED  # outside the repo: checked where it exists
    seed_text = seed_file.read_text() if seed_file.exists() else None
    for entry in RULESET.catalogue:
        assert "000_700d95b3c74e1117.txt" in entry.source
        if seed_text is not None:
            quoted = entry.source.split('"')[1::2]
            assert quoted, entry.action
            for words in quoted:
                assert words.rstrip(".") in seed_text, words


def test_rules_aphex_is_pure():
    # STYLE 1: rules/ imports nothing from discord, aiosqlite, asyncio or storage.
    forbidden = {"discord", "aiosqlite", "asyncio", "storage", "bot", "cogs"}
    folder = Path(__file__).resolve().parents[3] / "rules" / "aphex"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert not roots & forbidden, (path.name, roots)
