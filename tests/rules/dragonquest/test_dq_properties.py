"""Hypothesis invariants of dragonquest movement rulings (seed 003_3defe2e1570abee3.txt)."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from rules import hexgrid
from rules.coords import format_coord, parse_coord
from rules.dragonquest import RULESET, zones
from rules.dragonquest.model import DragonquestEncounter
from rules.dragonquest.modes import budget, parse_mode
from rules.engine import Action, Adjudication, answer, begin
from rules.errors import InputError

SIZE = 9
hexes = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))
facings = st.sampled_from(hexgrid.FACINGS)


@st.composite
def scenes(draw):
    spots = draw(st.lists(hexes, min_size=2, max_size=6, unique=True))
    mover = {
        "name": "Mover",
        "side": "party",
        "at": format_coord(spots[0]),
        "facing": draw(facings),
        "tmr": draw(st.integers(0, 12)),
        "agility": draw(st.integers(3, 30)),
        "weapon": draw(st.sampled_from(["melee", "pole", "missile", "crossbow"])),
        "adept": draw(st.booleans()),
        "flying": draw(st.booleans()),
    }
    others = []
    for i, spot in enumerate(spots[1:]):
        others.append(
            {
                "name": f"F{i}",
                "side": draw(st.sampled_from(["party", "foes", "foes"])),
                "at": format_coord(spot),
                "facing": draw(facings),
                "conditions": draw(st.sampled_from([[], [], ["stunned"], ["incapacitated"]])),
            }
        )
    free = [h for h in draw(st.lists(hexes, max_size=8)) if h not in spots]
    enc = DragonquestEncounter.model_validate(
        {
            "map": {
                "width": SIZE,
                "height": SIZE,
                "difficult": [format_coord(h) for h in free[::2]],
                "blocked": [format_coord(h) for h in free[1::2]],
            },
            "combatants": [mover, *others],
        }
    )
    steps = draw(st.lists(st.integers(0, 5), max_size=8))
    here, path = spots[0], []
    for step in steps:
        here = hexgrid.neighbour(here, step)
        path.append(here)
    if draw(st.booleans()) and path:
        path = [path[-1]]  # a single destination: find the path
    mode = draw(st.sampled_from(RULESET.modes))
    foes = [o["name"] for o in others if o["side"] == "foes"]
    target = draw(st.sampled_from(foes)) if foes and draw(st.booleans()) else None
    return enc, path, mode, target


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_legal_moves_obey_the_rules(scene):
    enc, path, mode, target = scene
    assume(all(enc.map.contains(h) for h in path))
    action = Action(kind="move", who="Mover", path=[format_coord(h) for h in path], mode=mode, target=target)
    try:
        ruling = RULESET.adjudicate(enc, action)
    except InputError:
        event("input error")
        return
    event("legal" if ruling.legal else "illegal")
    event(f"points: {len(ruling.points)}")
    if not ruling.legal:
        assert ruling.error and not ruling.points
        return
    mover = enc.find("Mover")
    walked = [parse_coord(h) for h in ruling.path]
    assert walked[0] == mover.pos
    assert not zones.is_engaged(enc, mover) and zones.can_act(mover)
    for a, b in itertools.pairwise(walked):
        assert hexgrid.distance(a, b) == 1
    defender = enc.find(target) if mode == "charge-close" and target else None
    closing = defender is not None and walked[-1] == defender.pos
    hostile_hexes = {c.pos for c in enc.foes(mover)}
    blocked = enc.map.blocked_set()
    for i, h in enumerate(walked[1:], start=1):
        assert h not in blocked
        last = i == len(walked) - 1
        assert h not in hostile_hexes or (last and closing)
        # 003_...txt: "If a figure enters the Melee Zone of any hostile figure, he must stop movement"
        if not last and not (closing and i == len(walked) - 2):
            assert not zones.zones_holding(enc, mover, h)
    if ruling.stop_at is not None:
        assert parse_coord(ruling.stop_at) == walked[-1] and zones.zones_holding(enc, mover, walked[-1])
    hexes_moved = len(walked) - 1
    assert ruling.cost >= hexes_moved
    # 003_...txt: "a figure may always (if not Stunned, etc.) move one hex during a Pulse"
    assert ruling.cost <= budget(mover, parse_mode(mode).name) or hexes_moved <= 1
    if defender is not None:
        # A Charge and Close ends in the defender's hex unless another Melee Zone stopped it first.
        assert closing or ruling.stop_at is not None
    if ruling.opportunities:
        assert closing and [o.at for o in ruling.opportunities] == [ruling.path[-2]]

    # Drive it to the end with the timeout answers, through a JSON round trip each time.
    adj = begin(enc, action)
    while not adj.complete:
        adj = Adjudication.model_validate(adj.model_dump(mode="json"))
        q = adj.open[0]
        adj = answer(adj, q.id, q.timeout_choice, by="timeout")
    final = adj.working.find("Mover")
    assert final.at in ruling.path
    assert DragonquestEncounter.model_validate(adj.working.model_dump()).find("Mover").at == final.at
