"""`rules/` is a pure library (STYLE.md 1): no discord, aiosqlite, asyncio, storage or sqlite3 imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

FORBIDDEN = ("discord", "aiosqlite", "asyncio", "storage", "sqlite3", "cogs", "bot")
RULES = Path(__file__).resolve().parents[2] / "rules"
FILES = sorted(RULES.rglob("*.py"))


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names.append(node.args[0].value)
    return names


def test_there_are_rules_files():
    assert len(FILES) > 10


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(RULES)))
def test_rules_module_imports_nothing_impure(path):
    bad = [n for n in imported_modules(path) if n.split(".")[0] in FORBIDDEN]
    assert bad == [], f"{path.name} imports {bad}"


def test_the_walker_catches_a_forbidden_import(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text("import asyncio\nfrom storage.repository import Repo\nimport discord.ext\n")
    assert [n.split(".")[0] for n in imported_modules(sample)] == ["asyncio", "storage", "discord"]
