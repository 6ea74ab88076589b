"""The ruleset-independent state machine of rules/engine.py, driven here through the dnd35 ruleset."""

from __future__ import annotations

import pytest

from rules.dnd35.model import Dnd35Encounter
from rules.engine import Action, Adjudication, Question, answer, begin, timeout_choice
from rules.errors import InputError


def encounter() -> Dnd35Encounter:
    return Dnd35Encounter.model_validate(
        {
            "ruleset": "dnd35",
            "map": {"width": 10, "height": 10},
            "combatants": [
                {"name": "Ethan", "side": "party", "at": "E6"},
                {"name": "Orc", "side": "monsters", "at": "F6"},
                {"name": "Gob", "side": "monsters", "at": "A7"},
            ],
        }
    )


MOVE = Action(kind="move", who="Ethan", path=["D6", "C6", "B6", "B5"])


def test_ruling_json_is_exactly_spec_4():
    adj = begin(encounter(), MOVE)
    data = adj.ruling.to_json()
    assert list(data) == [
        "ruleset",
        "who",
        "action",
        "mode",
        "legal",
        "error",
        "path",
        "cost",
        "opportunities",
        "stop_at",
        "notes",
    ]
    assert data["path"] == ["E6", "D6", "C6", "B6", "B5"] and data["cost"] == 20
    assert data["opportunities"] == [
        {"attacker": "Orc", "at": "E6", "trigger": "leave-threatened", "windows": None},
        {"attacker": "Gob", "at": "B6", "trigger": "leave-threatened", "windows": None},
    ]


def test_points_open_one_at_a_time_in_order():
    adj = begin(encounter(), MOVE)
    assert [q.asked for q in adj.open] == ["Orc"] and adj.cursor == 1
    adj = answer(adj, adj.open[0].id, "decline")
    assert [q.asked for q in adj.open] == ["Gob"] and adj.cursor == 2
    adj = answer(adj, adj.open[0].id, "decline")
    assert adj.complete and adj.events[-1].kind == "resolved"


def test_answer_is_pure():
    adj = begin(encounter(), MOVE)
    snapshot = adj.model_dump()
    answer(adj, adj.open[0].id, "take")
    assert adj.model_dump() == snapshot


def test_bad_answers_are_input_errors():
    adj = begin(encounter(), MOVE)
    with pytest.raises(InputError, match="not a choice"):
        answer(adj, adj.open[0].id, "maybe")
    with pytest.raises(InputError, match="no longer open"):
        answer(adj, "nope", "take")
    spent = adj.open[0].id
    adj = answer(adj, spent, "decline")
    with pytest.raises(InputError, match="no longer open"):
        answer(adj, spent, "decline")
    adj = answer(adj, adj.open[0].id, "decline")
    with pytest.raises(InputError, match="already resolved"):
        answer(adj, spent, "decline")


def test_illegal_action_completes_at_once():
    adj = begin(encounter(), Action(kind="move", who="Ethan", path=["F6"]))
    assert adj.complete and not adj.ruling.legal and adj.open == [] and adj.events == []
    assert "Orc" in (adj.ruling.error or "")


def test_no_reaction_completes_at_once_with_the_final_state():
    adj = begin(encounter(), Action(kind="move", who="Ethan", path=["D5"], mode="step"))
    assert adj.complete and adj.working.get("Ethan").at == "D5" and adj.working.get("Ethan").moved
    assert adj.before.get("Ethan").at == "E6"


def test_halt_moots_open_questions_and_skips_later_points():
    adj = begin(encounter(), MOVE)
    adj = answer(adj, adj.open[0].id, "take")
    adj = answer(adj, adj.open[0].id, "down")
    assert adj.complete and adj.halted and adj.stop_step == 0 and adj.cursor == len(adj.ruling.points)
    assert not any(e.kind == "answer" and e.data["asked"] == "Gob" for e in adj.events)


def test_answers_are_recorded_with_who_answered():
    adj = begin(encounter(), MOVE)
    adj = answer(adj, adj.open[0].id, "decline", by="timeout")
    assert adj.answers[0].by == "timeout" and adj.answers[0].choice == "decline"
    event = next(e for e in adj.events if e.kind == "answer")
    assert event.data == {
        "question": adj.answers[0].question.id,
        "question_kind": "aoo",
        "asked": "Orc",
        "choice": "decline",
        "by": "timeout",
    }


def test_timeout_choice():
    q = Question(
        id="x",
        point=0,
        kind="aoo",
        asked="Orc",
        about="Ethan",
        choices=["take", "decline"],
        timeout_choice="decline",
    )
    assert timeout_choice(q) == "decline"


def test_round_trip_through_json_at_every_step():
    adj = begin(encounter(), MOVE)
    while not adj.complete:
        adj = Adjudication.model_validate(adj.model_dump(mode="json"))
        q = adj.open[0]
        adj = answer(adj, q.id, {"aoo": "take", "outcome": "hit"}[q.kind])
    assert adj.working.get("Ethan").at == "B5"
    assert [c.aoo_used for c in adj.working.combatants] == [0, 1, 1]


def test_action_rejects_unknown_fields():
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        Action.model_validate({"kind": "move", "who": "Ethan", "path": ["C3"], "speed": 9})
