"""Turn order and per-turn resets (seed 003: "all actions of non-engaged figures occur after all the
actions of engaged figures have been resolved")."""

from __future__ import annotations

from rules.dragonquest import zones
from rules.dragonquest.model import DragonquestEncounter


def turn_order(encounter: DragonquestEncounter) -> list[str]:
    """Engaged figures first, then non-engaged ones; each group in initiative order (figures missing from
    the initiative list follow the listed ones, in encounter order)."""
    listed = [encounter.get(name) for name in encounter.initiative]
    rest = [c for c in encounter.combatants if c.name not in encounter.initiative]
    ordered = [c for c in [*listed, *rest] if c is not None]
    engaged = [c.name for c in ordered if zones.is_engaged(encounter, c)]
    free = [c.name for c in ordered if c.name not in engaged]
    return engaged + free


def start_turn(encounter: DragonquestEncounter, who: str) -> DragonquestEncounter:
    """The encounter as ``who`` starts to act: an evading figure stops evading when it acts again."""
    figure = encounter.find(who)
    if not figure.has("evading"):
        return encounter
    conditions = [c for c in figure.conditions if c != "evading"]
    changed = encounter.replace_combatant(figure.model_copy(update={"conditions": conditions}))
    return DragonquestEncounter.model_validate(changed.model_dump())
