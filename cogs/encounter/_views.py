"""The persistent confirm buttons of `/encounter end`."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs._common import reply_error, require_gm, storage_of
from storage import StoredEncounter

Interaction = discord.Interaction[Any]


class EndButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"opp:end:(?P<channel>[0-9]{1,20}):(?P<encounter>[0-9]{1,20}):(?P<choice>yes|no)",
):
    """`End encounter` / `Keep it`. The custom id names the encounter row, so a button left over
    from an earlier encounter in the channel can never end a newer one; state is reloaded on press."""

    def __init__(self, channel_id: int, encounter_id: int, choice: str) -> None:
        self.channel_id = channel_id
        self.encounter_id = encounter_id
        self.choice = choice
        super().__init__(
            discord.ui.Button(
                label="End encounter" if choice == "yes" else "Keep it",
                style=discord.ButtonStyle.danger if choice == "yes" else discord.ButtonStyle.secondary,
                custom_id=f"opp:end:{channel_id}:{encounter_id}:{choice}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EndButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["channel"]), int(match["encounter"]), match["choice"])

    async def callback(self, interaction: Interaction) -> None:
        """Re-check who pressed and whether the encounter is still the same, then end or keep it."""
        try:
            await self._press(interaction)
        except Exception as error:  # every failure gets the one error reply
            await reply_error(interaction, error)

    async def _press(self, interaction: Interaction) -> None:
        storage = storage_of(interaction.client)
        stored = await storage.load_encounter(self.channel_id)
        if stored is None or stored.id != self.encounter_id or interaction.channel_id != self.channel_id:
            await interaction.response.edit_message(
                content="This encounter has already ended.", view=None, allowed_mentions=_NONE
            )
            return
        require_gm(interaction, stored, "end this encounter")
        if self.choice == "no":
            await interaction.response.edit_message(
                content="The encounter goes on.", view=None, allowed_mentions=_NONE
            )
            return
        if not await storage.delete_encounter(self.channel_id, encounter_id=self.encounter_id):
            await interaction.response.edit_message(
                content="This encounter has already ended.", view=None, allowed_mentions=_NONE
            )
            return
        await interaction.response.edit_message(
            content=f"{interaction.user.mention} ended the **{stored.encounter.ruleset}** encounter. "
            "Start a new one with `/encounter start`.",
            view=None,
            allowed_mentions=_NONE,
        )


_NONE = discord.AllowedMentions.none()


def confirm_end_view(stored: StoredEncounter) -> discord.ui.View:
    """A view with `End encounter` and `Keep it` for this stored encounter."""
    view = discord.ui.View(timeout=None)
    view.add_item(EndButton(stored.channel_id, stored.id, "yes"))
    view.add_item(EndButton(stored.channel_id, stored.id, "no"))
    return view
