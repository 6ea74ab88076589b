"""`/move`, `/act`, `/orders` and `/turn next`: the commands that drive the reaction flow."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import NotAllowedError, is_gm, storage_of
from cogs.play._flow import Flow, may_act_for
from cogs.play._text import safe
from render import draw
from rules import hexgrid
from rules.catalogue import suggest
from rules.coords import format_coord, parse_coord, parse_path
from rules.engine import Action
from rules.errors import InputError
from rules.model import Encounter
from rules.rulesets import get_ruleset
from storage import Storage, StoredEncounter

Interaction = discord.Interaction[Any]
NO_MENTIONS = discord.AllowedMentions.none()


def flow_of(client: Any) -> Flow:
    """The running `Flow` of the bot."""
    # Looked up by name, not isinstance: unloading an extension purges its modules from
    # sys.modules, so after a restart the class objects here may differ from the loaded cog's.
    cog = client.get_cog("PlayCog") if hasattr(client, "get_cog") else None
    flow: Flow | None = getattr(cog, "flow", None)
    if flow is None:
        raise RuntimeError("the play cog is not loaded")
    return flow


def render_map(encounter: Any, ruling: Any = None) -> bytes:
    """The map PNG, with a ruling's path and numbered reaction points when given."""
    return draw(encounter, ruling=ruling)


async def _channel_encounter(interaction: Interaction) -> StoredEncounter | None:
    """The channel's stored encounter, or None (autocomplete never raises: it just offers nothing)."""
    if interaction.channel_id is None:
        return None
    return await storage_of(interaction.client).load_encounter(interaction.channel_id)


def _choices(values: list[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v, value=v) for v in values[:25]]


async def combatant_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Names of the channel's combatants this user may act for, matching what was typed."""
    stored = await _channel_encounter(interaction)
    if stored is None:
        return []
    typed = current.casefold()
    return _choices(
        [
            c.name
            for c in stored.encounter.combatants
            if typed in c.name.casefold() and may_act_for(interaction, stored, c.name)
        ]
    )


async def action_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Action names from the rulings catalogue of the channel's ruleset (dnd35 without an encounter)."""
    stored = await _channel_encounter(interaction)
    return _choices(suggest(stored.encounter.ruleset if stored else "dnd35", current))


async def path_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The next square of a path: the open neighbours of the last square typed (or of the mover)."""
    stored = await _channel_encounter(interaction)
    if stored is None or len(current) > 90:
        return []
    enc = stored.encounter
    typed = current.split()
    try:
        last = parse_coord(typed[-1], enc.map.width, enc.map.height) if typed else None
        if last is None:
            who = getattr(interaction.namespace, "who", None)
            last = enc.find(who).pos if who else None
    except InputError:
        return []
    if last is None:
        return []
    if enc.ruleset == "dnd35":
        around = [(last[0] + dx, last[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
    else:
        around = hexgrid.neighbours(last)
    blocked = enc.map.blocked_set()
    prefix = " ".join(typed)
    return _choices(
        [
            f"{prefix} {format_coord(square)}".strip()
            for square in around
            if enc.map.contains(square) and square not in blocked
        ]
    )


async def mode_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Movement modes of the channel's ruleset."""
    stored = await _channel_encounter(interaction)
    if stored is None:
        return []
    modes: tuple[str, ...] = get_ruleset(stored.encounter.ruleset).modes
    return _choices([m for m in modes if current.casefold() in m])


@app_commands.guild_only()
class PlayCog(commands.Cog):
    """Moving, acting, standing orders and turns."""

    def __init__(self, bot: commands.Bot, storage: Storage) -> None:
        self.bot = bot
        self.storage = storage
        self.flow = Flow(bot, storage, render_map)

    async def cog_load(self) -> None:
        """Start the deadline task; it first resolves prompts that expired while the bot was down."""
        self.flow.start()

    async def cog_unload(self) -> None:
        """Stop the deadline task."""
        await self.flow.stop()

    @app_commands.command(name="move", description="Move a combatant; the bot works out who may react")
    @app_commands.describe(
        who="The combatant who moves",
        path="Squares entered in order, like `C3 D4 E5`, or one target square to find the safest path",
        mode="Movement mode (normal, run, charge, withdraw, step, tumble, ...)",
        target="The foe of a charge / spring attack / charge-close",
        preview="Only show the ruling to you; nothing happens",
    )
    @app_commands.autocomplete(who=combatant_autocomplete, path=path_autocomplete, mode=mode_autocomplete)
    async def move(
        self,
        interaction: Interaction,
        who: app_commands.Range[str, 1, 64],
        path: app_commands.Range[str, 1, 400],
        mode: app_commands.Range[str, 1, 32] | None = None,
        target: app_commands.Range[str, 1, 64] | None = None,
        preview: bool = False,
    ) -> None:
        """Rule on a move and start its reactions (or preview it)."""

        def build(encounter: Encounter) -> Action:
            squares = parse_path(path, encounter.map.width, encounter.map.height)
            modes: tuple[str, ...] = get_ruleset(encounter.ruleset).modes
            chosen = (mode or modes[0]).strip()
            # dragonquest modes may carry a final facing (`move:S`); the ruleset parses the suffix.
            if chosen.split(":")[0].lower() not in modes:
                raise InputError(
                    f"`{mode}` is not a movement mode in {encounter.ruleset}; use one of: {', '.join(modes)}."
                )
            return Action(
                kind="move", who=who, path=[format_coord(s) for s in squares], mode=chosen, target=target
            )

        await self.flow.begin_action(interaction, build, preview=preview)

    @app_commands.command(name="act", description="A non-move action (cast a spell, stand up, ...)")
    @app_commands.describe(
        who="The combatant who acts",
        action="The action, e.g. cast-spell, stand-up, drink-potion",
        target="The foe it is aimed at, if any",
        preview="Only show the ruling to you; nothing happens",
    )
    @app_commands.autocomplete(who=combatant_autocomplete, action=action_autocomplete)
    async def act(
        self,
        interaction: Interaction,
        who: app_commands.Range[str, 1, 64],
        action: app_commands.Range[str, 1, 64],
        target: app_commands.Range[str, 1, 64] | None = None,
        preview: bool = False,
    ) -> None:
        """Rule on a non-move action and start its reactions (or preview it)."""
        name = "-".join(action.strip().lower().replace("_", " ").split())
        act = Action(kind="act", who=who, name=name, target=target)
        await self.flow.begin_action(interaction, lambda _: act, preview=preview)

    @app_commands.command(name="orders", description="A standing order for a combatant's reactions")
    @app_commands.describe(
        who="The combatant",
        policy="ask (default: ping me), take (always react), decline (never react)",
        trigger="Which reactions: movement, action, or any (default)",
    )
    @app_commands.choices(
        policy=[app_commands.Choice(name=p, value=p) for p in ("ask", "take", "decline")],
        trigger=[app_commands.Choice(name=t, value=t) for t in ("any", "movement", "action")],
    )
    @app_commands.autocomplete(who=combatant_autocomplete)
    async def orders(
        self, interaction: Interaction, who: app_commands.Range[str, 1, 64], policy: str, trigger: str = "any"
    ) -> None:
        """Store the order; later prompts covered by it answer at once."""
        channel_id = _channel(interaction)
        async with self.flow.lock(channel_id):
            stored = await self.storage.require_encounter(channel_id)
            combatant = stored.encounter.find(who)
            if not may_act_for(interaction, stored, combatant.name):
                raise NotAllowedError(
                    f"You don't control **{safe(combatant.name)}**; its player or the GM can."
                )
            await self.storage.set_order(
                channel_id, combatant.name, trigger, policy, set_by=interaction.user.id
            )  # type: ignore[arg-type]
        what = {"ask": "will ask each time", "take": "always reacts", "decline": "never reacts"}[policy]
        scope = "" if trigger == "any" else f" to {trigger}"
        await interaction.response.send_message(
            f"Standing order: **{safe(combatant.name)}** {what}{scope}.",
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    turn = app_commands.Group(name="turn", description="Initiative and rounds", guild_only=True)

    @turn.command(name="next", description="End the current turn and start the next one")
    async def turn_next(self, interaction: Interaction) -> None:
        """Advance initiative: per-turn budgets reset as the ruleset says."""
        channel_id = _channel(interaction)
        async with self.flow.lock(channel_id):
            stored = await self.storage.require_encounter(channel_id)
            enc = stored.encounter
            current = enc.turn
            if not is_gm(interaction, stored) and not (current and may_act_for(interaction, stored, current)):
                raise NotAllowedError(
                    "Only the GM or the controller of the combatant whose turn it is can end it."
                )
            await self.flow.ensure_idle(channel_id)
            ruleset = get_ruleset(enc.ruleset)
            order: list[str] = ruleset.turn_order(enc)
            if not order:
                raise InputError("Nobody is in the initiative yet: add combatants with `/combatant add`.")
            round_no = enc.round
            if current in order and order.index(current) + 1 < len(order):
                nxt = order[order.index(current) + 1]
            else:
                nxt = order[0]
                if current is not None:
                    round_no += 1
            enc = enc.model_copy(update={"round": round_no, "turn": nxt})
            enc = ruleset.start_turn(enc, nxt)
            async with self.storage.transaction():
                await self.storage.save_encounter(channel_id, enc, stored.version)
                await self.storage.append_event(
                    channel_id, "turn", {"round": round_no, "turn": nxt, "by": interaction.user.id}
                )
        who = enc.get(nxt)
        ping = f" <@{who.player}>" if who is not None and who.player else ""
        await interaction.response.send_message(
            f"Round {round_no}: **{safe(nxt)}**'s turn.{ping}",
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(who.player)] if ping else []
            ),
        )


def _channel(interaction: Interaction) -> int:
    if interaction.channel_id is None:  # pragma: no cover - guild-only
        raise app_commands.NoPrivateMessage()
    return interaction.channel_id
