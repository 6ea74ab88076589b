"""Throughput benchmark: `/move`s per second across 100 channels, the real bot under SimCord.

Run: ``python bench/bench_throughput.py [--channels N] [--waves N] [--side N] [--count N]``. One bot
(`bot.create_bot`, one SQLite file in WAL with ``synchronous=FULL`` as shipped) in one SimCord world
with ``--channels`` channels, each holding its own encounter (default 30x30, 40 combatants, all
allies: a move provokes nothing, so it completes in the one command, commit included). A wave sends
one `/move` into every channel at once (the interactions are all dispatched before the bot handles
any, as Discord would deliver them) and waits until the bot has answered them all; the rate is moves
over the time from the first dispatch to the bot's last REST call. Every move is checked: no error,
and each channel's encounter version advanced once per wave (committed).

SimCord's public `member.slash` waits for the bot to settle after each interaction, so the bench
dispatches with the same steps `member.slash` takes (SimCord's own helpers) and settles once per wave.
The waves run twice: as shipped, and with the bot's map renderer switched off (to show where the
time goes). Goal: at least 500 moves per second on this 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord
import simcord.actors as simcord_actors
import simcord.http.router as simcord_router
from _common import verdict
from bench_e2e import encounter_data, settings
from simcord.enums import AppCommandType, InteractionType

from bot import create_bot
from cogs.play._cog import flow_of
from rules.encounter_file import load_data

GOAL_RATE = 500.0


def dispatch_slash(actor: Any, channel: Any, name: str, **options: Any) -> None:
    """`member.slash` without the wait: build and dispatch the interaction (SimCord's own steps)."""
    interactions = simcord_actors._interactions
    root = simcord_actors._resolve_visible_command(actor, channel.id, name, AppCommandType.CHAT_INPUT)
    leaf, nesting = interactions.walk_to_subcommand(root, [])
    leaf_options, resolved = interactions.build_options(actor, name, leaf, options, channel_id=channel.id)
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": interactions.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    backend = actor._env.backend
    record, payload = interactions.base_payload(
        backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    actor._env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)


async def run(channels: int, waves: int, side: int, count: int) -> dict[str, float]:
    logging.getLogger("discord").setLevel(logging.WARNING)
    rates: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="opportunist-bench-") as tmp:
        bot = create_bot(settings(Path(tmp) / "opportunist.sqlite3"))
        async with simcord.run(bot) as env:
            guild = env.create_guild("Bench")
            gm = guild.add_member(env.create_user("gm"))
            rooms = [guild.create_text_channel(f"table-{i}") for i in range(channels)]
            assert bot.storage is not None
            for room in rooms:
                await bot.storage.create_encounter(
                    room.id, load_data(encounter_data(side, count, gm.id)), gm_id=gm.id, guild_id=guild.id
                )
            flow = flow_of(bot)
            renderer = flow.render
            last_rest = 0.0
            original = simcord_router.dispatch

            def noted(*args: Any, **kwargs: Any) -> Any:
                nonlocal last_rest
                try:
                    return original(*args, **kwargs)
                finally:
                    last_rest = time.perf_counter()

            simcord_router.dispatch = noted
            squares = ["B1", "A1"]
            moved = 0
            try:
                for label, render in (("as shipped", renderer), ("map renderer off", None)):
                    flow.render = render
                    elapsed = 0.0
                    for wave in range(waves + 1):  # wave 0 warms up
                        start = time.perf_counter()
                        for room in rooms:
                            dispatch_slash(gm, room, "move", who="Fighter 0", path=squares[moved % 2])
                        # Below the flow's 300 s deadline-task sleep, which a longer timeout waits for.
                        await env.settle(timeout=120)
                        if wave:
                            elapsed += last_rest - start
                        moved += 1
                    rates[label] = channels * waves / elapsed
                    per_move = elapsed / (channels * waves) * 1000
                    print(
                        f"    {label:<18} {channels * waves} moves in {elapsed:6.2f} s: "
                        f"{rates[label]:7.1f} moves/s ({per_move:5.2f} ms per move)"
                    )
            finally:
                simcord_router.dispatch = original
                flow.render = renderer
            if env.errors:
                raise SystemExit(f"the bot raised errors: {env.errors[:3]!r}")
            for room in rooms:
                stored = await bot.storage.require_encounter(room.id)
                assert stored.version == 1 + moved, f"channel {room.id}: {stored.version} != {1 + moved}"
        await bot.close()
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--waves", type=int, default=3)
    parser.add_argument("--side", type=int, default=30)
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()
    print(
        f"{args.channels} channels, {args.side}x{args.side} map and {args.count} combatants each; "
        f"{os.cpu_count()} CPUs; one bot under SimCord, SQLite WAL, synchronous=FULL"
    )
    rates = asyncio.run(run(args.channels, args.waves, args.side, args.count))
    rate = rates["as shipped"]
    print(f"GOAL >= {GOAL_RATE:.0f} moves/s: {rate:.1f} moves/s -> {verdict(rate >= GOAL_RATE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
