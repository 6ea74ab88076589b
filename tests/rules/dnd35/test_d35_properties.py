"""Hypothesis invariants of dnd35 rulings (issue 3)."""

from __future__ import annotations

import heapq

from d35 import move
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rules.coords import format_coord, parse_coord
from rules.dnd35 import RULESET
from rules.dnd35.model import Dnd35Encounter
from rules.dnd35.movement import MODES, budget_ft
from rules.pathfind import NEIGHBOURS, step_cost

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def encounters(draw: st.DrawFn) -> Dnd35Encounter:
    width = draw(st.integers(5, 10))
    height = draw(st.integers(5, 10))
    squares = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    n = draw(st.integers(0, 5))
    spots = draw(st.lists(squares, min_size=n + 1, max_size=n + 1, unique=True))
    blocked = draw(st.lists(squares, max_size=6, unique=True))
    blocked = [b for b in blocked if b not in spots]
    difficult = draw(st.lists(squares, max_size=4, unique=True))
    combatants = [
        {
            "name": "Mover",
            "side": "party",
            "at": format_coord(spots[0]),
            "speed": draw(st.sampled_from([10, 20, 30, 40])),
            "feats": draw(st.sampled_from([[], ["mobility"], ["spring_attack"]])),
        }
    ]
    for i, spot in enumerate(spots[1:]):
        combatants.append(
            {
                "name": f"F{i}",
                "side": draw(st.sampled_from(["monsters", "monsters", "party"])),
                "at": format_coord(spot),
                "size": draw(st.sampled_from(["tiny", "small", "medium", "medium", "large"])),
                "reach_weapon": draw(st.booleans()),
                "feats": draw(st.sampled_from([[], ["combat_reflexes"]])),
                "dex": draw(st.integers(0, 3)),
                "conditions": draw(st.sampled_from([[], [], ["flat_footed"], ["grappling"], ["blinded"]])),
            }
        )
    try:
        return Dnd35Encounter.model_validate(
            {
                "ruleset": "dnd35",
                "map": {
                    "width": width,
                    "height": height,
                    "blocked": [format_coord(b) for b in blocked],
                    "difficult": [format_coord(d) for d in difficult],
                },
                "combatants": combatants,
            }
        )
    except ValidationError:
        assume(False)
        raise


def threatened_by_foes(e: Dnd35Encounter) -> set[tuple[int, int]]:
    mover = e.get("Mover")
    result: set[tuple[int, int]] = set()
    for c in e.combatants:
        if c.side != mover.side:
            result |= RULESET.threatened(e, c.name)
    return result


def random_walk(e: Dnd35Encounter, data: st.DataObject, length: int) -> list[str]:
    x, y = parse_coord(e.get("Mover").at)
    path = []
    for _ in range(length):
        dx, dy = data.draw(st.sampled_from(NEIGHBOURS))
        x = min(max(x + dx, 0), e.map.width - 1)
        y = min(max(y + dy, 0), e.map.height - 1)
        path.append(format_coord((x, y)))
    return path


@SETTINGS
@given(encounters(), st.data())
def test_a_path_through_squares_no_foe_threatens_never_provokes(e, data):
    # 001: "You provoke an attack of opportunity when you're in a square on the battlefield that a foe
    # threatens and you leave that square." No threatened square left, no attack of opportunity.
    path = random_walk(e, data, data.draw(st.integers(1, 6)))
    occupied = [parse_coord(e.get("Mover").at), *(parse_coord(p) for p in path[:-1])]
    threatened = threatened_by_foes(e)
    r = move(e, "Mover", *path)
    if r.legal and not (set(occupied) & threatened):
        assert r.opportunities == []


@SETTINGS
@given(encounters(), st.data())
def test_path_finding_finds_a_safe_path_when_one_exists(e, data):
    # Issue 3: "the legal path within the mode's budget that gives the fewest opportunities". A reference
    # search over unthreatened squares only: if it reaches the goal within budget, the finder must too,
    # with no opportunity.
    mover = e.get("Mover")
    start = parse_coord(mover.at)
    threatened = threatened_by_foes(e)
    assume(start not in threatened)
    goal = data.draw(st.tuples(st.integers(0, e.map.width - 1), st.integers(0, e.map.height - 1)))
    assume(max(abs(goal[0] - start[0]), abs(goal[1] - start[1])) > 1)
    occupied = {parse_coord(c.at) for c in e.combatants if c.name != "Mover"}
    foes_at = {parse_coord(c.at) for c in e.combatants if c.side != mover.side}
    large = any(c.size == "large" for c in e.combatants)
    assume(not large)  # the reference search handles 1x1 spaces only
    walls = e.map.blocked_set()
    difficult = e.map.difficult_set()
    budget = mover.speed // 5
    best = {(start, 0): 0}
    heap = [(0, start, 0)]
    safe = False
    while heap:
        cost, p, parity = heapq.heappop(heap)
        if p == goal:
            safe = True
            break
        if p in threatened and p != start:
            continue  # leaving it would provoke
        for dx, dy in NEIGHBOURS:
            q = (p[0] + dx, p[1] + dy)
            if not e.map.contains(q) or q in walls or q in foes_at:
                continue
            diagonal = dx != 0 and dy != 0
            if diagonal and ((p[0] + dx, p[1]) in walls or (p[0], p[1] + dy) in walls):
                continue
            ncost = cost + step_cost(diagonal, q in difficult, parity)
            npar = parity ^ 1 if diagonal else parity
            if ncost > budget or best.get((q, npar), 10**9) <= ncost:
                continue
            best[(q, npar)] = ncost
            heapq.heappush(heap, (ncost, q, npar))
    assume(goal not in occupied and goal not in walls)
    r = move(e, "Mover", format_coord(goal))
    if safe:
        assert r.legal, r.error
        assert r.opportunities == []


@SETTINGS
@given(encounters(), st.data())
def test_a_step_never_provokes(e, data):
    # 001: "If you leave a threatened square by taking a 5-foot step, your movement doesn't provoke"
    r = move(e, "Mover", *random_walk(e, data, 1), mode="step")
    if r.legal:
        assert r.opportunities == [] and r.cost == 5


@SETTINGS
@given(encounters(), st.data(), st.sampled_from([m for m in MODES if m not in ("charge", "spring-attack")]))
def test_reported_cost_never_exceeds_the_budget(e, data, mode):
    mover = e.get("Mover")
    if data.draw(st.booleans()):
        path = random_walk(e, data, data.draw(st.integers(1, 10)))
    else:
        path = [
            format_coord(
                data.draw(st.tuples(st.integers(0, e.map.width - 1), st.integers(0, e.map.height - 1)))
            )
        ]
    r = move(e, "Mover", *path, mode=mode)
    if r.legal:
        assert r.cost <= budget_ft(mode, mover.speed)
        assert r.path[0] == mover.at
        for a, b in zip(r.path, r.path[1:], strict=False):
            (ax, ay), (bx, by) = parse_coord(a), parse_coord(b)
            assert max(abs(ax - bx), abs(ay - by)) == 1


@SETTINGS
@given(encounters(), st.data(), st.sampled_from(MODES))
def test_adjudication_is_deterministic(e, data, mode):
    path = random_walk(e, data, data.draw(st.integers(1, 6)))
    target = data.draw(st.sampled_from([None, *(c.name for c in e.combatants if c.name != "Mover")]))
    first = move(e, "Mover", *path, mode=mode, target=target)
    again = move(e.model_copy(deep=True), "Mover", *path, mode=mode, target=target)
    assert first.model_dump() == again.model_dump()


@SETTINGS
@given(encounters(), st.data(), st.sampled_from(MODES))
def test_any_answers_drive_a_move_to_a_consistent_end(e, data, mode):
    # SPEC §7.1 Timing: the move ends on a square of its path; nobody makes more AoOs than allowed.
    from rules.dnd35.creature import allowance, body
    from rules.engine import Action, answer, begin

    path = random_walk(e, data, data.draw(st.integers(1, 6)))
    target = data.draw(st.sampled_from([None, *(c.name for c in e.combatants if c.name != "Mover")]))
    adj = begin(e, Action(kind="move", who="Mover", path=path, mode=mode, target=target))
    steps = 0
    while not adj.complete:
        q = adj.open[0]
        adj = answer(adj, q.id, data.draw(st.sampled_from(q.choices)))
        steps += 1
        assert steps < 60
    if adj.ruling.legal:
        assert adj.working.get("Mover").at in adj.ruling.path
        if adj.stop_step is None:
            assert adj.working.get("Mover").at == adj.ruling.path[-1]
    for c in adj.working.combatants:
        before = adj.before.get(c.name)
        assert c.aoo_used <= max(before.aoo_used, allowance(body(before, ())))


@SETTINGS
@given(
    encounters(),
    st.data(),
    st.sampled_from(
        ["cast-spell", "disarm", "trip", "grapple", "bull-rush", "drink-potion", "cast-defensively"]
    ),
)
def test_any_answers_drive_an_action_to_completion(e, data, name):
    from rules.engine import Action, answer, begin

    others = [c.name for c in e.combatants if c.name != "Mover"]
    target = data.draw(st.sampled_from(others)) if others else None
    adj = begin(e, Action(kind="act", who="Mover", name=name, target=target))
    while not adj.complete:
        q = adj.open[0]
        assert q.asked in {c.name for c in e.combatants}
        adj = answer(adj, q.id, data.draw(st.sampled_from(q.choices)))
    assert adj.working.get("Mover").at == e.get("Mover").at
