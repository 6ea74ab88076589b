"""dragonquest through the real bot: a move stopped by a Melee Zone, Charge and Close with Repulse."""

from __future__ import annotations

import pytest

from tests.cogs.flow_support import install, labels, last_prompt, mentioned_ids, prompts, reply_text, stored


def field(alice_id: int, bob_id: int) -> dict:
    return {
        "ruleset": "dragonquest",
        "map": {"width": 16, "height": 30},
        "combatants": [
            {"name": "Hero", "side": "party", "player": alice_id, "at": "E25", "tmr": 8},
            {"name": "Orc", "side": "foes", "player": bob_id, "at": "E21", "facing": "S"},
        ],
    }


async def test_entering_a_melee_zone_stops_the_move(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    result = await alice.slash(channel, "move", who="Hero", path="D25 D24 D23 D22 D21 D20")
    # 003_3defe2e1570abee3.txt: "If a figure enters the Melee Zone of any hostile figure, he must stop
    # movement but may change facing."
    text = reply_text(result)
    assert "Movement must stop at **D21**" in text and "D20) is dropped" in text
    assert prompts(channel) == []  # nobody reacts to a plain move
    assert (await stored(env, channel)).get("Hero").at == "D21"
    assert "ends the move at **D21**" in channel.last_message.content


@pytest.mark.parametrize(
    ("button", "final"),
    [("Orc: Repulse succeeded", "E22"), ("Orc: Repulse failed", "E21")],
    ids=["repulsed-stops-short", "not-repulsed-enters-the-hex"],
)
async def test_charge_and_close_gives_the_defender_a_repulse(world, button, final):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    # 003_...txt: "If in the midst of executing a Charge and Close action, he may then be able to enter the
    # defender's hex, depending on the results of the defender's Repulse attempt."
    await alice.slash(channel, "move", who="Hero", path="E24 E23 E22 E21", mode="charge-close", target="Orc")
    prompt = last_prompt(channel)
    assert mentioned_ids(prompt) == {bob.id}
    assert labels(prompt) == ["Orc: Repulse succeeded", "Orc: Repulse failed"]
    refused = await alice.click(prompt, label=button)  # the attacker can't answer for the defender
    assert refused.ephemeral
    await bob.click(prompt, label=button)
    after = await stored(env, channel)
    assert after.get("Hero").at == final
    assert after.get("Orc").at == "E21"
