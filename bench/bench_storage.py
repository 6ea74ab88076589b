"""Benchmark of storage scaling: one channel's reads and writes with 10, 10,000 and 100,000 encounters.

Run: ``python bench/bench_storage.py [--rounds N]``. Three SQLite files in a temp dir, each filled
in one ``executemany`` transaction like a busy bot's database: per encounter 3 events, 2 answered
prompts and a standing order; 1% of channels with an action in flight and an open prompt. Then, with
`storage.Storage` as the bot opens it (WAL, ``synchronous=FULL``), one 30x30 encounter with 40
combatants is timed in each file, the files taking turns in blocks of rounds so that changes in the
machine's load hit all three alike:

- load:   what `/move` reads first (encounter, action in flight, standing orders);
- save:   `save_encounter` (one transaction, fsync);
- commit: the flow's completed-action transaction (save + event + clear the action in flight).

Goal: the 100,000-encounter file within 1.1x of the 10-encounter file, per operation: the median over
turns of the ratio of the two files' block medians in that turn.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import Stats, verdict

from rules.coords import format_coord
from rules.encounter_file import to_data
from rules.rulesets import encounter_model
from storage import Storage

SIZES = (10, 10_000, 100_000)
GOAL_RATIO = 1.1
TARGET_CHANNEL = 1


def sample(side: int, count: int, seed: int) -> object:
    """A dnd35 encounter of ``count`` combatants on a ``side`` x ``side`` map."""
    rng = random.Random(seed)
    cells = rng.sample([(c, r) for c in range(side) for r in range(side)], count)
    data = {
        "ruleset": "dnd35",
        "map": {"width": side, "height": side},
        "combatants": [
            {
                "name": f"Fighter {i}",
                "side": ("party", "monsters")[i % 2],
                "at": format_coord(p),
                "player": 1000 + i,
            }
            for i, p in enumerate(cells)
        ],
    }
    return encounter_model("dnd35").model_validate(data)


def fill(path: Path, encounters: int) -> None:
    """Add ``encounters`` other channels' encounters (with their history) in one transaction."""
    filler = json.dumps(to_data(sample(12, 6, 1)), separators=(",", ":"))
    event = json.dumps({"by": 1, "ruling": {"who": "Fighter 0", "path": ["A1", "B2"]}}, separators=(",", ":"))
    question = json.dumps({"id": "p0:Orc:aoo#1", "kind": "aoo", "choices": ["take", "decline"]})
    now = time.time()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    channels = range(10_000, 10_000 + encounters)
    db.executemany(
        "INSERT INTO encounters (id, channel_id, guild_id, gm_id, ruleset, data, version, created_at, "
        "updated_at) VALUES (?, ?, 7, 99, 'dnd35', ?, 1, ?, ?)",
        ((ch, ch, filler, now, now) for ch in channels),
    )
    db.executemany(
        "INSERT INTO events (encounter_id, kind, data, created_at) VALUES (?, 'action', ?, ?)",
        ((ch, event, now) for ch in channels for _ in range(3)),
    )
    db.executemany(
        "INSERT INTO prompts (encounter_id, channel_id, question_id, question, combatant, ping_user, "
        "status, choice, answered_by, created_at, answered_at) "
        "VALUES (?, ?, 'p0:Orc:aoo#1', ?, 'Orc', 5, 'answered', 'take', 'user', ?, ?)",
        ((ch, ch, question, now, now) for ch in channels for _ in range(2)),
    )
    db.executemany(
        "INSERT INTO standing_orders (encounter_id, combatant, trigger, policy, set_by) "
        "VALUES (?, 'Fighter 1', 'movement', 'decline', 5)",
        ((ch,) for ch in channels),
    )
    busy = [ch for ch in channels if ch % 100 == 0]
    db.executemany(
        "INSERT INTO adjudications (encounter_id, channel_id, base_version, started_by, data, created_at, "
        "updated_at) VALUES (?, ?, 1, 5, '{}', ?, ?)",
        ((ch, ch, now, now) for ch in busy),
    )
    db.executemany(
        "INSERT INTO prompts (adjudication_id, encounter_id, channel_id, question_id, question, combatant, "
        "ping_user, deadline, created_at) "
        "SELECT id, ?, ?, 'p0:Orc:aoo#2', ?, 'Orc', 5, ?, ? FROM adjudications WHERE encounter_id = ?",
        ((ch, ch, question, now + 3600, now, ch) for ch in busy),
    )
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


async def build(directory: Path, size: int, encounter: object) -> Storage:
    path = directory / f"opportunist-{size}.sqlite3"
    storage = await Storage.open(path)  # creates the schema
    await storage.close()
    fill(path, size - 1)
    storage = await Storage.open(path)
    await storage.create_encounter(TARGET_CHANNEL, encounter, gm_id=99, guild_id=7)  # type: ignore[arg-type]
    return storage


Result = tuple[dict[str, dict[int, Stats]], dict[str, dict[int, list[float]]]]


async def measure(rounds: int) -> Result:
    """Per operation and file size: all times, and the median of each block (one per turn)."""
    encounter = sample(30, 40, 2)
    ops = ("load", "save", "commit")
    times: dict[str, dict[int, list[float]]] = {op: {n: [] for n in SIZES} for op in ops}
    blocks: dict[str, dict[int, list[float]]] = {op: {n: [] for n in SIZES} for op in ops}
    with tempfile.TemporaryDirectory(prefix="opportunist-bench-") as tmp:
        stores = {}
        for size in SIZES:
            started = time.perf_counter()
            stores[size] = await build(Path(tmp), size, encounter)
            mb = stores[size].path.stat().st_size / 2**20
            print(f"built {size:>7,} encounters in {time.perf_counter() - started:5.1f} s ({mb:6.1f} MB)")
        versions = {size: 1 for size in SIZES}
        try:
            # Blocks of consecutive rounds per file, the files taking turns: every aiosqlite call hops to
            # the connection's own thread, and a thread that just ran answers faster than one that
            # slept (two identical files measured op by op in turn differ by 2x), so each file gets the
            # same treatment; the first round of a block is not counted, nor the first 2 blocks.
            order = list(stores)
            block = 10
            for b in range(rounds // (block - 1) + 2):
                order = order[1:] + order[:1]
                for size in order:
                    storage = stores[size]
                    mine: dict[str, list[float]] = {op: [] for op in ops}
                    for r in range(block):
                        t0 = time.perf_counter()
                        stored = await storage.require_encounter(TARGET_CHANNEL)
                        await storage.load_pending(TARGET_CHANNEL)
                        await storage.orders(TARGET_CHANNEL)
                        t1 = time.perf_counter()
                        versions[size] = await storage.save_encounter(
                            TARGET_CHANNEL, stored.encounter, versions[size]
                        )
                        t2 = time.perf_counter()
                        async with storage.transaction():
                            versions[size] = await storage.save_encounter(
                                TARGET_CHANNEL, stored.encounter, versions[size]
                            )
                            await storage.append_event(TARGET_CHANNEL, "action", {"by": 1, "round": r})
                            await storage.clear_pending(TARGET_CHANNEL)
                        t3 = time.perf_counter()
                        if b >= 2 and r > 0:
                            mine["load"].append((t1 - t0) * 1000)
                            mine["save"].append((t2 - t1) * 1000)
                            mine["commit"].append((t3 - t2) * 1000)
                    for op, values in mine.items():
                        if values:
                            times[op][size].extend(values)
                            blocks[op][size].append(statistics.median(values))
        finally:
            for storage in stores.values():
                await storage.close()
    return {op: {n: Stats(v) for n, v in by_size.items()} for op, by_size in times.items()}, blocks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args()
    results, blocks = asyncio.run(measure(args.rounds))
    for op, by_size in results.items():
        print(f"{op}:")
        for size, stats in by_size.items():
            print(f"    {size:>7,} encounters   {stats}")

        def paired(size: int, op: str = op) -> float:
            # The median over turns of (this file's block median / the small file's, same turn):
            # a change in the machine's load between turns cancels out.
            return statistics.median(
                a / b for a, b in zip(blocks[op][size], blocks[op][SIZES[0]], strict=True)
            )

        ratio, middle = paired(SIZES[-1]), paired(SIZES[1])
        overall = by_size[SIZES[-1]].median / by_size[SIZES[0]].median
        print(
            f"    ratio 100,000 / 10: {ratio:.2f}x (10,000 / 10: {middle:.2f}x; all medians: {overall:.2f}x)"
        )
        holds = verdict(ratio <= GOAL_RATIO)
        print(f"GOAL {op} 100,000 / 10 encounters <= {GOAL_RATIO}x: {ratio:.2f}x -> {holds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
