"""Hostile encounter files: each is one clear line of error, from `load_text` and through
`/encounter import`, and nothing changes (README limits: map <= 100x100, <= 200 combatants, names <= 32
characters, file <= 1 MB)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from rules.encounter_file import load_text
from rules.errors import EncounterFileError
from tests.cogs.flow_support import install
from tests.reliability.support import database, outcome
from tests.reliability.test_security import scenario


def _file(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "dnd35",
        "map": {"width": 12, "height": 10, "blocked": ["E5"]},
        "combatants": [
            {"name": "Ethan", "side": "party", "at": "B2"},
            {"name": "Ogre", "side": "foes", "at": "D4", "size": "large"},
        ],
    }
    data.update(changes)
    return data


def _y(data: Any) -> bytes:
    return yaml.safe_dump(data, sort_keys=False).encode()


def _many(n: int) -> bytes:
    return json.dumps(
        _file(
            map={"width": 100, "height": 100},
            combatants=[{"name": f"C{i}", "side": "s", "at": f"A{1 + i % 100}"} for i in range(n)],
        )
    ).encode()


# case id -> (file bytes, a word the message must contain)
CASES: dict[str, tuple[bytes, str]] = {
    "malformed-yaml": (b"ruleset: dnd35\nmap: {width: 12\ncombatants: []\n", "line"),
    "bad-indentation": (b"ruleset: dnd35\n  map:\n width: 3\n", "YAML"),
    "tab-indentation": (b"ruleset: dnd35\nmap:\n\twidth: 3\n", "YAML"),
    "empty-file": (b"", "mapping"),
    "a-list-not-a-mapping": (b"- ruleset\n- dnd35\n", "mapping"),
    "a-scalar": (b"42", "mapping"),
    "not-utf8": (b"ruleset: dnd35\nname: \xff\xfe\x00", "UTF-8"),
    "unknown-ruleset": (_y(_file(ruleset="pathfinder")), "ruleset"),
    "width-is-text": (_y(_file(map={"width": "twelve", "height": 10})), "width"),
    "width-huge": (_y(_file(map={"width": 10**30, "height": 10})), "width"),
    "width-float": (b'{"ruleset": "dnd35", "map": {"width": 1e309, "height": 10}}', "width"),
    "map-101-wide": (_y(_file(map={"width": 101, "height": 10})), "width"),
    "map-zero": (_y(_file(map={"width": 0, "height": 10})), "width"),
    "combatants-not-a-list": (_y(_file(combatants=5)), "combatants"),
    "combatant-not-a-mapping": (_y(_file(combatants=["Ogre"])), "combatant"),
    "combatant-missing-at": (_y(_file(combatants=[{"name": "Ogre", "side": "foes"}])), "at"),
    "size-wrong-type": (
        _y(_file(combatants=[{"name": "Ogre", "side": "foes", "at": "B2", "size": ["large"]}])),
        "size",
    ),
    "speed-negative-text": (
        _y(_file(combatants=[{"name": "Ogre", "side": "foes", "at": "B2", "speed": "-fast"}])),
        "speed",
    ),
    "unknown-field": (_y(_file(combatants=[{"name": "Ogre", "side": "f", "at": "B2", "hp": 5}])), "hp"),
    "duplicate-names": (
        _y(
            _file(
                combatants=[
                    {"name": "Ogre", "side": "a", "at": "B2"},
                    {"name": "Ogre", "side": "b", "at": "C3"},
                ]
            )
        ),
        "twice",
    ),
    "duplicate-names-case": (
        _y(
            _file(
                combatants=[
                    {"name": "Ogre", "side": "a", "at": "B2"},
                    {"name": "OGRE", "side": "b", "at": "C3"},
                ]
            )
        ),
        "twice",
    ),
    "name-too-long": (_y(_file(combatants=[{"name": "N" * 33, "side": "a", "at": "B2"}])), "32"),
    "name-markup": (_y(_file(combatants=[{"name": "**Ogre**", "side": "a", "at": "B2"}])), "name"),
    "name-mention": (_y(_file(combatants=[{"name": "<@&123>", "side": "a", "at": "B2"}])), "name"),
    "side-too-long": (_y(_file(combatants=[{"name": "Ogre", "side": "s" * 33, "at": "B2"}])), "side"),
    "off-map": (_y(_file(combatants=[{"name": "Ogre", "side": "a", "at": "Z99"}])), "off the map"),
    "off-map-column": (_y(_file(combatants=[{"name": "Ogre", "side": "a", "at": "M1"}])), "Ogre"),
    "not-a-coordinate": (_y(_file(combatants=[{"name": "Ogre", "side": "a", "at": "12"}])), "Ogre"),
    "on-a-blocked-square": (_y(_file(combatants=[{"name": "Ogre", "side": "a", "at": "E5"}])), "blocked"),
    "blocked-off-map": (_y(_file(map={"width": 12, "height": 10, "blocked": ["Q40"]})), "blocked"),
    "initiative-stranger": (_y(_file(initiative=["Ethan", "Nobody"])), "initiative"),
    "201-combatants": (_many(201), "200"),
    "10000-combatants": (_many(10_000), "limit"),
    "50-MB": (b"ruleset: dnd35\n# " + b"x" * (50 * 1024 * 1024) + b"\n", "1 MB"),
    "alias-bomb": (
        b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nruleset: dnd35\n",
        "alias",
    ),
    "python-tag": (b"ruleset: !!python/object/apply:os.system ['echo pwned']\n", "YAML"),
    "deep-nesting": (b"[" * 20_000 + b"]" * 20_000, "nested"),
    "json-nan": (b'{"ruleset": "dnd35", "map": {"width": NaN, "height": 10}}', "width"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_load_text_gives_one_clear_line(case):
    content, word = CASES[case]
    with pytest.raises(EncounterFileError) as caught:
        load_text(content)
    message = caught.value.message
    assert "\n" not in message and 0 < len(message) <= 300, message
    assert word.lower() in message.lower(), message


async def test_import_of_every_bad_file_is_refused_ephemerally_and_changes_nothing(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, scenario(alice.id, bob.id))
    before = database(env)
    for case, (content, word) in sorted(CASES.items()):
        got = await outcome(env, gm.slash(channel, "encounter import", file=(f"{case}.yaml", content)))
        assert not got.bugs, (case, got.bugs)
        assert got.errors and got.ephemeral, (case, got.text)
        assert "\n" not in got.text and word.lower() in got.text.lower(), (case, got.text)
        assert database(env) == before, case
    print(f"\nbad files: {len(CASES)} files refused by load_text and by /encounter import")
