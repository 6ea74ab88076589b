"""`/encounter import|export|settings|show` through the real bot."""

from __future__ import annotations

import json

import pytest
import yaml

from rules.encounter_file import export_yaml, load_data, to_data
from tests.cogs.flow_support import install, stored
from tests.cogs.flow_support import prompts as prompt_messages
from tests.conftest import button_labels, ephemeral_text, user_errors

PNG = b"\x89PNG\r\n\x1a\n"


def _file(alice_id: int) -> dict:
    return {
        "ruleset": "dnd35",
        "map": {"width": 12, "height": 10, "blocked": ["H5", "H6"], "difficult": ["C3"]},
        "round": 2,
        "initiative": ["Ethan", "Ogre"],
        "turn": "Ogre",
        "settings": {"prompt_timeout": 300, "on_timeout": "gm", "variants": ["reach_weapon_up_close"]},
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice_id, "at": "B2", "feats": ["mobility"]},
            {"name": "Ogre", "side": "monsters", "at": "D4", "size": "large", "conditions": ["prone"]},
        ],
    }


async def _snapshot(env, channel):
    s = await env.bot.storage.load_encounter(channel.id)
    return None if s is None else (s.version, s.gm_id, to_data(s.encounter))


async def test_import_needs_the_confirm_then_replaces_the_encounter(started):
    env, guild, channel, gm, alice, bob = started
    data = _file(alice.id)
    result = await gm.slash(channel, "encounter import", file=("ogre.yaml", yaml.safe_dump(data).encode()))
    assert not result.ephemeral
    assert "Replace this channel's **dnd35** encounter" in result.response.content
    assert button_labels(result.response) == ["Import", "Cancel"]
    assert (await stored(env, channel)).combatants == []  # nothing before the confirm

    await gm.click(result.response, label="Import")
    enc = await stored(env, channel)
    assert to_data(enc) == to_data(load_data(data))
    assert "imported a **dnd35** encounter" in channel.last_message.content
    assert button_labels(channel.last_message) == []
    assert (await env.bot.storage.recent_events(channel.id))[0].kind == "imported"


async def test_import_into_an_empty_channel_makes_the_importer_gm(world):
    env, guild, channel, gm, alice, bob = world
    result = await alice.slash(
        channel, "encounter import", file=("f.json", json.dumps(_file(alice.id)).encode())
    )
    assert "You become its GM" in result.response.content
    refused = await bob.click(result.response, label="Import")
    assert "who uploaded the file" in ephemeral_text(refused)
    user_errors(env)
    assert await env.bot.storage.load_encounter(channel.id) is None
    await alice.click(result.response, label="Import")
    s = await env.bot.storage.load_encounter(channel.id)
    assert s is not None and s.gm_id == alice.id and s.encounter.round == 2


async def test_cancel_changes_nothing(started):
    env, guild, channel, gm, alice, bob = started
    before = await _snapshot(env, channel)
    result = await gm.slash(
        channel, "encounter import", file=("f.yaml", yaml.safe_dump(_file(alice.id)).encode())
    )
    await gm.click(result.response, label="Cancel")
    assert "cancelled" in channel.last_message.content
    assert await _snapshot(env, channel) == before


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        (b"ruleset: dnd35\nmap: {width: 12, height: [\n", "not valid YAML or JSON at line"),
        (b'{"ruleset": "dnd35", "map": {"width": 12, "height": 10},', "not valid YAML or JSON"),
        (b"ruleset: chess\nmap: {width: 3, height: 3}\n", "ruleset: must be one of"),
        (
            b"ruleset: dnd35\nmap: {width: 5, height: 5}\ncombatants:\n  - {name: Ogre, side: m, at: Z9}\n",
            "combatant 'Ogre': off the map",
        ),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"- just\n- a list\n", "must be a mapping"),
    ],
    ids=["yaml-syntax", "json-truncated", "unknown-ruleset", "off-map", "binary", "not-a-mapping"],
)
async def test_malformed_file_gives_one_clear_error_and_changes_nothing(started, content, complaint):
    env, guild, channel, gm, alice, bob = started
    before = await _snapshot(env, channel)
    result = await gm.slash(channel, "encounter import", file=("bad.yaml", content))
    text = ephemeral_text(result)
    assert text.startswith("`bad.yaml` was not imported, nothing changed:"), text
    assert complaint.replace(" off the map", "") in text, text
    assert len(user_errors(env)) == 1
    assert len(result.followups) == 0  # one message only
    assert await _snapshot(env, channel) == before
    assert not any(m.components for m in channel.history())


async def test_a_file_over_1_mb_is_refused(started):
    env, guild, channel, gm, alice, bob = started
    big = b"# " + b"x" * (1024 * 1024) + b"\nruleset: dnd35\n"
    text = ephemeral_text(await gm.slash(channel, "encounter import", file=("big.yaml", big)))
    assert "the limit is 1 MB" in text
    user_errors(env)


async def test_only_the_gm_may_import_over_an_encounter(started):
    env, guild, channel, gm, alice, bob = started
    before = await _snapshot(env, channel)
    text = ephemeral_text(
        await bob.slash(channel, "encounter import", file=("f.yaml", yaml.safe_dump(_file(bob.id)).encode()))
    )
    assert "Only the GM" in text
    # The GM's confirm button cannot be pressed by a player either.
    prompt = (
        await gm.slash(channel, "encounter import", file=("f.yaml", yaml.safe_dump(_file(bob.id)).encode()))
    ).response
    assert "Only the GM" in ephemeral_text(await bob.click(prompt, label="Import"))
    assert len(user_errors(env)) == 1  # button refusals are answered by the button, not the tree
    assert await _snapshot(env, channel) == before


async def test_export_import_round_trip_is_exact(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _file(alice.id))
    result = await gm.slash(channel, "encounter export")
    assert result.ephemeral
    (attachment,) = result.response.attachments
    assert attachment.filename == "encounter.yaml"
    exported = await attachment.read()
    assert exported.decode() == export_yaml(await stored(env, channel))

    other = guild.create_text_channel("elsewhere")
    prompt = (await gm.slash(other, "encounter import", file=("encounter.yaml", exported))).response
    await gm.click(prompt, label="Import")
    again = await gm.slash(other, "encounter export")
    assert await again.response.attachments[0].read() == exported
    assert to_data(await stored(env, other)) == to_data(await stored(env, channel))


async def test_export_is_for_the_gm(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _file(alice.id))
    assert "Only the GM" in ephemeral_text(await alice.slash(channel, "encounter export"))
    user_errors(env)


async def test_import_confirm_survives_a_restart(world, bot_factory):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, {"ruleset": "aphex", "map": {"width": 5, "height": 5}})
    prompt = (
        await gm.slash(channel, "encounter import", file=("f.yaml", yaml.safe_dump(_file(alice.id)).encode()))
    ).response
    old = env.bot
    await env.restart_bot(bot_factory())
    await old.close()
    assert env.bot is not old
    await gm.click(prompt, label="Import")
    enc = await stored(env, channel)
    assert enc.ruleset == "dnd35" and [c.name for c in enc.combatants] == ["Ethan", "Ogre"]


async def test_import_waits_while_an_action_is_in_flight(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _file(alice.id) | {"turn": None, "initiative": []})
    await gm.slash(channel, "combatant condition", name="Ogre", remove="prone")
    await alice.slash(channel, "move", who="Ethan", path="B3 B4")
    assert await env.bot.storage.load_pending(channel.id) is not None
    before = await _snapshot(env, channel)
    prompt = (
        await gm.slash(channel, "encounter import", file=("f.yaml", yaml.safe_dump(_file(alice.id)).encode()))
    ).response
    assert "waiting on" in ephemeral_text(await gm.click(prompt, label="Import"))
    user_errors(env)
    assert await _snapshot(env, channel) == before
    aoo = next(m for m in prompt_messages(channel) if "Ogre: Decline" in button_labels(m))
    await gm.click(aoo, label="Ogre: Decline")
    await gm.click(prompt, label="Import")  # still pending: it works once the channel is idle
    assert (await stored(env, channel)).get("Ogre").conditions == ["prone"]


async def test_settings_change_and_bad_variant(started):
    env, guild, channel, gm, alice, bob = started
    result = await gm.slash(
        channel, "encounter settings", prompt_timeout=3600, on_timeout="gm", variants="tiny_reach_weapons"
    )
    assert "prompt_timeout: 3600 s" in result.response.content
    settings = (await stored(env, channel)).settings
    assert (settings.prompt_timeout, settings.on_timeout, settings.variants) == (
        3600,
        "gm",
        ["tiny_reach_weapons"],
    )

    before = await _snapshot(env, channel)
    text = ephemeral_text(await gm.slash(channel, "encounter settings", variants="flying_carpets"))
    assert "unknown variant 'flying_carpets'" in text and "reach_weapon_up_close" in text
    text = ephemeral_text(await alice.slash(channel, "encounter settings", prompt_timeout=5))
    assert "Only the GM" in text
    assert len(user_errors(env)) == 2
    assert await _snapshot(env, channel) == before

    shown = await alice.slash(channel, "encounter settings")  # anyone may look
    assert "on_timeout: gm" in ephemeral_text(shown)
    await gm.slash(channel, "encounter settings", variants="none")
    assert (await stored(env, channel)).settings.variants == []


async def test_show_posts_the_map_turn_order_and_pending_prompts(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _file(alice.id) | {"turn": "Ethan"})
    await gm.slash(channel, "combatant condition", name="Ogre", remove="prone")
    result = await bob.slash(channel, "encounter show")
    text = result.response.content
    assert not result.ephemeral
    assert "Round 2, **Ethan**'s turn" in text and "▶ **Ethan** → Ogre" in text
    (image,) = result.response.attachments
    assert image.filename == "map.png" and (await image.read()).startswith(PNG)

    await alice.slash(channel, "move", who="Ethan", path="B3 B4")
    text = (await bob.slash(channel, "encounter show")).response.content
    assert "waiting on **Ogre**" in text
