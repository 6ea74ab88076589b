"""Builders for dragonquest rules tests: `dq.enc(...)`, `dq.fig(...)`, `dq.move(...)`, `dq.act(...)`."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dragonquest import RULESET
from rules.dragonquest.model import DragonquestEncounter
from rules.engine import Action, Ruling


class DQ:
    """Small helpers so each test states only the figures and the action it is about."""

    @staticmethod
    def fig(name: str, at: str, side: str = "party", **fields: Any) -> dict[str, Any]:
        return {"name": name, "side": side, "at": at, **fields}

    @staticmethod
    def enc(
        *figures: dict[str, Any],
        width: int = 16,
        height: int = 30,
        difficult: tuple[str, ...] = (),
        blocked: tuple[str, ...] = (),
        initiative: tuple[str, ...] = (),
    ) -> DragonquestEncounter:
        return DragonquestEncounter.model_validate(
            {
                "map": {
                    "width": width,
                    "height": height,
                    "difficult": list(difficult),
                    "blocked": list(blocked),
                },
                "initiative": list(initiative),
                "combatants": list(figures),
            }
        )

    @staticmethod
    def move(
        encounter: DragonquestEncounter,
        who: str,
        path: str = "",
        mode: str = "move",
        target: str | None = None,
    ) -> Ruling:
        action = Action(kind="move", who=who, path=path.split(), mode=mode, target=target)
        return RULESET.adjudicate(encounter, action)

    @staticmethod
    def act(encounter: DragonquestEncounter, who: str, name: str, target: str | None = None) -> Ruling:
        return RULESET.adjudicate(encounter, Action(kind="act", who=who, name=name, target=target))

    @staticmethod
    def column(col: str, start_row: int, steps: int, direction: int = -1) -> str:
        """``steps`` hexes straight along a column (north by default), start excluded."""
        return " ".join(f"{col}{start_row + direction * i}" for i in range(1, steps + 1))


@pytest.fixture
def dq() -> type[DQ]:
    return DQ
