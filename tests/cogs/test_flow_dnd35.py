"""dnd35 through the real bot: AoOs taken and declined, a drop that stops the mover, a spell lost to a
failed Concentration check, and the seed's five-link chain resolved last-first."""

from __future__ import annotations

from tests.cogs.flow_support import (
    install,
    labels,
    last_prompt,
    mentioned_ids,
    prompts,
    reply,
    reply_text,
    stored,
)


def encounter(*combatants: dict) -> dict:
    return {"ruleset": "dnd35", "map": {"width": 12, "height": 12}, "combatants": list(combatants)}


async def test_move_past_two_foes_one_takes_one_declines_then_a_drop_stops_a_mover(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        encounter(
            {"name": "Ethan", "side": "party", "player": alice.id, "at": "E6"},
            {"name": "Mira", "side": "party", "player": alice.id, "at": "E8"},
            {"name": "Orc", "side": "monsters", "player": bob.id, "at": "F6"},
            {"name": "Goblin", "side": "monsters", "at": "D7", "size": "small"},
        ),
    )
    # 001_1e16989ecf5349e6.txt: "You provoke an attack of opportunity when you're in a square on the
    # battlefield that a foe threatens and you leave that square."
    result = await alice.slash(channel, "move", who="Ethan", path="D6 C6 B6")
    assert "**Orc** at E6" in reply_text(result) and "**Goblin** at E6" in reply_text(result)
    assert reply(result).attachments  # the map with the path
    prompt = last_prompt(channel)
    assert mentioned_ids(prompt) == {bob.id, gm.id}  # exactly the controllers: bob and the GM (Goblin)
    assert {"Orc: Take AoO", "Orc: Decline", "Goblin: Take AoO", "Goblin: Decline"} <= set(labels(prompt))
    await bob.click(prompt, label="Orc: Take AoO")
    await gm.click(prompt, label="Goblin: Decline")
    outcome = last_prompt(channel)
    assert labels(outcome) == ["Orc: Hit — target down", "Orc: Hit", "Orc: Miss"]
    await bob.click(outcome, label="Orc: Hit")
    after = await stored(env, channel)
    assert after.get("Ethan").at == "B6"
    assert after.get("Orc").aoo_used == 1 and after.get("Goblin").aoo_used == 0
    assert "ends the move at **B6**" in channel.last_message.content

    # 001: "If the damage kills your target or renders the target unconscious, your attack of
    # opportunity foils the action that triggered the attack." The mover stays where it was.
    await alice.slash(channel, "move", who="Mira", path="F9 G9")
    prompt = last_prompt(channel)
    assert mentioned_ids(prompt) == {gm.id}
    await gm.click(prompt, label="Goblin: Take AoO")
    await gm.click(last_prompt(channel), label="Goblin: Hit — target down")
    after = await stored(env, channel)
    assert after.get("Mira").at == "E8" and "unconscious" in after.get("Mira").conditions
    assert "movement stops at **E8**" in channel.last_message.content


async def test_a_spell_is_lost_to_a_failed_concentration_check(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        encounter(
            {"name": "Mage", "side": "party", "player": alice.id, "at": "E6"},
            {"name": "Orc", "side": "monsters", "player": bob.id, "at": "F6"},
        ),
    )
    # 001: "Even if the target survives the attack, the damage you deal might still disrupt the spell or
    # spell-like ability if the target fails a Concentration check."
    await alice.slash(channel, "act", who="Mage", action="cast-spell")
    await bob.click(last_prompt(channel), label="Orc: Take AoO")
    await bob.click(last_prompt(channel), label="Orc: Hit")
    check = last_prompt(channel)
    assert mentioned_ids(check) == {alice.id}  # the mover's controller rolls
    assert "Concentration" in check.content
    await alice.click(check, label="Mage: Check failed")
    assert "foiled" in channel.last_message.content
    events = await env.bot.storage.recent_events(channel.id)
    assert events[0].kind == "action" and events[0].data["foiled"] is True


async def test_the_seeds_five_link_chain_resolves_last_first(world):
    env, guild, channel, gm, alice, bob = world
    # 001 "Attack of Opportunity Chains": "Let's say you have three attacks of opportunity available and
    # your foe has two." ... "Resolve attack of opportunity #5 first"
    await install(
        env,
        channel,
        gm,
        encounter(
            {
                "name": "Foe",
                "side": "party",
                "player": alice.id,
                "at": "E6",
                "feats": ["combat_reflexes"],
                "dex": 1,
            },
            {
                "name": "You",
                "side": "monsters",
                "player": bob.id,
                "at": "F6",
                "feats": ["combat_reflexes"],
                "dex": 2,
            },
        ),
    )
    await alice.slash(channel, "move", who="Foe", path="D6")
    for name, user in [("You", bob), ("Foe", alice), ("You", bob), ("Foe", alice), ("You", bob)]:
        prompt = last_prompt(channel)
        assert mentioned_ids(prompt) == {user.id}
        await user.click(prompt, label=f"{name}: AoO as disarm")
    resolved = []
    while prompts(channel):
        prompt = last_prompt(channel)
        name = "You" if "**You**:" in prompt.content else "Foe"
        resolved.append(name)
        await (bob if name == "You" else alice).click(prompt, label=f"{name}: Maneuver failed")
    assert resolved == ["You", "Foe", "You", "Foe", "You"]
    after = await stored(env, channel)
    assert after.get("You").aoo_used == 3 and after.get("Foe").aoo_used == 2
    assert after.get("Foe").at == "D6"


async def test_prompts_carry_the_mobility_note_and_say_when_a_standing_order_took_the_aoo(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        encounter(
            {"name": "Ethan", "side": "party", "player": alice.id, "at": "E6", "feats": ["mobility"]},
            {"name": "Orc", "side": "monsters", "player": bob.id, "at": "F6"},
        ),
    )
    await bob.slash(channel, "orders", who="Orc", policy="take", trigger="movement")
    await alice.slash(channel, "move", who="Ethan", path="D6")
    prompt = last_prompt(channel)
    # 001_1e16989ecf5349e6.txt: "it gives you a +4 dodge bonus to AC when you provoke an attack of
    # opportunity for leaving a threatened square."
    assert "+4 dodge bonus to AC" in prompt.content
    assert "**Orc** answered `Take AoO` by standing order." in prompt.content
    assert labels(prompt) == ["Orc: Hit — target down", "Orc: Hit", "Orc: Miss"]
