"""Who may run each state-changing command (SPEC §5, issue 6 point 1), table-driven.

Roles: the GM (who started the encounter), the player of the combatant concerned (alice, Ethan's),
another player (bob, who plays the Archer), and a member with Manage Channels (a GM too). A refusal is
ephemeral, is answered as a user error, and changes nothing: the stored version and JSON, the standing
orders and the action in flight are compared before and after.
"""

from __future__ import annotations

import discord
import pytest
import yaml

from rules.encounter_file import to_data
from tests.cogs.flow_support import install
from tests.conftest import ephemeral_text, user_errors

GM_ONLY = {"gm", "mod"}
CONTROLLER = {"gm", "mod", "player"}


def field(alice_id: int, bob_id: int) -> dict:
    return {
        "ruleset": "dnd35",
        "map": {"width": 20, "height": 12},
        "initiative": ["Ethan", "Archer", "Brute"],
        "turn": "Ethan",
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice_id, "at": "A6"},
            {"name": "Archer", "side": "foes", "player": bob_id, "at": "K1"},
            {"name": "Brute", "side": "foes", "at": "T12"},
        ],
    }


IMPORT = yaml.safe_dump(
    {
        "ruleset": "dnd35",
        "map": {"width": 4, "height": 4},
        "combatants": [{"name": "X", "side": "a", "at": "A1"}],
    }
).encode()

CASES = [
    ("encounter settings", {"prompt_timeout": 30}, GM_ONLY),
    ("encounter import", {"file": ("f.yaml", IMPORT)}, GM_ONLY),
    ("encounter export", {}, GM_ONLY),
    ("encounter undo", {}, GM_ONLY),
    ("encounter end", {}, GM_ONLY),
    ("combatant add", {"name": "Orc", "at": "K5", "side": "foes"}, GM_ONLY),
    ("combatant set", {"name": "Ethan", "stats": "speed=20"}, GM_ONLY),
    ("combatant remove", {"name": "Brute"}, GM_ONLY),
    ("combatant place", {"name": "Ethan", "at": "C6"}, GM_ONLY),
    ("combatant condition", {"name": "Ethan", "add": "prone"}, GM_ONLY),
    ("orders", {"who": "Ethan", "policy": "decline"}, CONTROLLER),
    ("move", {"who": "Ethan", "path": "D6"}, CONTROLLER),
    ("act", {"who": "Ethan", "action": "drink-potion"}, CONTROLLER),
    ("turn next", {}, CONTROLLER),  # the GM, or the controller of the combatant whose turn it is
]


async def _state(env, channel):
    s = await env.bot.storage.load_encounter(channel.id)
    pending = await env.bot.storage.load_pending(channel.id)
    return (
        s.version,
        s.gm_id,
        to_data(s.encounter),
        await env.bot.storage.orders(channel.id),
        None if pending is None else pending.data,
    )


@pytest.mark.parametrize("role", ["gm", "mod", "player", "other"])
@pytest.mark.parametrize(("command", "options", "allowed"), CASES, ids=[c[0] for c in CASES])
async def test_permissions(world, command, options, allowed, role):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    await alice.slash(channel, "move", who="Ethan", path="B6")  # nobody near: completes at once (undoable)
    assert await env.bot.storage.last_undoable_action(channel.id) is not None
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    actor = {
        "gm": gm,
        "mod": guild.add_member(env.create_user("mod"), roles=[mods]),
        "player": alice,
        "other": bob,
    }[role]
    before = await _state(env, channel)

    result = await actor.slash(channel, command, **options)

    if role in allowed:
        assert user_errors(env) == [], (command, role)
        assert result.acknowledged
    else:
        text = ephemeral_text(result)
        assert "Only" in text or "don't control" in text, text
        assert len(user_errors(env)) == 1
        assert await _state(env, channel) == before
        assert not any(m.components for m in channel.history())  # no confirm or prompt was posted
