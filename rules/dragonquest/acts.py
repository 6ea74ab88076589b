"""Non-move actions (`Action(kind="act")`) and the checks the seed attaches to them (seed 003).

DragonQuest has no attacks of opportunity; what an act can raise is a roll by the actor itself: a
Concentration check (4 x WP on D100) for an adept casting while attacked, a Perception roll
(4 x Perception on D100) before striking into an obscured hex.
"""

from __future__ import annotations

from rules import hexgrid
from rules.catalogue import normalise
from rules.dragonquest import zones
from rules.dragonquest.model import DragonquestCombatant, DragonquestEncounter
from rules.dragonquest.movement import base_ruling, condition_refusal, illegal, label, names
from rules.engine import Action, ReactionPoint, Ruling
from rules.errors import InputError

ACTS: tuple[str, ...] = (
    "cast-spell",
    "melee-attack",
    "melee-attack-obscured",
    "grapple",
    "fire",
    "talent-magic",
    "recover",
)
ACT_ALIASES: dict[str, str] = {
    "cast": "cast-spell",
    "spell": "cast-spell",
    "loose-spell": "cast-spell",
    "attack": "melee-attack",
    "melee": "melee-attack",
    "obscured-attack": "melee-attack-obscured",
    "ranged-attack": "fire",
    "shoot": "fire",
    "talent": "talent-magic",
    "recover-from-stun": "recover",
}
CHECK_KINDS = {"cast-spell": "concentration", "melee-attack-obscured": "perception"}


def parse_act(name: str | None) -> str:
    """The canonical act name; an unknown one is an `InputError` listing the choices."""
    key = normalise(name or "")
    key = ACT_ALIASES.get(key, key)
    if key not in ACTS:
        raise InputError(
            f"`{str(name)[:30]}` is not a DragonQuest action here; choose one of: {', '.join(ACTS)}."
        )
    return key


def attackers_of(encounter: DragonquestEncounter, figure: DragonquestCombatant) -> list[DragonquestCombatant]:
    """Hostile figures able to attack ``figure`` now: it stands in their Melee Zone (or hex), or in the
    Ranged Zone of one that can fire (a missile weapon, a crossbow or spells) with a clear line."""
    blocked = encounter.map.blocked_set()
    found = []
    for foe in zones.hostiles(encounter, figure):
        if not zones.can_act(foe):
            continue
        melee = foe.pos == figure.pos or zones.in_melee_zone(foe, figure.pos)
        shooter = foe.weapon in ("missile", "crossbow") or foe.adept
        ranged = (
            shooter
            and zones.in_ranged_zone(foe, figure.pos)
            and hexgrid.has_line_of_effect(foe.pos, figure.pos, blocked)
        )
        if melee or ranged:
            found.append(foe)
    return found


def adjudicate_act(encounter: DragonquestEncounter, action: Action) -> Ruling:
    """Rule on a named non-move action."""
    who: DragonquestCombatant = encounter.find(action.who)
    act = parse_act(action.name)
    ruling = base_ruling(who.name, action.mode, kind="act")
    ruling.act_name = act
    ruling.path = [who.at]
    target: DragonquestCombatant | None = encounter.find(action.target) if action.target else None
    ruling.target = target.name if target else None
    if who.has("incapacitated") or (act != "recover" and who.has("stunned")):
        refusal = condition_refusal(who, act.replace("-", " "))
        assert refusal is not None  # noqa: S101 - guarded by the condition above
        return illegal(ruling, refusal).ruling
    if target is not None and target.name == who.name:
        return illegal(ruling, f"{who.name} cannot target itself.").ruling
    if target is not None and act != "talent-magic" and not target.hostile_to(who):
        return illegal(ruling, f"{target.name} is not hostile to {who.name}; pick a hostile figure.").ruling
    error = _position_error(encounter, who, act, target)
    if error:
        return illegal(ruling, error).ruling

    if act == "recover":
        if not who.has("stunned"):
            return illegal(ruling, f"{who.name} is not stunned; there is nothing to recover from.").ruling
        ruling.notes.append(f"{who.name} tries to recover from being Stunned; that is all it may do.")
    elif act == "cast-spell":
        attackers = attackers_of(encounter, who)
        if attackers:
            target_number = 4 * who.wp
            # Seed 003: "If an Adept attempts to cast a spell while either being Ranged attacked or Melee
            # attacked, he must perform a Concentration Check 4 X WP."
            _check_point(ruling, who, "concentration", target_number, [a.name for a in attackers])
            ruling.notes.append(
                f"{who.name} is under attack by {names(attackers)}: Concentration check, D100 at or under "
                f"{target_number} (4 x WP {who.wp}); the check may be needed again before loosing the spell."
            )
        else:
            ruling.notes.append(f"No hostile figure can attack {who.name} now: no Concentration check.")
    elif act == "melee-attack-obscured":
        target_number = 4 * who.perception
        # Seed 003: "he may attempt to strike if he first rolls less than or equal to four times his
        # Perception on D100."
        _check_point(ruling, who, "perception", target_number, [])
        ruling.notes.append(
            f"Striking into an obscured hex: Perception roll, D100 at or under {target_number} "
            f"(4 x Perception {who.perception}); on a failure no attack and no other action this Pulse."
        )
    elif act == "talent-magic":
        ruling.notes.append("Talent Magic may be activated at any time, even in Close combat.")
    return ruling


def _check_point(
    ruling: Ruling, who: DragonquestCombatant, check: str, target_number: int, attackers: list[str]
) -> None:
    detail: dict[str, object] = {"check": check, "target": target_number}
    if attackers:
        detail["attackers"] = attackers
    ruling.points = [
        ReactionPoint(index=0, step=0, at=who.at, trigger="action", reactors=[who.name], detail=detail)
    ]


def _position_error(
    encounter: DragonquestEncounter,
    who: DragonquestCombatant,
    act: str,
    target: DragonquestCombatant | None,
) -> str | None:
    """Seed 003: "A figure's choice of combat actions is limited by his position relative to the intended
    target of his attack." None if the position allows ``act``."""
    if act == "cast-spell":
        if not who.adept:
            return f"{who.name} is not an adept (set `adept=yes`); only adepts cast spells."
        if zones.in_close_combat(encounter, who):
            return "No spell work of any kind is allowed in Close combat (only Talent Magic)."
        return None
    if target is None:
        return None
    if act in ("melee-attack", "melee-attack-obscured"):
        if hexgrid.distance(who.pos, target.pos) != 1 or not zones.in_melee_zone(who, target.pos):
            return (
                "A figure may only Melee attack a hostile figure he is adjacent to and who occupies a hex "
                f"of his Melee Zone; {target.name} at {target.at} is not in {who.name}'s Melee Zone."
            )
    elif act == "grapple":
        if target.pos != who.pos:
            return (
                "A figure may only Grapple a hostile figure in the same hex; "
                f"{target.name} is at {target.at}."
            )
    elif act == "fire":
        if not zones.in_ranged_zone(who, target.pos):
            return (
                f"A figure may only Fire at a hostile figure who occupies a hex of his Ranged Zone; "
                f"{target.name} at {label(target.pos)} is not in {who.name}'s Ranged Zone."
            )
    return None
