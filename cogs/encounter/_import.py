"""`/encounter import` and `/encounter export`: encounter files in and out, with a persistent confirm.

The parsed file waits in storage under a random token (the confirm button's custom id carries it), so
the confirm works after a restart; pressing it replaces the channel's encounter in one transaction.
"""

from __future__ import annotations

import io
import re
import secrets
from typing import Any

import discord

from cogs._common import NotAllowedError, is_gm, reply_error, storage_of
from cogs.play._cog import flow_of
from cogs.play._text import safe
from rules.encounter_file import MAX_FILE_BYTES, export_yaml, load_data, load_text, to_data
from rules.errors import EncounterFileError, OpportunistError
from rules.model import Encounter
from storage import PendingImport, StoredEncounter

Interaction = discord.Interaction[Any]
NO_MENTIONS = discord.AllowedMentions.none()


async def read_upload(file: discord.Attachment) -> Encounter:
    """The attachment as an encounter; a malformed or too large file is one `EncounterFileError`."""
    if file.size > MAX_FILE_BYTES:
        raise EncounterFileError(f"`{safe(file.filename)}` is {file.size // 1024} KB; the limit is 1 MB.")
    try:
        raw = await file.read()
    except discord.HTTPException:
        raise EncounterFileError(
            "I could not download the file from Discord; try uploading it again."
        ) from None
    try:
        return load_text(raw)
    except EncounterFileError as exc:
        raise EncounterFileError(
            f"`{safe(file.filename)}` was not imported, nothing changed: {exc.message}"
        ) from None


def summary(enc: Encounter) -> str:
    """One line naming what a file holds."""
    names = ", ".join(safe(c.name) for c in enc.combatants[:10])
    more = f" and {len(enc.combatants) - 10} more" if len(enc.combatants) > 10 else ""
    who = f": {names}{more}" if names else ""
    return (
        f"a **{enc.ruleset}** encounter on a {enc.map.width}×{enc.map.height} map, round {enc.round}, "
        f"{len(enc.combatants)} combatant(s){who}"
    )


async def propose(interaction: Interaction, file: discord.Attachment) -> None:
    """Parse the upload, keep it under a token and post the confirm buttons (nothing changes yet)."""
    channel_id = interaction.channel_id
    assert channel_id is not None  # noqa: S101 - guild-only
    storage = storage_of(interaction.client)
    stored = await storage.load_encounter(channel_id)
    if stored is not None and not is_gm(interaction, stored):
        raise NotAllowedError(
            f"Only the GM (<@{stored.gm_id}>) or someone with Manage Channels can replace this encounter."
        )
    enc = await read_upload(file)
    token = secrets.token_hex(8)
    await storage.put_import(token, channel_id, interaction.user.id, to_data(enc))
    if stored is None:
        text = f"Import {summary(enc)}? You become its GM."
    else:
        text = (
            f"Replace this channel's **{stored.encounter.ruleset}** encounter "
            f"({len(stored.encounter.combatants)} combatant(s)) with {summary(enc)}? "
            "Pending standing orders of combatants not in the file are dropped."
        )
    view = discord.ui.View(timeout=None)
    view.add_item(ImportButton(channel_id, token, "yes"))
    view.add_item(ImportButton(channel_id, token, "no"))
    await interaction.response.send_message(text[:2000], view=view, allowed_mentions=NO_MENTIONS)


async def export_file(stored: StoredEncounter) -> discord.File:
    """The encounter file (canonical YAML) as an attachment called `encounter.yaml`."""
    data = export_yaml(stored.encounter).encode("utf-8")
    return discord.File(io.BytesIO(data), filename="encounter.yaml")


class ImportButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"opp:imp:(?P<channel>[0-9]{1,20}):(?P<token>[0-9a-f]{16}):(?P<choice>yes|no)",
):
    """`Import` / `Cancel` for one stored upload; everything is re-checked from storage when pressed."""

    def __init__(self, channel_id: int, token: str, choice: str) -> None:
        self.channel_id = channel_id
        self.token = token
        self.choice = choice
        super().__init__(
            discord.ui.Button(
                label="Import" if choice == "yes" else "Cancel",
                style=discord.ButtonStyle.danger if choice == "yes" else discord.ButtonStyle.secondary,
                custom_id=f"opp:imp:{channel_id}:{token}:{choice}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ImportButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["channel"]), match["token"], match["choice"])

    async def callback(self, interaction: Interaction) -> None:
        """Confirm or cancel; refusals are ephemeral and change nothing."""
        try:
            await self._press(interaction)
        except Exception as error:  # every failure gets the one error reply
            await reply_error(interaction, error)

    async def _press(self, interaction: Interaction) -> None:
        storage = storage_of(interaction.client)
        flow = flow_of(interaction.client)
        async with flow.lock(self.channel_id):
            pending = await storage.get_import(self.token)
            if pending is None or pending.channel_id != self.channel_id:
                raise OpportunistError("This import was already confirmed or cancelled; nothing changed.")
            stored = await storage.load_encounter(self.channel_id)
            _check_may_confirm(interaction, stored, pending)
            if self.choice == "no":
                await storage.drop_import(self.token)
                await interaction.response.edit_message(
                    content="Import cancelled; nothing changed.", view=None, allowed_mentions=NO_MENTIONS
                )
                return
            await flow.ensure_idle(self.channel_id)
            enc = load_data(pending.data)
            event = {"by": interaction.user.id, "ruleset": enc.ruleset, "combatants": len(enc.combatants)}
            async with storage.transaction():
                if not await storage.drop_import(self.token):  # pragma: no cover - we hold the lock
                    raise OpportunistError("This import was already confirmed or cancelled; nothing changed.")
                if stored is None:
                    await storage.create_encounter(
                        self.channel_id, enc, gm_id=pending.user_id, guild_id=interaction.guild_id
                    )
                else:
                    await storage.save_encounter(self.channel_id, enc, stored.version)
                    keep = {c.name for c in enc.combatants}
                    for name in {who for who, _ in await storage.orders(self.channel_id)} - keep:
                        await storage.drop_orders(self.channel_id, name)
                await storage.append_event(self.channel_id, "imported", event)
        gm = "" if stored is not None else f" <@{pending.user_id}> is its GM."
        await interaction.response.edit_message(
            content=f"{interaction.user.mention} imported {summary(enc)}.{gm}\n"
            "See it with `/encounter show`.",
            view=None,
            allowed_mentions=NO_MENTIONS,
        )


def _check_may_confirm(
    interaction: Interaction, stored: StoredEncounter | None, pending: PendingImport
) -> None:
    """The channel's GM may confirm; with no encounter, only whoever uploaded the file."""
    if stored is not None:
        if not is_gm(interaction, stored):
            raise NotAllowedError(
                f"Only the GM (<@{stored.gm_id}>) or someone with Manage Channels can replace "
                "this encounter; nothing changed."
            )
    elif interaction.user.id != pending.user_id:
        raise NotAllowedError(
            f"Only <@{pending.user_id}>, who uploaded the file, can confirm it; nothing changed."
        )
