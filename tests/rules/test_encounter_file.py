"""The encounter file of SPEC §3: load YAML or JSON, validation messages, byte-stable export, schema."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.coords import format_coord
from rules.encounter_file import MAX_FILE_BYTES, export_json, export_yaml, json_schema, load_text
from rules.errors import EncounterFileError

HEAD = "ruleset: dnd35\nmap: {width: 5, height: 5}\ncombatants:\n"
SPEC_EXAMPLE = """\
ruleset: dnd35            # dnd35 | aphex | dragonquest
map:
  width: 12               # columns
  height: 10              # rows
  blocked: [E5, E6]       # impassable squares/hexes; they also block line of effect (cover)
  difficult: [C3]         # difficult terrain
round: 1
initiative: [Ethan, Ogre] # turn order; optional
turn: Ethan               # whose turn it is; optional
settings:
  prompt_timeout: 120
  on_timeout: decline
  variants: []
  aoo_reset: turn
combatants:
  - name: Ethan
    side: party
    player: 123456789012345678
    at: B2
    conditions: []
  - name: Ogre
    side: monsters
    at: g7
    size: large
    reach_weapon: yes
    feats: [combat_reflexes]
    dex: 2
"""


def test_loads_the_spec_example():
    enc = load_text(SPEC_EXAMPLE)
    assert enc.ruleset == "dnd35" and enc.map.blocked == ["E5", "E6"]
    ogre = enc.get("Ogre")
    assert (ogre.at, ogre.size, ogre.reach_weapon, ogre.dex) == ("G7", "large", True, 2)
    assert enc.get("Ethan").player == 123456789012345678


def test_yaml_and_json_round_trip_byte_for_byte():
    enc = load_text(SPEC_EXAMPLE)
    text = export_yaml(enc)
    again = load_text(text)
    assert again == enc and export_yaml(again) == text
    as_json = export_json(enc)
    assert load_text(as_json) == enc and export_json(load_text(as_json)) == as_json
    assert json.loads(as_json)["combatants"][1] == {
        "name": "Ogre",
        "side": "monsters",
        "at": "G7",
        "conditions": [],
        "size": "large",
        "reach_weapon": True,
        "dex": 2,
        "feats": ["combat_reflexes"],
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            HEAD + "  - {name: Ogre, side: m, at: B2, size: enormous}\n",
            "combatant 'Ogre': size:",
        ),
        (
            HEAD + "  - {name: Ogre, side: m, at: F2}\n",
            "combatant 'Ogre': at F2 is off the map",
        ),
        (
            HEAD + "  - {name: Ogre, side: m, at: B2, speed: 33}\n",
            "combatant 'Ogre': speed: Input should be a multiple of 5",
        ),
        (
            HEAD + "  - {name: Ogre, side: m, at: B2, feats: [flying]}\n",
            "combatant 'Ogre': feats.0",
        ),
        (
            HEAD + "  - {name: Ogre, side: m, at: B2, conditions: [sad]}\n",
            "unknown condition 'sad'",
        ),
        ("ruleset: dnd35\nmap: {width: 5, height: 5, blocked: [Z9]}\n", "`Z9` is off the map"),
        ("ruleset: chess\nmap: {width: 5, height: 5}\n", "ruleset: must be one of dnd35, aphex, dragonquest"),
        ("ruleset: [\n", "not valid YAML or JSON at line 2"),
        ("a: &x [1]\nb: *x\n", "aliases"),
        (
            "ruleset: dnd35\nmap: {width: 5, height: 5}\ncombatants:\n  - {name: Ogre, side: m, at: B2}\n"
            "  - {name: ogre, side: m, at: C2}\n",
            "used twice",
        ),
        ("ruleset: dnd35\nmap: {width: 5, height: 5}\nsettings: {variants: [gritty]}\n", "unknown variant"),
        ("ruleset: dnd35\nmap: {width: 101, height: 5}\n", "map.width"),
    ],
    ids=[
        "bad-size",
        "off-map",
        "speed-multiple",
        "unknown-feat",
        "unknown-condition",
        "blocked-off-map",
        "unknown-ruleset",
        "syntax",
        "alias",
        "duplicate-name",
        "unknown-variant",
        "map-too-wide",
    ],
)
def test_validation_messages_name_the_field_and_combatant(text, message):
    with pytest.raises(EncounterFileError) as err:
        load_text(text)
    assert message in err.value.message


def test_file_size_limit():
    with pytest.raises(EncounterFileError, match="1 MB"):
        load_text(b"#" * (MAX_FILE_BYTES + 1))


def test_schema_lists_every_ruleset():
    schema = json_schema()
    assert schema["title"] == "Opportunist encounter file"
    text = json.dumps(schema)
    for name in ("Dnd35Encounter", "dnd35", "aphex", "dragonquest"):
        assert name in text


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 11),
            st.integers(0, 9),
            st.sampled_from(["tiny", "medium", "large"]),
            st.booleans(),
            st.integers(0, 4),
        ),
        max_size=6,
        unique_by=lambda t: (t[0], t[1]),
    )
)
def test_load_export_load_is_identity(rows):
    combatants = [
        {
            "name": f"C{i}",
            "side": "a" if i % 2 else "b",
            "at": format_coord((x, y)),
            "size": size,
            "reach_weapon": rw,
            "dex": dex,
        }
        for i, (x, y, size, rw, dex) in enumerate(rows)
    ]
    data = {"ruleset": "dnd35", "map": {"width": 12, "height": 10}, "combatants": combatants}
    enc = load_text(json.dumps(data))
    text = export_yaml(enc)
    assert load_text(text) == enc
    assert export_yaml(load_text(text)) == text
