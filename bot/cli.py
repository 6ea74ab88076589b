"""The `opportunist` command line (SPEC §4): run, offline, ruling, schema, render."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rules.encounter_file import json_schema, load_text
from rules.engine import Action
from rules.errors import OpportunistError
from rules.rulesets import get_ruleset

PROG = "opportunist"


class UsageError(Exception):
    """Bad command-line input: one line on stderr, exit status 2."""


# -- parser ------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Opportunist: a Discord bot that adjudicates attacks of opportunity."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sub.add_parser(
        "run",
        help="connect to Discord (token from OPPORTUNIST_TOKEN or DISCORD_TOKEN)",
        description="Connect to Discord. Configuration: OPPORTUNIST_TOKEN (or DISCORD_TOKEN), "
        "OPPORTUNIST_DB, OPPORTUNIST_DEV_GUILD, OPPORTUNIST_LOG_LEVEL, from the environment or .env.",
    )

    offline = sub.add_parser(
        "offline",
        help="the real bot against a simulated Discord in your browser (no token, no network)",
        description="Run the real bot against SimCord's simulated Discord; its Preview is on 127.0.0.1.",
    )
    offline.add_argument("--port", type=int, default=0, help="first Preview port (default: any free port)")
    offline.add_argument(
        "--db", type=Path, default=None, help="SQLite file (default: ./opportunist-offline.sqlite3)"
    )
    offline.add_argument(
        "--encounter", type=Path, default=None, metavar="FILE", help="load this encounter file"
    )

    ruling = sub.add_parser(
        "ruling",
        help="a one-shot ruling on an encounter file; nothing is saved",
        description="ACTION is `move SQUARE...` (squares entered, in order; one non-adjacent square "
        "= find the path) or `act ACTION_NAME`.",
    )
    ruling.add_argument("file", type=Path, metavar="FILE")
    ruling.add_argument("who", metavar="WHO")
    ruling.add_argument("action", nargs="+", metavar="ACTION")
    ruling.add_argument("--mode", default=None, help="movement mode (default: the ruleset's first)")
    ruling.add_argument("--target", default=None, metavar="NAME")
    ruling.add_argument("--json", action="store_true", help="print SPEC §4's JSON object")

    sub.add_parser("schema", help="JSON Schema of the encounter file")

    render = sub.add_parser("render", help="the map as a PNG, optionally with threats or a ruling")
    render.add_argument("file", type=Path, metavar="FILE")
    render.add_argument("-o", "--output", type=Path, required=True, metavar="OUT.png")
    render.add_argument("--threats", default=None, metavar="WHO|SIDE")
    render.add_argument("--ruling", nargs="+", default=None, metavar="WHO ACTION")
    render.add_argument("--mode", default=None)
    render.add_argument("--target", default=None)
    return parser


def action_from_tokens(
    who: str, tokens: Sequence[str], *, mode: str | None = None, target: str | None = None
) -> Action:
    """Build a `rules.engine.Action` from ``move SQUARE...`` or ``act ACTION_NAME`` tokens."""
    if not tokens:
        raise UsageError("missing ACTION: use `move SQUARE...` or `act ACTION_NAME`")
    kind, rest = tokens[0].lower(), list(tokens[1:])
    if kind == "move":
        if not rest:
            raise UsageError("`move` needs at least one square, e.g. `move C3 D4`")
        return Action(
            kind="move", who=who, path=[s.upper() for s in rest], mode=mode or "normal", target=target
        )
    if kind == "act":
        if len(rest) != 1:
            raise UsageError("`act` takes exactly one action name, e.g. `act cast-spell`")
        return Action(kind="act", who=who, name=rest[0], mode=mode or "normal", target=target)
    raise UsageError(f"unknown action `{tokens[0]}`: use `move SQUARE...` or `act ACTION_NAME`")


# -- ruling ------------------------------------------------------------------------------------


class NotAvailableError(Exception):
    """The ruleset module is not there yet."""


def _load(path: Path) -> Any:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    return load_text(data)


def rule(
    path: Path, who: str, tokens: Sequence[str], *, mode: str | None, target: str | None
) -> dict[str, Any]:
    """Adjudicate one action on an encounter file; SPEC §4's JSON object."""
    encounter = _load(path)
    name = encounter.find(who).name  # unknown combatant: InputError naming the choices
    try:
        ruleset = get_ruleset(encounter.ruleset)
    except (ImportError, AttributeError):
        raise NotAvailableError(f"rulings for `{encounter.ruleset}` are not yet available") from None
    modes = tuple(getattr(ruleset, "modes", ()) or ("normal",))
    action = action_from_tokens(name, tokens, mode=mode or modes[0], target=target)
    result: dict[str, Any] = ruleset.adjudicate(encounter, action).to_json()
    return result


def format_ruling(data: dict[str, Any]) -> str:
    """The readable text form of a ruling's JSON object."""
    # A non-move action has no movement mode worth showing.
    mode = f" ({data['mode']})" if data["action"] == "move" else ""
    head = f"{data['who']}: {data['action']}{mode}, {data['ruleset']}"
    if not data.get("legal"):
        return f"{head}\nILLEGAL: {data.get('error') or 'not allowed'}"
    lines = [f"{head}: legal"]
    if data.get("path"):
        lines.append(f"path: {' -> '.join(data['path'])}   cost: {data.get('cost')}")
    opportunities = data.get("opportunities") or []
    if opportunities:
        lines.append("opportunities, in the order they resolve:")
        for i, o in enumerate(opportunities, start=1):
            where = f" at {o['at']}" if o.get("at") else ""
            windows = o.get("windows")
            after = f", after AP {', '.join(str(w) for w in windows)}" if windows else ""
            lines.append(f"  {i}. {o['attacker']}{where}: {o['trigger']}{after}")
    else:
        lines.append("opportunities: none")
    if data.get("stop_at"):
        lines.append(f"stop at: {data['stop_at']}")
    for note in data.get("notes") or []:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def _cmd_ruling(ns: argparse.Namespace, out: TextIO) -> int:
    data = rule(ns.file, ns.who, ns.action, mode=ns.mode, target=ns.target)
    if ns.json:
        out.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        out.write(format_ruling(data) + "\n")
    return 0


# -- run ---------------------------------------------------------------------------------------


def setup_logging(level: str) -> None:
    """Log lines to stderr; discord.py's own chatter only from WARNING unless DEBUG."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(max(logging.WARNING, logging.getLevelName(level)))


async def _run_bot(token: str, settings: Any) -> int:
    import discord

    from bot.client import create_bot

    bot = create_bot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(token))
        waiter = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if runner in done:
            try:
                runner.result()
            except discord.LoginFailure:
                print(f"{PROG}: Discord rejected the token; check OPPORTUNIST_TOKEN.", file=sys.stderr)
                return 1
        logging.getLogger("opportunist").info("stopping: closing the connection and the database")
        await bot.close()  # also closes storage: every committed action is on disk
        if not runner.done():
            runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    return 0


def _cmd_run(ns: argparse.Namespace) -> int:
    from bot.settings import Settings

    settings = Settings()
    if settings.token is None:
        print(
            f"{PROG}: no Discord token: set OPPORTUNIST_TOKEN (or DISCORD_TOKEN) in the environment or .env",
            file=sys.stderr,
        )
        return 2
    setup_logging(settings.log_level)
    return asyncio.run(_run_bot(settings.token.get_secret_value(), settings))


def _cmd_offline(ns: argparse.Namespace) -> int:
    from bot.offline import DEFAULT_DB, run_offline
    from bot.settings import Settings

    if importlib.util.find_spec("simcord") is None:  # pragma: no cover - the offline extra is missing
        print(f"{PROG}: offline mode needs SimCord: pip install 'opportunist[offline]'", file=sys.stderr)
        return 2
    # The console belongs to the URLs: our INFO lines only when asked for (OPPORTUNIST_LOG_LEVEL=DEBUG).
    level = Settings().log_level
    setup_logging("WARNING" if level == "INFO" else level)
    if level != "DEBUG":  # SimCord's simulated gateway makes discord.py warn about voice and intents
        logging.getLogger("discord").setLevel(logging.ERROR)
    if not 0 <= ns.port <= 65535 - 4:
        raise UsageError("--port must be between 0 and 65531")
    return run_offline(
        db_path=ns.db or DEFAULT_DB,
        port=ns.port,
        encounter_file=ns.encounter,
        log_level=level,
        out=lambda line: print(line, flush=True),
    )


def _cmd_render(ns: argparse.Namespace) -> int:
    try:
        from render.cli import run_render
    except ImportError:
        raise NotAvailableError("rendering is not yet available") from None
    status: int = run_render(ns)
    return status


# -- entry point -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `opportunist` console script; returns the exit status."""
    ns = build_parser().parse_args(argv)
    try:
        if ns.command == "run":
            return _cmd_run(ns)
        if ns.command == "offline":
            return _cmd_offline(ns)
        if ns.command == "ruling":
            return _cmd_ruling(ns, sys.stdout)
        if ns.command == "schema":
            sys.stdout.write(json.dumps(json_schema(), indent=2) + "\n")
            return 0
        if ns.command == "render":
            return _cmd_render(ns)
    except (UsageError, OpportunistError, NotAvailableError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    raise AssertionError(f"unhandled command {ns.command!r}")  # pragma: no cover - argparse restricts it


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
