"""Cog-test helpers: a world with an encounter already started by the GM."""

from __future__ import annotations

import pytest


@pytest.fixture
async def started(world):
    """`world` after the GM ran `/encounter start ruleset:dnd35 width:12 height:10` in its channel."""
    result = await world.gm.slash(world.channel, "encounter start", ruleset="dnd35", width=12, height=10)
    assert not result.ephemeral, result.response.content if result.response else result
    return world
