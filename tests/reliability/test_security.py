"""Security through the real bot: who may do what (every command and button x every role), pings, markdown.

Roles, relative to the combatant `Ethan` (SPEC §5, §6.3): the GM who runs the encounter; `alice`,
Ethan's player; `bob`, another player (he runs Brute and Wolf); a moderator with Manage Channels (who
counts as GM, README "Who may do what"); a stranger, a member with no part in the encounter.

The commands come from ``bot.tree.walk_commands()``: a command nobody classified here fails the test,
so a new command cannot slip in without its permission row. Each case runs in a fresh channel holding
the same encounter, and a refusal must be ephemeral, say so, and leave every table of the database
exactly as it was.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import yaml
from discord import app_commands

from tests.cogs.flow_support import install
from tests.reliability.support import database, mention_problems, message_payloads, outcome

ROLES = ("gm", "owner", "other", "mod", "stranger")
GM_ONLY = frozenset({"gm", "mod"})
GM_OR_OWNER = frozenset({"gm", "owner", "mod"})
EVERYONE = frozenset(ROLES)


def scenario(alice: int, bob: int) -> dict[str, Any]:
    """Ethan (alice) stands next to Wolf (bob's, a foe); it is Ethan's turn."""
    return {
        "ruleset": "dnd35",
        "map": {"width": 12, "height": 10},
        "initiative": ["Ethan", "Brute", "Wolf", "Ogre"],
        "turn": "Ethan",
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice, "at": "B2"},
            {"name": "Brute", "side": "party", "player": bob, "at": "B6"},
            {"name": "Wolf", "side": "foes", "player": bob, "at": "C2"},
            {"name": "Ogre", "side": "foes", "at": "J9", "size": "large"},
        ],
    }


def _import_file(alice: int, bob: int) -> tuple[str, bytes]:
    data = scenario(alice, bob)
    data["round"] = 5
    return ("replacement.yaml", yaml.safe_dump(data).encode())


# command -> (options, roles that may run it, changes state when allowed)
COMMANDS: dict[str, tuple[Any, frozenset[str]]] = {
    "move": (lambda a, b: {"who": "Ethan", "path": "A1"}, GM_OR_OWNER),
    "act": (lambda a, b: {"who": "Ethan", "action": "drink-potion"}, GM_OR_OWNER),
    "orders": (lambda a, b: {"who": "Ethan", "policy": "take"}, GM_OR_OWNER),
    "turn next": (lambda a, b: {}, GM_OR_OWNER),  # the owner of the combatant whose turn it is
    "combatant add": (lambda a, b: {"name": "Newt", "at": "F5", "side": "party"}, GM_ONLY),
    "combatant set": (lambda a, b: {"name": "Ethan", "stats": "speed=20"}, GM_ONLY),
    "combatant remove": (lambda a, b: {"name": "Ethan"}, GM_ONLY),
    "combatant place": (lambda a, b: {"name": "Ethan", "at": "F6"}, GM_ONLY),
    "combatant condition": (lambda a, b: {"name": "Ethan", "add": "prone"}, GM_ONLY),
    "encounter settings": (lambda a, b: {"prompt_timeout": 30, "on_timeout": "gm"}, GM_ONLY),
    "encounter undo": (lambda a, b: {}, GM_ONLY),
    "encounter end": (lambda a, b: {}, GM_ONLY),  # asks to confirm; the buttons are checked below
    "encounter import": (lambda a, b: {"file": _import_file(a, b)}, GM_ONLY),
    "encounter export": (lambda a, b: {}, GM_ONLY),  # read-only, but the file may hold secrets
}
# Commands anyone may run that must never change anything.
READ_ONLY: dict[str, Any] = {
    "encounter show": lambda a, b: {},
    "encounter log": lambda a, b: {},
    "provokes": lambda a, b: {"action": "cast-spell"},
    "threatens": lambda a, b: {"who": "Wolf"},
    "encounter start": lambda a, b: {"ruleset": "aphex", "width": 5, "height": 5},  # channel is taken
}


@pytest.fixture
async def people(world):
    env, guild, channel, gm, alice, bob = world
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    stranger = guild.add_member(env.create_user("stranger"))
    return env, guild, {"gm": gm, "owner": alice, "other": bob, "mod": mod, "stranger": stranger}


def _commands(env: Any) -> set[str]:
    return {c.qualified_name for c in env.bot.tree.walk_commands() if isinstance(c, app_commands.Command)}


async def test_every_command_is_classified(people):
    env, _, _ = people
    unknown = _commands(env) - set(COMMANDS) - set(READ_ONLY)
    assert not unknown, f"classify these commands in tests/reliability/test_security.py: {sorted(unknown)}"


async def test_every_command_times_every_role(people):
    env, guild, who = people
    a, b = who["owner"].id, who["other"].id
    failures: list[str] = []
    cases = 0
    requests_before = len(env.http_requests)
    table = {name: (opts, allowed) for name, (opts, allowed) in COMMANDS.items()}
    table.update({name: (opts, frozenset()) for name, opts in READ_ONLY.items()})
    for name in sorted(_commands(env)):
        options, allowed = table[name]
        for role in ROLES:
            cases += 1
            channel = guild.create_text_channel(f"c{cases}")
            await install(env, channel, who["gm"], scenario(a, b))
            before = database(env)
            got = await outcome(env, who[role].slash(channel, name, **options(a, b)))
            label = f"/{name} as {role}"
            if got.bugs:
                failures.append(f"{label}: bug {got.bugs!r}")
            if name in READ_ONLY:
                if database(env) != before:
                    failures.append(f"{label}: a read-only command changed the database")
            elif role in allowed:
                if got.not_allowed:
                    failures.append(f"{label}: refused ({got.text[:80]!r}) but the role has the right")
            else:
                if not (got.not_allowed and got.ephemeral):
                    failures.append(f"{label}: not refused ephemerally ({got.text[:80]!r})")
                if database(env) != before:
                    failures.append(f"{label}: refused but the database changed")
    assert not failures, "\n".join(failures)
    intended = {who["gm"].id, a, b}
    assert mention_problems(env, intended, since=requests_before) == []
    audited = len(message_payloads(env, requests_before))
    assert audited >= cases
    print(f"\npermissions: {cases} command x role cases, {audited} messages audited for pings")


async def _prompt_message(env: Any, channel: Any, who: dict[str, Any]) -> Any:
    """Ethan leaves Wolf's threatened square: bob gets `Wolf: Take AoO` / `Wolf: Decline`."""
    result = await who["owner"].slash(channel, "move", who="Ethan", path="A1")
    assert not result.ephemeral
    return next(m for m in reversed(channel.history()) if m.components)


async def _end_message(env: Any, channel: Any, who: dict[str, Any]) -> Any:
    return (await who["gm"].slash(channel, "encounter end")).response


async def _import_message(env: Any, channel: Any, who: dict[str, Any]) -> Any:
    file = _import_file(who["owner"].id, who["other"].id)
    return (await who["gm"].slash(channel, "encounter import", file=file)).response


# button -> (how to get its message, label, roles that may press it)
BUTTONS: dict[str, tuple[Any, str, frozenset[str]]] = {
    "prompt take": (_prompt_message, "Wolf: Take AoO", frozenset({"gm", "other", "mod"})),
    "prompt decline": (_prompt_message, "Wolf: Decline", frozenset({"gm", "other", "mod"})),
    "end confirm": (_end_message, "End encounter", GM_ONLY),
    "end keep": (_end_message, "Keep it", GM_ONLY),
    "import confirm": (_import_message, "Import", GM_ONLY),
    "import cancel": (_import_message, "Cancel", GM_ONLY),
}


async def test_every_button_times_every_role(people):
    env, guild, who = people
    a, b = who["owner"].id, who["other"].id
    failures: list[str] = []
    cases = 0
    requests_before = len(env.http_requests)
    for make, label, allowed in BUTTONS.values():
        # Wolf's prompt: "the combatant's player" is bob (role "other"), Ethan's player is the outsider.
        for role in ROLES:
            cases += 1
            channel = guild.create_text_channel(f"b{cases}")
            await install(env, channel, who["gm"], scenario(a, b))
            message = await make(env, channel, who)
            before = database(env)
            got = await outcome(env, who[role].click(message, label=label))
            name = f"[{label}] pressed by {role}"
            if got.bugs:
                failures.append(f"{name}: bug {got.bugs!r}")
            if role in allowed:
                if got.not_allowed:
                    failures.append(f"{name}: refused ({got.text[:80]!r}) but the role has the right")
                elif label not in ("Keep it", "Cancel") and database(env) == before:
                    failures.append(f"{name}: allowed but nothing happened ({got.text[:80]!r})")
            else:
                if not (got.not_allowed and got.ephemeral):
                    failures.append(f"{name}: not refused ephemerally ({got.text[:80]!r})")
                if database(env) != before:
                    failures.append(f"{name}: refused but the database changed")
    assert not failures, "\n".join(failures)
    assert mention_problems(env, {who["gm"].id, a, b}, since=requests_before) == []
    audited = len(message_payloads(env, requests_before))
    assert audited >= 2 * cases
    print(f"\nbuttons: {cases} button x role cases, {audited} messages audited for pings")
