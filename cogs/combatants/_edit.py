"""GM edits of a channel's encounter: one guarded load -> change -> save, and the pure changes themselves.

Every change rebuilds the whole encounter through its ruleset's model, so anything the model refuses
(an off-map square, a duplicate name, an unknown condition) is refused here too, with its message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs._common import require_gm, storage_of
from cogs.play._cog import flow_of
from cogs.play._text import safe
from render.geometry import SHARED_SIZES
from render.scene import footprint
from rules.coords import format_coord
from rules.encounter_file import load_data, to_data
from rules.errors import EncounterFileError, InputError
from rules.model import Combatant, Encounter, apply_stats
from rules.rulesets import get_ruleset
from storage import Storage, StoredEncounter

Interaction = discord.Interaction[Any]
Change = Callable[[StoredEncounter], tuple[Encounter, str, dict[str, Any]]]
"""Given the stored encounter: the new encounter, the event kind and the event data to log."""


def channel_of(interaction: Interaction) -> int:
    """The interaction's channel id (the commands are guild-only, so there always is one)."""
    if interaction.channel_id is None:  # pragma: no cover - guild-only commands
        raise discord.app_commands.NoPrivateMessage()
    return interaction.channel_id


async def change_encounter(
    interaction: Interaction,
    doing: str,
    change: Change,
    also: Callable[[Storage, int], Awaitable[None]] | None = None,
) -> tuple[StoredEncounter, Encounter]:
    """GM only; refused while an action waits on reactions; one transaction saves and logs the change
    (plus ``also``, e.g. dropping a removed combatant's standing orders).

    Returns the encounter as it was and as it is now.
    """
    channel_id = channel_of(interaction)
    storage = storage_of(interaction.client)
    flow = flow_of(interaction.client)
    async with flow.lock(channel_id):
        stored = await storage.require_encounter(channel_id)
        require_gm(interaction, stored, doing)
        await flow.ensure_idle(channel_id)
        new, kind, data = change(stored)
        async with storage.transaction():
            await storage.save_encounter(channel_id, new, stored.version)
            await storage.append_event(channel_id, kind, {**data, "by": interaction.user.id})
            if also is not None:
                await also(storage, channel_id)
    return stored, new


def revalidate(data: dict[str, Any]) -> Encounter:
    """The encounter built from plain data by its ruleset's model; its first problem as an `InputError`."""
    try:
        return load_data(data)
    except EncounterFileError as exc:
        raise InputError(f"Refused, nothing changed: {exc.message}") from None


def combatant_model(ruleset: str) -> type[Combatant]:
    """The ruleset's combatant model (its fields are what `stats` may set)."""
    model: type[Combatant] = get_ruleset(ruleset).combatant_model
    return model


def _with_combatants(enc: Encounter, combatants: list[Combatant], **changes: Any) -> Encounter:
    data = to_data(enc)
    data.update(changes)
    data["combatants"] = to_data(enc.model_copy(update={"combatants": combatants}))["combatants"]
    return revalidate(data)


def check_position(enc: Encounter, combatant: Combatant) -> None:
    """Refuse a square that is off the map, blocked, or already taken by another combatant."""
    squares = footprint(combatant)
    blocked = enc.map.blocked_set()
    for square in squares:
        if not enc.map.contains(square):
            raise InputError(
                f"**{safe(combatant.name)}** would not fit on the map at {combatant.at}; "
                f"the map is {enc.map.width}×{enc.map.height}. Pick a square further in."
            )
        if square in blocked:
            raise InputError(f"{_label(square)} is blocked terrain; pick an open square.")
    if getattr(combatant, "size", None) in SHARED_SIZES:
        return
    taken = set(squares)
    for other in enc.combatants:
        if other.name == combatant.name or getattr(other, "size", None) in SHARED_SIZES:
            continue
        if taken & set(footprint(other)):
            raise InputError(
                f"**{safe(other.name)}** already stands there ({other.at}); pick a free square "
                "or move it first with `/combatant place`."
            )


def _label(square: tuple[int, int]) -> str:
    return format_coord(square)


def add(enc: Encounter, name: str, at: str, side: str, player: int | None, stats: str) -> Encounter:
    """The encounter with a new combatant; stats are `key=value` pairs of its ruleset's fields."""
    model = combatant_model(enc.ruleset)
    square = enc.coord(at)  # an off-map or malformed square is an InputError naming the map's size
    base: dict[str, Any] = {"name": name.strip(), "side": side.strip(), "at": _label(square)}
    if player is not None:
        base["player"] = player
    try:
        combatant = model.model_validate(base)
    except Exception as exc:
        raise InputError(_first_problem(exc, base)) from None
    if stats.strip():
        combatant = apply_stats(combatant, stats, protected=frozenset({"name", "at", "side", "player"}))
    try:
        enc.find(combatant.name)
    except InputError:
        pass
    else:
        raise InputError(
            f"There is already a combatant called **{safe(combatant.name)}**; names must be unique."
        )
    check_position(enc, combatant)
    # With an initiative list, a newcomer joins it last so that it gets turns (dnd35 only follows the list).
    initiative = [*enc.initiative, combatant.name] if enc.initiative else []
    return _with_combatants(enc, [*enc.combatants, combatant], initiative=initiative)


def set_stats(enc: Encounter, name: str, stats: str) -> tuple[Encounter, Combatant]:
    """The encounter with one combatant's stats changed."""
    old = enc.find(name)
    new = apply_stats(old, stats, protected=frozenset({"name"}))
    if new.at != old.at or getattr(new, "size", None) != getattr(old, "size", None):
        check_position(enc, new)
    return _with_combatants(enc, [new if c.name == old.name else c for c in enc.combatants]), new


def remove(enc: Encounter, name: str) -> tuple[Encounter, str]:
    """The encounter without a combatant; initiative and whose turn it is follow."""
    gone = enc.find(name)
    rest = [c for c in enc.combatants if c.name != gone.name]
    initiative = [n for n in enc.initiative if n != gone.name]
    turn = enc.turn
    if turn == gone.name:
        order = list(enc.initiative) if gone.name in enc.initiative else [c.name for c in enc.combatants]
        after = order[order.index(gone.name) + 1 :] + order[: order.index(gone.name)]
        turn = next((n for n in after if n != gone.name and any(c.name == n for c in rest)), None)
    # Per-round memories of other combatants (e.g. dnd35 `aoo_against`) must not name the departed.
    cleaned = []
    for c in rest:
        against = getattr(c, "aoo_against", None)
        if against and gone.name in against:
            c = c.model_copy(update={"aoo_against": [n for n in against if n != gone.name]})
        cleaned.append(c)
    return _with_combatants(enc, cleaned, initiative=initiative, turn=turn), gone.name


def place(enc: Encounter, name: str, at: str) -> tuple[Encounter, Combatant, str]:
    """The encounter with a combatant set down on another square: no movement, so nothing provokes."""
    old = enc.find(name)
    new = old.model_copy(update={"at": _label(enc.coord(at))})
    check_position(enc, new)
    return _with_combatants(enc, [new if c.name == old.name else c for c in enc.combatants]), new, old.at


def conditions(
    enc: Encounter, name: str, add_text: str | None, remove_text: str | None
) -> tuple[Encounter, Combatant]:
    """The encounter with conditions added to / removed from one combatant (comma or space separated)."""
    old = enc.find(name)
    adding = _names(add_text)
    removing = _names(remove_text)
    if not adding and not removing:
        raise InputError("Give a condition to `add` or to `remove` (e.g. `add:prone`).")
    known = type(old).CONDITIONS
    for cond in adding + removing:
        if cond not in known:
            allowed = ", ".join(sorted(known)) or "none"
            raise InputError(f"`{safe(cond[:32])}` is not a condition in {enc.ruleset}; it knows: {allowed}.")
    missing = [c for c in removing if c not in old.conditions]
    if missing:
        has = ", ".join(old.conditions) or "none"
        raise InputError(f"**{safe(old.name)}** is not `{missing[0]}`; its conditions: {has}.")
    current = [c for c in old.conditions if c not in removing]
    current += [c for c in adding if c not in current]
    new = old.model_copy(update={"conditions": current})
    return _with_combatants(enc, [new if c.name == old.name else c for c in enc.combatants]), new


def _names(text: str | None) -> list[str]:
    if not text:
        return []
    return [
        t.strip().lower().replace("-", "_").replace(" ", "_")
        for t in text.replace(",", " ").split()
        if t.strip()
    ]


def _first_problem(exc: Exception, data: dict[str, Any]) -> str:
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return str(exc)
    err = exc.errors(include_url=False)[0]
    field = ".".join(str(p) for p in err["loc"])
    msg = str(err["msg"]).removeprefix("Value error, ")
    shown = str(data.get(field, ""))[:40]
    return f"`{field}` `{safe(shown)}`: {msg}."
