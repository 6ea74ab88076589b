"""Dependencies point one way (SPEC §1): storage -> rules only; cogs never import bot."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _imports(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("storage", {"discord", "simcord", "bot", "cogs", "render"}),
        ("cogs", {"bot", "simcord"}),
    ],
)
def test_package_does_not_import(package, forbidden):
    offenders = {path: names & forbidden for path, names in _imports(package).items() if names & forbidden}
    assert offenders == {}
