"""`opportunist ruling FILE WHO ACTION... [--mode] [--target] [--json]` (SPEC §4) on dnd35, through a
subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ENCOUNTER = """\
ruleset: dnd35
map: {width: 12, height: 10, blocked: [E5, E6]}
combatants:
  - {name: Ethan, side: party, at: B2}
  - {name: Ogre, side: monsters, at: D3, size: large}
  - {name: Gob, side: monsters, at: J9}
  - {name: Mage, side: party, at: I9}
"""


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "enc.yaml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "ruling", str(path), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_move_json_is_spec_4(tmp_path):
    done = run(tmp_path, "Ethan", "move", "C2", "D2", "E2", "F2", "G2", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "ruleset": "dnd35",
        "who": "Ethan",
        "action": "move",
        "mode": "normal",
        "legal": True,
        "error": None,
        "path": ["B2", "C2", "D2", "E2", "F2", "G2"],
        "cost": 25,
        # 001: "You provoke an attack of opportunity when you leave a threatened square"; one opportunity
        # for the Ogre however many of its squares Ethan leaves.
        "opportunities": [{"attacker": "Ogre", "at": "B2", "trigger": "leave-threatened", "windows": None}],
        "stop_at": None,
        "notes": [],
    }


def test_path_finding_and_mode(tmp_path):
    done = run(tmp_path, "Ethan", "move", "A9", "--mode", "run", "--json")
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["legal"] and data["mode"] == "run" and data["path"][-1] == "A9"


def test_act_json(tmp_path):
    done = run(tmp_path, "Mage", "act", "cast-spell", "--json")
    data = json.loads(done.stdout)
    assert data["action"] == "act" and data["path"] == ["I9"]
    assert data["opportunities"] == [{"attacker": "Gob", "at": "I9", "trigger": "action", "windows": None}]


def test_illegal_move_is_status_0_with_an_error(tmp_path):
    done = run(tmp_path, "Ethan", "move", "D3", "--json")
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["legal"] is False and data["error"]


@pytest.mark.parametrize(
    "args",
    [("Nobody", "move", "C2"), ("Ethan", "move", "Z99"), ("Ethan", "act", "juggle")],
    ids=["unknown-combatant", "off-map", "unknown-action"],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(tmp_path, args):
    done = run(tmp_path, *args)
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1


def test_text_form(tmp_path):
    done = run(tmp_path, "Ethan", "move", "C2", "D2", "E2", "F2", "G2")
    assert done.returncode == 0
    assert "Ogre" in done.stdout and "B2" in done.stdout and "25" in done.stdout
