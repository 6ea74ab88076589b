"""Hostile text through the real bot: names and sides that look like SQL, markdown or mentions.

SPEC §3 lets a name hold letters, digits, space, `-`, `_` and `'` (so `Robert'-- DROP TABLE encounters`
and `Sly__Fox__` are valid names) and a side any 1-32 characters. They must round-trip exactly (SQL
is parameterized), never ping anyone beyond the players concerned, and never render as markdown that
could forge a ruling (a side `**Ruling: no AoO**` shows literally).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import discord
import yaml

from rules.encounter_file import to_data
from tests.reliability.support import mention_problems, message_payloads, outcome

ROOT = Path(__file__).resolve().parents[2]
ROBERT = "Robert'-- DROP TABLE encounters"
FOX = "Sly__Fox__"


def hostile_sides(role_id: int, stranger_id: int) -> dict[str, str]:
    """name -> side."""
    return {
        "Ann'_x": "'); DROP TABLE encounters;--",
        FOX: "**Ruling: no AoO**",
        "Bait": f"<@&{role_id}>@here",
        "Bait two": f"<@{stranger_id}> @everyone",
        "Quote": "> `Ruling:` no AoO ||x||",
        "Heading": "# Ruling: no AoO",
        "Link": "[Ruling](https://x.invalid) ~~",
    }


def forged(content: str, text: str) -> bool:
    """Whether ``text`` shows up in ``content`` in a form Discord would render as markdown."""
    if text.startswith(("# ", "-# ", "> ")):
        return any(line.lstrip().startswith(text[:6]) for line in content.split("\n"))
    return discord.utils.escape_markdown(text) != text and text in content


async def test_hostile_names_and_sides_round_trip_without_pings_or_markdown(world):
    env, guild, channel, gm, alice, bob = world
    role = guild.create_role("Everyone-ish")
    stranger = guild.add_member(env.create_user("stranger"))
    since = len(env.http_requests)
    sides = hostile_sides(role.id, stranger.id)
    ops = 0

    async def run(actor: Any, op: Any) -> Any:
        nonlocal ops
        ops += 1
        got = await outcome(env, op)
        assert not got.bugs, got.bugs
        return got

    await run(gm, gm.slash(channel, "encounter start", ruleset="dnd35", width=12, height=10))
    await run(gm, gm.slash(channel, "combatant add", name=ROBERT, at="B2", side="party", player=alice))
    positions = {
        "Ann'_x": "H8",
        FOX: "C2",
        "Bait": "J2",
        "Quote": "J5",
        "Heading": "J7",
        "Link": "J9",
        "Bait two": "L1",
    }
    for name, side in sides.items():
        extra = {"player": bob} if name == FOX else {}
        got = await run(
            gm, gm.slash(channel, "combatant add", name=name, at=positions[name], side=side, **extra)
        )
        assert not got.ephemeral, got.text

    # The stored encounter holds every name and side exactly, and the tables are all still there.
    enc = (await env.bot.storage.load_encounter(channel.id)).encounter
    assert {c.name: c.side for c in enc.combatants} == {ROBERT: "party", **sides}
    exported = await run(gm, gm.slash(channel, "encounter export"))
    files = [a for m in [exported.result.response, *exported.result.followups] for a in m.attachments]
    assert files, "export sent no file"
    data = yaml.safe_load(await files[0].read())
    assert data == to_data(enc)

    # A whole reaction flow with them: Robert leaves Sly__Fox__'s threatened square.
    await run(bob, bob.slash(channel, "move", who=ROBERT, path="A1"))  # refused: not bob's
    await run(alice, alice.slash(channel, "move", who=ROBERT, path="A1"))
    prompt = next(m for m in reversed(channel.history()) if m.components)
    await run(bob, bob.click(prompt, label=f"{FOX}: Take AoO"))
    outcome_prompt = next(m for m in reversed(channel.history()) if m.components)
    await run(bob, bob.click(outcome_prompt, label=f"{FOX}: Miss"))
    assert (await env.bot.storage.load_encounter(channel.id)).encounter.get(ROBERT).at == "A1"
    for actor, name, options in [
        (gm, "encounter show", {}),
        (gm, "encounter log", {}),
        (alice, "threatens", {"who": FOX}),
        (gm, "turn next", {}),
        (gm, "orders", {"who": "Ann'_x", "policy": "decline"}),
        (gm, "combatant set", {"name": "Bait", "stats": "speed=20"}),
        (gm, "combatant condition", {"name": "Quote", "add": "prone"}),
        # Hostile text typed into options echoes back in errors: still no ping, no markdown.
        (alice, "move", {"who": f"<@{stranger.id}> **x** @everyone", "path": "A1"}),
        (alice, "act", {"who": ROBERT, "action": f"<@&{role.id}>`**"}),
        (gm, "combatant add", {"name": "x" * 20, "at": "A9", "side": f"<@{stranger.id}>"}),
    ]:
        await run(actor, actor.slash(channel, name, **options))

    messages = message_payloads(env, since)
    assert mention_problems(env, {gm.id, alice.id, bob.id}, since) == []
    public = 0
    for method, path, body in messages:
        if int(body.get("flags") or 0) & 64:
            # Ephemeral: only the user who typed it sees it, so it cannot forge a ruling for others.
            # (rules.model's "No combatant called ..." lists names unescaped; reported, not fixed here.)
            continue
        public += 1
        content = str(body.get("content") or "")
        for text in [FOX, *sides.values()]:
            assert not forged(content, text), f"{method} {path} renders {text!r} as markdown: {content!r}"
    assert public >= 10
    enc = (await env.bot.storage.load_encounter(channel.id)).encounter
    assert {c.name: c.side for c in enc.combatants} == {
        ROBERT: "party",
        **sides,
        "x" * 20: f"<@{stranger.id}>",
    }
    print(f"\ninjection: {ops} operations, {len(messages)} messages audited ({public} public)")


# -- SQL only parameterized ------------------------------------------------------------------------

# Interpolations allowed in SQL text, and why they are safe.
ALLOWED_SQL_INTERPOLATIONS = {
    "_PROMPT_COLUMNS": "a module constant (column list)",
    "name": "Storage.pragma: checked to be letters and underscores just above",
    "migration.sql": "the SQL files shipped in storage/migrations",
    "migration.version": "an int parsed from a shipped migration's file name",
}
SQL_WORDS = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "PRAGMA ", "BEGIN", " WHERE ", "CREATE ", "DROP ")


def test_storage_builds_sql_only_from_constants():
    found: list[str] = []
    for path in sorted((ROOT / "storage").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                literal = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
                if not any(w in literal.upper() for w in SQL_WORDS):
                    continue
                for value in node.values:
                    if isinstance(value, ast.FormattedValue):
                        source = ast.unparse(value.value)
                        if source not in ALLOWED_SQL_INTERPOLATIONS:
                            found.append(f"{path.name}:{node.lineno}: {{{source}}} in SQL")
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
                for side in (node.left, node.right):
                    if isinstance(side, ast.Constant) and isinstance(side.value, str):
                        if any(w in side.value.upper() for w in SQL_WORDS):
                            found.append(f"{path.name}:{node.lineno}: SQL built with % or +")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "format"
                and isinstance(node.func.value, ast.Constant)
                and any(w in str(node.func.value.value).upper() for w in SQL_WORDS)
            ):
                found.append(f"{path.name}:{node.lineno}: SQL built with str.format")
    assert not found, "\n".join(found)


async def test_pragma_refuses_anything_but_a_name(world):
    storage = world.env.bot.storage
    assert await storage.pragma("journal_mode") == "wal"
    for bad in ("journal_mode; DROP TABLE encounters", "x'--", "user_version = 0"):
        try:
            await storage.pragma(bad)
        except ValueError:
            continue
        raise AssertionError(f"pragma accepted {bad!r}")
