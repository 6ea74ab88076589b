"""Rendering from worker threads, as the bot does (it never renders on the event loop)."""

from __future__ import annotations


def test_renders_in_parallel_threads_match_serial_ones():
    # The bot renders in worker threads; sprite and font caches must not mix up concurrent renders.
    from concurrent.futures import ThreadPoolExecutor

    from render import draw
    from rules.rulesets import encounter_model

    def enc(i):
        data = {
            "ruleset": "dnd35",
            "map": {"width": 10, "height": 8},
            "combatants": [
                {"name": f"Thread Tester {i}", "side": "a", "at": "B2"},
                {"name": f"Other {i * 7}", "side": "b", "at": f"C{i % 8 + 1}"},
            ],
        }
        return encounter_model("dnd35").model_validate(data)

    encounters = [enc(i) for i in range(12)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda e: draw(e, threatened={(1, 1), (2, 2)}), encounters))
    assert parallel == [draw(e, threatened={(1, 1), (2, 2)}) for e in encounters]
