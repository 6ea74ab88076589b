"""Benchmark of the fewest-opportunities path finder against networkx's Dijkstra on the same graph.

Run: ``python bench/bench_pathfind.py [--runs N]``. A 100x100 map with 200 combatants (100 foes, some
with 10-foot reach; walls and difficult terrain), and a Medium mover crossing it from the west edge to
the east edge; once with a battle line of foes across the middle (every crossing provokes, so the
search must first exhaust every route with no opportunity), once with the foes scattered.
`rules.pathfind.find_path` gets the problem as the dnd35 adjudicator builds it (foes'
spaces closed, a bit per foe on the squares it threatens and on its space); networkx gets the same
states and moves as an explicit graph: a node per (square, diagonal parity), an edge per legal step
weighted ``opportunities * BIG + cost``, the lexicographic order of the search. The graph is built
here from the rules (not from `rules.pathfind`'s own helpers), so equal answers are a real check.
Goal: find_path at least 3x faster than `networkx.dijkstra_path` (graph built beforehand).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import networkx as nx
from _common import Stats, time_calls, verdict

from rules.pathfind import DIAGONAL, ORTHOGONAL, Grid, find_path

SIDE = 100
BIG = 1_000_000  # larger than any path cost, so one more opportunity always outweighs any detour
GOAL_RATIO = 3.0


def problem(battle_line: bool, seed: int = 17) -> Grid:
    """The seeded 100x100 map with 200 combatants, as the path finder sees it."""
    rng = random.Random(seed)
    start, goal = (0, SIDE // 2), (SIDE - 1, SIDE // 2)
    # With ``battle_line``, a foe every third row of column 50 (their areas overlap, so every crossing
    # provokes) and 66 foes scattered, else 100 foes scattered; the other 100 combatants are the
    # mover's allies (passable, threatening nothing).
    line = [(SIDE // 2, y) for y in range(0, SIDE, 3)] if battle_line else []
    cells = [(c, r) for c in range(SIDE) for r in range(SIDE) if (c, r) not in (start, goal, *line)]
    rng.shuffle(cells)
    foes = line + cells[: 100 - len(line)]
    walls = frozenset(cells[200:700])  # 5% walls (cells[100:200] are the allies' squares)
    difficult = frozenset(cells[700:1700])  # 10% difficult terrain
    threat: dict[tuple[int, int], int] = {}
    enter: dict[tuple[int, int], int] = {}
    for i, (x, y) in enumerate(foes):
        bit = 1 << i
        reach = 2 if i % 5 == 0 else 1  # every fifth foe has 10-foot reach
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                sq = (x + dx, y + dy)
                if 0 <= sq[0] < SIDE and 0 <= sq[1] < SIDE and sq not in walls:
                    threat[sq] = threat.get(sq, 0) | bit
        enter[(x, y)] = enter.get((x, y), 0) | bit
    return Grid(
        width=SIDE,
        height=SIDE,
        start=start,
        goal=goal,
        budget=200,  # the most any dnd35 mode allows: a withdraw at the 500 ft speed cap
        walls=walls,
        closed=frozenset(foes),
        difficult=difficult,
        threat=threat,
        enter=enter,
    )


def graph(g: Grid) -> nx.DiGraph:
    """Every legal step of a Medium mover as a weighted edge between (square, parity) nodes."""
    G = nx.DiGraph()  # noqa: N806 - networkx's customary name

    def free(q: tuple[int, int]) -> bool:
        return 0 <= q[0] < g.width and 0 <= q[1] < g.height and q not in g.walls and q not in g.closed

    def open_corner(q: tuple[int, int]) -> bool:
        return not (0 <= q[0] < g.width and 0 <= q[1] < g.height) or q not in g.walls

    for x in range(g.width):
        for y in range(g.height):
            p = (x, y)
            if not free(p):
                continue
            for dx, dy in ORTHOGONAL + DIAGONAL:
                q = (x + dx, y + dy)
                if not free(q):
                    continue
                diagonal = dx != 0 and dy != 0
                if diagonal and not (open_corner((x + dx, y)) and open_corner((x, y + dy))):
                    continue  # SRD: no diagonal past the corner of a wall
                hard = q in g.difficult
                left = g.threat.get(p, 0)
                if q != g.goal:
                    left &= ~g.threat.get(q, 0)  # still threatened: counted when the path leaves the area
                entered = g.enter.get(q, 0) & ~g.enter.get(p, 0)
                opps = (left | entered).bit_count()
                for parity in (0, 1):
                    if diagonal:
                        cost, after = (3 if hard else 1 + parity), parity ^ 1
                    else:
                        cost, after = (2 if hard else 1), parity
                    G.add_edge((p, parity), (q, after), weight=opps * BIG + cost)
    for parity in (0, 1):
        G.add_edge((g.goal, parity), "goal", weight=0)
    return G


def compare(label: str, g: Grid, runs: int) -> float:
    """Solve with both, check they agree, time them interleaved; return networkx / find_path."""
    found = find_path(g)
    if found.path is None:
        raise SystemExit(f"no path: {found.reason}")
    started = time.perf_counter()
    G = graph(g)  # noqa: N806 - networkx's customary name
    build_ms = (time.perf_counter() - started) * 1000
    source = (g.start, g.start_parity)
    nx_path = nx.dijkstra_path(G, source, "goal", weight="weight")
    nx_opps, nx_cost = divmod(nx.path_weight(G, nx_path, weight="weight"), BIG)
    same = (found.opportunities, found.cost) == (nx_opps, nx_cost)
    print(
        f"{label}: {len(g.walls)} walls, {len(g.difficult)} difficult squares; networkx graph "
        f"{G.number_of_nodes()} nodes, {G.number_of_edges()} edges (built in {build_ms:.0f} ms)"
    )
    print(
        f"    find_path: {found.opportunities} opportunities, cost {found.cost} squares, "
        f"{len(found.path)} steps"
    )
    print(f"    networkx:  {nx_opps} opportunities, cost {nx_cost} squares, {len(nx_path) - 2} steps")
    # Interleaved, so a change in the machine's load hits both sides alike.
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(time_calls(lambda: find_path(g), 1, warmup=0).median)
        theirs.append(
            time_calls(lambda: nx.dijkstra_path(G, source, "goal", weight="weight"), 1, warmup=0).median
        )
    mine, nx_stats = Stats(ours), Stats(theirs)
    ratio = nx_stats.median / mine.median
    print(f"    rules.pathfind.find_path   {mine}")
    print(f"    networkx.dijkstra_path     {nx_stats}")
    print(
        f"    ratio networkx / find_path: {ratio:.2f}x (counting networkx's graph build: "
        f"{(nx_stats.median + build_ms) / mine.median:.1f}x)"
    )
    print(f"    same (opportunities, cost): {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit("find_path and networkx disagree")
    return ratio


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    line = compare("100x100, 200 combatants, a battle line of foes to cross", problem(True), args.runs)
    scattered = compare("100x100, 200 combatants, foes scattered", problem(False), args.runs)
    for label, ratio in (("battle line", line), ("scattered", scattered)):
        print(
            f"GOAL find_path >= {GOAL_RATIO:.0f}x faster than networkx Dijkstra ({label}): "
            f"{ratio:.2f}x -> {verdict(ratio >= GOAL_RATIO)}"
        )
    print("CHECK both give the same (opportunities, cost): yes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
