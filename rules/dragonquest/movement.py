"""Movement of a non-engaged figure (seed 003): the path, its cost in hexes of TMR, the Melee Zone stop
and the Repulse point of a Charge and Close.

`plan` is pure and deterministic, so `finish` can rebuild the final facing from the stored action
instead of keeping it in the adjudication.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from rules import hexgrid
from rules.coords import Coord, format_coord
from rules.dragonquest import zones
from rules.dragonquest.model import DragonquestCombatant, DragonquestEncounter
from rules.dragonquest.modes import Mode, budget, parse_mode
from rules.engine import Action, Opportunity, ReactionPoint, Ruling

RULESET_NAME = "dragonquest"
MAX_PATH = 200  # hexes; a longer path is a typo, not a plan
TURN_180_COST = 2  # "if the figure wishes to change facing to that degree, it may move two less hexes"
# "for one human to move through a hex containing another human will result in at least a TMR penalty of two"
FRIENDLY_HEX_COST = 2
DIFFICULT_EXTRA = 1  # our reading of "a penalty for movement attempted over terrain not conducive"


@dataclass
class Plan:
    """What a move would do: the ruling plus the facing the figure ends with."""

    ruling: Ruling
    facing: int | None = None  # None: unchanged (or the move is illegal)


@dataclass
class _Walk:
    """One candidate path walked under the rules."""

    walked: list[Coord]  # start first
    cost: int = 0
    error: str | None = None
    stop_at: Coord | None = None
    notes: list[str] = field(default_factory=list)
    requested: int = 0  # hexes the user asked to enter

    @property
    def cut_short(self) -> bool:
        return len(self.walked) - 1 < self.requested


def label(hex_: Coord) -> str:
    """Map label of a hex."""
    return format_coord(hex_)


def names(figures: list[DragonquestCombatant]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    items = [f.name for f in figures]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def turn_steps(a: int, b: int) -> int:
    """Hexsides turned going from facing ``a`` to facing ``b`` the short way (0-3)."""
    return min((a - b) % 6, (b - a) % 6)


def base_ruling(who: str, mode: str, kind: str = "move") -> Ruling:
    """An empty ruling for ``who``."""
    return Ruling(ruleset=RULESET_NAME, who=who, action=kind, mode=mode, legal=True)


def illegal(ruling: Ruling, error: str) -> Plan:
    """The ruling turned into a refusal with a plain-English reason."""
    ruling.legal = False
    ruling.error = error
    ruling.opportunities = []
    ruling.points = []
    return Plan(ruling)


def condition_refusal(figure: DragonquestCombatant, what: str) -> str | None:
    """Why a stunned or incapacitated figure may not do ``what`` (None if it may)."""
    if figure.has("incapacitated"):
        return f"{figure.name} is incapacitated: a figure who becomes incapacitated can do nothing."
    if figure.has("stunned"):
        return (
            f"{figure.name} is stunned: a stunned figure may attempt no other action except try to recover "
            f"(`act recover`), so it cannot {what}."
        )
    return None


def plan(encounter: DragonquestEncounter, action: Action) -> Plan:
    """Rule on a move of a non-engaged figure; the plan's ruling is what `adjudicate` returns."""
    who: DragonquestCombatant = encounter.find(action.who)
    mode = parse_mode(action.mode)
    shown_mode = mode.name if mode.facing is None else f"{mode.name}:{hexgrid.FACINGS[mode.facing]}"
    ruling = base_ruling(who.name, shown_mode)
    ruling.target = action.target
    if len(action.path) > MAX_PATH:
        return illegal(ruling, f"A path may list at most {MAX_PATH} hexes.")
    entered = [encounter.coord(p) for p in action.path]
    start = who.pos
    ruling.path = [label(start)]

    refusal = condition_refusal(who, "move")
    if refusal:
        return illegal(ruling, refusal)
    engaged = zones.engaged_with(encounter, who)
    if engaged:
        return illegal(
            ruling,
            f"{who.name} is engaged (next to {names(engaged)}): the movement modes ({mode.name} included) "
            "are for non-engaged figures only; it can still fight where it stands "
            "(`/act` with `melee-attack`).",
        )

    defender: DragonquestCombatant | None = None
    target: DragonquestCombatant | None = None
    if action.target:
        target = encounter.find(action.target)
        if target.name == who.name:
            return illegal(ruling, f"{who.name} cannot target itself.")
        if mode.name in ("charge", "charge-close") and not target.hostile_to(who):
            return illegal(ruling, f"{target.name} is not hostile to {who.name}; pick a hostile figure.")
    start_facing = zones.facing_of(who)
    if mode.name == "charge-close":
        if target is None:
            return illegal(
                ruling, "A Charge and Close needs the defender: give `target` (the figure to grapple)."
            )
        defender = target
        if mode.facing is not None and mode.facing != start_facing:
            return illegal(ruling, "No facing changes are allowed during a Charge and Close.")
    if mode.name == "retreat" and mode.facing is not None and mode.facing != start_facing:
        return illegal(ruling, "A Retreat moves directly backward: the figure keeps its facing.")
    allowed = budget(who, mode.name)
    if mode.name == "fire" and allowed == 0 and (entered or (mode.facing not in (None, start_facing))):
        return illegal(
            ruling,
            "A figure may not move or change facing in the same Pulse as a weapon is Fired or a spell is "
            "loosed (only a loaded crossbow, or a flying adept, may move).",
        )

    if entered and entered[0] == start:
        entered = entered[1:]  # tolerate the start hex written out
    if not entered and defender is None:
        if mode.facing is None or mode.facing == start_facing:
            if mode.name == "fire":
                ruling.notes.append(f"{who.name} fires without moving.")
                return Plan(ruling, start_facing)
            return illegal(ruling, "Give the hexes to enter (or one destination hex), or a new facing.")
        return _finish_plan(encounter, who, mode, ruling, _Walk([start]), allowed, None, target)

    if defender is not None and not entered:
        entered = [defender.pos]
    if len(entered) == 1 and hexgrid.distance(start, entered[0]) > 1:
        goal = entered[0]
        if defender is not None and goal != defender.pos and hexgrid.distance(goal, defender.pos) != 1:
            return illegal(
                ruling, f"A Charge and Close ends in the defender's hex: {defender.name} is at {defender.at}."
            )
        walk = _find(encounter, who, mode, goal, defender)
        if walk is None:
            return illegal(ruling, f"There is no way for {who.name} to reach {label(goal)}.")
        if defender is not None and walk.error is None and walk.walked[-1] == goal != defender.pos:
            ruling.notes.append(f"The Charge and Close ends by entering {defender.name}'s hex {defender.at}.")
            walk = _walk(encounter, who, mode, [*walk.walked[1:], defender.pos], defender)
    else:
        here = start
        for hex_ in entered:
            if hexgrid.distance(here, hex_) != 1:
                return illegal(
                    ruling,
                    f"{label(hex_)} is not next to {label(here)}: list every hex entered, in order, "
                    "or give a single destination hex.",
                )
            here = hex_
        if defender is not None and entered[-1] != defender.pos:
            if hexgrid.distance(entered[-1], defender.pos) != 1:
                return illegal(
                    ruling,
                    f"A Charge and Close ends in the defender's hex: {defender.name} is at {defender.at}.",
                )
            entered = [*entered, defender.pos]
            ruling.notes.append(f"The Charge and Close ends by entering {defender.name}'s hex {defender.at}.")
        walk = _walk(encounter, who, mode, entered, defender)
    if mode.name == "retreat" and walk.error is None:
        walk.error = _retreat_error(who, walk.walked)
    return _finish_plan(encounter, who, mode, ruling, walk, allowed, defender, target)


def _finish_plan(
    encounter: DragonquestEncounter,
    who: DragonquestCombatant,
    mode: Mode,
    ruling: Ruling,
    walk: _Walk,
    allowed: int,
    defender: DragonquestCombatant | None,
    target: DragonquestCombatant | None,
) -> Plan:
    ruling.path = [label(h) for h in walk.walked]
    if walk.error:
        return illegal(ruling, walk.error)
    ruling.notes.extend(walk.notes)
    ruling.stop_at = label(walk.stop_at) if walk.stop_at is not None else None
    end = walk.walked[-1]
    start_facing = zones.facing_of(who)
    facing = _final_facing(mode, start_facing, end, target)
    turn = turn_steps(start_facing, facing)
    cost = walk.cost + (TURN_180_COST if turn == 3 else 0)
    ruling.cost = cost
    if turn == 3:
        ruling.notes.append(f"Turning 180 degrees in one move costs {TURN_180_COST} hexes of TMR.")
    hexes = len(walk.walked) - 1
    if cost > allowed:
        # Seed 003: "a figure may always (if not Stunned, etc.) move one hex during a Pulse, no matter how
        # difficult the terrain." Firing has its own, stricter allowance.
        if hexes <= 1 and mode.name != "fire" and who.tmr >= 1:
            ruling.notes.append(
                f"{mode.name} allows {allowed} hexes, but a figure may always move one hex in a Pulse."
            )
        else:
            return illegal(
                ruling,
                f"{who.name} may spend {allowed} hexes of TMR in {mode.name} (TMR {who.tmr}, Agility "
                f"{who.agility}); this move costs {cost}"
                + (" (the defender's hex counts)." if defender is not None else "."),
            )
    if mode.name == "evade":
        ruling.notes.append(f"{who.name} is evading while it moves: much harder to hit.")
    if mode.name == "charge":
        ruling.notes.extend(_charge_notes(encounter, who, end, facing, target))
    if defender is not None and end == defender.pos:
        before = walk.walked[-2]
        if zones.can_act(defender):
            ruling.points = [
                ReactionPoint(
                    index=0,
                    step=len(walk.walked) - 2,
                    at=label(before),
                    trigger="repulse",
                    reactors=[defender.name],
                    detail={"defender": defender.name},
                )
            ]
            ruling.opportunities = [
                Opportunity(attacker=defender.name, at=label(before), trigger="repulse", point=0)
            ]
        else:
            state = "incapacitated" if defender.has("incapacitated") else "stunned"
            ruling.notes.append(
                f"{defender.name} is {state} and cannot attempt a Repulse: {who.name} enters its hex."
            )
    return Plan(ruling, facing)


def _final_facing(mode: Mode, start_facing: int, end: Coord, target: DragonquestCombatant | None) -> int:
    if mode.facing is not None:
        return mode.facing
    if mode.name == "charge" and target is not None:
        toward = hexgrid.direction_between(end, target.pos)
        if toward is not None:
            # Face the target so it stands in the Melee Zone, turning as little as possible (never 180).
            options = [(toward + d) % 6 for d in (0, -1, 1)]
            return min(options, key=lambda f: (turn_steps(start_facing, f), options.index(f)))
    return start_facing


def _charge_notes(
    encounter: DragonquestEncounter,
    who: DragonquestCombatant,
    end: Coord,
    facing: int,
    target: DragonquestCombatant | None,
) -> list[str]:
    front = hexgrid.front_hexes(end, facing)
    foes = [c for c in zones.hostiles(encounter, who) if c.pos in front]
    if target is not None:
        if target.pos in front:
            return [f"{who.name} may Melee attack {target.name} at the end of the Charge."]
        return [f"{who.name} ends the Charge without {target.name} in its Melee Zone: no attack on it."]
    if foes:
        return [f"{who.name} may Melee attack {names(foes)} at the end of the Charge."]
    return [f"{who.name} ends the Charge with no hostile figure in its Melee Zone: no attack."]


def _retreat_error(who: DragonquestCombatant, walked: list[Coord]) -> str | None:
    back = (zones.facing_of(who) + 3) % 6
    for a, b in itertools.pairwise(walked):
        if hexgrid.direction_between(a, b) != back:
            return (
                f"A Retreat moves directly backward: facing {who.facing}, every step must go "
                f"{hexgrid.FACINGS[back]} ({label(a)} to {label(b)} does not)."
            )
    return None


def _walk(
    encounter: DragonquestEncounter,
    who: DragonquestCombatant,
    mode: Mode,
    path: list[Coord],
    defender: DragonquestCombatant | None,
) -> _Walk:
    """Enter the hexes of ``path`` in order, applying costs, forbidden hexes and the Melee Zone stop."""
    walk = _Walk([who.pos], requested=len(path))
    blocked = encounter.map.blocked_set()
    difficult = encounter.map.difficult_set()
    others = list(encounter.others(who))
    path = list(path)
    i = 0
    while i < len(path):
        hex_ = path[i]
        if hex_ in blocked:
            walk.error = f"{label(hex_)} is blocked; it cannot be entered."
            return walk
        there = [c for c in others if c.pos == hex_]
        foes_there = [c for c in there if c.hostile_to(who)]
        into_defender = defender is not None and hex_ == defender.pos
        defender_name = defender.name if defender is not None else ""
        if foes_there and not into_defender:
            walk.error = (
                f"{names(foes_there)} is in {label(hex_)}: a figure may not enter a hostile figure's hex "
                "(except the defender's, in a Charge and Close)."
            )
            return walk
        friends_there = [c for c in there if not c.hostile_to(who)]
        step = 1
        if hex_ in difficult:
            step += DIFFICULT_EXTRA
        if friends_there and not into_defender:
            step += FRIENDLY_HEX_COST
        walk.walked.append(hex_)
        walk.cost += step
        if into_defender:
            if i + 1 < len(path):
                walk.notes.append(f"The Charge and Close ends in {defender_name}'s hex; the rest is dropped.")
            break
        holders = zones.zones_holding(encounter, who, hex_)
        if holders:
            if defender is not None and hexgrid.distance(hex_, defender.pos) == 1:
                # Seed 003: "If in the midst of executing a Charge and Close action, he may then be able to
                # enter the defender's hex, depending on the results of the defender's Repulse attempt."
                if i + 1 >= len(path) or path[i + 1] != defender.pos:
                    walk.notes.append(
                        f"{names(holders)}'s Melee Zone at {label(hex_)} stops the charge: it goes on only "
                        f"into {defender.name}'s hex."
                    )
                    path = [*path[: i + 1], defender.pos]
                    walk.requested = len(path)
                i += 1
                continue
            # Seed 003: "If a figure enters the Melee Zone of any hostile figure, he must stop movement but
            # may change facing."
            walk.stop_at = hex_
            dropped = path[i + 1 :]
            if dropped:
                walk.notes.append(
                    f"{names(holders)}'s Melee Zone at {label(hex_)} stops movement; the rest of the path "
                    f"({' '.join(label(h) for h in dropped)}) is dropped."
                )
            else:
                walk.notes.append(f"{label(hex_)} is in {names(holders)}'s Melee Zone: movement stops there.")
            break
        i += 1
    end = walk.walked[-1]
    if len(walk.walked) > 1 and (defender is None or end != defender.pos):
        friends_end = [c for c in others if c.pos == end and not c.hostile_to(who)]
        if friends_end:
            walk.error = (
                f"{names(friends_end)} is in {label(end)}: a figure may pass through a friend's hex but not "
                "end its move there."
            )
    return walk


def _find(
    encounter: DragonquestEncounter,
    who: DragonquestCombatant,
    mode: Mode,
    goal: Coord,
    defender: DragonquestCombatant | None,
) -> _Walk | None:
    """The best path to ``goal``: shortest in hexes, preferring one that no Melee Zone cuts short and
    that avoids friends and difficult ground when that costs no more."""
    if mode.name == "retreat":
        back = (zones.facing_of(who) + 3) % 6
        here, path = who.pos, []
        for _ in range(hexgrid.distance(who.pos, goal)):
            here = hexgrid.neighbour(here, back)
            path.append(here)
        if path[-1] != goal:
            return _Walk(
                [who.pos], error=f"{label(goal)} is not directly behind {who.name} (facing {who.facing})."
            )
        return _walk(encounter, who, mode, path, defender)

    blocked = encounter.map.blocked_set()
    difficult = encounter.map.difficult_set()
    others = list(encounter.others(who))
    foe_hexes = {c.pos for c in others if c.hostile_to(who)}
    friend_hexes = {c.pos for c in others if not c.hostile_to(who)}
    zone_hexes = {
        h for c in zones.hostiles(encounter, who) if zones.has_zone(c) for h in zones.melee_zone(encounter, c)
    }

    def open_hex(h: Coord) -> bool:
        return h not in blocked and h not in foe_hexes

    def zone_free(h: Coord) -> bool:
        if defender is not None and hexgrid.distance(h, defender.pos) == 1:
            return True  # the charge-close must cross the defender's zone
        return h not in zone_hexes

    def clear(h: Coord) -> bool:
        return open_hex(h) and zone_free(h) and h not in friend_hexes and h not in difficult

    def no_zone(h: Coord) -> bool:
        return open_hex(h) and zone_free(h)

    predicates: list[Callable[[Coord], bool]] = [clear, no_zone, open_hex]
    best: _Walk | None = None
    best_key: tuple[int, int, int, int] | None = None
    for passable in predicates:
        found = hexgrid.shortest_path(who.pos, goal, encounter.map.width, encounter.map.height, passable)
        if not found:
            continue
        walk = _walk(encounter, who, mode, found, defender)
        key = (walk.error is not None, walk.cut_short, walk.cost, len(walk.walked))
        if best_key is None or key < best_key:
            best, best_key = walk, key
    return best
