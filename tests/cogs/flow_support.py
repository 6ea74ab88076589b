"""Helpers for the reaction-flow tests: load an encounter file into a channel, find prompts, click."""

from __future__ import annotations

from typing import Any

from rules.encounter_file import load_data
from tests.conftest import button_labels


async def install(env: Any, channel: Any, gm: Any, data: dict[str, Any]) -> None:
    """Start an encounter in ``channel`` with ``gm`` as its GM, straight from encounter-file data."""
    await env.bot.storage.create_encounter(
        channel.id, load_data(data), gm_id=gm.id, guild_id=channel.guild.id
    )


def prompts(channel: Any) -> list[Any]:
    """Messages of the channel that carry buttons, oldest first."""
    return [m for m in channel.history() if m.components]


def last_prompt(channel: Any) -> Any:
    found = prompts(channel)
    assert found, "no prompt message was posted"
    return found[-1]


def labels(message: Any) -> list[str]:
    return button_labels(message)


def mentioned_ids(message: Any) -> set[int]:
    return {u.id for u in message.mentions}


async def stored(env: Any, channel: Any) -> Any:
    return (await env.bot.storage.load_encounter(channel.id)).encounter


def reply(result: Any) -> Any:
    """The public reply of a deferred command (discord edits the 'thinking' message into it)."""
    return result.followups[0] if result.followups else result.response


def reply_text(result: Any) -> str:
    return str(reply(result).content)
