"""The reaction flow (SPEC §6, §8): one action in flight per channel, prompts with stored deadlines,
standing orders, and the single commit when the last reaction resolves.

Every entry point reloads its state from storage under the channel's lock, so a button pressed after a
restart, or twice, or by twenty users at once, resolves exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Callable
from typing import Any

import discord

from cogs._common import NotAllowedError, is_gm
from cogs.play._messages import (
    batches,
    header_for,
    mentions_for,
    prompt_content,
    prompt_view,
    question_of,
)
from cogs.play._text import KIND_TEXT, choice_label, outcome_text, ruling_text, safe
from rules.encounter_file import to_data
from rules.engine import Action, Adjudication, Question, answer, begin
from rules.errors import OpportunistError
from rules.model import Encounter
from storage import Storage, StoredEncounter
from storage.flow import NewPrompt, PendingAction, Prompt

log = logging.getLogger("opportunist.flow")
Interaction = discord.Interaction[Any]
NO_MENTIONS = discord.AllowedMentions.none()
REMINDER_AFTER = 600  # seconds: prompts waiting longer than this get a reminder at half time
MAX_SLEEP = 300.0


class WaitingError(OpportunistError):
    """Another action in this channel is waiting on reactions."""


def now_ts() -> float:
    """Unix time from discord.py's clock (SimCord's virtual clock in tests and offline mode)."""
    return discord.utils.utcnow().timestamp()


def controller(stored: StoredEncounter, combatant_name: str) -> int:
    """Who answers for a combatant: its player, or the GM for GM-run combatants."""
    c = stored.encounter.get(combatant_name)
    player: int | None = getattr(c, "player", None)
    return player if player is not None else stored.gm_id


def may_act_for(interaction: Interaction, stored: StoredEncounter, combatant_name: str) -> bool:
    """Players act only for combatants whose `player` is them; the GM for anyone."""
    if is_gm(interaction, stored):
        return True
    c = stored.encounter.get(combatant_name)
    return c is not None and getattr(c, "player", None) == interaction.user.id


def order_trigger(question: Question) -> str:
    """Which standing-order trigger a question falls under."""
    return "action" if question.trigger == "action" else "movement"


def apply_orders(adj: Adjudication, orders: dict[tuple[str, str], str]) -> Adjudication:
    """Answer every open AoO/interrupt question covered by a standing order, until none is left."""
    while not adj.complete:
        for q in adj.open:
            if q.kind not in ("aoo", "interrupt"):
                continue
            policy = orders.get((q.asked, order_trigger(q))) or orders.get((q.asked, "any"))
            if policy == "decline" and "decline" in q.choices:
                adj = answer(adj, q.id, "decline", "order")
                break
            if policy == "take":
                choice = "take" if "take" in q.choices else "attack"
                if choice in q.choices:
                    adj = answer(adj, q.id, choice, "order")
                    break
        else:
            return adj
    return adj


class Flow:
    """Owns the per-channel locks and the deadline task; the cogs call into it."""

    def __init__(self, client: discord.Client, storage: Storage, render: Callable[..., Any] | None) -> None:
        self.client = client
        self.storage = storage
        self.render = render
        self._locks: dict[int, asyncio.Lock] = {}
        self._sleeper: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock serialising everything that changes a channel's encounter."""
        return self._locks.setdefault(channel_id, asyncio.Lock())

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the deadline task (it first resolves what expired while the bot was down)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._deadline_loop(), name="opp-deadlines")

    async def stop(self) -> None:
        """Stop the deadline task."""
        if self._task is not None:
            self.wake()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # -- starting an action --------------------------------------------------------------------

    async def waiting_text(self, channel_id: int) -> str | None:
        """'Waiting on ...' naming the open prompts, or None if nothing is in flight."""
        pending = await self.storage.load_pending(channel_id)
        if pending is None:
            return None
        prompts = await self.storage.open_prompts(channel_id)
        adj = Adjudication.model_validate(pending.data)
        who = safe(adj.ruling.who)
        if not prompts:
            return f"An action of **{who}** is still being resolved."
        parts = []
        for p in prompts[:5]:
            q = question_of(p)
            link = ""
            if p.message_id is not None:
                guild = getattr(self.client.get_channel(channel_id), "guild", None)
                gid = guild.id if guild is not None else "@me"
                link = f" (https://discord.com/channels/{gid}/{channel_id}/{p.message_id})"
            parts.append(f"**{safe(p.combatant)}** — {KIND_TEXT.get(q.kind, q.kind)}{link}")
        return f"**{who}**'s action is waiting on " + "; ".join(parts) + "."

    async def ensure_idle(self, channel_id: int) -> None:
        """Raise `WaitingError` naming what the channel waits on, if an action is in flight."""
        text = await self.waiting_text(channel_id)
        if text is not None:
            raise WaitingError(f"{text} Answer it first (the GM can answer any prompt).")

    async def begin_action(
        self, interaction: Interaction, build: Callable[[Encounter], Action], *, preview: bool
    ) -> None:
        """`/move` and `/act`: rule on the action ``build`` makes from the channel's encounter, then
        either show the preview or start the reaction flow."""
        channel_id = interaction.channel_id
        assert channel_id is not None  # noqa: S101 - guild-only commands
        async with self.lock(channel_id):
            stored = await self.storage.require_encounter(channel_id)
            action = build(stored.encounter)
            combatant = stored.encounter.find(action.who)
            action = action.model_copy(update={"who": combatant.name})
            if not may_act_for(interaction, stored, combatant.name):
                raise NotAllowedError(
                    f"You don't control **{safe(combatant.name)}**; its player or the GM can act for it."
                )
            if not preview:
                await self.ensure_idle(channel_id)
            # Path finding on a big map is CPU work: keep it off the event loop.
            adj = await asyncio.to_thread(begin, stored.encounter, action)
            ruling = adj.ruling
            if not ruling.legal:
                raise OpportunistError(ruling_text(ruling))
            if preview:
                await interaction.response.defer(ephemeral=True, thinking=True)
                files = await self._map_files(stored.encounter, ruling)
                await interaction.followup.send(
                    ruling_text(ruling, preview=True),
                    ephemeral=True,
                    files=files,
                    allowed_mentions=NO_MENTIONS,
                )
                return
            adj = apply_orders(adj, await self.storage.orders(channel_id))
            # Commit before acknowledging: if another process got in first (a stale version), the
            # error still goes to this user alone instead of into the public "thinking" message.
            new_prompts = await self._persist(stored, adj, None, started_by=interaction.user.id)
            await interaction.response.defer(thinking=True)
            if adj.complete:
                # Nobody reacts (or standing orders answered everyone): the ruling and its outcome in
                # one message, with one map of where everyone ends up.
                files = await self._map_files(adj.working, ruling)
                text = f"{ruling_text(ruling)}\n{_outcome_message(adj)}"[:2000]
                await interaction.followup.send(text, files=files, allowed_mentions=NO_MENTIONS)
                return
            files = await self._map_files(stored.encounter, ruling)
            await interaction.followup.send(ruling_text(ruling), files=files, allowed_mentions=NO_MENTIONS)
            await self._publish(channel_id, stored, adj, new_prompts)

    # -- answering ------------------------------------------------------------------------------

    async def press(self, interaction: Interaction, prompt_id: int, choice: str) -> None:
        """A prompt button was pressed."""
        try:
            await self._press(interaction, prompt_id, choice)
        except Exception as error:
            from cogs._common import reply_error

            await reply_error(interaction, error)

    async def _press(self, interaction: Interaction, prompt_id: int, choice: str) -> None:
        prompt = await self.storage.get_prompt(prompt_id)
        if prompt is None:
            raise OpportunistError("This prompt no longer exists (its encounter ended); nothing changed.")
        async with self.lock(prompt.channel_id):
            prompt = await self.storage.get_prompt(prompt_id)
            if prompt is None or prompt.status not in ("open", "escalated"):
                raise OpportunistError(_spent_text(prompt))
            stored = await self.storage.require_encounter(prompt.channel_id)
            gm = is_gm(interaction, stored)
            owner = controller(stored, prompt.combatant) == interaction.user.id
            if prompt.status == "escalated" and not gm:
                raise NotAllowedError("This prompt timed out and is now the GM's to answer.")
            if not (gm or owner):
                owner_id = controller(stored, prompt.combatant)
                raise NotAllowedError(
                    f"Only **{safe(prompt.combatant)}**'s controller (<@{owner_id}>) "
                    "or the GM can answer this; nothing changed."
                )
            pending = await self.storage.load_pending(prompt.channel_id)
            if pending is None or pending.id != prompt.adjudication_id:
                raise OpportunistError("That action is no longer in flight; nothing changed.")
            adj = Adjudication.model_validate(pending.data)
            by = "user" if owner else "gm"
            adj = answer(adj, prompt.question_id, choice, by)
            adj = apply_orders(adj, await self.storage.orders(prompt.channel_id))
            async with self.storage.transaction():
                if not await self.storage.close_prompt(
                    prompt.id, "answered", choice=choice, by=by, user_id=interaction.user.id
                ):
                    raise OpportunistError(_spent_text(await self.storage.get_prompt(prompt.id)))
                new_prompts = await self._persist(stored, adj, pending, started_by=pending.started_by)
            if prompt.message_id is not None:
                siblings = await self.storage.prompts_of_message(prompt.message_id)
                await interaction.response.edit_message(
                    content=prompt_content(siblings), view=prompt_view(siblings), allowed_mentions=NO_MENTIONS
                )
            else:
                await interaction.response.send_message(
                    f"Recorded: {choice_label(choice)}.", ephemeral=True, allowed_mentions=NO_MENTIONS
                )
            await self._publish(prompt.channel_id, stored, adj, new_prompts)

    # -- persistence -----------------------------------------------------------------------------

    async def _persist(
        self, stored: StoredEncounter, adj: Adjudication, pending: PendingAction | None, *, started_by: int
    ) -> list[Prompt]:
        """One transaction: either the finished action (encounter + log, pending cleared) or the
        adjudication in flight plus a prompt row for each newly opened question."""
        channel_id = stored.channel_id
        async with self.storage.transaction():
            if adj.complete:
                base = pending.base_version if pending is not None else stored.version
                await self.storage.save_encounter(channel_id, adj.working, base)
                await self.storage.append_event(channel_id, "action", _action_event(adj, started_by))
                if pending is not None:
                    await self.storage.clear_pending(channel_id, expected_version=pending.version)
                return []
            base = pending.base_version if pending is not None else stored.version
            adjudication_id = await self.storage.put_pending(
                channel_id,
                adj.model_dump(mode="json"),
                base_version=base,
                started_by=started_by,
                expected_version=pending.version if pending is not None else None,
            )
            existing = await self.storage.open_prompts(channel_id)
            open_ids = {q.id for q in adj.open}
            await self.storage.moot_prompts(
                channel_id, [p.question_id for p in existing if p.question_id not in open_ids]
            )
            asked = {p.question_id for p in existing}
            fresh = [q for q in adj.open if q.id not in asked]
            if not fresh:
                return []
            timeout = stored.encounter.settings.prompt_timeout
            now = now_ts()
            rows = []
            for q in fresh:
                point = adj.ruling.points[q.point] if 0 <= q.point < len(adj.ruling.points) else None
                header = header_for(
                    q, point.at if point else None, point.trigger if point else None, adj.ruling.who
                ) + _by_order(adj, q)
                rows.append(
                    NewPrompt(
                        question_id=q.id,
                        question={**q.model_dump(mode="json"), "header": header},
                        combatant=q.asked,
                        ping_user=controller(stored, q.asked),
                        deadline=now + timeout if timeout > 0 else None,
                        remind_at=now + timeout / 2 if timeout > REMINDER_AFTER else None,
                    )
                )
            ids = await self.storage.add_prompts(channel_id, adjudication_id, rows)
        prompts = [await self.storage.get_prompt(i) for i in ids]
        return [p for p in prompts if p is not None]

    async def _publish(
        self, channel_id: int, stored: StoredEncounter, adj: Adjudication, new_prompts: list[Prompt]
    ) -> None:
        """Post the new prompts (pinging exactly their controllers), or the outcome when complete."""
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("channel %s is gone; cannot post", channel_id)
            return
        if new_prompts:
            self.wake()
        for batch in batches(new_prompts):
            message = await channel.send(
                prompt_content(batch), view=prompt_view(batch), allowed_mentions=mentions_for(batch)
            )
            await self.storage.set_prompt_message([p.id for p in batch], message.id)
        if adj.complete:
            files = await self._map_files(adj.working, adj.ruling)
            await channel.send(_outcome_message(adj), files=files, allowed_mentions=NO_MENTIONS)

    async def _map_files(self, encounter: Any, ruling: Any = None) -> list[discord.File]:
        """The map picture, rendered off the event loop; none if rendering is unavailable or fails."""
        if self.render is None:
            return []
        try:
            png: bytes = await asyncio.to_thread(self.render, encounter, ruling)
        except Exception:
            log.exception("map render failed")
            return []
        return [discord.File(io.BytesIO(png), filename="map.png")]

    # -- deadlines -------------------------------------------------------------------------------

    async def _deadline_loop(self) -> None:
        while True:
            try:
                await self.expire_due()
                wake = await self.storage.next_wake()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("deadline check failed")
                wake = None
            delay = MAX_SLEEP if wake is None else max(0.0, min(MAX_SLEEP, wake - now_ts()))
            # A plain sleep (a timer SimCord's virtual clock can fast-forward), cancelled by `wake`.
            self._sleeper = asyncio.get_running_loop().create_task(asyncio.sleep(delay + 0.001))
            try:
                await self._sleeper
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise

    def wake(self) -> None:
        """New deadlines were stored: re-plan the deadline task's sleep."""
        if self._sleeper is not None and not self._sleeper.done():
            self._sleeper.cancel()

    async def expire_due(self) -> None:
        """Send due reminders and resolve every prompt whose deadline passed (also after downtime)."""
        now = now_ts()
        for prompt in await self.storage.due_reminders(now):
            await self._remind(prompt)
        for prompt in await self.storage.due_prompts(now):
            try:
                await self._expire(prompt)
            except Exception:
                log.exception("could not expire prompt %s", prompt.id)

    async def _remind(self, prompt: Prompt) -> None:
        await self.storage.mark_reminded(prompt.id)
        channel = self.client.get_channel(prompt.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        when = f" before <t:{int(prompt.deadline)}:R>" if prompt.deadline else ""
        await channel.send(
            f"<@{prompt.ping_user}> reminder: **{safe(prompt.combatant)}** "
            f"still has a prompt to answer{when}.",
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(prompt.ping_user)]
            ),
        )

    async def _expire(self, due: Prompt) -> None:
        async with self.lock(due.channel_id):
            prompt = await self.storage.get_prompt(due.id)
            if prompt is None or prompt.status != "open":
                return
            stored = await self.storage.load_encounter(due.channel_id)
            pending = await self.storage.load_pending(due.channel_id)
            if stored is None or pending is None or pending.id != prompt.adjudication_id:
                await self.storage.close_prompt(prompt.id, "moot", choice=None, by="timeout", user_id=None)
                return
            if stored.encounter.settings.on_timeout == "gm":
                await self.storage.escalate_prompt(prompt.id, stored.gm_id, None)
                channel = self.client.get_channel(prompt.channel_id)
                if isinstance(channel, discord.abc.Messageable):
                    escalated = await self.storage.get_prompt(prompt.id)
                    assert escalated is not None  # noqa: S101
                    message = await channel.send(
                        f"<@{stored.gm_id}> **{safe(prompt.combatant)}**'s controller "
                        "did not answer in time; the GM decides:\n"
                        + prompt_content([escalated], deadline_note=False),
                        view=prompt_view([escalated]),
                        allowed_mentions=discord.AllowedMentions(
                            everyone=False, roles=False, users=[discord.Object(stored.gm_id)]
                        ),
                    )
                    await self.storage.set_prompt_message([prompt.id], message.id)
                return
            question = question_of(prompt)
            adj = Adjudication.model_validate(pending.data)
            adj = answer(adj, prompt.question_id, question.timeout_choice, "timeout")
            adj = apply_orders(adj, await self.storage.orders(prompt.channel_id))
            async with self.storage.transaction():
                await self.storage.close_prompt(
                    prompt.id, "timeout", choice=question.timeout_choice, by="timeout", user_id=None
                )
                new_prompts = await self._persist(stored, adj, pending, started_by=pending.started_by)
            await self._refresh_message(prompt)
            await self._publish(prompt.channel_id, stored, adj, new_prompts)

    async def _refresh_message(self, prompt: Prompt) -> None:
        """Re-render a prompt message after a change made without a button press."""
        if prompt.message_id is None:
            return
        channel = self.client.get_channel(prompt.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        siblings = await self.storage.prompts_of_message(prompt.message_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(prompt.message_id).edit(
                content=prompt_content(siblings), view=prompt_view(siblings), allowed_mentions=NO_MENTIONS
            )


def _by_order(adj: Adjudication, question: Question) -> str:
    """' X took the AoO by standing order.' when an order answered this combatant's earlier question at
    the same point (SPEC §8: the message says so)."""
    for given in reversed(adj.answers):
        if (
            given.by == "order"
            and given.question.asked == question.asked
            and given.question.point == question.point
        ):
            return f" **{safe(question.asked)}** answered `{choice_label(given.choice)}` by standing order."
    return ""


def _spent_text(prompt: Prompt | None) -> str:
    if prompt is None:
        return "This prompt no longer exists; nothing changed."
    if prompt.status == "answered" and prompt.choice:
        return f"Already answered: **{choice_label(prompt.choice)}**. Nothing changed."
    if prompt.status == "timeout":
        return "This prompt already timed out; nothing changed."
    return "This prompt is no longer open; nothing changed."


def _action_event(adj: Adjudication, started_by: int) -> dict[str, Any]:
    """The log entry of a completed action, with the snapshot `/encounter undo` restores."""
    return {
        "by": started_by,
        "ruling": adj.ruling.to_json(),
        "act": adj.ruling.act_name,
        "answers": [
            {"asked": a.question.asked, "kind": a.question.kind, "choice": a.choice, "by": a.by}
            for a in adj.answers
        ],
        "stop_step": adj.stop_step,
        "foiled": adj.foiled,
        "before": to_data(adj.before),
    }


def _outcome_message(adj: Adjudication) -> str:
    lines = [outcome_text(adj)]
    for a in adj.answers:
        how = {"order": " (standing order)", "timeout": " (timed out)", "gm": " (GM)"}.get(a.by, "")
        lines.append(f"• **{safe(a.question.asked)}** — {choice_label(a.choice)}{how}")
    return "\n".join(lines)[:2000]
