"""`opportunist render` (SPEC §4) through `render.cli.run_render`, and as a subprocess once wired."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from render import palette, plan
from render.cli import parse_action, run_render
from render.palette import SIDE_PALETTE
from rules.encounter_file import load_text
from rules.errors import InputError

ENCOUNTER = """\
ruleset: dnd35
map: {width: 12, height: 10, blocked: [E5, E6], difficult: [C3]}
combatants:
  - {name: Ethan, side: party, at: B2}
  - {name: Ogre, side: monsters, at: D2, size: large}
  - {name: Goblin 2, side: monsters, at: H8}
"""


@pytest.fixture
def enc_file(tmp_path):
    path = tmp_path / "enc.yaml"
    path.write_text(ENCOUNTER)
    return path


def ns(file, output, threats=None, ruling=None, mode=None, target=None):
    # bot/cli.py's argparse gives Paths for FILE and -o.
    return argparse.Namespace(
        file=Path(file), output=Path(output), threats=threats, ruling=ruling, mode=mode, target=target
    )


def test_plain_render_writes_the_map(px, enc_file, tmp_path, capsys):
    out = tmp_path / "map.png"
    assert run_render(ns(enc_file, out)) == 0
    img = px.image(out.read_bytes())
    cell = plan(load_text(ENCOUNTER)).cell
    assert px.dominant(img, px.square("B2", cell)) == SIDE_PALETTE[0]
    assert px.dominant(img, px.square("H8", cell)) == SIDE_PALETTE[1]
    assert px.at(img, px.square("E5", cell)) == palette.BLOCKED
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("who", ["Ogre", "ogre", "monsters"])
def test_threats_of_a_combatant_or_a_side_are_tinted(px, enc_file, tmp_path, who):
    out = tmp_path / "threats.png"
    assert run_render(ns(enc_file, out, threats=who)) == 0
    img = px.image(out.read_bytes())
    cell = plan(load_text(ENCOUNTER)).cell
    assert px.at(img, px.square("F3", cell)) == palette.tinted(palette.FLOOR)  # next to the Large ogre
    assert px.at(img, px.square("J3", cell)) == palette.FLOOR


def test_ruling_draws_path_and_numbered_marker(px, enc_file, tmp_path):
    out = tmp_path / "ruling.png"
    assert run_render(ns(enc_file, out, ruling=["Ethan", "move", "C3", "C4"])) == 0
    img = px.image(out.read_bytes())
    cell = plan(load_text(ENCOUNTER)).cell
    (x0, y0), (x1, y1) = px.square("C3", cell), px.square("C4", cell)
    assert px.at(img, ((x0 + x1) // 2, (y0 + y1) // 2 - cell // 4)) == palette.PATH
    # Leaving B2 provokes from the ogre: marker 1 in B2's upper-right quarter.
    x, y = px.square("B2", cell)
    assert px.count(img, (x, y - cell // 2, x + cell // 2, y), palette.MARKER) > 20


def test_illegal_ruling_is_still_drawn_with_exit_0(px, enc_file, tmp_path):
    out = tmp_path / "illegal.png"
    assert run_render(ns(enc_file, out, ruling=["Ethan", "move", "E5"])) == 0  # E5 is blocked
    px.image(out.read_bytes())


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"threats": "Nobody"}, "Nobody"),
        ({"ruling": ["Bob", "move", "C3"]}, "Bob"),
        ({"ruling": ["Ethan", "move", "Z99"]}, "Z99"),
        ({"ruling": ["Ethan", "fly", "C3"]}, "--ruling"),
        ({"ruling": ["Ethan", "move"]}, "move"),
        ({"ruling": ["Ethan", "act"]}, "act"),
    ],
    ids=[
        "unknown-threats",
        "unknown-mover",
        "off-map",
        "no-action-word",
        "move-without-squares",
        "act-without-name",
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(enc_file, tmp_path, capsys, args, fragment):
    out = tmp_path / "bad.png"
    assert run_render(ns(enc_file, out, **args)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err
    assert not out.exists()


def test_bad_files_are_status_2(tmp_path, capsys):
    missing = tmp_path / "missing.yaml"
    assert run_render(ns(missing, tmp_path / "x.png")) == 2
    broken = tmp_path / "broken.yaml"
    broken.write_text("ruleset: dnd35\nmap: [1, 2\n")
    assert run_render(ns(broken, tmp_path / "x.png")) == 2
    invalid = tmp_path / "invalid.yaml"
    invalid.write_text("ruleset: chess\nmap: {width: 2, height: 2}\n")
    assert run_render(ns(invalid, tmp_path / "x.png")) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3 and all(line.startswith("error: ") for line in errors)


def test_output_dash_writes_png_to_stdout(enc_file, capsysbinary):
    assert run_render(ns(enc_file, "-")) == 0
    assert capsysbinary.readouterr().out[:8] == b"\x89PNG\r\n\x1a\n"


def test_who_may_be_several_words():
    enc = load_text(ENCOUNTER)
    action = parse_action(enc, ["Goblin", "2", "move", "H7", "g6"])
    assert (action.kind, action.who, action.path, action.mode) == ("move", "Goblin 2", ["H7", "G6"], "normal")
    action = parse_action(enc, ["ethan", "act", "Cast-Spell"], mode="normal", target="Ogre")
    assert (action.kind, action.who, action.name, action.target) == ("act", "Ethan", "cast-spell", "Ogre")
    with pytest.raises(InputError):
        parse_action(enc, ["Ethan"])


def test_opportunist_render_subprocess(px, enc_file, tmp_path):
    out = tmp_path / "cli.png"
    exe = shutil.which("opportunist")
    assert exe is not None, "the `opportunist` console script is not installed (pip install -e .)"
    done = subprocess.run(
        [exe, "render", str(enc_file), "-o", str(out), "--ruling", "Ethan", "move", "C3", "C4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    px.image(out.read_bytes())
    done = subprocess.run(
        [exe, "render", str(enc_file), "-o", str(out), "--threats", "Nobody"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Nobody" in done.stderr


def test_run_render_in_a_fresh_interpreter(enc_file, tmp_path):
    # The same entry point the CLI calls, in a separate process: imports nothing of discord.
    out = tmp_path / "sub.png"
    args = f"file={str(enc_file)!r}, output={str(out)!r}, threats='Ogre', ruling=None, mode=None, target=None"
    probe = (
        "import argparse, sys\n"
        "from render.cli import run_render\n"
        f"status = run_render(argparse.Namespace({args}))\n"
        "assert 'discord' not in sys.modules, 'render pulled in discord'\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"
