"""Benchmark of the map renderer: median and p99 milliseconds per PNG.

Run: ``python bench/bench_render.py [--runs N]``. Scenarios: 30x30 dnd35 with 40 combatants, a
threat overlay and a ruling; a 30x30 hex map likewise; 100x100 with 200 combatants (full map, and
cropped to a ruling). Prints one line per scenario and exits 0.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render import draw
from rules.coords import format_coord
from rules.engine import Opportunity, Ruling
from rules.rulesets import encounter_model

GOAL_MS = 50.0  # issue 9: "30x30 map with 40 combatants and overlays (goal: under 50 ms)"


def encounter(ruleset: str, side: int, count: int, seed: int = 7):
    rng = random.Random(seed)
    cells = [(c, r) for c in range(side) for r in range(side)]
    rng.shuffle(cells)
    blocked = cells[:side]
    difficult = cells[side : 3 * side]
    spots = cells[3 * side : 3 * side + count]
    combatants = []
    for i, spot in enumerate(spots):
        c = {"name": f"Fighter {i}", "side": ("party", "monsters", "wolves")[i % 3], "at": format_coord(spot)}
        if ruleset == "dnd35" and i % 10 == 1 and spot[0] < side - 1 and spot[1] < side - 1:
            c["size"] = "large"
        if i % 7 == 0:
            c["conditions"] = ["stunned"]
        if ruleset == "dragonquest":
            c["facing"] = ("N", "NE", "SE", "S", "SW", "NW")[i % 6]
        combatants.append(c)
    data = {
        "ruleset": ruleset,
        "map": {
            "width": side,
            "height": side,
            "blocked": [format_coord(b) for b in blocked],
            "difficult": [format_coord(d) for d in difficult],
        },
        "combatants": combatants,
    }
    return encounter_model(ruleset).model_validate(data)


def ruling(enc, length: int = 8) -> Ruling:
    """A straight move of ``length`` squares by the first combatant; the nearest foes react along it."""
    mover = enc.combatants[0]
    col, row = mover.pos
    step = 1 if col < enc.map.width // 2 else -1  # towards the middle, so the path stays on the map
    path = [format_coord((col + step * i, row)) for i in range(length)]
    foes = sorted(
        (c for c in enc.combatants if c.side != mover.side),
        key=lambda c: abs(c.pos[0] - col) + abs(c.pos[1] - row),
    )
    opps = [
        Opportunity(attacker=c.name, at=path[i * 2 % len(path)], trigger="leave-threatened")
        for i, c in enumerate(foes[:3])
    ]
    return Ruling(
        ruleset=enc.ruleset,
        who=mover.name,
        action="move",
        mode="normal",
        legal=True,
        path=path,
        cost=5 * (length - 1),
        opportunities=opps,
    )


def threat(enc, who: int = 1) -> set[tuple[int, int]]:
    """A 5x5 block around a combatant (the extent of a reach-10 threat)."""
    col, row = enc.combatants[who].pos
    return {
        (col + dc, row + dr)
        for dc in range(-2, 3)
        for dr in range(-2, 3)
        if enc.map.contains((col + dc, row + dr))
    }


def measure(label: str, runs: int, **kwargs) -> float:
    draw(**kwargs)  # warm the sprite and font caches, as a running bot would be
    times = []
    size = 0
    for _ in range(runs):
        start = time.perf_counter()
        png = draw(**kwargs)
        times.append((time.perf_counter() - start) * 1000)
        size = len(png)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(
        f"{label:<44} median {statistics.median(times):6.1f} ms   p99 {p99:6.1f} ms   {size / 1024:6.0f} KB"
    )
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    small = encounter("dnd35", 30, 40)
    goal = measure(
        "dnd35 30x30, 40 combatants + threat + ruling",
        args.runs,
        encounter=small,
        threatened=threat(small),
        ruling=ruling(small),
        region="full",
    )
    hexes = encounter("dragonquest", 30, 40)
    measure(
        "dragonquest 30x30, 40 + threat + ruling",
        args.runs,
        encounter=hexes,
        threatened=threat(hexes),
        ruling=ruling(hexes),
        region="full",
    )
    big = encounter("dnd35", 100, 200)
    measure(
        "dnd35 100x100, 200 combatants (full map)",
        max(5, args.runs // 4),
        encounter=big,
        threatened=threat(big),
        region="full",
    )
    measure(
        "dnd35 100x100, 200 + ruling (auto crop)",
        args.runs,
        encounter=big,
        threatened=threat(big, 0),
        ruling=ruling(big),
    )
    bighex = encounter("aphex", 100, 200)
    measure(
        "aphex 100x100, 200 combatants (full map)", max(5, args.runs // 4), encounter=bighex, region="full"
    )
    verdict = "holds" if goal < GOAL_MS else "MISSED"
    print(f"GOAL 30x30, 40 combatants + overlays < {GOAL_MS:.0f} ms: {goal:.1f} ms -> {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
