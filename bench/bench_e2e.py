"""End-to-end benchmark: `/move` through the real bot under SimCord against a no-op slash command.

Run: ``python bench/bench_e2e.py [--runs N] [--side N] [--count N]``. One bot (`bot.create_bot`, a
SQLite file in a temp dir, WAL + ``synchronous=FULL`` as shipped) in one SimCord world. The bench adds
a ``/noop`` command to this bot instance only (it replies "ok" and does nothing else): the floor of the
harness (SimCord's gateway and HTTP simulation, discord.py's dispatch). Then, interleaved call by call:

- ``/noop``;
- ``/move`` of a combatant one square, provoking nothing, so it completes in the one command: load,
  rule, the SQLite commit (encounter + log), the public ruling with its map and the outcome message
  with its map;
- the same ``/move`` with the bot's map renderer switched off (to show where the time goes).

The encounter: a ``--side`` square map with ``--count`` combatants (default 30x30 and 40, all on one
side). Goal: ``/move`` at most 1.5x the no-op floor (median).

Two clocks per call. "Done" runs from the dispatch of the interaction to the end of the bot's last REST
call (SimCord's HTTP router is wrapped to note the time): when the user sees the last message. "Settled"
is the wall time of ``member.slash`` itself, which also includes SimCord's settling: when the only
thing left is a finished task's bookkeeping callback it sleeps its whole 50 ms idle interval, which
puts a flat ~50 ms on a no-op. The goal is judged on "done".
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
import simcord
import simcord.http.router as simcord_router
from _common import Stats, verdict

from bot import Settings, create_bot
from cogs.play._cog import flow_of
from rules.coords import format_coord
from rules.encounter_file import load_data

GOAL_RATIO = 1.5


def settings(db: Path) -> Settings:
    """What the tests use (tests/conftest.py make_settings): no token, one shard, no .env file."""
    return Settings(  # type: ignore[call-arg]
        _env_file=None, db_path=db, token=None, shard_count=1, log_level="WARNING", sync_commands="always"
    )


def encounter_data(side: int, count: int, gm_player: int) -> dict[str, Any]:
    """``count`` allies in the even columns; the first one walks between column A and B (free squares)."""
    spots = [(c, r) for r in range(0, side, 2) for c in range(0, side, 2)][:count]
    return {
        "ruleset": "dnd35",
        "map": {"width": side, "height": side},
        "combatants": [
            {"name": f"Fighter {i}", "side": "party", "at": format_coord(p), "player": gm_player}
            for i, p in enumerate(spots)
        ],
    }


async def run(runs: int, side: int, count: int) -> tuple[dict[str, Stats], dict[str, Stats]]:
    logging.getLogger("discord").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="opportunist-bench-") as tmp:
        bot = create_bot(settings(Path(tmp) / "opportunist.sqlite3"))

        @bot.tree.command(name="noop", description="Benchmark floor: reply and do nothing else")
        async def noop(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("ok")

        async with simcord.run(bot) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("combat")
            gm = guild.add_member(env.create_user("gm"))
            assert bot.storage is not None
            await bot.storage.create_encounter(
                channel.id, load_data(encounter_data(side, count, gm.id)), gm_id=gm.id, guild_id=guild.id
            )
            flow = flow_of(bot)
            renderer = flow.render
            squares = ["B1", "A1"]
            labels = ("noop", "move", "move, no map")
            done: dict[str, list[float]] = {label: [] for label in labels}
            settled: dict[str, list[float]] = {label: [] for label in labels}
            step = 0

            async def move(label: str) -> None:
                nonlocal step
                result = await gm.slash(channel, "move", who="Fighter 0", path=squares[step % 2])
                step += 1
                if result.ephemeral:
                    raise SystemExit(
                        f"/move was refused: {result.response.content if result.response else result}"
                    )
                del label

            last_rest = 0.0
            dispatch = simcord_router.dispatch

            def noted(*args: Any, **kwargs: Any) -> Any:
                nonlocal last_rest
                try:
                    return dispatch(*args, **kwargs)
                finally:
                    last_rest = time.perf_counter()

            simcord_router.dispatch = noted
            try:
                for n in range(runs + 3):  # 3 warm-up rounds
                    for label in labels:
                        flow.render = None if label == "move, no map" else renderer
                        start = time.perf_counter()
                        if label == "noop":
                            result = await gm.slash(channel, "noop")
                            assert result.response is not None and result.response.content == "ok"
                        else:
                            await move(label)
                        if n >= 3:
                            done[label].append((last_rest - start) * 1000)
                            settled[label].append((time.perf_counter() - start) * 1000)
            finally:
                simcord_router.dispatch = dispatch
                flow.render = renderer
            stored = await bot.storage.require_encounter(channel.id)
            assert stored.version == 1 + step, "every /move committed once"
            assert not env.errors, env.errors
        await bot.close()
    return (
        {label: Stats(values) for label, values in done.items()},
        {label: Stats(values) for label, values in settled.items()},
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--side", type=int, default=30)
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()
    done, settled = asyncio.run(run(args.runs, args.side, args.count))
    print(
        f"{args.side}x{args.side} map, {args.count} combatants; the real bot under SimCord, "
        "SQLite WAL, synchronous=FULL"
    )
    for clock, results in (("done (last REST call)", done), ("settled (member.slash)", settled)):
        floor = results["noop"].median
        print(f"  {clock}:")
        for label, stats in results.items():
            print(f"    /{label:<14} {stats}   {stats.median / floor:5.1f}x the no-op")
    ratio = done["move"].median / done["noop"].median
    print(f"GOAL /move <= {GOAL_RATIO}x the no-op command: {ratio:.1f}x -> {verdict(ratio <= GOAL_RATIO)}")
    bare = done["move, no map"].median / done["noop"].median
    print(f"    (/move without its two map pictures: {bare:.1f}x the no-op)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
