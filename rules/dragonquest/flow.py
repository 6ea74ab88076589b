"""How a dragonquest adjudication advances: the Repulse question of a Charge and Close, the
Concentration and Perception rolls of acts, and the final state."""

from __future__ import annotations

from rules import hexgrid
from rules.dragonquest.model import DragonquestCombatant, DragonquestEncounter
from rules.dragonquest.movement import plan
from rules.engine import Adjudication, Answer, Question, ReactionPoint

CHECK_CHOICES = ["passed", "failed"]
REPULSE_CHOICES = ["repulsed", "not_repulsed"]


def _encounter(value: object) -> DragonquestEncounter:
    """The encounter, rebuilt from plain data if the adjudication came back from storage as JSON."""
    if isinstance(value, DragonquestEncounter):
        return value
    return DragonquestEncounter.model_validate(value)


def open_point(adj: Adjudication, point: ReactionPoint) -> None:
    """Ask the question a reaction point raises."""
    mover = adj.ruling.who
    if point.trigger == "repulse":
        defender = point.reactors[0]
        adj.ask(
            Question(
                id=adj.next_id(f"p{point.index}:{defender}:repulse"),
                point=point.index,
                kind="repulse",
                asked=defender,
                about=mover,
                choices=list(REPULSE_CHOICES),
                timeout_choice="not_repulsed",
                trigger="repulse",
                detail={"at": point.at, "defender": defender},
            )
        )
        return
    check = str(point.detail["check"])
    adj.ask(
        Question(
            id=adj.next_id(f"p{point.index}:{mover}:{check}"),
            point=point.index,
            kind=check,
            asked=mover,
            about=mover,
            choices=list(CHECK_CHOICES),
            timeout_choice="failed",
            trigger="action",
            detail={k: v for k, v in point.detail.items() if k != "check"},
        )
    )


def on_answer(adj: Adjudication, answer: Answer) -> None:
    """Apply a Repulse result or a check result."""
    q = answer.question
    point = adj.ruling.points[q.point]
    if q.kind == "repulse":
        if answer.choice == "repulsed":
            # The attacker halts in the hex before the defender's.
            adj.log("repulsed", who=q.about, by=q.asked, at=point.at)
            adj.halt(point.step)
        else:
            adj.log("not_repulsed", who=q.about, by=q.asked)
        return
    if answer.choice == "failed":
        adj.log(f"{q.kind}_failed", who=q.about, target=q.detail.get("target"))
        # A broken concentration loses the spell; a failed Perception roll forbids the attack and every
        # other action that Pulse. Either way the act does not happen.
        adj.halt(point.step, foiled=True)
    else:
        adj.log(f"{q.kind}_passed", who=q.about, target=q.detail.get("target"))


def finish(adj: Adjudication) -> None:
    """Move the mover to where it ends, facing the planned way; mark an evading figure."""
    if adj.action.kind != "move" or not adj.ruling.legal:
        return
    before = _encounter(adj.before)
    step = adj.stop_step if adj.stop_step is not None else len(adj.ruling.path) - 1
    working = _encounter(adj.working)
    mover: DragonquestCombatant = working.find(adj.ruling.who)
    planned = plan(before, adj.action)
    updates: dict[str, object] = {"at": adj.ruling.path[step]}
    if planned.facing is not None:
        updates["facing"] = hexgrid.FACINGS[planned.facing]
    if adj.ruling.mode.split(":")[0] == "evade" and not mover.has("evading"):
        updates["conditions"] = [*mover.conditions, "evading"]
    moved = mover.model_copy(update=updates)
    # Re-validate the changed fields so the working encounter stays a valid file.
    moved = type(mover).model_validate(moved.model_dump())
    adj.working = working.replace_combatant(moved)
    adj.log("moved", who=mover.name, to=str(updates["at"]), facing=moved.facing, hexes=step)
