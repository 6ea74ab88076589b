"""Hypothesis invariants of `aphex` rulings and flows on random small battlefields."""

from __future__ import annotations

import itertools

from aphex_support import Asked, roundtrip
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import hexgrid
from rules.aphex import RULESET
from rules.aphex.model import AphexEncounter
from rules.coords import format_coord, parse_coord
from rules.engine import Action, answer, begin

W, H = 10, 8
hexes = st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))
WEAPONS = ["missile", "thrown", "polearm", "melee", "wand", "natural"]


@st.composite
def battlefields(draw):
    spots = draw(st.lists(hexes, min_size=2, max_size=7, unique=True))
    start, *foe_spots = spots
    blocked = draw(st.sets(hexes, max_size=10)) - set(spots)
    ethan = {
        "name": "Ethan",
        "side": "party",
        "at": format_coord(start),
        "ap": draw(st.integers(1, 8)),
        "stride": draw(st.sampled_from([0, 1, 2, 2, 2, 3, 4])),
    }
    people = [ethan]
    for i, spot in enumerate(foe_spots):
        people.append(
            {
                "name": f"Foe{i}",
                "side": draw(st.sampled_from(["foes", "foes", "foes", "party"])),
                "at": format_coord(spot),
                "weapon": draw(st.sampled_from(WEAPONS)),
                "range": draw(st.integers(1, 8)),
                "reach": draw(st.integers(1, 3)),
                "loaded": draw(st.sampled_from([True, True, True, False])),
                "in_hand": draw(st.sampled_from([True, True, True, False])),
                "conditions": draw(st.sampled_from([[], [], [], [], ["stunned"], ["engaged"]])),
            }
        )
    enc = AphexEncounter.model_validate(
        {
            "ruleset": "aphex",
            "map": {"width": W, "height": H, "blocked": [format_coord(b) for b in sorted(blocked)]},
            "combatants": people,
        }
    )
    # Mostly longer runs, so that there are APs to be paused after.
    goal = draw(hexes.filter(lambda g: hexgrid.distance(g, start) >= 3) | hexes)
    return enc, format_coord(goal)


def independent_windows(enc, foe, path, stride, cost):
    """Windows recomputed straight from the seed's wording, without rules.aphex.eligibility."""
    traveller = enc.get("Ethan")
    if not foe.hostile_to(traveller) or foe.weapon == "melee" or stride <= 1:
        return []
    if foe.weapon != "natural" and not foe.in_hand:
        return []
    if (foe.weapon == "missile" and not foe.loaded) or foe.conditions:
        return []
    around = set(hexgrid.neighbours(foe.pos))
    if any(c.pos in around for c in enc.combatants if c.hostile_to(foe) and c.name != "Ethan"):
        return []
    limit = foe.reach if foe.weapon == "polearm" else foe.range
    blocked = enc.map.blocked_set()
    out = []
    for k in range(1, cost):
        where = parse_coord(path[k * stride])
        if hexgrid.distance(foe.pos, where) <= limit and hexgrid.has_line_of_effect(foe.pos, where, blocked):
            out.append(k)
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battlefields())
def test_ruling_invariants(field):
    enc, goal = field
    ethan = enc.get("Ethan")
    ruling = RULESET.adjudicate(enc, Action(kind="move", who="Ethan", path=[goal]))
    if not ruling.legal:
        assert ruling.error and not ruling.points and not ruling.opportunities
        return
    path = [parse_coord(h) for h in ruling.path]
    assert path[0] == ethan.pos and ruling.path[-1] == goal
    assert all(hexgrid.distance(a, b) == 1 for a, b in itertools.pairwise(path))
    blocked = enc.map.blocked_set()
    hostile = {c.pos for c in enc.combatants if c.hostile_to(ethan)}
    assert not set(path[1:]) & (blocked | hostile)
    assert path[-1] not in {c.pos for c in enc.combatants if c.name != "Ethan"}
    moved = len(path) - 1
    assert ruling.cost == -(-moved // ethan.stride) <= ethan.ap
    # Every AP but the last, and only with a stride over 1.
    for point in ruling.points:
        k = point.detail["ap"]
        assert 1 <= k < ruling.cost and point.step == k * ethan.stride and ethan.stride > 1
    expected = {
        c.name: ks
        for c in enc.combatants
        if c.name != "Ethan" and (ks := independent_windows(enc, c, ruling.path, ethan.stride, ruling.cost))
    }
    assert {o.attacker: o.windows for o in ruling.opportunities} == expected
    for opp in ruling.opportunities:
        for point in ruling.points:
            assert (opp.attacker in point.reactors) == (point.detail["ap"] in opp.windows)
    firsts = [o.windows[0] for o in ruling.opportunities]
    assert firsts == sorted(firsts)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battlefields(), st.data())
def test_flow_invariants(field, data):
    enc, goal = field
    adj = begin(enc, Action(kind="move", who="Ethan", path=[goal]))
    if not adj.ruling.legal:
        return
    windows = {o.attacker: o.windows for o in adj.ruling.opportunities}
    asked: list[Asked] = []
    stunned_at = None
    while not adj.complete:
        assert len(asked) < 100
        q = data.draw(st.sampled_from(adj.open))
        choice = data.draw(st.sampled_from(q.choices))
        asked.append(Asked(q.kind, q.asked, q.detail["ap"], choice))
        if q.kind == "outcome" and choice == "stunned" and stunned_at is None:
            stunned_at = q.detail["ap"]
        adj = roundtrip(answer(adj, q.id, choice))
    for name, ks in windows.items():
        mine = [a for a in asked if a.asked == name and a.kind == "interrupt"]
        # Asked only inside its windows, in AP order, at most once per AP; attacks at most once.
        assert [a.ap for a in mine] == sorted({a.ap for a in mine})
        assert all(a.ap in ks for a in mine)
        assert sum(a.choice == "attack" for a in mine) <= 1
        # Nothing after a decline or an attack.
        for a in mine[:-1]:
            assert a.choice == "wait"
    assert all(a.ap < adj.ruling.cost for a in asked)
    step = len(adj.ruling.path) - 1 if stunned_at is None else stunned_at * enc.get("Ethan").stride
    assert adj.stop_step == (None if stunned_at is None else step)
    after = AphexEncounter.model_validate(adj.model_dump(mode="json")["working"])
    assert after.get("Ethan").at == adj.ruling.path[step]
    assert after.get("Ethan").has("stunned") == (stunned_at is not None)
