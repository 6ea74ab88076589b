"""Turn bookkeeping: initiative, stuns wearing off, natural abilities barred for a turn."""

from __future__ import annotations

from rules.aphex.model import AphexCombatant, AphexEncounter


def turn_order(encounter: AphexEncounter) -> list[str]:
    """The initiative list, then anyone it leaves out in the order of the file."""
    listed = list(encounter.initiative)
    return listed + [c.name for c in encounter.combatants if c.name not in listed]


def start_turn(encounter: AphexEncounter, who: str) -> AphexEncounter:
    """The encounter as ``who``'s turn starts. Reloading and redrawing stay the player's job.

    Stun (seed 000, "Stunning": Ethan is stunned on his turn; his enemies move; "Ethan will remain
    stunned, until his enemies move again"): ``stun_turns`` counts down at turn starts. At 2 it drops to
    1 only when the stunned figure's own turn starts (that turn is lost); at 1 the next turn start of
    anyone ends the stun. A ``stunned`` condition set by hand (``stun_turns`` 0) stays until removed.

    Natural ability (seed 000: it "cannot be used again on the attacker's turn following"): barred
    from the interruption through the attacker's next turn; the bar lifts at the turn start after it.
    """
    name = encounter.find(who).name
    result = encounter.model_copy(deep=True)
    for c in result.combatants:
        _tick_stun(c, own=c.name == name)
        _tick_natural(c, own=c.name == name)
    return result


def _tick_stun(c: AphexCombatant, *, own: bool) -> None:
    if c.stun_turns >= 2:
        if own:
            c.stun_turns -= 1
    elif c.stun_turns == 1:
        c.stun_turns = 0
        c.conditions = [x for x in c.conditions if x != "stunned"]


def _tick_natural(c: AphexCombatant, *, own: bool) -> None:
    if not c.natural_barred:
        return
    if c.natural_bar_served:
        c.natural_barred = False
        c.natural_bar_served = False
    elif own:
        c.natural_bar_served = True
