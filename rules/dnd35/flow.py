"""The dnd35 side of the reaction flow: which questions a reaction point asks, what answers do, and the
final state (SPEC §6, §7.1 "Timing").

Per point: a tumbling mover first rolls its Tumble check against each opponent (``tumble``); an
opponent the mover did not tumble past is asked ``aoo``. Taking an AoO as disarm, trip, grapple or
sunder may provoke back, building a chain (stored in ``adj.scratch["chains"]``); once nobody adds to
a chain its links are resolved last-first (seed: "Resolve the final attack of opportunity in the
chain first, and then work forward along the chain"), each with an ``outcome`` question.
"""

from __future__ import annotations

from typing import Any

from rules.dnd35 import geometry
from rules.dnd35.actions import CONCENTRATION_DAMAGE, maneuver_provokes
from rules.dnd35.creature import MANEUVERS, Body, barred, body, threat
from rules.dnd35.model import Dnd35Combatant, Dnd35Encounter
from rules.engine import Adjudication, Answer, Question, ReactionPoint, Trigger

AOO_CHOICES = ["take", "decline", *MANEUVERS]
ATTACK_OUTCOMES = ["down", "hit", "miss"]
MANEUVER_OUTCOMES = ["success", "failure"]
CHECK_CHOICES = ["passed", "failed"]


# -- helpers -------------------------------------------------------------------------------------


def working(adj: Adjudication) -> Dnd35Encounter:
    """``adj.working`` as a model (it comes back from storage as plain data)."""
    if not isinstance(adj.working, Dnd35Encounter):
        adj.working = Dnd35Encounter.model_validate(adj.working)
    enc: Dnd35Encounter = adj.working
    return enc


def _combatant(adj: Adjudication, name: str) -> Dnd35Combatant:
    c: Dnd35Combatant | None = working(adj).get(name)
    if c is None:  # only names taken from the ruling reach here
        raise KeyError(name)
    return c


def _body(adj: Adjudication, name: str) -> Body:
    enc = working(adj)
    return body(_combatant(adj, name), tuple(enc.settings.variants))


def _add_condition(c: Dnd35Combatant, condition: str) -> None:
    if condition not in c.conditions:
        c.conditions = [*c.conditions, condition]


def _point(adj: Adjudication, index: int) -> ReactionPoint:
    return adj.ruling.points[index]


def _chains(adj: Adjudication) -> dict[str, Any]:
    chains: dict[str, Any] = adj.scratch.setdefault("chains", {})
    return chains


def _ask_aoo(
    adj: Adjudication,
    point: ReactionPoint,
    attacker: str,
    against: str,
    trigger: Trigger,
    cid: str,
    extra: dict[str, Any] | None = None,
) -> None:
    detail: dict[str, Any] = {"chain": cid, "attacker": attacker, "target": against, "at": point.at}
    if extra:
        detail.update(extra)
    adj.ask(
        Question(
            id=adj.next_id(f"p{point.index}:{attacker}:aoo"),
            point=point.index,
            kind="aoo",
            asked=attacker,
            about=against,
            choices=list(AOO_CHOICES),
            timeout_choice="decline",
            trigger=trigger,
            detail=detail,
        )
    )


def _ask_check(adj: Adjudication, point_index: int, kind: str, who: str, detail: dict[str, Any]) -> None:
    adj.ask(
        Question(
            id=adj.next_id(f"p{point_index}:{who}:{kind}"),
            point=point_index,
            kind=kind,
            asked=who,
            about=who,
            choices=list(CHECK_CHOICES),
            timeout_choice="failed",
            detail=detail,
        )
    )


def _root(adj: Adjudication) -> str:
    return adj.ruling.who


def _is_spell(adj: Adjudication, point: ReactionPoint) -> bool:
    return bool(point.detail.get("spell"))


# -- the Ruleset hooks ---------------------------------------------------------------------------


def open_point(adj: Adjudication, point: ReactionPoint) -> None:
    """Ask the questions of one reaction point (some foes may have lost their AoO since the ruling)."""
    mover_name = _root(adj)
    if "concentration" in point.detail:
        _ask_check(
            adj,
            point.index,
            "concentration",
            mover_name,
            {
                "dc": None,
                "dc_base": point.detail["concentration"]["dc_base"],
                "formula": point.detail.get("formula", "15 + spell level"),
                "reason": "casting defensively",
            },
        )
        return
    mover = _body(adj, mover_name)
    movement = adj.action.kind == "move" and point.trigger in ("leave-threatened", "enter-space")
    for name in point.reactors:
        info: dict[str, Any] = point.detail.get("reactors", {}).get(name, {})
        foe = _body(adj, name)
        why = barred(foe, mover)
        if why is not None:
            adj.log("no_aoo", attacker=name, target=mover_name, reason=why, point=point.index)
            continue
        if "dc" in info:
            _ask_check(
                adj,
                point.index,
                "tumble",
                mover_name,
                {"dc": info["dc"], "opponent": name, "through": info.get("through", False), "at": point.at},
            )
            continue
        _offer(adj, point, name, info, movement)


def _offer(adj: Adjudication, point: ReactionPoint, name: str, info: dict[str, Any], movement: bool) -> None:
    """Give ``name`` its AoO question at this point (starting a new chain)."""
    mover_name = _root(adj)
    if movement:
        # The foe's one movement opportunity against this mover this round is now given.
        foe = _combatant(adj, name)
        if mover_name not in foe.aoo_against:
            foe.aoo_against = [*foe.aoo_against, mover_name]
    cid = f"c{len(_chains(adj))}"
    extra = {k: v for k, v in info.items() if k == "mobility"}
    # The chain keeps the Mobility note so the outcome question (where the attack is rolled) shows it too.
    _chains(adj)[cid] = {"point": point.index, "links": [], "next": None, **extra}
    _ask_aoo(adj, point, name, mover_name, point.trigger, cid, extra)


def on_answer(adj: Adjudication, answer: Answer) -> None:
    """Apply one answer (see the module docstring)."""
    q = answer.question
    point = _point(adj, q.point)
    if q.kind == "tumble":
        _on_tumble(adj, point, q, answer.choice)
    elif q.kind == "aoo":
        _on_aoo(adj, point, q, answer.choice)
    elif q.kind == "outcome":
        _on_outcome(adj, point, q, answer.choice)
    elif q.kind == "concentration":
        if answer.choice == "passed":
            adj.log("concentration_passed", who=q.asked)
        else:
            adj.log("spell_lost", who=q.asked, reason=q.detail.get("reason", "failed Concentration check"))
            adj.halt(0, foiled=True)


def _on_tumble(adj: Adjudication, point: ReactionPoint, q: Question, choice: str) -> None:
    opponent = str(q.detail["opponent"])
    info: dict[str, Any] = point.detail.get("reactors", {}).get(opponent, {})
    if choice == "passed":
        adj.log("tumble_passed", who=q.asked, opponent=opponent, dc=q.detail["dc"])
        return
    adj.log("tumble_failed", who=q.asked, opponent=opponent, dc=q.detail["dc"])
    if q.detail.get("through"):
        # seed: "If you fail the check, you stop before entering the foe's space and you provoke an
        # attack of opportunity from that foe."
        adj.halt(point.step)
        adj.log("stopped", who=q.asked, at=point.at, reason="tumble-through failed")
    _offer(adj, point, opponent, info, movement=True)


def _provoked_back(adj: Adjudication, attacker: str, target: str, maneuver: str) -> bool:
    """Whether ``attacker``'s maneuver AoO gives ``target`` an AoO in turn (the chain grows)."""
    enc = working(adj)
    a = _body(adj, attacker)
    t = _body(adj, target)
    if not maneuver_provokes(a, maneuver):
        return False
    walls = enc.map.blocked_set()
    if not (threat(t, enc.map.width, enc.map.height, walls) & set(a.squares)):
        return False
    if barred(t, a) is not None:
        return False
    return not geometry.has_cover(t.pos, t.side_len, a.pos, a.side_len, walls)


def _on_aoo(adj: Adjudication, point: ReactionPoint, q: Question, choice: str) -> None:
    cid = str(q.detail["chain"])
    chain = _chains(adj)[cid]
    attacker, target = q.asked, q.about
    if choice == "decline":
        adj.log("aoo_declined", attacker=attacker, target=target, chain=cid)
        _resolve(adj, point, cid)
        return
    c = _combatant(adj, attacker)
    c.aoo_used = c.aoo_used + 1
    chain["links"].append({"by": attacker, "against": target, "as": "attack" if choice == "take" else choice})
    adj.log("aoo_taken", attacker=attacker, target=target, as_=choice, chain=cid, link=len(chain["links"]))
    if choice in MANEUVERS and _provoked_back(adj, attacker, target, choice):
        # seed: "In some cases, you can make an attack of opportunity that provokes an attack of
        # opportunity against you."
        _ask_aoo(adj, point, target, attacker, "action", cid, {"provoked_by": choice})
        return
    _resolve(adj, point, cid)


def _resolve(adj: Adjudication, point: ReactionPoint, cid: str) -> None:
    """Start resolving a finished chain from its last link."""
    chain = _chains(adj)[cid]
    if not chain["links"]:
        return
    chain["next"] = len(chain["links"]) - 1
    _ask_outcome(adj, point, cid)


def _ask_outcome(adj: Adjudication, point: ReactionPoint, cid: str) -> None:
    chain = _chains(adj)[cid]
    k = chain["next"]
    link = chain["links"][k]
    attack = link["as"] == "attack"
    mobility = (
        {"mobility": chain["mobility"]}
        if attack and chain.get("mobility") and link["against"] == _root(adj)
        else {}
    )
    adj.ask(
        Question(
            id=adj.next_id(f"p{point.index}:{link['by']}:outcome"),
            point=point.index,
            kind="outcome",
            asked=link["by"],
            about=link["against"],
            choices=list(ATTACK_OUTCOMES if attack else MANEUVER_OUTCOMES),
            timeout_choice="miss" if attack else "failure",
            detail={
                "chain": cid,
                "link": k + 1,
                "links": len(chain["links"]),
                "as": link["as"],
                "at": point.at,
                **mobility,
            },
        )
    )


def _on_outcome(adj: Adjudication, point: ReactionPoint, q: Question, choice: str) -> None:
    cid = str(q.detail["chain"])
    chain = _chains(adj)[cid]
    k = chain["next"]
    link = chain["links"][k]
    by, against, how = link["by"], link["against"], link["as"]
    root = _root(adj)
    adj.log("outcome", attacker=by, target=against, as_=how, result=choice, chain=cid, link=k + 1)
    movement = adj.action.kind == "move" and point.trigger in ("leave-threatened", "enter-space")
    ended = False
    if choice == "down":
        # seed: "If the damage kills your target or renders the target unconscious, your attack of
        # opportunity foils the action that triggered the attack."
        _add_condition(_combatant(adj, against), "unconscious")
        adj.log("down", who=against, by=by)
        ended = True
        if against == root:
            _moot_rest(adj, cid, k)
            adj.halt(point.step, foiled=True)
            return
    elif choice == "success":
        _maneuver_effect(adj, by, against, how)
        # seed: "if you succeed, your foe ... can't continue, bringing the whole process to an end"
        ended = True
        if against == root and movement and how in ("trip", "grapple"):
            _moot_rest(adj, cid, k)
            adj.halt(point.step, foiled=True)
            return
    elif choice == "hit" and against == root and _is_spell(adj, point):
        # seed: "the damage you deal might still disrupt the spell or spell-like ability if the target
        # fails a Concentration check"
        _ask_check(
            adj,
            point.index,
            "concentration",
            root,
            {
                "dc": None,
                "dc_base": CONCENTRATION_DAMAGE,
                "formula": "10 + damage dealt + spell level",
                "reason": f"hit by {by}'s attack of opportunity",
            },
        )
    if ended:
        _moot_rest(adj, cid, k)
        return
    if k == 0:
        chain["next"] = None
        return
    chain["next"] = k - 1
    _ask_outcome(adj, point, cid)


def _moot_rest(adj: Adjudication, cid: str, k: int) -> None:
    chain = _chains(adj)[cid]
    for j in range(k - 1, -1, -1):
        link = chain["links"][j]
        adj.log("aoo_foiled", attacker=link["by"], target=link["against"], chain=cid, link=j + 1)
    chain["next"] = None


def _maneuver_effect(adj: Adjudication, by: str, against: str, how: str) -> None:
    target = _combatant(adj, against)
    if how == "trip":
        _add_condition(target, "prone")
    elif how == "grapple":
        _add_condition(target, "grappling")
        _add_condition(_combatant(adj, by), "grappling")
    elif how == "disarm":
        target.armed = False
        target.reach_weapon = False
    adj.log("maneuver", by=by, against=against, as_=how)


def finish(adj: Adjudication) -> None:
    """Move the mover to where the action ended and mark it as having moved."""
    enc = working(adj)
    who = _combatant(adj, _root(adj))
    if adj.action.kind == "move" and adj.ruling.path:
        stop = adj.stop_step if adj.stop_step is not None else len(adj.ruling.path) - 1
        start = who.at
        who.at = adj.ruling.path[stop]
        who.moved = True
        who.stepped = who.stepped or adj.ruling.mode == "step"
        adj.log(
            "moved", who=who.name, start=start, end=who.at, steps=stop, whole=stop == len(adj.ruling.path) - 1
        )
    else:
        adj.log("acted", who=who.name, action=adj.ruling.act_name, foiled=adj.foiled)
    adj.working = enc


def start_turn(enc: Dnd35Encounter, who: str) -> Dnd35Encounter:
    """The encounter as ``who``'s turn starts: budgets reset per ``settings.aoo_reset``, flat-footed ends."""
    new = enc.model_copy(deep=True)
    me = new.find(who)
    order = turn_order(new)
    if new.settings.aoo_reset == "turn":
        me.aoo_used = 0
        me.aoo_against = []
    elif order and order[0] == me.name:
        for c in new.combatants:
            c.aoo_used = 0
            c.aoo_against = []
    if "flat_footed" in me.conditions:
        # SRD: a combatant is flat-footed until it first acts in the combat.
        me.conditions = [c for c in me.conditions if c != "flat_footed"]
    me.moved = False
    me.stepped = False
    return new


def turn_order(enc: Dnd35Encounter) -> list[str]:
    """Initiative order (the file's ``initiative``; without one, the order combatants are listed)."""
    if enc.initiative:
        return list(enc.initiative)
    return [c.name for c in enc.combatants]
