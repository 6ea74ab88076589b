"""aphex through the real bot: the seed's Ethan example, AP by AP, with buttons."""

from __future__ import annotations

from tests.cogs.flow_support import install, labels, last_prompt, mentioned_ids, stored
from tests.cogs.flow_support import prompts as prompt_messages

ARCHERS = ("First", "Second", "Third", "Fourth")


def ethan_field(alice_id: int, bob_id: int) -> dict:
    # 000_700d95b3c74e1117.txt: "Ethan, with 4 AP, is running across a field within range of four enemies"
    return {
        "ruleset": "aphex",
        "map": {"width": 20, "height": 12},
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice_id, "at": "A6", "ap": 4, "stride": 2},
            *(
                {
                    "name": n,
                    "side": "foes",
                    "at": f"{col}1",
                    "weapon": "missile",
                    "range": 30,
                    **({"player": bob_id} if n in ("First", "Second") else {}),
                }
                for n, col in zip(ARCHERS, "DFHJ", strict=True)
            ),
        ],
    }


async def test_ethan_four_attackers_fire_after_ap_1_2_2_and_3(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, ethan_field(alice.id, bob.id))

    result = await alice.slash(channel, "move", who="Ethan", path="I6")
    assert not result.ephemeral
    ruling = result.followups[0].content if result.followups else result.response.content
    assert "A6" in ruling and "I6" in ruling and "4 AP" in ruling

    # After AP 1 all four may interrupt: one message pings exactly bob (First, Second) and the GM.
    ap1 = last_prompt(channel)
    assert mentioned_ids(ap1) == {bob.id, gm.id}
    assert "First: Attack now" in labels(ap1) and "Fourth: Decline" in labels(ap1)
    await bob.click(ap1, label="First: Attack now")
    for name, who in (("Second", bob), ("Third", gm), ("Fourth", gm)):
        await who.click(ap1, label=f"{name}: Wait")
    outcome = last_prompt(channel)
    assert mentioned_ids(outcome) == {bob.id}
    assert labels(outcome) == ["First: Hit — stunned", "First: Hit", "First: Miss"]
    await bob.click(outcome, label="First: Miss")

    # After AP 2 the three who waited are asked again; Second and Third fire.
    ap2 = last_prompt(channel)
    assert "spent 2 AP" in ap2.content
    await bob.click(ap2, label="Second: Attack now")
    await gm.click(ap2, label="Third: Attack now")
    await gm.click(ap2, label="Fourth: Wait")
    outcomes = [m for m in prompt_messages(channel) if "how did the attack" in m.content][-2:]
    await bob.click(outcomes[0], label="Second: Hit")
    await gm.click(outcomes[1], label="Third: Miss")

    # After AP 3 only Fourth is left; after AP 4 (the last) nobody may attack.
    ap3 = last_prompt(channel)
    assert labels(ap3) == ["Fourth: Attack now", "Fourth: Wait", "Fourth: Decline"]
    await gm.click(ap3, label="Fourth: Attack now")
    await gm.click(last_prompt(channel), label="Fourth: Hit")

    after = await stored(env, channel)
    assert after.get("Ethan").at == "I6"
    assert all(not after.get(n).loaded for n in ARCHERS)
    assert "ends the move at **I6**" in channel.last_message.content
    assert await env.bot.storage.load_pending(channel.id) is None
