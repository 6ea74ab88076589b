"""`opportunist offline`: the real bot against SimCord's simulated Discord, shown in a browser.

A SimCord Preview presents exactly one channel, an Env allows one Preview, and an event loop one
Env; so each demo channel runs in its own thread with its own loop, Env and bot. Every world is
built identically (same guild id, same channel and user creation order), so SimCord's deterministic
snowflakes give the same channel and user ids in each world and across runs, and all the bots share
one SQLite file: an offline session persists like a real one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import FrameType
from typing import Any

from bot.client import create_bot
from bot.settings import Settings
from rules.encounter_file import load_text
from rules.model import Encounter
from rules.rulesets import RULESET_NAMES

log = logging.getLogger("opportunist.offline")

DEMO_GUILD_ID = 1_300_000_000_000_000_000  # pinned so channel ids stay stable across runs
DEMO_GUILD_NAME = "Opportunist demo"
COMBAT = "combat"
USERS = ("gm", "alice", "bob")
DEFAULT_DB = Path("opportunist-offline.sqlite3")
START_TIMEOUT = 60.0
TICK = 1.0  # seconds between advances of the simulated clock


@dataclass
class _World:
    """One thread: a simulated Discord presenting one channel in one Preview."""

    channel: str
    seed: Encounter | None
    replace: bool
    port: int
    ready: queue.Queue[tuple[str, str | BaseException]]
    loop: asyncio.AbstractEventLoop | None = None
    stop: asyncio.Event | None = None
    thread: threading.Thread | None = field(default=None, repr=False)


def sample(ruleset: str) -> Encounter:
    """The bundled sample encounter of a ruleset (``bot/samples/<ruleset>.yaml``)."""
    text = resources.files("bot").joinpath("samples", f"{ruleset}.yaml").read_text(encoding="utf-8")
    return load_text(text)


def _with_players(encounter: Encounter, players: list[int]) -> Encounter:
    """Hand the first side's GM-run combatants to the demo players in turn, so both can act."""
    if not encounter.combatants or not players:
        return encounter
    side = encounter.combatants[0].side
    turn = 0
    changed = []
    for c in encounter.combatants:
        if c.side == side and c.player is None:
            c = c.model_copy(update={"player": players[turn % len(players)]})
            turn += 1
        changed.append(c)
    return encounter.model_copy(update={"combatants": changed})


async def _serve(world: _World, settings: Settings) -> None:
    import simcord  # the `offline` extra; imported here so `opportunist run` never needs it

    bot = create_bot(settings)
    world.loop = asyncio.get_running_loop()
    world.stop = asyncio.Event()
    try:
        # check_errors=False: users make mistakes in a demo; the bot answers them, nothing to re-raise.
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild(DEMO_GUILD_NAME, id=DEMO_GUILD_ID)
            channels = {name: guild.create_text_channel(name) for name in (COMBAT, *RULESET_NAMES)}
            members = [guild.add_member(env.create_user(name)) for name in USERS]
            gm, players = members[0], members[1:]
            channel = channels[world.channel]
            if world.seed is not None and bot.storage is not None:
                existing = await bot.storage.load_encounter(channel.id)
                if existing is not None and world.replace:
                    await bot.storage.delete_encounter(channel.id)
                    existing = None
                if existing is None:
                    seed = _with_players(world.seed, [p.id for p in players])
                    await bot.storage.create_encounter(channel.id, seed, gm_id=gm.id, guild_id=guild.id)
            async with env.preview(channel, viewers=members, layout="channel", port=world.port) as preview:
                world.ready.put((world.channel, preview.url))
                closed = asyncio.ensure_future(preview.wait_closed())
                stopped = asyncio.ensure_future(world.stop.wait())
                ticker = asyncio.ensure_future(_follow_wall_clock(env))
                await asyncio.wait({closed, stopped}, return_when=asyncio.FIRST_COMPLETED)
                for task in (closed, stopped, ticker):
                    task.cancel()
                await asyncio.gather(ticker, return_exceptions=True)
    except BaseException as error:
        world.ready.put((world.channel, error))
        raise
    finally:
        if bot.storage is not None:
            await bot.storage.close()


async def _follow_wall_clock(env: Any, period: float = TICK) -> None:
    """Advance SimCord's virtual clock with the wall clock, so the bot's timers (prompt deadlines,
    reminders, view timeouts) fire in an offline session as they would on Discord.

    SimCord allows one operation at a time; a tick is skipped while a browser action runs and the
    time is caught up on the next one.
    """
    from simcord import SetupError

    loop = asyncio.get_running_loop()
    last = loop.time()
    while True:
        await asyncio.sleep(period)
        if env._operation_task is not None:  # a browser action is being handled right now
            continue
        now = loop.time()
        try:
            await env.advance_time(now - last)
        except (SetupError, TimeoutError) as exc:
            log.debug("clock tick skipped: %s", exc)
            continue
        last = now


def _thread_main(world: _World, settings: Settings) -> None:
    with contextlib.suppress(Exception):  # already reported through world.ready
        asyncio.run(_serve(world, settings))


def run_offline(
    *,
    db_path: Path,
    port: int = 0,
    encounter_file: Path | None = None,
    log_level: str = "WARNING",
    out: Callable[[str], None] = print,
    install_signals: bool = True,
) -> int:
    """Serve the demo until SIGINT/SIGTERM (or every Preview is closed); return the exit status."""
    seeds: list[tuple[str, Encounter | None, bool]]
    if encounter_file is not None:
        # SPEC §4: the given file instead of the samples, in #combat (replacing what was there).
        seeds = [(COMBAT, load_text(encounter_file.read_bytes()), True)]
    else:
        seeds = [(COMBAT, None, False)] + [(name, sample(name), False) for name in RULESET_NAMES]

    settings = Settings(
        _env_file=None,
        db_path=db_path,
        token=None,
        shard_count=1,
        sync_commands="always",  # a fresh simulated Discord knows no commands
        log_level=log_level,
    )
    ready: queue.Queue[tuple[str, str | BaseException]] = queue.Queue()
    worlds = [
        _World(channel=name, seed=seed, replace=replace, port=port + i if port else 0, ready=ready)
        for i, (name, seed, replace) in enumerate(seeds)
    ]
    stop = threading.Event()
    previous: dict[int, Any] = {}
    if install_signals:

        def _on_signal(received: int, frame: FrameType | None) -> None:
            stop.set()

        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, _on_signal)
    try:
        for world in worlds:
            world.thread = threading.Thread(
                target=_thread_main, args=(world, settings), name=f"offline-{world.channel}", daemon=True
            )
            world.thread.start()
        urls: dict[str, str] = {}
        failure: BaseException | None = None
        deadline = time.monotonic() + START_TIMEOUT
        while len(urls) < len(worlds) and failure is None and not stop.is_set():
            if time.monotonic() > deadline:
                failure = TimeoutError(f"the simulated Discord did not start within {START_TIMEOUT:.0f} s")
                break
            try:
                name, result = ready.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(result, BaseException):
                failure = result
            else:
                urls[name] = result
        if failure is not None:
            log.error("a simulated world failed to start", exc_info=failure)
            print(f"opportunist offline: could not start: {failure!r}", file=sys.stderr)
            return 1
        if stop.is_set():
            return 0
        out("Opportunist offline: the real bot against a simulated Discord (no token, no network).")
        out(f"Database: {db_path.resolve()}")
        out("Open a channel in your browser (each link carries its access token; keep it private):")
        for world in worlds:
            out(f"  #{world.channel:<12} {urls[world.channel]}")
        out("Type / in the message box for the slash commands; switch between gm, alice and bob at the top.")
        out("Press Ctrl-C to stop.")
        while not stop.is_set() and any(w.thread is not None and w.thread.is_alive() for w in worlds):
            stop.wait(0.2)
        return 0
    finally:
        for world in worlds:
            if world.loop is not None and world.stop is not None and not world.loop.is_closed():
                with contextlib.suppress(RuntimeError):  # the loop finished in between
                    world.loop.call_soon_threadsafe(world.stop.set)
        for world in worlds:
            if world.thread is not None:
                world.thread.join(timeout=15)
        for restored, handler in previous.items():
            signal.signal(restored, handler)
