"""Benchmark of the rules engine: median and p99 per adjudication, for each ruleset.

Run: ``python bench/bench_engine.py [--runs N]``. Scenarios (seeded, so every run rules on the same maps):

- dnd35: a 20-square move (explicit path, speed 100 ft) across a 30x30 map with 50 combatants,
  walls and difficult terrain; foes with reach, Combat Reflexes and Large size line the route.
  Also the same destination given as one square (the bot finds the fewest-AoO path).
- aphex: a 10-AP move (20 hexes at stride 2) past 20 ranged attackers that may interrupt.
- dragonquest: a TMR 10 move through a field of 40 figures, stopped by a Melee Zone.

Each is timed as `Ruleset.adjudicate` (the ruling) and as `rules.engine.begin` (ruling + the copy of
the encounter and the first questions, what `/move` runs). Goal: dnd35 median under 1 ms.
"""

from __future__ import annotations

import argparse
import random
import sys

from _common import time_calls, verdict

from rules.coords import format_coord
from rules.engine import Action, begin
from rules.rulesets import encounter_model, get_ruleset

SIDE = 30
GOAL_MS = 1.0


def dnd35_case(seed: int = 11) -> tuple[object, Action, Action]:
    """30x30, 50 combatants; the runner moves 20 squares east along row 15."""
    rng = random.Random(seed)
    row = 14
    start, end = 2, 22
    lane = {(c, r) for c in range(start, end + 1) for r in (row,)}
    taken: set[tuple[int, int]] = set(lane)
    combatants = [
        {"name": "Runner", "side": "party", "at": format_coord((start, row)), "speed": 100},
    ]

    def free(side: int) -> tuple[int, int]:
        while True:
            c, r = rng.randrange(SIDE - side + 1), rng.randrange(SIDE - side + 1)
            sq = {(c + i, r + j) for i in range(side) for j in range(side)}
            if not sq & taken:
                taken.update(sq)
                return c, r

    for i in range(49):
        foe = i % 2 == 0
        entry: dict[str, object] = {
            "name": f"{'Orc' if foe else 'Ally'} {i}",
            "side": "monsters" if foe else "party",
        }
        size = 1
        if foe and i % 10 == 0:
            entry["size"] = "large"
            size = 2
        if foe and i % 6 == 2:
            entry["feats"] = ["combat_reflexes"]
        if foe and i % 8 == 4:
            entry["reach_weapon"] = True
        # Half the foes stand within a few rows of the lane, so the move provokes several of them.
        if foe and i < 30:
            while True:
                c, r = rng.randrange(start, end), row + rng.choice((-3, -2, -1, 1, 2)) - (size - 1)
                sq = {(c + a, r + b) for a in range(size) for b in range(size)}
                if not sq & taken and 0 <= r and r + size <= SIDE:
                    taken.update(sq)
                    break
        else:
            c, r = free(size)
        entry["at"] = format_coord((c, r))
        combatants.append(entry)
    cells = [(c, r) for c in range(SIDE) for r in range(SIDE) if (c, r) not in taken]
    rng.shuffle(cells)
    data = {
        "ruleset": "dnd35",
        "map": {
            "width": SIDE,
            "height": SIDE,
            "blocked": [format_coord(p) for p in cells[:40]],
            "difficult": [format_coord(p) for p in cells[40:120]],
        },
        "combatants": combatants,
    }
    enc = encounter_model("dnd35").model_validate(data)
    path = [format_coord((c, row)) for c in range(start + 1, end + 1)]
    explicit = Action(kind="move", who="Runner", path=path)
    found = Action(kind="move", who="Runner", path=[path[-1]])
    return enc, explicit, found


def aphex_case(seed: int = 5) -> tuple[object, Action]:
    """30x30 hexes; the traveller (10 AP, stride 2) goes 20 hexes south past 20 ranged attackers."""
    rng = random.Random(seed)
    col, r0 = 15, 4
    # The lane and the hexes beside it stay clear: no attacker blocks the path or engages the traveller.
    taken = {(c, r) for c in range(col - 1, col + 2) for r in range(r0 - 1, r0 + 22)}
    combatants: list[dict[str, object]] = [
        {"name": "Traveller", "side": "party", "at": format_coord((col, r0)), "ap": 10, "stride": 2}
    ]
    weapons = ("missile", "thrown", "polearm", "wand", "natural")
    placed = 0
    while placed < 20:
        c, r = rng.randrange(col - 8, col + 9), rng.randrange(r0, r0 + 21)
        if (c, r) in taken or not (0 <= c < SIDE and 0 <= r < SIDE):
            continue
        # Attackers keep a hex apart so none is engaged with another party member.
        taken.update({(c + a, r + b) for a in (-1, 0, 1) for b in (-1, 0, 1)})
        weapon = weapons[placed % len(weapons)]
        combatants.append(
            {
                "name": f"Archer {placed}",
                "side": "raiders",
                "at": format_coord((c, r)),
                "weapon": weapon,
                "range": 6,
                "reach": 3,
            }
        )
        placed += 1
    data = {"ruleset": "aphex", "map": {"width": SIDE, "height": SIDE}, "combatants": combatants}
    enc = encounter_model("aphex").model_validate(data)
    path = [format_coord((col, r)) for r in range(r0 + 1, r0 + 21)]
    return enc, Action(kind="move", who="Traveller", path=path)


def dragonquest_case(seed: int = 3) -> tuple[object, Action]:
    """30x30 hexes, 40 figures; a TMR 10 figure walks south until a foe's Melee Zone stops it."""
    rng = random.Random(seed)
    col, r0 = 10, 3
    taken = {(c, r) for c in range(col - 1, col + 2) for r in range(r0 - 1, r0 + 12)}
    combatants: list[dict[str, object]] = [
        {"name": "Walker", "side": "party", "at": format_coord((col, r0)), "tmr": 10, "facing": "S"}
    ]
    # The foe whose Melee Zone the path enters: beside the lane, facing it (its zone covers K12 and K13).
    combatants.append(
        {"name": "Guard", "side": "foes", "at": format_coord((col + 1, r0 + 8)), "facing": "NW"}
    )
    facings = ("N", "NE", "SE", "S", "SW", "NW")
    for i in range(38):
        while True:
            c, r = rng.randrange(SIDE), rng.randrange(SIDE)
            if (c, r) not in taken:
                break
        taken.add((c, r))
        combatants.append(
            {
                "name": f"Figure {i}",
                "side": ("party", "foes")[i % 2],
                "at": format_coord((c, r)),
                "facing": facings[i % 6],
            }
        )
    data = {"ruleset": "dragonquest", "map": {"width": SIDE, "height": SIDE}, "combatants": combatants}
    enc = encounter_model("dragonquest").model_validate(data)
    path = [format_coord((col, r)) for r in range(r0 + 1, r0 + 11)]
    return enc, Action(kind="move", who="Walker", path=path, mode="move")


def run_case(label: str, enc: object, action: Action, runs: int) -> tuple[float, float]:
    rs = get_ruleset(enc.ruleset)  # type: ignore[attr-defined]
    ruling = rs.adjudicate(enc, action)
    if not ruling.legal:
        raise SystemExit(f"{label}: the benchmark's move is illegal: {ruling.error}")
    shape = (
        f"{len(ruling.path) - 1} squares/hexes, cost {ruling.cost}, "
        f"{len(ruling.opportunities)} opportunities, {len(ruling.points)} reaction points"
        + (f", stops at {ruling.stop_at}" if ruling.stop_at else "")
    )
    ruled = time_calls(lambda: rs.adjudicate(enc, action), runs)
    begun = time_calls(lambda: begin(enc, action), max(10, runs // 2))
    print(f"{label}\n    ({shape})")
    print(f"    adjudicate  {ruled}")
    print(f"    begin       {begun}")
    return ruled.median, ruled.p99


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400)
    args = parser.parse_args()
    enc, explicit, found = dnd35_case()
    median, _ = run_case(
        "dnd35: 20-square move, 30x30, 50 combatants (explicit path)", enc, explicit, args.runs
    )
    run_case("dnd35: same destination as one square (path finding)", enc, found, max(50, args.runs // 4))
    enc_a, move_a = aphex_case()
    run_case("aphex: 10-AP move (20 hexes, stride 2), 20 attackers", enc_a, move_a, args.runs)
    enc_d, move_d = dragonquest_case()
    run_case("dragonquest: TMR 10 move, 30x30, 40 figures", enc_d, move_d, args.runs)
    print(f"GOAL dnd35 adjudicate median < {GOAL_MS:.0f} ms: {median:.3f} ms -> {verdict(median < GOAL_MS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
