"""`opportunist render FILE -o OUT.png [--threats WHO|SIDE] [--ruling WHO ACTION... [--mode M] [--target T]]`
(SPEC §4): the only part of `render` that touches files."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from render.draw import draw
from render.scene import threat_overlay
from rules.coords import format_coord, parse_path
from rules.engine import Action, Ruling
from rules.errors import InputError, OpportunistError
from rules.model import Encounter

ACTION_WORDS = ("move", "act")


def _ruleset(encounter: Encounter) -> Any:
    from rules.rulesets import get_ruleset

    try:
        return get_ruleset(encounter.ruleset)
    except (ImportError, AttributeError):
        raise InputError(f"Rulings for {encounter.ruleset} are not available yet.") from None


def parse_action(
    encounter: Encounter, words: Sequence[str], mode: str | None = None, target: str | None = None
) -> Action:
    """``WHO move SQUARE...`` or ``WHO act ACTION_NAME`` as an `Action`. WHO may be several words
    (``Goblin 2 move C3``) when the shell split an unquoted name."""
    words = [w for w in words if w.strip()]
    verbs = [i for i, w in enumerate(words) if i and w.lower() in ACTION_WORDS]
    if not verbs:
        raise InputError(
            "--ruling wants WHO ACTION..., like `--ruling Ethan move C3 D4` "
            "or `--ruling Ethan act cast-spell`."
        )
    names = {c.name.casefold(): c.name for c in encounter.combatants}
    # The first action word that follows a whole combatant name splits WHO from ACTION.
    i = next((i for i in verbs if " ".join(words[:i]).casefold() in names), None)
    if i is None:
        encounter.find(" ".join(words[: verbs[0]]))  # raises the InputError that lists the combatants
        raise AssertionError("unreachable")
    who = names[" ".join(words[:i]).casefold()]
    kind, rest = words[i].lower(), words[i + 1 :]
    default_mode = _ruleset(encounter).modes[0]
    if kind == "move":
        if not rest:
            raise InputError("`move` needs the squares entered, like `move C3 D4`, or one target square.")
        squares = parse_path(" ".join(rest), encounter.map.width, encounter.map.height)
        path = [format_coord(s) for s in squares]
        return Action(kind="move", who=who, path=path, mode=mode or default_mode, target=target)
    if len(rest) != 1:
        raise InputError("`act` needs one action name, like `act cast-spell`.")
    return Action(kind="act", who=who, name=rest[0].lower(), mode=mode or default_mode, target=target)


def rule(
    encounter: Encounter, words: Sequence[str], mode: str | None = None, target: str | None = None
) -> Ruling:
    """The ruling `--ruling` asks for."""
    action = parse_action(encounter, words, mode, target)
    ruling: Ruling = _ruleset(encounter).adjudicate(encounter, action)
    return ruling


def run_render(ns: Any) -> int:
    """Run `opportunist render` from parsed arguments (``file``, ``output``, ``threats``, ``ruling``,
    ``mode``, ``target``); returns the exit status (2 with a one-line error on stderr for bad input)."""
    from rules.encounter_file import load_text

    try:
        output = getattr(ns, "output", None)
        if not output:
            raise InputError("Give the image file to write with -o OUT.png.")
        try:
            raw = Path(ns.file).read_bytes()
        except OSError as exc:
            raise InputError(f"Cannot read {ns.file}: {exc.strerror or exc}.") from None
        encounter = load_text(raw)
        threats = getattr(ns, "threats", None)
        threatened = threat_overlay(encounter, threats) if threats else frozenset()
        words = getattr(ns, "ruling", None)
        ruling = (
            rule(encounter, words, getattr(ns, "mode", None), getattr(ns, "target", None)) if words else None
        )
        png = draw(encounter, threatened=threatened, ruling=ruling, focus=threats or None)
        if str(output) == "-":
            sys.stdout.buffer.write(png)
            sys.stdout.buffer.flush()
        else:
            try:
                Path(output).write_bytes(png)
            except OSError as exc:
                raise InputError(f"Cannot write {output}: {exc.strerror or exc}.") from None
    except OpportunistError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    return 0
