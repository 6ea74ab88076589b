"""`/provokes` and `/threatens` through the real bot."""

from __future__ import annotations

import pytest

from rules.catalogue import lookup
from tests.cogs.flow_support import install
from tests.conftest import ephemeral_text, user_errors

PNG = b"\x89PNG\r\n\x1a\n"


def _final(result):
    """The reply after a deferral: the first follow-up, or the edited original response."""
    return result.followups[-1] if result.followups else result.response


@pytest.mark.parametrize(
    ("ruleset", "typed", "verdict", "source_words"),
    [
        # Table: Actions in Combat (SRD) — standing up from prone provokes.
        ("dnd35", "stand up", "**provokes**", "SRD"),
        # 000_700d95b3c74e1117.txt: wands "can be used to make an attack of opportunity" — using one on
        # your own turn is no movement, so nothing interrupts it.
        ("aphex", "use wand", "**does not provoke**", "000_"),
        ("dragonquest", "charge and close", "**provokes**", "003_"),
    ],
)
async def test_provokes_answers_from_the_catalogue_in_one_message(
    world, ruleset, typed, verdict, source_words
):
    env, guild, channel, gm, alice, bob = world
    entry = lookup(ruleset, typed)
    result = await bob.slash(channel, "provokes", action=typed, ruleset=ruleset)
    assert not result.ephemeral and result.followups == []
    text = result.response.content
    assert text.startswith(f"**{entry.action}** ({ruleset}): {verdict}")
    assert entry.reason in text and f"Source: {entry.source}" in text
    assert source_words in entry.source
    for exception in entry.exceptions:
        assert exception in text


async def test_provokes_defaults_to_the_channels_ruleset_else_dnd35(world):
    env, guild, channel, gm, alice, bob = world
    # No encounter anywhere: dnd35.
    assert "(dnd35)" in (await alice.slash(channel, "provokes", action="stand up")).response.content
    await install(env, channel, gm, {"ruleset": "aphex", "map": {"width": 5, "height": 5}})
    text = (await alice.slash(channel, "provokes", action="reload")).response.content
    assert text.startswith("**reload** (aphex)")


async def test_unknown_action_suggests_close_names(world):
    env, guild, channel, gm, alice, bob = world
    assert (
        "**stand-up**" in (await alice.slash(channel, "provokes", action="Stand")).response.content
    )  # alias
    text = ephemeral_text(await alice.slash(channel, "provokes", action="potio"))
    assert "Did you mean" in text and "drink-potion" in text
    text = ephemeral_text(await alice.slash(channel, "provokes", action="juggle chainsaws"))
    assert "I don't know the action `juggle chainsaws` in dnd35" in text
    assert len(user_errors(env)) == 2


async def test_provokes_autocomplete_follows_the_chosen_ruleset(world):
    env, guild, channel, gm, alice, bob = world
    choices = await alice.autocomplete(channel, "provokes", "action", "cast")
    assert {"cast-spell", "cast-defensively"} <= {c["value"] for c in choices}
    hex_choices = await alice.autocomplete(channel, "provokes", "action", "ch", ruleset="dragonquest")
    assert {c["value"] for c in hex_choices} >= {"charge", "charge-close"}


def _square_field(alice_id):
    return {
        "ruleset": "dnd35",
        "map": {"width": 12, "height": 10},
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice_id, "at": "B2"},
            {"name": "Mira", "side": "party", "at": "D2"},
            {"name": "Ogre", "side": "monsters", "at": "D4", "size": "large"},
            {"name": "Goblin", "side": "monsters", "at": "C2"},
            {"name": "Far", "side": "monsters", "at": "K9"},
        ],
    }


async def test_threatens_at_lists_the_foes_of_whoever_stands_there(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _square_field(alice.id))
    text = (await bob.slash(channel, "threatens", at="b2")).response.content
    # SPEC 7.1: Large reach 10 threatens all squares two away (B2 is two columns from D4's space);
    # the Goblin is adjacent; Mira is Ethan's ally; Far is out of reach.
    assert text.startswith("Foes of **Ethan** threatening **B2**:")
    assert "**Ogre**" in text and "**Goblin**" in text
    assert "Mira" not in text and "Far" not in text


async def test_threatens_an_empty_square_lists_everyone_who_reaches_it(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _square_field(alice.id))
    text = (await bob.slash(channel, "threatens", at="C3")).response.content
    assert text.startswith("Threatening **C3**:")
    for name in ("Ethan", "Mira", "Ogre", "Goblin"):  # all adjacent (or within the Ogre's reach)
        assert f"**{name}**" in text, name
    assert "Far" not in text
    assert "Nobody threatens **A10**" in (await bob.slash(channel, "threatens", at="A10")).response.content


async def test_threatens_who_attaches_an_image(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _square_field(alice.id))
    result = await bob.slash(channel, "threatens", who="ogre", at="B2")
    message = _final(result)
    assert "**Ogre** threatens" in message.content and "It threatens **B2**" in message.content
    (image,) = message.attachments
    assert image.filename == "threatens.png" and (await image.read()).startswith(PNG)


async def test_threatens_on_a_hex_map(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "aphex",
            "map": {"width": 20, "height": 12},
            "combatants": [
                {"name": "Ethan", "side": "party", "at": "A6"},
                {"name": "Archer", "side": "foes", "at": "D1", "weapon": "missile", "range": 30},
                {"name": "Brute", "side": "foes", "at": "T12"},  # melee: no interruption (seed)
            ],
        },
    )
    text = (await bob.slash(channel, "threatens", at="A6")).response.content
    assert "**Archer**" in text and "Brute" not in text
    result = await bob.slash(channel, "threatens", who="Brute")
    assert "**Brute** threatens nothing" in _final(result).content


async def test_threatens_needs_an_option_and_an_encounter(world):
    env, guild, channel, gm, alice, bob = world
    text = ephemeral_text(await bob.slash(channel, "threatens", at="C3"))
    assert "/encounter start" in text
    await install(env, channel, gm, _square_field(alice.id))
    assert "Give `at`" in ephemeral_text(await bob.slash(channel, "threatens"))
    assert "Z99" in ephemeral_text(await bob.slash(channel, "threatens", at="Z99"))
    assert "No combatant or side called `Nobody`" in ephemeral_text(
        await bob.slash(channel, "threatens", who="Nobody")
    )
    assert len(user_errors(env)) == 4


async def test_threatens_any_square_of_a_large_creature_names_its_foes(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, _square_field(alice.id))
    text = (await bob.slash(channel, "threatens", at="E5")).response.content  # the Ogre's bottom-right square
    assert text.startswith("Foes of **Ogre** threatening **E5**:")
    assert "Goblin" not in text and "Far" not in text


async def test_threatens_a_whole_side_tints_every_members_area(world):
    env, guild, channel, gm, alice, bob = world
    from tests.cogs.flow_support import install, reply

    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "dnd35",
            "map": {"width": 12, "height": 12},
            "combatants": [
                {"name": "Ethan", "side": "party", "at": "B2"},
                {"name": "Orc", "side": "monsters", "at": "F6"},
                {"name": "Gnoll", "side": "monsters", "at": "J9"},
            ],
        },
    )
    result = await alice.slash(channel, "threatens", who="monsters")
    text = reply(result).content
    # 001_1e16989ecf5349e6.txt: "they threaten all squares adjacent to their spaces (including diagonally)"
    # plus "it threatens that square or squares as well": 9 squares each, no overlap.
    assert "The side **monsters** threatens 18 squares" in text
    assert reply(result).attachments
