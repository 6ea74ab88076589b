"""The `opportunist` command line: parsing, ruling, schema, render delegation, run without a token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pytest

from bot import cli
from rules.engine import Action, Opportunity, Ruling

ENCOUNTER = textwrap.dedent(
    """\
    ruleset: dnd35
    map: {width: 8, height: 8}
    combatants:
      - {name: Ethan, side: party, at: B2}
      - {name: Ogre, side: monsters, at: C3}
    """
)


@pytest.fixture
def encounter_file(tmp_path):
    path = tmp_path / "enc.yaml"
    path.write_text(ENCOUNTER)
    return path


class FakeRuleset:
    """Stands in for a ruleset so the CLI's own behaviour is tested whatever rules/ can do today."""

    name = "dnd35"
    modes = ("normal", "run")

    def __init__(self):
        self.actions: list[Action] = []

    def adjudicate(self, encounter, action):
        self.actions.append(action)
        if action.path and action.path[-1] == "H8":
            return Ruling(
                ruleset="dnd35",
                who=action.who,
                action=action.kind,
                mode=action.mode,
                legal=False,
                error="Ethan cannot reach H8 this turn.",
            )
        return Ruling(
            ruleset="dnd35",
            who=action.who,
            action=action.kind,
            mode=action.mode,
            legal=True,
            path=["B2", *action.path],
            cost=5 * len(action.path),
            opportunities=[Opportunity(attacker="Ogre", at="B2", trigger="leave-threatened")],
            notes=["Ethan has Mobility: +4 AC against these AoOs."],
        )


@pytest.fixture
def fake_ruleset(monkeypatch):
    ruleset = FakeRuleset()
    monkeypatch.setattr(cli, "get_ruleset", lambda name: ruleset)
    return ruleset


def test_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name in ("run", "offline", "ruling", "schema", "render"):
        assert name in out


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [
        (["move", "c3", "D4"], Action(kind="move", who="Ethan", path=["C3", "D4"], mode="run")),
        (["act", "cast-spell"], Action(kind="act", who="Ethan", name="cast-spell", mode="run")),
    ],
)
def test_action_from_tokens(tokens, expected):
    assert cli.action_from_tokens("Ethan", tokens, mode="run") == expected


@pytest.mark.parametrize("tokens", [[], ["move"], ["act"], ["act", "a", "b"], ["jump", "C3"]])
def test_action_from_tokens_rejects_bad_input(tokens):
    with pytest.raises(cli.UsageError):
        cli.action_from_tokens("Ethan", tokens)


def test_ruling_json_is_spec_object(encounter_file, fake_ruleset, capsys):
    status = cli.main(["ruling", str(encounter_file), "ethan", "move", "c3", "--json"])
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "ruleset": "dnd35",
        "who": "Ethan",
        "action": "move",
        "mode": "normal",
        "legal": True,
        "error": None,
        "path": ["B2", "C3"],
        "cost": 5,
        "opportunities": [{"attacker": "Ogre", "at": "B2", "trigger": "leave-threatened", "windows": None}],
        "stop_at": None,
        "notes": ["Ethan has Mobility: +4 AC against these AoOs."],
    }
    # The combatant name is normalised, the default mode is the ruleset's first one.
    assert fake_ruleset.actions == [Action(kind="move", who="Ethan", path=["C3"], mode="normal")]


def test_ruling_passes_mode_and_target(encounter_file, fake_ruleset):
    assert (
        cli.main(["ruling", str(encounter_file), "Ethan", "act", "trip", "--mode", "run", "--target", "Ogre"])
        == 0
    )
    assert fake_ruleset.actions == [Action(kind="act", who="Ethan", name="trip", mode="run", target="Ogre")]


def test_ruling_text_form(encounter_file, fake_ruleset, capsys):
    assert cli.main(["ruling", str(encounter_file), "Ethan", "move", "C3"]) == 0
    out = capsys.readouterr().out
    assert "Ethan: move (normal), dnd35: legal" in out
    assert "path: B2 -> C3" in out and "cost: 5" in out
    assert "1. Ogre at B2: leave-threatened" in out
    assert "note: Ethan has Mobility" in out


def test_illegal_ruling_exits_zero(encounter_file, fake_ruleset, capsys):
    assert cli.main(["ruling", str(encounter_file), "Ethan", "move", "H8", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is False and data["error"] == "Ethan cannot reach H8 this turn."
    assert cli.main(["ruling", str(encounter_file), "Ethan", "move", "H8"]) == 0
    assert "ILLEGAL: Ethan cannot reach H8" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Nobody", "move", "C3"], "No combatant called `Nobody`"),
        (["Ethan", "fly", "C3"], "unknown action"),
    ],
)
def test_ruling_bad_input_is_one_line_exit_2(encounter_file, fake_ruleset, capsys, args, message):
    assert cli.main(["ruling", str(encounter_file), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_ruling_bad_file_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: dnd35\nmap: {width: 0, height: 3}\n")
    assert cli.main(["ruling", str(bad), "Ethan", "move", "C3"]) == 2
    assert "map.width" in capsys.readouterr().err
    assert cli.main(["ruling", str(tmp_path / "missing.yaml"), "Ethan", "move", "C3"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_ruling_without_ruleset_module_says_not_yet(encounter_file, monkeypatch, capsys):
    def missing(name):
        raise ModuleNotFoundError(f"No module named 'rules.{name}'")

    monkeypatch.setattr(cli, "get_ruleset", missing)
    assert cli.main(["ruling", str(encounter_file), "Ethan", "move", "C3"]) == 2
    assert "not yet available" in capsys.readouterr().err


def test_schema_prints_json_schema(capsys):
    assert cli.main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "Opportunist encounter file"
    assert "DragonquestEncounter" in json.dumps(schema) or "$defs" in schema


def test_render_arguments_reach_run_render(monkeypatch, tmp_path):
    seen = []
    fake = SimpleNamespace(run_render=lambda ns: seen.append(ns) or 0)
    monkeypatch.setitem(sys.modules, "render.cli", fake)
    args = [
        "render",
        "f.yaml",
        "-o",
        str(tmp_path / "o.png"),
        "--ruling",
        "Ethan",
        "move",
        "C3",
        "D4",
        "--mode",
        "run",
        "--target",
        "Ogre",
    ]
    assert cli.main(args) == 0
    ns = seen[0]
    assert (str(ns.file), ns.output, ns.threats) == ("f.yaml", tmp_path / "o.png", None)
    assert (ns.ruling, ns.mode, ns.target) == (["Ethan", "move", "C3", "D4"], "run", "Ogre")
    assert cli.main(["render", "f.yaml", "-o", "x.png", "--threats", "monsters"]) == 0
    assert seen[1].threats == "monsters" and seen[1].ruling is None


def test_render_not_importable_says_not_yet(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "render.cli", None)  # import raises ImportError
    assert cli.main(["render", "f.yaml", "-o", "x.png"]) == 2
    assert "not yet available" in capsys.readouterr().err


def test_run_without_token_exits_2_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("OPPORTUNIST_TOKEN", "DISCORD_TOKEN")}
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "OPPORTUNIST_TOKEN" in proc.stderr
    assert not list(tmp_path.glob("*.sqlite3"))  # nothing was created
