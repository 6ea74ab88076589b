"""Hypothesis-generated option values for every slash command, through the real bot (SimCord).

For each command (every one `test_security.py` classifies, which must be every one in the tree) the
options are drawn from the command's own parameter metadata: strings within their declared length
(coordinates, names, stats, huge numbers, unicode, markdown, mentions, SQL, whitespace), integers within
their declared range (Discord enforces ranges and choices client-side, so values outside them never
reach a bot), choices from their choices, users from the guild. Each example starts from the same
encounter in the command's channel and checks:

- no unhandled exception (only `OpportunistError`/`CheckFailure` are allowed, see `support.outcome`);
- the user always gets a reply, and a rejected command's reply is ephemeral;
- a rejected command changes nothing in the database (every row of every table compared).

One SimCord env serves a whole Hypothesis run: a fresh one per example would cost ~50x more.
"""

from __future__ import annotations

from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cogs.flow_support import install
from tests.reliability.support import database, outcome
from tests.reliability.test_security import COMMANDS, READ_ONLY, scenario

EXAMPLES = 30
TRIED: dict[str, list[int]] = {}  # command -> [examples, rejected]

NAMES = ["Ethan", "Brute", "Wolf", "Ogre"]
HOSTILE = [
    "@everyone",
    "@here",
    "<@&123456789012345678>",
    "<@123456789012345678>",
    "**Ruling: no AoO**",
    "__x__",
    "> quote",
    "`",
    "```",
    "||spoiler||",
    "# heading",
    "'); DROP TABLE encounters;--",
    "Robert'-- DROP TABLE encounters",
    "\u200b",
    "\u202eevil",
    "Éthan",
    "ＥＴＨＡＮ",
    "👹" * 8,
    "\x00",
    "\n\n",
    " ",
    "\t",
    "-1",
    "0",
    "9" * 60,
    "1e309",
    "nan",
    "None",
    "null",
    "{}",
    "[]",
    "%s",
    "{0}",
    "${x}",
]
ON_MAP = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("ABCDEFGHIJKLabcdefghijkl"), st.integers(1, 10))
COORDS = st.one_of(
    ON_MAP,
    st.from_regex(r"\A[A-Za-z]{1,4}-?[0-9]{0,6}\Z"),
    st.sampled_from(["A1", "L10", "M1", "A11", "Z99", "CV100", "CW101", "A0", "A-1", "a1", "１A", "A１"]),
)
STATS = st.lists(
    st.tuples(
        st.sampled_from(
            ["size", "speed", "reach", "dex", "feats", "armed", "reach_weapon", "shape", "senses", "x", ""]
        ),
        st.one_of(
            st.sampled_from(
                [
                    "colossal",
                    "fine",
                    "yes",
                    "no",
                    "-5",
                    "0",
                    "99999999999999999999999",
                    "1e309",
                    "nan",
                    "",
                    "a,b",
                ]
            ),
            st.text(max_size=12),
        ),
    ),
    max_size=5,
).map(lambda pairs: " ".join(f"{k}={v}" for k, v in pairs))


def text_for(param: app_commands.Parameter) -> st.SearchStrategy[str]:
    """Hostile strings that fit the parameter's declared length (Discord enforces it client-side)."""
    lo = max(1, int(param.min_value or 1))
    hi = int(param.max_value) if param.max_value is not None else 100
    name = param.name
    specific: list[st.SearchStrategy[str]] = [st.sampled_from(HOSTILE), st.text(max_size=min(hi, 80))]
    if name in ("at", "path"):
        specific.append(COORDS)
        specific.append(st.lists(COORDS, min_size=1, max_size=40).map(" ".join))
    if name in ("who", "name", "target"):
        specific.append(st.sampled_from(NAMES))
        specific.append(st.from_regex(r"\A[A-Za-z][A-Za-z0-9 '_-]{0,20}[A-Za-z0-9]\Z"))  # valid, new
        specific.append(st.sampled_from(NAMES).map(lambda n: f"  {n.upper()} "))
    if name == "stats":
        specific.append(STATS)
    if name in ("action", "mode", "add", "remove", "variants"):
        words = [
            "cast-spell",
            "stand-up",
            "charge",
            "tumble",
            "prone",
            "stunned",
            "none",
            "reach_weapon_up_close",
        ]
        specific.append(st.sampled_from(words))
    return st.one_of(specific).map(lambda s: (s + "x" * lo)[: max(lo, len(s))][:hi])


def value_for(param: app_commands.Parameter, members: list[Any]) -> st.SearchStrategy[Any]:
    if param.choices:
        return st.sampled_from([c.value for c in param.choices])
    if param.type is AppCommandOptionType.string:
        return text_for(param)
    if param.type is AppCommandOptionType.integer:
        lo = int(param.min_value) if param.min_value is not None else -(2**53)
        hi = int(param.max_value) if param.max_value is not None else 2**53
        return st.one_of(st.sampled_from([lo, hi, 0 if lo <= 0 <= hi else lo]), st.integers(lo, hi))
    if param.type is AppCommandOptionType.number:
        lo = float(param.min_value) if param.min_value is not None else -1e300
        hi = float(param.max_value) if param.max_value is not None else 1e300
        return st.floats(lo, hi, allow_nan=False)
    if param.type is AppCommandOptionType.boolean:
        return st.booleans()
    if param.type is AppCommandOptionType.user:
        return st.sampled_from(members)
    raise AssertionError(f"no strategy for {param.type}: add one here")


# `/encounter import` takes only an attachment: its file content is fuzzed in test_bad_files.py.
ATTACHMENT_ONLY = {"encounter import"}
FUZZED = sorted((set(COMMANDS) | set(READ_ONLY)) - ATTACHMENT_ONLY)


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    total = sum(t for t, _ in TRIED.values())
    rejected = sum(r for _, r in TRIED.values())
    print(f"\nbad input: {total} generated commands over {len(TRIED)} commands, {rejected} rejected: {TRIED}")


@pytest.mark.parametrize("name", FUZZED)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_random_options_never_crash_and_rejections_change_nothing(world, name, data):
    env, guild, channel, gm, alice, bob = world
    command = next(
        (
            c
            for c in env.bot.tree.walk_commands()
            if isinstance(c, app_commands.Command) and c.qualified_name == name
        ),
        None,
    )
    assert command is not None, f"/{name} is not in the tree"
    params = list(command.parameters)
    assert all(p.type is not AppCommandOptionType.attachment for p in params), "see ATTACHMENT_ONLY"
    members = [gm, alice, bob]
    options = {}
    for p in params:
        if p.required or data.draw(st.booleans(), label=f"give {p.name}"):
            options[p.name] = data.draw(value_for(p, members), label=p.name)
    actor = data.draw(st.sampled_from([gm, alice]), label="actor")

    # Every example starts from the same encounter.
    await env.bot.storage.delete_encounter(channel.id)
    await install(env, channel, gm, scenario(alice.id, bob.id))
    before = database(env)
    got = await outcome(env, actor.slash(channel, name, **options))
    tried = TRIED.setdefault(name, [0, 0])
    tried[0] += 1
    tried[1] += bool(got.errors or got.user_error)

    assert not got.bugs, f"/{name} {options} by {actor.name}: {got.bugs!r}"
    r = got.result
    assert r.response is not None or r.followups, f"/{name} {options}: no reply at all"
    if got.errors or got.user_error:
        assert got.ephemeral, (
            f"/{name} {options}: rejected ({got.errors}) but the reply is public: {got.text!r}"
        )
        assert database(env) == before, f"/{name} {options}: rejected but the database changed"
