"""The `/combatant` command group: the GM adds, edits, removes, places and conditions combatants."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import storage_of
from cogs.combatants import _edit as edit
from cogs.combatants._complete import square_autocomplete
from cogs.play._cog import combatant_autocomplete
from cogs.play._text import safe
from rules.rulesets import get_ruleset

Interaction = discord.Interaction[Any]
NO_MENTIONS = discord.AllowedMentions.none()


async def condition_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Conditions of the channel's ruleset (for `remove`: those the named combatant has)."""
    if interaction.channel_id is None:
        return []
    stored = await storage_of(interaction.client).load_encounter(interaction.channel_id)
    if stored is None:
        return []
    model = get_ruleset(stored.encounter.ruleset).combatant_model
    options: list[str] = sorted(model.CONDITIONS)
    focused = interaction.namespace
    name = getattr(focused, "name", None)
    if interaction.data and _focused_option(interaction.data) == "remove" and name:
        c = stored.encounter.get(str(name))
        if c is not None:
            options = list(c.conditions)
    typed = current.strip().casefold()
    return [app_commands.Choice(name=o, value=o) for o in options if typed in o][:25]


def _focused_option(data: Any) -> str | None:
    for option in data.get("options", []):
        if option.get("focused"):
            return str(option.get("name"))
        inner = _focused_option(option)
        if inner:
            return inner
    return None


@app_commands.guild_only()
class CombatantCog(
    commands.GroupCog, group_name="combatant", group_description="Edit the encounter's combatants"
):
    """GM-only edits. Each refuses while an action waits on reactions and saves in one transaction."""

    @app_commands.command(name="add", description="Add a combatant (GM only)")
    @app_commands.describe(
        name="Unique name: 1-32 letters, digits, spaces, - _ '",
        at="Its square or hex, e.g. C4 (the top-left square of a large creature)",
        side="Its side; combatants on different sides are foes",
        player="The member who controls it (leave empty: the GM does)",
        stats="Ruleset fields as key=value pairs, e.g. size=large reach_weapon=yes dex=3",
    )
    @app_commands.autocomplete(at=square_autocomplete)
    async def add(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        at: app_commands.Range[str, 1, 8],
        side: app_commands.Range[str, 1, 64],
        player: discord.User | None = None,
        stats: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Validate everything against the ruleset's model, then add."""
        player_id = player.id if player is not None else None

        def change(stored: Any) -> Any:
            enc = edit.add(stored.encounter, name, at, side, player_id, stats or "")
            added = enc.combatants[-1]
            return enc, "combatant_added", {"name": added.name, "side": added.side, "at": added.at}

        _, enc = await edit.change_encounter(interaction, "add combatants", change)
        c = enc.combatants[-1]
        controller = f"<@{c.player}>" if c.player else "the GM"
        joins = " It joins the initiative last." if enc.initiative else ""
        await interaction.response.send_message(
            f"Added **{safe(c.name)}** ({safe(c.side)}) at **{c.at}**, controlled by {controller}.{joins}",
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="set", description="Change a combatant's stats (GM only)")
    @app_commands.describe(name="The combatant", stats="key=value pairs, e.g. speed=20 feats=mobility")
    @app_commands.autocomplete(name=combatant_autocomplete)
    async def set_(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        stats: app_commands.Range[str, 1, 1000],
    ) -> None:
        """Apply the stats through the ruleset's model; the reply is ephemeral (stats may be secret)."""
        result: dict[str, Any] = {}

        def change(stored: Any) -> Any:
            enc, combatant = edit.set_stats(stored.encounter, name, stats)
            result["name"] = combatant.name
            return enc, "combatant_set", {"name": combatant.name, "stats": stats}

        await edit.change_encounter(interaction, "change combatants", change)
        await interaction.response.send_message(
            f"Updated **{safe(result['name'])}**: `{safe(stats)}`.",
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="remove", description="Remove a combatant (GM only)")
    @app_commands.describe(name="The combatant")
    @app_commands.autocomplete(name=combatant_autocomplete)
    async def remove(self, interaction: Interaction, name: app_commands.Range[str, 1, 64]) -> None:
        """Remove it; its standing orders go with it."""
        result: dict[str, Any] = {}

        def change(stored: Any) -> Any:
            enc, gone = edit.remove(stored.encounter, name)
            result["name"] = gone
            return enc, "combatant_removed", {"name": gone}

        async def drop_orders(storage: Any, channel_id: int) -> None:
            await storage.drop_orders(channel_id, result["name"])

        _, enc = await edit.change_encounter(interaction, "remove combatants", change, also=drop_orders)
        turn = f" It is now **{safe(enc.turn)}**'s turn." if enc.turn else ""
        await interaction.response.send_message(
            f"Removed **{safe(result['name'])}**.{turn}", allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(name="place", description="Put a combatant on a square without moving it (GM only)")
    @app_commands.describe(name="The combatant", at="The square or hex, e.g. D5")
    @app_commands.autocomplete(name=combatant_autocomplete, at=square_autocomplete)
    async def place(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        at: app_commands.Range[str, 1, 8],
    ) -> None:
        """Set it down elsewhere: no movement happens, so nothing provokes."""
        result: dict[str, Any] = {}

        def change(stored: Any) -> Any:
            enc, combatant, was = edit.place(stored.encounter, name, at)
            result.update(name=combatant.name, at=combatant.at, was=was)
            return enc, "combatant_placed", {"name": combatant.name, "from": was, "to": combatant.at}

        await edit.change_encounter(interaction, "place combatants", change)
        await interaction.response.send_message(
            f"Placed **{safe(result['name'])}** at **{result['at']}** (from {result['was']}); "
            "placing is not movement, so nobody may react.",
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="condition", description="Add or remove conditions (GM only)")
    @app_commands.describe(
        name="The combatant",
        add="Condition(s) to add, e.g. prone (comma-separated for several)",
        remove="Condition(s) to remove",
    )
    @app_commands.autocomplete(
        name=combatant_autocomplete, add=condition_autocomplete, remove=condition_autocomplete
    )
    async def condition(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        add: app_commands.Range[str, 1, 200] | None = None,
        remove: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """Change the combatant's conditions."""
        result: dict[str, Any] = {}

        def change(stored: Any) -> Any:
            enc, combatant = edit.conditions(stored.encounter, name, add, remove)
            result.update(name=combatant.name, conditions=list(combatant.conditions))
            return enc, "conditions", {"name": combatant.name, "conditions": combatant.conditions}

        await edit.change_encounter(interaction, "change conditions", change)
        now = ", ".join(result["conditions"]) or "none"
        await interaction.response.send_message(
            f"**{safe(result['name'])}** conditions: {now}.", allowed_mentions=NO_MENTIONS
        )
